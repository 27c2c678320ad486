# Reduced from difftest seed 962457 (comm) by `minimise.py 962457 --path sim`: both
# builds contracted np.float32(-7.0) * (np.float32(65504.0) ** 3) + (-1.0) into one fma,
# whose single rounding differs here from rounding the product first.  The product is
# computed from constants only: LLVM folds it before it forms fmas, and ptxjit now
# leaves such a product out of the contraction (lower_expr.c, all_constant).
# difftest program seed=962457 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 962457, 'mode': 'comm', 'tpb': 64, 'blocks': 3, 'rows': 192, 'ncols': 2, 'sdt': 'f32', 'grid2': False, 'mslots': [('log2', 'f32')], 'args': [('a0', 'array', 'i32', (1, 5), '2C', True), ('a1', 'array', 'i8', (21,), '1C', False), ('a2', 'array', 'f64', (4,), '1S', True), ('a3', 'array', 'u8', (36,), '1S', True), ('s0', 'scalar', 'u8', None, None, False), ('s1', 'scalar', 'b', None, None, False)], 'extra': [('out_wi', 'i64', 1, 'out'), ('out_wf', 'f64', 2, 'out')]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, a1, a2, a3, s0, s1, out_wi, out_wf):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    v7 = cuda.shfl_sync(0xffffffff, np.float64(((np.float32(-7.0) * (np.float32(65504.0) ** 3)) + (-np.float32(1.0)))), 0)
    out_wf[tid, 1] = v7


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, a1, a2, a3, s0, s1, out_wi, out_wf):
    tid = T.grid1()
    tx = R.sr(T.tx)
    s0 = R.cast(s0, 'u8')
    s1 = R.cast(s1, 'b')
    v7 = yield ('warp', ('shfl', 'f64', R.cast(R.cast(R.binop('+', R.binop('*', np.float32(-7.0), R.binop('**', np.float32(65504.0), np.int64(3), 'f32'), 'f32'), R.unop('-', np.float32(1.0), 'f32'), 'f32'), 'f64'), 'f64'), int(np.int64(0))))
    out_wf[tid, 1] = R.cast(v7, 'f64')
    yield ('end', None)


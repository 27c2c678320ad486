# Reduced from difftest seed 2510136 (comm) by `minimise.py 2510136 --path sim`: a
# product of a variable assigned cuda.laneid was taken for a product of constants,
# whose variable's cval is the intrinsic, not a value, so (v15 * 2.0) * 1e30 + 1 was
# not contracted into an fma; 40 * 1e30 is a tie that the + 1 of the fma breaks
# upwards (lower_expr.c, all_constant takes value constants only).
# difftest program seed=2510136 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 2510136, 'mode': 'comm', 'tpb': 32, 'blocks': 2, 'rows': 64, 'ncols': 2, 'sdt': 'i16', 'grid2': False, 'mslots': [('pow', 'f32'), ('hypot', 'f32')], 'args': [('a0', 'array', 'i8', (19,), '1C', False), ('a1', 'array', 'u32', (1, 3), '2F', False), ('a2', 'array', 'b', (5, 4), '2F', False), ('s0', 'scalar', 'i16', None, None, False)], 'extra': [('out_wi', 'i64', 3, 'out'), ('out_wf', 'f64', 2, 'out'), ('fa32', 'f32', 4, 'acc'), ('ua32', 'u32', 3, 'acc')]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, a1, a2, s0, out_wi, out_wf, fa32, ua32):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    v15 = cuda.laneid
    v17 = cuda.shfl_xor_sync(0xffffffff, (((v15 * np.float32(2.0)) * 1e+30) + np.int32(1)), 31)
    out_wf[tid, 0] = v17


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, a1, a2, s0, out_wi, out_wf, fa32, ua32):
    tid = T.grid1()
    tx = R.sr(T.tx)
    s0 = R.cast(s0, 'i16')
    v15 = R.cast(R.sr(T.tx % 32), 'i32')
    v17 = yield ('warp', ('xor', 'f64', R.cast(R.fma(R.binop('*', v15, np.float32(2.0), 'f64'), np.float64(1e+30), np.int32(1), 'f64'), 'f64'), int(np.int64(31))))
    out_wf[tid, 0] = R.cast(v17, 'f64')
    yield ('end', None)

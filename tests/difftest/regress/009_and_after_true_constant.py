# Reduced from difftest seed 1753767 (comm) by `minimise.py 1753767 --path sim`: both
# builds typed `1.0 and s0` as float64 (the common type of both operands).  CPython
# leaves a constant that the chain goes on after out of the bytecode, so Numba sees s0
# alone and computes v6 and its products in float32 (sema_boolop_operand).
# difftest program seed=1753767 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 1753767, 'mode': 'comm', 'tpb': 64, 'blocks': 1, 'rows': 64, 'ncols': 3, 'sdt': 'i8', 'grid2': False, 'mslots': [('pow', 'f64'), ('expm1', 'f32')], 'args': [('a0', 'array', 'u16', (15,), '1C', False), ('a1', 'array', 'u8', (7, 7), '2S', False), ('a2', 'array', 'i32', (6, 6), '2F', False), ('a3', 'array', 'i32', (4, 6), '2S', False), ('s0', 'scalar', 'f32', None, None, False)], 'extra': [('out_wi', 'i64', 3, 'out'), ('out_wf', 'f64', 1, 'out')]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, a1, a2, a3, s0, out_wi, out_wf):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    v6 = (1.0 and s0)
    v6 *= (v6 * v6)
    out_m[tid, 0] = np.float64((v6 * v6))


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, a1, a2, a3, s0, out_wi, out_wf):
    tid = T.grid1()
    tx = R.sr(T.tx)
    s0 = R.cast(s0, 'f32')
    v6 = R.cast(R.cast((np.float64(1.0) and s0), 'f32'), 'f32')
    v6 = R.cast(R.binop('*', v6, R.binop('*', v6, v6, 'f32'), 'f32'), 'f32')
    out_m[tid, 0] = R.cast(R.cast(R.binop('*', v6, v6, 'f32'), 'f64'), 'f64')
    yield ('end', None)


# reduced from difftest seed 823 on sim: out_i[0, 1] = 4294967296, should be -4294967296 (abs of a constant int32 not wrapped; fixed in sema_call.c type_abs)
# difftest program seed=823 mode=pure (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 823, 'mode': 'pure', 'tpb': 32, 'blocks': 1, 'rows': 29, 'ncols': 3, 'sdt': 'f32', 'grid2': False, 'mslots': [], 'args': [('a0', 'array', 'i32', (24,), '1C', False), ('a1', 'array', 'i16', (5, 6), '2S', False), ('a2', 'array', 'i64', (2, 7), '2C', False)]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, a0, a1, a2):
    tid = cuda.grid(1)
    if tid >= out_i.shape[0]:
        return
    out_i[tid, 1] = (np.uint16(2) * abs(np.int32(-2147483648)))
    out_i[tid, 0] = abs(np.int8(-128))


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, a0, a1, a2):
    tid = T.grid1()
    if tid >= out_i.shape[0]:
        return
    out_i[tid, 1] = R.cast(R.binop('*', np.uint16(2), R.absval(np.int32(-2147483648), 'i32'), 'i64'), 'i64')
    out_i[tid, 0] = R.cast(R.absval(np.int8(-128), 'i8'), 'i64')

# difftest program seed=101045 mode=pure (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 101045, 'mode': 'pure', 'tpb': 32, 'blocks': 1, 'rows': 29, 'ncols': 3, 'sdt': 'u16', 'grid2': False, 'mslots': [('atan2', 'f64')], 'args': [('a0', 'array', 'i16', (3, 7), '2C', False), ('a1', 'array', 'i32', (1, 5), '2F', True), ('a2', 'array', 'u8', (1,), '1C', False), ('a3', 'array', 'f32', (7, 1), '2S', False)]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, a0, a1, a2, a3):
    tid = cuda.grid(1)
    if tid >= out_i.shape[0]:
        return
    v3 = 0
    if (not tid):
        v3 = (~(~tid))
    out_i[tid, 0] = v3


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, a0, a1, a2, a3):
    tid = T.grid1()
    if tid >= out_i.shape[0]:
        return
    v3 = R.cast(np.int64(0), 'i64')
    if np.bool_(not tid):
        v3 = R.cast(R.unop('~', R.unop('~', tid, 'i64'), 'i64'), 'i64')
    out_i[tid, 0] = R.cast(v3, 'i64')


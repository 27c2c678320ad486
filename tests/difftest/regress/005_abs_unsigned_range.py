# reduced (by hand) from difftest seed 200462 --mode comm on sim: abs() of a uint64 made from a negative int16, converted to float64; the range analysis gives abs the signed range [0, 32768], so the conversion is narrowed to cvt.f64.s32 (-6.0 for 2**64-6)
# difftest program seed=200462 mode=pure (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 200462, 'mode': 'pure', 'tpb': 32, 'blocks': 1, 'rows': 32, 'ncols': 4, 'sdt': 'i32', 'grid2': False, 'mslots': [], 'args': [('a0', 'array', 'i16', (10,), '1C', False)]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, a0):
    tid = cuda.grid(1)
    if tid >= out_i.shape[0]:
        return
    out_f[tid, 0] = np.float64(abs(np.uint64(a0[(tid % a0.shape[0])])))


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, a0):
    tid = T.grid1()
    if tid >= out_i.shape[0]:
        return
    out_f[tid, 0] = R.cast(R.cast(R.absval(R.cast(a0[int(R.binop('%', tid, np.int64(a0.shape[0]), 'i64'))], 'u64'), 'u64'), 'f64'), 'f64')

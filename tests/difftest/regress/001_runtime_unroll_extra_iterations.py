# reduced from difftest seed 1004 on sim: out_f[2, 2] = np.float64(0.04958468028771155), should be np.float64(0.13640195228050164)
# difftest program seed=1004 mode=pure (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 1004, 'mode': 'pure', 'tpb': 40, 'blocks': 1, 'rows': 40, 'ncols': 4, 'sdt': 'f32', 'grid2': False, 'mslots': [], 'args': [('a0', 'array', 'f64', (10,), '1C', False), ('a1', 'array', 'u8', (33,), '1C', False), ('a2', 'array', 'b', (2,), '1C', True)]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, a0, a1, a2):
    tid = cuda.grid(1)
    if tid >= out_i.shape[0]:
        return
    for j7 in range(0, (a1[(cuda.threadIdx.x % a1.size)] % 3), 1):
        out_f[tid, 2] = a0[j7]


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, a0, a1, a2):
    tid = T.grid1()
    if tid >= out_i.shape[0]:
        return
    for j7 in range(int(np.int64(0)), int(R.binop('%', a1[int(R.binop('%', R.sr(T.tx), np.int64(a1.shape[0]), 'i64'))], np.int64(3), 'i64')), int(np.int64(1))):
        j7 = R.cast(j7, 'i64')
        out_f[tid, 2] = R.cast(a0[int(j7)], 'f64')

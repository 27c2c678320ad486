# Reduced from difftest seed 970057 by `minimise.py 970057 --path sim`: the reference was
# wrong, not ptxjit.  math.pow(-inf, 0.5) is +inf in C99, CUDA and Python's math.pow; the
# reference took NumPy's power, which computes x ** 0.5 as sqrt(x) and gave nan.  It now
# follows C99 (refrt._c_pow).
# difftest program seed=970057 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 970057, 'mode': 'comm', 'tpb': 64, 'blocks': 2, 'rows': 128, 'ncols': 2, 'sdt': 'i32', 'grid2': False, 'mslots': [('pow', 'f32')], 'args': [('a0', 'array', 'f64', (16,), '1C', False), ('a1', 'array', 'i64', (33,), '1C', False), ('a2', 'array', 'f32', (9,), '1C', False), ('a3', 'array', 'u16', (1, 7), '2C', True)], 'extra': [('out_wi', 'i64', 3, 'out')]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, a1, a2, a3, out_wi):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    v1 = (-np.float32(a0[0]))
    v2 = 0
    v2 += tid
    out_m[tid, 0] = math.pow((v1 ** 3), np.float32(a0[(v2 % a0.size)]))


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, a1, a2, a3, out_wi):
    tid = T.grid1()
    tx = R.sr(T.tx)
    v1 = R.cast(R.unop('-', R.cast(a0[int(np.int64(0))], 'f32'), 'f32'), 'f32')
    v2 = R.cast(np.int64(0), 'i64')
    v2 = R.cast(R.binop('+', v2, tid, 'i64'), 'i64')
    out_m[tid, 0] = R.cast(R.inexact('pow', [R.binop('**', v1, np.int64(3), 'f32'), R.cast(a0[int(R.binop('%', v2, np.int64(a0.shape[0]), 'i64'))], 'f32')], 'f32'), 'f64')
    yield ('end', None)


# Reduced from difftest seed 977880 by `minimise.py 977880 --path sim`: of max(...) * 0.001
# - 1e30 * tid, both builds fused the first product into an fma, whose factors are all
# constants (LLVM folds max() and copysign() of constants, so Numba fuses the second).
# A call of a pure function of constants now counts as constant (lower_expr.c, all_constant).
# difftest program seed=977880 mode=pure (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 977880, 'mode': 'pure', 'tpb': 40, 'blocks': 1, 'rows': 40, 'ncols': 4, 'sdt': 'u64', 'grid2': False, 'mslots': [], 'args': [('a0', 'array', 'u8', (20,), '1S', False), ('a1', 'array', 'i16', (31,), '1C', False), ('a2', 'array', 'u8', (6, 6), '2C', False), ('a3', 'array', 'i64', (7, 5), '2F', True)]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, a0, a1, a2, a3):
    tid = cuda.grid(1)
    if tid >= out_i.shape[0]:
        return
    out_f[tid, 1] = ((max(math.copysign(np.float32(100.0), np.float32(0.0)), 1e+30, np.float32(0.0)) * np.float32(0.001)) - (1e+30 * np.float32(tid)))


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, a0, a1, a2, a3):
    tid = T.grid1()
    if tid >= out_i.shape[0]:
        return
    out_f[tid, 1] = R.cast(R.fma(R.unop('-', R.cast(np.float64(1e+30), 'f64'), 'f64'), R.cast(tid, 'f32'), R.binop('*', R.minmax('max', [R.mcopysign(np.float32(100.0), np.float32(0.0), 'f32'), np.float64(1e+30), np.float32(0.0)], 'f64'), np.float32(0.001), 'f64'), 'f64'), 'f64')


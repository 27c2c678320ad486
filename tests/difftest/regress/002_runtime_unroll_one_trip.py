# reduced from difftest seed 1842 on sim: out_i[0, 1] = np.int64(0), should be np.int64(-1)
# difftest program seed=1842 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 1842, 'mode': 'comm', 'tpb': 64, 'blocks': 2, 'rows': 128, 'ncols': 4, 'sdt': 'i16', 'grid2': False, 'mslots': [], 'args': [('a0', 'array', 'i32', (4,), '1C', False), ('a1', 'array', 'i16', (6, 3), '2S', False), ('a2', 'array', 'u32', (9,), '1C', False), ('s0', 'scalar', 'u64', None, None, False)]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, a1, a2, s0):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    v6 = 1
    for j7 in range((s0 % 100), ((s0 % 100) + 1), 1):
        v6 %= (~v6)
    out_i[tid, 1] = v6
    sh0 = cuda.shared.array(64, np.float32)
    cuda.syncthreads()
    v15 = np.float32(0.0)
    cuda.syncthreads()
    v16 = cuda.syncthreads_count(math.isfinite((v15 - v15)))


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, a1, a2, s0):
    tid = T.grid1()
    tx = R.sr(T.tx)
    s0 = R.cast(s0, 'u64')
    v6 = R.cast(np.int64(1), 'i64')
    for j7 in range(int(R.binop('%', s0, np.int64(100), 'i64')), int(R.binop('+', R.binop('%', s0, np.int64(100), 'i64'), np.int64(1), 'i64')), int(np.int64(1))):
        j7 = R.cast(j7, 'i64')
        v6 = R.cast(R.binop('%', v6, R.unop('~', v6, 'i64'), 'i64'), 'i64')
    out_i[tid, 1] = R.cast(v6, 'i64')
    sh0 = SH('sh0', 64, np.float32)
    yield ('sync', None)
    v15 = R.cast(np.float32(0.0), 'f32')
    yield ('sync', None)
    v16 = yield ('syncthreads_count', R.misfinite(R.binop('-', v15, v15, 'f32'), 'f32'))
    yield ('end', None)

# reduced from difftest seed 582 on the GPU (gpu and gpu-O0 differ from the reference; the simulator agrees with it): open
# difftest program seed=582 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 582, 'mode': 'comm', 'tpb': 64, 'blocks': 1, 'rows': 64, 'ncols': 2, 'sdt': 'i32', 'grid2': False, 'mslots': [('cos', 'f32')], 'args': [('a0', 'array', 'f64', (34,), '1S', True), ('s0', 'scalar', 'f32', None, None, False)]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, s0):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    out_s[tid, 1] = int(math.copysign(1.0, ((0.0 * s0) - a0[((cuda.threadIdx.x + np.int32(0)) % len(a0))])))
    v2 = False
    sh0 = cuda.shared.array(64, np.float32)
    cuda.syncthreads()
    v19 = np.float32(0.0)
    cuda.syncthreads()
    sh1 = cuda.shared.array(64, np.float64)
    cuda.syncthreads()
    cuda.syncthreads()
    sh2 = cuda.shared.array(64, np.float64)
    cuda.syncthreads()
    cuda.syncthreads()
    v22 = cuda.syncthreads_or(v2)
    cuda.atomic.and_(acc, 3, np.int64(np.int32(7)))
    cuda.atomic.max(acc, 1, np.int64(np.uint64(max(0.0, min(1e+19, math.ceil((-v19)))))))
    sacc = cuda.shared.array(4, np.int64)
    if cuda.threadIdx.x < 4:
        sacc[cuda.threadIdx.x] = 0
    cuda.syncthreads()
    cuda.atomic.add(sacc, 3, np.int64(np.int32(1)))
    cuda.syncthreads()


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, s0):
    tid = T.grid1()
    tx = R.sr(T.tx)
    s0 = R.cast(s0, 'f32')
    out_s[tid, 1] = R.cast(R.cast(R.mcopysign(np.float64(1.0), R.fma(np.float64(0.0), s0, R.unop('-', R.cast(a0[int(R.binop('%', R.binop('+', R.sr(T.tx), np.int32(0), 'i64'), np.int64(a0.shape[0]), 'i64'))], 'f64'), 'f64'), 'f64'), 'f64'), 'i64'), 'i32')
    v2 = R.cast(np.bool_(False), 'b')
    sh0 = SH('sh0', 64, np.float32)
    yield ('sync', None)
    v19 = R.cast(np.float32(0.0), 'f32')
    yield ('sync', None)
    sh1 = SH('sh1', 64, np.float64)
    yield ('sync', None)
    yield ('sync', None)
    sh2 = SH('sh2', 64, np.float64)
    yield ('sync', None)
    yield ('sync', None)
    v22 = yield ('syncthreads_or', v2)
    ATOM('and_', 3, R.cast(R.cast(np.int32(7), 'i64'), 'i64'))
    ATOM('max', 1, R.cast(R.cast(R.cast(R.minmax('max', [np.float64(0.0), R.minmax('min', [np.float64(1e+19), R.mceil(R.unop('-', v19, 'f32'), 'f32')], 'f64')], 'f64'), 'u64'), 'i64'), 'i64'))
    sacc = SH('sacc', 4, np.int64)
    if T.tx < 4:
        sacc[T.tx] = 0
    yield ('sync', None)
    sacc[3] = R.binop('+', sacc[3], R.cast(R.cast(np.int32(1), 'i64'), 'i64'), 'i64')
    yield ('sync', None)
    yield ('end', None)


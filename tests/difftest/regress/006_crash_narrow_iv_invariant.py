# reduced from difftest seed 401997 --mode comm on sim (minimise.py --crash): the compiler reads past the end of Cfg.defblk in opt_invariant (loop.c:224), called by narrow_iv (range.c:880) for a step value made after the Cfg was filled; valgrind: 'Invalid read of size 1 at opt_invariant'; a segfault in about half the runs (the bytes read decide)
# difftest program seed=401997 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 401997, 'mode': 'comm', 'tpb': 64, 'blocks': 3, 'rows': 192, 'ncols': 2, 'sdt': 'u8', 'grid2': False, 'mslots': [], 'args': [('a0', 'array', 'f32', (4, 4), '2F', False), ('a1', 'array', 'i32', (7, 2), '2F', False), ('a2', 'array', 'i8', (32,), '1C', False), ('s0', 'scalar', 'f64', None, None, False), ('s1', 'scalar', 'u64', None, None, False)]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, a1, a2, s0, s1):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    v1 = 0
    v2 = (s1 and 0)
    v3, v4 = np.uint64(0), cuda.blockIdx.x
    for j5 in range(np.uint64(1)):
        for j6 in range((np.int32(0) * a2[((np.uint16(max(0.0, min(60000.0, max(np.uint64(0), cuda.blockIdx.x)))) % 0) - 0)])):
            v7, v8 = round(max((-1e+18), min(1e+18, (-v2)))), a1[((np.int16(max((-30000.0), min(30000.0, math.copysign(0.0, 0.0)))) % 0) - 0), 0]
        v1 += j5
    for j10 in range(100, (np.int32(math.copysign(0.0, 0.0)) % 100), (-1)):
        out_f[tid, 0] = np.float32(0.0)
    out_i[tid, 0] = round(max((-1e+18), min(1e+18, math.copysign(1.0, 0.0))))
    sh0 = cuda.shared.array(64, np.uint32)
    sh0[tx] = np.uint32((a1[((abs(s1) % 0) - 0), (v1 % a1.shape[1])] + np.uint32(0)))
    v11 = np.uint32(0)
    v12 = cuda.syncthreads_or((not math.isnan(v2)))
    cuda.atomic.or_(acc, 3, (np.uint8(v11) - np.int64(cuda.blockDim.x)))


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, a1, a2, s0, s1):
    tid = T.grid1()
    tx = R.sr(T.tx)
    s0 = R.cast(s0, 'f64')
    s1 = R.cast(s1, 'u64')
    v1 = R.cast(np.int64(0), 'i64')
    v2 = R.cast(R.cast((s1 and np.int64(0)), 'f64'), 'f64')
    v3, v4 = R.cast(np.uint64(0), 'u64'), R.cast(R.sr(T.bx), 'i32')
    for j5 in range(int(np.uint64(1))):
        j5 = R.cast(j5, 'u64')
        for j6 in range(int(R.binop('*', np.int32(0), a2[int(R.binop('-', R.binop('%', R.cast(R.minmax('max', [np.float64(0.0), R.minmax('min', [np.float64(60000.0), R.minmax('max', [np.uint64(0), R.sr(T.bx)], 'f64')], 'f64')], 'f64'), 'u16'), np.int64(0), 'i64'), np.int64(0), 'i64'))], 'i64'))):
            j6 = R.cast(j6, 'i64')
            v7, v8 = R.cast(R.pyround(R.minmax('max', [np.float64(-1e+18), R.minmax('min', [np.float64(1e+18), R.unop('-', v2, 'f64')], 'f64')], 'f64'), 'f64'), 'i64'), R.cast(a1[int(R.binop('-', R.binop('%', R.cast(R.minmax('max', [np.float64(-30000.0), R.minmax('min', [np.float64(30000.0), R.mcopysign(np.float64(0.0), np.float64(0.0), 'f64')], 'f64')], 'f64'), 'i16'), np.int64(0), 'i64'), np.int64(0), 'i64')), int(np.int64(0))], 'i32')
        v1 = R.cast(R.binop('+', v1, j5, 'i64'), 'i64')
    for j10 in range(int(np.int64(100)), int(R.binop('%', R.cast(R.mcopysign(np.float64(0.0), np.float64(0.0), 'f64'), 'i32'), np.int64(100), 'i64')), int(np.int64(-1))):
        j10 = R.cast(j10, 'i64')
        out_f[tid, 0] = R.cast(np.float32(0.0), 'f64')
    out_i[tid, 0] = R.cast(R.pyround(R.minmax('max', [np.float64(-1e+18), R.minmax('min', [np.float64(1e+18), R.mcopysign(np.float64(1.0), np.float64(0.0), 'f64')], 'f64')], 'f64'), 'f64'), 'i64')
    sh0 = SH('sh0', 64, np.uint32)
    sh0[int(tx)] = R.cast(R.cast(R.binop('+', a1[int(R.binop('-', R.binop('%', R.absval(s1, 'u64'), np.int64(0), 'i64'), np.int64(0), 'i64')), int(R.binop('%', v1, np.int64(a1.shape[1]), 'i64'))], np.uint32(0), 'i64'), 'u32'), 'u32')
    v11 = R.cast(np.uint32(0), 'u32')
    v12 = yield ('syncthreads_or', np.bool_(not R.misnan(v2, 'f64')))
    ATOM('or_', 3, R.cast(R.binop('-', R.cast(v11, 'u8'), R.cast(R.sr(T.bdx), 'i64'), 'i64'), 'i64'))
    yield ('end', None)


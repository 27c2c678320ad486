# Reduced from difftest seed 700319 (comm) by `minimise.py 700319 --path gpu-O0 --fault`.
# On an H100 (driver 580.159.04) the opt=False build faulted with an illegal address:
# compute-sanitizer put it at the CAS of atomic.nanmax(fa64, 3, ...), odd threads only,
# address 0x18, where the driver's machine code reads fa64 + 16 from UR38:UR39.  The PTX
# is valid.  Its edited copies, loaded through the driver in one GPU run, showed the
# trigger: removing only the `rem.s64` right after the CAS loops (which ptxas turns into
# a call of __cuda_sm20_rem_s64; `ptxas -c` gives the driver's code exactly) made the
# fault go, and so did a bar.sync after the loops; bar.warp.sync gave another fault
# (CUDA_ERROR_INVALID_ADDRESS_SPACE).  ptxjit now writes 64-bit division and remainder
# out in PTX (src/ptx/idiv.c), so no kernel calls such a routine.
# difftest program seed=700319 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 700319, 'mode': 'comm', 'tpb': 32, 'blocks': 2, 'rows': 64, 'ncols': 3, 'sdt': 'i64', 'grid2': False, 'mslots': [('sinh', 'f32')], 'args': [('a0', 'array', 'b', (5, 1), '2S', False), ('a1', 'array', 'i64', (12,), '1S', False), ('a2', 'array', 'b', (17,), '1C', False), ('a3', 'array', 'i64', (6, 3), '2S', False)], 'extra': [('out_wi', 'i64', 3, 'out'), ('out_wf', 'f64', 3, 'out'), ('fa64', 'f64', 4, 'acc')]}


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, a1, a2, a3, out_wi, out_wf, fa64):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    la4 = cuda.local.array(5, np.uint8)
    v7 = 0
    la8 = cuda.local.array(2, np.float32)
    la8[0] = np.float32(1.0)
    la8[(tid % 2)] = np.float32(0.0)
    v10 = la8[0]
    v13 = 2.5
    sh0 = cuda.shared.array(32, np.int16)
    cuda.syncthreads()
    cuda.syncthreads()
    sh1 = cuda.shared.array(32, np.uint32)
    cuda.syncthreads()
    cuda.syncthreads()
    cuda.atomic.sub(acc, 0, v7)
    cuda.atomic.max(acc, 1, np.int64(np.uint16(2)))
    cuda.atomic.min(acc, 2, round(max((-1e+18), min(1e+18, min(v13, v10)))))
    v26 = cuda.shfl_sync(0xffffffff, np.int32(0), 36)
    cuda.atomic.min(fa64, 2, 0.0)
    cuda.atomic.nanmax(fa64, 3, np.float64(v10))
    cuda.atomic.add(fa64, 0, np.float64((np.int64(a3[0, (np.uint64(0) % len(a1))]) % 257 - 128) * 0.5))
    fsh27 = cuda.shared.array(4, np.float32)
    if tx < 4:
        fsh27[tx] = 0
    cuda.syncthreads()
    cuda.atomic.add(fsh27, 0, np.float32((np.int64((np.int32(0) + v26)) % 257 - 128) * 1.0))
    cuda.syncthreads()


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, a1, a2, a3, out_wi, out_wf, fa64):
    tid = T.grid1()
    tx = R.sr(T.tx)
    la4 = np.zeros(5, np.uint8)
    v7 = R.cast(np.int64(0), 'i64')
    la8 = np.zeros(2, np.float32)
    la8[int(np.int64(0))] = R.cast(np.float32(1.0), 'f32')
    la8[int(R.binop('%', tid, np.int64(2), 'i64'))] = R.cast(np.float32(0.0), 'f32')
    v10 = R.cast(la8[int(np.int64(0))], 'f32')
    v13 = R.cast(np.float64(2.5), 'f64')
    sh0 = SH('sh0', 32, np.int16)
    yield ('sync', None)
    yield ('sync', None)
    sh1 = SH('sh1', 32, np.uint32)
    yield ('sync', None)
    yield ('sync', None)
    ATOM('sub', 0, R.cast(v7, 'i64'))
    ATOM('max', 1, R.cast(R.cast(np.uint16(2), 'i64'), 'i64'))
    ATOM('min', 2, R.cast(R.pyround(R.minmax('max', [np.float64(-1e+18), R.minmax('min', [np.float64(1e+18), R.minmax('min', [v13, v10], 'f64')], 'f64')], 'f64'), 'f64'), 'i64'))
    v26 = yield ('warp', ('shfl', 'i32', R.cast(np.int32(0), 'i32'), int(np.int64(36))))
    ATOM('min', 2, R.cast(np.float64(0.0), 'f64'), fa64)
    ATOM('nanmax', 3, R.cast(R.cast(v10, 'f64'), 'f64'), fa64)
    ATOM('add', 0, R.cast(R.cast(R.binop('*', R.binop('-', R.binop('%', R.cast(a3[int(np.int64(0)), int(R.binop('%', np.uint64(0), np.int64(a1.shape[0]), 'i64'))], 'i64'), np.int64(257), 'i64'), np.int64(128), 'i64'), np.float64(0.5), 'f64'), 'f64'), 'f64'), fa64)
    fsh27 = SH('fsh27', 4, np.float32)
    if T.tx < 4:
        fsh27[T.tx] = 0
    yield ('sync', None)
    ATOM('add', 0, R.cast(R.cast(R.binop('*', R.binop('-', R.binop('%', R.cast(R.binop('+', np.int32(0), v26, 'i64'), 'i64'), np.int64(257), 'i64'), np.int64(128), 'i64'), np.float64(1.0), 'f64'), 'f32'), 'f32'), fsh27)
    yield ('sync', None)
    yield ('end', None)


# Histogram: per-block counts with atomics on a shared int32 array, then
# merged into the global histogram with global atomics.
# sig: void(uint8[::1], int32[::1])
import numpy as np
from ptxjit import cuda

NBINS = 16


@cuda.jit
def histogram(data, hist):
    local = cuda.shared.array(NBINS, dtype=np.int32)
    t = cuda.threadIdx.x
    if t < NBINS:
        local[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < data.shape[0]:
        cuda.atomic.add(local, data[i] % NBINS, 1)
        i += stride
    cuda.syncthreads()
    if t < NBINS:
        cuda.atomic.add(hist, t, local[t])

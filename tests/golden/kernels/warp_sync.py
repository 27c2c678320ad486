# Barriers with a reduction (syncthreads_count/and/or), the warp barrier
# with and without a mask, the three fences, and nanosleep.
# sig: void(int32[::1], int32[::1], float32[::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def sync_reduce(x, out, s):
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf = cuda.shared.array(128, dtype=np.float32)
    buf[t] = s[i]
    cuda.syncwarp()
    cuda.syncwarp(0xffffffff)
    cuda.threadfence_block()
    cuda.threadfence()
    cuda.threadfence_system()
    cuda.nanosleep(100)
    n = cuda.syncthreads_count(x[i] > 0)
    a = cuda.syncthreads_and(x[i])
    o = cuda.syncthreads_or(x[i] > 1000)
    if t == 0:
        out[3 * cuda.blockIdx.x] = n
        out[3 * cuda.blockIdx.x + 1] = a
        out[3 * cuda.blockIdx.x + 2] = o

# Tree reduction of one block in shared memory: s = TPB // 2, while s > 0.
# Threads past the end contribute zeros.
# sig: void(float32[::1], float32[::1])
import numpy as np
from ptxjit import cuda

TPB = 128


@cuda.jit
def block_sum(x, partial):
    buf = cuda.shared.array(TPB, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < x.size:
        buf[tid] = x[i]
    else:
        buf[tid] = 0
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = buf[0]

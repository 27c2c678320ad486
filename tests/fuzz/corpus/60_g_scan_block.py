# Inclusive scan of each block (Hillis-Steele) in a double-buffered
# 2-D shared array; a conditional expression that must not load past the end.
# sig: void(int32[::1], int32[::1])
import numpy as np
from ptxjit import cuda

BLOCK = 64


@cuda.jit
def inclusive_scan(x, out):
    buf = cuda.shared.array((2, BLOCK), np.int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[0, t] = x[i] if i < x.size else 0
    cuda.syncthreads()
    src = 0
    offset = 1
    while offset < BLOCK:
        dst = 1 - src
        v = buf[src, t]
        if t >= offset:
            v += buf[src, t - offset]
        buf[dst, t] = v
        cuda.syncthreads()
        src = dst
        offset *= 2
    if i < x.size:
        out[i] = buf[src, t]

# Shared-memory offsets are computed in 32 bits and widened once
# (mul.wide.s32): a static array is far smaller than 2^31 bytes.
# sm[t] and sm[t + 2] share a base; tests of threadIdx against a
# constant are 32-bit comparisons.
# golden: opt
# sig: void(float32[::1], float32[::1])
from ptxjit import cuda
import numpy as np


@cuda.jit
def tile(a, out):
    sm = cuda.shared.array(258, np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < a.size:
        sm[t + 1] = a[i]
    if t < 2:
        sm[t * 257] = 0
    cuda.syncthreads()
    if i < a.size:
        out[i] = sm[t] + sm[t + 2]

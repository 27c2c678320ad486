# 1-D convolution with zero padding, a filter array and a float32 accumulator.
# sig: void(float32[::1], float32[::1], float32[::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def conv1d(x, w, out):
    i = cuda.grid(1)
    n = x.shape[0]
    k = w.shape[0]
    r = k // 2
    if i < n:
        acc = np.float32(0)
        for j in range(k):
            idx = i + j - r
            if 0 <= idx < n:
                acc += x[idx] * w[j]
        out[i] = acc

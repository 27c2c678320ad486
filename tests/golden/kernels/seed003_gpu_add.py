# Seed 003, example 1: element-wise addition without a bounds check.
# sig: void(float32[::1], float32[::1], float32[::1])
import numpy as np
from numba import cuda

@cuda.jit
def gpu_add(x, y, out):
    idx = cuda.grid(1)
    out[idx] = x[idx] + y[idx]

# Seed 000, example 1: element-wise addition indexed with cuda.grid(1).
# sig: void(float32[::1], float32[::1], float32[::1])
import numpy as np
from numba import cuda


@cuda.jit
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    out[idx] = x[idx] + y[idx]

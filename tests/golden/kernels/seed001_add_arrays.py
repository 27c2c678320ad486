# Seed 001: vector add through the fully qualified numba.cuda names.
# sig: void(float32[::1], float32[::1], float32[::1])
import numba
import numpy as np

@numba.cuda.jit
def add_arrays_cuda(x, y, out):
    idx = numba.cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]

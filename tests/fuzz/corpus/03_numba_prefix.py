import numba
import numpy as np

@numba.cuda.jit
def add_arrays_cuda(x, y, out):
    idx = numba.cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]

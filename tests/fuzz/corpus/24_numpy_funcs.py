import numpy as np
from numba import cuda

@cuda.jit
def k(x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = np.sqrt(np.abs(x[i])) + np.floor(x[i]) - np.ceil(x[i]) + np.pi
        y[i] = np.float32(y[i]) + np.int32(3) + round(x[i]) + max(x[i], 0, 1.5)

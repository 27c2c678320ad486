import numpy as np
from numba import cuda

@cuda.jit
def k(out):
    tmp = cuda.local.array(8, dtype=np.float64)
    for i in range(8):
        tmp[i] = i * 0.5
    s = 0.0
    for i in range(8):
        s += tmp[i]
    out[cuda.grid(1)] = s

import math
from numba import cuda

@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)

@cuda.jit
def k(a, n):
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    if i < a.shape[0]:
        a[i] = clamp(math.sqrt(abs(a[i])) * n, 0.0, 1.0)

import numpy as np
from numba import cuda, float32
from math import sqrt, pi

TPB = 16
N = TPB * 4
SHAPE = (TPB, TPB)
X = -1.5
F = np.float32
HALF = 1 / 2

@cuda.jit
def k(a, b, n):
    s = cuda.shared.array(SHAPE, float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    s[tx, ty] = F(X) * pi + sqrt(float(N)) * HALF
    cuda.syncthreads()
    a[0] = s[ty, tx]

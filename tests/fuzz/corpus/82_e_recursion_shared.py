# A recursive device function that allocates a shared array.
# sig: void(float32[::1])
# error: shared array
# line: 10
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def walk(a, n):
    buf = cuda.shared.array(32, np.float32)
    buf[0] = n
    if n <= 0:
        return buf[0]
    return walk(a, n - 1) + a[0]


@cuda.jit
def k(a):
    a[0] = walk(a, 3)

# A loop whose trip count is known only at run time: four bodies per test
# of `k < lim` (lim = the count rounded down to a multiple of 4), then the
# original loop for the rest; both counters in 32 bits (n is an int32 and
# k starts at 0), the addresses strength-reduced to pointer increments.
# sig: void(float32[:, ::1], float32[::1], float32[::1], int32)
# golden: opt
from ptxjit import cuda
import numpy as np


@cuda.jit
def row_dot(a, x, out, n):
    i = cuda.grid(1)
    if i < out.size:
        s = np.float32(0)
        for k in range(n):
            s += a[i, k] * x[k]
        out[i] = s

# A module-level constant int64 array built from a float out of int64's range
# (NumPy 2 raises OverflowError), so it is no constant.
# sig: void(int64[::1])
# error: call result
# line: 15
import numpy as np
from ptxjit import cuda

A = np.array((1e20, 2.0), dtype=np.int64)


@cuda.jit
def k(out):
    i = cuda.grid(1)
    out[0] = A[1] + i

# A module-level constant array whose values NumPy refuses for its dtype
# (300 does not fit uint8; NumPy 2 raises OverflowError), so it is no constant.
# sig: void(int64[::1])
# error: call result
# line: 15
import numpy as np
from ptxjit import cuda

A = np.array((300, 2), dtype=np.uint8)


@cuda.jit
def k(out):
    i = cuda.grid(1)
    out[0] = A[1] + i

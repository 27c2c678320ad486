# A shared array sized by a value only known at run time.
# sig: void(float32[::1])
# error: must be a constant
# line: 12
import numpy as np
from numba import cuda


@cuda.jit
def k(out):
    n = out.shape[0]
    s = cuda.shared.array((n, 2), np.float32)
    out[0] = s[0, 0]

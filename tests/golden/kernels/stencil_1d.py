# Three-point average in float32; the ends are copied; early return.
# sig: void(float32[::1], float32[::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def smooth3(x, out):
    i = cuda.grid(1)
    n = x.shape[0]
    if i >= n:
        return
    if i == 0 or i == n - 1:
        out[i] = x[i]
    else:
        out[i] = (x[i - 1] + x[i] + x[i + 1]) / np.float32(3.0)

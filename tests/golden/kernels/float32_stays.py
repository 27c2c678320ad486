# float32 op float32 stays float32 (rounded to float32 before the store
# into a float64 array); float32 op float64 or int64 is float64.
# sig: void(float32[::1], float64[:, ::1])
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def f32_stays(x, out):
    i = cuda.grid(1)
    if i < x.size:
        one = np.float32(1.0)
        out[i, 0] = x[i] + one
        out[i, 1] = x[i] + 1.0
        out[i, 2] = x[i] * x[i]
        out[i, 3] = math.sqrt(x[i])
        out[i, 4] = x[i] + 1
        out[i, 5] = x[i] / np.float32(3)

# A shared array whose shape is an argument.
# sig: void(float32[::1], int64)
# error: shape
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x, n):
    buf = cuda.shared.array(n, dtype=np.float32)
    buf[0] = 1
    x[0] = buf[0]

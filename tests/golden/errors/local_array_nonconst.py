# A local array whose shape is an argument.
# sig: void(float32[::1], int64)
# error: shape
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x, n):
    tmp = cuda.local.array(n, dtype=np.float32)
    tmp[0] = 1
    x[0] = tmp[0]

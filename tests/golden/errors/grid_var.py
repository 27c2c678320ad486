# cuda.grid(n) with n not a constant.
# sig: void(float32[::1], int64)
# error: cuda.grid
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x, n):
    i = cuda.grid(n)
    x[i] = 1

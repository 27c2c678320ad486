# cuda.grid(4): there are only three dimensions.
# sig: void(float32[::1])
# error: cuda.grid
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i, j, l, m = cuda.grid(4)
    x[i] = 1

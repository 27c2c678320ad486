# Adding a tuple to an array.
# sig: void(float32[::1], float32[::1])
# error: tuple
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x, out):
    y = x + (1, 2)
    out[0] = y[0]

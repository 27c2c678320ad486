# A math function that does not exist.
# sig: void(float32[::1])
# error: frobnicate
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    x[i] = math.frobnicate(x[i])

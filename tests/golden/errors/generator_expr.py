# A generator expression.
# sig: void(float32[::1])
# error: generator
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    g = (x[j] for j in range(4))
    x[i] = 0

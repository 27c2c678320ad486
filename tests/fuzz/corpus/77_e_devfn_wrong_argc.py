# A device function called with too few arguments.
# sig: void(float32[::1])
# error: argument
# line: 18
import math
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def blend(a, b, t):
    return a + (b - a) * t


@cuda.jit
def k(x):
    i = cuda.grid(1)
    x[i] = blend(x[i], 2.0)

# A device function called with too many arguments.
# sig: void(float32[::1])
# error: argument
# line: 18
import math
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def twice(a):
    return a * 2


@cuda.jit
def k(x):
    i = cuda.grid(1)
    x[i] = twice(x[i], 1, 2)

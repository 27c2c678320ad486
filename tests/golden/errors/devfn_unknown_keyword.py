# A device function called with a keyword it does not have.
# sig: void(float32[::1])
# error: scale
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
    x[i] = twice(x[i], scale=3)

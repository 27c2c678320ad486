# A call with **kwargs.
# sig: void(float32[::1])
# error: *
# line: 18
import math
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def add(a, b):
    return a + b


@cuda.jit
def k(x):
    t = (1.0, 2.0)
    x[0] = add(**t)

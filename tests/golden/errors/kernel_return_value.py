# A kernel that returns a value.
# sig: void(float32[::1])
# error: return
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    return x[i] * 2

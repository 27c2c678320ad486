# try/except in a kernel.
# sig: void(float32[::1])
# error: try
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    try:
        x[i] = 1.0 / x[i]
    except ZeroDivisionError:
        x[i] = 0

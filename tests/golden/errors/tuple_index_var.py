# Indexing a tuple of mixed types with a variable.
# sig: void(float32[::1])
# error: tuple
# line: 14
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    t = (1, 2.5)
    x[i] = t[i]

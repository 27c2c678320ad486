# Indexing an array with a float.
# sig: void(float32[::1])
# error: index
# line: 14
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    j = i * 0.5
    x[i] = x[j]

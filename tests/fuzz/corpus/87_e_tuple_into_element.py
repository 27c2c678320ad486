# Storing a tuple into one element of a 1-D array.
# sig: void(float32[::1])
# error: tuple
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    x[0] = (1.0, 2.0)

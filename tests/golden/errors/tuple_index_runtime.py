# A tuple of arrays indexed with a value known only at run time.
# sig: void(float32[::1], float32[::1], int64)
# error: can only be indexed with a constant
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(a, b, j):
    arrays = (a, b)
    arrays[j][0] = 1.0

# range() with four arguments.
# sig: void(float32[::1])
# error: range
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    for j in range(0, 10, 2, 1):
        x[0] += j

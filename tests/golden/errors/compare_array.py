# Comparing a whole array with a number.
# sig: void(float32[::1])
# error: array
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    if x > 0:
        x[0] = 1

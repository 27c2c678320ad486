# A constant tuple index out of range.
# sig: void(float32[::1])
# error: index
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    t = (1.0, 2.5)
    x[0] = t[2]

# Calling an int.
# sig: void(float32[::1])
# error: call
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    n = 5
    x[0] = n(3)

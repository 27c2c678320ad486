# Unpacking three values into two names.
# sig: void(float32[::1])
# error: unpack
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    a, b = (1, 2, 3)
    x[0] = a + b

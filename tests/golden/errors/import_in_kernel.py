# An import statement inside a kernel.
# sig: void(float32[::1])
# error: import
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    import cmath
    x[0] = 1

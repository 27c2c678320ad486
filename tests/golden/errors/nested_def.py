# A decorated function defined inside a kernel.
# sig: void(float32[::1])
# error: def
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    @cuda.jit(device=True)
    def helper(v):
        return v + 1
    x[0] = helper(x[0])

# A lambda inside a kernel.
# sig: void(float32[::1])
# error: lambda
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    f = lambda v: v * 2
    x[i] = f(x[i])

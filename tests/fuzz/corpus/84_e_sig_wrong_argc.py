# A signature with fewer arguments than the kernel.
# sig: void(float32[::1])
# error: argument
# where: signature
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x, y):
    x[0] = y[0]

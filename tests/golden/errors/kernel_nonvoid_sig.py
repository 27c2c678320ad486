# A kernel signature with a return type.
# sig: float32(float32[::1])
# error: void
# where: signature
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    x[0] = 1

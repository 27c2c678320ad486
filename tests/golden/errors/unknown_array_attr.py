# An array attribute that does not exist.
# sig: void(float32[::1])
# error: lenght
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    x[0] = x.lenght

# A set display.
# sig: void(float32[::1])
# error: set
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    s = {1, 2}
    x[0] = 1

# A del statement.
# sig: void(float32[::1])
# error: del
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    v = x[0]
    del v
    x[0] = 1

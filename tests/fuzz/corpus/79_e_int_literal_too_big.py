# An integer literal that fits no integer type.
# sig: void(int64[::1])
# error: integer
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    x[0] = 100000000000000000000000

# Two equal signs.
# sig: void(float32[::1])
# error: syntax
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    x[0] = = 3

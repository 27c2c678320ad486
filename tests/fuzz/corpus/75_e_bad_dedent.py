# A dedent to a column no block started at.
# sig: void(float32[::1])
# error: indent
# line: 14
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    if x[0] > 0:
        x[0] = 1
      x[1] = 2

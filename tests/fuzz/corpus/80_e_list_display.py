# A list display.
# sig: void(float32[::1])
# error: list
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    vals = [1.0, 2.0]
    x[0] = vals[0]

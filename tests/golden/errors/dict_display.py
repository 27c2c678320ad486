# A dict display.
# sig: void(float32[::1])
# error: dict
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    d = {1: 2.0}
    x[0] = d[1]

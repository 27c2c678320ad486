# cuda.atomic.add on a scalar.
# sig: void(float32[::1], float32)
# error: array
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x, total):
    cuda.atomic.add(total, 0, x[0])

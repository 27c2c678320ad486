# A shared array whose dtype is not a type.
# sig: void(float32[::1])
# error: dtype
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    buf = cuda.shared.array(16, dtype=3)
    buf[0] = 1
    x[0] = buf[0]

# The @ operator.
# sig: void(float32[:, ::1], float32[:, ::1])
# error: @
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(a, b):
    c = a @ b
    a[0, 0] = c[0, 0]

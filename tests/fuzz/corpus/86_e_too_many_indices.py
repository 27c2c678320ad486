# Three indices into a 2-D array.
# sig: void(float32[:, ::1])
# error: index
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(a):
    a[0, 1, 2] = 1.0

# cuda.syncthreads() given an argument.
# sig: void(float32[::1])
# error: syncthreads
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    cuda.syncthreads(1)
    x[0] = 1

# A cuda attribute that does not exist.
# sig: void(float32[::1])
# error: threadIdy
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.threadIdy.x
    x[i] = 1

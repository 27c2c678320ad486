# A variable assigned an int and then an array, whose values meet after the if.
# sig: void(float32[::1])
# error: array
# line: 14
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    v = 0
    if x[0] > 0:
        v = x
    x[1] = v

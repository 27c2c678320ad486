# A while loop whose condition is a string.
# sig: void(float32[::1])
# error: str
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    while "forever":
        x[0] = 1

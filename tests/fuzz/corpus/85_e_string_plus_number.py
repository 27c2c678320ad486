# Adding a string and an array element.
# sig: void(float32[::1])
# error: str
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    x[i] = "1" + x[i]

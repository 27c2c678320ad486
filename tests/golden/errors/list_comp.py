# A list comprehension.
# sig: void(float32[::1])
# error: comprehension
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    vals = [x[j] for j in range(4)]
    x[i] = vals[0]

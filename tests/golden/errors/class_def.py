# A class statement inside a kernel.
# sig: void(float32[::1])
# error: class
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    class Point:
        pass
    x[0] = 1

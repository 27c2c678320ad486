# A global statement.
# sig: void(float32[::1])
# error: global
# line: 15
import math
import numpy as np
from ptxjit import cuda


counter = 0


@cuda.jit
def k(x):
    global counter
    counter += 1
    x[0] = counter

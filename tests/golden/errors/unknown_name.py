# A name that is neither local, argument nor global.
# sig: void(float32[::1])
# error: undefined_thing
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    x[i] = undefined_thing + 1

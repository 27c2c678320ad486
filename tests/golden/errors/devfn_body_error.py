# An error inside a device function: the message points into it.
# sig: void(float32[::1])
# error: str
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def scale(v):
    return v * "2"


@cuda.jit
def k(x):
    i = cuda.grid(1)
    x[i] = scale(x[i])

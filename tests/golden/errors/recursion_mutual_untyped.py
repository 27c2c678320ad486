# Mutual recursion where neither function has a base case that returns
# before the recursive call.
# sig: void(float64[::1])
# error: recursion without a way to type it
# line: 18
import math
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def ping(x):
    return pong(x * 0.5)


@cuda.jit(device=True)
def pong(x):
    return ping(x + 1.0)


@cuda.jit
def k(out):
    i = cuda.grid(1)
    out[i] = ping(out[i])

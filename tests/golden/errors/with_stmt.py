# A with statement in a kernel.
# sig: void(float32[::1])
# error: with
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    with open("log.txt") as f:
        x[i] = 1

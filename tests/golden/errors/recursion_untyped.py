# A recursive device function whose every return calls itself: its
# return type cannot be inferred.
# sig: void(int64[::1])
# error: recursion without a way to type it
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def down(n):
    return down(n - 1) + 1


@cuda.jit
def k(out):
    i = cuda.grid(1)
    out[i] = down(i)

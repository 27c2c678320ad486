# Neighbouring elements share one address: a[i - 1] and a[i + 1] are
# [%rd+-4] and [%rd+4] of the address of a[i] (64-bit offsets: no launch
# facts in this compile).
# golden: opt
# sig: void(float32[::1], float32[::1])
from ptxjit import cuda
import numpy as np


@cuda.jit
def smooth(a, out):
    i = cuda.grid(1)
    if 0 < i < a.size - 1:
        out[i] = a[i - 1] + a[i] + a[i + 1]

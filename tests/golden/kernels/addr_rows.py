# Rows of a 2-D array: a[y, x - 2] and a[y, x + 2] are [%rd+-16] and
# [%rd+16] of one base; the rows above and below have bases of their own.
# golden: opt
# sig: void(float64[:, ::1], float64[:, ::1])
from ptxjit import cuda
import numpy as np


@cuda.jit
def rows(a, out):
    y, x = cuda.grid(2)
    if 1 <= y < a.shape[0] - 1 and 2 <= x < a.shape[1] - 2:
        out[y, x] = a[y - 1, x] + a[y + 1, x] + a[y, x - 2] + a[y, x + 2]

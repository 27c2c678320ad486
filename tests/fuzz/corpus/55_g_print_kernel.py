# print() from a kernel: numbers of every kind, strings, bools, tuples.
# sig: void(float32[::1], int32[::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def show(x, n):
    i = cuda.grid(1)
    if i < x.size:
        print("thread", i, "x =", x[i], "n =", n[i], i % 2 == 0, (i, x[i]), np.uint8(200), "100%")
        if i == 0:
            print()
            print(1 + 2j, None)

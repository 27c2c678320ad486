# A chain of float32 arithmetic, abs of float32.
# sig: void(float32[::1], float32[::1], float32[::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def f32_chain(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        c = a / b
        d = c * c - a
        out[i] = d / (np.float32(1) + abs(b))

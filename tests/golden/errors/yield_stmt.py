# yield makes a generator, not a kernel.
# sig: void(float32[::1])
# error: yield
# line: 13
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    yield x[i]

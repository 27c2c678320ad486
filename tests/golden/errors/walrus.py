# An assignment expression.
# sig: void(float32[::1])
# error: :=
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    if (n := x.size) > 0:
        x[0] = n

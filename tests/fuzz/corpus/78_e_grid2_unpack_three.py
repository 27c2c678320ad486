# cuda.grid(2) unpacked into three names.
# sig: void(float32[:, ::1])
# error: unpack
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    i, j, l = cuda.grid(2)
    x[i, j] = l

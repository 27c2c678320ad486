# cuda.atomic.add on an int8 array.
# sig: void(int8[::1])
# error: int8
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(counts):
    cuda.atomic.add(counts, 0, 1)

# A signature naming an unknown type.
# sig: void(floot32[::1])
# error: floot32
# where: signature
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    x[0] = 1

# Indexing an array with a string.
# sig: void(float32[::1])
# error: str
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    x[0] = x["first"]

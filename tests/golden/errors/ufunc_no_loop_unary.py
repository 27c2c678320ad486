# np.invert has loops for bool and integers only: a float is refused.
# sig: void(float32[::1], float32[::1])
# error: numpy.invert() does not support a float32 argument
# line: 11
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x, out):
    out[0] = np.invert(x[0])

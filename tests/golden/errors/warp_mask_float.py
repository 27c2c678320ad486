# A member mask is an integer.
# sig: void(float64[::1])
# error: Mask type must be an integer: the mask of cuda.shfl_sync() is float64
# line: 11
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    x[i] = cuda.shfl_sync(1.0, x[i], 0)

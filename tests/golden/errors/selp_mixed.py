# cuda.selp selects between two values of one type, as in Numba.
# sig: void(float32[::1], int32[::1])
# error: cuda.selp() needs two values of the same type, not float32 and int32
# line: 11
from ptxjit import cuda


@cuda.jit
def k(x, y):
    i = cuda.grid(1)
    x[i] = cuda.selp(i > 3, x[i], y[i])

# cuda.popc counts the bits of an integer.
# sig: void(float32[::1], int32[::1])
# error: cuda.popc() takes an integer, not float32
# line: 11
from ptxjit import cuda


@cuda.jit
def k(x, out):
    i = cuda.grid(1)
    out[i] = cuda.popc(x[i])

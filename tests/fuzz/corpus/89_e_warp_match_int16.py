# match_any_sync compares 32- and 64-bit integers and floats.
# sig: void(int16[::1], int32[::1])
# error: compares 32- and 64-bit integers and floats, not int16
# line: 11
from ptxjit import cuda


@cuda.jit
def k(x, out):
    i = cuda.grid(1)
    out[i] = cuda.match_any_sync(0xffffffff, x[i])

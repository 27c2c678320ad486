# cuda.const.array_like of a kernel argument (only host arrays known at
# compile time can be constants).
# sig: void(float32[::1])
# error: known when the kernel is compiled
# line: 11
from numba import cuda


@cuda.jit
def k(out):
    c = cuda.const.array_like(out)
    out[0] = c[0]

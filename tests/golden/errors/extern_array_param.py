# ptxjit passes numbers to external functions, not arrays.
# sig: void(float32[::1])
# error: are not supported (ptxjit passes numbers
# line: 12
from ptxjit import cuda

total = cuda.declare_device("total", "float32(float32[::1])")


@cuda.jit
def k(r):
    r[0] = total(r)

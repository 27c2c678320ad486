# An array passed where an external function takes a number.
# sig: void(float32[::1])
# error: takes a float32 here, not array(float32
# line: 12
from ptxjit import cuda

neg = cuda.declare_device("neg", "float32(float32)")


@cuda.jit
def k(r):
    r[0] = neg(r)

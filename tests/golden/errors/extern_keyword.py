# External functions take their arguments by position.
# sig: void(int32[::1])
# error: takes no keyword arguments
# line: 12
from ptxjit import cuda

times2 = cuda.declare_device("times2", "int32(int32)")


@cuda.jit
def k(r):
    r[0] = times2(a=r[0])

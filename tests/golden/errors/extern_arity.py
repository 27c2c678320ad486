# An external function takes the arguments of its declaration.
# sig: void(int32[::1])
# error: takes 1 argument but 2 were given
# line: 12
from ptxjit import cuda

times2 = cuda.declare_device("times2", "int32(int32)")


@cuda.jit
def k(r):
    r[0] = times2(r[0], 1)

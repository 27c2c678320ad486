# A function of cuda.declare_device is code from outside: the simulator cannot run it.
# sig: void(int32[::1])
# flags: --sim
# error: the simulator cannot run code from outside Python
# line: 13
from ptxjit import cuda

times2 = cuda.declare_device("times2", "int32(int32)")


@cuda.jit
def k(r):
    r[0] = times2(r[0])

# A complex result of an external function is not supported.
# sig: void(complex64[::1])
# error: results of type complex64 are not supported
# line: 12
from ptxjit import cuda

conj = cuda.declare_device("conj", "complex64(float32)")


@cuda.jit
def k(r):
    r[0] = conj(1.0)

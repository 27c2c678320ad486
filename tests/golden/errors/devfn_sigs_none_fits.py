# A device function declared for float32 and int32 called with complex
# numbers: no declared signature takes them, and the message lists them all.
# sig: void(complex128[::1])
# error: Invalid use of type add() with parameters (complex128, complex128): no declared signature of add() takes them
# line: 16
from ptxjit import cuda


@cuda.jit(["float32(float32, float32)", "int32(int32, int32)"], device=True)
def add(a, b):
    return a + b


@cuda.jit
def k(z):
    z[0] = add(z[1], z[2])

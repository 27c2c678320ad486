# a * x + y in float32 with a scalar argument.
# sig: void(float32, float32[::1], float32[::1], float32[::1])
# golden: ast, opt
from ptxjit import cuda


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a * x[i] + y[i]

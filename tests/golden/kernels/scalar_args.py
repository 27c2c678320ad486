# Scalar arguments of several types: bool, int64, float64.
# sig: void(float32[::1], boolean, int64, float64)
from ptxjit import cuda


@cuda.jit
def scalar_args(out, negate, offset, scale):
    i = cuda.grid(1)
    if i < out.size:
        v = (i + offset) * scale
        if negate:
            v = -v
        out[i] = v

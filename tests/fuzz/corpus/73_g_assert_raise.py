# assert with a message and raise in a branch that is never taken.
# sig: void(float32[::1], float32[::1])
from ptxjit import cuda


@cuda.jit
def guards(x, out):
    i = cuda.grid(1)
    if i < x.size:
        assert x[i] >= 0, "negative input"
        if x[i] > 1e30:
            raise ValueError("input too large")
        out[i] = x[i] * 2

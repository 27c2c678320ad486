# Negative indices wrap around, constant and computed, 1-D and 2-D.
# sig: void(float32[::1], float32[:, ::1], float32[::1])
from ptxjit import cuda


@cuda.jit
def neg_index(x, m, out):
    i = cuda.grid(1)
    n = x.shape[0]
    if i < n:
        out[i] = x[-1] + x[i - n] * 10 + m[-1, -2] * 100 + x[-(i + 1)] * 1000

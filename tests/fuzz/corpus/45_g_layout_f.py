# Fortran-ordered 2-D arrays.
# sig: void(float32[::1, :], float32[::1, :], float32[::1, :])
from ptxjit import cuda


@cuda.jit
def add_f(a, b, out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] + b[i, j] * i

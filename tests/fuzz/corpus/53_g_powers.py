# ** with integer exponents: constant, negative, and computed at run time.
# sig: void(float64[::1], float32[::1], float64[:, ::1])
from ptxjit import cuda


@cuda.jit
def powers(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = x[i] ** 2
        out[i, 1] = x[i] ** 3
        out[i, 2] = y[i] ** 2
        out[i, 3] = x[i] ** -1
        out[i, 4] = 2 ** 10 + (i % 4) ** 3
        n = i % 5
        out[i, 5] = x[i] ** n

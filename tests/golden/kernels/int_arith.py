# Integer arithmetic with Python semantics: floor division and modulo with
# negative operands, integer powers, and division by zero giving 0.
# sig: void(int64[::1], int64[::1], int64[:, ::1])
from ptxjit import cuda


@cuda.jit
def int_ops(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = -x // 3
        out[i, 3] = x % -7
        out[i, 4] = (x % 5 - 2) ** 3
        out[i, 5] = 2 ** (i % 10)
        out[i, 6] = x // (y - y)
        out[i, 7] = -x // y + (-x) % y
        out[i, 8] = x ** 0 + y ** 1

# Chained comparisons, with mixed float and int operands.
# sig: void(float64[::1], int64[::1], int32[:, ::1])
from ptxjit import cuda


@cuda.jit
def chained(x, k, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = 0.25 <= x[i] < 0.75
        out[i, 1] = -1 < k[i] <= 2 < 5
        out[i, 2] = x[i] < k[i] == k[i] > -10
        out[i, 3] = k[i] != 0 != x[i]
        out[i, 4] = 0 <= k[i] < 3 and not 0.5 < x[i] <= 1
        out[i, 5] = k[i] == k[i] >= 0 > x[i] - 1

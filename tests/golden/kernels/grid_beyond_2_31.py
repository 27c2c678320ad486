# cuda.grid(1) and cuda.gridsize(1) in 64 bits: a grid may have more than
# 2**31 threads.
# sig: void(int64[::1], int64)
from numba import cuda


@cuda.jit
def last(out, n):
    i = cuda.grid(1)
    if i > n - out.shape[0] and i < n:
        out[i - (n - out.shape[0])] = i
    if i == 0:
        out[0] = cuda.gridsize(1)

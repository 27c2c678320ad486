from numba import cuda

@cuda.jit
def laplace(a, out):
    i, j = cuda.grid(2)
    n, m = a.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

# One Jacobi step of the Laplace equation in float64; the shape unpacked
# into two names; chained comparisons; elif.
# sig: void(float64[:, ::1], float64[:, ::1])
from ptxjit import cuda


@cuda.jit
def jacobi_step(a, out):
    i, j = cuda.grid(2)
    n, m = a.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    elif i < n and j < m:
        out[i, j] = a[i, j]

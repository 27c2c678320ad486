# 3-D indexing with cuda.grid(3).
# sig: void(float64[:, :, ::1], float64[:, :, ::1])
from ptxjit import cuda


@cuda.jit
def scale_3d(a, out):
    i, j, k = cuda.grid(3)
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        out[i, j, k] = a[i, j, k] * (i + 1) + j * 10 + k * 100

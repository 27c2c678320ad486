# 2-D indexing with cuda.grid(2); 2 * float32 is float64, stored back as float32.
# sig: void(float32[:, ::1], float32[:, ::1], float32[:, ::1])
from ptxjit import cuda


@cuda.jit
def sub_2d(a, b, out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] - 2 * b[i, j]

# Arrays of any layout (strided views), 2-D.
# sig: void(float32[:, :], float32[:, :])
from ptxjit import cuda


@cuda.jit
def strided_copy(a, out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] + 1

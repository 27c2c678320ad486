# A 1-D array of any layout (a strided view) read and written.
# sig: void(float64[:], float64[:])
from ptxjit import cuda


@cuda.jit
def strided_1d(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] * 3 - a[-1]

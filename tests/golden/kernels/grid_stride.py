# Grid-stride loop over range(start, n, stride) with cuda.grid and cuda.gridsize.
# sig: void(float64[::1], float64[::1], float64)
from ptxjit import cuda


@cuda.jit
def scale_grid_stride(x, out, factor):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.size, stride):
        out[i] = x[i] * factor + 1.0

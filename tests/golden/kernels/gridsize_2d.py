# 2-D grid-stride loops with cuda.gridsize(2): a transpose of any size
# with a grid of any size.
# sig: void(float32[:, ::1], float32[:, ::1])
from ptxjit import cuda


@cuda.jit
def transpose_grid_stride(a, out):
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    for i in range(x0, out.shape[0], sx):
        for j in range(y0, out.shape[1], sy):
            out[i, j] = a[j, i]

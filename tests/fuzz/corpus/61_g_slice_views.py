# Basic slicing to views: a row of a 2-D array, a slice and a strided
# slice of a 1-D array, negative indices into a view, a view's shape.
# sig: void(float32[:, ::1], float32[::1], float32[::1])
from ptxjit import cuda


@cuda.jit
def slices(m, x, out):
    i = cuda.grid(1)
    if i < m.shape[0]:
        row = m[i]
        head = x[1:3]
        evens = x[::2]
        out[i] = row[0] + row[-1] + head[0] * 10 + head.shape[0] * 100 + evens[1] * 1000

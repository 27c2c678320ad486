# Views passed on to device functions: rows, columns, strided and
# reversed slices of 1-D and 2-D arrays, and views of views.
# sig: void(float64[:, ::1], float64[::1])
from numba import cuda


@cuda.jit(device=True)
def total(v):
    s = 0.0
    for k in range(v.shape[0]):
        s += v[k]
    return s


@cuda.jit(device=True)
def scale(v, f):
    for k in range(v.shape[0]):
        v[k] *= f


@cuda.jit
def views(m, out):
    i = cuda.grid(1)
    if i < m.shape[0]:
        row = m[i, :]
        out[i] = total(row) + total(m[:, 0]) + total(row[::-2]) + total(m[i, 10:2:-3])
        scale(m[i, 1::2], 2.0)

# A device function that takes an array and returns from inside a loop;
# a void device function that stores into an array.
# sig: void(float32[:, ::1], float32, int64[::1])
from ptxjit import cuda


@cuda.jit(device=True)
def first_above(m, row, thr):
    for j in range(m.shape[1]):
        if m[row, j] > thr:
            return j
    return -1


@cuda.jit(device=True)
def put(out, i, v):
    out[i] = v


@cuda.jit
def first_above_kernel(m, thr, out):
    i = cuda.grid(1)
    if i < m.shape[0]:
        put(out, i, first_above(m, i, thr))

# Arrays of bool in and out; a count with an atomic add.
# sig: void(boolean[::1], boolean[::1], boolean[::1], int64[::1])
from ptxjit import cuda


@cuda.jit
def bool_arrays(a, b, out, count):
    i = cuda.grid(1)
    if i < a.size:
        v = a[i] and not b[i]
        out[i] = v
        if v:
            cuda.atomic.add(count, 0, 1)

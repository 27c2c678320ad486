# Stream compaction with the old value an atomic add returns.
# sig: void(float32[::1], float32[::1], int32[::1])
from ptxjit import cuda


@cuda.jit
def compact_positive(x, out, count):
    i = cuda.grid(1)
    if i < x.size and x[i] > 0:
        slot = cuda.atomic.add(count, 0, 1)
        out[slot] = x[i]

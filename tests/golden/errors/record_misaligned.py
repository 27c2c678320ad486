# A packed record whose float64 field is not aligned.
# sig: void(Record(a[type=int8;offset=0],b[type=float64;offset=1];9;False)[::1], float64[::1])
# error: not aligned
# line: 11
from numba import cuda


@cuda.jit
def k(a, out):
    i = cuda.grid(1)
    out[i] = a[i].b

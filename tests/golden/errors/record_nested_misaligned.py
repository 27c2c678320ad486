# A packed record whose nested record field lies at an odd byte: its
# float32 fields would be misaligned.
# sig: void(Record(m[type=int8;offset=0],p[type=Record(x[type=float32;offset=0],y[type=float32;offset=4];8;False);offset=1];9;False)[::1], float32[::1])
# error: not aligned
# line: 12
from numba import cuda


@cuda.jit
def k(a, out):
    i = cuda.grid(1)
    out[i] = a[i].p.x

# A record field that does not exist.
# sig: void(Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)[::1], float32[::1])
# error: no field 'z'
# line: 11
from numba import cuda


@cuda.jit
def k(a, out):
    i = cuda.grid(1)
    out[i] = a[i].x + a[i].z

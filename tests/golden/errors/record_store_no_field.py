# Assigning to a record field that does not exist.
# sig: void(Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)[::1])
# error: no field 'w'
# line: 11
from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i]['w'] = 1.0

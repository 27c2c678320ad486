# A 1-d array stored into a 2-d sub-array field.
# sig: void(Record(a[type=float64;offset=0],j[type=nestedarray(int32, (2, 3));offset=8],p[type=Record(x[type=float32;offset=0],y[type=float32;offset=4];8;False);offset=32];40;False)[::1], int32[::1])
# error: cannot store array(int32, 1d, C)
# line: 11
from numba import cuda


@cuda.jit
def k(a, src):
    i = cuda.grid(1)
    a[i].j = src

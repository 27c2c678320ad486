# A sub-array field updated as a whole with an augmented assignment.
# sig: void(Record(a[type=float64;offset=0],j[type=nestedarray(int32, (2, 3));offset=8],p[type=Record(x[type=float32;offset=0],y[type=float32;offset=4];8;False);offset=32];40;False)[::1])
# error: which an augmented assignment cannot update
# line: 11
from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i].j += 1

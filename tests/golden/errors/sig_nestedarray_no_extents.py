# A record signature whose sub-array field has no extents.
# sig: void(Record(j[type=nestedarray(int32, ());offset=0];16;False)[::1])
# error: expected the extents of the sub-array
# where: signature
from ptxjit import cuda


@cuda.jit
def k(a):
    a[0].j[0] = 1

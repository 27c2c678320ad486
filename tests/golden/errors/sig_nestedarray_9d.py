# A record signature whose sub-array field has nine dimensions.
# sig: void(Record(j[type=nestedarray(int8, (1, 1, 1, 1, 1, 1, 1, 1, 1));offset=0];1;False)[::1])
# error: a sub-array field has at most 8 dimensions
# where: signature
from ptxjit import cuda


@cuda.jit
def k(a):
    a[0].j[0, 0, 0, 0, 0, 0, 0, 0, 0] = 1

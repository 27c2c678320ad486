# The predicate of a vote is a bool or an integer, not a float.
# sig: void(float32[::1], int32[::1])
# error: Predicate must be an integer or boolean: the predicate of cuda.ballot_sync() is float32
# line: 11
from ptxjit import cuda


@cuda.jit
def k(x, out):
    i = cuda.grid(1)
    out[i] = cuda.ballot_sync(0xffffffff, x[i])

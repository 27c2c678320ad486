# cuda.syncwarp takes one argument, the mask.
# sig: void(int32[::1])
# error: cuda.syncwarp() got an unexpected keyword argument 'lanes'
# line: 11
from ptxjit import cuda


@cuda.jit
def k(x):
    i = cuda.grid(1)
    cuda.syncwarp(lanes=0xffff)

from numba import cuda

@cuda.jit
def k(a):
    x = = 1
    if a
        pass

from numba import cuda

@cuda.jit
def k(a, out):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = a[i]
    if lane < cuda.warpsize // 2 and i is not None:
        v *= 2
    out[i] = v

from numba import cuda

@cuda.jit
def hist(data, bins, nbins):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    for j in range(i, data.shape[0], stride):
        b = int(data[j] * nbins)
        if 0 <= b < nbins:
            cuda.atomic.add(bins, b, 1)
    cuda.atomic.max(bins, 0, 0)
    old = cuda.atomic.cas(bins, 1, 0, 5)

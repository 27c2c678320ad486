# Dynamic shared memory: every cuda.shared.array(0, dtype) is the same
# memory, sized by the launch; its extent is the launch's bytes divided by
# the itemsize.  Disjoint slices of it, and a strided one.
# sig: void(float32[::1], int32[::1])
from numba import cuda
import numpy as np


@cuda.jit
def dyn(a, out):
    tx = cuda.threadIdx.x
    f = cuda.shared.array(0, dtype=np.float32)
    g = cuda.shared.array(0, dtype=np.int32)
    h = cuda.shared.array(0, dtype=np.float64)
    head = f[:32]
    tail = g[32:]
    f[tx] = a[tx]
    cuda.syncthreads()
    tail[tx] = tx
    cuda.syncthreads()
    out[tx] = g[f.shape[0] - 1 - tx] + h.shape[0] + head.shape[0] + g[::-2][0]

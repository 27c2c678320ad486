# Transpose through a padded shared tile (TILE + 1 columns, a module
# constant computed from another).
# sig: void(float32[:, ::1], float32[:, ::1])
import numpy as np
from ptxjit import cuda

TILE = 16
TILE_PAD = TILE + 1     # a padded row: no shared-memory bank conflicts


@cuda.jit
def transpose(a, out):
    tile = cuda.shared.array((TILE, TILE_PAD), np.float32)
    x = cuda.blockIdx.x * TILE + cuda.threadIdx.x
    y = cuda.blockIdx.y * TILE + cuda.threadIdx.y
    if y < a.shape[0] and x < a.shape[1]:
        tile[cuda.threadIdx.y, cuda.threadIdx.x] = a[y, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + cuda.threadIdx.x
    y = cuda.blockIdx.x * TILE + cuda.threadIdx.y
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = tile[cuda.threadIdx.x, cuda.threadIdx.y]

# 2-D indexing by hand from threadIdx, blockIdx and blockDim.
# sig: void(int32[:, ::1], int32[:, ::1])
from ptxjit import cuda


@cuda.jit
def thread_ids_2d(pos, local):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * cuda.blockDim.y + ty
    col = cuda.blockIdx.x * cuda.blockDim.x + tx
    if row < pos.shape[0] and col < pos.shape[1]:
        pos[row, col] = row * 1000 + col
        local[row, col] = ty * cuda.blockDim.x + tx

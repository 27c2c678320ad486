import numpy as np
from numba import cuda

TPB = 32 # Threads per block
@cuda.jit
def reduce_kernel(in_array, out_array):
    shared = cuda.shared.array(TPB, dtype=np.float32)
    idx = cuda.grid(1)
    tx = cuda.threadIdx.x

    shared[tx] = in_array[idx]
    cuda.syncthreads()

    i = TPB // 2
    while i > 0:
        if tx < i:
            shared[tx] += shared[tx + i]
        cuda.syncthreads()
        i //= 2

    if tx == 0:
        out_array[cuda.blockIdx.x] = shared[0]

# Seed 000 (shared/seeds/000_f786112ca0984c62.txt), examples 1 and 3, with
# only the import changed.  Example 2 (@jit(target='gpu')) is in
# seed000_jit_gpu.py.
import numpy as np
from ptxjit import cuda

@cuda.jit
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    out[idx] = x[idx] + y[idx]

def main_cuda_jit():
    N = 1024
    x = np.arange(N, dtype=np.float32)
    y = np.arange(N, dtype=np.float32)
    out = np.empty_like(x)

    threadsperblock = 256
    blockspergrid = (N + (threadsperblock - 1)) // threadsperblock

    add_kernel[blockspergrid, threadsperblock](x, y, out)

    print(out[:5])
    return out


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

def main_reduction_cuda():
    N = 1024
    in_array = np.arange(N, dtype=np.float32)
    blocks_per_grid = (N + (TPB - 1)) // TPB
    out_array = np.zeros(blocks_per_grid, dtype=np.float32)

    reduce_kernel[blocks_per_grid, TPB](in_array, out_array)
    reduced_value = np.sum(out_array)
    print(reduced_value)
    return out_array

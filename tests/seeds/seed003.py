# Seed 003 (shared/seeds/003_5333d844df8ec858.txt) with only the import
# changed; each example's script body is a function.  Example 2 calls
# cuda.grid(0), which Numba refuses too: launching it must raise a
# compile error that names this file and line.
import numpy as np
from ptxjit import cuda

@cuda.jit
def gpu_add(x, y, out):
    idx = cuda.grid(1)
    out[idx] = x[idx] + y[idx]

def example1():
    n = 1024
    x = np.arange(n, dtype=np.float32)
    y = np.arange(n, dtype=np.float32)
    out = np.empty_like(x)

    threadsperblock = 128
    blockspergrid = (n + (threadsperblock - 1)) // threadsperblock

    gpu_add[blockspergrid, threadsperblock](x,y,out)

    print(f"First 5 elements of output: {out[:5]}")
    return x, y, out

@cuda.jit
def gpu_matmul(A, B, C):
  row = cuda.grid(0)
  col = cuda.grid(1)

  if row < C.shape[0] and col < C.shape[1]:
    tmp_sum = 0.0
    for k in range(A.shape[1]):
      tmp_sum += A[row,k] * B[k,col]
    C[row, col] = tmp_sum

def example2(n=256):
    A = np.random.rand(n, n).astype(np.float32)
    B = np.random.rand(n, n).astype(np.float32)
    C = np.empty((n,n), dtype=np.float32)

    threadsperblock = (16,16)
    blockspergrid_x = (C.shape[0] + (threadsperblock[0] - 1)) // threadsperblock[0]
    blockspergrid_y = (C.shape[1] + (threadsperblock[1] - 1)) // threadsperblock[1]

    blockspergrid = (blockspergrid_x, blockspergrid_y)
    gpu_matmul[blockspergrid,threadsperblock](A,B,C)

    print(f"Top left 2x2 of result: \n{C[:2,:2]}")
    return A, B, C

@cuda.jit
def gpu_reduce(in_array, out_array):
    thread_id = cuda.grid(1)
    stride = cuda.gridsize(1)

    temp_sum = 0.0
    for i in range(thread_id, in_array.shape[0], stride):
        temp_sum += in_array[i]

    cuda.atomic.add(out_array, 0, temp_sum)

def example3():
    n = 1024
    in_array = np.arange(n, dtype=np.float32)
    out_array = np.zeros(1, dtype=np.float32)


    threadsperblock = 256
    blockspergrid = (n + (threadsperblock - 1)) // threadsperblock
    gpu_reduce[blockspergrid, threadsperblock](in_array, out_array)


    print(f"Sum of array elements: {out_array[0]}")
    return in_array, out_array

from numba import cuda

@cuda.jit
def gpu_matmul(A, B, C):
  row = cuda.grid(0)
  col = cuda.grid(1)
  if row < C.shape[0] and col < C.shape[1]:
    tmp_sum = 0.0
    for k in range(A.shape[1]):
      tmp_sum += A[row,k] * B[k,col]
    C[row, col] = tmp_sum

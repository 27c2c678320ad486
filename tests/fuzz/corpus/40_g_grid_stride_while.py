# Grid-stride while loop from the thread-index registers; int32 * int32
# is computed in int64 (Numba's promotion), so squares above 2**31 are exact.
# sig: void(int32[::1], int64[::1])
from ptxjit import cuda


@cuda.jit
def square_while(a, out):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    stride = cuda.blockDim.x * cuda.gridDim.x
    n = a.shape[0]
    while i < n:
        v = a[i]
        out[i] = v * v
        i += stride

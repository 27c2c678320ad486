# 3-D indexing by hand with the .z components and gridDim.
# sig: void(int64[:, :, ::1])
from ptxjit import cuda


@cuda.jit
def thread_ids_3d(out):
    x = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    y = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    z = cuda.blockIdx.z * cuda.blockDim.z + cuda.threadIdx.z
    if z < out.shape[0] and y < out.shape[1] and x < out.shape[2]:
        nx = cuda.gridDim.x * cuda.blockDim.x
        ny = cuda.gridDim.y * cuda.blockDim.y
        out[z, y, x] = (z * ny + y) * nx + x

#define TPB 16

extern "C" {

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        double tmp = 0.0;
        for (int k = 0; k < n; k++)
            tmp += A[i * n + k] * B[k * n + j];
        C[i * n + j] = tmp;
    }
}

__global__ void fast_matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float sA[TPB][TPB];
    __shared__ float sB[TPB][TPB];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float tmp = 0.0f;
    for (int i = 0; i < gridDim.x; i++) {
        sA[ty][tx] = 0.0f;
        sB[ty][tx] = 0.0f;
        if (y < n && tx + i * TPB < n)
            sA[ty][tx] = A[y * n + tx + i * TPB];
        if (x < n && ty + i * TPB < n)
            sB[ty][tx] = B[(ty + i * TPB) * n + x];
        __syncthreads();
        for (int j = 0; j < TPB; j++)
            tmp += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    if (y < n && x < n)
        C[y * n + x] = tmp;
}

}

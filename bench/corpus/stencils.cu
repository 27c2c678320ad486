extern "C" {

__global__ void jacobi2d(const float *a, float *out, int h, int w)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (0 < i && i < h - 1 && 0 < j && j < w - 1)
        out[i * w + j] = 0.25f * (a[(i - 1) * w + j] + a[(i + 1) * w + j] + a[i * w + j - 1]
                                  + a[i * w + j + 1]);
}

__global__ void laplace3d(const float *a, float *out, int d, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (1 <= z && z < d - 1 && 1 <= y && y < h - 1 && 1 <= x && x < w - 1) {
        long c = ((long)z * h + y) * w + x;
        long p = (long)h * w;
        out[c] = a[c - p] + a[c + p] + a[c - w] + a[c + w] + a[c - 1] + a[c + 1] - 6.0 * a[c];
    }
}

}

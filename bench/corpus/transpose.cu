#define TILE 32
#define ROWS 8

extern "C" {

__global__ void transpose_naive(const float *a, float *out, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < h && x < w)
        out[x * h + y] = a[y * w + x];
}

__global__ void transpose_tiled(const float *a, float *out, int h, int w)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx;
    int y = blockIdx.y * TILE + ty;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h)
            tile[ty + j][tx] = a[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + tx;
    y = blockIdx.x * TILE + ty;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < w)
            out[(y + j) * h + x] = tile[tx][ty + j];
}

}

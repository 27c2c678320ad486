extern "C" __global__ void stencil_5pt(const float *__restrict__ a, float *__restrict__ out, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (0 < y && y < h - 1 && 0 < x && x < w - 1)
        out[y * w + x] = 0.25f * (a[(y - 1) * w + x] + a[(y + 1) * w + x] + a[y * w + x - 1]
                                  + a[y * w + x + 1]) - a[y * w + x];
}

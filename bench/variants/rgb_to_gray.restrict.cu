extern "C" __global__ void rgb_to_gray(const unsigned char *__restrict__ rgb, unsigned char *__restrict__ gray, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < h && x < w) {
        const unsigned char *p = rgb + (y * w + x) * 3;
        gray[y * w + x] = (unsigned char)(0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2]);
    }
}

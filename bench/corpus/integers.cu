#define ROUNDS 8
#define M1 0xFF51AFD7ED558CCDull
#define M2 0xC4CEB9FE1A85EC53ull

extern "C" {

__global__ void hash64(const unsigned long long *keys, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long h = keys[i];
#pragma unroll
        for (int r = 0; r < ROUNDS; r++) {
            h ^= h >> 33;
            h *= M1;
            h ^= h >> 29;
            h *= M2;
            h ^= h >> 32;
            h += r;
        }
        out[i] = h;
    }
}

__global__ void count_digits_newlines(const unsigned char *buf, int *counts, int n)
{
    __shared__ int sm[2];
    if (threadIdx.x < 2)
        sm[threadIdx.x] = 0;
    __syncthreads();
    int digits = 0, lines = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned char c = buf[i];
        if (c >= '0' && c <= '9')
            digits++;
        else if (c == '\n')
            lines++;
    }
    atomicAdd(&sm[0], digits);
    atomicAdd(&sm[1], lines);
    __syncthreads();
    if (threadIdx.x < 2)
        atomicAdd(&counts[threadIdx.x], sm[threadIdx.x]);
}

}

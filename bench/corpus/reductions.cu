#define TPB 256
#define WARPS (TPB / 32)

extern "C" {

__global__ void sum_gridstride_shared(const float *a, float *out, int n)
{
    __shared__ float sm[TPB];
    int tid = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        acc += a[i];
    sm[tid] = acc;
    __syncthreads();
    for (int s = TPB / 2; s > 0; s /= 2) {
        if (tid < s)
            sm[tid] += sm[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        atomicAdd(out, sm[0]);
}

__global__ void sum_warp_shuffle(const float *a, float *out, int n)
{
    __shared__ float warp_sums[WARPS];
    int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += a[i];
    for (int off = 16; off > 0; off /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    if (lane == 0)
        warp_sums[wid] = acc;
    __syncthreads();
    if (wid == 0) {
        float v = lane < WARPS ? warp_sums[lane] : 0.0f;
        for (int off = 16; off > 0; off /= 2)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (lane == 0)
            atomicAdd(out, v);
    }
}

}

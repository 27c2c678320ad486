#define TPB 512

extern "C" __global__ void scan_hillis_steele(const int *a, int *out, int n)
{
    __shared__ int buf[2][TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[0][t] = i < n ? a[i] : 0;
    __syncthreads();
    int src = 0;
    for (int offset = 1; offset < TPB; offset *= 2) {
        int v = buf[src][t];
        if (t >= offset)
            v += buf[src][t - offset];
        buf[1 - src][t] = v;
        src = 1 - src;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[src][t];
}

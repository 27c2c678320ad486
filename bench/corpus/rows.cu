#define TPB 256

__device__ float block_reduce(float *sm, float v, bool op_max)
{
    int t = threadIdx.x;
    sm[t] = v;
    __syncthreads();
    for (int s = TPB / 2; s > 0; s /= 2) {
        if (t < s)
            sm[t] = op_max ? fmaxf(sm[t], sm[t + s]) : sm[t] + sm[t + s];
        __syncthreads();
    }
    float r = sm[0];
    __syncthreads();
    return r;
}

extern "C" {

__global__ void softmax_rows(const float *x, float *out, int n)
{
    __shared__ float sm[TPB];
    const float *xr = x + (long)blockIdx.x * n;
    float *outr = out + (long)blockIdx.x * n;
    int t = threadIdx.x;
    float m = -INFINITY;
    for (int j = t; j < n; j += TPB)
        m = fmaxf(m, xr[j]);
    m = block_reduce(sm, m, true);
    float s = 0.0f;
    for (int j = t; j < n; j += TPB)
        s += expf(xr[j] - m);
    s = block_reduce(sm, s, false);
    for (int j = t; j < n; j += TPB)
        outr[j] = expf(xr[j] - m) / s;
}

__global__ void layernorm_rows(const float *x, const float *gamma, const float *beta, float *out, float eps,
                               int n)
{
    __shared__ float sm[TPB];
    const float *xr = x + (long)blockIdx.x * n;
    float *outr = out + (long)blockIdx.x * n;
    int t = threadIdx.x;
    float s = 0.0f;
    for (int j = t; j < n; j += TPB)
        s += xr[j];
    float mean = block_reduce(sm, s, false) / n;
    float v = 0.0f;
    for (int j = t; j < n; j += TPB) {
        float dl = xr[j] - mean;
        v += dl * dl;
    }
    float var = block_reduce(sm, v, false) / n;
    float inv = 1.0f / sqrtf(var + eps);
    for (int j = t; j < n; j += TPB)
        outr[j] = (xr[j] - mean) * inv * gamma[j] + beta[j];
}

}

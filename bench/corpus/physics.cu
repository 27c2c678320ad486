#define RSQRT2PI 0.39894228040143267793994605993438
#define A1 0.31938153
#define A2 -0.356563782
#define A3 1.781477937
#define A4 -1.821255978
#define A5 1.330274429

__device__ double cnd(double d)
{
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double ret = RSQRT2PI * exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0 ? 1.0 - ret : ret;
}

extern "C" __global__ void black_scholes(float *call, float *put, const float *S, const float *X,
                                         const float *T, double R, double V, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n)
        return;
    double sqrt_t = sqrtf(T[i]);
    double d1 = (logf(S[i] / X[i]) + (R + 0.5 * V * V) * T[i]) / (V * sqrt_t);
    double d2 = d1 - V * sqrt_t;
    double cnd1 = cnd(d1), cnd2 = cnd(d2);
    double exp_rt = exp(-1.0 * R * T[i]);
    call[i] = S[i] * cnd1 - X[i] * exp_rt * cnd2;
    put[i] = X[i] * exp_rt * (1.0 - cnd2) - S[i] * (1.0 - cnd1);
}

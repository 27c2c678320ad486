#define RSQRT2 0.70710678118654752440
extern "C" {
__device__ double cnd(double d)
{
    return 0.5 * (1.0 + erf(d * RSQRT2));
}

__global__ void black_scholes(double *__restrict__ call, double *__restrict__ put, const double *__restrict__ S, const double *__restrict__ X,
                              const double *__restrict__ T, double r, double v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double sqrt_t = sqrt(T[i]);
        double d1 = (log(S[i] / X[i]) + (r + 0.5 * v * v) * T[i]) / (v * sqrt_t);
        double d2 = d1 - v * sqrt_t;
        double cnd1 = cnd(d1);
        double cnd2 = cnd(d2);
        double exp_rt = exp(-r * T[i]);
        call[i] = S[i] * cnd1 - X[i] * exp_rt * cnd2;
        put[i] = X[i] * exp_rt * (1.0 - cnd2) - S[i] * (1.0 - cnd1);
    }
}

}

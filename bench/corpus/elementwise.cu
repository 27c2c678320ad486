extern "C" {

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* a is a Python float: the kernel computes in double, as Numba types it */
__global__ void saxpy_gridstride(double a, const float *x, const float *y, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = (float)(a * x[i] + y[i]);
}

}

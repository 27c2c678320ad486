"""The benchmark kernels in CUDA C, one source for cupy.RawModule (NVRTC).

Each kernel is the algorithm of its namesake in suite_kernels.py written as
a CUDA C programmer writes it: int indices from blockIdx/blockDim/threadIdx,
const pointers without __restrict__, the same constants and the same
floating-point operations (NVRTC contracts a * b + c into fma, as ptxjit
and Numba do).  Extents that the Python kernels read from the arrays are
passed as int arguments.
"""

TPB = 256
TILE = 16
NB_TILE = 128
NBINS = 256
MATH_ITERS = 32

SOURCE = r"""
#define TPB %(TPB)d
#define TILE %(TILE)d
#define NB_TILE %(NB_TILE)d
#define NBINS %(NBINS)d
#define MATH_ITERS %(MATH_ITERS)d
#define EPS2 1e-2f
#define RSQRT2 0.7071067811865476

extern "C" {

__global__ void vector_add(const float *x, const float *y, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] + y[i];
}

__global__ void saxpy(float a, const float *x, const float *y, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}

__global__ void reduce_sum(const float *a, float *out, int n)
{
    __shared__ float sm[TPB];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sm[tid] = i < n ? a[i] : 0.0f;
    __syncthreads();
    for (int s = TPB / 2; s > 0; s /= 2) {
        if (tid < s)
            sm[tid] += sm[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        atomicAdd(out, sm[0]);
}

__global__ void matmul_naive(const float *A, const float *B, float *C, int m, int n, int p)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < m && x < p) {
        float tmp = 0.0f;
        for (int k = 0; k < n; k++)
            tmp += A[y * n + k] * B[k * p + x];
        C[y * p + x] = tmp;
    }
}

__global__ void matmul_tiled(const float *A, const float *B, float *C, int m, int n, int p)
{
    __shared__ float sA[TILE][TILE];
    __shared__ float sB[TILE][TILE];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int bpg = gridDim.x;
    float tmp = 0.0f;
    for (int i = 0; i < bpg; i++) {
        sA[ty][tx] = 0.0f;
        sB[ty][tx] = 0.0f;
        if (y < m && tx + i * TILE < n)
            sA[ty][tx] = A[y * n + tx + i * TILE];
        if (x < p && ty + i * TILE < n)
            sB[ty][tx] = B[(ty + i * TILE) * p + x];
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            tmp += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    if (y < m && x < p)
        C[y * p + x] = tmp;
}

__device__ double cnd(double d)
{
    return 0.5 * (1.0 + erf(d * RSQRT2));
}

__global__ void black_scholes(double *call, double *put, const double *S, const double *X,
                              const double *T, double r, double v, int n)
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

__global__ void nbody(const float *pos, float *acc, int n)
{
    __shared__ float sp[NB_TILE][4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int tx = threadIdx.x;
    float xi = 0.0f, yi = 0.0f, zi = 0.0f;
    if (i < n) {
        xi = pos[i * 4 + 0];
        yi = pos[i * 4 + 1];
        zi = pos[i * 4 + 2];
    }
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int t = 0; t < (n + NB_TILE - 1) / NB_TILE; t++) {
        int j = t * NB_TILE + tx;
        if (j < n) {
            sp[tx][0] = pos[j * 4 + 0];
            sp[tx][1] = pos[j * 4 + 1];
            sp[tx][2] = pos[j * 4 + 2];
            sp[tx][3] = pos[j * 4 + 3];
        } else {
            sp[tx][0] = 0.0f;
            sp[tx][1] = 0.0f;
            sp[tx][2] = 0.0f;
            sp[tx][3] = 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < NB_TILE; k++) {
            float dx = sp[k][0] - xi;
            float dy = sp[k][1] - yi;
            float dz = sp[k][2] - zi;
            float d2 = dx * dx + dy * dy + dz * dz + EPS2;
            float inv = 1.0f / sqrtf(d2);
            float s = sp[k][3] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    if (i < n) {
        acc[i * 3 + 0] = ax;
        acc[i * 3 + 1] = ay;
        acc[i * 3 + 2] = az;
    }
}

__global__ void mandelbrot(int *img, double xmin, double xmax, double ymin, double ymax,
                           int max_iter, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        double cr = xmin + x * (xmax - xmin) / w;
        double ci = ymin + y * (ymax - ymin) / h;
        double zr = 0.0, zi = 0.0;
        int n = 0;
        while (n < max_iter && zr * zr + zi * zi <= 4.0) {
            double t = zr * zr - zi * zi + cr;
            zi = 2.0 * zr * zi + ci;
            zr = t;
            n++;
        }
        img[y * w + x] = n;
    }
}

__global__ void stencil_5pt(const float *a, float *out, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (0 < y && y < h - 1 && 0 < x && x < w - 1)
        out[y * w + x] = 0.25f * (a[(y - 1) * w + x] + a[(y + 1) * w + x] + a[y * w + x - 1]
                                  + a[y * w + x + 1]) - a[y * w + x];
}

__global__ void histogram(const unsigned char *data, int *hist, int n)
{
    __shared__ int sh[NBINS];
    int tid = threadIdx.x;
    sh[tid] = 0;
    __syncthreads();
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&sh[data[i]], 1);
    __syncthreads();
    atomicAdd(&hist[tid], sh[tid]);
}

__global__ void rgb_to_gray(const unsigned char *rgb, unsigned char *gray, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < h && x < w) {
        const unsigned char *p = rgb + (y * w + x) * 3;
        gray[y * w + x] = (unsigned char)(0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2]);
    }
}

__global__ void math_loop(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        float acc = 0.0f;
        for (int k = 0; k < MATH_ITERS; k++) {
            float t = v + 0.125f * k;
            acc += sinf(t) * expf(-t) + sqrtf(t);
        }
        out[i] = acc;
    }
}

}
""" % dict(TPB=TPB, TILE=TILE, NB_TILE=NB_TILE, NBINS=NBINS, MATH_ITERS=MATH_ITERS)

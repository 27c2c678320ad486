#define NTAPS 17
#define HALF 8

__constant__ float taps[NTAPS] = {
    1.666666716e-01f, 1.276041716e-01f, 9.375000000e-02f, 6.510416418e-02f, 4.166666791e-02f,
    2.343750000e-02f, 1.041666698e-02f, 2.604166744e-03f, 0.000000000e+00f, 2.604166744e-03f,
    1.041666698e-02f, 2.343750000e-02f, 4.166666791e-02f, 6.510416418e-02f, 9.375000000e-02f,
    1.276041716e-01f, 1.666666716e-01f};

extern "C" __global__ void conv1d_const(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int k = 0; k < NTAPS; k++) {
            int j = i + k - HALF;
            if (j >= 0 && j < n)
                acc += taps[k] * x[j];
        }
        out[i] = acc;
    }
}

extern "C" {

__global__ void spmv_csr(const int *indptr, const int *indices, const double *data, const double *x,
                         double *y, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        double acc = 0.0;
        for (int k = indptr[row]; k < indptr[row + 1]; k++)
            acc += data[k] * x[indices[k]];
        y[row] = acc;
    }
}

__global__ void spmv_ell(const int *cols, const double *vals, const double *x, double *y, int width, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        double acc = 0.0;
        for (int s = 0; s < width; s++) {
            int c = cols[s * n + row];
            if (c >= 0)
                acc += vals[s * n + row] * x[c];
        }
        y[row] = acc;
    }
}

}

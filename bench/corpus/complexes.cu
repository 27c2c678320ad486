#define MAX_ITER 200

extern "C" __global__ void mandelbrot(double xmin, double xmax, double ymin, double ymax, int *img, int h,
                                      int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        double cr = xmin + x * (xmax - xmin) / w, ci = ymin + y * (ymax - ymin) / h;
        double zr = 0.0, zi = 0.0;
        int n = MAX_ITER;
        for (int i = 0; i < MAX_ITER; i++) {
            /* z * z + c as complex arithmetic computes it (cuCmul's formula) */
            double t = zr * zr - zi * zi + cr;
            zi = zr * zi + zi * zr + ci;
            zr = t;
            if (hypot(zr, zi) > 2.0) {
                n = i;
                break;
            }
        }
        img[y * w + x] = n;
    }
}

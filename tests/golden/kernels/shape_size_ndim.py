# .shape (indexed, negative index, unpacked), .size, .ndim and len().
# sig: void(float32[:, :, ::1], int64[::1])
from ptxjit import cuda


@cuda.jit
def shape_info(a, out):
    if cuda.grid(1) == 0:
        out[0] = a.shape[0]
        out[1] = a.shape[1]
        out[2] = a.shape[2]
        out[3] = a.size
        out[4] = a.ndim
        out[5] = len(a)
        out[6] = out.size
        out[7] = a.shape[-1]
        n0, n1, n2 = a.shape
        out[8] = n0 * 100 + n1 * 10 + n2

# math.sqrt and math.fabs keep float32; on ints they give float64;
# math.floor and math.ceil give int64.
# sig: void(float32[::1], float64[::1], int64[::1], float64[:, ::1], int64[:, ::1])
import math
from ptxjit import cuda


@cuda.jit
def math_funcs(f, d, k, out, iout):
    i = cuda.grid(1)
    if i < f.size:
        out[i, 0] = math.sqrt(f[i])
        out[i, 1] = math.sqrt(d[i])
        out[i, 2] = math.fabs(f[i] - 1)
        out[i, 3] = math.fabs(d[i] - 50.0)
        out[i, 4] = math.sqrt(k[i])
        out[i, 5] = math.floor(d[i] - 50.0) / 2
        iout[i, 0] = math.floor(d[i] - 50.0)
        iout[i, 1] = math.ceil(d[i] - 50.0)
        iout[i, 2] = math.floor(f[i] - 0.5)
        iout[i, 3] = math.ceil(-f[i])
        iout[i, 4] = math.floor(k[i])

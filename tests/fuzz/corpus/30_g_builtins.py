# min, max (two and three arguments, mixed types), abs of int and float,
# int(), float(), round() (half to even).
# sig: void(float64[::1], int64[::1], float32[::1], float64[:, ::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def builtins(x, k, f, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = min(x[i], k[i])
        out[i, 1] = max(x[i], k[i], 0.5)
        out[i, 2] = abs(k[i])
        out[i, 3] = abs(x[i])
        out[i, 4] = int(x[i])
        out[i, 5] = float(k[i]) / 3
        out[i, 6] = round(x[i])
        out[i, 7] = min(f[i], np.float32(0.5))
        out[i, 8] = max(k[i], -3)
        out[i, 9] = int(f[i] * 4)

# NumPy scalar constructors as casts: np.float32, np.float64, np.int16,
# np.int32, np.uint32, np.uint8 (integers wrap), np.int64.
# sig: void(float64[::1], int64[::1], float32[:, ::1], int64[:, ::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def casts(x, k, fout, iout):
    i = cuda.grid(1)
    if i < x.size:
        fout[i, 0] = np.float32(x[i])
        fout[i, 1] = np.float32(k[i]) / np.float32(3)
        fout[i, 2] = np.float64(np.float32(x[i])) * 2
        iout[i, 0] = np.int32(k[i])
        iout[i, 1] = np.uint8(k[i])
        iout[i, 2] = np.int16(x[i])
        iout[i, 3] = np.int64(np.float32(x[i]) * np.float32(2))
        iout[i, 4] = np.uint32(k[i])

# Numba's promotion rules: int32 + int32 -> int64, uint32 + uint32 -> uint64,
# float32 * float64 -> float64, float32 + int64 -> float64,
# int64 + uint64 -> float64, int / int -> float64.
# sig: void(int32[::1], int32[::1], uint32[::1], float32[::1], int64[::1], uint64[::1], float64[:, ::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def promote(i32a, i32b, u32, f32, i64, u64, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = i32a[i] + i32b[i]
        out[i, 1] = u32[i] + u32[i]
        out[i, 2] = f32[i] * 0.1
        out[i, 3] = f32[i] + i64[i]
        out[i, 4] = i64[i] + u64[i]
        out[i, 5] = i32a[i] / i32b[i]
        out[i, 6] = i32a[i] * i32b[i]
        out[i, 7] = f32[i] * np.float32(0.1)

# Shared arrays of narrow, wide and complex dtypes with their natural
# alignment, and with an explicit alignment.
# sig: void(int8[::1], complex128[::1], float64[::1])
from numba import cuda
import numpy as np


@cuda.jit
def shared_kinds(b, c, out):
    tx = cuda.threadIdx.x
    s8 = cuda.shared.array(33, dtype=np.int8)
    sb = cuda.shared.array(7, dtype=np.bool_)
    sc = cuda.shared.array((4, 8), dtype=np.complex128)
    s16 = cuda.shared.array(5, dtype=np.uint16, alignment=128)
    sd = cuda.shared.array(32, dtype=np.float64, alignment=64)
    s8[tx] = b[tx]
    if tx < 7:
        sb[tx] = b[tx] > 0
    sc[tx // 8, tx % 8] = c[tx]
    if tx < 5:
        s16[tx] = tx * 3
    sd[tx] = s8[tx] * 0.5
    cuda.syncthreads()
    v = sc[(31 - tx) // 8, (31 - tx) % 8]
    out[tx] = v.real + v.imag + s16[tx % 5] + sd[31 - tx] + (1 if sb[tx % 7] else 0)

# Shifts and bit operations on int32 and uint32 values (results in int64).
# sig: void(int32[::1], uint32[::1], int64[:, ::1])
from ptxjit import cuda


@cuda.jit
def bit_ops(a, u, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = u[i]
        out[i, 0] = x << 3
        out[i, 1] = x >> 2
        out[i, 2] = y >> 5
        out[i, 3] = x & 0xFF
        out[i, 4] = x | 0x100
        out[i, 5] = x ^ y
        out[i, 6] = ~x
        out[i, 7] = (y << 4) & 0xFFFFFFFF
        out[i, 8] = x << (i % 8)
        out[i, 9] = (x >> (i % 31)) ^ (y & 0xF0F0)

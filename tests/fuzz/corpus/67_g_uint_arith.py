# Unsigned arithmetic: uint32 op uint32 is uint64; uint64 wraps; unsigned
# division, remainder and comparison of values at and above 2**63.
# sig: void(uint32[::1], uint64[::1], uint64[:, ::1])
from ptxjit import cuda


@cuda.jit
def uint_ops(a, b, out):
    i = cuda.grid(1)
    n = a.size
    if i < n:
        out[i, 0] = a[i] * a[i]
        out[i, 1] = b[i] + b[i]
        out[i, 2] = b[i] // a[i]
        out[i, 3] = b[i] % a[i]
        out[i, 4] = a[i] > b[i]
        out[i, 5] = a[i] - a[(i + 1) % n]
        out[i, 6] = max(a[i], b[i])

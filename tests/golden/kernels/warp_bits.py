# The bit intrinsics on every integer width (8- and 16-bit kinds count on
# their own width), x.bit_count(), and the float ones: fma, cbrt, selp.
# kernel: bits
# sig: void(int8[::1], uint16[::1], int32[::1], uint64[::1], int64[:, ::1], uint32[::1])
# kernel: floats
# sig: void(float32[::1], float64[::1], float32[::1], float64[::1])
import numpy as np
from ptxjit import cuda


@cuda.jit
def bits(a8, a16, a32, a64, out, rev):
    i = cuda.grid(1)
    if i < a8.size:
        out[i, 0] = cuda.popc(a8[i]) + cuda.clz(a8[i]) * 100 + cuda.ffs(a8[i]) * 10000
        out[i, 1] = cuda.popc(a16[i]) + cuda.clz(a16[i]) * 100 + cuda.ffs(a16[i]) * 10000
        out[i, 2] = cuda.popc(a32[i]) + cuda.clz(a32[i]) * 100 + cuda.ffs(a32[i]) * 10000
        out[i, 3] = cuda.popc(a64[i]) + cuda.clz(a64[i]) * 100 + cuda.ffs(a64[i]) * 10000
        out[i, 4] = a32[i].bit_count() + a64[i].bit_count() * 100
        rev[i] = cuda.brev(np.uint32(cuda.brev(a32[i]) ^ 1))


@cuda.jit
def floats(x32, x64, r32, r64):
    i = cuda.grid(1)
    if i < x32.size:
        r32[i] = cuda.selp(x32[i] > 0, cuda.cbrt(x32[i]), cuda.fma(x32[i], x32[i], np.float32(1.0)))
        r64[i] = cuda.selp(x64[i] > 0, cuda.cbrt(x64[i]), cuda.fma(x64[i], 2.0, x64[i]))

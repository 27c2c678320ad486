import math
import numpy as np
from numba import cuda

H = np.float16(0.3)


@cuda.jit
def half(x, y, n):
    i = cuda.grid(1)
    s = cuda.shared.array(8, np.float16)
    l = cuda.local.array(2, np.float16)
    h = np.float16(x[i % 8]) * H + np.float16(1.5)
    s[i % 8] = -h
    l[0] = abs(h) / np.int8(3)
    cuda.syncthreads()
    g = cuda.fp16.hfma(s[0], l[0], h)
    if cuda.fp16.hlt(g, H) and not cuda.fp16.hne(g, g):
        g = cuda.fp16.hmax(g, cuda.fp16.hsqrt(h))
    y[i % 8] = math.sin(g) + float(h) + cuda.fp16.hexp10(g) * n

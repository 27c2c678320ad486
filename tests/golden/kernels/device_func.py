# A device function called from a kernel.
# sig: void(float32[::1], float32[::1], float32[::1])
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def lerp(a, b, t):
    return a + (b - a) * t


@cuda.jit
def lerp_kernel(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = lerp(a[i], b[i], np.float32(0.25))

# A device function with default arguments, called with keywords.
# sig: void(float64[::1], float64[:, ::1])
from ptxjit import cuda


@cuda.jit(device=True)
def clamp(v, lo=0.0, hi=1.0):
    return max(lo, min(v, hi))


@cuda.jit
def clamp_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = clamp(x[i])
        out[i, 1] = clamp(x[i], -0.5)
        out[i, 2] = clamp(x[i], hi=2.0)
        out[i, 3] = clamp(x[i], lo=-1.0, hi=0.25)

# Conditional expressions, nested; int and float branches unify to float64.
# sig: void(float32[::1], float32[::1])
from ptxjit import cuda


@cuda.jit
def clamp_sign(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        s = 1 if v > 0 else (-1 if v < 0 else 0)
        c = v if -1.0 <= v <= 1.0 else (1.0 if v > 1.0 else -1.0)
        out[i] = s * 10 + c

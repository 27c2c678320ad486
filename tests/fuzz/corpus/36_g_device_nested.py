# Device functions calling device functions; a tuple returned from two
# return statements and unpacked by the caller.
# sig: void(float64[::1], float64[::1], float64[:, ::1])
# golden: ast, opt
import math
from ptxjit import cuda


@cuda.jit(device=True)
def sq(x):
    return x * x


@cuda.jit(device=True)
def norm2(x, y):
    return math.sqrt(sq(x) + sq(y))


@cuda.jit(device=True)
def polar(x, y):
    r = norm2(x, y)
    if r == 0:
        return 0.0, 0.0
    return r, x / r


@cuda.jit
def to_polar(xs, ys, out):
    i = cuda.grid(1)
    if i < xs.size:
        r, c = polar(xs[i], ys[i])
        out[i, 0] = r
        out[i, 1] = c

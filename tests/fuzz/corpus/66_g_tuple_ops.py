# Tuples: building, unpacking, swapping, nesting, constant indices, len.
# sig: void(float64[::1], float64[:, ::1])
from ptxjit import cuda


@cuda.jit
def tuples(x, out):
    i = cuda.grid(1)
    if i < x.size:
        t = (x[i], 2 * x[i], i)
        a, b, c = t
        a, b = b, a
        p = (a, (b, c))
        out[i, 0] = a
        out[i, 1] = p[1][0]
        out[i, 2] = t[2] + p[1][1]
        out[i, 3] = t[-1]
        out[i, 4] = len(t)

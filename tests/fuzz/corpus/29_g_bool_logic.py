# and / or / not on bools and on ints (which return an operand), != on
# bools, bools stored into an int32 array.
# sig: void(float32[::1], float32[::1], boolean[::1], int32[:, ::1])
from ptxjit import cuda


@cuda.jit
def bool_logic(x, y, flags, out):
    i = cuda.grid(1)
    if i < x.size:
        p = x[i] > 0
        q = y[i] > x[i]
        f = flags[i]
        out[i, 0] = p and q
        out[i, 1] = p or f
        out[i, 2] = not p
        out[i, 3] = (p and not q) or (f and q)
        out[i, 4] = p != q
        out[i, 5] = (i % 3) or 5
        out[i, 6] = (i % 2) and (i % 3)
        out[i, 7] = not (p or q or f)

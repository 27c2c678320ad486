# Early returns, one guarded by a short-circuit `or` that must not read
# past the end of x; `while True` left by return.
# sig: void(float32[::1], float32[::1], int64)
from ptxjit import cuda


@cuda.jit
def early_return(x, out, limit):
    i = cuda.grid(1)
    if i >= x.size or x[i] < 0:
        return
    if i >= limit:
        out[i] = -1
        return
    v = x[i]
    while True:
        if v < 1:
            out[i] = v
            return
        v = v / 2

# A device function declared with several signatures: each call takes the
# one its argument types convert to best, as Numba's typing does (float32
# arguments to (float64, float64), int32 ones to (int64, int64)).
# sig: void(float64[::1], float32, int32)
# golden: opt
from ptxjit import cuda


@cuda.jit(["(int64, int64)", "(float64, float64)"], device=True)
def add(a, b):
    return a + b


@cuda.jit
def k(out, x, n):
    out[0] = add(x, x)
    out[1] = add(n, n)

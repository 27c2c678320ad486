# Tuples passed to a kernel: flattened into one parameter per leaf;
# None for an optional argument is tested at compile time.
# kernel: tuple_arg
# sig: void(UniTuple(int64, 2), Tuple(float32, Tuple(int64, float64[::1])), float64[::1])
# kernel: optional
# sig: void(float64[::1], none)
# kernel: optional
# sig: void(float64[::1], float64)
from ptxjit import cuda


@cuda.jit
def tuple_arg(shape, mixed, out):
    i = cuda.grid(1)
    n, m = shape
    f, (k, arr) = mixed
    if i < out.size:
        out[i] = n * m + f + k + arr[i % arr.size] + len(mixed)


@cuda.jit
def optional(out, scale=None):
    i = cuda.grid(1)
    if i < out.size:
        if scale is None:
            out[i] = i
        else:
            out[i] = i * scale

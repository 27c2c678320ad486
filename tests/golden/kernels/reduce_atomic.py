# Integer sum: grid-stride partial sums, then one int64 atomic add per thread.
# sig: void(int32[::1], int64[::1])
from ptxjit import cuda


@cuda.jit
def sum_atomic(a, total):
    acc = 0
    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        acc += a[i]
    cuda.atomic.add(total, 0, acc)

# cuda.shfl_sync shuffles int32, int64, float32 and float64 only (Numba's
# typing refuses other types).
# sig: void(uint32[::1])
# error: shuffles int32, int64, float32 and float64 values, not uint32
# line: 12
from ptxjit import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i] = cuda.shfl_down_sync(0xffffffff, a[i], 1)

# 0-d arrays: r[()] reads and writes the one element, an atomic adds to it.
# sig: void(array(float64, 0d, C), array(int32, 0d, C), float64)
from numba import cuda


@cuda.jit
def zero_d(r, count, x):
    if cuda.grid(1) == 0:
        r[()] = r[()] * 2 + x
    cuda.atomic.add(count, (), 1)

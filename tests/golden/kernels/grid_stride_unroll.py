# A grid-stride loop, stepped by a value known only at run time: four
# bodies per test while the bound is more than three strides away
# (`i < n` and `n - i >u 3 * stride`, the product saturated), then the
# original loop for the rest.  The plain signature: 64-bit counters, and
# the negative-index wrap of a[i] stays (the launch variant for small
# extents has 32-bit counters and no wrap; tests/test_opt_stride.py).
# sig: void(float32[::1], float32[::1])
# golden: opt
from ptxjit import cuda
import numpy as np


@cuda.jit
def grid_sum(a, out):
    acc = np.float32(0)
    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        acc += a[i]
    cuda.atomic.add(out, 0, acc)

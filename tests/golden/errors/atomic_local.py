# Atomics work on global and shared arrays, not on local ones.
# sig: void(int32[::1])
# error: on a local array is not supported
# line: 13
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    tmp = cuda.local.array(4, np.int32)
    tmp[0] = 0
    cuda.atomic.add(tmp, 0, 1)
    x[0] = tmp[0]

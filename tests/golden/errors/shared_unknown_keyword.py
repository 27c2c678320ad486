# A misspelt keyword of cuda.shared.array.
# sig: void(float32[::1])
# error: dtyp
# line: 12
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def k(x):
    buf = cuda.shared.array(16, dtyp=np.float32)
    x[0] = buf[0]

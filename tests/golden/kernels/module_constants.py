# Module-level constants: ints from expressions, floats, tuples, bools,
# bit operations on hex literals; math.pi.
# sig: void(float64[::1])
import math
from ptxjit import cuda

N = 4
TPB = 32 * N
SCALE = 1.5
OFFSETS = (1, 2, 3)
DEBUG = False
MASK = 0xFF ^ 0x0F


@cuda.jit
def constants(out):
    i = cuda.grid(1)
    if i < out.size:
        v = SCALE * i + OFFSETS[1] + TPB
        if DEBUG:
            v = -v
        out[i] = v + (i & MASK) + math.pi

# float16: arrays, a module-level NumPy float16 constant, arithmetic rounded
# to float16 (fma.f16 where a product is added), cuda.fp16 functions.
# golden: opt
# sig: void(float16[::1], float16[::1], float16)
from ptxjit import cuda
import numpy as np

SCALE = np.float16(0.3)
SMALL = np.int8(3)


@cuda.jit
def half(a, out, s):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = x * s + SCALE
        out[i] = cuda.fp16.hmax(y, cuda.fp16.hsqrt(abs(x))) / SMALL - cuda.fp16.hfloor(x)

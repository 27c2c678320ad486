# Names with non-ASCII characters in their NFKC form, as Python's tokenizer
# makes them: ﬁ (U+FB01) is fi, ｇrid is grid, the parameter ｓcale is scale.
# sig: void(float32[::1], float32)
# golden: opt
import math
from ptxjit import cuda

fi = 3.0


@cuda.jit
def k(x, ｓcale):
    i = cuda.ｇrid(1)
    if i < x.size:
        ﬁ = x[i] * scale
        x[i] = fi + ｍath.ｆloor(ﬁ)

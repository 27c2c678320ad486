"""numba.cuda.libdevice: the functions of CUDA's libdevice library, for kernels.

    from ptxjit.cuda import libdevice

    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        out[i] = libdevice.erfinv(x[i]) + libdevice.sinf(x[i])

Each function has the one signature numba-cuda declares for it (sinf takes
and gives a float32, popc an int32; an argument of another type is
converted); the ones whose libdevice form writes through pointers return a
tuple (sincos(x) is (sin(x), cos(x)), frexp(x) is (mantissa, exponent)).
ptxjit computes them with its own math library, within the error bounds
that CUDA documents for each, with no CUDA toolkit.  See docs/libdevice.md.
On the host these are placeholders that say they work only in kernels.
"""

from .. import _core
from .stubs import Stub

_TYPES = {"f": "float32", "d": "float64", "i": "int32", "l": "int64", "h": "int16"}

FUNCTIONS = {}     # name -> the placeholder kernels call
SIGNATURES = {}    # name -> its signature, "float32(float32)", "Tuple(float64, int32)(float64)"
for _name, _ret, _args in _core.libdevice_functions():
    _stub = Stub("cuda.libdevice." + _name)
    FUNCTIONS[_name] = _stub
    globals()[_name] = _stub
    _r = [_TYPES[c] for c in _ret]
    SIGNATURES[_name] = "%s(%s)" % (_r[0] if len(_r) == 1 else "Tuple(%s)" % ", ".join(_r),
                                    ", ".join(_TYPES[c] for c in _args))
del _name, _ret, _args, _stub, _r

__all__ = list(FUNCTIONS)

# Every function of the math library, real and complex, in both precisions
# (and float32 under fastmath): their PTX must assemble, and a ptxjitc built
# by one C compiler must write the same PTX as one built by another
# (run.py --same-as).
# kernel: real
# sig: void(float32[:], float32[:], float32[:, :])
# kernel: real
# sig: void(float64[:], float64[:], float64[:, :])
# kernel: real_fast
# sig: void(float32[:], float32[:], float32[:, :])
# kernel: cplx
# sig: void(complex64[:], complex64[:], complex64[:, :])
# kernel: cplx
# sig: void(complex128[:], complex128[:], complex128[:, :])
import cmath
import math

import numpy as np
from numba import cuda


@cuda.jit(device=True)
def all_real(x, y, out, i):
    out[i, 0] = math.sin(x) + math.cos(y) + math.tan(x)
    out[i, 1] = math.asin(x) + math.acos(x) + math.atan(x) + math.atan2(x, y)
    out[i, 2] = math.sinh(x) + math.cosh(y) + math.tanh(x)
    out[i, 3] = math.asinh(x) + math.acosh(y) + math.atanh(x)
    out[i, 4] = math.exp(x) + math.exp2(y) + math.expm1(x)
    out[i, 5] = math.log(x) + math.log2(y) + math.log10(x) + math.log1p(y)
    out[i, 6] = math.pow(x, y) + x ** y + math.sqrt(x) + math.cbrt(y) + math.hypot(x, y)
    out[i, 7] = math.erf(x) + math.erfc(y) + math.gamma(x) + math.lgamma(y)
    out[i, 8] = math.fmod(x, y) + math.remainder(x, y) + math.copysign(x, y) + math.ldexp(x, 3)
    out[i, 9] = math.floor(x) + math.ceil(y) + math.trunc(x) + math.fabs(y) + math.nextafter(x, y)
    out[i, 10] = np.logaddexp(x, y) + np.logaddexp2(x, y) + np.spacing(x) + np.sign(y)
    out[i, 11] = np.fmax(x, y) + np.maximum(x, y) + round(x, 2) + x % y + x // y
    m, e = math.frexp(x)
    f, n = math.modf(y)
    out[i, 12] = m + e + f + n


@cuda.jit
def real(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        all_real(x[i], y[i], out, i)


@cuda.jit(fastmath=True)
def real_fast(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        all_real(x[i], y[i], out, i)


@cuda.jit
def cplx(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        z = x[i]
        w = y[i]
        out[i, 0] = cmath.sin(z) + cmath.cos(w) + cmath.tan(z)
        out[i, 1] = cmath.asin(z) + cmath.acos(w) + cmath.atan(z)
        out[i, 2] = cmath.sinh(z) + cmath.cosh(w) + cmath.tanh(z)
        out[i, 3] = cmath.asinh(z) + cmath.acosh(w) + cmath.atanh(z)
        out[i, 4] = cmath.exp(z) + cmath.log(w) + cmath.log10(z) + cmath.log(z, w)
        out[i, 5] = cmath.sqrt(z) + z ** w + z ** 3 + z / w + z * w
        out[i, 6] = abs(z) + cmath.phase(w) + cmath.rect(abs(z), 0.5)

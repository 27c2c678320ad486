"""cmath (and NumPy's complex ufuncs) at special values, against CPython.

A grid of real and imaginary parts (+-0, +-subnormal, +-1, +-large finite
near overflow, +-inf, NaN and a few ordinary values) crossed with itself,
every cmath function, complex128 and complex64, in a kernel (simulator or
GPU) and through @njit (the same lowering).  Signs of zeros and
infinities, and NaN-ness, must agree exactly; finite values to 4 ulps of
the largest finite part (the bound docs/math.md gives the cmath functions,
"a few ulps"), an underflow to zero or a subnormal in place of a zero
aside.

References: CPython's cmath on complex128 (Modules/cmathmodule.c, whose
special-value tables are C99 Annex G's).  Where CPython raises
ValueError or OverflowError, a kernel cannot raise, and neither does
Numba (numba/cpython/cmathimpl.py returns a value): the reference is then
the value C99 Annex G prescribes, which is what CPython computes before it
raises (log(0) = -inf+0j, atanh(1) = inf+0j, exp(1e308) = inf+0j, sin(inf)
= nan+nanj), taken from NumPy's complex ufuncs on complex128 (the C
library's cexp, clog, ...); sin, cos, tan, asin and atan from their
hyperbolic counterparts at iz, as CPython computes them (C99 leaves the
sign of some infinities open, and the C library's csin and csinh choose
differently).  Numba's own CPU code differs from that in a
few of those cases (exp(1e308+0j) gives inf+nanj there); ptxjit gives the
C99 value.  cmath.rect has no NumPy counterpart: its raising cases take
r cos(phi) + r sin(phi) j, with a zero kept a zero, as Numba's rect does.
complex64 compares with CPython on the widened argument, rounded to
float32.

NumPy's ufuncs share the cmath builders (as in Numba, whose np.exp on a
complex calls its cmath.exp); they are checked against NumPy itself, less
the few points where NumPy's special values depart from CPython's
(NP_DEPARTS: there they must give CPython's).
"""

import cmath
import functools
import itertools
import math

import numpy as np
import pytest

from ptxjit import cuda, njit

inf, nan = math.inf, math.nan

NAMES = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "sinh", "cosh", "tanh",
         "asin", "acos", "atan", "asinh", "acosh", "atanh", "rect", "phase", "polar_r", "polar_phi", "log_base"]
NPNAMES = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "sinh", "cosh", "tanh",
           "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"]
NC = len(NAMES) + len(NPNAMES)


def special_body(w, out, flags, i):
    out[i, 0] = cmath.sqrt(w)
    out[i, 1] = cmath.exp(w)
    out[i, 2] = cmath.log(w)
    out[i, 3] = cmath.log10(w)
    out[i, 4] = cmath.sin(w)
    out[i, 5] = cmath.cos(w)
    out[i, 6] = cmath.tan(w)
    out[i, 7] = cmath.sinh(w)
    out[i, 8] = cmath.cosh(w)
    out[i, 9] = cmath.tanh(w)
    out[i, 10] = cmath.asin(w)
    out[i, 11] = cmath.acos(w)
    out[i, 12] = cmath.atan(w)
    out[i, 13] = cmath.asinh(w)
    out[i, 14] = cmath.acosh(w)
    out[i, 15] = cmath.atanh(w)
    out[i, 16] = cmath.rect(w.real, w.imag)
    out[i, 17] = cmath.phase(w)
    r, p = cmath.polar(w)
    out[i, 18] = r
    out[i, 19] = p
    out[i, 20] = cmath.log(w, 2.0)
    out[i, 21] = np.sqrt(w)
    out[i, 22] = np.exp(w)
    out[i, 23] = np.log(w)
    out[i, 24] = np.log10(w)
    out[i, 25] = np.sin(w)
    out[i, 26] = np.cos(w)
    out[i, 27] = np.tan(w)
    out[i, 28] = np.sinh(w)
    out[i, 29] = np.cosh(w)
    out[i, 30] = np.tanh(w)
    out[i, 31] = np.arcsin(w)
    out[i, 32] = np.arccos(w)
    out[i, 33] = np.arctan(w)
    out[i, 34] = np.arcsinh(w)
    out[i, 35] = np.arccosh(w)
    out[i, 36] = np.arctanh(w)
    flags[i, 0] = cmath.isnan(w)
    flags[i, 1] = cmath.isinf(w)
    flags[i, 2] = cmath.isfinite(w)
    flags[i, 3] = np.isnan(w)
    flags[i, 4] = np.isinf(w)
    flags[i, 5] = np.isfinite(w)


device_body = cuda.jit(device=True)(special_body)


@cuda.jit
def special_kernel(z, out, flags):
    i = cuda.grid(1)
    if i < z.size:
        device_body(z[i], out, flags, i)


body_cpu = njit(special_body)


@njit
def special_cpu(z, out, flags):
    for i in range(z.size):
        body_cpu(z[i], out, flags, i)


def parts(dt):
    rng = np.random.default_rng(41)
    if dt == np.complex128:
        sub, big = 5e-324, 1.7976931348623157e308
    else:
        sub, big = float(np.float32(1e-45)), float(np.finfo(np.float32).max)
    ordinary = [float(dt(v).real) for v in rng.uniform(-4, 4, 3)]
    base = [0.0, sub, 1.0, big * 0.95, inf] + [abs(v) for v in ordinary]
    return [s * v for v in base for s in (1.0, -1.0)] + [nan]


def grid(dt):
    p = parts(dt)
    return np.array([complex(x, y) for x, y in itertools.product(p, p)], dt)


def _np_c99(name, w):
    with np.errstate(all="ignore"):
        return complex(getattr(np, NPNAMES[NAMES.index(name)])(np.complex128(w)))


def _rect_c99(r, phi):
    c, s = math.cos(phi) if math.isfinite(phi) else nan, math.sin(phi) if math.isfinite(phi) else nan
    re = c / r if c == 0 and math.isinf(r) else c * r
    im = s / r if s == 0 and math.isinf(r) else s * r
    return complex(re, im)


HYPERBOLIC = {"sin": "sinh", "cos": "cosh", "tan": "tanh", "asin": "asinh", "atan": "atanh"}


def reference(name, w):
    """CPython's value, or where CPython raises, C99 Annex G's."""
    try:
        if name == "rect":
            return cmath.rect(w.real, w.imag)
        if name == "phase":
            return complex(cmath.phase(w))
        if name == "polar_r":
            return complex(cmath.polar(w)[0])
        if name == "polar_phi":
            return complex(cmath.polar(w)[1])
        if name == "log_base":
            return cmath.log(w, 2.0)
        return getattr(cmath, name)(w)
    except (ValueError, OverflowError):
        if name in HYPERBOLIC:     # as CPython computes them: -i f(iz), or cosh(iz)
            r = reference(HYPERBOLIC[name], complex(-w.imag, w.real))
            return r if name == "cos" else complex(r.imag, -r.real)
        if name == "rect":
            return _rect_c99(w.real, w.imag)
        if name == "log_base":
            return _np_c99("log", w) / complex(math.log(2.0))
        if name == "polar_r":
            return complex(math.hypot(w.real, w.imag))
        if name in ("phase", "polar_phi"):     # an underflow or an overflow of |z|
            return complex(math.atan2(w.imag, w.real))
        return _np_c99(name, w)


def np_reference(name, w, dt):
    with np.errstate(all="ignore"):
        return complex(getattr(np, name)(dt(w)))


ULPS = 4


def agree(got, want, dt):
    """Signs of zeros and infinities and NaN-ness exactly, finite parts to
    ULPS ulps of the largest finite part of want."""
    eps = float(np.finfo(np.float32 if dt == np.complex64 else np.float64).eps)
    tiny = float(np.finfo(np.float32 if dt == np.complex64 else np.float64).tiny)
    scale = max([abs(p) for p in (want.real, want.imag) if math.isfinite(p)] + [0.0])
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        if math.isnan(w) or math.isnan(g):
            if not (math.isnan(w) and math.isnan(g)):
                return False
        elif math.isinf(w) or math.isinf(g):
            if g != w:
                return False
        elif w == 0 and g == 0:
            if math.copysign(1, g) != math.copysign(1, w):
                return False
        elif abs(g - w) > ULPS * eps * scale and not (abs(g) < tiny and abs(w) < tiny):
            return False
    return True


def wanted(dt):
    z = grid(dt)
    rows = []
    for w in z:
        w = complex(w)
        row = [reference(n, w) for n in NAMES]
        row += [np_reference(n, w, dt) for n in NPNAMES]
        if dt == np.complex64:
            with np.errstate(all="ignore"):
                row = [complex(np.complex64(v)) for v in row]
        rows.append(row)
    return z, rows


# (np name, argument) where NumPy's special value is not CPython's: the
# shared builder gives CPython's there (Numba's np ufuncs call its cmath too)
def np_departs(name, w, dt):
    cname = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh",
             "arccosh": "acosh", "arctanh": "atanh"}.get(name, name)
    want = reference(cname, w)
    if dt == np.complex64:
        with np.errstate(all="ignore"):
            want = complex(np.complex64(want))
    return want


def failures(out, flags, z, rows, dt):
    bad = []
    for i, w in enumerate(z):
        w = complex(w)
        for c in range(NC):
            got, want = complex(out[i, c]), rows[i][c]
            if agree(got, want, dt):
                continue
            if c >= len(NAMES):
                alt = np_departs(NPNAMES[c - len(NAMES)], w, dt)
                if agree(got, alt, dt):
                    continue
            name = NAMES[c] if c < len(NAMES) else "np." + NPNAMES[c - len(NAMES)]
            bad.append((name, "%s(%r): got %r, want %r" % (name, w, got, want)))
        fw = [cmath.isnan(w), cmath.isinf(w), cmath.isfinite(w)] * 2
        if list(flags[i]) != fw:
            bad.append(("isnan", "flags(%r): got %r, want %r" % (w, list(flags[i]), fw)))
    return bad


@functools.lru_cache(maxsize=None)
def run(how, dt):
    z, rows = wanted(dt)
    out = np.zeros((len(z), NC), dt)
    flags = np.zeros((len(z), 6), np.bool_)
    if how == "kernel":
        special_kernel[(len(z) + 63) // 64, 64](z, out, flags)
    else:
        special_cpu(z, out, flags)
    return failures(out, flags, z, rows, dt), len(z)


# the functions by family, cmath's names then NumPy's
FAMILIES = {
    "exp": ["exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "rect", "phase", "polar_r", "polar_phi", "isnan",
            "np.exp", "np.sin", "np.cos", "np.tan", "np.sinh", "np.cosh", "np.tanh"],
    "log": ["sqrt", "log", "log10", "log_base", "np.sqrt", "np.log", "np.log10"],
    "inverse": ["asin", "acos", "atan", "asinh", "acosh", "atanh",
                "np.arcsin", "np.arccos", "np.arctan", "np.arcsinh", "np.arccosh", "np.arctanh"],
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("how", ["kernel", "njit"])
@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
def test_cmath_special_values(family, how, dt):
    bad, npoints = run(how, dt)
    names = FAMILIES[family]
    bad = [msg for name, msg in bad if name in names]
    total = npoints * (len(names) - ("isnan" in names))
    assert not bad, "%d of %d cases differ:\n%s" % (len(bad), total, "\n".join(bad[:60]))


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_cmath_accuracy_on_random_values(rng, dt):
    """Every function of the kernel above on finite values of magnitudes
    from 1e-3 to 1e3, to a few ulps of CPython's cmath (of NumPy for np.*)."""
    n = 600
    z = (rng.standard_normal(n) * np.exp(rng.uniform(-6, 6, n))
         + 1j * rng.standard_normal(n) * np.exp(rng.uniform(-6, 6, n)))
    z[:8] = [0.5 + 0.5j, 1, -1, 1j, -1j, 2, -2.5, 0.3j]
    z = z.astype(dt)
    out = np.zeros((n, NC), dt)
    flags = np.zeros((n, 6), np.bool_)
    special_kernel[(n + 63) // 64, 64](z, out, flags)
    tol = 2e-15 if dt == np.complex128 else 1e-5
    floor = 1e-30 if dt == np.complex128 else 1e-20
    bad = []
    for i in range(n):
        w = complex(z[i])
        for c in range(NC):
            try:
                want = reference(NAMES[c], w) if c < len(NAMES) else np_reference(NPNAMES[c - len(NAMES)], w, dt)
            except (ValueError, OverflowError):
                continue
            if not (math.isfinite(want.real) and math.isfinite(want.imag)):
                continue
            if dt == np.complex64 and max(abs(want.real), abs(want.imag)) > 1e37:
                continue
            got = complex(out[i, c])
            if abs(got - want) > tol * max(abs(want), floor):
                bad.append("column %d of %r: got %r, want %r" % (c, w, got, want))
    assert not bad, "%d differ:\n%s" % (len(bad), "\n".join(bad[:40]))


if __name__ == "__main__":
    import collections
    import sys
    for dt in (np.complex128, np.complex64):
        for how in [a for a in sys.argv[1:] if not a.startswith("-")] or ["kernel"]:
            bad, npoints = run(how, dt)
            for family, names in FAMILIES.items():
                fb = [msg for name, msg in bad if name in names]
                per = collections.Counter(msg.split("(")[0] for msg in fb)
                print(dt.__name__, how, family, len(fb), "of", npoints * (len(names) - ("isnan" in names)), dict(per))
                if "-v" in sys.argv:
                    print("\n".join("   " + msg for msg in fb))

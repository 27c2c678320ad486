"""Complex division, bit for bit against CPython's algorithm (_Py_c_quot).

a / b for complex a and b, and a / x for a complex a and a real x (which
Numba and Python before 3.14 divide as a / complex(x, 0)), in complex128
and complex64, on random values of mixed magnitudes and on a grid of
special parts (signed zeros, subnormals, the largest float, infinities,
NaN).  The reference is _Py_c_quot written here with NumPy scalars of the
part's precision: the larger part of the divisor is divided out first;
a zero divisor gives NaN parts (a kernel cannot raise ZeroDivisionError;
Numba's CUDA target gives NaN too).  Results must have the same bits,
signs of zeros included; any NaN matches any NaN.  Runs on the simulator
and, with PTXJIT_TEST_GPU=1, on the GPU.
"""

import numpy as np
import pytest

from ptxjit import cuda


@cuda.jit
def k_cdiv(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] / b[i]


@cuda.jit
def k_rdiv(a, x, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] / x[i]


@cuda.jit
def k_rdiv_abs(a, out):
    i = cuda.grid(1)
    if i < a.size:
        r = a[i]
        out[i] = r / (1 + abs(r))


def c_quot(ar, ai, br, bi, f):
    """CPython's _Py_c_quot in precision f (NumPy scalars)."""
    ar, ai, br, bi = f(ar), f(ai), f(br), f(bi)
    nan = f(np.nan)
    with np.errstate(all="ignore"):
        if abs(br) >= abs(bi):
            if br == 0:
                return nan, nan
            r = bi / br
            d = br + bi * r
            return (ar + ai * r) / d, (ai - ar * r) / d
        if abs(bi) >= abs(br):
            r = br / bi
            d = br * r + bi
            return (ar * r + ai) / d, (ai * r - ar) / d
        return nan, nan


def same(got, want):
    g, w = np.asarray(got), np.asarray(want)
    both_nan = np.isnan(g) & np.isnan(w)
    return both_nan | (g.view(np.uint64 if g.dtype == np.float64 else np.uint32)
                       == w.view(np.uint64 if w.dtype == np.float64 else np.uint32))


def check(a, b_re, b_im, got, f):
    want = [c_quot(x.real, x.imag, p, q, f) for x, p, q in zip(a, b_re, b_im)]
    wr = np.array([w[0] for w in want], f)
    wi = np.array([w[1] for w in want], f)
    ok = same(got.real.copy(), wr) & same(got.imag.copy(), wi)
    bad = np.flatnonzero(~ok)
    assert len(bad) == 0, "%d of %d differ, first: %r / (%r, %r) = %r, want %r" % (
        len(bad), len(ok), a[bad[0]], b_re[bad[0]], b_im[bad[0]], got[bad[0]], complex(wr[bad[0]], wi[bad[0]]))


SPECIAL = [0.0, -0.0, 5e-324, -1e-310, 1.0, -2.5, 3.0, 1e300, -1.7976931348623157e308,
           np.inf, -np.inf, np.nan]
SPECIAL32 = [0.0, -0.0, 1e-45, -1e-40, 1.0, -2.5, 3.0, 1e30, -3.4028234663852886e38,
             np.inf, -np.inf, np.nan]


def complexes(rng, n, f, cdt):
    mag = np.exp2(rng.uniform(-30, 30, (2, n))) * rng.choice([-1.0, 1.0], (2, n))
    z = np.empty(n, cdt)
    z.real, z.imag = mag[0].astype(f), (mag[1] * rng.choice([0.0, 1.0, 1e-8], n)).astype(f)
    return z


def grid(specials, f, cdt):
    vals = np.array(specials, f)
    ar, ai, br, bi = np.meshgrid(vals, vals, vals, vals, indexing="ij")
    a = np.empty(ar.size, cdt)
    a.real, a.imag = ar.ravel(), ai.ravel()
    return a, br.ravel().copy(), bi.ravel().copy()


PRECS = [(np.float64, np.complex128, SPECIAL), (np.float32, np.complex64, SPECIAL32)]


def launch(k, n, *args):
    k[(n + 127) // 128, 128](*args)


@pytest.mark.parametrize("f,cdt,specials", PRECS, ids=["c128", "c64"])
def test_complex_by_complex(f, cdt, specials, rng):
    a = complexes(rng, 3000, f, cdt)
    b = complexes(rng, 3000, f, cdt)
    ga, gbr, gbi = grid(specials, f, cdt)
    a = np.concatenate([a, ga])
    b_re = np.concatenate([b.real, gbr]).astype(f)
    b_im = np.concatenate([b.imag, gbi]).astype(f)
    b = np.empty(len(a), cdt)
    b.real, b.imag = b_re, b_im
    out = np.zeros(len(a), cdt)
    launch(k_cdiv, len(a), a, b, out)
    check(a, b_re, b_im, out, f)


@pytest.mark.parametrize("f,cdt,specials", PRECS, ids=["c128", "c64"])
def test_complex_by_real(f, cdt, specials, rng):
    a = complexes(rng, 3000, f, cdt)
    x = (np.exp2(rng.uniform(-30, 30, 3000)) * rng.choice([-1.0, 1.0], 3000)).astype(f)
    vals = np.array(specials, f)
    ar, ai, xr = np.meshgrid(vals, vals, vals, indexing="ij")
    ga = np.empty(ar.size, cdt)
    ga.real, ga.imag = ar.ravel(), ai.ravel()
    a = np.concatenate([a, ga])
    x = np.concatenate([x, xr.ravel()]).astype(f)
    out = np.zeros(len(a), cdt)
    launch(k_rdiv, len(a), a, x, out)
    check(a, x, np.zeros(len(x), f), out, f)


@pytest.mark.parametrize("f,cdt,specials", PRECS, ids=["c128", "c64"])
def test_complex_by_one_plus_abs(f, cdt, specials, rng):
    """complex64_map's r / (1 + abs(r)): 1 + abs(r) is a float64 (an int plus a
    float32 is a float64, as in Numba), so the division is complex128's, rounded to
    the output's type; the divisor is taken from the kernel (abs is within 1 ulp)."""
    a = complexes(rng, 2000, f, cdt)
    ga, _, _ = grid(specials[:3] + specials[-3:], f, cdt)
    a = np.concatenate([a, ga])
    out = np.zeros(len(a), cdt)
    launch(k_rdiv_abs, len(a), a, out)
    d = np.zeros(len(a), np.float64)
    launch(k_abs1, len(a), a, d)
    a64 = a.astype(np.complex128)
    want = [c_quot(x.real, x.imag, p, 0.0, np.float64) for x, p in zip(a64, d)]
    with np.errstate(all="ignore"):
        wr = np.array([w[0] for w in want]).astype(f)
        wi = np.array([w[1] for w in want]).astype(f)
    ok = same(out.real.copy(), wr) & same(out.imag.copy(), wi)
    assert ok.all(), "%d of %d differ" % ((~ok).sum(), len(ok))


@cuda.jit
def k_abs1(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = 1 + abs(a[i])


def test_python_agrees_on_finite_complex128(rng):
    """The reference is Python's own complex division where Python divides (no zero divisor)."""
    a = complexes(rng, 500, np.float64, np.complex128)
    b = complexes(rng, 500, np.float64, np.complex128)
    for x, y in zip(a, b):
        if y != 0:
            w = complex(x) / complex(y)
            g = c_quot(x.real, x.imag, y.real, y.imag, np.float64)
            assert (w.real, w.imag) == (float(g[0]), float(g[1]))

"""abs() of a complex and math.hypot, against correctly rounded references.

Both are built by src/math/pow.c's hypot: the parts scaled by a power of
two (exact), one fma, a correctly rounded sqrt and one rounding on the way
back.  That keeps float64 results within 1 ulp of the exact value (err <
1: at most one ulp from the correctly rounded result), tighter than
CUDA's 2 ulp bound; a division-based sqrt(1 + (c/a)^2) has errors up to
about 1.9 ulp on the same inputs and fails here.  float32 is computed in
float64 and rounded once more: within 0.5 ulp (plus 1e-6 for that second
rounding).

Inputs: random pairs with log-uniform magnitudes over the whole float
range (both subnormal ranges and results near the largest float
included), pairs of close magnitude (where both parts count), and fixed
edge cases: zeros, subnormals, the largest float, a result that
overflows, infinities against NaN.  References: mpmath at 160 bits.
Runs on the simulator and, with PTXJIT_TEST_GPU=1, on the GPU.
"""

import math

import mpmath
import numpy as np
import pytest

from ptxjit import cuda

N = 4000


@cuda.jit
def k_abs(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[i] = abs(z[i])


@cuda.jit
def k_hypot(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.hypot(x[i], y[i])


def launch_abs(x, y, dt):
    cdt = np.complex128 if dt == np.float64 else np.complex64
    z = np.empty(len(x), cdt)
    z.real, z.imag = x, y
    out = np.zeros(len(x), dt)
    k_abs[(len(x) + 127) // 128, 128](z, out)
    return out


def launch_hypot(x, y, dt):
    out = np.zeros(len(x), dt)
    k_hypot[(len(x) + 127) // 128, 128](x.astype(dt), y.astype(dt), out)
    return out


LAUNCH = {"abs": launch_abs, "hypot": launch_hypot}
PREC = {np.float64: (53, -1022, 1024), np.float32: (24, -126, 128)}


def random_pairs(rng, dt, n):
    p, emin, emax = PREC[dt]
    lo = emin - p + 1

    def logu(a, b, m):
        return np.exp2(rng.uniform(a, b, m)) * rng.choice([-1.0, 1.0], m)
    with np.errstate(all="ignore"):
        x = logu(lo, emax, n)
        y = np.where(rng.random(n) < 0.5, logu(lo, emax, n), x * logu(-3, 3, n))
        # a quarter near the top and a quarter near the bottom of the range
        q = n // 4
        x[:q] = logu(emax - 8, emax, q)
        y[:q] = x[:q] * logu(-4, 0, q)
        x[q:2 * q] = logu(lo, emin + 4, q)
        y[q:2 * q] = logu(lo, emin + 4, q)
        x, y = x.astype(dt), y.astype(dt)
    keep = np.isfinite(x) & np.isfinite(y)
    return x[keep], y[keep]


def errors(x, y, got, dt):
    """|got - exact| / ulp(exact) per input (the ulp of the exact value's binade, subnormals' ulp below)."""
    p, emin, _ = PREC[dt]
    mpmath.mp.prec = 160
    out = np.zeros(len(got))
    for i, (a, b, g) in enumerate(zip(x.astype(np.float64), y.astype(np.float64), got.astype(np.float64))):
        v = mpmath.sqrt(mpmath.mpf(float(a)) ** 2 + mpmath.mpf(float(b)) ** 2)
        if v == 0:
            out[i] = 0.0 if g == 0 else np.inf
            continue
        e = int(mpmath.floor(mpmath.log(v, 2)))
        u = mpmath.mpf(2) ** (max(e, emin) - (p - 1))
        if not math.isfinite(g):
            largest = (2 - mpmath.mpf(2) ** (1 - p)) * mpmath.mpf(2) ** (PREC[dt][2] - 1)
            # inf is right when the exact value rounds past the largest float
            out[i] = 0.0 if v >= largest + u / 2 else np.inf
            continue
        out[i] = float(abs(mpmath.mpf(g) - v) / u)
    return out


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("fn", ["abs", "hypot"])
def test_random_within_one_ulp(fn, dt, rng):
    x, y = random_pairs(rng, dt, N)
    got = LAUNCH[fn](x, y, dt)
    err = errors(x, y, got, dt)
    bound = 1.0 if dt == np.float64 else 0.5 + 1e-6
    worst = int(np.argmax(err))
    assert err[worst] < bound, "%s(%r, %r) = %r: %.3f ulp" % (fn, x[worst], y[worst], got[worst], err[worst])
    if dt == np.float64:
        # an error above half an ulp is rare (not a systematic bias)
        assert np.mean(err > 0.5) < 0.1


def edge_pairs(dt):
    fi = np.finfo(dt)
    big, tiny, sub = float(fi.max), float(fi.tiny), float(fi.smallest_subnormal)
    vals = [0.0, -0.0, sub, -sub, 3 * sub, tiny, tiny * 1.5, -tiny, 1.0, -1.0, 3.0, 4.0,
            big, -big, big / 2, big * 0.75, 1e-300 if dt == np.float64 else 1e-38]
    xs, ys = zip(*[(a, b) for a in vals for b in vals])
    return np.array(xs, dt), np.array(ys, dt)


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("fn", ["abs", "hypot"])
def test_edge_values(fn, dt):
    x, y = edge_pairs(dt)
    got = LAUNCH[fn](x, y, dt)
    err = errors(x, y, got, dt)
    bound = 1.0 if dt == np.float64 else 0.5 + 1e-6
    worst = int(np.argmax(err))
    assert err[worst] < bound, "%s(%r, %r) = %r" % (fn, x[worst], y[worst], got[worst])
    # exact cases: zeros, one zero part, 3-4-5, and an overflow to inf
    assert all(not np.signbit(g) for g in got)
    for a, b, g in zip(x, y, got):
        if a == 0 or b == 0:
            assert g == max(abs(a), abs(b))
        if {abs(float(a)), abs(float(b))} == {3.0, 4.0}:
            assert g == 5.0


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("fn", ["abs", "hypot"])
def test_infinities_and_nans(fn, dt):
    inf, nan = np.inf, np.nan
    x = np.array([inf, -inf, nan, inf, nan, -inf, nan, 1.0, nan, 0.0, inf], dt)
    y = np.array([1.0, nan, inf, inf, nan, -inf, 2.0, nan, 0.0, -inf, 0.0], dt)
    with np.errstate(all="ignore"):
        got = LAUNCH[fn](x, y, dt)
    want = np.array([math.hypot(float(a), float(b)) for a, b in zip(x, y)], dt)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~np.isnan(want)], want[~np.isnan(want)])

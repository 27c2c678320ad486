"""The math library: math.*, cmath.* and NumPy's ufuncs on scalars in
kernels, against references computed here, on the simulator (CI) and on
the GPU (PTXJIT_TEST_GPU=1).

* every real function in float32 and float64: a few thousand random inputs
  over its domain (log-uniform magnitudes) within CUDA's documented bound
  in ulps (bench/math_accuracy.py has the bounds and the full measurement),
  and its special values (C99 Annex F, from the C library's libm) bit for
  bit, signed zeros included;
* Numba's typing (float32 stays float32, integers give float64, NumPy's
  small integers float32), seen through overflow;
* the exact functions, NumPy's elementwise functions, x ** y, and
  fastmath's approximations (cmath: test_cmath_special.py).

float64 references: mpmath (a declared test dependency), exact to the last
bit; fmod, remainder, copysign and nextafter, which are exact, from NumPy.
"""

import ctypes
import importlib.util
import math
import os
import tempfile

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.cuda import libdevice

import mpmath

N = 2000

# name: (kernel expression, arity, domain, CUDA bound float32, float64)
FUNCS = {
    "sin": ("math.sin(x)", 1, "trig", 2, 2),
    "cos": ("math.cos(x)", 1, "trig", 2, 2),
    "tan": ("math.tan(x)", 1, "trig", 4, 2),
    "asin": ("math.asin(x)", 1, "unit", 2, 2),
    "acos": ("math.acos(x)", 1, "unit", 2, 2),
    "atan": ("math.atan(x)", 1, "all", 2, 2),
    "sinh": ("math.sinh(x)", 1, "hyp", 3, 2),
    "cosh": ("math.cosh(x)", 1, "hyp", 2, 1),
    "tanh": ("math.tanh(x)", 1, "all", 2, 1),
    "asinh": ("math.asinh(x)", 1, "all", 3, 3),
    "acosh": ("math.acosh(x)", 1, "ge1", 4, 3),
    "atanh": ("math.atanh(x)", 1, "unit", 3, 2),
    "exp": ("math.exp(x)", 1, "exp", 2, 1),
    "exp2": ("math.exp2(x)", 1, "exp2", 2, 1),
    "expm1": ("math.expm1(x)", 1, "exp", 1, 1),
    "log": ("math.log(x)", 1, "pos", 1, 1),
    "log2": ("math.log2(x)", 1, "pos", 1, 1),
    "log10": ("math.log10(x)", 1, "pos", 2, 1),
    "log1p": ("math.log1p(x)", 1, "log1p", 1, 1),
    "cbrt": ("np.cbrt(x)", 1, "all", 1, 1),
    "erf": ("math.erf(x)", 1, "erf", 2, 2),
    "erfc": ("math.erfc(x)", 1, "erf", 4, 5),
    "gamma": ("math.gamma(x)", 1, "gamma", 5, 10),
    "lgamma": ("math.lgamma(x)", 1, "lgamma", 6, 4),
    "atan2": ("math.atan2(x, y)", 2, "all", 3, 2),
    "hypot": ("math.hypot(x, y)", 2, "all", 3, 2),
    "pow": ("math.pow(x, y)", 2, "pow", 4, 2),
    "fmod": ("math.fmod(x, y)", 2, "all", 0, 0),
    "remainder": ("math.remainder(x, y)", 2, "all", 0, 0),
    "copysign": ("math.copysign(x, y)", 2, "all", 0, 0),
    "nextafter": ("math.nextafter(x, y)", 2, "all", 0, 0),
}

FLOAT = {"f32": np.float32, "f64": np.float64}
INT = {"f32": np.int32, "f64": np.int64}
P = {"f32": 24, "f64": 53}
NMIN = {"f32": -126, "f64": -1022}
EMAX = {"f32": 128, "f64": 1024}


def _libm():
    for name in ("libm.so.6", "libm.dylib", "libm.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    return None


LIBM = _libm()


def kernels_module():
    """One kernel per function and precision, in a module of their own
    (ptxjit reads kernels' source from their file)."""
    src = ["import math", "import numpy as np", "from ptxjit import cuda", ""]
    for name, (expr, arity, _, _, _) in FUNCS.items():
        for prec in ("f32", "f64"):
            params = "x, y, out" if arity == 2 else "x, out"
            body = expr.replace("(x)", "(x[i])").replace("(x, y)", "(x[i], y[i])")
            src += ["@cuda.jit", "def k_%s_%s(%s):" % (name, prec, params), "    i = cuda.grid(1)",
                    "    if i < out.size:", "        out[i] = " + body, ""]
    d = tempfile.mkdtemp(prefix="ptxjit_test_math_")
    path = os.path.join(d, "test_math_kernels.py")
    with open(path, "w") as f:
        f.write("\n".join(src))
    spec = importlib.util.spec_from_file_location("test_math_kernels", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def kmod():
    return kernels_module()


def run(kmod, name, prec, args):
    k = getattr(kmod, "k_%s_%s" % (name, prec))
    out = np.zeros(len(args[0]), dtype=FLOAT[prec])
    k[(len(out) + 127) // 128, 128](*args, out)
    return out


def logu(rng, n, lo, hi, signed=True):
    x = np.exp2(rng.uniform(lo, hi, n))
    return x * rng.choice([-1.0, 1.0], n) if signed else x


def inputs(name, prec, rng):
    _, arity, dom, _, _ = FUNCS[name]
    e1 = EMAX[prec]
    e0 = NMIN[prec] - P[prec] + 2
    n = N
    if arity == 2:
        if dom == "pow":
            x = logu(rng, n, -40, 40, signed=False)
            y = rng.uniform(-30, 30, n)
            x[: n // 4] *= -1
            y[: n // 4] = np.round(y[: n // 4])
        else:
            x = logu(rng, n, e0, e1)
            with np.errstate(all="ignore"):
                y = np.where(rng.random(n) < 0.5, logu(rng, n, e0, e1), x * logu(rng, n, -30, 30))
        with np.errstate(all="ignore"):
            return x.astype(FLOAT[prec]), y.astype(FLOAT[prec])
    lim = {"exp": (750, 105), "exp2": (1080, 155), "hyp": (712, 90), "gamma": (175, 40)}.get(dom)
    if dom in ("trig", "all"):
        x = np.concatenate([logu(rng, n // 2, e0, e1), rng.uniform(-10, 10, n - n // 2)])
    elif dom == "unit":
        x = logu(rng, n, -30, 0)
    elif dom == "ge1":
        x = 1 + logu(rng, n, -20, e1 - 1, signed=False)
    elif dom == "pos":
        x = logu(rng, n, e0, e1, signed=False)
    elif dom == "log1p":
        x = np.concatenate([logu(rng, n // 2, -30, 0), logu(rng, n - n // 2, -30, e1 - 1, signed=False)])
    elif dom == "erf":
        x = rng.uniform(-30, 30, n) * np.exp2(rng.uniform(-10, 0, n))
    elif dom == "lgamma":
        x = np.concatenate([rng.uniform(-30, 30, n // 2), logu(rng, n - n // 2, -20, 60, signed=False)])
    else:
        lo = lim[0] if prec == "f64" else lim[1]
        x = rng.uniform(-lo, lo, n)
    with np.errstate(all="ignore"):
        return (x.astype(FLOAT[prec]),)


def ref_f64(name, args):
    """The function in float64 (NumPy / Python); error about 1 float64 ulp."""
    if name in ("nextafter", "copysign"):
        return getattr(np, name)(*args).astype(np.float64)   # exact, in the arguments' precision
    a = [v.astype(np.float64) for v in args]
    with np.errstate(all="ignore"):
        if name in ("erf", "erfc", "lgamma", "gamma", "fmod", "remainder", "copysign", "nextafter"):
            fn = getattr(math, name)
            out = []
            for vals in zip(*a):
                try:
                    out.append(fn(*vals))
                except ValueError:
                    out.append(math.nan)
                except OverflowError:
                    out.append(math.inf)
            return np.array(out)
        npname = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
                  "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2", "pow": "power"}.get(name, name)
        return getattr(np, npname)(*a)


def ref_mp(name, args):
    """float64 references with mpmath at 120 bits (exact to the last bit)."""
    mpmath.mp.prec = 120
    f = {"asin": mpmath.asin, "acos": mpmath.acos, "atan": mpmath.atan, "exp2": lambda x: mpmath.power(2, x),
         "log2": lambda x: mpmath.log(x, 2), "cbrt": lambda x: mpmath.cbrt(x) if x >= 0 else -mpmath.cbrt(-x),
         "lgamma": lambda x: mpmath.re(mpmath.loggamma(x)), "pow": mpmath.power,
         "atan2": mpmath.atan2}.get(name) or getattr(mpmath, name)
    out = []
    for vals in zip(*[v.astype(np.float64) for v in args]):
        try:
            v = f(*[mpmath.mpf(float(t)) for t in vals])
            if isinstance(v, mpmath.mpc):
                v = mpmath.re(v) if mpmath.im(v) == 0 else mpmath.nan
            out.append(v)
        except (ValueError, ZeroDivisionError, OverflowError):
            out.append(mpmath.nan)
    return out


def ulp(v, prec):
    a = np.abs(v)
    with np.errstate(all="ignore"):
        e = np.floor(np.log2(np.where(a > 0, a, 2.0 ** NMIN[prec])))
        e = np.where(np.exp2(e) > a, e - 1, e)
    return np.exp2(np.maximum(e, NMIN[prec]) - (P[prec] - 1))


def ulp_errors(name, prec, args, got):
    """Errors in ulps against the exact value; (errors, slack for the reference's own error)."""
    g = got.astype(np.float64)
    if prec == "f64" and name not in ("fmod", "remainder", "copysign", "nextafter"):
        refs = ref_mp(name, args)
        errs = np.zeros(len(g))
        for i, v in enumerate(refs):
            if not mpmath.isfinite(v) or not math.isfinite(g[i]) or abs(v) > 1.7976931348623157e308:
                continue
            errs[i] = float(abs(mpmath.mpf(g[i]) - v) / mpmath.mpf(float(ulp(np.array([float(v)]), prec)[0])))
        return errs, 0.0, np.array([float(v) for v in refs])
    r = ref_f64(name, args)
    with np.errstate(all="ignore"):
        errs = np.where(np.isfinite(r) & np.isfinite(g), np.abs(g - r) / ulp(r, prec), 0.0)
    return errs, (1.0 if prec == "f64" else 0.001), r


@pytest.mark.parametrize("prec", ["f32", "f64"])
@pytest.mark.parametrize("name", list(FUNCS))
def test_accuracy(kmod, name, prec, rng):
    args = inputs(name, prec, rng)
    got = run(kmod, name, prec, args)
    errs, slack, ref = ulp_errors(name, prec, args, got)
    if name == "lgamma":
        hole = (-10.001, -2.264) if prec == "f32" else (-23.0001, -2.2637)
        x = args[0].astype(np.float64)
        errs = np.where((x > hole[0]) & (x < hole[1]), 0.0, errs)
    bound = FUNCS[name][3 if prec == "f32" else 4]
    # the distance from the correctly rounded result is at most `bound`
    # when the error against the exact value is below bound + 1/2
    limit = bound + 0.5 + slack
    worst = int(np.argmax(errs))
    assert errs[worst] <= limit, "%s %s: %.3f ulp at %r (got %r, reference %r)" % (
        name, prec, errs[worst], [float(a[worst]) for a in args], float(got[worst]), float(ref[worst]))
    # NaN where the reference is NaN, finite where it is finite
    with np.errstate(all="ignore"):
        fr = ref_f64(name, args) if prec == "f64" else ref
        fr32 = fr.astype(FLOAT[prec])
    same_nan = np.isnan(fr32) == np.isnan(got)
    assert same_nan.all(), "%s %s: NaN mismatch at %r" % (name, prec, args[0][np.argmin(same_nan)])


# ----------------------------------------------------------- special values

SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 1e-310,
           -1e-310, 1e-40, -1e-40, 1e300, -1e300, 709.0, 711.0, -745.0, -750.0, 88.0, 90.0, -104.0, 170.0,
           172.0, -170.5, -0.25, 0.75, 5.0, 30.0]


def libm(name, prec, args):
    cname = {"gamma": "tgamma"}.get(name, name)
    if prec == "f32":
        cname += "f"
    fn = getattr(LIBM, cname)
    ct = ctypes.c_float if prec == "f32" else ctypes.c_double
    fn.restype = ct
    fn.argtypes = [ct] * len(args)
    return np.array([fn(*[float(a[i]) for a in args]) for i in range(len(args[0]))], dtype=FLOAT[prec])


@pytest.mark.skipif(LIBM is None, reason="no C library libm to take C99's special values from")
@pytest.mark.parametrize("prec", ["f32", "f64"])
@pytest.mark.parametrize("name", list(FUNCS))
def test_special_values(kmod, name, prec):
    arity = FUNCS[name][1]
    with np.errstate(all="ignore"):
        s = np.array(SPECIAL, dtype=FLOAT[prec])
    if arity == 1:
        args = (s,)
    else:
        sp = [v for v in SPECIAL[:13]]
        args = (np.array([a for a in sp for b in sp], dtype=FLOAT[prec]),
                np.array([b for a in sp for b in sp], dtype=FLOAT[prec]))
    got = run(kmod, name, prec, args)
    if name == "remainder":
        want = np.array([math.remainder(*v) if math.isfinite(v[0]) and v[1] == v[1] and v[1] != 0 else math.nan
                         for v in zip(*[a.astype(float) for a in args])], dtype=FLOAT[prec])
    else:
        want = libm(name, prec, args)
    # C99's special results (infinite or NaN ones, and zeros with their sign) exactly
    special = ~np.isfinite(want) | (want == 0)
    for a in args:
        special |= ~np.isfinite(a)
    bad = []
    for i in np.nonzero(special)[0]:
        g, w = got[i], want[i]
        if np.isnan(w):
            ok = np.isnan(g)
        else:
            ok = g == w and np.signbit(g) == np.signbit(w)
        if not ok and name == "lgamma" and np.isinf(w) and np.isinf(g):
            ok = True
        if not ok:
            bad.append(([float(a[i]) for a in args], float(g), float(w)))
    assert not bad, "%s %s special values differ (args, got, C99): %r" % (name, prec, bad[:6])


# ------------------------------------------------------------------ typing

@cuda.jit
def typing_kernel(f32, f64, i32, i64, i8, out):
    out[0] = math.exp(f32[0])        # float32: overflows
    out[1] = math.exp(f64[0])
    out[2] = math.exp(i32[0])        # ints compute in float64
    out[3] = math.exp(i64[0])
    out[4] = np.exp(i8[0])           # NumPy: int8 -> float32
    out[5] = np.exp(i32[0])          # NumPy: int32 -> float64
    out[6] = math.pow(f32[0], f32[0])
    out[7] = math.pow(f32[0], f64[0])  # mixed: float64
    out[8] = math.atan2(f32[0], i32[0])
    out[9] = f32[0] ** f32[0]
    out[10] = np.float32(2.0) ** f64[0]


def test_typing_follows_numba():
    f32 = np.array([100.0], np.float32)
    f64 = np.array([100.0])
    i32 = np.array([100], np.int32)
    i64 = np.array([100], np.int64)
    i8 = np.array([100], np.int8)
    out = np.zeros(11)
    typing_kernel[1, 1](f32, f64, i32, i64, i8, out)
    e100 = math.exp(100)
    assert out[0] == math.inf
    assert out[1] == pytest.approx(e100, rel=1e-15)
    assert out[2] == pytest.approx(e100, rel=1e-15)
    assert out[3] == pytest.approx(e100, rel=1e-15)
    assert out[4] == math.inf
    assert out[5] == pytest.approx(e100, rel=1e-15)
    assert out[6] == math.inf
    assert out[7] == pytest.approx(1e200, rel=1e-15)
    assert out[8] == pytest.approx(math.atan2(100, 100), rel=1e-15)
    assert out[9] == math.inf
    assert out[10] == pytest.approx(2.0 ** 100, rel=1e-15)


@cuda.jit
def frexp_modf_kernel(x, m, e, fr, ip, ld, n):
    i = cuda.grid(1)
    if i < x.size:
        a, b = math.frexp(x[i])
        m[i] = a
        e[i] = b
        c, d = math.modf(x[i])
        fr[i] = c
        ip[i] = d
        ld[i] = math.ldexp(x[i], n[i])


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_frexp_modf_ldexp(rng, dt):
    fi = np.finfo(dt)
    x = np.concatenate([logu(rng, 500, -160 if dt == np.float32 else -1080, 127 if dt == np.float32 else 1023),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, fi.tiny, -float(fi.max), 1.5, -3.0]]).astype(dt)
    n = rng.integers(-300, 300, len(x)).astype(np.int32)
    n[:5] = [0, 1, -1, 5000, -5000]
    m, fr, ip, ld = (np.zeros_like(x) for _ in range(4))
    e = np.zeros(len(x), np.int32)
    frexp_modf_kernel[(len(x) + 127) // 128, 128](x, m, e, fr, ip, ld, n)
    wm, we = np.frexp(x)
    wf, wi = np.modf(x)
    with np.errstate(all="ignore"):
        wl = np.ldexp(x, n)
    np.testing.assert_array_equal(m, wm)
    np.testing.assert_array_equal(e[np.isfinite(x)], we[np.isfinite(x)])
    np.testing.assert_array_equal(fr, wf)
    np.testing.assert_array_equal(ip, wi)
    np.testing.assert_array_equal(np.signbit(fr), np.signbit(wf))
    np.testing.assert_array_equal(ld, wl)


# ------------------------------------------------------------------- NumPy

@cuda.jit
def numpy_kernel(x, y, k, j, out, iout, bout):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        out[i, 0] = np.maximum(a, b)
        out[i, 1] = np.minimum(a, b)
        out[i, 2] = np.fmax(a, b)
        out[i, 3] = np.fmin(a, b)
        out[i, 4] = np.sign(a)
        out[i, 5] = np.logaddexp(a, b)
        out[i, 6] = np.logaddexp2(a, b)
        out[i, 7] = np.deg2rad(a)
        out[i, 8] = np.rad2deg(a)
        out[i, 9] = np.square(a)
        out[i, 10] = np.reciprocal(b)
        out[i, 11] = np.fmod(a, b)
        out[i, 12] = np.remainder(a, b)
        out[i, 13] = np.floor_divide(a, b)
        out[i, 14] = np.power(np.abs(a), b)
        out[i, 15] = np.spacing(a)
        out[i, 16] = np.trunc(a)
        out[i, 17] = np.rint(a)
        out[i, 18] = np.arctan2(a, b)
        out[i, 19] = np.hypot(a, b)
        iout[i, 0] = np.gcd(k[i], j[i])
        iout[i, 1] = np.lcm(k[i], j[i])
        iout[i, 2] = np.bitwise_and(k[i], j[i])
        iout[i, 3] = np.left_shift(k[i], 3)
        iout[i, 4] = np.invert(k[i])
        iout[i, 5] = np.sign(k[i])
        iout[i, 6] = np.fmod(k[i], j[i])
        iout[i, 7] = np.remainder(k[i], j[i])
        q, r = np.divmod(k[i], j[i])
        iout[i, 8] = q
        iout[i, 9] = r
        bout[i, 0] = np.signbit(a)
        bout[i, 1] = np.greater(a, b)
        bout[i, 2] = np.logical_xor(a > 0, b > 0)
        bout[i, 3] = np.isnan(a)
        bout[i, 4] = np.isfinite(b)
        bout[i, 5] = np.isinf(a)


def test_numpy_ufuncs(rng):
    n = 1000
    x = rng.standard_normal(n) * np.exp2(rng.uniform(-10, 10, n))
    y = rng.standard_normal(n) * np.exp2(rng.uniform(-10, 10, n))
    x[:8] = [np.nan, 1.0, np.nan, -0.0, 0.0, np.inf, -np.inf, 3.0]
    y[:8] = [1.0, np.nan, np.nan, 0.0, -0.0, 2.0, np.inf, -np.inf]
    k = rng.integers(-1000, 1000, n)
    j = rng.integers(-50, 50, n)
    j[j == 0] = 7
    out = np.zeros((n, 20))
    iout = np.zeros((n, 10), np.int64)
    bout = np.zeros((n, 6), np.bool_)
    numpy_kernel[(n + 127) // 128, 128](x, y, k, j, out, iout, bout)
    with np.errstate(all="ignore"):
        want = [np.maximum(x, y), np.minimum(x, y), np.fmax(x, y), np.fmin(x, y), np.sign(x),
                np.logaddexp(x, y), np.logaddexp2(x, y), np.deg2rad(x), np.rad2deg(x), np.square(x),
                np.reciprocal(y), np.fmod(x, y), np.remainder(x, y), np.floor_divide(x, y),
                np.power(np.abs(x), y), np.spacing(x), np.trunc(x), np.rint(x), np.arctan2(x, y), np.hypot(x, y)]
    scale = np.maximum(np.abs(x), np.abs(y))
    for c, w in enumerate(want):
        # logaddexp and logaddexp2 cancel (x + log1p(...) near 0): their
        # error is relative to the arguments
        tol = 4e-16 * (np.maximum(scale[8:], np.abs(w[8:])) if c in (5, 6) else np.abs(w[8:]))
        g, ww = out[8:, c], w[8:]
        with np.errstate(invalid="ignore"):
            ok = (np.abs(g - ww) <= tol) | (g == ww) | (np.isnan(g) & np.isnan(ww))
        assert ok.all(), "column %d: got %r, want %r" % (c, g[~ok][:3], ww[~ok][:3])
        np.testing.assert_array_equal(out[:8, c], w[:8], err_msg="column %d" % c)
    np.testing.assert_array_equal(out[:8, 0:2], np.stack([want[0][:8], want[1][:8]], 1))
    iwant = [np.gcd(k, j), np.lcm(k, j), np.bitwise_and(k, j), np.left_shift(k, 3), np.invert(k), np.sign(k),
             np.fmod(k, j), np.remainder(k, j), np.floor_divide(k, j), np.remainder(k, j)]
    for c, w in enumerate(iwant):
        np.testing.assert_array_equal(iout[:, c], w, err_msg="int column %d" % c)
    bwant = [np.signbit(x), np.greater(x, y), np.logical_xor(x > 0, y > 0), np.isnan(x), np.isfinite(y),
             np.isinf(x)]
    for c, w in enumerate(bwant):
        np.testing.assert_array_equal(bout[:, c], w, err_msg="bool column %d" % c)


# --------------------------------------------------------------- powers

@cuda.jit
def power_kernel(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = x[i] ** y[i]
        out[i, 1] = math.pow(x[i], y[i])
        out[i, 2] = x[i] ** 1.7
        out[i, 3] = pow(x[i], y[i])


def test_float_powers(rng):
    sp = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, math.inf, -math.inf, math.nan]
    x = np.array([a for a in sp for b in sp] + list(rng.uniform(0, 10, 300)))
    y = np.array([b for a in sp for b in sp] + list(rng.uniform(-20, 20, 300)))
    out = np.zeros((len(x), 4))
    power_kernel[(len(x) + 127) // 128, 128](x, y, out)
    with np.errstate(all="ignore"):
        want = np.power(x, y)
        want17 = np.power(x, 1.7)
    for c in (0, 1, 3):
        np.testing.assert_allclose(out[:, c], want, rtol=4.5e-16, equal_nan=True)
        num = ~np.isnan(want[:169])
        np.testing.assert_array_equal(np.signbit(out[:169, c])[num], np.signbit(want[:169])[num])
    np.testing.assert_allclose(out[:, 2], want17, rtol=4.5e-16, equal_nan=True)


# -------------------------------------------------------------- fastmath

@cuda.jit(fastmath=True)
def fast_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        out[i, 0] = math.sin(a)
        out[i, 1] = math.cos(a)
        out[i, 2] = math.exp(a)
        four = np.float32(4.0)
        out[i, 3] = math.log(a + four)
        out[i, 4] = math.tanh(a)
        out[i, 5] = math.pow(a + four, np.float32(1.5))
        out[i, 6] = math.erf(a)


def test_fastmath_uses_approximations(rng, on_gpu):
    x = rng.uniform(-3, 3, 256).astype(np.float32)
    out = np.zeros((256, 7), np.float32)
    fast_kernel[2, 128](x, out)
    ptx = fast_kernel.inspect_asm(fast_kernel.signatures[0])
    for op in ("sin.approx.ftz.f32", "cos.approx.ftz.f32", "ex2.approx.ftz.f32", "lg2.approx.ftz.f32"):
        assert op in ptx
    xd = x.astype(np.float64)
    want = [np.sin(xd), np.cos(xd), np.exp(xd), np.log(xd + 4), np.tanh(xd), (xd + 4) ** 1.5,
            [math.erf(v) for v in xd]]
    # the hardware's approximations: about 2^-21 absolute (sin, cos, lg2),
    # 2 ulp (ex2), 2^-11 relative (tanh)
    tols = [2e-6, 2e-6, 4e-6, 4e-6, 1e-3, 4e-6, 1e-6]
    for c, (w, t) in enumerate(zip(want, tols)):
        np.testing.assert_allclose(out[:, c], np.array(w), rtol=t, atol=t, err_msg="column %d" % c)


def test_exp2_float32_is_cuda_exp2f(rng):
    """float32 math.exp2 is ex2.approx.f32 without fastmath (CUDA's exp2f,
    Numba's precise exp2: subnormal arguments and results kept) and
    ex2.approx.ftz.f32 with it; within 2 ulp of 2^x down to 2^-149."""
    def k(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = math.exp2(x[i])

    x = np.concatenate([rng.uniform(-149, 128, 240), [-140.5, -126.25, -149.0, 127.9, 0.0, -0.0, 1.0, np.nan,
                                                       np.inf, -np.inf, 200.0, -200.0, 1e-30, -3.5, 64.0, 0.5]])
    x = x.astype(np.float32)
    for fast, op, other in ((False, "ex2.approx.f32 ", "ex2.approx.ftz.f32"), (True, "ex2.approx.ftz.f32 ", None)):
        kern = cuda.jit(fastmath=fast)(k)
        out = np.zeros_like(x)
        kern[2, 128](x, out)
        ptx = kern.inspect_asm(kern.signatures[0])
        assert op in ptx and (other is None or other not in ptx), fast
        if fast:
            continue
        want = np.exp2(x.astype(np.float64))
        fin = np.isfinite(want) & (want < 3.4e38)
        np.testing.assert_array_equal(out[~fin], want[~fin].astype(np.float32))
        err = np.abs(out[fin] - want[fin]) / ulp(want[fin], "f32")
        assert err.max() <= 2, err.max()
        assert out[x == np.float32(-140.5)][0] > 0


@cuda.jit(fastmath=True)
def fast_tan(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = math.tan(x[i])
        out[i, 1] = libdevice.fast_fdividef(x[i], x[i] + np.float32(4))


@cuda.jit
def fast_tan_precise_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = libdevice.fast_tanf(x[i])
        out[i, 1] = libdevice.fast_fdividef(x[i], x[i] + np.float32(4))


def test_fastmath_tan_divides_sine_by_cosine(rng):
    """fastmath's float32 tan is div.approx(sin.approx, cos.approx), as
    Numba's (__nv_fast_tanf); libdevice's fast_tanf and fast_fdividef use
    div.approx in a fastmath kernel and rcp.approx without fastmath."""
    x = rng.uniform(-1.5, 1.5, 200).astype(np.float32)
    xd = x.astype(np.float64)
    want = np.stack([np.tan(xd), xd / (xd + 4)], 1)
    for k in (fast_tan, fast_tan_precise_kernel):
        out = np.zeros((200, 2), np.float32)
        k[2, 128](x, out)
        np.testing.assert_allclose(out, want, rtol=3e-5, atol=3e-6)
    ptx = fast_tan.inspect_asm(fast_tan.signatures[0])
    assert ptx.count("div.approx.ftz.f32") == 2 and "rcp.approx" not in ptx
    assert "sin.approx.ftz.f32" in ptx and "cos.approx.ftz.f32" in ptx
    ptx = fast_tan_precise_kernel.inspect_asm(fast_tan_precise_kernel.signatures[0])
    assert ptx.count("rcp.approx.ftz.f32") == 2 and "div.approx" not in ptx


def sin_ratio(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.sin(x[i]) / (x[i] + np.float32(4))


@pytest.mark.parametrize("flags, fast", [({"arcp"}, True), ({"fast": True, "nsz": False}, True),
                                         ({"nsz": False}, False), (set(), False), (True, True)])
def test_fastmath_flag_sets_are_all_or_nothing(rng, flags, fast):
    """fastmath takes a set or dict of LLVM's fast-math flag names, as
    Numba's: any flag on turns on the whole of fastmath, as for Numba's
    CUDA target (NVVM's options have no finer grain); unknown names are a
    ValueError."""
    k = cuda.jit(fastmath=flags)(sin_ratio)
    x = rng.uniform(-3, 3, 100).astype(np.float32)
    out = np.zeros_like(x)
    k[1, 128](x, out)
    xd = x.astype(np.float64)
    np.testing.assert_allclose(out, np.sin(xd) / (xd + 4), rtol=4e-6, atol=4e-6)
    ptx = k.inspect_asm(k.signatures[0])
    assert ("div.approx.ftz.f32" in ptx and "sin.approx.ftz.f32" in ptx) == fast
    assert ("div.rn.f32" in ptx) != fast


def test_fastmath_refuses_unknown_flags():
    with pytest.raises(ValueError, match="Unrecognized fastmath flags: \\['fastt'\\]"):
        cuda.jit(fastmath={"fastt"})(sin_ratio)
    with pytest.raises(ValueError, match="fastmath is True, False, or a set or dict"):
        cuda.jit(fastmath="yes")(sin_ratio)


@cuda.jit
def complex_ufunc_kernel(z, out):
    i = cuda.grid(1)
    if i < z.size:
        out[i, 0] = np.square(z[i])
        out[i, 1] = np.reciprocal(z[i])
        out[i, 2] = np.negative(z[i])
        out[i, 3] = np.conjugate(z[i])
        out[i, 4] = np.sqrt(z[i].real) + np.exp(z[i])
        out[i, 5] = np.sqrt(z[i])
        out[i, 6] = np.sqrt(np.complex64(z[i]))


def test_numpy_on_complex(rng):
    z = rng.standard_normal(100) + 1j * rng.standard_normal(100)
    z[:4] = [-4, complex(0.0, -0.0), complex(-0.0, -0.0), complex(-9, -0.0)]   # branch cut and signed zeros
    out = np.zeros((100, 7), np.complex128)
    complex_ufunc_kernel[1, 128](z, out)
    with np.errstate(all="ignore"):
        want = [np.square(z), np.reciprocal(z), -z, np.conjugate(z), np.sqrt(z.real) + np.exp(z), np.sqrt(z),
                np.sqrt(z.astype(np.complex64))]
    for c, w in enumerate(want):
        np.testing.assert_allclose(out[:, c], w, rtol=1e-15 if c < 6 else 1e-6, equal_nan=True,
                                   err_msg="column %d" % c)
    assert np.array_equal(np.signbit(out[:4, 5].imag), np.signbit(np.sqrt(z[:4]).imag))

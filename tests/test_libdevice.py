"""numba.cuda.libdevice (`from ptxjit.cuda import libdevice`): every function
numba-cuda declares, with its signature, computed by ptxjit's math library.

Each float function runs on random arguments against mpmath at 120 bits,
within the maximum ulp error CUDA documents for it (CUDA C++ Programming
Guide, "Mathematical Functions"); the _rn/_rz/_rd/_ru arithmetic and
conversions against exact rational arithmetic (fractions); the integer
functions against Python's integers.  The kernels are written once, with
the function taken from a closure.  On a GPU: PTXJIT_TEST_GPU=1 python3 -m
pytest -q tests/test_libdevice.py
"""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from ptxjit import cuda, errors
from ptxjit.cuda import libdevice

from conftest import ON_GPU

N = 4096 if ON_GPU else 256
F32, F64 = np.float32, np.float64


def launch(kernel, *arrays):
    n = arrays[0].size
    kernel[(n + 63) // 64, 64](*arrays)


def kernel1(fn):
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = fn(x[i])
    return k


def kernel2(fn):
    @cuda.jit
    def k(x, y, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = fn(x[i], y[i])
    return k


def kernel3(fn):
    @cuda.jit
    def k(x, y, z, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = fn(x[i], y[i], z[i])
    return k


def kernel_pair(fn):
    @cuda.jit
    def k(x, out0, out1):
        i = cuda.grid(1)
        if i < x.size:
            a, b = fn(x[i])
            out0[i] = a
            out1[i] = b
    return k


def kernel_pair2(fn):
    @cuda.jit
    def k(x, y, out0, out1):
        i = cuda.grid(1)
        if i < x.size:
            a, b = fn(x[i], y[i])
            out0[i] = a
            out1[i] = b
    return k


# ------------------------------------------------------------ accuracy

def ulp_errors(got, exact, dt):
    """|got - exact| in units of the last place of exact in dt (exact: mpf)."""
    info = np.finfo(dt)
    p, emin = info.nmant + 1, info.minexp
    out = []
    for g, v in zip(got.tolist(), exact):
        if not mpmath.isfinite(v) or abs(v) > float(info.max):
            fv = float(v) if mpmath.isfinite(v) else (math.inf if v > 0 else -math.inf) if not mpmath.isnan(v) else math.nan
            if math.isnan(fv):
                out.append(0.0 if math.isnan(g) else math.inf)
            else:
                out.append(0.0 if g == fv else math.inf)
            continue
        if v == 0:
            out.append(0.0 if g == 0 else math.inf)
            continue
        _, e = mpmath.frexp(v)
        ulp = mpmath.ldexp(1, max(int(e) - 1, emin) - (p - 1))
        out.append(float(abs(mpmath.mpf(g) - v) / ulp))
    return np.array(out)


def exact_values(ref, *args):
    mpmath.mp.prec = 120
    return [ref(*[mpmath.mpf(float(a)) for a in vals]) for vals in zip(*args)]


def log_uniform(rng, lo, hi, n):
    return np.exp(rng.uniform(math.log(lo), math.log(hi), n))


mp = mpmath


def erfcinv_ref(t):
    """erfinv(1 - t) with enough bits that 1 - t is exact down to 1e-300."""
    bits = 120 + max(0, -int(mpmath.log(t, 2))) if 0 < t < 1 else 120
    with mpmath.workprec(bits):
        return +mpmath.erfinv(1 - t)

# name (float64), name (float32), reference, argument range (lo, hi, "log"
# for log-uniform), CUDA's bound in ulps for float64 and float32 (0: the
# result is exact, or correctly rounded)
UNARY = [
    ("acos", "acosf", mp.acos, (-1, 1), 2, 2),
    ("asin", "asinf", mp.asin, (-1, 1), 2, 2),
    ("atan", "atanf", mp.atan, (-20, 20), 2, 2),
    ("acosh", "acoshf", mp.acosh, (1, 1e4, "log"), 3, 4),
    ("asinh", "asinhf", mp.asinh, (-100, 100), 3, 3),
    ("atanh", "atanhf", mp.atanh, (-1, 1), 2, 3),
    ("sin", "sinf", mp.sin, (-50, 50), 2, 2),
    ("cos", "cosf", mp.cos, (-50, 50), 2, 2),
    ("tan", "tanf", mp.tan, (-50, 50), 2, 4),
    ("sinh", "sinhf", mp.sinh, (-30, 30), 2, 3),
    ("cosh", "coshf", mp.cosh, (-30, 30), 1, 2),
    ("tanh", "tanhf", mp.tanh, (-10, 10), 1, 2),
    ("sinpi", "sinpif", mp.sinpi, (-20, 20), 2, 2),
    ("cospi", "cospif", mp.cospi, (-20, 20), 2, 2),
    ("exp", "expf", mp.exp, (-80, 80), 1, 2),
    ("exp2", "exp2f", lambda x: mp.power(2, x), (-120, 120), 1, 2),
    ("exp10", "exp10f", lambda x: mp.power(10, x), (-35, 35), 1, 2),
    ("expm1", "expm1f", mp.expm1, (-20, 20), 1, 1),
    ("log", "logf", mp.log, (1e-30, 1e30, "log"), 1, 1),
    ("log2", "log2f", lambda x: mp.log(x, 2), (1e-30, 1e30, "log"), 1, 1),
    ("log10", "log10f", mp.log10, (1e-30, 1e30, "log"), 1, 2),
    ("log1p", "log1pf", mp.log1p, (-0.99, 100), 1, 1),
    ("logb", "logbf", lambda x: mp.floor(mp.log(abs(x), 2)), (1e-30, 1e30, "log"), 0, 0),
    ("erf", "erff", mp.erf, (-5, 5), 2, 2),
    ("erfc", "erfcf", mp.erfc, (-4, 9), 5, 4),
    ("erfinv", "erfinvf", mp.erfinv, (-1, 1), 5, 2),
    ("erfcinv", "erfcinvf", lambda t: erfcinv_ref(t), (0, 2), 6, 4),
    ("normcdf", "normcdff", mp.ncdf, (-30, 8), 5, 5),
    ("erfcx", "erfcxf", lambda x: mp.exp(x * x) * mp.erfc(x), (-9, 1e4, "erfcx"), 4, 4),
    ("normcdfinv", "normcdfinvf", lambda p: -mp.sqrt(2) * erfcinv_ref(2 * p), (0, 1), 8, 5),
    ("tgamma", "tgammaf", mp.gamma, (0.05, 30), 10, 5),
    ("lgamma", "lgammaf", mp.loggamma, (0.05, 1000, "log"), 4, 6),
    ("cbrt", "cbrtf", lambda x: mp.sign(x) * mp.cbrt(abs(x)), (-1e6, 1e6), 1, 1),
    ("rcbrt", "rcbrtf", lambda x: mp.sign(x) / mp.cbrt(abs(x)), (-1e6, 1e6), 1, 1),
    ("rsqrt", "rsqrtf", lambda x: 1 / mp.sqrt(x), (1e-30, 1e30, "log"), 1, 2),
    ("sqrt", "sqrtf", mp.sqrt, (1e-30, 1e30, "log"), 0, 0),
    ("fabs", "fabsf", abs, (-1e6, 1e6), 0, 0),
    ("floor", "floorf", mp.floor, (-1e6, 1e6), 0, 0),
    ("ceil", "ceilf", mp.ceil, (-1e6, 1e6), 0, 0),
    ("trunc", "truncf", lambda x: mp.floor(x) if x >= 0 else mp.ceil(x), (-1e6, 1e6), 0, 0),
    ("rint", "rintf", mp.nint, (-1e6, 1e6), 0, 0),
    ("nearbyint", "nearbyintf", mp.nint, (-1e6, 1e6), 0, 0),
    ("round", "roundf", lambda x: mp.sign(x) * mp.floor(abs(x) + mp.mpf(0.5)), (-1e3, 1e3), 0, 0),
]

BINARY = [
    ("atan2", "atan2f", mp.atan2, (-10, 10), (-10, 10), 2, 3),
    ("hypot", "hypotf", mp.hypot, (-1e10, 1e10), (-1e10, 1e10), 2, 3),
    ("pow", "powf", mp.power, (0.01, 10), (-20, 20), 2, 4),
    ("copysign", "copysignf", lambda x, y: abs(x) * mp.sign(y), (-10, 10), (-10, 10), 0, 0),
    ("fmod", "fmodf", lambda x, y: x - y * (mp.floor(x / y) if x / y > 0 else mp.ceil(x / y)),
     (-1e6, 1e6), (-10, 10), 0, 0),
    ("remainder", "remainderf", lambda x, y: x - y * mp.nint(x / y), (-1e6, 1e6), (-10, 10), 0, 0),
    ("fmax", "fmaxf", max, (-10, 10), (-10, 10), 0, 0),
    ("fmin", "fminf", min, (-10, 10), (-10, 10), 0, 0),
    ("fdim", "fdimf", lambda x, y: x - y if x > y else mp.mpf(0), (-10, 10), (-10, 10), 0, 0),
]


def draw(rng, spec, dt):
    lo, hi = spec[0], spec[1]
    if len(spec) == 3 and spec[2] == "erfcx":     # negative, moderate and far out (the series)
        x = np.concatenate([rng.uniform(lo, 5, N // 2), log_uniform(rng, 5, hi, N - N // 2)])
    elif len(spec) == 3:
        x = log_uniform(rng, lo, hi, N)
    else:
        x = rng.uniform(lo, hi, N)
    return x.astype(dt)


def check_ulps(got, exact, dt, bound, what):
    err = ulp_errors(got, exact, dt)
    limit = 0.5 if bound == 0 else bound
    worst = int(np.argmax(err))
    assert err[worst] <= limit, "%s: %.2f ulp at argument %d (got %r, want %s)" % (
        what, err[worst], worst, got[worst], mpmath.nstr(exact[worst], 20))


@pytest.mark.parametrize("row", UNARY, ids=[r[0] for r in UNARY])
@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_unary(rng, row, dt):
    name = row[0] if dt == F64 else row[1]
    fn = getattr(libdevice, name)
    x = draw(rng, row[3], dt)
    out = np.zeros(N, dt)
    launch(kernel1(fn), x, out)
    check_ulps(out, exact_values(row[2], x), dt, row[4] if dt == F64 else row[5], name)


@pytest.mark.parametrize("row", BINARY, ids=[r[0] for r in BINARY])
@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_binary(rng, row, dt):
    name = row[0] if dt == F64 else row[1]
    fn = getattr(libdevice, name)
    x, y = draw(rng, row[3], dt), draw(rng, row[4], dt)
    out = np.zeros(N, dt)
    launch(kernel2(fn), x, y, out)
    check_ulps(out, exact_values(row[2], x, y), dt, row[5] if dt == F64 else row[6], name)


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_nextafter(rng, dt):
    fn = libdevice.nextafter if dt == F64 else libdevice.nextafterf
    x, y = rng.uniform(-10, 10, N).astype(dt), rng.uniform(-10, 10, N).astype(dt)
    out = np.zeros(N, dt)
    launch(kernel2(fn), x, y, out)
    np.testing.assert_array_equal(out, np.nextafter(x, y))


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_fma(rng, dt):
    x, y, z = (rng.uniform(-10, 10, N).astype(dt) for _ in range(3))
    for name in (["fma", "fma_rn"] if dt == F64 else ["fmaf", "fmaf_rn"]):
        out = np.zeros(N, dt)
        launch(kernel3(getattr(libdevice, name)), x, y, z, out)
        want = [float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))) for a, b, c in zip(x, y, z)]
        if dt == F32:
            want = [rounded(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)), F32, "rn")
                    for a, b, c in zip(x, y, z)]
        np.testing.assert_array_equal(out, np.array(want, dt), err_msg=name)


def test_saturatef(rng):
    x = rng.uniform(-2, 3, N).astype(F32)
    x[:3] = [np.nan, -0.0, 0.5]
    out = np.zeros(N, F32)
    launch(kernel1(libdevice.saturatef), x, out)
    want = np.clip(x, 0, 1)
    want[0] = 0.0
    np.testing.assert_array_equal(out, want)


# --------------------------------------------------------- tuple results

@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_sincos_and_sincospi(rng, dt):
    x = rng.uniform(-20, 20, N).astype(dt)
    for name, s_ref, c_ref in (("sincos", mp.sin, mp.cos), ("sincospi", mp.sinpi, mp.cospi)):
        fn = getattr(libdevice, name if dt == F64 else name + "f")
        s, c = np.zeros(N, dt), np.zeros(N, dt)
        launch(kernel_pair(fn), x, s, c)
        check_ulps(s, exact_values(s_ref, x), dt, 2, name + " (sine)")
        check_ulps(c, exact_values(c_ref, x), dt, 2, name + " (cosine)")


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_frexp_modf(rng, dt):
    x = (rng.standard_normal(N) * 10.0 ** rng.integers(-30, 30, N)).astype(dt)
    m, e = np.zeros(N, dt), np.zeros(N, np.int32)
    launch(kernel_pair(libdevice.frexp if dt == F64 else libdevice.frexpf), x, m, e)
    wm, we = np.frexp(x)
    np.testing.assert_array_equal(m, wm)
    np.testing.assert_array_equal(e, we)
    f, ip = np.zeros(N, dt), np.zeros(N, dt)
    launch(kernel_pair(libdevice.modf if dt == F64 else libdevice.modff), x, f, ip)
    wf, wi = np.modf(x)
    np.testing.assert_array_equal(f, wf)
    np.testing.assert_array_equal(ip, wi)


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_remquo(rng, dt):
    x, y = rng.uniform(-1e4, 1e4, N).astype(dt), rng.uniform(-10, 10, N).astype(dt)
    r, q = np.zeros(N, dt), np.zeros(N, np.int32)
    launch(kernel_pair2(libdevice.remquo if dt == F64 else libdevice.remquof), x, y, r, q)
    for i in range(N):
        fx, fy = Fraction(float(x[i])), Fraction(float(y[i]))
        n = round(fx / fy)          # to nearest, ties to even
        assert r[i] == float(fx - n * fy), i
        assert (abs(int(q[i])) & 7) == (abs(n) & 7) and (q[i] == 0 or (q[i] < 0) == (n < 0)), (i, q[i], n)


# ------------------------------------------------ functions with integers

@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_ldexp_scalbn_powi_ilogb(rng, dt):
    sfx = "" if dt == F64 else "f"
    x = rng.uniform(-100, 100, N).astype(dt)
    n = rng.integers(-60, 60, N).astype(np.int32)
    for name in ("ldexp", "scalbn"):
        out = np.zeros(N, dt)
        launch(kernel2(getattr(libdevice, name + sfx)), x, n, out)
        np.testing.assert_array_equal(out, np.ldexp(x, n), err_msg=name)
    k = rng.integers(-8, 9, N).astype(np.int32)
    xs = rng.uniform(0.5, 2, N).astype(dt)
    out = np.zeros(N, dt)
    launch(kernel2(getattr(libdevice, "powi" + sfx)), xs, k, out)
    check_ulps(out, exact_values(mp.power, xs, k), dt, 2, "powi" + sfx)
    e = np.zeros(N, np.int32)
    launch(kernel1(getattr(libdevice, "ilogb" + sfx)), x, e)
    np.testing.assert_array_equal(e, np.frexp(x)[1] - 1)


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_predicates(rng, dt):
    x = rng.uniform(-10, 10, N).astype(dt)
    x[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, -np.nan]
    names = (("isnand", np.isnan), ("isinfd", np.isinf), ("isfinited", np.isfinite), ("signbitd", np.signbit))
    if dt == F32:
        names = (("isnanf", np.isnan), ("isinff", np.isinf), ("finitef", np.isfinite), ("signbitf", np.signbit))
    for name, ref in names:
        out = np.full(N, 7, np.int32)
        launch(kernel1(getattr(libdevice, name)), x, out)
        np.testing.assert_array_equal(out, ref(x).astype(np.int32), err_msg=name)


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_llrint_llround(rng, dt):
    sfx = "" if dt == F64 else "f"
    x = rng.uniform(-1e6, 1e6, N).astype(dt)
    x[:4] = [2.5, -2.5, 3.5, -0.5]
    out = np.zeros(N, np.int64)
    launch(kernel1(getattr(libdevice, "llrint" + sfx)), x, out)
    np.testing.assert_array_equal(out, np.rint(x).astype(np.int64))
    launch(kernel1(getattr(libdevice, "llround" + sfx)), x, out)
    np.testing.assert_array_equal(out, [int(math.copysign(math.floor(abs(float(v)) + 0.5), v)) for v in x])


def wrap32(v):
    return (v + 2**31) % 2**32 - 2**31


def wrap64(v):
    return (v + 2**63) % 2**64 - 2**63


def u32(v):
    return int(v) & 0xffffffff


def u64(v):
    return int(v) & 0xffffffffffffffff


INT32_OPS = [
    ("abs", 1, lambda a: wrap32(abs(a))),
    ("popc", 1, lambda a: bin(u32(a)).count("1")),
    ("clz", 1, lambda a: 32 - u32(a).bit_length()),
    ("brev", 1, lambda a: wrap32(int(format(u32(a), "032b")[::-1], 2))),
    ("ffs", 1, lambda a: (u32(a) & -u32(a)).bit_length()),
    ("min", 2, min),
    ("max", 2, max),
    ("umin", 2, lambda a, b: wrap32(min(u32(a), u32(b)))),
    ("umax", 2, lambda a, b: wrap32(max(u32(a), u32(b)))),
    ("mulhi", 2, lambda a, b: (a * b) >> 32),
    ("umulhi", 2, lambda a, b: wrap32((u32(a) * u32(b)) >> 32)),
    ("mul24", 2, lambda a, b: wrap32(wrap24(a) * wrap24(b))),
    ("umul24", 2, lambda a, b: wrap32((u32(a) & 0xffffff) * (u32(b) & 0xffffff))),
    ("hadd", 2, lambda a, b: (a + b) >> 1),
    ("rhadd", 2, lambda a, b: (a + b + 1) >> 1),
    ("uhadd", 2, lambda a, b: wrap32((u32(a) + u32(b)) >> 1)),
    ("urhadd", 2, lambda a, b: wrap32((u32(a) + u32(b) + 1) >> 1)),
    ("sad", 3, lambda a, b, c: wrap32(abs(a - b) + u32(c))),
    ("usad", 3, lambda a, b, c: wrap32(abs(u32(a) - u32(b)) + u32(c))),
    ("byte_perm", 3, lambda a, b, s: wrap32(sum(((u32(a) | u32(b) << 32) >> (8 * ((u32(s) >> (4 * n)) & 7)) & 0xff)
                                                << (8 * n) for n in range(4)))),
]


def wrap24(v):
    v &= 0xffffff
    return v - (1 << 24) if v & 0x800000 else v


INT64_OPS = [
    ("llabs", 1, lambda a: wrap64(abs(a))),
    ("popcll", 1, lambda a: bin(u64(a)).count("1")),
    ("clzll", 1, lambda a: 64 - u64(a).bit_length()),
    ("brevll", 1, lambda a: wrap64(int(format(u64(a), "064b")[::-1], 2))),
    ("ffsll", 1, lambda a: (u64(a) & -u64(a)).bit_length()),
    ("llmin", 2, min),
    ("llmax", 2, max),
    ("ullmin", 2, lambda a, b: wrap64(min(u64(a), u64(b)))),
    ("ullmax", 2, lambda a, b: wrap64(max(u64(a), u64(b)))),
    ("mul64hi", 2, lambda a, b: (a * b) >> 64),
    ("umul64hi", 2, lambda a, b: wrap64((u64(a) * u64(b)) >> 64)),
]


def int_args(rng, bits, n):
    info = np.iinfo(np.int32 if bits == 32 else np.int64)
    a = rng.integers(info.min, info.max, N, dtype=np.int64 if bits == 64 else np.int32, endpoint=True)
    a[:4] = [0, -1, info.min, info.max][:4]
    return [np.roll(a, 3 * j) if j else a for j in range(n)]


@pytest.mark.parametrize("row", INT32_OPS + INT64_OPS, ids=[r[0] for r in INT32_OPS + INT64_OPS])
def test_integer(rng, row):
    name, n, ref = row
    bits = 64 if row in INT64_OPS else 32
    args = int_args(rng, bits, n)
    if name in ("sad", "usad", "byte_perm"):
        args[2] = rng.integers(0, 2**16, N).astype(np.int32)
    rt = np.int64 if bits == 64 and name not in ("popcll", "clzll", "ffsll") else np.int32
    out = np.zeros(N, rt)
    launch((kernel1, kernel2, kernel3)[n - 1](getattr(libdevice, name)), *args, out)
    want = [ref(*[int(a[i]) for a in args]) for i in range(N)]
    np.testing.assert_array_equal(out, np.array(want, rt), err_msg=name)


def test_bit_casts(rng):
    d = rng.standard_normal(N) * 1e10
    f = d.astype(F32)
    out = np.zeros(N, np.int64)
    launch(kernel1(libdevice.double_as_longlong), d, out)
    np.testing.assert_array_equal(out, d.view(np.int64))
    back = np.zeros(N)
    launch(kernel1(libdevice.longlong_as_double), out, back)
    np.testing.assert_array_equal(back.view(np.int64), d.view(np.int64))
    fi = np.zeros(N, np.int32)
    launch(kernel1(libdevice.float_as_int), f, fi)
    np.testing.assert_array_equal(fi, f.view(np.int32))
    fb = np.zeros(N, F32)
    launch(kernel1(libdevice.int_as_float), fi, fb)
    np.testing.assert_array_equal(fb.view(np.int32), fi)
    hi, lo = np.zeros(N, np.int32), np.zeros(N, np.int32)
    launch(kernel1(libdevice.double2hiint), d, hi)
    launch(kernel1(libdevice.double2loint), d, lo)
    np.testing.assert_array_equal(hi, (d.view(np.int64) >> 32).astype(np.int32))
    np.testing.assert_array_equal(lo, d.view(np.int64).astype(np.int32))
    dd = np.zeros(N)
    launch(kernel2(libdevice.hiloint2double), hi, lo, dd)
    np.testing.assert_array_equal(dd.view(np.int64), d.view(np.int64))


def test_half_conversions(rng):
    x = (rng.standard_normal(N) * 10.0 ** rng.integers(-8, 5, N)).astype(F32)
    x[:4] = [np.inf, -np.inf, 1e6, -0.0]
    h = np.zeros(N, np.int16)
    launch(kernel1(libdevice.float2half_rn), x, h)
    with np.errstate(over="ignore"):                # 1e6 becomes inf
        np.testing.assert_array_equal(h, x.astype(np.float16).view(np.int16))
    back = np.zeros(N, F32)
    launch(kernel1(libdevice.half2float), h, back)
    np.testing.assert_array_equal(back, h.view(np.float16).astype(F32))


# ------------------------------------------ rounding modes, exactly

def rounded(q, dt, mode):
    """The rational q rounded to dt by mode ('rn', 'rz', 'rd', 'ru')."""
    top = np.finfo(dt).max
    fmax = Fraction(float(top))
    if abs(q) > fmax:                      # beyond the largest float
        big, inf = (dt(top), dt(np.inf)) if q > 0 else (dt(-top), dt(-np.inf))
        ulp = fmax - Fraction(float(np.nextafter(top, dt(0))))
        if mode == "rn":
            return inf if abs(q) >= fmax + ulp / 2 else big
        if mode == "rz" or (mode == "rd") == (q > 0):
            return big
        return inf
    r = dt(float(q))
    if math.isinf(r):
        r = dt(top) if r > 0 else dt(-top)
    while Fraction(float(r)) > q:          # the float at or just below q
        r = np.nextafter(r, dt(-np.inf))
    while r != top and Fraction(float(np.nextafter(r, dt(np.inf)))) <= q:
        r = np.nextafter(r, dt(np.inf))
    exact = Fraction(float(r)) == q
    lo, hi = r, r if exact else np.nextafter(r, dt(np.inf))
    if mode == "rd" or exact:
        return lo if not (exact and q == 0) else dt(0.0)
    if mode == "ru":
        return hi
    if mode == "rz":
        return lo if q > 0 else hi
    dl, dh = q - Fraction(float(lo)), Fraction(float(hi)) - q
    if dl != dh:
        return lo if dl < dh else hi
    return lo if int(np.array(lo, dt).view(np.int64 if dt == F64 else np.int32)) % 2 == 0 else hi


def sqrt_rounded(x, dt, mode):
    """sqrt(x) rounded by mode, decided exactly by squaring."""
    r = dt(np.sqrt(x))
    q = Fraction(float(x))
    while Fraction(float(r)) ** 2 > q:
        r = np.nextafter(r, dt(-np.inf))
    while Fraction(float(np.nextafter(r, dt(np.inf)))) ** 2 <= q:
        r = np.nextafter(r, dt(np.inf))
    exact = Fraction(float(r)) ** 2 == q
    if mode in ("rd", "rz") or exact:
        return r
    if mode == "ru":
        return np.nextafter(r, dt(np.inf))
    return dt(np.sqrt(x))


MODES = ["rn", "rz", "rd", "ru"]


def wide_args(rng, dt, n):
    """Random operands of all sizes, signs and some exact cases."""
    top = 30 if dt == F32 else 250
    x = (rng.standard_normal(N) * 10.0 ** rng.integers(-top, top, N)).astype(dt)
    y = (rng.standard_normal(N) * 10.0 ** rng.integers(-top, top, N)).astype(dt)
    x[:4] = [1.0, 0.5, -3.0, 1.0]
    y[:4] = [-1.0, 0.25, 3.0, 2.0 ** -30]
    return x[:n], y[:n]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_directed_arithmetic(rng, dt, op, mode):
    if op == "sub" and dt == F64:
        pytest.skip("libdevice has no dsub")
    name = ("d" if dt == F64 else "f") + op + "_" + mode
    x, y = wide_args(rng, dt, N)
    out = np.zeros(N, dt)
    launch(kernel2(getattr(libdevice, name)), x, y, out)
    f = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
         "div": lambda a, b: a / b}[op]
    want = np.array([rounded(f(Fraction(float(a)), Fraction(float(b))), dt, mode) for a, b in zip(x, y)], dt)
    if op in ("add", "sub") and mode == "rd":
        want[want == 0] = -0.0              # an exact zero sum is -0 rounding down (IEEE 754)
    bad = np.flatnonzero(out.view(np.int64 if dt == F64 else np.int32) != want.view(np.int64 if dt == F64 else np.int32))
    assert bad.size == 0, "%s: %d wrong, first %r, %r: got %r want %r" % (
        name, bad.size, x[bad[0]], y[bad[0]], out[bad[0]], want[bad[0]])


@pytest.mark.parametrize("mode", ["rz", "rd", "ru"])
@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_directed_fma(rng, dt, mode):
    name = ("fma_" if dt == F64 else "fmaf_") + mode
    # products above 2^-969 (float64), 2^-102 (float32): the rounding is exact there (docs/libdevice.md)
    top = 14 if dt == F32 else 140
    x = (rng.standard_normal(N) * 10.0 ** rng.integers(-top, top, N)).astype(dt)
    y = (rng.standard_normal(N) * 10.0 ** rng.integers(-top, top, N)).astype(dt)
    x[:4] = [1.0, 0.5, -3.0, 1.0]
    y[:4] = [-1.0, 0.25, 3.0, 2.0 ** -30]
    # z of the product's size (cancellation, exact zeros) or of any size
    with np.errstate(all="ignore"):
        z = np.where(rng.integers(0, 2, N) == 1, -(x * y) * rng.choice([1, 1 + 2.0 ** -20], N),
                     wide_args(rng, dt, N)[0]).astype(dt)
    z[~np.isfinite(z)] = 1.5
    z[:3] = [1.0, -0.125, -9.0]             # 1*-1 + 1 = 0, 0.5*0.25 - 0.125 = 0, -3*3 - 9
    x[4], y[4], z[4] = -0.0, 1.0, 0.0         # -0 + 0
    x[5], y[5], z[5] = np.finfo(dt).max, 2, 0   # overflow from finite operands
    out = np.zeros(N, dt)
    with np.errstate(all="ignore"):
        launch(kernel3(getattr(libdevice, name)), x, y, z, out)
    want = np.array([rounded(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)), dt, mode)
                     for a, b, c in zip(x, y, z)], dt)
    if mode == "rd":
        want[want == 0] = -0.0              # an exact zero (and -0 + +0) is -0 rounding down (IEEE 754)
    bits = np.int64 if dt == F64 else np.int32
    bad = np.flatnonzero(out.view(bits) != want.view(bits))
    assert bad.size == 0, "%s: %d wrong, first %r, %r, %r: got %r want %r" % (
        name, bad.size, x[bad[0]], y[bad[0]], z[bad[0]], out[bad[0]], want[bad[0]])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_directed_sqrt_rcp(rng, dt, mode):
    p = "d" if dt == F64 else "f"
    x, _ = wide_args(rng, dt, N)
    x = np.abs(x)
    out = np.zeros(N, dt)
    launch(kernel1(getattr(libdevice, p + "sqrt_" + mode)), x, out)
    want = np.array([sqrt_rounded(v, dt, mode) for v in x], dt)
    np.testing.assert_array_equal(out, want, err_msg=p + "sqrt_" + mode)
    x, _ = wide_args(rng, dt, N)
    launch(kernel1(getattr(libdevice, p + "rcp_" + mode)), x, out)
    want = np.array([rounded(1 / Fraction(float(v)), dt, mode) for v in x], dt)
    np.testing.assert_array_equal(out, want, err_msg=p + "rcp_" + mode)


def test_frsqrt_rn(rng):
    x = log_uniform(rng, 1e-30, 1e30, N).astype(F32)
    out = np.zeros(N, F32)
    launch(kernel1(libdevice.frsqrt_rn), x, out)
    check_ulps(out, exact_values(lambda v: 1 / mp.sqrt(v), x), F32, 0, "frsqrt_rn")


@pytest.mark.parametrize("mode", MODES)
def test_double2float(rng, mode):
    x = rng.standard_normal(N) * 10.0 ** rng.integers(-50, 50, N)
    x[:3] = [1.0, 3.4e38 * 1.01, -1e-50]
    out = np.zeros(N, F32)
    launch(kernel1(getattr(libdevice, "double2float_" + mode)), x, out)
    want = np.array([rounded(Fraction(float(v)), F32, mode) for v in x], F32)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("src", ["int", "uint", "ll", "ull"])
@pytest.mark.parametrize("dst", ["float", "double"])
def test_int_to_float(rng, mode, src, dst):
    name = "%s2%s_%s" % (src, dst, mode)
    if not hasattr(libdevice, name):
        pytest.skip("libdevice has no " + name)
    it = np.int32 if src in ("int", "uint") else np.int64
    info = np.iinfo(it)
    x = rng.integers(info.min, info.max, N, dtype=it, endpoint=True)
    x[N // 2:] >>= rng.integers(0, 8 * it().itemsize - 1, N - N // 2).astype(it)
    x[:3] = [info.max, info.min, -1]
    dt = F32 if dst == "float" else F64
    out = np.zeros(N, dt)
    launch(kernel1(getattr(libdevice, name)), x, out)
    unsigned = src.startswith("u")
    vals = [int(v) % (2 ** (8 * it().itemsize)) if unsigned else int(v) for v in x]
    want = np.array([rounded(Fraction(v), dt, mode) for v in vals], dt)
    np.testing.assert_array_equal(out, want, err_msg=name)


def to_int_ref(v, mode, lo, hi):
    if math.isnan(v):
        return 0
    if math.isinf(v):
        return hi if v > 0 else lo
    f = Fraction(v)
    r = {"rz": int(f), "rd": math.floor(f), "ru": math.ceil(f), "rn": round(f)}[mode]
    return min(max(r, lo), hi)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dst", ["int", "uint", "ll", "ull"])
@pytest.mark.parametrize("src", ["float", "double"])
def test_float_to_int(rng, mode, src, dst):
    name = "%s2%s_%s" % (src, dst, mode)
    dt = F32 if src == "float" else F64
    bits = 32 if dst in ("int", "uint") else 64
    x = (rng.standard_normal(N) * 10.0 ** rng.integers(0, bits // 3, N)).astype(dt)
    x[:6] = [2.5, -2.5, 0.5, -0.7, 1e30, -1e30]
    rt = np.int32 if bits == 32 else np.int64
    out = np.zeros(N, rt)
    launch(kernel1(getattr(libdevice, name)), x, out)
    lo, hi = (0, 2 ** bits - 1) if dst.startswith("u") else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
    want = [to_int_ref(float(v), mode, lo, hi) for v in x]
    want = [w - 2 ** bits if w >= 2 ** (bits - 1) else w for w in want]
    np.testing.assert_array_equal(out, np.array(want, rt), err_msg=name)


def test_int_to_double_rn(rng):
    x = rng.integers(-2**31, 2**31, N).astype(np.int32)
    out = np.zeros(N)
    launch(kernel1(libdevice.int2double_rn), x, out)
    np.testing.assert_array_equal(out, x.astype(F64))
    launch(kernel1(libdevice.uint2double_rn), x, out)
    np.testing.assert_array_equal(out, x.view(np.uint32).astype(F64))


# ------------------------------------------------------------- fast_*

FAST = [
    ("fast_sinf", mp.sin, (-3.1, 3.1)),
    ("fast_cosf", mp.cos, (-3.1, 3.1)),
    ("fast_tanf", mp.tan, (-1.2, 1.2)),
    ("fast_expf", mp.exp, (-10, 10)),
    ("fast_exp10f", lambda x: mp.power(10, x), (-4, 4)),
    ("fast_logf", mp.log, (0.01, 100)),
    ("fast_log2f", lambda x: mp.log(x, 2), (0.01, 100)),
    ("fast_log10f", mp.log10, (0.01, 100)),
]


@pytest.mark.parametrize("row", FAST, ids=[r[0] for r in FAST])
def test_fast(rng, row):
    """The hardware approximations: to their documented absolute or
    relative error (a few 2^-21), not to the ulp."""
    name, ref, (lo, hi) = row
    x = rng.uniform(lo, hi, N).astype(F32)
    out = np.zeros(N, F32)
    launch(kernel1(getattr(libdevice, name)), x, out)
    want = np.array([float(v) for v in exact_values(ref, x)])
    err = np.abs(out - want) / np.maximum(np.abs(want), 1.0)
    assert err.max() < 2.0 ** -18, (name, err.max())


def test_fast_binary_and_sincos(rng):
    x, y = rng.uniform(0.5, 3, N).astype(F32), rng.uniform(-3, 3, N).astype(F32)
    out = np.zeros(N, F32)
    launch(kernel2(libdevice.fast_powf), x, y, out)
    want = x.astype(F64) ** y.astype(F64)
    assert (np.abs(out - want) / want).max() < 2.0 ** -16
    launch(kernel2(libdevice.fast_fdividef), y, x, out)
    assert (np.abs(out - y.astype(F64) / x) / np.maximum(np.abs(y / x), 1e-3)).max() < 2.0 ** -20
    s, c = np.zeros(N, F32), np.zeros(N, F32)
    launch(kernel_pair(libdevice.fast_sincosf), y, s, c)
    assert np.abs(s - np.sin(y.astype(F64))).max() < 2.0 ** -19
    assert np.abs(c - np.cos(y.astype(F64))).max() < 2.0 ** -19


# ------------------------------------------ special values of the inverses

def test_inverse_special_values():
    x = np.array([0.0, -0.0, 1.0, -1.0, 1.5, np.nan, 1e-300, -1e-300], F64)
    out = np.zeros(x.size)
    launch(kernel1(libdevice.erfinv), x, out)
    np.testing.assert_array_equal(out[:6], [0.0, -0.0, np.inf, -np.inf, np.nan, np.nan])
    assert np.signbit(out[1])
    check_ulps(out[6:], exact_values(mp.erfinv, x[6:]), F64, 5, "erfinv")
    t = np.array([0.0, 2.0, 1.0, -0.5, 2.5, 1e-300, 2 - 1e-16, 1e-20], F64)
    launch(kernel1(libdevice.erfcinv), t, out)
    np.testing.assert_array_equal(out[:5], [np.inf, -np.inf, 0.0, np.nan, np.nan])
    mpmath.mp.prec = 1100
    want = [mp.erfinv(1 - mpmath.mpf(float(v))) for v in t[5:]]
    check_ulps(out[5:], want, F64, 6, "erfcinv in the tails")


def erfc_root(x, t):
    """The root of erfc(z) = t next to x, by two Newton steps at 120 bits
    from x (erfc keeps its relative accuracy far out, where erfinv(1 - t)
    would need a thousand bits)."""
    mpmath.mp.prec = 120
    z, t = mpmath.mpf(float(x)), mpmath.mpf(float(t))
    for _ in range(2):
        z += (mpmath.erfc(z) - t) / (2 / mpmath.sqrt(mpmath.pi) * mpmath.exp(-z * z))
    return z


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_erfcinv_normcdfinv_tails(rng, dt):
    """Arguments down to 1e-300 (float32: its subnormals), where 1 - t
    is no longer t's information: the tails solve erfc(x) = t itself."""
    sfx = "" if dt == F64 else "f"
    t = log_uniform(rng, 1e-300 if dt == F64 else 1e-44, 1, N).astype(dt)
    out = np.zeros(N, dt)
    launch(kernel1(getattr(libdevice, "erfcinv" + sfx)), t, out)
    check_ulps(out, [erfc_root(x, v) for x, v in zip(out, t)], dt, 6 if dt == F64 else 4, "erfcinv" + sfx)
    p = (t / 2).astype(dt)
    launch(kernel1(getattr(libdevice, "normcdfinv" + sfx)), p, out)
    want = [-mp.sqrt(2) * erfc_root(-float(x) / math.sqrt(2), 2 * float(v)) for x, v in zip(out, p)]
    check_ulps(out, want, dt, 8 if dt == F64 else 5, "normcdfinv" + sfx)


# -------------------------------- device functions, typing and errors

@cuda.jit(device=True)
def through_device(x):
    s, c = libdevice.sincosf(x)
    return libdevice.fmaf(s, s, c * c) + libdevice.popc(7)


def test_in_a_device_function(rng):
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = through_device(x[i])

    x = rng.uniform(-10, 10, N).astype(F32)
    out = np.zeros(N, F32)
    launch(k, x, out)
    np.testing.assert_allclose(out, 4.0, rtol=1e-6)


def test_arguments_convert_to_the_declared_types(rng):
    """sinf of a float64 computes in float32 and gives a float32; popc of
    a float truncates it to an int32, as Numba converts them."""
    @cuda.jit
    def k(x, out, n):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = libdevice.sinf(x[i])
            n[i] = libdevice.popc(x[i] * 100.0)

    x = rng.uniform(-3, 3, N)
    out, n = np.zeros(N), np.zeros(N, np.int64)
    launch(k, x, out, n)
    np.testing.assert_array_equal(out, out.astype(F32).astype(F64))
    assert np.abs(out - np.sin(x.astype(F32).astype(F64))).max() < 1e-6
    np.testing.assert_array_equal(n, [bin(int(v * 100.0) & 0xffffffff).count("1") for v in x])


# ------------------------------------------------------------- Bessel

# CUDA's bounds (CUDA C++ Programming Guide, "Mathematical Functions"):
# j0 j1 y0 y1: 7 ulp (float64) and 9 ulp (float32) below 8, beyond it
# 5e-12 and 2.2e-6 absolute; jn: 5e-12 and 2.2e-6 absolute for n = 128;
# yn: ceil(2 + 2.5 n) ulp below n (float32), 5e-12 absolute beyond 1.5 n
# (float64).  The tests hold ptxjit to tighter bounds where it meets them.
BESSEL01 = [("j0", lambda x: mp.besselj(0, x), True), ("j1", lambda x: mp.besselj(1, x), True),
            ("y0", lambda x: mp.bessely(0, x), False), ("y1", lambda x: mp.bessely(1, x), False)]


def abs_errors(got, exact):
    return np.array([abs(float(mp.mpf(g) - v)) if math.isfinite(g) else math.inf for g, v in zip(got.tolist(), exact)])


def bessel_args(rng, even, n, zeros):
    """|x| below 8 (uniform), beyond 8 (log-uniform up to 1e6), and within
    1e-9 (relative) of the zeros below 8; negative too where defined"""
    x = np.concatenate([rng.uniform(0, 8, n // 2), log_uniform(rng, 8, 1e6, n // 4)])
    z = np.array([float(v) for v in zeros])
    near = z[rng.integers(0, len(z), n - len(x))] * (1 + rng.uniform(-1e-9, 1e-9, n - len(x)))
    x = np.concatenate([x, near])
    if even:
        x *= rng.choice([-1.0, 1.0], n)
    return x


@pytest.mark.parametrize("row", BESSEL01, ids=[r[0] for r in BESSEL01])
@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_bessel_01(rng, row, dt):
    name, ref, whole_line = row
    order, kind = int(name[1]), name[0]
    mpmath.mp.prec = 120
    zeros = [(mp.besseljzero if kind == "j" else mp.besselyzero)(order, k) for k in (1, 2, 3)]
    zeros = [z for z in zeros if z < 8]
    x = bessel_args(rng, whole_line, N, zeros).astype(dt)
    out = np.zeros(N, dt)
    launch(kernel1(getattr(libdevice, name if dt == F64 else name + "f")), x, out)
    exact = exact_values(ref, x)
    small = np.abs(x) < 8
    ulps = ulp_errors(out[small], [v for v, s in zip(exact, small) if s], dt)
    worst = int(np.argmax(ulps))
    assert ulps[worst] <= (3 if dt == F64 else 1), (name, x[small][worst], ulps[worst])
    err = abs_errors(out[~small], [v for v, s in zip(exact, small) if not s])
    assert err.max() <= (2.0 ** -50 if dt == F64 else 2.0 ** -25), (name, err.max())


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_bessel_special_values(dt):
    sfx = "" if dt == F64 else "f"
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.5, 1e-310 if dt == F64 else 1e-40, 3.0], dt)
    got = {}
    for name in ("j0", "j1", "y0", "y1"):
        out = np.zeros(x.size, dt)
        launch(kernel1(getattr(libdevice, name + sfx)), x, out)
        got[name] = out
    inf, nan = np.inf, np.nan
    np.testing.assert_array_equal(got["j0"][:5], [1, 1, 0, 0, nan])
    np.testing.assert_array_equal(got["j1"][:5], [0, 0, 0, 0, nan])
    assert np.signbit(got["j1"][1]) and not np.signbit(got["j1"][0])
    np.testing.assert_allclose(got["j1"][5], -float(mp.besselj(1, 1.5)), rtol=1e-6)
    assert got["j1"][6] == x[6] / 2
    for name in ("y0", "y1"):
        np.testing.assert_array_equal(got[name][:6], [-inf, -inf, 0, nan, nan, nan], err_msg=name)
    assert got["y1"][6] == -inf or got["y1"][6] < -1e300
    n = np.array([-1, 0, 1, 2, 5, 3, 2, 4], np.int32)
    xs = np.array([1.0, inf, -inf, inf, nan, 0.0, -2.5, 0.0], dt)
    jn, yn = np.zeros(8, dt), np.zeros(8, dt)
    launch(kernel2(getattr(libdevice, "jn" + sfx)), n, xs, jn)
    launch(kernel2(getattr(libdevice, "yn" + sfx)), n, xs, yn)
    np.testing.assert_array_equal(jn[:6], [nan, 0, 0, 0, nan, 0])
    np.testing.assert_allclose(jn[6], float(mp.besselj(2, 2.5)), rtol=1e-6)
    np.testing.assert_array_equal(yn, [nan, 0, nan, 0, nan, -inf, nan, -inf])
    # large orders: J(n, x) below 2^-1100 is 0 at once, without n steps of
    # recurrence; near the turning point the recurrence runs
    n = np.array([2**31 - 1, 5000, 1100, 2000], np.int32)
    xs = np.array([1.0, -100.0, 395.0, 1990.0], dt)
    jn = np.zeros(4, dt)
    launch(kernel2(getattr(libdevice, "jn" + sfx)), n, xs, jn)
    np.testing.assert_array_equal(jn[:3], 0)
    np.testing.assert_allclose(jn[3], float(mp.besselj(2000, float(xs[3]))), rtol=1e-6)


def in_range(exact, dt):
    """exact values beyond dt's largest float as the infinity they round to"""
    big = mp.mpf(float(np.finfo(dt).max))
    return [mp.inf * mp.sign(v) if abs(v) > big else v for v in exact]


def bessel_n_args(rng, dt, signed):
    n = np.concatenate([rng.integers(0, 40, N - N // 8), np.full(N // 8, 128)]).astype(np.int32)
    x = np.concatenate([log_uniform(rng, 1e-3, 300, N - N // 8), log_uniform(rng, 1e-12, 1e-3, N // 8)])
    x = rng.permutation(x)
    if signed:
        x *= rng.choice([-1.0, 1.0], N)
    return n, x.astype(dt)


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_jn(rng, dt):
    """within 2^-48 (float64) and 2^-25 (float32) of J(n, x) absolute,
    and, where J(n, x) is below 2^-10 with x < n, within 4n + 4 ulp
    (relative: Miller's recurrence keeps it)"""
    n, x = bessel_n_args(rng, dt, True)
    out = np.zeros(N, dt)
    launch(kernel2(libdevice.jn if dt == F64 else libdevice.jnf), n, x, out)
    mpmath.mp.prec = 120
    exact = [mp.besselj(int(k), mp.mpf(float(v))) for k, v in zip(n, x)]
    err = abs_errors(out, exact)
    worst = int(np.argmax(err))
    assert err[worst] <= (2.0 ** -48 if dt == F64 else 2.0 ** -25), (n[worst], x[worst], out[worst], exact[worst])
    tiny = [i for i in range(N) if abs(exact[i]) < 2 ** -10 and abs(x[i]) < n[i]]
    ulps = ulp_errors(out[tiny], [exact[i] for i in tiny], dt)
    bound = 4 * n[tiny] + 4
    bad = np.nonzero(ulps > bound)[0]
    assert not len(bad), [(n[tiny][i], x[tiny][i], ulps[i]) for i in bad[:5]]


@pytest.mark.parametrize("dt", [F64, F32], ids=["float64", "float32"])
def test_yn(rng, dt):
    """ceil(2 + 2.5 n) ulp where x < n (Y(n, x) has no zeros there);
    beyond, that or 2^-48 (float64) and 2^-25 (float32) absolute"""
    n, x = bessel_n_args(rng, dt, False)
    out = np.zeros(N, dt)
    launch(kernel2(libdevice.yn if dt == F64 else libdevice.ynf), n, x, out)
    mpmath.mp.prec = 120
    exact = in_range([mp.bessely(int(k), mp.mpf(float(v))) for k, v in zip(n, x)], dt)
    below = x < n
    ulps = ulp_errors(out[below], [v for v, b in zip(exact, below) if b], dt)
    bound = np.ceil(2 + 2.5 * n[below])
    bad = np.nonzero(ulps > bound)[0]
    assert not len(bad), [(n[below][i], x[below][i], ulps[i]) for i in bad[:5]]
    beyond = [v for v, b in zip(exact, below) if not b]
    err = abs_errors(out[~below], beyond)
    ulps = ulp_errors(out[~below], beyond, dt)
    bad = np.nonzero((err > (2.0 ** -48 if dt == F64 else 2.0 ** -25)) & (ulps > np.ceil(2 + 2.5 * n[~below])))[0]
    assert not len(bad), [(n[~below][i], x[~below][i], err[i], ulps[i]) for i in bad[:5]]


@cuda.jit(device=True)
def bessel_sum(n, x):
    """sum of J(k, x)^2 over k = -n..n, which tends to 1"""
    s = libdevice.j0(x) ** 2
    for k in range(1, n + 1):
        s += 2 * libdevice.jn(k, x) ** 2
    return s + libdevice.j1(x) * libdevice.y0(x) - libdevice.j0(x) * libdevice.y1(x)


def test_bessel_in_a_device_function(rng):
    """J0^2 + 2 sum J(k)^2 = 1, and the Wronskian J1 Y0 - J0 Y1 = 2 / (pi x)"""
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = bessel_sum(60, x[i])

    x = rng.uniform(0.5, 30, N)
    out = np.zeros(N)
    launch(k, x, out)
    np.testing.assert_allclose(out, 1 + 2 / (np.pi * x), rtol=1e-14)


def test_signatures_follow_numba():
    assert libdevice.SIGNATURES["sinf"] == "float32(float32)"
    assert libdevice.SIGNATURES["sincos"] == "Tuple(float64, float64)(float64)"
    assert libdevice.SIGNATURES["frexpf"] == "Tuple(float32, int32)(float32)"
    assert libdevice.SIGNATURES["clzll"] == "int32(int64)"
    assert libdevice.SIGNATURES["jn"] == "float64(int32, float64)"
    assert len(libdevice.FUNCTIONS) == 317
    with pytest.raises(RuntimeError, match="only be used inside"):
        libdevice.sinf(1.0)


def test_errors():
    def k2(x):
        x[0] = libdevice.powf(x[0])

    def k3(x):
        x[0] = libdevice.sinf(x=x[0])

    def k4(x):
        x[0] = libdevice.no_such_function(x[0])

    def k5(x):
        x[0] = libdevice.sinf(x)

    for fn, msg in ((k2, r"cuda\.libdevice\.powf\(\) takes 2 arguments \(1 given\)"),
                    (k3, r"does not take keyword arguments"),
                    (k4, r"module 'cuda\.libdevice' has no attribute 'no_such_function'"),
                    (k5, r"cuda\.libdevice\.sinf\(\) does not accept a array")):
        with pytest.raises(errors.TypingError, match=msg):
            cuda.jit("void(float32[::1])")(fn)


def test_tuple_results_unpack_into_array_elements(rng):
    """s[i], c[i] = libdevice.sincos(x) stores each element of the tuple
    (Numba's own libdevice tests write results so); the right side is
    evaluated first, as in Python."""
    @cuda.jit
    def k(x, s, c, m, e):
        i = cuda.grid(1)
        if i < x.size:
            s[i], c[i] = libdevice.sincos(x[i])
            m[i], e[i] = libdevice.frexp(x[i])
            s[i], c[i] = c[i], s[i]

    x = rng.uniform(-10, 10, N)
    s, c, m, e = np.zeros(N), np.zeros(N), np.zeros(N), np.zeros(N, np.int32)
    launch(k, x, s, c, m, e)
    check_ulps(s, exact_values(mp.cos, x), F64, 2, "cos")
    check_ulps(c, exact_values(mp.sin, x), F64, 2, "sin")
    wm, we = np.frexp(x)
    np.testing.assert_array_equal(m, wm)
    np.testing.assert_array_equal(e, we)

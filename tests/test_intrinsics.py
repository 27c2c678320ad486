"""The scalar cuda intrinsics on random data against Python and NumPy:
popc, clz, ffs and brev on every integer type, fma (exactly rounded, checked
with fractions), cbrt (within one ulp of NumPy, special values exact),
selp, nanosleep and the memory fences; and the errors a wrong argument
type gives, at the line of the call.
"""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError

INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@cuda.jit
def bit_ops(x, popc, clz, ffs):
    i = cuda.grid(1)
    if i < x.size:
        popc[i] = cuda.popc(x[i])
        clz[i] = cuda.clz(x[i])
        ffs[i] = cuda.ffs(x[i])


def random_ints(rng, dt, n):
    info = np.iinfo(dt)
    v = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    v[:4] = [0, info.max, info.min, 1]
    # values with few bits set, at random places
    v[4:20] = np.array([1 << int(k) for k in rng.integers(0, 8 * np.dtype(dt).itemsize, 16)],
                       dtype=np.uint64).astype(dt)
    return v


@pytest.mark.parametrize("dt", INT_TYPES, ids=lambda d: np.dtype(d).name)
def test_popc_clz_ffs(rng, dt):
    n = 200
    x = random_ints(rng, dt, n)
    popc = np.zeros(n, dt)
    clz = np.zeros(n, dt)
    ffs = np.zeros(n, np.uint32)
    bit_ops[4, 64](x, popc, clz, ffs)
    w = 8 * np.dtype(dt).itemsize
    u = [int(v) & ((1 << w) - 1) for v in x]
    np.testing.assert_array_equal(popc, np.array([bin(v).count("1") for v in u]).astype(dt))
    np.testing.assert_array_equal(clz, np.array([w - v.bit_length() for v in u]).astype(dt))
    np.testing.assert_array_equal(ffs, np.array([(v & -v).bit_length() for v in u], dtype=np.uint32))


@cuda.jit
def brev_ops(a, b, c, ra, rb, rc):
    i = cuda.grid(1)
    if i < a.size:
        ra[i] = cuda.brev(a[i])
        rb[i] = cuda.brev(b[i])
        rc[i] = cuda.brev(c[i])


def test_brev(rng):
    n = 100
    a = random_ints(rng, np.uint32, n)
    b = random_ints(rng, np.uint64, n)
    c = random_ints(rng, np.int32, n)          # any integer up to 32 bits: uint32 result
    ra, rb, rc = np.zeros(n, np.uint32), np.zeros(n, np.uint64), np.zeros(n, np.uint32)
    brev_ops[2, 64](a, b, c, ra, rb, rc)
    rev = lambda v, w: int(format(int(v) & ((1 << w) - 1), "0%db" % w)[::-1], 2)
    np.testing.assert_array_equal(ra, np.array([rev(v, 32) for v in a], dtype=np.uint32))
    np.testing.assert_array_equal(rb, np.array([rev(v, 64) for v in b], dtype=np.uint64))
    np.testing.assert_array_equal(rc, np.array([rev(v, 32) for v in c], dtype=np.uint32))


@cuda.jit
def fused(a, b, c, fa, fb, fc, r, fr):
    i = cuda.grid(1)
    if i < a.size:
        r[i] = cuda.fma(a[i], b[i], c[i])
        fr[i] = cuda.fma(fa[i], fb[i], fc[i])


def exact_fma(x, y, z):
    return float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))


def test_fma_rounds_once(rng):
    n = 256
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    c = -a * b * (1 + rng.standard_normal(n) * 1e-9)        # cancellation: a separate multiply would show
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    fc = (-(fa.astype(np.float64) * fb) * (1 + rng.standard_normal(n) * 1e-4)).astype(np.float32)
    r, fr = np.zeros(n), np.zeros(n, np.float32)
    fused[4, 64](a, b, c, fa, fb, fc, r, fr)
    np.testing.assert_array_equal(r, [exact_fma(*t) for t in zip(a, b, c)])
    # float32: the exact result rounded once to float32 (a double holds a*b exactly)
    np.testing.assert_array_equal(fr, np.array([exact_fma(*t) for t in zip(fa, fb, fc)]).astype(np.float32))


@cuda.jit
def cube_roots(x, fx, r, fr):
    i = cuda.grid(1)
    if i < x.size:
        r[i] = cuda.cbrt(x[i])
        fr[i] = cuda.cbrt(fx[i])


def cbrt_ref(x):
    """The correctly rounded cube root of each element, in x's dtype (from
    mpmath at 120 bits: the host's libm may be an ulp off, as glibc 2.36's
    cbrt(27.0) is)."""
    mpmath.mp.prec = 120
    out = np.empty(x.shape, np.float64)
    for i, v in enumerate(x.astype(np.float64)):
        v = float(v)
        if v == 0.0 or not math.isfinite(v):
            out[i] = v
        else:
            r = float(mpmath.cbrt(mpmath.mpf(abs(v))))
            out[i] = r if v > 0 else -r
    return out.astype(x.dtype)


def ulp_diff(got, want, dt):
    it = np.int64 if dt == np.float64 else np.int32
    return np.abs(got.astype(dt).view(it).astype(np.int64) - want.astype(dt).view(it).astype(np.int64))


def test_cbrt(rng):
    n = 2048
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-307, 307, n)
    fx = (rng.standard_normal(n) * 10.0 ** rng.integers(-37, 37, n)).astype(np.float32)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -2.5e-310, 27.0, -8.0, 1.0]
    fspecials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -3e-40, 27.0, -8.0, 1.0]
    x[:10] = specials
    fx[:10] = fspecials
    r, fr = np.zeros(n), np.zeros(n, np.float32)
    cube_roots[n // 128, 128](x, fx, r, fr)
    want = cbrt_ref(x)
    fwant = cbrt_ref(fx)
    np.testing.assert_array_equal(r[:10], want[:10])          # signed zeros, inf, nan, exact cubes
    np.testing.assert_array_equal(fr[:10], fwant[:10])
    assert np.signbit(r[1]) and np.signbit(fr[1])
    ok = np.isfinite(want)
    assert ulp_diff(r[ok], want[ok], np.float64).max() <= 1
    ok = np.isfinite(fwant)
    assert ulp_diff(fr[ok], fwant[ok], np.float32).max() <= 1


@cuda.jit
def select(p, a, b, ia, ib, r, ir):
    i = cuda.grid(1)
    if i < p.size:
        r[i] = cuda.selp(p[i], a[i], b[i])
        ir[i] = cuda.selp(ia[i] > ib[i], ia[i], ib[i])


def test_selp(rng):
    n = 128
    p = rng.integers(0, 2, n).astype(np.bool_)
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    ia = rng.integers(-2**15, 2**15, n).astype(np.int16)
    ib = rng.integers(-2**15, 2**15, n).astype(np.int16)
    r, ir = np.zeros(n), np.zeros(n, np.int16)
    select[2, 64](p, a, b, ia, ib, r, ir)
    np.testing.assert_array_equal(r, np.where(p, a, b))
    np.testing.assert_array_equal(ir, np.maximum(ia, ib))


@cuda.jit
def fences_and_sleep(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2
        cuda.threadfence_block()
        cuda.threadfence()
        cuda.threadfence_system()
        cuda.nanosleep(np.uint32(50))
        cuda.syncwarp(0xffffffff)
        out[i] += 1


def test_fences_and_nanosleep(rng):
    x = rng.integers(0, 1000, 64).astype(np.int64)
    out = np.zeros_like(x)
    fences_and_sleep[1, 64](x, out)
    np.testing.assert_array_equal(out, 2 * x + 1)


# -------------------------------------------------------------- errors

def shfl_uint(a):
    i = cuda.grid(1)
    a[i] = cuda.shfl_sync(0xffffffff, a[i], 0)    # ERROR-LINE


def popc_float(a, out):
    i = cuda.grid(1)
    out[i] = cuda.popc(a[i])    # ERROR-LINE


def fma_complex(a):
    i = cuda.grid(1)
    a[i] = cuda.fma(a[i], a[i], a[i])    # ERROR-LINE


def match_bool(a, out):
    i = cuda.grid(1)
    out[i] = cuda.match_any_sync(0xffffffff, a[i] > 0)    # ERROR-LINE


@pytest.mark.parametrize("fn,args,text", [
    (shfl_uint, (np.zeros(32, np.uint32),), "shuffles int32, int64, float32 and float64 values, not uint32"),
    (popc_float, (np.zeros(32, np.float64), np.zeros(32, np.int64)), "cuda.popc() takes an integer, not float64"),
    (fma_complex, (np.zeros(32, np.complex128),), "cuda.fma() takes real numbers, not complex128"),
    (match_bool, (np.zeros(32, np.int32), np.zeros(32, np.int32)), "compares 32- and 64-bit integers and floats, not bool"),
], ids=["shfl_uint32", "popc_float", "fma_complex", "match_bool"])
def test_intrinsic_type_errors(fn, args, text):
    import inspect
    src, first = inspect.getsourcelines(fn)
    line = first + next(k for k, s in enumerate(src) if "ERROR-LINE" in s)
    k = cuda.jit(fn)
    with pytest.raises(TypingError) as e:
        k[1, 32](*args)
    msg = str(e.value)
    assert text in msg
    assert "test_intrinsics.py:%d:" % line in msg


# ------------------------------------------- the catalogue's bit kernels

def test_warp_bits_catalogue(load, rng):
    mod = load("warp_bits")
    n = 100
    a8 = random_ints(rng, np.int8, n)
    a16 = random_ints(rng, np.uint16, n)
    a32 = random_ints(rng, np.int32, n)
    a64 = random_ints(rng, np.uint64, n)
    out = np.zeros((n, 5), np.int64)
    rev = np.zeros(n, np.uint32)
    mod.bits[2, 64](a8, a16, a32, a64, out, rev)

    def pcf(v, w):
        u = int(v) & ((1 << w) - 1)
        return bin(u).count("1") + (w - u.bit_length()) * 100 + (u & -u).bit_length() * 10000

    for col, (arr, w) in enumerate([(a8, 8), (a16, 16), (a32, 32), (a64, 64)]):
        np.testing.assert_array_equal(out[:, col], [pcf(v, w) for v in arr])
    np.testing.assert_array_equal(out[:, 4], [bin(int(a) & 0xffffffff).count("1") + bin(int(b)).count("1") * 100
                                              for a, b in zip(a32, a64)])
    np.testing.assert_array_equal(rev, (a32.view(np.uint32) ^ np.uint32(1 << 31)))

    x32 = rng.standard_normal(n).astype(np.float32)
    x64 = rng.standard_normal(n)
    r32, r64 = np.zeros_like(x32), np.zeros_like(x64)
    mod.floats[2, 64](x32, x64, r32, r64)
    neg = x32 <= 0
    np.testing.assert_array_equal(r32[neg], [np.float32(exact_fma(v, v, 1.0)) for v in x32[neg]])
    assert ulp_diff(r32[~neg], cbrt_ref(x32[~neg]), np.float32).max() <= 1
    neg = x64 <= 0
    np.testing.assert_array_equal(r64[neg], [exact_fma(v, 2.0, v) for v in x64[neg]])
    assert ulp_diff(r64[~neg], cbrt_ref(x64[~neg]), np.float64).max() <= 1


def _grid_of(x):
    cuda.grid(x)


def _gridsize_of(x):
    cuda.gridsize(x)


@pytest.mark.parametrize("fn, name", [(_grid_of, "cuda.grid"), (_gridsize_of, "cuda.gridsize")])
def test_grid_of_a_variable_is_refused_in_numbas_words_too(fn, name):
    with pytest.raises(TypingError, match=r"%s\(\) takes a constant 1, 2 or 3, not a variable "
                                          r"\(RequireLiteralValue" % name.replace(".", r"\.")):
        cuda.jit("void(int32)")(fn)

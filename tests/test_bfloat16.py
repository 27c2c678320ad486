"""bfloat16 in kernels and device functions (ptxjit.cuda.bf16, Numba's
numba.cuda.bf16): the constructor rounds to nearest even, + - * / and
sqrt of two bfloat16s are rounded once to bfloat16, bfloat16 with another
number computes as a float32 would, and the module's functions (the
arithmetic, the compares, the math functions, the conversions with a
rounding mode and the bit casts) give what ml_dtypes.bfloat16 gives.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1,
compute capability 8.0 or newer), on random data, against NumPy with
ml_dtypes.  The PTX is assembled by ptxas for sm_80 and sm_90 when it is
on the PATH.
"""

import math

import numpy as np
import pytest

from ptxjit import cuda, float32, float64, int16, int32, int64, uint16
from ptxjit.cuda import bf16
from ptxjit.cuda.bf16 import bfloat16
from ptxjit.errors import TypingError

from conftest import assert_ptx_assembles

ml_dtypes = pytest.importorskip("ml_dtypes")
BF = ml_dtypes.bfloat16
KERNELS = []

pytestmark = pytest.mark.skipif(not cuda.is_bfloat16_supported(),
                                reason="bfloat16 needs compute capability 8.0 or newer")


def kernel(f):
    k = cuda.jit(f)
    KERNELS.append(k)
    return k


def bits(x):
    """float32 values as the int16 bits of their bfloat16."""
    return np.asarray(x, np.float32).astype(BF).view(np.int16)


def randoms(rng, n, scale=8.0):
    v = (rng.standard_normal(n) * scale).astype(np.float32)
    v[:4] = [1.5, -0.0, 3.0e38, 1e-40]
    return v


@kernel
def arith(out, x, y):
    i = cuda.grid(1)
    if i < x.size:
        a = bfloat16(x[i])
        b = bfloat16(y[i])
        out[0, i] = bf16.bfloat16_as_int16(a)
        out[1, i] = bf16.bfloat16_as_int16(a + b)
        out[2, i] = bf16.bfloat16_as_int16(a - b)
        out[3, i] = bf16.bfloat16_as_int16(a * b)
        out[4, i] = bf16.bfloat16_as_int16(a / b)
        out[5, i] = bf16.bfloat16_as_int16(bf16.hsqrt(abs_bf(a)))
        out[6, i] = bf16.bfloat16_as_int16(-a)
        c = a
        c += b
        c *= b
        out[7, i] = bf16.bfloat16_as_int16(c)


@cuda.jit(device=True)
def abs_bf(a):
    return bf16.habs(a)


def test_arithmetic_rounds_once_to_nearest_even(rng):
    n = 256
    x, y = randoms(rng, n), randoms(rng, n)
    out = np.zeros((8, n), np.int16)
    arith[2, 128](out, x, y)
    a, b = x.astype(BF).astype(np.float64), y.astype(BF).astype(np.float64)
    with np.errstate(all="ignore"):
        want = [a, a + b, a - b, a * b, a / b, np.sqrt(np.abs(a)), -a,
                (a + b).astype(BF).astype(np.float64) * b]
    for row, w in enumerate(want):
        nan = np.isnan(w)
        got = out[row].view(BF).astype(np.float64)
        assert np.isnan(got[nan]).all(), "row %d" % row
        np.testing.assert_array_equal(out[row][~nan], w[~nan].astype(BF).view(np.int16), err_msg="row %d" % row)


@kernel
def convert(o16, of, oi, x, d, n):
    i = cuda.grid(1)
    if i < x.size:
        f = x[i]
        o16[0, i] = bf16.bfloat16_as_int16(bf16.float32_to_bfloat16_rn(f))
        o16[1, i] = bf16.bfloat16_as_int16(bf16.float32_to_bfloat16_rz(f))
        o16[2, i] = bf16.bfloat16_as_int16(bf16.float32_to_bfloat16_rd(f))
        o16[3, i] = bf16.bfloat16_as_int16(bf16.float32_to_bfloat16_ru(f))
        o16[4, i] = bf16.bfloat16_as_int16(bf16.float64_to_bfloat16(d[i]))
        o16[5, i] = bf16.bfloat16_as_int16(bf16.int64_to_bfloat16_rn(n[i]))
        o16[6, i] = bf16.bfloat16_as_int16(bfloat16(n[i]))
        h = bfloat16(f)
        of[0, i] = float32(h)
        of[1, i] = bf16.bfloat16_to_float32(bf16.htrunc(h))
        of[2, i] = float32(bf16.hceil(h))
        of[3, i] = float32(bf16.hfloor(h))
        of[4, i] = float32(bf16.hrint(h))
        oi[0, i] = bf16.bfloat16_to_int32_rn(h)
        oi[1, i] = bf16.bfloat16_to_int32_rz(h)
        oi[2, i] = bf16.bfloat16_to_int32_rd(h)
        oi[3, i] = bf16.bfloat16_to_int32_ru(h)
        oi[4, i] = int64(h)
        oi[5, i] = bf16.uint16_as_bfloat16(uint16(bf16.bfloat16_as_uint16(h))) == h


def directed(x, mode):
    """float32 x rounded to bfloat16 toward zero / -inf / +inf, as int16 bits."""
    u = np.asarray(x, np.float32).view(np.uint32)
    keep = u & np.uint32(0xFFFF0000)
    inexact = (u & np.uint32(0xFFFF)) != 0
    neg = (u >> np.uint32(31)) == 1
    away = {"z": np.zeros_like(inexact), "d": inexact & neg, "u": inexact & ~neg}[mode]
    r = np.where(away, keep + np.uint32(0x10000), keep).astype(np.uint32)
    return (r >> np.uint32(16)).astype(np.uint16).view(np.int16)


def test_conversions_and_rounding_modes(rng):
    m = 256
    x = randoms(rng, m, 1000.0)
    d = rng.standard_normal(m) * 1e5
    d[:3] = [1 + 2.0 ** -8 + 2.0 ** -40, -(1 + 2.0 ** -8), 1e300]   # just above a midpoint; overflow
    n = rng.integers(-2 ** 62, 2 ** 62, m)
    n[:2] = [2 ** 60 + 2 ** 52 + 1, -(2 ** 60 + 2 ** 52 + 1)]       # one past a midpoint
    o16 = np.zeros((7, m), np.int16)
    of = np.zeros((5, m), np.float32)
    oi = np.zeros((6, m), np.int64)
    convert[2, 128](o16, of, oi, x, d, n)
    np.testing.assert_array_equal(o16[0], bits(x))
    for row, mode in ((1, "z"), (2, "d"), (3, "u")):
        np.testing.assert_array_equal(o16[row], directed(x, mode), err_msg=mode)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(o16[4], [exact_f64_bf16_bits(v) for v in d])
    want_n = [exact_bf16_bits(int(v)) for v in n]
    np.testing.assert_array_equal(o16[5], want_n)
    np.testing.assert_array_equal(o16[6], want_n)
    h = x.astype(BF).astype(np.float64)
    for row, w in enumerate([h, np.trunc(h), np.ceil(h), np.floor(h), np.rint(h)]):
        np.testing.assert_array_equal(of[row], w.astype(np.float32), err_msg="row %d" % row)
    sat = lambda v: np.clip(v, -2 ** 31, 2 ** 31 - 1)   # noqa: E731
    for row, w in enumerate([np.rint(h), np.trunc(h), np.floor(h), np.ceil(h)]):
        np.testing.assert_array_equal(oi[row], sat(w).astype(np.int64), err_msg="row %d" % row)
    big = np.abs(h) >= 2.0 ** 63                                       # int64() saturates
    want = np.where(big, 0, np.trunc(h)).astype(np.int64)
    want[big] = np.where(h[big] > 0, 2 ** 63 - 1, -2 ** 63)
    np.testing.assert_array_equal(oi[4], want)
    np.testing.assert_array_equal(oi[5], 1)


def exact_bf16_bits(v):
    """The integer v rounded once, to nearest even, to bfloat16's 8 bits."""
    if v == 0:
        return 0
    s, a = (0x8000, -v) if v < 0 else (0, v)
    e = a.bit_length() - 8
    if e > 0:
        q, r = divmod(a, 1 << e)
        half = 1 << (e - 1)
        if r > half or (r == half and q & 1):
            q += 1
        a = q << e
    f = np.float32(a)
    return np.int16(np.array([f], np.float32).astype(BF).view(np.uint16)[0] | s)


def exact_f64_bf16_bits(v):
    """The float64 v rounded once, to nearest even, to bfloat16 (int16
    bits).  ml_dtypes does not always round once: some versions go through
    float32, which rounds 1 + 2**-8 + 2**-40 to a tie and then to 1."""
    import fractions
    if np.isinf(v) or np.isnan(v):
        return np.int16(np.array([v], np.float32).astype(BF).view(np.int16)[0])
    s = 0x8000 if np.signbit(v) else 0
    a = abs(fractions.Fraction(float(v)))
    if a == 0:
        return np.int16(np.uint16(s).view(np.int16))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if fractions.Fraction(2) ** e > a:
        e -= 1
    ulp = fractions.Fraction(2) ** (max(e, -126) - 7)
    q, r = divmod(a, ulp)
    if r > ulp / 2 or (r == ulp / 2 and q % 2):
        q += 1
    w = q * ulp
    u = 0x7F80 if w >= 2 ** 128 else int(np.array([float(w)], np.float32).view(np.uint32)[0] >> 16)
    return np.int16(np.uint16(u | s).view(np.int16))


@kernel
def functions(ob, of, x, y):
    i = cuda.grid(1)
    if i < x.size:
        a = bfloat16(x[i])
        b = bfloat16(y[i])
        ob[0, i] = bf16.heq(a, b)
        ob[1, i] = bf16.hne(a, b)
        ob[2, i] = bf16.hlt(a, b)
        ob[3, i] = bf16.hgeu(a, b)
        ob[4, i] = bf16.hisnan(a)
        ob[5, i] = a < b
        of[0, i] = float32(bf16.hmax(a, b))
        of[1, i] = float32(bf16.hmin_nan(a, b))
        of[2, i] = float32(bf16.hadd_sat(a, b))
        of[3, i] = float32(bf16.hfma(a, b, a))
        of[4, i] = float32(bf16.hfma_relu(a, b, a))
        of[5, i] = float32(math.sin(a))
        of[6, i] = float32(bf16.hexp(a))
        of[7, i] = a + float32(y[i])


def test_compares_minmax_fma_and_math(rng):
    n = 256
    x, y = randoms(rng, n, 4.0), randoms(rng, n, 4.0)
    x[4], y[5] = np.nan, np.nan
    x[6] = y[6]
    ob = np.zeros((6, n), np.bool_)
    of = np.zeros((8, n), np.float32)
    functions[2, 128](ob, of, x, y)
    a, b = x.astype(BF).astype(np.float64), y.astype(BF).astype(np.float64)
    un = np.isnan(a) | np.isnan(b)
    for row, w in enumerate([a == b, (a < b) | (a > b), a < b, (a >= b) | un, np.isnan(a), a < b]):
        np.testing.assert_array_equal(ob[row], w, err_msg="row %d" % row)
    r = lambda v: v.astype(BF).astype(np.float32)   # noqa: E731
    np.testing.assert_array_equal(of[0], r(np.fmax(a, b)))
    np.testing.assert_array_equal(of[1], r(np.minimum(a, b)))
    np.testing.assert_array_equal(of[2], np.nan_to_num(np.clip(r(a + b), 0, 1), nan=0.0))
    np.testing.assert_array_equal(of[3], r(a * b + a))          # the product is exact in float64
    np.testing.assert_array_equal(of[4], np.where(r(a * b + a) < 0, 0, r(a * b + a)))
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(of[5], np.sin(a), atol=8e-3, equal_nan=True)
        np.testing.assert_allclose(of[6], np.exp(a), rtol=8e-3, equal_nan=True)
    np.testing.assert_array_equal(of[7], (a.astype(np.float32) + y).astype(np.float32))


def test_types_of_mixed_arithmetic():
    @cuda.jit
    def k(out):
        a = bfloat16(1.5)
        out[0] = a + 1.0          # float64
        out[1] = a * float32(3.0) # float32
        out[2] = abs(a)           # float32, as Numba types it
        out[3] = a ** 2
        out[4] = float(bfloat16(float("nan")) != a)
    out = np.zeros(5)
    k[1, 1](out)
    np.testing.assert_array_equal(out, [2.5, 4.5, 1.5, 2.25, 1.0])


def test_bfloat16_arrays_and_old_devices_are_refused():
    @cuda.jit
    def k(out):
        s = cuda.local.array(4, bfloat16)
        s[0] = bfloat16(1.0)
        out[0] = float32(s[0])
    with pytest.raises(TypingError, match="bfloat16"):
        k[1, 1](np.zeros(1, np.float32))

    def f(out):
        out[0] = float32(bfloat16(1.0))
    with pytest.raises(TypingError, match="compute capability 7.5"):
        cuda.compile_ptx(f, (float32[:],), cc=(7, 5))

    def g(out, x):
        out[0] = float32(x)
    for sig in ("void(float32[:], bfloat16)", "void(float32[:], bfloat16[:])"):
        with pytest.raises(TypingError, match="bfloat16 arguments and arrays are not supported yet"):
            cuda.jit(sig)(g)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptx_assembles_for_sm80_and_sm90(arch):
    assert_ptx_assembles(KERNELS, 3, arch)

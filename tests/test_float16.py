"""float16 in kernels, with Numba's typing: arrays of float16 (global,
shared, local), float16 kernel arguments, arithmetic rounded to float16
after every operation, the math functions Numba keeps in float16, and
cuda.fp16's functions.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against NumPy's float16 (whose + - * / round once, as the
GPU's half instructions do).  When `ptxas` is on the PATH the PTX of every
kernel compiled here is also assembled by it (test_ptx_assembles).
"""

import math
from fractions import Fraction

import numpy as np
import pytest

import ptxjit
from ptxjit import cuda
from ptxjit.errors import TypingError

from test_float16_random import round_frac
from conftest import assert_ptx_assembles

f16 = np.float16
KERNELS = []


def kernel(f):
    k = cuda.jit(f)
    KERNELS.append(k)
    return k


def halves(rng, n, scale=8.0):
    """Random float16 values with the specials in front."""
    v = (rng.standard_normal(n) * scale).astype(f16)
    v[:6] = [np.nan, np.inf, -0.0, 65504, 6e-8, -6.1e-5]
    return v


def ulps(got, want):
    """Distance in float16 steps, for finite values of the same sign."""
    g = got.astype(f16).view(np.int16).astype(np.int64)
    w = want.astype(f16).view(np.int16).astype(np.int64)
    return np.abs(g - w)


# ------------------------------------------------------------ arithmetic

@kernel
def arith(a, b, c, out):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = a[i] * b[i] + c[i]
        out[1, i] = a[i] / b[i] - c[i]
        out[2, i] = -a[i] * abs(b[i])
        x = a[i]
        x += b[i]
        x *= c[i]
        out[3, i] = x
        out[4, i] = a[i] * np.int8(3) + True
        out[5, i] = float(a[i]) * b[i]          # float() keeps a float16, as in Numba
        out[6, i] = max(a[i], b[i])
        out[7, i] = a[i] - f16(0.1)


def test_arithmetic_rounds_after_every_operation():
    """Each operation rounds to float16, except that a product added or
    subtracted in the same expression is fused (rounded once with the
    sum), as ptxas fuses Numba's half multiply and add."""
    rng = np.random.default_rng(11)
    a, b, c = halves(rng, 2000), halves(rng, 2000), halves(rng, 2000)
    out = np.zeros((8, a.size), f16)
    arith[8, 256](a, b, c, out)
    with np.errstate(all="ignore"):
        want = [np.array([exact_fma(*t) for t in zip(a, b, c)], f16), a / b - c, -a * abs(b), (a + b) * c,
                np.array([exact_fma(x, 3, 1) for x in a], f16), a * b, np.maximum(a, b), a - f16(0.1)]
    for k, w in enumerate(want):
        np.testing.assert_array_equal(out[k], w, err_msg="row %d" % k)


@kernel
def widened(a, s, out):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = a[i] + np.float32(0.1)      # float32
        out[1, i] = a[i] + 1                    # int64 -> float64
        out[2, i] = a[i] * np.int16(3) + np.int16(1)   # int16 -> float32
        out[3, i] = a[i] * s                    # float16 * float16
        out[4, i] = +a[i] + np.float32(1e-4)    # +x of a float16 is a float32
        out[5, i] = a[i] * np.float64(1.0001)


def test_mixed_operands_promote_as_numba():
    rng = np.random.default_rng(12)
    a = halves(rng, 1000)
    out = np.zeros((6, a.size), np.float64)
    widened[4, 256](a, f16(1.5), out)
    af, ad = a.astype(np.float32), a.astype(np.float64)
    with np.errstate(all="ignore"):
        want = [af + np.float32(0.1), ad + 1, af * np.float32(3) + np.float32(1), a * f16(1.5),
                af + np.float32(1e-4), ad * 1.0001]
    for k, w in enumerate(want):
        np.testing.assert_array_equal(out[k], np.asarray(w).astype(np.float64), err_msg="row %d" % k)


def test_result_types_are_numba_s():
    """The type of each expression, read back through @njit (its result
    is a NumPy float16 when the type is float16, else a Python number)."""
    cases = [
        (lambda x, y: x + y, f16(1.5), f16(2.25), f16),
        (lambda x, y: x / y, f16(1.5), np.int8(3), f16),
        (lambda x, y: x * y, f16(1.5), True, f16),
        (lambda x, y: x - y, f16(1.5), np.int16(3), float),
        (lambda x, y: x - y, f16(1.5), np.uint8(3), float),
        (lambda x, y: x * y, f16(1.5), np.float32(2), float),
        (lambda x, y: -x, f16(1.5), 0, f16),
        (lambda x, y: abs(x), f16(-1.5), 0, f16),
        (lambda x, y: math.sin(x), f16(0.5), 0, f16),
        (lambda x, y: math.sqrt(x), f16(2.0), 0, f16),
        (lambda x, y: math.floor(x), f16(2.5), 0, f16),
        (lambda x, y: math.atan(x), f16(2.5), 0, float),
        (lambda x, y: x < y, f16(1.5), f16(2.0), bool),
    ]
    for fn, x, y, want in cases:
        r = ptxjit.njit(fn)(x, y)
        assert type(r) is want, (fn, x, y, type(r))


# ---------------------------------------------------------- memory, args

@kernel
def through_memory(a, out, s):
    sh = cuda.shared.array(256, f16)
    loc = cuda.local.array(2, f16)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    sh[t] = a[i] if i < a.size else f16(0)
    cuda.syncthreads()
    loc[0] = sh[255 - t]
    loc[1] = s
    if i < a.size:
        out[i] = loc[0] * loc[1]


def test_shared_local_arrays_and_arguments():
    rng = np.random.default_rng(13)
    a = halves(rng, 1024)
    out = np.zeros_like(a)
    through_memory[4, 256](a, out, f16(-2.5))
    rev = np.concatenate([a[k * 256:(k + 1) * 256][::-1] for k in range(4)])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(out, rev * f16(-2.5))


@kernel
def to_half(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = x[i]                  # a store converts
        out[1, i] = np.float16(x[i])      # so does the constructor


def test_float64_to_float16_rounds_once():
    # 1 + 2^-11 + 2^-40 is above the tie between 1 and 1 + 2^-10: rounding
    # through float32 first would land on the tie and go to 1
    x = np.array([1 + 2.0 ** -11 + 2.0 ** -40, -(1 + 2.0 ** -11 + 2.0 ** -40), 65519.99, 65520.0,
                  2.0 ** -25 + 2.0 ** -50, 3.0 * 2.0 ** -26], np.float64)
    x = np.concatenate([x, np.random.default_rng(14).standard_normal(500) * 100])
    out = np.zeros((2, x.size), f16)
    to_half[2, 256](x, out)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(out[0], x.astype(f16))
        np.testing.assert_array_equal(out[1], x.astype(f16))
    assert out[0, 0] == f16(1.0009765625)


@kernel
def add_scalar(out, s):
    out[0] = s


def test_python_float_argument_rounds_once_to_a_float16_parameter():
    k = cuda.jit("void(float16[:], float16)")(add_scalar.py_func)
    out = np.zeros(1, f16)
    v = 1 + 2.0 ** -11 + 2.0 ** -40
    k[1, 1](out, v)
    assert out[0] == f16(v) == f16(1.0009765625)


G16 = f16(0.3)
H16 = f16(1.7)
TAB16 = np.array([0.1, 0.2, 0.3, 1.7], f16)


@kernel
def constants(out):
    i = cuda.grid(1)
    c = cuda.const.array_like(TAB16)
    out[0, i] = G16 * H16 + G16              # folded: each operation rounded
    out[1, i] = G16 / H16
    out[2, i] = math.sqrt(H16)
    out[3, i] = f16(0.1) + f16(0.2)
    out[4, i] = f16(70000.0)                 # beyond float16: inf
    out[5, i] = c[i] + TAB16[i] * G16


def test_globals_constants_and_constant_arrays():
    out = np.zeros((6, 4), f16)
    constants[1, 4](out)
    with np.errstate(all="ignore"):
        want = [G16 * H16 + G16, G16 / H16, np.sqrt(H16), f16(0.1) + f16(0.2), f16(np.inf)]
        for k, w in enumerate(want):
            np.testing.assert_array_equal(out[k], np.full(4, w, f16), err_msg="row %d" % k)
        np.testing.assert_array_equal(out[5], [exact_fma(t, G16, t) for t in TAB16])   # fused


@cuda.jit(device=True)
def scaled(x, n):
    """Recursive, so that it is called (float16 parameter and result)."""
    if n == 0:
        return x
    return scaled(x * f16(1.5), n - 1)


@kernel
def calls(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = scaled(a[i], i % 4)


def test_float16_through_a_device_function_call():
    a = halves(np.random.default_rng(17), 256, scale=4.0)
    out = np.zeros_like(a)
    calls[1, 256](a, out)
    want = a.copy()
    with np.errstate(all="ignore"):
        for i in range(a.size):
            for _ in range(i % 4):
                want[i] = want[i] * f16(1.5)
    np.testing.assert_array_equal(out, want)
    assert any("call" in ptx for ptx in calls.inspect_asm().values())


# ------------------------------------------------------------- math

@kernel
def math_half(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        out[0, i] = math.sin(x)
        out[1, i] = math.cos(x)
        out[2, i] = math.exp(x / f16(4))
        out[3, i] = math.log(abs(x))
        out[4, i] = math.log2(abs(x))
        out[5, i] = math.log10(abs(x))
        out[6, i] = math.tanh(x)
        out[7, i] = math.sqrt(abs(x))
        out[8, i] = math.floor(x)
        out[9, i] = math.ceil(x)
        out[10, i] = math.trunc(x)
        out[11, i] = math.fabs(x)


def test_math_functions_within_one_float16_step():
    rng = np.random.default_rng(15)
    a = halves(rng, 3000, scale=6.0)
    out = np.zeros((12, a.size), f16)
    math_half[12, 256](a, out)
    d = a.astype(np.float64)
    with np.errstate(all="ignore"):
        want = [np.sin(d), np.cos(d), np.exp(d / 4), np.log(abs(d)), np.log2(abs(d)), np.log10(abs(d)),
                np.tanh(d), np.sqrt(abs(d)), np.floor(d), np.ceil(d), np.trunc(d), abs(d)]
    for k, w in enumerate(want):
        w16 = w.astype(f16)
        nan = np.isnan(w16)
        np.testing.assert_array_equal(np.isnan(out[k]), nan, err_msg="row %d" % k)
        tol = 0 if k >= 7 else 1      # sqrt, floor, ceil, trunc, fabs are exact
        assert ulps(out[k][~nan], w16[~nan]).max() <= tol, k


# ------------------------------------------------------------ cuda.fp16

@kernel
def fp16_funcs(a, b, c, out, flags):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[0, i] = cuda.fp16.hadd(x, y)
        out[1, i] = cuda.fp16.hsub(x, y)
        out[2, i] = cuda.fp16.hmul(x, y)
        out[3, i] = cuda.fp16.hdiv(x, y)
        out[4, i] = cuda.fp16.hfma(x, y, c[i])
        out[5, i] = cuda.fp16.hneg(x)
        out[6, i] = cuda.fp16.habs(x)
        out[7, i] = cuda.fp16.hsqrt(x)
        out[8, i] = cuda.fp16.hrcp(x)
        out[9, i] = cuda.fp16.hfloor(x)
        out[10, i] = cuda.fp16.hceil(x)
        out[11, i] = cuda.fp16.htrunc(x)
        out[12, i] = cuda.fp16.hrint(x)
        out[13, i] = cuda.fp16.hmax(x, y)
        out[14, i] = cuda.fp16.hmin(x, y)
        out[15, i] = cuda.fp16.hsin(x)
        out[16, i] = cuda.fp16.hcos(x)
        out[17, i] = cuda.fp16.hexp(x / f16(4))
        out[18, i] = cuda.fp16.hexp2(x / f16(4))
        out[19, i] = cuda.fp16.hexp10(x / f16(8))
        out[20, i] = cuda.fp16.hlog(x)
        out[21, i] = cuda.fp16.hlog2(x)
        out[22, i] = cuda.fp16.hlog10(x)
        out[23, i] = cuda.fp16.hrsqrt(x)
        out[24, i] = cuda.fp16.htanh(x / f16(4))
        flags[0, i] = cuda.fp16.heq(x, y)
        flags[1, i] = cuda.fp16.hne(x, y)
        flags[2, i] = cuda.fp16.hgt(x, y)
        flags[3, i] = cuda.fp16.hge(x, y)
        flags[4, i] = cuda.fp16.hlt(x, y)
        flags[5, i] = cuda.fp16.hle(x, y)


def exact_fma(x, y, z):
    """x*y + z rounded once to float16 (nearest, ties to even)."""
    x, y, z = float(x), float(y), float(z)
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        with np.errstate(all="ignore"):
            return f16(x * y + z)
    return f16(round_frac(Fraction(x) * Fraction(y) + Fraction(z), "h"))


def test_fp16_functions():
    rng = np.random.default_rng(16)
    a, b, c = halves(rng, 3000), halves(rng, 3000), halves(rng, 3000)
    b[:6] = [1, np.nan, 0.0, 2, -3, np.nan]
    # 1.5 * m / 1024 for odd m is a tie between two float16 values; adding
    # the smallest float16 decides it, unless the sum is first rounded to
    # float32, where it is the tie again
    m = rng.integers(513, 683, 394) * 2 - 1
    a[6:400] = 1.5
    b[6:400] = (m * 2.0 ** -10).astype(f16)
    c[6:400] = np.where(rng.random(394) < 0.5, 2.0 ** -24, -2.0 ** -24).astype(f16)
    out = np.zeros((25, a.size), f16)
    flags = np.zeros((6, a.size), np.bool_)
    fp16_funcs[12, 256](a, b, c, out, flags)
    d = a.astype(np.float64)
    with np.errstate(all="ignore"):
        exact = [a + b, a - b, a * b, a / b, np.array([exact_fma(*t) for t in zip(a, b, c)], f16), -a, abs(a),
                 np.sqrt(a), (1 / d).astype(f16), np.floor(a), np.ceil(a), np.trunc(a), np.rint(a),
                 np.fmax(a, b), np.fmin(a, b)]
        approx = [np.sin(d), np.cos(d), np.exp(d / 4), np.exp2(d / 4), 10 ** (d / 8), np.log(d),
                  np.log2(d), np.log10(d), 1 / np.sqrt(d), np.tanh(d / 4)]
        for k, w in enumerate(exact):
            np.testing.assert_array_equal(out[k], w, err_msg="row %d" % k)
        for k, w in enumerate(approx, len(exact)):
            w16 = w.astype(f16)
            nan = np.isnan(w16)
            np.testing.assert_array_equal(np.isnan(out[k]), nan, err_msg="row %d" % k)
            assert ulps(out[k][~nan], w16[~nan]).max() <= 1, k
        want = [a == b, (a < b) | (a > b), a > b, a >= b, a < b, a <= b]   # NaN: all false
    for k, w in enumerate(want):
        np.testing.assert_array_equal(flags[k], w, err_msg="flag %d" % k)
    # hne is the ordered comparison: false on NaN, where Python's != is true
    assert not flags[1, 0] and not flags[1, 1]


def test_fp16_on_the_host_and_support_query():
    assert cuda.is_float16_supported()
    assert cuda.is_bfloat16_supported() == (cuda.is_simulator() or
                                            cuda.get_current_device().compute_capability >= (8, 0))
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        cuda.fp16.hadd(f16(1), f16(2))


# ----------------------------------------------------------- refusals

def _refusal(src_fn, args, match):
    k = cuda.jit(src_fn)
    with pytest.raises(TypingError, match=match) as ei:
        k[1, 1](*args)
    assert "test_float16.py:" in str(ei.value)
    return str(ei.value)


def test_what_float16_refuses_says_so_at_the_line():
    a = np.ones(4, f16)

    def atomic(a):
        cuda.atomic.add(a, 0, f16(1))

    def shuffle(a):
        a[0] = cuda.shfl_down_sync(0xffffffff, a[1], 1)

    def arity(a):
        a[0] = cuda.fp16.hfma(a[0], a[1])

    def complex_arg(a):
        a[0] = cuda.fp16.hadd(a[0], 1j)

    _refusal(atomic, (a,), "works on arrays of int32")
    _refusal(shuffle, (a,), "not float16")
    msg = _refusal(arity, (a,), r"cuda.fp16.hfma\(\) takes 3 arguments \(2 given\)")
    assert "hfma(a, b, c)" in msg
    _refusal(complex_arg, (a,), "does not accept a complex128 argument")


# ------------------------------------------------------------ PTX check

@kernel
def ints_to_half(a8, a16, u8, u16, a64, out):
    i = cuda.grid(1)
    if i < a8.size:
        out[0, i] = np.float16(a8[i])
        out[1, i] = np.float16(a16[i])
        out[2, i] = np.float16(u8[i])
        out[3, i] = np.float16(u16[i])
        out[4, i] = np.float16(a64[i])


def test_narrow_integers_convert_to_half(rng):
    """An 8- or 16-bit integer becomes a float16 with one cvt.rn.f16 from
    its own type (the register holds it extended), as Numba's cast; the
    values are NumPy's, negative ones and those past 2048 (rounded) too."""
    n = 200
    a8 = rng.integers(-128, 128, n).astype(np.int8)
    a16 = rng.integers(-32768, 32768, n).astype(np.int16)
    u8 = rng.integers(0, 256, n).astype(np.uint8)
    u16 = rng.integers(0, 65536, n).astype(np.uint16)
    a64 = rng.integers(-70000, 70000, n)
    out = np.zeros((5, n), f16)
    ints_to_half[2, 128](a8, a16, u8, u16, a64, out)
    with np.errstate(over="ignore"):
        for row, a in enumerate((a8, a16, u8, u16, a64)):
            np.testing.assert_array_equal(out[row], a.astype(f16), err_msg="row %d" % row)
    ptx = ints_to_half.inspect_asm(ints_to_half.signatures[0])
    for t in ("s8", "s16", "u8", "u16", "s64"):
        assert "cvt.rn.f16.%s " % t in ptx


@kernel
def half_to_others(h, i8, i16, i32, i64, u8, u16, u32, u64, d):
    i = cuda.grid(1)
    if i < h.size:
        x = h[i]
        i8[i] = np.int8(x)
        i16[i] = np.int16(x)
        i32[i] = np.int32(x)
        i64[i] = np.int64(x)
        u8[i] = np.uint8(abs(x))
        u16[i] = np.uint16(abs(x))
        u32[i] = np.uint32(abs(x))
        u64[i] = np.uint64(abs(x))
        d[i] = np.float64(x)


def test_half_converts_to_integers_and_float64_from_its_bits(rng):
    """A float16 becomes an integer (truncated, as NumPy) or a float64 with
    one cvt from .f16 (cvt.rzi.s32.f16, cvt.f64.f16: the bits its load
    read), as Numba's casts name them; 8-bit kinds through the 16-bit
    conversion, as from float32."""
    n = 256
    h = (rng.standard_normal(n) * 40).astype(f16)
    h[:4] = [127.9, -128.5, -0.7, 0.99]
    outs = [np.zeros(n, t) for t in (np.int8, np.int16, np.int32, np.int64,
                                      np.uint8, np.uint16, np.uint32, np.uint64, np.float64)]
    half_to_others[2, 128](h, *outs)
    a = h.astype(np.float64)
    for o in outs[:4]:
        np.testing.assert_array_equal(o, np.trunc(a).astype(o.dtype), err_msg=str(o.dtype))
    for o in outs[4:8]:
        np.testing.assert_array_equal(o, np.trunc(np.abs(a)).astype(o.dtype), err_msg=str(o.dtype))
    np.testing.assert_array_equal(outs[8], a)
    ptx = half_to_others.inspect_asm(half_to_others.signatures[0])
    for t in ("s16", "s32", "s64", "u16", "u32", "u64"):
        assert "cvt.rzi.%s.f16 " % t in ptx, t
    assert "cvt.f64.f16 " in ptx
    assert "cvt.f64.f32" not in ptx and "cvt.rzi.s32.f32" not in ptx


@kernel
def half_predicates(a, b, o, m):
    i = cuda.grid(1)
    if i < a.size:
        x, y = a[i], b[i]
        o[0, i] = cuda.fp16.__hequ(x, y)
        o[1, i] = cuda.fp16.__hneu(x, y)
        o[2, i] = cuda.fp16.__hgtu(x, y)
        o[3, i] = cuda.fp16.__hgeu(x, y)
        o[4, i] = cuda.fp16.__hltu(x, y)
        o[5, i] = cuda.fp16.__hleu(x, y)
        o[6, i] = cuda.fp16.__hisnan(x)
        o[7, i] = cuda.fp16.__hisinf(x)
        m[0, i] = cuda.fp16.__hmax_nan(x, y)
        m[1, i] = cuda.fp16.__hmin_nan(x, y)


def test_unordered_comparisons_nan_min_max_and_predicates(rng):
    """cuda.fp16's unordered comparisons (true when either is NaN), the
    NaN-propagating __hmax_nan/__hmin_nan, __hisnan and __hisinf (1, -1 or
    0, an int32), as cuda_fp16.h defines them."""
    n = 256
    a, b = halves(rng, n), halves(rng, n)
    a[::7] = b[::7]
    b[3::11] = np.nan
    a[5::13] = -np.inf
    o, m = np.zeros((8, n), np.int32), np.zeros((2, n), f16)
    half_predicates[2, 128](a, b, o, m)
    nan = np.isnan(a) | np.isnan(b)
    with np.errstate(invalid="ignore"):
        want = [(a == b) | nan, (a != b) | nan, (a > b) | nan, (a >= b) | nan, (a < b) | nan, (a <= b) | nan,
                np.isnan(a), np.where(np.isinf(a), np.sign(a), 0)]
    for row, w in enumerate(want):
        np.testing.assert_array_equal(o[row], w.astype(np.int32), err_msg="row %d" % row)
    big = np.where(nan, np.nan, np.maximum(a, b)).astype(f16)
    small = np.where(nan, np.nan, np.minimum(a, b)).astype(f16)
    np.testing.assert_array_equal(m[0], big)
    np.testing.assert_array_equal(m[1], small)


def test_ptx_assembles():
    """Every kernel above, as compiled for this run, is valid PTX for ptxas."""
    assert_ptx_assembles(KERNELS, 8)

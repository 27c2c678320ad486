"""Python inside kernels, with Numba's semantics: tuples (built, indexed,
unpacked, nested, passed as kernel arguments), None for optional
arguments, len, loops over tuples, while/for ... else, early return,
conditional expressions, integer and float arithmetic as Python and NumPy
define it (float // and % exactly as CPython, divmod, pow, round with
digits, wrapping of fixed-width integers), complex numbers, print() and
assert/raise under debug=True.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against references computed here in Python or NumPy.
When `ptxas` is on the PATH the PTX of the kernels is also assembled.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError

from conftest import assert_ptx_assembles

f32, f64 = np.float32, np.float64
i8, i32, i64, u8, u32, u64 = np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64
c64, c128 = np.complex64, np.complex128

KERNELS = []


@pytest.fixture(autouse=True)
def default_float_environment():
    """The references here are Python's own arithmetic on subnormals: run
    with the default floating-point environment, whatever code loaded
    earlier into the process set (a library linked with -ffast-math turns
    on flushing subnormals to zero for the thread that loads it)."""
    import ctypes
    import ctypes.util
    import sys
    if sys.platform.startswith("linux"):
        try:
            libm = ctypes.CDLL(ctypes.util.find_library("m"))
            libm.fesetenv(ctypes.c_void_p(-1))   # glibc's FE_DFL_ENV
        except (OSError, AttributeError):
            pass
    yield


def kernel(f=None, **opts):
    """@cuda.jit, remembered for the PTX check at the end."""
    if f is None:
        return lambda g: kernel(g, **opts)
    k = cuda.jit(**opts)(f) if opts else cuda.jit(f)
    KERNELS.append(k)
    return k


def bits(x):
    """float64 values as integers (NaNs made one), for bit-exact comparison."""
    x = np.array(x, dtype=f64)
    x = np.where(np.isnan(x), np.nan, x)
    return x.view(i64)


def bits32(x):
    x = np.array(x, dtype=f32)
    x = np.where(np.isnan(x), f32(np.nan), x)
    return x.view(i32)


# ------------------------------------------------------------------ tuples

@cuda.jit(device=True)
def minmax3(a, b, c):
    return (min(a, b, c), max(a, b, c))


@cuda.jit(device=True)
def nested(t):
    (a, b), c = t
    return ((a + c, b), (c,))


@kernel
def tuple_work(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        t = (x[i, 0], x[i, 1], x[i, 2])
        lo, hi = minmax3(t[0], t[1], t[2])
        p = nested(((t[0], t[1]), t[2]))
        out[i, 0] = lo
        out[i, 1] = hi
        out[i, 2] = p[0][0] + p[1][0]
        out[i, 3] = t[-1] * len(t) + len(p) + len(p[1])
        a, (b, c) = t[0], (t[1], t[2])
        a, b = b, a
        out[i, 4] = a - b + c


def test_tuples_build_index_unpack_return(rng):
    x = rng.standard_normal((50, 3))
    out = np.zeros((50, 5))
    tuple_work[2, 32](x, out)
    np.testing.assert_array_equal(out[:, 0], x.min(axis=1))
    np.testing.assert_array_equal(out[:, 1], x.max(axis=1))
    np.testing.assert_allclose(out[:, 2], x[:, 0] + 2 * x[:, 2])
    np.testing.assert_allclose(out[:, 3], x[:, 2] * 3 + 2 + 1)
    np.testing.assert_allclose(out[:, 4], x[:, 1] - x[:, 0] + x[:, 2])


@kernel
def tuple_arguments(shape, mixed, empty, out):
    i = cuda.grid(1)
    n, m = shape
    f, (k, arr) = mixed
    if i < out.size:
        out[i] = n * m + f + k * arr[i % arr.size] + len(empty) + len(mixed)


def test_tuple_kernel_arguments(rng):
    arr = rng.standard_normal(7)
    out = np.zeros(40)
    for shape, f, k in [((3, 4), 0.5, 2), ((5, -2), f32(1.25), 7)]:
        tuple_arguments[2, 32](shape, (f, (k, arr)), (), out)
        want = shape[0] * shape[1] + float(f) + k * arr[np.arange(40) % 7] + 0 + 2
        np.testing.assert_allclose(out, want)
    sigs = [s for s in tuple_arguments.signatures]
    assert any("UniTuple(int64, 2)" in s[0] for s in sigs), sigs
    assert any(s[1].startswith("Tuple(float32, Tuple(int64, float64[") for s in sigs), sigs


@kernel
def tuple_of_arrays(arrays, out):
    i = cuda.grid(1)
    if i < out.size:
        s = 0.0
        for a in arrays:
            s += a[i]
        out[i] = s


def test_tuple_of_arrays_argument(rng):
    a, b, c = (rng.standard_normal(33) for _ in range(3))
    out = np.zeros(33)
    tuple_of_arrays[1, 64]((a, b, c), out)
    np.testing.assert_allclose(out, a + b + c)
    d_a = cuda.to_device(a)
    tuple_of_arrays[1, 64]((d_a, b), out)
    np.testing.assert_allclose(out, a + b)


@kernel
def optional_scale(x, out, scale=None, offset=None):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        if scale is not None:
            v = v * scale
        if offset is None:
            out[i] = v
        else:
            out[i] = v + offset


def test_none_arguments(rng):
    x = rng.standard_normal(20)
    out = np.zeros(20)
    optional_scale[1, 32](x, out)
    np.testing.assert_array_equal(out, x)
    optional_scale[1, 32](x, out, None, 1.5)
    np.testing.assert_array_equal(out, x + 1.5)
    optional_scale[1, 32](x, out, 2.0)
    np.testing.assert_array_equal(out, x * 2.0)
    optional_scale[1, 32](x, out, 3, None)
    np.testing.assert_array_equal(out, x * 3)


@kernel
def rgb_gray(img, out):
    i, j = cuda.grid(2)
    if i < img.shape[0] and j < img.shape[1]:
        r, g, b = img[i, j]
        v = 0.299 * r + 0.587 * g + 0.114 * b
        out[i, j] = (v, v, v)


def test_unpack_pixel_and_store_tuple(rng):
    img = rng.random((13, 17, 3)).astype(f32)
    out = np.zeros_like(img)
    rgb_gray[(2, 3), (8, 8)](img, out)
    want = (0.299 * img[..., 0].astype(f64) + 0.587 * img[..., 1] + 0.114 * img[..., 2]).astype(f32)
    for c in range(3):
        np.testing.assert_allclose(out[..., c], want, rtol=1e-6)


@kernel
def lengths(a, b, out):
    t = (1, 2.5, (3, 4))
    out[0] = len(a)
    out[1] = len(b)
    out[2] = len(t)
    out[3] = len(t[2])
    out[4] = len(b[0])


def test_len_of_tuples_and_arrays():
    out = np.zeros(5, i64)
    lengths[1, 1](np.zeros(7), np.zeros((4, 9)), out)
    np.testing.assert_array_equal(out, [7, 4, 3, 2, 9])


# ---------------------------------------------------------- control flow

@kernel
def loops_else(x, out):
    i = cuda.grid(1)
    if i < x.size:
        t = (1, 2.5, x[i])
        u = (1.0, 2.5, x[i])
        s = 0.0
        for v in t:
            s += v
        for k in range(len(u)):
            s += u[k] * k
        for a, b in ((1, 2), (3, 4)):
            s += a * b
        n = int(x[i]) % 5
        j = 0
        while j < n:
            j += 1
            if j == 3:
                break
        else:
            s += 1000
        for k in range(4):
            if k == n:
                break
        else:
            s += 10000
        out[i] = s


def test_for_over_tuples_and_loop_else(rng):
    x = rng.integers(0, 50, 40).astype(f64)
    out = np.zeros(40)
    loops_else[1, 64](x, out)
    want = []
    for v in x:
        t = (1, 2.5, v)
        s = sum(t) + sum(t[k] * k for k in range(3)) + 1 * 2 + 3 * 4
        n = int(v) % 5
        j = 0
        while j < n:
            j += 1
            if j == 3:
                break
        else:
            s += 1000
        for k in range(4):
            if k == n:
                break
        else:
            s += 10000
        want.append(s)
    np.testing.assert_allclose(out, want)


@cuda.jit(device=True)
def sign_of(v):
    if v > 0:
        return 1
    if v < 0:
        return -1
    return 0


@kernel
def early_return(x, out):
    i = cuda.grid(1)
    if i >= x.size:
        return
    out[i] = -5.0
    if x[i] < 0:
        return
    out[i] = (x[i] if x[i] < 0.5 else -x[i]) + sign_of(x[i] - 0.5) * 10


def test_early_return_and_conditional_expressions(rng):
    x = rng.standard_normal(50)
    out = np.zeros(50)
    early_return[1, 64](x, out)
    want = np.where(x < 0, -5.0, np.where(x < 0.5, x, -x) + np.sign(x - 0.5) * 10)
    np.testing.assert_array_equal(out, want)


@kernel
def ifexp_on_a_folded_local(a, out):
    i = cuda.grid(1)
    if i < out.size:
        known = np.isinf(np.int64(i))      # False for every int, but a call: Numba does not prune on it
        out[i] = (0.0 if known else a[i]) // a[i + out.size]


def test_ifexp_on_a_folded_local_is_typed_as_numba_does(rng):
    """A local whose one assignment only folds here (a call) is no constant
    Numba prunes on: the conditional expression is float64, not float32."""
    a = (rng.standard_normal(64) * 1e31).astype(np.float32)
    a[32:] = rng.uniform(0.1, 0.9, 32).astype(np.float32)
    out = np.zeros(32)
    ifexp_on_a_folded_local[1, 32](a, out)
    want = np.float64(a[:32]) // np.float64(a[32:])
    np.testing.assert_array_equal(out, want)


@kernel
def and_or_chains(s, t, u, out):
    i = cuda.grid(1)
    if i < s.size:
        x, y, z = s[i], t[i], u[i]
        a = 1.0 and x            # x: CPython leaves the constant out
        out[i, 0] = a * a
        b = 0.0 or x
        out[i, 1] = b * b
        c = y and 1.0 and z      # y and z: float32
        out[i, 2] = c * c
        d = y and 0.0 and z      # y or 0.0: float64
        out[i, 3] = d * d
        e = y or 2.5 or z        # y or 2.5: float64
        out[i, 4] = e * e
        out[i, 5] = (0 and x) + (x > 0 and y or z)


def test_and_or_chains_take_the_type_numba_sees(rng):
    """`1.0 and x` is x (CPython drops a constant the chain goes on
    after, so Numba types x alone: float32 here, its square rounded to
    float32); a constant that ends the chain stays one of its values."""
    n = 300
    s, t, u = (rng.uniform(-3e3, 3e3, n).astype(f32) for _ in range(3))
    t[::7] = 0
    out = np.zeros((n, 6))
    and_or_chains[(n + 63) // 64, 64](s, t, u, out)
    sq32 = lambda v: f64(f32(v * v))  # noqa: E731
    sq64 = lambda v: f64(v) * f64(v)  # noqa: E731
    for k in range(n):
        x, y, z = s[k], t[k], u[k]
        want = [sq32(x), sq32(x), sq32(y and z), sq64(y and 0.0), sq64(y or 2.5),
                f64(f32((x > 0 and y) or z))]
        assert out[k].tolist() == want, (k, x, y, z)
    assert not np.array_equal(out[:, 0], s.astype(f64) ** 2)   # the float32 square differs


KNOWN_ONE = 1


@kernel
def known_conditions(s, out):
    i = cuda.grid(1)
    if i < s.size:
        x = s[i]
        a = x if abs(-1) > 0 else 2.5        # a call: Numba types both, float64
        out[i, 0] = a * a
        b = x if 1 > 0 else 2.5              # literals: pruned, float32
        out[i, 1] = b * b
        c = x if KNOWN_ONE > 0 else 2.5      # a global constant: pruned
        out[i, 2] = c * c
        if np.float32(1):                    # a call: both branches typed
            d = x
        else:
            d = 2.5
        out[i, 3] = d * d
        e = x if s.ndim == 1 else 2.5        # an argument's ndim: pruned
        out[i, 4] = e * e
        f = abs(-1) and x                    # a call: not dropped, int64 | float32
        out[i, 5] = f * f


def test_known_conditions_numba_does_not_prune_type_both_branches(rng):
    """A condition whose value ptxjit knows but Numba does not know before
    typing (abs(-1) > 0, np.float32(1)) types both branches, as Numba
    does: the variable unifies float32 with float64.  Conditions Numba
    prunes on (literals, global constants, an argument's ndim) type the
    taken branch alone."""
    n = 200
    s = rng.uniform(-3e3, 3e3, n).astype(f32)
    out = np.zeros((n, 6))
    known_conditions[(n + 63) // 64, 64](s, out)
    sq32 = lambda v: f64(f32(v * v))  # noqa: E731
    sq64 = lambda v: f64(v) * f64(v)  # noqa: E731
    for k in range(n):
        x = s[k]
        assert out[k].tolist() == [sq64(x), sq32(x), sq32(x), sq64(x), sq32(x), sq64(x)], (k, x)
    assert not np.array_equal(out[:, 0], out[:, 1])


@cuda.jit(device=True)
def count_call(cnt, v):
    cuda.atomic.add(cnt, 0, 1)
    return v


@kernel
def known_truth_chains(s, cnt, out):
    i = cuda.grid(1)
    if i < s.size:
        x = s[i]
        v = (x or 3) or 2.5                      # always true: 2.5 never typed, int64
        out[i, 0] = v * 4611686018427387904      # wraps as an int64
        w = (count_call(cnt, x) or 3) and 2.5    # never the value, but it runs
        out[i, 1] = w
        if (count_call(cnt, x) and 0) or x > 0:  # always false first part, still runs
            out[i, 2] = 1


def test_chains_of_known_truth_drop_what_follows_but_run():
    """(x or 3) is true whatever x is: in `(x or 3) or y` Numba never types
    y (CPython's jumps skip it), so the chain stays an int64 (its product
    wraps; numba.njit gives the same); in `(f() or 3) and y` the inner
    chain is never the value, but f runs."""
    n = 100
    s = np.arange(-50, 50, dtype=np.int32)
    s[::5] = 0
    cnt = np.zeros(1, np.int64)
    out = np.zeros((n, 3))
    known_truth_chains[(n + 63) // 64, 64](s, cnt, out)
    for k in range(n):
        x = int(s[k])
        wrapped = ((x or 3) * 2**62 + 2**63) % 2**64 - 2**63
        assert out[k].tolist() == [float(wrapped), 2.5, 1.0 if x > 0 else 0.0], (k, x)
    assert cnt[0] == 2 * n


@kernel
def const_product_plus(s, out):
    out[0] = np.float32(-7.0) * (np.float32(65504.0) ** 3) + (-np.float32(1.0))
    y = s[0]
    out[1] = np.float32(-7.0) * y + (-np.float32(1.0))
    out[2] = max(np.float32(-7.0), np.float32(-8.0)) * (np.float32(65504.0) ** 3) + (-np.float32(1.0))


def test_a_product_of_constants_is_rounded_before_the_add():
    """a * b + c contracts into an fma (one rounding), as NVVM does, but
    not when a * b is computed from constants only: LLVM folds that
    product (Numba's and NVRTC's), and so does ptxjit, ** and max()
    included.  The values are chosen so that the two differ in float32."""
    from fractions import Fraction
    x = f32(f32(f32(65504.0) * f32(65504.0)) * f32(65504.0))     # ** 3: two roundings
    out = np.zeros(3)
    const_product_plus[1, 1](np.array([x], f32), out)
    rounded = f64(f32(f32(f32(-7.0) * x) + f32(-1.0)))
    fused = f64(f32(float(Fraction(-7) * Fraction(float(x)) - 1)))
    assert rounded != fused
    assert out.tolist() == [rounded, fused, rounded]


def isinstance_table(a, x, out):
    i = cuda.grid(1)
    if i < a.size:
        v = a[i]
        out[i, 0] = isinstance(v, int)
        out[i, 1] = isinstance(v, float)
        out[i, 2] = isinstance(v, np.float32)
        out[i, 3] = isinstance(x, (np.int64, float))
        out[i, 4] = isinstance(i, int)
        out[i, 5] = isinstance(a, float)
        out[i, 6] = isinstance(v > 0, bool)
        out[i, 7] = isinstance(v * 1j, complex)
        if isinstance(v, float):
            out[i, 8] = v * 2        # typed only where v is a float64
        else:
            out[i, 8] = -1


def isinstance_of_range(a):
    a[0] = isinstance(a[0], range)


def test_isinstance_is_decided_by_the_types(rng):
    """isinstance() is decided when the kernel is typed, as Numba decides
    it: the class's type must be the value's (int is int64, float float64,
    so a float32 is no float), and the branch not taken is not compiled."""
    k = cuda.jit(isinstance_table)
    rows = {np.float32: (2.5, [0, 0, 1, 1, 1, 0, 1, 1]),
            np.float64: (3, [0, 1, 0, 1, 1, 0, 1, 1]),
            np.int64: (np.float32(1.0), [1, 0, 0, 0, 1, 0, 1, 1])}
    for dt, (x, row) in rows.items():
        a = (rng.random(64) * 100).astype(dt)
        out = np.zeros((64, 9), np.float64)
        k[1, 64](a, x, out)
        assert (out[:, :8] == row).all(), (dt, out[0])
        assert out[:, 8].tolist() == (a * 2.0 if dt == np.float64 else np.full(64, -1.0)).tolist()
    with pytest.raises(TypingError, match=r"isinstance\(\) takes a number type"):
        cuda.jit("void(float32[::1])")(isinstance_of_range)


def tuple_builtin(a, out):
    i = cuda.grid(1)
    if i < a.size:
        t = tuple((a[i], a[i] * 2, 3))
        s = 0.0
        for v in tuple(t):
            s += v
        out[i, 0] = s
        out[i, 1] = len(tuple())
        out[i, 2] = isinstance(t, tuple)
        out[i, 3] = isinstance(s, (tuple, float))
        out[i, 4] = isinstance(a[i], tuple)


def test_tuple_builtin_and_isinstance_of_tuple(rng):
    """tuple() is the empty tuple, tuple(t) of a tuple is t (Numba takes
    no other iterable there); isinstance(x, tuple) is true of any tuple."""
    a = rng.random(32)
    out = np.zeros((32, 5))
    cuda.jit(tuple_builtin)[1, 32](a, out)
    assert out[:, 0].tolist() == (a + a * 2 + 3).tolist()
    assert (out[:, 1:] == [0, 1, 1, 0]).all()


INT_KINDS = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)


def float_to_ints(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = np.int8(v)
        out[i, 1] = np.uint8(v)
        out[i, 2] = np.int16(v)
        out[i, 3] = np.uint16(v)
        out[i, 4] = np.int32(v)
        out[i, 5] = np.uint32(v)
        out[i, 6] = np.int64(v)
        out[i, 7] = np.uint64(v)


def cvt_reference(v, kind, source):
    """The GPU's cvt.rzi (measured on an H200): truncation, saturation (the
    8-bit kinds to 16 bits, then the low byte); a NaN gives 2^63 for the
    64-bit kinds, 2^(bits - 1) for the 16- and 32-bit ones from a float64
    (0 for the 8-bit ones: the low byte of 0x8000), else 0."""
    info = np.iinfo(kind)
    if math.isnan(v):
        if info.bits == 64 or (source == np.float64 and info.bits > 8):
            return 1 << (info.bits - 1)
        return 0
    bits = max(info.bits, 16)
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if info.min else (0, (1 << bits) - 1)
    r = min(max(math.trunc(max(min(v, 1e300), -1e300)), lo), hi)
    return r % (1 << info.bits)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_float_to_int_conversions_saturate_and_nan(rng, dt):
    """Every float -> integer conversion, on the special values too, gives
    the GPU's answer on the simulator and the GPU alike."""
    x = np.concatenate([[np.nan, -np.nan, np.inf, -np.inf, 1e30, -1e30, 2.0 ** 63, 2.0 ** 64, -0.0, 300.7, -300.7],
                        rng.standard_normal(53) * 10.0 ** rng.integers(0, 20, 53)]).astype(dt)
    out = np.zeros((x.size, 8), np.uint64)
    cuda.jit(float_to_ints)[1, 64](x, out)
    for c, kind in enumerate(INT_KINDS):
        want = [cvt_reference(float(v), kind, dt) for v in x]
        got = [int(g) % (1 << np.iinfo(kind).bits) for g in out[:, c]]
        assert got == want, (np.dtype(kind).name, [(float(v), g, w) for v, g, w in zip(x, got, want) if g != w][:4])


# ------------------------------------------------------ integer semantics

@kernel
def int_ops(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x, y = a[i], b[i]
        q, r = divmod(x, y)
        out[i, 0] = q
        out[i, 1] = r
        out[i, 2] = x // y
        out[i, 3] = x % y
        out[i, 4] = pow(x % 7, 3)
        out[i, 5] = (x % 5) ** 2
        out[i, 6] = bool(x % 3)
        out[i, 7] = x < 2.5 * y
        out[i, 8] = round(x / 4)
        out[i, 9] = abs(x)


def test_integer_semantics(rng):
    a = rng.integers(-1000, 1000, 200)
    b = rng.integers(-30, 30, 200)
    b[b == 0] = 7
    out = np.zeros((200, 10), i64)
    int_ops[4, 64](a, b, out)
    for k, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        want = [*divmod(x, y), x // y, x % y, pow(x % 7, 3), (x % 5) ** 2, bool(x % 3), x < 2.5 * y,
                round(x / 4), abs(x)]
        assert out[k].tolist() == want, (x, y)


@kernel
def int_zero_div(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]


def test_integer_division_by_zero_gives_zero():
    a = np.array([5, -5, 0], i64)
    out = np.ones((3, 2), i64)
    int_zero_div[1, 4](a, np.zeros(3, i64), out)
    np.testing.assert_array_equal(out, 0)


@kernel
def wrapping(a, out8, out32, out64):
    i = cuda.grid(1)
    if i < a.size:
        out8[i] = a[i]                       # stored: wraps to int8
        out32[i] = np.int32(a[i]) * np.int32(3)   # int32 * int32 -> int64
        big = np.int64(9223372036854775807)
        out64[i] = big + a[i]                # wraps like int64
        out64[i + a.size] = np.int8(a[i]) + np.uint8(200)


def test_fixed_width_integers_wrap_like_numpy(rng):
    a = rng.integers(-2 ** 20, 2 ** 20, 40)
    out8 = np.zeros(40, i8)
    out32 = np.zeros(40, i32)
    out64 = np.zeros(80, i64)
    wrapping[1, 64](a, out8, out32, out64)
    np.testing.assert_array_equal(out8, a.astype(i8))
    np.testing.assert_array_equal(out32, (a.astype(i32).astype(i64) * 3).astype(i32))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out64[:40], np.int64(2 ** 63 - 1) + a)
    np.testing.assert_array_equal(out64[40:], a.astype(i8).astype(i64) + 200)


# NumPy scalars read from the module have their NumPy type, as in Numba
SCALE32 = np.float32(1.1)
HALF_U64 = np.uint64(2 ** 63 + 5)
STEP16 = np.int16(300)
FLAGS = (np.uint8(7), np.float32(0.1))


@kernel
def numpy_scalar_globals(x, u, out32, outu, out16, outt):
    i = cuda.grid(1)
    if i < x.size:
        out32[i] = x[i] * SCALE32 * SCALE32 * SCALE32   # float32 throughout
        outu[i] = u[i] // HALF_U64 + u[i] % HALF_U64
        out16[i] = np.int16(x[i]) * STEP16   # int16 * int16: int64, stored to int16
        outt[i] = FLAGS[0] * FLAGS[1] * x[i]


def test_numpy_scalar_globals_keep_their_type(rng):
    n = 200
    x = (rng.standard_normal(n) * 100).astype(f32)
    u = rng.integers(0, 2 ** 64 - 1, n, dtype=u64, endpoint=True)
    out32, outu, out16, outt = (np.zeros(n, f32), np.zeros(n, u64), np.zeros(n, np.int16),
                                np.zeros(n, f32))
    numpy_scalar_globals[1, 256](x, u, out32, outu, out16, outt)
    # each product rounded to float32 (in float64, rounded once at the end, some differ)
    assert np.array_equal(bits32(out32), bits32(x * SCALE32 * SCALE32 * SCALE32))
    assert not np.array_equal(bits32(out32), bits32((x.astype(f64) * f64(SCALE32) ** 3).astype(f32)))
    np.testing.assert_array_equal(outu, u // HALF_U64 + u % HALF_U64)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out16, (x.astype(np.int16).astype(i64) * 300).astype(np.int16))
    assert np.array_equal(bits32(outt), bits32(f32(f32(7) * f32(0.1)) * x))


# ---------------------------------------------------- float // and % exact

@kernel
def float_divmod(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]
        q, r = divmod(a[i], b[i])
        out[i, 2] = q
        out[i, 3] = r


@kernel
def float32_divmod(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]


def py_floordiv_mod(x, y):
    """Python's float // and %, with Numba's answers for a zero divisor."""
    if y == 0:
        with np.errstate(all="ignore"):
            return float(np.float64(x) / np.float64(y)), math.nan
    return x // y, x % y


def special_pairs(rng, n):
    specials = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e300, -1e300, 1e-300, 5e-324, -5e-324,
                math.inf, -math.inf, math.nan, 2.0 ** 52, 7.0, -7.0, 1e16 + 2, 0.1]
    a = np.concatenate([rng.standard_normal(n) * 10.0 ** rng.integers(-8, 9, n),
                        rng.integers(-50, 50, n).astype(f64),
                        np.repeat(specials, len(specials))])
    b = np.concatenate([rng.standard_normal(n) * 10.0 ** rng.integers(-8, 9, n),
                        rng.integers(-9, 9, n).astype(f64),
                        np.tile(specials, len(specials))])
    return a, b


def test_float_floordiv_mod_exactly_as_python(rng):
    a, b = special_pairs(rng, 600)
    out = np.zeros((a.size, 4))
    float_divmod[(a.size + 127) // 128, 128](a, b, out)
    want = np.array([py_floordiv_mod(x, y) for x, y in zip(a.tolist(), b.tolist())])
    np.testing.assert_array_equal(bits(out[:, 0]), bits(want[:, 0]))
    np.testing.assert_array_equal(bits(out[:, 1]), bits(want[:, 1]))
    np.testing.assert_array_equal(bits(out[:, 2]), bits(want[:, 0]))
    np.testing.assert_array_equal(bits(out[:, 3]), bits(want[:, 1]))


def f32_floordiv_mod(x, y):
    """CPython's float_divmod computed in float32, as Numba does for float32."""
    x, y = f32(x), f32(y)
    with np.errstate(all="ignore"):
        if y == 0:
            return x / y, f32(np.nan)
        mod = np.fmod(x, y)
        div = (x - mod) / y
        if mod:
            if (y < 0) != (mod < 0):
                mod = mod + y
                div = div - f32(1)
        else:
            mod = np.copysign(f32(0), y)
        if div:
            fd = np.floor(div)
            if div - fd > f32(0.5):
                fd = fd + f32(1)
        else:
            fd = np.copysign(f32(0), x / y)
    return fd, mod


def test_float32_floordiv_mod(rng):
    a, b = special_pairs(rng, 300)
    with np.errstate(over="ignore"):
        a, b = a.astype(f32), b.astype(f32)
    out = np.zeros((a.size, 2), f32)
    float32_divmod[(a.size + 127) // 128, 128](a, b, out)
    want = np.array([f32_floordiv_mod(x, y) for x, y in zip(a, b)], dtype=f32)
    np.testing.assert_array_equal(bits32(out), bits32(want))


@kernel
def float_mod_constants(out):
    out[0] = 7.5 // 2.0
    out[1] = -7.5 % 2.0
    out[2] = 1e300 % 3.0
    out[3] = -0.0 % 5.0


def test_float_mod_folded_at_compile_time():
    out = np.zeros(4)
    float_mod_constants[1, 1](out)
    np.testing.assert_array_equal(bits(out), bits([7.5 // 2.0, -7.5 % 2.0, 1e300 % 3.0, -0.0 % 5.0]))


# ------------------------------------------------------------------ round

@kernel
def rounding(x, nd, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = round(x[i])
        out[i, 1] = round(x[i], 0)
        out[i, 2] = round(x[i], 2)
        out[i, 3] = round(x[i], -1)
        out[i, 4] = round(x[i], nd[i])
        out[i, 5] = round(np.float32(x[i]), 3)


def test_round_with_digits_as_cpython(rng):
    n = 400
    x = np.concatenate([rng.standard_normal(n) * 10.0 ** rng.integers(-3, 6, n),
                        np.round(rng.standard_normal(n) * 1000) / 1000 + 0.0005,
                        rng.integers(-100, 100, n) + 0.5,
                        [0.0, -0.0, 2.675, 1.005, 0.125, 0.375, -2.5, 1e300, -1e-300, math.inf, math.nan,
                         1e22, 123456789.125, 5e-324]])
    nd = rng.integers(-4, 9, x.size)
    out = np.zeros((x.size, 6))
    rounding[(x.size + 127) // 128, 128](x, nd, out)
    xs = x.tolist()
    finite = np.abs(x) < 2.0 ** 63
    want0 = [round(v) if abs(v) < 2.0 ** 63 else 0 for v in xs]
    np.testing.assert_array_equal(out[finite, 0], np.array(want0, f64)[finite])
    for col, digits in ((1, [0] * x.size), (2, [2] * x.size), (3, [-1] * x.size), (4, nd.tolist())):
        want = [round(v, d) for v, d in zip(xs, digits)]
        np.testing.assert_array_equal(bits(out[:, col]), bits(want), err_msg="column %d" % col)
    with np.errstate(over="ignore"):
        want5 = [f32(round(float(f32(v)), 3)) for v in xs]
    np.testing.assert_array_equal(bits32(out[:, 5].astype(f32)), bits32(want5))


# ---------------------------------------------------------------- complex

def _fma(x, y, z):
    """x * y + z rounded once (float() of a Fraction rounds correctly)."""
    try:
        return float(Fraction(x) * Fraction(y) + Fraction(z))
    except OverflowError:
        return math.copysign(math.inf, x * y)


def _fused_product(z, w):
    """z * w as Numba's GPU code rounds it (DESIGN.md, fused multiply-add):
    ac - bd with ac fused, ad + bc with bc fused."""
    return complex(_fma(z.real, w.real, -(z.imag * w.imag)), _fma(z.imag, w.real, z.real * w.imag))


@kernel
def complex_ops(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        z, w = a[i], b[i]
        out[i, 0] = z / w
        out[i, 1] = z * w - w
        out[i, 2] = complex(abs(z), 0)
        out[i, 3] = z.conjugate()
        out[i, 4] = complex(z.real, -z.imag) + 1j * w.imag
        out[i, 5] = z ** 3
        out[i, 6] = w ** -2


def test_complex_arithmetic_as_python(rng):
    n = 300
    a = rng.standard_normal(n) * 10.0 ** rng.integers(-150, 150, n) + 1j * rng.standard_normal(n)
    b = rng.standard_normal(n) + 1j * rng.standard_normal(n) * 10.0 ** rng.integers(-150, 150, n)
    b[:5] = [1e-310 + 1e-310j, 0j, 3 + 0j, 1j, -4e300 + 2e300j]
    out = np.zeros((n, 7), c128)
    complex_ops[(n + 127) // 128, 128](a, b, out)
    for k, (z, w) in enumerate(zip(a.tolist(), b.tolist())):
        if w != 0:
            d = z / w
            assert (out[k, 0].real, out[k, 0].imag) == (d.real, d.imag), (z, w)
        else:
            assert np.isnan(out[k, 0].real) and np.isnan(out[k, 0].imag)
        m = _fused_product(z, w) - w
        assert out[k, 1] == m, (z, w)
        assert out[k, 2].real == pytest.approx(abs(z), rel=4e-16)
        assert out[k, 3] == z.conjugate()
        assert out[k, 4] == complex(z.real, -z.imag) + 1j * w.imag
        try:
            c, p = z ** 3, w ** -2
        except (ZeroDivisionError, OverflowError):
            continue
        assert out[k, 5] == pytest.approx(c, rel=1e-14)
        assert out[k, 6] == pytest.approx(p, rel=1e-14, nan_ok=True)


@kernel
def complex64_ops(a, out):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i]
        out[i] = z * z.conjugate() + z / (z + 1) - abs(z)
        re = out[i].real
        out[i] = out[i] + re * 1j


def test_complex64_arrays(rng):
    a = (rng.standard_normal(64) + 1j * rng.standard_normal(64)).astype(c64)
    out = np.zeros(64, c64)
    complex64_ops[1, 64](a, out)
    want = a * a.conj() + a / (a + 1) - np.abs(a)
    want = want + want.real * 1j
    np.testing.assert_allclose(out, want, rtol=2e-6)


# ------------------------------------------------------------------ print

@kernel
def printer(x, n):
    i = cuda.grid(1)
    if i < x.size:
        print("thread", i, "x =", x[i], n[i], i % 2 == 0, (i, (x[i], True)), np.uint32(7), "100%")


def test_print_formats_like_numba(capfd):
    x = np.array([1.5, -0.25, 3.0], f32)
    n = np.array([-3, 0, 1 << 40], i64)
    printer[1, 3](x, n)
    cuda.synchronize()
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == sorted([
        "thread 0 x = 1.500000 -3 True (0, (1.500000, True)) 7 100%",
        "thread 1 x = -0.250000 0 False (1, (-0.250000, True)) 7 100%",
        "thread 2 x = 3.000000 1099511627776 True (2, (3.000000, True)) 7 100%",
    ])


@kernel
def printer_one(n):
    i = cuda.grid(1)
    if i < n.size:
        print((n[i],), (1, ((2, n[i]), 3.0), (n[i],), 5))


def test_print_one_element_tuples_like_python(capfd, rng):
    n = rng.integers(-1000, 1000, size=3)
    printer_one[1, 3](n)
    cuda.synchronize()
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == sorted("(%d,) (1, ((2, %d), 3.000000), (%d,), 5)" % (v, v, v) for v in n)


# -------------------------------------------------------- assert and raise

class KernelSaysNo(Exception):
    pass


@kernel(debug=True)
def checked(x, out):
    i = cuda.grid(1)
    if i < x.size:
        assert x[i] >= 0, "negative input"
        if x[i] > 100:
            raise ValueError("too large")
        if x[i] == 42:
            raise KernelSaysNo("the answer")
        out[i] = 2 * x[i]


@kernel
def unchecked(x, out):
    i = cuda.grid(1)
    if i < x.size:
        assert x[i] >= 0, "negative input"
        out[i] = 2 * x[i]


def test_assert_and_raise_under_debug():
    out = np.zeros(8)
    x = np.arange(8.0)
    checked[1, 8](x, out)
    np.testing.assert_array_equal(out, 2 * x)
    x[5] = -1
    with pytest.raises(AssertionError) as e:
        checked[1, 8](x, out)
    msg = str(e.value)
    assert "negative input" in msg and "tid=[5, 0, 0]" in msg and "ctaid=[0, 0, 0]" in msg
    assert "In function 'checked'" in msg and "line" in msg
    x[5] = 1000
    with pytest.raises(ValueError, match="too large"):
        checked[1, 8](x, out)
    x[5] = 42
    with pytest.raises(KernelSaysNo, match="the answer"):
        checked[1, 8](x, out)
    x[5] = 1
    checked[1, 8](x, out)


def test_assert_without_debug_does_nothing():
    x = np.array([1.0, -1.0, 2.0])
    out = np.zeros(3)
    unchecked[1, 3](x, out)
    np.testing.assert_array_equal(out, 2 * x)


# --------------------------------------------------------------- catalogue

def test_py_semantics(load, rng):
    mod = load("py_semantics")
    a, b = special_pairs(rng, 200)
    out = np.zeros((a.size, 4))
    mod.float_divmod[(a.size + 127) // 128, 128](a, b, out)
    want = np.array([py_floordiv_mod(x, y) for x, y in zip(a.tolist(), b.tolist())])
    np.testing.assert_array_equal(bits(out[:, :2]), bits(want))
    x = rng.standard_normal(100) * 1000
    r = np.zeros((100, 4))
    mod.rounding[1, 128](x, r)
    want = [[round(v), round(v, 2), round(v, -1), round(v, k % 5)] for k, v in enumerate(x.tolist())]
    np.testing.assert_array_equal(bits(r), bits(want))
    v = np.arange(30, dtype=i64)
    lo = np.zeros((30, 2), i64)
    mod.loops[1, 32](v, lo)
    for k in range(30):
        s = 1 + 2 + k + (0 * 1 + 1 * 2 + 2 * k) + 1000 + (10000 if k % 3 >= 5 else 0)
        assert lo[k, 1] == k % 7
        assert lo[k, 0] == s


def test_tuple_args(load, rng):
    mod = load("tuple_args")
    arr = rng.standard_normal(5)
    out = np.zeros(20)
    mod.tuple_arg[1, 32]((2, 3), (f32(0.5), (4, arr)), out)
    np.testing.assert_allclose(out, 6 + 0.5 + 4 + arr[np.arange(20) % 5] + 2)
    mod.optional[1, 32](out)
    np.testing.assert_array_equal(out, np.arange(20.0))
    mod.optional[1, 32](out, 0.5)
    np.testing.assert_array_equal(out, np.arange(20.0) * 0.5)


def test_print_kernel(load, capfd):
    mod = load("print_kernel")
    mod.show[1, 2](np.array([0.5, 2.0], f32), np.array([3, -4], i32))
    cuda.synchronize()
    out = capfd.readouterr().out.splitlines()
    assert "thread 0 x = 0.500000 n = 3 True (0, 0.500000) 200 100%" in out
    assert "thread 1 x = 2.000000 n = -4 False (1, 2.000000) 200 100%" in out
    assert "" in out and "(1.000000+2.000000j) None" in out


# -------------------------------------------------------------------- PTX

def test_ptx_assembles():
    """Every kernel above, as compiled for this run, is valid PTX for ptxas."""
    assert_ptx_assembles(KERNELS, 10)


def test_complex_constant_conditions():
    """`if 1j:` and `while 0j:` are decided by the constant's truth, as in
    Python; lowering agrees with sema, which types only the branch taken."""

    @cuda.jit
    def k(a):
        if 1j:
            a[0] = 1
        else:
            a[0] = 2
        while 0j:
            a[1] = 5
        a[2] = 3 if 0j else 4

    a = np.zeros(3, f32)
    k[1, 1](a)
    np.testing.assert_array_equal(a, [1, 0, 4])

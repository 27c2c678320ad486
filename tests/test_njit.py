"""@njit / @jit(nopython=True): native CPU code compared with plain Python.

Every function here is run twice, compiled and as its Python original
(.py_func), on random inputs; the results must agree (exactly for ints
and for floats computed the same way, since neither side contracts
multiplies into fmas).  Needs a C compiler; without one the functions
run on the interpreter, which these tests also accept.
"""

import math

import numpy as np
import pytest

import ptxjit
from ptxjit import jit, njit

rng = np.random.default_rng(8)


def same(a, b):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape, (a.shape, b.shape)
        assert a.dtype == b.dtype, (a.dtype, b.dtype)
        np.testing.assert_array_equal(a, b)
    elif isinstance(b, float) and math.isnan(b):
        assert math.isnan(a)
    else:
        assert a == b, (a, b)
        assert isinstance(a, (bool, int, float, complex)), type(a)   # Python scalars, as Numba returns


def check(f, *args):
    got = f(*args)
    want = f.py_func(*args)
    same(got, want)
    return got


# ---------------------------------------------------------------- scalars

@njit
def arith(a, b):
    x = a * b + 3
    y = x // 7 - x % 5
    if y > 10:
        y = -y
    return y + (a << 2) - (b >> 1)


@njit
def floats(x, y):
    return math.sqrt(abs(x)) + x / (y * y + 1.0) - math.floor(y) + min(x, y) * max(x, 2.5)


@njit
def loops(n):
    s = 0
    i = 0
    while i < n:
        if i % 3 == 0:
            i += 1
            continue
        for j in range(i, n, 2):
            s += i * j
            if s > 10 ** 9:
                break
        i += 1
    return s


def test_scalars_match_python():
    for _ in range(20):
        a, b = (int(v) for v in rng.integers(-1000, 1000, 2))
        check(arith, a, b)
        x, y = (float(v) for v in rng.normal(0, 10, 2))
        check(floats, x, y)
    for n in (0, 1, 5, 37, 200):
        check(loops, n)


@njit
def unsigned_abs(a):
    return abs(np.uint64(a)), abs(np.uint32(a)), abs(np.uint16(a)), abs(np.uint8(a)), abs(np.int8(a))


def test_abs_of_unsigned_is_the_value():
    """abs() of an unsigned integer is the integer itself (the C back end
    once took the sign of its bits: abs(np.uint64(-1)) was 1)."""
    for a in (-1, -200, 5, 2**40 + 3, -(2**63), -128):
        i8 = abs(((a % 256) + 128) % 256 - 128)
        want = (a % 2**64, a % 2**32, a % 2**16, a % 256, i8 - 256 if i8 > 127 else i8)   # int8 wraps
        assert unsigned_abs(np.int64(a)) == want, a


# ------------------------------------------------------ returning tuples

@njit
def divmod_pair(a, b):
    return a // b, a % b, a / b


@njit
def stats(a):
    lo = a[0]
    hi = a[0]
    s = 0.0
    for i in range(a.shape[0]):
        lo = min(lo, a[i])
        hi = max(hi, a[i])
        s += a[i]
    return (lo, hi), s / a.shape[0]


def test_tuples():
    for _ in range(10):
        a, b = int(rng.integers(-100, 100)), int(rng.integers(1, 30))
        check(divmod_pair, a, b)
    check(stats, rng.normal(size=57))


# ---------------------------------------------------------- making arrays

@njit
def make(n, m):
    a = np.empty((n, m))
    z = np.zeros(n, dtype=np.int32)
    o = np.ones((m, n), np.float32)
    for i in range(n):
        z[i] = i * i
        for j in range(m):
            a[i, j] = i - j * 0.5
    return a, z, o


@njit
def likes(x):
    e = np.empty_like(x)
    z = np.zeros_like(x)
    o = np.ones_like(x)
    for i in range(x.shape[0]):
        e[i] = x[i] * 2
    return e, z, o


@njit
def copies(x):
    c = np.copy(x)
    d = x.copy()
    c[0, 0] = -1.0
    return c, d


@njit
def ranges(n, start, step):
    return np.arange(n), np.arange(start, n), np.arange(start, n, step), np.arange(0.5, n, 0.25)


def test_array_creation():
    r = check(make, 7, 5)
    assert r[0].flags.c_contiguous and r[0].flags.owndata is False   # owned through its base
    check(copies, rng.normal(size=(4, 6)))
    check(copies, rng.normal(size=(6, 4)).T)          # a strided (F) source
    check(copies, rng.normal(size=(6, 8))[::2, 1::3])  # a strided (A) source
    for n, start, step in ((10, 2, 3), (0, 0, 1), (5, 9, -2), (20, -3, 7)):
        check(ranges, n, start, step)


def test_likes_keep_dtype():
    x = rng.integers(-50, 50, size=13).astype(np.int16)
    e, z, o = likes(x)
    assert e.dtype == np.int16 and o.dtype == np.int16
    np.testing.assert_array_equal(e, (x * 2).astype(np.int16))
    assert not z.any() and (o == 1).all()


def test_returned_arrays_own_their_memory():
    import gc
    import weakref
    a, z, o = make(3, 4)
    base = a.base
    while getattr(base, "base", None) is not None and not isinstance(base, ptxjit._core.CpuView):
        base = base.base
    del z, o
    gc.collect()
    assert a.sum() == make.py_func(3, 4)[0].sum()
    # many calls do not grow the process: every block is freed or owned
    for _ in range(2000):
        make(50, 50)
    w = weakref.ref(a)
    del a
    gc.collect()
    assert w() is None


def test_returning_an_argument():
    @njit
    def same_array(x):
        x[0] = 5
        return x

    x = np.zeros(4)
    y = same_array(x)
    assert y[0] == 5 and x[0] == 5
    y[1] = 7
    assert x[1] == 7          # a view of the argument, not a copy


# --------------------------------------------------------------- seed 002

@jit(nopython=True)
def cpu_matrix_mult(A, B):
    C = np.zeros_like(A)
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]
    return C


@jit(nopython=True)
def cpu_fibonacci(n):
    if n <= 1:
        return n
    else:
        return cpu_fibonacci(n - 1) + cpu_fibonacci(n - 2)


@jit(nopython=True)
def cpu_grayscale(image_data):
    result = np.copy(image_data)
    for i in range(result.shape[0]):
        for j in range(result.shape[1]):
            r, g, b = image_data[i, j]
            gray = int(0.2989 * r + 0.5870 * g + 0.1140 * b)
            result[i, j] = (gray, gray, gray)
    return result


def test_seed_functions():
    A = rng.random((23, 23))
    check(cpu_matrix_mult, A, A)
    np.testing.assert_allclose(cpu_matrix_mult(A, A), A @ A, rtol=1e-9)
    for n in range(15):
        check(cpu_fibonacci, n)
    img = rng.integers(0, 256, (9, 11, 3), dtype=np.uint8)
    check(cpu_grayscale, img)


# ------------------------------------------------ calls between functions

@njit
def square(x):
    return x * x


@njit
def hyp(a, b):
    return math.sqrt(square(a) + square(b))


@njit
def ackermann_like(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann_like(m - 1, 1)
    return ackermann_like(m - 1, ackermann_like(m, n - 1))


@njit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@njit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def test_calls_and_recursion():
    check(hyp, 3.0, 4.0)
    check(hyp, 3, 4)
    for m in range(3):
        for n in range(4):
            check(ackermann_like, m, n)
    for n in range(12):
        check(is_even, n)


# ------------------------------------------------------------ options

def test_boundscheck_raises_index_error_with_line():
    @njit(boundscheck=True)
    def get(a, i):
        return a[i]

    a = np.arange(5.0)
    assert get(a, 4) == 4.0 and get(a, -1) == 4.0
    with pytest.raises(IndexError) as info:
        get(a, 5)
    msg = str(info.value)
    assert "out of bounds" in msg and "test_njit.py" in msg, msg


def test_assert_and_raise():
    @njit
    def checked(x):
        assert x >= 0, "x must not be negative"
        if x > 100:
            raise ValueError("too large")
        return x + 1

    assert checked(3) == 4
    with pytest.raises(AssertionError, match="x must not be negative"):
        checked(-1)
    with pytest.raises(ValueError, match="too large"):
        checked(101)


def test_eager_signature_converts_arguments():
    @njit("float64(float64, int64)")
    def mix(x, n):
        return x * n

    assert mix(2.5, 4) == 10.0
    assert mix(2, 3) == 6.0           # the int converts to the declared float64
    assert mix.signatures == [("float64", "int64")]


def test_object_mode_is_refused():
    with pytest.raises(NotImplementedError, match="object mode"):
        jit(nopython=False)(lambda x: x)
    with pytest.raises(NotImplementedError, match="object mode"):
        jit(forceobj=True)


def test_cuda_intrinsics_are_refused():
    from ptxjit import cuda

    @njit
    def bad(a):
        a[0] = cuda.threadIdx.x

    with pytest.raises(Exception) as info:
        bad(np.zeros(3, np.int32))
    assert "only in CUDA kernels" in str(info.value)
    assert type(info.value).__name__ == "TypingError"


def test_cache_reuses_the_shared_object(tmp_path, monkeypatch):
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(tmp_path))

    @njit(cache=True)
    def cached(a):
        return a.sum() if False else a[0] + 1

    assert cached(np.ones(3)) == 2.0
    files = list((tmp_path / "cpu").glob("*.so"))
    if not files:
        pytest.skip("no C compiler: nothing is cached")
    stamp = files[0].stat().st_mtime_ns

    @njit(cache=True)
    def cached(a):  # noqa: F811  (the same source again: same key)
        return a.sum() if False else a[0] + 1

    assert cached(np.ones(3)) == 2.0
    assert list((tmp_path / "cpu").glob("*.so")) == files
    assert files[0].stat().st_mtime_ns == stamp


def test_fastmath_and_nogil_compile_and_agree():
    @njit(fastmath=True, nogil=True)
    def total(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s

    a = rng.random(1000)
    assert abs(total(a) - a.sum()) < 1e-9


def test_many_calls_with_three_arrays(rng):
    # the call path bench/bench_cpu.py times: arguments read right every time
    @njit
    def three(a, b, c):
        return a[0] + b[1] * c[2]

    a, b, c = rng.random(3), rng.random(3), rng.random(3)
    for _ in range(2000):
        assert three(a, b, c) == a[0] + b[1] * c[2]
    b[1] = 7.5
    assert three(a, b, c) == a[0] + 7.5 * c[2]


def test_without_a_c_compiler_the_interpreter_runs_it(monkeypatch):
    import ptxjit.cpu as cpu
    monkeypatch.setattr(cpu, "_cc_info", ())
    monkeypatch.setattr(cpu, "_warned", False)

    @njit
    def sumsq(a):
        t = 0.0
        for i in range(a.shape[0]):
            t += a[i] * a[i]
        return t, a.shape[0]

    a = rng.random(100)
    with pytest.warns(RuntimeWarning, match="no C compiler"):
        got = sumsq(a)
    same(got, sumsq.py_func(a))
    assert not next(iter(sumsq.overloads.values())).native

    @njit
    def makes(n):
        a = np.zeros(n)
        for i in range(n):
            a[i] = 2 * i
        return a

    got = makes(5)       # allocation on the interpreter too (tests/test_njit_nocc.py runs them all)
    np.testing.assert_array_equal(got, np.arange(5) * 2.0)
    assert not next(iter(makes.overloads.values())).native


@njit
def elements(a):
    s = 0
    n = 0
    for x in a:
        s += x * x
        n += 1
    return s, n


@njit
def weighted(m):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            s += m[i, j] * (i + 1) - j
    return s


@njit
def fill_in(a, z):
    a[0] = z * z + 1


def test_element_loops_layouts_and_kinds():
    check(elements, rng.integers(-9, 9, 17))
    check(elements, rng.random(12))
    m = rng.random((6, 8))
    for x in (m, m.T, m[::2, ::3], np.asfortranarray(m)):
        check(weighted, x)
    assert len(weighted.signatures) == 3           # C, F and A layouts
    a = np.zeros(2, np.complex128)
    assert fill_in(a, 1 + 2j) is None
    assert a[0] == (1 + 2j) ** 2 + 1


# ------------------------------------------------- division by zero, floor

@njit
def _ops_by(a, b):
    return a / b, a // b, a % b, divmod(a, b)


@njit
def _one_op(a, b, k):
    if k == 0:
        return a / b
    if k == 1:
        return a // b
    if k == 2:
        return a % b
    return divmod(a, b)[0] + 0 * a


@njit(error_model="numpy")
def _numpy_ops(a, b):
    return a / b, a // b, a % b, divmod(a, b)


# Numba's messages (CPython 3.11 says "integer division or modulo by zero"
# for both // and %); float division by zero is "division by zero" there too
_NUMBA_MESSAGE = {(0, int): "division by zero", (1, int): "integer division by zero",
                  (2, int): "integer modulo by zero", (3, int): "integer divmod by zero",
                  (0, float): "division by zero", (1, float): "division by zero",
                  (2, float): "modulo by zero", (3, float): "modulo by zero"}


def test_division_by_zero_raises_as_python():
    """/, //, % and divmod by zero raise ZeroDivisionError with Python's
    messages (Numba's error_model='python'); non-zero divisors agree with
    Python on random operands."""
    for a, b in zip(rng.integers(-1000, 1000, 20).tolist(), rng.integers(1, 50, 20).tolist()):
        check(_ops_by, a, b)
        check(_ops_by, a, -b)
        check(_ops_by, a * 0.37, b * 0.5)
    for a in [7, -7, 7.5, -0.25]:
        zero = 0.0 if isinstance(a, float) else 0
        for k in range(4):
            with pytest.raises(ZeroDivisionError):
                [lambda: a / zero, lambda: a // zero, lambda: a % zero, lambda: divmod(a, zero)][k]()
            with pytest.raises(ZeroDivisionError, match="^" + _NUMBA_MESSAGE[k, type(a)]):
                _one_op(a, zero, k)
    with pytest.raises(ZeroDivisionError, match="^integer modulo by zero"):
        _one_op(np.uint64(7), np.uint64(0), 2)
    with pytest.raises(ZeroDivisionError, match="^division by zero"):
        _one_op(3, 0, 0)             # int / int is a float division


def test_error_model_numpy_gives_numpys_values():
    with np.errstate(all="ignore"):
        for a in [7, -7, 0]:
            got = _numpy_ops(a, 0)
            assert got[1:3] == (0, 0) and got[3] == (0, 0)
            np.testing.assert_array_equal(got[0], np.float64(a) / np.float64(0))   # inf, -inf, nan
        for a in [7.5, -7.5, 0.0]:
            got = _numpy_ops(a, 0.0)
            want = (np.float64(a) / 0.0, np.floor_divide(a, 0.0), np.remainder(a, 0.0))
            np.testing.assert_array_equal(np.array(got[:3]), np.array(want))
            np.testing.assert_array_equal(np.array(got[3]), np.array(want[1:]))
    with pytest.raises(ValueError, match="error_model"):
        njit(error_model="c")(lambda x: x)


@njit
def _rounded(x):
    return math.floor(x), math.ceil(x), math.trunc(x)


def test_floor_ceil_trunc_return_ints():
    for x in (rng.standard_normal(20) * 1e6).tolist() + [2.5, -2.5, 0.0, 7.0]:
        got = _rounded(x)
        assert got == _rounded.py_func(x) and all(type(v) is int for v in got), (x, got)
    got = _rounded(np.float32(-3.75))
    assert got == (-4, -3, -3) and all(type(v) is int for v in got)
    assert _rounded(-9) == (-9, -9, -9)


@njit
def _percent(k):
    if k > 1:
        raise ValueError("50% done, 100%% left")
    assert k != 1, "k is 1 (%d)"
    return k


def test_percent_signs_in_messages_stay_single():
    with pytest.raises(ValueError) as e:
        _percent(2)
    assert str(e.value).startswith("50% done, 100%% left")
    with pytest.raises(AssertionError) as e:
        _percent(1)
    assert str(e.value).startswith("k is 1 (%d)")

"""Functions declared with several signatures: which one a call uses.

As in Numba, a call from compiled code (a kernel calling a device function,
a device function calling another, an @njit function calling one) takes the
signature its argument types convert to best: fewest unsafe conversions
(float64 -> int64), then fewest safe ones (int64 -> float64, a C array to
an 'A' array), then fewest promotions (int32 -> int64, float32 ->
float64); of equal ones, the first declared.  A launch or call from Python
of a kernel or @njit function with declared signatures chooses the same
way but refuses a tie, as Numba's dispatcher does.  No signature that
fits is an error at the call listing every declared signature.

The expected values of the first tests are numba-cuda 0.30's, measured on
a GPU with the same kernels; the others are computed here in Python.
"""

import re

import numpy as np
import pytest

from ptxjit import cuda, njit
from ptxjit.errors import TypingError

f32, f64, i8, i16, i32, i64, u64 = np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint64


def add(a, b):
    return a + b


add_d = cuda.jit(["(int64, int64)", "(float64, float64)"], device=True)(add)
add_f = cuda.jit(["float32(float32, float32)", "int32(int32, int32)"], device=True)(add)
add_u = cuda.jit(["(int32, float32)", "(float32, int32)"], device=True)(add)


@cuda.jit
def call_d(out, x, y):
    out[0] = add_d(x, y)


@cuda.jit
def call_f(out, x, y):
    out[0] = add_f(x, y)


@cuda.jit
def call_u(out, x, y):
    out[0] = add_u(x, y)


def run(k, x, y):
    out = np.zeros(1)
    k[1, 1](out, x, y)
    return out[0]


# (x, y, the signature Numba chooses): the operands are random, the types
# those of numba-cuda's measured cases
D_CASES = [
    (f64, f64, f64), (i64, i64, i64), (i64, f64, f64), (f32, f32, f64), (i32, i32, i64),
    (np.bool_, np.bool_, i64), (u64, u64, f64), (i8, f32, f64),
]
F_CASES = [(f64, f64, f32), (i64, i64, f32), (i16, i16, i32), (f32, f32, f32)]


def operand(rng, t):
    if t is np.bool_:
        return bool(rng.integers(0, 2))
    if np.issubdtype(t, np.integer):
        return t(rng.integers(1, 100))
    return t(rng.uniform(-50, 50) + 0.375)


def as_python(v):
    return v.item() if isinstance(v, np.generic) else v


@pytest.mark.parametrize("tx,ty,sig", D_CASES, ids=lambda t: getattr(t, "__name__", str(t)))
def test_int64_or_float64(rng, tx, ty, sig):
    """add_d declared (int64, int64) then (float64, float64): measured on
    numba-cuda: 1.5 + 2.5 -> 4.0, 1 + 2.5 -> 3.5, float32 -> the float64
    one, uint64 -> float64 (int64 would be unsafe), True + False -> 1."""
    for _ in range(4):
        x, y = operand(rng, tx), operand(rng, ty)
        xs = as_python(x) if tx in (f64, i64, np.bool_) else x
        ys = as_python(y) if ty in (f64, i64, np.bool_) else y
        want = float(sig(x) + sig(y))
        assert run(call_d, xs, ys) == want


@pytest.mark.parametrize("tx,ty,sig", F_CASES, ids=lambda t: getattr(t, "__name__", str(t)))
def test_float32_or_int32(rng, tx, ty, sig):
    """add_f declared float32(...) then int32(...): float64 and int64
    arguments are unsafe to both, so the first (float32) is taken, as
    numba-cuda does (1.5 + 2.5 -> 4.0 and 1 + 2 -> 3.0); int16 promotes to
    int32 but converts only safely to float32."""
    for _ in range(4):
        x, y = operand(rng, tx), operand(rng, ty)
        xs = as_python(x) if tx in (f64, i64) else x
        ys = as_python(y) if ty in (f64, i64) else y
        want = float(sig(sig(x) + sig(y)))
        assert run(call_f, xs, ys) == want


def test_tie_takes_first_declared(rng):
    """(int16, int16) to (int32, float32) or (float32, int32): one
    promotion and one safe conversion each; Numba's call typing takes the
    first declared, without an error."""
    for _ in range(4):
        x, y = i16(rng.integers(1, 1000)), i16(rng.integers(1, 1000))
        assert run(call_u, x, y) == float(f32(i32(x) + f32(y)))


def test_no_signature_fits_lists_them_all():
    with pytest.raises(TypingError) as e:
        run(call_f, 1.5j, 2.5j)
    text = str(e.value)
    line = call_f.py_func.__code__.co_firstlineno + 2
    assert re.search(r"test_overloads\.py:%d:14: error: Invalid use of type add\(\) with parameters "
                     r"\(complex128, complex128\): no declared signature of add\(\) takes them" % line, text), text
    assert '"float32(float32, float32)" and "int32(int32, int32)"' in text
    assert "out[0] = add_f(x, y)\n" in text and "\n                 ^~~~~~~~~~~" in text


# ------------------------------------- device functions calling device functions

@cuda.jit(["(float32, float32)", "(int64, int64)", "(float64, float64)"], device=True)
def mul_d(a, b):
    return a * b


@cuda.jit(device=True)
def chain(a, b, c):
    return add_d(mul_d(a, b), c)       # each call chooses on its own argument types


@cuda.jit
def call_chain(out, x, y, z):
    out[0] = chain(x, y, z)
    out[1] = chain(np.float32(x), np.float32(y), z)
    out[2] = chain(np.int32(x), np.int32(y), np.int32(z))


def test_device_function_calls_device_function(rng):
    for _ in range(4):
        x, y, z = (rng.uniform(-20, 20) + 0.25 for _ in range(3))
        out = np.zeros(3)
        call_chain[1, 1](out, x, y, z)
        assert out[0] == x * y + z
        # float32 * float32 stays float32; + float64 z takes the float64 add
        assert out[1] == float(f32(x) * f32(y)) + z
        # int32 operands: int64 mul (promotions), int64 add
        assert out[2] == float(int(i32(x)) * int(i32(y)) + int(i32(z)))


# ------------------------------------------------ kernels with several signatures

@cuda.jit(["void(float32[::1], float32)", "void(float64[::1], float64)"])
def scale(a, s):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * s


def test_kernel_dispatches_on_argument_types(rng):
    x = rng.standard_normal(40)
    for dt in (f32, f64):
        a = x.astype(dt)
        scale[1, 64](a, dt(1.7))
        np.testing.assert_array_equal(a, x.astype(dt) * dt(1.7))
    # a Python float with a float32 array: float64 -> float32 is the only way
    a = x.astype(f32)
    scale[1, 64](a, 1.7)
    np.testing.assert_array_equal(a, x.astype(f32) * f32(1.7))


@cuda.jit(["void(float64[::1], int32, float32)", "void(float64[::1], float32, int32)"])
def pair(out, p, q):
    out[0] = p + q


def test_kernel_launch_refuses_a_tie():
    out = np.zeros(1)
    pair[1, 1](out, i32(3), f32(0.5))
    assert out[0] == 3.5
    with pytest.raises(TypeError, match=r"convert equally well to \(float64\[::1\], int32, float32\) and "
                                        r"\(float64\[::1\], float32, int32\)"):
        pair[1, 1](out, i16(1), i16(2))
    with pytest.raises(TypeError, match="match none of them"):
        pair[1, 1](out, 1j, 2)


@cuda.jit(["void(float64[::1], float32, float64)", "void(float64[:, ::1], float64, float32)",
           "void(float64[::1], float64, float32)", "void(float64[::1], int64, int64)"])
def tied(out, p, q):
    out[0] = p + q


def test_a_tie_is_reported_in_numbas_words_first(rng):
    out = np.zeros(1)
    v = rng.random()
    tied[1, 1](out, f32(v), v)
    assert out[0] == np.float64(f32(v)) + v
    with pytest.raises(TypeError) as e:
        tied[1, 1](out, 1.0, 2.0)
    msg = str(e.value)
    head = ("Ambiguous overloading for %r (Array(float64, 1, 'C', False, aligned=True), float64, float64):\n"
            "(Array(float64, 1, 'C', False, aligned=True), float32, float64) -> none\n"
            "(Array(float64, 1, 'C', False, aligned=True), float64, float32) -> none\n" % tied.py_func)
    assert msg.startswith(head), msg
    assert "int64" not in msg and "float64[:, ::1]" not in msg


# --------------------------------------------------------------------- @njit

@njit(["(int64, int64)", "(float64, float64)"])
def nsub(a, b):
    return a - b


@njit
def n_caller(x, y, i, j):
    return nsub(x, y), nsub(i, j), nsub(i, y), nsub(np.float32(x), np.float32(y)), nsub(np.int32(i), np.int32(j))


def test_njit_call_from_njit_chooses_like_numba(rng):
    for _ in range(4):
        x, y = rng.uniform(-20, 20) + 0.25, rng.uniform(-20, 20) + 0.5
        i, j = int(rng.integers(1, 100)), int(rng.integers(1, 100))
        r = n_caller(x, y, i, j)
        assert r == (x - y, i - j, i - y, float(f32(x)) - float(f32(y)), i - j)
        assert [type(v) for v in r] == [float, int, float, float, int]


@njit(["int64(int32, float32)", "int64(float32, int32)"])
def ntie(a, b):
    return int(a * 10 + b)


@njit
def n_tie_caller(a, b):
    return ntie(a, b)


def test_njit_tie_first_declared_inside_refused_outside(rng):
    a, b = i16(rng.integers(1, 50)), i16(rng.integers(1, 50))
    assert n_tie_caller(a, b) == int(f32(i32(a) * 10 + f32(b)))
    with pytest.raises(TypeError, match="ambiguous"):
        ntie(a, b)
    assert ntie(i32(a), f32(b)) == int(f32(i32(a) * 10 + f32(b)))
    assert ntie(f32(a), i32(b)) == int(f32(f32(a) * 10 + i32(b)))


@njit
def n_nomatch(a):
    return nsub(a, a)


def test_njit_no_signature_fits():
    with pytest.raises(TypingError, match=r'Invalid use of type nsub\(\) with parameters '
                                         r'\(complex128, complex128\): no declared signature of nsub'):
        n_nomatch(1j)

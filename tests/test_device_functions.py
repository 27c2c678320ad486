"""Device functions: with and without signatures (a call converts its
arguments to the declared types), plain @cuda.jit functions called from
kernels, functions taking and returning arrays, tuples and scalars,
inline="always", and recursion (direct and mutual), which is compiled as
real calls (.func on the GPU, a call stack in the simulator).

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against references computed here in Python or NumPy.
When `ptxas` is on the PATH the PTX of the kernels is also assembled.
"""


import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError

from conftest import ON_GPU, assert_ptx_assembles

f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64

KERNELS = []


def kernel(f):
    k = cuda.jit(f)
    KERNELS.append(k)
    return k


# ------------------------------------------------------ signatures, casts

@cuda.jit("float32(float32, int32)", device=True)
def scaled(x, k):
    return x * k


@cuda.jit(device=True)
def generic_add(a, b):
    return a + b


@kernel
def casts(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = scaled(x[i], 3.7)          # 3.7 -> int32 3; float64 x -> float32
        out[i, 1] = generic_add(i, 1)          # int64
        out[i, 2] = generic_add(x[i], 0.5)     # float64
        out[i, 3] = generic_add(np.float32(x[i]), np.float32(0.25))


def test_declared_signature_casts_arguments(rng):
    x = rng.standard_normal(50)
    out = np.zeros((50, 4))
    casts[1, 64](x, out)
    np.testing.assert_array_equal(out[:, 0], (x.astype(f32) * f32(3)).astype(f64))
    np.testing.assert_array_equal(out[:, 1], np.arange(50) + 1)
    np.testing.assert_array_equal(out[:, 2], x + 0.5)
    np.testing.assert_array_equal(out[:, 3], (x.astype(f32) + f32(0.25)).astype(f64))


@cuda.jit
def twice(v):
    return 2 * v


@cuda.jit(device=True, inline="always")
def inlined(v):
    return v + 1


@kernel
def calls_plain_jit(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = twice(x[i]) + inlined(x[i])


def test_plain_jit_function_called_from_kernel(rng):
    x = rng.standard_normal(40)
    out = np.zeros(40)
    calls_plain_jit[1, 64](x, out)
    np.testing.assert_allclose(out, 3 * x + 1)


# ------------------------------------------------- arrays, tuples, scalars

@cuda.jit(device=True)
def row_stats(a, i):
    s = 0.0
    m = a[i, 0]
    for j in range(a.shape[1]):
        s += a[i, j]
        m = max(m, a[i, j])
    return s, (m, a.shape[1])


@cuda.jit(device=True)
def tail(a):
    return a[1:]


@cuda.jit(device=True)
def fill(a, v):
    for j in range(a.size):
        a[j] = v


@kernel
def arrays_and_tuples(a, out, scratch):
    i = cuda.grid(1)
    if i < a.shape[0]:
        s, (m, n) = row_stats(a, i)
        t = tail(a[i])
        out[i, 0] = s
        out[i, 1] = m
        out[i, 2] = n
        out[i, 3] = t[0] + t.size
        fill(scratch[i], s)


def test_arrays_and_tuples_through_device_functions(rng):
    a = rng.standard_normal((30, 6))
    out = np.zeros((30, 4))
    scratch = np.zeros((30, 3))
    arrays_and_tuples[1, 32](a, out, scratch)
    np.testing.assert_allclose(out[:, 0], a.sum(axis=1))
    np.testing.assert_array_equal(out[:, 1], a.max(axis=1))
    np.testing.assert_array_equal(out[:, 2], 6)
    np.testing.assert_array_equal(out[:, 3], a[:, 1] + 5)
    np.testing.assert_allclose(scratch, np.repeat(a.sum(axis=1)[:, None], 3, axis=1))


# ---------------------------------------------------------------- recursion

@cuda.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit(device=True)
def fact(n):
    if n > 1:
        return n * fact(n - 1)       # the base case comes after the recursive call
    return 1


@kernel
def fib_fact(n, out):
    i = cuda.grid(1)
    if i < n.size:
        out[i, 0] = fib(n[i])
        out[i, 1] = fact(n[i] % 13)


def py_fib(n):
    return n if n < 2 else py_fib(n - 1) + py_fib(n - 2)


def test_self_recursion_per_thread(rng):
    n = rng.integers(0, 16, 64)
    out = np.zeros((64, 2), i64)
    fib_fact[2, 32](n, out)
    np.testing.assert_array_equal(out[:, 0], [py_fib(v) for v in n.tolist()])
    np.testing.assert_array_equal(out[:, 1], [np.prod(np.arange(1, v % 13 + 1), dtype=i64) for v in n.tolist()])


@cuda.jit(device=True)
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@cuda.jit(device=True)
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@cuda.jit("float64(float64, int64)", device=True)
def power_sig(x, n):
    if n == 0:
        return 1.0
    h = power_sig(x, n // 2)
    return h * h * (x if n % 2 else 1.0)


@kernel
def mutual(n, x, out):
    i = cuda.grid(1)
    if i < n.size:
        out[i, 0] = is_even(n[i])
        out[i, 1] = is_odd(n[i] + 1) == is_even(n[i])
        out[i, 2] = power_sig(x[i], n[i] % 9)


def test_mutual_recursion_and_declared_signature(rng):
    n = rng.integers(0, 20, 50).astype(i32)   # recursion depth: the GPU's default stack is 1 KiB
    x = rng.standard_normal(50)
    out = np.zeros((50, 3))
    mutual[1, 64](n, x, out)
    np.testing.assert_array_equal(out[:, 0], n % 2 == 0)
    np.testing.assert_array_equal(out[:, 1], 1)
    np.testing.assert_allclose(out[:, 2], x ** (n % 9), rtol=1e-13)


@cuda.jit(device=True)
def tree_sum(a, lo, hi):
    """Sum and count of a[lo:hi] by halving: arrays in, tuples out."""
    if hi - lo == 1:
        return a[lo], 1
    mid = (lo + hi) // 2
    s1, n1 = tree_sum(a, lo, mid)
    s2, n2 = tree_sum(a, mid, hi)
    return s1 + s2, n1 + n2


@cuda.jit(device=True)
def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)


@kernel
def recursive_arrays(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        s, n = tree_sum(a[i], 0, a.shape[1])
        out[i, 0] = s
        out[i, 1] = n
        out[i, 2] = depth(5 + i)


def test_recursion_with_arrays_and_tuples(rng):
    a = rng.standard_normal((20, 37))
    out = np.zeros((20, 3))
    recursive_arrays[1, 32](a, out)
    np.testing.assert_allclose(out[:, 0], a.sum(axis=1))
    np.testing.assert_array_equal(out[:, 1], 37)
    np.testing.assert_array_equal(out[:, 2], 5 + np.arange(20))


@cuda.jit(device=True)
def spin(n):
    return spin(n + 1)


@kernel
def untypeable(out):
    out[0] = spin(0)


def test_recursion_without_a_way_to_type_it():
    with pytest.raises(TypingError, match="recursion without a way to type it"):
        untypeable[1, 1](np.zeros(1))


@cuda.jit(device=True)
def forever(n):
    if n < 0:
        return 0
    return forever(n + 1) + 1


@kernel
def runaway(out):
    out[0] = forever(0)


@pytest.mark.skipif(ON_GPU, reason="a run-away recursion overflows the GPU's stack (a launch failure)")
def test_runaway_recursion_in_the_simulator():
    with pytest.raises(RecursionError, match="maximum recursion depth"):
        runaway[1, 1](np.zeros(1))


# --------------------------------------------------------------- catalogue

def test_recursion(load, rng):
    mod = load("recursion")
    out = np.zeros(40, i64)
    mod.fib_kernel[1, 64](out)
    np.testing.assert_array_equal(out, [py_fib(k % 16) for k in range(40)])
    x = rng.integers(0, 40, 30).astype(i32)
    o = np.zeros(30, i64)
    mod.parity_kernel[1, 32](x, o)
    fact = [int(np.prod(np.arange(1, v % 15 + 1), dtype=i64)) for v in x.tolist()]
    np.testing.assert_array_equal(o, 10 * (x % 20 % 2 == 0) + np.array(fact))
    a = rng.standard_normal(16)
    p = np.zeros(16)
    mod.prefix_kernel[1, 32](a, p)
    np.testing.assert_allclose(p, np.cumsum(a) / np.arange(1, 17))

    def walk(z, n, flag):
        s = z.real
        if n == 0:
            return z, flag
        w, f = walk(z * 1.5j, n - 1, not flag)
        return w + s, f

    w = np.zeros(6, np.complex128)
    f = np.zeros(6, np.bool_)
    mod.walk_kernel[1, 8](w, f)
    want = [walk(complex(k, 0.5), 3, k % 2 == 0) for k in range(6)]
    np.testing.assert_allclose(w, [x for x, _ in want], rtol=1e-15)
    np.testing.assert_array_equal(f, [y for _, y in want])


# -------------------------------------------------------------------- PTX

def test_ptx_assembles():
    """Every kernel above, as compiled for this run, is valid PTX for ptxas."""
    assert_ptx_assembles(KERNELS, 5)


MODE = "scale"


@cuda.jit(device=True, forceinline=True)
def _pick(a, i, how):
    if how == "scale":
        a[i] = a[i] * 3
    elif how != "keep":
        a[i] = -a[i]


def test_constant_strings_through_device_functions(rng):
    # a string literal or a global string passed on is a constant of the callee: == and != on it fold,
    # and each string gets its own specialisation (Numba's literal strings)
    @cuda.jit
    def k(a, b, c, d):
        i = cuda.grid(1)
        if i < a.size:
            _pick(a, i, "scale")
            _pick(b, i, "keep")
            _pick(c, i, "negate")
            _pick(d, i, MODE)

    arrs = [rng.standard_normal(70) for _ in range(4)]
    want = [arrs[0] * 3, arrs[1].copy(), -arrs[2], arrs[3] * 3]
    k[2, 64](*arrs)
    for got, w in zip(arrs, want):
        np.testing.assert_array_equal(got, w)


def test_a_string_that_is_not_a_constant_cannot_be_passed():
    def f(v):
        return 1

    dev = cuda.jit(device=True)(f)

    def k(a):
        s = "a"
        if a[1] > 0:
            s = "b"
        a[0] = dev(s)

    with pytest.raises(TypingError, match="must be a constant known when the kernel is compiled"):
        cuda.jit("void(float32[::1])")(k)

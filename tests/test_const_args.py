"""Device functions called with constants that the callee needs as
constants: a shared or local array's shape and dtype given by parameters,
functions and intrinsics passed as arguments and called, tuples of ints as
shapes.  As in Numba, a call first types the callee for its argument types;
where that fails, the callee is specialised for the constant values at the
call site (one specialisation per value), and a value that is not constant
there is refused at the array, naming the parameter and the call.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against NumPy references.
"""

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError


@cuda.jit(device=True)
def as_is(x):
    return x


@cuda.jit(device=True)
def as_int(x):
    return int(x)


@cuda.jit(device=True)
def histogram_shared(out, idx, nbins, dtype, op, cast, initial, wrap):
    tid = cuda.threadIdx.x
    sm = cuda.shared.array(nbins, dtype)
    if tid < nbins:
        sm[tid] = initial
    cuda.syncthreads()
    b = cast(idx[tid] % nbins)
    if wrap:
        b = b % nbins
    op(sm, b, 1)
    cuda.syncthreads()
    if tid < nbins:
        out[tid] = sm[tid]


@cuda.jit
def histogram_k(out32, out16, idx):
    histogram_shared(out32, idx, 32, np.uint32, cuda.atomic.add, as_is, 0, False)
    histogram_shared(out16, idx, 16, np.int64, cuda.atomic.add, as_int, 5, True)


def test_shared_array_shape_and_dtype_from_arguments(rng):
    idx = rng.integers(0, 1000, 64).astype(np.int64)
    out32 = np.zeros(32, np.uint32)
    out16 = np.zeros(16, np.int64)
    histogram_k[1, 64](out32, out16, idx)
    np.testing.assert_array_equal(out32, np.bincount(idx % 32, minlength=32))
    np.testing.assert_array_equal(out16, np.bincount(idx % 16, minlength=16) + 5)


@cuda.jit(device=True)
def tile_sum(a, shape, dtype, op):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sm = cuda.shared.array(shape, dtype)
    if tx < shape[0] and ty < shape[1]:
        sm[tx, ty] = 0
    cuda.syncthreads()
    op(sm, (tx % shape[0], ty % shape[1]), a[tx, ty])
    cuda.syncthreads()
    return sm[tx % shape[0], ty % shape[1]]


@cuda.jit
def tile_k(a, out):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    out[tx, ty] = tile_sum(a, (4, 2), np.float64, cuda.atomic.add)


def test_tuple_shape_from_an_argument(rng):
    a = rng.standard_normal((8, 6))
    out = np.zeros_like(a)
    tile_k[1, (8, 6)](a, out)
    tiles = a.reshape(2, 4, 3, 2).sum(axis=(0, 2))
    ref = tiles[np.arange(8)[:, None] % 4, np.arange(6)[None, :] % 2]
    np.testing.assert_allclose(out, ref, rtol=1e-12)


@cuda.jit(device=True)
def window_mean(x, i, n):
    buf = cuda.local.array(n, np.float64)
    for k in range(n):
        buf[k] = x[(i + k) % x.size]
    s = 0.0
    for k in range(n):
        s += buf[k]
    return s / n


@cuda.jit(device=True)
def two_windows(x, i, n, m):
    return window_mean(x, i, n) - window_mean(x, i, m)


@cuda.jit
def windows_k(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = window_mean(x, i, 3)
        out[i, 1] = window_mean(x, i, 5)
        out[i, 2] = two_windows(x, i, 2, 7)


def test_local_array_shape_through_two_device_functions(rng):
    x = rng.standard_normal(40)
    out = np.zeros((40, 3))
    windows_k[1, 64](x, out)

    def mean(n):
        return np.array([np.mean([x[(i + k) % 40] for k in range(n)]) for i in range(40)])

    np.testing.assert_allclose(out[:, 0], mean(3), rtol=1e-12)
    np.testing.assert_allclose(out[:, 1], mean(5), rtol=1e-12)
    np.testing.assert_allclose(out[:, 2], mean(2) - mean(7), rtol=1e-12, atol=1e-15)


N_GLOBAL = 6


@cuda.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit(device=True)
def scratch_fill(out, i, n, v):
    s = cuda.local.array(n, np.int64)
    for k in range(n):
        s[k] = v + k
    t = 0
    for k in range(n):
        t += s[k]
    out[i] = t + fib(n)


@cuda.jit
def global_and_recursion_k(vals, out):
    i = cuda.grid(1)
    if i < vals.size:
        scratch_fill(out, i, N_GLOBAL, vals[i])


def test_global_constant_argument_and_recursion(rng):
    vals = rng.integers(-100, 100, 20)
    out = np.zeros(20, np.int64)
    global_and_recursion_k[1, 32](vals, out)
    np.testing.assert_array_equal(out, 6 * vals + 15 + 8)


@cuda.jit(device=True)
def local_sized(n):
    s = cuda.local.array(n, np.float32)
    s[0] = 1
    return s[0]


@cuda.jit
def not_constant_k(a):
    a[0] = local_sized(int(a[1]))


def test_a_value_not_constant_at_the_call_is_refused():
    a = np.ones(4, np.float32)
    with pytest.raises(TypingError) as e:
        not_constant_k[1, 1](a)
    msg = str(e.value)
    assert "the shape of a local array must be a constant: parameter 'n' of local_sized() is not one" in msg
    call_line = [n for n, t in enumerate(open(__file__), 1) if "a[0] = local_sized(int(a[1]))" in t][0]
    assert "test_const_args.py:%d" % call_line in msg

"""Whole-array reductions in kernels: np.sum, np.prod, np.min, np.max,
np.all, np.any, np.mean and the methods a.sum() ... a.mean(), with Numba's
result types (sum of int32 is int64, of uint8 uint64, mean of ints
float64, of float32 float32), against NumPy on random data of several
shapes and layouts, on the simulator (and the GPU where there is one), in
kernels and device functions; the PTX assembles with ptxas."""

import numpy as np
import pytest

from conftest import assert_ptx_assembles
from ptxjit import cuda
from ptxjit.errors import TypingError

KERNELS = []


@cuda.jit(device=True)
def spread(a):
    return a.max() - np.min(a)


@cuda.jit
def reduce_all(a, f, b):
    f[0] = np.sum(a)
    f[1] = a.prod()
    f[2] = np.min(a)
    f[3] = a.max()
    f[4] = np.mean(a)
    f[5] = spread(a)
    b[0] = np.all(a)
    b[1] = a.any()


KERNELS.append(reduce_all)


def check(a, exact):
    f = np.zeros(6)
    b = np.zeros(2, np.bool_)
    reduce_all[1, 1](a, f, b)
    want = [a.sum(), a.prod(), a.min(), a.max(), a.mean(), a.max() - a.min()]
    if exact:
        np.testing.assert_array_equal(f, np.array(want, dtype=np.float64))
    else:
        np.testing.assert_allclose(f, want, rtol=1e-12)
    assert list(b) == [np.all(a), np.any(a)]


@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4)])
def test_float64(rng, shape):
    check(rng.uniform(0.5, 1.5, shape), exact=False)


@pytest.mark.parametrize("dtype", ["int16", "int32", "uint8", "int64"])
def test_integers(rng, dtype):
    a = rng.integers(0, 5, 12).astype(dtype)   # zeros among them: all() is False
    check(a, exact=True)


def test_strided_and_bool(rng):
    @jit_kernel
    def k(a, b, out, bo):
        v = a[::2, ::-1]
        out[0] = v.sum()
        out[1] = np.max(v.T)
        bo[0] = np.all(b)
        bo[1] = np.any(b[1:])
        out[2] = b.sum()
    a = rng.normal(size=(6, 5))
    b = rng.integers(0, 2, 9).astype(np.bool_)
    out, bo = np.zeros(3), np.zeros(2, np.bool_)
    k[1, 1](a, b, out, bo)
    v = a[::2, ::-1]
    np.testing.assert_allclose(out[:2], [v.sum(), v.T.max()], rtol=1e-13)
    assert out[2] == b.sum() and list(bo) == [b.all(), b[1:].any()]


def jit_kernel(f):
    k = cuda.jit(f)
    KERNELS.append(k)
    return k


def test_result_types():
    @jit_kernel
    def k(i32, u8, f32, out):
        s = np.sum(i32)
        out[0] = s * 4           # int64: no wrap
        out[1] = np.sum(u8)      # uint64: no wrap at 256
        out[2] = np.mean(f32)
        out[3] = np.mean(i32)
    i32 = np.array([2 ** 30, 2 ** 30, 2 ** 30], np.int32)
    u8 = np.full(5, 200, np.uint8)
    f32 = np.array([0.1, 0.2, 0.3], np.float32)
    out = np.zeros(4)
    k[1, 1](i32, u8, f32, out)
    assert out[0] == float(12 * 2 ** 30) and out[1] == 1000
    assert out[2] == float(np.float32(np.float32(np.float32(0.1) + np.float32(0.2)) + np.float32(0.3)) / np.float32(3))
    assert out[3] == float(3 * 2 ** 30) / 3


def test_nan_propagates_and_empty(rng):
    a = rng.normal(size=10)
    a[6] = np.nan
    f = np.zeros(6)
    b = np.zeros(2, np.bool_)
    reduce_all[1, 1](a, f, b)
    assert np.isnan(f[2]) and np.isnan(f[3]) and np.isnan(f[0])

    @jit_kernel
    def k(a, out):
        out[0] = np.min(a)
    with pytest.raises(Exception, match="zero-size array"):
        k[1, 1](np.zeros(0), np.zeros(1))


@pytest.mark.parametrize("body, msg", [
    ("out[0] = np.sum(a, 0)", "takes one array"),
    ("out[0] = np.sum(a, axis=0)", "takes no axis argument"),
    ("out[0] = a.max(1)", "takes no arguments"),
    ("out[0] = np.max(z).real", "complex array"),
    ("out[0] = np.sum(1.5)", "of float64 is not supported"),
])
def test_refused(body, msg):
    ns = {"np": np}
    exec("def k(a, z, out):\n    %s\n" % body, ns)
    with pytest.raises(TypingError, match=msg):
        cuda.jit(ns["k"])[1, 1](np.ones((2, 2)), np.ones(2, np.complex128), np.zeros(1))


def test_ptx_assembles():
    assert_ptx_assembles(KERNELS, 3)

"""Whole-array reductions in kernels: np.sum, np.prod, np.min, np.max,
np.all, np.any, np.mean, np.nansum, np.nanprod, np.nanmin, np.nanmax,
np.nanmean, np.var, np.std, np.count_nonzero and the methods a.sum() ...
a.mean(), a.var(), a.std(), with Numba's
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


@cuda.jit
def reduce_nan(a, f):
    f[0] = np.nansum(a)
    f[1] = np.nanprod(a)
    f[2] = np.nanmin(a)
    f[3] = np.nanmax(a)
    f[4] = np.nanmean(a)
    f[5] = np.var(a)
    f[6] = a.std()
    f[7] = np.count_nonzero(a)


KERNELS.append(reduce_nan)


def nan_want(a):
    return [np.nansum(a), np.nanprod(a), np.nanmin(a), np.nanmax(a), np.nanmean(a), np.var(a), np.std(a),
            np.count_nonzero(a)]


@pytest.mark.parametrize("shape", [(9,), (3, 4), (2, 3, 2)])
def test_nan_reductions_and_var_std_of_floats(rng, shape):
    for dtype in (np.float64, np.float32):
        a = rng.uniform(-2, 2, shape).astype(dtype)
        a.flat[rng.integers(0, a.size, 2)] = np.nan
        a.flat[rng.integers(0, a.size)] = 0
        f = np.zeros(8)
        reduce_nan[1, 1](a, f)
        want = nan_want(a)
        np.testing.assert_allclose(f[:5], want[:5], rtol=1e-6 if dtype == np.float32 else 1e-13)
        assert np.isnan(f[5]) and np.isnan(f[6]) and f[7] == want[7]
        b = a[~np.isnan(a)].reshape(-1)     # var and std of an array without NaN
        reduce_nan[1, 1](b, f)
        np.testing.assert_allclose(f[5:7], [np.var(b), np.std(b)], rtol=1e-6 if dtype == np.float32 else 1e-13)


@pytest.mark.parametrize("dtype", ["int16", "uint8", "int64", "bool"])
def test_nan_reductions_of_integers(rng, dtype):
    a = rng.integers(0, 4, (3, 4)).astype(dtype)
    f = np.zeros(8)
    reduce_nan[1, 1](cuda.to_device(a)[:, ::-1], f)   # a strided view
    np.testing.assert_allclose(f, nan_want(a[:, ::-1]), rtol=1e-13)


def test_nan_reductions_special_values():
    @jit_kernel
    def k(a, f, n):
        f[0] = np.nanmin(a)
        f[1] = np.nanmax(a)
        f[2] = np.nanmean(a)
        f[3] = np.nansum(a)
        n[0] = np.count_nonzero(a)
    out, n = np.zeros(4), np.zeros(1, np.int64)
    for a in ([np.nan, -1.5, 2.5, np.nan, 3.0], [np.nan, np.nan], [np.nan, np.inf, -np.inf, 0.0, -0.0],
              [5.0, np.nan, -1.5, np.nan]):
        a = np.array(a)
        with np.errstate(all="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = [np.nanmin(a), np.nanmax(a), np.nanmean(a), np.nansum(a)]
        k[1, 1](a, out, n)
        np.testing.assert_array_equal(out, want)
        assert n[0] == np.count_nonzero(a)
    with pytest.raises(Exception, match="zero-size array to reduction operation fmin"):
        k[1, 1](np.zeros(0), out, n)


def test_complex_nan_reductions_and_var(rng):
    @jit_kernel
    def k(z, c, f):
        c[0] = np.nansum(z)
        c[1] = np.nanmean(z)
        f[0] = np.var(z)
        f[1] = z.std()
        f[2] = np.count_nonzero(z)
    z = (rng.normal(size=7) + 1j * rng.normal(size=7)).astype(np.complex64)
    z[3] = 0
    c, f = np.zeros(2, np.complex128), np.zeros(3)
    k[1, 1](z, c, f)
    np.testing.assert_allclose(c, [np.nansum(z), np.nanmean(z)], rtol=1e-6)
    np.testing.assert_allclose(f, [np.var(z), np.std(z), 6], rtol=1e-6)
    z[2] = complex(np.nan, 1)
    k[1, 1](z, c, f)
    keep = z[~np.isnan(z)]
    np.testing.assert_allclose(c, [keep.sum(), keep.mean()], rtol=1e-6)


def test_nan_result_types():
    @jit_kernel
    def k(u8, f32, out):
        out[0] = np.nansum(u8) * 1000       # int64
        out[1] = np.nanmean(f32)            # float64 (Numba's accumulator)
        out[2] = np.var(f32)                # float64
    u8 = np.full(3, 255, np.uint8)
    f32 = np.array([0.1, 0.2, 0.7], np.float32)
    out = np.zeros(3)
    k[1, 1](u8, f32, out)
    assert out[0] == 765000
    assert out[1] == (np.float64(f32[0]) + np.float64(f32[1]) + np.float64(f32[2])) / 3


def test_ptx_assembles():
    assert_ptx_assembles(KERNELS, 8)

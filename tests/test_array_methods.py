"""Array attributes and view methods in kernels, as Numba types them:
a.strides, a.nbytes, a.T / a.transpose(), a.real, a.imag, a.view(dtype),
a.reshape(shape).  Each is checked against NumPy on random data on the
simulator (and the GPU where there is one), in kernels and device
functions; the PTX assembles with ptxas; what needs a copy is refused."""

import numpy as np
import pytest

from conftest import assert_ptx_assembles
from ptxjit import cuda
from ptxjit.errors import TypingError

KERNELS = []


def jit(f):
    k = cuda.jit(f)
    KERNELS.append(k)
    return k


@cuda.jit(device=True)
def copy2(src, dst):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@pytest.mark.parametrize("order", ["C", "F"])
def test_strides_nbytes(rng, order):
    @jit
    def k(a, out):
        s = a.strides
        out[0] = s[0]
        out[1] = s[1]
        out[2] = s[2]
        out[3] = a.nbytes
        t = a[::2, 1:, ::-1].strides
        out[4] = t[0]
        out[5] = t[2]
    a = np.asarray(rng.normal(size=(4, 5, 6)).astype(np.float32), order=order)
    out = np.zeros(6, np.int64)
    k[1, 1](a, out)
    v = a[::2, 1:, ::-1]
    assert list(out) == [*a.strides, a.nbytes, v.strides[0], v.strides[2]]


@pytest.mark.parametrize("order", ["C", "F"])
def test_transpose(rng, order):
    @cuda.jit(device=True)
    def tr(a):
        return a.transpose()

    @jit
    def k(a, out, out2):
        copy2(a.T, out)
        copy2(tr(a[1:, ::2]), out2)
    a = np.asarray(rng.normal(size=(5, 7)), order=order)
    out, out2 = np.zeros((7, 5)), np.zeros((4, 4))
    k[1, 1](a, out, out2)
    np.testing.assert_array_equal(out, a.T)
    np.testing.assert_array_equal(out2, a[1:, ::2].T)


def test_real_imag(rng):
    @jit
    def k(z, x, re, im, rx):
        r = z.real
        i = z.imag
        for n in range(z.shape[0]):
            re[n] = r[n]
            im[n] = i[n]
            rx[n] = x.real[n]
        i[0] = 5.0   # a view: writes reach z
    z = (rng.normal(size=9) + 1j * rng.normal(size=9)).astype(np.complex64)
    x = rng.normal(size=9)
    want = z.copy()
    re, im, rx = np.zeros(9, np.float32), np.zeros(9, np.float32), np.zeros(9)
    k[1, 1](z, x, re, im, rx)
    np.testing.assert_array_equal(re, want.real)
    np.testing.assert_array_equal(im, want.imag)
    np.testing.assert_array_equal(rx, x)
    assert z[0].imag == 5.0 and z[0].real == want[0].real


def test_view(rng):
    @jit
    def k(b, start, out, f):
        v = b[start:start + 8].view(np.int32)
        out[0] = v[0]
        out[1] = v[1]
        g = f.view(np.uint32)   # the same item size, any layout
        out[2] = g[3]
    b = rng.integers(0, 256, 64).astype(np.uint8)
    f = rng.normal(size=8).astype(np.float32)
    for start in (0, 4, 20):
        out = np.zeros(3, np.int32)
        k[1, 1](b, start, out, f)
        w = b[start:start + 8].view(np.int32)
        assert out[0] == w[0] and out[1] == w[1]
        assert out[2] == f.view(np.int32)[3]   # same bits


VIEWS = [("C", lambda a: a), ("F", lambda a: np.asfortranarray(a)),
         ("A, last axis contiguous", lambda a: a[::2]), ("A, first axis contiguous", lambda a: np.asfortranarray(a)[:, ::2])]


def numba_view(a, dt):
    """Numba's a.view(dt): NumPy's of an array whose last axis is
    contiguous, else the first axis rescaled (NumPy before 1.23)."""
    if a.strides[-1] == a.itemsize:
        return a.view(dt)
    return a.T.view(dt).T


@pytest.mark.parametrize("name,make", VIEWS, ids=[v[0] for v in VIEWS])
@pytest.mark.parametrize("dt", [np.uint8, np.int64])
def test_view_to_another_item_size_in_every_layout(rng, name, make, dt):
    """a.view(dtype) of another item size in a kernel, as Numba does it:
    a C array's last extent rescaled, an F array's first, an A array's
    last axis when it is contiguous, else its first."""
    @jit
    def k(a, out, shape):
        v = a.view(dt)
        shape[0] = v.shape[0]
        shape[1] = v.shape[1]
        for i in range(v.shape[0]):
            for j in range(v.shape[1]):
                out[i, j] = v[i, j]
    h = rng.integers(0, 2 ** 31, (8, 12)).astype(np.int32)
    a = make(h)
    want = numba_view(a, dt)
    base = cuda.to_device(np.asfortranarray(h) if "first" in name or name == "F" else h)
    d = base if name in ("C", "F") else base[::2] if "last" in name else base[:, ::2]
    out, shape = np.zeros((64, 64), np.int64), np.zeros(2, np.int64)
    k[1, 1](d, out, shape)
    assert tuple(shape) == want.shape
    np.testing.assert_array_equal(out[:want.shape[0], :want.shape[1]], want)


def test_view_of_an_array_without_a_contiguous_axis_fails(rng):
    @jit
    def k(a, out):
        out[0] = a.view(np.uint8)[0, 0]
    with pytest.raises(ValueError, match="new type not compatible with array"):
        k[1, 1](cuda.to_device(rng.random((6, 8)))[::2, ::2], np.zeros(1))


@pytest.mark.parametrize("shape", [(24,), (4, 6), (8, 3), (2, -1, 3), (-1,), (1, 24, 1)])
def test_reshape(rng, shape):
    @jit
    def k(a, shape, out):
        r = a.reshape(shape)
        f = r.reshape(-1)
        for i in range(f.shape[0]):
            out[i] = f[i] * 2
        out[24] = r.shape[0]
    a = rng.normal(size=(2, 3, 4))
    out = np.zeros(25)
    k[1, 1](a, shape, out)
    np.testing.assert_array_equal(out[:24], a.ravel() * 2)
    assert out[24] == a.reshape(shape).shape[0]


def test_reshape_wrong_size_fails(rng):
    @jit
    def k(a, out):
        r = a.reshape((5, 5))
        out[0] = r[0, 0]
    with pytest.raises(ValueError, match="total size"):
        k[1, 1](rng.normal(size=24), np.zeros(1))


@pytest.mark.parametrize("body, msg", [
    ("r = a[:, ::2].reshape(6)", "needs a copy"),
    ("r = a.T.reshape(12)", "needs a copy"),
    ("r = a.imag", "imaginary part of a real array"),
    ("r = a.transpose(1, 0)", "with axes"),
    ("r = a.flat", "nbytes, dtype, T, real, imag"),
])
def test_refused(body, msg):
    ns = {"np": np}
    exec("def k(a):\n    %s\n" % body, ns)
    with pytest.raises(TypingError, match=msg):
        cuda.jit(ns["k"])[1, 1](np.zeros((3, 4)))


def test_ptx_assembles():
    assert_ptx_assembles(KERNELS, 8)

"""Arrays of another library, through __cuda_array_interface__ alone (an
object wrapping a device array of ours, as Numba's ForeignArray does): as
kernel arguments, through cuda.as_cuda_array / from_cuda_array_interface
(no copy: the same memory), in ufuncs and gufuncs (arguments and out=),
and with the producer's stream.  On the simulator the memory must be
memory the simulator allocated; any other pointer is refused."""

import unittest.mock

import numpy as np
import pytest

from conftest import ON_GPU
from ptxjit import cuda


class Foreign:
    """Another library's array: nothing of ours but the interface."""

    def __init__(self, arr, **changes):
        self._arr = arr
        self.__cuda_array_interface__ = dict(arr.__cuda_array_interface__, **changes)


@cuda.jit
def _axpy(a, x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + out[i]


@cuda.jit
def _add_2d(x, v):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        x[i, j] += v


def test_a_kernel_uses_a_foreign_array_in_place(rng):
    x, y = rng.standard_normal(300), rng.standard_normal(300)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    _axpy[3, 128](2.5, Foreign(dx), Foreign(dy))
    np.testing.assert_allclose(dy.copy_to_host(), 2.5 * x + y, rtol=1e-15, atol=1e-15)   # a fused multiply-add


def test_a_foreign_strided_view_is_used_in_place(rng):
    h = rng.standard_normal((12, 10))
    d = cuda.to_device(h)
    _add_2d[(2, 2), (8, 8)](Foreign(d[1::3, ::-2]), 1.5)
    want = h.copy()
    want[1::3, ::-2] += 1.5
    np.testing.assert_array_equal(d.copy_to_host(), want)


def test_as_cuda_array_shares_the_memory(rng):
    h = rng.integers(-1000, 1000, 50)
    d = cuda.to_device(h)
    w = cuda.as_cuda_array(Foreign(d))
    assert w.device_ctypes_pointer.value == d.device_ctypes_pointer.value
    np.testing.assert_array_equal(w.copy_to_host(), h)
    w[10:20] = 7
    want = h.copy()
    want[10:20] = 7
    np.testing.assert_array_equal(d.copy_to_host(), want)
    v = cuda.from_cuda_array_interface(d[5::2].__cuda_array_interface__, owner=d)
    np.testing.assert_array_equal(v.copy_to_host(), want[5::2])


def test_a_zero_size_foreign_array_is_taken():
    d = cuda.device_array(0)
    _axpy[1, 32](1.0, Foreign(d), Foreign(d))
    assert cuda.as_cuda_array(Foreign(d)).size == 0


def test_ufuncs_and_gufuncs_take_foreign_arrays(rng):
    @cuda.vectorize(["f8(f8, f8)"])
    def vadd(a, b):
        return a + b

    @cuda.guvectorize(["(f8[:], f8, f8[:])"], "(n),()->(n)")
    def gadd(x, v, out):
        for i in range(x.shape[0]):
            out[i] = x[i] + v

    h = rng.standard_normal(40)
    np.testing.assert_array_equal(vadd(Foreign(cuda.to_device(h)), 6.0).copy_to_host(), h + 6)
    out = cuda.device_array(40)
    r = vadd(h, 2.0, out=Foreign(out))
    assert r.device_ctypes_pointer.value == out.device_ctypes_pointer.value
    np.testing.assert_array_equal(out.copy_to_host(), h + 2)
    h2 = h.reshape(4, 10)
    np.testing.assert_array_equal(gadd(Foreign(cuda.to_device(h2)), 3.0).copy_to_host(), h2 + 3)
    out2 = cuda.device_array((4, 10))
    r = gadd(h2, -1.0, out=Foreign(out2))
    assert r.device_ctypes_pointer.value == out2.device_ctypes_pointer.value
    np.testing.assert_array_equal(out2.copy_to_host(), h2 - 1)


def test_the_producer_stream_becomes_the_arrays_and_is_synchronised(rng):
    s = cuda.stream()
    d = cuda.to_device(rng.standard_normal(8), stream=s)
    with unittest.mock.patch.object(cuda.Stream, "synchronize", return_value=None) as sync:
        w = cuda.as_cuda_array(Foreign(d))
        assert sync.call_count == 1
        assert w.stream.external and int(w.stream) == int(s)
        cuda.as_cuda_array(Foreign(d), sync=False)
        cuda.as_cuda_array(Foreign(cuda.device_array(8)))
        assert cuda.as_cuda_array(Foreign(d, stream=1)).stream == 0   # the legacy default stream
        assert sync.call_count == 1
    assert cuda.as_cuda_array(Foreign(cuda.device_array(8))).stream == 0


@pytest.mark.skipif(ON_GPU, reason="the simulator's check of foreign memory")
def test_the_simulator_refuses_memory_it_did_not_allocate():
    d = cuda.to_device(np.arange(16.0))
    host = np.arange(16.0)
    outside = Foreign(d, data=(host.__array_interface__["data"][0], False))
    with pytest.raises(TypeError, match="cannot use GPU memory of another library"):
        cuda.as_cuda_array(outside)
    with pytest.raises(TypeError, match=r"argument 2 \('x'\) is a GPU array of another library \(Foreign\)"):
        _axpy[1, 32](1.0, outside, d)
    # past the end of the simulator's block
    too_long = Foreign(d, shape=(1 << 20,))
    with pytest.raises(TypeError, match="cannot use GPU memory of another library"):
        cuda.as_cuda_array(too_long)


def test_aligned_and_packed_records_are_different_types(rng):
    """NumPy's == of two dtypes leaves out align=True; the kernel's type
    (and its cache key) does not, as in Numba."""
    packed = np.dtype([("x", np.float16), ("y", np.float16)])
    aligned = np.dtype([("x", np.float16), ("y", np.float16)], align=True)
    assert packed == aligned

    @cuda.jit
    def total(a, out):
        out[0] = a[0].x + a[0].y

    out = np.zeros(1)
    h = rng.standard_normal(2).astype(np.float16)
    for dt in (packed, aligned):
        a = np.zeros(1, dt)
        a[0] = tuple(h)
        total[1, 1](a, out)
        assert out[0] == np.float64(h[0]) + np.float64(h[1])
    assert [s[0].endswith(";4;False)[::1]") for s in total.signatures] == [True, False]

"""DeviceNDArray as numba-cuda's API makes and converts it: the
constructor with a dtype class, a NumPy array as a shape, bind(stream),
and np.array(d, copy=False) refused (a copy is always made)."""

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.cuda.devicearray import DeviceNDArray


@cuda.jit
def _plus_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] + 1


def test_constructor_takes_dtype_classes_and_any_strides(rng):
    a = DeviceNDArray((1, 10), (800, 8), np.float64)     # relaxed strides: still contiguous
    assert a.dtype == np.dtype(np.float64) and a.flags["C_CONTIGUOUS"] and a.flags["F_CONTIGUOUS"]
    b = DeviceNDArray((7, 3), None, "int32")
    h = rng.integers(-50, 50, (7, 3)).astype(np.int32)
    b.copy_to_device(h)
    np.testing.assert_array_equal(b.copy_to_host(), h)
    z = DeviceNDArray(shape=(0,), strides=(8,), dtype=np.int8)
    z.copy_to_host(np.ndarray(shape=(0,), strides=(0,), dtype=np.int8))


def test_shape_given_as_a_numpy_array(rng):
    d = cuda.device_array(shape=np.array([10, 6]), dtype=np.float32)
    assert d.shape == (10, 6)
    d = cuda.device_array(shape=np.int64(5))
    assert d.shape == (5,)


def test_bind_gives_a_view_on_the_stream(rng):
    s = cuda.stream()
    h = rng.standard_normal(300)
    d = cuda.to_device(h)
    v = d.bind(s)
    assert v.stream is s and d.stream == 0 and v.shape == d.shape
    _plus_one[3, 128, s](v)
    s.synchronize()
    np.testing.assert_array_equal(d.copy_to_host(), h + 1)


def test_numpy_copy_false_is_refused(rng):
    h = rng.standard_normal(4)
    d = cuda.to_device(h)
    with pytest.raises(ValueError, match="copy=False"):
        np.array(d, copy=False)
    np.testing.assert_array_equal(np.array(d), h)
    np.testing.assert_array_equal(np.asarray(d, dtype=np.float32), h.astype(np.float32))


def test_numba_type_names_the_layout_kernels_see():
    from ptxjit import types
    cases = [(np.zeros(10, order="F"), "C"), (np.zeros((2, 10), order="F"), "F"),
             (np.zeros((2, 10)), "C")]
    for a, layout in cases:
        t = cuda.to_device(a)._numba_type_
        assert (t.layout, t.ndim, t.dtype) == (layout, a.ndim, types.float64)
    assert cuda.to_device(np.zeros((5, 5)))[:, 2]._numba_type_.layout == "A"
    assert cuda.to_device(np.zeros((5, 5), order="F"))[2, :]._numba_type_.layout == "A"
    assert cuda.to_device(np.zeros((5, 5), np.int16))[1:3]._numba_type_ == types.int16[:, ::1]


def test_devicearray_module_helpers():
    from ptxjit.cuda import devicearray as da
    d = cuda.device_array(100)
    da.verify_cuda_ndarray_interface(d)
    da.verify_cuda_ndarray_interface(cuda.to_device(np.asarray(1.25)))
    with pytest.raises(ValueError):
        da.verify_cuda_ndarray_interface(np.zeros(3))
    views = (lambda a: a, lambda a: a.T, lambda a: a[..., ::2], lambda a: a[:1])
    for shape, order in (((10,), "C"), ((10, 12), "C"), ((10, 12, 14), "F"), ((1, 5), "F")):
        a, h = cuda.device_array(shape, order=order), np.empty(shape, order=order)
        for view in views:
            v = view(a)
            assert da.is_contiguous(v) == da.array_core(v).flags["C_CONTIGUOUS"]
            assert da.is_contiguous(v) == view(h).flags.c_contiguous      # NumPy's own rule
    b = np.broadcast_to(np.arange(4.0), (3, 4))
    assert da.is_contiguous(b) and da.array_core(b).shape == (4,)
    with pytest.raises(ValueError, match="ascontiguousarray"):
        da.auto_device(np.zeros((4, 6))[:, ::2])


def test_context_allocates_through_its_memory_manager(rng):
    ctx = cuda.current_context()
    assert isinstance(ctx.memory_manager, cuda.emm.NumbaCUDAMemoryManager)
    n = 257
    mem = ctx.memalloc(n * 8)
    assert mem.size == n * 8 and mem.device_pointer.value
    d = DeviceNDArray((n,), None, np.float64, gpu_data=mem)
    h = rng.standard_normal(n)
    d.copy_to_device(h)
    _plus_one[3, 128](d)
    np.testing.assert_array_equal(d.copy_to_host(), h + 1)
    # mapped host memory: the kernel writes what the host then reads
    mapped = ctx.memhostalloc(n * 8, mapped=True)
    host = np.ctypeslib.as_array((np.ctypeslib.ctypes.c_double * n).from_address(mapped.host_pointer.value))
    host[:] = h
    m = DeviceNDArray((n,), None, np.float64, gpu_data=mapped)
    _plus_one[3, 128](m)
    cuda.synchronize()
    np.testing.assert_array_equal(host, h + 1)
    managed = ctx.memallocmanaged(64)
    assert managed.size == 64 and managed.device_pointer.value
    assert isinstance(ctx.memhostalloc(32), cuda.emm.PinnedMemory)
    s, e = ctx.create_stream(), ctx.create_event()
    e.record(s)
    e.synchronize()
    assert ctx.get_default_stream().handle == 0
    # Numba's deallocations: here the freed blocks the caching allocator keeps
    ctx.deallocations.clear()
    assert len(ctx.deallocations) == 0
    block = ctx.memalloc(4096)
    del block
    assert len(ctx.deallocations) >= 1
    ctx.deallocations.clear()
    assert len(ctx.deallocations) == 0


@pytest.mark.parametrize("like", ["device_array_like", "pinned_array_like", "mapped_array_like"])
def test_array_like_of_a_view_keeps_its_layout_as_numpy(rng, like):
    """*_array_like of a view makes a contiguous array laid out as NumPy's
    zeros_like makes it (order 'K'): a view of an F array is F, a
    transposed view keeps its axes' order; kernels then fill it."""
    f = getattr(cuda, like)
    cases = [(np.zeros((10, 12), order="F")[::2, ::2], cuda.device_array((10, 12), order="F")[::2, ::2]),
             (np.zeros((4, 5, 6))[:, ::2].transpose((2, 0, 1)), cuda.device_array((4, 5, 6))[:, ::2].transpose((2, 0, 1))),
             (np.zeros((6, 8)), cuda.device_array((6, 8))),
             (np.zeros((6, 8), order="F"), cuda.device_array((6, 8), order="F"))]
    for host, dev in cases:
        want = np.zeros_like(host)
        for src in (host, dev):
            a = f(src)
            assert a.shape == want.shape and a.strides == want.strides, (like, src.strides, a.strides)
            assert a.flags["C_CONTIGUOUS"] == want.flags["C_CONTIGUOUS"]
            assert a.flags["F_CONTIGUOUS"] == want.flags["F_CONTIGUOUS"]
    a = f(cases[0][1])
    d = a if isinstance(a, DeviceNDArray) else cuda.to_device(a)
    h = rng.random(d.shape)
    d.copy_to_device(h)
    _plus_one[1, 64](d.reshape(d.size, order="F"))
    np.testing.assert_array_equal(d.copy_to_host(), h + 1)


VIEW_CASES = [
    (np.arange(12, dtype="i2").reshape(4, 3), lambda a: a, "i4"),
    (np.arange(32, dtype="i2").reshape(4, 8), lambda a: a[:, ::2], "i4"),
    (np.arange(32, dtype="i2").reshape(4, 8), lambda a: a[:, :4], "i4"),
    (np.arange(32, dtype="i2").reshape(4, 8), lambda a: a[::2], "i8"),
    (np.arange(8, dtype="i4").reshape(2, 4), lambda a: a.T, "i2"),
    (np.arange(6, dtype="i4").reshape(2, 3), lambda a: a, "i2"),
    (np.arange(6, dtype="i4").reshape(2, 3), lambda a: a, "u4"),
    (np.arange(16, dtype="i4").reshape(4, 4), lambda a: a[:, ::4], "i2"),
    (np.zeros(4, "V3"), lambda a: a, "i2"),
    (np.array(5, "i4"), lambda a: a, "i2"),
]


@pytest.mark.parametrize("k", range(len(VIEW_CASES)))
def test_view_follows_numpy(k):
    """d.view(dtype) of another item size: NumPy's rule (the last axis
    contiguous, its bytes whole new items) and NumPy's messages."""
    base, take, dt = VIEW_CASES[k]
    host = take(base)
    try:
        want = host.view(dt)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            take(cuda.to_device(base)).view(dt)
        assert str(got.value) == str(e)
        return
    got = take(cuda.to_device(base)).view(dt)
    assert (got.shape, got.strides, got.dtype) == (want.shape, want.strides, want.dtype)
    np.testing.assert_array_equal(got.copy_to_host(), want)

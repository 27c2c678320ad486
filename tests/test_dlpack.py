"""DLPack both ways (python/ptxjit/cuda/dlpack.py, src/py/dlpack.c).

On the simulator a device array is host memory and says kDLCPU, so NumPy
is the other side; on the GPU (PTXJIT_TEST_GPU=1) PyTorch and CuPy are,
when installed.  Every case checks that the memory is shared (the same
address, a write through one side seen by the other) and the values.
"""

import ctypes
import gc
import sys
import weakref

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU

sim_only = pytest.mark.skipif(ON_GPU, reason="on the GPU a device array is kDLCUDA memory, which NumPy cannot take")
gpu_only = pytest.mark.skipif(not ON_GPU, reason="needs the GPU (PTXJIT_TEST_GPU=1)")

_name = ctypes.pythonapi.PyCapsule_GetName
_name.restype = ctypes.c_char_p
_name.argtypes = [ctypes.py_object]


def capsule_name(cap):
    return _name(cap).decode()


_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_pointer.restype = ctypes.c_void_p
_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def versioned_header(cap):
    """(major, minor, flags) of a DLManagedTensorVersioned: version, then
    manager_ctx and deleter, then flags."""
    p = _pointer(cap, b"dltensor_versioned")
    major, minor = ctypes.c_uint32.from_address(p).value, ctypes.c_uint32.from_address(p + 4).value
    return major, minor, ctypes.c_uint64.from_address(p + 8 + 2 * ctypes.sizeof(ctypes.c_void_p)).value


def address(a):
    if isinstance(a, np.ndarray):
        return a.__array_interface__["data"][0]
    return a.__cuda_array_interface__["data"][0]


@cuda.jit
def scale_add(x, k):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * k + 1


@cuda.jit
def scale_add_2d(x, k):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        x[i, j] = x[i, j] * k + 1


RNG = np.random.default_rng(11)


def test_device_and_capsules():
    d = cuda.to_device(RNG.standard_normal(6))
    assert d.__dlpack_device__() == ((2, 0) if ON_GPU else (1, 0))
    assert capsule_name(d.__dlpack__()) == "dltensor"
    assert capsule_name(d.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(d.__dlpack__(max_version=(1, 3))) == "dltensor_versioned"
    assert capsule_name(d.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert versioned_header(d.__dlpack__(max_version=(1, 0))) == (1, 0, 0)
    assert versioned_header(d.__dlpack__(max_version=(1, 0), copy=True)) == (1, 0, 2)    # IS_COPIED


def test_capsule_keeps_the_array_alive_until_its_deleter():
    d = cuda.to_device(RNG.standard_normal(6))
    base = sys.getrefcount(d)
    caps = [d.__dlpack__(), d.__dlpack__(max_version=(1, 0))]
    assert sys.getrefcount(d) == base + 2
    del caps                       # never consumed: their destructors run the deleters
    gc.collect()
    assert sys.getrefcount(d) == base


def test_export_argument_checks():
    d = cuda.to_device(RNG.standard_normal(6))
    with pytest.raises(BufferError, match="does not copy between devices"):
        d.__dlpack__(dl_device=(3 if ON_GPU else 2, 0))
    with pytest.raises(TypeError, match="stream"):
        d.__dlpack__(stream="s")
    d.__dlpack__(dl_device=d.__dlpack_device__(), copy=False)


@sim_only
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int8, np.uint16, np.int64,
                                   np.complex64, np.complex128, np.bool_])
def test_numpy_takes_a_device_array(dtype):
    a = (RNG.standard_normal((5, 7)) * 10).astype(dtype)
    d = cuda.to_device(a)
    n = np.from_dlpack(d)
    assert n.dtype == a.dtype and n.shape == a.shape and address(n) == address(d)
    np.testing.assert_array_equal(n, a)
    del d
    gc.collect()                   # the NumPy array keeps the memory
    np.testing.assert_array_equal(n, a)


@sim_only
@pytest.mark.parametrize("order", ["C", "F", "strided"])
def test_numpy_copy_of_a_device_array(order):
    a = RNG.standard_normal((5, 6))
    d = cuda.to_device(np.asfortranarray(a) if order == "F" else a)
    if order == "strided":
        d, a = d[::2, 1::2], a[::2, 1::2]
    n = np.from_dlpack(d, copy=True)            # NumPy asks __dlpack__(copy=True)
    assert address(n) != address(d)
    np.testing.assert_array_equal(n, a)
    n[...] = 0
    np.testing.assert_array_equal(d.copy_to_host(), a)     # the device array is untouched
    np.testing.assert_array_equal(np.from_dlpack(d, copy=False), a)


@sim_only
def test_numpy_view_of_a_strided_device_array_shares_memory():
    a = np.round(RNG.standard_normal((6, 8)) * 100)
    d = cuda.to_device(a)
    v = d[1:5, ::3]
    n = np.from_dlpack(v)
    assert n.strides == v.strides == (64, 24) and address(n) == address(v)
    np.testing.assert_array_equal(n, a[1:5, ::3])
    scale_add_2d[(1, 1), (8, 8)](v, 2.0)
    np.testing.assert_array_equal(n, a[1:5, ::3] * 2 + 1)      # the kernel's writes are seen


@sim_only
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.complex128])
def test_from_dlpack_of_numpy(dtype):
    a = np.round(RNG.standard_normal(300) * 20).astype(dtype)    # exact: the kernel's x * k + 1 is one fma
    want = a * 3 + 1
    d = cuda.from_dlpack(a)
    assert d.dtype == a.dtype and d.shape == a.shape and address(d) == address(a)
    scale_add[3, 128](d, 3)
    np.testing.assert_array_equal(a, want.astype(dtype))      # written in place: no copy
    np.testing.assert_array_equal(d.copy_to_host(), a)


@sim_only
def test_from_dlpack_of_a_strided_numpy_view_keeps_it_alive():
    a = np.round(RNG.standard_normal((9, 10)) * 100)
    want = a.copy()
    want[::2, 1::3] = want[::2, 1::3] * 0.5 + 1
    d = cuda.from_dlpack(a[::2, 1::3])
    assert d.shape == (5, 3) and d.strides == (160, 24) and address(d) == address(a[::2, 1::3])
    alive = weakref.ref(a)
    del a
    gc.collect()
    assert alive() is not None     # the device array holds the producer's tensor
    scale_add_2d[(1, 1), (8, 8)](d, 0.5)
    np.testing.assert_array_equal(np.from_dlpack(d), want[::2, 1::3])
    del d
    gc.collect()
    assert alive() is None         # and lets it go through the deleter


@sim_only
def test_from_dlpack_round_trip_and_capsules():
    a = RNG.standard_normal(40)
    d = cuda.from_dlpack(np.from_dlpack(cuda.to_device(a)))
    np.testing.assert_array_equal(d.copy_to_host(), a)
    cap = cuda.to_device(a).__dlpack__(max_version=(1, 0))
    d = cuda.from_dlpack(cap)
    assert capsule_name(cap) == "used_dltensor_versioned"
    np.testing.assert_array_equal(d.copy_to_host(), a)
    with pytest.raises(TypeError, match="unused DLPack capsule"):
        cuda.from_dlpack(cap)


@sim_only
def test_from_dlpack_refuses_read_only_and_wrong_devices():
    a = RNG.standard_normal(8)
    a.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        cuda.from_dlpack(a)

    class OnGPU:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kw):
            raise AssertionError("not called")

    with pytest.raises(BufferError, match="kDLCUDA; the simulator"):
        cuda.from_dlpack(OnGPU())
    with pytest.raises(TypeError, match="__dlpack__"):
        cuda.from_dlpack([1.0, 2.0])


# ------------------------------------------------------------ GPU

@gpu_only
def test_gpu_numpy_cannot_take_device_memory():
    d = cuda.to_device(RNG.standard_normal(4))
    with pytest.raises(BufferError):     # NumPy's refusal, not a SystemError
        np.from_dlpack(d)
    with pytest.raises(BufferError, match="kDLCPU"):
        cuda.from_dlpack(np.arange(3.0))


@gpu_only
def test_gpu_stream_protocol():
    d = cuda.to_device(RNG.standard_normal(4))
    with pytest.raises(ValueError, match="ambiguous"):
        d.__dlpack__(stream=0)
    for s in (None, 1, 2, -1, cuda.stream().handle):
        assert capsule_name(d.__dlpack__(stream=s)) == "dltensor"


@gpu_only
def test_gpu_torch_both_ways():
    torch = pytest.importorskip("torch")
    a = np.round(RNG.standard_normal((64, 33)) * 100)
    t = torch.from_numpy(a).cuda()
    d = cuda.from_dlpack(t)
    assert address(d) == t.data_ptr() and d.shape == (64, 33)
    scale_add[(64 * 33 + 127) // 128, 128](d.reshape(64 * 33), 2.0)
    np.testing.assert_array_equal(t.cpu().numpy(), a * 2 + 1)
    d2 = cuda.to_device(a)
    t2 = torch.from_dlpack(d2)
    assert t2.data_ptr() == address(d2) and t2.device.type == "cuda"
    t2.mul_(3)
    np.testing.assert_array_equal(d2.copy_to_host(), a * 3)


@gpu_only
def test_gpu_cupy_both_ways():
    cupy = pytest.importorskip("cupy")
    a = np.round(RNG.standard_normal(1000) * 100).astype(np.float32)
    c = cupy.asarray(a)
    d = cuda.from_dlpack(c)
    assert address(d) == c.data.ptr
    scale_add[8, 128](d, 2.0)
    np.testing.assert_array_equal(cupy.asnumpy(c), a * 2 + 1)
    d2 = cuda.to_device(a)
    c2 = cupy.from_dlpack(d2)
    assert c2.data.ptr == address(d2)
    np.testing.assert_array_equal(cupy.asnumpy(c2), a)

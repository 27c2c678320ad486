"""Host helpers under Numba's names: ptxjit.np.numpy_support (carray,
farray, numpy_version, from_dtype, as_dtype), DeviceNDArray.flags and
cuda.devicearray.auto_device, checked against NumPy."""

import ctypes

import numpy as np
import pytest

from ptxjit import cuda, types
from ptxjit.cuda.devicearray import auto_device
from ptxjit.np.numpy_support import as_dtype, carray, farray, from_dtype, numpy_version


def test_carray_farray_over_host_memory(rng):
    a = rng.normal(size=12).astype(np.float32)
    p = a.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
    c = carray(p, (3, 4))
    np.testing.assert_array_equal(c, a.reshape(3, 4))
    f = farray(p, (3, 4))
    assert f.flags.f_contiguous
    np.testing.assert_array_equal(f, a.reshape(3, 4, order="F"))
    # a bare address with a dtype (a ptxjit type or a NumPy dtype)
    np.testing.assert_array_equal(carray(a.ctypes.data, 5, dtype=types.float32), a[:5])
    c[0, 0] = 7.0   # a view, not a copy
    assert a[0] == 7.0
    with pytest.raises(TypeError, match="need dtype"):
        carray(a.ctypes.data, 3)
    with pytest.raises(TypeError, match="points to"):
        carray(p, 3, dtype=np.float64)


def test_dtype_helpers():
    assert numpy_version == tuple(int(x) for x in np.__version__.split(".")[:2])
    assert from_dtype(np.dtype(np.int16)) is types.int16
    assert as_dtype(types.complex64) == np.complex64
    assert types.float32[:, ::1].dtype is types.float32


@pytest.mark.parametrize("shape, order, index", [
    ((10,), "C", np.s_[::2]), ((10, 12), "C", np.s_[:, :]), ((10, 12), "F", np.s_[:, :]),
    ((10, 12), "C", np.s_[::2, ::2]), ((10, 12), "F", np.s_[::2, :]), ((10, 1), "C", np.s_[:, :]),
    ((4, 1, 6), "F", np.s_[:, :, 1:2]), ((0, 3), "C", np.s_[:, :]),
])
def test_flags_as_numpy(shape, order, index):
    h = np.zeros(shape, order=order)[index]
    d = cuda.device_array(shape, order=order)[index]
    assert d.flags["C_CONTIGUOUS"] == h.flags["C_CONTIGUOUS"] == d.flags.c_contiguous
    assert d.flags["F_CONTIGUOUS"] == h.flags["F_CONTIGUOUS"] == d.flags.f_contiguous
    t = d.T
    assert t.flags["C_CONTIGUOUS"] == h.T.flags["C_CONTIGUOUS"]
    assert t.flags["F_CONTIGUOUS"] == h.T.flags["F_CONTIGUOUS"]


def test_auto_device(rng):
    x = rng.normal(size=7)
    d, copied = auto_device(x)
    assert copied and np.array_equal(d.copy_to_host(), x)
    same, copied = auto_device(d)
    assert same is d and not copied
    s, _ = auto_device(3)
    assert s.copy_to_host() == np.array(3)
    with pytest.raises(ValueError, match="non-contiguous"):
        auto_device(x[::2])


def test_gpu_data(rng):
    x = rng.integers(0, 1 << 40, 16)
    d = cuda.to_device(x)
    v = d.view(np.float64)
    assert v.gpu_data == d.gpu_data and d.gpu_data.size >= x.nbytes
    assert d[2:].gpu_data != d.gpu_data
    assert d[2:].gpu_data.device_pointer.value == d.gpu_data.device_pointer.value + 16
    t = np.arange("2005-02", "2005-03", dtype="datetime64[D]")
    dt = cuda.to_device(t)
    iv = dt.view(np.int64)
    np.testing.assert_array_equal(iv.copy_to_host(), t.view(np.int64))
    assert iv.gpu_data == dt.gpu_data

"""ptxjit.cuda.kernels.transpose.transpose (numba.cuda.kernels.transpose):
the tiled transpose of a 2-D device array, of numbers, bool, complex and
records, into a given output or a new one."""

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.cuda.kernels.transpose import transpose

REC = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])


def random_array(rng, shape, dtype):
    if dtype == REC:
        a = np.zeros(shape, dtype=REC)
        a["i"] = rng.integers(-1000, 1000, size=shape)
        a["j"] = rng.standard_normal(shape + (3, 2))
        return a
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return (rng.standard_normal(shape) * 100).astype(dtype)


@pytest.mark.parametrize("shape", [(1, 1), (2, 3), (16, 16), (17, 15), (40, 33)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8, np.bool_, np.complex128, REC])
def test_transpose_into_given_output(shape, dtype):
    rng = np.random.default_rng(sum(shape))
    a = random_array(rng, shape, dtype)
    d_b = cuda.device_array(shape[::-1], dtype=a.dtype)
    got = transpose(cuda.to_device(a), d_b)
    assert got is d_b
    np.testing.assert_array_equal(d_b.copy_to_host(), a.T)


def test_transpose_makes_the_output():
    a = np.random.default_rng(1).standard_normal((33, 70))
    b = transpose(cuda.to_device(a))
    assert b.shape == (70, 33) and b.dtype == a.dtype
    np.testing.assert_array_equal(b.copy_to_host(), a.T)


def test_transpose_of_a_strided_view():
    a = np.arange(120, dtype=np.int64).reshape(10, 12)
    b = transpose(cuda.to_device(a)[::2, 1::3])
    np.testing.assert_array_equal(b.copy_to_host(), a[::2, 1::3].T)


def test_transpose_refuses_bad_outputs():
    d = cuda.to_device(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="needs an output of shape"):
        transpose(d, cuda.device_array((3, 4)))
    with pytest.raises(TypeError, match="needs an output of dtype"):
        transpose(d, cuda.device_array((4, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="2-D"):
        transpose(cuda.to_device(np.zeros(3)))


def test_ptx_assembles():
    from conftest import assert_ptx_assembles
    from ptxjit.cuda.kernels import transpose as mod
    transpose(cuda.to_device(np.zeros((3, 2), np.float32)))
    assert_ptx_assembles([mod._transpose], 1)

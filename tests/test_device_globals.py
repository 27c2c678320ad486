"""Device arrays made at module level (or in a closure) and used by kernels
and device functions as globals: as Numba does, a kernel captures such an
array by its address when it is first compiled, reads and writes its
memory in place, and cannot be kept in the disk cache.  Objects of other
libraries with a __cuda_array_interface__ are captured the same way; on
the simulator only when their memory is simulated device memory.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against NumPy references.
"""

import pickle

import numpy as np
import pytest

from ptxjit import cuda, njit
from ptxjit.errors import TypingError

from conftest import ON_GPU

RNG = np.random.default_rng(20261127)
H_VEC = RNG.standard_normal(37).astype(np.float32)
H_MAT = RNG.standard_normal((5, 7))
D_VEC = cuda.to_device(H_VEC)
D_MAT_F = cuda.to_device(np.asfortranarray(H_MAT))
D_STRIDED = cuda.to_device(H_MAT)[:, ::3]
D_SCALAR = cuda.to_device(np.array(2.5, np.float32))


class Wrapped:
    """Another library's array: only a __cuda_array_interface__."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__


H_INT = RNG.integers(-1000, 1000, 16).astype(np.int32)
D_INT = cuda.to_device(H_INT)
W_INT = Wrapped(D_INT)


@cuda.jit(device=True)
def scaled(i):
    return D_VEC[i] * D_SCALAR[()]


@cuda.jit
def read_k(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = scaled(i) + D_VEC[out.size - 1 - i]


def test_read_in_kernel_and_device_function():
    out = np.zeros(37, np.float32)
    read_k[1, 64](out)
    np.testing.assert_array_equal(out, H_VEC * np.float32(2.5) + H_VEC[::-1])


@cuda.jit
def layouts_k(out_f, out_s):
    i, j = cuda.grid(2)
    if i < 5 and j < 7:
        out_f[i, j] = D_MAT_F[i, j] * 2.0
    if i < D_STRIDED.shape[0] and j < D_STRIDED.shape[1]:
        out_s[i, j] = D_STRIDED[i, j]


def test_fortran_and_strided_layouts():
    out_f = np.zeros((5, 7))
    out_s = np.zeros((5, 3))
    layouts_k[1, (8, 8)](out_f, out_s)
    np.testing.assert_array_equal(out_f, H_MAT * 2.0)
    np.testing.assert_array_equal(out_s, H_MAT[:, ::3])


@cuda.jit
def wrapped_k(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = W_INT[i] * 3 - i
        W_INT[i] = i


def test_other_librarys_array_is_read_and_written_in_place():
    out = np.zeros(16, np.int64)
    wrapped_k[1, 16](out)
    np.testing.assert_array_equal(out, H_INT.astype(np.int64) * 3 - np.arange(16))
    np.testing.assert_array_equal(D_INT.copy_to_host(), np.arange(16))


def make_accumulator(d):
    @cuda.jit
    def acc(x):
        i = cuda.grid(1)
        if i < x.size:
            d[i] += x[i]
    return acc


def test_closure_array_is_written_and_kept_across_launches():
    h = RNG.standard_normal(50)
    d = cuda.to_device(h)
    acc = make_accumulator(d)
    x = RNG.standard_normal(50)
    acc[1, 64](x)
    acc[1, 64](x)
    np.testing.assert_allclose(d.copy_to_host(), h + 2 * x, rtol=1e-14)


def test_cache_true_refuses_a_kernel_with_device_globals(tmp_path, monkeypatch):
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(tmp_path))

    @cuda.jit(cache=True)
    def cached(out):
        out[0] = D_VEC[3]

    with pytest.raises(pickle.PicklingError, match="global device arrays"):
        cached[1, 1](np.zeros(1, np.float32))


@pytest.mark.skipif(ON_GPU, reason="the simulator's bounds checks")
def test_out_of_bounds_names_the_global():
    @cuda.jit
    def oob(out):
        i = cuda.grid(1)
        out[i] = D_VEC[i + 30]

    with pytest.raises(IndexError, match="index 37 is out of bounds .* 'D_VEC'"):
        oob[1, 8](np.zeros(8, np.float32))


@pytest.mark.skipif(ON_GPU, reason="only the simulator cannot read GPU memory")
def test_simulator_refuses_memory_it_does_not_hold():
    bogus = Wrapped(D_VEC)
    bogus.__cuda_array_interface__ = dict(D_VEC.__cuda_array_interface__, data=(64, False))

    @cuda.jit
    def k(out):
        out[0] = bogus[0]

    with pytest.raises(TypingError, match="simulator cannot read"):
        k[1, 1](np.zeros(1, np.float32))


def test_njit_refuses_device_arrays():
    @njit
    def f(i):
        return D_VEC[i]

    with pytest.raises(TypingError, match="njit functions cannot read"):
        f(1)

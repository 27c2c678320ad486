"""ptxjit's errors as the packages around numba-cuda name them: where Numba
is loaded a compile error (TypingError) is also numba.core.errors.TypingError,
and where cuda.core is loaded a driver error (CudaAPIError, CudaLaunchError)
is also cuda.core's CUDAError, since numba-cuda raises those; code written
for numba-cuda that catches them catches ptxjit's.  The classes keep
ptxjit's names and pickle as ptxjit's own."""

import pickle

import numpy as np
import pytest

from ptxjit import cuda, errors


def grid_of(x):
    cuda.grid(x)


def fill(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i


def test_a_compile_error_is_numbas_typing_error_where_numba_is_loaded():
    ne = pytest.importorskip("numba.core.errors")
    with pytest.raises(ne.TypingError, match="RequireLiteralValue") as info:
        cuda.jit("void(int32)")(grid_of)
    e = info.value
    assert isinstance(e, errors.TypingError) and type(e).__name__ == "TypingError"
    assert str(e).splitlines()[0].endswith("compiled)")
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is errors.TypingError and str(back) == str(e)


def test_a_refused_launch_is_cuda_cores_error_and_pickles():
    core = pytest.importorskip("cuda.core._utils.cuda_utils")
    k = cuda.jit(launch_bounds=32)(fill)
    a = np.zeros(64)
    with pytest.raises(core.CUDAError) as info:
        k[1, 64](a)
    e = info.value
    assert isinstance(e, errors.CudaLaunchError) and isinstance(e, ValueError)
    assert e.name == "CUDA_ERROR_INVALID_VALUE" and "CUDA_ERROR_INVALID_VALUE" in str(e)
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is errors.CudaLaunchError and str(back) == str(e)
    k[2, 32](a)
    np.testing.assert_array_equal(a, np.arange(64))


def test_classes_without_a_foreign_twin_are_kept():
    assert errors._foreign_class(errors.SimIndexError) is errors.SimIndexError
    assert errors._foreign_class(ValueError) is ValueError

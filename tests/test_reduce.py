"""cuda.reduce / cuda.Reduce against np.sum, np.max and np.min: lengths
around the block size and the number of blocks, several dtypes, lambdas
and defs, init=, res=, size=, stream=, and the errors."""

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU

sum_reduce = cuda.reduce(lambda a, b: a + b)
max_reduce, min_reduce = cuda.Reduce(lambda a, b: max(a, b)), cuda.Reduce(lambda a, b: min(a, b))


@cuda.reduce
def prod_reduce(a, b):
    return a * b


SIZES = [1, 2, 3, 31, 255, 256, 257, 1000, 4097, 65536 + 13]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64])
def test_sum_max_min(rng, n, dtype):
    if np.dtype(dtype).kind == "f":
        a = rng.standard_normal(n).astype(dtype)
    else:
        a = rng.integers(-1000, 1000, n).astype(dtype)
    got = sum_reduce(a)
    assert type(got) is np.dtype(dtype).type
    if np.dtype(dtype).kind == "f":
        tol = 1e-4 if dtype == np.float32 else 1e-12
        assert abs(got - a.astype(np.float64).sum()) <= tol * np.abs(a).sum()
    else:
        assert got == a.sum()
    # init is always combined (Numba's rule; 0 by default), so give one that cannot win
    assert max_reduce(a, init=a.min()) == a.max()
    assert min_reduce(a, init=a.max()) == a.min()


def test_init_is_combined_as_in_numba(rng):
    a = -1.0 - rng.random(300)
    assert max_reduce(a) == 0.0                 # max(init=0, ...)
    assert sum_reduce(a, init=10.0) == pytest.approx(a.sum() + 10.0, rel=1e-12)
    assert prod_reduce(np.arange(1, 11, dtype=np.int64), init=1) == 3628800
    assert prod_reduce(np.arange(1, 11, dtype=np.int64)) == 0


def test_empty_and_size(rng):
    assert sum_reduce(np.zeros(0, np.float32), init=5) == np.float32(5)
    assert type(sum_reduce(np.zeros(0, np.float32), init=5)) is np.float32
    a = rng.random(1000)
    assert sum_reduce(a, size=10) == pytest.approx(a[:10].sum(), rel=1e-14)
    assert sum_reduce(a, size=0, init=2.0) == 2.0


def test_device_array_and_res(rng):
    a = rng.integers(0, 100, 5000).astype(np.int64)
    d = cuda.to_device(a)
    res = cuda.device_array(1, np.int64)
    assert sum_reduce(d, res=res) is None
    assert res.copy_to_host()[0] == a.sum()
    # res of a wider array: only res[0] is written
    res = cuda.to_device(np.full(3, -1, np.int64))
    max_reduce(d, res=res, init=-1)
    np.testing.assert_array_equal(res.copy_to_host(), [a.max(), -1, -1])


def test_stream(rng):
    a = rng.random(3000)
    s = cuda.stream()
    d = cuda.to_device(a, stream=s)
    assert sum_reduce(d, stream=s) == pytest.approx(a.sum(), rel=1e-12)
    res = cuda.device_array(1)
    sum_reduce(d, res=res, stream=s)
    s.synchronize()
    assert res.copy_to_host()[0] == pytest.approx(a.sum(), rel=1e-12)


def test_two_lambdas_on_one_line(rng):
    first, second = cuda.reduce(lambda a, b: a + b), cuda.reduce(lambda a, b: a if a > b else b)
    a = rng.random(777) + 1
    assert first(a) == pytest.approx(a.sum(), rel=1e-12)
    assert second(a) == a.max()


def test_device_function_as_the_operator(rng):
    @cuda.jit(device=True)
    def absmax(a, b):
        return max(abs(a), abs(b))
    r = cuda.Reduce(absmax)
    a = rng.standard_normal(999)
    assert r(a) == np.abs(a).max()


def test_errors():
    with pytest.raises(TypeError, match="1-d"):
        sum_reduce(np.zeros((3, 3)))
    bad = cuda.reduce(lambda a, b: a[0] + b)
    with pytest.raises(Exception) as info:
        bad(np.zeros(4))
    assert "test_reduce.py" in str(info.value)


@pytest.mark.skipif(not ON_GPU, reason="10**8 elements: on the GPU only")
def test_hundred_million():
    n = 10 ** 8 + 7
    d = cuda.device_array(n, np.int32)
    ones = cuda.to_device(np.ones(n, np.int32))
    assert sum_reduce(ones) == n
    d.copy_to_device(np.arange(n, dtype=np.int32) % 1000)
    want = int((np.arange(n, dtype=np.int64) % 1000).max())
    assert max_reduce(d) == want

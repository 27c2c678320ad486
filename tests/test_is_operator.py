"""`is` and `is not` beyond None, as Numba types them: two values of one
immutable type (numbers, bools, tuples of them) are the same object when
they are equal, values of different types never are, and a static value
(a function, a dtype) is itself.  `pred is True` on a bool argument is the
common case.  'is' between arrays is refused.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data; the reference applies the same rule in Python (Numba's
compiled `is`, checked against numba.njit when these tests were written).
"""

import numpy as np
import pytest

from ptxjit import cuda


@cuda.jit(device=True)
def twice(x):
    return 2 * x


@cuda.jit(device=True)
def pick(flag, a, b):
    if flag is True:
        return a
    return b


@cuda.jit
def is_k(flags, xs, ys, out):
    i = cuda.grid(1)
    if i < xs.size:
        f = flags[i]
        x = xs[i]
        y = ys[i]
        out[i, 0] = f is True
        out[i, 1] = f is not False
        out[i, 2] = x is y
        out[i, 3] = x is not y
        out[i, 4] = x is np.int32(y)           # int64 against int32: never the same
        out[i, 5] = (x, 1) is (y, 1)
        out[i, 6] = (x, 1) is (y, 1.0)         # different tuple types
        out[i, 7] = twice is twice
        out[i, 8] = pick(f, x, y)
        out[i, 9] = 1 < x is y                 # a chain


def ref(f, x, y):
    return [f, f, x == y, x != y, False, x == y, False, True, x if f else y, 1 < x == y]


def test_is_between_values_of_one_type(rng):
    n = 64
    flags = rng.integers(0, 2, n).astype(np.bool_)
    xs = rng.integers(0, 4, n)
    ys = rng.integers(0, 4, n)
    out = np.zeros((n, 10), dtype=np.int64)
    is_k[1, 64](flags, xs, ys, out)
    want = np.array([ref(bool(f), int(x), int(y)) for f, x, y in zip(flags, xs, ys)], dtype=np.int64)
    np.testing.assert_array_equal(out, want)


def test_is_between_arrays_is_refused():
    @cuda.jit
    def k(a, b):
        if a is b:
            a[0] = 1
    with pytest.raises(Exception, match=r"'is' between arrays or records is not supported"):
        k[1, 1](np.zeros(2), np.zeros(2))

"""for loops over enumerate() and zip(), nested in each other, over arrays
(rows of a 2-D one too), tuples of one element type and globals, in
kernels and device functions, with start, break and else; each iterable
is evaluated once, before the loop, as in Python.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against the same loops run by CPython.
"""

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError

WEIGHTS = (0.5, -1.25, 2.0, 3.5)
OFFSETS = (3, -7, 11)


@cuda.jit(device=True)
def weighted(x, y):
    s = 0.0
    for i, (a, b) in enumerate(zip(x, y), 2):
        s += i * a - b
    return s


@cuda.jit
def loops_k(x, y, m, out):
    for i, v in enumerate(x):
        out[0] += i * v
    for a, b in zip(x, y):
        out[1] += a * b
    out[2] = weighted(x, y)
    for (i, a), b, w in zip(enumerate(x), y, WEIGHTS):
        out[3] += i + a * b * w
    for i, w in enumerate(WEIGHTS):
        out[4] += i * w
    for p, q in zip(OFFSETS, WEIGHTS):
        out[5] += p * q
    for i, row in enumerate(m):
        for j, v in enumerate(row):
            out[6] += (i + 1) * (j - 1) * v
    for i, v in enumerate(y[1:]):
        if v > 0.9:
            break
        out[7] += v
    else:
        out[7] = -1000.0


def loops_py(x, y, m):
    out = np.zeros(8)
    out[0] = sum(i * v for i, v in enumerate(x))
    out[1] = sum(a * b for a, b in zip(x, y))
    out[2] = sum(i * a - b for i, (a, b) in enumerate(zip(x, y), 2))
    out[3] = sum(i + a * b * w for (i, a), b, w in zip(enumerate(x), y, WEIGHTS))
    out[4] = sum(i * w for i, w in enumerate(WEIGHTS))
    out[5] = sum(p * q for p, q in zip(OFFSETS, WEIGHTS))
    out[6] = sum((i + 1) * (j - 1) * v for i, row in enumerate(m) for j, v in enumerate(row))
    for v in y[1:]:
        if v > 0.9:
            break
        out[7] += v
    else:
        out[7] = -1000.0
    return out


@pytest.mark.parametrize("nx,ny", [(7, 5), (3, 9), (6, 6)])
def test_enumerate_and_zip_match_python(rng, nx, ny):
    x = rng.standard_normal(nx)
    y = rng.random(ny)
    m = rng.standard_normal((3, 4))
    out = np.zeros(8)
    loops_k[1, 1](x, y, m, out)
    np.testing.assert_allclose(out, loops_py(x, y, m), rtol=1e-12, atol=1e-12)


@cuda.jit(device=True)
def bump(counter):
    counter[0] += 1
    return counter


@cuda.jit
def once_k(x, counter, out):
    for i, v in enumerate(x, int(bump(counter)[0]) * 10):
        out[i - 10] = v * i


def test_iterable_and_start_are_evaluated_once(rng):
    x = rng.standard_normal(6)
    counter = np.zeros(1, np.int64)
    out = np.zeros(6)
    once_k[1, 1](x, counter, out)
    assert counter[0] == 1
    np.testing.assert_array_equal(out, x * np.arange(10, 16))


@cuda.jit
def local_named_zip_k(out):
    zip = 3
    for i in range(zip):
        out[i] = zip


def test_a_local_named_zip_is_left_alone():
    out = np.zeros(3)
    local_named_zip_k[1, 1](out)
    np.testing.assert_array_equal(out, [3, 3, 3])


@cuda.jit
def bad_kw_k(a):
    for i, v in enumerate(a, begin=1):
        a[i] = v


def test_enumerate_keyword_is_refused_at_its_line():
    with pytest.raises(TypingError, match=r"enumerate\(\) got an unexpected keyword argument 'begin'"):
        bad_kw_k[1, 1](np.zeros(3))

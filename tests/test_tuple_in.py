"""`x in t` and `x not in t` for a number and a tuple of numbers (of one
type or mixed, a global or a literal, empty too), in kernels and device
functions: True when some element == x, as in Python; folded when all are
constants.  Anything but a tuple on the right is refused.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against CPython's answers.
"""

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError

PRIMES = (2, 3, 5, 7, 11, 13)
MIXED = (1, 2.5, np.float32(-0.5), True)


@cuda.jit(device=True)
def classify(v):
    return (v in PRIMES) + 2 * (v not in MIXED) + 4 * (v in (0, 4)) + 8 * (v in ())


@cuda.jit
def in_k(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = classify(x[i]) + 16 * (5 in PRIMES) + 32 * (6 in PRIMES)


def test_in_and_not_in_on_tuples(rng):
    x = rng.integers(-3, 15, 200).astype(np.float64)
    x[::7] = 2.5
    x[::11] = -0.5
    out = np.zeros(200, np.int64)
    in_k[1, 256](x, out)
    ref = [(v in PRIMES) + 2 * (v not in MIXED) + 4 * (v in (0, 4)) + 8 * (v in ()) + 16 for v in x]
    np.testing.assert_array_equal(out, ref)


@cuda.jit
def in_array_k(a):
    a[0] = 1.0 in a


def test_in_on_an_array_is_refused():
    with pytest.raises(TypingError, match="the 'in' operator is not supported in kernels"):
        in_array_k[1, 1](np.zeros(3))

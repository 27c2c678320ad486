"""min() and max() with NaNs and signed zeros, target by target, as Numba.

In a CUDA kernel, Numba lowers min(a, b) and max(a, b) of two float32 or
float64 numbers to fmin/fmax: a NaN loses to a number, and -0.0 orders
below +0.0 whatever the argument order (measured with numba-cuda 0.30 on
a GPU: min(nan, 1.0) = 1.0, max(0.0, -0.0) = 0.0).  Every other form --
three or more arguments, one tuple, an integer among the arguments -- and
every call under @njit compares as Python's builtins do: each argument
replaces the result when it compares below (above) it, so a NaN first
stays and a later one is passed over (numba 0.68 @njit: min(nan, 1.0) =
nan, min(1.0, nan) = 1.0).  docs/semantics.md has the table.
"""

import math

import numpy as np
import pytest

from ptxjit import cuda, njit

from conftest import same_bits


def fmin(a, b):
    if a != a:
        return b
    if b != b:
        return a
    if a == b:
        return a if math.copysign(1, a) < 0 else b
    return a if a < b else b


def fmax(a, b):
    if a != a:
        return b
    if b != b:
        return a
    if a == b:
        return b if math.copysign(1, a) < 0 else a
    return a if a > b else b


@cuda.jit
def k_minmax(out, a, b, i):
    out[0] = min(a, b)
    out[1] = max(a, b)
    out[2] = min(b, a)
    out[3] = max(b, a)
    out[4] = min(a, b, 2.0)
    out[5] = max(2.0, a, b)
    out[6] = min((a, b))
    out[7] = max((b, a))
    out[8] = min(a, i)
    out[9] = max(i, b)
    out[10] = min(b, a, a)


def want_cuda(a, b, i):
    t = type(a)
    return [fmin(a, b), fmax(a, b), fmin(b, a), fmax(b, a), min(a, b, t(2.0)), max(t(2.0), a, b),
            min(a, b), max(b, a), min(a, float(i)), max(float(i), b), min(b, a, a)]


def operands(rng, dt):
    x, y = rng.uniform(-9, 9, 2)
    specials = [np.nan, -0.0, 0.0, np.inf, -np.inf]
    for a in [x] + specials:
        for b in [y] + specials:
            yield dt(a), dt(b)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_cuda_kernel(rng, dt):
    i = int(rng.integers(-5, 5))
    for a, b in operands(rng, dt):
        out = np.zeros(11, dt)
        k_minmax[1, 1](out, a, b, i)
        want = np.array(want_cuda(a, b, i), dt)
        assert same_bits(out, want) or (np.array_equal(out, want, equal_nan=True) and
                                        np.array_equal(np.signbit(out), np.signbit(want))), (a, b, out, want)


@cuda.jit(device=True)
def dev_min(a, b):
    return min(a, b)


@cuda.jit
def k_consts(out):
    out[0] = min(0.0, -0.0)
    out[1] = max(-0.0, 0.0)
    out[2] = min(math.nan, 1.5)
    out[3] = max(2.5, math.nan)
    out[4] = dev_min(math.nan, -3.25)
    out[5] = min(-0.0, 0.0, 1.0)
    out[6] = min(0.0, -0.0, 1.0)


def test_cuda_constants_and_device_functions():
    out = np.ones(7)
    k_consts[1, 1](out)
    assert out.tolist() == [-0.0, 0.0, 1.5, 2.5, -3.25, -0.0, 0.0]
    assert np.signbit(out).tolist() == [True, False, False, False, True, True, False]


@njit
def n_minmax(a, b):
    return min(a, b), max(a, b), min(b, a), max(b, a), min(a, b, 2.0), max(2.0, a, b)


@njit
def n_consts():
    return min(0.0, -0.0), min(-0.0, 0.0), max(0.0, -0.0), min(math.nan, 1.5), max(1.5, math.nan)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_njit_is_python(rng, dt):
    for a, b in operands(rng, dt):
        got = n_minmax(a, b)
        want = (min(a, b), max(a, b), min(b, a), max(b, a), min(a, b, 2.0), max(2.0, a, b))
        for g, w in zip(got, want):
            assert (g == w or (g != g and w != w)) and math.copysign(1, g) == math.copysign(1, w), (a, b, got)


def test_njit_constants():
    got = n_consts()
    want = (min(0.0, -0.0), min(-0.0, 0.0), max(0.0, -0.0), min(math.nan, 1.5), max(1.5, math.nan))
    assert [math.copysign(1, g) for g in got[:3]] == [math.copysign(1, w) for w in want[:3]]
    assert got[:3] == want[:3] and math.isnan(got[3]) and got[4] == 1.5

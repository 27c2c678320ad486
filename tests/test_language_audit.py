"""Issue 5's kernel language, the items the other test files left out:
device functions declared with inline=True / False / "always" / "never",
`raise` inside a device function (with debug=True the host raises it with
the file, line, thread and block; without it the thread stops there, as
Numba's calling convention does), and an assert without a message.

The map from each bullet of the issue to its test is in
tests/test_language_audit.md.  Each test runs on the simulator (the
default) or the GPU (PTXJIT_TEST_GPU=1), on random data, against NumPy.
"""

import os

import numpy as np
import pytest

from ptxjit import cuda


@cuda.jit(device=True, inline=True)
def add_inline_true(a, b):
    return a * 2 + b


@cuda.jit(device=True, inline=False)
def add_inline_false(a, b):
    return a * 8 + b


@cuda.jit(device=True, inline="always")
def add_always(a, b):
    return a * 4 - b


@cuda.jit(device=True, inline="never")
def add_never(a, b):
    return a * 16 + b


@cuda.jit
def inline_forms(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = add_inline_true(x[i], y[i])
        out[i, 1] = add_inline_false(x[i], y[i])
        out[i, 2] = add_always(x[i], y[i])
        out[i, 3] = add_never(add_inline_true(x[i], 1.0), y[i])


def test_inline_options(rng):
    # multipliers are powers of two: a contracted fma rounds as the two operations do
    x, y = rng.standard_normal(70), rng.standard_normal(70)
    out = np.zeros((70, 4))
    inline_forms[1, 96](x, y, out)
    np.testing.assert_array_equal(out[:, 0], x * 2 + y)
    np.testing.assert_array_equal(out[:, 1], x * 8 + y)
    np.testing.assert_array_equal(out[:, 2], x * 4 - y)
    np.testing.assert_array_equal(out[:, 3], (x * 2 + 1.0) * 16 + y)


class TooBig(Exception):
    pass


@cuda.jit(device=True)
def checked_double(v, limit):
    if v > limit:
        raise TooBig("over the limit")
    return v * 2


@cuda.jit(debug=True, opt=False)
def raise_in_devfn_debug(x, out, limit):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = -1.0
        out[i] = checked_double(x[i], limit)


@cuda.jit
def raise_in_devfn(x, out, limit):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = -1.0
        out[i] = checked_double(x[i], limit)


def test_raise_in_device_function_under_debug(rng):
    x = rng.random(40)
    out = np.zeros(40)
    raise_in_devfn_debug[2, 32](x, out, 2.0)
    np.testing.assert_array_equal(out, 2 * x)
    x[37] = 5.0
    with pytest.raises(TooBig) as e:
        raise_in_devfn_debug[2, 32](x, out, 2.0)
    msg = str(e.value)
    assert "over the limit" in msg and "tid=[5, 0, 0]" in msg and "ctaid=[1, 0, 0]" in msg
    assert os.path.basename(__file__) in msg and "line" in msg


def test_raise_without_debug_stops_the_thread(rng):
    x = rng.random(40)
    big = rng.random(40) < 0.3
    x[big] += 5.0
    out = np.zeros(40)
    raise_in_devfn[2, 32](x, out, 2.0)
    np.testing.assert_array_equal(out, np.where(big, -1.0, 2 * x))


@cuda.jit(debug=True, opt=False)
def bare_assert(x, out):
    i = cuda.grid(1)
    if i < x.size:
        assert x[i] != 3
        out[i] = x[i] + 1


def test_assert_without_message_under_debug():
    x = np.arange(8.0)
    out = np.zeros(8)
    with pytest.raises(AssertionError) as e:
        bare_assert[1, 8](x, out)
    assert "tid=[3, 0, 0]" in str(e.value)
    x[3] = 0
    bare_assert[1, 8](x, out)
    np.testing.assert_array_equal(out, x + 1)

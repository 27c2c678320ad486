"""debug=True kernels raise what Numba's debug mode raises: ZeroDivisionError
for /, //, % and divmod by zero (Numba's messages), and IndexError for an
out-of-bounds index (after negative wrap-around, per axis), after the launch,
naming the thread, and for a tuple indexed out of range by a run-time index
("tuple index out of range"); the simulator and the GPU (PTXJIT_TEST_GPU=1) alike.
Without debug=True nothing is tested (NumPy's values, as Numba's kernels)."""

import numpy as np
import pytest

from ptxjit import cuda


@cuda.jit(debug=True)
def divide(a, b, k, out):
    i = cuda.grid(1)
    if i < a.size:
        if k == 0:
            out[i] = a[i] // b[i]
        elif k == 1:
            out[i] = a[i] % b[i]
        elif k == 2:
            out[i] = a[i] / b[i]
        else:
            q, r = divmod(a[i], b[i])
            out[i] = q + r


@cuda.jit
def divide_fast(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]


MESSAGES = {(0, "i"): "integer division by zero", (1, "i"): "integer modulo by zero",
            (2, "i"): "division by zero", (3, "i"): "integer divmod by zero",
            (0, "f"): "division by zero", (1, "f"): "modulo by zero",
            (2, "f"): "division by zero", (3, "f"): "modulo by zero"}


@pytest.mark.parametrize("kind", ["i", "f"])
@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_division_by_zero_raises(rng, k, kind):
    dt = np.int64 if kind == "i" else np.float64
    a = rng.integers(-1000, 1000, 70).astype(dt)
    b = rng.integers(1, 30, 70).astype(dt) * rng.choice([-1, 1], 70)
    out = np.zeros(70)
    divide[3, 32](a, b, k, out)
    ops = [lambda x, y: x // y, lambda x, y: x % y, lambda x, y: x / y, lambda x, y: sum(divmod(x, y))]
    np.testing.assert_array_equal(out, [ops[k](x, y) for x, y in zip(a.tolist(), b.tolist())])
    b[45] = 0
    with pytest.raises(ZeroDivisionError) as e:
        divide[3, 32](a, b, k, out)
    msg = str(e.value)
    assert msg.endswith(": " + MESSAGES[k, kind]) and "tid=[13, 0, 0] ctaid=[1, 0, 0]" in msg, msg


def test_without_debug_division_by_zero_gives_numpys_values(rng):
    a = rng.integers(-1000, 1000, 40)
    b = rng.integers(-3, 4, 40)
    b[:3] = 0
    out = np.zeros((40, 2), np.int64)
    divide_fast[1, 64](a, b, out)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(out, np.stack([np.floor_divide(a, b), np.remainder(a, b)], 1))


@cuda.jit(debug=True, fastmath=True)
def divide_debug_fast(a32, b32, a64, b64, out32, out64):
    i = cuda.grid(1)
    if i < a32.size:
        out32[i] = a32[i] / b32[i]
        if i == 0:
            out64[0] = a64[0] / b64[0]


def test_fastmath_float32_division_by_zero_does_not_raise(rng):
    """Under fastmath a float32 / is the approximate division and is not
    checked even with debug=True (Numba's fast_fdividef); float64's / is."""
    a = rng.uniform(1, 100, 50).astype(np.float32)
    b = rng.uniform(1, 4, 50).astype(np.float32) * rng.choice([-1, 1], 50).astype(np.float32)
    b[[3, 17]] = 0
    out32 = np.zeros(50, np.float32)
    out64 = np.zeros(1)
    one = np.ones(1)
    divide_debug_fast[1, 64](a, b, one, one, out32, out64)
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(out32, a / b, rtol=2.5e-7)
    assert np.isinf(out32[[3, 17]]).all() and out64[0] == 1
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        divide_debug_fast[1, 64](a, b, one, np.zeros(1), out32, out64)


@cuda.jit(debug=True)
def gather(x, idx, out):
    i = cuda.grid(1)
    if i < idx.size:
        out[i] = x[idx[i]]


@cuda.jit(debug=True)
def gather2(x, r, c, out):
    i = cuda.grid(1)
    if i < r.size:
        out[i] = x[r[i], c[i]]


@pytest.mark.parametrize("bad, shown", [(50, 50), (-51, -51), (1000, 1000)])
def test_index_out_of_bounds_raises_index_error(rng, bad, shown):
    x = rng.standard_normal(50)
    idx = rng.integers(-50, 50, 64)
    out = np.zeros(64)
    gather[2, 32](x, idx, out)
    np.testing.assert_array_equal(out, x[idx])
    idx[40] = bad
    with pytest.raises(IndexError) as e:
        gather[2, 32](x, idx, out)
    msg = str(e.value)
    assert "index %d is out of bounds for axis 0 with size 50 in array 'x'" % shown in msg, msg
    idx[40] = -50                           # the same kernel runs on afterwards
    gather[2, 32](x, idx, out)
    np.testing.assert_array_equal(out, x[idx])


def test_index_out_of_bounds_names_the_axis(rng):
    x = rng.standard_normal((6, 9))
    r = rng.integers(-6, 6, 20)
    c = rng.integers(-9, 9, 20)
    out = np.zeros(20)
    y = x.copy()
    gather2[1, 32](y, r, c, out)
    np.testing.assert_array_equal(out, x[r, c])
    c[7] = 9
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 1 with size 9 in array 'x'"):
        gather2[1, 32](x.copy(), r, c, out)
    c[7] = 0
    r[3] = -7
    with pytest.raises(IndexError, match="index -7 is out of bounds for axis 0 with size 6 in array 'x'"):
        gather2[1, 32](x.copy(), r, c, out)


@cuda.jit(debug=True)
def tuple_index_k(a, t, k, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = t[k - i] + a.shape[k - i - 1]


def test_a_tuple_index_out_of_range_raises(rng):
    t = tuple(int(v) for v in rng.integers(-100, 100, 3))
    a = np.zeros((2, 3, 4))
    out = np.zeros(3, np.int64)
    tuple_index_k[1, 3](a, t, 2, out)      # indices 2, 1, 0 and 1, 0, -1: in range
    np.testing.assert_array_equal(out, [t[2] + 3, t[1] + 2, t[0] + 4])
    with pytest.raises(IndexError, match="tuple index out of range"):
        tuple_index_k[1, 3](a, t, 4, out)   # t[4] is out of range; t[-3] would wrap

"""for x in literal_unroll(t): the body once per element of a tuple that
mixes types (numbers, arrays of several dtypes and dimensions, tuples),
each copy typed with its own element's type, as Numba does; with break,
continue and else, nested, over globals, arguments, tuples written out and
local variables, under each name Numba gives it (numba.literal_unroll,
cuda.literal_unroll, numba.cuda.misc.special.literal_unroll).

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against the same loop run by CPython.
"""

import numpy as np
import pytest

import ptxjit
from ptxjit import cuda
from ptxjit.cuda.misc.special import literal_unroll
from ptxjit.errors import TypingError

from conftest import assert_ptx_assembles

RNG = np.random.default_rng(7)
ARRAYS = (
    RNG.standard_normal(5),
    RNG.integers(-50, 50, size=(3, 4)),
    (RNG.standard_normal((2, 3, 2)) * 10).astype(np.float32),
    RNG.integers(0, 2, size=7).astype(np.bool_),
    RNG.integers(0, 200, size=6).astype(np.uint8)[::-2],
)


@cuda.jit
def sums_k(out):
    i = 0
    for a in literal_unroll(ARRAYS):
        out[i, 0] = np.sum(a)
        out[i, 1] = a.size
        out[i, 2] = np.max(a)
        out[i, 3] = a.ndim
        i += 1


def test_global_tuple_of_arrays_of_mixed_dtypes_and_dimensions():
    out = np.zeros((len(ARRAYS), 4))
    sums_k[1, 1](out)
    want = np.array([[np.sum(a), a.size, np.max(a), a.ndim] for a in ARRAYS], dtype=np.float64)
    np.testing.assert_allclose(out, want, rtol=1e-6)


@cuda.jit
def scaled_k(out, t, f):
    i = 0
    for x in literal_unroll(t):
        y = x * f          # private to each copy: typed per element
        out[i] = y
        i += 1


def test_each_copy_has_its_own_types():
    # float32 * float32 stays float32 (rounded to float32) where the other
    # elements are int64 and float64: one type for y would round differently
    f = np.float32(1.1)
    vals = (np.float32(RNG.standard_normal()), int(RNG.integers(1, 100)), float(RNG.standard_normal()),
            np.float32(RNG.standard_normal()))
    out = np.zeros(4)
    scaled_k[1, 1](out, vals, f)
    # (int64 * float32 is float64 in kernels, as in Numba)
    want = [np.float32(vals[0]) * f, np.float64(vals[1]) * np.float64(f), vals[2] * np.float64(f),
            np.float32(vals[3]) * f]
    assert [float(w) for w in want] == list(out)
    assert out[0] == float(np.float32(vals[0] * f))


@cuda.jit
def control_k(out, a, t):
    i = 0
    for x in ptxjit.literal_unroll((1, 2.5, t[0], np.float32(0.5), True, 7)):
        i += 1
        if i == 2:
            continue
        out[i] = x * 3
        if i == 5:
            break
    else:
        out[0] = -1.0
    for x in cuda.literal_unroll((a, t)):
        out[6] += x[0]
    else:
        out[7] = 99


def test_break_continue_and_else():
    a = RNG.standard_normal(4)
    t = (int(RNG.integers(-9, 9)), float(RNG.standard_normal()))
    out = np.zeros(8)
    control_k[1, 1](out, a, t)
    want = np.zeros(8)
    for i, x in enumerate((1, 2.5, t[0], 0.5, True, 7), 1):
        if i == 2:
            continue
        want[i] = x * 3
        if i == 5:
            break
    else:
        want[0] = -1.0
    want[6] = a[0] + t[0]
    want[7] = 99
    np.testing.assert_array_equal(out, want)


@cuda.jit
def nested_k(out, a, b):
    pairs = ((a, 1, 2.5), (b, True, 3))       # a local tuple of tuples
    k = 0
    for p in literal_unroll(pairs):
        q = (p[1], p[2])
        for x in literal_unroll(q):
            out[k] = x * 2
            k += 1
        out[k] = np.sum(p[0]) * p[1]
        k += 1


def test_nested_over_a_local_tuple():
    a = RNG.standard_normal(3)
    b = RNG.integers(-5, 5, size=(2, 2))
    out = np.zeros(6)
    nested_k[1, 1](out, a, b)
    want = np.array([2, 5.0, np.sum(a) * 1, 2, 6, np.sum(b) * 1])
    np.testing.assert_allclose(out, want)


@cuda.jit(device=True)
def total(t):
    s = 0.0
    for x in literal_unroll(t):
        s += np.sum(x)
    return s


@cuda.jit
def device_k(out, a, b):
    out[0] = total((a, b, a[::2]))
    out[1] = total((b,))
    empty = 0
    for x in literal_unroll(()):
        empty += 1
    out[2] = empty


def test_in_a_device_function_and_over_the_empty_tuple():
    a = RNG.standard_normal(5)
    b = RNG.integers(-5, 5, size=(2, 3)).astype(np.int32)
    out = np.full(3, 7.0)
    device_k[1, 1](out, a, b)
    np.testing.assert_allclose(out, [np.sum(a) + np.sum(b) + np.sum(a[::2]), np.sum(b), 0])


def test_host_call_returns_its_argument():
    t = (1, np.zeros(2))
    assert literal_unroll(t) is t and cuda.literal_unroll is literal_unroll
    assert ptxjit.literal_unroll is literal_unroll


def test_ptx_assembles():
    assert_ptx_assembles([sums_k, scaled_k, control_k, nested_k, device_k], 5)


def test_refusals():
    def unknown_length(a):
        for x in literal_unroll(a):
            a[0] = x

    with pytest.raises(TypingError, match="needs a tuple whose length is known"):
        cuda.compile_ptx(unknown_length, "void(float64[::1])")

    def outside_a_loop(a):
        t = literal_unroll((1, 2))
        a[0] = t[0]

    with pytest.raises(TypingError, match="only as the iterable of a for loop"):
        cuda.compile_ptx(outside_a_loop, "void(float64[::1])")

    def conflict_in_a_copy(a):
        for x in literal_unroll((1, a)):
            y = x
            if a[0] > 0:
                y = 2.5      # meets the array of copy 1 below
            a[1] = y

    # the message names the variable as written, not its copy's own name
    with pytest.raises(TypingError, match="to variable 'y', which holds array"):
        cuda.compile_ptx(conflict_in_a_copy, "void(float64[::1])")


SLICES = ["t[1:]", "t[:-1]", "t[-2:]", "t[1:100]", "t[-100:2]", "t[3:1]", "t[:]", "t[2:-2]"]


@pytest.mark.parametrize("sl", SLICES)
def test_slices_with_constant_bounds(sl):
    ns = {"np": np, "literal_unroll": literal_unroll}
    exec("def k(out, t):\n    i = 0\n    for x in literal_unroll(%s):\n        out[i] = x\n        i += 1\n" % sl, ns)
    t = (1, 2.5, True, 4, np.float32(5.5), 6)
    out = np.zeros(8)
    cuda.jit(ns["k"])[1, 1](out, t)
    want = eval(sl, {"t": (1, 2.5, 1, 4, 5.5, 6)})
    np.testing.assert_array_equal(out[:len(want)], want)
    assert not out[len(want):].any()


@cuda.jit
def shape_k(out, a):
    i = 0
    for n in literal_unroll(a.shape):
        out[i] = n
        i += 1
    for s in literal_unroll(a.strides[1:]):
        out[i] = s
        i += 1


def test_shape_and_strides_of_an_array_argument():
    a = np.zeros((2, 3, 4))
    out = np.zeros(5)
    shape_k[1, 1](out, a)
    np.testing.assert_array_equal(out, [2, 3, 4, 32, 8])


PAIRS = ((1, 2.5), (np.float32(3.5), True, 7), ((4, 5), 6.25))


@cuda.jit
def over_outer_k(out, a):
    k = 0
    for p in literal_unroll(PAIRS):
        for x in literal_unroll(p[1:]):
            out[k] = x * 2
            k += 1
        for q in literal_unroll(((a, a[1:]), (a[::2], a))):
            for y in literal_unroll(q):
                out[k] = np.sum(y)
                k += 1


def test_inner_loop_over_the_outer_variable():
    a = RNG.standard_normal(3)
    out = np.zeros(16)
    over_outer_k[1, 1](out, a)
    want = []
    for p in PAIRS:
        want += [x * 2 for x in p[1:]]
        want += [np.sum(a), np.sum(a[1:]), np.sum(a[::2]), np.sum(a)]
    np.testing.assert_allclose(out[:len(want)], want, rtol=1e-15)
    assert len(want) == 16

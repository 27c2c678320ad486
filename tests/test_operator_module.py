"""The functions of Python's operator module in kernels and device
functions, as Numba allows them: operator.add(a, b) is a + b, with the
operators' own typing (operator.truediv of ints is a float64, operator.lt
a bool), whether the function is named through the module, imported by
name, or bound to a global or closure variable (op = operator.mul).

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against the same operator applied by NumPy.
"""

import operator
from operator import add, contains, getitem, truth

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError

from conftest import assert_ptx_assembles

KERNELS = []

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.pow, operator.iadd, operator.isub, operator.imul, operator.itruediv]
INT_BINARY = [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift,
              operator.iand, operator.ior, operator.ixor, operator.ilshift, operator.irshift]
COMPARE = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


def make_binary(op):
    @cuda.jit
    def k(out, a, b):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = op(a[i], b[i])
    KERNELS.append(k)
    return k


@pytest.mark.parametrize("op", BINARY, ids=lambda o: o.__name__)
def test_float_operators_bound_to_a_global(op, rng):
    a = rng.uniform(0.5, 4, 64)
    b = rng.uniform(0.5, 3, 64)
    out = np.zeros(64)
    make_binary(op)[2, 32](out, a, b)
    np.testing.assert_allclose(out, op(a.copy(), b), rtol=1e-15)


@pytest.mark.parametrize("op", INT_BINARY, ids=lambda o: o.__name__)
def test_integer_operators_bound_to_a_global(op, rng):
    a = rng.integers(-1000, 1000, 64)
    b = rng.integers(0, 8, 64)
    out = np.zeros(64, np.int64)
    make_binary(op)[2, 32](out, a, b)
    np.testing.assert_array_equal(out, op(a.copy(), b))


@pytest.mark.parametrize("op", COMPARE, ids=lambda o: o.__name__)
def test_comparisons_give_bools(op, rng):
    a = rng.integers(0, 4, 64).astype(np.float32)
    b = rng.integers(0, 4, 64).astype(np.float32)
    out = np.zeros(64, np.bool_)
    make_binary(op)[2, 32](out, a, b)
    np.testing.assert_array_equal(out, op(a, b))


@cuda.jit(device=True)
def combine(f, x, y):
    return f(x, y)


@cuda.jit
def through_module_and_names(out, a, b, t):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = operator.neg(a[i])
        out[1, i] = operator.abs(b[i])
        out[2, i] = getitem(a, i)
        out[3, i] = contains(t, i)
        out[4, i] = truth(a[i] > b[i])
        out[5, i] = add(a[i], operator.pos(b[i]))
        out[6, i] = operator.not_(a[i] < 0)
        out[7, i] = combine(operator.mul, a[i], b[i])
        out[8, i] = operator.truediv(i, 4)


KERNELS.append(through_module_and_names)


def test_unary_and_other_forms_in_kernels_and_device_functions(rng):
    n = 64
    a = rng.standard_normal(n)
    b = rng.standard_normal(n)
    t = (3, 17, 40)
    out = np.zeros((9, n))
    through_module_and_names[2, 32](out, a, b, t)
    idx = np.arange(n)
    want = [-a, abs(b), a, np.isin(idx, t), a > b, a + b, ~(a < 0), a * b, idx / 4]
    for row, w in enumerate(want):
        np.testing.assert_allclose(out[row], w, rtol=1e-15, err_msg="row %d" % row)


def test_operator_functions_that_are_not_operators_are_refused():
    from operator import itemgetter

    @cuda.jit
    def k(out):
        out[0] = itemgetter(0)

    with pytest.raises(TypingError, match="itemgetter"):
        k[1, 1](np.zeros(1))


def test_wrong_arity_is_refused():
    @cuda.jit
    def k(out):
        out[0] = operator.add(1.0)

    with pytest.raises(TypingError, match=r"add\(\) takes 2 arguments \(1 given\)"):
        k[1, 1](np.zeros(1))


def test_ptx_assembles():
    assert_ptx_assembles(KERNELS, 10)

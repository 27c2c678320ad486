"""Functions defined inside kernels and device functions (closures), as
Numba compiles them: called where they are defined, passed to device
functions (also through *args) and called there, with defaults and
keyword arguments, nested in each other, and capturing the enclosing
function's constants and globals.  A captured variable must hold one
constant (Numba's rule for a function that may escape); others are
refused with Numba's message.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against the same functions run by CPython.
"""

import numpy as np
import pytest

from ptxjit import cuda

SCALE = 3.0


def apply_py(func, *args):
    return func(*args)


apply = cuda.jit(device=True)(apply_py)


def body(x, i, apply, sq):
    off = 2.5
    n = 4

    def shift(v):
        return v + off + SCALE

    def poly(a, b, c=1.0, d=2.0):
        return a * c + b * d + n

    def twice(f, v):
        return f(f(v))

    def nest(v):
        def inner(w):
            return w * off
        return inner(v) - n

    return (shift(x), apply(shift, x), poly(x, i), apply(poly, x, i, 0.5), poly(x, i, d=-1.0),
            twice(shift, x), apply(twice, nest, x), apply(sq, x))


def square(v):
    return v * v


square_d = cuda.jit(device=True)(square)
body_d = cuda.jit(device=True)(body)


@cuda.jit
def closure_k(x, out):
    i = cuda.grid(1)
    if i < x.size:
        r = body_d(x[i], i, apply, square_d)
        for j in range(8):
            out[i, j] = r[j]


def test_closures_called_passed_and_nested(rng):
    x = rng.standard_normal(48)
    out = np.zeros((48, 8))
    closure_k[1, 64](x, out)
    ref = np.array([body(v, i, apply_py, square) for i, v in enumerate(x)])
    np.testing.assert_allclose(out, ref, rtol=1e-14)


def test_capturing_a_variable_assigned_twice_is_refused():
    @cuda.jit
    def k(a):
        s = 1.0
        if a[0] > 0:
            s = 2.0

        def f(v):
            return v * s
        a[1] = f(a[0])
    with pytest.raises(Exception, match=r"Cannot capture a constant value for variable 's' as there are multiple"):
        k[1, 1](np.ones(2))


def test_capturing_a_value_that_is_not_constant_is_refused():
    @cuda.jit
    def k(a):
        s = a[0]

        def f(v):
            return v * s
        a[1] = f(a[0])
    with pytest.raises(Exception, match=r"Cannot capture the non-constant value associated with variable 's'"):
        k[1, 1](np.ones(2))

"""Device functions with a last *args parameter: the extra positional
arguments arrive as one tuple (empty when there are none, of mixed types
too), iterated, indexed, measured with len() and passed on, as in Numba.
A call unpacks a tuple into its arguments, f(a, *t, b): a tuple variable, a
tuple display or a call's result (evaluated once).  A @cuda.jit function
with *args can be called from a kernel; it cannot be launched.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against the same functions run by CPython.
"""

import numpy as np
import pytest

from ptxjit import cuda


def total_py(scale, *args):
    s = 0.0
    for v in args:
        s += v
    return scale * s + len(args)


def first_or_py(d, *rest):
    if len(rest) > 0:
        return rest[0]
    return d


total = cuda.jit(device=True)(total_py)
first_or = cuda.jit(device=True)(first_or_py)


@cuda.jit(device=True)
def relay(a, b):
    return total(2.0, a, b) - first_or(a, b, a)


@cuda.jit
def star_k(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = total(2.0, x[i], 1.5, i)
        out[i, 1] = total(3.0)
        out[i, 2] = first_or(7.0) + first_or(1.0, x[i], 9)
        out[i, 3] = total(scale=0.5)
        out[i, 4] = relay(x[i], i)


def test_star_args_in_device_functions(rng):
    x = rng.standard_normal(40)
    out = np.zeros((40, 5))
    star_k[1, 64](x, out)
    ref = np.array([[total_py(2.0, v, 1.5, i), total_py(3.0), first_or_py(7.0) + first_or_py(1.0, v, 9),
                     total_py(scale=0.5), total_py(2.0, v, i) - first_or_py(v, i, v)]
                    for i, v in enumerate(x)])
    np.testing.assert_allclose(out, ref, rtol=1e-14)


def weigh_py(a, b, c):
    return a + 2.0 * b + 3.0 * c


def pair_py(x):
    return x, x * x - 1.0


weigh = cuda.jit(device=True)(weigh_py)
pair = cuda.jit(device=True)(pair_py)


@cuda.jit
def apply(func, *args):
    return func(*args)


def unpack_py(x, i):
    t = (x, 1.5)
    return (weigh_py(*t, i), weigh_py(*pair_py(x), x), weigh_py(1.0, *(x, i)), total_py(x, *t, *t),
            apply.py_func(weigh_py, x, i, 0.5), complex(*pair_py(x)).imag, apply.py_func(pair_py, x)[1])


@cuda.jit
def unpack_k(x, out):
    i = cuda.grid(1)
    if i < x.size:
        t = (x[i], 1.5)
        out[i, 0] = weigh(*t, i)
        out[i, 1] = weigh(*pair(x[i]), x[i])
        out[i, 2] = weigh(1.0, *(x[i], i))
        out[i, 3] = total(x[i], *t, *t)
        out[i, 4] = apply(weigh, x[i], i, 0.5)
        out[i, 5] = complex(*pair(x[i])).imag
        out[i, 6] = apply(pair, x[i])[1]


def test_call_unpacks_tuples(rng):
    x = rng.standard_normal(40)
    out = np.zeros((40, 7))
    unpack_k[1, 64](x, out)
    ref = np.array([unpack_py(v, i) for i, v in enumerate(x)])
    np.testing.assert_allclose(out, ref, rtol=1e-14)


def test_kernels_refuse_kwargs():
    with pytest.raises(TypeError, match=r"\*\*kwargs and keyword-only parameters are not supported"):
        @cuda.jit
        def k(a, **rest):
            a[0] = len(rest)


def test_kernel_with_star_args_is_not_launched():
    @cuda.jit
    def k(a, *rest):
        a[0] = len(rest)
    with pytest.raises(Exception, match=r"a kernel with \*args cannot be launched"):
        k[1, 1](np.zeros(1))


def test_unpacking_refused_where_evaluated_on_some_paths():
    @cuda.jit
    def k(a, c):
        a[0] = weigh(*pair(a[1])) if c else 0.0
    with pytest.raises(Exception, match=r"evaluated only on some paths"):
        k[1, 1](np.zeros(2), True)


def test_unpacking_a_number_is_refused():
    @cuda.jit
    def k(a):
        x = a[0]
        a[1] = weigh(*x)
    with pytest.raises(Exception, match=r"kernels unpack only tuples"):
        k[1, 1](np.zeros(2))

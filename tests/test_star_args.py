"""Device functions with a last *args parameter: the extra positional
arguments arrive as one tuple (empty when there are none, of mixed types
too), iterated, indexed, measured with len() and passed on, as in Numba.
Kernels keep a fixed list of parameters.

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


def test_kernels_refuse_star_args():
    with pytest.raises(TypeError, match=r"\*args, \*\*kwargs and keyword-only parameters are not supported"):
        @cuda.jit
        def k(a, *rest):
            a[0] = len(rest)

"""Functions a kernel reaches through other hands: a function held by a
module object that is not math, numpy or cuda (`mymod.f(x)`, the module a
namespace of its attributes), an overload made with Numba's own
numba.extending.overload for the cuda target (compiled by ptxjit from the
user's typing function), and a Numba @jit function with explicit
signatures, which Numba refuses on the device ("Untyped global name ...:
using cpu function on device"), as ptxjit does.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against NumPy's answers.
"""

from types import ModuleType

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError


@cuda.jit(device=True)
def triple(x):
    return 3 * x


mymod = ModuleType("mymod")
mymod.triple = triple
mymod.OFFSET = 7


@cuda.jit
def module_k(out, a):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = mymod.triple(a[i]) + mymod.OFFSET


def test_a_function_of_a_module_object(rng):
    a = rng.standard_normal(50)
    out = np.zeros(50)
    module_k[2, 32](out, a)
    np.testing.assert_array_equal(out, 3 * a + 7)


def test_numba_extending_overload_for_cuda(rng):
    numba_ext = pytest.importorskip("numba.extending")

    def scaled(x):
        raise NotImplementedError

    @numba_ext.overload(scaled, target="cuda", inline="always")
    def ol_scaled(x):
        def impl(x):
            return x * 2.5 - 1
        return impl

    @cuda.jit
    def k(out, a):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = scaled(a[i])

    a = rng.standard_normal(40)
    out = np.zeros(40)
    k[2, 32](out, a)
    np.testing.assert_allclose(out, a * 2.5 - 1, rtol=1e-15, atol=1e-15)   # a multiply-add may be fused


def test_numba_jit_with_signatures_is_refused():
    numba = pytest.importorskip("numba")

    @numba.jit("(i4, i4)")
    def add(a, b):
        return a + b

    @cuda.jit
    def k(out):
        out[0] = add(1, 2)

    with pytest.raises(TypingError, match="Untyped global name 'add': using cpu function on device"):
        k[1, 1](np.zeros(1))

"""NumPy ufuncs with output arrays in kernels: np.f(x[, y], out[, out2]).

As Numba: the call writes f of every element into the output array, the
inputs (scalars or arrays) broadcast to the output's shape (an array of
fewer dimensions lines up with its last ones, an extent of 1 repeats), the
loop is NumPy's first whose inputs take the arguments safely and whose
results cast "same_kind" to the outputs, and the call's value is the
output (a tuple of both for frexp, modf, divmod).  Checked against NumPy
on random data, on the simulator (and the GPU where there is one), in a
kernel and in a device function; the PTX assembles with ptxas.
"""

import numpy as np
import pytest

from conftest import assert_ptx_assembles
from ptxjit import cuda
from ptxjit.errors import TypingError

UNARY = ["sin", "cos", "tan", "arcsin", "arctan", "sinh", "tanh", "exp", "log1p", "sqrt",
         "deg2rad", "rad2deg", "negative", "absolute", "floor", "isnan", "logical_not", "square"]
BINARY = ["add", "subtract", "multiply", "divide", "arctan2", "hypot", "maximum", "fmin",
          "less", "greater_equal", "equal", "logical_xor", "power", "floor_divide", "fmod"]
KERNELS = []


def unary_kernel(name):
    src = "def k(x, out):\n    np.%s(x, out)\n" % name
    ns = {"np": np}
    exec(src, ns)
    k = cuda.jit(ns["k"])
    KERNELS.append(k)
    return k


def binary_kernel(name):
    ns = {"np": np}
    exec("def k(x, y, out):\n    np.%s(x, y, out)\n" % name, ns)
    k = cuda.jit(ns["k"])
    KERNELS.append(k)
    return k


def data(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return rng.uniform(0.05, 0.95, shape).astype(dtype)
    return rng.integers(1, 50, shape).astype(dtype)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unary_into_array(rng, name, dtype):
    f = getattr(np, name)
    x = data(rng, (5, 7), dtype)
    want = f(x)
    out = np.zeros_like(want)
    unary_kernel(name)[1, 1](x, out)
    np.testing.assert_allclose(out, want, rtol=1e-6 if dtype == "float32" else 1e-14)


@pytest.mark.parametrize("name", BINARY)
def test_binary_broadcast(rng, name):
    f = getattr(np, name)
    x = data(rng, (3, 4, 5), np.float64)
    y = data(rng, (4, 1), np.float32)   # broadcast over the first and last axes
    want = f(x, y)
    out = np.zeros_like(want)
    binary_kernel(name)[1, 1](x, y, out)
    np.testing.assert_allclose(out, want, rtol=1e-14)


def test_integer_loops_and_scalar_inputs(rng):
    x = rng.integers(-1000, 1000, 40).astype(np.int16)
    out = np.zeros(40, np.int16)
    binary_kernel("bitwise_xor")[1, 1](x, np.int16(0x5A5), out)
    np.testing.assert_array_equal(out, x ^ np.int16(0x5A5))
    # a scalar into a one-element array (broadcast), as Numba's tests do
    one = np.zeros(1)
    unary_kernel("cos")[1, 1](0.25, one)
    assert one[0] == np.cos(0.25)
    # uint8 + uint8 wraps in the uint8 loop
    a = rng.integers(0, 256, 64).astype(np.uint8)
    b = rng.integers(0, 256, 64).astype(np.uint8)
    o = np.zeros(64, np.uint8)
    binary_kernel("add")[1, 1](a, b, o)
    np.testing.assert_array_equal(o, a + b)


def test_result_cast_to_output(rng):
    # float64 results into float32 (same_kind), int32 into float64
    x = data(rng, 33, np.float64)
    o32 = np.zeros(33, np.float32)
    unary_kernel("exp")[1, 1](x, o32)
    np.testing.assert_array_equal(o32, np.exp(x).astype(np.float32))
    i = rng.integers(-9, 9, 33).astype(np.int32)
    od = np.zeros(33)
    unary_kernel("negative")[1, 1](i, od)
    np.testing.assert_array_equal(od, -i.astype(np.float64))


def test_two_outputs_and_value(rng):
    @cuda.jit
    def k(x, m, e, n):
        r = np.frexp(x, m, e)
        n[0] = r[0].size + r[1].size
    KERNELS.append(k)
    x = rng.normal(0, 100, (6, 5))
    m, e, n = np.zeros_like(x), np.zeros(x.shape, np.int32), np.zeros(1, np.int64)
    k[1, 1](x, m, e, n)
    wm, we = np.frexp(x)
    np.testing.assert_array_equal(m, wm)
    np.testing.assert_array_equal(e, we)
    assert n[0] == 60


def test_device_function_and_strided(rng):
    @cuda.jit(device=True)
    def hyp(a, b, out):
        return np.hypot(a, b, out)

    @cuda.jit
    def k(a, b, out, s):
        o = hyp(a[::2, ::-1], b, out)   # a strided view (layout A)
        s[0] = o[1, 0]
    KERNELS.append(k)
    a = rng.normal(size=(8, 6))
    b = rng.normal(size=6)
    out = np.zeros((4, 6), order="F")
    s = np.zeros(1)
    k[1, 1](a, b, out, s)
    np.testing.assert_allclose(out, np.hypot(a[::2, ::-1], b), rtol=1e-15)
    assert s[0] == out[1, 0]


def test_shapes_that_do_not_broadcast_fail(rng):
    k = binary_kernel("add")
    with pytest.raises(Exception, match="broadcast"):
        k[1, 1](np.ones(4), np.ones(3), np.zeros(4))


@pytest.mark.parametrize("src, msg", [
    ("def k(x, o):\n    np.sin(x)\n", "needs an output array"),
    ("def k(x, o):\n    np.sin(x, o, o)\n", "takes 2 arguments"),
    ("def k(x, o):\n    np.sin(x, 1.0)\n", "must be an array"),
    ("def k(x, o):\n    np.sqrt(x, o)\n", "cannot write into int32 output"),
])
def test_refused(src, msg):
    ns = {"np": np}
    exec(src, ns)
    with pytest.raises(TypingError, match=msg):
        cuda.jit(ns["k"])[1, 1](np.ones(3), np.zeros(3, np.int32))


def test_ptx_assembles():
    assert_ptx_assembles(KERNELS, 10)

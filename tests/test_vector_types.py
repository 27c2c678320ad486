"""Numba's CUDA vector types (cuda.float32x3, cuda.float3, cuda.uchar4, ...):
built in kernels from scalars and other vectors, read by .x .y .z .w,
passed to and returned from device functions.  On a GPU:
PTXJIT_TEST_GPU=1 python3 -m pytest -q tests/test_vector_types.py
"""

import numpy as np
import pytest

from ptxjit import cuda, errors
from ptxjit.cuda.vector_types import vector_types

BASES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]
ALIASES = {"char": "int8", "short": "int16", "int": "int32", "long": "int64", "longlong": "int64",
           "uchar": "uint8", "ushort": "uint16", "uint": "uint32", "ulong": "uint64", "ulonglong": "uint64",
           "float": "float32", "double": "float64"}


def build_kernel(ctor, n):
    """A kernel that builds the vector from four float64 values (converted
    to its base type) and writes .x .y .z .w back."""
    if n == 1:
        def k(a, out):
            v = ctor(a[0])
            out[0] = v.x
    elif n == 2:
        def k(a, out):
            v = ctor(a[0], a[1])
            out[0] = v.x
            out[1] = v.y
    elif n == 3:
        def k(a, out):
            v = ctor(a[0], a[1], a[2])
            out[0] = v.x
            out[1] = v.y
            out[2] = v.z
    else:
        def k(a, out):
            v = ctor(a[0], a[1], a[2], a[3])
            out[0] = v.x
            out[1] = v.y
            out[2] = v.z
            out[3] = v.w
    return cuda.jit(k)


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_every_vector_type(rng, base, n):
    name = "%sx%d" % (base, n)
    a = rng.uniform(1, 100, 4)
    out = np.zeros(4)
    build_kernel(getattr(cuda, name), n)[1, 1](a, out)
    want = np.zeros(4)
    want[:n] = a[:n].astype(base)          # converted to the base type, as Numba converts
    np.testing.assert_array_equal(out, want)
    assert vector_types[name].num_elements == n and str(vector_types[name].base_type) == base


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_c_names(rng, alias):
    for n in (1, 2, 3, 4):
        ctor = getattr(cuda, "%s%d" % (alias, n))
        assert ctor is getattr(cuda, "%sx%d" % (ALIASES[alias], n))
    a = rng.uniform(1, 100, 4)
    out = np.zeros(4)
    build_kernel(getattr(cuda, alias + "4"), 4)[1, 1](a, out)
    np.testing.assert_array_equal(out, a.astype(ALIASES[alias]))


@cuda.jit(device=True)
def scaled(v, s):
    return cuda.float3(v.x * s, v.y * s, v.z * s)


@cuda.jit(device=True)
def dot(u, v):
    return u.x * v.x + u.y * v.y + u.z * v.z


def test_vectors_from_vectors_and_device_functions(rng):
    """float4(v3, w), float3(s, v2), double2(v2): the elements of a vector of
    the same base in order; vectors pass to device functions and return."""
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.shape[0]:
            v = cuda.float32x3(a[i, 0], a[i, 1], a[i, 2])
            w = cuda.float4(v, a[i, 3])
            t = cuda.float3(a[i, 3], cuda.float2(w.y, w.x))
            u = scaled(v, np.float32(2.0))
            out[i, 0] = w.w
            out[i, 1] = t.x
            out[i, 2] = t.y
            out[i, 3] = t.z
            out[i, 4] = u.z
            out[i, 5] = dot(v, u)

    a = rng.uniform(-10, 10, (64, 4)).astype(np.float32)
    out = np.zeros((64, 6), np.float32)
    k[2, 32](a, out)
    np.testing.assert_array_equal(out[:, 0], a[:, 3])
    np.testing.assert_array_equal(out[:, 1:4], a[:, [3, 1, 0]])
    np.testing.assert_array_equal(out[:, 4], a[:, 2] * np.float32(2))
    v = a[:, :3]
    u = v * np.float32(2)
    want = (v[:, 0] * u[:, 0] + v[:, 1] * u[:, 1]) + v[:, 2] * u[:, 2]
    np.testing.assert_allclose(out[:, 5], want, rtol=1e-6)


def test_a_vector_chosen_at_run_time(rng):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            v = cuda.int2(1, 2)
            if a[i] > 0:
                v = cuda.int2(3, i)
            out[i] = v.x * 100 + v.y

    a = rng.uniform(-1, 1, 64)
    out = np.zeros(64, np.int64)
    k[1, 64](a, out)
    np.testing.assert_array_equal(out, np.where(a > 0, 300 + np.arange(64), 102))


def test_errors():
    def k1(a):
        v = cuda.float3(1.0, 2.0)
        a[0] = v.x

    def k2(a):
        v = cuda.float2(1.0, 2.0)
        a[0] = v.z

    def k3(a):
        v = cuda.float3(cuda.int2(1, 2), 3.0)
        a[0] = v.x

    def k4(a):
        v = cuda.float2(1.0, 2.0)
        if a[0] > 0:
            v = cuda.double2(1.0, 2.0)
        a[0] = v.x

    for fn, msg in ((k1, r"cuda\.float32x3\(\) takes 3 elements, 2 given"),
                    (k2, r"float32x2 has no attribute 'z'"),
                    (k3, r"cuda\.float32x3\(\) does not accept a int32x2 argument"),
                    (k4, r"float64x2.*float32x2|float32x2.*float64x2")):
        with pytest.raises(errors.TypingError, match=msg):
            cuda.jit("void(float32[::1])")(fn)

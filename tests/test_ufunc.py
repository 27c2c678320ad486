"""Functions over whole arrays: @jit(target='gpu'), vectorize and guvectorize
(target='cuda'), against NumPy on random data: broadcasting in 1, 2 and 3
dimensions, mixed dtypes, scalars, several outputs, out=, device inputs,
non-contiguous inputs, streams, .reduce, gufunc matmul against np.matmul,
and the errors for shapes that do not broadcast and bodies that are not
elementwise."""

import math

import numpy as np
import pytest

import ptxjit
from ptxjit import cuda, guvectorize, jit, vectorize
from ptxjit.errors import TypingError

from conftest import ON_GPU


@jit(target='gpu')
def add(x, y):
    return x + y


@jit(target='cuda')
def axpy(a, x, y):
    return a * x + y


@jit(target='gpu')
def sum_diff(x, y):
    return x + y, x - y


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@jit(target='gpu')
def piecewise(x, n):
    # locals, if, a loop, math, a device function
    acc = 0.0
    for k in range(n):
        acc += x / (k + 1)
    if acc > 1.0:
        r = math.sqrt(acc)
    else:
        r = -acc
    return clamp(r, -2.0, 2.0)


@jit(target='gpu')
def bigger(x, y):
    return x > y


@jit(target='gpu')
def index_it(x, y):
    return x[0] + y


@jit(target='gpu')
def shape_of(x):
    return x.shape[0]


def test_seed_example_add(capsys):
    x = np.arange(1024, dtype=np.float32)
    out = add(x, x)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32
    np.testing.assert_array_equal(out, x + x)


@pytest.mark.parametrize("sa,sb", [
    ((17,), (17,)),
    ((5, 7), (7,)),
    ((5, 1), (1, 7)),
    ((3, 1, 6), (4, 1)),
    ((2, 3, 4), (2, 3, 4)),
    ((1,), (9,)),
    ((2, 1, 3, 1), (1, 4, 1, 5)),
])
def test_broadcast_against_numpy(rng, sa, sb):
    a = rng.standard_normal(sa)
    b = rng.standard_normal(sb).astype(np.float32)
    got = add(a, b)
    want = a + b
    assert got.shape == want.shape and got.dtype == np.float64
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("da,db,want", [
    (np.float32, np.float32, np.float32),
    (np.float32, np.float64, np.float64),
    (np.int32, np.float32, np.float64),
    (np.int32, np.int32, np.int64),       # Numba's kernel rule: ints add in at least 64 bits
    (np.int64, np.uint8, np.int64),
    (np.uint32, np.uint32, np.uint64),
])
def test_mixed_dtypes(rng, da, db, want):
    a = rng.integers(0, 100, (4, 6)).astype(da)
    b = rng.integers(0, 100, (6,)).astype(db)
    got = add(a, b)
    assert got.dtype == want
    np.testing.assert_array_equal(got, a.astype(want) + b.astype(want))


def test_scalars(rng):
    x = rng.random(33).astype(np.float32)
    got = axpy(2.0, x, 1)          # a Python float is float64 in kernels
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, 2.0 * x.astype(np.float64) + 1, rtol=1e-15)
    got = axpy(np.float32(2.0), x, np.float32(1.0))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, np.float32(2) * x + np.float32(1), rtol=1e-6)
    # only scalars: a scalar back
    r = add(2, 3.5)
    assert r == 5.5 and np.asarray(r).shape == ()
    # a 0-d array is a scalar
    got = add(np.array(3.0), x)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, x.astype(np.float64) + 3.0)


def test_multiple_outputs(rng):
    a = rng.standard_normal((3, 5))
    b = rng.standard_normal(5)
    s, d = sum_diff(a, b)
    np.testing.assert_array_equal(s, a + b)
    np.testing.assert_array_equal(d, a - b)
    o1, o2 = np.empty((3, 5)), np.empty((3, 5))
    r = sum_diff(a, b, out=(o1, o2))
    assert r[0] is o1 and r[1] is o2
    np.testing.assert_array_equal(o1, a + b)
    np.testing.assert_array_equal(o2, a - b)


def test_control_flow_math_and_device_functions(rng):
    x = rng.random(50) * 3
    got = piecewise(x, 4)
    acc = sum(x / (k + 1) for k in range(4))
    want = np.clip(np.where(acc > 1.0, np.sqrt(acc), -acc), -2.0, 2.0)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_comparison_gives_bool(rng):
    a, b = rng.random(20), rng.random(20)
    got = bigger(a, b)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, a > b)


def test_out_host_and_device(rng):
    a = rng.random((4, 5))
    b = rng.random(5)
    out = np.zeros((4, 5))
    r = add(a, b, out=out)
    assert r is out
    np.testing.assert_array_equal(out, a + b)
    # a non-contiguous host out
    big = np.zeros((8, 10))
    view = big[::2, ::2]
    add(a, b, out=view)
    np.testing.assert_array_equal(view, a + b)
    assert big[1::2].sum() == 0
    # a device out of another dtype: stores cast
    dout = cuda.device_array((4, 5), np.float32)
    r = add(a, b, out=dout)
    assert r is dout
    np.testing.assert_array_equal(dout.copy_to_host(), (a + b).astype(np.float32))
    # out of the wrong shape
    with pytest.raises(ValueError, match=r"\(3, 5\)"):
        add(a, b, out=np.zeros((3, 5)))


def test_device_inputs_give_device_outputs(rng):
    a = rng.random((6, 7)).astype(np.float32)
    b = rng.random(7).astype(np.float32)
    da, db = cuda.to_device(a), cuda.to_device(b)
    r = add(da, db)
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_array_equal(r.copy_to_host(), a + b)
    # mixed host and device: the result stays on the device
    r = add(da, b)
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_array_equal(r.copy_to_host(), a + b)
    s, d = sum_diff(da, 1.5)
    assert isinstance(s, cuda.DeviceNDArray) and isinstance(d, cuda.DeviceNDArray)
    assert d.dtype == np.float64      # float32 and a Python float: float64, as in kernels
    np.testing.assert_array_equal(d.copy_to_host(), a.astype(np.float64) - 1.5)


def test_non_contiguous_inputs(rng):
    a = rng.random((9, 12))
    b = rng.random((12, 9))
    np.testing.assert_array_equal(add(a[::2, 1::3], b.T[::2, 1::3]), a[::2, 1::3] + b.T[::2, 1::3])
    np.testing.assert_array_equal(add(a[::-1], a), a[::-1] + a)
    f = np.asfortranarray(a)
    r = add(f, f)
    np.testing.assert_array_equal(r, f + f)
    assert r.flags.f_contiguous            # Fortran in, Fortran out, as NumPy does
    np.testing.assert_array_equal(add(f, a), f + a)
    # device views: a transpose and a strided slice
    da = cuda.to_device(a)
    r = add(da.T, b)
    np.testing.assert_array_equal(r.copy_to_host(), a.T + b)
    r = add(da[1::2, ::3], 1.0)
    np.testing.assert_array_equal(r.copy_to_host(), a[1::2, ::3] + 1.0)


def test_three_dimensions_and_more(rng):
    a = rng.random((2, 3, 4))
    b = rng.random((3, 1))
    np.testing.assert_array_equal(axpy(0.5, a, b), 0.5 * a + b)
    c = rng.random((2, 1, 3, 1, 2))
    d = rng.random((4, 1, 3, 1))
    np.testing.assert_array_equal(add(c, d), c + d)


def test_empty_arrays():
    r = add(np.zeros((0, 3)), np.zeros(3))
    assert r.shape == (0, 3)


def test_stream(rng):
    a = rng.random(100)
    s = cuda.stream()
    r = add(a, a, stream=s)
    np.testing.assert_array_equal(r, a + a)
    da = cuda.to_device(a, stream=s)
    r = add(da, 1.0, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(r.copy_to_host(), a + 1.0)


def test_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError) as info:
        add(np.zeros(3), np.zeros(4))
    msg = str(info.value)
    assert "(3,)" in msg and "(4,)" in msg and "broadcast" in msg
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(2,\)"):
        add(np.zeros((2, 3)), np.zeros(2))


def test_not_elementwise_is_an_error_at_its_line():
    with pytest.raises(TypingError) as info:
        index_it(np.zeros(3), np.zeros(3))
    msg = str(info.value)
    line = index_it.py_func.__code__.co_firstlineno + 2     # the decorator, the def, the return
    assert "test_ufunc.py:%d:" % line in msg, msg
    assert "return x[0] + y" in msg and "^" in msg
    assert "not elementwise" in msg and "@cuda.jit" in msg
    with pytest.raises(TypingError, match="x.shape"):
        shape_of(np.zeros(3))


def test_jit_target_cuda_without_return_is_a_kernel():
    @jit(target='cuda')
    def fill(out, v):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = v
    a = np.zeros(40)
    fill[2, 32](a, 3.0)
    assert (a == 3.0).all()


def test_vectorize_with_signatures(rng):
    @vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
    def mul(a, b):
        return a * b
    x32 = rng.random(10).astype(np.float32)
    r = mul(x32, x32)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r, x32 * x32)
    r = mul(x32, 2.0)                  # a Python float converts to float32 safely
    assert r.dtype == np.float32
    r = mul(x32, np.arange(10))        # int64 needs float64
    assert r.dtype == np.float64
    np.testing.assert_allclose(r, x32.astype(np.float64) * np.arange(10))
    with pytest.raises(TypeError, match="no signature"):
        mul(np.zeros(3, np.complex128), 1.0)
    assert mul.nin == 2 and mul.nout == 1


def test_vectorize_lazy_and_cuda_spelling(rng):
    @vectorize(target='cuda')
    def hyp(a, b):
        return math.sqrt(a * a + b * b)
    a, b = rng.random(16), rng.random(16)
    np.testing.assert_allclose(hyp(a, b), np.hypot(a, b), rtol=1e-15)

    @cuda.vectorize(['int64(int64)'])
    def sq(v):
        return v * v
    np.testing.assert_array_equal(sq(np.arange(9)), np.arange(9) ** 2)

    twice = vectorize(target='cuda')(lambda v: v * 2)
    np.testing.assert_array_equal(twice(np.arange(5.0)), np.arange(5.0) * 2)


def test_reduce(rng):
    a = rng.integers(-50, 50, 37)
    assert add.reduce(a) == a.sum()
    m = rng.integers(-50, 50, (5, 7))
    np.testing.assert_array_equal(add.reduce(m, axis=0), m.sum(axis=0))
    np.testing.assert_array_equal(add.reduce(m, axis=1), m.sum(axis=1))
    np.testing.assert_array_equal(add.reduce(m, axis=-1), m.sum(axis=1))

    @vectorize(['float64(float64, float64)'], target='cuda')
    def vmax(x, y):
        return max(x, y)
    x = rng.standard_normal(101)
    assert vmax.reduce(x) == x.max()
    d = cuda.to_device(m.astype(np.float64))
    r = vmax.reduce(d, axis=1)
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_array_equal(r.copy_to_host(), m.max(axis=1))
    with pytest.raises(TypeError):
        vmax.reduce(np.zeros(0))


def test_gufunc_matmul(rng):
    @guvectorize(['void(float32[:,:], float32[:,:], float32[:,:])',
                  'void(float64[:,:], float64[:,:], float64[:,:])'],
                 '(m,n),(n,p)->(m,p)', target='cuda')
    def matmul(A, B, C):
        m, n = A.shape
        p = B.shape[1]
        for i in range(m):
            for j in range(p):
                s = 0.0
                for k in range(n):
                    s += A[i, k] * B[k, j]
                C[i, j] = s

    A = rng.random((4, 3, 5))
    B = rng.random((5, 2))
    C = matmul(A, B)
    assert C.shape == (4, 3, 2) and C.dtype == np.float64
    np.testing.assert_allclose(C, np.matmul(A, B), rtol=1e-13)
    # broadcasting loop dimensions on both sides
    A2 = rng.random((3, 1, 2, 4))
    B2 = rng.random((5, 4, 3))
    np.testing.assert_allclose(matmul(A2, B2), np.matmul(A2, B2), rtol=1e-13)
    # float32, device arrays in and out
    A3 = rng.random((6, 3, 3)).astype(np.float32)
    dA = cuda.to_device(A3)
    dC = cuda.device_array((6, 3, 3), np.float32)
    matmul(dA, dA, out=dC)
    np.testing.assert_allclose(dC.copy_to_host(), np.matmul(A3, A3), rtol=1e-5)
    # the output passed as the last argument, as in Numba
    C4 = np.zeros((4, 3, 2))
    matmul(A, B, C4)
    np.testing.assert_allclose(C4, np.matmul(A, B), rtol=1e-13)
    with pytest.raises(ValueError, match="'n'"):
        matmul(rng.random((3, 4)), rng.random((5, 2)))


def test_gufunc_scalar_core(rng):
    @guvectorize(['void(float64[:], float64, float64[:])'], '(n),()->()', target='cuda')
    def scaled_sum(x, s, r):
        acc = 0.0
        for i in range(x.shape[0]):
            acc += x[i]
        r[0] = acc * s

    x = rng.random((3, 6))
    np.testing.assert_allclose(scaled_sum(x, 2.0), x.sum(axis=1) * 2.0, rtol=1e-14)
    s = rng.random(3)
    np.testing.assert_allclose(scaled_sum(x, s), x.sum(axis=1) * s, rtol=1e-14)


def test_gufunc_host_scalars_convert_when_their_value_fits(rng):
    """A host scalar of a wider type than the declared signature's (a Python
    int is int64, np.int64(2)) takes the signature when its value converts
    unchanged; one that would change, or a device array, is refused."""
    @guvectorize(["void(int32, int32[:], int32[:])"], "(),(t)->(t)", target="cuda")
    def scale(a, b, out):
        for i in range(b.size):
            out[i] = a * b[i]

    b = rng.integers(-1000, 1000, 37).astype(np.int32)
    for a in (np.int64(3), 7, np.float64(-2.0), np.uint64(5)):
        got = scale(a, b)
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, np.int32(a) * b)
    for a in (np.int64(2 ** 40), 2.5, np.float32(np.nan)):
        with pytest.raises(TypeError, match="no signature takes"):
            scale(a, b)
    with pytest.raises(TypeError, match="does not support .astype"):
        scale(cuda.to_device(np.array(np.int64(2))), b)

    @guvectorize(["void(int32, int32[:])"], "()->()", target="cuda")
    def twice(inp, out):
        out[0] = inp * 2

    assert twice(10) == 20
    x = rng.integers(-50, 50, 10).astype(np.int32)
    np.testing.assert_array_equal(twice(x), 2 * x)


def test_gufunc_argument_count_errors(rng):
    @guvectorize(["void(float32[:], float32[:], float32[:])"], "(m),(m)->(m)", target="cuda")
    def add(x, y, z):
        for i in range(x.size):
            z[i] = x[i] + y[i]

    x = rng.random(5).astype(np.float32)
    with pytest.raises(TypeError, match=r"accepts 2 positional arguments \(its inputs\) or 3 positional "
                                        r"arguments \(inputs and outputs\)\. Got 1 positional argument\."):
        add(x)
    with pytest.raises(TypeError, match="Got 4 positional arguments"):
        add(x, x, x, x)
    out = np.zeros_like(x)
    with pytest.raises(ValueError, match="cannot specify argument 'out' as both positional and keyword"):
        add(x, x, out, out=out)
    add(x, x, out)
    np.testing.assert_array_equal(out, x + x)


def test_ptxjit_namespace():
    assert ptxjit.vectorize is vectorize and ptxjit.jit is jit
    f = ptxjit.vectorize(lambda a, b: a - b, target='cuda')
    np.testing.assert_array_equal(f(np.arange(4), 1), np.arange(4) - 1)


@pytest.mark.skipif(not ON_GPU, reason="CuPy arrays need the GPU")
def test_cupy_inputs():
    cp = pytest.importorskip("cupy")
    a = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    r = add(a, a)
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_array_equal(r.copy_to_host(), cp.asnumpy(a + a))


def test_cuda_vectorize_options_as_numba():
    def add(a, b):
        return a + b

    def copy(a, out):
        for i in range(a.shape[0]):
            out[i] = a[i]
    with pytest.raises(KeyError, match="Unrecognized options.*nonexistent"):
        vectorize(["float32(float32, float32)"], target="cuda", nonexistent=2)(add)
    with pytest.warns(RuntimeWarning, match="nopython kwarg for cuda target is redundant"):
        vectorize(["float32(float32, float32)"], target="cuda", nopython=True)(add)
    g = ptxjit.guvectorize(["void(float32[:], float32[:])"], "(x)->(x)", target="cuda", nopython=True)(copy)
    with pytest.raises(TypeError) as e:
        ptxjit.guvectorize(["void(float32[:], float32[:])"], "(x)->(x)", target="cuda", what1=True, ever2=0)(copy)
    assert str(e.value) == "The following target options are not supported: 'ever2', 'what1'"
    with pytest.raises(TypeError, match="^nopython flag must be True$"):
        ptxjit.guvectorize(["void(float32[:], float32[:])"], "(x)->(x)", target="cuda", nopython=False)(copy)
    with pytest.raises(TypeError, match="guvectorized functions cannot return values.*int32 return type"):
        ptxjit.guvectorize(["int32(int32[:], int32[:])"], "(x)->(x)", target="cuda")(copy)
    x = np.random.default_rng(2).standard_normal(33).astype(np.float32)
    np.testing.assert_array_equal(g(x), x)


def test_numba_vectorizer_builders(rng):
    # numba.vectorize(target='cuda') builds through numba.cuda.vectorizers
    from ptxjit.cuda.vectorizers import CUDAGUFuncVectorize, CUDAVectorize

    def axpb(a, b):
        return a * 2 + b

    def csum(a, out):
        s = 0
        for i in range(a.shape[0]):
            s += a[i]
            out[i] = s
    v = CUDAVectorize(axpb, identity=None, cache=False, targetoptions={})
    for sig in ("int32(int32, int32)", "float64(float64, float64)"):
        v.add(sig)
    v.disable_compile()
    f = v.build_ufunc()
    a = rng.integers(-1000, 1000, 500).astype(np.int32)
    b = rng.standard_normal(500)
    np.testing.assert_array_equal(f(a, a), a * 2 + a)
    assert f(a, a).dtype == np.int32
    np.testing.assert_allclose(f(b, b), b * 2 + b)
    lazy = CUDAVectorize(axpb, targetoptions={}).build_ufunc()          # no signatures: typed per call
    np.testing.assert_allclose(lazy(b, b), b * 2 + b)
    gv = CUDAGUFuncVectorize(csum, "(n)->(n)", identity=None, cache=False, targetoptions={})
    gv.add("void(float64[:], float64[:])")
    g = gv.build_ufunc()
    m = rng.standard_normal((7, 20))
    np.testing.assert_allclose(g(m), np.cumsum(m, axis=1), rtol=1e-12)
    with pytest.raises(TypeError, match="caching is not supported"):
        CUDAVectorize(axpb, cache=True)


def test_driver_module_names():
    from ptxjit.cuda import driver as d
    assert d.CudaAPIError is ptxjit.errors.CudaAPIError and d.Stream is cuda.Stream
    assert d._have_nvjitlink() is False
    major, minor = d.driver.get_version()
    assert isinstance(major, int) and isinstance(minor, int)
    assert d.driver.is_available == (ON_GPU and cuda.is_available())
    if ON_GPU:
        assert major >= 11

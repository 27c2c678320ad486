"""vectorize and guvectorize for the CPU (target='cpu', the default, and
'parallel'), compared with NumPy on random data.

The functions are compiled by the CPU compiler (native code, or the IR
interpreter without a C compiler: test_interpreter_gives_the_same below
forces it), so these tests need no GPU and run the same on every target.
"""

import math

import numpy as np
import pytest

import ptxjit
from ptxjit import guvectorize, njit, vectorize
from ptxjit.errors import TypingError


@pytest.fixture
def rng():
    return np.random.default_rng(77)


@vectorize
def add(x, y):
    return x + y


@vectorize(target='cpu')
def hyp(x, y):
    return math.sqrt(x * x + y * y)


@vectorize
def divmod_(x, y):
    return x // y, x % y


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def mul(x, y):
    return x * y


@vectorize(['int64(int64, int64)'], identity=0)
def iadd(x, y):
    return x + y


@vectorize(['float64(float64, float64)'])
def vmax(x, y):
    return max(x, y)


@vectorize
def clip3(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def test_default_target_is_the_cpu():
    assert isinstance(add, ptxjit.ufunc_cpu.CPUUFunc) and add.target == "cpu"
    assert ptxjit.vectorize is vectorize and ptxjit.guvectorize is guvectorize


def test_parallel_target_splits_the_work(rng, monkeypatch):
    monkeypatch.setenv("PTXJIT_NUM_THREADS", "3")

    @vectorize(target='parallel')
    def sub(x, y):
        return x - 2 * y

    assert sub.target == "parallel"
    np.testing.assert_array_equal(sub(np.arange(5), 2), np.arange(5) - 4)     # small: one thread
    n = ptxjit.ufunc_cpu.PAR_MIN + 7
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    np.testing.assert_array_equal(sub(a, b), a - 2 * b)                      # flat, three slices
    m = rng.standard_normal((301, 257))
    v = rng.standard_normal(257)
    np.testing.assert_array_equal(sub(m.T, m[:257, :1]), m.T - 2 * m[:257, :1])   # nested, broadcast
    o = np.zeros((301, 257))
    sub(m, v, out=o)
    np.testing.assert_array_equal(o, m - 2 * v)

    @guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->()', target='parallel')
    def dot(x, y, r):
        s = 0.0
        for i in range(x.shape[0]):
            s += x[i] * y[i]
        r[0] = s

    x = rng.standard_normal((5000, 16))
    np.testing.assert_allclose(dot(x, x[::-1]), (x * x[::-1]).sum(axis=1), rtol=1e-12)


def test_broadcasting_1d_2d_3d(rng):
    shapes = [((7,), (7,)), ((7,), ()), ((4, 5), (5,)), ((4, 1), (1, 6)), ((3, 4, 5), (4, 1)),
              ((2, 1, 5), (3, 1)), ((1,), (3, 2, 2)), ((2, 3, 4), (2, 3, 4))]
    for sa, sb in shapes:
        a = rng.standard_normal(sa)
        b = rng.standard_normal(sb) if sb else float(rng.standard_normal())
        got = hyp(a, b)
        want = np.hypot(a, b)
        assert got.shape == want.shape and got.dtype == np.float64
        np.testing.assert_allclose(got, want, rtol=1e-15)
        np.testing.assert_array_equal(add(a, b), a + b)


def test_non_contiguous_inputs(rng):
    m = rng.standard_normal((9, 12))
    for x, y in ((m.T, m.T), (m[::2, ::3], m[::-2, ::-3]), (m.T, m.T[::-1]), (m[:, 4], m[::-1, 0])):
        np.testing.assert_array_equal(add(x, y), x + y)
    f = np.asfortranarray(m)
    r = add(f, f)
    np.testing.assert_array_equal(r, m + m)
    assert r.flags.f_contiguous        # the inputs' layout is kept, as NumPy does
    c = rng.standard_normal((4, 5, 6)).transpose(2, 0, 1)
    np.testing.assert_allclose(hyp(c, c[:, :1, :]), np.hypot(c, c[:, :1, :]), rtol=1e-15)


def test_scalars(rng):
    r = hyp(3.0, 4.0)
    assert r == 5.0 and isinstance(r, np.float64)
    assert add(2, 3) == 5 and add(2, 3).dtype == np.int64
    np.testing.assert_array_equal(add(np.arange(4), 10), np.arange(4) + 10)
    assert add(np.float32(1.5), np.float32(2.0)).dtype == np.float32
    z = add(np.array(2.0), np.array(3.0))      # 0-d arrays act as scalars
    assert z == 5.0
    r = add(True, True)                         # bool + bool is an int64 (Numba)
    assert r == 2 and r.dtype == np.int64
    np.testing.assert_array_equal(add(np.array([True, False]), True), [2, 1])


def test_dtypes_follow_the_kernel_rules(rng):
    i32 = rng.integers(-100, 100, 10).astype(np.int32)
    f32 = rng.standard_normal(10).astype(np.float32)
    u8 = rng.integers(0, 255, 10).astype(np.uint8)
    cases = [
        (i32, i32, np.int64),          # ints promote to at least 64 bits (Numba)
        (f32, f32, np.float32),
        (f32, i32, np.float64),
        (f32, 2.0, np.float64),         # a float64 literal
        (u8, u8, np.uint64),
        (i32, 1.5, np.float64),
    ]
    for a, b, dt in cases:
        got = add(a, b)
        assert got.dtype == dt, (a.dtype, type(b), got.dtype)
        np.testing.assert_allclose(got, np.asarray(a, dt) + np.asarray(b, dt), rtol=1e-6)
    c = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    np.testing.assert_allclose(add(c, f32[:6]), c + f32[:6].astype(np.float64))


def test_signatures_cast_to_the_first_that_fits(rng):
    x32 = rng.random(10).astype(np.float32)
    r = mul(x32, x32)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r, x32 * x32)
    assert mul(x32, 2.0).dtype == np.float32        # a Python float converts to float32 safely
    r = mul(x32, np.arange(10))                      # int64 needs float64
    assert r.dtype == np.float64
    np.testing.assert_allclose(r, x32.astype(np.float64) * np.arange(10))
    with pytest.raises(TypeError, match="no signature"):
        mul(np.zeros(3, np.complex128), 1.0)
    assert mul.nin == 2 and mul.nout == 1 and mul.types == ["ff->f", "dd->d"]


def test_multiple_outputs(rng):
    a = rng.integers(-50, 50, (4, 6))
    b = rng.integers(1, 9, 6)
    q, r = divmod_(a, b)
    np.testing.assert_array_equal(q, a // b)
    np.testing.assert_array_equal(r, a % b)
    assert divmod_.nout == 2
    q2, r2 = np.empty_like(q), np.empty((4, 6), np.float64)
    got = divmod_(a, b, out=(q2, r2))
    assert got[0] is q2 and got[1] is r2
    np.testing.assert_array_equal(r2, (a % b).astype(np.float64))


def test_three_inputs_and_control_flow(rng):
    x = rng.standard_normal((5, 7))
    lo = rng.standard_normal(7) - 1
    np.testing.assert_array_equal(clip3(x, lo, 0.5), np.minimum(np.maximum(x, lo), 0.5))


def test_out(rng):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal(4)
    o = np.zeros((3, 4))
    assert add(a, b, out=o) is o
    np.testing.assert_array_equal(o, a + b)
    o2 = np.zeros((5, 6)).T[1:4, ::-1][:, 1:]   # a strided out=
    add(a, b, out=o2)
    np.testing.assert_array_equal(o2, a + b)
    o3 = np.zeros((3, 4), np.float32)            # stored with the out= array's dtype
    add(a, b, o3)
    np.testing.assert_allclose(o3, (a + b).astype(np.float32))
    o4 = np.zeros((2, 3, 4))                     # out= may broadcast the inputs further
    add(a, b, out=o4)
    np.testing.assert_array_equal(o4, np.broadcast_to(a + b, (2, 3, 4)))
    with pytest.raises(ValueError, match=r"\(4, 3\)"):
        add(a, b, out=np.zeros((4, 3)))
    ro = np.zeros((3, 4))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        add(a, b, out=ro)


def test_shapes_that_do_not_broadcast_name_both():
    with pytest.raises(ValueError) as info:
        add(np.zeros((3, 4)), np.zeros(5))
    msg = str(info.value)
    assert "(3, 4)" in msg and "(5,)" in msg and "broadcast" in msg
    with pytest.raises(TypeError, match="takes 2 arguments"):
        add(np.zeros(3))


def test_reduce(rng):
    a = rng.integers(-50, 50, 37)
    r = add.reduce(a)
    assert r == a.sum() and isinstance(r, np.int64)
    m = rng.integers(-50, 50, (5, 7, 3))
    for axis in (0, 1, 2, -1, (0, 2), None):
        np.testing.assert_array_equal(add.reduce(m, axis=axis), m.sum(axis=axis))
    np.testing.assert_array_equal(add.reduce(m, axis=1, keepdims=True), m.sum(axis=1, keepdims=True))
    x = rng.standard_normal(1001)
    assert vmax.reduce(x) == x.max()
    f = rng.standard_normal((40, 30)).astype(np.float32)
    np.testing.assert_allclose(add.reduce(f, axis=0), f.sum(axis=0), rtol=1e-5)
    assert add.reduce(f).dtype == np.float32
    np.testing.assert_array_equal(vmax.reduce(f.T[::2], axis=1), f.T[::2].max(axis=1))
    o = np.zeros(3)
    assert add.reduce(m.astype(np.float64), axis=(0, 1), out=o) is o
    np.testing.assert_array_equal(o, m.sum(axis=(0, 1)))
    # empty: the identity, or NumPy's error without one
    assert iadd.reduce(np.zeros(0, np.int64)) == 0
    np.testing.assert_array_equal(iadd.reduce(np.zeros((0, 4), np.int64)), np.zeros(4))
    with pytest.raises(ValueError, match="identity"):
        vmax.reduce(np.zeros(0))
    with pytest.raises(ValueError, match="binary"):
        clip3.reduce(x)


def test_lambda_and_njit_functions(rng):
    twice = vectorize(lambda v: v * 2)
    np.testing.assert_array_equal(twice(np.arange(5.0)), np.arange(5.0) * 2)

    @njit
    def sq(v):
        return v * v

    @vectorize
    def sumsq(a, b):
        return sq(a) + sq(b)             # calls another @njit function

    a, b = rng.standard_normal(9), rng.standard_normal(9)
    np.testing.assert_allclose(sumsq(a, b), a * a + b * b, rtol=1e-15)


def test_not_elementwise_is_refused_at_its_line():
    @vectorize
    def bad(a):
        return a[0] + 1

    with pytest.raises(TypingError) as info:
        bad(np.zeros(3))
    msg = str(info.value)
    assert "indexes its argument 'a'" in msg and "test_ufunc_cpu.py" in msg


def test_gufunc_matmul(rng):
    @guvectorize(['void(float32[:,:], float32[:,:], float32[:,:])',
                  'void(float64[:,:], float64[:,:], float64[:,:])'], '(m,n),(n,p)->(m,p)')
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
    A2 = rng.random((3, 1, 2, 4))                 # loop dimensions broadcast on both sides
    B2 = rng.random((5, 4, 3))
    np.testing.assert_allclose(matmul(A2, B2), np.matmul(A2, B2), rtol=1e-13)
    A3 = rng.random((6, 3, 3)).astype(np.float32)
    C3 = np.zeros((6, 3, 3), np.float32)
    matmul(A3, A3.transpose(0, 2, 1), out=C3)     # strided input, out=
    np.testing.assert_allclose(C3, np.matmul(A3, A3.transpose(0, 2, 1)), rtol=1e-5)
    C4 = np.zeros((4, 3, 2))
    matmul(A, B, C4)                              # the output as the last argument
    np.testing.assert_allclose(C4, np.matmul(A, B), rtol=1e-13)
    np.testing.assert_allclose(matmul(A[0], B), A[0] @ B, rtol=1e-13)    # no loop dimension
    with pytest.raises(ValueError, match="'n'"):
        matmul(rng.random((3, 4)), rng.random((5, 2)))
    with pytest.raises(ValueError, match="broadcast"):
        matmul(rng.random((2, 3, 4)), rng.random((3, 4, 2)))


def test_gufunc_scalar_core_and_lazy_typing(rng):
    @guvectorize(['void(float64[:], float64, float64[:])'], '(n),()->()')
    def scaled_sum(x, s, r):
        acc = 0.0
        for i in range(x.shape[0]):
            acc += x[i]
        r[0] = acc * s

    x = rng.random((3, 6))
    np.testing.assert_allclose(scaled_sum(x, 2.0), x.sum(axis=1) * 2.0, rtol=1e-14)
    s = rng.random(3)
    np.testing.assert_allclose(scaled_sum(x, s), x.sum(axis=1) * s, rtol=1e-14)

    @guvectorize(None, '(n)->(n)')
    def cumsum(x, out):
        acc = x[0] - x[0]
        for i in range(x.shape[0]):
            acc += x[i]
            out[i] = acc

    for a in (rng.integers(-9, 9, (4, 7)), rng.random((2, 3, 5)).astype(np.float32)):
        got = cumsum(a)
        assert got.dtype == a.dtype
        np.testing.assert_allclose(got, np.cumsum(a, axis=-1), rtol=1e-6)


def test_interpreter_gives_the_same(rng, monkeypatch):
    import warnings
    monkeypatch.setenv("PTXJIT_CC", "none")

    @vectorize
    def f(x, y):
        return math.sqrt(x * x + y * y) - x // 3

    @guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->()')
    def dot(a, b, r):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * b[i]
        r[0] = s

    a, b = rng.standard_normal((3, 4)), rng.standard_normal(4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = f(a, b)
        np.testing.assert_allclose(got, np.sqrt(a * a + b * b) - a // 3, rtol=1e-15)
        np.testing.assert_allclose(dot(a, b), a @ b, rtol=1e-14)
        assert f.reduce(np.arange(1.0, 6.0)) == pytest.approx(_fold(lambda x, y: math.sqrt(x * x + y * y) - x // 3,
                                                                    np.arange(1.0, 6.0)))
    loops = list(f._loops.values()) + list(dot._loops.values())
    assert loops and not any(o.native for lp in loops for o in lp.overloads.values())


def _fold(fn, xs):
    acc = xs[0]
    for v in xs[1:]:
        acc = fn(acc, v)
    return acc


def test_bad_options_and_targets():
    with pytest.raises(TypeError, match="unexpected option"):
        vectorize(colour="red")
    with pytest.raises(ValueError, match="targets"):
        vectorize(target="tpu")
    with pytest.raises(NotImplementedError, match="object mode"):
        vectorize(forceobj=True)

"""Kernels and read-only arrays (NumPy's flags.writeable False, or a
__cuda_array_interface__ whose data flag says read-only): the launch types
such an argument "readonly float64[::1]", so every way a kernel can write
it -- a store, an augmented store, a slice assigned, an atomic, a store in
a device function it is passed to -- is a compile error at the write's
line, as @njit and Numba refuse it, instead of a write the copy back
drops.  Reading works, and writable arrays are unaffected."""

import os
import re

import numpy as np
import pytest

from ptxjit import cuda, errors, guvectorize

HERE = os.path.basename(__file__)


def _ro(x):
    a = np.array(x)
    a.setflags(write=False)
    return a


@cuda.jit(device=True)
def d_put(x, i, v):
    x[i] = v                                     # WRITE d_put


@cuda.jit(device=True)
def d_put_twice(x, i, v):
    d_put(x, i, v)


@cuda.jit(device=True)
def d_read(x, i):
    return x[i] * 2.0


def k_store(a, b):
    i = cuda.grid(1)
    if i < b.size:
        a[i] = b[i]                              # WRITE


def k_aug(a, b):
    i = cuda.grid(1)
    if i < b.size:
        a[i] += b[i]                             # WRITE


def k_slice(a, b):
    a[1:3] = b[0]                                # WRITE


def k_slice_all(a, b):
    a[:] = b[0]                                  # WRITE


def k_view(a, b):
    v = a[1:]
    v[0] = b[0]                                  # WRITE


def k_alias(a, b):
    c = a
    c[0] = b[0]                                  # WRITE


def k_2d(m, b):
    m[1, 1] = b[0]                               # WRITE


def k_row(m, b):
    r = m[1]
    r[0] = b[0]                                  # WRITE


def k_device(a, b):
    d_put(a, 0, b[0])


def k_device_nested(a, b):
    d_put_twice(a, 0, b[0])


def k_atomic_add(a, b):
    cuda.atomic.add(a, 0, b[0])                  # WRITE


def k_atomic_sub(a, b):
    cuda.atomic.sub(a, 0, b[0])                  # WRITE


def k_atomic_max(a, b):
    cuda.atomic.max(a, 0, b[0])                  # WRITE


def k_atomic_min(a, b):
    cuda.atomic.min(a, 0, b[0])                  # WRITE


def k_atomic_nanmax(a, b):
    cuda.atomic.nanmax(a, 0, b[0])               # WRITE


def k_atomic_exch(a, b):
    cuda.atomic.exch(a, 0, b[0])                 # WRITE


def k_atomic_cas(a, b):
    cuda.atomic.compare_and_swap(a, a[0], b[0])  # WRITE


def k_atomic_cas_index(a, b):
    cuda.atomic.cas(a, 0, a[0], b[0])            # WRITE


def k_atomic_int(a, b):
    cuda.atomic.and_(a, 0, 3)                    # WRITE


def k_atomic_inc(a, b):
    cuda.atomic.inc(a, 0, 7)                     # WRITE


def k_tuple(a, b):
    t = (a, b)
    t[0][0] = b[0]                               # WRITE


def _line(fn, marker="# WRITE"):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    for k, l in enumerate(lines):
        if l.rstrip().endswith(marker):
            return first + k
    raise AssertionError(fn)


def _refused(kernel, args, ro, line):
    before = [np.array(x) for x in args]
    with pytest.raises(errors.TypingError) as e:
        kernel[1, 4](*args)
    msg = str(e.value)
    m = re.match(r"^(.*):(\d+):(\d+): error: (.*)$", msg.split("\n")[0])
    assert m, msg
    assert m.group(1).endswith(HERE) and int(m.group(2)) == line, msg
    assert "read-only array" in m.group(4), msg
    assert "^" in msg and "hint:" in msg, msg
    for x, b in zip(args, before):
        np.testing.assert_array_equal(x, b)      # nothing written
    assert not ro.flags.writeable


FLOAT_WRITERS = [k_store, k_aug, k_slice, k_slice_all, k_view, k_alias, k_atomic_add, k_atomic_sub,
                 k_atomic_max, k_atomic_min, k_atomic_nanmax, k_atomic_exch, k_atomic_cas,
                 k_atomic_cas_index, k_tuple]


@pytest.mark.parametrize("fn", FLOAT_WRITERS, ids=lambda f: f.__name__)
def test_write_is_refused_at_its_line(fn, rng):
    a = _ro(rng.uniform(1.0, 2.0, 4))
    b = rng.uniform(3.0, 4.0, 4)
    args = (a, b)
    _refused(cuda.jit(fn), args, a, _line(fn))


def test_write_in_device_function_is_refused(rng):
    a = _ro(rng.uniform(1.0, 2.0, 4))
    b = rng.uniform(3.0, 4.0, 4)
    _refused(cuda.jit(k_device), (a, b), a, _line(d_put.py_func, "# WRITE d_put"))
    _refused(cuda.jit(k_device_nested), (a, b), a, _line(d_put.py_func, "# WRITE d_put"))


def test_integer_atomics_are_refused(rng):
    a = _ro(rng.integers(1, 100, 4).astype(np.int32))
    b = rng.uniform(3.0, 4.0, 4)
    _refused(cuda.jit(k_atomic_int), (a, b), a, _line(k_atomic_int))
    u = _ro(rng.integers(1, 100, 4).astype(np.uint32))
    _refused(cuda.jit(k_atomic_inc), (u, b), u, _line(k_atomic_inc))


@pytest.mark.parametrize("fn", [k_2d, k_row], ids=lambda f: f.__name__)
def test_write_2d_is_refused(fn, rng):
    m = _ro(rng.uniform(1.0, 2.0, (3, 3)))
    _refused(cuda.jit(fn), (m, rng.uniform(3.0, 4.0, 4)), m, _line(fn))


@cuda.jit
def k_reads(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + d_read(b, i)


def test_reading_works(rng):
    x = rng.standard_normal(100)
    y = rng.standard_normal(100)
    want = x + y * 2.0
    a, b = _ro(x), _ro(y)
    out = np.zeros(100)
    k_reads[4, 32](a, b, out)
    np.testing.assert_array_equal(out, want)
    out2 = np.zeros(100)
    k_reads[4, 32](x, b, out2)                   # a mix of writable and read-only
    np.testing.assert_array_equal(out2, want)
    assert ("readonly float64[::1]", "readonly float64[::1]", "float64[::1]") in k_reads.signatures


def test_one_kernel_writable_then_readonly(rng):
    """The read-only bit is part of the launch's signature key: a kernel
    first launched with a writable array refuses a read-only one, and still
    runs writable ones."""
    k = cuda.jit(k_store)
    w = np.zeros(4)
    b = rng.uniform(3.0, 4.0, 4)
    k[1, 4](w, b)
    np.testing.assert_array_equal(w, b)
    r = _ro(rng.uniform(1.0, 2.0, 4))
    _refused(k, (r, b), r, _line(k_store))
    w2 = np.zeros(4)
    k[1, 4](w2, b)
    np.testing.assert_array_equal(w2, b)


def test_explicit_signatures(rng):
    """A read-only array matches only a read-only array type, as in Numba."""
    a = _ro(rng.uniform(1.0, 2.0, 4))
    b = rng.uniform(3.0, 4.0, 4)
    mut = cuda.jit("void(float64[::1], float64[::1])")(k_store)
    with pytest.raises(TypeError, match=r"readonly float64\[::1\].*match none.*read-only array"):
        mut[1, 4](a, b)
    np.testing.assert_array_equal(a, _ro(a))
    w = np.zeros(4)
    mut[1, 4](w, b)
    np.testing.assert_array_equal(w, b)

    def copy_in(a, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a[i] * 3.0
    for sig in ("void(readonly float64[::1], float64[::1])", "void(array(float64, 1d, A, readonly), float64[:])"):
        k = cuda.jit(sig)(copy_in)
        for src in (a, np.array(a)):
            out = np.zeros(4)
            k[1, 4](src, out)
            np.testing.assert_array_equal(out, a * 3.0)
    with pytest.raises(errors.TypingError, match="read-only"):
        cuda.jit("void(readonly float64[::1], float64[::1])")(k_store)


def test_gufunc_readonly_out_is_refused_before_running(rng):
    @guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda")
    def cumsum(x, out):
        s = 0.0
        for i in range(x.shape[0]):
            s += x[i]
            out[i] = s
    x = _ro(rng.uniform(1.0, 2.0, 5))
    np.testing.assert_allclose(cumsum(x), np.cumsum(x), rtol=1e-15)
    o = _ro(np.zeros(5))
    with pytest.raises(ValueError, match="out= array is read-only"):
        cumsum(x, o)


class _ReadOnlyInterface:
    """A GPU array of another library whose interface marks it read-only."""

    def __init__(self, d):
        self._d = d
        cai = dict(d.__cuda_array_interface__)
        cai["data"] = (cai["data"][0], True)
        self.__cuda_array_interface__ = cai


def test_readonly_cuda_array_interface_is_refused(on_gpu, rng):
    if not on_gpu:
        pytest.skip("the simulator takes no GPU arrays of other libraries")
    x = rng.uniform(1.0, 2.0, 4)
    d = cuda.to_device(x)
    ro = _ReadOnlyInterface(d)
    b = rng.uniform(3.0, 4.0, 4)
    with pytest.raises(errors.TypingError, match="read-only array"):
        cuda.jit(k_store)[1, 4](ro, b)
    np.testing.assert_array_equal(d.copy_to_host(), x)
    out = np.zeros(4)
    k_reads[1, 4](ro, ro, out)
    np.testing.assert_array_equal(out, x + x * 2.0)

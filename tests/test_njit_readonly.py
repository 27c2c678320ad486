"""@njit and read-only NumPy arrays (flags.writeable False): as in Numba,
a read-only argument has a type of its own ("readonly float64[:]"); a
store into it, or into a view of it, is a compile error at the store's
line, so the caller's array is never changed behind its back.  Reading
works, views returned stay read-only, copies and writable arrays are
unaffected."""

import os
import re

import numpy as np
import pytest

from ptxjit import errors, njit

HERE = os.path.basename(__file__)


def _ro(x):
    a = np.array(x, dtype=np.float64)
    a.setflags(write=False)
    return a


@njit
def n_total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def store_first(a):
    a[0] = 1.0                                   # line marked: STORE


def add_first(a):
    a[0] += 1.0


def store_in_view(a):
    b = a[1:]
    b[0] = 7.0


def store_2d(a):
    a[1, 1] = 3.0


@njit
def n_writer(a):
    a[0] = 5.0


@njit
def n_calls_writer(a):
    n_writer(a)


@njit
def n_tail(a):
    return a[1:]


@njit
def n_row(a):
    return a[1]


@njit
def n_copy_and_write(a):
    b = a.copy()
    b[0] = 9.0
    c = np.empty_like(a)
    c[0] = a[0] * 2.0
    return b, c[0]


def _line_of(fn, marker=None):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    for i, l in enumerate(lines):
        if (marker and marker in l) or (not marker and "a[" in l and "=" in l and i > 0):
            return first + i
    raise AssertionError(fn)


def _refused(fn, arr, line):
    before = arr.copy()
    with pytest.raises(errors.TypingError) as e:
        fn(arr)
    msg = str(e.value)
    first = msg.split("\n")[0]
    m = re.match(r"^(.*):(\d+):(\d+): error: (.*)$", first)
    assert m, msg
    assert m.group(1).endswith(HERE) and int(m.group(2)) == line, msg
    assert "read-only array" in m.group(4), msg
    assert "^" in msg and "hint:" in msg, msg
    np.testing.assert_array_equal(arr, before)    # nothing written
    return msg


def test_store_is_refused_at_its_line():
    a = _ro([0.0, 2.0, 3.0])
    msg = _refused(njit(store_first), a, _line_of(store_first, "STORE"))
    assert "a[0] = 1.0" in msg


def test_augmented_store_is_refused():
    _refused(njit(add_first), _ro([0.0, 2.0]), _line_of(add_first, "+="))


def test_store_into_a_view_is_refused():
    _refused(njit(store_in_view), _ro([0.0, 2.0, 3.0]), _line_of(store_in_view, "b[0]"))


def test_store_2d_is_refused():
    _refused(njit(store_2d), _ro(np.zeros((3, 3))), _line_of(store_2d, "a[1, 1]"))


def test_store_in_a_called_function_is_refused():
    a = _ro([1.0, 2.0])
    with pytest.raises(errors.TypingError, match="read-only array") as e:
        n_calls_writer(a)
    assert HERE + ":%d:" % _line_of(n_writer.py_func, "a[0] = 5.0") in str(e.value)
    assert a.tolist() == [1.0, 2.0]


def test_reading_works():
    rng = np.random.default_rng(3)
    x = rng.standard_normal(100)
    r = x.copy()
    r.setflags(write=False)
    assert n_total(r) == pytest.approx(x.sum(), rel=1e-12)
    assert n_total(x) == pytest.approx(x.sum(), rel=1e-12)


def test_views_of_a_readonly_array_stay_readonly():
    a = _ro(np.arange(6.0))
    t = n_tail(a)
    assert np.shares_memory(t, a) and not t.flags.writeable
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    with pytest.raises(ValueError):
        t[0] = 1.0
    # a view of a view, and a row of a 2-d array
    tt = n_tail(t)
    assert not tt.flags.writeable and tt.tolist() == [2.0, 3.0, 4.0, 5.0]
    m = _ro(np.arange(6.0).reshape(2, 3))
    row = n_row(m)
    assert not row.flags.writeable and row.tolist() == [3.0, 4.0, 5.0]
    # a view passed back in is read-only too: the store is refused
    with pytest.raises(errors.TypingError, match="read-only"):
        n_writer(t)
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_writable_arrays_are_unaffected():
    w = np.zeros(3)
    n_writer(w)
    assert w.tolist() == [5.0, 0.0, 0.0]
    t = n_tail(np.arange(4.0))
    assert t.flags.writeable
    # the same function, first compiled for a writable array, refuses a
    # read-only one (the read-only bit is part of the call's type key)
    f = njit(store_first)
    w = np.zeros(2)
    f(w)
    assert w.tolist() == [1.0, 0.0]
    r = _ro([0.0, 0.0])
    with pytest.raises(errors.TypingError, match="read-only"):
        f(r)
    assert r.tolist() == [0.0, 0.0]
    f(w)                                         # and writable arrays still run
    assert len(f.signatures) == 1


def test_copies_of_a_readonly_array_are_writable():
    a = _ro([1.0, 2.0, 3.0])
    b, c0 = n_copy_and_write(a)
    assert b.flags.writeable and b.tolist() == [9.0, 2.0, 3.0]
    assert c0 == 2.0 and a.tolist() == [1.0, 2.0, 3.0]


def test_explicit_signatures():
    """A read-only array matches only a read-only array type, as in Numba."""
    a = _ro([1.0, 2.0])
    mut = njit("void(float64[:])")(n_writer.py_func)
    with pytest.raises(TypeError, match=r"readonly float64\[::1\].*match none.*read-only array") as e:
        mut(a)
    assert a.tolist() == [1.0, 2.0]
    w = np.zeros(2)
    mut(w)
    assert w.tolist() == [5.0, 0.0]
    ro_sig = njit("float64(readonly float64[:])")(n_total.py_func)
    assert ro_sig(a) == 3.0 and ro_sig(np.ones(4)) == 4.0
    ro_sig2 = njit("float64(array(float64, 1d, A, readonly))")(n_total.py_func)
    assert ro_sig2(a) == 3.0
    with pytest.raises(errors.TypingError, match="read-only"):
        njit("void(readonly float64[:])")(n_writer.py_func)
    assert "readonly" in str(e.value)


def test_readonly_buffer():
    """A read-only buffer (bytes through a memoryview) is read-only too."""
    buf = memoryview(np.arange(4.0).tobytes()).cast("d")
    assert n_total(buf) == 6.0
    with pytest.raises(errors.TypingError, match="read-only"):
        njit(store_first)(buf)


def test_on_the_interpreter(monkeypatch):
    """Without a C compiler (the IR interpreter) the rule is the same."""
    monkeypatch.setenv("PTXJIT_CC", "none")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = njit(store_first)
        r = _ro([0.0, 0.0])
        with pytest.raises(errors.TypingError, match="read-only"):
            f(r)
        assert r.tolist() == [0.0, 0.0]
        assert njit(n_total.py_func)(_ro([1.0, 2.0])) == 3.0
        t = njit(n_tail.py_func)(_ro([1.0, 2.0, 3.0]))
        assert not t.flags.writeable and t.tolist() == [2.0, 3.0]

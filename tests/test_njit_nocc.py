"""@njit without a C compiler: every test of tests/test_njit.py again, on
the IR interpreter (PTXJIT_CC=none), plus what only the interpreter path has.

tests/test_njit.py is loaded a second time as its own module, so its @njit
functions are new dispatchers that compile (for the interpreter) while
PTXJIT_CC=none is set by the fixture below; the compiled ones of the first
module are not reused.  The results must be the ones plain Python gives,
as they are for native code: arrays made inside, recursion, mutual calls,
bounds checks with the line, asserts and raises included.
"""

import importlib.util
import os
import warnings

import numpy as np
import pytest

import ptxjit
from ptxjit import njit

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(autouse=True)
def no_c_compiler(monkeypatch):
    monkeypatch.setenv("PTXJIT_CC", "none")


def _load():
    spec = importlib.util.spec_from_file_location("test_njit_interpreted", os.path.join(HERE, "test_njit.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_njit_tests = _load()
for _name, _obj in vars(_njit_tests).items():
    if _name.startswith("test_") and callable(_obj):
        globals()[_name] = _obj
del _name, _obj


def _native(f):
    return [o.native for o in f.overloads.values()]


def test_every_function_ran_on_the_interpreter():
    m = _njit_tests
    m.check(m.cpu_fibonacci, 10)
    m.check(m.make, 3, 2)
    for f in (m.cpu_fibonacci, m.make):
        assert _native(f) and not any(_native(f))


def test_interpreter_allocates_and_returns_owned_arrays():
    @njit
    def grid(n, m):
        a = np.empty((n, m), np.int32)
        for i in range(n):
            for j in range(m):
                a[i, j] = i * 100 + j
        b = a.copy()
        b[0, 0] = -7
        return a, b, np.ones(m), np.arange(1.5, n, 0.5)

    rng = np.random.default_rng(3)
    for _ in range(5):
        n, m = (int(v) for v in rng.integers(1, 9, 2))
        got, want = grid(n, m), grid.py_func(n, m)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_array_equal(g, w)
            assert g.flags.writeable
    assert not any(_native(grid))


def test_interpreter_negative_dimension_and_huge_allocation():
    @njit
    def alloc(n):
        return np.zeros(n)

    with pytest.raises(ValueError, match="negative dimensions"):
        alloc(-1)
    with pytest.raises(MemoryError):
        alloc(1 << 60)
    assert alloc(0).shape == (0,)


def test_interpreter_recursion_depth_is_an_error_not_a_crash():
    @njit
    def down(n):
        if n == 0:
            return 0
        return 1 + down(n - 1)

    assert down(500) == 500
    with pytest.raises(RecursionError):
        down(10 ** 6)


def test_interpreter_bounds_message_names_the_function_and_line():
    @njit(boundscheck=True)
    def pick(a, i, j):
        return a[i, j]

    a = np.arange(12.0).reshape(3, 4)
    assert pick(a, 2, -1) == 11.0
    with pytest.raises(IndexError) as info:
        pick(a, 1, 4)
    msg = str(info.value)
    assert "out of bounds" in msg and "test_njit_nocc.py" in msg and "'pick'" in msg, msg


def test_cc_naming_nothing_means_the_interpreter(monkeypatch):
    import ptxjit.cpu as cpu
    monkeypatch.delenv("PTXJIT_CC")
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.setattr(cpu, "_warned", False)

    @njit
    def twice(x):
        return 2 * x

    with pytest.warns(RuntimeWarning, match="times slower than compiled code"):
        assert twice(21) == 42
    assert _native(twice) == [False]
    # the warning comes once
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert twice(1.5) == 3.0


def test_object_mode_refused_whatever_the_compiler():
    with pytest.raises(NotImplementedError, match="object mode"):
        ptxjit.jit(nopython=False)
    with pytest.raises(NotImplementedError, match="object mode"):
        njit(nopython=False)

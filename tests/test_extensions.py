"""Kernel extensions, Numba's prepare_args protocol: each argument goes
through every extension's prepare_args(ty, val, stream=, retr=) (the last
in the list first, as Numba's dispatcher does), the kernel is launched
with what they return, and the callables they append to retr run after
the launch.  What ptxjit cannot do (a returned type that is not the type
of the returned value, an object without prepare_args, extensions on a
device function) is refused, never ignored."""

import numpy as np
import pytest

from ptxjit import cuda, types
from ptxjit.cuda.args import wrap_arg


# ---- Numba's own example (tests/cudapy/test_retrieve_autoconverted_arrays)

class DefaultIn:
    def prepare_args(self, ty, val, **kwargs):
        return ty, wrap_arg(val, default=cuda.In)


def nocopy(kernel):
    kernel.extensions.append(DefaultIn())
    return kernel


def set_array_to_three(arr):
    arr[0] = 3


def set_record_to_three(rec):
    rec[0]["b"] = 3


recordtype = np.dtype([("b", np.int32)], align=True)


def test_numba_example_arrays():
    plain = cuda.jit(set_array_to_three)
    no = nocopy(cuda.jit(set_array_to_three))
    a = np.zeros(1, dtype=np.int64)
    plain[1, 1](a)
    assert a[0] == 3
    a = np.zeros(1, dtype=np.int64)
    no[1, 1](a)
    assert a[0] == 0                       # copied in only: the extension made it cuda.In
    a = np.zeros(1, dtype=np.int64)
    no[1, 1](cuda.InOut(a))                # an explicit wrapper wins
    assert a[0] == 3
    a = np.zeros(1, dtype=np.int64)
    plain[1, 1](cuda.In(a))
    assert a[0] == 0


def test_numba_example_records():
    plain = cuda.jit(set_record_to_three)
    no = nocopy(cuda.jit(set_record_to_three))
    r = np.zeros(1, dtype=recordtype)
    plain[1, 1](r)
    assert r[0]["b"] == 3
    r = np.zeros(1, dtype=recordtype)
    no[1, 1](r)
    assert r[0]["b"] == 0
    r = np.zeros(1, dtype=recordtype)
    plain[1, 1](cuda.InOut(r))
    assert r[0]["b"] == 3


# ---- values the launch cannot take, made into ones it can, copied back through retr

class Boxed:
    """A host array in a box ptxjit knows nothing of."""

    def __init__(self, data):
        self.data = data


class Unbox:
    def __init__(self):
        self.seen = []

    def prepare_args(self, ty, val, stream=0, retr=None):
        self.seen.append((ty, type(val).__name__, stream))
        if not isinstance(val, Boxed):
            return ty, val
        d = cuda.to_device(val.data, stream=stream)

        def back():
            d.copy_to_host(val.data, stream=stream)
            if stream:
                stream.synchronize()
        retr.append(back)
        return types.ArrayType(types.float64, 1, "C"), d


def axpy(y, x, a):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]


def test_retr_copies_back_after_the_launch(rng):
    ext = Unbox()
    k = cuda.jit(axpy, extensions=[ext])
    y0 = rng.integers(-1000, 1000, 50).astype(np.float64)     # exact whether fused or not
    x = rng.integers(-1000, 1000, 50).astype(np.float64)
    box = Boxed(y0.copy())
    k[2, 32](box, x, 1.5)
    np.testing.assert_array_equal(box.data, 1.5 * x + y0)
    tys = [t for t, _, _ in ext.seen]
    assert tys[0] is None                                   # a Boxed has no type the launch knows
    assert isinstance(tys[1], types.ArrayType) and str(tys[1]) == "float64[::1]"
    assert tys[1].dtype is types.float64 and tys[1].ndim == 1 and tys[1].layout == "C"
    assert tys[2] == types.float64
    assert [s for _, _, s in ext.seen] == [0, 0, 0]


def test_stream_is_the_launch_stream(rng):
    ext = Unbox()
    k = cuda.jit(axpy, extensions=[ext])
    s = cuda.stream()
    y0 = rng.integers(-1000, 1000, 40).astype(np.float64)
    x = rng.integers(-1000, 1000, 40).astype(np.float64)
    box = Boxed(y0.copy())
    k[2, 32, s](box, x, -0.5)
    s.synchronize()
    np.testing.assert_array_equal(box.data, -0.5 * x + y0)
    assert all(st is s for _, _, st in ext.seen)


class Scale:
    """Multiplies float scalars by k; records the order of the calls."""

    def __init__(self, k, log):
        self.k, self.log = k, log

    def prepare_args(self, ty, val, stream=0, retr=None):
        self.log.append(self.k)
        if ty == types.float64:
            return ty, val * self.k
        return ty, val


def test_extensions_run_last_first_and_chain(rng):
    log = []
    k = cuda.jit(axpy, extensions=[Scale(2.0, log), Scale(3.0, log)])
    y0 = rng.integers(-1000, 1000, 33).astype(np.float64)
    x = rng.integers(-1000, 1000, 33).astype(np.float64)
    y = y0.copy()
    k[2, 32](y, x, 0.25)
    np.testing.assert_array_equal(y, (0.25 * 3.0 * 2.0) * x + y0)
    assert log == [3.0, 2.0] * 3                 # per argument: the last extension first
    # added later through .extensions, as Numba's users do
    log2 = []
    k.extensions.append(Scale(5.0, log2))
    y = y0.copy()
    k[2, 32](y, x, 0.25)
    np.testing.assert_array_equal(y, (0.25 * 5.0 * 3.0 * 2.0) * x + y0)
    assert log2 == [5.0] * 3


def test_kernels_without_extensions_launch_in_c(rng):
    from ptxjit import _core
    k = cuda.jit(axpy)
    assert type(k).__getitem__ is _core.Dispatcher.__getitem__     # no Python between subscript and launch
    assert k.extensions == [] and k.targetoptions["extensions"] == []
    y = np.zeros(8)
    k[1, 8](y, np.ones(8), 2.0)                  # an empty list changes nothing
    np.testing.assert_array_equal(y, np.full(8, 2.0))


# ---- what is refused

class WrongType:
    def prepare_args(self, ty, val, stream=0, retr=None):
        if isinstance(val, np.ndarray):
            return types.float32[::1], val       # says float32; the value is float64
        return ty, val


class NotATuple:
    def prepare_args(self, ty, val, stream=0, retr=None):
        return val


def test_a_type_that_is_not_the_values_is_refused(rng):
    k = cuda.jit(axpy, extensions=[WrongType()])
    y = np.zeros(8)
    with pytest.raises(TypeError, match=r"argument 1 \('y'\).*float64\[::1\].*float32\[::1\].*WrongType") as e:
        k[1, 8](y, np.ones(8), 2.0)
    assert "types a kernel's arguments by their values" in str(e.value)
    assert not y.any()


def test_bad_extensions_are_refused():
    with pytest.raises(TypeError, match="prepare_args"):
        cuda.jit(axpy, extensions=[object()])
    with pytest.raises(TypeError, match="list"):
        cuda.jit(axpy, extensions=DefaultIn())
    with pytest.raises(TypeError, match="device function"):
        cuda.jit(device=True, extensions=[DefaultIn()])(set_array_to_three)
    k = cuda.jit(axpy, extensions=[NotATuple()])
    with pytest.raises(TypeError, match=r"NotATuple.prepare_args returned .* tuple \(ty, val\)"):
        k[1, 8](np.zeros(8), np.ones(8), 2.0)
    k = cuda.jit(axpy)
    k.extensions.append(42)
    with pytest.raises(TypeError, match="prepare_args"):
        k[1, 8](np.zeros(8), np.ones(8), 2.0)

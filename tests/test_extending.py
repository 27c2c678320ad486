"""numba.cuda.extending: @overload (typed by the arguments' types),
overload_method and overload_attribute, register_jitable and numba's @njit
functions called from kernels and device functions; Numba's LLVM-level API
accepted at import and refused at the call.  On a GPU:
PTXJIT_TEST_GPU=1 python3 -m pytest -q tests/test_extending.py
"""

import math

import numpy as np
import pytest

from ptxjit import cuda, errors, types
from ptxjit.extending import (core_models, intrinsic, lower_builtin, make_attribute_wrapper, overload,
                              overload_attribute, overload_method, register_jitable, register_model, type_callable)

RNG = np.random.default_rng(20)


# ------------------------------------------------------------ overloads

def reduce_one(x):
    """Plain Python; in kernels, its overload below."""
    raise AssertionError("called in Python")


@overload(reduce_one)
def ol_reduce_one(x):
    if isinstance(x, types.Integer):
        return lambda x: x * 3 + 1
    if isinstance(x, types.Float):
        def impl_float(x):
            return x * 0.25
        return impl_float
    if isinstance(x, types.Array) and x.ndim == 1:
        def impl_array(x):
            s = 0.0
            for i in range(x.shape[0]):
                s += x[i] * x[i]
            return s
        return impl_array
    return None


def test_overload_chooses_by_argument_type():
    @cuda.jit
    def k(out, i, f, a):
        out[0] = reduce_one(i)
        out[1] = reduce_one(f)
        out[2] = reduce_one(a)

    a = RNG.standard_normal(37)
    i = int(RNG.integers(-1000, 1000))
    f = float(RNG.standard_normal())
    out = np.zeros(3)
    k[1, 1](out, i, f, a)
    np.testing.assert_allclose(out, [i * 3 + 1, f * 0.25, np.sum(a * a)], rtol=1e-12)


def test_overload_per_thread_matches_numpy():
    @cuda.jit
    def k(out, ints, floats):
        t = cuda.grid(1)
        if t < out.shape[0]:
            out[t, 0] = reduce_one(ints[t])
            out[t, 1] = reduce_one(floats[t])

    n = 100
    ints = RNG.integers(-50, 50, n).astype(np.int32)
    floats = RNG.standard_normal(n).astype(np.float32)
    out = np.zeros((n, 2))
    k[4, 32](out, ints, floats)
    np.testing.assert_array_equal(out[:, 0], ints.astype(np.int64) * 3 + 1)
    np.testing.assert_allclose(out[:, 1], floats * np.float32(0.25), rtol=1e-6)


def test_overload_declining_is_an_error_at_the_call():
    @cuda.jit
    def k(out, a):
        out[0] = reduce_one(a)

    with pytest.raises(errors.TypingError) as e:
        k[1, 1](np.zeros(1), np.zeros((2, 2)))
    msg = str(e.value)
    assert "no implementation of reduce_one() for the argument types (array(float64, 2d, C))" in msg
    assert "test_extending.py:%d:" % (k.py_func.__code__.co_firstlineno + 2) in msg
    assert "^" in msg and "ol_reduce_one" in msg and "returned None" in msg


def with_defaults(out, x, y=5, z=6):
    pass


@overload(with_defaults)
def ol_with_defaults(out, x, y=5, z=6):
    def impl(out, x, y=5, z=6):
        out[0] = x + y
        out[1] = z
    return impl


def test_overload_keywords_and_defaults():
    @cuda.jit
    def k(out, a, b):
        with_defaults(out, a, z=b)

    a, b = (int(v) for v in RNG.integers(-99, 99, 2))
    out = np.zeros(2, dtype=np.int64)
    k[1, 1](out, a, b)
    assert tuple(out) == (a + 5, b)


def target_specific(x):
    pass


@overload(target_specific, target="generic")
def ol_target_generic(x):
    def impl(x):
        x[0] *= 2
    return impl


@overload(target_specific, target="cuda")
def ol_target_cuda(x):
    def impl(x):
        x[0] *= 3
    return impl


def cpu_only(x):
    pass


@overload(cpu_only, target="cpu")
def ol_cpu_only(x):
    return lambda x: x


def test_overload_cuda_target_before_generic():
    @cuda.jit
    def k(x):
        target_specific(x)

    x = np.ones(1, dtype=np.int32)
    k[1, 1](x)
    assert x[0] == 3


def test_overload_for_another_target_only():
    @cuda.jit
    def k(x):
        x[0] = cpu_only(x[0])

    with pytest.raises(errors.TypingError, match="overloaded only for targets cpu"):
        k[1, 1](np.ones(1))


def outer(x):
    pass


@overload(outer, inline="always")
def ol_outer(x):
    def impl(x):
        return reduce_one(x) + helper_jitable(x)   # an overload calling an overload and a jitable
    return impl


@register_jitable
def helper_jitable(x):
    return x * x


def test_nested_overloads_and_inline():
    @cuda.jit
    def k(out, a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            out[i] = outer(a[i])

    a = RNG.standard_normal(64)
    out = np.zeros_like(a)
    k[2, 32](out, a)
    np.testing.assert_allclose(out, a * 0.25 + a * a, rtol=1e-12)


def test_typing_function_exception_propagates():
    def broken(x):
        pass

    @overload(broken)
    def ol_broken(x):
        raise KeyError("from the typing function")

    @cuda.jit
    def k(out):
        out[0] = broken(1)

    with pytest.raises(KeyError, match="from the typing function"):
        k[1, 1](np.zeros(1))


def test_bad_overload_arguments():
    with pytest.raises(ValueError, match="target is one of"):
        overload(reduce_one, target="fpga")
    with pytest.raises(ValueError, match="inline is"):
        overload(reduce_one, inline="sometimes")
    with pytest.raises(TypeError, match="not options of device functions"):
        overload(reduce_one, jit_options={"max_registers": 4})


def returns_junk(x):
    pass


@overload(returns_junk)
def ol_returns_junk(x):
    return 42


def test_typing_function_returning_a_non_function():
    @cuda.jit
    def k(out):
        out[0] = returns_junk(1)

    with pytest.raises(TypeError, match="returned 42"):
        k[1, 1](np.zeros(1))


# ------------------------------------------------------------ jitables, njit

@register_jitable
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@cuda.jit(device=True)
def clamp_twice(x):
    return clamp(x, -1.0, 1.0) * 2


def test_register_jitable_from_kernel_and_device_function():
    @cuda.jit
    def k(out, a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            out[i, 0] = clamp(a[i], -0.5, 0.5)
            out[i, 1] = clamp_twice(a[i])

    a = RNG.standard_normal(50) * 2
    out = np.zeros((50, 2))
    k[2, 32](out, a)
    np.testing.assert_array_equal(out[:, 0], np.clip(a, -0.5, 0.5))
    np.testing.assert_array_equal(out[:, 1], np.clip(a, -1, 1) * 2)
    assert clamp(5, 0, 3) == 3       # still Python


def test_numba_njit_function_called_from_kernel():
    numba = pytest.importorskip("numba")

    @numba.njit
    def poly(x):
        return 3 * x * x - 2 * x + 1

    @cuda.jit(device=True)
    def via_device(x):
        return poly(x) + 1

    @cuda.jit
    def k(out, a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            out[i, 0] = poly(a[i])
            out[i, 1] = via_device(a[i])

    a = RNG.integers(-100, 100, 40).astype(np.int64)
    out = np.zeros((40, 2), dtype=np.int64)
    k[2, 32](out, a)
    np.testing.assert_array_equal(out[:, 0], 3 * a * a - 2 * a + 1)
    np.testing.assert_array_equal(out[:, 1], 3 * a * a - 2 * a + 2)


# ------------------------------------------------------------ methods, attributes

@overload_method(types.Array, "sum_of_squares")
def ol_sum_of_squares(a):
    if a.ndim != 1:
        return None

    def impl(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * a[i]
        return s
    return impl


@overload_method(types.Array, "scaled_at")
def ol_scaled_at(a, i, factor=2):
    def impl(a, i, factor=2):
        return a[i] * factor
    return impl


@overload_attribute(types.Array, "last")
def ol_last(a):
    def impl(a):
        return a[a.shape[0] - 1]
    return impl


@overload_attribute(types.Integer, "squared")
def ol_squared(x):
    return lambda x: x * x


def test_overload_method_and_attribute_on_arrays():
    @cuda.jit
    def k(out, a, n):
        out[0] = a.sum_of_squares()
        out[1] = a.last
        out[2] = a.scaled_at(3)
        out[3] = a.scaled_at(4, factor=10)
        out[4] = n.squared

    a = RNG.standard_normal(20)
    n = int(RNG.integers(2, 1000))
    out = np.zeros(5)
    k[1, 1](out, a, n)
    np.testing.assert_allclose(out, [np.sum(a * a), a[-1], a[3] * 2, a[4] * 10, n * n], rtol=1e-12)


def test_overload_method_declines_for_other_types():
    @cuda.jit
    def k(out, a):
        out[0] = a.sum_of_squares()

    with pytest.raises(errors.TypingError, match="no implementation of sum_of_squares"):
        k[1, 1](np.zeros(1), np.zeros((3, 3)))


def test_unknown_attribute_still_refused():
    @cuda.jit
    def k(out, a):
        out[0] = a.no_such_thing

    with pytest.raises(errors.TypingError, match="arrays have no attribute 'no_such_thing'"):
        k[1, 1](np.zeros(1), np.zeros(3))


# ------------------------------------------------------------ the LLVM-level API

class Pair:
    def __init__(self, x, y):
        self.x, self.y = x, y


@type_callable(Pair)
def type_pair(context):
    def typer(x, y):
        return None
    return typer


@lower_builtin(Pair, types.Integer, types.Integer)
def lower_pair(context, builder, sig, args):
    raise AssertionError("never lowered")


@intrinsic
def llvm_add(typingctx, a, b):
    raise AssertionError("never typed")


@pytest.mark.parametrize("which", ["type_callable", "intrinsic"])
def test_llvm_level_extension_refused_at_the_call(which):
    if which == "type_callable":
        @cuda.jit
        def k(out):
            out[0] = Pair(1, 2).x
    else:
        @cuda.jit
        def k(out):
            out[0] = llvm_add(1, 2)

    with pytest.raises(errors.TypingError) as e:
        k[1, 1](np.zeros(1))
    msg = str(e.value)
    assert "Numba's LLVM lowering API" in msg and "@overload" in msg
    assert "test_extending.py:%d:" % (k.py_func.__code__.co_firstlineno + 2) in msg


class PairType(types.Type):
    def __init__(self):
        super().__init__(name="PairType")


pair_type = PairType()


@register_model(PairType)
class PairModel(core_models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("x", types.int32), ("y", types.int32)])


make_attribute_wrapper(PairType, "x", "x")


def test_type_with_an_llvm_data_model_refused_where_used():
    @cuda.jit
    def k(out):
        arr = cuda.local.array(2, dtype=pair_type)
        out[0] = arr[0].x

    with pytest.raises(errors.TypingError) as e:
        k[1, 1](np.zeros(1))
    msg = str(e.value)
    assert "name 'pair_type' refers to a PairType (a type whose data model is registered with Numba's LLVM API" in msg
    assert "test_extending.py:%d:" % (k.py_func.__code__.co_firstlineno + 2) in msg


def test_types_answer_isinstance_as_numba():
    from ptxjit.extending import type_of_text
    assert isinstance(type_of_text("int32"), types.Integer)
    assert isinstance(type_of_text("float64"), types.Float)
    assert isinstance(type_of_text("complex64"), types.Complex)
    arr = type_of_text("readonly array(float32, 2d, F)")
    assert isinstance(arr, types.Array) and arr.ndim == 2 and arr.layout == "F" and arr.readonly
    assert arr.dtype_type == types.float32
    tup = type_of_text("UniTuple(int64 x 3)")
    assert isinstance(tup, types.UniTuple) and tup.count == 3 and tup.dtype == types.int64
    het = type_of_text("Tuple(int64, array(int8, 1d, C))")
    assert isinstance(het, types.Tuple) and isinstance(het[1], types.Array)


def test_kernels_calling_overloads_are_not_kept_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(tmp_path))

    @cuda.jit(cache=True)
    def plain(out):
        out[0] = 1

    @cuda.jit(cache=True)
    def calls_overload(out, a):
        out[0] = reduce_one(a.shape[0]) + a.last

    @cuda.jit(cache=True)
    def calls_method(out, a):
        out[0] = a.sum_of_squares()

    a = RNG.standard_normal(5)
    out = np.zeros(1)
    plain[1, 1](out)
    kept = sorted(p.name for p in tmp_path.rglob("*.pjc"))
    assert len(kept) == 1
    calls_overload[1, 1](out, a)
    assert out[0] == 5 * 3 + 1 + a[-1]
    calls_method[1, 1](out, a)
    np.testing.assert_allclose(out[0], np.sum(a * a), rtol=1e-12)
    assert sorted(p.name for p in tmp_path.rglob("*.pjc")) == kept


def mismatched(a, b, kw=None):
    pass


def test_implementation_parameters_must_match_the_typing_function():
    def impl_kw_default(a, b, kw=12):
        return a

    def impl_names(a, z, kw=None):
        return a

    def impl_fewer_kw(a, b):
        return a

    for impl, what in ((impl_kw_default, "keyword argument default values"),
                       (impl_names, "argument names"), (impl_fewer_kw, "keyword argument names")):
        def target(a, b, kw=None):
            pass

        def typing_for(impl):
            def ol_target(a, b, kw=None):
                return impl
            return ol_target

        overload(target)(typing_for(impl))

        @cuda.jit
        def k(out, x):
            out[0] = target(x, x)

        with pytest.raises(errors.TypingError) as e:
            k[1, 1](np.zeros(1), 1.0)
        msg = str(e.value)
        assert "Typing and implementation arguments differ in " + what in msg
        assert "no implementation of target()" in msg


def test_non_strict_overload_accepts_other_parameters():
    def target(a):
        pass

    @overload(target, strict=False)
    def ol(a):
        def impl(x):
            return x + 1
        return impl

    @cuda.jit
    def k(out, x):
        out[0] = target(x)

    out = np.zeros(1)
    k[1, 1](out, 41.5)
    assert out[0] == 42.5


def literal_aware(x):
    pass


def literal_plain(x):
    pass


def _ol_literal(x):
    if isinstance(x, types.IntegerLiteral):
        if x.literal_value == 1:
            return lambda x: 0xCAFE
        raise errors.TypingError("only the literal 1")
    if isinstance(x, types.Integer):
        return lambda x: x * 100
    return None


overload(literal_aware, prefer_literal=True)(_ol_literal)
overload(literal_plain)(_ol_literal)


def test_literal_arguments_and_prefer_literal():
    @cuda.jit
    def k(res, x):
        res[0] = literal_aware(1)
        res[1] = literal_aware(2)
        res[2] = literal_aware(x)
        res[3] = literal_plain(1)
        res[4] = literal_plain(x)

    x = int(RNG.integers(3, 1000))
    res = np.zeros(5, dtype=np.int64)
    k[1, 1](res, x)
    assert list(res) == [0xCAFE, 200, x * 100, 100, x * 100]


@overload(np.median)      # in kernels: the middle of a sorted 1-d array
def ol_median(a):
    if isinstance(a, types.Array) and a.ndim == 1:
        def impl(a):
            return a[(a.shape[0] - 1) // 2]
        return impl
    return None


@overload(math.comb)
def ol_comb(n, k):
    if isinstance(n, types.Integer) and isinstance(k, types.Integer):
        def impl(n, k):
            r = 1
            for i in range(k):
                r = r * (n - i) // (i + 1)
            return r
        return impl
    return None


@overload(math.sqrt)
def ol_sqrt_never_used(x):
    raise AssertionError("kernels have math.sqrt: its overload is not consulted")


def test_overloads_of_library_functions_kernels_lack():
    from numpy import median

    @cuda.jit
    def k(out, a, n, m):
        out[0] = np.median(a)
        out[1] = median(a)
        out[2] = math.comb(n, m)
        out[3] = math.sqrt(a[0] * a[0])

    a = np.sort(RNG.standard_normal(9))
    n, m = int(RNG.integers(10, 30)), int(RNG.integers(0, 9))
    out = np.zeros(4)
    k[1, 1](out, a, n, m)
    np.testing.assert_allclose(out, [np.median(a), np.median(a), math.comb(n, m), abs(a[0])], rtol=1e-12)



def answer():
    pass


@overload(answer)
def ol_answer():
    return lambda: 42


def test_overload_without_arguments():
    @cuda.jit
    def k(out):
        out[cuda.grid(1)] = answer()

    out = np.zeros(32, dtype=np.int32)
    k[1, 32](out)
    assert (out == 42).all()

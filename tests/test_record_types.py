"""Record types as objects: from_dtype of a structured dtype (ptxjit.from_dtype,
numpy_support.from_dtype, types.Record) is a type like Numba's Record, whose
slices rec[:], rec[:, :], rec[::1] are array types for signatures
(cuda.jit((rec[:], types.intp, types.float64))), and which kernels, NumPy and
typeof take where a structured dtype goes.

Each kernel runs on the simulator (the default) or the GPU
(PTXJIT_TEST_GPU=1), on random data, against NumPy.
"""

import numpy as np
import pytest

import ptxjit
from ptxjit import cuda, types
from ptxjit.np import numpy_support
from ptxjit.typing import typeof

REC = np.dtype([("a", np.int32), ("b", np.float64), ("c", np.complex64)], align=True)
NESTED = np.dtype([("h", np.float32, (2,)), ("p", [("x", np.float32), ("y", np.int16)])], align=True)


def random_records(rng, shape, dtype=REC):
    a = np.zeros(shape, dtype)
    a["a"] = rng.integers(-1000, 1000, shape)
    a["b"] = rng.uniform(-10, 10, shape)
    a["c"] = rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)
    return a


def test_from_dtype_of_a_structured_dtype_is_a_record_type():
    for from_dtype in (ptxjit.from_dtype, types.from_dtype, numpy_support.from_dtype, types.Record):
        rec = from_dtype(REC)
        assert isinstance(rec, types.Record) and isinstance(rec, types.Type)
        assert rec == types.Record(REC) and hash(rec) == hash(types.Record(REC))
        assert str(rec).startswith("Record(a[type=int32;offset=0],b[type=float64;offset=8],")
    rec = ptxjit.from_dtype(REC)
    assert rec.dtype == REC and ptxjit.as_dtype(rec) == REC and np.dtype(rec) == REC
    assert rec.size == 24 and rec.aligned and not types.Record(np.dtype([("a", "i1"), ("b", "f4")])).aligned
    assert rec.fields["b"] == (types.float64, 8) and rec.fields["c"].type is types.complex64
    assert rec.offset("c") == 16 and rec.typeof("a") is types.int32
    nested = types.Record(NESTED)
    assert isinstance(nested.fields["p"].type, types.Record) and nested.fields["p"].offset == 8
    h = nested.fields["h"].type
    assert isinstance(h, types.NestedArray) and h.dtype is types.float32 and h.shape == (2,) and h.ndim == 1
    assert ptxjit.from_dtype(rec) == rec and ptxjit.from_dtype(np.float32) is types.float32
    assert np.zeros(3, rec).dtype == REC


def test_slices_of_a_record_type_are_array_types():
    rec = ptxjit.from_dtype(REC)
    for t, ndim, layout in ((rec[:], 1, "A"), (rec[::1], 1, "C"), (rec[:, :], 2, "A"),
                            (rec[:, ::1], 2, "C"), (rec[::1, :], 2, "F")):
        assert isinstance(t, types.Array) and t.dtype == rec and (t.ndim, t.layout) == (ndim, layout)
        assert str(t).startswith(str(rec) + "[")
    with pytest.raises(TypeError, match="spelled with slices"):
        rec[3]


def test_typeof_records_and_arrays_of_them():
    rec = ptxjit.from_dtype(REC)
    a = np.zeros((4, 3), REC)
    assert typeof(a) == rec[:, ::1] and typeof(a[:, 1]) == rec[:]
    assert typeof(a[0, 0]) == rec


def test_a_signature_of_record_arrays_compiles_and_runs(rng):
    rec = numpy_support.from_dtype(REC)

    def set_b(ary, i, v):
        ary[i].b = v + ary[i].a

    k = cuda.jit((rec[:], types.intp, types.float64))(set_b)
    assert len(k.overloads) == 1
    a = random_records(rng, 16)
    want = a.copy()
    v = float(rng.uniform(-5, 5))
    k[1, 1](a, 5, v)
    want[5]["b"] = v + want[5]["a"]
    np.testing.assert_array_equal(a, want)

    def copy_row(m, out):
        j = cuda.grid(1)
        if j < out.size:
            out[j] = m[1, j]

    k2 = cuda.jit(types.void(rec[:, :], rec[::1]))(copy_row)
    m = random_records(rng, (3, 8))
    out = np.zeros(8, REC)
    k2[1, 8](m, out)
    np.testing.assert_array_equal(out, m[1])


def test_a_record_type_in_a_2d_signature_and_as_a_local_array_dtype(rng):
    rec = ptxjit.from_dtype(REC)

    @cuda.jit(types.void(rec[:, :], types.float64[:, ::1]))
    def swap(m, out):
        i, j = cuda.grid(2)
        if i < m.shape[0] and j < m.shape[1]:
            tmp = cuda.local.array(1, rec)
            tmp[0] = m[i, j]
            tmp[0].b = tmp[0].b * 2 + tmp[0].c.imag
            m[i, j] = tmp[0]
            out[i, j] = m[i, j].a + m[i, j].b

    m = random_records(rng, (5, 7))
    want = m.copy()
    want["b"] = want["b"] * 2 + want["c"].imag.astype(np.float64)
    out = np.zeros((5, 7))
    swap[(1, 1), (8, 8)](m, out)
    np.testing.assert_array_equal(m, want)
    np.testing.assert_allclose(out, want["a"] + want["b"], rtol=1e-15)


def test_a_record_scalar_signature(rng):
    rec = ptxjit.from_dtype(REC)

    @cuda.jit(types.void(rec, types.float64))
    def setb(r, v):
        r.b = v * 3

    a = random_records(rng, 2)
    v = float(rng.uniform(-5, 5))
    setb[1, 1](a[1], v)
    assert a[1]["b"] == v * 3


def test_record_type_errors():
    with pytest.raises(TypeError, match="structured NumPy dtype"):
        types.Record(np.float32)
    with pytest.raises(TypeError, match="structured NumPy dtype"):
        types.Record()
    with pytest.raises(TypeError, match="not a number or record type"):
        types.Record.make_c_struct([("a", "x")])
    rec = types.Record.make_c_struct([("x", types.float32), ("p", types.Record(NESTED))])
    assert isinstance(rec, types.Record) and rec.offset("p") == 4


def test_dtypes_that_differ_only_in_align_are_different_record_types(rng):
    # NumPy's == ignores align=True; the Record type (and so the signature) does not
    packed = np.dtype([("x", np.float16), ("y", np.float16)])
    aligned = np.dtype([("x", np.float16), ("y", np.float16)], align=True)
    assert packed == aligned and types.Record(packed) != types.Record(aligned)

    def f(a, out):
        out[0] = a[0].x + a[0].y

    k1, k2 = cuda.jit(f), cuda.jit(f)
    out = np.zeros(2)
    for k, dt in ((k1, packed), (k2, aligned)):
        a = np.zeros(1, dt)
        a["x"], a["y"] = rng.uniform(-2, 2, 2)
        k[1, 1](cuda.to_device(a), out)
        assert out[0] == np.float64(a[0]["x"] + a[0]["y"])      # float16 + float16 is a float16
    assert k1.signatures[0] != k2.signatures[0]
    assert k1.signatures[0][0].endswith(";4;False)[::1]") and k2.signatures[0][0].endswith(";4;True)[::1]")

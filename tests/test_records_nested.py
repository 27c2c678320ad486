"""Records whose fields are themselves arrays or records (NumPy structured
dtypes with sub-array and nested-struct fields), as Numba's kernels take them:
`r.j[1, 0]`, `r['j'][1, 0]`, `a[i].j[k, m] = v`, `a[i].p.x`, `r.j.shape`,
`rec.j` passed on to a device function as an array, writes into nested
fields, whole-record copies, `r.j = src` and `r.p = q` assignments, for
arrays of records, record scalars, shared and local arrays and constant
arrays, with aligned and packed dtypes.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against NumPy.
"""


import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU, assert_ptx_assembles

f32, f64, i16, i32, i64 = np.float32, np.float64, np.int16, np.int32, np.int64

POINT = [("x", f32), ("y", f32)]
NESTED = np.dtype([("a", f64), ("j", i32, (2, 3)), ("p", POINT)])
NESTED_ALIGNED = np.dtype([("a", f64), ("j", i32, (2, 3)), ("p", POINT), ("flag", np.bool_)], align=True)
# packed: 'p' at byte 33 would misalign its float32 fields; 'h' (int8) is fine
PACKED_BAD = np.dtype([("a", f64), ("j", i32, (2, 3)), ("m", np.int8), ("p", POINT), ("h", np.int8, (3,))])
# records inside a sub-array, and a 1-d sub-array spelled with an int count
DEEP = np.dtype([("q", np.dtype(POINT), (3,)), ("h", f32, 2), ("k", i16, (2, 2))], align=True)

KERNELS = []


def kernel(f):
    k = cuda.jit(f)
    KERNELS.append(k)
    return k


def random_nested(rng, n, dtype=NESTED):
    a = np.zeros(n, dtype)
    a["a"] = rng.random(n)
    a["j"] = rng.integers(-1000, 1000, (n, 2, 3))
    a["p"]["x"] = rng.random(n)
    a["p"]["y"] = rng.random(n)
    if "flag" in dtype.names:
        a["flag"] = rng.random(n) < 0.5
    return a


# ------------------------------------------------------------------ reading

@kernel
def read_nested(a, out, ishape):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        out[i, 0] = r.j[1, 0]
        out[i, 1] = r['j'][0, 2] + a[i].j[1, 2]
        out[i, 2] = r.p.x + a[i]['p']['y']
        out[i, 3] = r.a * r.p[1]
        out[i, 4] = r.j[-1, -1]
        if i == 0:
            ishape[0] = r.j.shape[0]
            ishape[1] = r.j.shape[1]
            ishape[2] = r.j.size
            ishape[3] = len(r.j)
            ishape[4] = r.j.ndim


@pytest.mark.parametrize("dtype", [NESTED, NESTED_ALIGNED], ids=["packed", "aligned"])
def test_read_nested_fields(rng, dtype):
    a = random_nested(rng, 40, dtype)
    out = np.zeros((40, 5))
    ishape = np.zeros(5, i64)
    read_nested[2, 32](a, out, ishape)
    j, p = a["j"], a["p"]
    np.testing.assert_array_equal(out[:, 0], j[:, 1, 0])
    np.testing.assert_array_equal(out[:, 1], j[:, 0, 2] + j[:, 1, 2])
    np.testing.assert_allclose(out[:, 2], (p["x"] + p["y"]).astype(f64), rtol=1e-6)
    np.testing.assert_allclose(out[:, 3], a["a"] * p["y"].astype(f64))
    np.testing.assert_array_equal(out[:, 4], j[:, 1, 2])
    np.testing.assert_array_equal(ishape, [2, 3, 6, 2, 2])


def test_signature_spells_nested_types(rng):
    a = random_nested(rng, 4)
    read_nested[1, 4](a, np.zeros((4, 5)), np.zeros(5, i64))
    sig = [s for s in read_nested.signatures if "nestedarray" in str(s[0])][0][0]
    assert str(sig).startswith("Record(a[type=float64;offset=0],j[type=nestedarray(int32, (2, 3));offset=8],"
                               "p[type=Record(x[type=float32;offset=0],y[type=float32;offset=4];8;False);"
                               "offset=32];40;False)"), sig


# ------------------------------------------------------------------ writing

@kernel
def write_nested(a, vals):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i].j[1, 0] = vals[i]
        a[i]['j'][0, 1] += 7
        r = a[i]
        r.j[1, 2] = r.j[0, 0] * 2
        r.p.x = vals[i] * 0.5
        a[i]['p']['y'] += 1.0
        r['p'].x -= 0.25
        for k in range(3):
            r.j[0, k] += k


def test_write_nested_fields(rng):
    a = random_nested(rng, 50, NESTED_ALIGNED)
    b = a.copy()
    vals = rng.integers(-100, 100, 50)
    write_nested[2, 32](a, vals)
    j = b["j"].copy()
    j[:, 1, 0] = vals
    j[:, 0, 1] += 7
    j[:, 1, 2] = j[:, 0, 0] * 2
    j[:, 0, :] += np.arange(3)
    np.testing.assert_array_equal(a["j"], j)
    np.testing.assert_array_equal(a["p"]["x"], (vals * 0.5).astype(f32) - f32(0.25))
    np.testing.assert_array_equal(a["p"]["y"], b["p"]["y"] + f32(1))
    np.testing.assert_array_equal(a["a"], b["a"])
    np.testing.assert_array_equal(a["flag"], b["flag"])


# --------------------------------------------------------- device functions

@cuda.jit(device=True)
def total(m):
    s = 0
    for u in range(m.shape[0]):
        for v in range(m.shape[1]):
            s += m[u, v]
    return s


@cuda.jit(device=True)
def fill_row(m, row, v):
    for k in range(m.shape[1]):
        m[row, k] = v + k


@cuda.jit(device=True)
def point_norm2(p):
    return p.x * p.x + p.y * p.y


@kernel
def nested_through_device_functions(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i, 0] = total(a[i].j)
        out[i, 1] = point_norm2(a[i].p)
        fill_row(a[i]['j'], 1, i)


def test_nested_fields_passed_to_device_functions(rng):
    a = random_nested(rng, 33)
    b = a.copy()
    out = np.zeros((33, 2))
    nested_through_device_functions[2, 32](a, out)
    np.testing.assert_array_equal(out[:, 0], b["j"].sum(axis=(1, 2)))
    p = b["p"]
    np.testing.assert_allclose(out[:, 1], p["x"] * p["x"] + p["y"] * p["y"], rtol=1e-6)
    want = b["j"].copy()
    want[:, 1, :] = np.arange(33)[:, None] + np.arange(3)
    np.testing.assert_array_equal(a["j"], want)


@kernel
def rows_slices_atomics(a, counts):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i].j[1]                   # a row of the sub-array: a 1-d view
        counts[i, 0] = total(a[i].j[0:1, :]) + row[2]
        a[i].j[0, :] = 5                  # a slice of the field assigned
        cuda.atomic.add(a[0].j, (1, 1), 1)
        cuda.atomic.max(a[1]['j'], (1, 0), i)


def test_sub_array_rows_slices_and_atomics(rng):
    a = random_nested(rng, 40)
    b = a.copy()
    counts = np.zeros((40, 1))
    rows_slices_atomics[2, 32](a, counts)
    np.testing.assert_array_equal(counts[:, 0], b["j"][:, 0, :].sum(axis=1) + b["j"][:, 1, 2])
    want = b["j"].copy()
    want[:, 0, :] = 5
    want[0, 1, 1] += 40
    want[1, 1, 0] = max(b["j"][1, 1, 0], 39)
    np.testing.assert_array_equal(a["j"], want)


# ------------------------------------------------------------ record scalars

@kernel
def record_scalar_nested(r, out, v):
    out[0] = r.j[1, 0] + r.p.y
    out[1] = r.j.shape[1]
    r.j[0, 0] = v
    r['p'].x = 2.5
    r.p['y'] += 1


def test_record_scalar_with_nested_fields(rng):
    a = random_nested(rng, 3)
    b = a.copy()
    out = np.zeros(2)
    record_scalar_nested[1, 1](a[1], out, 42)
    np.testing.assert_allclose(out, [b[1]["j"][1, 0] + f64(b[1]["p"]["y"]), 3])
    assert a[1]["j"][0, 0] == 42 and a[1]["p"]["x"] == 2.5 and a[1]["p"]["y"] == b[1]["p"]["y"] + f32(1)
    np.testing.assert_array_equal(a[[0, 2]], b[[0, 2]])


NESTED_ARRAY1 = np.dtype([("array1", i16, (3,))], align=True)
NESTED_ARRAY2 = np.dtype([("array2", i16, (3, 2))], align=True)


@kernel
def assign_array_to_nested(dest, src):
    dest["array1"] = src


@kernel
def assign_array_to_nested_2d(dest, src):
    dest["array2"] = src


def test_assign_array_to_nested_field():
    """Numba's TestNestedArrays.test_assign_array_to_nested(_2d)."""
    src = (np.arange(3) + 1).astype(i16)
    got = np.zeros(2, NESTED_ARRAY1)
    assign_array_to_nested[1, 1](got[0], src)
    np.testing.assert_array_equal(got["array1"], [[1, 2, 3], [0, 0, 0]])
    src2 = (np.arange(6) + 1).astype(i16).reshape(3, 2)
    got2 = np.zeros(2, NESTED_ARRAY2)
    assign_array_to_nested_2d[1, 1](got2[0], src2)
    np.testing.assert_array_equal(got2["array2"][0], src2)
    np.testing.assert_array_equal(got2["array2"][1], 0)


@kernel
def copy_fields(index, src, dest):
    dest["user1"] = src[index]["user"]
    dest["array1"] = src[index]["array"]


def test_issue_7693_copy_between_dtypes():
    """Numba's test_issue_7693: fields copied between two record dtypes."""
    src_dtype = np.dtype([("user", f64), ("array", i16, (3,))], align=True)
    dest_dtype = np.dtype([("user1", f64), ("array1", i16, (3,))], align=True)
    source = np.zeros(2, dtype=src_dtype)
    got = np.zeros(2, dtype=dest_dtype)
    source[0] = (1.2, [1, 2, 3])
    copy_fields[1, 1](0, source, got[0])
    assert got[0]["user1"] == 1.2
    np.testing.assert_array_equal(got[0]["array1"], [1, 2, 3])
    np.testing.assert_array_equal(got[1]["array1"], 0)


# ------------------------------------------------------ whole-field copies

@kernel
def copies(a, b, idx, src, fillv):
    i = cuda.grid(1)
    if i < b.shape[0]:
        b[i] = a[idx[i]]                 # whole records, sub-arrays and nested records included
        if i % 3 == 1:
            b[i].p = a[0].p              # a nested record copied
        if i % 3 == 2:
            b[i].j = src[i]              # an array (int64, 2x3) converted into the int32 field
        if i % 4 == 3:
            b[i]['j'] = fillv            # a number broadcast
        if i == 0:
            b[0].j = a[1].j              # one sub-array field into another


def test_whole_record_and_field_copies(rng):
    a = random_nested(rng, 20, NESTED_ALIGNED)
    b = np.zeros(13, NESTED_ALIGNED)
    idx = rng.integers(0, 20, 13)
    src = rng.integers(-10 ** 6, 10 ** 6, (13, 2, 3))
    copies[1, 32](a, b, idx, src, -5)
    want = a[idx].copy()
    k = np.arange(13)
    want["p"][k % 3 == 1] = a[0]["p"]
    want["j"][k % 3 == 2] = src[k % 3 == 2]
    want["j"][k % 4 == 3] = -5
    want["j"][0] = a[1]["j"]
    for f in NESTED_ALIGNED.names:
        np.testing.assert_array_equal(b[f], want[f], err_msg=f)


ODD = np.dtype([("a", f64), ("j", i32, (2, 3)), ("p", POINT), ("m", np.int8)])      # 41 bytes, packed
SIX = np.dtype([("s", i16, (2,)), ("t", np.int8, (2,))])                            # 6 bytes


@kernel
def copy_odd_sizes(a, b, c, d):
    i = cuda.grid(1)
    if i < b.shape[0]:
        b[i] = a[b.shape[0] - 1 - i]     # byte by byte, in a loop
        d[i] = c[i + 1]                  # two bytes at a time


def test_whole_record_copies_of_packed_odd_sizes(rng):
    a = np.zeros(9, ODD)
    a["a"], a["m"] = rng.random(9), rng.integers(-100, 100, 9)
    a["j"] = rng.integers(-1000, 1000, (9, 2, 3))
    a["p"]["x"] = rng.random(9)
    b = np.zeros(9, ODD)
    c = np.zeros(10, SIX)
    c["s"] = rng.integers(-1000, 1000, (10, 2))
    c["t"] = rng.integers(-100, 100, (10, 2))
    d = np.zeros(9, SIX)
    copy_odd_sizes[1, 32](a, b, c, d)
    assert ODD.itemsize == 41 and SIX.itemsize == 6
    np.testing.assert_array_equal(b, a[::-1])
    np.testing.assert_array_equal(d, c[1:])


# ------------------------------------------------- shared, local, constant

CONST_NESTED = np.zeros(4, NESTED)
CONST_NESTED["j"] = np.arange(24).reshape(4, 2, 3)
CONST_NESTED["p"]["x"] = [0.5, 1.5, 2.5, 3.5]


@kernel
def nested_in_memory_spaces(a, out):
    tx = cuda.threadIdx.x
    sm = cuda.shared.array(32, NESTED_ALIGNED)
    loc = cuda.local.array(2, NESTED_ALIGNED)
    sm[tx] = a[tx]
    sm[tx].j[0, 1] += 100
    loc[0] = sm[tx]
    loc[1].p.x = 4.0
    loc[1].j[1, 1] = 9
    cuda.syncthreads()
    s = sm[31 - tx]
    c = CONST_NESTED[tx % 4]
    out[tx, 0] = s.j[0, 1] + s.p.y
    out[tx, 1] = loc[0].j[1, 2] + loc[1].p.x + loc[1].j[1, 1]
    out[tx, 2] = c.j[1, 1] + c.p.x + total(c.j)


def test_nested_in_shared_local_and_constant_memory(rng):
    a = random_nested(rng, 32, NESTED_ALIGNED)
    out = np.zeros((32, 3))
    nested_in_memory_spaces[1, 32](a, out)
    rev = a[::-1]
    np.testing.assert_allclose(out[:, 0], rev["j"][:, 0, 1] + 100 + rev["p"]["y"].astype(f64), rtol=1e-6)
    np.testing.assert_array_equal(out[:, 1], a["j"][:, 1, 2] + 4.0 + 9)
    c = CONST_NESTED[np.arange(32) % 4]
    np.testing.assert_array_equal(out[:, 2], c["j"][:, 1, 1] + c["p"]["x"] + c["j"].sum(axis=(1, 2)))


# ------------------------------------------------ records inside sub-arrays

@kernel
def deep_fields(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        out[i, 0] = r.q[2].x + r.q[0]['y']
        out[i, 1] = r.h[1] + r.k[1, 0]
        s = 0.0
        for v in r.h:
            s += v
        out[i, 2] = s
        r.q[1].y = r.h[0]
        r.k[0, 1] = r.q.shape[0]


def test_records_in_sub_arrays(rng):
    a = np.zeros(21, DEEP)
    a["q"]["x"] = rng.random((21, 3))
    a["q"]["y"] = rng.random((21, 3))
    a["h"] = rng.random((21, 2))
    a["k"] = rng.integers(-50, 50, (21, 2, 2))
    b = a.copy()
    out = np.zeros((21, 3))
    deep_fields[1, 32](a, out)
    np.testing.assert_allclose(out[:, 0], (b["q"]["x"][:, 2] + b["q"]["y"][:, 0]).astype(f64), rtol=1e-6)
    np.testing.assert_allclose(out[:, 1], b["h"][:, 1].astype(f64) + b["k"][:, 1, 0], rtol=1e-6)
    np.testing.assert_allclose(out[:, 2], b["h"].astype(f64).sum(axis=1), rtol=1e-6)
    np.testing.assert_array_equal(a["q"]["y"][:, 1], b["h"][:, 0])
    np.testing.assert_array_equal(a["k"][:, 0, 1], 3)


def test_device_array_of_nested_records(rng):
    a = random_nested(rng, 40)
    d = cuda.to_device(a)
    vals = rng.integers(-100, 100, 40)
    write_nested[2, 32](d, vals)
    got = d.copy_to_host()
    np.testing.assert_array_equal(got["j"][:, 1, 0], vals)
    np.testing.assert_array_equal(got["a"], a["a"])


# ---------------------------------------------------------------- catalogue

def test_record_nested(load, rng):
    """tests/golden/kernels/record_nested.py, on NESTED records."""
    mod = load("record_nested")
    a = random_nested(rng, 37)
    b0 = a.copy()
    b = np.zeros(37, NESTED)
    out = np.zeros(37)
    mod.k[2, 32](a, b, out)
    j, p = b0["j"], b0["p"]
    np.testing.assert_allclose(out, j[:, 1, 0] + j[:, 0, 2] + p["x"].astype(f64) + j[:, 1, :].sum(axis=1))
    want = b0.copy()
    want["j"][:, 0, 1] += 3
    want["p"]["y"] = b0["a"].astype(f32)
    for f in ("a", "j", "p"):
        np.testing.assert_array_equal(a[f], want[f], err_msg=f)
    for f in ("a", "j"):
        np.testing.assert_array_equal(b[f], a[f], err_msg=f)
    # a[0].p is written by thread 0 while the threads of other warps copy
    # it: they see it before or after that write (a race of the kernel)
    before, after = b0[0]["p"], a[0]["p"]
    assert all(bp == after or (i >= 32 and bp == before) for i, bp in enumerate(b["p"]))


# ------------------------------------------------------------------ errors

@kernel
def packed_nested_read(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i].p.x


@kernel
def packed_ok_read(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i].j[1, 1] + a[i].h[2] + a[i].m


def test_packed_dtype_misaligned_nested_record_is_refused(rng):
    a = np.zeros(4, PACKED_BAD)
    with pytest.raises(cuda.TypingError, match="field 'p': type .* is not aligned .* multiple of 4 bytes"):
        packed_nested_read[1, 4](a, np.zeros(4))
    # the aligned fields of the same packed dtype work
    a["j"] = rng.integers(-9, 9, (4, 2, 3))
    a["h"] = rng.integers(-9, 9, (4, 3))
    a["m"] = rng.integers(-9, 9, 4)
    out = np.zeros(4)
    packed_ok_read[1, 4](a, out)
    np.testing.assert_array_equal(out, a["j"][:, 1, 1] + a["h"][:, 2] + a["m"])


def test_unsupported_nested_field_types_are_refused():
    bad = [np.dtype([("a", f64), ("s", object, (2,))]),
           np.dtype([("a", f64), ("p", [("x", ">f4")])]),
           np.dtype([("a", f64), ("e", i32, (0,))])]
    for dt in bad:
        with pytest.raises(TypeError, match="record field '(s|x|e)'"):
            read_nested[1, 1](np.zeros(2, dt), np.zeros((2, 5)), np.zeros(5, i64))


@kernel
def aug_whole_field(a):
    a[0].j += 1


def test_augmented_assignment_to_array_field_is_refused():
    with pytest.raises(cuda.TypingError, match="field 'j' is an array of int32"):
        aug_whole_field[1, 1](np.zeros(2, NESTED))


@kernel
def bad_shape_store(a, src):
    a[0].j = src


def test_storing_wrong_dimensions_is_refused():
    with pytest.raises(cuda.TypingError, match="cannot store array\\(int64, 1d, C\\)"):
        bad_shape_store[1, 1](np.zeros(2, NESTED), np.zeros(6, i64))


@kernel
def out_of_bounds(a, k):
    a[0].j[k, 0] = 1


@pytest.mark.skipif(ON_GPU, reason="a check of the simulator; the GPU does not check bounds")
def test_sub_array_index_is_bounds_checked():
    with pytest.raises(Exception, match="out of bounds"):
        out_of_bounds[1, 1](np.zeros(2, NESTED), 2)


def test_ptx_assembles():
    """Every kernel above, as compiled for this run, is valid PTX for ptxas."""
    assert_ptx_assembles(KERNELS, 8)

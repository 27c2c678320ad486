"""Arrays in kernels: views (basic slicing, negative steps, views passed to
device functions), strided and Fortran-ordered arguments, 0-d arrays,
records (structured dtypes) and their fields, local arrays, constant arrays
(cuda.const.array_like and module-level NumPy arrays), dynamic shared memory
and shared arrays of every dtype and alignment.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against NumPy.  When `ptxas` is on the PATH the PTX of every
kernel compiled here is also assembled by it (test_ptx_assembles).
"""


import numpy as np
import pytest

from ptxjit import cuda
from conftest import assert_ptx_assembles

f32, f64 = np.float32, np.float64
i8, i16, i32, i64 = np.int8, np.int16, np.int32, np.int64
u8, u32, u64 = np.uint8, np.uint32, np.uint64
c64, c128 = np.complex64, np.complex128

KERNELS = []


def kernel(f):
    """@cuda.jit, remembered for the PTX check at the end."""
    k = cuda.jit(f)
    KERNELS.append(k)
    return k


@cuda.jit(device=True)
def dev_sum(v):
    s = 0.0
    for k in range(v.shape[0]):
        s += v[k]
    return s


@cuda.jit(device=True)
def dev_fill(v, x):
    for k in range(v.shape[0]):
        v[k] = x + k


@cuda.jit(device=True)
def dev_sum2(m):
    s = 0.0
    for a in range(m.shape[0]):
        for b in range(m.shape[1]):
            s += m[a, b] * (a + 1) + b
    return s


# ------------------------------------------------------------------ views

@kernel
def row_col_sums(m, rows, cols):
    i = cuda.grid(1)
    if i < m.shape[0]:
        rows[i] = dev_sum(m[i, :])
        cols[i] = dev_sum(m[:, i % m.shape[1]])


def test_rows_and_columns_to_device_function(rng):
    m = rng.random((37, 11))
    rows, cols = np.zeros(37), np.zeros(37)
    row_col_sums[2, 32](m, rows, cols)
    np.testing.assert_allclose(rows, m.sum(axis=1))
    np.testing.assert_allclose(cols, m.sum(axis=0)[np.arange(37) % 11])


@kernel
def slice_forms(a, out):
    i = cuda.grid(1)
    if i == 0:
        v = a[2:10:2]
        w = a[::-1]
        x = a[10:2:-3]
        y = a[-4:]
        z = a[:-20:-4]
        e = a[5:3]
        out[0] = v.shape[0]
        out[1] = v[0] + v[-1] * 10
        out[2] = w[0] + w[w.shape[0] - 1] * 10
        out[3] = x.shape[0]
        out[4] = x[0] + x[1] * 10 + x[2] * 100
        out[5] = y[0] + y.shape[0] * 1000
        out[6] = z.shape[0] + z[1] * 10
        out[7] = e.shape[0]
        out[8] = dev_sum(a[1::3])
        out[9] = dev_sum(a[::-2])
        out[10] = a[::-1][::2][1]
        out[11] = len(a[3:-3])


def index_by_0d(r, a, i, j, out):
    r[()] = a[i]
    out[0] = a[i, ] + a[j]
    a[j] = out[0]


def test_0d_integer_arrays_index_as_their_element(rng):
    """A 0-d array of integers indexes as the integer it holds (NumPy's
    and Numba's rule), negative ones wrapping, in loads and stores."""
    a = rng.random(9)
    want = a.copy()
    r, out = np.zeros(()), np.zeros(1)
    i, j = np.asarray(rng.integers(0, 9)), np.asarray(-int(rng.integers(1, 9)), np.int32)
    cuda.jit(index_by_0d)[1, 1](r, a, i, j, out)
    assert r[()] == want[i] and out[0] == want[i] + want[j]
    want[j] = want[i] + want[j]
    assert a.tolist() == want.tolist()


def test_slice_forms(rng):
    a = rng.integers(0, 50, 23).astype(f64)
    out = np.zeros(12)
    slice_forms[1, 32](a, out)
    v, w, x, y, z = a[2:10:2], a[::-1], a[10:2:-3], a[-4:], a[:-20:-4]
    want = [len(v), v[0] + v[-1] * 10, w[0] + w[-1] * 10, len(x), x[0] + x[1] * 10 + x[2] * 100,
            y[0] + len(y) * 1000, len(z) + z[1] * 10, len(a[5:3]), a[1::3].sum(), a[::-2].sum(),
            a[::-1][::2][1], len(a[3:-3])]
    np.testing.assert_allclose(out, want)


@cuda.jit(device=True)
def put_view(o, v):
    n = v.shape[0]
    o[0] = n
    o[1] = dev_sum(v)
    o[2] = v[0] if n > 0 else -1.0
    o[3] = v[-1] if n > 0 else -1.0


@kernel
def slice_bounds(a, lo, hi, out):
    t = cuda.grid(1)
    if t < lo.shape[0]:
        l, h = lo[t], hi[t]
        o = out[t]
        put_view(o[0], a[l:h])
        put_view(o[1], a[l:h:2])
        put_view(o[2], a[l:h:3])
        put_view(o[3], a[l:h:-1])
        put_view(o[4], a[l:h:-2])
        put_view(o[5], a[l:h:-5])
        put_view(o[6], a[l:])
        put_view(o[7], a[:h])
        put_view(o[8], a[l::-3])
        put_view(o[9], a[:h:4])


def test_slice_bounds_against_numpy(rng):
    """Run-time bounds (negative, past either end, empty) with constant
    steps of both signs give NumPy's views."""
    a = rng.random(17)
    lo = rng.integers(-25, 25, 200)
    hi = rng.integers(-25, 25, 200)
    out = np.zeros((200, 10, 4))
    slice_bounds[4, 64](a, lo, hi, out)
    for t in range(200):
        l, h = int(lo[t]), int(hi[t])
        views = (a[l:h], a[l:h:2], a[l:h:3], a[l:h:-1], a[l:h:-2], a[l:h:-5], a[l:], a[:h], a[l::-3], a[:h:4])
        for k, v in enumerate(views):
            want = [len(v), v.sum(), v[0] if len(v) else -1.0, v[-1] if len(v) else -1.0]
            np.testing.assert_allclose(out[t, k], want, err_msg="a[%d:%d] form %d" % (l, h, k))


@kernel
def view_2d(m, out):
    i = cuda.grid(1)
    if i == 0:
        v = m[1:6, ::2]
        out[0] = dev_sum2(v)
        out[1] = dev_sum2(m[::-1, 3:])
        out[2] = dev_sum2(m[-2:, ::-3])
        out[3] = v.shape[0] * 100 + v.shape[1]
        out[4] = dev_sum(v[2])
        out[5] = dev_sum(v[:, 1])


def weighted(m):
    a = np.arange(m.shape[0])[:, None] + 1
    b = np.arange(m.shape[1])[None, :]
    return float((m * a + b).sum())


def test_2d_views(rng):
    m = rng.random((9, 8))
    out = np.zeros(6)
    view_2d[1, 1](m, out)
    v = m[1:6, ::2]
    want = [weighted(v), weighted(m[::-1, 3:]), weighted(m[-2:, ::-3]), v.shape[0] * 100 + v.shape[1],
            v[2].sum(), v[:, 1].sum()]
    np.testing.assert_allclose(out, want)


@kernel
def write_through_views(m, x):
    i = cuda.grid(1)
    if i < m.shape[0]:
        dev_fill(m[i, 1:], x[i])
        r = m[i]
        r[0] = -r[-1]
        m[i, ::-3][0] += 0.5


def test_write_through_views(rng):
    m = np.zeros((13, 10))
    x = rng.random(13)
    write_through_views[1, 32](m, x)
    want = np.zeros((13, 10))
    want[:, 1:] = x[:, None] + np.arange(9)
    want[:, 0] = -want[:, -1]
    want[:, -1] += 0.5
    np.testing.assert_allclose(m, want)


@kernel
def copy_into_view(a, b):
    i = cuda.grid(1)
    if i == 0:
        a[1:7:2] = b[:3]
        a[8:] = 7.0
        a[0:2] = (1.5, 2.5)


def test_assign_to_views(rng):
    a = np.zeros(12)
    b = rng.random(5)
    copy_into_view[1, 1](a, b)
    want = np.zeros(12)
    want[1:7:2] = b[:3]
    want[8:] = 7.0
    want[0:2] = (1.5, 2.5)
    np.testing.assert_allclose(a, want)


# ------------------------------------------------- strides and layouts

@kernel
def scale_2d(a, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] * 2 + i - j


@kernel
def scale_3d(a, out):
    i, j, k = cuda.grid(3)
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        out[i, j, k] = a[i, j, k] * 3 + i * 100 + j * 10 + k


def want_2d(a):
    return a * 2 + np.arange(a.shape[0])[:, None] - np.arange(a.shape[1])[None, :]


@pytest.mark.parametrize("order", ["C", "F"])
def test_fortran_and_c_arguments(rng, order):
    a = np.asarray(rng.random((17, 23)), order=order)
    out = np.zeros((17, 23), order=order)
    scale_2d[(3, 3), (8, 8)](a, out)
    np.testing.assert_allclose(out, want_2d(a))
    a3 = np.asarray(rng.random((5, 6, 7)), order=order)
    out3 = np.zeros_like(a3, order=order)
    scale_3d[(1, 2, 2), (8, 4, 4)](a3, out3)
    idx = np.indices(a3.shape)
    np.testing.assert_allclose(out3, a3 * 3 + idx[0] * 100 + idx[1] * 10 + idx[2])


def test_strided_device_arguments(rng):
    a = rng.random((20, 30))
    d = cuda.to_device(a)
    out = cuda.to_device(np.zeros((20, 30)))
    va, vo = d[1::2, ::-3], out[::2, 2::3]
    scale_2d[(2, 2), (8, 8)](va, vo)
    got = out.copy_to_host()
    want = np.zeros((20, 30))
    want[::2, 2::3] = want_2d(a[1::2, ::-3])
    np.testing.assert_allclose(got, want)
    # a transposed C array is F-ordered, and the other way round
    out2 = cuda.device_array((30, 20))
    scale_2d[(4, 3), (8, 8)](d.T, out2)
    np.testing.assert_allclose(out2.copy_to_host(), want_2d(a.T))


def test_non_contiguous_host_array_is_refused():
    a = np.zeros((10, 10))[::2]
    with pytest.raises(ValueError, match="non-contiguous"):
        scale_2d[1, 1](a, np.zeros((5, 10)))


# -------------------------------------------------------------- 0-d arrays

@kernel
def zero_d(r, x, out):
    r[()] = r[()] * 2 + x
    out[()] = r.size + r.ndim * 10


def test_zero_dimensional_arrays():
    r = np.array(1.25)
    out = np.array(0, dtype=np.int64)
    zero_d[1, 1](r, 3.0, out)
    assert r[()] == 5.5 and out[()] == 1
    d = cuda.to_device(np.array(2.0, dtype=f32))
    zero_d[1, 1](d, 1, out)
    assert d.copy_to_host()[()] == 5.0


# ------------------------------------------------------------------ records

REC = np.dtype([("x", f32), ("y", i32), ("z", f64), ("flag", np.bool_), ("c", c64)], align=True)
PACKED = np.dtype([("a", i8), ("b", f64)])


@kernel
def record_fields(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        out[i] = r.x + r['y'] * 2 + a[i].z * 3 + (10 if r.flag else 0) + r.c.imag
        a[i].x = out[i]
        a[i]['y'] += 1
        r.z = -r.z
        r['flag'] = not r.flag
        a[i].c = complex(r.x, 1.0)


def random_records(rng, n, dtype=REC):
    a = np.zeros(n, dtype)
    a["x"] = rng.random(n)
    a["y"] = rng.integers(-100, 100, n)
    a["z"] = rng.random(n)
    a["flag"] = rng.random(n) < 0.5
    a["c"] = rng.random(n) + 1j * rng.random(n)
    return a


def test_record_fields_inline(rng):
    a = random_records(rng, 50)
    b = a.copy()
    out = np.zeros(50)
    record_fields[2, 32](a, out)
    want = b["x"].astype(f64) + b["y"] * 2 + b["z"] * 3 + np.where(b["flag"], 10, 0) + b["c"].imag.astype(f64)
    np.testing.assert_allclose(out, want, rtol=1e-6)
    np.testing.assert_allclose(a["x"], want.astype(f32))
    np.testing.assert_array_equal(a["y"], b["y"] + 1)
    np.testing.assert_array_equal(a["z"], -b["z"])
    np.testing.assert_array_equal(a["flag"], ~b["flag"])
    np.testing.assert_allclose(a["c"], a["x"] + 1j)


def test_record_fields_device_array(rng):
    a = random_records(rng, 40)
    b = a.copy()
    d = cuda.to_device(a)
    out = cuda.device_array(40)
    record_fields[2, 32](d, out)
    np.testing.assert_array_equal(d.copy_to_host()["y"], b["y"] + 1)


@kernel
def record_copy(a, b, idx):
    i = cuda.grid(1)
    if i < b.shape[0]:
        b[i] = a[idx[i]]
        if i == 0:
            r = a[idx[1]]
            b[0] = r


def test_record_copy(rng):
    a = random_records(rng, 30)
    b = np.zeros(10, REC)
    idx = rng.integers(0, 30, 10)
    record_copy[1, 32](a, b, idx)
    want = a[idx]
    want[0] = want[1]
    for f in REC.names:
        np.testing.assert_array_equal(b[f], want[f])


@kernel
def record_2d_and_shared(a, out):
    tx = cuda.threadIdx.x
    sm = cuda.shared.array(32, REC)
    loc = cuda.local.array(2, REC)
    sm[tx] = a[tx // 4, tx % 4]
    loc[0].x = sm[tx].x * 2
    loc[1] = sm[tx]
    cuda.syncthreads()
    s = sm[31 - tx]
    out[tx] = s.x + s.y + loc[0].x + loc[1].z


def test_records_2d_shared_and_local(rng):
    a = random_records(rng, 32).reshape(8, 4)
    out = np.zeros(32)
    record_2d_and_shared[1, 32](a, out)
    flat = a.reshape(-1)
    rev = flat[::-1]
    want = rev["x"].astype(f64) + rev["y"] + flat["x"].astype(f32) * f32(2) + flat["z"]
    np.testing.assert_allclose(out, want, rtol=1e-6)


@kernel
def record_view(a, out):
    i = cuda.grid(1)
    if i == 0:
        v = a[::-2]
        for k in range(v.shape[0]):
            out[k] = v[k].y


def test_record_views(rng):
    a = random_records(rng, 11)
    out = np.zeros(6)
    record_view[1, 1](a, out)
    np.testing.assert_array_equal(out, a[::-2]["y"])


@cuda.jit(device=True)
def rec_norm(r):
    return r.x * r.x + r[1] * r[1]


@cuda.jit(device=True)
def rec_pick(a, k):
    return a[k]


POINTS = np.zeros(5, dtype=np.dtype([("x", f64), ("y", f64)]))
POINTS["x"] = [1, 2, 3, 4, 5]
POINTS["y"] = [0.5, -1, 2, 0, 3]


@kernel
def record_device_functions(a, b, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = rec_pick(a, a.shape[0] - 1 - i)
        p = POINTS[i % 5]
        out[i] = rec_norm(r) + rec_norm(p) + r[-1]
        rec_pick(b, i).y = i


def test_records_through_device_functions_and_constants(rng):
    dt = np.dtype([("x", f64), ("y", f64)])
    a = np.zeros(20, dt)
    a["x"], a["y"] = rng.random(20), rng.random(20)
    b = np.zeros(20, dt)
    out = np.zeros(20)
    record_device_functions[1, 32](a, b, out)
    r, p = a[::-1], POINTS[np.arange(20) % 5]
    want = r["x"] ** 2 + r["y"] ** 2 + p["x"] ** 2 + p["y"] ** 2 + r["y"]
    np.testing.assert_allclose(out, want)
    np.testing.assert_array_equal(b["y"], np.arange(20))


@kernel
def record_scalar(r, out, k):
    out[0] = r.x + r.y * 10
    r.y = r.y + k
    r['z'] = 0.5


def test_record_scalar_arguments(rng):
    """A record (a[i] of a structured array) passed on its own is a
    reference to that record: the kernel's writes reach the array."""
    a = random_records(rng, 4)
    b = a.copy()
    out = np.zeros(1)
    record_scalar[1, 1](a[2], out, 5)
    assert out[0] == f64(b[2]["x"]) + b[2]["y"] * 10
    assert a[2]["y"] == b[2]["y"] + 5 and a[2]["z"] == 0.5
    for f in REC.names:
        np.testing.assert_array_equal(a[[0, 1, 3]][f], b[[0, 1, 3]][f])
    assert record_scalar.signatures[-1][0].startswith("Record(x[type=float32;offset=0]")


@kernel
def packed_read(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i].b


@kernel
def field_views(a, outx, outc):
    i = cuda.grid(1)
    if i < a.shape[0]:
        xs, cs = a.x, a.c
        outx[i] = xs[i] * 2 + a.y[i]
        outc[i] = cs[i].imag
        a.z[i] = a.z[i] + 1 + a.flag[i]


@kernel
def field_view_of_packed(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a.b[i]


def test_record_array_fields_as_views(rng):
    """a.field of a record array (Numba's recarray attributes) is a view of
    that field of every record: read and written in place; a field that
    is not aligned is refused as r.field is."""
    n = 40
    a = np.zeros(n, REC)
    for f in ("x", "z"):
        a[f] = rng.standard_normal(n)
    a["y"] = rng.integers(-50, 50, n)
    a["flag"] = rng.random(n) < 0.5
    a["c"] = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    b = a.copy()
    outx, outc = np.zeros(n, f32), np.zeros(n, f32)
    field_views[1, 64](a.view(np.recarray), outx, outc)
    np.testing.assert_array_equal(outx, (b["x"] * 2 + b["y"]).astype(f32))
    np.testing.assert_array_equal(outc, b["c"].imag)
    np.testing.assert_array_equal(a["z"], b["z"] + 1 + b["flag"])
    for f in ("x", "y", "flag", "c"):
        np.testing.assert_array_equal(a[f], b[f])
    with pytest.raises(cuda.TypingError, match="not aligned"):
        field_view_of_packed[1, 4](np.zeros(4, PACKED), np.zeros(4))


def test_misaligned_record_field_is_refused():
    a = np.zeros(4, PACKED)
    with pytest.raises(cuda.TypingError, match="not aligned") as ei:
        packed_read[1, 4](a, np.zeros(4))
    assert "align=True" in str(ei.value)


@kernel
def missing_field(a, out):
    i = cuda.grid(1)
    out[i] = a[i].nope


def test_missing_record_field():
    with pytest.raises(cuda.TypingError, match="no field 'nope'") as ei:
        missing_field[1, 1](np.zeros(2, REC), np.zeros(2))
    assert "x, y, z, flag, c" in str(ei.value)


# -------------------------------------------------------------- local arrays

@kernel
def local_arrays(out):
    i = cuda.grid(1)
    t = cuda.local.array((3, 4), np.int32)
    b = cuda.local.array(5, dtype=np.bool_)
    c = cuda.local.array(shape=2, dtype=np.complex128)
    h = cuda.local.array(3, np.int8)
    for x in range(3):
        for y in range(4):
            t[x, y] = x * 10 + y + i
    for x in range(5):
        b[x] = (x + i) % 2 == 0
    c[0] = complex(i, 1)
    c[1] = c[0] * c[0]
    h[0] = 100
    h[1] = h[0] + 100
    s = 0
    for x in range(3):
        s += t[x, 3 - x]
    for x in range(5):
        if b[x]:
            s += 1000
    out[i] = s + c[1].imag * 100000 + h[1] * 1000000


def test_local_arrays():
    out = np.zeros(40)
    local_arrays[2, 20](out)
    i = np.arange(40)
    s = sum(x * 10 + 3 - x + i for x in range(3))
    s = s + sum(np.where((x + i) % 2 == 0, 1000, 0) for x in range(5))
    want = s + (2 * i) * 100000 + int(np.int8(-56)) * 1000000
    np.testing.assert_array_equal(out, want)


# ------------------------------------------------------------ constant arrays

TABLE = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.float32)
GRID2 = np.arange(12, dtype=np.int16).reshape(3, 4) * 7
LUT = np.linspace(0.0, 1.0, 33)


@kernel
def const_arrays(x, out):
    i = cuda.grid(1)
    c = cuda.const.array_like(TABLE)
    if i < x.shape[0]:
        k = x[i]
        out[i] = c[k % 8] + GRID2[k % 3, k % 4] + LUT[k % 33] + LUT.shape[0] * 1000


def test_constant_arrays(rng):
    x = rng.integers(0, 1000, 100)
    out = np.zeros(100)
    const_arrays[4, 32](x, out)
    want = TABLE[x % 8] + GRID2[x % 3, x % 4] + LUT[x % 33] + 33000
    np.testing.assert_allclose(out, want)
    assert ".const" in const_arrays.inspect_asm(const_arrays.signatures[0])


@kernel
def const_not_writable(out):
    TABLE[0] = 1.0


def test_constant_array_is_read_only():
    with pytest.raises(cuda.TypingError, match="read-only"):
        const_not_writable[1, 1](np.zeros(1))


# -------------------------------------------------------- shared memory

@kernel
def dynamic_shared(a, out, n):
    tx = cuda.threadIdx.x
    f = cuda.shared.array(0, dtype=np.float32)
    g = cuda.shared.array(0, dtype=np.int32)   # the same memory as f
    f[tx] = a[tx]
    cuda.syncthreads()
    if tx == 0:
        out[0] = f.shape[0]
        out[1] = g.shape[0]
    out[2 + tx] = f[n - 1 - tx]
    cuda.syncthreads()
    g[tx] = tx * 3
    cuda.syncthreads()
    out[2 + n + tx] = g[n - 1 - tx] + (1000 if f[tx] == f[0] else 0)


def test_dynamic_shared_memory(rng):
    n = 24
    a = rng.random(n).astype(f32)
    out = np.zeros(2 + 2 * n)
    dynamic_shared[1, n, 0, 4 * n + 8](a, out, n)
    assert out[0] == n + 2 and out[1] == n + 2
    np.testing.assert_allclose(out[2:2 + n], a[::-1])
    np.testing.assert_array_equal(out[2 + n:], (n - 1 - np.arange(n)) * 3 + np.r_[1000, np.zeros(n - 1)])


@kernel
def dynamic_overrun(out):
    f = cuda.shared.array(0, dtype=np.float64)
    f[cuda.threadIdx.x] = 1.0
    out[0] = f.size


def test_dynamic_shared_extent(on_gpu):
    out = np.zeros(1)
    dynamic_overrun[1, 4, 0, 32](out)
    assert out[0] == 4
    if not on_gpu:
        with pytest.raises(cuda.SimIndexError, match="index 4 is out of bounds"):
            dynamic_overrun[1, 5, 0, 32](out)


@kernel
def dynamic_slices(out):
    tx = cuda.threadIdx.x
    mem = cuda.shared.array(0, dtype=np.int32)
    a = mem[:8]
    b = mem[8:]
    r = mem[::-1]
    a[tx] = tx
    b[tx] = 100 + tx
    cuda.syncthreads()
    out[tx] = r[tx] + a[7 - tx] * 1000


def test_dynamic_shared_disjoint_slices():
    out = np.zeros(8, dtype=np.int64)
    dynamic_slices[1, 8, 0, 16 * 4](out)
    np.testing.assert_array_equal(out, (100 + 7 - np.arange(8)) + (7 - np.arange(8)) * 1000)


SHARED_TYPES = [np.bool_, i8, np.int16, np.uint16, i32, u64, f32, f64, c64, c128]


def make_shared_kernel(dt):
    @cuda.jit
    def k(a, out):
        tx = cuda.threadIdx.x
        s = cuda.shared.array((4, 8), dtype=dt)
        t = cuda.shared.array(3, dtype=np.int8)
        w = cuda.shared.array(32, dtype=dt, alignment=64)
        s[tx // 8, tx % 8] = a[tx]
        w[tx] = a[31 - tx]
        if tx < 3:
            t[tx] = tx
        cuda.syncthreads()
        out[tx] = s[(31 - tx) // 8, (31 - tx) % 8]
        out[32 + tx] = w[tx]
    return k


@pytest.mark.parametrize("dt", SHARED_TYPES, ids=lambda t: np.dtype(t).name)
def test_shared_arrays_of_every_dtype(rng, dt):
    k = make_shared_kernel(dt)
    KERNELS.append(k)
    a = (rng.random(32) * 100).astype(dt) if dt is not np.bool_ else rng.random(32) < 0.5
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.random(32).astype(dt)
    out = np.zeros(64, dtype=dt)
    k[1, 32](a, out)
    np.testing.assert_array_equal(out[:32], a[::-1])
    np.testing.assert_array_equal(out[32:], a[::-1])
    ptx = k.inspect_asm(k.signatures[0])
    assert ".align 64" in ptx


def make_aligned_kernel(shared, alignment, dt):
    # alignment is a free variable, as Numba's users pass it: None is no alignment
    if shared:
        @cuda.jit
        def k(a, out):
            tx = cuda.threadIdx.x
            s = cuda.shared.array(32, dtype=dt, alignment=alignment)
            s[tx] = a[tx]
            cuda.syncthreads()
            out[tx] = s[31 - tx]
    else:
        @cuda.jit
        def k(a, out):
            tx = cuda.threadIdx.x
            s = cuda.local.array((2, 3), dtype=dt, alignment=alignment)
            for j in range(3):
                s[1, j] = a[tx] + j
            out[tx] = s[1, 2]
    return k


@pytest.mark.parametrize("shared", [True, False], ids=["shared", "local"])
@pytest.mark.parametrize("alignment", [None, 8, 16, 256])
def test_alignment_from_a_closure(rng, shared, alignment):
    k = make_aligned_kernel(shared, alignment, np.int16)
    a = rng.integers(-1000, 1000, 32).astype(np.int16)
    out = np.zeros(32, np.int16)
    k[1, 32](a, out)
    np.testing.assert_array_equal(out, a[::-1] if shared else a + 2)
    ptx = k.inspect_asm(k.signatures[0])
    # an int16 array is aligned to 4 bytes unless told more
    want = ".align %d" % (alignment if alignment and alignment > 4 else 4)
    assert any(want in ln for ln in ptx.splitlines() if (".shared" if shared else ".local") in ln), ptx


@pytest.mark.parametrize("shared", [True, False], ids=["shared", "local"])
@pytest.mark.parametrize("alignment,exc,words", [
    (-1, ValueError, "Alignment must be positive"), (0, ValueError, "Alignment must be positive"),
    (3, ValueError, "Alignment must be a power of 2"), (17, ValueError, "Alignment must be a power of 2"),
    (4, ValueError, "Alignment must be a multiple of 8"),
    ("16", cuda.TypingError, "alignment must be a constant integer, not a string"),
    (1.0, cuda.TypingError, "alignment must be a constant integer, not float64"),
    (True, cuda.TypingError, "alignment must be a constant integer, not bool"),
])
def test_invalid_alignments(shared, alignment, exc, words):
    k = make_aligned_kernel(shared, alignment, np.int16)
    with pytest.raises(exc, match=words) as ei:
        k[1, 32](np.zeros(32, np.int16), np.zeros(32, np.int16))
    assert isinstance(ei.value, cuda.TypingError)   # also a ValueError where Numba raises one
    assert "test_arrays.py:%d:" % (make_aligned_kernel.__code__.co_firstlineno + (6 if shared else 14)) in str(ei.value)


@cuda.jit
def fill_parts(a, out, c):
    # a number stored into every element of a part of 2 or 3 axes
    loc = cuda.local.array((2, 3), np.float64)
    loc[:] = c
    sm = cuda.shared.array((3, 2, 2), np.int32)
    sm[:] = 7
    sm[1] = -3
    a[1:, ::2] = c
    a[0, 1:3] = c + 1
    out[0] = loc[1, 2] + loc[0, 0] + sm[2, 1, 1] + sm[1, 0, 1]


@pytest.mark.parametrize("layout", ["C", "F", "A"])
def test_number_stored_into_a_part_of_several_axes(rng, layout):
    base = rng.standard_normal((5, 7))
    a = np.asfortranarray(base) if layout == "F" else base.copy()
    out = np.zeros(1)
    c = float(rng.standard_normal())
    if layout == "A":
        d = cuda.to_device(np.concatenate([base, base], axis=1))
        fill_parts[1, 1](d[:, ::2], out, c)
        got = d.copy_to_host()[:, ::2]
    else:
        fill_parts[1, 1](a, out, c)
        got = a
    want = base.copy() if layout != "A" else np.concatenate([base, base], axis=1)[:, ::2]
    want[1:, ::2] = c
    want[0, 1:3] = c + 1
    np.testing.assert_array_equal(got, want)
    assert out[0] == 2 * c + 7 - 3
    KERNELS.append(fill_parts)


# ------------------------------------------------------------ error messages

def test_atomic_on_local_array_message():
    @cuda.jit
    def bad(out):
        t = cuda.local.array(4, np.int32)
        cuda.atomic.add(t, 0, 1)
        out[0] = t[0]
    with pytest.raises(cuda.TypingError, match="local array") as ei:
        bad[1, 1](np.zeros(1, dtype=np.int32))
    assert "cuda.atomic.add(t, 0, 1)" in str(ei.value)


def test_shared_shape_not_constant_message():
    @cuda.jit
    def bad(out, n):
        s = cuda.shared.array(n, np.float32)
        out[0] = s[0]
    with pytest.raises(cuda.TypingError, match="must be a constant") as ei:
        bad[1, 1](np.zeros(1), 4)
    assert "cuda.shared.array(n, np.float32)" in str(ei.value)


# ------------------------------------------------------ catalogue kernels
# tests/golden/kernels/ (compiled to PTX and given to ptxas by the golden
# tests); test_kernels.py imports these so every catalogue kernel has a test.

REC_CAT = np.dtype([("x", f32), ("y", i32), ("z", f64), ("ok", np.bool_)], align=True)
PAIR = np.dtype([("a", np.int16), ("b", np.int16), ("w", f32)])


def test_record_fields(load, rng):
    k = load("record_fields").fields
    n = 45
    a = np.zeros(n, REC_CAT)
    a["x"], a["y"], a["z"] = rng.random(n), rng.integers(-50, 50, n), rng.random(n)
    a["ok"] = rng.random(n) < 0.5
    a0, b, out = a.copy(), np.zeros(n, REC_CAT), np.zeros(n)
    k[2, 32](a, b, out)
    x = a0["x"].astype(f64)
    want = x + a0["y"] * 2 + a0["z"] * 3 + x
    np.testing.assert_allclose(out, want, rtol=1e-13)
    np.testing.assert_array_equal(a["x"], want.astype(f32))
    np.testing.assert_array_equal(a["y"], a0["y"] + 1)
    np.testing.assert_array_equal(a["ok"], ~a0["ok"])
    np.testing.assert_array_equal(a["z"], a0["z"])
    np.testing.assert_array_equal(b[::-1], a)


def test_record_shared(load, rng):
    k = load("record_shared").records
    m = np.zeros((8, 8), PAIR)
    m["a"], m["b"] = rng.integers(-300, 300, (8, 8)), rng.integers(-300, 300, (8, 8))
    m["w"] = rng.random((8, 8))
    out = np.zeros(64, dtype=f32)
    k[1, 64](m, out)
    flat = m.reshape(-1)
    want = flat[::-1]["w"] + (flat["a"].astype(i64) * flat["b"]).astype(f32)
    np.testing.assert_array_equal(out, want)


def test_zero_d_array(load):
    k = load("zero_d_array").zero_d
    r, count = np.array(1.5), np.array(0, dtype=i32)
    k[2, 32](r, count, 2.0)
    assert r[()] == 5.0 and count[()] == 64


def test_dynamic_smem_alias(load, rng):
    k = load("dynamic_smem_alias").dyn
    a = rng.random(32).astype(f32)
    out = np.zeros(32, dtype=i32)
    k[1, 32, 0, 256](a, out)
    np.testing.assert_array_equal(out, (31 - np.arange(32)) + 32 + 32 + 31)


def test_shared_dtypes(load, rng):
    k = load("shared_dtypes").shared_kinds
    b = rng.integers(-100, 100, 32).astype(i8)
    c = rng.random(32) + 1j * rng.random(32)
    out = np.zeros(32)
    k[1, 32](b, c, out)
    t = np.arange(32)
    want = c[::-1].real + c[::-1].imag + 3 * (t % 5) + b[::-1] * 0.5 + (b[t % 7] > 0)
    np.testing.assert_allclose(out, want, rtol=1e-15)


def test_const_arrays(load, rng):
    mod = load("const_arrays")
    idx = rng.integers(0, 10000, 300)
    out = np.zeros(300)
    mod.smooth[3, 128](idx, out)
    w = mod.WEIGHTS.astype(f64)
    want = w[0] * idx + w[1] * mod.TABLE[idx % 2, idx % 3] + w[2] * mod.RAMP[idx % 16] + 16
    np.testing.assert_allclose(out, want, rtol=1e-15)


def test_views_to_devfn(load, rng):
    k = load("views_to_devfn").views
    m = rng.random((21, 12))
    m0, out = m.copy(), np.zeros(21)
    k[1, 32](m, out)
    want = m0.sum(axis=1) + m0[:, 0].sum() + m0[:, ::-2].sum(axis=1) + m0[:, 10:2:-3].sum(axis=1)
    np.testing.assert_allclose(out, want)
    m0[:, 1::2] *= 2
    np.testing.assert_array_equal(m, m0)


# -------------------------------------------------------------- PTX check

def test_ptx_assembles():
    """Every kernel above, as compiled for this run, is valid PTX for ptxas."""
    assert_ptx_assembles(KERNELS, 10)

"""cuda.compile_for_current_device: Numba's cuda.compile for the compute
capability of the current device (numba-cuda's test_compiler uses it)."""

import numpy as np
import pytest

from ptxjit import cuda


def scale(out, x, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * a


def test_compile_for_current_device_targets_the_current_device():
    cc = cuda.get_current_device().compute_capability
    ptx, restype = cuda.compile_for_current_device(scale, "void(float32[::1], float32[::1], float32)", device=False)
    assert ".target sm_%d%d" % tuple(cc) in ptx
    assert ptx == cuda.compile(scale, "void(float32[::1], float32[::1], float32)", cc=cc, device=False)[0]
    assert str(restype) in ("void", "none")


def test_compile_for_current_device_ptx_runs():
    # the same source launched as a kernel gives NumPy's answer
    x = np.random.default_rng(7).uniform(-3, 3, 257).astype(np.float32)
    out = np.zeros_like(x)
    cuda.jit(scale)[3, 128](out, x, np.float32(1.5))
    np.testing.assert_array_equal(out, x * np.float32(1.5))
    ptx, _ = cuda.compile_for_current_device(scale, "void(float32[::1], float32[::1], float32)", device=False)
    assert ".entry" in ptx and "mul.rn.f32" in ptx


def test_from_dtype_of_a_number_dtype_makes_array_types():
    # numba-cuda's tests spell signatures as from_dtype(dt)[::1]
    import ptxjit
    for dt in (np.float32, np.float64, np.int16, np.uint64, np.complex64, np.bool_):
        t = ptxjit.from_dtype(np.dtype(dt))
        assert t is getattr(ptxjit, np.dtype(dt).name if dt is not np.bool_ else "boolean")
        assert t[::1] == getattr(ptxjit, t.name)[::1]
    arr = ptxjit.from_dtype(np.float32)[::1]
    k = cuda.jit(ptxjit.void(arr, arr, ptxjit.from_dtype(np.float32)))(scale)
    x = np.random.default_rng(3).uniform(-2, 2, 100).astype(np.float32)
    out = np.zeros_like(x)
    k[1, 128](out, x, np.float32(-0.75))
    np.testing.assert_array_equal(out, x * np.float32(-0.75))


def test_from_dtype_in_a_shared_array_shape():
    import ptxjit
    f8 = ptxjit.from_dtype(np.float64)

    @cuda.jit
    def rev(out, x):
        s = cuda.shared.array(32, f8)
        i = cuda.threadIdx.x
        s[i] = x[i]
        cuda.syncthreads()
        out[i] = s[31 - i]

    x = np.random.default_rng(5).uniform(1, 2, 32)
    out = np.zeros_like(x)
    rev[1, 32](out, x)
    np.testing.assert_array_equal(out, x[::-1])


def test_compile_all_gives_the_kernels_ptx_in_a_list():
    sig = "void(float32[::1], float32[::1], float32)"
    codes, restype = cuda.compile_all(scale, sig, device=False, abi="numba", output="ptx")
    assert codes == [cuda.compile(scale, sig, device=False)[0]] and ".entry" in codes[0]
    with pytest.raises(NotImplementedError, match="NVVM or nvJitLink"):
        cuda.compile_all(scale, sig, device=False)        # Numba's default output is LTO-IR


def test_numba_type_constructors():
    from ptxjit import types
    assert types.Array(types.float32, 2, "C") == types.float32[:, ::1]
    assert types.Array(types.int64, 1, "A") == types.int64[:]
    assert types.Array(types.float64, 3, "F") == types.float64[::1, :, :]
    assert isinstance(types.float32[:, ::1], types.Array) and not isinstance(types.float32, types.Array)
    assert types.complex64.underlying_float is types.float32
    assert types.complex128.underlying_float is types.float64
    with pytest.raises(AttributeError, match="not a complex type"):
        types.float32.underlying_float
    # a signature written with Array runs
    arr = types.Array(types.float32, 1, "C")
    k = cuda.jit(types.void(arr, arr, types.complex64.underlying_float))(scale)
    x = np.random.default_rng(11).uniform(-1, 1, 64).astype(np.float32)
    out = np.zeros_like(x)
    k[1, 64](out, x, np.float32(3.0))
    np.testing.assert_array_equal(out, x * np.float32(3.0))


def test_as_dtype_inverts_from_dtype():
    import ptxjit
    for t in ptxjit.types.number_types():
        dt = ptxjit.as_dtype(t)
        assert isinstance(dt, np.dtype) and dt == np.dtype(t.np_name)
        assert ptxjit.from_dtype(dt) is t
    with pytest.raises(NotImplementedError, match="as_dtype takes number types"):
        ptxjit.as_dtype(ptxjit.float32[::1])


def test_numba_type_classes_and_domains():
    from ptxjit import types
    assert isinstance(types.float32, types.Float) and isinstance(types.float64, types.Number)
    assert isinstance(types.int16, types.Integer) and types.int16.signed and types.int16.bitwidth == 16
    assert isinstance(types.uint64, types.Integer) and not types.uint64.signed and types.uint64.bitwidth == 64
    assert isinstance(types.complex64, types.Complex) and isinstance(types.boolean, types.Boolean)
    assert not isinstance(types.float32, types.Integer)
    assert isinstance(types.void, types.NoneType) and types.none is types.void
    assert types.byte is types.uint8 and types.longlong is types.int64 and types.ulonglong is types.uint64
    assert types.signed_domain == {types.int8, types.int16, types.int32, types.int64}
    assert types.unsigned_domain | types.signed_domain == types.integer_domain
    assert types.real_domain == {types.float32, types.float64}
    assert types.number_domain == types.integer_domain | types.real_domain | types.complex_domain
    p = types.CPointer(types.float32)
    assert p.dtype is types.float32 and str(p) == "float32*" and str(types.voidptr) == "void*"
    assert types.from_dtype(np.dtype(np.int32)) is types.int32


def test_numba_tuple_types_in_signatures(rng):
    from ptxjit import types
    t3 = types.UniTuple(types.float64, 3)
    assert t3.count == 3 and t3.dtype is types.float64 and list(t3) == [types.float64] * 3
    assert types.Tuple([types.int32, types.int32]) == types.UniTuple(types.int32, 2)
    mixed = types.Tuple((types.int64, types.float32))
    assert isinstance(mixed, types.BaseTuple) and mixed.types == (types.int64, types.float32)

    def k(out, t, m):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = t[0] * i + t[1] - t[2] + m[0] * m[1]

    kern = cuda.jit(types.void(types.float64[::1], t3, mixed))(k)
    tv = tuple(float(v) for v in rng.uniform(-2, 2, 3))
    mv = (int(rng.integers(1, 9)), float(np.float32(rng.uniform(1, 2))))
    out = np.zeros(40)
    kern[1, 64](out, tv, mv)
    i = np.arange(40)
    np.testing.assert_allclose(out, tv[0] * i + tv[1] - tv[2] + mv[0] * np.float64(np.float32(mv[1])), rtol=1e-12)


def test_record_make_c_struct(rng):
    from ptxjit import types
    rec = types.Record.make_c_struct([("x", types.float32), ("n", types.int64), ("c", types.complex64)])
    assert isinstance(rec, types.Record) and not isinstance(np.dtype(np.float32), types.Record)
    assert rec.fields["n"][1] == 8 and rec.size == 24           # aligned as a C compiler does
    assert types.from_dtype(rec) == rec
    with pytest.raises(TypeError, match="structured NumPy dtype"):
        types.Record()

    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[i].x * a[i].n + a[i].c.real

    a = np.zeros(50, rec)
    a["x"] = rng.uniform(-1, 1, 50)
    a["n"] = rng.integers(-100, 100, 50)
    a["c"] = rng.uniform(-1, 1, 50) + 1j
    out = np.zeros(50)
    k[1, 64](a, out)
    np.testing.assert_allclose(out, a["x"].astype(np.float64) * a["n"] + a["c"].real.astype(np.float64), rtol=1e-6)


@pytest.mark.parametrize("cc, target, least", [((9, 0, "a"), "sm_90a", 80), ((10, 0, "a"), "sm_100a", 86),
                                               ((10, 0, "f"), "sm_100f", 88), ((9, 0), "sm_90", 78)])
def test_architecture_specific_targets(tmp_path, cc, target, least):
    """cc=(9, 0, "a") compiles for sm_90a (the architecture's own features),
    (10, 0, "f") for the family target sm_100f, as Numba's compile_ptx;
    the .version is one that knows the target, and ptxas takes it."""
    import re
    import shutil
    import subprocess
    ptx, _ = cuda.compile_ptx(scale, "void(float32[::1], float32[::1], float32)", cc=cc)
    assert "\n.target %s\n" % target in ptx
    major, minor = re.search(r"\.version (\d+)\.(\d+)", ptx).groups()
    assert int(major) * 10 + int(minor) >= least
    ptxas = shutil.which("ptxas")
    if ptxas:
        p = tmp_path / "k.ptx"
        p.write_text(ptx)
        r = subprocess.run([ptxas, "-arch=" + target, str(p), "-o", str(tmp_path / "k.o")], capture_output=True,
                           text=True)
        assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("cc", [(8, 0, "a"), (9, 0, "f"), (9, 0, "b"), (9,), 90])
def test_bad_targets(cc):
    with pytest.raises(ValueError, match="cc"):
        cuda.compile_ptx(scale, "void(float32[::1], float32[::1], float32)", cc=cc)


def returns_a_sum(x, y):
    return x[0] + y[0]


def reads_no_attribute(x):
    x[0] = x.nosuch


def test_a_kernel_returning_a_value_is_a_type_error():
    """As Numba's: a kernel must have void return type, a TypeError (here a
    KernelTypeError, which is a TypingError too, with the caret)."""
    from ptxjit.errors import KernelTypeError, TypingError
    a = np.arange(4, dtype=np.uint32)
    for compile_it in (lambda: cuda.compile_ptx(returns_a_sum, "void(uint32[::1], uint32[::1])"),
                       lambda: cuda.compile_ptx(returns_a_sum, "uint32(uint32[::1], uint32[::1])"),
                       lambda: cuda.jit(returns_a_sum)[1, 1](a, a)):
        with pytest.raises(TypeError, match="must have void return type") as e:
            compile_it()
        assert isinstance(e.value, TypingError) and isinstance(e.value, KernelTypeError)
    with pytest.raises(TypingError) as e:
        cuda.compile_ptx(reads_no_attribute, "void(uint32[::1])")
    assert not isinstance(e.value, TypeError)


def test_cuda_types_names_in_kernels(rng):
    # numba.cuda.types is Numba's types namespace: its names are dtypes and casts in kernels too
    @cuda.jit
    def k(x, out16, out32, outi):
        i = cuda.grid(1)
        if i < x.size:
            h = cuda.types.float16(x[i])
            out16[i] = h * cuda.types.float16(2)
            out32[i] = cuda.types.float32(x[i]) / 3
            outi[i] = cuda.types.int32(x[i] * 10)
            tmp = cuda.local.array(1, cuda.types.int16)
            tmp[0] = outi[i]
            outi[i] += tmp[0]

    x = rng.uniform(-4, 4, 90)
    o16, o32, oi = np.zeros(90, np.float16), np.zeros(90, np.float32), np.zeros(90, np.int32)
    k[2, 64](x, o16, o32, oi)
    np.testing.assert_array_equal(o16, x.astype(np.float16) * np.float16(2))
    np.testing.assert_array_equal(o32, x.astype(np.float32) / np.float32(3))
    np.testing.assert_array_equal(oi, 2 * (x * 10).astype(np.int32))

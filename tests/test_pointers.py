"""Pointers (Numba's CPointer, spelled int32* in signatures): pointer
parameters taking a device array's address, p[i] read and written, carray
and farray over a pointer, ffi.from_buffer(a), pointers passed to device
functions, and external functions (cuda.declare_device) that take and give
pointers, whose PTX ptxas must accept.  On the simulator every access
through a pointer is checked against the memory it points into: an access
outside it is an IndexError naming the pointer, never a silent read.

Random data, NumPy for the expected values; on the simulator, or the GPU
with PTXJIT_TEST_GPU=1 (the tests marked sim_only check the simulator's
bounds reports).
"""

import os
import shutil
import subprocess

import numpy as np
import pytest

from conftest import ON_GPU
from ptxjit import cuda, types
from ptxjit.np.numpy_support import carray, farray

cffi = pytest.importorskip("cffi")
ffi = cffi.FFI()

sim_only = pytest.mark.skipif(ON_GPU, reason="the simulator's bounds checks")
rng = np.random.default_rng(20261202)


def addr(d):
    return d.__cuda_array_interface__["data"][0]


def test_pointer_parameters_axpy():
    ptr = types.CPointer(types.int32)

    @cuda.jit(types.void(ptr, types.int32, ptr, ptr, types.uint32))
    def axpy(r, a, x, y, n):
        i = cuda.grid(1)
        if i < n:
            r[i] = a * x[i] + y[i]

    n = 300
    hx = rng.integers(-1000, 1000, n).astype(np.int32)
    hy = rng.integers(-1000, 1000, n).astype(np.int32)
    dx, dy = cuda.to_device(hx), cuda.to_device(hy)
    dr = cuda.device_array_like(dx)
    axpy[3, 128](addr(dr), 7, addr(dx), addr(dy), n)
    np.testing.assert_array_equal(dr.copy_to_host(), 7 * hx + hy)


def test_pointer_signature_string_and_augmented_store():
    @cuda.jit("void(float64*, float64[::1], int64)")
    def k(p, x, n):
        i = cuda.grid(1)
        if i < n:
            p[i] += x[i] * 2.0
            p[i] -= 1

    n = 200
    hp = rng.standard_normal(n)
    hx = rng.standard_normal(n)
    dp = cuda.to_device(hp)
    k[2, 128](addr(dp), hx, n)
    np.testing.assert_allclose(dp.copy_to_host(), hp + hx * 2.0 - 1, rtol=0, atol=0)


def test_cache_hints_through_pointers():
    """cuda.ldcs/ldcg/... and stcs/stwt/... take a pointer and one index
    (p[i], not wrapped), as Numba's do: global loads and stores with the
    operator in the PTX; the simulator checks them as p[i]."""
    ptr = types.CPointer(types.float32)

    @cuda.jit(types.void(ptr, ptr, types.int64))
    def k(src, dst, n):
        i = cuda.grid(1)
        if i < n:
            cuda.stwt(dst, i, cuda.ldcs(src, i) * 2 + cuda.ldcg(src, n - 1 - i))

    n = 200
    h = rng.standard_normal(n).astype(np.float32)
    ds, dd = cuda.to_device(h), cuda.device_array(n, np.float32)
    k[2, 128](addr(ds), addr(dd), n)
    np.testing.assert_array_equal(dd.copy_to_host(), h * np.float32(2) + h[::-1])
    ptx = k.inspect_asm(k.signatures[0])
    assert "ld.global.cs.b32" in ptx and "ld.global.cg.b32" in ptx and "st.global.wt.b32" in ptx
    if not ON_GPU:
        with pytest.raises(IndexError, match="src"):
            k[2, 128](addr(ds), addr(dd), n + 1)


@pytest.mark.parametrize("make,order", [(carray, "C"), (farray, "F")])
def test_carray_farray_over_a_pointer_parameter(make, order):
    @cuda.jit(types.void(types.CPointer(types.float32), types.float32[:, ::1]))
    def k(p, out):
        a = make(p, (3, 5), dtype=np.float32)
        i, j = cuda.grid(2)
        if i < 3 and j < 5:
            out[i, j] = a[i, j] * 2
            a[i, j] = i * 10 + j

    h = rng.standard_normal(15).astype(np.float32)
    d = cuda.to_device(h)
    out = np.zeros((3, 5), np.float32)
    k[1, (4, 8)](addr(d), out)
    np.testing.assert_array_equal(out, h.reshape((3, 5), order=order) * 2)
    want = np.fromfunction(lambda i, j: i * 10 + j, (3, 5)).astype(np.float32)
    np.testing.assert_array_equal(d.copy_to_host().reshape((3, 5), order=order), want)


def test_from_buffer_and_device_functions_taking_pointers():
    @cuda.jit(device=True)
    def scale(p, i, s):
        p[i] = p[i] * s

    @cuda.jit
    def k(x, s):
        i = cuda.grid(1)
        if i < x.size:
            p = ffi.from_buffer(x)
            scale(p, i, s)
            q = ffi.from_buffer(x[i:])      # a view: a pointer to its first element
            q[0] += 1

    h = rng.integers(-50, 50, 100).astype(np.int64)
    x = h.copy()
    k[1, 128](x, 3)
    np.testing.assert_array_equal(x, h * 3 + 1)


def test_carray_of_from_buffer_reshapes():
    @cuda.jit
    def k(x, out):
        a = carray(ffi.from_buffer(x), (4, 6))
        i, j = cuda.grid(2)
        if i < 4 and j < 6:
            out[j, i] = a[i, j]

    x = rng.standard_normal(24)
    out = np.zeros((6, 4))
    k[1, (4, 8)](x, out)
    np.testing.assert_array_equal(out, x.reshape(4, 6).T)


@sim_only
def test_out_of_bounds_through_a_pointer_parameter_is_reported():
    @cuda.jit("void(int32*, int32*, int64)")
    def copy(dst, src, n):
        i = cuda.grid(1)
        if i < n:
            dst[i] = src[i]

    d = cuda.to_device(rng.integers(0, 9, 10).astype(np.int32))
    r = cuda.device_array_like(d)
    with pytest.raises(IndexError, match="pointer 'src' reaches outside the memory it points into.*"
                                         "byte 40 of an allocation of 40 bytes"):
        copy[1, 32](addr(r), addr(d), 16)


@sim_only
def test_out_of_bounds_through_from_buffer_and_carray_is_reported():
    @cuda.jit
    def past_view(x):
        p = ffi.from_buffer(x[2:5])
        p[3] = 1

    @cuda.jit
    def before(x):
        p = ffi.from_buffer(x[2:5])
        p[-3] = 1

    @cuda.jit
    def too_big(x):
        a = carray(ffi.from_buffer(x), (3, 4))
        a[0, 0] = 1

    x = np.zeros(10, np.int32)
    with pytest.raises(IndexError, match="pointer 'p'.*byte 12 of an allocation of 12 bytes"):
        past_view[1, 1](x)
    with pytest.raises(IndexError, match="pointer 'p'.*byte -12 of an allocation of 12 bytes"):
        before[1, 1](x)
    with pytest.raises(IndexError, match="pointer 'ffi.from_buffer\\(x\\)'.*byte 44 of an allocation of 40"):
        too_big[1, 1](x)
    assert not x.any()


@sim_only
def test_an_address_outside_every_device_array_is_refused():
    @cuda.jit("void(int32*)")
    def k(p):
        p[0] = 1

    with pytest.raises(ValueError, match="must be the address of a device array's memory"):
        k[1, 1](12345)


def test_pointer_typing_errors():
    from ptxjit.errors import TypingError

    def sliced(p):
        q = p[1:3]  # noqa: F841

    def arith(p):
        q = p + 1  # noqa: F841

    def wrong_dtype(p):
        a = carray(p, 3, dtype=np.float64)  # noqa: F841

    for f, msg in ((sliced, "takes one integer index, not a slice"),
                   (arith, "unsupported operand types"),
                   (wrong_dtype, "mismatching dtype 'float64' for pointer type 'int32\\*'")):
        with pytest.raises(TypingError, match=msg):
            cuda.jit("void(int32*)")(f)
    with pytest.raises(Exception, match="untyped pointers"):
        cuda.jit("void(void*)")(sliced)


def test_numba_core_signature_objects():
    numba_types = pytest.importorskip("numba.core.types")

    @cuda.jit(numba_types.void(numba_types.CPointer(numba_types.float32)))
    def k(p):
        p[0] = 2.5

    d = cuda.to_device(np.zeros(1, np.float32))
    k[1, 1](int(d.gpu_data.device_pointer))
    assert d.copy_to_host()[0] == 2.5


def _ptxas(ptx, tmp_path):
    exe = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(exe):
        pytest.skip("no ptxas to check the PTX with")
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    r = subprocess.run([exe, "-arch=sm_90", "-c", str(src), "-o", str(tmp_path / "k.o")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_external_functions_with_pointers_emit_ptx_ptxas_accepts(tmp_path):
    mutate = cuda.declare_device("array_mutator", types.void(types.CPointer(types.int32)))
    at = cuda.declare_device("element_at", "int32*(int32*, int64)", abi="c")
    barrier = cuda.declare_device("cta_barrier", types.CPointer(types.int32)())

    @cuda.jit
    def k(x):
        p = ffi.from_buffer(x)
        mutate(p)
        q = at(p, 3)
        q[0] = q[1] + 7
        barrier()

    ptx, _ = cuda.compile_ptx(k, "void(int32[::1])", cc=(9, 0))
    assert ".extern .func (.param .b32 __pj_st) array_mutator(.param .b64 __pj_rp, .param .b64 __pj_a0);" in ptx
    assert ".extern .func (.param .b64 __pj_r) element_at(.param .b64 __pj_a0, .param .b64 __pj_a1);" in ptx
    _ptxas(ptx, tmp_path)
    if not ON_GPU:
        with pytest.raises(Exception, match="external function"):
            k[1, 1](np.zeros(4, np.int32))


def test_compile_ptx_device_function_with_pointers(tmp_path):
    def nth(p, i):
        return p[i] * 2

    ptx, ret = cuda.compile_ptx(nth, "float32(float32*, int64)", device=True, cc=(9, 0), abi="c")
    assert "nth(.param .b64 nth_param_0, .param .b64 nth_param_1)" in ptx
    assert "ld.f32" in ptx       # a generic load: the pointer may point anywhere
    _ptxas(ptx, tmp_path)


_BARRIER_PTX = """
.version 7.8
.target sm_70
.address_size 64
.visible .func (.param .b32 st) cta_barrier(.param .b64 out)
{
	.reg .b64 %rd<2>;
	ld.param.u64 %rd0, [out];
	mov.u64 %rd1, 0;
	st.u64 [%rd0], %rd1;
	bar.sync 0;
	st.param.b32 [st], 0;
	ret;
}
"""


def test_use_cooperative_makes_the_launch_cooperative(tmp_path):
    from ptxjit.typing import signature
    barrier = cuda.declare_device("cta_barrier", sig=signature(types.CPointer(types.int32)),
                                  link=[cuda.PTXSource(_BARRIER_PTX.encode(), name="barrier.ptx")],
                                  use_cooperative=True)
    assert barrier.use_cooperative

    def k():
        barrier()

    ptx, _ = cuda.compile_ptx(k, "void()", cc=(9, 0))
    _ptxas(ptx, tmp_path)
    if not ON_GPU:
        with pytest.raises(Exception, match="'cta_barrier' is an external function"):
            cuda.jit("void()")(k)
        return
    kernel = cuda.jit("void()")(k)
    overload = kernel.overloads[()]
    assert overload.cooperative
    kernel[overload.max_cooperative_grid_blocks(32), 32]()
    cuda.synchronize()


def test_cpu_target_checks_pointer_accesses():
    from ptxjit import njit

    @njit
    def total(x):
        p = ffi.from_buffer(x)
        s = 0
        for i in range(x.size):
            s += p[i]
        return s

    @njit(boundscheck=True)      # the CPU target checks accesses under boundscheck, as Numba
    def past(x, i):
        return ffi.from_buffer(x)[i]

    x = rng.integers(-100, 100, 37).astype(np.int64)
    assert total(x) == x.sum()
    assert past(x, 36) == x[36]
    with pytest.raises(IndexError, match="pointer 'ffi.from_buffer\\(x\\)' reaches outside the memory"):
        past(x, 37)
    with pytest.raises(IndexError, match="reaches outside"):
        past(np.zeros(0, np.int64), 0)


def test_cuda_carray_in_a_device_function():
    @cuda.jit(device=True)
    def row_sum(p, n, m, i):
        a = cuda.carray(p, (n, m))
        s = 0.0
        for j in range(m):
            s += a[i, j]
        return s

    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = row_sum(ffi.from_buffer(x), out.size, x.size // out.size, i)

    x = rng.standard_normal(5 * 7)
    out = np.zeros(5)
    k[1, 8](x, out)
    np.testing.assert_allclose(out, x.reshape(5, 7).sum(axis=1), rtol=1e-12)


def test_kernel_with_pointer_parameters_gives_ptx_ptxas_accepts(tmp_path):
    def axpy(r, a, x, y, n):
        i = cuda.grid(1)
        if i < n:
            r[i] = a * x[i] + y[i]

    ptx, _ = cuda.compile_ptx(axpy, "void(float32*, float32, float32*, float32*, uint32)", cc=(9, 0))
    # each pointer is one 64-bit parameter, read and written as a generic address
    assert ptx.count(".param .u64") == 3
    assert "ld.f32" in ptx and "st.f32" in ptx
    _ptxas(ptx, tmp_path)

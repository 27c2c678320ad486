"""Mapped (zero-copy) and managed host memory: cuda.mapped_array,
cuda.mapped, cuda.managed_array.  Kernels read and write these arrays in
place; on the GPU (PTXJIT_TEST_GPU=1) through the device address, on the
simulator as host arrays.  The fake driver checks that the launch copies
nothing and passes the mapped address."""

import numpy as np
import pytest

from ptxjit import cuda
from test_runtime import fake_driver, run_fake  # noqa: F401  (the fixture)


@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def scale2d(x, out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = x[i, j] * 3 - 1


def _rand(rng, shape, dtype):
    return (rng.random(shape) * 10 + 1).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_mapped_array_in_and_out(dtype):
    rng = np.random.default_rng(11)
    n = 1000
    x = cuda.mapped_array(n, dtype)
    y = cuda.mapped_array(n, dtype)
    out = cuda.mapped_array(n, dtype)
    assert isinstance(x, np.ndarray) and isinstance(x, cuda.MappedNDArray)
    x[:] = _rand(rng, n, dtype)
    y[:] = _rand(rng, n, dtype)
    out[:] = 0
    axpy[(n + 127) // 128, 128](dtype(2), x, y, out)
    cuda.synchronize()
    np.testing.assert_allclose(out, dtype(2) * x + y, rtol=1e-6)


def test_mapped_array_2d_fortran_and_views():
    rng = np.random.default_rng(12)
    x = cuda.mapped_array((33, 17), np.float64, order="F")
    assert x.flags.f_contiguous and x.shape == (33, 17)
    x[...] = rng.random((33, 17))
    out = cuda.mapped_array((33, 17), np.float64)
    out[...] = 0
    scale2d[(3, 3), (16, 8)](x, out)
    cuda.synchronize()
    np.testing.assert_allclose(out, x * 3 - 1)
    # a slice of a mapped array is mapped memory at an offset
    n = 200
    a = cuda.mapped_array(n, np.float32)
    a[:] = rng.random(n).astype(np.float32)
    b = cuda.mapped_array(n, np.float32)
    b[:] = -5
    before = b.copy()
    axpy[2, 64](np.float32(1), a[50:150], a[:100], b[20:120])
    cuda.synchronize()
    want = before.copy()
    want[20:120] = a[50:150] + a[:100]
    np.testing.assert_allclose(b, want, rtol=1e-6)
    if not cuda.is_simulator():
        base = a.__cuda_array_interface__["data"][0]
        assert a[50:150].__cuda_array_interface__["data"][0] == base + 50 * 4
    # arithmetic on a mapped array gives memory of its own: no device address
    assert not hasattr(a + 1, "__cuda_array_interface__")


def test_mapped_context_manager():
    rng = np.random.default_rng(13)
    n = 500
    x = rng.random(n)
    y = rng.random(n)
    out = np.zeros(n)
    with cuda.mapped(x, y, out) as (dx, dy, dout):
        axpy[4, 128](0.5, dx, dy, dout)
        cuda.synchronize()
    np.testing.assert_allclose(out, 0.5 * x + y)
    one = np.zeros(n)
    with cuda.mapped(one) as d:
        axpy[4, 128](2.0, x, y, d)
        cuda.synchronize()
    np.testing.assert_allclose(one, 2 * x + y)
    with pytest.raises(ValueError, match="contiguous"):
        with cuda.mapped(x[::2]):
            pass


@pytest.mark.parametrize("attach_global", [True, False])
def test_managed_array(attach_global):
    rng = np.random.default_rng(14)
    n = 777
    x = cuda.managed_array(n, np.float64, attach_global=attach_global)
    out = cuda.managed_array(n, np.float64, attach_global=attach_global)
    assert isinstance(x, cuda.ManagedNDArray)
    x[:] = rng.random(n)
    out[:] = 0
    axpy[7, 128](3.0, x, x, out)
    cuda.synchronize()
    np.testing.assert_allclose(out, 4 * x)
    # the host writes, the kernel reads it again in place
    x[:10] = 100.0
    prior = np.array(out)
    axpy[7, 128](1.0, x, out, out)
    cuda.synchronize()
    np.testing.assert_allclose(out, x + prior)
    assert out[3] == 100.0 + prior[3]
    m2 = cuda.managed_array((20, 30), np.float32, order="F")
    assert m2.flags.f_contiguous and m2.dtype == np.float32
    m2[...] = rng.random((20, 30))
    res = cuda.managed_array((20, 30), np.float32)
    scale2d[(2, 4), (16, 8)](m2, res)
    cuda.synchronize()
    np.testing.assert_allclose(res, m2.astype(np.float64) * 3 - 1, rtol=1e-6, atol=1e-6)


def test_memory_kind_errors():
    with pytest.raises(ValueError, match="negative"):
        cuda.mapped_array(-1)
    with pytest.raises(ValueError, match="order"):
        cuda.managed_array(4, order="K")
    with pytest.raises(TypeError, match="NumPy"):
        with cuda.mapped([1, 2, 3]):
            pass


def test_fake_driver_mapped_and_managed_are_used_in_place(fake_driver, tmp_path):  # noqa: F811
    res = run_fake("""
        @cuda.jit
        def k(a, b):
            a[0] = b[0]
        a = cuda.mapped_array(64, np.int32)
        b = cuda.managed_array(64, np.int32)
        a[:] = 7
        b[:] = np.arange(64)
        h0, d0 = get("htod"), get("dtoh")
        setf("launch_write", 4321)
        k[1, 1](a[8:], b)
        cuda.synchronize()
        raw = last_launch()[2]
        kern = next(iter(k.overloads.values()))
        result["copies"] = [get("htod") - h0, get("dtoh") - d0]
        result["maps"] = get("host_maps"); result["managed"] = get("managed_allocs")
        result["a8"] = int(a[8])
        result["data"] = [v for role, arg, dim, v in params(kern, raw) if role == "data"]
        result["want"] = [a.ctypes.data + 32, b.ctypes.data]
        result["sig"] = list(k.signatures[0])
        with cuda.mapped(np.zeros(16)) as z:
            result["maps_in"] = get("host_maps")
        result["regs_after"] = get("host_registers")
    """, fake_driver, tmp_path)
    assert "raised" not in res, res
    assert res["copies"] == [0, 0]              # nothing staged: used in place
    assert res["a8"] == 4321                    # the fake kernel wrote through the mapped address
    assert res["data"] == res["want"]
    assert res["maps"] == 1 and res["managed"] == 1 and res["maps_in"] == 2
    assert res["sig"] == ["int32[::1]", "int32[::1]"]


def test_mapped_and_managed_arrays_give_no_copy_warning(rng):
    # they are used where they are, never copied at the launch
    import warnings
    from ptxjit.errors import NumbaPerformanceWarning
    c = cuda.config
    saved = c.CUDA_LOW_OCCUPANCY_WARNINGS, c.CUDA_WARN_ON_IMPLICIT_COPY, c.DISABLE_PERFORMANCE_WARNINGS
    c.CUDA_LOW_OCCUPANCY_WARNINGS, c.CUDA_WARN_ON_IMPLICIT_COPY, c.DISABLE_PERFORMANCE_WARNINGS = 0, 1, 0
    try:
        for make in (cuda.mapped_array, cuda.managed_array):
            x, y, out = make(300), make(300), make(300)
            x[:] = rng.standard_normal(300)
            y[:] = rng.standard_normal(300)
            with warnings.catch_warnings(record=True) as rec:
                warnings.simplefilter("always")
                axpy[3, 128](1.5, x, y, out)
                cuda.synchronize()
            assert not [w for w in rec if issubclass(w.category, NumbaPerformanceWarning)]
            np.testing.assert_allclose(out, 1.5 * x + y, rtol=1e-14, atol=1e-15)   # an fma on the device
        with warnings.catch_warnings(record=True) as rec:    # a NumPy array still warns
            warnings.simplefilter("always")
            axpy[3, 128](1.5, np.asarray(x), np.asarray(y), np.zeros(300))
        assert [w for w in rec if issubclass(w.category, NumbaPerformanceWarning)]
    finally:
        c.CUDA_LOW_OCCUPANCY_WARNINGS, c.CUDA_WARN_ON_IMPLICIT_COPY, c.DISABLE_PERFORMANCE_WARNINGS = saved


@pytest.mark.parametrize("mapped", [True, False])
def test_context_host_memory_is_a_buffer(rng, mapped):
    """ctx.memhostalloc's memory exports its bytes as a buffer, so NumPy
    builds an array on it in place (np.ndarray(buffer=mem)), as with
    Numba's; driver.device_memset on mapped memory shows through it."""
    from ptxjit.cuda import driver
    n = 64
    mem = cuda.current_context().memhostalloc(n, mapped=mapped)
    a = np.ndarray(n // 4, np.float32, buffer=mem)
    h = rng.random(n // 4).astype(np.float32)
    a[:] = h
    b = np.ndarray(n // 4, np.float32, buffer=mem)
    np.testing.assert_array_equal(b, h)
    assert memoryview(mem).nbytes == n and not memoryview(mem).readonly
    if mapped:
        driver.device_memset(mem, 0xAB, n)
        cuda.synchronize()
        assert (np.ndarray(n, np.uint8, buffer=mem) == 0xAB).all()

"""Launch forms: k.forall(n)(...), k.specialize(...), k.configure(...),
cuda.In/Out/InOut argument wrappers, 3-D grids and blocks, grids of more
than 2**31 threads, and the messages for bad launch configurations.

Runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1), on random
data, against NumPy.
"""

import numpy as np
import pytest

from ptxjit import cuda

f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64


@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def stride_fill(out, v):
    start, step = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, out.shape[0], step):
        out[i] = v + i


# ----------------------------------------------------------------- forall

@pytest.mark.parametrize("n", [1, 255, 256, 1000, 4099])
def test_forall(rng, n):
    x, y = rng.random(n), rng.random(n)
    out = np.zeros(n)
    axpy.forall(n)(2.5, x, y, out)
    np.testing.assert_allclose(out, 2.5 * x + y)


def test_forall_tpb_stream_and_sharedmem(rng):
    n = 777
    x, y = rng.random(n).astype(f32), rng.random(n).astype(f32)
    out = np.zeros(n, dtype=f32)
    s = cuda.stream()
    axpy.forall(n, tpb=64, stream=s, sharedmem=128)(f32(0.5), x, y, out)
    s.synchronize()
    np.testing.assert_allclose(out, f32(0.5) * x + y, rtol=1e-6)


def test_forall_zero_and_negative():
    out = np.full(4, -1.0)
    axpy.forall(0)(1.0, out, out, out)
    assert (out == -1.0).all()
    with pytest.raises(ValueError, match="ntasks"):
        axpy.forall(-1)
    with pytest.raises(ValueError, match="tpb"):
        axpy.forall(10, tpb=2000)


def test_forall_covers_every_task():
    n = 100_003
    out = np.zeros(n)
    stride_fill.forall(n)(out, 3.0)
    np.testing.assert_array_equal(out, 3.0 + np.arange(n))


def test_forall_on_explicit_signature():
    @cuda.jit("void(float64[::1], float64)")
    def fill(out, v):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = v * i
    out = np.zeros(300)
    fill.forall(300)(out, 2.0)
    np.testing.assert_array_equal(out, 2.0 * np.arange(300))


# ------------------------------------------------------------- specialize

def test_specialize(rng):
    @cuda.jit
    def scale(x, k):
        i = cuda.grid(1)
        if i < x.size:
            x[i] *= k
    x = rng.random(100).astype(f32)
    sp = scale.specialize(x, f32(2))
    assert sp.specialized and not scale.specialized
    assert sp.signatures == [("float32[::1]", "float32")]
    assert scale.specialize(x, f32(3)) is sp          # cached per argument types
    want = x * f32(2)
    sp[1, 128](x, f32(2))
    np.testing.assert_allclose(x, want)
    sp[1, 128](x, 2)                                     # an int converts to float32
    np.testing.assert_allclose(x, want * 2)
    with pytest.raises(TypeError, match="match none"):
        sp[1, 128](np.zeros(4, dtype=f64), 1.0)
    with pytest.raises(RuntimeError, match="already specialized"):
        sp.specialize(x, f32(2))
    other = scale.specialize(np.zeros(4), 1.0)
    assert other is not sp and other.signatures == [("float64[::1]", "float64")]


def test_one_signature_makes_a_specialized_kernel_and_a_list_does_not(rng):
    # as in Numba: cuda.jit(sig) is specialized (its attribute getters give one value), cuda.jit([sig]) is not
    def scale(x, k):
        i = cuda.grid(1)
        if i < x.size:
            x[i] *= k
    one = cuda.jit("void(float32[::1], float32)")(scale)
    listed = cuda.jit(["void(float32[::1], float32)"])(scale)
    assert one.specialized and not listed.specialized
    x = rng.random(64).astype(f32)
    want = x * f32(3)
    one[1, 64](x, 3)
    np.testing.assert_array_equal(x, want)
    listed[1, 64](x, 0.5)
    np.testing.assert_array_equal(x, want * f32(0.5))
    with pytest.raises(RuntimeError, match="already specialized"):
        one.specialize(x, f32(2))


def test_specialize_then_forall(rng):
    x, y = rng.random(50), rng.random(50)
    out = np.zeros(50)
    sp = axpy.specialize(1.0, x, y, out)
    sp.forall(50)(3.0, x, y, out)
    np.testing.assert_allclose(out, 3.0 * x + y)


# -------------------------------------------------------------- configure

@cuda.jit
def dyn_reverse(a, out):
    tx = cuda.threadIdx.x
    s = cuda.shared.array(0, dtype=np.float64)
    s[tx] = a[tx]
    cuda.syncthreads()
    out[tx] = s[s.shape[0] - 1 - tx]


def test_configure(rng):
    x, y = rng.random(300), rng.random(300)
    out = np.zeros(300)
    launcher = axpy.configure(3, 128)
    launcher(1.5, x, y, out)
    np.testing.assert_allclose(out, 1.5 * x + y)
    assert launcher.griddim == (3, 1, 1) and launcher.blockdim == (128, 1, 1)
    a = rng.random(40)
    out = np.zeros(40)
    dyn_reverse.configure(1, 40, stream=0, sharedmem=40 * 8)(a, out)
    np.testing.assert_array_equal(out, a[::-1])
    s = cuda.stream()
    dyn_reverse.configure((1,), (40,), s, 40 * 8)(a, out)
    s.synchronize()
    np.testing.assert_array_equal(out, a[::-1])


# -------------------------------------------------------- In, Out, InOut

@cuda.jit
def in_out(x, y, z):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = x[i] * 2
        z[i] = z[i] + x[i]
        x[i] = -1.0


def test_in_out_inout(rng):
    x, z = rng.random(100), rng.random(100)
    x0, z0 = x.copy(), z.copy()
    y = np.zeros(100)
    in_out[1, 128](cuda.In(x), cuda.Out(y), cuda.InOut(z))
    np.testing.assert_array_equal(x, x0)               # In: not copied back
    np.testing.assert_allclose(y, 2 * x0)              # Out: copied back
    np.testing.assert_allclose(z, z0 + x0)             # InOut: both ways
    assert repr(cuda.In(1)) == "cuda.In(1)"


def test_in_out_with_device_arrays(rng):
    x = rng.random(64)
    dx, dy, dz = cuda.to_device(x), cuda.device_array(64), cuda.to_device(np.zeros(64))
    in_out[1, 64](cuda.In(dx), cuda.Out(dy), dz)       # device arrays: used in place
    np.testing.assert_array_equal(dx.copy_to_host(), -np.ones(64))
    np.testing.assert_allclose(dy.copy_to_host(), 2 * x)
    np.testing.assert_allclose(dz.copy_to_host(), x)


def test_in_out_same_signature_as_plain(rng):
    x = rng.random(10)
    in_out[1, 32](x.copy(), np.zeros(10), np.zeros(10))
    n = in_out._cache_size()
    in_out[1, 32](cuda.In(x), cuda.Out(np.zeros(10)), cuda.InOut(np.zeros(10)))
    assert in_out._cache_size() == n


def test_nested_wrappers_are_refused():
    with pytest.raises(TypeError, match="In/Out/InOut of another"):
        in_out[1, 1](cuda.In(cuda.Out(np.zeros(2))), np.zeros(2), np.zeros(2))


# -------------------------------------------------------------- 3-D launches

@cuda.jit
def where_am_i(out):
    x, y, z = cuda.grid(3)
    gx, gy, gz = cuda.gridsize(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z, 0] = x + 1000 * y + 1000000 * z
        out[x, y, z, 1] = gx + 1000 * gy + 1000000 * gz
        out[x, y, z, 2] = cuda.threadIdx.z * 100 + cuda.blockIdx.z * 10 + cuda.blockDim.z
        out[x, y, z, 3] = cuda.gridDim.x * 100 + cuda.gridDim.y * 10 + cuda.gridDim.z


@pytest.mark.parametrize("grid,block", [((2, 3, 4), (4, 2, 2)), ((1, 1, 5), (3, 3, 3)), ((3, 2, 1), (8, 1, 4))])
def test_3d_grid_and_block(grid, block):
    shape = tuple(g * b for g, b in zip(grid, block))
    out = np.zeros(shape + (4,), dtype=np.int64)
    where_am_i[grid, block](out)
    x, y, z = np.indices(shape)
    g = [g * b for g, b in zip(grid, block)]
    np.testing.assert_array_equal(out[..., 0], x + 1000 * y + 1000000 * z)
    assert (out[..., 1] == g[0] + 1000 * g[1] + 1000000 * g[2]).all()
    np.testing.assert_array_equal(out[..., 2], (z % block[2]) * 100 + (z // block[2]) * 10 + block[2])
    assert (out[..., 3] == grid[0] * 100 + grid[1] * 10 + grid[2]).all()


# ------------------------------------------------- more than 2**31 threads

@cuda.jit
def last_threads(out, n):
    i = cuda.grid(1)
    if i > n - out.shape[0] and i < n:
        out[i - (n - out.shape[0])] = i
    if i == 0:
        out[0] = cuda.gridsize(1)


def test_grid_index_is_64_bit_in_ptx():
    k = last_threads
    sig = ("int64[::1]", "int64")
    k.compile("void(int64[::1], int64)")
    ptx = k.inspect_asm(sig)
    # blockIdx.x * blockDim.x + threadIdx.x is formed in 64 bits
    assert "mul.lo.s64" in ptx or "mul.wide" in ptx


def test_grid_beyond_2_31(load, on_gpu):
    """The catalogue kernel: a small grid on the simulator, 2**31 + 3072
    threads on the GPU."""
    k = load("grid_beyond_2_31").last
    blocks = 2 ** 31 // 1024 + 3 if on_gpu else 5
    n = blocks * 1024
    out = np.zeros(8, dtype=np.int64)
    k[blocks, 1024](out, n)
    assert out[0] == n
    np.testing.assert_array_equal(out[1:], n - 8 + np.arange(1, 8))


# ----------------------------------------------------- configuration errors

@pytest.mark.parametrize("config,exc,match", [
    ((1, 1025), ValueError, "at most 1024 threads"),
    ((1, (32, 32, 2)), ValueError, "at most 1024 threads"),
    ((1, (1, 1, 65)), ValueError, "block dimension z is 65; the most is 64"),
    ((0, 32), ValueError, "sizes must be at least 1"),
    (((1, 2, 3, 4), 32), ValueError, "1 to 3 ints"),
    ((1.5, 32), TypeError, "must be an int or a tuple"),
    ((1, (32, 2.0)), TypeError, "holds a float"),
    ((1, 32, 0, -1), ValueError, "must be 0 or more"),
    ((1, 32, 0, 1.0), TypeError, "number of bytes"),
    ((1, 32, "stream"), TypeError, "stream must be"),
    ((1,), ValueError, r"\[grid, block\]"),
    ((2 ** 31, 32), ValueError, "at most 2\\*\\*31-1"),
    (((1, 65536), 1), ValueError, "grid dimension y is 65536; the most is 65535"),
])
def test_bad_configurations(config, exc, match):
    with pytest.raises(exc, match=match) as ei:
        axpy[config](1.0, np.zeros(1), np.zeros(1), np.zeros(1))
    assert "axpy" in str(ei.value) or "stream" in match


def test_unconfigured_call():
    with pytest.raises(ValueError, match=r"without a launch configuration.*axpy\[blocks, threads\]"):
        axpy(1.0, np.zeros(1), np.zeros(1), np.zeros(1))
    typed = cuda.jit("void(int32)")(lambda x: None)
    with pytest.raises(ValueError, match="launch configuration was not specified"):   # Numba's words too
        typed(0)


@pytest.mark.parametrize("config,exc,numbas", [
    (((1, 2, 3, 4), (5, 6)), ValueError, "griddim must be a sequence of 1, 2 or 3 integers, got [1, 2, 3, 4]"),
    (((1, 2), [3, 4, 5, 6]), ValueError, "blockdim must be a sequence of 1, 2 or 3 integers, got [3, 4, 5, 6]"),
    ((2.0, 3), TypeError, "griddim must be a sequence of integers, got [2.0]"),
    ((2, 3.0), TypeError, "blockdim must be a sequence of integers, got [3.0]"),
    (((2, "x"), 3), TypeError, "griddim must be a sequence of integers, got [2, 'x']"),
])
def test_bad_configurations_say_it_in_numbas_words_too(config, exc, numbas):
    # code written against Numba matches its messages; ptxjit's own come first
    with pytest.raises(exc) as ei:
        axpy[config]
    msg = str(ei.value)
    assert msg.startswith("kernel 'axpy': the ") and numbas in msg


def test_too_much_shared_memory(on_gpu):
    with pytest.raises(Exception, match="shared"):
        dyn_reverse[1, 1, 0, 1 << 20](np.zeros(1), np.zeros(1))

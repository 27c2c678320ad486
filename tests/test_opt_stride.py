"""Loops stepped by other than 1 are unrolled by four and keep every bit.

A grid-stride loop (`for i in range(cuda.grid(1), n, cuda.gridsize(1))`),
a loop with a constant step other than 1 and a loop counting down run four
bodies per test while the next three values of the counter pass the
loop's own test (the distance to the bound above three steps, as an
unsigned number), and the old loop runs what is left.  Each kernel here
runs compiled unoptimised and optimised in the plain and the launch-time
variants, on random data; the results must be bit-identical (float sums
in the same order) and equal to NumPy's or Python's.  The edges: trip
counts 0 to 9 and around multiples of four, steps that leave exactly on
the bound or past it, negative steps, counters near the top of their
kind where a step would wrap, a step too large for three of it to fit,
unsigned bounds, stores into an array that another argument also is.
The IR is checked too: the loop with four loads is there.

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1).
"""

import numpy as np
import pytest

from ptxjit import cuda

from conftest import launch_all, run_variant




@cuda.jit
def grid_sum(a, out):
    acc = np.float32(0)
    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        acc += a[i]
    out[cuda.grid(1)] = acc


@pytest.mark.parametrize("n", [0, 1, 5, 63, 64, 65, 64 * 4 - 1, 64 * 4, 64 * 4 + 1, 64 * 9 + 17, 2000])
def test_grid_stride_sum(n, rng):
    a = (rng.random(n, dtype=np.float32) - np.float32(0.3)) * np.float32(1000)
    out = np.zeros(64, np.float32)
    (got,) = launch_all(grid_sum, 2, 32, [a, out], [1])
    for t in range(64):
        s = np.float32(0)
        for v in a[t::64]:
            s = np.float32(s + v)
        assert got[t] == s, t


@cuda.jit
def stepped(a, out, start, stop, step):
    t = cuda.grid(1)
    if t < out.shape[0]:
        acc = 0.0
        cnt = 0
        for k in range(start + t, stop, step):
            acc = acc * 0.5 + a[k % a.shape[0]]
            cnt += 1
        out[t] = acc + cnt * 1000.0


def stepped_ref(a, start, stop, step, n):
    out = np.zeros(n)
    for t in range(n):
        acc, cnt = 0.0, 0
        for k in range(start + t, stop, step):
            acc = acc * 0.5 + a[k % a.shape[0]]
            cnt += 1
        out[t] = acc + cnt * 1000.0
    return out


@pytest.mark.parametrize("start,stop,step", [
    (0, 0, 3), (0, 1, 3), (0, 12, 3), (0, 13, 3), (0, 14, 3), (2, 40, 3), (0, 37, 2), (5, 100, 7),
    (30, 0, -1), (30, 0, -3), (29, -1, -4), (3, 4, -2), (0, 50, 13), (0, 50, 17), (0, 50, 60),
    (-20, 20, 5), (20, -20, -5)])
@pytest.mark.parametrize("kind", [np.int32, np.int64])
def test_steps(start, stop, step, kind, rng):
    a = rng.random(23)
    out = np.zeros(16)
    (got,) = launch_all(stepped, 1, 16, [a, out, kind(start), kind(stop), kind(step)], [1])
    np.testing.assert_array_equal(got, stepped_ref(a, start, stop, step, 16))


@cuda.jit
def down_const(a, out):
    t = cuda.grid(1)
    if t < out.shape[0]:
        acc = np.float32(0)
        for k in range(a.shape[0] - 1 - t, -1, -2):
            acc = acc * np.float32(0.5) + a[k]
        out[t] = acc


@pytest.mark.parametrize("n", [0, 1, 2, 7, 8, 9, 30, 31])
def test_constant_negative_step(n, rng):
    a = rng.random(n, dtype=np.float32)
    out = np.zeros(8, np.float32)
    (got,) = launch_all(down_const, 1, 8, [a, out], [1])
    for t in range(8):
        s = np.float32(0)
        for k in range(n - 1 - t, -1, -2):
            s = np.float32(s * np.float32(0.5) + a[k])
        assert got[t] == s


@cuda.jit
def counted_while(out, start, stop, step):
    t = cuda.grid(1)
    if t < out.shape[0]:
        k = start + t
        n = 0
        acc = 0
        while k < stop:
            acc ^= (k & 0xFFFF) + n
            n += 1
            k += step
        out[t] = acc * 100000 + n * 10 + (k & 7)


def counted_while_ref(start, stop, step, n):
    out = []
    for t in range(n):
        k, c, acc = start + t, 0, 0
        while k < stop:
            acc ^= (k & 0xFFFF) + c
            c += 1
            k += step
        out.append(acc * 100000 + c * 10 + (k & 7))
    return out


@pytest.mark.parametrize("kind,bits", [(np.int32, 32), (np.int64, 64)])
def test_while_near_the_top(kind, bits):
    """Counters that end a step below the top of their kind, and steps of
    which three do not fit (3 * step wraps as a signed number, or even as
    an unsigned one): the four-body test must not let a copy run past the
    bound."""
    top = 2 ** (bits - 1) - 1
    huge = 2 ** (bits - 2) + 2 ** (bits - 3)     # 3 * huge wraps as an unsigned number
    big = 2 ** (bits - 2) + 1                    # 3 * big wraps as a signed one
    out = np.zeros(8, np.int64)
    for start, stop, step in ((top - 40, top - 2, 3), (top - 200, top - 12, 13), (-top, top - huge + 1, huge),
                              (-top, top - big + 1, big), (0, top - top // 3 + 1, top // 3), (5, 90, 11)):
        assert stop + step - 1 <= top          # no counter wraps: the loops end
        (got,) = launch_all(counted_while, 1, 8, [out, kind(start), kind(stop), kind(step)], [0])
        np.testing.assert_array_equal(got, np.array(counted_while_ref(start, stop, step, 8), np.int64))


@cuda.jit
def unsigned_stride(a, out, n, step):
    t = cuda.grid(1)
    acc = np.uint64(0)
    for i in range(np.uint64(t), n, step):
        acc = acc * np.uint64(31) + np.uint64(a[i])
    out[t] = acc


@pytest.mark.parametrize("n,step", [(0, 5), (3, 5), (100, 5), (100, 32), (1000, 31), (77, 1 << 40)])
def test_unsigned_bound_and_step(n, step, rng):
    a = rng.integers(0, 1000, max(n, 1), dtype=np.uint32)
    out = np.zeros(32, np.uint64)
    (got,) = launch_all(unsigned_stride, 1, 32, [a, out, np.uint64(n), np.uint64(step)], [1])
    with np.errstate(over="ignore"):
        for t in range(32):
            acc = np.uint64(0)
            for i in range(t, n, step):
                acc = acc * np.uint64(31) + np.uint64(a[i])
            assert got[t] == acc, t


@cuda.jit
def shift_in_place(src, dst, n):
    """dst may be src: each step reads what an earlier step of this thread
    wrote when they are one array."""
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        dst[i + cuda.gridsize(1)] = src[i] * np.float32(0.5) + np.float32(1)


@pytest.mark.parametrize("n", [0, 3, 32, 33, 131, 200])
def test_aliasing_arrays(n, rng):
    a = rng.random(n + 32, dtype=np.float32)
    want = a.copy()
    for t in range(32):
        for i in range(t, n, 32):
            want[i + 32] = want[i] * np.float32(0.5) + np.float32(1)
    got_u, _ = run_variant(shift_in_place.py_func, [a, a, np.int64(n)], [], 1, 32, 0, opt=False)
    for flags in (0, 1, 3, 7):
        b = cuda.to_device(a)        # one device array twice (a NumPy array twice is copied twice)
        d = cuda.jit(shift_in_place.py_func)
        argtypes = d._typeof((b, b, np.int64(n)))
        k = d._compile(", ".join(argtypes), argtypes, flags & ~2)    # the same array twice
        for f in range(8):
            d._variants[(argtypes, f)] = k
        d[1, 32](b, b, np.int64(n))
        np.testing.assert_array_equal(b.copy_to_host(), want, "variant %d" % flags)
    # and two arrays that share nothing
    dst = np.zeros(n + 32, np.float32)
    (got,) = launch_all(shift_in_place, 1, 32, [a, dst, np.int64(n)], [1])
    ref = np.zeros(n + 32, np.float32)
    ref[32:n + 32] = a[:n] * np.float32(0.5) + np.float32(1)
    np.testing.assert_array_equal(got, ref)


@cuda.jit
def hist_stride(data, hist):
    local = cuda.shared.array(64, np.int32)
    t = cuda.threadIdx.x
    for b in range(t, 64, cuda.blockDim.x):
        local[b] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), data.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(local, data[i], 1)
    cuda.syncthreads()
    for b in range(t, 64, cuda.blockDim.x):
        cuda.atomic.add(hist, b, local[b])


@pytest.mark.parametrize("n", [0, 1, 6, 95, 96, 97, 1000])
def test_atomics_in_stride_loop(n, rng):
    data = rng.integers(0, 64, n, dtype=np.uint8)
    hist = np.zeros(64, np.int32)
    (got,) = launch_all(hist_stride, 3, 32, [data, hist], [1])
    np.testing.assert_array_equal(got, np.bincount(data, minlength=64).astype(np.int32))


def test_unrolled_in_ir():
    """The grid-stride loop runs eight loads per test in the launch variant,
    then four, with 32-bit counters; the old loop is there for the rest."""
    d = cuda.jit(grid_sum.py_func)
    sig = ("float32[::1]", "float32[::1]")
    k = d._compile(", ".join(sig), sig, 7)
    ir = k.ir
    assert ir.count("load.global") == 8 + 4 + 1, ir
    assert ir.count("cmp.gtu u32") >= 2, ir      # the distance tests
    assert " i64 %" not in "".join(ln for ln in ir.splitlines() if " phi " in ln and ".range" in ln), ir
    ptx = k.ptx
    assert ptx.count("ld.global.nc.f32") == 8 + 4 + 1, ptx


@cuda.jit
def block_stride_sum(a, out):
    acc = 0.0
    for i in range(cuda.threadIdx.x, a.shape[0], cuda.blockDim.x):
        acc += a[i]
    out[cuda.threadIdx.x] = acc


def test_only_grid_stride_loops_run_eight_bodies():
    """A loop stepping by the block's size (a row per block, few trips a
    thread) runs four bodies per test; eight would leave its trips to the
    loop for the rest."""
    d = cuda.jit(block_stride_sum.py_func)
    sig = ("float32[::1]", "float32[::1]")
    k = d._compile(", ".join(sig), sig, 7)
    assert k.ir.count("load.global") == 4 + 1, k.ir


def test_grid_stride_unroll_catalogue(load, rng):
    """tests/golden/kernels/grid_stride_unroll.py against NumPy, for lengths
    around multiples of four grid strides."""
    k = load("grid_stride_unroll").grid_sum
    for n in (0, 1, 96 * 4 - 1, 96 * 4, 96 * 4 + 1, 1000):
        a = rng.random(n, dtype=np.float32)
        out = np.zeros(1, np.float32)
        k[3, 32](a, out)
        np.testing.assert_allclose(out[0], a.astype(np.float64).sum(), rtol=1e-5)

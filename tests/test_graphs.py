"""CUDA graphs (cuda.graph()): kernel launches, copies and memsets captured
once and replayed by graph.launch().  Runs on the simulator, which records
the captured work and replays it, and on the GPU with PTXJIT_TEST_GPU=1;
test_fake_driver_* run a child on the fake driver (tests/fake_cuda), whose
stream capture records nodes as the driver's does; test_foreign_graph_*
capture ptxjit kernels in CuPy's and PyTorch's graphs (GPU only).
"""

import gc

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU
from test_runtime import fake_driver, run_fake  # noqa: F401  (fixture)


@cuda.jit
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]


@cuda.jit
def scale_shift(y, s, t):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = y[i] * s + t


def grid(n):
    return (n + 127) // 128, 128


def test_replays_equal_numpy(rng):
    """A time-stepping loop of kernels, copies and a memset, captured once
    and replayed several times, gives what the same steps give in NumPy."""
    n = 1000
    x = rng.standard_normal(n)
    y = rng.standard_normal(n)
    dx, dy, dz = cuda.to_device(x), cuda.to_device(y), cuda.device_array(n)
    out = cuda.pinned_array(n)
    with cuda.graph() as g:
        dz.copy_to_device(dy)                 # device to device
        for k in range(10):
            axpy[grid(n)](0.5 + k, dx, dz)
            scale_shift[grid(n)](dz, 0.25, float(k))
        dz.copy_to_host(out)                  # into pinned memory
    assert g.nodes == 22
    # nothing ran during the capture
    np.testing.assert_array_equal(dy.copy_to_host(), y)

    def steps(z):
        for k in range(10):
            z = (0.5 + k) * x + z
            z = z * 0.25 + k
        return z

    for _ in range(3):
        g.launch()
        cuda.synchronize()
        np.testing.assert_allclose(out, steps(y.copy()), rtol=1e-12, atol=1e-12)


def test_pageable_copies_are_refused(rng):
    d = cuda.to_device(rng.standard_normal(16))
    with pytest.raises(ValueError, match="pageable host memory cannot be captured"):
        with cuda.graph():
            d.copy_to_device(np.ones(16))
    with pytest.raises(ValueError, match="cuda.pinned_array"):
        with cuda.graph():
            d.copy_to_host()
    # the capture ended with the exception: a new one works
    h = cuda.pinned_array(16)
    h[:] = rng.standard_normal(16)
    with cuda.graph() as g:
        d.copy_to_device(h)
    h[:] += 1.0                               # read when the graph runs
    g.launch()
    cuda.synchronize()
    np.testing.assert_array_equal(d.copy_to_host(), h)


def test_memset_and_device_copies(rng):
    n = 300
    a = rng.integers(1, 1 << 30, n).astype(np.int32)
    da, db = cuda.to_device(a), cuda.device_array(n, np.int32)
    with cuda.graph() as g:
        db.copy_to_device(da)
        da[10:20]._memset(0)
    np.testing.assert_array_equal(da.copy_to_host(), a)
    g.launch()
    cuda.synchronize()
    want = a.copy()
    want[10:20] = 0
    np.testing.assert_array_equal(da.copy_to_host(), want)
    np.testing.assert_array_equal(db.copy_to_host(), a)


def test_recapture_updates_arguments(rng):
    """Capturing the graph again gives its replays new scalars and new
    arrays of the same shapes (the executable graph is updated)."""
    n = 500
    x1, x2 = rng.standard_normal(n), rng.standard_normal(n)
    y1, y2 = rng.standard_normal(n), rng.standard_normal(n)
    dx1, dx2, dy1, dy2 = map(cuda.to_device, (x1, x2, y1, y2))
    g = cuda.graph()
    for a, dx, dy, x, y in ((1.5, dx1, dy1, x1, y1), (-2.25, dx2, dy2, x2, y2), (3.0, dx1, dy2, x1, None)):
        with g.capture():
            axpy[grid(n)](a, dx, dy)
            scale_shift[grid(n)](dy, 2.0, a)
        if y is None:
            y = dy.copy_to_host()
        g.launch()
        g.launch()
        cuda.synchronize()
        want = y
        for _ in range(2):
            want = (a * x + want) * 2.0 + a
        np.testing.assert_allclose(dy.copy_to_host(), want, rtol=1e-12, atol=1e-12)
        if a == 1.5:
            y1_done = dy1.copy_to_host()
    np.testing.assert_array_equal(dy1.copy_to_host(), y1_done)   # the later graphs leave dy1 alone


def test_hundred_kernel_sequence(rng):
    n = 256
    x = rng.standard_normal(n)
    y = rng.standard_normal(n)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    with cuda.graph() as g:
        for k in range(100):
            axpy[grid(n)](1.0 / (k + 1), dx, dy)
    g.launch()
    cuda.synchronize()
    want = y.copy()
    for k in range(100):
        want = (1.0 / (k + 1)) * x + want
    np.testing.assert_allclose(dy.copy_to_host(), want, rtol=1e-12, atol=1e-12)
    assert g.nodes == 100


def test_graph_keeps_its_arrays_alive(rng):
    """Arrays dropped after the capture are kept by the graph: memory the
    caching allocator hands out again is not written by a replay."""
    n = 4096
    x = rng.standard_normal(n)
    dx, dy = cuda.to_device(x), cuda.device_array(n)
    dy.copy_to_device(np.zeros(n))
    out = cuda.pinned_array(n)
    with cuda.graph() as g:
        axpy[grid(n)](2.0, dx, dy)
        dy.copy_to_host(out)
    del dx, dy
    gc.collect()
    others = [cuda.to_device(np.full(n, 7.0)) for _ in range(4)]
    g.launch()
    cuda.synchronize()
    np.testing.assert_allclose(out, 2.0 * x)
    for o in others:
        np.testing.assert_array_equal(o.copy_to_host(), np.full(n, 7.0))


def test_invalid_use_gives_clear_errors(rng):
    d = cuda.to_device(rng.standard_normal(64))
    g = cuda.graph()
    with pytest.raises(RuntimeError, match="has not been captured yet"):
        g.launch()
    with pytest.raises(ValueError, match="still being captured"):
        with g.capture():
            axpy[1, 64](1.0, d, d)
            g.launch()
    with pytest.raises(ValueError, match="being captured already"):
        with cuda.graph():
            with cuda.graph():
                pass
    with pytest.raises(ValueError, match=r"cuda.synchronize\(\) inside a graph capture"):
        with cuda.graph():
            cuda.synchronize()
    with pytest.raises(ValueError, match=r"stream.synchronize\(\) inside a graph capture"):
        with cuda.graph() as g2:
            g2.stream.synchronize()
    with pytest.raises(RuntimeError, match="argument 2 \\('x'\\) is a host \\(NumPy\\) array"):
        with cuda.graph():
            axpy[1, 64](1.0, np.ones(64), d)
    with pytest.raises(RuntimeError, match="copy_to_host of a strided view inside a graph capture"):
        with cuda.graph():
            d[::2].copy_to_host(cuda.pinned_array(32))
    with pytest.raises(TypeError, match="must be a cuda.stream"):
        cuda.graph(stream=5)
    # after all that, capture works, and an exception in the block drops its work
    before = d.copy_to_host()
    with pytest.raises(ZeroDivisionError):
        with g.capture():
            axpy[1, 64](1.0, d, d)
            1 / 0
    with pytest.raises(RuntimeError, match="has not been captured yet"):
        g.launch()
    with g.capture():
        axpy[1, 64](1.0, d, d)
    g.launch()
    cuda.synchronize()
    np.testing.assert_array_equal(d.copy_to_host(), 2 * before)


def test_graph_on_a_given_stream(rng):
    n = 200
    x = rng.standard_normal(n)
    s = cuda.stream()
    dx = cuda.to_device(x)
    with cuda.graph(stream=s) as g:
        axpy[grid(n)](1.0, dx, dx)           # default stream: captured
        scale_shift[2, 128, s](dx, 3.0, 0.0)   # the capture stream: captured
    assert g.stream is s and g.nodes == 2
    other = cuda.stream()
    g.launch(stream=other)
    other.synchronize()
    np.testing.assert_allclose(dx.copy_to_host(), 6.0 * x)


def test_fake_driver_captures_and_replays(fake_driver, tmp_path):
    """On the fake driver: launches in a capture run nothing and become
    nodes; each replay runs them; a second capture updates the executable
    graph; the driver never sees a synchronisation in a capture."""
    res = run_fake("""
        @cuda.jit
        def k(a, n):
            i = cuda.grid(1)
            if i < n:
                a[i] ^= 1
        setf("launch_xor32", 0x5A)
        a = np.arange(1, 33, dtype=np.int32)
        d = cuda.to_device(a)
        k[1, 32](d, 32)                          # loads the module
        l0 = get("launches")
        with cuda.graph() as g:
            k[1, 32](d, 32)
            k[1, 32](d, 32)
            k[1, 32](d, 32)
        result["captured"] = [get("launches") - l0, get("graph_nodes"), g.nodes]
        result["after_capture"] = d.copy_to_host().tolist()
        g.launch()
        result["one"] = d.copy_to_host().tolist()
        g.launch()
        result["two"] = d.copy_to_host().tolist()
        with g.capture():
            k[1, 32](d, 16)
            k[1, 32](d, 16)
            k[1, 32](d, 16)
        result["counts"] = [get("graph_instantiates"), get("graph_updates"), get("graph_launches")]
        h = cuda.pinned_array(32, np.int32)
        with g.capture():
            k[1, 32](d, 32)
            d.copy_to_host(h)
        g.launch()
        cuda.synchronize()
        result["pinned"] = h.tolist()
        result["counts2"] = [get("graph_instantiates"), get("graph_updates")]
        syncs = get("syncs")
        try:
            with cuda.graph():
                cuda.synchronize()
        except Exception as e:
            result["sync"] = str(e)
        result["driver_syncs"] = get("syncs") - syncs
        try:
            with cuda.graph():
                d.copy_to_device(np.zeros(32, np.int32))
        except Exception as e:
            result["pageable"] = str(e)
    """, fake_driver, tmp_path)
    assert "raised" not in res, res
    a = list(range(1, 33))
    x = [v ^ 0x5A for v in a]
    assert res["captured"] == [0, 3, 3], res
    assert res["after_capture"] == x, res
    assert res["one"] == a and res["two"] == x, res        # three XORs a replay
    assert res["counts"] == [1, 1, 2], res
    assert res["pinned"] == a and res["counts2"] == [2, 1], res
    assert "inside a graph capture" in res["sync"] and res["driver_syncs"] == 0, res
    assert "pageable host memory cannot be captured" in res["pageable"], res


@pytest.mark.skipif(not ON_GPU, reason="foreign graphs need a GPU (PTXJIT_TEST_GPU=1)")
@pytest.mark.parametrize("lib", ["cupy", "torch"])
def test_foreign_graph_records_ptxjit_kernels(lib, rng):
    """A ptxjit kernel launched on the capturing stream of a CuPy or
    PyTorch graph is recorded in that graph and runs at its replays."""
    mod = pytest.importorskip(lib)
    n = 4096
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    if lib == "torch":
        if not mod.cuda.is_available():
            pytest.skip("torch has no CUDA")
        gx, gy = mod.from_numpy(x).cuda(), mod.from_numpy(y).cuda()
        ax, ay = cuda.as_cuda_array(gx), cuda.as_cuda_array(gy)
        side = mod.cuda.Stream()
        side.wait_stream(mod.cuda.current_stream())
        with mod.cuda.stream(side):           # warm-up outside the capture, as torch asks
            axpy[(n + 255) // 256, 256, cuda.external_stream(side.cuda_stream)](np.float32(0.0), ax, ay)
        mod.cuda.current_stream().wait_stream(side)
        tg = mod.cuda.CUDAGraph()
        with mod.cuda.graph(tg):
            s = cuda.external_stream(mod.cuda.current_stream().cuda_stream)
            axpy[(n + 255) // 256, 256, s](np.float32(1.5), ax, ay)
            gy.mul_(2.0)
        mod.cuda.synchronize()
        np.testing.assert_array_equal(gy.cpu().numpy(), y)   # nothing ran at the capture
        tg.replay()
        tg.replay()
        mod.cuda.synchronize()
        got = gy.cpu().numpy()
    else:
        gx, gy = mod.asarray(x), mod.asarray(y)
        ax, ay = cuda.as_cuda_array(gx), cuda.as_cuda_array(gy)
        fs = mod.cuda.Stream(non_blocking=True)
        with fs:
            axpy[(n + 255) // 256, 256, cuda.external_stream(fs.ptr)](np.float32(0.0), ax, ay)
            fs.synchronize()
            fs.begin_capture()
            axpy[(n + 255) // 256, 256, cuda.external_stream(fs.ptr)](np.float32(1.5), ax, ay)
            gy *= 2.0
            cg = fs.end_capture()
        np.testing.assert_array_equal(mod.asnumpy(gy), y)
        cg.launch(fs)
        cg.launch(fs)
        fs.synchronize()
        got = mod.asnumpy(gy)
    want = y.copy()
    for _ in range(2):
        want = (np.float32(1.5) * x + want) * np.float32(2.0)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)

"""Numba's stream API: the default, legacy default, per-thread default and
external streams, stream.add_callback, stream.async_done and
stream.auto_synchronize.  Runs on the simulator, and on the GPU with
PTXJIT_TEST_GPU=1; test_fake_driver_* run a child on the fake driver
(tests/fake_cuda), whose host functions run on a thread of their own as a
real driver's do; test_foreign_streams_* need CuPy / PyTorch and a GPU.
"""

import asyncio
import threading
import warnings

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU
from test_runtime import FAKE_PRELUDE, fake_driver, run_child, run_fake  # noqa: F401  (fixture)


@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def test_default_stream_handles_and_reprs():
    d, leg, pt = cuda.default_stream(), cuda.legacy_default_stream(), cuda.per_thread_default_stream()
    assert (d.handle, leg.handle, pt.handle) == (0, 1, 2)
    assert (int(d), int(leg), int(pt)) == (0, 1, 2)
    assert repr(d) == "<Default CUDA stream>"
    assert repr(leg) == "<Legacy default CUDA stream>"
    assert repr(pt) == "<Per-thread default CUDA stream>"
    assert not (d.external or leg.external or pt.external)
    s = cuda.stream()
    assert int(s) == s.handle != 0 and repr(s) == "<CUDA stream %d>" % s.handle
    assert s.__cuda_stream__() == (0, s.handle)


def test_external_stream_wraps_a_handle():
    owner = cuda.stream()           # a stream that outlives the wrapper
    ext = cuda.external_stream(owner.handle)
    assert ext.external and ext.handle == owner.handle and int(ext) == owner.handle
    assert repr(ext) == "<External CUDA stream %d>" % owner.handle
    del ext                         # the wrapper never destroys the stream
    owner.synchronize()
    for bad in (1.5, "7", None):
        with pytest.raises(TypeError, match="must be an int"):
            cuda.external_stream(bad)


def test_kernels_run_on_every_kind_of_stream(rng):
    owner = cuda.stream()
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    for s in (cuda.default_stream(), cuda.legacy_default_stream(), cuda.per_thread_default_stream(),
              cuda.external_stream(owner.handle), owner):
        a = np.float32(rng.uniform(0.5, 2))
        dx, dy = cuda.to_device(x, stream=s), cuda.to_device(y, stream=s)
        dout = cuda.device_array(n, np.float32, stream=s)
        axpy[(n + 127) // 128, 128, s](a, dx, dy, dout)
        got = dout.copy_to_host(stream=s)
        s.synchronize()
        np.testing.assert_allclose(got, a * x + y, rtol=1e-5, atol=1e-6, err_msg=repr(s))


def test_add_callback_runs_in_order_after_the_work(rng):
    s = cuda.stream()
    n = 512
    x = rng.standard_normal(n)
    dx = cuda.to_device(x)
    dout = cuda.device_array(n)
    seen = []
    for j in range(3):
        axpy[4, 128, s](float(j + 1), dx, dx, dout)
        s.add_callback(lambda stream, status, arg: seen.append((stream is s, status, arg)), ("cb", j))
    s.synchronize()
    assert seen == [(True, 0, ("cb", 0)), (True, 0, ("cb", 1)), (True, 0, ("cb", 2))]
    np.testing.assert_allclose(dout.copy_to_host(), 4 * x)


def test_add_callback_exception_is_a_warning():
    s = cuda.stream()
    seen = []
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s.add_callback(lambda stream, status, arg: seen.append(1 / arg), 0)
        s.add_callback(lambda stream, status, arg: seen.append(arg), 5)
        s.synchronize()
    assert seen == [5]
    assert any("Exception in stream callback: division by zero" in str(x.message) for x in w), \
        [str(x.message) for x in w]
    with pytest.raises(TypeError, match="must be callable"):
        s.add_callback(42)


def test_async_done_resolves_to_the_stream(rng):
    s = cuda.stream()
    n = 300
    x = rng.standard_normal(n)
    dx = cuda.to_device(x)
    dout = cuda.device_array(n)

    async def run():
        axpy[3, 128, s](2.5, dx, dx, dout)
        f = s.async_done()
        assert isinstance(f, asyncio.Future)
        return await asyncio.wait_for(f, 30)

    assert asyncio.run(run()) is s
    np.testing.assert_allclose(dout.copy_to_host(), 3.5 * x)
    with pytest.raises(RuntimeError):   # no running event loop
        s.async_done()


def test_auto_synchronize(rng):
    x = rng.standard_normal(256)
    dx = cuda.to_device(x)
    dout = cuda.device_array(256)
    h = np.zeros(256)
    s = cuda.stream()
    with s.auto_synchronize() as t:
        assert t is s
        axpy[2, 128, s](-1.5, dx, dx, dout)
        dout.copy_to_host(h, stream=s)
    np.testing.assert_allclose(h, -0.5 * x)


def test_fake_driver_callbacks_run_on_the_driver_thread(fake_driver, tmp_path):
    """Host functions of the fake driver run late on its own thread: the
    callback takes the GIL there, an exception becomes a warning, and a
    callback still pending when the program ends runs before it exits."""
    res = run_fake("""
        import threading, warnings, asyncio
        setf("dma_mbps", 20)
        s = cuda.stream()
        d = cuda.to_device(np.arange(1 << 17, dtype=np.float64), stream=s)   # 1 MiB: about 50 ms
        seen = []
        main = threading.get_ident()
        s.add_callback(lambda st, status, arg: seen.append((st is s, status, arg, threading.get_ident() != main)), 11)
        result["early"] = list(seen)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            s.add_callback(lambda st, status, arg: 1 / 0)
            s.synchronize()
        result["seen"] = seen
        result["warned"] = [str(x.message) for x in w]
        async def run():
            cuda.to_device(np.arange(1 << 17, dtype=np.float64), stream=s)
            return await s.async_done()
        result["async"] = asyncio.run(run()) is s
        result["host_funcs"] = get("host_funcs")
        cuda.to_device(np.arange(1 << 17, dtype=np.float64), stream=s)
        s.add_callback(lambda st, status, arg: open("last_callback", "w").write("ran"))
    """, fake_driver, tmp_path)
    assert (tmp_path / "last_callback").read_text() == "ran"
    assert "raised" not in res, res
    assert res["early"] == [] and res["seen"] == [[True, 0, 11, True]], res
    assert any("Exception in stream callback: division by zero" in m for m in res["warned"]), res
    assert res["async"] and res["host_funcs"] >= 3, res


def test_fake_driver_blocking_calls_let_a_queued_callback_run(fake_driver, tmp_path):
    """A synchronous copy waits for the device's queued work, a callback
    among it, which takes the GIL on the driver's thread: while callbacks
    are queued the copy releases the GIL (else both wait for ever)."""
    import textwrap
    body = FAKE_PRELUDE + textwrap.dedent("""
        setf("dma_mbps", 20)
        s = cuda.stream()
        seen = []
        small = cuda.to_device(np.arange(16.0))
        cuda.to_device(np.zeros(1 << 17), stream=s)        # 1 MiB: about 50 ms on the fake's DMA
        s.add_callback(lambda st, status, arg: seen.append(arg), "ran")
        result["early"] = list(seen)
        result["copied"] = small.copy_to_host().tolist()   # waits for the queue, the callback in it
        result["seen"] = seen
        result["pending"] = __import__("ptxjit")._core.pending_callbacks()
    """)
    res = run_child(body, {"PTXJIT_SIM": "0", "PTXJIT_LIBCUDA": fake_driver}, tmp_path, timeout=60)
    assert "raised" not in res, res
    assert res["early"] == [] and res["seen"] == ["ran"] and res["pending"] == 0, res
    assert res["copied"] == list(np.arange(16.0))


@pytest.mark.skipif(not ON_GPU, reason="foreign streams need a GPU (PTXJIT_TEST_GPU=1)")
@pytest.mark.parametrize("lib", ["cupy", "torch"])
def test_foreign_streams_run_ptxjit_kernels(lib, rng):
    mod = pytest.importorskip(lib)
    n = 4096
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    if lib == "cupy":
        fs = mod.cuda.Stream(non_blocking=True)
        ptr = fs.ptr
        gx, gy, gout = mod.asarray(x), mod.asarray(y), mod.zeros(n, dtype=mod.float32)
    else:
        fs = mod.cuda.Stream()
        ptr = fs.cuda_stream
        gx, gy = mod.from_numpy(x).cuda(), mod.from_numpy(y).cuda()
        gout = mod.zeros(n, dtype=mod.float32, device="cuda")
    fs.synchronize()
    s = cuda.external_stream(ptr)
    assert s.external and int(s) == ptr
    done = threading.Event()
    axpy[(n + 255) // 256, 256, s](np.float32(1.75), cuda.as_cuda_array(gx), cuda.as_cuda_array(gy),
                                   cuda.as_cuda_array(gout))
    s.add_callback(lambda st, status, arg: done.set())
    s.synchronize()
    assert done.is_set()
    got = mod.asnumpy(gout) if lib == "cupy" else gout.cpu().numpy()
    np.testing.assert_allclose(got, np.float32(1.75) * x + y, rtol=1e-5, atol=1e-6)
    del s
    fs.synchronize()                # the foreign stream is still alive

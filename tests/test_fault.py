"""A kernel that faults, and the work after it, without a GPU.

A kernel that touches a wild address loses the CUDA context: every driver
call after the fault fails, and the context's memory, modules, streams and
events are gone.  ptxjit must then (1) say so clearly, naming the first
error, without queueing more work into the dead context; (2) write nothing
into the user's host arrays (a NumPy argument of the faulting launch is not
copied back with whatever the device holds); (3) after cuda.close(), reset
the context and let correct work go on in the same process: kernels load
again, old device arrays, streams and events raise an error that names
cuda.close() instead of crashing or reaching the driver.

The driver is tests/fake_cuda/fake_libcuda.c ("fault_on_launch": the next
launch scribbles over its first array and faults; the work queued behind it
is dropped; a reset destroys the context, and handles of a dead context are
refused and counted in "stale_uses").  Each case runs in a child process.
The same sequence on a real GPU is `python3 bench/soak.py fault`.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import ptxjit

from conftest import ON_GPU, ROOT

PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(ptxjit.__file__)))
FAKE_SRC = os.path.join(ROOT, "tests", "fake_cuda", "fake_libcuda.c")

PRELUDE = '''
import ctypes, json, os, sys
import numpy as np
from ptxjit import cuda, errors, _core
fake = ctypes.CDLL(os.environ["PTXJIT_LIBCUDA"])
fake.fake_get.restype = ctypes.c_long
def get(key):
    return fake.fake_get(key.encode())
def setf(key, v):
    fake.fake_set(key.encode(), ctypes.c_long(v))
def err(fn, *args, **kw):
    """[exception class, .name, message] of fn(*args), or None if it returned."""
    try:
        fn(*args, **kw)
    except Exception as e:
        return [type(e).__name__, getattr(e, "name", None), str(e)]
    return None
@cuda.jit
def add1(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = b[i] + 1
result = {}
'''


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler to build the fake driver")
    out = str(tmp_path_factory.mktemp("fake_cuda_fault") / "libcuda_fake.so")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-pthread", "-o", out, FAKE_SRC], check=True)
    return out


def run(body, fake_driver, tmp_path, **env):
    path = tmp_path / "child.py"
    path.write_text(PRELUDE + textwrap.dedent(body) + '\nprint("RESULT " + json.dumps(result))\n')
    e = dict(os.environ)
    for k in ("PTXJIT_TEST_GPU", "PTXJIT_SIM_CHECK", "PTXJIT_RESET_ON_FAULT", "PTXJIT_TRANSFER"):
        e.pop(k, None)
    e.update({k: str(v) for k, v in env.items()})
    e.update({"PTXJIT_SIM": "0", "PTXJIT_LIBCUDA": fake_driver,
              "PYTHONPATH": PKG_DIR + os.pathsep + e.get("PYTHONPATH", "")})
    p = subprocess.run([sys.executable, str(path)], cwd=str(tmp_path), env=e,
                       capture_output=True, text=True, timeout=120)
    lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
    assert p.returncode == 0 and lines, "child failed (%d):\n%s\n%s" % (p.returncode, p.stdout, p.stderr)
    return json.loads(lines[-1][len("RESULT "):])


def assert_fault(e):
    assert e is not None, "the faulting launch raised nothing"
    cls, name, msg = e
    assert cls == "CudaAPIError" and name == "CUDA_ERROR_ILLEGAL_ADDRESS", e
    assert "cuda.close()" in msg and "700" in msg, msg


@pytest.mark.parametrize("mode", ["staged", "register", "driver", "pinned", "async_dma"])
def test_host_arrays_of_a_faulting_launch_are_not_written(fake_driver, tmp_path, mode):
    """The faulting kernel scribbles over its first array's device copy;
    nothing of it may reach the NumPy array, nor any other array."""
    res = run("""
        mode = %r
        if mode == "async_dma":
            setf("dma_mbps", 2000)                  # copies and launches run late, on a thread
        else:
            _core.set_transfer(mode="staged" if mode == "pinned" else mode)
        n = 1 << 19                                  # 2 MiB of int32: big enough to be registered
        a = cuda.pinned_array(n, np.int32) if mode == "pinned" else np.empty(n, np.int32)
        a[:] = np.arange(n, dtype=np.int32)
        b = np.arange(n, dtype=np.int32) * 3
        other = np.full(1000, 7, np.int32)          # not part of the launch
        d_other = cuda.to_device(other)
        setf("launch_xor32", 0x5a5a5a5a)            # the fake kernel XORs every int32 of a
        add1[n // 256, 256](a, b)
        result["ok_before"] = bool((a == np.arange(n, dtype=np.int32) ^ 0x5a5a5a5a).all())
        a[:] = np.arange(n, dtype=np.int32)
        setf("fault_on_launch", 1)
        result["fault"] = err(add1[n // 256, 256], a, b)
        result["faults"] = get("faults")
        result["a_untouched"] = bool((a == np.arange(n, dtype=np.int32)).all())
        result["b_untouched"] = bool((b == np.arange(n, dtype=np.int32) * 3).all())
        result["other_untouched"] = bool((other == 7).all())
        result["lost"] = _core.context_state()["lost"]
    """ % mode, fake_driver, tmp_path)
    assert res["ok_before"], res
    assert_fault(res["fault"])
    assert res["faults"] == 1
    assert res["a_untouched"] and res["b_untouched"] and res["other_untouched"], res
    assert res["lost"] is True


def test_calls_after_a_fault_name_the_lost_context(fake_driver, tmp_path):
    """Until cuda.close(), every call fails at once with the first error and
    queues nothing into the dead context."""
    res = run("""
        d = cuda.to_device(np.arange(64, dtype=np.int32))
        out = cuda.device_array(64, np.int32)
        s = cuda.stream()
        setf("fault_on_launch", 1)
        add1[1, 64](out, d)                          # device arrays only: returns at once
        result["sync"] = err(cuda.synchronize)
        launches = get("launches")
        result["launch"] = err(add1[1, 64], out, d)
        result["to_device"] = err(cuda.to_device, np.zeros(4))
        result["copy_back"] = err(d.copy_to_host)
        result["stream_sync"] = err(s.synchronize)
        result["device_array"] = err(cuda.device_array, 10)
        result["launches_after"] = get("launches") - launches
        result["state"] = _core.context_state()
        result["available"] = cuda.is_available()
    """, fake_driver, tmp_path)
    assert_fault(res["sync"])
    assert "cuCtxSynchronize" in res["sync"][2]
    for key in ("launch", "to_device", "copy_back", "stream_sync", "device_array"):
        e = res[key]
        assert e is not None, key
        assert e[0] == "CudaAPIError" and e[1] == "CUDA_ERROR_ILLEGAL_ADDRESS", (key, e)
        assert "context was lost" in e[2] and "cuda.close()" in e[2], (key, e)
        assert "cuCtxSynchronize" in e[2], (key, e)       # names the first error
    assert res["launches_after"] == 0
    st = res["state"]
    assert st["lost"] is True and st["resets"] == 0 and "ILLEGAL_ADDRESS" in st["error"]
    assert res["available"] is True


def test_close_resets_the_context_and_work_goes_on(fake_driver, tmp_path):
    res = run("""
        setf("launch_write", 4321)                  # the fake kernel writes 4321 to a[0]
        d = cuda.to_device(np.arange(64, dtype=np.int32))
        out = cuda.device_array(64, np.int32)
        s = cuda.stream()
        ev = cuda.event()
        h = np.zeros(64, np.int32)
        add1[1, 64](h, d)
        result["before"] = int(h[0])
        loads = get("module_loads")
        setf("fault_on_launch", 1)
        result["fault"] = err(add1[1, 64], h, d)
        cuda.close()
        result["resets"] = get("ctx_resets")
        result["state"] = _core.context_state()
        result["driver_live"] = get("live_bytes")
        result["stats_live"] = cuda.current_context().memory_stats()["live_bytes"]
        # old objects: a clear error, and the driver never sees their handles
        result["old_array_copy"] = err(d.copy_to_host)
        result["old_array_launch"] = err(add1[1, 64], out, np.zeros(64, np.int32))
        result["old_stream"] = err(lambda: add1[1, 64, s](np.zeros(64, np.int32), np.zeros(64, np.int32)))
        result["old_event"] = err(ev.record)
        # new work is right, kernels load again in the new context
        h2 = np.zeros(64, np.int32)
        add1[1, 64](h2, np.arange(64, dtype=np.int32))
        result["after"] = int(h2[0])
        d2 = cuda.to_device(np.arange(10.0))
        result["d2"] = d2.copy_to_host().tolist()
        result["reloads"] = get("module_loads") - loads
        s2 = cuda.stream()
        add1[1, 64, s2](h2, np.arange(64, dtype=np.int32))
        s2.synchronize()
        del d, out
        result["stats_live_after"] = cuda.current_context().memory_stats()["live_bytes"]
        result["driver_live_after"] = get("live_bytes")
        result["stale_uses"] = get("stale_uses")
        result["frees_of_dead_memory"] = get("frees")
    """, fake_driver, tmp_path)
    assert res["before"] == 4321
    assert_fault(res["fault"])
    assert res["resets"] == 1
    st = res["state"]
    assert st["lost"] is False and st["resets"] == 1 and st["generation"] == 2
    assert res["driver_live"] == 0 and res["stats_live"] == 0
    cls, _, msg = res["old_array_copy"]
    assert cls == "CudaDriverError" and "before cuda.close()" in msg
    cls, _, msg = res["old_array_launch"]
    assert cls == "CudaDriverError" and "argument 1 ('a')" in msg and "before cuda.close()" in msg
    cls, _, msg = res["old_stream"]
    assert cls == "CudaDriverError" and "stream" in msg and "before cuda.close()" in msg
    cls, _, msg = res["old_event"]
    assert cls == "CudaDriverError" and "event" in msg and "before cuda.close()" in msg
    assert res["after"] == 4321
    assert res["d2"] == [float(i) for i in range(10)]
    assert res["reloads"] == 1
    assert res["stale_uses"] == 0, "a handle of the dead context reached the driver"
    # d2 (80 bytes, one 512-byte block) is the only live allocation
    assert res["stats_live_after"] == 512 and res["driver_live_after"] >= 512


def test_pending_copies_to_the_host_are_dropped_unwritten(fake_driver, tmp_path):
    """copy_to_host(stream=s) behind a faulting kernel: the driver never
    runs the host function that would copy the (stale) staging buffer out;
    cuda.close() lets the destination go, unwritten."""
    res = run("""
        import gc, weakref
        setf("dma_mbps", 200)
        s = cuda.stream()
        src = np.arange(1 << 17, dtype=np.float64)      # 1 MiB: staged, with a host function
        d = cuda.to_device(src)
        warm = np.zeros_like(src)
        d.copy_to_host(warm, stream=s)                  # fills the staging buffer with src
        s.synchronize()
        out = cuda.device_array(64, np.int32)
        setf("fault_on_launch", 1)
        add1[1, 64, s](out, out)
        h = np.full(1 << 17, -1.0)
        # queued behind the fault, or refused if the fault was noticed already
        early = err(d.copy_to_host, h, stream=s)
        result["sync"] = early or err(s.synchronize)
        result["h_untouched"] = bool((h == -1.0).all())
        class Sink(np.ndarray):
            pass
        h2 = np.full(1 << 17, -2.0).view(Sink)
        r = weakref.ref(h2)
        result["lost_copy"] = err(d.copy_to_host, h2, stream=s)
        cuda.close()
        del h2
        gc.collect()
        result["freed"] = r() is None
        result["h_after_close"] = bool((h == -1.0).all())
        result["warm_ok"] = bool((warm == src).all())
    """, fake_driver, tmp_path)
    assert_fault(res["sync"])
    assert res["h_untouched"] and res["h_after_close"] and res["warm_ok"], res
    assert res["lost_copy"][0] == "CudaAPIError" and "context was lost" in res["lost_copy"][2]
    assert res["freed"]


def test_reset_on_fault_recovers_by_itself(fake_driver, tmp_path):
    """PTXJIT_RESET_ON_FAULT=1: the faulting call raises; the next call
    resets the context itself, and old device arrays are stale."""
    res = run("""
        d = cuda.to_device(np.arange(64, dtype=np.int32))
        h = np.zeros(64, np.int32)
        setf("fault_on_launch", 1)
        result["fault"] = err(add1[1, 64], h, np.arange(64, dtype=np.int32))
        result["h_untouched"] = bool((h == 0).all())
        setf("launch_write", 99)
        add1[1, 64](h, np.arange(64, dtype=np.int32))
        result["h0"] = int(h[0])
        result["state"] = _core.context_state()
        result["resets"] = get("ctx_resets")
        result["old"] = err(d.copy_to_host)
        result["stale_uses"] = get("stale_uses")
    """, fake_driver, tmp_path, PTXJIT_RESET_ON_FAULT=1)
    assert_fault(res["fault"])
    assert res["h_untouched"] and res["h0"] == 99
    assert res["resets"] == 1 and res["state"]["resets"] == 1 and res["state"]["auto_reset"] is True
    assert res["old"][0] == "CudaDriverError"
    assert res["stale_uses"] == 0


def test_many_faults_in_one_process(fake_driver, tmp_path):
    """Fault, close, work, twenty times: memory and modules do not pile up."""
    res = run("""
        bad = []
        for i in range(20):
            h = np.zeros(256, np.int32)
            b = np.arange(256, dtype=np.int32)
            setf("fault_on_launch", 1)
            e = err(add1[1, 256], h, b)
            if e is None or e[1] != "CUDA_ERROR_ILLEGAL_ADDRESS" or (h != 0).any():
                bad.append((i, e))
            cuda.close()
            setf("launch_write", 1000 + i)
            add1[1, 256](h, b)
            if h[0] != 1000 + i:
                bad.append((i, int(h[0])))
            setf("launch_write", 0)
        result["bad"] = bad
        result["resets"] = get("ctx_resets")
        result["live"] = get("live_bytes")
        result["stale_uses"] = get("stale_uses")
        result["ctx_gen"] = get("ctx_gen")
    """, fake_driver, tmp_path)
    assert res["bad"] == [], res
    assert res["resets"] == 20 and res["ctx_gen"] == 20
    assert res["stale_uses"] == 0
    assert res["live"] <= 2048       # the last launch's scratch copies, cached


@pytest.mark.skipif(ON_GPU, reason="the simulator's bounds check")
def test_simulator_fault_then_work():
    """The simulator stops a kernel that leaves its array; nothing is lost
    and the next launch is right."""
    import numpy as np
    from ptxjit import cuda, errors

    @cuda.jit
    def wild(a, i):
        a[i] = 1

    @cuda.jit
    def add1(a, b):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = b[i] + 1

    d = cuda.to_device(np.zeros(8, np.int32))
    with pytest.raises(errors.SimIndexError) as e:
        wild[1, 1](d, 100)
    assert "wild" in str(e.value) and "100" in str(e.value)
    a = np.zeros(8, np.int32)
    add1[1, 8](a, np.arange(8, dtype=np.int32))
    assert a.tolist() == list(range(1, 9))
    assert d.copy_to_host().tolist() == [0] * 8

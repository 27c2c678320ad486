"""Stream callbacks and the GIL: a callback (stream.add_callback,
stream.async_done) runs Python on the driver's thread, so it takes the GIL
there; a thread that waits for the device while it holds the GIL waits for
that callback, which waits for the GIL, for ever.  Every call of the
runtime that may wait for the device lets the GIL go (src/py/py.h, NOGIL).

Each scenario runs in a child process on the fake driver
(tests/fake_cuda), whose host functions run on a thread of their own after
the work queued before them, and whose waiting calls wait for them: a
scenario queues 50 ms of DMA and a callback behind it, then does one kind
of waiting operation.  A deadlock is a child that does not finish within
its time limit.  The fake counts the waits that found a callback queued
("host_waits"), which shows the operation did wait for it, and the driver
calls made from inside a callback ("host_fn_calls", which the driver
forbids: a callback that drops the last reference to a stream must not
destroy it there)."""

import subprocess
import textwrap

import pytest

from test_runtime import FAKE_PRELUDE, fake_driver, run_child  # noqa: F401  (the fixture)

SETUP = """
import gc, threading, time
import ptxjit
from ptxjit import _core
rng = np.random.default_rng(7)
@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1
host = rng.random(16)
small = cuda.to_device(host)
k[1, 32](small)                    # the fake's launches change nothing
cuda.synchronize()
want = host.tolist()
setf("dma_mbps", 20)
s = cuda.stream()
seen = []
def hold(stream=None, note="ran", n=1 << 17):
    # n doubles of DMA (1 MiB: about 50 ms on the fake), then a callback that needs the GIL
    stream = stream or s
    cuda.to_device(np.zeros(n), stream=stream)
    stream.add_callback(lambda st, status, arg: seen.append(arg), note)
"""

FINISH = """
cuda.synchronize()
result["seen"] = seen
result["waited"] = get("host_waits") - waits0
result["in_callback"] = get("host_fn_calls")
result["pending"] = _core.pending_callbacks()
result["want"] = want
"""

# name -> the operation, issued while a callback is queued (hold())
SCENARIOS = {
    "free_huge_array": """
        a = cuda.device_array((1 << 30) + 4096, np.uint8)   # too big to cache: freed at once
        hold()
        del a
    """,
    "trim_cached_blocks": """
        a = cuda.device_array(1000)
        del a
        hold()
        _core.trim()
    """,
    "drop_kernel": """
        @cuda.jit
        def k2(a):
            a[0] = 1
        k2[1, 1](small)
        unloads = get("module_unloads")
        hold(n=1 << 20)                       # 400 ms: the collection takes a while
        del k2
        gc.collect()
        result["unloaded"] = get("module_unloads") - unloads
    """,
    "context_synchronize": """
        hold()
        cuda.synchronize()
    """,
    "stream_synchronize": """
        hold()
        s.synchronize()
    """,
    "event_synchronize": """
        hold()
        ev = cuda.event()
        ev.record(s)
        ev.synchronize()
    """,
    "copy_to_host": """
        hold()
        result["copied"] = small.copy_to_host().tolist()
    """,
    "copy_to_host_on_stream": """
        hold()
        out = np.zeros(16)
        small.copy_to_host(out, stream=s)   # to pageable memory: the driver waits
        s.synchronize()
        result["copied"] = out.tolist()
    """,
    "copy_device_to_device": """
        other = cuda.device_array(16)
        hold()
        other.copy_to_device(small)
        result["copied"] = other.copy_to_host().tolist()
    """,
    "memset": """
        z = cuda.to_device(rng.random(16))
        hold()
        z._memset(0)
        result["zeros"] = z.copy_to_host().tolist() == [0.0] * 16
    """,
    "free_pinned_array": """
        p = cuda.pinned_array(4096)
        hold()
        del p
    """,
    "free_managed_array": """
        m = cuda.managed_array(100)
        hold()
        del m
    """,
    "destroy_stream": """
        s2 = cuda.stream()
        hold()
        del s2
    """,
    "set_transfer": """
        k[1, 32](rng.random(16))              # the staging ring is made
        chunk = _core.set_transfer()["chunk"]
        hold()
        _core.set_transfer(chunk=2 * chunk)   # frees the ring's pinned buffers
    """,
    "close_context": """
        hold()
        cuda.close()
    """,
    "launch_on_a_full_queue": """
        setf("queue_limit", 1)                # the driver's command queue is full
        s.add_callback(lambda st, status, arg: (time.sleep(0.2), seen.append("ran")))
        k[1, 32, s](small)                    # waits for room behind the callback
        setf("queue_limit", 0)
    """,
    "callback_running": """
        # the callback has started (and runs Python for a while): the main
        # thread gets the GIL back at a switch and waits for the device
        started = threading.Event()
        def slow(st, status, arg):
            started.set()
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < 0.3:
                pass
            seen.append("slow")
        s.add_callback(slow)
        started.wait(10)
        result["copied"] = small.copy_to_host().tolist()
        seen.append("copied")
    """,
    "asyncio_then_copy": """
        # as stream.async_done(): the callback wakes the event loop
        # (call_soon_threadsafe writes to a socket, letting the GIL go)
        # and is still running when the awaiting code copies to the host
        import asyncio
        async def run():
            loop = asyncio.get_running_loop()
            f = loop.create_future()
            def cb(st, status, arg):
                loop.call_soon_threadsafe(f.set_result, st)
                time.sleep(0.2)               # the rest of the callback, without the GIL for a while
                seen.append("ran")
            cuda.to_device(np.zeros(1 << 17), stream=s)
            s.add_callback(cb)
            return await asyncio.wait_for(f, 10)
        result["resolved"] = asyncio.run(run()) is s
        result["copied"] = small.copy_to_host().tolist()
    """,
    "other_thread_waits": """
        # a callback queued by one thread, a wait in another
        def queue():
            t = cuda.stream()
            hold(t, "from thread")
        th = threading.Thread(target=queue)
        th.start()
        th.join()
        z = cuda.to_device(rng.random(16))
        z._memset(0)
    """,
    "callback_drops_its_stream": """
        # the callback holds the last reference to its stream: the stream
        # must not be destroyed on the driver's thread
        t = cuda.stream()
        hold(t)
        del t
        cuda.synchronize()
        time.sleep(0.1)
        gc.collect()
    """,
}

# operations that do not wait for the callback in the fake (a callback
# pending while they run is harmless)
NO_WAIT = {"callback_running", "callback_drops_its_stream", "asyncio_then_copy"}


def run_scenario(fake_driver, tmp_path, text, timeout=40, finish=FINISH, **env):
    body = FAKE_PRELUDE + textwrap.dedent(SETUP) + "waits0 = get('host_waits')\n" + textwrap.dedent(text) \
        + textwrap.dedent(finish)
    env = {k: str(v) for k, v in env.items()}
    env.update({"PTXJIT_SIM": "0", "PTXJIT_LIBCUDA": fake_driver})
    try:
        return run_child(body, env, tmp_path, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail("deadlock: the child did not finish in %d s" % timeout)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_waiting_operation_lets_a_queued_callback_run(name, fake_driver, tmp_path):
    res = run_scenario(fake_driver, tmp_path, SCENARIOS[name])
    assert "raised" not in res, res
    assert "ran" in res["seen"] or "from thread" in res["seen"] or "slow" in res["seen"], res
    assert res["pending"] == 0 and res["in_callback"] == 0, res
    if name not in NO_WAIT:
        assert res["waited"] >= 1, res       # the operation did wait for the callback
    if "copied" in res:
        assert res["copied"] == res["want"], res
    if name == "callback_running":
        assert res["seen"] == ["slow", "copied"], res
    if name == "drop_kernel":
        assert res["unloaded"] >= 1, res
    if name == "asyncio_then_copy":
        assert res["resolved"], res
    if name == "memset":
        assert res["zeros"], res


def test_exit_with_callbacks_pending_on_two_devices(fake_driver, tmp_path):
    """The interpreter ends with callbacks queued on the streams of two
    devices, kernels and arrays alive: each callback runs before the
    process exits, and none runs during the interpreter's finalisation."""
    res = run_scenario(fake_driver, tmp_path, """
        with cuda.gpus[1]:
            s1 = cuda.stream()
            d1 = cuda.to_device(rng.random(16))
            k[1, 32](d1)
            cuda.to_device(np.zeros(1 << 17), stream=s1)
            s1.add_callback(lambda st, status, arg: open("cb1", "w").write("ran"))
        cuda.to_device(np.zeros(1 << 17), stream=s)
        s.add_callback(lambda st, status, arg: open("cb0", "w").write("ran"))
        result["queued"] = _core.pending_callbacks()
    """, finish="", FAKE_CUDA_DEVICES=2)
    assert "raised" not in res, res
    assert res["queued"] == 2, res
    assert (tmp_path / "cb0").read_text() == "ran" and (tmp_path / "cb1").read_text() == "ran"

"""Messages of the GPU path, driven through the fake CUDA driver
(tests/fake_cuda/fake_libcuda.c), for tests/test_error_catalogue.py:
`python -c "import errcat_gpu_child; errcat_gpu_child.main(PART)"` with
PTXJIT_SIM=0 and PTXJIT_LIBCUDA naming the fake driver runs each case
of PART (see main) in order, and prints one line, RESULT {case: [exception class,
message] or None}.  The kernels are here so that messages name
errcat_gpu_child.py.  Cases that close the context come last.

DRIVER_CASES make one driver call fail (fake_fail: the entry point, the
CUresult, how many calls go through first) where a user's action reaches
it, so that every message of CHECK(...) in src/rt is seen with its call,
its error and what was being done.  The "cases" part has two devices
(FAKE_CUDA_DEVICES), for the messages of several GPUs.  Parts: "cases"; "init" (failures
while the driver starts, each undone by cuda.close()); "no_device";
"old_driver" and "no_linker" (the fake built with -DFAKE_OLD_DRIVER,
-DFAKE_NO_LINKER); "no_driver" (PTXJIT_LIBCUDA names no library).
"""

import ctypes
import json
import os
import sys

import numpy as np

from ptxjit import cuda

def _fake():
    return ctypes.CDLL(os.environ["PTXJIT_LIBCUDA"])


def setf(key, v):
    _fake().fake_set(key.encode(), ctypes.c_long(v))


def fail(entry, code, skip=0, times=1):
    """The driver's entry point fails with CUresult code after skip calls
    that go through, times times (tests/fake_cuda: fake_fail)."""
    _fake().fake_fail(entry.encode(), ctypes.c_int(code), ctypes.c_long(skip), ctypes.c_long(times))


def _failing(entry, code, fn, skip=0, times=1):
    fail(entry, code, skip, times)
    try:
        return _caught(fn)
    finally:
        _fake().fake_fail(None, 0, ctypes.c_long(0), ctypes.c_long(0))


@cuda.jit
def k_store(a, v):
    a[0] = v


@cuda.jit
def k_big_shared(a):
    s = cuda.shared.array(40000, dtype=np.float64)   # 320000 bytes
    s[cuda.threadIdx.x] = 1.0
    a[0] = s[0]


@cuda.jit
def k_fresh(a):
    a[0] = 2.0


@cuda.jit(debug=True, opt=False)
def k_raise(a):
    if a[0] > 100.0:
        raise ValueError("a[0] is too big")
    a[0] = 1.0


class GpuError(Exception):
    pass


@cuda.jit(debug=True, opt=False)
def k_mine(a):
    if a[0] > 100.0:
        raise GpuError("a[0] is mine")
    a[0] = 1.0


@cuda.jit
def k_dyn(a):
    s = cuda.shared.array(0, dtype=np.float32)
    s[cuda.threadIdx.x] = 1.0
    a[cuda.threadIdx.x] = s[cuda.threadIdx.x]


class Foreign:
    """Memory of another library: __cuda_array_interface__ over host memory
    (the fake driver's device pointers are host addresses)."""

    def __init__(self, **over):
        self.base = np.zeros(4, np.float32)
        self.__cuda_array_interface__ = dict({"shape": (4,), "typestr": "<f4", "version": 3, "strides": None,
                                              "data": (self.base.ctypes.data, False), "stream": None}, **over)


def _caught(fn):
    try:
        fn()
        cuda.synchronize()
    except Exception as e:          # noqa: BLE001 - the point is the message
        return [type(e).__name__, str(e)]
    return None


def _with(key, v, fn):
    setf(key, v)
    try:
        return _caught(fn)
    finally:
        setf(key, 0)


def _closed():
    """Objects made before cuda.close(), used after it."""
    d = cuda.device_array(4, np.float32)
    s = cuda.stream()
    ev = cuda.event()
    cuda.close()
    return {
        "gpu_closed_array_copy": _caught(lambda: d.copy_to_host()),
        "gpu_closed_array_arg": _caught(lambda: k_store[1, 1](d, 1.0)),
        "gpu_closed_stream_copy": _caught(lambda: cuda.to_device(np.zeros(4), stream=s)),
        "gpu_closed_event": _caught(lambda: ev.record()),
    }


CASES = [
    ("gpu_foreign_dtype", lambda: _caught(lambda: k_store[1, 1](Foreign(typestr="<U1"), 1.0))),
    ("gpu_foreign_0d", lambda: _caught(lambda: k_store[1, 1](Foreign(shape=()), 1.0))),
    ("gpu_foreign_masked", lambda: _caught(lambda: k_store[1, 1](Foreign(mask=1), 1.0))),
    ("gpu_foreign_stream", lambda: _caught(lambda: k_store[1, 1](Foreign(stream="s"), 1.0))),
    ("gpu_too_much_shared", lambda: _caught(lambda: k_big_shared[1, 32](cuda.device_array(1, np.float64)))),
    ("gpu_out_of_memory", lambda: _with("mem_limit", 1 << 20, lambda: cuda.device_array(1 << 22, np.float32))),
    ("gpu_ptx_rejected", lambda: _with("reject_ptx", 1, lambda: k_fresh[1, 1](cuda.device_array(1, np.float64)))),
]


UNKNOWN = 999          # CUDA_ERROR_UNKNOWN


def _compiled(k):
    return k.compile("void(float64[::1])")


def _kernel(disp):
    """The compiled Kernel of a dispatcher's only signature."""
    return next(iter(disp.overloads.values()))


def _dev(n=4):
    return cuda.device_array(n, np.float32)


def _in_stream(fn):
    s = cuda.stream()
    fn(s)
    s.synchronize()


def _with_transfer(mode, fn):
    from ptxjit import _core
    _core.set_transfer(mode=mode)
    try:
        return fn()
    finally:
        _core.set_transfer(mode="staged")


def _launch_numpy(n=1 << 16):
    """A launch with a NumPy argument: copied in, then back."""
    a = np.zeros(n, np.float32)
    k_store[1, 1](a, 1.0)


def _trap(code, kern):
    """A debug kernel whose error word says the trap `code` happened."""
    d = _dev()
    kern[1, 1](d)            # compiled and loaded before the trap is armed
    setf("trap_code", code)
    try:
        kern[1, 1](d)
        cuda.synchronize()
    finally:
        setf("trap_code", 0)


def _rebound_class():
    global GpuError
    d = _dev()
    k_mine[1, 1](d)
    old, GpuError = GpuError, 3
    try:
        _trap(2, k_mine)
    finally:
        GpuError = old


def _cubin_of_njit():
    from ptxjit import njit

    @njit
    def n_one(x):
        return x + 1
    n_one(1)
    return _kernel(n_one).kernel._cubin()


# (case, entry point, CUresult, calls let through, what the user does):
# each CUDA driver call that the runtime checks (CHECK(...) in src/rt),
# failing once where the user's action reaches it.
DRIVER_CASES = [
    # (after a failed cuMemAlloc the runtime frees its cached blocks and tries again)
    ("drv_alloc_code_unnamed", "cuMemAlloc", 12345, 0, lambda: cuda.device_array(12345678, np.uint8), 2),
    ("drv_htod", "cuMemcpyHtoD", UNKNOWN, 0, lambda: cuda.to_device(np.zeros(1000, np.float32))),
    ("drv_htod_async", "cuMemcpyHtoDAsync", UNKNOWN, 0,
     lambda: _in_stream(lambda s: cuda.to_device(np.zeros(100, np.float32), stream=s))),
    ("drv_htod_staged", "cuMemcpyHtoDAsync", UNKNOWN, 0,
     lambda: _in_stream(lambda s: cuda.to_device(np.zeros(1 << 16, np.float32), stream=s))),
    ("drv_dtoh", "cuMemcpyDtoH", UNKNOWN, 0, lambda: _dev(1000).copy_to_host()),
    ("drv_dtoh_async", "cuMemcpyDtoHAsync", UNKNOWN, 0,
     lambda: _in_stream(lambda s: _dev(100).copy_to_host(stream=s))),
    ("drv_dtoh_staged", "cuMemcpyDtoHAsync", UNKNOWN, 0,
     lambda: _in_stream(lambda s: _dev(1 << 16).copy_to_host(stream=s))),
    ("drv_dtod", "cuMemcpyDtoD", UNKNOWN, 0, lambda: _dev(100).copy_to_device(_dev(100))),
    ("drv_dtod_async", "cuMemcpyDtoDAsync", UNKNOWN, 0,
     lambda: _in_stream(lambda s: _dev(100).copy_to_device(_dev(100), stream=s))),
    ("drv_memset", "cuMemsetD8", UNKNOWN, 0, lambda: _dev(100)._memset(0)),
    ("drv_host_register", "cuMemHostRegister", UNKNOWN, 0, lambda: _pin_and_unpin()),
    ("drv_host_unregister", "cuMemHostUnregister", UNKNOWN, 0, lambda: _pin_and_unpin()),
    ("drv_host_map", "cuMemHostRegister", UNKNOWN, 0, lambda: cuda.mapped_array(1000)),
    ("drv_host_device_pointer", "cuMemHostGetDevicePointer", UNKNOWN, 0, lambda: cuda.mapped_array(1000)),
    ("drv_managed_alloc", "cuMemAllocManaged", UNKNOWN, 0, lambda: cuda.managed_array(1000)),
    ("drv_ipc_range", "cuMemGetAddressRange", UNKNOWN, 0, lambda: _dev(100).get_ipc_handle()),
    ("drv_ipc_get", "cuIpcGetMemHandle", UNKNOWN, 0, lambda: _dev(100).get_ipc_handle()),
    ("drv_ipc_open", "cuIpcOpenMemHandle", UNKNOWN, 0, lambda: _dev(100).get_ipc_handle().open()),
    ("drv_mem_info", "cuMemGetInfo", UNKNOWN, 0, lambda: cuda.current_context().get_memory_info()),
    ("drv_sync", "cuCtxSynchronize", UNKNOWN, 0, lambda: cuda.synchronize()),
    ("drv_stream_create", "cuStreamCreate", UNKNOWN, 0, lambda: cuda.stream()),
    ("drv_stream_sync", "cuStreamSynchronize", UNKNOWN, 0, lambda: cuda.stream().synchronize()),
    ("drv_stream_query", "cuStreamQuery", UNKNOWN, 0, lambda: cuda.stream().query()),
    ("drv_host_func", "cuLaunchHostFunc", UNKNOWN, 0, lambda: cuda.stream().add_callback(lambda s, st, a: None)),
    ("drv_event_create", "cuEventCreate", UNKNOWN, 0, lambda: cuda.event()),
    ("drv_event_record", "cuEventRecord", UNKNOWN, 0, lambda: cuda.event().record()),
    ("drv_event_sync", "cuEventSynchronize", UNKNOWN, 0, lambda: cuda.event().synchronize()),
    ("drv_event_query", "cuEventQuery", UNKNOWN, 0, lambda: cuda.event().query()),
    ("drv_event_wait", "cuStreamWaitEvent", UNKNOWN, 0, lambda: cuda.event().wait(cuda.stream())),
    ("drv_event_elapsed", "cuEventElapsedTime", UNKNOWN, 0, lambda: _elapsed()),
    ("drv_order_event", "cuEventCreate", UNKNOWN, 0, lambda: _two_streams()),
    ("drv_order_record", "cuEventRecord", UNKNOWN, 0, lambda: _two_streams()),
    ("drv_order_wait", "cuStreamWaitEvent", UNKNOWN, 0, lambda: _two_streams()),
    ("drv_launch", "cuLaunchKernel", 701, 0, lambda: k_store[(2, 3), (32, 4)](_dev(), 1.0)),
    ("drv_func_attr", "cuFuncGetAttribute", UNKNOWN, 0, lambda: k_store.get_regs_per_thread()),
    ("drv_occupancy", "cuOccupancyMaxPotentialBlockSize", UNKNOWN, 0, lambda: k_fresh.forall(100)(_dev())),
    ("drv_active_blocks", "cuOccupancyMaxActiveBlocksPerMultiprocessor", UNKNOWN, 0,
     lambda: _compiled(k_fresh).max_cooperative_grid_blocks(128)),
    ("drv_dyn_smem", "cuFuncSetAttribute", UNKNOWN, 0, lambda: k_dyn[1, 32, 0, 64 * 1024](_dev(32))),
    ("drv_get_function", "cuModuleGetFunction", 500, 0,
     lambda: cuda.jit(k_fresh.py_func)[1, 1](cuda.device_array(1, np.float64))),
    ("drv_arg_htod", "cuMemcpyHtoDAsync", UNKNOWN, 0, lambda: _with_transfer("driver", _launch_numpy)),
    ("drv_arg_htod_staged", "cuMemcpyHtoDAsync", UNKNOWN, 0, _launch_numpy),
    ("drv_arg_dtoh", "cuMemcpyDtoHAsync", UNKNOWN, 0, lambda: _with_transfer("driver", _launch_numpy)),
    ("drv_arg_dtoh_staged", "cuMemcpyDtoHAsync", UNKNOWN, 0, _launch_numpy),
    ("drv_arg_stage_record", "cuEventRecord", UNKNOWN, 0, _launch_numpy),
    ("drv_arg_stage_sync", "cuEventSynchronize", UNKNOWN, 0, lambda: _launch_numpy(1 << 24)),
    ("drv_arg_copy_back_sync", "cuEventSynchronize", UNKNOWN, 2, _launch_numpy),
    ("drv_arg_stream_sync", "cuStreamSynchronize", UNKNOWN, 0, _launch_numpy),
    ("drv_trap_sync", "cuStreamSynchronize", UNKNOWN, 1, lambda: k_raise[1, 1](_dev())),
    ("drv_trap_read", "cuMemcpyDtoH", UNKNOWN, 0, lambda: k_raise[1, 1](_dev())),
    ("drv_trap_clear", "cuMemsetD8", UNKNOWN, 0, lambda: _trap(2, k_raise)),
    ("drv_link_create", "cuLinkCreate", UNKNOWN, 0, lambda: _kernel(k_store)._cubin()),
    ("drv_load_cubin", "cuModuleLoadDataEx", 200, 0, lambda: _kernel(k_store)._load_cubin(_kernel(k_store)._cubin())),
    # (the runtime tries once more when entering its context fails)
    ("drv_ctx_get", "cuCtxGetCurrent", UNKNOWN, 0, lambda: cuda.to_device(np.zeros(3)), 2),
    ("drv_ctx_set", "cuCtxSetCurrent", UNKNOWN, 0, lambda: _other_thread(lambda: cuda.to_device(np.zeros(3))), 2),
    # CUDA graphs (src/rt/graph.c)
    ("drv_graph_begin", "cuStreamBeginCapture", UNKNOWN, 0, lambda: _graph(lambda: None)),
    ("drv_graph_end", "cuStreamEndCapture", UNKNOWN, 0, lambda: _graph(lambda: None)),
    ("drv_graph_instantiate", "cuGraphInstantiateWithFlags", UNKNOWN, 0, lambda: _graph(lambda: None)),
    ("drv_graph_launch", "cuGraphLaunch", UNKNOWN, 0, lambda: _graph(lambda: None).launch()),
    ("drv_graph_copy", "cuMemcpyDtoDAsync", UNKNOWN, 0, lambda: _graph_copy(_dev(100), _dev(100))),
    ("drv_graph_memset", "cuMemsetD8Async", UNKNOWN, 0, lambda: _graph_memset(_dev(100))),
]


def _graph(fn):
    with cuda.graph() as g:
        fn()
    return g


def _graph_copy(a, b):
    return _graph(lambda: a.copy_to_device(b))


def _graph_memset(a):
    return _graph(lambda: a._memset(0))


def _elapsed():
    a, b = cuda.event(), cuda.event()
    a.record()
    b.record()
    return cuda.event_elapsed_time(a, b)


def _two_streams():
    """A launch on one stream with another library's array made on
    another stream: the launch is ordered after the array's producer."""
    s1, s2 = cuda.stream(), cuda.stream()
    k_store[1, 1, s2](Foreign(stream=s1.handle), 1.0)


def _other_thread(fn):
    """fn on a thread of its own, where the runtime makes its context current."""
    import threading
    out = []

    def run():
        try:
            fn()
        except Exception as e:      # noqa: BLE001 - raised again on this thread
            out.append(e)
    t = threading.Thread(target=run)
    t.start()
    t.join()
    if out:
        raise out[0]


def _pin_and_unpin():
    a = np.zeros(1 << 16)
    with cuda.pinned(a):
        pass


# more of the GPU path, not one failing call
def _on_device_1(fn):
    with cuda.gpus[1]:
        return fn()


def _peer_copy(stream=False):
    d0 = _dev(100)
    d1 = _on_device_1(lambda: _dev(100))
    if stream:
        _on_device_1(lambda: _in_stream(lambda s: d1.copy_to_device(d0, stream=s)))
    else:
        d1.copy_to_device(d0)


DRIVER_CASES += [
    ("drv_peer_can", "cuDeviceCanAccessPeer", UNKNOWN, 0, _peer_copy),
    ("drv_peer_enable", "cuCtxEnablePeerAccess", UNKNOWN, 0, _peer_copy),
    ("drv_peer_copy", "cuMemcpyPeer", UNKNOWN, 0, _peer_copy),
    ("drv_peer_copy_async", "cuMemcpyPeerAsync", UNKNOWN, 0, lambda: _peer_copy(stream=True)),
]

OTHER_CASES = [
    ("gpu_no_such_device", lambda: _caught(lambda: cuda.select_device(5))),
    ("gpu_other_device_array", lambda: _caught(lambda: k_store[1, 1](_on_device_1(_dev), 1.0))),
    ("gpu_trap_raise", lambda: _caught(lambda: _trap(2, k_raise))),
    ("gpu_trap_unknown_code", lambda: _caught(lambda: _trap(99, k_raise))),
    ("gpu_trap_rebound_class", lambda: _caught(_rebound_class)),
    ("gpu_link_rejects", lambda: _with("reject_ptx", 1, lambda: _kernel(k_store)._cubin())),
    ("gpu_njit_has_no_ptx", lambda: _caught(_cubin_of_njit)),
    ("gpu_huge_alloc", lambda: _caught(lambda: cuda.device_array(1 << 60, np.uint8))),
]


def _init_cases():
    """Failures while the runtime starts the driver: each fails once and
    sticks until cuda.close() lets the next use start again."""
    res = {}
    for name, entry, code in (("init_cuinit", "cuInit", UNKNOWN), ("init_version", "cuDriverGetVersion", UNKNOWN),
                              ("init_count", "cuDeviceGetCount", UNKNOWN), ("init_get", "cuDeviceGet", 101),
                              ("init_name", "cuDeviceGetName", UNKNOWN), ("init_total_mem", "cuDeviceTotalMem",
                                                                          UNKNOWN),
                              ("init_attribute", "cuDeviceGetAttribute", UNKNOWN),
                              ("init_retain", "cuDevicePrimaryCtxRetain", UNKNOWN),
                              ("init_set_current", "cuCtxSetCurrent", UNKNOWN)):
        res[name] = _failing(entry, code, lambda: cuda.device_array(1))
        cuda.close()
    setf("no_gpus", 1)
    res["init_no_gpus"] = _caught(lambda: cuda.device_array(1))
    setf("no_gpus", 0)
    cuda.close()
    assert _caught(lambda: cuda.device_array(1)) is None     # and the driver starts again
    res["drv_release"] = _failing("cuDevicePrimaryCtxRelease", UNKNOWN, cuda.close)
    assert _caught(lambda: cuda.device_array(1)) is None
    # a kernel fault, cuda.close(), and a driver that gives no new context
    setf("fault_on_launch", 1)
    _caught(lambda: k_store[1, 1](_dev(), 1.0))
    cuda.close()
    res["init_retain_after_fault"] = _failing("cuDevicePrimaryCtxRetain", 700, lambda: cuda.device_array(1))
    cuda.close()
    assert _caught(lambda: cuda.device_array(1)) is None
    return res


def main(part="cases"):
    """part: "cases"; "no_device" (cuInit fails, which sticks: a process
    of its own); "no_driver" (PTXJIT_LIBCUDA names no library)."""
    res = {}
    if part == "no_device":
        res["gpu_no_device"] = _with("no_device", 1, lambda: cuda.device_array(1))
    elif part == "no_driver":
        res["gpu_no_driver"] = _caught(lambda: cuda.device_array(1))
    elif part == "old_driver":
        res["gpu_old_driver"] = _caught(lambda: cuda.device_array(1))
    elif part == "no_linker":
        k_store[1, 1](_dev(), 1.0)
        res["gpu_no_linker"] = _caught(lambda: _kernel(k_store)._cubin())
    elif part == "init":
        res.update(_init_cases())
    else:
        setf("devices", 2)                   # before the driver starts
        for name, fn in CASES:
            res[name] = fn()
        k_store[1, 1](_dev(), 1.0)           # compiled and loaded: the cases fail the call they name
        for name, entry, code, skip, fn, *times in DRIVER_CASES:
            res[name] = _failing(entry, code, fn, skip, *times)
        for name, fn in OTHER_CASES:
            res[name] = fn()
        setf("fault_on_launch", 1)           # a wild address: the context is lost ...
        res["gpu_fault"] = _caught(lambda: k_store[1, 1](np.zeros(1), 1.0))
        res["gpu_after_fault"] = _caught(lambda: cuda.device_array(4))
        cuda.close()                         # ... until cuda.close()
        res.update(_closed())
    sys.stdout.write("RESULT " + json.dumps(res) + "\n")

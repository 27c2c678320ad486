"""The host-side API of `cuda`, with Numba's spellings: devices, memory,
streams and events.

Everything here is a thin layer over ptxjit._core; the driver is opened at the
first call that needs the device (cuda.is_available() included), never at
import.  On the simulator (PTXJIT_SIM=1) the same calls work on host memory.
"""

import asyncio
import atexit
import collections
import contextlib
import warnings
import threading

import numpy as np

from .. import _core
from ..errors import CudaDriverError
from . import config as _config
from .devicearray import DeviceNDArray, check_dtype, f_strides, like_layout, new_device_array, shape_tuple
from .memkinds import managed_array, mapped, mapped_array, mapped_array_like  # noqa: F401

MemoryInfo = collections.namedtuple("MemoryInfo", ["free", "total"])


def simulator_active():
    """True when kernels run on the CPU simulator (PTXJIT_SIM=1 at import)."""
    return _core.is_simulator()


# ------------------------------------------------------------ devices

# CUdevice_attribute values, by Numba's attribute names.
DEVICE_ATTRIBUTES = {
    "MAX_THREADS_PER_BLOCK": 1, "MAX_BLOCK_DIM_X": 2, "MAX_BLOCK_DIM_Y": 3, "MAX_BLOCK_DIM_Z": 4,
    "MAX_GRID_DIM_X": 5, "MAX_GRID_DIM_Y": 6, "MAX_GRID_DIM_Z": 7,
    "MAX_SHARED_MEMORY_PER_BLOCK": 8, "TOTAL_CONSTANT_MEMORY": 9, "WARP_SIZE": 10,
    "MAX_PITCH": 11, "MAX_REGISTERS_PER_BLOCK": 12, "CLOCK_RATE": 13, "TEXTURE_ALIGNMENT": 14,
    "GPU_OVERLAP": 15, "MULTIPROCESSOR_COUNT": 16, "KERNEL_EXEC_TIMEOUT": 17, "INTEGRATED": 18,
    "CAN_MAP_HOST_MEMORY": 19, "COMPUTE_MODE": 20, "CONCURRENT_KERNELS": 31, "ECC_ENABLED": 32,
    "PCI_BUS_ID": 33, "PCI_DEVICE_ID": 34, "MEMORY_CLOCK_RATE": 36, "GLOBAL_MEMORY_BUS_WIDTH": 37,
    "L2_CACHE_SIZE": 38, "MAX_THREADS_PER_MULTI_PROCESSOR": 39, "MAX_THREADS_PER_MULTIPROCESSOR": 39,
    "ASYNC_ENGINE_COUNT": 40, "UNIFIED_ADDRESSING": 41, "PCI_DOMAIN_ID": 50,
    "COMPUTE_CAPABILITY_MAJOR": 75, "COMPUTE_CAPABILITY_MINOR": 76,
    "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": 81, "MAX_REGISTERS_PER_MULTIPROCESSOR": 82,
    "MANAGED_MEMORY": 83, "MULTI_GPU_BOARD": 84, "COOPERATIVE_LAUNCH": 95,
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 97,
}


class Device:
    """A GPU (or the simulator's one device).  Driver attributes are read
    by name: dev.MULTIPROCESSOR_COUNT, dev.MAX_THREADS_PER_BLOCK, ...
    `with dev:` makes it the current device of the thread inside the block
    (cuda.gpus[i] is such a device, as in Numba)."""

    def __init__(self, device_id=0):
        self.id = device_id
        self._info = None
        self._attrs = {}

    @property
    def _props(self):
        if self._info is None:
            self._info = _core.device_info(self.id)
        return self._info

    @property
    def name(self):
        return self._props["name"]

    @property
    def compute_capability(self):
        return self._props["compute_capability"]

    @property
    def uuid(self):
        return None

    @property
    def supports_float16(self):
        return self.compute_capability >= (5, 3)

    def __getattr__(self, name):
        code = DEVICE_ATTRIBUTES.get(name)
        if code is None:
            raise AttributeError("%r: no device attribute %r (known: %s)"
                                 % (self, name, ", ".join(sorted(DEVICE_ATTRIBUTES))))
        if name not in self._attrs:
            try:
                self._attrs[name] = _core.device_attribute(code, self.id)
            except ValueError as e:
                raise ValueError("device attribute %s: %s" % (name, e)) from None
        return self._attrs[name]

    def reset(self):
        """Frees this device's cached memory and releases its context
        (resetting it after a fault); its arrays made before are gone."""
        _core.close(self.id)

    def __enter__(self):
        _outer.__dict__.setdefault("stack", []).append(_core.current_device())
        _core.select_device(self.id)
        return self

    def __exit__(self, *exc):
        _core.select_device(_outer.stack.pop())
        return False

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("cuda device", self.id))

    def __repr__(self):
        return "<CUDA device %d '%s'>" % (self.id, self.name)


_devices = {}                  # id -> Device
_outer = threading.local()     # .stack: the devices current before each `with device:`


def _device(i):
    d = _devices.get(i)
    if d is None:
        d = _devices[i] = Device(i)
    return d


def get_current_device():
    """This thread's current device (device 0 until select_device or
    `with cuda.gpus[i]:` says otherwise): .id, .name, .compute_capability,
    .MULTIPROCESSOR_COUNT, ..."""
    return _device(_core.current_device())


def select_device(device_id):
    """Makes device `device_id` the current device of this thread (its
    context is made now); returns it."""
    _core.select_device(device_id)
    return _device(device_id)


def list_devices():
    """Every device the driver sees ([] when CUDA cannot be used)."""
    return [_device(i) for i in range(len(gpus))]


class _GPUList:
    """cuda.gpus: the devices, as in Numba: len(cuda.gpus), cuda.gpus[i],
    a list of them from cuda.gpus[i:j], iteration, cuda.gpus.current,
    `with cuda.gpus[i]:`."""

    def __getitem__(self, i):
        n = len(self)
        if isinstance(i, slice):
            return [_device(j) for j in range(*i.indices(n))]
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError("cuda.gpus[i]: i is a device number, not %r" % (i,))
        if not -n <= i < n:
            raise IndexError("cuda.gpus[%d]: there %s %d device%s (numbered from 0)"
                             % (i, "is" if n == 1 else "are", n, "" if n == 1 else "s"))
        return _device(i % n)

    def __len__(self):
        return _core.device_count() if is_available() else 0

    def __iter__(self):
        return iter(list_devices())

    @property
    def current(self):
        return get_current_device()


gpus = _GPUList()


def is_available():
    """True if kernels can run: a CUDA driver and a GPU, or the simulator.
    Opens the driver on the first call."""
    return _core.is_simulator() or _core.available()


def cuda_error():
    """None when the CUDA driver initialised (or the simulator is in use);
    else the message of what stopped it (no driver, NUMBA_DISABLE_CUDA=1,
    no GPU), as Numba's cuda.cuda_error()."""
    if is_available():
        return None
    from ..errors import CudaSupportError
    try:
        _core.mem_info()            # opens the driver and the device's context
    except CudaSupportError as e:
        return str(e)
    return None


def is_supported_version():
    """True when ptxjit can use the CUDA driver: on the simulator, or a
    driver of CUDA 10.0 or later (the oldest release whose PTX ISA
    ptxjit's table knows, src/ptx/version.c).  ptxjit needs no CUDA
    runtime or toolkit, whose version Numba checks here."""
    if _core.is_simulator():
        return True
    return is_available() and _core.device_info()["driver_version"] >= 10000


def is_float16_supported():
    """True when kernels can compute with float16: on the simulator, and
    on a device of compute capability 5.3 or later."""
    return _core.is_simulator() or get_current_device().supports_float16


def is_bfloat16_supported():
    """True when kernels can compute with bfloat16: on the simulator, and
    on a device of compute capability 8.0 or later."""
    return _core.is_simulator() or get_current_device().compute_capability >= (8, 0)


def is_fp8_supported():
    """True when numba-cuda's device would compute with fp8 (compute
    capability 8.9 or later), and on the simulator.  ptxjit converts fp8
    with integer operations, so its kernels also run on older devices."""
    return _core.is_simulator() or get_current_device().compute_capability >= (8, 9)


def detect():
    """Prints the devices found and returns True if one can be used."""
    if not is_available():
        try:
            _core.device_info()
        except Exception as e:  # the reason the driver cannot be used
            print("CUDA is not available: %s" % e)
        return False
    n = _core.device_count()
    print("Found %d CUDA devices" % n)
    for i in range(n):
        info = _core.device_info(i)
        print("id %d    %40s                              [SUPPORTED]" % (i, info["name"]))
        print("%40s: %d.%d" % ("Compute Capability", *info["compute_capability"]))
        print("%40s: %d" % ("Multiprocessors", info["multiprocessor_count"]))
        if info["simulator"]:
            print("%40s: %s" % ("Backend", "ptxjit simulator (PTXJIT_SIM=1)"))
        else:
            v = info["driver_version"]
            print("%40s: %d.%d" % ("Driver version", v // 1000, v % 1000 // 10))
    print("Summary:\n\t%d/%d devices are supported" % (n, n))
    return True


def synchronize():
    """Waits until all work on the device is done."""
    _core.synchronize()


def close():
    """Frees cached device memory and releases the CUDA context of every
    device (Numba's cuda.close()); device 0 is current again in this
    thread.  Kernels are loaded again at their next launch; device arrays
    made before cannot be used any more.  After a kernel fault this is how
    to get a usable context back."""
    _core.close()


class Context:
    """cuda.current_context(): the current device's context, with Numba's
    methods; memory comes from its memory_manager (the plugin set with
    cuda.set_memory_manager, else the built-in allocator)."""

    def get_memory_info(self):
        from . import emm
        if emm.memory_manager() is not None:
            return emm.memory_manager().get_memory_info()
        return MemoryInfo(*_core.mem_info())

    @property
    def memory_manager(self):
        """The memory manager device arrays come from: the plugin in use,
        else ptxjit's caching allocator (NumbaCUDAMemoryManager, whose
        deallocations are the freed blocks it keeps)."""
        from . import emm
        return emm.context_memory_manager(self)

    @memory_manager.setter
    def memory_manager(self, mgr):
        """An instance of a memory manager plugin serves this context's
        allocations from now on (cuda.set_memory_manager takes the class)."""
        from . import emm
        emm.use_manager(mgr)

    @property
    def deallocations(self):
        """The memory manager's deallocations (clear() gives the freed
        blocks the caching allocator keeps back to the driver)."""
        return self.memory_manager.deallocations

    def memalloc(self, bytesize):
        """A MemoryPointer to bytesize bytes of device memory."""
        return self.memory_manager.memalloc(bytesize)

    def memallocmanaged(self, bytesize, attach_global=True):
        return self.memory_manager.memallocmanaged(bytesize, attach_global)

    def memhostalloc(self, bytesize, mapped=False, portable=False, wc=False):
        """Page-locked host memory (PinnedMemory), mapped into the device
        when mapped is true (MappedMemory)."""
        return self.memory_manager.memhostalloc(bytesize, mapped, portable, wc)

    def mempin(self, owner, pointer, size, mapped=False):
        return self.memory_manager.mempin(owner, pointer, size, mapped)

    def defer_cleanup(self):
        return self.memory_manager.defer_cleanup()

    def create_stream(self):
        return stream()

    def create_external_stream(self, ptr):
        return external_stream(ptr)

    def get_default_stream(self):
        return default_stream()

    def get_legacy_default_stream(self):
        return legacy_default_stream()

    def get_per_thread_default_stream(self):
        return per_thread_default_stream()

    def create_event(self, timing=True):
        return event(timing)

    def reset(self):
        """Releases the current device's context (Device.reset()), and
        resets the memory manager plugin in use."""
        from . import emm
        if emm.memory_manager() is not None:
            emm.memory_manager().reset()
        get_current_device().reset()

    def synchronize(self):
        synchronize()

    def get_ipc_handle(self, memory):
        """An IpcHandle another process opens to use the memory of a
        MemoryPointer (darr.gpu_data): its size bytes from its address."""
        from .ipc import memory_ipc_handle
        return memory_ipc_handle(memory)

    def memory_stats(self):
        """The caching allocator's counters: cached_bytes, live_bytes,
        driver_allocs, cache_hits."""
        return _core.mem_stats()

    @property
    def device(self):
        return get_current_device()


def current_context():
    """The current device's context, made (the driver initialised) if this
    process has none yet, as in Numba."""
    _core.mem_info()          # enters the device's context, making it on first use
    return Context()


def require_context(fn):
    return fn


# ------------------------------------------------------------- memory

def _to_host_array(obj):
    if isinstance(obj, np.ndarray):
        return obj
    return np.asarray(obj)


def to_device(obj, stream=0, copy=True, to=None):
    """Copies a NumPy array (or anything np.asarray takes) to a new device
    array, or into `to`.  A device array is returned as it is."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    if isinstance(obj, np.void) and obj.dtype.fields is not None:
        from .devicearray import auto_device
        return _with_stream(auto_device(obj, stream=stream, copy=copy)[0], stream)
    a = _to_host_array(obj)
    check_dtype(a.dtype)
    if a.flags.c_contiguous:
        d = new_device_array(a.shape, None, a.dtype)
    elif a.flags.f_contiguous:
        d = new_device_array(a.shape, a.strides, a.dtype)
    else:
        a = np.ascontiguousarray(a)
        d = new_device_array(a.shape, None, a.dtype)
    if copy and d.nbytes:
        d._htod(a, 0, None if isinstance(stream, int) and stream == 0 else stream)
    return _with_stream(d, stream)


def _with_stream(d, stream):
    """d, remembering the stream it was made with (DeviceNDArray.stream, and
    the stream field of its CUDA array interface)."""
    if not (isinstance(stream, int) and stream == 0) and isinstance(d, DeviceNDArray):
        d._pj_stream = stream
    return d


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """A new, uninitialised device array."""
    return _with_stream(DeviceNDArray._empty(shape, dtype, strides, order), stream)


def device_array_like(ary, stream=0):
    """A new device array of ary's shape and dtype, its layout as NumPy's
    zeros_like gives it (like_layout)."""
    strides, order = like_layout(ary)
    return _with_stream(DeviceNDArray._empty(ary.shape, ary.dtype, strides, order), stream)


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in pinned (page-locked) host memory: copies between it
    and the device are faster, and asynchronous with a stream."""
    shape = shape_tuple(shape)
    dtype = check_dtype(dtype)
    if any(n < 0 for n in shape):
        raise ValueError("pinned_array: negative dimension in shape %s" % (shape,))
    if strides is None and order == "F":
        strides = f_strides(shape, dtype.itemsize)
    nbytes = dtype.itemsize
    for n in shape:
        nbytes *= n
    buf = _core.HostBuffer(nbytes)
    return np.ndarray(shape, dtype, buffer=buf, strides=strides, order=order)


def pinned_array_like(ary):
    strides, order = like_layout(ary)
    return pinned_array(ary.shape, ary.dtype, strides, order)


@contextlib.contextmanager
def pinned(*arrays):
    """with cuda.pinned(a, b): the arrays' memory is pinned inside the block."""
    done = []
    try:
        for a in arrays:
            _core.register_host(a)
            done.append(a)
        yield
    finally:
        for a in done:
            _core.unregister_host(a)


def is_cuda_array(obj):
    """True if obj exports __cuda_array_interface__."""
    return hasattr(obj, "__cuda_array_interface__")


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A DeviceNDArray on the memory a __cuda_array_interface__ dict describes
    (no copy); `owner` is kept alive with it.  Its stream is the interface's
    (an external stream), which is synchronised first when sync is true and
    NUMBA_CUDA_ARRAY_INTERFACE_SYNC is on; the legacy default stream (1) is
    the array's default, 0, and needs no synchronisation.  On the simulator the memory must
    be the simulator's own (a device array of ours that another object
    wraps)."""
    if desc.get("mask") is not None:
        raise NotImplementedError("masked arrays are not supported")
    shape = tuple(desc["shape"])
    dtype = np.dtype(desc["typestr"])
    strides = desc.get("strides")
    ptr = desc["data"][0] or 0
    d = DeviceNDArray._view(owner if owner is not None else desc, ptr, shape,
                            tuple(strides) if strides is not None else None, dtype)
    if _core.is_simulator() and d._foreign:
        raise TypeError("the simulator (PTXJIT_SIM=1) cannot use GPU memory of another library; "
                        "copy the data to a NumPy array")
    stream = desc.get("stream")
    # 1, the legacy default stream, is the default of our arrays too: the
    # work a program issues next comes after the producer's without a wait
    # (as a launch takes it, src/py/argclass.c)
    if stream and stream != 1:
        s = external_stream(stream)
        if sync and _config.CUDA_ARRAY_INTERFACE_SYNC:
            s.synchronize()
        d._pj_stream = s
    return d


def as_cuda_array(obj, sync=True):
    """A DeviceNDArray sharing obj's memory, for any object exporting
    __cuda_array_interface__ (CuPy, PyTorch, ...)."""
    if isinstance(obj, DeviceNDArray):
        return obj
    if not is_cuda_array(obj):
        raise TypeError("%s does not export __cuda_array_interface__" % type(obj).__name__)
    return from_cuda_array_interface(obj.__cuda_array_interface__, owner=obj, sync=sync)


# --------------------------------------------------- streams, events

class Stream(_core.Stream):
    """A CUDA stream (cuda.stream()); work issued on it runs in order.
    int(stream) and stream.handle are the CUstream (0, 1 and 2 for the
    default, legacy default and per-thread default streams)."""

    __slots__ = ("__weakref__",)

    @contextlib.contextmanager
    def auto_synchronize(self):
        """with stream.auto_synchronize(): synchronises when the block ends."""
        yield self
        self.synchronize()

    def __int__(self):
        return self.handle

    def __cuda_stream__(self):
        return (0, self.handle)

    def add_callback(self, callback, arg=None):
        """callback(stream, status, arg) runs on a thread of the driver once
        the work issued on the stream so far is done (status 0); it must not
        use CUDA.  An exception it raises is reported as a warning.  On the
        simulator, where work is done when issued, it runs now."""
        if not callable(callback):
            raise TypeError("add_callback: the callback must be callable, not %s" % type(callback).__name__)
        def run():
            try:
                callback(self, 0, arg)
            except Exception as e:
                warnings.warn("Exception in stream callback: %s" % (e,))
        self._host_func(run)

    def async_done(self):
        """An asyncio future of the running loop, whose result is this
        stream once the work issued on it so far is done:
        `await stream.async_done()`."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def resolve(status):
            if future.done():
                return
            if status == 0:
                future.set_result(self)
            else:
                future.set_exception(CudaDriverError("stream error %d" % status))

        self.add_callback(lambda stream, status, arg: loop.call_soon_threadsafe(resolve, status))
        return future


# Before the interpreter ends, every device is synchronised while callbacks
# are queued, so that none runs during its finalisation.
@atexit.register
def _finish_callbacks():
    if _core.pending_callbacks() > 0:
        _core.finish_callbacks()


class Event(_core.Event):
    """A CUDA event (cuda.event()): record(stream), synchronize(),
    elapsed_time(other) in milliseconds."""

    __slots__ = ("__weakref__",)


def stream():
    """A new stream."""
    return Stream()


_default_stream = None


def default_stream():
    """The default stream, handle 0 (the legacy default stream, unless the
    program was built for per-thread default streams)."""
    global _default_stream
    if _default_stream is None:
        _default_stream = Stream(default=True)
    return _default_stream


def legacy_default_stream():
    """The legacy default stream (CU_STREAM_LEGACY, handle 1): it waits
    for, and makes wait, the work of every blocking stream."""
    return Stream(handle=1)


def per_thread_default_stream():
    """The calling thread's default stream (CU_STREAM_PER_THREAD, handle 2)."""
    return Stream(handle=2)


def external_stream(ptr):
    """A Stream for a CUstream made by another library (CuPy's
    stream.ptr, PyTorch's stream.cuda_stream): kernels and copies can be
    issued on it; ptxjit never destroys it, so it must outlive its use.
    On the simulator, where work is done when issued, it is a token."""
    if not isinstance(ptr, int) or isinstance(ptr, bool):
        raise TypeError("ptr for external stream must be an int, not %s" % type(ptr).__name__)
    if ptr < 0:
        raise ValueError("external_stream: %d is not a CUstream (a non-negative pointer)" % ptr)
    return Stream(handle=ptr, external=True)


def event(timing=True):
    """A new event; timing=True lets elapsed_time() measure between two."""
    return Event(timing=timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events."""
    return evtstart.elapsed_time(evtend)


def profile_start():
    pass


def profile_stop():
    pass


@contextlib.contextmanager
def profiling():
    yield


@contextlib.contextmanager
def defer_cleanup():
    yield

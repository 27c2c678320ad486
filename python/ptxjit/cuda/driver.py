"""Names of Numba's numba.cuda.cudadrv.driver that programs import: the
driver's exceptions, Stream, Event, Device and Context, `driver`, the
loaded driver (is_available, get_version()), the memory classes
(MemoryPointer, AutoFreePointer, MappedMemory, PinnedMemory), and the
copies and memsets of raw device memory (device_to_host, host_to_device,
device_to_device, device_memset, device_memory_size).

ptxjit opens the driver itself (src/rt/driver.c, with dlopen): there are
no driver entry points to call from Python here, and nvJitLink, which
Numba's link-time optimisation uses, is never used (_have_nvjitlink()).
"""

from .. import _core
from ..errors import CudaAPIError, CudaDriverError, CudaSupportError  # noqa: F401
from .api import Context, Device, Event, Stream  # noqa: F401
from .emm import AutoFreePointer, MappedMemory, MemoryPointer, PinnedMemory  # noqa: F401


class Driver:
    """The CUDA driver: `driver.is_available`, `driver.get_version()`,
    `driver.get_device_count()`."""

    @property
    def is_available(self):
        return not _core.is_simulator() and _core.available()

    def get_version(self):
        """The driver's CUDA version as (major, minor), e.g. (12, 4); (0, 0)
        on the simulator, which uses no driver."""
        v = _core.device_info()["driver_version"]
        return (v // 1000, v % 1000 // 10)

    def get_device_count(self):
        """The number of devices (len(cuda.gpus)): the simulator's one on
        the simulator, 0 without a driver."""
        from .api import gpus
        return len(gpus)

    def cuMemGetInfo(self):
        """(free, total) bytes of the current device, as the driver's
        cuMemGetInfo says them, whatever memory manager is in use."""
        return tuple(_core.mem_info())


driver = Driver()


def _have_nvjitlink():
    """False: ptxjit links with the driver, never with nvJitLink."""
    return False


# ------------------------------------------- copies between raw addresses

def _device_view(mem, size, what):
    """A uint8 DeviceNDArray over size bytes of device memory `mem`: a
    MemoryPointer (DeviceNDArray.gpu_data, an opened IPC handle's, a
    memory manager's), whose owner keeps the memory alive, an array with
    the CUDA array interface (a device array, a mapped or managed array),
    or an address (an int or a ctypes pointer).  On the simulator an
    address must lie in memory the simulator allocated."""
    import numpy as np
    from .devicearray import DeviceNDArray
    array = hasattr(mem, "__cuda_array_interface__") and not hasattr(mem, "device_pointer")
    if array:           # a device array, or a mapped or managed one (host memory on the simulator)
        ptr = mem.__cuda_array_interface__["data"][0]
    else:
        ptr = getattr(mem, "device_pointer", mem)
        ptr = int(getattr(ptr, "value", ptr) or 0)
    size = int(size)
    if size < 0:
        raise ValueError("%s: size is %d bytes; it must not be negative" % (what, size))
    span = getattr(mem, "nbytes", None) if hasattr(mem, "__cuda_array_interface__") else getattr(mem, "size", None)
    if span is not None and size > int(span):
        raise ValueError("%s: %d bytes do not fit the %d bytes of %r" % (what, size, int(span), mem))
    owner = mem if array else getattr(mem, "owner", None)
    ours = _core.is_simulator() and owner is not None and not isinstance(owner, DeviceNDArray)
    d = DeviceNDArray._view(owner if owner is not None else mem, ptr, (size,), None, np.dtype(np.uint8),
                            host=ours)
    if _core.is_simulator() and d._foreign:
        raise TypeError("%s: the simulator (PTXJIT_SIM=1) cannot use device address 0x%x, which it did not "
                        "allocate" % (what, ptr))
    return d


def _host_bytes(h, size, what):
    import numpy as np
    a = np.asarray(h)
    if not a.flags.c_contiguous:
        raise ValueError("%s: the host array must be C-contiguous" % what)
    b = a.reshape(-1).view(np.uint8)
    if size > b.size:
        raise ValueError("%s: %d bytes do not fit the host array's %d" % (what, size, b.size))
    return b[:size]


def device_to_host(dst, src, size, stream=0):
    """Copies size bytes of device memory src (a MemoryPointer or an
    address) into the host array dst (Numba's driver.device_to_host)."""
    if size:
        _device_view(src, size, "device_to_host").copy_to_host(_host_bytes(dst, size, "device_to_host"),
                                                               stream=stream)


def host_to_device(dst, src, size, stream=0):
    """Copies size bytes of the host array src into device memory dst."""
    if size:
        _device_view(dst, size, "host_to_device").copy_to_device(_host_bytes(src, size, "host_to_device"),
                                                                 stream=stream)


def device_to_device(dst, src, size, stream=0):
    """Copies size bytes between two pieces of device memory."""
    if size:
        _device_view(dst, size, "device_to_device").copy_to_device(_device_view(src, size, "device_to_device"),
                                                                   stream=stream)


def device_memset(dst, val, size, stream=0):
    """Sets size bytes of device memory dst (a MemoryPointer or an
    address) to the byte val (Numba's driver.device_memset); done when
    this returns (stream 0: synchronous, as in Numba; with a stream, that
    stream is synchronised)."""
    if size:
        _device_view(dst, size, "device_memset")._memset(int(val) & 0xFF)
        if stream:
            stream.synchronize()
        else:
            from .api import synchronize
            synchronize()


def device_memory_size(devmem):
    """The bytes of device memory devmem spans: a MemoryPointer's size, a
    device array's allocation, a mapped or managed array's bytes."""
    for attr in ("_cuda_memsize_", "alloc_size"):
        n = getattr(devmem, attr, None)
        if n is not None:
            return int(n)
    return int(devmem.nbytes)


def is_device_memory(obj):
    """Whether obj is device memory as Numba marks it (__cuda_memory__):
    a MemoryPointer or a device array."""
    return getattr(obj, "__cuda_memory__", False)


def require_device_memory(obj):
    if not is_device_memory(obj):
        raise Exception("Not a CUDA memory object.")


def host_memory_extents(obj):
    """(start, end): the host addresses obj's buffer spans, end excluded
    (a NumPy array of any strides, or anything with the buffer protocol)."""
    import numpy as np
    a = obj if isinstance(obj, np.ndarray) else np.frombuffer(memoryview(obj).cast("B"), np.uint8)
    lo, hi = np.lib.array_utils.byte_bounds(a) if hasattr(np.lib, "array_utils") else np.byte_bounds(a)
    return lo, hi


def host_memory_size(obj):
    """The bytes obj's host buffer spans."""
    lo, hi = host_memory_extents(obj)
    return hi - lo


def device_pointer(obj):
    """The device address of a MemoryPointer, a device array or an array
    with the CUDA array interface, as an int."""
    if hasattr(obj, "device_pointer"):
        return int(getattr(obj.device_pointer, "value", obj.device_pointer) or 0)
    return int(obj.__cuda_array_interface__["data"][0])

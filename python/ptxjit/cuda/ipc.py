"""Device memory shared between processes (CUDA IPC), with Numba's API.

    h = darr.get_ipc_handle()          # picklable; send it to another process
    with h as arr:                     # there: a DeviceNDArray on the same memory
        ...
    with cuda.open_ipc_array(handle_bytes, shape, dtype, strides, offset) as arr:

On the GPU a handle holds cuIpcGetMemHandle's 64 bytes for the allocation
under the array, and the array's offset in it; the other process opens it
with cuIpcOpenMemHandle (a process cannot open its own handles, as with the
driver).  The exporting process must keep the array alive while others use
it.

On the simulator, device memory is host memory, each allocator block its
own mapping: exporting moves the block's pages onto a memfd in place (the
same bytes, now shared; src/rt/mem.c rt_sim_share) and the handle names
the file as /proc/PID/fd/FD, which the other process maps.  The block
stays shared until it is freed (a process forked afterwards shares it
too).

Closing a handle (close(), the end of a `with`) lets go of the memory when
the last array on it is gone, so an array kept past close() never points
at unmapped memory.
"""

import ctypes
import mmap
import os
import struct

import numpy as np

from .. import _core
from .devicearray import DeviceNDArray, check_dtype, shape_tuple

HANDLE_BYTES = 64


_SIM_MAGIC = b"ptxjit-sim-ipc\0\0"
_SIM_FORMAT = "<16sqqq"          # magic, pid, fd, mapped bytes


def refuse_on_simulator():
    """For an EMM plugin's pointer, whose memory the simulator cannot vouch for."""
    if _sim():
        raise NotImplementedError("a memory manager's get_ipc_handle is not simulated; use the device array's "
                                  "get_ipc_handle()")


def _sim():
    return _core.is_simulator()


# ------------------------------------------------------ the simulator

class _SimOpened:
    """Another simulator process's shared block, mapped here; unmapped
    when the last array on it is gone."""

    _map = _ref = None

    def __init__(self, pid, fd, size):
        path = "/proc/%d/fd/%d" % (pid, fd)
        try:
            f = os.open(path, os.O_RDWR)
        except OSError as e:
            raise ValueError("cannot open the IPC handle: the simulated device memory of process %d (%s) is gone "
                             "(%s); the exporting process must keep running and keep the array"
                             % (pid, path, e.strerror)) from None
        try:
            self._map = mmap.mmap(f, size)
        finally:
            os.close(f)
        self._ref = ctypes.c_char.from_buffer(self._map)
        self.ptr = ctypes.addressof(self._ref)

    def __del__(self):
        self._ref = None
        if self._map is not None:
            self._map.close()


# ---------------------------------------------------------------- GPU

class _GpuOpened:
    """Device memory of another process opened here; closed when the last
    array on it is gone."""

    ptr = 0

    def __init__(self, handle):
        self.ptr, self._gen = _core.ipc_open(handle)

    def __del__(self):
        if self.ptr:
            _core.ipc_close(self.ptr, self._gen)


# ------------------------------------------------------------- handles

class IpcMemHandle(bytes):
    """The 64 bytes of an IPC handle; `.reserved` is them too, as the
    driver's CUipcMemHandle names its field."""

    @property
    def reserved(self):
        return bytes(self)


def _handle_bytes(handle):
    """64 bytes from bytes, a ctypes array, a CUipcMemHandle (.reserved) or
    a sequence of ints."""
    if isinstance(handle, IpcMemHandle):
        return handle
    if isinstance(handle, (bytes, bytearray, memoryview)):
        b = bytes(handle)
    elif isinstance(handle, ctypes.Array):
        b = ctypes.string_at(ctypes.addressof(handle), ctypes.sizeof(handle))
    elif hasattr(handle, "reserved"):
        return _handle_bytes(handle.reserved)
    else:
        b = bytes(int(x) & 0xFF for x in handle)
    if len(b) != HANDLE_BYTES:
        raise ValueError("an IPC handle is %d bytes, not %d" % (HANDLE_BYTES, len(b)))
    return IpcMemHandle(b)


def _extent(shape, strides, itemsize):
    """(lo, hi): the bytes an array of this geometry spans around element 0."""
    lo, hi = 0, itemsize
    for n, st in zip(shape, strides):
        if n == 0:
            return 0, 0
        if st < 0:
            lo += (n - 1) * st
        else:
            hi += (n - 1) * st
    return lo, hi


class IpcHandle:
    """The IPC handle of device memory (Numba's cudadrv.driver.IpcHandle):
    `base` the exporter's memory (kept alive, not pickled), `handle` the
    64 bytes, `offset` where the memory starts in the allocation the
    handle names, `size` the bytes it shares from there.  Pickles; open()
    it in another process."""

    def __init__(self, base, handle, size, source_info=None, offset=0):
        self.base = base
        self.handle = _handle_bytes(handle)
        self.size = int(size)
        self.source_info = source_info
        self.offset = int(offset)
        self._opened = None

    def __reduce__(self):
        return (IpcHandle, (None, bytes(self.handle), self.size, self.source_info, self.offset))

    def _open_memory(self):
        if self._opened is not None:
            raise ValueError("IpcHandle is already opened")
        if self.handle.startswith(_SIM_MAGIC):
            _, pid, fd, size = struct.unpack_from(_SIM_FORMAT, self.handle)
            if not _sim():
                raise ValueError("this IPC handle comes from a simulator process (PTXJIT_SIM=1); a GPU process "
                                 "cannot open it")
            if pid == os.getpid():
                raise ValueError("an IPC handle cannot be opened in the process that made it; use the array")
            self._opened = _SimOpened(pid, fd, size)
        else:
            if _sim():
                raise ValueError("the simulator (PTXJIT_SIM=1) cannot open the IPC handle of GPU memory")
            self._opened = _GpuOpened(self.handle)
        return self._opened

    def open(self, context=None):
        """Opens the memory: a MemoryPointer to its start."""
        from .emm import MemoryPointer
        mem = self._open_memory()
        return MemoryPointer(context, mem.ptr + self.offset, self.size, owner=mem)

    def open_staged(self, context=None):
        """Opens the memory as open() does (Numba's staged IPC copies it
        through the host to another device; ptxjit opens it where it is
        used): a MemoryPointer."""
        return self.open(context)

    def open_array(self, context, shape, dtype, strides=None):
        """Opens the memory as a DeviceNDArray of this shape and dtype."""
        shape = shape_tuple(shape)
        dtype = check_dtype(dtype)
        strides = tuple(strides) if strides is not None else None
        if strides is None:
            lo, hi = 0, dtype.itemsize * int(np.prod(shape, dtype=np.int64))
        else:
            lo, hi = _extent(shape, strides, dtype.itemsize)
        if hi > self.size or self.offset + lo < 0:
            raise ValueError("open_ipc_array: an array of %d bytes does not fit the %d bytes the handle shares"
                             % (hi - lo, self.size))
        mem = self._open_memory()
        return DeviceNDArray._view(mem, mem.ptr + self.offset, shape, strides, dtype, host=True)

    def close(self):
        """Lets go of the opened memory (unmapped once no array uses it)."""
        self._opened = None

    def __repr__(self):
        return "<IpcHandle size=%d offset=%d>" % (self.size, self.offset)


class IpcArrayHandle:
    """darr.get_ipc_handle(): an IpcHandle and the array's shape, strides
    and dtype.  open() (or `with h as arr`) gives a DeviceNDArray on the
    same memory in another process; close() lets go of it."""

    def __init__(self, ipc_handle, array_desc):
        self._ipc_handle = ipc_handle
        self._array_desc = array_desc

    @property
    def ipc_handle(self):
        return self._ipc_handle

    def open(self):
        d = self._array_desc
        return self._ipc_handle.open_array(None, d["shape"], d["dtype"], d["strides"])

    def close(self):
        self._ipc_handle.close()

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()
        return False


def share(ptr, lo, hi, base=None):
    """An IpcHandle of the memory [ptr + lo, ptr + hi) (element 0 at ptr),
    sharing hi bytes from ptr: its allocation's on the GPU, its simulator
    block on the simulator."""
    if hi <= lo:
        raise ValueError("get_ipc_handle: the array has no elements to share")
    if _sim():
        fd, start, size = _core.sim_share(ptr + lo, hi - lo)
        handle = struct.pack(_SIM_FORMAT, _SIM_MAGIC, os.getpid(), fd, size).ljust(HANDLE_BYTES, b"\0")
    else:
        handle, start, _ = _core.ipc_get(ptr)
    return IpcHandle(base, handle, hi, None, ptr - start)


def get_ipc_handle(darr):
    """The IpcArrayHandle of a device array (DeviceNDArray.get_ipc_handle)."""
    lo, hi = darr._span()
    desc = {"shape": darr.shape, "strides": darr.strides, "dtype": darr.dtype}
    return IpcArrayHandle(share(darr._ptr, lo, hi, darr), desc)


def memory_ipc_handle(memory):
    """Context.get_ipc_handle(memory): the IpcHandle of a MemoryPointer
    (darr.gpu_data, or a memory manager's), sharing its size bytes."""
    from . import emm
    if emm.memory_manager() is not None:
        return emm.memory_manager().get_ipc_handle(memory)
    ptr = memory.device_pointer.value or 0
    return share(ptr, 0, int(memory.size), memory)


class _OpenIpcArray:
    def __init__(self, handle, shape, dtype, strides, offset):
        self._h = IpcHandle(None, handle, 0, None, offset)
        self._args = (shape, dtype, strides)

    def __enter__(self):
        shape, dtype, strides = self._args
        h = self._h
        dtype = check_dtype(dtype)
        if h.handle.startswith(_SIM_MAGIC):
            h.size = struct.unpack_from(_SIM_FORMAT, h.handle)[3] - h.offset
        else:
            h.size = dtype.itemsize * int(np.prod(shape_tuple(shape), dtype=np.int64))
        return h.open_array(None, shape, dtype, strides)

    def __exit__(self, *exc):
        self._h.close()
        return False


def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """with cuda.open_ipc_array(handle, shape, dtype, strides, offset) as arr:
    a DeviceNDArray on the memory of another process's IPC handle (its 64
    bytes: IpcHandle.handle, or a cudaIpcMemHandle_t of another library)."""
    return _OpenIpcArray(handle, shape, dtype, strides, offset)

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

The simulator makes no IPC handles: its device memory is the process's
own heap, which another process cannot map safely.

Closing a handle (close(), the end of a `with`) lets go of the memory when
the last array on it is gone, so an array kept past close() never points
at unmapped memory.
"""

import ctypes

import numpy as np

from .. import _core
from .devicearray import DeviceNDArray, check_dtype, shape_tuple

HANDLE_BYTES = 64


def refuse_on_simulator():
    if _sim():
        raise NotImplementedError("IPC handles are not simulated: the simulator's device memory is its process's "
                                  "own heap; share the data through the host (multiprocessing.shared_memory) or "
                                  "run on the GPU")


def _sim():
    return _core.is_simulator()


# ---------------------------------------------------------------- GPU

class _GpuOpened:
    """Device memory of another process opened here; closed when the last
    array on it is gone."""

    def __init__(self, handle):
        self.ptr, self._gen = _core.ipc_open(handle)

    def __del__(self):
        _core.ipc_close(self.ptr, self._gen)


# ------------------------------------------------------------- handles

def _handle_bytes(handle):
    """64 bytes from bytes, a ctypes array or a sequence of ints."""
    if isinstance(handle, (bytes, bytearray, memoryview)):
        b = bytes(handle)
    elif isinstance(handle, ctypes.Array):
        b = ctypes.string_at(ctypes.addressof(handle), ctypes.sizeof(handle))
    else:
        b = bytes(int(x) & 0xFF for x in handle)
    if len(b) != HANDLE_BYTES:
        raise ValueError("an IPC handle is %d bytes, not %d" % (HANDLE_BYTES, len(b)))
    return b


class IpcHandle:
    """The IPC handle of device memory (Numba's cudadrv.driver.IpcHandle):
    `base` the exporter's memory (kept alive, not pickled), `handle` the
    64 bytes, `size` the allocation's size, `offset` where the array
    starts in it.  Pickles; open() it in another process."""

    def __init__(self, base, handle, size, source_info=None, offset=0):
        self.base = base
        self.handle = _handle_bytes(handle)
        self.size = int(size)
        self.source_info = source_info
        self.offset = int(offset)
        self._opened = None

    def __reduce__(self):
        return (IpcHandle, (None, self.handle, self.size, self.source_info, self.offset))

    def _open_memory(self):
        if self._opened is not None:
            raise ValueError("IpcHandle is already opened")
        refuse_on_simulator()
        self._opened = _GpuOpened(self.handle)
        return self._opened

    def open(self, context=None):
        """Opens the memory: a MemoryPointer to the array's start."""
        from .emm import MemoryPointer
        mem = self._open_memory()
        return MemoryPointer(context, mem.ptr + self.offset, self.size - self.offset, owner=mem)

    def open_array(self, context, shape, dtype, strides=None):
        """Opens the memory as a DeviceNDArray of this shape and dtype."""
        shape = shape_tuple(shape)
        dtype = check_dtype(dtype)
        strides = tuple(strides) if strides is not None else None
        nbytes = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
        if self.offset + nbytes > self.size:
            raise ValueError("open_ipc_array: %d bytes at offset %d do not fit the %d bytes the handle shares"
                             % (nbytes, self.offset, self.size))
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


def get_ipc_handle(darr):
    """The IpcArrayHandle of a device array (DeviceNDArray.get_ipc_handle)."""
    lo, hi = darr._span()
    if hi <= lo:
        raise ValueError("get_ipc_handle: the array has no elements to share")
    refuse_on_simulator()
    handle, base, size = _core.ipc_get(darr._ptr)
    desc = {"shape": darr.shape, "strides": darr.strides, "dtype": darr.dtype}
    return IpcArrayHandle(IpcHandle(darr, handle, size, None, darr._ptr - base), desc)


class _OpenIpcArray:
    def __init__(self, handle, shape, dtype, strides, offset):
        self._h = IpcHandle(None, handle, 0, None, offset)
        self._args = (shape, dtype, strides)

    def __enter__(self):
        shape, dtype, strides = self._args
        h = self._h
        dtype = check_dtype(dtype)
        h.size = h.offset + dtype.itemsize * int(np.prod(shape_tuple(shape), dtype=np.int64))
        return h.open_array(None, shape, dtype, strides)

    def __exit__(self, *exc):
        self._h.close()
        return False


def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """with cuda.open_ipc_array(handle, shape, dtype, strides, offset) as arr:
    a DeviceNDArray on the memory of another process's IPC handle (its 64
    bytes: IpcHandle.handle, or a cudaIpcMemHandle_t of another library)."""
    return _OpenIpcArray(handle, shape, dtype, strides, offset)

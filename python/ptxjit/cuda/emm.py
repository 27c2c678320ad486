"""External memory managers (EMM): Numba's plugin interface, under the
names plugins import (RAPIDS RMM's numba allocator among them).

    cuda.set_memory_manager(MyManager)      # or NUMBA_CUDA_MEMORY_MANAGER=module

A manager is a class deriving from BaseCUDAMemoryManager (usually with
HostOnlyCUDAMemoryManager and GetIpcHandleMixin) whose memalloc(size)
returns a MemoryPointer; device arrays (cuda.device_array, to_device,
device_array_like, and the copies a launch makes of NumPy arguments) then
take their memory from it, and give it back through the pointer's
finalizer when they are collected.  Without a manager the runtime's
caching allocator serves them from C, and nothing here runs.

NumbaCUDAMemoryManager is the built-in allocator seen through the same
interface, so that a plugin can allocate "the default way" underneath.
"""

import contextlib
import ctypes
import weakref

import numpy as np

from .. import _core
from .api import MemoryInfo  # noqa: F401  (Numba's name)

_INTERFACE_VERSION = 1


def _address(p):
    """An int from an int, a ctypes pointer or integer, a CUdeviceptr of
    NVIDIA's cuda.bindings (what Numba's own MemoryPointer holds), or None."""
    if p is None:
        return 0
    if isinstance(p, int):
        return p
    if isinstance(p, (ctypes._SimpleCData, ctypes._Pointer)):
        return int(p.value or 0)
    try:
        return int(p)
    except TypeError:
        return int(getattr(p, "value", 0) or 0)


class DevicePtr(int):
    """A device address, as the int it is and with .value (what code
    written for a ctypes pointer or a cuda.bindings CUdeviceptr reads)."""

    @property
    def value(self):
        return int(self)


class MemoryPointer:
    """Device memory a manager hands out: `context`, `device_pointer` and
    `handle` (a DevicePtr: int() or .value is the address), `size`;
    `finalizer` (no arguments) runs when the pointer is collected or
    free()d, `owner` is kept alive with it.  view(start, stop) is a
    pointer into it; `refct` counts the pointer and its live views."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        self.context = context
        self.device_pointer = DevicePtr(_address(pointer))
        self.size = self._cuda_memsize_ = int(size)
        self.is_managed = finalizer is not None
        self.handle = self.device_pointer
        self._owner = owner
        self.refct = 1
        self._finalizer = weakref.finalize(self, finalizer) if finalizer is not None else None

    @property
    def owner(self):
        return self if self._owner is None else self._owner

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_size_t(int(self.device_pointer))

    def view(self, start, stop=None):
        """A MemoryPointer to bytes [start, stop) of this memory, which it
        keeps alive (the owner's refct counts it while it lives)."""
        stop = self.size if stop is None else stop
        if not 0 <= start <= stop <= self.size:
            raise IndexError("view(%d, %d) of %d bytes of device memory" % (start, stop, self.size))
        base = self._owner if isinstance(self._owner, MemoryPointer) else self
        v = MemoryPointer(self.context, int(self.device_pointer) + start, stop - start, owner=base)
        base.refct += 1
        weakref.finalize(v, MemoryPointer._unref, base)
        return v

    @staticmethod
    def _unref(base):
        base.refct -= 1

    @property
    def device_pointer_value(self):
        return self.device_pointer.value or None

    def free(self):
        """Gives the memory back now."""
        if self._finalizer is not None:
            self._finalizer()

    def own(self):
        return self

    def __repr__(self):
        return "<MemoryPointer 0x%x, %d bytes>" % (self.device_pointer.value or 0, self.size)


class AutoFreePointer(MemoryPointer):
    """Numba's name for a MemoryPointer freed when it is collected."""


class MappedMemory(MemoryPointer, _core.HostMemory):
    """Host memory at `pointer` mapped into the device; device_pointer is
    where kernels reach it.  A buffer of its bytes, as Numba's
    (np.ndarray(n, np.uint8, buffer=mem))."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        self.host_pointer = DevicePtr(_address(pointer))
        dev = _address(pointer) if _core.is_simulator() else None
        super().__init__(context, dev, size, owner, finalizer)
        self._buflen_ = self.size
        self._bufptr_ = self.host_pointer.value
        self.handle = self.host_pointer

    def _set_device_pointer(self, dev):
        self.device_pointer = DevicePtr(dev)


class PinnedMemory(MemoryPointer, _core.HostMemory):
    """Page-locked host memory at `pointer` (no device address); a buffer
    of its bytes, as MappedMemory is."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None):
        self.host_pointer = DevicePtr(_address(pointer))
        super().__init__(context, None, size, owner, finalizer)
        self._buflen_ = self.size
        self._bufptr_ = self.host_pointer.value
        self.handle = self.host_pointer


class BaseCUDAMemoryManager:
    """The interface of a memory manager (Numba's): a subclass implements
    memalloc, memhostalloc, mempin, initialize, get_ipc_handle,
    get_memory_info, reset, defer_cleanup and interface_version."""

    def __init__(self, *args, **kwargs):
        if "context" not in kwargs:
            raise RuntimeError("Memory manager requires a context")
        self.context = kwargs.pop("context")

    def memalloc(self, size):
        raise NotImplementedError

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        raise NotImplementedError

    def mempin(self, owner, pointer, size, mapped=False):
        raise NotImplementedError

    def initialize(self):
        raise NotImplementedError

    def get_ipc_handle(self, memory):
        raise NotImplementedError

    def get_memory_info(self):
        raise NotImplementedError

    def reset(self):
        raise NotImplementedError

    def defer_cleanup(self):
        raise NotImplementedError

    @property
    def interface_version(self):
        raise NotImplementedError


class HostOnlyCUDAMemoryManager(BaseCUDAMemoryManager):
    """A base whose host memory (pinned and mapped) comes from ptxjit:
    a plugin for device memory derives from it and adds memalloc."""

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        buf = _core.HostBuffer(int(size), 1 if mapped else 0)
        cls = MappedMemory if mapped else PinnedMemory
        mem = cls(self.context, buf.ptr, size, owner=buf)
        if mapped:
            mem._set_device_pointer(buf.device_ptr)
        return mem

    def memallocmanaged(self, size, attach_global=True):
        """Managed (unified) memory, at the same address for the host and
        the device (CU_MEM_ATTACH_HOST when attach_global is false)."""
        buf = _core.HostBuffer(int(size), 2, attach_global=bool(attach_global))
        return MemoryPointer(self.context, buf.device_ptr, size, owner=buf)

    def mempin(self, owner, pointer, size, mapped=False):
        a = np.ctypeslib.as_array((ctypes.c_ubyte * int(size)).from_address(_address(pointer)))
        if mapped:
            dev = _core.map_host(a)
        else:
            _core.register_host(a)
        fin = (lambda a=a: _core.unregister_host(a))
        cls = MappedMemory if mapped else PinnedMemory
        mem = cls(self.context, pointer, size, owner=owner, finalizer=fin)
        if mapped:
            mem._set_device_pointer(dev)
        return mem

    def reset(self):
        _core.close()

    @contextlib.contextmanager
    def defer_cleanup(self):
        yield


class IpcHandle:
    """Numba's cudadrv.driver.IpcHandle (see ptxjit/cuda/ipc.py)."""

    def __new__(cls, *args, **kwargs):
        from .ipc import IpcHandle as _IpcHandle
        return _IpcHandle(*args, **kwargs)


class GetIpcHandleMixin:
    """get_ipc_handle(memory) for managers whose memory the driver's IPC
    can share (cuIpcGetMemHandle of the allocation)."""

    def get_ipc_handle(self, memory):
        from .ipc import IpcHandle as _IpcHandle
        ptr = memory.device_pointer.value
        from .ipc import refuse_on_simulator
        refuse_on_simulator()
        handle, base, _ = _core.ipc_get(ptr)
        return _IpcHandle(memory, handle, memory.size, None, ptr - base)


class _Deallocations:
    """Numba's pending deallocations, as ptxjit's caching allocator has
    them: the blocks that device arrays freed and that the allocator keeps
    for reuse instead of giving them back to the driver at once.  len() is
    their number; clear() gives them all back (cuMemFree)."""

    def __len__(self):
        return _core.mem_stats()["cached_blocks"]

    def clear(self):
        _core.trim()


class NumbaCUDAMemoryManager(GetIpcHandleMixin, HostOnlyCUDAMemoryManager):
    """ptxjit's own allocator (the caching allocator) as a memory manager."""

    deallocations = _Deallocations()

    def initialize(self):
        pass

    def memalloc(self, size):
        from .devicearray import DeviceNDArray
        size = int(size)
        block = DeviceNDArray((size,), None, np.dtype(np.uint8))
        return MemoryPointer(self.context, block._ptr, size, owner=block)

    def get_memory_info(self):
        return MemoryInfo(*_core.mem_info())

    @property
    def interface_version(self):
        return _INTERFACE_VERSION


# ------------------------------------------------------ the manager in use

_manager = None                  # an instance, or None: the built-in path


def memory_manager():
    """The manager in use, or None when device arrays come from the
    built-in allocator."""
    return _manager


_builtin = None


def context_memory_manager(context):
    """What Context.memory_manager is: the plugin in use, else the built-in
    allocator seen through the plugin interface (NumbaCUDAMemoryManager)."""
    global _builtin
    if _manager is not None:
        return _manager
    if _builtin is None:
        _builtin = NumbaCUDAMemoryManager(context=context)
    return _builtin


def set_memory_manager(mm_plugin):
    """Device arrays take their memory from instances of this class
    (a BaseCUDAMemoryManager subclass) from now on; None, or
    NumbaCUDAMemoryManager, goes back to the built-in allocator."""
    if mm_plugin is None or mm_plugin is NumbaCUDAMemoryManager:
        return use_manager(None)
    if not _is_plugin(mm_plugin):
        raise TypeError("cuda.set_memory_manager takes a subclass of BaseCUDAMemoryManager, not %r" % (mm_plugin,))
    from .api import current_context
    use_manager(mm_plugin(context=current_context()))


def use_manager(mgr):
    """Device arrays take their memory from the plugin instance mgr (None
    or the built-in manager: the built-in allocator) from now on."""
    global _manager
    from . import devicearray
    if mgr is None or mgr is _builtin or type(mgr) is NumbaCUDAMemoryManager:
        _manager = None
        devicearray.alloc_hook = None
        _install_launch_hook(False)
        return
    version = mgr.interface_version
    if version != _INTERFACE_VERSION:
        raise RuntimeError("the memory manager %s has interface version %r: version %d required"
                           % (type(mgr).__name__, version, _INTERFACE_VERSION))
    mgr.initialize()
    _manager = mgr
    devicearray.alloc_hook = _new_device_array
    _install_launch_hook(True)


def _is_plugin(cls):
    """A class of ours or of numba-cuda's plugin interface: RAPIDS RMM's
    RMMNumbaManager derives from numba.cuda.HostOnlyCUDAMemoryManager, and
    its memalloc returns Numba's MemoryPointer, which is used as it is."""
    if not isinstance(cls, type):
        return False
    if issubclass(cls, BaseCUDAMemoryManager):
        return True
    return any(b.__name__ == "BaseCUDAMemoryManager" and b.__module__.startswith("numba")
               for b in cls.__mro__)


def _new_device_array(shape, strides, dtype):
    """A DeviceNDArray whose memory comes from the manager in use."""
    from .devicearray import DeviceNDArray
    n = dtype.itemsize
    for s in shape:
        n *= s
    if strides is not None and n:
        n = dtype.itemsize + sum((s - 1) * abs(st) for s, st in zip(shape, strides))
    if n == 0:
        return DeviceNDArray(shape, strides, dtype)
    mp = _manager.memalloc(n)
    return DeviceNDArray._view(mp, _address(mp.device_pointer), shape, strides, dtype, host=True)


# ------------------------------------------------------------ launches

def _install_launch_hook(on):
    """With a manager, launches copy NumPy arguments through device arrays
    of the manager's memory (in Python) instead of the C staging path."""
    from .dispatcher import CUDADispatcher
    if on:
        CUDADispatcher.__getitem__ = _managed_getitem
    elif "__getitem__" in CUDADispatcher.__dict__:
        del CUDADispatcher.__getitem__


def _managed_getitem(self, config):
    return _ManagedLauncher(_core.Dispatcher.__getitem__(self, config),
                            config[2] if isinstance(config, tuple) and len(config) > 2 else 0)


class _ManagedLauncher:
    __slots__ = ("_launch", "_stream")

    def __init__(self, launch, stream):
        self._launch, self._stream = launch, stream

    def __call__(self, *args):
        from .api import to_device, device_array_like
        from .args import ArgHint, In, Out
        back, vals = [], []
        for a in args:
            hint = type(a) if isinstance(a, ArgHint) else None
            host = a.value if hint else a
            if type(host) is np.ndarray or (isinstance(host, np.ndarray) and not _on_device(host)):
                if hint is Out:
                    d = device_array_like(host)
                else:
                    d = to_device(host)
                if hint is not In and host.flags.writeable:
                    back.append((d, host))
                a = d
            vals.append(a)
        result = self._launch(*vals)
        for d, host in back:
            d.copy_to_host(host)
        return result


def _on_device(a):
    """A mapped or managed array that kernels use in place."""
    return getattr(type(a), "_ptxjit_device_memory", False) and not _core.is_simulator() \
        and hasattr(a, "__cuda_array_interface__")

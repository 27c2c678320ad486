"""DLPack both ways: DeviceNDArray.__dlpack__ / __dlpack_device__, and
cuda.from_dlpack(x) for any object with __dlpack__ (PyTorch, CuPy, JAX,
NumPy on the simulator).  Neither way copies: the consumer's array and the
producer's share memory, and the producer's array lives as long as the
consumer's view.  The capsules themselves are built and read in C
(src/py/dlpack.c).

Devices.  On the GPU a device array is (kDLCUDA, its device_id); a
CUDA tensor of any device is taken, and the view belongs to that device.
On the simulator, device memory is host memory, so a device array says
(kDLCPU, 0): NumPy (np.from_dlpack) then takes it, and cuda.from_dlpack
takes CPU tensors.

copy=True gives the consumer a new device array (flagged IS_COPIED in a
versioned capsule); copy=False and None share the memory.

Streams (the array API's protocol).  `stream` names the consumer's stream:
None or 1 the legacy default stream, 2 the per-thread one, another int a
stream handle, -1 no ordering at all.  ptxjit does not record which stream
last wrote an array, so unless the consumer says -1, __dlpack__ waits for
all work on the device (cuda.synchronize()) before handing the memory over.
cuda.from_dlpack(x, stream=s) passes s (ptxjit's default stream, 1, when
not given) to x.__dlpack__, whose producer orders its own work before it.
"""

from .. import _core

kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13
_NAMES = {kDLCPU: "kDLCPU (host memory)", kDLCUDA: "kDLCUDA", kDLCUDAHost: "kDLCUDAHost (pinned host memory)",
          kDLCUDAManaged: "kDLCUDAManaged"}
MAX_VERSION = (1, 0)


def device_of(arr):
    return (kDLCPU, 0) if _core.is_simulator() else (kDLCUDA, arr.device_id)


def export(arr, stream=None, max_version=None, dl_device=None, copy=None):
    """DeviceNDArray.__dlpack__."""
    dev = device_of(arr)
    if dl_device is not None and tuple(dl_device) != dev:
        raise BufferError("__dlpack__(dl_device=%r): the device array lives on %r and ptxjit does not copy "
                          "between devices" % (tuple(dl_device), dev))
    if stream is not None:
        if isinstance(stream, bool) or not isinstance(stream, int):
            raise TypeError("__dlpack__(stream=...) takes an int (a stream handle, 1, 2 or -1) or None, not %r"
                            % (stream,))
        if stream == 0 and dev[0] == kDLCUDA:
            raise ValueError("__dlpack__(stream=0) is ambiguous for CUDA (the DLPack protocol disallows it): "
                             "pass 1 for the legacy default stream or 2 for the per-thread one")
    if dev[0] == kDLCUDA and stream != -1:
        _core.synchronize()
    if copy:                            # a new array, C- or F-ordered as arr is, for the consumer alone
        src = arr
        arr = type(src)._empty(src.shape, src.dtype, order="F" if src._layout == "F" else "C")
        arr.copy_to_device(src)
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _core.to_dlpack(arr, versioned, dev[0], dev[1], bool(copy))


def _stream_handle(stream):
    if stream is None:
        return 1                        # ptxjit's default stream is the legacy one
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream or 1              # 0: ptxjit's default stream, the legacy one
    handle = getattr(stream, "handle", None)
    if handle is None:
        raise TypeError("cuda.from_dlpack(stream=...) takes a cuda.stream(), a stream handle or None, not %r"
                        % (stream,))
    h = getattr(handle, "value", handle)
    return h if h else 1


def from_dlpack(x, stream=None):
    """A device array sharing x's memory (no copy), for any object with
    __dlpack__ and __dlpack_device__ (a tensor of PyTorch, CuPy, JAX, ...;
    a NumPy array on the simulator), or a DLPack capsule.  On the GPU the
    tensor must be in CUDA memory of device 0; on the simulator in host
    memory.  `stream` is where ptxjit will use it (default: the default
    stream); the producer orders its pending work before it."""
    from .devicearray import DeviceNDArray
    import numpy as np

    sim = _core.is_simulator()
    handle = _stream_handle(stream)
    if type(x).__name__ == "PyCapsule":
        cap = x
    else:
        if not hasattr(x, "__dlpack__"):
            raise TypeError("cuda.from_dlpack takes an object with __dlpack__ (a DLPack tensor), not %s"
                            % type(x).__name__)
        dev = getattr(x, "__dlpack_device__", None)
        dev = tuple(dev()) if dev is not None else None
        if dev is not None:
            _check_device(dev, sim)
        s = None if sim or (dev is not None and dev[0] != kDLCUDA) else handle
        try:
            cap = x.__dlpack__(stream=s, max_version=MAX_VERSION)
        except TypeError:               # a producer older than DLPack 1.0's protocol
            cap = x.__dlpack__(stream=s)
    ptr, shape, strides, typestr, dev, readonly, keeper = _core.from_dlpack(cap)
    _check_device(dev, sim)
    if readonly:
        raise BufferError("cuda.from_dlpack: the tensor is read-only (its DLPack flags say so) and device arrays "
                          "are writable; pass a writable tensor, or a copy")
    if sim or dev[1] == _core.current_device():
        return DeviceNDArray._view(keeper, ptr, shape, strides, np.dtype(typestr), host=sim)
    was = _core.current_device()
    _core.select_device(dev[1])         # the view belongs to the tensor's device
    try:
        return DeviceNDArray._view(keeper, ptr, shape, strides, np.dtype(typestr), host=sim)
    finally:
        _core.select_device(was)


def _check_device(dev, sim):
    kind, ident = dev
    name = _NAMES.get(kind, "DLPack device type %d" % kind)
    if sim:
        if kind not in (kDLCPU, kDLCUDAHost):
            raise BufferError("cuda.from_dlpack: the tensor is on %s; the simulator (PTXJIT_SIM=1) runs kernels on "
                              "host memory: pass a CPU tensor (x.cpu()), or copy it to a NumPy array" % name)
        return
    if kind not in (kDLCUDA, kDLCUDAManaged):
        raise BufferError("cuda.from_dlpack: the tensor is on %s; kernels take CUDA memory: move it to the GPU "
                          "first (x.cuda()), or copy it with cuda.to_device(numpy.from_dlpack(x))" % name)
    n = _core.device_count()
    if not 0 <= ident < n:
        raise BufferError("cuda.from_dlpack: the tensor is on CUDA device %d; the driver sees %d device%s"
                          % (ident, n, "" if n == 1 else "s"))

"""Host memory that kernels reach in place: mapped (zero-copy) and managed
(unified) arrays, with Numba's spellings.

cuda.mapped_array and cuda.managed_array return NumPy arrays (of the
classes MappedNDArray and ManagedNDArray) whose memory the device reaches
too; `with cuda.mapped(a, b) as (da, db):` maps existing NumPy arrays for
the block.  A kernel given such an array uses its memory where it is (the
launch copies nothing); its writes are in the array once the device is
synchronised (cuda.synchronize(), or the stream's synchronize).

Mapped memory is page-aligned host memory registered with DEVICEMAP
(cuMemHostRegister), so it stays valid host memory after cuda.close();
managed memory comes from cuMemAllocManaged and is gone with the context.
On the simulator both are host memory, and kernels see them as they see
NumPy arrays.
"""

import contextlib

import numpy as np

from .. import _core
from .devicearray import DeviceNDArray, _cai_stream, check_dtype, f_strides, like_layout, shape_tuple

_PINNED, _MAPPED, _MANAGED = 0, 1, 2


class _DeviceReachable(np.ndarray):
    """A NumPy array on memory the device reaches: its
    __cuda_array_interface__ gives the device address, and the launch path
    (src/py/argclass.c, which looks for _ptxjit_device_memory) passes it in
    place.  Views keep the buffer; an array on other memory (a copy, the
    result of arithmetic) has no device address and is copied as any
    NumPy array is."""

    _ptxjit_device_memory = True

    def __array_finalize__(self, obj):
        buf = getattr(obj, "_pj_buf", None)
        self._pj_buf = buf if buf is not None and self._inside(buf) else None

    def _inside(self, region):
        lo = self.__array_interface__["data"][0]
        return region.ptr <= lo and lo + self.nbytes <= region.ptr + region.nbytes

    @property
    def __cuda_array_interface__(self):
        buf = self.__dict__.get("_pj_buf")
        if buf is None:
            raise AttributeError("this array is not on mapped or managed memory (a copy, or a result "
                                 "of arithmetic)")
        host = self.__array_interface__["data"][0]
        return {
            "shape": self.shape,
            "strides": None if self.flags.c_contiguous else self.strides,
            "data": (buf.device_ptr + (host - buf.ptr), not self.flags.writeable),
            "typestr": self.dtype.str,
            "version": 3,
            "stream": _cai_stream(self.__dict__.get("_pj_stream", 0), None),
        }

    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_void_p(self.__cuda_array_interface__["data"][0] or None)

    def copy_to_host(self, ary=None, stream=0):
        """Numba's device-array method: the values as a plain NumPy array."""
        if ary is None:
            return np.array(self, copy=True).view(np.ndarray)
        ary[...] = self
        return ary

    def copy_to_device(self, ary, stream=0):
        self[...] = ary.copy_to_host() if isinstance(ary, DeviceNDArray) else ary


class MappedNDArray(_DeviceReachable):
    """cuda.mapped_array: host memory mapped into the device."""


class ManagedNDArray(_DeviceReachable):
    """cuda.managed_array: managed (unified) memory."""


def _host_array(cls, kind, shape, dtype, strides, order, what, **flags):
    shape = shape_tuple(shape)
    dtype = check_dtype(dtype)
    if any(n < 0 for n in shape):
        raise ValueError("%s: negative dimension in shape %s" % (what, shape))
    if order not in ("C", "F"):
        raise ValueError("%s: order must be 'C' or 'F', not %r" % (what, order))
    if strides is None and order == "F":
        strides = f_strides(shape, dtype.itemsize)
    nbytes = dtype.itemsize
    for n in shape:
        nbytes *= n
    if strides is not None:
        strides = tuple(strides)
        span = dtype.itemsize + sum((n - 1) * abs(s) for n, s in zip(shape, strides)) if nbytes else 0
        nbytes = max(nbytes, span)
    buf = _core.HostBuffer(nbytes, kind, **flags)
    a = np.ndarray(shape, dtype, buffer=buf, strides=strides, order=order).view(cls)
    a._pj_buf = _Region(buf.ptr, nbytes, buf.device_ptr, buf)
    return a


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A NumPy array in host memory mapped into the device (zero-copy):
    kernels read and write it in place, through the bus.  `portable` and
    `wc` (write-combined) are accepted for Numba's signature; the memory
    is always portable, never write-combined (see docs/differences.md)."""
    return _with_stream(_host_array(MappedNDArray, _MAPPED, shape, dtype, strides, order, "mapped_array"), stream)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped array of ary's shape and dtype, its layout as NumPy's
    zeros_like gives it (like_layout)."""
    strides, order = like_layout(ary)
    return mapped_array(ary.shape, ary.dtype, strides, order, stream, portable, wc)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """A NumPy array in managed (unified) memory, which the host and
    kernels use at the same address; attach_global=False attaches it to
    the host (CU_MEM_ATTACH_HOST).  Synchronise before the host reads what
    a kernel wrote."""
    return _with_stream(_host_array(ManagedNDArray, _MANAGED, shape, dtype, strides, order, "managed_array",
                                    attach_global=bool(attach_global)), stream)


def _with_stream(a, stream):
    """a, remembering the stream it was made with (the stream field of its
    CUDA array interface, as Numba gives it)."""
    if not (isinstance(stream, int) and stream == 0):
        a._pj_stream = stream
    return a


def _mapped_view(a):
    if not isinstance(a, np.ndarray):
        raise TypeError("cuda.mapped takes NumPy arrays, not %s" % type(a).__name__)
    if not (a.flags.c_contiguous or a.flags.f_contiguous) or not a.flags.writeable:
        raise ValueError("cuda.mapped needs writable contiguous NumPy arrays; copy it first "
                         "(numpy.ascontiguousarray)")
    return a


class _Region:
    """Host memory the device reaches: host address, size, device address,
    and the object that owns it."""

    __slots__ = ("ptr", "nbytes", "device_ptr", "owner")

    def __init__(self, ptr, nbytes, device_ptr, owner):
        self.ptr, self.nbytes, self.device_ptr, self.owner = ptr, nbytes, device_ptr, owner


@contextlib.contextmanager
def mapped(*arrays, **kws):
    """with cuda.mapped(a, b) as (da, db): the NumPy arrays' memory is
    mapped into the device inside the block; da and db are views of a and
    b that kernels use in place (one array gives one view, several a
    list, as in Numba).  After the block the views are plain host memory
    again: a launch copies them."""
    done, views = [], []
    try:
        for a in arrays:
            a = _mapped_view(a)
            dev = _core.map_host(a) if a.nbytes else 0
            if a.nbytes:
                done.append(a)
            v = a.view(MappedNDArray)
            v._pj_buf = _Region(a.__array_interface__["data"][0], a.nbytes, dev, a) if a.nbytes else None
            views.append(v)
        yield views[0] if len(views) == 1 else views
    finally:
        for a in done:
            _core.unregister_host(a)
        for v in views:
            v._pj_buf = None

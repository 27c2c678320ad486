"""DeviceNDArray: an array in GPU memory (host memory on the simulator).

The address, shape, strides and dtype live in the C base class
ptxjit._core.DeviceArray, where the launch path reads them; this class adds
what NumPy users expect: copies to and from the host, basic slicing to views,
`__cuda_array_interface__` (version 3), reshape, transpose.  Memory comes
from the runtime's caching allocator and goes back to it when the array (and
every view of it) is collected.
"""

import operator

import numpy as np

from .. import _core


def _cai_stream(stream, default):
    """The CUDA array interface's stream field: the handle of the stream an
    array was made with, which a consumer synchronises with before it reads
    the array, as Numba gives it; `default` for an array made without one."""
    if isinstance(stream, int) or stream is None:
        return default
    return int(stream.handle)


def _sim():
    return _core.is_simulator()


def shape_tuple(shape):
    """An int or a sequence of ints (a NumPy array of them too) as a tuple
    of ints (NumPy's rules)."""
    if isinstance(shape, tuple) and all(type(s) is int for s in shape):
        return shape
    try:
        return (operator.index(shape),)
    except TypeError:
        return tuple(operator.index(s) for s in shape)


def f_strides(shape, itemsize):
    strides, s = [], itemsize
    for n in shape:
        strides.append(s)
        s *= max(n, 1)
    return tuple(strides)


def like_layout(ary):
    """(strides, order) of a new contiguous array like ary, as NumPy's
    zeros_like (order 'K') and Numba's *_array_like make it: a C or F
    array keeps its order; a view of another layout gets contiguous
    strides in the order of its own (so a view of an F array is F).
    strides None means the order's own."""
    c, f = ary.flags["C_CONTIGUOUS"], ary.flags["F_CONTIGUOUS"]
    order = "F" if ary.ndim > 1 and f and not c else "C"
    if c or f or ary.ndim <= 1:
        return None, order
    strides, s = [0] * ary.ndim, ary.dtype.itemsize
    for axis in sorted(range(ary.ndim), key=lambda i: ary.strides[i]):
        strides[axis] = s
        s *= ary.shape[axis]
    return tuple(strides), order


def check_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype.hasobject:
        raise TypeError("device arrays cannot hold Python objects (dtype %s)" % dtype)
    return dtype


# Set by cuda.set_memory_manager (emm.py): allocates a DeviceNDArray of
# (shape, strides, dtype) from an external memory manager; None: ours.
alloc_hook = None


def new_device_array(shape, strides, dtype):
    """A new DeviceNDArray, from the memory manager in use."""
    if alloc_hook is not None:
        return alloc_hook(shape, strides, dtype)
    return DeviceNDArray(shape, strides, dtype)


_DevicePointer = None


def _device_pointer_type():
    """A ctypes c_void_p that int() also reads, as Numba's device pointers
    (int(a.gpu_data.device_pointer) is the address, for a pointer argument)."""
    global _DevicePointer
    if _DevicePointer is None:
        import ctypes

        class DevicePointer(ctypes.c_void_p):
            def __int__(self):
                return self.value or 0

            __index__ = __int__
        _DevicePointer = DevicePointer
    return _DevicePointer


class MemoryPointer:
    """DeviceNDArray.gpu_data: an address in device memory and the
    allocation that holds it (kept alive while this object lives)."""
    __slots__ = ("owner", "ptr", "size")

    def __init__(self, owner, ptr, size):
        self.owner, self.ptr, self.size = owner, ptr, size

    @property
    def device_pointer(self):
        return _device_pointer_type()(self.ptr or None)

    @property
    def device_pointer_value(self):
        return self.ptr or None

    def __eq__(self, other):
        return isinstance(other, MemoryPointer) and other.owner is self.owner and other.ptr == self.ptr

    def __hash__(self):
        return hash((id(self.owner), self.ptr))

    def __repr__(self):
        return "<MemoryPointer 0x%x, %d bytes>" % (self.ptr or 0, self.size)


class _Flags(dict):
    """DeviceNDArray.flags: a dict, read also as NumPy's flags are
    (.c_contiguous, .f_contiguous, .contiguous)."""

    @property
    def c_contiguous(self):
        return self["C_CONTIGUOUS"]

    @property
    def f_contiguous(self):
        return self["F_CONTIGUOUS"]

    contiguous = c_contiguous


class DeviceNDArray(_core.DeviceArray):
    """An array on the device.  Make one with cuda.to_device(ndarray),
    cuda.device_array(shape, dtype) or cuda.device_array_like(ndarray)."""

    __cuda_memory__ = True
    __slots__ = ("__weakref__", "_pj_stream")

    def __new__(cls, shape, strides, dtype, stream=0, gpu_data=None):
        """Numba's constructor: new device memory for an array of this shape,
        strides (None: C order) and dtype (anything numpy.dtype takes), or
        the memory of gpu_data (a MemoryPointer, Context.memalloc's)."""
        if strides is not None:
            strides = tuple(operator.index(s) for s in strides)
        shape, dtype = shape_tuple(shape), check_dtype(dtype)
        if gpu_data is not None:
            from .emm import _address
            a = cls._view(gpu_data, _address(gpu_data.device_pointer), shape, strides, dtype, host=True)
        else:
            a = _core.DeviceArray.__new__(cls, shape, strides, dtype)
        if stream:
            a._pj_stream = stream
        return a

    @property
    def _numba_type_(self):
        """The array type a kernel gives this array (layout 'C', 'F' or 'A'),
        under the attribute name Numba's typing reads."""
        from .. import types
        from ..types import from_dtype
        return types.Array(from_dtype(self.dtype), self.ndim, self._layout)

    def bind(self, stream=0):
        """A view of the whole array made with `stream` (Numba's bind)."""
        v = self[...]
        if stream:
            v._pj_stream = stream
        return v

    def __reduce__(self):
        # pickled as its contents, copied to the host now; unpickling
        # copies them to a new device array (of the same shape, dtype and
        # order; a non-contiguous view becomes contiguous)
        return (_unpickle_device_array, (self.copy_to_host(),))

    # ---- construction

    @classmethod
    def _empty(cls, shape, dtype=np.float64, strides=None, order="C"):
        shape = shape_tuple(shape)
        dtype = check_dtype(dtype)
        if strides is not None:
            strides = tuple(operator.index(s) for s in strides)
        elif order == "F":
            strides = f_strides(shape, dtype.itemsize)
        elif order != "C":
            raise ValueError("order must be 'C' or 'F', not %r" % (order,))
        if alloc_hook is not None and cls is DeviceNDArray:
            return alloc_hook(shape, strides, dtype)
        return cls(shape, strides, dtype)

    # ---- the array interface

    @property
    def __cuda_array_interface__(self):
        return {
            "shape": self.shape,
            "strides": None if self._layout == "C" else self.strides,
            "data": (self._ptr, False),
            "typestr": self.dtype.str,
            "version": 3,
            "stream": _cai_stream(self.stream, None),
        }

    def get_ipc_handle(self):
        """An IpcArrayHandle that another process opens to use this
        array's memory (see ptxjit/cuda/ipc.py); keep the array alive
        while they do."""
        from .ipc import get_ipc_handle
        return get_ipc_handle(self)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over this array's memory (no copy): see
        ptxjit/cuda/dlpack.py for devices and streams."""
        from .dlpack import export
        return export(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        """(kDLCUDA, device_id) on the GPU; (kDLCPU, 0) on the simulator,
        whose device memory is host memory."""
        from .dlpack import device_of
        return device_of(self)

    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_void_p(self._ptr or None)

    @property
    def gpu_data(self):
        """The memory the array starts at, as Numba's MemoryPointer:
        .device_pointer (a ctypes c_void_p) and .size (bytes from there: to
        the end of the allocation for the array that owns it, to the end of
        its last element for a view, as Numba's views of an allocation);
        equal for arrays that start at the same address of the same
        allocation (a view of another dtype)."""
        root = self
        while isinstance(root._owner, DeviceNDArray):
            root = root._owner
        if root is self and self._alloc_size:
            size = self._alloc_size
        else:
            size = max(self._span()[1], 0)
        return MemoryPointer(root, self._ptr, size)

    @property
    def alloc_size(self):
        return self._alloc_size

    @property
    def stream(self):
        """The stream the array was made with (device_array(..., stream=s),
        to_device(a, stream=s)), or 0."""
        return getattr(self, "_pj_stream", 0)

    def is_c_contiguous(self):
        return self._layout == "C"

    def is_f_contiguous(self):
        return self._layout == "F" or (self._layout == "C" and self.ndim <= 1)

    def _contiguous(self):
        return self._layout in "CF"

    @property
    def flags(self):
        """{'C_CONTIGUOUS': ..., 'F_CONTIGUOUS': ...} from the shape and
        strides, by NumPy's rule (an extent of 1 has any stride; an empty
        array is both), as Numba's DeviceNDArray.flags."""
        def contiguous(axes):
            if 0 in self.shape:
                return True
            want = self.itemsize
            for i in axes:
                if self.shape[i] != 1:
                    if self.strides[i] != want:
                        return False
                    want *= self.shape[i]
            return True
        n = len(self.shape)
        return _Flags(C_CONTIGUOUS=contiguous(range(n - 1, -1, -1)), F_CONTIGUOUS=contiguous(range(n)))

    def __repr__(self):
        return "<ptxjit.cuda.DeviceNDArray shape=%s dtype=%s%s>" % (
            self.shape, self.dtype, " (simulator)" if _sim() else "")

    # ---- copies

    def copy_to_host(self, ary=None, stream=0):
        """Copies the array to the host; into `ary` when given (same shape and
        dtype), else into a new NumPy array.  With a stream the copy is
        asynchronous: synchronise the stream before reading the result."""
        if ary is not None:
            if not isinstance(ary, np.ndarray):
                raise TypeError("copy_to_host(ary): ary must be a NumPy array, not %s" % type(ary).__name__)
            if ary.shape != self.shape or ary.dtype != self.dtype:
                raise ValueError("copy_to_host(ary): ary has shape %s and dtype %s; the device array has "
                                 "shape %s and dtype %s" % (ary.shape, ary.dtype, self.shape, self.dtype))
            if not ary.flags.writeable:
                raise ValueError("copy_to_host(ary): ary is read-only")
        same_layout = ary is not None and (
            (self._layout == "C" and ary.flags.c_contiguous) or
            (self._layout == "F" and ary.flags.f_contiguous))
        if self._contiguous():
            if ary is None:
                ary = np.empty(self.shape, self.dtype, order="F" if self._layout == "F" else "C")
                same_layout = True
            if same_layout:
                if ary.size:
                    self._dtoh(ary, 0, _stream(stream))
                return ary
            _refuse_in_capture("copy_to_host into an array of another layout")
            tmp = np.empty(self.shape, self.dtype, order="F" if self._layout == "F" else "C")
            if tmp.size:
                self._dtoh(tmp, 0, _stream(stream))
                _sync(stream)
            ary[...] = tmp
            return ary
        # a strided view: copy the bytes it spans, then pick its elements
        _refuse_in_capture("copy_to_host of a strided view")
        lo, hi = self._span()
        buf = np.empty(hi - lo, np.uint8)
        if hi > lo:
            self._dtoh(buf, lo, _stream(stream))
            _sync(stream)
        view = np.ndarray(self.shape, self.dtype, buffer=buf, offset=-lo, strides=self.strides)
        if ary is None:
            return view.copy()
        ary[...] = view
        return ary

    def copy_to_device(self, ary, stream=0):
        """Copies a NumPy array (or anything np.asarray accepts, or another
        device array) of the same shape and dtype into this array."""
        if isinstance(ary, _core.DeviceArray):
            if ary.shape != self.shape or ary.dtype != self.dtype:
                raise ValueError("copy_to_device: the source has shape %s and dtype %s; this array has "
                                 "shape %s and dtype %s" % (ary.shape, ary.dtype, self.shape, self.dtype))
            if self._contiguous() and ary._contiguous() and (self._layout == ary._layout or self.ndim <= 1):
                if self.nbytes:
                    self._dtod(ary, self.nbytes, 0, 0, _stream(stream))
                return
            _refuse_in_capture("copy_to_device from a device array of another layout")
            ary = ary.copy_to_host(stream=stream)
            _sync(stream)
        if isinstance(ary, np.ndarray):
            if ary.dtype != self.dtype:
                raise TypeError("copy_to_device: the source has dtype %s; this array has dtype %s"
                                % (ary.dtype, self.dtype))
            host = ary
        else:
            host = np.asarray(ary, dtype=self.dtype)
        if host.shape != self.shape:
            try:
                host = np.broadcast_to(host, self.shape)
            except ValueError:
                raise ValueError("copy_to_device: the source has shape %s; this array has shape %s"
                                 % (host.shape, self.shape)) from None
        if self._contiguous():
            host = np.require(host, requirements=["F" if self._layout == "F" else "C"])
            if self.nbytes:
                self._htod(host, 0, _stream(stream))
            return
        # a strided view: read the bytes it spans, write its elements, write back
        _refuse_in_capture("copy_to_device into a strided view")
        lo, hi = self._span()
        if hi <= lo:
            return
        buf = np.empty(hi - lo, np.uint8)
        self._dtoh(buf, lo, _stream(stream))
        _sync(stream)
        view = np.ndarray(self.shape, self.dtype, buffer=buf, offset=-lo, strides=self.strides)
        view[...] = host
        self._htod(buf, lo, _stream(stream))

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("`copy=False` is not supported: device memory is always copied to the host")
        a = self.copy_to_host()
        return a if dtype is None else a.astype(dtype, copy=False)

    # ---- views

    def _index(self, key):
        """(byte offset, shape, strides, all-integer) of a basic index."""
        if not isinstance(key, tuple):
            key = (key,)
        nell = sum(1 for k in key if k is Ellipsis)
        if nell > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        nidx = len(key) - nell
        if nidx > self.ndim:
            raise IndexError("too many indices for a device array: it is %d-dimensional, but %d were "
                             "indexed" % (self.ndim, nidx))
        if nell:
            at = key.index(Ellipsis)
            key = key[:at] + (slice(None),) * (self.ndim - nidx) + key[at + 1:]
        else:
            key = key + (slice(None),) * (self.ndim - nidx)
        off, shape, strides, ints = 0, [], [], True
        for axis, (k, n, s) in enumerate(zip(key, self.shape, self.strides)):
            if isinstance(k, slice):
                ints = False
                start, stop, step = k.indices(n)
                cnt = len(range(start, stop, step))
                if cnt:
                    off += start * s
                shape.append(cnt)
                strides.append(s * step)
                continue
            if k is None or isinstance(k, (bool, np.bool_)) or not hasattr(k, "__index__"):
                raise TypeError("device arrays take ints, slices and ... as indices, not %s"
                                % type(k).__name__)
            i = operator.index(k)
            if i < 0:
                i += n
            if not 0 <= i < n:
                raise IndexError("index %d is out of bounds for axis %d with size %d" % (k, axis, n))
            off += i * s
        return off, tuple(shape), tuple(strides), ints

    def _view_at(self, off, shape, strides, dtype=None):
        return type(self)._view(self, self._ptr + off, shape, strides, dtype or self.dtype)

    def __getitem__(self, key):
        off, shape, strides, ints = self._index(key)
        if ints and self.dtype.fields is not None:
            return DeviceRecord._view(self, self._ptr + off, (), (), self.dtype)
        if ints:
            one = np.empty(1, self.dtype)
            self._dtoh(one, off)
            return one[0]
        return self._view_at(off, shape, strides)

    def __setitem__(self, key, value):
        self.setitem(key, value)

    def setitem(self, key, value, stream=0):
        """self[key] = value, the copy made on `stream` (Numba's setitem)."""
        off, shape, strides, _ = self._index(key)
        self._view_at(off, shape, strides).copy_to_device(np.asarray(value, dtype=self.dtype), stream=stream)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # ---- reshaping

    def reshape(self, *newshape, order="C"):
        if len(newshape) == 1 and isinstance(newshape[0], (tuple, list)):
            newshape = newshape[0]
        newshape = list(shape_tuple(newshape))
        if newshape.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        if -1 in newshape:
            known = 1
            for n in newshape:
                if n != -1:
                    known *= n
            if known == 0 or self.size % known:
                raise ValueError("cannot reshape array of size %d into shape %s" % (self.size, tuple(newshape)))
            newshape[newshape.index(-1)] = self.size // known
        newshape = tuple(newshape)
        size = 1
        for n in newshape:
            size *= n
        if size != self.size:
            raise ValueError("cannot reshape array of size %d into shape %s" % (self.size, newshape))
        if order not in ("C", "F", "A"):
            raise ValueError("order must be 'C', 'F' or 'A'")
        if order == "A":
            order = "F" if self._layout == "F" else "C"
        if self.ndim > 1 and not (order == "C" and self._layout == "C" or order == "F" and self._layout == "F") \
                or self.ndim <= 1 and self._layout not in "CF":
            raise NotImplementedError("reshape of a device array needs a %s-contiguous array; copy it "
                                      "first (cuda.to_device(a.copy_to_host()))" % order)
        strides = None if order == "C" else f_strides(newshape, self.itemsize)
        if strides is None:
            strides, s = [], self.itemsize
            for n in reversed(newshape):
                strides.append(s)
                s *= max(n, 1)
            strides = tuple(reversed(strides))
        return self._view_at(0, newshape, strides)

    def ravel(self, order="C"):
        return self.reshape(self.size, order=order)

    def transpose(self, axes=None, *more):
        """A view with the axes permuted (reversed without `axes`), given as
        a tuple or one by one (d.transpose(1, 0)), as NumPy takes them;
        negative axes count from the end, and bad axes get NumPy's errors."""
        if more:
            axes = (axes,) + more
        if axes is None:
            axes = tuple(reversed(range(self.ndim)))
        axes = tuple(operator.index(a) for a in axes)
        if len(axes) != self.ndim:
            raise ValueError("axes don't match array")
        for a in axes:
            if not -self.ndim <= a < self.ndim:
                raise _axis_error(a, self.ndim)
        axes = tuple(a % self.ndim for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis in transpose")
        return self._view_at(0, tuple(self.shape[a] for a in axes), tuple(self.strides[a] for a in axes))

    @property
    def T(self):
        return self.transpose()

    def view(self, dtype):
        """The same bytes as another dtype, with NumPy's rules and errors:
        of another item size, the last axis must be contiguous and its
        bytes a whole number of the new items."""
        dtype = check_dtype(dtype)
        if dtype.itemsize == self.itemsize:
            return self._view_at(0, self.shape, self.strides, dtype)
        if self.ndim == 0:
            raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
        if self.shape[-1] != 1 and self.strides[-1] != self.itemsize:
            raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
        if dtype.itemsize > self.itemsize and (self.shape[-1] * self.itemsize) % dtype.itemsize:
            raise ValueError("When changing to a larger dtype, its size must be a divisor of the total size "
                             "in bytes of the last axis of the array.")
        if dtype.itemsize < self.itemsize and self.itemsize % dtype.itemsize:
            raise ValueError("When changing to a smaller dtype, its size must be a divisor of the size of "
                             "original dtype")
        last = self.shape[-1] * self.itemsize // dtype.itemsize
        shape = self.shape[:-1] + (last,)
        strides = self.strides[:-1] + (dtype.itemsize,)
        return self._view_at(0, shape, strides, dtype)

    def split(self, section):
        if self.ndim != 1 or self._layout != "C":
            raise ValueError("split() needs a 1-d contiguous array")
        return [self[i:i + section] for i in range(0, self.shape[0], section)]


class DeviceRecord(DeviceNDArray):
    """One record of a structured dtype on the device (Numba's DeviceRecord):
    an element of a structured device array (d[i]), cuda.to_device(record)
    or DeviceRecord(dtype).  A kernel takes it by reference, in place, as it
    takes a NumPy record (from the copy it makes)."""

    __slots__ = ()
    _ptxjit_record = True

    def __new__(cls, dtype, stream=0, gpu_data=None):
        dtype = check_dtype(dtype)
        if dtype.fields is None:
            raise TypeError("DeviceRecord: %s is not a structured dtype" % dtype)
        return DeviceNDArray.__new__(cls, (), None, dtype, stream, gpu_data)

    @property
    def _numba_type_(self):
        from ..types import from_dtype
        return from_dtype(self.dtype)

    @property
    def alloc_size(self):
        return self.dtype.itemsize

    def __repr__(self):
        return "<ptxjit.cuda.DeviceRecord dtype=%s%s>" % (self.dtype, " (simulator)" if _sim() else "")

    def _field(self, name):
        """The field `name` in place: a DeviceRecord (a nested record), a
        device array (an array field) or a 0-d device array."""
        if self.dtype.fields is None or name not in self.dtype.fields:
            raise KeyError("the record has no field %r (its fields: %s)"
                           % (name, ", ".join(self.dtype.names or ())))
        dt, off = self.dtype.fields[name][:2]
        if dt.subdtype is not None:
            base, shape = dt.subdtype
            strides, step = [], base.itemsize
            for n in reversed(shape):
                strides.insert(0, step)
                step *= n
            return DeviceNDArray._view(self, self._ptr + off, shape, tuple(strides), base)
        cls = DeviceRecord if dt.fields is not None else DeviceNDArray
        return cls._view(self, self._ptr + off, (), (), dt)

    def __getitem__(self, key):
        """rec["name"]: a field's value (copied to the host), or a nested
        record or array field on the device, as in Numba."""
        if not isinstance(key, str):
            return DeviceNDArray.__getitem__(self, key)
        f = self._field(key)
        return f if f.ndim or isinstance(f, DeviceRecord) else DeviceNDArray.copy_to_host(f)[()]

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            return DeviceNDArray.__setitem__(self, key, value)
        f = self._field(key)
        DeviceNDArray.copy_to_device(f, value if isinstance(value, _core.DeviceArray)
                                     else np.asarray(value, dtype=f.dtype))

    def copy_to_host(self, ary=None, stream=0):
        """The record as a NumPy record (numpy.void); with `ary` (a NumPy
        record of the same dtype), into the memory it shares with its array."""
        host = DeviceNDArray.copy_to_host(self, stream=stream)
        if ary is None:
            return host[()]
        if getattr(ary, "dtype", None) != self.dtype or not isinstance(ary, np.void):
            raise TypeError("copy_to_host(ary): ary must be a NumPy record of dtype %s, not %r"
                            % (self.dtype, type(ary).__name__))
        _sync(stream)
        import ctypes
        ctypes.memmove(ary.__array_interface__["data"][0], host.ctypes.data, self.dtype.itemsize)
        return ary

    def copy_to_device(self, ary, stream=0):
        """Copies a NumPy record (or a DeviceRecord) of this dtype here."""
        if not isinstance(ary, _core.DeviceArray):
            if getattr(ary, "dtype", None) != self.dtype:
                raise TypeError("copy_to_device: the source has dtype %s; this record has dtype %s"
                                % (getattr(ary, "dtype", type(ary).__name__), self.dtype))
            ary = np.asarray(ary).reshape(())
        DeviceNDArray.copy_to_device(self, ary, stream=stream)


def from_record_like(rec, stream=0, gpu_data=None):
    """A new DeviceRecord of the dtype of rec (a NumPy record or a
    DeviceRecord), uninitialised, as Numba's from_record_like."""
    return DeviceRecord(rec.dtype, stream=stream, gpu_data=gpu_data)


def _axis_error(axis, ndim):
    """NumPy's AxisError (a ValueError and an IndexError) for an axis out of range."""
    cls = getattr(getattr(np, "exceptions", np), "AxisError")
    return cls(axis, ndim)


def _refuse_in_capture(what):
    from .graph import refuse_in_capture
    refuse_in_capture(what)


def _stream(stream):
    return None if stream is None or (isinstance(stream, int) and stream == 0) else stream


def _sync(stream):
    s = _stream(stream)
    if s is not None:
        s.synchronize()


def _unpickle_device_array(host):
    from .api import to_device
    return to_device(host)


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """(a device array holding obj, whether it was copied): a device array
    (or an object with __cuda_array_interface__) is returned as it is;
    anything else goes through np.asarray and is copied to the device when
    copy is true, as Numba's auto_device.  A NumPy array that is neither C-
    nor F-contiguous is refused (ValueError)."""
    from .api import as_cuda_array, device_array, to_device
    if isinstance(obj, DeviceNDArray):
        return obj, False
    if hasattr(obj, "__cuda_array_interface__"):
        return as_cuda_array(obj), False
    if isinstance(obj, np.void) and obj.dtype.fields is not None:
        d = from_record_like(obj, stream=stream)
        if copy:
            d.copy_to_device(obj, stream=stream)
        return d, True
    a = np.asarray(obj)
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        raise ValueError(errmsg_contiguous_buffer)
    if copy:
        return to_device(a, stream=stream), True
    return device_array(a.shape, a.dtype, strides=a.strides, stream=stream), True


def from_array_like(ary, stream=0):
    """A new, uninitialised device array of ary's shape and dtype (and its
    strides where ary is contiguous in C or Fortran order)."""
    from .api import device_array_like
    return device_array_like(ary, stream=stream)


# ---- numba.cuda.cudadrv.devicearray's helpers, under their names

errmsg_contiguous_buffer = "Array contains non-contiguous buffer and cannot be transferred as a single memory region. Please ensure contiguous buffer with numpy .ascontiguousarray()"  # noqa: E501


def is_cuda_ndarray(obj):
    """Whether obj is device memory as Numba's API marks it (__cuda_memory__)."""
    return getattr(obj, "__cuda_memory__", False)


def require_cuda_ndarray(obj):
    if not is_cuda_ndarray(obj):
        raise ValueError("require an cuda ndarray object")


def verify_cuda_ndarray_interface(obj):
    """Raises unless obj is a device array with a tuple shape and strides,
    a NumPy dtype and an int size."""
    require_cuda_ndarray(obj)
    for attr, typ in (("shape", tuple), ("strides", tuple), ("dtype", np.dtype), ("size", int)):
        if not hasattr(obj, attr):
            raise AttributeError("the CUDA ndarray interface needs the attribute %r" % attr)
        if not isinstance(getattr(obj, attr), typ):
            raise AttributeError("%s must be of type %s" % (attr, typ))


def array_core(ary):
    """The array without its broadcast (stride 0) dimensions: each becomes
    its first element, so that what is left can be copied as one block
    when it is contiguous."""
    if not ary.strides or 0 not in ary.strides:
        return ary
    return ary[tuple(0 if st == 0 else slice(None) for st in ary.strides)]


def is_contiguous(ary):
    """Whether ary is C-contiguous once dimensions of extent 1 and
    broadcast dimensions are left out."""
    want = ary.dtype.itemsize
    for n, st in zip(reversed(ary.shape), reversed(ary.strides)):
        if n > 1 and st != 0:
            if st != want:
                return False
            want *= n
    return True

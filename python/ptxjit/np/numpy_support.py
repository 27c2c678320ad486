"""ptxjit.np.numpy_support: Numba's numpy_support names that kernels and
their tests use: from_dtype and as_dtype (between NumPy dtypes and ptxjit
types) and numpy_version (NumPy's version as a tuple of ints)."""

import numpy as _np

from .. import as_dtype, from_dtype  # noqa: F401

numpy_version = tuple(int(p) for p in _np.__version__.split(".")[:2])


def _from_pointer(ptr, shape, dtype, order):
    import ctypes
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(int(s) for s in shape)
    pointee = None
    if isinstance(ptr, ctypes._Pointer):
        pointee = _np.dtype(ptr._type_)
        addr = ctypes.cast(ptr, ctypes.c_void_p).value
    elif isinstance(ptr, ctypes.c_void_p):
        addr = ptr.value
    elif isinstance(ptr, int):
        addr = ptr
    else:
        raise TypeError("carray/farray take a ctypes pointer or an address (int), not %s"
                        % type(ptr).__name__)
    if dtype is not None:
        dtype = as_dtype(dtype) if not isinstance(dtype, (_np.dtype, type, str)) else _np.dtype(dtype)
        if pointee is not None and pointee != dtype:
            raise TypeError("the pointer points to %s, not %s" % (pointee, dtype))
    elif pointee is None:
        raise TypeError("carray/farray of an untyped pointer need dtype=")
    dtype = dtype if dtype is not None else pointee
    n = int(_np.prod(shape)) * dtype.itemsize
    if n and not addr:
        raise ValueError("carray/farray of a null pointer")
    buf = (ctypes.c_char * n).from_address(addr) if n else bytearray()
    return _np.frombuffer(buf, dtype=dtype).reshape(shape, order=order)


def carray(ptr, shape, dtype=None):
    """A NumPy array of `shape` in C order over the memory at a host
    pointer (a ctypes pointer, or an address with dtype=), as Numba's
    carray.  In kernels and device functions, carray(p, shape) is an array
    over the memory that a pointer (an int32* parameter, ffi.from_buffer(a))
    points to (src/sema/sema_pointer.c)."""
    return _from_pointer(ptr, shape, dtype, "C")


def farray(ptr, shape, dtype=None):
    """carray in Fortran order."""
    return _from_pointer(ptr, shape, dtype, "F")

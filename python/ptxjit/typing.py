"""numba.cuda.typing's public names: signature() and typeof().

signature(return_type, *args) is the Signature that `return_type(*args)`
spells.  typeof(value) is the type ptxjit gives a value passed to a kernel,
in Numba's spelling: Python ints int64, floats float64, complex complex128,
bools boolean, NumPy scalars their own type, arrays (NumPy and every
object with __cuda_array_interface__) Array(dtype, ndim, layout), tuples
UniTuple or Tuple of their elements' types.  A value kernels cannot take
raises ValueError naming its type.
"""

from . import types

__all__ = ["signature", "typeof"]


def signature(return_type, *args):
    """Signature(return_type, args): `float32(int32, int32)` as a call."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return types.Signature(return_type, args)


def _layout(shape, strides, itemsize):
    """'C', 'F' or 'A', as NumPy's flags (and Numba) read shape and strides."""
    def contiguous(dims):
        step = itemsize
        for n, s in dims:
            if n != 1 and s != step:
                return False
            step *= n
        return True
    pairs = list(zip(shape, strides))
    if contiguous(reversed(pairs)):
        return "C"
    if contiguous(pairs):
        return "F"
    return "A"


def typeof(value):
    """The type of `value` as a kernel argument (Numba's typeof)."""
    import numpy as np
    if isinstance(value, bool):
        return types.boolean
    if isinstance(value, int):
        return types.int64
    if isinstance(value, float):
        return types.float64
    if isinstance(value, complex):
        return types.complex128
    if isinstance(value, np.generic) and (not isinstance(value, np.void) or value.dtype.fields is not None):
        return types.from_dtype(value.dtype)
    if isinstance(value, np.ndarray):
        return types.ArrayType(types.from_dtype(value.dtype), value.ndim,
                               "C" if value.flags.c_contiguous else "F" if value.flags.f_contiguous else "A",
                               readonly=not value.flags.writeable)
    cai = getattr(value, "__cuda_array_interface__", None)
    if cai is not None:
        shape = tuple(cai["shape"])
        strides = cai.get("strides")
        dt = np.dtype(cai["typestr"]) if not cai.get("descr") or len(cai["descr"]) == 1 else np.dtype(cai["descr"])
        layout = "C" if strides is None else _layout(shape, strides, dt.itemsize)
        return types.ArrayType(types.from_dtype(dt), len(shape), layout, readonly=bool(cai["data"][1]))
    if isinstance(value, tuple):
        return types.Tuple([typeof(v) for v in value])
    if value is None:
        return types.none
    raise ValueError("cannot determine the ptxjit type of %s: kernels take numbers, NumPy scalars, arrays "
                     "and tuples of them" % type(value).__name__)

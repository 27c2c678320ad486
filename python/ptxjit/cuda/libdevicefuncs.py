"""numba.cuda.libdevicefuncs: libdevice's functions as numba-cuda describes
them, for code that walks the table (numba-cuda's own tests do).

    functions["__nv_sincos"]   -> (return type, [arg(name, ty, is_ptr), ...])
    create_signature(retty, args) -> the signature kernels call it with

A libdevice function that gives more than one result (sincos, frexp, modf,
remquo) has its extra results as pointer arguments here; kernels receive
them as a tuple (ptxjit.cuda.libdevice).
"""

from collections import namedtuple

from .. import _core
from .. import types as _types

arg = namedtuple("arg", ("name", "ty", "is_ptr"))

_TYPES = {"f": _types.float32, "d": _types.float64, "i": _types.int32, "l": _types.int64, "h": _types.int16}


def _entry(ret, args):
    params = [arg("x%d" % i, _TYPES[c], False) for i, c in enumerate(args)]
    params += [arg("r%d" % i, _TYPES[c], True) for i, c in enumerate(ret[1:], 1)]
    return _TYPES[ret[0]], params


functions = {"__nv_" + name: _entry(ret, args) for name, ret, args in _core.libdevice_functions()}


def create_signature(retty, args):
    """The signature of the kernel-side call: the pointer arguments become
    results after the return value (a tuple when there are several)."""
    results = ([] if retty == _types.void else [retty]) + [a.ty for a in args if a.is_ptr]
    ret = results[0] if len(results) == 1 else _types.Tuple(results)
    return _types.Signature(ret, [a.ty for a in args if not a.is_ptr])

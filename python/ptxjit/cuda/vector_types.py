"""Numba's CUDA vector types: cuda.float32x3, cuda.int8x4, ... (10 base
types, 1 to 4 elements) and their C names (cuda.float3, cuda.uchar4,
cuda.longlong2, ...), for kernels and device functions:

    v = cuda.float32x3(1.0, 2.0, 3.0)
    w = cuda.float32x4(v, 4.0)          # vectors of the same base give their elements
    out[i] = v.x + w.w

`vector_types` maps each name to its VectorType (base_type, attr_names,
num_elements, user_facing_object), as numba.cuda.vector_types does.
"""

from .. import types as _types
from .stubs import Stub

_BASES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
_ALIASES = {
    "char": "int8", "short": "int16", "int": "int32", "long": "int64", "longlong": "int64",
    "uchar": "uint8", "ushort": "uint16", "uint": "uint32", "ulong": "uint64", "ulonglong": "uint64",
    "float": "float32", "double": "float64",
}


class VectorStub(Stub):
    """A vector type's constructor: works inside kernels only."""
    __slots__ = ("aliases",)

    def __init__(self, qualname):
        Stub.__init__(self, qualname)
        self.aliases = []


class VectorType:
    """A vector type: its name, base type, attribute names and constructor."""

    def __init__(self, name, base_type, attr_names, user_facing_object):
        self.name = name
        self.base_type = base_type
        self.attr_names = attr_names
        self.user_facing_object = user_facing_object

    @property
    def num_elements(self):
        return len(self.attr_names)

    def __repr__(self):
        return self.name


vector_types = {}
STUBS = {}          # every name kernels may use (aliases too) -> the constructor
for _n in range(1, 5):
    for _b in _BASES:
        _name = "%sx%d" % (_b, _n)
        _stub = VectorStub("cuda." + _name)
        vector_types[_name] = VectorType(_name, getattr(_types, _b), ("x", "y", "z", "w")[:_n], _stub)
        STUBS[_name] = _stub
for _alias, _b in _ALIASES.items():
    for _n in range(1, 5):
        _stub = STUBS["%sx%d" % (_b, _n)]
        _stub.aliases.append("%s%d" % (_alias, _n))
        STUBS["%s%d" % (_alias, _n)] = _stub
del _n, _b, _name, _stub, _alias

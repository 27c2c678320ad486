"""Numba's type names, for signatures: `float32[::1]`, `void(int64, float32[:, :])`.

These objects only spell types.  `str(t)` is the Numba spelling that the
compiler's signature parser reads; `float32[:, ::1]` is a C-contiguous 2-d
array type, `float32(int32, int32)` a device-function signature.  Called on
a value instead of types (`float32(2.5)`), a number type converts it like
the NumPy scalar type of the same name.  Kernels may also use them as
dtypes and casts (`cuda.local.array(4, float32)`, `float32(x)`).
"""

__all__ = []


class Type:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, Type) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __call__(self, *args):
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        raise TypeError("%s() takes types to make a signature" % self.name)


class NumberType(Type):
    """A scalar type: `float32`.  `np_name` is NumPy's name for its dtype."""
    __slots__ = ("np_name",)

    def __init__(self, name, np_name):
        Type.__init__(self, name)
        self.np_name = np_name

    def __getitem__(self, index):
        if not isinstance(index, tuple):
            index = (index,)
        layout = "A"
        for pos, s in enumerate(index):
            if not isinstance(s, slice) or s.start is not None or s.stop is not None:
                raise TypeError("array types are spelled with slices: %s[:], %s[::1], %s[:, ::1]"
                                % (self.name, self.name, self.name))
            if s.step is not None:
                if s.step != 1:
                    raise TypeError("only ::1 marks the contiguous dimension of an array type")
                if pos == len(index) - 1:
                    layout = "C"
                elif pos == 0:
                    layout = "F"
                else:
                    raise TypeError("::1 goes on the first (F order) or last (C order) dimension")
        return ArrayType(self, len(index), layout)

    def __call__(self, *args):
        if args and all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) == 1:
            import numpy
            return getattr(numpy, self.np_name if self.np_name != "bool" else "bool_")(args[0])
        return Type.__call__(self, *args)

    @property
    def dtype(self):
        import numpy
        return numpy.dtype(self.np_name)

    @property
    def underlying_float(self):
        """Numba's Complex.underlying_float: float32 for complex64, float64
        for complex128 (complex types only)."""
        part = {"complex64": "float32", "complex128": "float64"}.get(self.name)
        if part is None:
            raise AttributeError("%s is not a complex type: it has no underlying_float" % self.name)
        return globals()[part]


class ArrayType(Type):
    """An array type: dtype, ndim, layout ('C', 'F' or 'A') and whether it
    is read-only ("readonly float64[::1]")."""
    __slots__ = ("dtype_type", "ndim", "layout", "readonly")

    def __init__(self, dtype, ndim, layout, readonly=False):
        dims = []
        for i in range(ndim):
            c = (layout == "C" and i == ndim - 1) or (layout == "F" and i == 0)
            dims.append("::1" if c else ":")
        name = "%s[%s]" % (dtype.name, ", ".join(dims)) if ndim else "array(%s, 0d, C)" % dtype.name
        Type.__init__(self, ("readonly " if readonly else "") + name)
        self.dtype_type = dtype
        self.ndim = ndim
        self.layout = layout
        self.readonly = bool(readonly)

    @property
    def dtype(self):
        return self.dtype_type.dtype


# Numba's name of the class: types.Array(float32, 2, 'C') is float32[:, ::1],
# and isinstance(t, types.Array) asks whether t is an array type.
Array = ArrayType


class Signature:
    """`void(float32[::1], int64)`: a return type and argument types."""
    __slots__ = ("return_type", "args")

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)

    def __str__(self):
        return "%s(%s)" % (self.return_type, ", ".join(str(a) for a in self.args))

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Signature) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


void = Type("void")
none = void

_NUMBERS = [
    # (Numba name, NumPy name, aliases)
    ("boolean", "bool", ("bool_", "b1")),
    ("int8", "int8", ("i1", "byte")),
    ("int16", "int16", ("i2", "short")),
    ("int32", "int32", ("i4", "intc")),
    ("int64", "int64", ("i8", "intp", "int_", "long_")),
    ("uint8", "uint8", ("u1", "ubyte")),
    ("uint16", "uint16", ("u2", "ushort")),
    ("uint32", "uint32", ("u4", "uintc")),
    ("uint64", "uint64", ("u8", "uintp", "uint", "ulong")),
    ("float16", "float16", ("f2", "half")),
    ("float32", "float32", ("f4", "single")),
    ("float64", "float64", ("f8", "double", "float_")),
    ("complex64", "complex64", ("c8", "cfloat")),
    ("complex128", "complex128", ("c16", "cdouble", "complex_")),
]

_g = globals()
for _name, _np, _aliases in _NUMBERS:
    _t = NumberType(_name, _np)
    _g[_name] = _t
    __all__.append(_name)
    for _a in _aliases:
        _g[_a] = _t
        __all__.append(_a)
del _g, _name, _np, _aliases, _t

__all__ += ["void", "none", "Type", "NumberType", "ArrayType", "Array", "Signature", "number_types"]


def number_types():
    """Every number type once: [boolean, int8, ..., complex128]."""
    return [globals()[n] for n, _, _ in _NUMBERS]

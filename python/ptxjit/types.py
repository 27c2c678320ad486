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


def _array_type(elt, index):
    """The array type `elt[index]` spells: float32[:, ::1] is a C-contiguous
    2-d array of float32, rec[::1] a 1-d one of records."""
    if not isinstance(index, tuple):
        index = (index,)
    layout = "A"
    for pos, s in enumerate(index):
        if not isinstance(s, slice) or s.start is not None or s.stop is not None:
            raise TypeError("array types are spelled with slices: %s[:], %s[::1], %s[:, ::1]"
                            % (elt.name, elt.name, elt.name))
        if s.step is not None:
            if s.step != 1:
                raise TypeError("only ::1 marks the contiguous dimension of an array type")
            if pos == len(index) - 1:
                layout = "C"
            elif pos == 0:
                layout = "F"
            else:
                raise TypeError("::1 goes on the first (F order) or last (C order) dimension")
    return ArrayType(elt, len(index), layout)


class NumberType(Type):
    """A scalar type: `float32`.  `np_name` is NumPy's name for its dtype."""
    __slots__ = ("np_name",)

    def __init__(self, name, np_name):
        Type.__init__(self, name)
        self.np_name = np_name

    def __getitem__(self, index):
        return _array_type(self, index)

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
        """The element type, as Numba's Array.dtype (float32[:].dtype is
        float32; its NumPy dtype is float32[:].dtype.dtype)."""
        return self.dtype_type


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


class NoneType(Type):
    """The type of None: void, the return type of kernels."""
    __slots__ = ()


class Boolean(NumberType):
    __slots__ = ()


class Integer(NumberType):
    """An integer type: .bitwidth and .signed, as Numba's."""
    __slots__ = ()

    @property
    def bitwidth(self):
        return self.dtype.itemsize * 8

    @property
    def signed(self):
        return self.name.startswith("int")


class Float(NumberType):
    __slots__ = ()

    @property
    def bitwidth(self):
        return self.dtype.itemsize * 8


class Complex(NumberType):
    __slots__ = ()

    @property
    def bitwidth(self):
        return self.dtype.itemsize * 8


# Numba's abstract class of the number types: isinstance(t, types.Number).
Number = NumberType


class BaseTuple(Type):
    __slots__ = ("types",)

    def __iter__(self):
        return iter(self.types)

    def __len__(self):
        return len(self.types)

    def __getitem__(self, i):
        return self.types[i]

    @property
    def count(self):
        return len(self.types)


class UniTuple(BaseTuple):
    """UniTuple(int64, 3): a tuple of count elements of one type."""
    __slots__ = ("dtype",)

    def __init__(self, dtype, count):
        if not isinstance(dtype, Type) or not isinstance(count, int) or count < 0:
            raise TypeError("UniTuple(dtype, count) takes a type and a non-negative int, not %r, %r"
                            % (dtype, count))
        Type.__init__(self, "UniTuple(%s x %d)" % (dtype, count))
        self.dtype = dtype
        self.types = (dtype,) * count


class Tuple(BaseTuple):
    """Tuple([int64, float32]): a tuple of these types (a UniTuple when
    they are all the same, as in Numba)."""
    __slots__ = ()

    def __new__(cls, types):
        types = tuple(types)
        if types and all(t == types[0] for t in types):
            return UniTuple(types[0], len(types))
        return object.__new__(cls)

    def __init__(self, types):
        types = tuple(types)
        for t in types:
            if not isinstance(t, Type):
                raise TypeError("Tuple(types): %r is not a type" % (t,))
        Type.__init__(self, "Tuple(%s)" % ", ".join(str(t) for t in types))
        self.types = types


class CPointer(Type):
    """CPointer(float32): a pointer to values of a type, spelled float32*.
    A kernel's pointer parameter takes an address (an int, such as
    a.__cuda_array_interface__['data'][0]); p[i] reads and writes its
    elements, carray(p, shape) views them as an array, and external
    functions (cuda.declare_device) take and return pointers."""
    __slots__ = ("dtype",)

    def __init__(self, dtype):
        if not isinstance(dtype, Type):
            raise TypeError("CPointer(dtype) takes a type, not %r" % (dtype,))
        Type.__init__(self, "%s*" % dtype)
        self.dtype = dtype


class RawPointer(Type):
    __slots__ = ()


class RecordField(tuple):
    """One field of a record type: (type, offset), as .type and .offset."""
    __slots__ = ()

    def __new__(cls, type, offset):
        return tuple.__new__(cls, (type, offset))

    type = property(lambda self: self[0])
    offset = property(lambda self: self[1])


class NestedArray(Type):
    """The type of a record field that is an array: nestedarray(int32, (2, 3))."""
    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        Type.__init__(self, "nestedarray(%s, (%s%s))" % (dtype, ", ".join(str(n) for n in shape),
                                                         "," if len(shape) == 1 else ""))
        self.dtype = dtype
        self.shape = tuple(shape)

    @property
    def ndim(self):
        return len(self.shape)


class Record(Type):
    """Numba's record type: the type of the elements of a NumPy structured
    dtype, Record(numpy.dtype([("x", "f4"), ("n", "i4")], align=True)) or
    from_dtype of that dtype.  Its name is Numba's spelling, which signatures
    use; rec[::1] is the type of a C-contiguous 1-d array of these records.
    .dtype is the NumPy dtype (so numpy.zeros(4, rec) works), .fields maps
    each name to (type, offset), .size is the size in bytes."""
    __slots__ = ("dtype",)

    def __init__(self, *args):
        import numpy
        dt = None
        if len(args) == 1:
            try:
                dt = numpy.dtype(args[0])
            except TypeError:
                dt = None
        if dt is None or dt.fields is None:
            raise TypeError("Record(dtype) takes a structured NumPy dtype (numpy.dtype([(name, type), ...], "
                            "align=True)), or use types.Record.make_c_struct([(name, type), ...]); not %s"
                            % ", ".join(repr(a) for a in args))
        from .cuda.records import record_sig
        Type.__init__(self, record_sig(dt))
        self.dtype = dt

    def __getitem__(self, index):
        return _array_type(self, index)

    @property
    def fields(self):
        out = {}
        for name in self.dtype.names:
            fdt, off = self.dtype.fields[name][:2]
            if fdt.subdtype is not None:
                t = NestedArray(from_dtype(fdt.subdtype[0]), fdt.subdtype[1])
            else:
                t = from_dtype(fdt)
            out[name] = RecordField(t, off)
        return out

    @property
    def size(self):
        return self.dtype.itemsize

    @property
    def aligned(self):
        return bool(self.dtype.isalignedstruct)

    def typeof(self, name):
        return self.fields[name].type

    def offset(self, name):
        return self.fields[name].offset

    @staticmethod
    def make_c_struct(name_types):
        """The record type of a C struct with these (name, type) fields, in
        order, each aligned to its size as a C compiler does."""
        import numpy
        fields = []
        for name, t in name_types:
            dt = t if isinstance(t, numpy.dtype) else getattr(t, "dtype", None)
            if not isinstance(dt, numpy.dtype):
                raise TypeError("make_c_struct: field %r has type %r, which is not a number or record type"
                                % (name, t))
            fields.append((name, dt))
        return Record(numpy.dtype(fields, align=True))


class Literal(Type):
    """A constant known when the kernel is compiled, as the typing function of
    an @overload may see it: .literal_value, and .literal_type, the type of
    the value otherwise (IntegerLiteral(5).literal_type is int64)."""
    __slots__ = ()


class IntegerLiteral(Literal, Integer):
    """Literal[int](5): an int64 whose value is known (an Integer too)."""
    __slots__ = ("literal_value",)

    def __init__(self, value):
        NumberType.__init__(self, "Literal[int](%d)" % value, "int64")
        self.literal_value = value

    @property
    def literal_type(self):
        return int64              # noqa: F821


class BooleanLiteral(Literal, Boolean):
    """Literal[bool](True): a boolean whose value is known."""
    __slots__ = ("literal_value",)

    def __init__(self, value):
        NumberType.__init__(self, "Literal[bool](%s)" % bool(value), "bool")
        self.literal_value = bool(value)

    @property
    def literal_type(self):
        return boolean            # noqa: F821


def literal(value):
    """The Literal type of a Python int or bool."""
    if isinstance(value, bool):
        return BooleanLiteral(value)
    if isinstance(value, int):
        return IntegerLiteral(value)
    raise TypeError("literal types are of ints and bools in kernels, not %r" % (value,))


def unliteral(t):
    """t without its value: the literal's type, or t itself."""
    return t.literal_type if isinstance(t, Literal) else t


void = NoneType("void")
none = void
voidptr = RawPointer("void*")

_NUMBERS = [
    # (Numba name, NumPy name, class, aliases)
    ("boolean", "bool", Boolean, ("bool_", "b1")),
    ("int8", "int8", Integer, ("i1", "char")),
    ("int16", "int16", Integer, ("i2", "short")),
    ("int32", "int32", Integer, ("i4", "intc")),
    ("int64", "int64", Integer, ("i8", "intp", "int_", "long_", "longlong", "ssize_t")),
    ("uint8", "uint8", Integer, ("u1", "byte", "uchar")),
    ("uint16", "uint16", Integer, ("u2", "ushort")),
    ("uint32", "uint32", Integer, ("u4", "uintc")),
    ("uint64", "uint64", Integer, ("u8", "uintp", "uint", "ulong", "ulonglong", "size_t")),
    ("float16", "float16", Float, ("f2", "half")),
    ("float32", "float32", Float, ("f4", "single")),
    ("float64", "float64", Float, ("f8", "double", "float_")),
    ("complex64", "complex64", Complex, ("c8", "cfloat")),
    ("complex128", "complex128", Complex, ("c16", "cdouble", "complex_")),
]

_g = globals()
for _name, _np, _cls, _aliases in _NUMBERS:
    _t = _cls(_name, _np)
    _g[_name] = _t
    __all__.append(_name)
    for _a in _aliases:
        _g[_a] = _t
        __all__.append(_a)
del _g, _name, _np, _cls, _aliases, _t



class BFloat16(Float):
    """bfloat16 (numba.cuda.types.bfloat16, numba.cuda.bf16.bfloat16): a
    scalar type of kernels on compute capability 8.0+; its NumPy dtype is
    ml_dtypes.bfloat16 where ml_dtypes is installed."""
    __slots__ = ()

    @property
    def dtype(self):
        import ml_dtypes
        import numpy
        return numpy.dtype(ml_dtypes.bfloat16)

    @property
    def bitwidth(self):
        return 16


bfloat16 = BFloat16("bfloat16", "bfloat16")
__all__.append("bfloat16")

# Numba's sets of number types.
signed_domain = frozenset([int8, int16, int32, int64])            # noqa: F821
unsigned_domain = frozenset([uint8, uint16, uint32, uint64])      # noqa: F821
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset([float32, float64])                       # noqa: F821
complex_domain = frozenset([complex64, complex128])               # noqa: F821
number_domain = real_domain | integer_domain | complex_domain

__all__ += ["void", "none", "voidptr", "Type", "NumberType", "Number", "Boolean", "Integer", "Float", "Complex",
            "NoneType", "BaseTuple", "UniTuple", "Tuple", "CPointer", "RawPointer", "Record", "RecordField",
            "NestedArray", "ArrayType", "Array",
            "Signature", "number_types", "from_dtype", "Literal", "IntegerLiteral", "BooleanLiteral", "literal",
            "unliteral", "signed_domain", "unsigned_domain", "integer_domain",
            "real_domain", "complex_domain", "number_domain"]


def number_types():
    """Every number type once: [boolean, int8, ..., complex128]."""
    return [globals()[n] for n, _, _, _ in _NUMBERS]


def from_dtype(dtype):
    """numba.from_dtype: the type of a NumPy dtype's elements in kernels."""
    from .cuda.records import from_dtype as _from_dtype
    return _from_dtype(dtype)

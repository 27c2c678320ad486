"""Records: NumPy structured dtypes in kernels.

A structured array passed to a kernel (or a structured dtype given to
cuda.shared.array / cuda.local.array, or a module-level structured array)
reaches the compiler as Numba's spelling of its Record type:

    Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)

Inside the kernel `a[i]` is the record (a reference into the array), and its
fields read and write as `a[i].x`, `a[i]['x']`, `a[i][0]`, `a[i].x = v`;
`a[i] = b[j]` copies a record.  A record passed on its own (`k[1, 1](a[3])`)
is a reference too: what the kernel writes reaches the array.  Fields are
numbers (bool, integers, floats, complex), records (`r.p.x`) or sub-arrays of
fixed-length strings (`('s', 'S12')`, `('u', 'U12')`: assigned a literal
of their kind, `r.s = b'abc'`, `r.u = 'abc'`, truncated and padded as NumPy
does, or another string of their kind), records (`r.p.x`) or sub-arrays of
those (`('j', np.int32, (2, 3))`: `r.j[1, 0]`, `r.j.shape`, spelled
`nestedarray(int32, (2, 3))` as Numba does); each must lie at a multiple of
its size, which `numpy.dtype([...], align=True)` guarantees.
"""

import numpy as np

from .. import types as _types

_NAMES = {t.np_name: t.name for t in _types.number_types()}


def _field_type(name, fdt):
    """The spelling of one field's type: a number, a nested Record, or
    nestedarray(T, (extents)) for a sub-array field."""
    if fdt.subdtype is not None:
        base, shape = fdt.subdtype
        if base.subdtype is not None:
            raise TypeError("record field %r is an array of arrays (%s)" % (name, fdt))
        if not shape or any(n < 1 for n in shape):
            raise TypeError("record field %r is an array of shape %s; kernels take sub-arrays of at least "
                            "one element" % (name, shape))
        if len(shape) > 8:
            raise TypeError("record field %r has %d dimensions (at most 8)" % (name, len(shape)))
        return "nestedarray(%s, (%s%s))" % (_field_type(name, base), ", ".join(str(n) for n in shape),
                                            "," if len(shape) == 1 else "")
    if fdt.fields is not None:
        return record_sig(fdt)
    if fdt.kind in "SU":
        return string_sig(fdt)
    if fdt.byteorder == ">" or (fdt.byteorder == "=" and not np.little_endian):
        raise TypeError("record field %r is big-endian (%s); use native byte order" % (name, fdt.str))
    tname = _NAMES.get(fdt.name)
    if tname is None:
        raise TypeError("record field %r has dtype %s, which kernels do not take (fields are bool, "
                        "integers, floats, complex, fixed-length strings (S, U), records or sub-arrays of "
                        "those)" % (name, fdt))
    return tname


def string_sig(dtype):
    """Numba's spelling of a fixed-length string dtype: [char x 12] for
    |S12 (CharSeq), [unichr x 12] for <U12 (UnicodeCharSeq)."""
    dt = np.dtype(dtype)
    if dt.kind == "U" and (dt.byteorder == ">" or (dt.byteorder == "=" and not np.little_endian)):
        raise TypeError("dtype %s is big-endian; use native byte order" % dt.str)
    if dt.itemsize == 0:
        raise TypeError("dtype %s holds no characters; kernels take strings of at least one" % dt.str)
    if dt.kind == "S":
        return "[char x %d]" % dt.itemsize
    return "[unichr x %d]" % (dt.itemsize // 4)


def record_sig(dtype):
    """Numba's spelling of the Record type of a structured dtype (and of a
    fixed-length string dtype, a record without fields to kernels)."""
    dt = np.dtype(dtype)
    if dt.fields is None and dt.kind in "SU":
        return string_sig(dt)
    parts = []
    for name in dt.names:
        fdt, off = dt.fields[name][:2]
        if not name.isidentifier():
            raise TypeError("record field name %r is not a Python identifier, which kernels need" % (name,))
        parts.append("%s[type=%s;offset=%d]" % (name, _field_type(name, fdt), off))
    if not parts:
        raise TypeError("dtype %s has no fields" % dt)
    return "Record(%s;%d;%s)" % (",".join(parts), dt.itemsize, bool(dt.isalignedstruct))


def from_dtype(dtype):
    """numba.from_dtype: the type kernels use for a dtype.  A number dtype
    gives ptxjit's type of that name (float32, so from_dtype(dt)[::1] is an
    array type, as in Numba); a structured dtype gives its Record type (so
    from_dtype(dt)[::1] is an array of records)."""
    dt = np.dtype(dtype)
    if dt.fields is not None:
        return _types.Record(dt)
    from .. import types
    for t in types.number_types():
        if np.dtype(t.np_name) == dt:
            return t
    return dt

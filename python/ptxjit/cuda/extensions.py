"""Kernel extensions (`@cuda.jit(extensions=[...])`, `kernel.extensions`):
Numba's prepare_args protocol.

An extension is an object with a method

    prepare_args(ty, val, stream=..., retr=...) -> (ty, val)

At each launch every argument, in order, goes through the extensions from
the last in the list to the first (as Numba's dispatcher does): `ty` is
the argument's type (a ptxjit.types object: NumberType, ArrayType with its
dtype, ndim, layout and readonly; a Type named as a launch spells it for
records and the like; None for a value the launch cannot type, which an
extension may turn into one it can), `val` the value, `stream` the
launch's stream (0 for the default one) and `retr` a list to which the
extension may append callables with no arguments; they run after the
launch, in order (Numba uses them to copy results back).  What the last
call returns is what the kernel is launched with.

ptxjit types a kernel's arguments by their values, so the type an
extension returns must be the type of the value it returns (it may also
return None: "type it by its value").  A type that says otherwise is
refused, naming the extension and the argument, not ignored.

Dispatchers without extensions keep the launch path all in C: a
dispatcher becomes an ExtensionDispatcher (a subclass whose subscript
returns an ExtensionLauncher) when it is given extensions or when its
`extensions` list is first read, which is how Numba's users add them.
"""

from .. import types as _types


def check_extension(ext, where):
    if not callable(getattr(ext, "prepare_args", None)):
        raise TypeError("%s: an extension is an object with a method prepare_args(ty, val, stream=..., retr=...) "
                        "returning (ty, val); %r has none" % (where, ext))


def type_object(s):
    """The ptxjit.types object of a launch's type spelling ("float64[::1]",
    "readonly int32[:, :]", "float32"); None for None."""
    if s is None:
        return None
    from .dispatcher import _CANON, _parse_argtype
    ro = s.startswith("readonly ")
    dtype, ndim, layout = _parse_argtype(s)
    t = getattr(_types, dtype, None) if dtype in _CANON.values() else None
    if not layout:
        return t if isinstance(t, _types.NumberType) else _types.Type(s)
    if isinstance(t, _types.NumberType):
        return _types.ArrayType(t, ndim, layout, ro)
    return _types.Type(s)


def _same(ty, s):
    """Whether a type an extension returned (a ptxjit or Numba type, or a
    string) is the launch's type s of the value it returned."""
    from .dispatcher import _canon_type, _is_readonly, _parse_argtype
    t = _canon_type(str(ty))
    return _parse_argtype(t) == _parse_argtype(s) and _is_readonly(t) == _is_readonly(s)


def _name(ext):
    return "%s.prepare_args" % type(ext).__name__


class ExtensionLauncher:
    """kernel[config] of a dispatcher with extensions: prepares the
    arguments, launches through the C launcher, then runs retr."""

    __slots__ = ("_d", "_launch", "_stream")

    def __init__(self, dispatcher, launcher, stream):
        self._d, self._launch, self._stream = dispatcher, launcher, stream

    def __call__(self, *args):
        d = self._d
        exts = d.targetoptions.get("extensions") or ()
        if not exts:
            return self._launch(*args)
        for ext in exts:
            check_extension(ext, "kernel %r" % d.__name__)
        retr = []
        stream = self._stream if self._stream is not None else 0
        vals = []
        for i, v in enumerate(args):
            ty = type_object(_type_of(d, v))
            for ext in reversed(exts):
                got = ext.prepare_args(ty, v, stream=stream, retr=retr)
                if not (isinstance(got, tuple) and len(got) == 2):
                    raise TypeError("kernel %r: %s returned %r for argument %d ('%s'); it must return a tuple "
                                    "(ty, val)" % (d.__name__, _name(ext), got, i + 1, _argname(d, i)))
                ty, v = got
            s = _type_of(d, v)
            if ty is not None and (s is None or not _same(ty, s)):
                raise TypeError(
                    "kernel %r: the extensions made argument %d ('%s') %s but said its type is %s (the first "
                    "extension, %s, said it last); ptxjit types a kernel's arguments by their values, so an "
                    "extension returns the type of the value it returns, or None"
                    % (d.__name__, i + 1, _argname(d, i), "a value of type %s" % s if s else "%r" % (v,), ty,
                       _name(exts[0])))
            vals.append(v)
        result = self._launch(*vals)
        for wb in retr:
            wb()
        return result


def _type_of(d, v):
    """The launch's spelling of v's type, or None where it has none (a
    tuple, a value kernels do not take)."""
    try:
        return d._typeof((v,))[0]
    except (TypeError, ValueError):
        return None


def _argname(d, i):
    names = d.py_func.__code__.co_varnames
    return names[i] if i < d.py_func.__code__.co_argcount else "?"

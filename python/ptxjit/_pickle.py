"""Pickling of jitted functions: kernels, device functions, @njit
functions and functions over arrays.

An object bound to its module's name pickles as that name (the same object
comes back; another process imports the module).  Otherwise, where the
caller can rebuild it, it pickles as its Python function and what rebuilds
it; the function goes by reference to its module's name when it has one,
else by value, as Numba's cloudpickle does: its code object (marshal, so
only the same Python version loads it), its module's name (whose globals it
gets back), its defaults and the values of its closure.  The compiler then
reads its source from its file, or rebuilds it from the code.  Compiled code
is not kept: it is made again (in microseconds, or from the disk cache).
"""

import importlib
import marshal
import pickle
import sys
import types


def by_name(obj):
    """obj's qualified name when its module holds obj under it, else None."""
    qual = getattr(obj, "__qualname__", "")
    mod = sys.modules.get(getattr(obj, "__module__", None) or "")
    if mod is None or not qual or "<locals>" in qual:
        return None
    cur = mod
    for part in qual.split("."):
        cur = getattr(cur, part, None)
    return qual if cur is obj else None


class _PyFuncOf:
    """Pickles as getattr(holder, "py_func"): the Python function of a
    jitted object that its module holds under the function's name."""

    def __init__(self, holder):
        self.holder = holder

    def __reduce__(self):
        return (getattr, (self.holder, "py_func"))


def function(f):
    """f, or what pickles as f: by reference to its module's name, or to
    the py_func of the jitted object its module holds under that name."""
    if by_name(f) is not None:
        return f
    mod = sys.modules.get(getattr(f, "__module__", None) or "")
    holder = mod
    for part in getattr(f, "__qualname__", "<locals>").split("."):
        holder = getattr(holder, part, None)
    if holder is not None and getattr(holder, "py_func", None) is f:
        return _PyFuncOf(holder)
    return _FuncByValue(f)


class _FuncByValue:
    """Pickles a function by value: its code, module name, defaults and
    closure values (_rebuild_function)."""

    def __init__(self, f):
        self.f = f

    def __reduce__(self):
        f = self.f
        try:
            closure = tuple(c.cell_contents for c in f.__closure__ or ())
        except ValueError:
            raise pickle.PicklingError("cannot pickle %s: a variable of its closure (%s) has no value yet"
                                       % (f.__qualname__, ", ".join(f.__code__.co_freevars))) from None
        return (_rebuild_function, (tuple(sys.version_info[:2]), marshal.dumps(f.__code__), f.__module__,
                                    f.__name__, f.__qualname__, f.__defaults__, closure))


def _rebuild_function(version, code, module, name, qualname, defaults, closure):
    if tuple(version) != tuple(sys.version_info[:2]):
        raise pickle.UnpicklingError("function %s was pickled by value under Python %d.%d; its code loads only "
                                     "under that version, not %d.%d" % ((qualname,) + tuple(version)
                                                                        + tuple(sys.version_info[:2])))
    mod = importlib.import_module(module)
    f = types.FunctionType(marshal.loads(code), mod.__dict__, name, defaults,
                           tuple(types.CellType(v) for v in closure) or None)
    f.__qualname__ = qualname
    return f


def reduce_jitted(obj, what, rebuild=None):
    """obj.__reduce__: by name, else rebuild() (a reduce tuple)."""
    name = by_name(obj)
    if name is not None:
        return name
    if rebuild is None:
        raise pickle.PicklingError("cannot pickle %s %r: it pickles by reference (module and name) only; define "
                                   "it at module level" % (what, obj.__qualname__))
    return rebuild()

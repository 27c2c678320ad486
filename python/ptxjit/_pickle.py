"""Pickling of jitted functions: kernels, device functions, @njit
functions and functions over arrays.

ptxjit compiles a function from its source, so a pickle holds a reference
to the function, never its code (Numba pickles the code by value with
cloudpickle): an object bound to its module's name pickles as that name (the
same object comes back; another process imports the module), and otherwise,
where the caller can rebuild it, as its Python function by reference with
what rebuilds it.  Compiled code is not kept: it is made again (in
microseconds, or from the disk cache).
"""

import pickle
import sys


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
    raise pickle.PicklingError("cannot pickle %r: its module %s does not hold it (or a jitted function of it) "
                               "under its name %r" % (f, getattr(f, "__module__", "?"),
                                                      getattr(f, "__qualname__", "?")))


def reduce_jitted(obj, what, rebuild=None):
    """obj.__reduce__: by name, else rebuild() (a reduce tuple) when its
    Python function can be pickled by reference."""
    name = by_name(obj)
    if name is not None:
        return name
    f = getattr(obj, "py_func", None)
    if rebuild is None or "<locals>" in getattr(f, "__qualname__", "<locals>"):
        raise pickle.PicklingError(
            "cannot pickle %s %r: ptxjit pickles compiled functions by reference (module and name), since "
            "it compiles them from their source; define it at module level%s"
            % (what, obj.__qualname__, "" if rebuild is None else ", or jit a module-level function"))
    return rebuild()

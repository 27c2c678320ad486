"""numba.cuda.extending: Python functions that kernels call, defined outside them.

  @overload(func)            func(args) in a kernel calls the function that the
                             decorated typing function returns for the
                             arguments' types (ptxjit.types objects, which
                             answer isinstance(t, types.Integer), types.Array,
                             ... as Numba's do); None declines those types
  @overload_method(cls, name)    x.name(args) for a value whose type is a cls
  @overload_attribute(cls, name) x.name, likewise
  @register_jitable          the function itself, compiled as a device function
                             where a kernel calls it
  numba's @njit functions    called from a kernel, compiled as device functions

The compiler (src/sema/sema_ext.c) types the arguments of such a call and
asks the chooser registered here for the implementation, which it then
compiles like any @cuda.jit(device=True) function.  This module only keeps
the registrations and turns the compiler's type spellings into type objects.

Numba's lower-level extension API (typeof_impl, type_callable,
register_model, models, make_attribute_wrapper, lower_builtin, intrinsic,
...) builds LLVM IR, which ptxjit never uses: registrations are accepted, so
that modules making them import, and a kernel that calls such a function is
refused at the call's line (_lowlevel.py).
"""

import sys

from . import types
from ._lowlevel import (  # noqa: F401
    LLVM_API_MESSAGE, NativeValue, _Intrinsic, box, core_models, intrinsic, lower_builtin, lower_cast,
    lower_getattr, lower_getattr_generic, lower_setattr, lower_setattr_generic, make_attribute_wrapper,
    models, register_model, type_callable, typeof_impl, unbox, _modelled_type, _refused,
)

__all__ = ["overload", "overload_method", "overload_attribute", "register_jitable", "intrinsic", "_Intrinsic",
           "typeof_impl", "type_callable", "register_model", "models", "core_models", "make_attribute_wrapper",
           "lower_builtin", "lower_cast", "lower_getattr", "lower_getattr_generic", "lower_setattr",
           "lower_setattr_generic", "box", "unbox", "NativeValue"]

# Numba's targets; a kernel uses the overloads for "cuda" before "generic" ones
_CUDA_TARGETS = ("cuda", "gpu")
_ALL_TARGETS = ("generic",) + _CUDA_TARGETS + ("cpu", "npyufunc")

_functions = {}     # id(func) -> (func, _Overloaded)
_members = {}       # ".m.NAME" / ".a.NAME" -> _Overloaded
_jitables = {}      # id(func) -> (func, CUDADispatcher)


# ------------------------------------------------------------ types

_SCALAR_NAMES = {"bool": "boolean"}


def _split(text):
    """The top-level comma-separated parts of text."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    if last:
        parts.append(last)
    return parts


def type_of_text(text):
    """The ptxjit.types object of a type as the compiler spells it
    ("int64", "readonly array(float32, 2d, C)", "UniTuple(int64 x 3)",
    "Tuple(int64, float32)"); another type is a types.Type of that name."""
    text = text.strip()
    t = getattr(types, _SCALAR_NAMES.get(text, text), None)
    if isinstance(t, types.Type):
        return t
    if text.startswith("Literal[int](") and text.endswith(")"):
        return types.IntegerLiteral(int(text[13:-1]))
    if text.startswith("Literal[bool](") and text.endswith(")"):
        return types.BooleanLiteral(text[14:-1] == "True")
    readonly = text.startswith("readonly ")
    body = text[9:].strip() if readonly else text
    if body.startswith("array(") and body.endswith(")"):
        parts = _split(body[6:-1])
        if len(parts) == 3 and parts[1].endswith("d") and parts[1][:-1].isdigit():
            return types.ArrayType(type_of_text(parts[0]), int(parts[1][:-1]), parts[2], readonly=readonly)
    if text.startswith("UniTuple(") and text.endswith(")") and " x " in text:
        elt, _, n = text[9:-1].rpartition(" x ")
        if n.isdigit():
            return types.UniTuple(type_of_text(elt), int(n))
    if text.startswith("Tuple(") and text.endswith(")"):
        return types.Tuple([type_of_text(p) for p in _split(text[6:-1])])
    return types.Type(text)


def _arguments(argtext):
    """(positional types, {keyword: type}) of the compiler's argument text."""
    args, kws = [], {}
    for part in _split(argtext):
        head, eq, tail = part.partition("=")
        if eq and head.strip().isidentifier():
            kws[head.strip()] = type_of_text(tail)
        else:
            args.append(type_of_text(part))
    return tuple(args), kws


# ------------------------------------------------------------ overloads

def _where(fn):
    code = getattr(fn, "__code__", None)
    if code is None:
        return getattr(fn, "__qualname__", repr(fn))
    return "%s (%s:%d)" % (fn.__qualname__, code.co_filename, code.co_firstlineno)


def _options(kind, jit_options, inline):
    if inline not in ("never", "always") and not callable(inline):
        raise ValueError("%s: inline is 'never', 'always' or a function, not %r" % (kind, inline))
    if not isinstance(jit_options, dict):
        raise TypeError("%s: jit_options is a dict of @cuda.jit options, not %r" % (kind, jit_options))
    opts = {k: v for k, v in jit_options.items() if k in ("fastmath", "debug", "lineinfo", "opt", "inline")}
    unknown = sorted(set(jit_options) - set(opts) - {"nopython", "nogil", "cache", "boundscheck", "no_cpython_wrapper"})
    if unknown:
        raise TypeError("%s: jit_options %s are not options of device functions (they take fastmath, debug, "
                        "lineinfo, opt and inline)" % (kind, ", ".join(map(repr, unknown))))
    if inline == "always":
        opts["inline"] = "always"
    return opts


def _target(kind, target):
    if target not in _ALL_TARGETS:
        raise ValueError("%s: target is one of %s, not %r" % (kind, ", ".join(map(repr, _ALL_TARGETS)), target))
    return target


def _parameters(fn):
    """(positional parameters, *args or None, parameters with defaults) of
    fn; **kwargs is refused (a str saying so)."""
    import inspect
    sig = inspect.signature(fn)
    plain, star, keyed = [], None, []
    for p in sig.parameters.values():
        if p.kind == p.VAR_KEYWORD:
            return ("The use of VAR_KEYWORD (e.g. **kwargs) is unsupported (offending argument name is "
                    "'%s' in %s)" % (p, _where(fn)))
        if p.kind == p.VAR_POSITIONAL:
            star = p
        if p.default is p.empty:
            plain.append(p)
        else:
            keyed.append(p)
    return plain, star, keyed


def _signature_mismatch(typing, impl):
    """Why the implementation's parameters are not the typing function's
    (Numba's strict check), or None when they agree."""
    import inspect
    t, i = _parameters(typing), _parameters(impl)
    for got in (t, i):
        if isinstance(got, str):
            return got
    (tplain, tstar, tkeyed), (iplain, istar, ikeyed) = t, i
    sigs = "Typing signature:         %s\nImplementation signature: %s" % (inspect.signature(typing),
                                                                        inspect.signature(impl))
    head = "Typing and implementation arguments differ in "
    if tstar is not None and istar is None:
        return ("VAR_POSITIONAL (e.g. *args) argument kind (offending argument name is '%s') is in the typing "
                "function's signature but not in the implementation's.\n%s" % (tstar, sigs))
    if [p.name for p in tplain] != [p.name for p in iplain]:
        first = next((b.name for a, b in zip(tplain, iplain) if a.name != b.name), None)
        if first is None:
            longer = tplain if len(tplain) > len(iplain) else iplain
            first = longer[min(len(tplain), len(iplain))].name
        return "%sargument names.\n%s\nTyping: %s\nImplementation: %s\nFirst difference: '%s'" % (
            head, sigs, tplain, iplain, first)
    if [p.name for p in tkeyed] != [p.name for p in ikeyed]:
        return "%skeyword argument names.\n%s\nTyping: %s\nImplementation: %s" % (head, sigs, tkeyed, ikeyed)
    if [p.default for p in tkeyed] != [p.default for p in ikeyed]:
        return "%skeyword argument default values.\n%s\nTyping: %s\nImplementation: %s" % (
            head, sigs, tkeyed, ikeyed)
    return None


class _Template:
    __slots__ = ("typing", "target", "options", "cls", "cache", "strict", "prefer_literal", "devices")

    def __init__(self, typing, target, options, cls=None, strict=True, prefer_literal=False):
        self.typing = typing
        self.target = target
        self.options = options
        self.cls = cls          # overload_method/attribute: the type class of self
        self.cache = {}         # argument text -> CUDADispatcher, None (declined) or a str (refused)
        self.strict = strict    # the implementation's parameters must be the typing function's
        self.prefer_literal = prefer_literal   # literal argument types first, then their plain types
        self.devices = {}       # implementation -> its CUDADispatcher

    def choose(self, args, kws, key, owner):
        """The device function for these argument types, None (declined) or
        a str (refused)."""
        if key in self.cache:
            return self.cache[key]
        impl = self.typing(*args, **kws)
        d = None
        if impl is not None:
            d = self.devices.get(impl)
            if d is None:
                d = self.devices[impl] = _device(impl, self.options, owner)
            if self.strict:
                d = _signature_mismatch(self.typing, d.py_func) or d
        self.cache[key] = d
        return d


class _Overloaded:
    """The chooser of one overloaded function, method or attribute: called
    by the compiler (src/py/jit.c) with the call's argument types, it
    returns the device function to call, or a str saying why none fits."""

    def __init__(self, name, what):
        self.name = name
        self.what = what        # "function", "method" or "attribute"
        self.templates = []

    def add(self, template):
        self.templates.append(template)

    def __call__(self, argtext):
        args, kws = _arguments(argtext)
        plain = (tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})
        literal = plain != (args, kws)
        usable = [t for t in self.templates if t.target in _CUDA_TARGETS] + \
                 [t for t in self.templates if t.target == "generic"]
        tried = []
        for t in usable:
            if t.cls is not None and not (args and isinstance(args[0], t.cls)):
                continue
            views = [(args, kws, argtext)] if not literal else \
                [(args, kws, argtext), plain + ("plain " + argtext,)]
            if literal and not t.prefer_literal:
                views.reverse()
            failed = None
            for n, (a, k, key) in enumerate(views):
                try:
                    d = t.choose(a, k, key, self)
                except Exception as e:      # as Numba: the other view of literals is tried next
                    if n + 1 == len(views):
                        raise
                    failed, d = e, None
                if d is not None:
                    return d
            if failed is not None:
                raise failed
            tried.append(_where(t.typing))
        if not usable:
            return ("%s is overloaded only for targets %s, not for CUDA kernels; add @overload(..., "
                    "target='cuda') or target='generic'" % (self.name, ", ".join(sorted({t.target for t in
                                                                                       self.templates}))))
        if not tried:
            return "no overload of %s %s is registered for a value of type %s" % (
                self.what, self.name, args[0] if args else "?")
        return ("the typing function%s %s returned None for these types; an overload's typing function "
                "returns the implementation for the types it accepts" % ("s" if len(tried) > 1 else "",
                                                                           ", ".join(tried)))


def _device(impl, options, owner):
    from .cuda.dispatcher import CUDADispatcher
    if isinstance(impl, CUDADispatcher):
        return impl
    if not callable(impl) or getattr(impl, "__code__", None) is None:
        raise TypeError("the typing function of %s returned %r; it returns a Python function (the "
                        "implementation) or None" % (owner.name, impl))
    return CUDADispatcher(impl, device=True, options=options)


def overload(func, jit_options={}, strict=True, inline="never", prefer_literal=False, target="generic",
             **kwargs):
    """@overload(func): the decorated typing function receives the types of
    a call's arguments and returns the implementation (a Python function
    compiled as a device function), or None to decline."""
    opts = _options("overload", jit_options, inline)
    _target("overload", target)

    def decorate(typing):
        ent = _functions.get(id(func))
        if ent is None or ent[0] is not func:
            name = getattr(func, "__name__", None) or repr(func)
            ent = _functions[id(func)] = (func, _Overloaded(name, "function"))
        ent[1].add(_Template(typing, target, opts, strict=strict, prefer_literal=prefer_literal))
        return typing

    return decorate


def _member(kind, what, typ, attr, jit_options, inline, target, prefer_literal=False):
    opts = _options(kind, jit_options, inline)
    _target(kind, target)
    if not isinstance(attr, str) or not attr.isidentifier():
        raise TypeError("%s: the %s's name is an identifier, not %r" % (kind, what, attr))
    cls = typ if isinstance(typ, type) else type(typ)

    def decorate(typing):
        key = ".%s.%s" % (what[0], attr)
        ov = _members.get(key)
        if ov is None:
            ov = _members[key] = _Overloaded(attr, what)
        ov.add(_Template(typing, target, opts, cls, prefer_literal=prefer_literal))
        return typing

    return decorate


def overload_method(typ, attr, jit_options={}, inline="never", prefer_literal=False, target="generic",
                    **kwargs):
    """@overload_method(types.Array, "name"): x.name(args) for x of that type
    class calls what the typing function returns for (type of x, types of
    args)."""
    return _member("overload_method", "method", typ, attr, jit_options, inline, target, prefer_literal)


def overload_attribute(typ, attr, jit_options={}, inline="never", prefer_literal=False, target="generic",
                       **kwargs):
    """@overload_attribute(types.Array, "name"): x.name is what the function
    that the typing function returns for x's type gives for x."""
    return _member("overload_attribute", "attribute", typ, attr, jit_options, inline, target, prefer_literal)


def register_jitable(*args, **kwargs):
    """@register_jitable (or with options): the function, unchanged in
    Python, is compiled as a device function where a kernel calls it."""
    def wrap(fn):
        if getattr(fn, "__code__", None) is None:
            raise TypeError("register_jitable decorates a Python function, not %r" % (fn,))
        from .cuda.dispatcher import CUDADispatcher
        opts = {k: v for k, v in kwargs.items() if k in ("fastmath", "debug", "lineinfo", "opt", "inline")}
        _jitables[id(fn)] = (fn, CUDADispatcher(fn, device=True, options=opts))
        return fn

    if len(args) == 1 and callable(args[0]) and not kwargs:
        return wrap(args[0])
    return wrap


# ------------------------------------------------------------ for the resolver

def _is_numba_cpu_dispatcher(obj):
    mod = type(obj).__module__ or ""
    return mod.startswith("numba.") and not mod.startswith("numba.cuda") and \
        getattr(getattr(obj, "py_func", None), "__code__", None) is not None and hasattr(obj, "targetoptions")


def _from_numba_overload(obj):
    """Files obj's overloads made with Numba's own numba.extending.overload
    for the cuda (or generic) target, read from Numba's typing registry when
    Numba is imported, as overloads of ptxjit's: the user's typing function
    then gives an implementation that ptxjit compiles.  Numba's own
    library's overloads are not taken.  True if any was filed."""
    tm = sys.modules.get("numba.core.typing.templates")
    registry = getattr(tm, "builtin_registry", None)
    found = False
    for fn, ty in list(getattr(registry, "globals", ())):
        if fn is not obj:
            continue
        for tpl in getattr(ty, "templates", ()):
            typing = getattr(tpl, "_overload_func", None)
            target = (getattr(tpl, "metadata", None) or {}).get("target", "generic")
            mod = getattr(typing, "__module__", "") or ""
            if typing is None or target not in ("cuda", "generic") or (
                    mod.startswith("numba.") and ".tests." not in mod):
                continue
            inline = getattr(getattr(tpl, "_inline", None), "value", "never")
            overload(obj, inline=inline if inline in ("always", "never") else "never", target=target)(typing)
            found = True
    return found


def entry_of(obj):
    """The resolver table's entry (see cuda/dispatcher.py's _ResolveTable)
    for an overloaded or jitable function, numba's @njit dispatchers among
    them, or None."""
    ent = _jitables.get(id(obj))
    if ent is not None and ent[0] is obj:
        return (obj, "device", ent[1].__qualname__, ent[1])
    ent = _functions.get(id(obj))
    if ent is not None and ent[0] is obj:
        return (obj, "overload", ent[1].name, ent[1])
    refused = _refused(obj)
    if refused is not None:
        return (obj, "overload", refused.name, refused)
    modelled = _modelled_type(obj)
    if modelled is not None:
        return (obj, "unknown", modelled, None)
    if _from_numba_overload(obj):
        return entry_of(obj)
    if _is_numba_cpu_dispatcher(obj) and not getattr(obj, "_can_compile", True):
        # "!": the message itself (src/sema/resolve.c's unusable_message)
        return (obj, "unknown", "!using cpu function on device but its compilation is disabled (its "
                "signatures were given explicitly)", None)
    if _is_numba_cpu_dispatcher(obj):
        from .cuda.dispatcher import CUDADispatcher
        opts = {k: v for k, v in obj.targetoptions.items() if k in ("fastmath",)}
        d = CUDADispatcher(obj.py_func, device=True, options=opts)
        _jitables[id(obj)] = (obj, d)
        return (obj, "device", d.__qualname__, d)
    return None


def overload_entry(obj):
    """The entry of obj's @overload, or None."""
    ent = _functions.get(id(obj))
    return (obj, "overload", ent[1].name, ent[1]) if ent is not None and ent[0] is obj else None


_MODULES = {"numpy": "numpy", "math": "math", "cmath": "cmath"}


def member_entry(key):
    """The entry for ".m.NAME" / ".a.NAME" (a method or attribute), or for
    ".q.MODULE.NAME" (an overload of a module's function), or None."""
    if key.startswith(".q."):
        module, _, name = key[3:].rpartition(".")
        m = sys.modules.get(_MODULES.get(module, ""))
        obj = getattr(m, name, None) if m is not None else None
        return None if obj is None else overload_entry(obj)
    ov = _members.get(key)
    return None if ov is None else (ov, "overload", ov.name, ov)



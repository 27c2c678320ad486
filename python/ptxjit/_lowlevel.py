"""Numba's LLVM-level extension API, accepted and refused where it is used.

typeof_impl, type_callable, register_model, the data models,
make_attribute_wrapper, lower_builtin (numba.cuda.cudaimpl.lower),
intrinsic, the typing templates and registries (numba.cuda.cudadecl,
numba.cuda.typing.templates, numba.cuda.core.imputils) describe new types
and functions by the LLVM IR that implements them.  ptxjit writes PTX
itself and has no LLVM, so it cannot run that code.  The registrations are
kept, so that a module making them imports; a kernel that calls a function
registered here is refused at the call, with LLVM_API_MESSAGE saying what
to write instead (the chooser of _Refused is asked like an @overload's and
always declines).  cgutils' and the models' helpers are names only.
"""

LLVM_API_MESSAGE = ("%s is implemented with Numba's LLVM lowering API (type_callable, lower_builtin, "
                    "intrinsic, ...), which ptxjit does not support; write it as an @overload or a "
                    "@cuda.jit(device=True) function")

__all__ = ["LLVM_API_MESSAGE", "typeof_impl", "type_callable", "register_model", "models", "core_models",
           "make_attribute_wrapper", "lower_builtin", "lower", "lower_attr", "lower_cast", "lower_getattr",
           "lower_getattr_generic", "lower_setattr", "lower_setattr_generic", "lower_constant", "intrinsic",
           "_Intrinsic", "box", "unbox", "NativeValue", "Registry", "registry", "AttributeTemplate",
           "ConcreteTemplate", "AbstractTemplate", "CallableTemplate", "bound_function", "signature"]

_refusals = {}      # id(obj) -> (obj, _Refused)


class _Refused:
    """The chooser of a function implemented in LLVM: declines every call."""

    def __init__(self, name):
        self.name = name

    def __call__(self, argtext):
        return LLVM_API_MESSAGE % self.name


def _callable_name(obj):
    return getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or repr(obj)


def _refuse(obj):
    """Files obj (a Python function or class of the user's) as implemented
    in LLVM; the builtins and library functions kernels know keep their
    own meaning."""
    if isinstance(obj, str):
        return
    user_class = isinstance(obj, type) and obj.__module__ not in ("builtins",)
    if not (user_class or getattr(obj, "__code__", None) is not None or isinstance(obj, _Intrinsic)):
        return
    _refusals.setdefault(id(obj), (obj, _Refused(_callable_name(obj))))


def _refused(obj):
    ent = _refusals.get(id(obj))
    return ent[1] if ent is not None and ent[0] is obj else None


def _keep(fn):
    return fn


def _unsupported(name):
    raise NotImplementedError(LLVM_API_MESSAGE % name)


def _decorator(*args, **kwargs):
    return _keep


class _TypeofRegistry:
    """typeof_impl: @typeof_impl.register(cls) files how Numba types a value."""

    def __init__(self):
        self.impls = {}

    def register(self, cls):
        def decorate(fn):
            self.impls[cls] = fn
            return fn
        return decorate

    def __call__(self, val, c=None):
        _unsupported("typeof_impl")


typeof_impl = _TypeofRegistry()


def type_callable(func):
    """@type_callable(func): Numba's typer of func, for a lowering in LLVM."""
    _refuse(func)
    return _keep


_modelled = []      # the type classes given an LLVM data model


def register_model(typ):
    """@register_model(TypeClass): the LLVM data model of a type."""
    if isinstance(typ, type) and typ not in _modelled:
        _modelled.append(typ)
    return _keep


def _modelled_type(obj):
    """What to call obj when it is a type with an LLVM data model, or None."""
    for cls in _modelled:
        if isinstance(obj, cls):
            return ("%s (a type whose data model is registered with Numba's LLVM API, register_model, which "
                    "ptxjit does not support)" % type(obj).__name__)
    return None


def make_attribute_wrapper(typeclass, struct_attr, python_attr):
    """Numba's attribute of a struct model's member: an LLVM lowering."""


def lower_builtin(func, *argtys):
    """@lower_builtin(func, *types): func's LLVM implementation."""
    _refuse(func)
    return _keep


lower = lower_builtin
lower_cast = _decorator
lower_getattr = _decorator
lower_getattr_generic = _decorator
lower_setattr = _decorator
lower_setattr_generic = _decorator
lower_constant = _decorator
lower_attr = _decorator
box = _decorator
unbox = _decorator


class NativeValue:
    def __init__(self, value, is_error=None, cleanup=None):
        self.value = value
        self.is_error = is_error
        self.cleanup = cleanup


class _Intrinsic:
    """What @intrinsic makes: a function typed and lowered in LLVM."""

    def __init__(self, name, defn, prefer_literal=False, **kwargs):
        self._name = name
        self.__name__ = name
        self.__qualname__ = getattr(defn, "__qualname__", name)
        self.__module__ = getattr(defn, "__module__", None)
        self.__doc__ = getattr(defn, "__doc__", None)
        self.__wrapped__ = defn
        self._defn = defn

    def __call__(self, *args, **kwargs):
        _unsupported(self._name)


def intrinsic(*args, **kwargs):
    """@intrinsic: a function written as LLVM IR (refused where called)."""
    def wrap(fn):
        obj = _Intrinsic(fn.__name__, fn, **kwargs)
        _refuse(obj)
        return obj

    if len(args) == 1 and callable(args[0]) and not kwargs:
        return wrap(args[0])
    return wrap


class _Model:
    """A Numba data model (an LLVM layout): a name to subclass."""

    def __init__(self, dmm=None, fe_type=None, *args, **kwargs):
        self._fe_type = fe_type


class _Models:
    """numba's datamodel.models: every model class is a _Model."""

    def __getattr__(self, name):
        if name.startswith("__"):
            return object.__getattribute__(self, name)
        cls = type(name, (_Model,), {})
        setattr(self, name, cls)
        return cls


models = core_models = _Models()


class Registry:
    """A typing or lowering registry (cudadecl.registry, cudaimpl.registry,
    imputils.Registry): its decorators file a function, refused where a
    kernel calls it."""

    def __init__(self, name=None):
        self.name = name

    def register(self, item):
        return item

    def register_attr(self, item):
        return item

    def register_global(self, val=None, typ=None):
        if val is not None:
            _refuse(val)
        return _keep if typ is None or not callable(typ) else typ

    def lower(self, func, *argtys):
        return lower_builtin(func, *argtys)

    lower_getattr = lower_getattr_generic = lower_setattr = lower_setattr_generic = lower_cast = \
        lower_constant = staticmethod(_decorator)


registry = Registry("ptxjit")


class _Template:
    """Numba's typing templates: classes to subclass, typed in LLVM."""
    key = None
    cases = ()

    def __init__(self, context=None):
        self.context = context


class AttributeTemplate(_Template):
    pass


class ConcreteTemplate(_Template):
    pass


class AbstractTemplate(_Template):
    pass


class CallableTemplate(_Template):
    pass


def bound_function(template_key):
    return _keep


def signature(return_type, *args, **kwargs):
    from .typing import signature as _signature
    return _signature(return_type, *args)

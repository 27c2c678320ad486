"""@cuda.jit: the dispatcher that compiles a Python function to a kernel.

A CUDADispatcher holds the Python function and its compiled signatures.  The
launch path (`kernel[grid, block](args)`) is C, in its base class
ptxjit._core.Dispatcher: it classifies the arguments, looks the signature up
in its own table and calls back here, through _compile_for(argtypes), only
for a signature it has not seen.  Then this file compiles: the function's
source (ptxjit/source.py: the text Python ran, dedented), its file and first line, and its
globals and closure (read by the compiler's resolver, in C, at compile time;
the values found are frozen in the dispatcher, as Numba freezes globals).

With explicit signatures (`@cuda.jit("void(float32[:], float32)")`) the
kernel is compiled at once and never again: a launch picks the compiled
signature its arguments convert to, as in Numba.
"""

import copyreg
import pickle
import sys
import types as _types_mod
from types import ModuleType as _ModuleType

from .. import _core, _pickle
from .. import types as _types
from ..source import REBUILT, capture_lines, source_of  # noqa: F401  (source_of: the home of ufunc's and cpu's)
from . import cache as _cache
from . import config as _config
from . import launchconfig as _launchconfig
from . import stubs

_OPTIONS = {
    "device", "fastmath", "debug", "lineinfo", "max_registers", "cache", "inline", "opt",
    "forceinline", "launch_bounds", "link", "boundscheck", "lto", "extensions", "shared_memory_carveout",
}

_CARVEOUTS = {"default": -1, "maxl1": 0, "maxshared": 100}


def _carveout(v):
    """shared_memory_carveout as a percentage (-1: the driver's default)."""
    if isinstance(v, str):
        if v.lower() not in _CARVEOUTS:
            raise ValueError("Invalid carveout value: %r; shared_memory_carveout is -1 to 100 (the percentage of "
                             "L1/shared memory given to shared memory) or one of 'default', 'MaxL1', 'MaxShared'"
                             % (v,))
        return _CARVEOUTS[v.lower()]
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("shared_memory_carveout is an int or one of 'default', 'MaxL1', 'MaxShared', not %r" % (v,))
    if not -1 <= v <= 100:
        raise ValueError("shared_memory_carveout must be between -1 and 100 (a percentage; -1: the driver's "
                         "default), not %d" % v)
    return v

# Numba's names for dtypes in signatures, and the canonical spelling the
# launch path uses (the names of ptxjit.types).
_CANON = {}
for _t in _types.number_types():
    _CANON[_t.name] = _t.name
for _n in dir(_types):
    _v = getattr(_types, _n)
    if isinstance(_v, _types.NumberType):
        _CANON[_n] = _v.name
_CANON["bool"] = "boolean"
del _t, _n, _v


def _split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def _base_dims(s):
    """('float32', ':, ::1') of 'float32[:, ::1]', ('Record(...)', '::1') of
    'Record(...)[::1]'; (s, None) for a type without dimensions."""
    if not s.endswith("]"):
        return s, None
    depth = 0
    for k in range(len(s) - 1, -1, -1):
        if s[k] == "]":
            depth += 1
        elif s[k] == "[":
            depth -= 1
            if depth == 0:
                base = s[:k].strip()
                if base and (base[-1] == ")" or base[-1] == "_" or base[-1].isalnum()):
                    return base, s[k + 1:-1]
                break
    return s, None


class _Overloads(dict):
    """A dispatcher's compiled signatures (and what inspect_asm() and the
    other inspect_ methods give per signature), keyed by the tuple of argument
    type names ('float32[::1]', ...); a tuple of type objects, as Numba's users
    write `k.overloads[(int32[:, ::1],)]`, finds the same entry."""

    @staticmethod
    def _key(key):
        if isinstance(key, tuple) and not all(isinstance(s, str) for s in key):
            return tuple(_canon_type(str(t)) for t in key)
        return key

    def __getitem__(self, key):
        return dict.__getitem__(self, self._key(key))

    def __contains__(self, key):
        return dict.__contains__(self, self._key(key))

    def get(self, key, default=None):
        return dict.get(self, self._key(key), default)


def _canon_type(s):
    """'f4[:,::1]' -> 'float32[:, ::1]', and Numba's str() of an array type,
    'array(int8, 2d, C)', -> 'int8[:, ::1]' (unknown spellings are kept)."""
    s = s.strip()
    if s.startswith("array(") and s.endswith(")"):
        parts = [p.strip() for p in _split_top(s[6:-1])]
        if len(parts) == 3 and parts[1][:-1].isdigit() and parts[1][:-1] != "0" and parts[2] in ("C", "F", "A"):
            n = int(parts[1][:-1])
            dims = [":"] * n
            if parts[2] == "C":
                dims[-1] = "::1"
            elif parts[2] == "F":
                dims[0] = "::1"
            return "%s[%s]" % (_CANON.get(parts[0], parts[0]), ", ".join(dims))
    name, dims = _base_dims(s)
    name = _CANON.get(name, name)
    if dims is None:
        return name
    ds = []
    for d in _split_top(dims):
        d = d.replace(" ", "")
        ds.append("::1" if d == "::1" else ":" if d == ":" else d)
    return "%s[%s]" % (name, ", ".join(ds))


def _foreign_sig(x):
    """Is x a signature of Numba's own types (numba.core.typing's
    Signature: `from numba import types; types.void(types.CPointer(
    types.float32))`)?  Its types print in the spelling ptxjit reads."""
    return (type(x).__module__ or "").startswith("numba.") and hasattr(x, "return_type") and hasattr(x, "args")


def _sig_text(sig):
    if isinstance(sig, str):
        return sig
    if isinstance(sig, _types.Signature):
        return str(sig)
    if _foreign_sig(sig):
        return "%s(%s)" % (sig.return_type, ", ".join(str(a) for a in sig.args))
    if isinstance(sig, tuple):
        return "(%s)" % ", ".join(str(t) for t in sig)
    raise TypeError("a signature is a string like \"void(float32[::1], int64)\", a tuple of types or "
                    "void(float32[::1], int64); not %r" % (sig,))


def _argtypes_of(sigtext):
    """('float32[:]', 'float32') from 'void(float32[:], float32)'."""
    s = sigtext.strip()
    if "(" in s and s.endswith(")"):
        s = s[s.index("(") + 1:-1]
    return tuple(_canon_type(a) for a in _split_top(s))


def _parse_argtype(s):
    """(dtype, ndim, layout) of a canonical type string; layout "" for
    scalars ("array(float64, 0d, C)" is a 0-d array)."""
    if s.startswith("readonly "):
        s = s[9:].strip()
    base, dims = _base_dims(s)
    if dims is not None:
        dims = _split_top(dims)
        layout = "A"
        if dims and dims[-1] == "::1":
            layout = "C"
        elif dims and dims[0] == "::1":
            layout = "F"
        return base, len(dims), layout
    if s.startswith(("array(", "Array(")) and s.endswith(")"):
        parts = _split_top(s[s.index("(") + 1:-1])
        if len(parts) >= 3 and parts[1].endswith("d") and parts[1][:-1].isdigit():
            return _CANON.get(parts[0], parts[0]), int(parts[1][:-1]), parts[2]
    return s, 0, ""


def _is_readonly(t):
    return t.startswith("readonly ") or t.replace(" ", "").endswith(",readonly)")


def _readonly_hint(args):
    """What a no-match error adds when a read-only array is among args."""
    if not any(_is_readonly(a) for a in args):
        return ""
    return ("; a read-only array (its flags.writeable is False) matches only a read-only array type, such as "
            "'readonly float64[:]' or 'array(float64, 1d, A, readonly)'")


def _numba_type_repr(t):
    """A type as Numba's repr spells it in its messages: float64[::1] is
    Array(float64, 1, 'C', False, aligned=True)."""
    t = t.strip()
    readonly = t.startswith("readonly ")
    base, dims = _base_dims(_canon_type(t[9:] if readonly else t))
    if dims is None:
        return base
    ds = [d.replace(" ", "") for d in _split_top(dims)]
    layout = "C" if ds[-1] == "::1" else "F" if ds[0] == "::1" and len(ds) > 1 else "A"
    return "Array(%s, %d, '%s', %s, aligned=True)" % (base, len(ds), layout, readonly)


def pick_overload(what, overloads, argtypes, hint="", func=None):
    """The compiled signature (a key of overloads, in the order compiled)
    that arguments of argtypes call, as Numba's dispatcher chooses among
    declared signatures: the fewest unsafe conversions, then safe ones, then
    promotions (src/sema/overload.c); none, or a tie, is a TypeError
    (a tie in Numba's words first, naming func and the tied signatures)."""
    keys = list(overloads)
    best = _core.pick_signature(", ".join(argtypes), tuple("(%s)" % ", ".join(p) for p in keys))
    if len(best) == 1:
        return keys[best[0]]
    declared = " and ".join("(%s)" % ", ".join(p) for p in keys)
    if not best:
        raise TypeError("No matching definition for argument type(s) %s: %s was compiled for %s, and the "
                        "arguments match none of them%s" % (", ".join(argtypes), what, declared, hint))
    def numba_sig(ts):
        return "(%s)" % ", ".join(_numba_type_repr(t) for t in ts)
    head = "Ambiguous overloading for %r %s:\n%s\n" % (func if func is not None else what, numba_sig(argtypes),
                                                      "\n".join(numba_sig(keys[i]) + " -> none" for i in best))
    raise TypeError("%s%s: the arguments (%s) convert equally well to %s, so the call is ambiguous; pass "
                    "arguments of one signature's types"
                    % (head, what, ", ".join(argtypes), " and ".join("(%s)" % ", ".join(keys[i]) for i in best)))


_FASTMATH_FLAGS = frozenset(("fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"))


def _fastmath(value, name):
    """fastmath=True/False, or a set or dict of LLVM's fast-math flag names
    as Numba takes them ({'arcp', 'nsz'}, {'fast': True}): any flag on is
    the whole of fastmath, as for Numba's CUDA target, whose NVVM options
    (ftz, prec-div, prec-sqrt, fma) are all-or-nothing."""
    if isinstance(value, (set, frozenset, dict)):
        bad = set(value) - _FASTMATH_FLAGS
        if bad:
            raise ValueError("kernel '%s': Unrecognized fastmath flags: %s; the flags are %s"
                             % (name, sorted(bad), ", ".join(sorted(_FASTMATH_FLAGS))))
        return any(value.values()) if isinstance(value, dict) else bool(value)
    if value is None or isinstance(value, (bool, int)):
        return bool(value)
    raise ValueError("kernel '%s': fastmath is True, False, or a set or dict of fast-math flags "
                     "({'arcp', 'nsz'}), not %r" % (name, value))


def _launch_bounds(lb, name):
    """launch_bounds=128, (128,), (128, 2) or (128, 2, 4): (most threads a
    block, least blocks a multiprocessor, most blocks a cluster), 0 where
    not given; PTX's .maxntid, .minnctapersm, .maxclusterrank."""
    if lb is None:
        return (0, 0, 0)
    vals = lb if isinstance(lb, tuple) else (lb,)
    if len(vals) > 3:
        raise ValueError("kernel '%s': Got %d launch bounds: %r. A maximum of three are supported: (max threads "
                         "per block, min blocks per multiprocessor, max blocks per cluster)" % (name, len(vals), lb))
    if not vals or not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        raise TypeError("kernel '%s': launch_bounds is an int or a tuple of one to three ints (max threads "
                        "per block, min blocks per multiprocessor, max blocks per cluster), not %r" % (name, lb))
    if not 1 <= vals[0] <= 1024 or any(v < 1 for v in vals[1:]):
        raise ValueError("kernel '%s': launch_bounds %r: the most threads a block is 1 to 1024 and the other "
                         "bounds are positive" % (name, lb))
    return tuple(vals) + (0,) * (3 - len(vals))


_table_ready = False
_table = None


class _ResolveTable(dict):
    """id(obj) -> (obj, kind, qualified name, module) for the modules,
    functions and types kernels may name by a global or closure variable.

    The C resolver (src/py/jit.c) looks objects up here and calls miss()
    for one it does not find.  What is cheap is filed at the first compile
    (the modules, cuda's functions, the number types, math and cmath when
    imported); math or cmath imported later is filed when a kernel first
    names it; NumPy's few hundred functions are filed the first time a
    kernel names one of them by a variable of its own (`from numpy import
    sqrt`), which most kernels never do: they write np.sqrt, resolved by
    the compiler."""

    def __init__(self):
        super().__init__()
        self._numpy_done = False

    def add(self, obj, kind, qual, module=None):
        self.setdefault(id(obj), (obj, kind, qual, module))

    def miss(self, obj, name):
        ext = _extending_entry(obj)
        if ext is not None:
            return ext
        if _is_cffi_ffi(obj):                # ffi.from_buffer(a) in kernels (src/sema/sema_pointer.c)
            return (obj, "module", "cffi.ffi", None)
        if isinstance(obj, _ModuleType):
            mod = obj.__name__
            if mod in ("math", "cmath"):
                self._add_math(obj)
                return self.get(id(obj))
            return None
        if not callable(obj):
            return None
        mod = getattr(obj, "__module__", None)
        if mod in ("math", "cmath"):
            self._add_math(sys.modules[mod])
            return self.get(id(obj))
        if self._numpy_done:
            return None
        if not (isinstance(mod, str) and mod.partition(".")[0] == "numpy"):
            return None          # every callable in numpy's namespace says it is numpy's
        import numpy as np
        self._numpy_done = True
        for attr, v in sorted(vars(np).items()):
            if attr.startswith("_") or not callable(v):
                continue
            if isinstance(v, np.ufunc) and getattr(np, v.__name__, None) is v:
                attr = v.__name__
            self.add(v, "intrin", "numpy." + attr, np)
        return self.get(id(obj))


    def member(self, key):
        """The overloaded method (".m.NAME") or attribute (".a.NAME") of
        values, or module function (".q.numpy.clip"), that ptxjit.extending
        holds, or None."""
        ext = sys.modules.get("ptxjit.extending")
        return None if ext is None else ext.member_entry(key)

    def overloaded(self, obj):
        """The entry of a user's overload of obj, a function filed here
        (np.clip), or None."""
        ext = sys.modules.get("ptxjit.extending")
        return None if ext is None else ext.overload_entry(obj)

    def _add_math(self, m):
        self.add(m, "module", m.__name__)
        for name, v in vars(m).items():
            if callable(v) and not name.startswith("_"):
                self.add(v, "intrin", "%s.%s" % (m.__name__, name), m)


def _is_cffi_ffi(obj):
    """Is obj a cffi.FFI() object (only once cffi is imported)?"""
    cffi = sys.modules.get("cffi")
    return cffi is not None and isinstance(obj, cffi.FFI)


def _extending_entry(obj):
    """The entry of an @overload-ed (also through Numba's own
    numba.extending.overload), register_jitable or numba @njit function
    (ptxjit.extending), or None."""
    ext = sys.modules.get("ptxjit.extending")
    if ext is None:
        mod = type(obj).__module__ or ""
        numba_overloads = "numba.core.typing.templates" in sys.modules   # numba.extending.overload's
        if not (mod.startswith("numba.") and hasattr(obj, "py_func")) and not numba_overloads:
            return None
        from .. import extending as ext
    return ext.entry_of(obj)


def _build_resolve_table():
    """Files the cheap part of the resolver's table (see _ResolveTable)."""
    global _table_ready, _table
    import numpy as np

    import ptxjit
    from .. import cuda as cuda_mod

    table = _ResolveTable()
    add = table.add
    for m in (np, ptxjit, cuda_mod):
        add(m, "module", m.__name__)
    for name in ("numba", "numba.cuda"):
        m = sys.modules.get(name)
        if m is not None:
            add(m, "module", name if m not in (ptxjit, cuda_mod) else m.__name__)
    for group in (stubs.DIM3, stubs.VALUES):
        for name, obj in group.items():
            add(obj, "intrin", "cuda." + name, cuda_mod)
    for name in stubs.FUNCTIONS:
        add(getattr(stubs, name), "intrin", "cuda." + name, cuda_mod)
    for ns_name, ns in stubs.NAMESPACES.items():
        add(ns, "module", "cuda." + ns_name)
        for member, obj in vars(ns).items():
            if isinstance(obj, stubs.Stub):
                add(obj, "intrin", "cuda.%s.%s" % (ns_name, member), ns)
    from . import libdevice, vector_types
    from .misc.special import literal_unroll
    from ..np import numpy_support
    add(numpy_support.carray, "intrin", "cuda.carray", cuda_mod)
    add(numpy_support.farray, "intrin", "cuda.farray", cuda_mod)
    add(literal_unroll, "intrin", "cuda.literal_unroll", cuda_mod)
    for stub in vector_types.STUBS.values():
        add(stub, "intrin", stub._qualname, cuda_mod)
    add(libdevice, "module", "cuda.libdevice")
    for name, obj in libdevice.FUNCTIONS.items():
        add(obj, "intrin", "cuda.libdevice." + name, libdevice)
    for t in _types.number_types():
        attr = "bool_" if t.np_name == "bool" else t.np_name
        add(getattr(np, attr), "intrin", "numpy." + attr, np)
        add(np.dtype(t.np_name), "dtype", t.np_name)
        add(t, "dtype", t.name)
    for name in ("math", "cmath"):        # a kernel can name them only once imported
        if name in sys.modules:
            table._add_math(sys.modules[name])
    from . import bf16
    add(bf16, "module", "cuda.bf16")
    add(_types.bfloat16, "dtype", "bfloat16")
    for obj in bf16.FUNCTIONS.values():   # each under its own name, whatever alias imported it
        add(obj, "intrin", obj._qualname, None)
    from . import fp8
    for t in fp8.TYPES:
        add(t, "dtype", t.__name__)
    for obj in list(fp8.FUNCTIONS.values()) + list(fp8.UNSUPPORTED.values()):
        add(obj, "intrin", obj._qualname, None)
    ml_dtypes = sys.modules.get("ml_dtypes")
    if ml_dtypes is not None:
        add(ml_dtypes.bfloat16, "dtype", "bfloat16")
    import operator                       # its functions are the operators (src/sema/sema_call.c)
    table._add_math(operator)
    _core.set_resolve_table(table)
    _table = table
    _table_ready = True


def _is_sig(x):
    return isinstance(x, (str, _types.Signature, tuple)) or _foreign_sig(x)


class CUDADispatcher(_core.Dispatcher):
    """A @cuda.jit function: launch it as f[grid, block](args), or call it
    from another kernel when device=True."""

    def __init__(self, py_func, sigs=None, device=False, options=None, lines=None):
        code = getattr(py_func, "__code__", None)
        if code is None:
            raise TypeError("cuda.jit needs a Python function, not %s" % type(py_func).__name__)
        if code.co_flags & 0x08 or code.co_kwonlyargcount:
            raise TypeError("kernel %r: **kwargs and keyword-only parameters are not supported; "
                            "kernels take positional parameters and a last *args" % py_func.__name__)
        options = dict(options or {})
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__qualname__ = getattr(py_func, "__qualname__", py_func.__name__)
        self.__doc__ = py_func.__doc__
        self.__module__ = py_func.__module__
        self.__wrapped__ = py_func
        self.targetoptions = options
        self.overloads = _Overloads()
        self._device = bool(device)
        self._frozen = {}
        self._source = None
        self._lines = lines or capture_lines(py_func)     # the file as the decorator saw it
        self._device_sig = None      # the declared signatures of a device function
        self._can_compile = True
        self._specialized = False
        self._specializations = {}
        self._variants = {}          # (argtypes, launch flags) -> Kernel
        self._launch_config_sensitive = False
        self._cache = bool(options.get("cache")) and not device
        self.stats = _cache.CacheStats()
        inline = options.get("inline", "never")
        self._inline = inline is True or inline == "always" or bool(options.get("forceinline"))
        argnames = tuple(code.co_varnames[:code.co_argcount])
        self._bounds = _launch_bounds(options.get("launch_bounds"), py_func.__name__)
        self._fastmath = _fastmath(options.get("fastmath"), py_func.__name__)
        self._setup(py_func.__name__, argnames, len(argnames) - len(py_func.__defaults__ or ()),
                    bool(options.get("debug")), self._device, self._bounds[0])
        if options.get("extensions") and not self._device and type(self) is CUDADispatcher:
            self.__class__ = _extension_dispatcher()
        if sigs:
            if self._device:
                self._device_sig = tuple(_sig_text(s) for s in sigs)
            else:
                for s in sigs:
                    self.compile(s)
                self._can_compile = False

    # ---- what the compiler reads

    def _pj_info(self):
        if self._source is None:
            self._source = source_of(self.py_func, self._lines)
            if self._source[3] == REBUILT and self.targetoptions.get("debug"):
                _warn_no_debug_source(self.py_func)
        text, file, first, shift = self._source
        closure = {}
        cells = self.py_func.__closure__
        if cells:
            for name, cell in zip(self.py_func.__code__.co_freevars, cells):
                try:
                    closure[name] = cell.cell_contents
                except ValueError:   # an empty cell: not assigned yet
                    pass
        return (self.py_func.__name__, text, file, first, shift, self.py_func.__globals__, closure,
                self._frozen, self._device, self._device_sig, self._inline)

    def _options(self):
        o = self.targetoptions
        return {
            "fastmath": self._fastmath,
            "debug": bool(o.get("debug", False)),
            "lineinfo": bool(o.get("lineinfo", False)),
            "opt": True if o.get("opt") is None else bool(o.get("opt")),
            "max_registers": o.get("max_registers") or 0,
            "maxntid": self._bounds[0],
            "minnctapersm": self._bounds[1],
            "maxclusterrank": self._bounds[2],
        }

    # ---- compiling

    def compile(self, sig):
        """Compiles the kernel for a signature ("void(float32[::1], int64)",
        a tuple of types, or void(...)); returns the compiled Kernel.  For a
        device function, compile_device(argument types of sig)."""
        if self._device:
            text = _sig_text(sig)
            ret = text[:text.index("(")].strip() if "(" in text and not text.startswith("(") else ""
            return self.compile_device(_argtypes_of(text), ret or None)
        text = _sig_text(sig)
        argtypes = _argtypes_of(text)
        k = self._variants.get((argtypes, 0))
        if k is None:
            k = self._compile(text, argtypes)
        return k

    def compile_device(self, args, return_type=None):
        """Types the device function for these argument types (a tuple of
        types or their spellings) and returns its DeviceOverload, kept in
        .overloads: the signature, the return type and the source.  Its
        code is compiled into each kernel that calls it (its
        inspect_asm() compiles it on its own)."""
        if not self._device:
            raise TypeError("compile_device: %r is a kernel, not a device function; use compile(sig)"
                            % self.__name__)
        argtypes = tuple(_canon_type(str(a)) for a in args)
        o = self.overloads.get(argtypes)
        if o is None:
            if not _table_ready:
                _build_resolve_table()
            ret = _core.infer_return(self._pj_info(), ", ".join(argtypes))   # types it: errors raise here
            if return_type is not None:         # a declared return type: the result converts to it
                ret = str(return_type)
            o = self.overloads[argtypes] = DeviceOverload(self, argtypes, ret)
        return o

    def _compile(self, sigtext, argtypes, flags=0):
        """Compiles one signature; flags (from the launch) select a variant:
        1 all array extents below 2^31, 2 no two arrays share memory,
        4 gridDim * blockDim below 2^31 in every dimension."""
        if not _table_ready:
            _build_resolve_table()
        opts = self._options()
        if flags & 1:
            opts["small_extents"] = True
        if flags & 2:
            opts["noalias"] = True
        if flags & 4:
            opts["small_grid"] = True
        info = self._pj_info()
        if self._cache:
            k = _cache.compile(self, info, sigtext, argtypes, opts, flags, _table, self.stats)
        else:
            k = _core.compile(info, sigtext, opts)
        _link_code(k, self.targetoptions.get("link"), opts.get("arch"))
        if self.targetoptions.get("shared_memory_carveout") is not None:
            k._set_carveout(self.targetoptions["shared_memory_carveout"])
        k.signature = argtypes
        k.launch_config_sensitive = False
        k.variant = flags
        self._variants[(argtypes, flags)] = k
        if flags == 0 or argtypes not in self.overloads:
            self.overloads[argtypes] = k
        return k

    def _compile_for(self, argtypes, flags=0):
        """Called by the launch path for argument types (and launch flags,
        see _compile) it has not seen: through _compile_for_args(*args),
        Numba's entry point, while the launch's configuration is current
        (cuda.launchconfig)."""
        k = self._variants.get((argtypes, flags))
        if k is not None:
            return k
        cfg = _launchconfig.current_launch_config()
        if cfg is not None and cfg.dispatcher is self and cfg._pending is None:
            cfg._pending = (argtypes, flags)
            try:
                return self._compile_for_args(*cfg.args)
            finally:
                cfg._pending = None
        return self._compile_types(argtypes, flags)

    def _compile_for_args(self, *args, **kws):
        """Compiles (or finds) the kernel for the types of these arguments
        and returns it: at a launch, for the types and launch flags the
        launch asked for."""
        if kws:
            raise TypeError("kernel %r takes its arguments by position" % self.__name__)
        cfg = _launchconfig.current_launch_config()
        if cfg is not None and cfg.dispatcher is self and cfg._pending is not None:
            argtypes, flags = cfg._pending
        else:
            argtypes, flags = self._typeof(tuple(args)), 0
        k = self._compile_types(argtypes, flags)
        if cfg is not None and cfg.dispatcher is self and self._launch_config_sensitive:
            k.launch_config_sensitive = True
        return k

    def mark_launch_config_sensitive(self):
        """Marks the kernels compiled from now on as depending on the launch
        configuration (kernel.launch_config_sensitive; see cuda.launchconfig)."""
        self._launch_config_sensitive = True

    @property
    def launch_config_sensitive(self):
        return self._launch_config_sensitive

    def _compile_types(self, argtypes, flags):
        k = self._variants.get((argtypes, flags))
        if k is not None:
            return k
        if not self._can_compile:
            return self.overloads[pick_overload("kernel %r" % self.__name__, self.overloads, argtypes,
                                                 _readonly_hint(argtypes), self.py_func)]
        return self._compile(", ".join(argtypes), argtypes, flags)

    def _kernel(self, signature):
        key = signature if isinstance(signature, tuple) and all(isinstance(s, str) for s in signature) \
            else _argtypes_of(_sig_text(signature))
        key = tuple(_canon_type(s) for s in key)
        if key not in self.overloads:
            raise KeyError("kernel %r has no compiled signature %s; it has %s"
                           % (self.__name__, key, list(self.overloads)))
        return self.overloads[key]

    # ---- launching

    def configure(self, griddim, blockdim, stream=0, sharedmem=0):
        return self[griddim, blockdim, stream, sharedmem]

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A 1-d launch of at least ntasks threads: k.forall(n)(args).  With
        tpb=0 the block size is the one the driver's occupancy calculator
        picks for the kernel compiled for these arguments (256 on the
        simulator)."""
        return _ForAll(self, ntasks, tpb, stream, sharedmem)

    def specialize(self, *args):
        """A kernel fixed to the types of these arguments (compiled now), as
        Numba's: launching it with other types converts or fails.  An
        argument may be a type (float32[::1]) standing for its values."""
        if self._specialized or not self._can_compile:
            raise RuntimeError("Dispatcher already specialized: kernel %r %s" % (
                self.__name__, "is a specialization; specialize the kernel it came from" if self._specialized
                else "was compiled for its signatures; decorate it without them to specialize it"))
        if self._device:
            raise TypeError("%r is a device function; only kernels can be specialized" % self.__name__)
        if any(isinstance(a, _types.Type) for a in args):
            argtypes = tuple(_canon_type(str(a)) if isinstance(a, _types.Type) else self._typeof((a,))[0]
                             for a in args)
        else:
            argtypes = self._typeof(tuple(args))
        sp = self._specializations.get(argtypes)
        if sp is None:
            sp = CUDADispatcher(self.py_func, ["(%s)" % ", ".join(argtypes)], False, self.targetoptions,
                                self._lines)
            sp._specialized = True
            self._specializations[argtypes] = sp
        return sp

    @property
    def specializations(self):
        """{argument types: the specialized kernel} made by specialize()."""
        return self._specializations

    @property
    def extensions(self):
        """The kernel's extensions: objects whose prepare_args(ty, val,
        stream=, retr=) maps each argument before a launch (see
        ptxjit/cuda/extensions.py).  A list to which more can be added."""
        exts = self.targetoptions.get("extensions")
        if exts is None:
            exts = self.targetoptions["extensions"] = []
        if not self._device and type(self) is CUDADispatcher:
            self.__class__ = _extension_dispatcher()
        return exts

    # ---- introspection

    @property
    def signatures(self):
        """The argument types of every compiled signature."""
        return list(self.overloads)

    @property
    def specialized(self):
        """True for the kernel specialize() returns and one made for a
        single signature (cuda.jit(sig), not cuda.jit([sig, ...])), as in
        Numba."""
        return self._specialized

    def inspect_asm(self, signature=None):
        """The PTX: a dict by signature, or the text for one signature.
        For a device function, the PTX of it compiled on its own for each
        signature it has been typed for (its declared ones among them), as
        compile_ptx(device=True) makes it: a .visible .func in Numba's ABI
        (kernels that call it still compile it into themselves); a
        function without declared signatures is typed for `signature`."""
        if self._device:
            for s in self._device_sig or ():
                self.compile(s)
            if signature is not None:
                if not self._device_sig:
                    return self.compile_device(_argtypes_of(_sig_text(signature))).inspect_asm()
                return self._kernel(signature).inspect_asm()
            return _Overloads((sig, o.inspect_asm()) for sig, o in self.overloads.items())
        if signature is not None:
            return self._kernel(signature).ptx
        return _Overloads((sig, k.ptx) for sig, k in self.overloads.items())

    def inspect_sass(self, signature=None):
        """The machine code (SASS) that nvdisasm prints for the kernel's
        cubin: a dict by signature, or the text for one.  Needs the CUDA
        toolkit's nvdisasm and the driver (which links the cubin)."""
        return self._sass(signature, "-gi")

    def inspect_sass_cfg(self, signature=None):
        """The control-flow graph of the SASS, in DOT (nvdisasm -cfg)."""
        return self._sass(signature, "-cfg")

    def _sass(self, signature, flag):
        if self._device:
            raise RuntimeError("Cannot inspect SASS of a device function")
        if signature is not None:
            return _nvdisasm(self._kernel(signature), flag)
        return _Overloads((sig, _nvdisasm(k, flag)) for sig, k in self.overloads.items())

    def _text(self, k, attr):
        """k.ir or k.types; a kernel from the disk cache has neither, and
        gets them from a compile made now (once)."""
        v = getattr(k, attr)
        if v is None and getattr(k, "cache_path", None):
            twin = getattr(k, "_twin", None)
            if twin is None:
                opts = self._options()
                if k.variant & 1:
                    opts["small_extents"] = True
                if k.variant & 2:
                    opts["noalias"] = True
                if k.variant & 4:
                    opts["small_grid"] = True
                twin = k._twin = _core.compile(self._pj_info(), ", ".join(k.signature), opts)
            v = getattr(twin, attr)
        return v

    def inspect_ir(self, signature=None):
        """The optimised IR: a dict by signature, or the text for one."""
        if signature is not None:
            return self._text(self._kernel(signature), "ir")
        return _Overloads((sig, self._text(k, "ir")) for sig, k in self.overloads.items())

    def typed_source(self, signature=None):
        """The source with the type of every variable: a dict by signature,
        or the text for one."""
        if signature is not None:
            return self._text(self._kernel(signature), "types")
        return _Overloads((sig, self._text(k, "types")) for sig, k in self.overloads.items())

    def inspect_types(self, file=None, signature=None):
        """Prints the source of every compiled signature with the type of
        each variable (Numba prints its typed IR)."""
        out = file if file is not None else sys.stdout
        if self._device:
            for o in ([self.compile_device(_argtypes_of(_sig_text(signature)))] if signature is not None
                      else list(self.overloads.values())):
                o.inspect_types(file=out)
            return
        kernels = [(signature, self._kernel(signature))] if signature is not None \
            else list(self.overloads.items())
        for sig, k in kernels:
            print("%s (%s)" % (self.__name__, ", ".join(k.signature)), file=out)
            print("-" * 80, file=out)
            print(self._text(k, "types") or "", file=out)
            print("=" * 80, file=out)

    def inspect_html(self, path, signature=None, block=256):
        """Writes an HTML page of the kernel compiled for `signature` (the
        only one if omitted): each source line beside the PTX its `.loc`
        directives give it, the SASS when nvdisasm or cuobjdump is
        installed, and registers, memory and theoretical occupancy for
        blocks of `block` threads.  Returns path."""
        from .. import inspect_html as page
        if signature is None:
            if len(self.overloads) != 1:
                raise TypeError("kernel %r has %d compiled signatures; name one: inspect_html(path, signature)"
                                % (self.__name__, len(self.overloads)))
            signature = next(iter(self.overloads))
        k = self._kernel(signature)
        ptx = k.ptx
        if "\t.loc " not in ptx:     # compiled without lineinfo: the same kernel with it
            opts = dict(self._options(), lineinfo=True)
            ptx = _core.compile(self._pj_info(), ", ".join(k.signature), opts).ptx
        resources, note, cc = None, "", None
        if not _core.is_simulator():
            resources = {"registers per thread": k._attr(4), "shared memory per block (bytes)": k._attr(1),
                         "local memory per thread (bytes)": k._attr(3), "constant memory (bytes)": k._attr(2),
                         "max threads per block": k._attr(0)}
            note = "from the driver's function attributes"
            from .api import get_current_device
            major, minor = get_current_device().compute_capability
            cc = 10 * major + minor
        title = "%s(%s)" % (self.__name__, ", ".join(k.signature))
        code = self.py_func.__code__
        kernel = (code.co_filename, code.co_firstlineno, self.__name__, self._lines)
        return page.write_page(path, title, ptx, kernel, resources, note, block, cc)

    def _kernel_attr(self, attr, signature):
        if signature is not None:
            return self._kernel(signature)._attr(attr)
        if self._specialized and len(self.overloads) == 1:
            return next(iter(self.overloads.values()))._attr(attr)
        return _Overloads((sig, k._attr(attr)) for sig, k in self.overloads.items())

    def get_regs_per_thread(self, signature=None):
        return self._kernel_attr(4, signature)

    def get_shared_mem_per_block(self, signature=None):
        return self._kernel_attr(1, signature)

    def get_const_mem_size(self, signature=None):
        return self._kernel_attr(2, signature)

    def get_local_mem_per_thread(self, signature=None):
        return self._kernel_attr(3, signature)

    def get_max_threads_per_block(self, signature=None):
        return self._kernel_attr(0, signature)

    def __repr__(self):
        return "<ptxjit.cuda %s %s>" % ("device function" if self._device else "kernel", self.__qualname__)

    def __reduce__(self):
        # ptxjit/_pickle.py: by name, or the function by reference with the
        # options and declared signatures
        def rebuild():
            sigs = None
            if self._device and self._device_sig:
                sigs = list(self._device_sig)
            elif not self._can_compile:
                sigs = ["(%s)" % ", ".join(a) for a in self.overloads]
            return (_rebuild_dispatcher, (_pickle.function(self.py_func), sigs, self._device,
                                          dict(self.targetoptions)))
        return _pickle.reduce_jitted(self, "device function" if self._device else "kernel", rebuild)


def _rebuild_dispatcher(py_func, sigs, device, options):
    return CUDADispatcher(py_func, sigs, device, options)


def _reduce_launcher(launcher):
    if launcher.pre_launch_callbacks:
        raise pickle.PicklingError("Cannot pickle configured launches with pre-launch callbacks: the callbacks "
                                   "are host functions of this process")
    s = launcher.stream
    if s not in (0, None) and getattr(s, "handle", 0):
        raise pickle.PicklingError("cannot pickle a launch configuration with a stream (%r): streams belong to "
                                   "this process" % (s,))
    return (_rebuild_launcher, (launcher.dispatcher, launcher.griddim, launcher.blockdim, launcher.sharedmem))


def _rebuild_launcher(dispatcher, griddim, blockdim, sharedmem):
    return dispatcher[griddim, blockdim, 0, sharedmem]


copyreg.pickle(_core.Launcher, _reduce_launcher)


class DeviceOverload:
    """A device function typed for argument types (Numba's compile result
    of compile_device): .signature, .argument_types, .return_type,
    inspect_types(), inspect_asm().  Kernels compile it into themselves;
    inspect_asm() compiles it on its own."""

    def __init__(self, dispatcher, argtypes, return_type):
        self.dispatcher = dispatcher
        self.argument_types = argtypes
        self.return_type = _canon_type(return_type)
        self.signature = "%s(%s)" % (self.return_type, ", ".join(argtypes))
        self._ptx = {}               # compute capability (None: the current device's) -> PTX
        self._entry = None           # the name of the .func in that PTX

    @property
    def py_func(self):
        return self.dispatcher.py_func

    def inspect_types(self, file=None):
        out = file if file is not None else sys.stdout
        text, file_name, first, _ = self.dispatcher._source if self.dispatcher._source else \
            source_of(self.dispatcher.py_func, self.dispatcher._lines)
        print("%s %s" % (self.dispatcher.__name__, self.signature), file=out)
        print("-" * 80, file=out)
        print("# File: %s" % file_name, file=out)
        print("# argument types: %s; return type: %s" % (", ".join(self.argument_types), self.return_type),
              file=out)
        print(text.rstrip("\n"), file=out)
        print("=" * 80, file=out)

    def inspect_asm(self, cc=None):
        """The PTX of the function compiled on its own for these argument
        types, with its dispatcher's options (fastmath, debug, lineinfo,
        opt): a .visible .func in Numba's ABI, as compile_ptx(device=True)
        makes it; for compute capability cc (a (major, minor) pair), by
        default the current device's."""
        key = None if cc is None else int(cc[0]) * 10 + int(cc[1])
        ptx = self._ptx.get(key)
        if ptx is None:
            d = self.dispatcher
            opts = dict(d._options(), ptx_only=True, device_abi=1)
            if key is not None:
                opts["arch"] = key
            if not _table_ready:
                _build_resolve_table()
            k = _core.compile(d._pj_info(), ", ".join(self.argument_types), opts)
            ptx = self._ptx[key] = k.ptx
            self._entry = k.entry
        return ptx

    @property
    def fndesc(self):
        """Numba's function descriptor, as far as it describes the PTX:
        .mangled_name is the name of the .func that inspect_asm() holds;
        .qualname, .modname, .argtypes, .restype."""
        if self._entry is None:
            self.inspect_asm()
        f = self.dispatcher.py_func
        return _types_mod.SimpleNamespace(mangled_name=self._entry, qualname=f.__qualname__, modname=f.__module__,
                                          argtypes=self.argument_types, restype=self.return_type)

    def __repr__(self):
        return "<device function %s %s>" % (self.dispatcher.__qualname__, self.signature)


def _nvdisasm(k, flag):
    """nvdisasm's listing of the kernel's cubin."""
    import os
    import subprocess
    import tempfile
    from ..inspect_html import _tool
    exe = _tool("nvdisasm")
    if exe is None:
        raise RuntimeError("nvdisasm was not found (on PATH, in CUDA_HOME or /usr/local/cuda): inspect_sass() runs "
                           "the CUDA toolkit's nvdisasm on the kernel's machine code; install the toolkit, or read "
                           "the PTX with inspect_asm()")
    cubin = k._cubin()
    fd, path = tempfile.mkstemp(suffix=".cubin")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(cubin)
        p = subprocess.run([exe, flag, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        os.unlink(path)
    if p.returncode:
        raise RuntimeError("nvdisasm %s failed (%d): %s" % (flag, p.returncode, p.stderr.decode(errors="replace")))
    return p.stdout.decode(errors="replace")


_ExtensionDispatcher = None


def _extension_dispatcher():
    """The class of a kernel with extensions: its subscript returns an
    ExtensionLauncher, which runs them before the C launch."""
    global _ExtensionDispatcher
    if _ExtensionDispatcher is None:
        from .extensions import ExtensionLauncher

        class ExtensionDispatcher(CUDADispatcher):
            def __getitem__(self, config):
                launcher = _core.Dispatcher.__getitem__(self, config)
                stream = config[2] if isinstance(config, tuple) and len(config) > 2 else 0
                return ExtensionLauncher(self, launcher, stream)

        ExtensionDispatcher.__name__ = ExtensionDispatcher.__qualname__ = "CUDADispatcher"
        _ExtensionDispatcher = ExtensionDispatcher
    return _ExtensionDispatcher


class _ForAll:
    """k.forall(ntasks, tpb, stream, sharedmem): call it with the arguments."""

    SIM_TPB = 256

    def __init__(self, dispatcher, ntasks, tpb, stream, sharedmem):
        ntasks, tpb, sharedmem = int(ntasks), int(tpb), int(sharedmem)
        if ntasks < 0:
            raise ValueError("forall: ntasks must be 0 or more, not %d" % ntasks)
        if tpb < 0 or tpb > 1024:
            raise ValueError("forall: tpb (threads per block) must be 1 to 1024, or 0 to let the driver "
                             "choose; not %d" % tpb)
        if sharedmem < 0:
            raise ValueError("forall: sharedmem must be 0 or more bytes, not %d" % sharedmem)
        self.dispatcher, self.ntasks, self.tpb = dispatcher, ntasks, tpb
        self.stream, self.sharedmem = stream, sharedmem

    def _block_size(self, args):
        if self.tpb:
            return self.tpb
        if _core.is_simulator():
            return self.SIM_TPB
        d = self.dispatcher
        k = d._compile_for(d._typeof(args))
        # the occupancy answer per compiled kernel and dynamic shared size
        sizes = d.__dict__.setdefault("_forall_tpb", {})
        key = (id(k), self.sharedmem)
        tpb = sizes.get(key)
        if tpb is None:
            tpb = sizes[key] = k._max_block_size(self.sharedmem) or 1024
        return tpb

    def __call__(self, *args):
        if self.ntasks == 0:
            return None
        tpb = self._block_size(args)
        blocks = (self.ntasks + tpb - 1) // tpb
        return self.dispatcher[blocks, tpb, self.stream, self.sharedmem](*args)


def jit(func_or_sig=None, device=False, **options):
    """Compiles a Python function into a CUDA kernel (or, with device=True, a
    device function that kernels call).

        @cuda.jit                                   compiled per argument types at launch
        @cuda.jit("void(float32[::1], float32)")    compiled now, for this signature
        @cuda.jit(["void(f4[:])", "void(f8[:])"])   several signatures
        @cuda.jit(device=True)                      a device function

    Options: fastmath, debug (default: NUMBA_CUDA_DEBUGINFO), lineinfo,
    max_registers, opt (False: no IR optimisation passes; default False
    when NUMBA_OPT=0), inline ("always"), cache (True: the compiled
    kernel, the driver's machine code included, is kept on disk, and a
    later process loads it without compiling; see ptxjit/cuda/cache.py),
    extensions (objects whose prepare_args maps each argument before a
    launch, Numba's protocol; see ptxjit/cuda/extensions.py).
    """
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError("cuda.jit() got unexpected keyword argument%s %s; it takes %s"
                        % ("s" if len(unknown) > 1 else "", ", ".join(sorted(unknown)),
                           ", ".join(sorted(_OPTIONS))))
    if options.get("shared_memory_carveout") is not None:
        if device:
            raise TypeError("cuda.jit(device=True, shared_memory_carveout=...): the carveout is set on kernels")
        options["shared_memory_carveout"] = _carveout(options["shared_memory_carveout"])
    if options.get("boundscheck"):
        raise NotImplementedError("boundscheck=True is not supported on the GPU; run the kernel on the "
                                  "simulator (PTXJIT_SIM=1), which checks every access")
    if options.get("link") and options.get("cache"):
        raise RuntimeError("Cannot pickle CUDACodeLibrary with linking files (Numba's words for it): the disk "
                           "cache (cache=True) would keep the code linked from the files link= names without "
                           "seeing them change; drop cache=True or link=")
    if options.get("link"):
        from .linkable import LinkableCode
        link = options["link"]
        options["link"] = tuple(LinkableCode.from_path_or_obj(x) for x in
                                (link if isinstance(link, (list, tuple, set)) else (link,)))
    exts = options.get("extensions")
    if exts is not None:
        if not isinstance(exts, (list, tuple)):
            raise TypeError("cuda.jit(extensions=...) takes a list of objects with a prepare_args method, not %r"
                            % (exts,))
        from .extensions import check_extension
        for e in exts:
            check_extension(e, "cuda.jit(extensions=...)")
        if exts and device:
            raise TypeError("cuda.jit(device=True, extensions=...): extensions prepare the arguments of a kernel "
                            "launch; a device function is called from kernels, with no launch of its own")
    if options.get("debug") is None:
        options["debug"] = _config.CUDA_DEBUGINFO_DEFAULT
    if options.get("opt") is None and _config.OPT == 0:
        options["opt"] = False
    _warn_debug_and_opt(options.get("debug"), options.get("opt"), 3)
    if options.get("debug") and options.get("lineinfo"):
        import warnings
        from ..errors import NumbaInvalidConfigWarning
        warnings.warn(NumbaInvalidConfigWarning(
            "debug and lineinfo are mutually exclusive in Numba; in ptxjit debug=True already includes "
            "the line information, so lineinfo=True adds nothing"), stacklevel=2)
    options["device"] = device
    if func_or_sig is None:
        return lambda f: jit(f, **options)
    if _is_sig(func_or_sig) or isinstance(func_or_sig, list):
        sigs = func_or_sig if isinstance(func_or_sig, list) else [func_or_sig]
        for s in sigs:
            _sig_text(s)
        return lambda f: _specialized(CUDADispatcher(getattr(f, "py_func", f), sigs, device, options),
                                      not isinstance(func_or_sig, list))
    lines = None
    if isinstance(func_or_sig, CUDADispatcher):
        func_or_sig, lines = func_or_sig.py_func, func_or_sig._lines
    if not callable(func_or_sig):
        raise TypeError("cuda.jit takes a function or a signature, not %r" % (func_or_sig,))
    return CUDADispatcher(func_or_sig, None, device, options, lines)


def _warn_no_debug_source(func):
    """Numba's NumbaDebugInfoWarning for a debug compile of a function
    whose text Python cannot show (made by exec(), eval(), `python -c`)."""
    import warnings
    from ..errors import NumbaDebugInfoWarning
    warnings.warn(NumbaDebugInfoWarning(
        "Could not find source for function: %s. Its debug information names the lines of %r, "
        "which a debugger cannot show; define the function in a file (or register its text in "
        "linecache, as notebooks do) to see the source" % (func, func.__code__.co_filename)), stacklevel=4)


def _warn_debug_and_opt(debug, opt, level):
    """Numba's NumbaInvalidConfigWarning for debug with opt (opt None: on
    unless NUMBA_OPT=0), which NVVM does not support."""
    if debug and (opt if opt is not None else _config.OPT != 0):
        import warnings
        from ..errors import NumbaInvalidConfigWarning
        warnings.warn(NumbaInvalidConfigWarning(
            "debug=True with opt=True is not supported by CUDA's NVVM, and Numba warns that it may crash there; "
            "ptxjit optimises a debug kernel (its checks and traps kept), but code meant for Numba too "
            "should set debug=False or opt=False"), stacklevel=level)


def _specialized(d, one):
    """d, marked specialized when it was made for one signature (not a
    list of them), as Numba marks it: its getters of kernel attributes then
    give the one kernel's value, not a dict by signature."""
    d._specialized = one
    return d


def _link_code(k, link, arch):
    """Gives kernel k the code its external functions (cuda.declare_device)
    and the dispatcher's link= option name, for the driver's linker."""
    codes = list(link or ())
    for f in getattr(k, "_externals", ()):
        codes.extend(f.link)
    if not codes or _core.is_simulator():
        return
    from .linkable import link_inputs
    if arch:
        cc = (arch // 10, arch % 10)
    else:
        from .api import get_current_device
        cc = tuple(get_current_device().compute_capability)
    seen, inputs = set(), []
    for c in codes:          # each code once: the same code twice would define its symbols twice
        i = link_inputs(c, cc)
        if i[:2] not in seen:
            seen.add(i[:2])
            inputs.append(i)
    k._link(inputs)


def _target_of(cc):
    """(arch, variant) of a compute capability (9, 0), or (9, 0, "a") for
    the architecture-specific target sm_90a (its own features, such as
    wgmma; it runs on that architecture only), (10, 0, "f") for the family
    target sm_100f."""
    if isinstance(cc, list):
        cc = tuple(cc)
    if not isinstance(cc, tuple) or len(cc) not in (2, 3):
        raise ValueError("cc is a compute capability (major, minor), or (major, minor, 'a') / (major, minor, "
                         "'f') for an architecture- or family-specific target; not %r" % (cc,))
    arch = int(cc[0]) * 10 + int(cc[1])
    variant = cc[2] if len(cc) == 3 else None
    if variant not in (None, "a", "f") or (variant == "a" and arch < 90) or (variant == "f" and arch < 100):
        raise ValueError("cc=%r: the architecture-specific targets are sm_90a and later ('a'), the family "
                         "targets sm_100f and later ('f')" % (cc,))
    return arch, variant


def _compile_kernel(pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, max_registers=None,
                    ptx_only=True, launch_bounds=None, abi="numba", abi_info=None):
    """The Kernel of pyfunc compiled for sig outside any dispatcher (with
    device=True the function alone, a .visible .func in ABI abi), and its
    return type."""
    if abi not in ("numba", "c"):
        raise NotImplementedError("Unsupported ABI: %s; ptxjit compiles device functions in abi='numba' or "
                                  "abi='c'" % (abi,))
    if abi == "c" and not device:
        raise NotImplementedError("The C ABI is not supported for kernels: abi='c' is for device functions "
                                  "(device=True)")
    if abi_info is not None and (not isinstance(abi_info, dict) or set(abi_info) - {"abi_name"}):
        raise TypeError("abi_info takes a dict with the one key 'abi_name', not %r" % (abi_info,))
    func = getattr(pyfunc, "py_func", pyfunc)
    if debug is None:
        debug = _config.CUDA_DEBUGINFO_DEFAULT
    _warn_debug_and_opt(debug, opt, 4)
    d = CUDADispatcher(func, None, bool(device), dict(debug=debug, lineinfo=lineinfo, fastmath=fastmath, opt=opt,
                                                      max_registers=max_registers, launch_bounds=launch_bounds))
    opts = d._options()
    opts["ptx_only"] = ptx_only
    if cc is None:
        cc = _config.CUDA_DEFAULT_PTX_CC
    if cc is not None:
        opts["arch"], opts["arch_variant"] = _target_of(cc)
    if not _table_ready:
        _build_resolve_table()
    text = _sig_text(sig)
    resty = _types.void
    if device:
        opts["device_abi"] = 1 if abi == "numba" else 2
        name = (abi_info or {}).get("abi_name")
        if name is None and abi == "c":
            name = func.__name__
        opts["abi_name"] = name
        ret = text[:text.index("(")].strip() if "(" in text and not text.startswith("(") else ""
        argtypes = _argtypes_of(text)
        inferred = _core.infer_return(d._pj_info(), ", ".join(argtypes))
        rname = _canon_type(ret) if ret else inferred
        resty = getattr(_types, rname, None) or getattr(_types, rname.replace("bool", "boolean"), None) or rname
        if ret:       # a declared return type: the function is typed as one with that signature
            d._device_sig = (text,)
        k = _core.compile(d._pj_info(), ", ".join(argtypes), opts)
    else:
        k = _core.compile(d._pj_info(), text, opts)
    return k, resty


def compile_ptx(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=True, abi="numba", abi_info=None, max_registers=None, launch_bounds=None):
    """Compiles a kernel to PTX without launching it (no GPU needed):
    returns (ptx, return type), as Numba's cuda.compile_ptx does.  cc is
    the target compute capability; by default NUMBA_CUDA_DEFAULT_PTX_CC
    ("8.0") when set, else the current GPU's, else (9, 0).  With
    device=True the function is compiled alone, as a .visible .func that
    other PTX can call: abi="numba" (a status in func_retval0, the result
    stored through a pointer first parameter, named after the function) or
    abi="c" (the result in func_retval0); abi_info={"abi_name": NAME}
    names it.  It takes and returns numbers."""
    k, resty = _compile_kernel(pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, max_registers,
                               launch_bounds=launch_bounds, abi=abi, abi_info=abi_info)
    return k.ptx, resty


def compile_ptx_for_current_device(pyfunc, sig, **kwargs):
    """compile_ptx for the compute capability of the current device."""
    from .api import get_current_device
    return compile_ptx(pyfunc, sig, cc=get_current_device().compute_capability, **kwargs)


def compile_for_current_device(pyfunc, sig, **kwargs):
    """compile for the compute capability of the current device."""
    from .api import get_current_device
    return compile(pyfunc, sig, cc=get_current_device().compute_capability, **kwargs)


def compile_all(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
                abi=None, abi_info=None, output="ltoir", forceinline=False, launch_bounds=None):
    """Numba's cuda.compile_all: ([code of the function and of what it
    links], return type).  ptxjit links nothing, so it is
    ([ptx or cubin], return type)."""
    code, resty = compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc,
                          opt=True if opt is None else opt, abi=abi, abi_info=abi_info, output=output,
                          forceinline=forceinline, launch_bounds=launch_bounds)
    return [code], resty


def compile(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=True,
            abi=None, abi_info=None, output="ptx", **kwargs):
    """Numba's cuda.compile: (code, return type), the code PTX text
    (output='ptx') or, made by the CUDA driver's linker from it, the
    machine code as bytes (output='cubin'; needs the driver and a GPU).
    As Numba's, it compiles a device function by default (device=True),
    in the C ABI unless abi says otherwise; device=False compiles a kernel.
    """
    if abi is None:
        abi = "c" if device else "numba"
    if kwargs.get("forceinline") and output != "ltoir":
        raise ValueError("Can only designate forced inlining in LTO-IR (output='ltoir'); PTX of a device "
                         "function is inlined by the kernels that call it when it is compiled with "
                         "@cuda.jit(device=True, forceinline=True)")
    if output == "ltoir":
        raise NotImplementedError("output='ltoir' needs NVVM or nvJitLink, which ptxjit does not use: it makes "
                                  "PTX only (output='ptx'), and machine code through the CUDA driver's linker "
                                  "(output='cubin')")
    if output not in ("ptx", "cubin"):
        raise NotImplementedError("Unsupported output type: %s; ptxjit makes output='ptx' or 'cubin'" % (output,))
    if output == "ptx":
        return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                           cc=cc, opt=opt, launch_bounds=kwargs.get("launch_bounds"),
                           abi=abi, abi_info=abi_info)
    if device:
        raise NotImplementedError("cuda.compile(device=True, output='cubin'): a device function alone is "
                                  "relocatable code the driver's linker does not hand back; use output='ptx' "
                                  "and link the PTX (cuda.declare_device(link=...))")
    if _core.is_simulator():
        raise RuntimeError("cuda.compile(output='cubin') needs the CUDA driver's linker; the simulator "
                           "(PTXJIT_SIM=1) makes no machine code: use output='ptx'")
    k, resty = _compile_kernel(pyfunc, sig, debug, lineinfo, device, fastmath, cc, opt, ptx_only=False,
                               launch_bounds=kwargs.get("launch_bounds"), abi=abi)
    return k._cubin(), resty

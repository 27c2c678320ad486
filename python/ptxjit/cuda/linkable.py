"""External code: cuda.declare_device and the code objects its link= takes.

    times2 = cuda.declare_device("times2", "int32(int32)", link="times2.ptx")

    @cuda.jit
    def k(r, x):
        i = cuda.grid(1)
        r[i] = times2(x[i])

A declared function is called from kernels and device functions with
numbers (integers, floats, bools) and returns a number or nothing.  The
compiler emits a `.extern .func` call in the ABI of the declaration:

  abi="numba" (the default)   int NAME(RET *out, ARGS...): the function
                              stores its result through `out` and returns a
                              status (ignored, as Numba does)
  abi="c"                     RET NAME(ARGS...)

When a kernel calling it is loaded, the CUDA driver's own linker
(cuLinkCreate/cuLinkAddData/cuLinkComplete) links the kernel's PTX with
the code of link=: PTX (.ptx files, PTXSource), cubin, fatbin, object
files and archives (.o, .a).  CUDA C (.cu files, CUSource) is first
compiled to PTX by NVRTC (ptxjit.cuda.nvrtc), which needs libnvrtc; the
error says so where it is missing.  LTO-IR needs nvJitLink, which ptxjit
does not use: it is refused.  The simulator cannot run external code; a
call of a declared function is refused at its line there.
"""

import io
import os

from .. import types as _types

# the driver's CUjitInputType for each kind (rt.h RT_LINK_*)
_JIT_INPUT = {"cubin": 0, "ptx": 1, "fatbin": 2, "object": 3, "library": 4}


class LinkableCode:
    """Code linked from memory: data (str, bytes, StringIO or BytesIO) and
    the name that messages give it.  The subclasses say what it is."""

    kind = None
    default_name = "<unnamed>"

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None, nrt=False):
        if setup_callback is not None and not callable(setup_callback):
            raise TypeError("setup_callback must be callable")
        if teardown_callback is not None and not callable(teardown_callback):
            raise TypeError("teardown_callback must be callable")
        if setup_callback is not None or teardown_callback is not None:
            raise NotImplementedError("LinkableCode setup_callback/teardown_callback are not supported by ptxjit: "
                                      "it runs no code of yours when a module is loaded or unloaded")
        if nrt:
            raise NotImplementedError("LinkableCode(nrt=True): ptxjit has no NRT runtime to link")
        self._data = data
        self._name = name
        self.nrt = False
        self.setup_callback = self.teardown_callback = None

    @property
    def name(self):
        return self._name or self.default_name

    @property
    def data(self):
        if isinstance(self._data, (io.StringIO, io.BytesIO)):
            return self._data.getvalue()
        return self._data

    @staticmethod
    def from_path(path):
        """The code object of a file, its kind from the extension (.ptx,
        .cu, .cubin, .fatbin, .o, .a, .ltoir)."""
        root, ext = os.path.splitext(path)
        cls = _BY_EXTENSION.get(ext.lower())
        if cls is None:
            raise ValueError("don't know how to link %s: its extension %r is none of %s"
                             % (path, ext, ", ".join(sorted(_BY_EXTENSION))))
        with open(path, "r" if cls in (PTXSource, CUSource) else "rb") as f:
            data = f.read()
        return cls(data, name=os.path.basename(root) + ext)

    @classmethod
    def from_path_or_obj(cls, path_or_obj):
        if isinstance(path_or_obj, (str, os.PathLike)):
            return cls.from_path(os.fspath(path_or_obj))
        if not isinstance(path_or_obj, LinkableCode):
            raise TypeError("link= takes file paths and LinkableCode objects (PTXSource, CUSource, ...), not %r"
                            % (path_or_obj,))
        return path_or_obj

    def __repr__(self):
        return "%s(name=%r)" % (type(self).__name__, self.name)


class PTXSource(LinkableCode):
    """PTX text in memory."""
    kind = "ptx"
    default_name = "<unnamed-ptx>"


class CUSource(LinkableCode):
    """CUDA C source in memory, compiled by NVRTC before linking."""
    kind = "cu"
    default_name = "<unnamed-cu>"


class Cubin(LinkableCode):
    kind = "cubin"
    default_name = "<unnamed-cubin>"


class Fatbin(LinkableCode):
    kind = "fatbin"
    default_name = "<unnamed-fatbin>"


class Object(LinkableCode):
    kind = "object"
    default_name = "<unnamed-object>"


class Archive(LinkableCode):
    kind = "library"
    default_name = "<unnamed-archive>"


class LTOIR(LinkableCode):
    kind = "ltoir"
    default_name = "<unnamed-ltoir>"


_BY_EXTENSION = {".ptx": PTXSource, ".cu": CUSource, ".cubin": Cubin, ".fatbin": Fatbin, ".o": Object,
                 ".a": Archive, ".lib": Archive, ".ltoir": LTOIR}


def link_inputs(code, cc):
    """(kind, bytes, name) for the driver's linker (Kernel._link) of one
    code object; CUDA C is compiled for compute capability cc (a pair)."""
    if code.kind == "ltoir":
        raise NotImplementedError("link=%s: LTO-IR needs nvJitLink, which ptxjit does not use; link PTX, "
                                  "cubin, fatbin, object files or archives (or CUDA C, through NVRTC)"
                                  % code.name)
    data = code.data
    if code.kind == "cu":
        from . import nvrtc
        src = data.decode() if isinstance(data, bytes) else data
        data, kind = nvrtc.compile_ptx(src, code.name, cc), "ptx"
    else:
        kind = code.kind
    if isinstance(data, str):
        data = data.encode()
    if kind == "ptx" and not data.endswith(b"\0"):
        data += b"\0"
    return (_JIT_INPUT[kind], bytes(data), code.name)


def _sig_types(text):
    """A Signature of ptxjit.types from its spelling "int32(float32[:])"."""
    from .dispatcher import _argtypes_of, _canon_type, _parse_argtype
    s = text.strip()
    if "(" not in s or not s.endswith(")") or s.startswith("("):
        return None, s
    ret = _canon_type(s[:s.index("(")].strip())

    def one(t):
        if t.endswith("*"):
            return _types.CPointer(one(t[:-1].strip()))
        base, ndim, layout = _parse_argtype(t)
        if ndim:
            return _types.ArrayType(getattr(_types, base), ndim, layout)
        ty = getattr(_types, t, None)
        if ty is None:
            raise TypeError("declare_device: %r is not a type ptxjit knows" % t)
        return ty
    return _types.Signature(one(ret), tuple(one(a) for a in _argtypes_of(s))), s


class ExternFunction:
    """A function defined outside Python (cuda.declare_device): its name,
    signature and the code that defines it.  Kernels call it; from Python
    it cannot be called."""

    def __init__(self, name, sig, link, abi, use_cooperative):
        from .dispatcher import _sig_text
        if isinstance(sig, tuple):
            raise TypeError("Return type must be provided for device declarations: declare_device(%r, "
                            "int32(float32)) or \"int32(float32)\", not a tuple of argument types" % name)
        text = _sig_text(sig)
        parsed, text = _sig_types(text)
        if parsed is None:
            raise TypeError("Return type must be provided for device declarations: %r has none "
                            "(spell it \"int32(float32)\")" % text)
        if abi not in ("numba", "c"):
            raise NotImplementedError("Unsupported ABI: %r; declare_device takes abi='numba' or abi='c'" % (abi,))
        if link is None:
            link = ()
        elif not isinstance(link, (list, tuple, set)):
            link = (link,)
        self.name = name
        self.sig = parsed
        self.abi = abi
        from .callconv import of_abi
        self.call_conv = of_abi(abi)
        self.link = tuple(LinkableCode.from_path_or_obj(x) for x in link)
        self.use_cooperative = bool(use_cooperative)
        # use_cooperative: a kernel calling it is launched cooperatively (src/ir/lower_call.c)
        self._pj_extern = (name, "%s(%s)" % (parsed.return_type, ", ".join(str(a) for a in parsed.args)),
                           abi == "c", self.use_cooperative)

    def __call__(self, *args):
        raise TypeError("%s is an external device function (cuda.declare_device): call it from a kernel"
                        % self.name)

    def __repr__(self):
        return "<external device function %s %s>" % (self.name, self.sig)


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """Declares a device function defined outside Python: its name, its
    signature ("int32(int32)" or int32(int32)), and link=, the code that
    defines it (paths or LinkableCode objects).  Returns the object kernels
    call."""
    return ExternFunction(name, sig, link, abi, use_cooperative)

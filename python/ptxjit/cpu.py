"""@njit and @jit(nopython=True): Python functions compiled to native code for the CPU.

ptxjit's compiler turns the function into its IR, exactly as for a CUDA
kernel, and its C back end writes the IR out as C; the system C compiler
(`cc` on PATH, or $CC) builds a shared object that is loaded into the
process.  The call path is C (ptxjit._core.CpuDispatcher): it classifies
the arguments, finds the compiled signature and calls it; this file only
compiles.  Functions can return numbers, tuples and arrays; arrays they
create (np.empty, np.zeros, np.copy, ...) come back as NumPy arrays that
own their memory.

    cache=True        keeps the shared object in $PTXJIT_CACHE_DIR/cpu (default
                      ~/.cache/ptxjit/cpu), keyed by the generated C text
                      (which follows from the source, the argument types,
                      the globals read and the options), the compiler's
                      version and its flags; a file is loaded only from a
                      private directory of this user, after its checksum,
                      from a private copy (ptxjit/_cachefile.py, docs/cache.md)
    fastmath=True     lets the C compiler reassociate and contract
                      (the parts of -ffast-math that leave the process's
                      floating-point environment alone)
    boundscheck=True  every index is checked: IndexError names the line
    error_model=      'python' (the default): /, //, % and divmod by zero
                      raise ZeroDivisionError; 'numpy': they give NumPy's
                      values (inf, nan, and 0 for integers)
    nogil=True        the call releases the GIL

Without a C compiler (none on PATH, $CC naming nothing that runs, or
PTXJIT_CC=none to force it) the functions run on ptxjit's IR interpreter
(one thread of the simulator, src/sim/cpu.c) with the same results,
arrays they create and recursion included; a warning says once that this
is about 20-60 times slower than compiled code.  Without cache=True the
C compiler works in a fresh private directory (tempfile.mkdtemp), removed
once the object is loaded.
"""

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings

from . import _cachefile, _core, _pickle
from .source import capture_lines, source_of

_OPTIONS = {
    "nopython", "forceobj", "cache", "fastmath", "boundscheck", "nogil", "parallel", "error_model",
    "inline", "looplift", "debug", "locals", "target", "no_cfunc_wrapper", "no_rewrites", "_nrt",
}

_CFLAGS = ["-O2", "-shared", "-fPIC", "-ffp-contract=off", "-w"]
# -ffast-math's parts, without the flag itself: given at link time, gcc
# adds crtfastmath.o, which sets flush-to-zero for the whole process
_FAST = ["-fno-math-errno", "-fno-signed-zeros", "-fno-trapping-math", "-fassociative-math",
         "-freciprocal-math", "-ffinite-math-only", "-ffp-contract=fast"]
_lock = threading.Lock()
_cc_info = None          # (argv, identity) or () when there is none
_cc_key = None           # the (PTXJIT_CC, CC) it was found for
_warned = False


def _error_model(options):
    m = options.get("error_model", "python")
    if m not in ("python", "numpy"):
        raise ValueError("error_model must be 'python' or 'numpy', not %r" % (m,))
    return m


def _compiler():
    """(argv of the C compiler, its identity) or None.  PTXJIT_CC names
    the compiler ahead of CC; PTXJIT_CC=none (or CC naming nothing that
    runs) means none: the functions run on the interpreter.  Read at each
    compilation, so a test can switch it."""
    global _cc_info, _cc_key
    forced = os.environ.get("PTXJIT_CC")
    if forced is not None and forced.strip().lower() in ("none", "0", "off", ""):
        return None
    key = (forced, os.environ.get("CC"))
    if _cc_key is not None and _cc_key != key:
        _cc_info = None
    if _cc_info is None:
        _cc_key = key
        env = forced or os.environ.get("CC")
        argv = shlex.split(env) if env else ["cc"]
        exe = shutil.which(argv[0]) if argv else None
        ident = None
        if exe:
            try:
                p = subprocess.run([exe] + argv[1:] + ["--version"], capture_output=True, text=True, timeout=60)
                if p.returncode == 0:
                    ident = (p.stdout.splitlines() or ["?"])[0] + " @ " + exe
            except (OSError, subprocess.SubprocessError):
                ident = None
        _cc_info = ([exe] + argv[1:], ident) if ident else ()
    return _cc_info or None


def _key(csrc, ident, flags):
    return hashlib.sha256("\0".join([_core.PJ_VERSION, ident, " ".join(flags), csrc]).encode()).hexdigest()[:40]


def _build(csrc, fastmath, cache, reuse=True):
    """(path of a shared object built from csrc or read from the cache, the
    private directory that holds it, whether it came from the cache); the
    caller loads the object and removes the directory.  See ptxjit/_cachefile.py
    for what the cache refuses."""
    argv, ident = _compiler()
    flags = _CFLAGS + (_FAST if fastmath else [])
    name = _key(csrc, ident, flags) + ".so"
    d = _cachefile.open_dir(_cachefile.cache_dir(), "cpu") if cache else None
    try:
        if d is not None and reuse:
            data = d.read(name)
            if data is not None and data[:4] == b"\x7fELF":
                work = d.mkdtemp(".load-")
                path = os.path.join(work, name)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                return path, work, True
        work = d.mkdtemp(".build-") if d is not None else tempfile.mkdtemp(prefix="ptxjit_")
        cpath = os.path.join(work, "f.c")
        so = os.path.join(work, name)
        with open(cpath, "w") as f:
            f.write(csrc)
        p = subprocess.run(argv + flags + ["-o", so, cpath, "-lm"], capture_output=True, text=True)
        if p.returncode != 0:
            shutil.rmtree(work, ignore_errors=True)
            raise _core.InternalCompilerError(
                "the C compiler failed on the code ptxjit generated (%s):\n%s" % (" ".join(argv), p.stderr[-4000:]))
        if d is not None:
            with open(so, "rb") as f:
                d.write(name, f.read())
        return so, work, False
    finally:
        if d is not None:
            d.close()


def _load(k, csrc, options):
    """The CpuFunc of k from the shared object of csrc; a cached object that
    does not load is compiled again and replaced."""
    fastmath, cache, nogil = (bool(options.get(o)) for o in ("fastmath", "cache", "nogil"))
    path, work, hit = _build(csrc, fastmath, cache)
    try:
        try:
            return _core.CpuFunc(k, path, nogil)
        except OSError:
            if not hit:
                raise
        shutil.rmtree(work, ignore_errors=True)
        path, work, hit = _build(csrc, fastmath, cache, reuse=False)
        return _core.CpuFunc(k, path, nogil)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _warn_interpreter():
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(
            "ptxjit: no C compiler found (cc on PATH, $CC or $PTXJIT_CC): @njit functions run on "
            "ptxjit's IR interpreter, about 20-60 times slower than compiled code (loops over arrays "
            "about 20x, recursive calls more), though still 10-50 times faster than plain Python on "
            "array loops; install a C compiler (e.g. apt-get install gcc) for native speed",
            RuntimeWarning, stacklevel=4)


class CPUDispatcher(_core.CpuDispatcher):
    """An @njit function: call it like the Python function; each new set of
    argument types is compiled once."""

    def __init__(self, py_func, sigs=None, options=None):
        code = getattr(py_func, "__code__", None)
        if code is None:
            raise TypeError("njit needs a Python function, not %s" % type(py_func).__name__)
        if code.co_flags & 0x0C or code.co_kwonlyargcount:
            raise TypeError("%r: *args, **kwargs and keyword-only parameters are not supported by @njit; "
                            "give the function a fixed list of positional parameters" % py_func.__name__)
        options = dict(options or {})
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__qualname__ = getattr(py_func, "__qualname__", py_func.__name__)
        self.__doc__ = py_func.__doc__
        self.__module__ = py_func.__module__
        self.__wrapped__ = py_func
        self.targetoptions = options
        self.overloads = {}
        self._frozen = {}
        self._source = None
        self._lines = capture_lines(py_func)     # the file as the decorator saw it
        self._can_compile = True
        argnames = tuple(code.co_varnames[:code.co_argcount])
        self._setup(py_func.__name__, argnames, len(argnames) - len(py_func.__defaults__ or ()))
        self._sigs = None            # the declared signatures, which calls from compiled code choose from
        if sigs:
            from .cuda.dispatcher import _sig_text
            for s in sigs:
                self.compile(s)
            self._sigs = tuple(_sig_text(s) for s in sigs)
            self._can_compile = False

    # ---- what the compiler reads

    def _pj_info(self):
        if self._source is None:
            self._source = source_of(self.py_func, self._lines)
        text, file, first, shift = self._source
        closure = {}
        cells = self.py_func.__closure__
        if cells:
            for name, cell in zip(self.py_func.__code__.co_freevars, cells):
                try:
                    closure[name] = cell.cell_contents
                except ValueError:
                    pass
        inline = self.targetoptions.get("inline", "never")
        return (self.py_func.__name__, text, file, first, shift, self.py_func.__globals__, closure,
                self._frozen, True, self._sigs, inline == "always" or inline is True)

    def _options(self, sim):
        o = self.targetoptions
        return {
            "target_cpu": True,
            "fastmath": bool(o.get("fastmath", False)),
            "boundscheck": bool(o.get("boundscheck", False)),
            "error_model_numpy": _error_model(o) == "numpy",
            "sim": sim,
            "dump": o.get("dump"),
        }

    # ---- compiling

    def compile(self, sig):
        """Compiles for a signature ("float64(float64[:], int64)", "(float64[:], int64)",
        or a tuple of types); returns the compiled function."""
        from .cuda.dispatcher import _argtypes_of, _sig_text
        text = _sig_text(sig)
        argtypes = _argtypes_of(text)
        f = self.overloads.get(argtypes)
        if f is None:
            f = self._compile(", ".join(argtypes), argtypes)
        return f

    def _compile(self, sigtext, argtypes):
        from .cuda import dispatcher as cd
        if not cd._table_ready:
            cd._build_resolve_table()
        cc = _compiler()
        with _lock:
            k = _core.compile(self._pj_info(), sigtext, self._options(sim=cc is None))
            if cc is None:
                _warn_interpreter()
                f = _core.CpuFunc(k, None, bool(self.targetoptions.get("nogil")))
            else:
                f = _load(k, _core.c_source(k), self.targetoptions)
        f.signature = argtypes
        self.overloads[argtypes] = f
        return f

    def _compile_for(self, argtypes):
        """Called by the call path for argument types it has not seen."""
        f = self.overloads.get(argtypes)
        if f is not None:
            return f
        if not self._can_compile:
            from .cuda.dispatcher import pick_overload, _readonly_hint
            return self.overloads[pick_overload("%s()" % self.__name__, self.overloads, argtypes,
                                                _readonly_hint(argtypes))]
        return self._compile(", ".join(argtypes), argtypes)

    # ---- introspection

    @property
    def signatures(self):
        """The argument types of every compiled signature."""
        return list(self.overloads)

    def _pick(self, signature):
        if signature is None:
            return list(self.overloads.items())
        from .cuda.dispatcher import _argtypes_of, _sig_text
        key = signature if isinstance(signature, tuple) and all(isinstance(s, str) for s in signature) \
            else _argtypes_of(_sig_text(signature))
        return [(key, self.overloads[key])]

    def inspect_c(self, signature=None):
        """The generated C: a dict by signature, or the text for one."""
        got = {s: _core.c_source(f.kernel) for s, f in self._pick(signature)}
        return got if signature is None else next(iter(got.values()))

    def inspect_ir(self, signature=None):
        got = {s: f.kernel.ir for s, f in self._pick(signature)}
        return got if signature is None else next(iter(got.values()))

    def inspect_types(self, file=None, signature=None):
        out = file if file is not None else sys.stdout
        for sig, f in self._pick(signature):
            print("%s (%s)" % (self.__name__, ", ".join(sig)), file=out)
            print("-" * 80, file=out)
            print(f.kernel.types or "", file=out)
            print("=" * 80, file=out)

    def __get__(self, obj, objtype=None):
        return self if obj is None else _Bound(self, obj)

    def __reduce__(self):
        # ptxjit/_pickle.py: by name, or the function by reference with the
        # options and declared signatures
        return _pickle.reduce_jitted(self, "@njit function", lambda: (
            CPUDispatcher, (_pickle.function(self.py_func), list(self._sigs) if self._sigs else None, dict(self.targetoptions))))

    def __repr__(self):
        return "<ptxjit.njit function %s>" % self.__qualname__


class _Bound:
    def __init__(self, f, obj):
        self._f, self._obj = f, obj

    def __call__(self, *args):
        return self._f(self._obj, *args)


def _is_sig(x):
    from .types import Signature
    return isinstance(x, (str, Signature, tuple))


def jit(func_or_sig=None, **options):
    """Numba's @jit for the CPU: nopython mode (object mode is refused)."""
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError("jit() got unexpected keyword argument%s %s; it takes %s"
                        % ("s" if len(unknown) > 1 else "", ", ".join(sorted(unknown)), ", ".join(sorted(_OPTIONS))))
    _error_model(options)
    if options.get("nopython") is False or options.get("forceobj"):
        raise NotImplementedError(
            "object mode (nopython=False, forceobj=True) is not supported: ptxjit compiles the function to "
            "native code and refuses what it cannot compile, with a message at the line; use nopython=True "
            "(or @njit), or call the plain Python function")
    if options.get("parallel"):
        warnings.warn("ptxjit: parallel=True is ignored; the function runs on one thread", RuntimeWarning,
                      stacklevel=3)
    target = options.pop("target", None)
    if target not in (None, "cpu"):
        raise ValueError("unknown target %r: use target='cpu' (the default) or 'gpu'/'cuda'" % (target,))
    if func_or_sig is None:
        return lambda f: jit(f, **options)
    if _is_sig(func_or_sig) or isinstance(func_or_sig, list):
        sigs = func_or_sig if isinstance(func_or_sig, list) else [func_or_sig]
        return lambda f: CPUDispatcher(getattr(f, "py_func", f), sigs, options)
    if isinstance(func_or_sig, CPUDispatcher):
        func_or_sig = func_or_sig.py_func
    if not callable(func_or_sig):
        raise TypeError("jit takes a function or a signature, not %r" % (func_or_sig,))
    return CPUDispatcher(func_or_sig, None, options)


def njit(func_or_sig=None, **options):
    """Numba's @njit: @jit(nopython=True)."""
    if "nopython" in options and not options["nopython"]:
        raise NotImplementedError("@njit is nopython mode; object mode is not supported")
    options["nopython"] = True
    return jit(func_or_sig, **options)

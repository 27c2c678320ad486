"""The disk cache of @cuda.jit(cache=True): compiled kernels kept, and loaded
by later processes without compiling.

Compiling a kernel has two steps: ptxjit's compiler makes PTX (a fraction of
a millisecond for a small kernel, more for big ones), then the driver's
ptxas turns the PTX into machine code (7 to 33 ms per kernel).  With
cache=True both are skipped in a later process: the file holds the machine
code (a cubin, from the driver's linker: src/rt/link.c) and everything the
launch needs of the compiler's output (the parameter layout, the arrays the
kernel reads and writes, shared memory, the traps of a debug kernel, the
PTX; src/py/kcache.c writes and reads it).  A hit is a key, two small file
reads and the driver's load of the cubin.

The key covers everything the PTX and the machine code depend on, without
compiling:

  * the compiler: the package's version and the GNU build id of the
    compiler library (a hash of the linked code; where the library has
    none, a hash of its bytes, kept next to the cache entries);
  * the device's compute capability and the driver's version;
  * the kernel: its name, source text, file, first line, and, as the
    launch sees them, the signature, the argument types (layout and
    read-only arrays included) and the launch's variant flags (small
    extents, no aliasing); the compile options, all of them;
  * every name the compiler resolved, in the kernel and in each device
    function it reached (transitively), with the value it resolves to:
    numbers, strings and tuples by value, NumPy arrays (frozen as
    constants) by dtype, shape and a hash of their bytes, device
    functions by their own source and names, modules and functions of
    math, NumPy and cuda by the name the compiler knows them by.

Which names a kernel resolves is known only after a compile, so there are
two levels: `<key1>.idx`, with key1 over everything but the values, lists
the names the compiles of that kernel resolved (per function); the entry
is `<key2>.pjc`, with key2 over key1 and the values of those names now.
A lookup reads the index, walks the names (frozen values first, then the
closure, the globals and the builtins' exception classes: the compiler's
own order), and reads the entry.  A hit freezes the values it walked, as
the compile would have (later changes to a global do not reach the kernel,
as in Numba).

The directory is $PTXJIT_CACHE_DIR, else ~/.cache/ptxjit (XDG_CACHE_HOME
is honoured).  Its files are read and written by ptxjit/_cachefile.py,
which keeps the cache's safety rules (docs/cache.md): the directory is
created 0700 and used only when this user owns it and no one else can
write it (else a warning, once, and kernels compile uncached); a file is
read only when it is a regular file of this user that no one else can
write (no symbolic link, FIFO or device is followed or waited on; such a
file is removed with a warning); files are written 0600 under a fresh
name and renamed, so a reader never sees half a file.  The index and the
build memo are sealed with a SHA-512 (_cachefile.seal); an entry carries
its own length and checksum (src/py/kcache.c).  A file that does not
parse, fails its checksum, or that the driver refuses is ignored, and the
kernel compiled and stored again.  When the driver cannot make machine
code (no cuLink* entry points) the kernel runs uncached.

On the simulator there is no machine code: the entry keeps the PTX and
the metadata, and a hit builds the Kernel from them exactly as on the GPU.
The simulator still needs its program (built from the IR), so a hit
compiles once more for it (Kernel._counters()["sim_programs"]) and checks
that this compile made the same PTX and metadata as the entry: on the
simulator every cached kernel tests the key.

Counters: dispatcher.stats.cache_hits / cache_misses (as Numba's), per
signature; LAST holds the microseconds of the last lookup (key, read,
load).  This module imports nothing slow: SHA-512 comes from the C module
that `random` (and NumPy) load anyway, not from hashlib (OpenSSL,
milliseconds).
"""

import builtins as _builtins
import collections
import os
import sys
import time

from .. import _cachefile, _core
from ..errors import CudaSupportError

try:
    from .. import __version__ as _PKG_VERSION
except ImportError:  # during package import
    _PKG_VERSION = "?"

FORMAT = "ptxjit-cache-4"

# The compiler's version in the key; None: computed at the first lookup
# (tests set it to simulate another compiler).
COMPILER_VERSION = None

# Microseconds of the last lookup: key (both levels), read (index and
# entry), load (the Kernel from the entry: the driver's load of the cubin).
LAST = {}


class CacheStats:
    """cache_hits and cache_misses: Counters by signature (a tuple of types)."""

    def __init__(self):
        self.cache_hits = collections.Counter()
        self.cache_misses = collections.Counter()


def cache_dir():
    return _cachefile.cache_dir()


class _Key:
    """A SHA-512 over length-prefixed parts (str or bytes)."""

    __slots__ = ("h",)

    def __init__(self):
        self.h = _cachefile.sha512()

    def put(self, *parts):
        h = self.h
        for p in parts:
            b = p.encode("utf-8", "surrogatepass") if isinstance(p, str) else p
            h.update(len(b).to_bytes(8, "little"))
            h.update(b)

    def hex(self):
        return self.h.hexdigest()[:64]


def _so_hash():
    """A hash of the compiler library's bytes, for a library without a
    build id: computed once per build and kept in the cache directory."""
    path = getattr(_core, "__file__", None)
    if not path:
        return "?"
    try:
        s = os.stat(path)
    except OSError:
        return "?"
    memo = "build-%x-%x-%x" % (s.st_ino, s.st_size, s.st_mtime_ns)
    d = _cachefile.open_dir(cache_dir())
    try:
        got = d.read(memo) if d is not None else None
        if got and len(got) == 64:
            return got.decode("ascii", "replace")
        k = _Key()
        with open(path, "rb") as f:
            k.put(f.read())
        h = k.hex()
        if d is not None:
            d.write(memo, h.encode("ascii"))
        return h
    finally:
        if d is not None:
            d.close()


def compiler_version():
    global COMPILER_VERSION
    if COMPILER_VERSION is None:
        bid = _core.Kernel._build_id() or _so_hash()
        COMPILER_VERSION = "%s/%s/%s" % (_PKG_VERSION, getattr(_core, "PJ_VERSION", "?"), bid)
    return COMPILER_VERSION


_target_memo = None        # tests set it to simulate another device
_targets = {}              # device id -> _target()


def _target():
    """(arch, driver version, simulator?) of the current device, which
    kernels are built for."""
    if _target_memo is not None:
        return _target_memo
    dev = _core.current_device()
    t = _targets.get(dev)
    if t is None:
        info = _core.device_info()
        cc = "%d%d" % tuple(info.get("compute_capability", (0, 0)))
        if _core.is_simulator():
            t = ("sim" + cc, 0, True)
        else:
            t = (cc, info.get("driver_version", 0), False)
        _targets[dev] = t
    return t


# ------------------------------------------------------------------ keys

def _fid(info):
    """The identity of a function for the compiler: everything of its
    _pj_info() but the namespaces (src/py/jit.c, func_from_info)."""
    name, text, file, first, shift = info[:5]
    dev, sig, inline = info[8], info[9], info[10]
    k = _Key()
    k.put(name, text, file, str(int(first)), str(int(shift)), "d" if dev else "k",
          "\0" if sig is None else "\n".join(sig), "i" if inline else "-")
    return k.hex()[:32]


def _opts_text(opts):
    return ",".join("%s=%r" % (n, opts[n]) for n in sorted(opts))


def key1(info, sigtext, argtypes, opts, flags=0, fid=None):
    """The first level: everything but the values of resolved names."""
    arch, driver, _ = _target()
    k = _Key()
    k.put(FORMAT, compiler_version(), "sm_%s" % arch, str(driver), fid or _fid(info), sigtext,
          "|".join(argtypes), str(flags), _opts_text(opts))
    return k.hex()


_MISSING = object()
_DISPATCHERS = tuple(t for t in (getattr(_core, "Dispatcher", None), getattr(_core, "CpuDispatcher", None)) if t)
_INTRIN_KINDS = ("module", "intrin", "dtype", "exc")


class _Walk:
    """The second level: from the kernel, every function the compiler
    reached and the value of every name it resolved in each (deps: fid ->
    names), as the resolver (src/py/jit.c) finds and converts them."""

    def __init__(self, k1, deps, table, known=None):
        self.key = _Key()
        self.key.put(k1)
        self.deps = deps
        self.table = table
        self.known = known or {}      # id(dispatcher) -> fid, computed already
        self.seen = {}
        self.freeze = []       # (frozen dict, name, value) the compile would have frozen
        self.ok = True

    def func(self, disp):
        put = self.key.put
        i = self.seen.get(id(disp))
        if i is not None:
            put("F@%d" % i)
            return
        self.seen[id(disp)] = len(self.seen)
        info = disp._pj_info()
        fid = self.known.get(id(disp)) or _fid(info)
        put("F", fid)
        names = self.deps.get(fid)
        if names is None:           # a function the compiles did not reach: another kernel
            self.ok = False
            return
        g, cl, fr = info[5], info[6], info[7]
        bi = vars(_builtins)
        for name in names:
            if name.startswith(".") and self.table is not None and type(self.table) is not dict \
                    and self.table.member(name) is not None:
                self.ok = False          # an overloaded method or attribute: not kept on disk
                return
            v = fr.get(name, _MISSING)
            if v is _MISSING:
                v = cl.get(name, _MISSING)
                if v is _MISSING:
                    v = g.get(name, _MISSING)
                if v is _MISSING:
                    v = bi.get(name, _MISSING)
                    if not (isinstance(v, type) and issubclass(v, BaseException)):
                        v = _MISSING
                if v is not _MISSING:
                    self.freeze.append((fr, name, v))
            if v is _MISSING:
                put("-", name)
            else:
                put("=", name)
                self.value(v, name, 0)
            if not self.ok:
                return

    def value(self, v, name, depth):
        put = self.key.put
        if v is None:
            put("N")
        elif type(v) is bool:
            put("B1" if v else "B0")
        elif isinstance(v, int):
            put("I", int.__repr__(v))
        elif isinstance(v, float):
            put("D", _float_bits(v))
        elif isinstance(v, complex):
            re, im = complex.__getnewargs__(v)
            put("C", _float_bits(re), _float_bits(im))
        elif isinstance(v, str):
            put("S", str.__str__(v))
        elif isinstance(v, tuple):
            n = tuple.__len__(v)
            if depth > 16 or n > 1 << 16:
                put("?tuple")
                return
            put("T", str(n))
            for j in range(n):
                self.value(tuple.__getitem__(v, j), None, depth + 1)
        elif isinstance(v, _DISPATCHERS):
            put("F")
            self.func(v)
        elif not self.table_value(v, name):
            self.other(v)

    def table_value(self, v, name):
        """Modules, functions and types the compiler knows by identity
        (jit.c, from_table): the name it knows them by."""
        t = self.table
        if t is None:
            return False
        ent = t.get(id(v))
        if ent is None and type(t) is not dict:
            ent = t.miss(v, name or "")
        if isinstance(ent, tuple) and len(ent) == 4 and ent[0] is v and ent[1] in ("device", "overload"):
            self.ok = False              # extending's functions: their implementations are not keyed
            return True
        if not (isinstance(ent, tuple) and len(ent) == 4 and ent[0] is v and ent[1] in _INTRIN_KINDS):
            return False
        kind, qual, module = ent[1], ent[2], ent[3]
        head, dot, tail = qual.rpartition(".")
        if kind == "intrin" and dot and module is not None and name and tail != name:
            try:
                if getattr(module, name) is v:
                    qual = head + "." + name
            except Exception:
                pass
        self.key.put("K", kind, qual)
        return True

    def other(self, v):
        put = self.key.put
        if isinstance(v, type) and issubclass(v, BaseException):
            put("E", str(v.__module__), v.__qualname__)
            return
        np = sys.modules.get("numpy")
        if np is not None and isinstance(v, np.ndarray):
            a = np.ascontiguousarray(v)
            put("A", repr(a.dtype), str(a.dtype.isalignedstruct), repr(a.shape))
            try:
                put(memoryview(a).cast("B"))
            except (TypeError, ValueError):
                put(a.tobytes())
        elif np is not None and isinstance(v, np.dtype):
            put("R", repr(v), str(v.isalignedstruct))
        elif np is not None and isinstance(v, np.generic):
            put("G", type(v).__module__, type(v).__qualname__, v.dtype.str, v.tobytes())
        else:                        # what the compiler cannot use: its type names it
            put("?", str(type(v).__module__), type(v).__qualname__)

    def hex(self):
        return self.key.hex()

    def apply_freeze(self):
        """Freezes what the walk found, as the compile's resolver does
        (a NumPy array as a copy)."""
        np = sys.modules.get("numpy")
        for fr, name, v in self.freeze:
            if name not in fr:
                fr[name] = v.copy() if np is not None and isinstance(v, np.ndarray) else v


def _float_bits(x):
    """A double exactly: its hex form, or its bytes for a NaN."""
    x = float.__float__(x)
    if x == x:
        return x.hex()
    import struct
    return struct.pack("<d", x).hex()


# ------------------------------------------------------------ the index

def _parse_index(data):
    """[{fid: names}] from an index file; [] when it is not one."""
    if not data:
        return []
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return []
    if not lines or lines[0] != FORMAT + " index":
        return []
    out = []
    for line in lines[1:]:
        if not line:
            continue
        deps = {}
        for part in line.split(";"):
            fid, colon, names = part.partition(":")
            if not colon or len(fid) != 32:
                return []
            deps[fid] = tuple(names.split(",")) if names else ()
        out.append(deps)
    return out


def _index_line(deps):
    return ";".join("%s:%s" % (fid, ",".join(deps[fid])) for fid in sorted(deps))


def _deps_of(kernel, info):
    """{fid: sorted names} from a compiled Kernel's _deps (jit.c)."""
    deps = {}
    for disp, names in getattr(kernel, "_deps", ()):
        fid = _fid(info if disp is None else disp._pj_info())
        deps[fid] = tuple(sorted(set(names) | set(deps.get(fid, ()))))
    return deps


# ------------------------------------------------------------ the cache

def compile(disp, info, sigtext, argtypes, opts, flags, table, stats):
    """The Kernel of disp for these argument types: from the disk cache
    (a hit), or compiled and stored (a miss)."""
    try:
        arch, driver, sim = _target()
    except Exception:           # no device to key on: as without a cache
        return _core.compile(info, sigtext, opts)
    t0 = time.perf_counter()
    fid = _fid(info)
    known = {id(disp): fid}
    k1 = key1(info, sigtext, argtypes, opts, flags, fid)
    t1 = time.perf_counter()
    d = _cachefile.open_dir(cache_dir())
    if d is None:               # not safe to use (warned): as without a cache
        return _core.compile(info, sigtext, opts)
    with d:
        return _lookup(d, disp, info, sigtext, argtypes, opts, table, stats, sim, known, k1, t0, t1)


def _lookup(d, disp, info, sigtext, argtypes, opts, table, stats, sim, known, k1, t0, t1):
    """compile() in the open cache directory d: the index, the entries, a hit or a miss."""
    idx = d.read(k1 + ".idx")
    t_read = time.perf_counter() - t1
    t_key = t1 - t0
    variants = _parse_index(idx)
    for deps in variants:
        t1 = time.perf_counter()
        w = _Walk(k1, deps, table, known)
        try:
            w.func(disp)
        except Exception:           # what the walk cannot read, the compile reports
            break
        t2 = time.perf_counter()
        t_key += t2 - t1
        if not w.ok:
            continue
        k2 = w.hex()
        data = d.read_raw(k2 + ".pjc")
        t3 = time.perf_counter()
        t_read += t3 - t2
        if not data:
            continue
        k = _load(data, k2, opts, sim)
        t4 = time.perf_counter()
        LAST.clear()
        LAST.update(key=t_key * 1e6, read=t_read * 1e6, load=(t4 - t3) * 1e6, hit=k is not None)
        if k is None:
            d.remove(k2 + ".pjc")
            continue
        w.apply_freeze()
        if sim and not _adopt_sim(k, info, sigtext, opts):
            break                   # the entry is not what the compiler makes now: replace it
        k.cache_path = os.path.join(d.path, k2 + ".pjc")
        k._dispatcher = disp        # for what the entry leaves out (typeann.py: the typed source)
        stats.cache_hits[argtypes] += 1
        return k
    LAST.clear()
    LAST.update(key=t_key * 1e6, read=t_read * 1e6, load=0.0, hit=False)
    k = _core.compile(info, sigtext, opts)
    if k.uses_device_globals:
        import pickle
        raise pickle.PicklingError(
            "kernel %r cannot be cached: it uses global device arrays, whose addresses are valid in this "
            "process only; pass them to the kernel as arguments, or drop cache=True" % info[0])
    stats.cache_misses[argtypes] += 1
    k.cache_path = _store(d, disp, k, info, k1, variants, table, sim, known)
    return k


def _load(data, k2, opts, sim):
    """The Kernel of an entry, or None (damaged, or refused by the driver)."""
    try:
        return _core.Kernel._from_cache(data, k2, int(opts.get("max_registers") or 0), not sim)
    except Exception:
        return None


def _adopt_sim(k, info, sigtext, opts):
    """Gives a cached kernel its simulator program (see the module's text);
    False when the fresh compile differs from the entry."""
    fresh = _core.compile(info, sigtext, dict(opts, _sim_program=1))
    k._twin = fresh
    if k._adopt_sim(fresh):
        return True
    import warnings
    warnings.warn("ptxjit cache: the entry for kernel %r differs from what the compiler makes now; "
                  "it is replaced (the key misses an input)" % info[0], RuntimeWarning, stacklevel=4)
    return False


def _store(d, disp, k, info, k1, variants, table, sim, known):
    """Writes the entry of a freshly compiled kernel and notes its names
    in the index; returns the entry's path (None when nothing is kept)."""
    try:
        deps = _deps_of(k, info)
        w = _Walk(k1, deps, table, known)
        w.func(disp)
    except Exception:
        return None
    if not w.ok or any(not n.isidentifier() for names in deps.values() for n in names):
        return None
    k2 = w.hex()
    image = None
    if not sim:
        try:
            image = k._cubin()
        except CudaSupportError:
            return None   # no machine code from this driver: the launch loads the PTX as without a cache
        except Exception:
            return None   # the driver's linker failed: so will the launch, with its message
    if not d.write(k2 + ".pjc", k._cache_entry(k2, image), sealed=False):
        return None
    line = _index_line(deps)
    lines = [_index_line(v) for v in variants]
    if line not in lines:
        lines.append(line)
        d.write(k1 + ".idx", ("\n".join([FORMAT + " index"] + lines) + "\n").encode("utf-8"))
    return os.path.join(d.path, k2 + ".pjc")

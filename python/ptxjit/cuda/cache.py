"""The disk cache of @cuda.jit(cache=True): the driver's machine code, kept.

Compiling a kernel has two steps: ptxjit's compiler makes PTX (well under a
millisecond), then the driver's ptxas turns the PTX into machine code (7 to
33 ms per kernel).  With cache=True the machine code (a cubin, from the
driver's linker: src/rt/link.c) is written to a file, and a later process
loads that file instead of running ptxas.

The file's name is a SHA-512 key (64 hex digits) over everything the machine code depends
on:

  * the compiler's version (ptxjit's and its C core's);
  * the kernel's source text and its argument types (with the launch's
    variant flags) and the compile options (fastmath, debug, lineinfo,
    opt, max_registers);
  * the PTX the compiler made: it holds every resolved global and closure
    constant, the device functions called, and whatever a new compiler
    does differently, so a changed constant or a compiler change that
    alters the code can never load stale machine code;
  * the device's compute capability and the driver's version (ptxas is
    the driver's).

The directory is $PTXJIT_CACHE_DIR, else ~/.cache/ptxjit (XDG_CACHE_HOME
is honoured).  Files are written to a temporary name and renamed, so a
reader never sees half a file; a file that cannot be read or loaded is
ignored (and replaced).  On the simulator there is no machine code: the
cache keeps the PTX under the same key, which makes the key logic
testable without a GPU.

Counters: dispatcher.stats.cache_hits / cache_misses (as Numba's), per
signature.

A hit costs what the compiler costs (the key needs the PTX: well under a
millisecond for usual kernels) plus a hash, a file read and the driver's
load of the cubin.  So this module imports nothing slow: SHA-512 comes
from the C module that `random` (and NumPy) load anyway, not from hashlib
(OpenSSL, milliseconds), tempfile only when a file is written, and the
device's description is asked for once.  When the driver cannot make
machine code (no cuLink* entry points) the kernel runs uncached.
"""

import collections
import os
import sys

from .. import _core
from ..errors import CudaSupportError

try:
    from .. import __version__ as _PKG_VERSION
except ImportError:  # during package import
    _PKG_VERSION = "?"

COMPILER_VERSION = "%s/%s" % (_PKG_VERSION, getattr(_core, "PJ_VERSION", "?"))

_OPTION_NAMES = ("fastmath", "debug", "lineinfo", "opt", "max_registers", "small_extents", "noalias")


class CacheStats:
    """cache_hits and cache_misses: Counters by signature (a tuple of types)."""

    def __init__(self):
        self.cache_hits = collections.Counter()
        self.cache_misses = collections.Counter()


def cache_dir():
    d = os.environ.get("PTXJIT_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ptxjit")


_sha512 = None


def _hasher():
    global _sha512
    if _sha512 is None:
        try:   # a failed import searches sys.path: ask for the one this Python has
            if sys.version_info >= (3, 12):
                from _sha2 import sha512 as h
            else:
                from _sha512 import sha512 as h
        except ImportError:
            from hashlib import sha512 as h
        _sha512 = h
    return _sha512()


def cache_key(source, argtypes, options, ptx, arch, driver_version, compiler_version=None):
    """The hex key of one compiled kernel (see the module's text): 64 hex
    digits of a SHA-512 over the length-prefixed parts."""
    h = _hasher()
    opts = ",".join("%s=%r" % (n, options.get(n)) for n in _OPTION_NAMES)
    parts = ("ptxjit-cache-2", compiler_version or COMPILER_VERSION, source, "|".join(argtypes), opts,
             ptx or "", "sm_%s" % arch, str(driver_version))
    for p in parts:
        b = p.encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()[:64]


_target_memo = None


def _target():
    """(arch, driver version, simulator?) of the device kernels are built for."""
    global _target_memo
    if _target_memo is None:
        if _core.is_simulator():
            _target_memo = ("sim", 0, True)
        else:
            info = _core.device_info()
            cc = info.get("compute_capability", (0, 0))
            _target_memo = ("%d%d" % tuple(cc), info.get("driver_version", 0), False)
    return _target_memo


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _write(path, data):
    import tempfile
    d = os.path.dirname(path)
    try:
        os.makedirs(d, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        pass          # a cache that cannot be written only costs time


def attach(kernel, source, argtypes, options, stats):
    """Gives the freshly compiled `kernel` its machine code from the disk
    cache (a hit), or makes it and stores it (a miss).  Returns the path
    of the cache file."""
    arch, driver, sim = _target()
    key = cache_key(source, argtypes, options, kernel.ptx, arch, driver)
    path = os.path.join(cache_dir(), key + (".ptx" if sim else ".cubin"))
    data = _read(path)
    if sim:
        ptx = (kernel.ptx or "").encode()
        if data is not None and data == ptx:
            stats.cache_hits[argtypes] += 1
        else:
            stats.cache_misses[argtypes] += 1
            _write(path, ptx)
        return path
    if data:
        try:
            kernel._load_cubin(data)
            stats.cache_hits[argtypes] += 1
            return path
        except Exception:
            pass      # damaged or from another driver build: make it again
    stats.cache_misses[argtypes] += 1
    try:
        cubin = kernel._cubin()
    except CudaSupportError:
        return None   # no machine code from this driver: the launch loads the PTX as without a cache
    _write(path, cubin)
    return path

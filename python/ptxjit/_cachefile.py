"""The files of ptxjit's disk caches (the kernel cache, ptxjit/cuda/cache.py,
and the @njit cache, ptxjit/cpu.py), read and written so that a cache can
never run another user's code or break the process.

A cache directory is created private (0700) and used only when it is a
directory owned by this user (the effective uid) that no group or other
user can write; otherwise a warning says once per directory and process
why, and the caller runs uncached.  Once checked, the directory stays open
and every file is opened relative to it (no path is looked up twice).

A file is read only when it is a regular file (opened with O_NOFOLLOW and
O_NONBLOCK, so neither a symbolic link nor a FIFO is followed or waited
on), owned by this user, writable by nobody else and at most MAX_SIZE
bytes; a file that is not is removed with a warning (once per directory).
Files are written under a fresh name (O_EXCL, mode 0600) and renamed into
place, so a reader never sees half a file.

seal() puts a header before the bytes of a file (a magic, the length and
a SHA-512 of the bytes) and unseal() checks it: a truncated, empty or
damaged file reads as missing, is removed, and the caller compiles again.
The kernel cache's entries (.pjc) carry their own length and checksum
(src/py/kcache.c) and are read unsealed.

This module imports nothing slow: SHA-512 comes from the C module that
`random` (and NumPy) load anyway, not from hashlib (OpenSSL, milliseconds).
"""

import errno
import os
import stat
import sys
import warnings

MAX_SIZE = 1 << 30
MAGIC = b"PJSEAL01"
HEAD = len(MAGIC) + 8 + 32        # the magic, the length, the first 32 bytes of the SHA-512

_O_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_O_WRITE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_O_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)

_warned = set()           # directories (and directories with refused files) warned about
_sha512 = None


def cache_dir():
    """$PTXJIT_CACHE_DIR, else ptxjit in $XDG_CACHE_HOME or ~/.cache: the
    kernel cache's directory; @njit's is its subdirectory cpu."""
    d = os.environ.get("PTXJIT_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ptxjit")


def sha512():
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


def _digest(data):
    h = sha512()
    h.update(data)
    return h.digest()[:32]


def seal(data):
    """data with the header that unseal() checks."""
    return MAGIC + len(data).to_bytes(8, "little") + _digest(data) + data


def unseal(raw):
    """The bytes seal() was given, or None when raw is not a whole, intact sealed file."""
    if raw is None or len(raw) < HEAD or raw[:len(MAGIC)] != MAGIC:
        return None
    n = int.from_bytes(raw[len(MAGIC):len(MAGIC) + 8], "little")
    data = raw[HEAD:]
    if n != len(data) or raw[len(MAGIC) + 8:HEAD] != _digest(data):
        return None
    return data


def warn_once(key, message):
    """Warns once per process for key (a directory)."""
    if key in _warned:
        return
    _warned.add(key)
    warnings.warn("ptxjit: " + message, RuntimeWarning, stacklevel=2)


def _refuse_dir(path, why):
    warn_once(path, "the cache directory %s %s: it is not used, and functions compile without a cache"
              % (path, why))


def _why_unsafe(st, kind):
    """Why a file or directory of this stat is not used, or None."""
    uid = os.geteuid()
    if st.st_uid != uid:
        return "is owned by uid %d, not by this user (uid %d)" % (st.st_uid, uid)
    if st.st_mode & 0o022:
        return "is writable by %s (mode %s)" % ("group and others" if st.st_mode & 0o022 == 0o022 else
                                                "its group" if st.st_mode & 0o020 else "others",
                                                oct(stat.S_IMODE(st.st_mode)))
    if kind == "file" and st.st_size > MAX_SIZE:
        return "is larger than %d bytes" % MAX_SIZE
    return None


class Dir:
    """A checked cache directory, open: files are read and written relative to it."""

    __slots__ = ("fd", "path")

    def __init__(self, fd, path):
        self.fd = fd
        self.path = path

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def read(self, name):
        """The bytes of the sealed file name, or None (missing, refused or damaged:
        what is there is removed)."""
        raw = self.read_raw(name)
        data = unseal(raw)
        if raw is not None and data is None:
            self.remove(name)
        return data

    def read_raw(self, name):
        """The bytes of file name (which checks them itself), or None: missing, or
        refused and removed (not a regular file, not this user's, writable by
        others, too large)."""
        try:
            fd = os.open(name, _O_READ, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        except OSError as e:
            self.refuse(name, "is a symbolic link" if e.errno == errno.ELOOP else "cannot be read (%s)" % e.strerror)
            return None
        try:
            st = os.fstat(fd)
            why = "is not a regular file" if not stat.S_ISREG(st.st_mode) else _why_unsafe(st, "file")
            if why:
                self.refuse(name, why)
                return None
            chunks, left = [], st.st_size
            while left > 0:
                b = os.read(fd, min(left, 1 << 24))
                if not b:
                    break
                chunks.append(b)
                left -= len(b)
            if left or os.read(fd, 1):
                return b""            # changed size while read: damaged
            return b"".join(chunks)
        except OSError:
            return None
        finally:
            os.close(fd)

    def refuse(self, name, why):
        warn_once((self.path, "file"), "the cache file %s %s: it is removed, and compiled again (said once "
                  "per directory)" % (os.path.join(self.path, name), why))
        self.remove(name)

    def remove(self, name):
        try:
            os.unlink(name, dir_fd=self.fd)
        except OSError:
            pass

    def write(self, name, data, sealed=True):
        """Writes the file name (sealed, or as it is), atomically; a file that
        cannot be written only costs time."""
        tmp = ".tmp-%s" % os.urandom(8).hex()
        try:
            fd = os.open(tmp, _O_WRITE, 0o600, dir_fd=self.fd)
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(seal(data) if sealed else data)
            os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
            return True
        except OSError:
            self.remove(tmp)
            return False

    def mkdtemp(self, prefix):
        """A fresh private directory inside this one (its path)."""
        for _ in range(100):
            name = "%s%s" % (prefix, os.urandom(8).hex())
            try:
                os.mkdir(name, 0o700, dir_fd=self.fd)
                return os.path.join(self.path, name)
            except FileExistsError:
                continue
        raise FileExistsError(errno.EEXIST, "no free name for a private directory", self.path)


def _open_checked(name, parent_fd, path):
    """The fd of directory name (relative to parent_fd, or a path), created
    0700 when missing, or None with a warning when it is not safe to use."""
    try:
        try:
            os.mkdir(name, 0o700, dir_fd=parent_fd)
        except FileExistsError:
            pass
        fd = os.open(name, _O_DIR | (getattr(os, "O_NOFOLLOW", 0) if parent_fd is not None else 0), dir_fd=parent_fd)
    except OSError as e:
        _refuse_dir(path, "cannot be opened (%s)" % (e.strerror or e))
        return None
    try:
        why = _why_unsafe(os.fstat(fd), "directory")
    except OSError as e:
        why = "cannot be used (%s)" % e.strerror
    if why:
        os.close(fd)
        _refuse_dir(path, why)
        return None
    return fd


def open_dir(path, sub=None):
    """The cache directory path (or its subdirectory sub), created private
    when missing, open and checked: a Dir, or None when it must not be used
    (said once per directory in a warning)."""
    path = os.path.abspath(path)
    parent = os.path.dirname(path)
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError:
        pass
    fd = _open_checked(path, None, path)
    if fd is None or sub is None:
        return None if fd is None else Dir(fd, path)
    full = os.path.join(path, sub)
    try:
        sfd = _open_checked(sub, fd, full)
    finally:
        os.close(fd)
    return None if sfd is None else Dir(sfd, full)

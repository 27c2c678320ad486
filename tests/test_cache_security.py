"""The disk caches never run another user's code and never break the
process (ptxjit/_cachefile.py, docs/cache.md): the kernel cache of
@cuda.jit(cache=True) and the shared objects of @njit(cache=True).

A damaged entry (empty, garbage, truncated: a truncated shared object
used to kill every later process with SIGBUS in dlopen) is removed and
compiled again; a FIFO or a symbolic link to /dev/zero in place of an
entry is refused at once; a directory another user can write, or owns,
is refused with one warning and the function runs uncached; a file that
another user planted is refused.  What may hang or crash runs in a child
process with a timeout and a memory limit.  The tests that plant files as
another user need root (to become `nobody`).
"""

import linecache
import os
import pwd
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import warnings

import numpy as np
import pytest

from ptxjit import cuda, njit
from ptxjit.cuda import cache

from conftest import ON_GPU

PKG_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(cache.__file__))))
HAVE_CC = shutil.which(os.environ.get("CC") or "cc") is not None and os.environ.get("PTXJIT_CC") != "none"
needs_cc = pytest.mark.skipif(not HAVE_CC, reason="no C compiler: @njit caches nothing")


def nobody():
    """(uid, gid) of `nobody`, or skip: planting a file as another user needs root."""
    if os.geteuid() != 0:
        pytest.skip("planting a file as another user needs root (os.setuid to nobody)")
    try:
        pw = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("there is no user `nobody` to plant files as")
    return pw.pw_uid, pw.pw_gid


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch):
    """Each test sees the once-per-directory warnings afresh."""
    try:
        from ptxjit import _cachefile
        monkeypatch.setattr(_cachefile, "_warned", set())
    except ImportError:
        pass


def cache_warnings(record):
    return [str(w.message) for w in record if "ptxjit: the cache" in str(w.message)]


# ------------------------------------------------------------ children

NJIT_CHILD = """
import sys
sys.path.insert(0, {pkg!r})
import numpy as np
from ptxjit import njit

@njit(cache=True)
def f(a):
    return a[0] * 3.0 + a[1]

print("result", f(np.array([{x}, 0.25])))
"""

KERNEL_CHILD = """
import sys
sys.path.insert(0, {pkg!r})
import numpy as np
from ptxjit import cuda

@cuda.jit(cache=True)
def kern(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * 3 + 1

a = np.arange(64, dtype=np.float32) + {x}
kern[1, 64](a)
print("result", bool((a == (np.arange(64, dtype=np.float32) + {x}) * 3 + 1).all()),
      sum(kern.stats.cache_hits.values()))
"""


def _limit_memory():
    """A cap on the child's address space, so that a cache reading a link to
    /dev/zero ends in MemoryError, not in the machine's swap.  Not on the
    GPU: the CUDA driver reserves far more address space than this at
    cuInit (CUDA_ERROR_OUT_OF_MEMORY), and nor under AddressSanitizer
    (make asan-py), whose shadow memory is a reservation of terabytes."""
    if not ON_GPU and "libasan" not in os.environ.get("LD_PRELOAD", ""):
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def child(tmp_path, cache_dir, template, x=1.5, timeout=60):
    """Runs the template in a new process (on this cache); (returncode, stdout, stderr)."""
    path = tmp_path / ("child_%s.py" % ("njit" if template is NJIT_CHILD else "kernel"))
    path.write_text(template.format(pkg=PKG_DIR, x=x))
    env = dict(os.environ, PTXJIT_CACHE_DIR=str(cache_dir), PTXJIT_SIM="0" if ON_GPU else "1")
    try:
        r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env,
                           timeout=timeout, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail("the child process hung for %d s (a cache entry it waited on)" % timeout)
    return r.returncode, r.stdout, r.stderr


def njit_ok(tmp_path, cache_dir, x=1.5, timeout=60):
    rc, out, err = child(tmp_path, cache_dir, NJIT_CHILD, x, timeout)
    assert rc == 0, "child died (%d): %s" % (rc, err[-2000:])
    assert out.split() == ["result", repr(x * 3.0 + 0.25)], out + err
    return err


def kernel_ok(tmp_path, cache_dir, x=2.0, timeout=60):
    """The kernel's child ran right; whether it was a hit."""
    rc, out, err = child(tmp_path, cache_dir, KERNEL_CHILD, x, timeout)
    assert rc == 0, "child died (%d): %s" % (rc, err[-2000:])
    words = out.split()
    assert words[:2] == ["result", "True"], out + err
    return words[2] == "1"


def only(d, suffix):
    (f,) = [f for f in os.listdir(d) if f.endswith(suffix)]
    return os.path.join(d, f)


# ------------------------------------------------- damaged @njit objects

@needs_cc
@pytest.mark.parametrize("damage", ["empty", "garbage", "half", "truncated_elf", "one_byte_short"])
def test_njit_damaged_object_is_replaced(tmp_path, damage):
    """Every damaged form of the cached shared object is removed and built
    again, with the right result; a truncated one used to kill the process
    with SIGBUS inside dlopen, an empty or garbage one to fail every load."""
    cdir = tmp_path / "cache"
    njit_ok(tmp_path, cdir)
    so = only(cdir / "cpu", ".so")
    good = open(so, "rb").read()
    elf = good.find(b"\x7fELF")
    bad = {"empty": b"", "garbage": b"not a shared object" * 50, "half": good[:len(good) // 2],
           "truncated_elf": good[:elf + 4096], "one_byte_short": good[:-1]}[damage]
    with open(so, "wb") as f:
        f.write(bad)
    njit_ok(tmp_path, cdir)
    assert os.path.getsize(so) == len(good)
    st = os.stat(so)
    njit_ok(tmp_path, cdir)                 # and the replacement is a hit: not written again
    assert os.stat(so).st_mtime_ns == st.st_mtime_ns and os.stat(so).st_ino == st.st_ino


@needs_cc
@pytest.mark.parametrize("kind", ["fifo", "symlink_dev_zero"])
def test_njit_fifo_or_symlink_entry_is_refused(tmp_path, kind):
    cdir = tmp_path / "cache"
    njit_ok(tmp_path, cdir)
    so = only(cdir / "cpu", ".so")
    os.unlink(so)
    if kind == "fifo":
        os.mkfifo(so)
    else:
        os.symlink("/dev/zero", so)
    err = njit_ok(tmp_path, cdir, timeout=30)
    assert "is not a regular file" in err or "is a symbolic link" in err, err
    assert stat.S_ISREG(os.lstat(so).st_mode)        # removed and built again


# -------------------------------------------------- damaged kernel entries

@pytest.mark.parametrize("which", [".pjc", ".idx"])
@pytest.mark.parametrize("kind", ["fifo", "symlink_dev_zero"])
def test_kernel_entry_not_a_regular_file_is_replaced(tmp_path, which, kind):
    """A FIFO in place of an entry or index used to hang the first launch,
    a link to /dev/zero to read until MemoryError; now they are refused at
    once, removed, and the kernel compiled and stored again (damaged
    contents: test_cache.py)."""
    cdir = tmp_path / "cache"
    assert not kernel_ok(tmp_path, cdir)
    assert kernel_ok(tmp_path, cdir)
    path = only(cdir, which)
    good = open(path, "rb").read()
    os.unlink(path)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        os.symlink("/dev/zero", path)
    assert not kernel_ok(tmp_path, cdir, timeout=30)
    assert stat.S_ISREG(os.lstat(path).st_mode) and os.path.getsize(path) == len(good)
    assert kernel_ok(tmp_path, cdir)


# ------------------------------------------------------- modes and owners

def modes(d):
    return {os.path.relpath(os.path.join(r, n), d): stat.S_IMODE(os.lstat(os.path.join(r, n)).st_mode)
            for r, ds, fs in os.walk(d) for n in ds + fs}


def test_directories_are_created_private(tmp_path, monkeypatch):
    """The cache directory and @njit's cpu directory are created 0700, the files 0600."""
    cdir = tmp_path / "deep" / "cache"
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(cdir))
    old = os.umask(0o002)              # a permissive umask must not make the cache shared
    try:
        kernel_ok(tmp_path, cdir)
        if HAVE_CC:
            njit_ok(tmp_path, cdir)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(cdir).st_mode) == 0o700
    got = modes(cdir)
    assert got, "nothing was cached"
    if HAVE_CC:
        assert got["cpu"] == 0o700
    for name, mode in got.items():
        assert mode == (0o700 if os.path.isdir(cdir / name) else 0o600), (name, oct(mode))
        assert not name.split("/")[-1].startswith((".tmp-", ".build-", ".load-")), name


def load(path, text):
    """The namespace of a module file with this text (a file: the compiler reads the source)."""
    path.write_text(textwrap.dedent(text))
    linecache.checkcache(str(path))
    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns


def kernel_module(tmp_path, x):
    return load(tmp_path / ("kmod_%d.py" % x), """
        from ptxjit import cuda

        @cuda.jit(cache=True)
        def kern(a):
            i = cuda.grid(1)
            if i < a.size:
                a[i] = a[i] * %d + 1
    """ % x)["kern"]


def py_function(tmp_path, x, extra="", name="f"):
    src = "def %s(a):\n    return a[0] * %d.0 + a[1]%s\n" % (name, x, extra)
    return load(tmp_path / ("%s_%d%s.py" % (name, x, "_x" if extra else "")), src)[name]


def njit_function(tmp_path, x):
    return njit(cache=True)(py_function(tmp_path, x))


def run_all_uncached(tmp_path, cdir):
    """Two kernels and two @njit functions on cache directory cdir: right
    results; the warnings about the cache."""
    a = np.array([1.5, 0.25])
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        for x in (3, 5):
            k = kernel_module(tmp_path, x)
            v = np.arange(64, dtype=np.float32) + 0.5
            k[1, 64](v)
            assert (v == (np.arange(64, dtype=np.float32) + 0.5) * x + 1).all()
            assert sum(k.stats.cache_hits.values()) == 0
            assert njit_function(tmp_path, x)(a) == 1.5 * x + 0.25
    return cache_warnings(rec)


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777])
def test_shared_cache_directory_is_refused(tmp_path, monkeypatch, mode):
    """A cache directory that others can write (a planted file would run
    as this user) is not used: one warning names it and says why, and the
    functions run uncached with the right result."""
    cdir = tmp_path / "shared"
    cdir.mkdir()
    os.chmod(cdir, mode)
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(cdir))
    got = run_all_uncached(tmp_path, cdir)
    assert len(got) == 1, got
    assert str(cdir) in got[0] and "writable by" in got[0] and "compile without a cache" in got[0]
    assert os.listdir(cdir) == []
    assert stat.S_IMODE(os.stat(cdir).st_mode) == mode       # left as it is


@needs_cc
def test_shared_njit_directory_is_refused(tmp_path, monkeypatch):
    cdir = tmp_path / "cache"
    (cdir / "cpu").mkdir(parents=True)
    os.chmod(cdir, 0o700)
    os.chmod(cdir / "cpu", 0o777)
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(cdir))
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        for x in (3, 5):
            assert njit_function(tmp_path, x)(np.array([1.5, 0.25])) == 1.5 * x + 0.25
    got = cache_warnings(rec)
    assert len(got) == 1 and os.path.join(str(cdir), "cpu") in got[0] and "writable by" in got[0], got
    assert os.listdir(cdir / "cpu") == []


def test_cache_directory_of_another_user_is_refused(tmp_path, monkeypatch):
    uid, gid = nobody()
    cdir = tmp_path / "theirs"
    cdir.mkdir()
    os.chown(cdir, uid, gid)
    os.chmod(cdir, 0o755)
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(cdir))
    got = run_all_uncached(tmp_path, cdir)
    assert len(got) == 1 and str(cdir) in got[0] and "owned by uid %d" % uid in got[0], got
    assert os.listdir(cdir) == []


def plant_as_nobody(uid, gid, files):
    """Writes {path: bytes} as user nobody (in a forked child)."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            for p, b in files.items():
                with open(p, "wb") as f:
                    f.write(b)
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    for p in files:
        assert os.stat(p).st_uid == uid


@pytest.fixture
def world_dir():
    """A directory outside pytest's private tree, that nobody can enter."""
    d = tempfile.mkdtemp(prefix="pj-sec-")
    os.chmod(d, 0o711)
    yield d
    shutil.rmtree(d, ignore_errors=True)


@needs_cc
def test_njit_object_planted_by_another_user_is_refused(tmp_path, monkeypatch, world_dir):
    """Another user who could write the directory once (it was shared, then
    made private) planted a shared object under the key of our function:
    the key is a hash of public inputs.  It is refused, not run."""
    uid, gid = nobody()
    evil_dir = os.path.join(world_dir, "evil")
    monkeypatch.setenv("PTXJIT_CACHE_DIR", evil_dir)
    evil_f = py_function(tmp_path, 3, extra=" + 666.0")
    assert njit(cache=True)(evil_f)(np.array([1.5, 0.25])) == 1.5 * 3 + 0.25 + 666
    evil = open(only(os.path.join(evil_dir, "cpu"), ".so"), "rb").read()

    victim = os.path.join(world_dir, "victim")
    monkeypatch.setenv("PTXJIT_CACHE_DIR", victim)
    assert njit_function(tmp_path, 3)(np.array([1.5, 0.25])) == 1.5 * 3 + 0.25
    target = only(os.path.join(victim, "cpu"), ".so")
    os.unlink(target)
    os.chmod(victim, 0o711)
    os.chmod(os.path.join(victim, "cpu"), 0o777)
    plant_as_nobody(uid, gid, {target: evil})
    os.chmod(os.path.join(victim, "cpu"), 0o700)
    os.chmod(victim, 0o700)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        assert njit_function(tmp_path, 3)(np.array([1.5, 0.25])) == 1.5 * 3 + 0.25
    got = cache_warnings(rec)
    assert len(got) == 1 and target in got[0] and "owned by uid %d" % uid in got[0], got
    assert os.stat(target).st_uid == os.geteuid()       # replaced by ours


def test_kernel_entries_planted_by_another_user_are_refused(tmp_path, monkeypatch, world_dir):
    uid, gid = nobody()
    victim = os.path.join(world_dir, "victim")
    monkeypatch.setenv("PTXJIT_CACHE_DIR", victim)
    k = kernel_module(tmp_path, 3)
    k[1, 64](np.zeros(64, np.float32))
    files = {os.path.join(victim, f): open(os.path.join(victim, f), "rb").read()
             for f in os.listdir(victim) if f.endswith((".pjc", ".idx"))}
    assert len(files) == 2
    for p in files:
        os.unlink(p)
    os.chmod(victim, 0o777)
    plant_as_nobody(uid, gid, files)
    os.chmod(victim, 0o700)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        k = kernel_module(tmp_path, 3)
        v = np.arange(64, dtype=np.float32)
        k[1, 64](v)
    assert (v == np.arange(64) * 3 + 1).all()
    assert sum(k.stats.cache_hits.values()) == 0 and sum(k.stats.cache_misses.values()) == 1
    got = cache_warnings(rec)
    assert len(got) == 1 and "owned by uid %d" % uid in got[0], got
    for p in files:
        assert os.stat(p).st_uid == os.geteuid()


def test_group_writable_entry_is_refused(tmp_path, monkeypatch):
    cdir = tmp_path / "cache"
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(cdir))
    kernel_module(tmp_path, 3)[1, 64](np.zeros(64, np.float32))
    pjc = only(cdir, ".pjc")
    os.chmod(pjc, 0o664)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        k = kernel_module(tmp_path, 3)
        k[1, 64](np.zeros(64, np.float32))
    assert sum(k.stats.cache_hits.values()) == 0
    got = cache_warnings(rec)
    assert len(got) == 1 and "writable by its group" in got[0], got
    assert stat.S_IMODE(os.stat(pjc).st_mode) == 0o600


# ------------------------------------------------------- the uncached build

@needs_cc
def test_uncached_build_is_private(tmp_path, monkeypatch):
    """The uncached build used <tmpdir>/ptxjit_XXXXXX.so, a name never
    reserved: whoever made it first broke every compile (or had their file
    loaded).  Now it builds in a private mkdtemp directory, removed after."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    names = ["aaaaaaaa", "bbbbbbbb"]

    class Names:
        def __iter__(self):
            return self

        def __next__(self):
            names.append(names.pop(0))
            return names[-1]
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: Names())
    for n in names:                          # what another user made first
        (tmp / ("ptxjit_%s.so" % n)).mkdir()
        (tmp / ("ptxjit_%s.so" % n)).chmod(0o777)
    before = sorted(os.listdir(tmp))
    for x in (3, 5):
        assert njit(py_function(tmp_path, x, name="g"))(np.array([1.5, 0.25])) == 1.5 * x + 0.25
    assert sorted(os.listdir(tmp)) == before

"""The disk cache of @cuda.jit(cache=True) (ptxjit/cuda/cache.py, src/py/kcache.c).

A hit builds the kernel from the file without calling the compiler; the
key must change with everything the compiled code depends on: the source
of the kernel and of every device function it calls, the globals and
closure variables they read (constants, frozen arrays), the argument
types and the launch's variants, the options, the compiler's version, the
device and the driver.  A damaged file is ignored.

"A new process" is simulated in-process by loading the kernel's module
again from the same file (new functions, new dispatchers, nothing
frozen); a few tests run real second processes, on the simulator and on
the fake driver (tests/fake_cuda), where the machine-code path runs
without a GPU.  On the simulator a hit still compiles once for the
simulator's program (counted apart: "sim_programs") and checks that
compile against the entry, so every hit here also checks the key.
"""

import importlib.util
import itertools
import linecache
import os
import shutil
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from ptxjit import _core, cuda
from ptxjit.cuda import cache

from conftest import ON_GPU, ROOT

# children import the ptxjit this process uses (the checkout's, or an installed one)
PKG_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(cache.__file__))))
FAKE_SRC = os.path.join(ROOT, "tests", "fake_cuda", "fake_libcuda.c")

_names = itertools.count()

# a hit on the simulator that a fresh compile contradicts (a key that
# misses an input) warns; here that fails the test
pytestmark = pytest.mark.filterwarnings("error:ptxjit cache:RuntimeWarning")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(d))
    return d


def load(path, text):
    """The module in file `path` with this text, loaded afresh: new
    functions and dispatchers, as in a new process."""
    path = str(path)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    linecache.cache.pop(path, None)
    spec = importlib.util.spec_from_file_location("cache_mod_%d" % next(_names), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def counters():
    return _core.Kernel._counters()


class Run:
    """One launch of a freshly loaded kernel: hit or miss, and what it cost."""

    def __init__(self, kernel, *args, grid=1, block=64):
        c0 = counters()
        kernel[grid, block](*args)
        c1 = counters()
        self.hits = sum(kernel.stats.cache_hits.values())
        self.misses = sum(kernel.stats.cache_misses.values())
        self.compiles = c1["compiles"] - c0["compiles"]
        self.sim_programs = c1["sim_programs"] - c0["sim_programs"]
        self.loads = c1["cache_loads"] - c0["cache_loads"]

    @property
    def hit(self):
        if (self.hits, self.misses) == (1, 0):
            # a hit: no compile; the simulator needs its program, the GPU nothing
            assert self.compiles == 0 and self.loads == 1
            assert self.sim_programs == (0 if ON_GPU else 1)
            return True
        assert (self.hits, self.misses) == (0, 1), (self.hits, self.misses)
        assert self.compiles == 1 and self.sim_programs == 0
        return False


MOD = """
    import numpy as np
    from ptxjit import cuda

    SCALE = {scale}
    OFFSET = {offset}
    UNUSED = {unused}
    TABLE = np.array({table}, dtype=np.float32)

    @cuda.jit(device=True)
    def shift(x):
        return x + OFFSET{dev_extra}

    @cuda.jit(cache=True{opts})
    def kern(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = {expr}
"""


def module(tmp_path, scale=3, offset=0, unused=0, table=(1, 2, 3, 4), expr="a[i] * SCALE", dev_extra="", opts=""):
    return load(tmp_path / "kmod.py", MOD.format(scale=scale, offset=offset, unused=unused, table=list(table),
                                                 expr=expr, dev_extra=dev_extra, opts=opts))


def run(tmp_path, dtype=np.float32, n=64, **kw):
    m = module(tmp_path, **kw)
    a = np.arange(n, dtype=dtype)
    r = Run(m.kern, a)
    r.a = a
    r.mod = m
    return r


def entries(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".pjc"))


# ------------------------------------------------------------ hits and misses

def test_second_load_hits_without_compiling(tmp_path, cache_dir):
    r = run(tmp_path)
    assert not r.hit
    assert (r.a == np.arange(64) * 3).all()
    assert len(entries(cache_dir)) == 1
    r = run(tmp_path)
    assert r.hit
    assert (r.a == np.arange(64) * 3).all()
    k = next(iter(r.mod.kern.overloads.values()))
    assert k.cache_path.endswith(".pjc") and k.compile_us == 0
    assert ".entry" in k.ptx and k.params and k.written_args == (0,)
    # what a compile would have frozen is frozen: a later change does not reach the kernel
    assert r.mod.kern._frozen["SCALE"] == 3


def test_changed_kernel_source_misses(tmp_path, cache_dir):
    assert not run(tmp_path).hit
    # the same computation spelled differently is another source
    assert not run(tmp_path, expr="SCALE * a[i]").hit
    assert run(tmp_path, expr="SCALE * a[i]").hit
    assert run(tmp_path).hit
    assert len(entries(cache_dir)) == 2


def test_changed_device_function_source_misses(tmp_path, cache_dir):
    kw = dict(expr="shift(a[i])")
    assert not run(tmp_path, **kw).hit
    assert run(tmp_path, **kw).hit
    r = run(tmp_path, dev_extra=" + 1", **kw)
    assert not r.hit and (r.a == np.arange(64) + 1).all()
    assert run(tmp_path, dev_extra=" + 1", **kw).hit
    assert run(tmp_path, **kw).hit


def test_changed_global_constant_misses(tmp_path, cache_dir):
    assert not run(tmp_path, scale=3).hit
    r = run(tmp_path, scale=5)
    assert not r.hit and (r.a == np.arange(64) * 5).all()
    r = run(tmp_path, scale=3)
    assert r.hit and (r.a == np.arange(64) * 3).all()
    assert not run(tmp_path, scale=3.0).hit     # a float is another constant than the int
    assert not run(tmp_path, scale=-0.0).hit
    assert not run(tmp_path, scale=0.0).hit


def test_global_read_by_a_device_function_misses(tmp_path, cache_dir):
    kw = dict(expr="shift(a[i])")
    assert not run(tmp_path, offset=1, **kw).hit
    assert run(tmp_path, offset=1, **kw).hit
    r = run(tmp_path, offset=2, **kw)          # the device function reads OFFSET
    assert not r.hit and (r.a == np.arange(64) + 2).all()
    assert run(tmp_path, offset=1, **kw).hit


def test_global_the_kernel_does_not_read_keeps_the_entry(tmp_path, cache_dir):
    assert not run(tmp_path, unused=1).hit
    assert run(tmp_path, unused=2).hit
    assert run(tmp_path, offset=7).hit          # shift is not called


def test_changed_frozen_array_misses(tmp_path, cache_dir):
    kw = dict(expr="a[i] + TABLE[i % 4]")
    r = run(tmp_path, **kw)
    assert not r.hit and (r.a == np.arange(64) + np.tile([1, 2, 3, 4], 16)).all()
    assert run(tmp_path, **kw).hit
    r = run(tmp_path, table=(1, 2, 3, 5), **kw)
    assert not r.hit and (r.a == np.arange(64) + np.tile([1, 2, 3, 5], 16)).all()
    assert not run(tmp_path, table=(1, 2, 3, 4, 0), **kw).hit     # its shape
    r = run(tmp_path, **kw)
    assert r.hit
    # frozen on a hit as a copy, as the compile's resolver freezes it
    m = r.mod
    assert m.kern._frozen["TABLE"] is not m.TABLE and (m.kern._frozen["TABLE"] == m.TABLE).all()


def test_changed_closure_variable_misses(tmp_path, cache_dir):
    text = """
        import numpy as np
        from ptxjit import cuda

        def make(c):
            @cuda.jit(cache=True)
            def kern(a):
                a[0] = c
            return kern
        k2 = make(2)
        k3 = make(3)
    """
    m = load(tmp_path / "clos.py", text)
    a = np.zeros(1, np.float32)
    assert not Run(m.k2, a).hit and a[0] == 2
    assert not Run(m.k3, a).hit and a[0] == 3
    m = load(tmp_path / "clos.py", text)
    assert Run(m.k3, a).hit and a[0] == 3
    assert Run(m.k2, a).hit and a[0] == 2


def test_changed_argument_types_miss(tmp_path, cache_dir):
    for dt in (np.float32, np.float64, np.int32, np.int64):
        assert not run(tmp_path, dtype=dt).hit
    for dt in (np.int64, np.float32):
        assert run(tmp_path, dtype=dt).hit
    assert len(entries(cache_dir)) == 4


LAYOUT = """
    import numpy as np
    from ptxjit import cuda

    @cuda.jit(cache=True)
    def kern(a, b):
        i = cuda.grid(1)
        if i < a.shape[0]:
            b[i, 0] = a[i, 1]
"""


def test_changed_layout_and_aliasing_miss(tmp_path, cache_dir):
    base = np.arange(32, dtype=np.float32).reshape(16, 2)

    def go(a, b):
        m = load(tmp_path / "lay.py", LAYOUT)
        r = Run(m.kern, a, b, block=16)
        if not isinstance(b, np.ndarray):
            a, b = a.copy_to_host(), b.copy_to_host()
        assert (b[:, 0] == a[:, 1]).all()
        return r

    assert not go(base.copy(), np.zeros((16, 2), np.float32)).hit          # C, C
    assert go(base.copy(), np.zeros((16, 2), np.float32)).hit
    assert not go(np.asfortranarray(base), np.zeros((16, 2), np.float32)).hit   # F, C
    strided = cuda.to_device(np.zeros((16, 4), np.float32))[:, ::2]
    assert not go(cuda.to_device(base), strided).hit                       # C, A
    if ON_GPU:
        return
    same = base.copy()                   # one array twice: the launch's no-alias variant is off
    m = load(tmp_path / "lay.py", LAYOUT)
    r = Run(m.kern, same, same, block=16)
    assert not r.hit
    assert len(entries(cache_dir)) == 4


@pytest.mark.parametrize("option", ["fastmath=True", "debug=True", "lineinfo=True", "opt=False",
                                    "max_registers=32"])
def test_changed_options_miss(tmp_path, cache_dir, option):
    assert not run(tmp_path).hit
    assert not run(tmp_path, opts=", " + option).hit
    assert run(tmp_path, opts=", " + option).hit
    assert run(tmp_path).hit


def test_changed_compiler_version_misses(tmp_path, cache_dir, monkeypatch):
    assert not run(tmp_path).hit
    with monkeypatch.context() as mp:
        mp.setattr(cache, "COMPILER_VERSION", "next-version")
        assert not run(tmp_path).hit
        assert run(tmp_path).hit
    assert run(tmp_path).hit
    assert len(entries(cache_dir)) == 2


def test_compiler_version_names_the_build():
    v = cache.compiler_version()
    bid = _core.Kernel._build_id()
    assert v.endswith("/" + bid) if bid else len(v.rsplit("/", 1)[1]) == 64


def test_changed_device_or_driver_misses(tmp_path, cache_dir, monkeypatch):
    arch, driver, sim = cache._target()
    assert not run(tmp_path).hit
    monkeypatch.setattr(cache, "_target_memo", (arch + "x", driver, sim))      # another device
    assert not run(tmp_path).hit
    monkeypatch.setattr(cache, "_target_memo", (arch, driver + 10, sim))       # another driver
    assert not run(tmp_path).hit
    assert run(tmp_path).hit
    monkeypatch.setattr(cache, "_target_memo", (arch, driver, sim))
    assert run(tmp_path).hit


def test_explicit_signature_and_recursion(tmp_path, cache_dir):
    text = """
        from ptxjit import cuda

        @cuda.jit("int64(int64)", device=True)
        def fact(n):
            if n <= 1:
                return 1
            return n * fact(n - 1)

        @cuda.jit("void(int64[::1])", cache=True)
        def kern(a):
            a[0] = fact(a[0])
    """
    for hit in (False, True):
        c0 = counters()
        m = load(tmp_path / "rec.py", text)
        c1 = counters()
        assert sum(m.kern.stats.cache_hits.values()) == hit
        assert c1["compiles"] - c0["compiles"] == (0 if hit else 1)
        a = np.array([5], np.int64)
        m.kern[1, 1](a)
        assert a[0] == 120


def test_debug_kernel_traps_come_from_the_entry(tmp_path, cache_dir):
    text = """
        from ptxjit import cuda

        @cuda.jit(debug=True, opt=False, cache=True)
        def kern(a):
            i = cuda.grid(1)
            if a[i] < 0:
                raise ValueError("negative value")
            a[i] = 2 * a[i]
    """
    for hit in (False, True):
        m = load(tmp_path / "trap.py", text)
        a = np.arange(4, dtype=np.float32)
        r = Run(m.kern, a, block=4)
        assert r.hit == hit and (a == 2 * np.arange(4)).all()
        a[2] = -1
        with pytest.raises(ValueError, match="negative value"):
            m.kern[1, 4](a)


def test_inspection_of_a_cached_kernel(tmp_path, cache_dir):
    run(tmp_path)
    r = run(tmp_path)
    assert r.hit
    k = r.mod.kern
    assert ".entry" in k.inspect_asm(k.signatures[0])
    assert k.typed_source(k.signatures[0]) and k.inspect_ir(k.signatures[0])


def test_linked_files_are_not_cached(tmp_path):
    ptx = tmp_path / "lib.ptx"
    ptx.write_text(".version 7.8\n.target sm_80\n.address_size 64\n")
    with pytest.raises(RuntimeError, match="Cannot pickle CUDACodeLibrary with linking files.*drop cache=True"):
        cuda.jit("void()", cache=True, link=[str(ptx)])
    assert cuda.jit(link=[str(ptx)])(lambda: None).targetoptions["link"]   # without the cache, as usual


def test_cached_kernel_keeps_its_resources_and_type_annotation(tmp_path, cache_dir):
    first = run(tmp_path, opts=", launch_bounds=(256,)")
    fresh = next(iter(first.mod.kern.overloads.values()))
    r = run(tmp_path, opts=", launch_bounds=(256,)")
    assert r.hit
    k = next(iter(r.mod.kern.overloads.values()))
    assert k.types is None
    for attr in ("max_threads_per_block", "shared_mem_per_block", "const_mem_size", "local_mem_per_thread",
                 "regs_per_thread"):
        assert getattr(k, attr) == getattr(fresh, attr), attr
    assert k.max_threads_per_block == 256
    assert k._type_annotation.typemap["a"] == fresh._type_annotation.typemap["a"]
    assert str(k._type_annotation.typemap["i"]) == "int64"


# ---------------------------------------------------------- damaged files

def test_damaged_entry_is_replaced(tmp_path, cache_dir):
    assert not run(tmp_path).hit
    (f,) = entries(cache_dir)
    path = cache_dir / f
    good = path.read_bytes()
    for bad in (b"", b"not a kernel", good[:len(good) // 2], good[:-1], good + b"\0",
                good[:100] + bytes([good[100] ^ 1]) + good[101:]):
        path.write_bytes(bad)
        r = run(tmp_path)
        assert not r.hit and (r.a == np.arange(64) * 3).all()
        assert path.read_bytes() == good or ON_GPU      # (a driver's linker need not repeat its bytes)
        assert run(tmp_path).hit


def test_damaged_index_is_replaced(tmp_path, cache_dir):
    assert not run(tmp_path).hit
    (idx,) = [f for f in os.listdir(cache_dir) if f.endswith(".idx")]
    good = (cache_dir / idx).read_bytes()
    for bad in (b"", b"\xff\xfe", good[:10], good.replace(b":", b";"), good + b"zz"):
        (cache_dir / idx).write_bytes(bad)
        assert not run(tmp_path).hit
        assert run(tmp_path).hit


def test_entry_reader_refuses_every_truncation_and_flip(tmp_path, cache_dir):
    r = run(tmp_path)
    k = next(iter(r.mod.kern.overloads.values()))
    key = "ab" * 32
    data = k._cache_entry(key, None if not ON_GPU else b"\x7fELF" + b"x" * 40)
    load_image = False
    ok = _core.Kernel._from_cache(data, key, 0, load_image)
    assert ok is not None and ok.ptx == k.ptx and ok.params == k.params and ok.param_bytes == k.param_bytes
    assert ok.read_args == k.read_args and ok.written_args == k.written_args and ok.entry == k.entry
    assert _core.Kernel._from_cache(data, "cd" * 32, 0, load_image) is None       # another key
    for n in range(len(data)):
        assert _core.Kernel._from_cache(data[:n], key, 0, load_image) is None
    for i in range(0, len(data), 7):
        flipped = data[:i] + bytes([data[i] ^ 0x10]) + data[i + 1:]
        assert _core.Kernel._from_cache(flipped, key, 0, load_image) is None


@pytest.mark.skipif(ON_GPU, reason="the simulator's check of an entry against a fresh compile")
def test_simulator_hit_checks_the_entry(tmp_path, cache_dir):
    """An entry that is not what the compiler makes (a key that missed an
    input) is found out on the simulator, replaced, and warned about."""
    assert not run(tmp_path).hit
    (f,) = entries(cache_dir)
    other = run(tmp_path, expr="a[i] + 1")          # another kernel, filed under this key
    k = next(iter(other.mod.kern.overloads.values()))
    (cache_dir / f).write_bytes(k._cache_entry(f[:-4], None))
    with pytest.warns(RuntimeWarning, match="differs from what the compiler makes"):
        r = run(tmp_path)
    assert (r.hits, r.misses) == (0, 1) and (r.a == np.arange(64) * 3).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert run(tmp_path).hit


def test_no_cache_without_the_option(tmp_path, cache_dir):
    m = load(tmp_path / "nc.py", MOD.format(scale=3, offset=0, unused=0, table=[1], expr="a[i]", dev_extra="",
                                           opts="").replace("cache=True", "cache=False"))
    m.kern[1, 64](np.zeros(64, np.float32))
    assert not cache_dir.exists() or not os.listdir(cache_dir)


def test_cache_dir_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(tmp_path))
    assert cache.cache_dir() == str(tmp_path)
    monkeypatch.delenv("PTXJIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache.cache_dir() == os.path.join(str(tmp_path / "x"), "ptxjit")


# ------------------------------------------------------- other processes

CHILD = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {python!r})
import numpy as np
from ptxjit import cuda, _core
from ptxjit.cuda import cache
{prelude}
SCALE = {scale}

@cuda.jit(device=True)
def twice(x):
    return 2 * x

@cuda.jit(cache=True)
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = twice(a[i]) * SCALE

a = cuda.to_device(np.arange(64, dtype=np.float32))
scale[1, 64](a)
{after}
print(sum(scale.stats.cache_hits.values()), sum(scale.stats.cache_misses.values()),
      _core.Kernel._counters()["compiles"])
"""


def child(tmp_path, cache_dir, scale=3, prelude="", after="", env=None):
    path = tmp_path / "child_cache.py"
    path.write_text(CHILD.format(python=PKG_DIR, scale=scale, prelude=prelude, after=after))
    e = dict(os.environ, PTXJIT_CACHE_DIR=str(cache_dir))
    e["PTXJIT_SIM"] = "0" if ON_GPU else "1"
    e.update(env or {})
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=e, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_second_process_hits(tmp_path, cache_dir):
    check = "assert (a.copy_to_host() == np.arange(64) * 2 * SCALE).all()"
    assert child(tmp_path, cache_dir, after=check) == ["0", "1", "1"]
    assert child(tmp_path, cache_dir, after=check) == ["1", "0", "0"]
    assert child(tmp_path, cache_dir, scale=5, after=check) == ["0", "1", "1"]
    assert child(tmp_path, cache_dir, scale=5, after=check) == ["1", "0", "0"]


def test_key_needs_no_slow_imports(tmp_path, cache_dir):
    """A hit must not import hashlib (OpenSSL: milliseconds) or json."""
    child(tmp_path, cache_dir)
    out = child(tmp_path, cache_dir, after="print(*[m in sys.modules for m in ('hashlib', 'json')])")
    assert out == ["False", "False", "1", "0", "0"]


@pytest.fixture(scope="module")
def fake_libs(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if ON_GPU or not cc:
        pytest.skip("the fake driver replaces a GPU; it needs a C compiler")
    d = tmp_path_factory.mktemp("fake_cuda")
    libs = {}
    for name, flags in (("link", []), ("nolink", ["-DFAKE_NO_LINKER"])):
        libs[name] = str(d / ("libcuda_%s.so" % name))
        subprocess.run([cc, "-shared", "-fPIC", "-O1", "-pthread"] + flags + ["-o", libs[name], FAKE_SRC],
                       check=True)
    return libs


FAKE = """
import ctypes, os
fake = ctypes.CDLL(os.environ["PTXJIT_LIBCUDA"])
fake.fake_get.restype = ctypes.c_long
fake.fake_last_launch.restype = ctypes.c_size_t
def get(key):
    return fake.fake_get(key.encode())
def last_params():
    g = (ctypes.c_uint * 3)(); b = (ctypes.c_uint * 3)()
    buf = (ctypes.c_ubyte * 4096)(); entry = ctypes.create_string_buffer(256)
    n = fake.fake_last_launch(g, b, buf, 4096, entry)
    return bytes(buf[:n]).hex(), entry.value.decode()
"""


def test_fake_driver_hit_loads_machine_code_without_compiling(tmp_path, cache_dir, fake_libs):
    """On the GPU path (the fake driver), a hit neither compiles nor runs
    ptxas: the module comes from the cubin, and the launch gets the same
    parameters as in the process that compiled."""
    after = ("k = next(iter(scale.overloads.values()))\n"
             "raw, entry = last_params()\n"
             "print(get('links'), get('ptx_loads'), get('cubin_loads'), k.param_bytes, len(raw) // 2, entry,\n"
             "      str(k.params).replace(' ', ''), raw[:16] == '%016x' % int.from_bytes(a._ptr.to_bytes(8, 'little'), 'big'))")
    env = {"PTXJIT_LIBCUDA": fake_libs["link"], "PTXJIT_SIM": "0"}
    first = child(tmp_path, cache_dir, prelude=FAKE, after=after, env=env)
    again = child(tmp_path, cache_dir, prelude=FAKE, after=after, env=env)
    assert first[:3] == ["1", "0", "1"]          # linked once, loaded as machine code
    assert first[-3:] == ["0", "1", "1"]
    assert again[:3] == ["0", "0", "1"]          # no link, no PTX: the cubin from the file
    assert again[-3:] == ["1", "0", "0"]
    # the same parameter layout, buffer size and entry, and the array's address where it belongs
    assert again[3:7] == first[3:7] and first[3] == first[4] and again[7] == "True"


def test_fake_driver_refusing_the_cubin_recompiles(tmp_path, cache_dir, fake_libs):
    env = {"PTXJIT_LIBCUDA": fake_libs["link"], "PTXJIT_SIM": "0"}
    assert child(tmp_path, cache_dir, env=env) == ["0", "1", "1"]
    refuse = FAKE + "fake.fake_set(b'reject_cubin', ctypes.c_long(1))"
    # the driver refuses the machine code: compiled again, and run from its PTX, uncached
    out = child(tmp_path, cache_dir, prelude=refuse, after="print(get('links'), get('ptx_loads'))", env=env)
    assert out == ["1", "1", "0", "1", "1"], out
    assert child(tmp_path, cache_dir, env=env) == ["1", "0", "0"]


def test_fake_driver_cached_kernel_after_close(tmp_path, cache_dir, fake_libs):
    """cuda.close() unloads every module; a kernel from the cache loads
    again (from its PTX) at its next launch."""
    env = {"PTXJIT_LIBCUDA": fake_libs["link"], "PTXJIT_SIM": "0"}
    again = ("cuda.close()\n"
             "a = cuda.to_device(np.arange(64, dtype=np.float32))\n"
             "scale[1, 64](a)\n"
             "print(get('ptx_loads'), get('cubin_loads'), get('launches'))")
    assert child(tmp_path, cache_dir, prelude=FAKE, after=again, env=env) == ["1", "1", "2", "0", "1", "1"]
    assert child(tmp_path, cache_dir, prelude=FAKE, after=again, env=env) == ["1", "1", "2", "1", "0", "0"]


def test_driver_without_a_linker_runs_uncached(tmp_path, cache_dir, fake_libs):
    """A driver that cannot make machine code (no cuLink*): cache=True
    kernels still run, count a miss, and nothing is written."""
    env = {"PTXJIT_LIBCUDA": fake_libs["nolink"], "PTXJIT_SIM": "0"}
    assert child(tmp_path, cache_dir, env=env) == ["0", "1", "1"]
    assert child(tmp_path, cache_dir, env=env) == ["0", "1", "1"]
    assert not cache_dir.exists() or not os.listdir(cache_dir)

"""The disk cache of @cuda.jit(cache=True) (ptxjit/cuda/cache.py).

The key must change with everything the machine code depends on (source,
argument types, options, the resolved global constants through the PTX,
the compiler's version, the device and the driver), and a second process
must find what the first stored.  On the simulator the cached artifact is
the PTX (there is no machine code); on the GPU it is the cubin, and a hit
loads it without running ptxas.
"""

import os
import subprocess
import sys
import textwrap

from ptxjit.cuda import cache

from conftest import ON_GPU, ROOT

# children import the ptxjit this process uses (the checkout's, or an installed one)
PKG_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(cache.__file__))))

BASE = dict(source="def k(a):\n    a[0] = 1\n", argtypes=("float32[::1]",),
            options={"fastmath": False, "debug": False, "lineinfo": False, "opt": True, "max_registers": 0},
            ptx=".entry k {}", arch="90", driver_version=12080)


def key(**change):
    kw = dict(BASE, **change)
    return cache.cache_key(kw["source"], kw["argtypes"], kw["options"], kw["ptx"], kw["arch"],
                           kw["driver_version"], kw.get("compiler_version"))


def test_key_is_stable_and_hex():
    assert key() == key()
    assert len(key()) == 64 and int(key(), 16) >= 0


def test_key_changes_with_each_input():
    k0 = key()
    changed = [
        key(source=BASE["source"].replace("1", "2")),
        key(argtypes=("float64[::1]",)),
        key(options=dict(BASE["options"], fastmath=True)),
        key(options=dict(BASE["options"], opt=False)),
        key(options=dict(BASE["options"], small_extents=True)),
        key(ptx=".entry k { ret; }"),            # a global constant changed the code
        key(arch="80"),
        key(driver_version=12090),
        key(compiler_version="0.0.0/0.0.0"),
    ]
    assert len(set(changed)) == len(changed)
    assert k0 not in changed


def test_cache_dir_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PTXJIT_CACHE_DIR", str(tmp_path))
    assert cache.cache_dir() == str(tmp_path)
    monkeypatch.delenv("PTXJIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache.cache_dir() == os.path.join(str(tmp_path / "x"), "ptxjit")


SCRIPT = """
import sys
import numpy as np
sys.path.insert(0, {python!r})
from ptxjit import cuda
{patch}
SCALE = {scale}
OFFSET = {offset}
UNUSED = {unused}

@cuda.jit(device=True)
def shift(x):
    return x + OFFSET

@cuda.jit(cache={cache})
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = {expr}

a = np.arange(64, dtype=np.{dtype})
scale[1, 64](a)
x = np.arange(64)
assert (a == {expr_np}).all(), a
print(sum(scale.stats.cache_hits.values()), sum(scale.stats.cache_misses.values()))
"""


def run_script(tmp_path, cache_dir, scale=3, dtype="float32", cache_on=True, expr="a[i] * SCALE",
               expr_np="x * SCALE", offset=0, unused=0, patch=""):
    path = tmp_path / "kern_cache_test.py"
    path.write_text(textwrap.dedent(SCRIPT.format(python=PKG_DIR, scale=scale,
                                                  dtype=dtype, cache=cache_on, expr=expr, expr_np=expr_np,
                                                  offset=offset, unused=unused, patch=patch)))
    env = dict(os.environ, PTXJIT_CACHE_DIR=str(cache_dir))
    env["PTXJIT_SIM"] = "0" if ON_GPU else "1"
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    hits, misses = map(int, r.stdout.split())
    return hits, misses


def test_second_process_hits(tmp_path):
    d = tmp_path / "cache"
    assert run_script(tmp_path, d) == (0, 1)
    files = os.listdir(d)
    assert len(files) == 1 and files[0].endswith(".ptx" if not ON_GPU else ".cubin")
    assert run_script(tmp_path, d) == (1, 0)
    # a changed global constant, or other argument types: new entries
    assert run_script(tmp_path, d, scale=5) == (0, 1)
    assert run_script(tmp_path, d, dtype="float64") == (0, 1)
    assert len(os.listdir(d)) == 3
    assert run_script(tmp_path, d, scale=5) == (1, 0)


def test_no_cache_without_the_option(tmp_path):
    d = tmp_path / "cache"
    assert run_script(tmp_path, d, cache_on=False) == (0, 0)
    assert not d.exists() or not os.listdir(d)


def test_damaged_entry_is_replaced(tmp_path):
    d = tmp_path / "cache"
    run_script(tmp_path, d)
    (f,) = os.listdir(d)
    (d / f).write_bytes(b"not a kernel")
    assert run_script(tmp_path, d) == (0, 1)
    assert run_script(tmp_path, d) == (1, 0)


def test_changed_source_misses(tmp_path):
    d = tmp_path / "cache"
    assert run_script(tmp_path, d) == (0, 1)
    # the same computation spelled differently is another source: a new entry
    assert run_script(tmp_path, d, expr="SCALE * a[i]", expr_np="SCALE * x") == (0, 1)
    assert run_script(tmp_path, d, expr="SCALE * a[i]", expr_np="SCALE * x") == (1, 0)
    assert run_script(tmp_path, d) == (1, 0)
    assert len(os.listdir(d)) == 2


def test_global_read_by_a_device_function_misses(tmp_path):
    d = tmp_path / "cache"
    kw = dict(expr="shift(a[i])", expr_np="x + OFFSET")
    assert run_script(tmp_path, d, offset=1, **kw) == (0, 1)
    assert run_script(tmp_path, d, offset=1, **kw) == (1, 0)
    assert run_script(tmp_path, d, offset=2, **kw) == (0, 1)     # the device function reads OFFSET
    assert run_script(tmp_path, d, offset=1, **kw) == (1, 0)


def test_global_the_kernel_does_not_read_keeps_the_entry(tmp_path):
    d = tmp_path / "cache"
    assert run_script(tmp_path, d, unused=1) == (0, 1)
    assert run_script(tmp_path, d, unused=2) == (1, 0)


def test_changed_compiler_version_misses(tmp_path):
    d = tmp_path / "cache"
    newer = "from ptxjit.cuda import cache as _c; _c.COMPILER_VERSION = 'next-version'"
    assert run_script(tmp_path, d) == (0, 1)
    assert run_script(tmp_path, d, patch=newer) == (0, 1)
    assert run_script(tmp_path, d, patch=newer) == (1, 0)
    assert run_script(tmp_path, d) == (1, 0)
    assert len(os.listdir(d)) == 2


def test_changed_argument_types_miss(tmp_path):
    d = tmp_path / "cache"
    for dt in ("float32", "float64", "int32", "int64"):
        assert run_script(tmp_path, d, dtype=dt) == (0, 1)
    for dt in ("int64", "float32"):
        assert run_script(tmp_path, d, dtype=dt) == (1, 0)
    assert len(os.listdir(d)) == 4


def test_key_needs_no_slow_imports():
    """Making a key must not import hashlib (OpenSSL: milliseconds), nor
    must importing ptxjit.cuda: a cache hit has under a millisecond."""
    code = ("import sys; sys.path.insert(0, %r)\n"
            "import os; os.environ['PTXJIT_SIM'] = '1'\n"
            "from ptxjit.cuda import cache\n"
            "cache.cache_key('s', ('int64',), {}, 'p', '90', 1)\n"
            "print('hashlib' in sys.modules)" % PKG_DIR)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False"], r.stdout


def test_driver_without_a_linker_runs_uncached(tmp_path):
    """A driver that cannot make machine code (the fake driver has no
    cuLink*): cache=True kernels still run, and count a miss."""
    import shutil
    cc = shutil.which("cc") or shutil.which("gcc")
    if ON_GPU or not cc:
        return
    lib = str(tmp_path / "libcuda_fake.so")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-pthread", "-o", lib,
                    os.path.join(ROOT, "tests", "fake_cuda", "fake_libcuda.c")], check=True)
    path = tmp_path / "kern_nolink.py"
    path.write_text(textwrap.dedent("""
        import sys
        import numpy as np
        sys.path.insert(0, %r)
        from ptxjit import cuda

        @cuda.jit(cache=True)
        def k(a):
            a[0] = 1

        a = cuda.device_array(4, np.float32)
        k[1, 1](a)
        k[1, 1](a)
        print(sum(k.stats.cache_hits.values()), sum(k.stats.cache_misses.values()))
    """ % PKG_DIR))
    d = tmp_path / "cache"
    env = dict(os.environ, PTXJIT_CACHE_DIR=str(d), PTXJIT_SIM="0", PTXJIT_LIBCUDA=lib)
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "1"]
    assert not d.exists() or not os.listdir(d)

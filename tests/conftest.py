"""Shared set-up of the pytest suite: GPU or simulator, and kernel loading.

Every kernel test runs on one of two back ends, chosen here before ptxjit is
imported (the package reads PTXJIT_SIM at import):

  * the GPU, when PTXJIT_TEST_GPU=1 (or PTXJIT_SIM=0) is in the environment;
    without a usable driver every test is skipped and the reason says so;
  * the simulator otherwise (PTXJIT_SIM=1), which needs no GPU.

Both must give the answer NumPy gives.  The kernels come from
tests/golden/kernels/ (the same files the compiler's golden tests compile
to PTX); `from numba import cuda` and `import numba` in them bind ptxjit,
exactly as a user changes the import.
"""

import contextlib
import importlib.util
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KERNELS = os.path.join(HERE, "golden", "kernels")
SEEDS = os.path.join(HERE, "seeds")

ON_GPU = os.environ.get("PTXJIT_TEST_GPU") == "1" or os.environ.get("PTXJIT_SIM") == "0"
os.environ["PTXJIT_SIM"] = "0" if ON_GPU else "1"
# Tests launch small grids on NumPy arrays on purpose: Numba's performance
# warnings are off, as in Numba's own test suite (tests/test_host_api.py
# turns them on where it checks them).
os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
os.environ.setdefault("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY", "0")

try:
    import ptxjit
except ImportError:
    # not installed: use the in-place build of the checkout
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ptxjit  # noqa: E402

from ptxjit import cuda  # noqa: E402

BACKEND = "gpu" if ON_GPU else "simulator"
_skip_all = None
if ON_GPU:
    try:
        if not cuda.is_available():
            _skip_all = "PTXJIT_TEST_GPU=1 but cuda.is_available() is False (no usable CUDA driver or GPU)"
    except Exception as e:  # the driver failed to load: say how
        _skip_all = "PTXJIT_TEST_GPU=1 but the CUDA driver cannot be used: %s" % e


def pytest_report_header(config):
    where = "GPU (PTXJIT_TEST_GPU=1)" if ON_GPU else "simulator (PTXJIT_SIM=1)"
    return "ptxjit %s from %s; kernels run on the %s" % (
        getattr(ptxjit, "__version__", "?"), os.path.dirname(ptxjit.__file__), where)


def pytest_collection_modifyitems(config, items):
    if _skip_all:
        mark = pytest.mark.skip(reason=_skip_all)
        for item in items:
            item.add_marker(mark)


@contextlib.contextmanager
def numba_is_ptxjit():
    """`import numba` and `from numba import cuda` give ptxjit inside."""
    saved = {k: sys.modules.get(k) for k in ("numba", "numba.cuda")}
    sys.modules["numba"] = ptxjit
    sys.modules["numba.cuda"] = cuda
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def load_module(path, name):
    """Imports a kernel file with `numba` bound to ptxjit while it runs."""
    with numba_is_ptxjit():
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return mod


def assert_ptx_assembles(kernels, at_least, arch="sm_90"):
    """ptxas accepts the PTX of every signature the kernels were compiled
    for in this run (for another arch than sm_90, compiled again for it
    with compile_ptx), and there were at least `at_least`; skips when
    ptxas is not on the PATH."""
    import shutil
    import subprocess
    import tempfile
    ptxas = shutil.which("ptxas")
    if not ptxas:
        pytest.skip("ptxas is not on the PATH")
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in kernels:
            for sig, ptx in k.inspect_asm().items():
                if arch != "sm_90":
                    from ptxjit import cuda
                    ptx = cuda.compile_ptx(k.py_func, sig, cc=(int(arch[3]), int(arch[4:])))[0]
                path = os.path.join(tmp, "k%d.ptx" % n)
                with open(path, "w") as f:
                    f.write(ptx)
                r = subprocess.run([ptxas, "-arch=" + arch, path, "-o", os.devnull], capture_output=True, text=True)
                assert r.returncode == 0, "%s%s: %s" % (k.__name__, sig, r.stderr)
                n += 1
    assert n >= at_least


def same_bits(a, b):
    """The same dtype, shape and bytes: results equal bit for bit."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def launch_all(kernel, grid, block, args, outs, variants=(0, 1, 3, 7)):
    """The outputs (indices outs of args) of kernel compiled unoptimised;
    the optimised compiles in each launch variant (by default plain, small
    extents, small extents and disjoint arrays, and with a small grid)
    must give the same bits."""
    want, _ = run_variant(kernel.py_func, args, outs, grid, block, 0, opt=False)
    for flags in variants:
        got, _ = run_variant(kernel.py_func, args, outs, grid, block, flags)
        for g, w in zip(got, want):
            assert same_bits(g, w), "variant %d differs from opt=False" % flags
    return want


def run_variant(func, args, outs, grid, block, flags, **options):
    """func compiled with `options` for args in launch variant `flags` (1
    small extents, 2 disjoint arrays, 4 small grid), launched on copies of
    args with the outputs (indices `outs`) zeroed: (the outputs, the
    kernel).  The launch asks for the variant its arguments allow; the
    kernel compiled for `flags` is put in its place for every variant."""
    import numpy as np
    d = cuda.jit(**options)(func)
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    for k in outs:
        args[k][...] = 0
    argtypes = d._typeof(tuple(args))
    k = d._compile(", ".join(argtypes), argtypes, flags)
    for f in range(8):
        d._variants[(argtypes, f)] = k
    d[grid, block](*args)
    return [args[k] for k in outs], k


_loaded = {}


def load_kernel(name):
    """The module tests/golden/kernels/NAME.py (loaded once per session)."""
    if name not in _loaded:
        _loaded[name] = load_module(os.path.join(KERNELS, name + ".py"), "golden_kernels_" + name)
    return _loaded[name]


@pytest.fixture
def load():
    return load_kernel


@pytest.fixture
def rng(request):
    """A NumPy generator seeded from the test's name: reproducible, and
    different data for different tests."""
    import zlib

    import numpy as np
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


@pytest.fixture
def on_gpu():
    return ON_GPU

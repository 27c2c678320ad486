"""A function's file edited after its module was imported: ptxjit compiles
from source text, so it must compile the text Python ran (taken when the
decorator ran) or, for functions jitted after the edit, the code Python
runs, rebuilt from its bytecode; never the edited text.  Kernels, device functions
(each compiled from its own source), @njit, and vectorize/guvectorize
bodies; the edit keeps the line count (a changed constant) or changes it
(lines added above)."""

import importlib.util
import os
import sys

import numpy as np
import pytest

from ptxjit import cuda, guvectorize, njit, vectorize

MODULE = '''\
import numpy as np
from ptxjit import cuda, njit, vectorize, guvectorize

K = 3.0


@cuda.jit(device=True)
def dev(x):
    return x * 3.0 + K


@cuda.jit
def kern(a, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = dev(a[i]) - 1.0


@njit
def nj(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * 3.0
    return s


@vectorize(["float64(float64)"], target="cuda")
def vec(x):
    return x * 3.0 - 2.0


@vectorize(["float64(float64)"])
def vec_cpu(x):
    return x * 3.0 - 2.0


@guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="cuda")
def gu(x, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * 3.0
    out[0] = s


def late_kern(a, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * 3.0


def late_dev(x):
    return x * 3.0


def late_py(x):
    return x * 3.0


def late_gu(x, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * 3.0
    out[0] = s


@cuda.jit
def calls_late(a, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = helper(a[i])
'''

EDITS = {
    "constant": lambda t: t.replace("3.0", "7.0"),
    "lines_added": lambda t: t.replace("K = 3.0\n", "K = 3.0\n# a comment\n\n\nX = 1\n").replace("3.0", "7.0"),
}

_n = [0]


def _import_then_edit(tmp_path, edit):
    _n[0] += 1
    name = "pj_edited_%d_%d" % (os.getpid(), _n[0])
    path = tmp_path / (name + ".py")
    path.write_text(MODULE)
    spec = importlib.util.spec_from_file_location(name, str(path))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    path.write_text(EDITS[edit](MODULE))
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5 * 10**9))    # saved later, as an editor does
    return mod, str(path)


@pytest.fixture(params=sorted(EDITS))
def edited(request, tmp_path):
    return _import_then_edit(tmp_path, request.param)


def test_decorated_functions_compile_the_text_python_ran(edited, rng):
    mod, path = edited
    a = rng.uniform(-2.0, 2.0, 37)
    out = np.zeros(37)
    mod.kern[2, 32](a, out)
    np.testing.assert_allclose(out, a * 3.0 + 3.0 - 1.0, rtol=1e-15)
    assert mod.nj(a) == pytest.approx(float(np.sum(a * 3.0)), rel=1e-12)
    np.testing.assert_allclose(mod.vec(a), a * 3.0 - 2.0, rtol=1e-15)
    np.testing.assert_allclose(mod.vec_cpu(a), a * 3.0 - 2.0, rtol=1e-15)
    m = a[:36].reshape(4, 9)
    np.testing.assert_allclose(mod.gu(m), (m * 3.0).sum(axis=1), rtol=1e-12)


def test_functions_jitted_after_the_edit_compile_the_code_python_runs(edited, rng):
    """The file no longer holds their code: they are rebuilt from the
    bytecode Python runs (3.0, not the edited file's 7.0)."""
    mod, path = edited
    a = rng.uniform(-2.0, 2.0, 8)
    out = np.zeros(8)
    cuda.jit(mod.late_kern)[1, 8](a, out)
    np.testing.assert_allclose(out, a * 3.0, rtol=1e-15)
    assert njit(mod.late_py)(1.5) == 4.5
    np.testing.assert_allclose(vectorize(["float64(float64)"], target="cuda")(mod.late_py)(a), a * 3.0, rtol=1e-15)
    np.testing.assert_allclose(vectorize(["float64(float64)"])(mod.late_py)(a), a * 3.0, rtol=1e-15)
    got = guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="cuda")(mod.late_gu)(a)
    assert float(got) == pytest.approx(float(np.sum(a * 3.0)), rel=1e-12)
    # a device function made after the edit, called by a kernel made before it
    out[:] = 0
    mod.helper = cuda.jit(device=True)(mod.late_dev)
    mod.calls_late[1, 8](a, out)
    np.testing.assert_allclose(out, a * 3.0, rtol=1e-15)


def test_unchanged_files_still_compile(tmp_path, rng):
    _n[0] += 1
    name = "pj_unedited_%d_%d" % (os.getpid(), _n[0])
    path = tmp_path / (name + ".py")
    path.write_text(MODULE)
    spec = importlib.util.spec_from_file_location(name, str(path))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    a = rng.uniform(-2.0, 2.0, 8)
    out = np.zeros(8)
    cuda.jit(mod.late_kern)[1, 8](a, out)
    np.testing.assert_allclose(out, a * 3.0, rtol=1e-15)
    mod.helper = cuda.jit(device=True)(mod.late_dev)
    mod.calls_late[1, 8](a, out)
    np.testing.assert_allclose(out, a * 3.0, rtol=1e-15)
    assert njit(mod.late_py)(1.5) == 4.5


def _nested_kernel():
    scale = 3.0

    def inner(a, out):
        i = cuda.grid(1)
        if i < out.size:
            assert a[i] == a[i]
            out[i] = a[i] * scale + 1.0
    return inner


def test_closures_and_pytest_rewritten_asserts_still_compile(rng):
    """Nested functions with free variables, in a test module whose asserts
    pytest rewrote, pass the check (it compiles what Python compiled)."""
    k = cuda.jit(_nested_kernel())
    a = rng.uniform(-2.0, 2.0, 8)
    out = np.zeros(8)
    k[1, 8](a, out)
    np.testing.assert_allclose(out, a * 3.0 + 1.0, rtol=1e-15)

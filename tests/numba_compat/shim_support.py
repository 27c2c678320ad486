"""numba.cuda.tests.support under the ptxjit shim: the helpers numba-cuda's
cudapy tests use, written for ptxjit.  Any other name raises MissingName."""

import atexit
import cmath
import contextlib
import importlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import types
import unittest
import warnings

import numpy as np

from compat_shim import MissingName

linux_only = unittest.skipUnless(sys.platform.startswith("linux"), "Linux only")
windows_only = unittest.skipUnless(sys.platform.startswith("win"), "Windows only")

try:
    import cffi  # noqa: F401
    _have_cffi = True
except ImportError:
    _have_cffi = False
skip_unless_cffi = unittest.skipUnless(_have_cffi, "requires cffi")

IS_NUMPY_2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"
skip_if_numpy_2 = unittest.skipIf(IS_NUMPY_2, "Not supported on numpy 2.0+")


@contextlib.contextmanager
def override_config(name, value):
    """Sets numba.cuda.config.NAME for the block; an unknown NAME is a
    MissingName (ptxjit reads no such setting)."""
    config = importlib.import_module("numba.cuda.core.config")
    old = getattr(config, name)
    setattr(config, name, value)
    try:
        yield
    finally:
        setattr(config, name, old)


@contextlib.contextmanager
def _captured(stream):
    old = getattr(sys, stream)
    setattr(sys, stream, io.StringIO())
    try:
        yield getattr(sys, stream)
    finally:
        setattr(sys, stream, old)


def captured_stdout():
    return _captured("stdout")


def captured_stderr():
    return _captured("stderr")


@contextlib.contextmanager
def ignore_internal_warnings():
    with warnings.catch_warnings():
        yield


def import_dynamic(modname):
    importlib.invalidate_caches()
    __import__(modname)
    return sys.modules[modname]


_temp_dirs = []


def temp_directory(prefix):
    """A new directory that lasts as long as this process (removed at exit)."""
    if not _temp_dirs:
        atexit.register(lambda: [shutil.rmtree(p, ignore_errors=True) for p in _temp_dirs])
    path = tempfile.mkdtemp(prefix=prefix + "-")
    _temp_dirs.append(path)
    return path


def run_in_subprocess(code, flags=(), env=None, timeout=30):
    """Runs `code` in a new Python with the ptxjit shim installed; returns
    (stdout, stderr) as text, as numba-cuda's does, and fails on a non-zero
    status."""
    boot = "import compat_shim; compat_shim.install()\n"
    full_env = dict(os.environ)
    full_env.update(env or {})
    p = subprocess.run([sys.executable, *flags, "-c", boot + code], capture_output=True, text=True,
                       errors="replace", env=full_env, timeout=timeout)
    if p.returncode:
        raise AssertionError("process failed with code %s: stderr follows\n%s" % (p.returncode, p.stderr))
    return p.stdout, p.stderr


def _family(x):
    if isinstance(x, np.ndarray):
        return "ndarray"
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, (int, np.integer)):
        return "int"
    if isinstance(x, (float, np.floating)):
        return "float"
    if isinstance(x, (complex, np.complexfloating)):
        return "complex"
    if isinstance(x, (tuple, list)):
        return "sequence"
    if x is None:
        return "none"
    return "other"


_BITS = {"single": 24, "double": 53}


class TestCase(unittest.TestCase):
    """unittest.TestCase with the comparisons numba-cuda's tests use."""

    def subprocess_test_runner(self, test_module, test_class=None, test_name=None, envvars=None, timeout=60,
                               flags=None, _subproc_test_env="1"):
        """Runs test_module[.test_class[.test_name]] in a new Python (the
        shim is in every Python started with PTXJIT_NUMBA_SHIM=1), with
        envvars set; fails with its output when it does."""
        name = ".".join(x for x in (test_module, test_class, test_name) if x is not None)
        env = dict(os.environ, SUBPROC_TEST=_subproc_test_env, PTXJIT_NUMBA_SHIM="1")
        env.update(envvars or {})
        cmd = [sys.executable] + [str(x) for kv in (flags or {}).items() for x in kv] + ["-m", "unittest", name]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        self.assertEqual(p.returncode, 0, "%s failed in a subprocess:\n%s%s" % (name, p.stdout, p.stderr))
        return {"stdout": p.stdout, "stderr": p.stderr}

    @staticmethod
    def run_test_in_subprocess(maybefunc=None, timeout=60, envvars=None):
        """The decorated test runs in a subprocess (subprocess_test_runner)."""
        def wrapper(func):
            def inner(self, *args, **kwargs):
                if os.environ.get("SUBPROC_TEST") != func.__name__:
                    self.subprocess_test_runner(self.__module__, self.__class__.__name__, func.__name__,
                                                envvars=envvars, timeout=timeout,
                                                _subproc_test_env=func.__name__)
                else:
                    func(self)
            inner.__name__ = func.__name__
            return inner

        return wrapper(maybefunc) if isinstance(maybefunc, types.FunctionType) else wrapper

    @property
    def random(self):
        return np.random.RandomState(42)

    def reset_module_warnings(self, module):
        """Forgets the warnings already shown from `module` (a module or its
        name), so that a test sees each one again."""
        if isinstance(module, str):
            module = sys.modules[module]
        getattr(module, "__warningregistry__", {}).clear()

    @contextlib.contextmanager
    def assertTypingError(self):
        from ptxjit.errors import TypingError
        with self.assertRaises(TypingError) as cm:
            yield cm

    def assertStridesEqual(self, first, second):
        self.assertEqual(first.strides, second.strides)

    def assertPreciseEqual(self, first, second, prec="exact", ulps=1, msg=None,
                           ignore_sign_on_zero=False, abs_tol=None):
        """first == second with the same kind and width: arrays of one dtype
        and shape, elementwise; NaN equals NaN; the sign of zero counts
        unless ignore_sign_on_zero; prec='single'/'double' allow `ulps`
        units of that precision's epsilon (relative), or abs_tol."""
        where = ": " + msg if msg else ""
        fa, fb = _family(first), _family(second)
        if fa != fb:
            self.fail("kinds differ: %r (%s) and %r (%s)%s" % (first, fa, second, fb, where))
        if fa == "ndarray":
            self.assertEqual(first.dtype, second.dtype, "dtypes differ" + where)
            self.assertEqual(first.shape, second.shape, "shapes differ" + where)
            for a, b in zip(first.ravel().tolist(), second.ravel().tolist()):
                self._scalar_equal(a, b, prec, ulps, where, ignore_sign_on_zero, abs_tol)
            return
        if fa == "sequence":
            self.assertEqual(len(first), len(second), "lengths differ" + where)
            for a, b in zip(first, second):
                self.assertPreciseEqual(a, b, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if isinstance(first, np.generic) and isinstance(second, np.generic):
            self.assertEqual(first.dtype, second.dtype, "scalar types differ" + where)
        if fa in ("int", "bool", "float", "complex"):
            self._scalar_equal(first.item() if isinstance(first, np.generic) else first,
                               second.item() if isinstance(second, np.generic) else second,
                               prec, ulps, where, ignore_sign_on_zero, abs_tol)
            return
        self.assertEqual(first, second, msg)

    def _scalar_equal(self, a, b, prec, ulps, where, ignore_sign_on_zero, abs_tol, delta=None):
        """Numba's rule (its tests/support.py): with prec 'single' or 'double'
        (24 or 53 bits), a and b may differ by 2**(ulps - bits - 1) * (|a| + |b|),
        where for complex numbers |a| and |b| are the moduli and the bound
        applies to each part."""
        if isinstance(a, complex) or isinstance(b, complex):
            a, b = complex(a), complex(b)
            if cmath.isnan(a) and cmath.isnan(b):
                return
            if prec in _BITS and not (cmath.isnan(a) or cmath.isnan(b)):
                delta = 2.0 ** (ulps - _BITS[prec] - 1) * (abs(a) + abs(b))
            self._scalar_equal(a.real, b.real, prec, ulps, where, ignore_sign_on_zero, abs_tol, delta)
            self._scalar_equal(a.imag, b.imag, prec, ulps, where, ignore_sign_on_zero, abs_tol, delta)
            return
        if not isinstance(a, float) and not isinstance(b, float):
            if a != b:
                self.fail("%r != %r%s" % (a, b, where))
            return
        a, b = float(a), float(b)
        if a != a or b != b:
            if not (a != a and b != b):
                self.fail("%r != %r%s" % (a, b, where))
            return
        if a == b:
            if a == 0 and not ignore_sign_on_zero and str(a)[0] != str(b)[0]:
                self.fail("signs of zero differ: %r, %r%s" % (a, b, where))
            return
        if abs_tol is not None and abs(a - b) <= abs_tol:
            return
        if a in (float("inf"), float("-inf")) or b in (float("inf"), float("-inf")):
            self.fail("%r != %r%s" % (a, b, where))
        if delta is None and prec in _BITS:
            delta = 2.0 ** (ulps - _BITS[prec] - 1) * (abs(a) + abs(b))
        if delta is not None and abs(a - b) <= delta:
            return
        self.fail("%r != %r (prec=%s)%s" % (a, b, prec, where))


class MemoryLeakMixin:
    """Numba's NRT leak checks: ptxjit has no reference-counted runtime."""


class CheckWarningsMixin:
    @contextlib.contextmanager
    def check_warnings(self, messages, category=RuntimeWarning):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        found = [str(w.message) for w in caught if issubclass(w.category, category)]
        for m in messages:
            self.assertTrue(any(m in f for f in found), "warning %r not raised (got %r)" % (m, found))


class _Support(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise MissingName("%s.%s: not provided for ptxjit" % (self.__name__, name))


sys.modules[__name__].__class__ = _Support

"""pytest plugin (-p compat_plugin) for one numba-cuda test file under ptxjit.

It installs the shim (compat_shim.install) before the file is collected,
imports the file as the module numba-cuda names it (numba.cuda.tests.cudapy.X,
so its relative imports work), and appends one JSON line per test to the file
named by $COMPAT_OUT: the outcome, the ptxjit activity seen during the test
(compilations, kernels loaded from the disk cache, device allocations), and
the exception's type, module, message and innermost frames.
"""

import importlib
import json
import os
import sys

import pytest

import compat_shim

compat_shim.install()
_out = open(os.environ["COMPAT_OUT"], "a")


def _activity():
    core = sys.modules.get("ptxjit._core")
    if core is None:
        return 0
    n = sum(core.Kernel._counters().values())
    try:
        m = core.mem_stats()
        n += m["driver_allocs"] + m["cache_hits"]
    except Exception:
        pass
    return n


class NamedModule(pytest.Module):
    """A test file imported under numba-cuda's module name."""

    def _getobj(self):
        real = os.path.realpath(compat_shim.real_cuda_dir())
        rel = os.path.relpath(os.path.realpath(str(self.path)), real)
        name = "numba.cuda." + rel[:-3].replace(os.sep, ".")
        return importlib.import_module(name)


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path, parent):
    # numba-cuda's folders are packages; a plain Dir keeps pytest from
    # importing their __init__.py files under names of its own
    return pytest.Dir.from_parent(parent, path=path)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    if module_path.name.startswith("test_"):
        return NamedModule.from_parent(parent, path=module_path)
    return None


def _exc(excinfo):
    if excinfo is None:
        return None
    e = excinfo.value
    frames = [(str(t.path), t.lineno + 1) for t in excinfo.traceback][-6:]
    return {"type": type(e).__name__, "module": type(e).__module__,
            "message": str(e)[:2000], "frames": frames}


_state = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _state.clear()
    _state.update(outcome="passed", exc=None, reason=None, when=None)
    before = _activity()
    yield
    rec = {"test": item.nodeid.split("::", 1)[-1], "activity": _activity() - before}
    rec.update(_state)
    _out.write(json.dumps(rec) + "\n")
    _out.flush()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.skipped:
        if hasattr(rep, "wasxfail"):
            _state["outcome"] = "xfailed"
        elif _state["outcome"] == "passed":
            _state["outcome"] = "skipped"
            lr = rep.longrepr
            _state["reason"] = lr[2] if isinstance(lr, tuple) else str(lr)
    elif rep.failed and _state["outcome"] in ("passed", "skipped"):
        _state["outcome"] = "failed" if call.when == "call" else "error"
        _state["when"] = call.when
        _state["exc"] = _exc(call.excinfo)
        if _state["exc"] is None:
            _state["exc"] = {"type": "Failed", "module": "", "message": str(rep.longrepr)[-2000:],
                             "frames": []}


def pytest_collectreport(report):
    if report.skipped:               # a module-level skip (pytest.importorskip)
        lr = report.longrepr
        _out.write(json.dumps({"collect_skip": lr[2] if isinstance(lr, tuple) else str(lr)}) + "\n")
        _out.flush()
    if report.failed:
        msg = str(report.longrepr)
        _out.write(json.dumps({"collect_error": msg[-4000:]}) + "\n")
        _out.flush()

"""A fixed slice of numba-cuda's own cudapy tests, run against ptxjit
(tests/numba_compat; `make numba-compat` runs every file).

Needs numba and numba-cuda in this Python (pip install '.[compat]'); without
them the whole module is skipped and says so.  Each file of the slice runs
as run.py runs it (its own process, `numba.cuda` bound to ptxjit) and must
pass at least the tests it passed when RESULTS.md was written: a drop is a
regression of Numba compatibility.
"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

import ptxjit

HERE = os.path.dirname(os.path.abspath(__file__))
COMPAT = os.path.join(HERE, "numba_compat")

_missing = [m for m in ("numba", "numba_cuda", "pytest_timeout") if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(
    bool(_missing), reason="numba-cuda's tests need %s (pip install '.[compat]')" % ", ".join(_missing))

# file -> tests it passed (with ptxjit activity) on the simulator
SLICE = {
    "test_sync": 19,
    "test_powi": 8,
    "test_minmax": 8,
    "test_random": 7,
    "test_idiv": 2,
    "test_vectorize_decor": 7,
    "test_vectorize": 14,
    "test_record_dtype": 36,
    "test_array_reductions": 16,
}


def _shim_python(code):
    # the ptxjit this test imported (the sanitizer build's copy under make asan-py)
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(ptxjit.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([COMPAT, pkg]), PTXJIT_SIM="1")
    return subprocess.run([sys.executable, "-c", "import compat_shim; compat_shim.install()\n" + code],
                          env=env, capture_output=True, text=True, timeout=120)


def test_numba_cuda_is_ptxjit_and_missing_names_are_loud():
    p = _shim_python(
        "import numba, ptxjit.cuda\n"
        "from numba import cuda\n"
        "assert cuda.jit is ptxjit.cuda.jit and numba.cuda is cuda\n"
        "assert cuda.to_device is ptxjit.cuda.to_device\n"
        "try:\n    cuda.no_such_name\nexcept AttributeError as e:\n    print(type(e).__name__, e)\n"
        "try:\n    import numba.cuda.cudadrv.nvvm\nexcept ImportError as e:\n    print(type(e).__name__, e)\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "MissingName numba.cuda.no_such_name: ptxjit.cuda has no attribute 'no_such_name'",
        "MissingModule numba.cuda.cudadrv.nvvm: ptxjit has no counterpart of this numba-cuda module"]


@pytest.mark.parametrize("name", sorted(SLICE))
def test_numba_cuda_file(name, tmp_path):
    out = tmp_path / "records.json"
    p = subprocess.run([sys.executable, os.path.join(COMPAT, "run.py"), "--current-env", "--timeout", "60",
                        "--file-timeout", "300", "--json", str(out), name],
                       capture_output=True, text=True, timeout=400)
    assert p.returncode == 0, p.stdout + p.stderr
    recs = json.loads(out.read_text())["results"][name + ".py"]
    passed = [r["test"] for r in recs if r["outcome"] == "passed" and r["activity"] > 0]
    assert len(passed) >= SLICE[name], "\n".join(
        "%s: %s %s" % (r["test"], r["outcome"], (r.get("exc") or {}).get("message", "")[:200])
        for r in recs if r["outcome"] != "passed")

"""cuda.jit(shared_memory_carveout=...): validated as Numba does, and set on
the kernel's function (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
when it is loaded; the simulator, which has no L1, runs the kernel alike."""

import os
import subprocess
import sys

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ROOT
from test_runtime import PKG_DIR
from test_declare_device import fake_lib  # noqa: F401  (the fixture)


def add_one(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += i + 1


@pytest.mark.parametrize("value, exc, text", [(150, ValueError, "must be between -1 and 100"),
                                              (-2, ValueError, "must be between -1 and 100"),
                                              ("InvalidOption", ValueError, "Invalid carveout value"),
                                              (2.5, TypeError, "an int or one of")])
def test_invalid_values(value, exc, text):
    with pytest.raises(exc, match=text):
        cuda.jit(shared_memory_carveout=value)(add_one)
    with pytest.raises(exc, match=text):
        cuda.jit("void(int32[::1])", shared_memory_carveout=value)(add_one)


@pytest.mark.parametrize("value", ["MaxL1", "MaxShared", "default", 0, 50, 100, -1])
def test_valid_values_run(value):
    x = np.random.default_rng(5).integers(0, 100, 40).astype(np.int32)
    d = cuda.to_device(x)
    cuda.jit(shared_memory_carveout=value)(add_one)[2, 32](d)
    np.testing.assert_array_equal(d.copy_to_host(), x + np.arange(1, 41))


def test_the_driver_gets_the_carveout(fake_lib, tmp_path):  # noqa: F811
    script = tmp_path / "child.py"
    script.write_text(
        "import ctypes, os, sys\nimport numpy as np\n"
        "fake = ctypes.CDLL(os.environ['PTXJIT_LIBCUDA']); fake.fake_get.restype = ctypes.c_long\n"
        "sys.path.insert(0, %r)\nfrom ptxjit import cuda\nimport test_carveout as t\n"
        "d = cuda.device_array(8, np.int32)\n"
        "for v in ('MaxShared', 25, 'default'):\n"
        "    cuda.jit(shared_memory_carveout=v)(t.add_one)[1, 8](d)\n"
        "    print(fake.fake_get(b'carveout'))\n" % os.path.join(ROOT, "tests"))
    env = dict(os.environ, PTXJIT_LIBCUDA=fake_lib, PTXJIT_SIM="0",
               PYTHONPATH=PKG_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    r = subprocess.run([sys.executable, "-W", "ignore", str(script)], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["101", "26", "26"]     # 'default' sets nothing: the last value stays

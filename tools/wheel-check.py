"""Checks an installed ptxjit (a wheel in a fresh virtual environment) on
the simulator: the README's first example, an @njit function, and the
ptxjitc command the wheel installs, which must compile a kernel to PTX.

    PTXJIT_SIM=1 VENV/bin/python tools/wheel-check.py README.md [--script]

--script: pip installed the wheel, so the ptxjitc console script must be
beside the Python that runs this; without it (a wheel unpacked by hand)
the script's entry point, ptxjit.cli.main, is called instead.

Run it outside the checkout, so that the installed package is the one
imported.  Used by tools/build-wheels.sh and `make wheel-check` (CI).
"""

import os
import re
import runpy
import subprocess
import sys
import tempfile

import numpy as np

import ptxjit
from ptxjit import njit

KERNEL = '''from ptxjit import cuda

@cuda.jit("void(float32[::1], float32[::1], float32)")
def axpy(x, out, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + out[i]
'''


def main(readme, need_script):
    assert os.environ.get("PTXJIT_SIM") == "1", "run with PTXJIT_SIM=1"
    where = os.path.dirname(os.path.abspath(ptxjit.__file__))
    checkout = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python")
    assert not where.startswith(checkout), "ptxjit comes from the checkout (%s), not from the wheel" % where

    with open(readme, encoding="utf-8") as f:
        first = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
    with tempfile.TemporaryDirectory() as tmp:
        example = os.path.join(tmp, "readme_example.py")
        with open(example, "w") as f:
            f.write(first)
        runpy.run_path(example, run_name="__main__")

    @njit
    def dot(a, b):
        s = 0.0
        for i in range(a.size):
            s += a[i] * b[i]
        return s

    rng = np.random.default_rng(7)
    a, b = rng.standard_normal(1000), rng.standard_normal(1000)
    assert abs(dot(a, b) - float(a @ b)) < 1e-9 * (1 + abs(float(a @ b)))

    # the console script pip installed, or (a wheel unpacked, not installed by pip) its entry point
    ptxjitc = os.path.join(os.path.dirname(sys.executable), "ptxjitc")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "axpy.py"), os.path.join(tmp, "axpy.ptx")
        with open(src, "w") as f:
            f.write(KERNEL)
        assert os.path.exists(ptxjitc) or not need_script, "pip installed no ptxjitc command (%s)" % ptxjitc
        if os.path.exists(ptxjitc):
            subprocess.run([ptxjitc, src, "--arch", "sm_80", "-o", out], check=True)
        else:
            from ptxjit import cli
            assert cli.main([src, "--arch", "sm_80", "-o", out]) == 0
        with open(out) as f:
            ptx = f.read()
    assert re.search(r"^\.visible \.entry axpy_\w+\(", ptx, re.M) and "\n.target sm_80" in ptx, ptx[:300]
    print("wheel check: ptxjit %s from %s: README example, @njit and ptxjitc OK" % (ptxjit.__version__, where))


if __name__ == "__main__":
    main(sys.argv[1], "--script" in sys.argv[2:])

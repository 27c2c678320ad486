"""The simulator's memory guard (src/sim/guard.c), from Python.

PTXJIT_SIM_FAULT=KINDN:DELTA (src/sim/prepare.c) moves the address of one
load, store or atomic (the N-th of its kind, from 0) by DELTA bytes when the
simulator program is prepared, as a miscompiled address would.  The guard
must stop the launch with an internal error (SimulatorError) that names the
access, the kernel or function and the line, and the access must not touch
memory: an array the kernel was not given stays as it was, and the process
goes on to run correct work.  Each case runs in a child process, so that a
missing guard shows up as a crash or a wrong answer of that child (and a
failed test), not as a dead test run.  The same kernels without the fault
give NumPy's answers, so nothing here passes by accident.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from ptxjit import cuda

KERNELS = '''
import numpy as np
from ptxjit import cuda, njit

@cuda.jit
def vadd(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]          # line:vadd

@cuda.jit
def vadd2(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]

@cuda.jit
def count(a):
    cuda.atomic.add(a, 0, 1)          # line:count

@cuda.jit
def rsum(a, out):
    s = cuda.shared.array(32, dtype=np.float32)
    t = cuda.threadIdx.x
    s[t] = a[t]
    cuda.syncthreads()
    if t == 0:
        acc = 0.0
        for k in range(32):
            acc += s[k]
        out[0] = acc                  # line:rsum

@njit
def squares(n):
    r = np.empty(n)
    for i in range(n):
        r[i] = i * i                  # line:squares
    return r
'''


def _line(tag):
    for n, text in enumerate(KERNELS.splitlines(), 1):
        if text.endswith("# line:" + tag):
            return n
    raise KeyError(tag)


def child(parts, tmp_path, fault=None):
    """Runs the code parts (each dedented) after `import simkern` in a fresh
    interpreter on the simulator; returns the dict they leave in `res`."""
    body = "\n".join(textwrap.dedent(p) for p in ([parts] if isinstance(parts, str) else parts))
    (tmp_path / "simkern.py").write_text(KERNELS)
    code = "import json, os\nimport numpy as np\nfrom ptxjit import cuda\nimport simkern\nres = {}\n%s\nprint('RESULT ' + json.dumps(res))\n" \
        % body
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(cuda.__file__)))
    env = dict(os.environ, PTXJIT_SIM="1", PTXJIT_SIM_CHECK="", PTXJIT_CC="none",
               PYTHONPATH=str(tmp_path) + os.pathsep + os.path.dirname(pkg))
    env.pop("PTXJIT_TEST_GPU", None)
    env.pop("PTXJIT_SIM_FAULT", None)
    if fault:
        env["PTXJIT_SIM_FAULT"] = fault
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120, cwd=str(tmp_path))
    line = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
    assert p.returncode == 0 and line, "child died (%d): %s" % (p.returncode, p.stderr[-2000:])
    return json.loads(line[-1][7:])


def caught(stmt):
    """stmt, with what it raises (if anything) in res."""
    return ("try:\n    %s\n    res['raised'] = None\nexcept Exception as e:\n"
            "    res['raised'] = type(e).__name__\n    res['msg'] = str(e)\n" % stmt)


def check_report(res, what, name, tag):
    assert res["raised"] == "SimulatorError", res
    msg = res["msg"]
    assert msg.startswith("ptxjit internal error: the simulator caught a %s from address 0x" % what), msg
    assert "outside every array of %s" % name in msg, msg
    assert "simkern.py:%d" % _line(tag) in msg, msg
    assert "please report" in msg, msg


def test_load_past_the_end_of_a_view(tmp_path):
    # x is the first third of a buffer: the bytes after it exist, but the
    # kernel was not given them; thread 0 reads x[0] + 256 bytes = x[64]
    res = child(['''
        big = np.arange(192, dtype=np.float32)
        x, y, out = big[:64], np.ones(64, np.float32), np.zeros(64, np.float32)
    ''', caught("simkern.vadd[1, 64](x, y, out)"), '''
    res["out"] = out.tolist()
    os.environ.pop("PTXJIT_SIM_FAULT")
    out2 = np.zeros(64, np.float32)
    simkern.vadd2[1, 64](x, y, out2)          # the process goes on
    res["after"] = out2.tolist()
    '''], tmp_path, fault="load0:256")
    check_report(res, "load", "kernel 'vadd'", "vadd")
    assert "(4 bytes right after the end of argument 'x' (256 bytes at 0x" in res["msg"], res["msg"]
    assert "thread (0, 0, 0) of block (0, 0, 0)" in res["msg"], res["msg"]
    assert res["out"] == [0.0] * 64
    assert res["after"] == [float(i + 1) for i in range(64)]


def test_store_into_an_array_not_passed(tmp_path):
    res = child(['''
        x, y = np.arange(64, dtype=np.float32), np.ones(64, np.float32)
        out, other = np.zeros(64, np.float32), np.zeros(64, np.float32)
        os.environ["PTXJIT_SIM_FAULT"] = "store0:%d" % (other.ctypes.data - out.ctypes.data)
    ''', caught("simkern.vadd[2, 32](x, y, out)"), '''
    res["other"] = other.tolist()
    res["out"] = out.tolist()
    '''], tmp_path)
    check_report(res, "store", "kernel 'vadd'", "vadd")
    assert res["other"] == [0.0] * 64, "the store reached an array the kernel was not given"
    assert res["out"] == [0.0] * 64


def test_wild_atomic(tmp_path):
    res = child(['''
        a = np.zeros(1, np.int64)
    ''', caught("simkern.count[1, 4](a)"), '''
    res["a"] = a.tolist()
    '''], tmp_path, fault="atom0:%d" % (1 << 46))
    check_report(res, "atomic operation", "kernel 'count'", "count")
    assert res["a"] == [0]


def test_device_array_and_negative_offset(tmp_path):
    # a device array (host memory on the simulator); the output's store
    # moved 8 bytes before its start
    res = child(['''
        a = cuda.to_device(np.arange(32, dtype=np.float32))
        out = cuda.device_array(1, np.float32)
    ''', caught("simkern.rsum[1, 32](a, out)")], tmp_path, fault="store1:-8")
    check_report(res, "store", "kernel 'rsum'", "rsum")
    assert "(4 bytes, 8 bytes before argument 'out'" in res["msg"], res["msg"]


def test_cpu_function_on_the_interpreter(tmp_path):
    # @njit without a C compiler: np.empty's block comes from the caller's
    # allocator, and its extent is known to the guard
    res = child(caught("simkern.squares(10)"), tmp_path, fault="store0:80")
    check_report(res, "store", "function 'squares'", "squares")
    assert "(8 bytes right after the end of a block the function allocated" in res["msg"], res["msg"]


def test_without_a_fault_the_answers_are_numpys(tmp_path):
    res = child('''
        x, y, out = np.arange(64, dtype=np.float32), np.ones(64, np.float32), np.zeros(64, np.float32)
        simkern.vadd[2, 32](x, y, out)
        res["vadd"] = out.tolist()
        a = np.zeros(1, np.int64)
        simkern.count[3, 32](a)
        res["count"] = a.tolist()
        s = np.zeros(1, np.float32)
        simkern.rsum[1, 32](np.arange(32, dtype=np.float32), s)
        res["rsum"] = s.tolist()
        res["squares"] = simkern.squares(10).tolist()
    ''', tmp_path, fault="store0:0")
    assert res["vadd"] == [float(i + 1) for i in range(64)]
    assert res["count"] == [96]
    assert res["rsum"] == [float(sum(range(32)))]
    assert res["squares"] == [float(i * i) for i in range(10)]


@pytest.mark.parametrize("fault", ["", "store9:8", "load:8", "bogus"])
def test_a_fault_that_names_nothing_changes_nothing(tmp_path, fault):
    res = child('''
        x, y, out = np.arange(64, dtype=np.float32), np.ones(64, np.float32), np.zeros(64, np.float32)
        simkern.vadd[2, 32](x, y, out)
        res["vadd"] = out.tolist()
    ''', tmp_path, fault=fault)
    assert res["vadd"] == [float(i + 1) for i in range(64)]

"""The simulator's diagnostics: bounds checks, deadlocks, and the optional
uninitialised-read and race checks (PTXJIT_SIM_CHECK=uninit / race).

Each bad kernel runs in a child process on the simulator, with the
environment it needs; the child prints the exception it caught as JSON, so
a crash of the child would show as a failure here rather than take pytest
down.  Valid negative indices run in-process, on the GPU too.
"""

import json
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ptxjit

from conftest import ON_GPU, load_kernel

PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(ptxjit.__file__)))

sim_only = pytest.mark.skipif(ON_GPU, reason="a check of the simulator (PTXJIT_SIM=1); the GPU run does not check")

CHILD = '''
import json, sys, traceback
import numpy as np
from ptxjit import cuda

{kernel}

def launch():
{launch}

try:
    launch()
    result = {{"raised": None}}
except BaseException as e:
    result = {{"raised": type(e).__name__,
              "bases": [c.__name__ for c in type(e).__mro__],
              "msg": str(e)}}
print("RESULT " + json.dumps(result))
'''


def run_child(tmp_path, name, kernel, launch, check=None, timeout=120):
    """Writes the kernel to NAME.py, runs it on the simulator in a child;
    returns (result dict, the file's lines).  NAME must not hold the words
    a test looks for in the message (the message names the file); the
    directory is replaced by <tmp> in the message."""
    src = CHILD.format(kernel=textwrap.dedent(kernel).strip("\n"),
                       launch=textwrap.indent(textwrap.dedent(launch).strip("\n"), "    "))
    path = tmp_path / (name + ".py")
    path.write_text(src)
    env = dict(os.environ)
    env["PTXJIT_SIM"] = "1"
    env.pop("PTXJIT_TEST_GPU", None)
    env.pop("PTXJIT_SIM_CHECK", None)
    if check:
        env["PTXJIT_SIM_CHECK"] = check
    env["PYTHONPATH"] = PKG_DIR + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, str(path)], cwd=str(tmp_path), env=env,
                       capture_output=True, text=True, timeout=timeout)
    lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
    assert p.returncode == 0 and lines, (
        "the child process failed (status %d):\n%s\n%s" % (p.returncode, p.stdout, p.stderr))
    res = json.loads(lines[-1][len("RESULT "):])
    if res.get("msg"):
        # the directory's name holds the test's name: keep it out of the
        # words the tests look for
        res["msg"] = res["msg"].replace(str(tmp_path), "<tmp>")
    return res, src.split("\n")


def line_of(lines, text):
    """1-based number of the line holding `text`."""
    hits = [n + 1 for n, l in enumerate(lines) if text in l]
    assert len(hits) == 1, text
    return hits[0]


def names_line(msg, fname, line):
    return re.search(r"%s\D{1,12}%d\b" % (re.escape(fname), line), msg) is not None


@sim_only
def test_out_of_bounds_read(tmp_path):
    res, lines = run_child(tmp_path, "oob_read", """
        @cuda.jit
        def shift_left(x, out):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = x[i + 1]
        """, """
        x = np.arange(64, dtype=np.float32)
        out = np.zeros(64, dtype=np.float32)
        shift_left[2, 32](x, out)
        """)
    assert "IndexError" in res.get("bases", []), res
    msg = res["msg"]
    assert names_line(msg, "oob_read.py", line_of(lines, "out[i] = x[i + 1]")), msg
    assert "shift_left" in msg, msg                  # the kernel
    assert re.search(r"\bx\b", msg), msg             # the array
    assert re.search(r"\b64\b", msg), msg            # the index
    assert re.search(r"\(64,?\)", msg), msg          # the shape
    assert "thread" in msg and "block" in msg, msg   # who did it
    # thread 31 of block 1 is the one that reads x[64]
    assert re.search(r"\b31\b", msg) and re.search(r"\b1\b", msg), msg


@sim_only
def test_out_of_bounds_write_2d(tmp_path):
    res, lines = run_child(tmp_path, "oob_write", """
        @cuda.jit
        def fill_row_end(a):
            i = cuda.grid(1)
            if i < a.shape[0]:
                a[i, a.shape[1]] = 1.0
        """, """
        a = np.zeros((4, 8), dtype=np.float64)
        fill_row_end[1, 32](a)
        """)
    assert "IndexError" in res.get("bases", []), res
    msg = res["msg"]
    assert names_line(msg, "oob_write.py", line_of(lines, "a[i, a.shape[1]] = 1.0")), msg
    assert "fill_row_end" in msg, msg
    assert re.search(r"\ba\b", msg), msg
    assert re.search(r"\b8\b", msg), msg
    assert re.search(r"\(4, ?8\)", msg), msg


@sim_only
def test_negative_index_past_the_start(tmp_path):
    res, lines = run_child(tmp_path, "oob_negative", """
        @cuda.jit
        def too_far_back(x, out):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = x[i - 2 * x.size]
        """, """
        x = np.arange(16, dtype=np.int32)
        out = np.zeros(16, dtype=np.int32)
        too_far_back[1, 16](x, out)
        """)
    assert "IndexError" in res.get("bases", []), res
    assert names_line(res["msg"], "oob_negative.py", line_of(lines, "x[i - 2 * x.size]")), res["msg"]
    assert re.search(r"\(16,?\)", res["msg"]), res["msg"]


def test_negative_index_wraps(rng):
    """x[i - n] is x[i]: valid, no error (on the simulator and the GPU)."""
    k = load_kernel("negative_index").neg_index
    x = rng.standard_normal(40).astype(np.float32)
    m = rng.standard_normal((3, 4)).astype(np.float32)
    out = np.zeros(40, dtype=np.float32)
    k[1, 64](x, m, out)
    d = x.astype(np.float64)
    want = d[-1] + d * 10 + np.float64(m[-1, -2]) * 100 + d[::-1] * 1000
    np.testing.assert_allclose(out, want.astype(np.float32), rtol=1e-6, atol=1e-5)


@sim_only
def test_barrier_in_divergent_branch_is_a_deadlock(tmp_path):
    res, lines = run_child(tmp_path, "divergent_barrier", """
        @cuda.jit
        def half_barrier(out):
            t = cuda.threadIdx.x
            if t < 16:
                cuda.syncthreads()
            out[t] = t
        """, """
        out = np.zeros(32, dtype=np.int64)
        half_barrier[1, 32](out)
        """)
    assert res["raised"] is not None, "a barrier only half the block reaches was not reported"
    assert "DeadlockError" in res["bases"] and "RuntimeError" in res["bases"], res
    msg = res["msg"]
    assert re.search(r"barrier", msg, re.I), msg
    assert names_line(msg, "divergent_barrier.py", line_of(lines, "cuda.syncthreads()")), msg


@sim_only
def test_barriers_splitting_a_warp_are_reported(tmp_path):
    """Lanes of one warp at two different cuda.syncthreads() (the block all
    arrives, but a branch splits a warp): undefined on a GPU, where the
    lanes that arrive first pass before the others have written; the
    simulator names both barriers."""
    res, lines = run_child(tmp_path, "split_warp", """
        @cuda.jit
        def split(a, out):
            s = cuda.shared.array(64, np.int64)
            t = cuda.threadIdx.x
            s[t] = a[t]
            cuda.syncthreads()
            if t != 0:
                cuda.syncthreads()          # READERS
                v = s[0]
            else:
                s[0] = 7
                cuda.syncthreads()          # WRITER
                v = s[0]
            out[t] = v
        """, """
        a = np.arange(64, dtype=np.int64) + 3
        out = np.zeros(64, dtype=np.int64)
        split[1, 64](a, out)
        """)
    assert res["raised"] is not None, "barriers splitting a warp were not reported"
    assert "DeadlockError" in res["bases"], res
    msg = res["msg"]
    assert "lanes of one warp" in msg, msg
    assert names_line(msg, "split_warp.py", line_of(lines, "# READERS")), msg
    assert names_line(msg, "split_warp.py", line_of(lines, "# WRITER")), msg


@sim_only
def test_barrier_reached_by_all_is_fine(tmp_path):
    res, _ = run_child(tmp_path, "barrier_ok", """
        @cuda.jit
        def all_barrier(out):
            t = cuda.threadIdx.x
            if t < 16:
                out[t] = 1
            cuda.syncthreads()
            out[t] += 1
        """, """
        out = np.zeros(32, dtype=np.int64)
        all_barrier[1, 32](out)
        assert list(out) == [2] * 16 + [1] * 16, out
        """)
    assert res["raised"] is None, res


UNINIT = """
    @cuda.jit
    def read_unwritten(out):
        buf = cuda.shared.array(32, np.float32)
        t = cuda.threadIdx.x
        if t < 16:
            buf[t] = t
        cuda.syncthreads()
        out[t] = buf[31 - t]
    """
UNINIT_LAUNCH = """
    out = np.zeros(32, dtype=np.float32)
    read_unwritten[1, 32](out)
    assert list(out[16:]) == list(range(15, -1, -1)), out
    """


@sim_only
def test_uninitialised_shared_read_is_reported_under_the_flag(tmp_path):
    res, lines = run_child(tmp_path, "unwritten_read", UNINIT, UNINIT_LAUNCH, check="uninit")
    assert res["raised"] is not None, "PTXJIT_SIM_CHECK=uninit did not report the read"
    assert "UninitializedReadError" in res["bases"], res
    msg = res["msg"]
    assert re.search(r"uninit|not (been )?(written|initiali[sz]ed)", msg, re.I), msg
    assert names_line(msg, "unwritten_read.py", line_of(lines, "out[t] = buf[31 - t]")), msg
    assert "read_unwritten" in msg, msg


@sim_only
def test_uninitialised_shared_read_is_silent_without_the_flag(tmp_path):
    res, _ = run_child(tmp_path, "uninit_off", UNINIT, UNINIT_LAUNCH)
    assert res["raised"] is None, res


RACE = """
    @cuda.jit
    def all_write_one(out):
        buf = cuda.shared.array(1, np.int32)
        t = cuda.threadIdx.x
        buf[0] = t
        cuda.syncthreads()
        out[t] = buf[0]
    """
RACE_LAUNCH = """
    out = np.zeros(32, dtype=np.int32)
    all_write_one[1, 32](out)
    assert len(set(out.tolist())) == 1, out
    """


@sim_only
def test_shared_race_is_reported_under_the_flag(tmp_path):
    res, lines = run_child(tmp_path, "one_cell_writes", RACE, RACE_LAUNCH, check="race")
    assert res["raised"] is not None, "PTXJIT_SIM_CHECK=race did not report the race"
    assert "RaceError" in res["bases"], res
    msg = res["msg"]
    assert re.search(r"race", msg, re.I), msg
    assert names_line(msg, "one_cell_writes.py", line_of(lines, "buf[0] = t")), msg


@sim_only
def test_shared_race_is_silent_without_the_flag(tmp_path):
    res, _ = run_child(tmp_path, "race_off", RACE, RACE_LAUNCH)
    assert res["raised"] is None, res


@sim_only
def test_writes_separated_by_a_barrier_are_no_race(tmp_path):
    res, _ = run_child(tmp_path, "race_free", """
        @cuda.jit
        def two_phases(out):
            buf = cuda.shared.array(32, np.int32)
            t = cuda.threadIdx.x
            buf[t] = t
            cuda.syncthreads()
            v = buf[(t + 1) % 32]
            cuda.syncthreads()
            buf[t] = v * 2
            cuda.syncthreads()
            out[t] = buf[t]
        """, """
        out = np.zeros(32, dtype=np.int32)
        two_phases[1, 32](out)
        assert list(out) == [2 * ((t + 1) % 32) for t in range(32)], out
        """, check="race,uninit")
    assert res["raised"] is None, res

"""Ctrl-C (SIGINT) during a simulator launch or an @njit call on the IR
interpreter: the run stops at once with KeyboardInterrupt, and the process
goes on working (the next launch gives the right answer).  And the
interpreter's endless-loop limit, with the loop's line.

Each case runs a child Python (tests/interrupt_child.py) that prints
"ready" and starts an endless run; the parent sends SIGINT half a second
later and times how long the child takes to say it caught the
KeyboardInterrupt.  The bound is generous (the test machine may be loaded);
on an idle machine the latency is about a millisecond.
"""

import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

import ptxjit

from conftest import ON_GPU

HERE = os.path.dirname(os.path.abspath(__file__))
CHILD = os.path.join(HERE, "interrupt_child.py")
BOUND = 5.0      # seconds from SIGINT to the caught KeyboardInterrupt

pytestmark = pytest.mark.skipif(ON_GPU or sys.platform == "win32",
                                reason="the simulator and the interpreter, on POSIX")


def _child(case, **env):
    e = dict(os.environ, PTXJIT_SIM="1", PTXJIT_CC="none", PYTHONPATH=os.path.dirname(os.path.dirname(
        os.path.abspath(ptxjit.__file__))), **env)
    p = subprocess.Popen([sys.executable, CHILD, case], env=e, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    p.lines = queue.Queue()

    def pump():
        for line in p.stdout:
            p.lines.put(line.strip())
    threading.Thread(target=pump, daemon=True).start()
    return p


def _line(p, deadline):
    """The child's next line of output, or None after the deadline."""
    try:
        return p.lines.get(timeout=max(0.0, deadline - time.monotonic()))
    except queue.Empty:
        return None


def _interrupt(case, nstops=1):
    p = _child(case)
    try:
        assert _line(p, time.monotonic() + 120) == "ready", p.stderr.read()
        time.sleep(0.5)
        t = time.monotonic()
        p.send_signal(signal.SIGINT)
        for _ in range(nstops):
            got = _line(p, t + BOUND)
            assert got == "caught", "no KeyboardInterrupt within %.1f s (got %r)" % (BOUND, got)
        latency = time.monotonic() - t
        sys.stderr.write("%s: SIGINT to KeyboardInterrupt %.1f ms\n" % (case, latency * 1e3))
        again = _line(p, time.monotonic() + 120)
        assert again == "right", again
        # a second Ctrl-C, not caught: Python's own traceback and exit
        assert _line(p, time.monotonic() + 120) == "ready"
        time.sleep(0.2)
        t = time.monotonic()
        p.send_signal(signal.SIGINT)
        p.wait(timeout=BOUND + 5)
        err = p.stderr.read()
        assert p.returncode != 0
        assert "Traceback (most recent call last)" in err and err.rstrip().endswith("KeyboardInterrupt"), err
        assert "object address" not in err
        return latency
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()


@pytest.mark.parametrize("case", ["kernel", "kernel_barrier", "kernel_grid", "njit", "njit_recursive"])
def test_sigint_stops_the_run(case):
    _interrupt(case)


def test_sigint_stops_simulations_in_every_thread():
    _interrupt("kernel_threads", nstops=2)


def test_njit_interpreter_stops_an_endless_loop_at_its_line():
    env = dict(os.environ, PTXJIT_SIM="1", PTXJIT_CC="none", PTXJIT_SIM_LOOP_LIMIT="100000",
               PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(ptxjit.__file__))))
    r = subprocess.run([sys.executable, CHILD, "njit_limit"], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")
    assert lines[0] == "SimulatorError", r.stdout
    assert "a loop ran 100000 times in one call: an endless loop?" in r.stdout
    assert "interrupt_child.py:%s, in function 'spin'" % lines[1] in r.stdout, r.stdout
    assert lines[-2] == "right", r.stdout

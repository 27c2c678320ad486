"""Helpers shared by the benchmarks: optional imports, timing, tables.

Numba and CuPy are optional: when one cannot be imported its column says
why and the other columns still run.  Under NumPy 2.5 Numba needs
np.row_stack (removed from NumPy) before it is imported; numba() sets it.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_missing = {}

# PTXJIT_BENCH_QUICK=1: tiny sizes and few repetitions, to check that the
# scripts run (on the simulator, say); the figures mean nothing then.
QUICK = os.environ.get("PTXJIT_BENCH_QUICK") == "1"


def ensure_ptxjit_path():
    """Makes the checkout's in-place build importable when ptxjit is not installed."""
    try:
        __import__("ptxjit")
    except ImportError:
        sys.path.insert(0, os.path.join(ROOT, "python"))


def numba_cuda():
    """numba.cuda, or None (the reason is kept for missing())."""
    if "numba" in _missing:
        return None
    try:
        import numpy as np
        if not hasattr(np, "row_stack"):
            np.row_stack = np.vstack
        os.environ.setdefault("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY", "0")
        os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
        from numba import cuda
        if not cuda.is_available():
            _missing["numba"] = "numba.cuda sees no GPU"
            return None
        return cuda
    except Exception as e:  # ImportError, or Numba failing on this NumPy
        _missing["numba"] = "numba unavailable: %s" % (str(e).splitlines() or [type(e).__name__])[0]
        return None


def cupy():
    if "cupy" in _missing:
        return None
    try:
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
        return cp
    except Exception as e:
        _missing["cupy"] = "cupy unavailable: %s" % (str(e).splitlines() or [type(e).__name__])[0]
        return None


def missing():
    return dict(_missing)


NUMBA_PRELUDE = (
    "import numpy as np\n"
    "if not hasattr(np, 'row_stack'): np.row_stack = np.vstack\n"
)


def median(xs):
    return statistics.median(xs)


def cupy_event_ms(cp, launch, reps, warmup=3):
    """Median GPU time of one launch in ms, from CUDA events through CuPy:
    warm-up launches, then `reps` launches each between its own pair of
    events, queued behind one more launch so that the host does not show."""
    for _ in range(warmup):
        launch()
    cp.cuda.runtime.deviceSynchronize()
    evs = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(reps)]
    launch()
    for s, e in evs:
        s.record()
        launch()
        e.record()
    cp.cuda.runtime.deviceSynchronize()
    return median([cp.cuda.get_elapsed_time(s, e) for s, e in evs])


def timeit_us(fn, batch, reps, sync=None):
    """Median over `reps` batches of the wall time of one call, in us."""
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        if sync:
            sync()
        out.append((time.perf_counter() - t0) / batch * 1e6)
    return median(out)


def run_python(code, env=None, timeout=300):
    """Runs `code` in a fresh interpreter; returns its stdout (raises on failure)."""
    e = dict(os.environ)
    ensure_ptxjit_path()
    import ptxjit   # the child imports the ptxjit this process uses
    where = os.path.dirname(os.path.dirname(os.path.abspath(ptxjit.__file__)))
    e["PYTHONPATH"] = where + os.pathsep + e.get("PYTHONPATH", "")
    if env:
        e.update(env)
    # a file, not -c: kernels are compiled from their source text
    with tempfile.TemporaryDirectory(prefix="ptxjit-bench-") as d:
        path = os.path.join(d, "child.py")
        with open(path, "w") as f:
            f.write(code)
        p = subprocess.run([sys.executable, path], env=e, capture_output=True, text=True,
                           timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError("child failed (%d): %s" % (p.returncode, (p.stderr or p.stdout).strip()[-800:]))
    return p.stdout


def last_line(text):
    """The last non-empty line of a child's output."""
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def fmt(v, unit=""):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if v >= 100:
        return "%.0f%s" % (v, unit)
    if v >= 10:
        return "%.1f%s" % (v, unit)
    return "%.2f%s" % (v, unit)


def ratio(a, b):
    """b / a as 'N.Nx' (how many times faster a is than b), or '-'."""
    if not a or not b:
        return "-"
    return "%.2fx" % (b / a)


def table(title, header, rows):
    """A compact fixed-width table as text."""
    rows = [[fmt(c) if not isinstance(c, str) else c for c in r] for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = "  ".join("%-*s" % (w, h) for w, h in zip(widths, header))
    out = [title, line, "-" * len(line)]
    for r in rows:
        out.append("  ".join("%-*s" % (w, c) for w, c in zip(widths, r)))
    return "\n".join(out)

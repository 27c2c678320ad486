"""The simulator: ptxjit's (PTXJIT_SIM=1) against Numba's (NUMBA_ENABLE_CUDASIM=1).

    python3 bench/bench_sim.py [--numba-full] [--reps N] [--ptxjit-only]

Two kernels, each at 2**20 elements, on the CPU:

* vector add of float32 (seed 001's kernel), 4096 blocks of 256 threads;
* seed 000's shared-memory reduction (TPB = 32: 32768 blocks of 32
  threads), its result checked against NumPy.

Each process is pinned to one core (the issue's target is "on one core").

Each side runs in a fresh process (the simulator is chosen at import).
ptxjit's figure is the median wall time of a launch after a first one
(which compiles).  Numba's simulator runs every CUDA thread as a Python
thread and needs minutes at 2**20, so it is timed at smaller sizes and the
time per element at the largest of them is scaled to 2**20 (its cost is
linear in the number of threads); the output says which figures are scaled.
--numba-full runs Numba at 2**20 as well; --ptxjit-only leaves Numba out
(to compare two builds of ptxjit: PYTHONPATH picks the one measured).
Needs no GPU.
"""

import argparse
import json
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import NUMBA_PRELUDE, last_line, median, run_python, table  # noqa: E402

N = 1 << 20

KERNELS = """
import numpy as np
TPB = 32

@cuda.jit
def add_arrays_cuda(x, y, out):
    idx = cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]

@cuda.jit
def reduce_kernel(in_array, out_array):
    shared = cuda.shared.array(TPB, dtype=np.float32)
    idx = cuda.grid(1)
    tx = cuda.threadIdx.x

    shared[tx] = in_array[idx]
    cuda.syncthreads()

    i = TPB // 2
    while i > 0:
        if tx < i:
            shared[tx] += shared[tx + i]
        cuda.syncthreads()
        i //= 2

    if tx == 0:
        out_array[cuda.blockIdx.x] = shared[0]
"""

CHILD = """
import json, os, time
try:                             # one core, as the figures promise
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
except (AttributeError, OSError):
    pass
%(prelude)s
%(imp)s
%(kernels)s

def vadd(n):
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    out = np.zeros_like(x)
    t0 = time.perf_counter()
    add_arrays_cuda[(n + 255) // 256, 256](x, y, out)
    dt = time.perf_counter() - t0
    assert (out == 3 * x).all()
    return dt

def reduce(n):
    a = (np.arange(n) %% 7).astype(np.float32)
    blocks = (n + TPB - 1) // TPB
    out = np.zeros(blocks, dtype=np.float32)
    t0 = time.perf_counter()
    reduce_kernel[blocks, TPB](a, out)
    dt = time.perf_counter() - t0
    assert out.sum() == a.sum()
    return dt

res = {}
for name, fn in (("vadd", vadd), ("reduce", reduce)):
    fn(1024)                     # compile
    res[name] = {}
    for n in %(sizes)s:
        res[name][n] = sorted(fn(n) for _ in range(%(reps)d))[%(reps)d // 2]
print(json.dumps(res))
"""


def run(imp, env, sizes, reps, prelude=""):
    code = CHILD % {"imp": imp, "kernels": KERNELS, "sizes": list(sizes), "reps": reps,
                    "prelude": prelude}
    out = json.loads(last_line(run_python(code, env=env, timeout=3600)))
    return {k: {int(n): t for n, t in v.items()} for k, v in out.items()}


def measure(numba_full=False, reps=3, ptxjit_only=False):
    """Rows: [kernel, ptxjit s, numba s, numba/ptxjit, how numba's was had]."""
    p = run("from ptxjit import cuda", {"PTXJIT_SIM": "1", "PTXJIT_SIM_CHECK": ""}, [N], reps)
    n_sizes = [1 << 12, 1 << 14] + ([N] if numba_full else [])
    nb, why = None, "not run (--ptxjit-only)" if ptxjit_only else ""
    try:
        if not ptxjit_only:
            nb = run("from numba import cuda", {"NUMBA_ENABLE_CUDASIM": "1"}, n_sizes, 1, NUMBA_PRELUDE)
    except RuntimeError as e:
        why = "numba unavailable: %s" % str(e).splitlines()[-1][:200]
    rows = []
    for key, label in (("vadd", "vector add 2^20 f32 (s)"), ("reduce", "seed 000 reduction 2^20 f32 (s)")):
        tp = p[key][N]
        tn, how = None, why or "-"
        if nb:
            if N in nb[key]:
                tn, how = nb[key][N], "measured at 2^20"
            else:
                big = max(nb[key])
                tn = nb[key][big] * N / big
                how = "scaled from 2^%d (%.2f s)" % (big.bit_length() - 1, nb[key][big])
        rows.append([label, "%.3f" % tp, "%.1f" % tn if tn else "-", "%.0fx" % (tn / tp) if tn else "-", how])
    return rows


HEADER = ["simulator", "ptxjit", "numba", "numba/ptxjit", "numba's figure"]


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d CPUs, Python %s" % (cpu, os.cpu_count() or 0, platform.python_version())


def numba_version():
    try:
        return last_line(run_python(NUMBA_PRELUDE + "import numba\nprint(numba.__version__)"))
    except RuntimeError:
        return "not installed"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--numba-full", action="store_true", help="run Numba's simulator at 2^20 too (minutes)")
    ap.add_argument("--reps", type=int, default=3, help="launches per figure for ptxjit (median)")
    ap.add_argument("--ptxjit-only", action="store_true", help="leave Numba's simulator out")
    args = ap.parse_args()
    rows = measure(args.numba_full, args.reps, args.ptxjit_only)
    print(table("== simulators, one launch at 2^20 elements (seconds; medians)", HEADER, rows))
    print("machine: %s; numba %s; each side pinned to one core (Numba's simulator runs each "
          "CUDA thread as a Python thread under the GIL)" % (machine(), numba_version()))
    return rows


if __name__ == "__main__":
    main()

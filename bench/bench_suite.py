"""The kernel suite: ptxjit against Numba and CUDA C, in one process.

    python3 bench/bench_suite.py [--write] [--reps N] [KERNEL...]

For each kernel of suite_kernels.py (Numba's dialect; ptxjit and Numba
compile the same source) and its CUDA C twin in suite_cuda.py (compiled by
NVRTC through cupy.RawModule), at sizes that fill an H100 (suite_cases.py):

  1. the outputs of each implementation are checked against NumPy first
     (a wrong result is reported, and not timed);
  2. GPU time of one launch from CUDA events: warm-up launches, then
     --reps (default 20) launches, each between its own pair of events,
     queued behind one more launch so that the host's launch overhead
     does not show in the GPU time; the median is reported.

The arrays are CuPy's, shared by the three through __cuda_array_interface__
(without CuPy, ptxjit and Numba get their own device arrays and the CUDA C
column is empty).  Every implementation runs inside try/except: a failure
(a kernel ptxjit cannot compile yet, Numba missing, ...) is a cell of the
table, and the rest goes on.  The table gives the median milliseconds, the
ratios to CUDA C and the geometric means of the ratios; --write also
puts them into bench/RESULTS.md (its own section, with the date, the device
and the driver; the other sections stay).

Numba needs np.row_stack under NumPy 2.5 (common.numba_cuda() sets it).
PTXJIT_BENCH_QUICK=1 uses the tests' small sizes and 3 repetitions (to
check that the script runs, on the simulator too; figures mean nothing).
"""

import argparse
import datetime
import importlib.util
import math
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import QUICK, cupy, ensure_ptxjit_path, median, missing, numba_cuda  # noqa: E402

ensure_ptxjit_path()

import numpy as np  # noqa: E402

import suite_cases  # noqa: E402
import suite_cuda  # noqa: E402

WARMUP = 1 if QUICK else 3


def load_kernels(numba_mod, cuda_mod, name):
    """suite_kernels.py imported with `numba` (and numba.cuda) bound as given."""
    saved = {k: sys.modules.get(k) for k in ("numba", "numba.cuda")}
    sys.modules["numba"] = numba_mod
    sys.modules["numba.cuda"] = cuda_mod
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "suite_kernels.py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod


def short(e):
    s = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else "")
    return s[:110]


class Impl:
    """One implementation: how to put arrays on the device, launch, time."""

    def __init__(self, name):
        self.name = name

    def event_ms(self, launch, reps):
        for _ in range(WARMUP):
            launch()
        self.sync()
        evs = [(self.new_event(), self.new_event()) for _ in range(reps)]
        launch()                      # keeps the queue full while the host records
        for s, e in evs:
            self.record(s)
            launch()
            self.record(e)
        self.sync()
        return median([self.elapsed(s, e) for s, e in evs])


class PyImpl(Impl):
    """ptxjit or Numba: the same calls."""

    def __init__(self, name, cuda, kernels):
        super().__init__(name)
        self.cuda, self.kernels = cuda, kernels

    def new_event(self):
        return self.cuda.event()

    def record(self, ev):
        ev.record()

    def elapsed(self, s, e):
        return self.cuda.event_elapsed_time(s, e)

    def sync(self):
        self.cuda.synchronize()

    def launcher(self, kname, inst, dargs):
        k = getattr(self.kernels, kname)[inst.grid, inst.block]
        return lambda: k(*dargs)


class CImpl(Impl):
    def __init__(self, cp):
        super().__init__("cuda_c")
        self.cp = cp
        self.mod = cp.RawModule(code=suite_cuda.SOURCE, options=("--std=c++14",))

    def new_event(self):
        return self.cp.cuda.Event()

    def record(self, ev):
        ev.record()

    def elapsed(self, s, e):
        return self.cp.cuda.get_elapsed_time(s, e)

    def sync(self):
        self.cp.cuda.runtime.deviceSynchronize()

    def launcher(self, kname, inst, dargs):
        f = self.mod.get_function(kname)
        g, b, args = c_launch(inst, dargs)
        return lambda: f(g, b, args)


def c_launch(inst, dargs):
    """(grid, block, arguments) of a case's CUDA C twin: its ints are int32."""
    args = []
    for a in list(dargs) + [np.int32(x) for x in inst.c_extra]:
        if isinstance(a, bool) or isinstance(a, np.bool_):
            args.append(np.int32(a))
        elif isinstance(a, (np.integer, np.floating)):
            args.append(a)
        elif isinstance(a, int):
            args.append(np.int32(a))
        elif isinstance(a, float):
            args.append(np.float64(a))
        else:
            args.append(a)
    g = inst.c_grid if isinstance(inst.c_grid, tuple) else (inst.c_grid,)
    b = inst.c_block if isinstance(inst.c_block, tuple) else (inst.c_block,)
    return g, b, tuple(args)


def to_device(impl, cp, a):
    if not isinstance(a, np.ndarray):
        return a
    if cp is not None:
        return cp.asarray(a)
    return impl.cuda.to_device(a)


def to_host(cp, d):
    if cp is not None and isinstance(d, cp.ndarray):
        return cp.asnumpy(d)
    return d.copy_to_host()


def run_case(impls, cp, kname, make, reps, rng_seed=12345):
    rng = np.random.default_rng(rng_seed)
    t0 = time.time()
    inst = make(rng, "small" if QUICK else "full")
    out = {}
    for impl in impls:
        try:
            dargs = [to_device(impl, cp, a) for a in inst.args]
            for k in inst.outputs:
                dargs[k][...] = 0
            launch = impl.launcher(kname, inst, dargs)
            launch()
            impl.sync()
            inst.check([to_host(cp, dargs[k]) for k in inst.outputs])
            out[impl.name] = impl.event_ms(launch, reps)
        except AssertionError as e:
            out[impl.name] = "wrong: " + short(e)[16:]
        except Exception as e:  # noqa: BLE001 - every failure is a cell of the table
            out[impl.name] = "error: " + short(e)
            if os.environ.get("PTXJIT_BENCH_TRACE"):
                traceback.print_exc()
    out["_seconds"] = time.time() - t0
    return out


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt_ms(v):
    if isinstance(v, str):
        return v
    if v is None:
        return "-"
    return "%.4f" % v if v < 1 else "%.3f" % v


def fmt_ratio(v):
    return "-" if v is None else "%.2fx" % v


def ratio(res, a, b):
    x, y = res.get(a), res.get(b)
    if isinstance(x, float) and isinstance(y, float) and y > 0:
        return x / y
    return None


def render(results, names, device):
    lines = []
    head = ["kernel", "ptxjit ms", "numba ms", "cuda_c ms", "ptxjit/C", "numba/C", "ptxjit/numba"]
    rows = []
    rp, rn, rpn = [], [], []
    for k in names:
        r = results[k]
        a, b, c = ratio(r, "ptxjit", "cuda_c"), ratio(r, "numba", "cuda_c"), ratio(r, "ptxjit", "numba")
        rp.append(a)
        rn.append(b)
        rpn.append(c)
        rows.append([k, fmt_ms(r.get("ptxjit")), fmt_ms(r.get("numba")), fmt_ms(r.get("cuda_c")),
                     fmt_ratio(a), fmt_ratio(b), fmt_ratio(c)])
    rows.append(["geometric mean", "", "", "", fmt_ratio(geomean(rp)), fmt_ratio(geomean(rn)),
                 fmt_ratio(geomean(rpn))])
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join("---" for _ in head) + "|")
    for r in rows:
        lines.append("| " + " | ".join(r) + " |")
    return "\n".join(lines)


SECTION = "## GPU kernel suite: ptxjit, Numba, CUDA C (bench/bench_suite.py)"


def write_section(path, section):
    """Puts `section` into RESULTS.md in place of its previous version (the
    other sections, other benchmarks' results, stay as they are)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        text = "# Benchmark results\n"
    start = text.find(SECTION)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + len(SECTION))
        text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
    with open(path, "w") as f:
        f.write(text)


def device_text(ptx_cuda):
    try:
        d = ptx_cuda.get_current_device()
        from ptxjit import _core
        info = _core.device_info()
        drv = info.get("driver_version", 0)
        return "%s (compute capability %d.%d), driver %d.%d" % (
            d.name.decode() if isinstance(d.name, bytes) else d.name, *d.compute_capability,
            drv // 1000, drv % 1000 // 10)
    except Exception as e:  # noqa: BLE001
        return "unknown device (%s)" % short(e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="run only these kernels")
    ap.add_argument("--reps", type=int, default=3 if QUICK else 20)
    ap.add_argument("--write", action="store_true", help="write bench/RESULTS.md")
    args = ap.parse_args()
    t_start = time.time()

    import ptxjit
    from ptxjit import cuda as pcuda
    impls = [PyImpl("ptxjit", pcuda, load_kernels(ptxjit, pcuda, "suite_kernels_ptxjit"))]
    ncuda = numba_cuda()
    if ncuda is not None:
        import numba
        try:
            impls.append(PyImpl("numba", ncuda, load_kernels(numba, ncuda, "suite_kernels_numba")))
        except Exception as e:  # noqa: BLE001
            print("numba: %s" % short(e))
    cp = cupy()
    if cp is not None:
        try:
            impls.append(CImpl(cp))
        except Exception as e:  # noqa: BLE001
            print("cuda_c: %s" % short(e))
    for what, why in missing().items():
        print("%s: %s" % (what, why))

    names = [n for n, _ in suite_cases.CASES if not args.kernels or n in args.kernels]
    results = {}
    for name in names:
        results[name] = run_case(impls, cp, name, dict(suite_cases.CASES)[name], args.reps)
        r = results[name]
        print("%-14s %s  (%.1f s)" % (name, "  ".join("%s %s" % (i.name, fmt_ms(r.get(i.name)))
                                                      for i in impls), r["_seconds"]), flush=True)
    dev = device_text(pcuda)
    table = render(results, names, dev)
    print()
    print(table)
    print("\n%s; %d repetitions; %.0f s in all" % (dev, args.reps, time.time() - t_start))
    if args.write:
        path = os.path.join(HERE, "RESULTS.md")
        vers = ["ptxjit %s" % getattr(ptxjit, "__version__", "?"), "NumPy %s" % np.__version__]
        if ncuda is not None:
            import numba
            vers.append("Numba %s" % numba.__version__)
        if cp is not None:
            vers.append("CuPy %s" % cp.__version__)
        section = (SECTION + "\n\n"
                   "%s, %s. %s. `python3 bench/bench_suite.py --write`: median of %d launches "
                   "(CUDA events, each launch queued behind another), results checked against NumPy "
                   "first.\n\n%s\n\nRatios below 1.00x: faster than the CUDA C kernel (NVRTC, default "
                   "options).\n" % (datetime.date.today().isoformat(), dev, ", ".join(vers), args.reps, table))
        write_section(path, section)
        print("wrote %s" % path)


if __name__ == "__main__":
    main()

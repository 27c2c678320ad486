"""The corpus: kernels as users write them, ptxjit against Numba and CUDA C.

    python3 bench/bench_corpus.py [--only NAME] [--reps N] [--quick] [--out FILE]

bench/corpus/*.py hold the kernels (Numba's documentation examples, the
classic GPU shapes, the seed programs), each file imported twice in this
process (_load.py), once with `numba` bound to ptxjit and once to Numba, so
both compile the same source.  Some kernels have a CUDA C twin in the .cu
file of the same name, compiled by nvcc to a cubin (by NVRTC when nvcc is
missing) and launched through cupy.RawModule.  For each case:

  1. every implementation runs once on fresh copies of the case's data and
     its outputs are checked against NumPy, and ptxjit's against Numba's;
     a wrong result is reported and not timed;
  2. GPU time of one launch from CUDA events: warm-up launches, then --reps
     launches each between its own pair of events; the median is reported.

Any failure (a kernel one compiler rejects, Numba or CuPy missing) is a
cell of the table; the rest goes on.  The markdown table (with geometric
means, the device, the driver and the date) goes to --out, ready to paste
into bench/RESULTS.md.  --quick uses a few blocks per kernel and 1
repetition, for a smoke run on the simulators (PTXJIT_SIM=1 and
NUMBA_ENABLE_CUDASIM=1); its figures mean nothing.
"""

import argparse
import datetime
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))
from common import cupy, ensure_ptxjit_path, median, missing, numba_cuda  # noqa: E402

ensure_ptxjit_path()
os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
os.environ.setdefault("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY", "0")

import numpy as np  # noqa: E402

import _load  # noqa: E402


def short(e):
    s = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else "")
    return s[:100]


def compare(got, exp, tol, mismatch=0.0):
    """None when got matches exp within tol (but for a fraction mismatch of
    the elements), else what differs."""
    got, exp = np.asarray(got), np.asarray(exp)
    if got.shape != exp.shape:
        return "shape %s, expected %s" % (got.shape, exp.shape)
    if tol is None:
        bad = got != exp
    else:
        bad = ~np.isclose(got.astype(np.complex128 if np.iscomplexobj(got) else np.float64),
                          exp, rtol=tol[0], atol=tol[1])
    if bad.sum() <= mismatch * bad.size:
        return None
    i = np.unravel_index(int(np.argmax(bad)), bad.shape)
    return "%d of %d differ (at %s: %r, expected %r)" % (int(bad.sum()), bad.size, i, got[i], exp[i])


def check(case, got, exp):
    """What differs between the outputs got and NumPy's exp, as a list."""
    fn, tol = case.reduce or ((lambda a: a), case.tol)
    diffs = [(o, compare(fn(got[o]), exp[o], tol, case.mismatch)) for o in case.outs]
    return ["%s %s" % (o, why) for o, why in diffs if why is not None]


class PyImpl:
    """ptxjit or Numba: the same module API."""

    def __init__(self, name, cuda, modules):
        self.name, self.cuda, self.modules = name, cuda, dict(modules)

    def cases(self, stem):
        return {c.name: c for c in self.modules[stem].CASES}

    def to_device(self, h):
        return {k: self.cuda.to_device(v) if isinstance(v, np.ndarray) else v for k, v in h.items()}

    def to_host(self, a):
        return a.copy_to_host()

    def sync(self):
        self.cuda.synchronize()

    def launcher(self, stem, case, d):
        mine = self.cases(stem)[case.name]
        if mine.prepare is not None:
            mine.prepare(d)
        return lambda: mine.launch(d)

    def event_ms(self, launch, reps, warmup):
        for _ in range(warmup):
            launch()
        self.sync()
        evs = [(self.cuda.event(), self.cuda.event()) for _ in range(reps)]
        launch()
        for s, e in evs if hasattr(self.cuda, "event_elapsed_time") else ():
            s.record()
            launch()
            e.record()
        self.sync()
        if not hasattr(self.cuda, "event_elapsed_time"):  # Numba's simulator: host time
            t = time.perf_counter()
            for _ in range(reps):
                launch()
            self.sync()
            return (time.perf_counter() - t) * 1e3 / reps
        return median([self.cuda.event_elapsed_time(s, e) for s, e in evs])


class CImpl:
    """The CUDA C twins: bench/corpus/NAME.cu, one module per file."""

    name = "cuda_c"

    def __init__(self, cp):
        self.cp = cp
        self.mods = {}
        self.tmp = tempfile.mkdtemp(prefix="ptxjit_corpus_")
        cc = cp.cuda.Device().compute_capability
        self.arch = "sm_%s" % cc
        self.nvcc = shutil.which("nvcc") or (
            os.path.join(os.environ["CUDA_HOME"], "bin", "nvcc") if os.environ.get("CUDA_HOME") else None)

    def module(self, stem):
        if stem not in self.mods:
            src = os.path.join(HERE, "corpus", stem + ".cu")
            if self.nvcc and os.path.exists(self.nvcc):
                out = os.path.join(self.tmp, stem + ".cubin")
                subprocess.run([self.nvcc, "-cubin", "-O3", "-arch=" + self.arch, "-o", out, src],
                               check=True, capture_output=True, text=True)
                self.mods[stem] = self.cp.RawModule(path=out)
            else:
                with open(src) as f:
                    self.mods[stem] = self.cp.RawModule(code=f.read(), options=("--std=c++14",))
        return self.mods[stem]

    def to_device(self, h):
        return {k: self.cp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in h.items()}

    def to_host(self, a):
        return self.cp.asnumpy(a)

    def sync(self):
        self.cp.cuda.runtime.deviceSynchronize()

    def launcher(self, stem, case, d):
        kname, fn = case.c
        k = self.module(stem).get_function(kname)
        return lambda: fn(k, d)

    def event_ms(self, launch, reps, warmup):
        from common import cupy_event_ms
        return cupy_event_ms(self.cp, launch, reps, warmup)


def run_case(impls, stem, case, args):
    """{impl name: ms or error text, 'check': text}."""
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    h = case.make(args.quick, rng)
    exp = case.ref(h)
    res, notes, first = {}, [], None
    for impl in impls:
        if impl.name == "cuda_c" and case.c is None:
            continue
        try:
            d = impl.to_device({k: v.copy() if isinstance(v, np.ndarray) else v for k, v in h.items()})
            launch = impl.launcher(stem, case, d)
            launch()
            impl.sync()
            got = {o: impl.to_host(d[o]) for o in case.outs}
        except Exception as e:  # noqa: BLE001
            res[impl.name] = "error"
            notes.append("%s: %s" % (impl.name, short(e)))
            continue
        bad = check(case, got, exp)
        if first is not None and not bad:
            bad = [("%s differs from %s: %s" % (o, first[0], why)) for o, why in
                   ((o, compare(got[o], first[1][o], case.tol, case.mismatch)) for o in case.outs)
                   if why is not None]
        if first is None and not bad:
            first = (impl.name, got)
        if bad:
            res[impl.name] = "wrong"
            notes.append("%s: %s" % (impl.name, "; ".join(bad)))
            continue
        try:
            res[impl.name] = impl.event_ms(launch, args.reps, 0 if args.quick else 3)
        except Exception as e:  # noqa: BLE001
            res[impl.name] = "error"
            notes.append("%s timing: %s" % (impl.name, short(e)))
    res["check"] = "; ".join(notes) if notes else "ok"
    return res


def fmt_ms(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return "%.3f" % v if v < 10 else "%.2f" % v


def ratio(a, b):
    return a / b if isinstance(a, float) and isinstance(b, float) and b > 0 else None


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def render(results, dev, vers, args):
    head = ("| kernel | ptxjit ms | Numba ms | CUDA C ms | ptxjit/Numba | ptxjit/C | result check |\n"
            "|---|---:|---:|---:|---:|---:|---|")
    rows, rn, rc = [head], [], []
    for name, r in results:
        a, b, c = r.get("ptxjit"), r.get("numba"), r.get("cuda_c")
        pn, pc = ratio(a, b), ratio(a, c)
        rn.append(pn)
        rc.append(pc)
        rows.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            name, fmt_ms(a), fmt_ms(b), fmt_ms(c), "%.2f" % pn if pn else "-",
            "%.2f" % pc if pc else "-", r["check"].replace("|", "/")))
    gn, gc = geomean(rn), geomean(rc)
    rows.append("| **geometric mean** (%d / %d kernels) | | | | %s | %s | |" % (
        len([x for x in rn if x]), len([x for x in rc if x]),
        "%.2f" % gn if gn else "-", "%.2f" % gc if gc else "-"))
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    title = "## Corpus: %d kernels as users write them%s" % (
        len(results), " (--quick: simulator smoke run, times mean nothing)" if args.quick else "")
    foot = ("%s; %s; %s; median of %d launches (CUDA events) after warm-up; ratios below 1 mean "
            "ptxjit is faster.  `python3 bench/bench_corpus.py%s`" % (
                dev, ", ".join(vers), when, args.reps, " --quick" if args.quick else ""))
    return "\n".join([title, "", foot, ""] + rows) + "\n"


def device_text(cuda):
    try:
        from bench_suite import device_text as dt
        return dt(cuda)
    except Exception as e:  # noqa: BLE001
        return "unknown device (%s)" % short(e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", default=[], help="run only this kernel (repeatable)")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    ap.add_argument("--out", default=os.path.join(HERE, "corpus_results.md"))
    args = ap.parse_args()
    if args.reps is None:
        args.reps = 1 if args.quick else 20
    t0 = time.time()

    import ptxjit
    from ptxjit import cuda as pcuda
    impls = [PyImpl("ptxjit", pcuda, _load.load_all(ptxjit, "ptxjit"))]
    ncuda = numba_cuda()
    if ncuda is not None:
        import numba
        try:
            impls.append(PyImpl("numba", ncuda, _load.load_all(numba, "numba")))
        except Exception as e:  # noqa: BLE001
            print("numba: %s" % short(e))
    cp = None if os.environ.get("PTXJIT_SIM") == "1" else cupy()
    if cp is not None:
        try:
            impls.append(CImpl(cp))
        except Exception as e:  # noqa: BLE001
            print("cuda_c: %s" % short(e))
    for what, why in missing().items():
        print("%s: %s" % (what, why))

    known = {c.name for mod in impls[0].modules.values() for c in mod.CASES}
    unknown = [n for n in args.only if n not in known]
    if unknown:
        print("no corpus kernel named %s; the kernels are: %s" % (", ".join(unknown), ", ".join(sorted(known))))
        return 2
    results = []
    for stem, mod in impls[0].modules.items():
        for case in mod.CASES:
            if args.only and case.name not in args.only:
                continue
            t = time.time()
            r = run_case(impls, stem, case, args)
            results.append((case.name, r))
            print("%-26s %s  %s (%.1f s)" % (case.name, "  ".join(
                "%s %s" % (i.name, fmt_ms(r.get(i.name))) for i in impls), r["check"], time.time() - t),
                flush=True)
    vers = ["ptxjit %s" % getattr(ptxjit, "__version__", "?"), "NumPy %s" % np.__version__]
    if len(impls) > 1 and impls[1].name == "numba":
        vers.append("Numba %s" % sys.modules["numba"].__version__)
    if cp is not None:
        vers.append("CuPy %s" % cp.__version__)
    text = render(results, device_text(pcuda), vers, args)
    with open(args.out, "w") as f:
        f.write(text)
    print()
    print(text)
    print("%d kernels, %.0f s; table written to %s" % (len(results), time.time() - t0, args.out))
    bad = [n for n, r in results if r["check"] != "ok"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

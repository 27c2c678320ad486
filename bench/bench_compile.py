"""Compile time of each seed kernel: source to PTX, in-process.

    python3 bench/bench_compile.py [--ptxjitc build/ptxjitc] [--reps 200]
    python3 bench/bench_compile.py --scaling


For ptxjit, `ptxjitc FILE --kernel K --sig S --time N` compiles the kernel N
times in one process and prints the median time of one compile ("median_us T") (lexing
to PTX text, nothing of process start-up).  For comparison, Numba's
numba.cuda.compile_ptx on the same function and signature (median of 5,
each on a fresh copy of the function so nothing is cached) when Numba is
installed.  Does not need a GPU.  Target (issue 2): under 1 ms a kernel.

--scaling: compile time as a kernel grows, which must stay near linear:
straight-line kernels of 5k, 10k, 20k and 40k statements, and a kernel
reading two fields of a record dtype of 1k, 2k, 4k and 8k fields.  Each
row gives the seconds of one compile (`ptxjitc --time 1`) and the ratio
to the row above; a doubling that costs much more than 2x is a pass
that scans a list per statement or per field.
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, median, missing, numba_cuda, ratio, table  # noqa: E402

GOLDEN = os.path.join(ROOT, "tests", "golden")


def seed_entries():
    """(file, kernel, sig) of every seed kernel in the golden catalogue."""
    spec = importlib.util.spec_from_file_location("golden_run", os.path.join(GOLDEN, "run.py"))
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    out = []
    for fn in sorted(os.listdir(os.path.join(GOLDEN, "kernels"))):
        if fn.startswith("seed") and fn.endswith(".py"):
            es = run.entries_of("kernels/" + fn)
            if isinstance(es, str):
                raise SystemExit(es)
            out += [(os.path.join(GOLDEN, e.rel), e.kernel, e.sig) for e in es]
    return out


US = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(us|µs|usec)\b")


def ptxjit_us(ptxjitc, path, kernel, sig, reps):
    """Median microseconds of one compile, as `ptxjitc --time` reports it."""
    sig = ["--sig", sig] if sig else []    # None: the signature of the kernel's @cuda.jit("...")
    once = [ptxjitc, path, "--kernel", kernel] + sig + ["-o", os.devnull]
    p = subprocess.run(once, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:   # a kernel that does not compile has no compile time
        raise RuntimeError("%s: %s" % (" ".join(once), (p.stderr or p.stdout).strip()[-500:]))
    cmd = [ptxjitc, path, "--kernel", kernel] + sig + ["--time", str(reps), "-o", os.devnull]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    text = p.stdout + p.stderr
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), text.strip()[-500:]))
    m = re.search(r"median_us\s+([0-9]+(?:\.[0-9]+)?)", text) or US.search(text)
    if not m:
        raise RuntimeError("no time in the output of %s: %r" % (" ".join(cmd), text[-300:]))
    return float(m.group(1))


def numba_us(nb, path, kernel, sig):
    """Median microseconds of numba.cuda.compile_ptx, each on a fresh module."""
    from numba import cuda as ncuda
    times = []
    for i in range(5):
        spec = importlib.util.spec_from_file_location("nbc_%s_%d" % (kernel, i), path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        fn = getattr(mod, kernel)
        pyfunc = getattr(fn, "py_func", fn)
        t0 = time.perf_counter()
        ncuda.compile_ptx(pyfunc, sig)
        times.append((time.perf_counter() - t0) * 1e6)
    return median(times)


def measure(ptxjitc, reps):
    nb = numba_cuda()
    rows = []
    for path, kernel, sig in seed_entries():
        name = "%s:%s" % (os.path.basename(path)[:-3], kernel)
        try:
            p = ptxjit_us(ptxjitc, path, kernel, sig, reps)
        except RuntimeError as e:
            print("ptxjit:", e, file=sys.stderr)
            p = None
        n = None
        if nb:
            try:
                n = numba_us(nb, path, kernel, sig)
            except Exception as e:
                print("numba %s: %s" % (name, e), file=sys.stderr)
        rows.append([name, p, n, ratio(p, n), "< 1000"])
    return rows


def straight_source(n):
    """A kernel of n straight-line statements."""
    lines = ["from numba import cuda", "", "", "@cuda.jit", "def k(a):", "    x0 = a[0]"]
    lines += ["    x%d = x%d * 1.5 + a[%d]" % (i, i - 1, i % 7) for i in range(1, n)]
    lines.append("    a[1] = x%d" % (n - 1))
    return "\n".join(lines) + "\n", "void(float64[::1])"


def record_source(n):
    """A kernel reading the first and last fields of a record of n float64 fields
    (the signature, too long for a command line, in its @cuda.jit)."""
    rec = "Record(%s;%d;False)" % (",".join("f%d[type=float64;offset=%d]" % (i, 8 * i) for i in range(n)), 8 * n)
    text = ("from numba import cuda\n\n\n@cuda.jit(\"void(array(%s, 1d, C), float64[::1])\")\n"
            "def k(r, out):\n    out[0] = r[0].f0 + r[0].f%d\n" % (rec, n - 1))
    return text, None


def scaling(ptxjitc):
    import tempfile
    rows = []
    d = tempfile.mkdtemp(prefix="bench_compile_")
    for what, make, sizes in (("statements", straight_source, (5000, 10000, 20000, 40000)),
                              ("record fields", record_source, (1000, 2000, 4000, 8000))):
        prev = None
        for n in sizes:
            text, sig = make(n)
            path = os.path.join(d, "k%d.py" % n)
            with open(path, "w") as f:
                f.write(text)
            s = ptxjit_us(ptxjitc, path, "k", sig, 1) / 1e6
            rows.append(["%d %s" % (n, what), "%.3f" % s, "%.2f" % (s / prev) if prev else ""])
            prev = s
    return rows


HEADER = ["compile, source to PTX (us)", "ptxjit", "numba", "numba/ptxjit", "target"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxjitc", default=os.path.join(ROOT, "build", "ptxjitc"))
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--scaling", action="store_true", help="compile time against kernel size")
    args = ap.parse_args(argv)
    if args.scaling:
        rows = scaling(args.ptxjitc)
        print(table("== compile time against kernel size", ["kernel", "seconds", "x previous"], rows))
        return rows
    rows = measure(args.ptxjitc, args.reps)
    print(table("== compile time per seed kernel (medians)", HEADER, rows))
    for k, v in missing().items():
        print("note: %s" % v)
    return rows


if __name__ == "__main__":
    main()

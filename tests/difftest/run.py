#!/usr/bin/env python3
"""Differential testing from the command line.

    python3 tests/difftest/run.py --n 2000 --seed 0            # the simulator
    python3 tests/difftest/run.py --n 5000 --seed 0 --gpu      # the GPU (PTXJIT_TEST_GPU=1 likewise)
    python3 tests/difftest/run.py --n 2000 --seed 0 --mode comm   # only programs that communicate
                                           # (shared memory, barriers, warp operations, atomics)

Generates programs seed, seed+1, ..., runs each on the paths (sim and sim-O0,
or gpu and gpu-O0 with --gpu), compares with the reference, and prints one line per
failure and a summary per path.  --minimise writes a reduced reproducer of
each failure to tests/difftest/regress/ (minimise.py).  --show S prints
program S.  The exit status is 1 when any path had a mismatch or error.
A program that kills the process (a compiler crash) stops the run: -v
names the seed first, and `minimise.py SEED --crash` reduces it.
--seconds T stops after the program running at T seconds, with the summary
of those that ran (a run under a time limit still reports); a progress line
every --progress programs (default 100) shows how far a run has come.

    python3 tests/difftest/run.py --n 2000 --focus ufunc       # every program draws gen_ufunc
    python3 tests/difftest/run.py --n 500 --focus nfkc --mutate nfkc_distinct

--extra a,b draws the extra classes a and b (gen.EXTRAS; default
gen.DEFAULT_EXTRAS), --focus C makes every program draw class C, and
--mutate M breaks the reference as a compiler bug would (ufunc64,
cmath_nan, first_sig, nfkc_distinct: see gen_<class>.py): its mismatches
show that the class's checks can fail.
"""

import argparse
import collections
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--mode", choices=("pure", "comm"), default=None)
    ap.add_argument("--paths", default=None, help="comma-separated: sim,sim-O0,gpu,gpu-O0")
    ap.add_argument("--minimise", action="store_true")
    ap.add_argument("--show", type=int, default=None)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--progress", type=int, default=100)
    ap.add_argument("--extra", default=None, help="comma-separated classes of gen.EXTRAS to draw (default: gen.DEFAULT_EXTRAS)")
    ap.add_argument("--focus", default=None, help="a class of gen.EXTRAS every program draws")
    ap.add_argument("--mutate", default=None, help="break the reference as a bug would: ufunc64, cmath_nan, first_sig, nfkc_distinct")
    a = ap.parse_args(argv)
    if a.gpu or os.environ.get("PTXJIT_TEST_GPU") == "1":
        os.environ["PTXJIT_SIM"] = "0"
        paths = ["gpu", "gpu-O0"]
    else:
        os.environ["PTXJIT_SIM"] = "1"
        paths = ["sim", "sim-O0"]
    if a.paths:
        paths = a.paths.split(",")
    if a.mutate:
        os.environ["DIFFTEST_MUTATE"] = a.mutate
    import gen
    import harness
    extras = None if a.extra is None else [x for x in a.extra.split(",") if x]
    if a.show is not None:
        print(gen.generate(a.show, a.mode, extras=extras, focus=a.focus))
        return 0
    work = tempfile.mkdtemp(prefix="difftest")
    counts = {p: collections.Counter() for p in paths}
    failures = []
    t0 = time.time()
    ran = 0
    for s in range(a.seed, a.seed + a.n):
        if a.seconds is not None and time.time() - t0 > a.seconds:
            print("stopped after %.0f s (--seconds)" % (time.time() - t0), flush=True)
            break
        if ran and a.progress and ran % a.progress == 0:
            print("... %d programs, %.0f s" % (ran, time.time() - t0), flush=True)
        ran += 1
        text = gen.generate(s, a.mode, extras=extras, focus=a.focus)
        if a.v:
            print("seed", s, flush=True)
        outs = harness.check_text(text, paths, work)
        bad = []
        for o in outs:
            counts[o.path][o.status] += 1
            if o.status not in ("ok", "skipped"):
                bad.append(o)
                print("seed %d %s %s: %s" % (s, o.path, o.status, o.detail), flush=True)
        if bad:
            failures.append((s, bad))
            if a.minimise and any(o.status in ("mismatch", "error") for o in bad):
                import minimise
                f = minimise.minimise_seed(s, a.mode, [o for o in bad if o.status in ("mismatch", "error")][0],
                                           extras=extras, focus=a.focus)
                print("  reproducer:", f, flush=True)
    dt = time.time() - t0
    print("%d programs (seeds %d..%d) in %.1f s" % (ran, a.seed, a.seed + ran - 1, dt))
    for p in paths:
        c = counts[p]
        print("  %-7s %s" % (p, ", ".join("%s %d" % kv for kv in sorted(c.items()))))
    return 1 if any(c["mismatch"] or c["error"] for c in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

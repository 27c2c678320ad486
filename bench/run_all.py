"""All benchmarks in one call, with one summary at the end.

    python3 bench/run_all.py [--ptxjitc build/ptxjitc]

Runs bench_compile (no GPU needed), bench_launch, bench_kernels and
bench_blackscholes (GPU), each one even when another fails, then prints
their tables together.
"""

import argparse
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_blackscholes  # noqa: E402
import bench_compile  # noqa: E402
import bench_kernels  # noqa: E402
import bench_launch  # noqa: E402
from common import ROOT, missing, table  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxjitc", default=os.path.join(ROOT, "build", "ptxjitc"))
    ap.add_argument("--reps", type=int, default=200, help="compiles per kernel for bench_compile")
    args = ap.parse_args()

    parts = [
        ("compile time per seed kernel", bench_compile.HEADER, lambda: bench_compile.measure(args.ptxjitc, args.reps)),
        ("launch and start-up", bench_launch.HEADER, bench_launch.measure),
        ("kernel time", bench_kernels.HEADER, bench_kernels.measure),
        ("Black-Scholes, float64 math library", bench_blackscholes.HEADER, bench_blackscholes.measure),
    ]
    tables = []
    failed = 0
    for title, header, fn in parts:
        print("== running: %s" % title, flush=True)
        try:
            rows = fn()
            tables.append(table("== %s (medians)" % title, header, rows))
        except Exception:
            failed += 1
            traceback.print_exc()
            tables.append("== %s: FAILED (traceback above)" % title)
    print()
    try:
        from ptxjit import cuda
        if os.environ.get("PTXJIT_SIM", "0") not in ("", "0"):
            where = "the ptxjit simulator (PTXJIT_SIM=1): the GPU figures mean nothing"
        else:
            dev = cuda.get_current_device()
            where = "%s (compute capability %s)" % (dev.name, dev.compute_capability)
    except Exception as e:
        where = "unknown (%s)" % e
    print("== device: %s" % where)
    print("\n\n".join(tables))
    for v in missing().values():
        print("note: %s" % v)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

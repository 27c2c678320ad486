"""Functions over arrays against CuPy: @jit(target='gpu') x + y, and cuda.reduce.

    python3 bench/bench_ufunc.py

* x + y on two 2**26 float32 device arrays with @jit(target='gpu'), the
  output's allocation and the launch included, against cupy.add on the
  same data: host wall time per call, (a) back to back (100 calls, then one
  synchronisation: the steady state of a pipeline) and (b) one call then a
  synchronisation (the latency of one call); each the median of 7 rounds.
  ptxjit is timed on its own device arrays and on CuPy's (through
  __cuda_array_interface__).
* the sum of 2**26 float32 with cuda.reduce(lambda a, b: a + b) against
  cupy.sum: (a) the value on the host (ptxjit returns a NumPy scalar;
  CuPy's 0-d array is read with .item()); (b) the result left in a device
  array (res=, against cupy.sum(out=) and a synchronisation).

Ratios are ptxjit's time over CuPy's: below 1.00 ptxjit is faster.  Needs a
GPU and CuPy; PTXJIT_BENCH_QUICK=1 shrinks the sizes to check that the
script runs (the figures mean nothing then).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import QUICK, cupy, ensure_ptxjit_path, median, missing, table  # noqa: E402

import numpy as np  # noqa: E402

N = 1 << (14 if QUICK else 26)
ROUNDS = 2 if QUICK else 7
BATCH = 3 if QUICK else 100

HEADER = ["case", "ptxjit us", "cupy us", "ptxjit/cupy"]


def per_call_us(fn, sync, batch=BATCH, rounds=ROUNDS):
    """Median over rounds of the wall time of `batch` calls and one sync."""
    fn()
    sync()
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        sync()
        out.append((time.perf_counter() - t0) / batch * 1e6)
    return median(out)


def latency_us(fn, sync, reps=None):
    reps = reps or (3 if QUICK else 50)
    fn()
    sync()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        out.append((time.perf_counter() - t0) * 1e6)
    return median(out)


def measure():
    ensure_ptxjit_path()
    from ptxjit import cuda, jit

    @jit(target='gpu')
    def add(x, y):
        return x + y

    sum_reduce = cuda.reduce(lambda a, b: a + b)
    cp = cupy()
    rng = np.random.default_rng(0)
    hx = rng.random(N, dtype=np.float32)
    hy = rng.random(N, dtype=np.float32)
    dx, dy = cuda.to_device(hx), cuda.to_device(hy)
    sync = cuda.synchronize

    # correctness first
    np.testing.assert_array_equal(add(dx, dy).copy_to_host(), hx + hy)
    got = float(sum_reduce(dx))
    want = float(hx.astype(np.float64).sum())
    assert abs(got - want) <= 1e-5 * abs(want), (got, want)

    rows = []
    pj_b2b = per_call_us(lambda: add(dx, dy), sync)
    pj_lat = latency_us(lambda: add(dx, dy), sync)
    pj_red = latency_us(lambda: sum_reduce(dx), lambda: None)
    dres = cuda.device_array(1, np.float32)
    pj_red_dev = latency_us(lambda: sum_reduce(dx, res=dres), sync)
    cp_b2b = cp_lat = cp_red = cp_red_dev = pj_cai = None
    if cp is not None:
        cx, cy = cp.asarray(hx), cp.asarray(hy)
        csync = cp.cuda.Device().synchronize
        cp_b2b = per_call_us(lambda: cp.add(cx, cy), csync)
        cp_lat = latency_us(lambda: cp.add(cx, cy), csync)
        pj_cai = per_call_us(lambda: add(cx, cy), sync)
        cp_red = latency_us(lambda: cp.sum(cx).item(), lambda: None)
        cres = cp.empty((), cp.float32)
        cp_red_dev = latency_us(lambda: cp.sum(cx, out=cres), csync)

    def ratio(a, b):
        return "%.2f" % (a / b) if a and b else "-"

    rows.append(["x + y, 2^%d f32, back to back" % (N.bit_length() - 1), pj_b2b, cp_b2b, ratio(pj_b2b, cp_b2b)])
    rows.append(["x + y, one call + sync", pj_lat, cp_lat, ratio(pj_lat, cp_lat)])
    rows.append(["x + y on CuPy arrays, back to back", pj_cai, cp_b2b, ratio(pj_cai, cp_b2b)])
    rows.append(["reduce sum 2^%d f32 -> host" % (N.bit_length() - 1), pj_red, cp_red, ratio(pj_red, cp_red)])
    rows.append(["reduce sum -> device (res=)", pj_red_dev, cp_red_dev, ratio(pj_red_dev, cp_red_dev)])
    return rows


def main():
    rows = measure()
    print(table("== functions over arrays (medians, us per call)", HEADER, rows))
    for v in missing().values():
        print("note: %s" % v)
    print("targets: x + y within 1.10 of cupy.add; reduce within 1.20 of cupy.sum")


if __name__ == "__main__":
    main()

"""The CPU compiler (@njit, @jit(nopython=True)) against hand-written C and plain Python.

    python3 bench/bench_cpu.py

- seed 002's cpu_matrix_mult on 256x256 float64: ptxjit, the same three
  loops in C (bench/c/matmul.c, cc -O2), plain Python (on 64x64, scaled by
  the cube of the size: Python would take minutes), and Numba's @njit when
  it imports;
- seed 002's cpu_fibonacci(30): ptxjit, bench/c/fib.c (cc -O2), plain
  Python, Numba;
- the call overhead of a function of three arrays that does nothing (and
  of one without arguments), against a plain Python function and Numba.

Medians of repeated runs; no GPU needed.  PTXJIT_BENCH_QUICK=1 shrinks
everything (the figures then mean nothing).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import QUICK, ensure_ptxjit_path  # noqa: E402

ensure_ptxjit_path()

import numpy as np  # noqa: E402

from ptxjit import jit as pj_jit  # noqa: E402

N = 64 if QUICK else 256
FIB = 20 if QUICK else 30
REPS = 3 if QUICK else 11


def cpu_matrix_mult(A, B):
    C = np.zeros_like(A)
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]
    return C


def cpu_fibonacci(n):
    if n <= 1:
        return n
    else:
        return cpu_fibonacci(n - 1) + cpu_fibonacci(n - 2)


def nothing3(a, b, c):
    return 0


def nothing0():
    return 0


def median_time(fn, reps=REPS):
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def per_call(fn, n):
    best = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best.append((time.perf_counter() - t) / n)
    return statistics.median(best)


def c_program(name, *args):
    cc = os.environ.get("CC", "cc").split()
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, name)
        subprocess.run(cc + ["-O2", "-o", exe, os.path.join(HERE, "c", name + ".c")], check=True)
        out = subprocess.run([exe] + [str(a) for a in args], check=True, capture_output=True, text=True).stdout
    return float(out.split()[0])


def numba_njit():
    try:
        if not hasattr(np, "row_stack"):
            np.row_stack = np.vstack
        from numba import njit
        return njit
    except Exception as e:
        print("numba: not available (%s)" % (str(e).splitlines() or [type(e).__name__])[0])
        return None


def rebind(f, decorator):
    """f compiled by decorator, its global self-reference rebound."""
    g = dict(f.__globals__)
    import types
    fn = types.FunctionType(f.__code__, g, f.__name__)
    d = decorator(fn)
    g[f.__name__] = d
    return d


def main():
    rng = np.random.default_rng(0)
    A, B = rng.random((N, N)), rng.random((N, N))
    rows = []

    mm = rebind(cpu_matrix_mult, pj_jit(nopython=True))
    fib = rebind(cpu_fibonacci, pj_jit(nopython=True))
    t0 = time.perf_counter()
    C = mm(A, B)
    first_mm = time.perf_counter() - t0
    assert np.allclose(C, A @ B, rtol=1e-9)
    t0 = time.perf_counter()
    assert fib(FIB) == cpu_fibonacci(20 if QUICK else 25) * 0 + fib(FIB)
    first_fib = time.perf_counter() - t0

    t_mm = median_time(lambda: mm(A, B))
    t_fib = median_time(lambda: fib(FIB))
    c_mm = c_program("matmul", N, REPS)
    c_fib = c_program("fib", FIB, REPS)
    small = 64 if not QUICK else 32
    As = A[:small, :small].copy()
    py_mm = median_time(lambda: cpu_matrix_mult(As, As), 1) * (N / small) ** 3
    py_fib = median_time(lambda: cpu_fibonacci(FIB - 5), 1) * (1.618034 ** 5)

    nb = numba_njit()
    nb_mm = nb_fib = nb_o3 = nb_o0 = None
    if nb:
        nmm = rebind(cpu_matrix_mult, nb)
        nfib = rebind(cpu_fibonacci, nb)
        nmm(A, B)
        nfib(10)
        nb_mm = median_time(lambda: nmm(A, B))
        nb_fib = median_time(lambda: nfib(FIB))

    rows.append(("matrix product %dx%d float64" % (N, N), t_mm, c_mm, py_mm, nb_mm))
    rows.append(("fibonacci(%d)" % FIB, t_fib, c_fib, py_fib, nb_fib))

    a = np.zeros(10)
    n3 = rebind(nothing3, pj_jit(nopython=True))
    n0 = rebind(nothing0, pj_jit(nopython=True))
    n3(a, a, a)
    n0()
    calls = 20000 if QUICK else 200000
    o3 = per_call(lambda: n3(a, a, a), calls)
    o0 = per_call(lambda: n0(), calls)
    p3 = per_call(lambda: nothing3(a, a, a), calls)
    lam = per_call(lambda: None, calls)      # the lambda's own cost, taken off every figure
    if nb:
        m3 = rebind(nothing3, nb)
        m0 = rebind(nothing0, nb)
        m3(a, a, a)
        m0()
        nb_o3 = per_call(lambda: m3(a, a, a), calls) - lam
        nb_o0 = per_call(lambda: m0(), calls) - lam

    def ms(x):
        return "%.2f ms" % (x * 1e3) if x is not None else "-"

    def ns(x):
        return "%.0f ns" % (x * 1e9) if x is not None else "-"

    print("%-30s %12s %12s %8s %14s %12s" % ("work", "ptxjit", "C -O2", "vs C", "plain Python", "Numba"))
    for name, t, c, p, n in rows:
        print("%-30s %12s %12s %7.2fx %14s %12s" % (name, ms(t), ms(c), t / c, ms(p), ms(n)))
    print()
    print("first call (compile + run): matrix product %.0f ms, fibonacci %.0f ms" % (first_mm * 1e3, first_fib * 1e3))
    print()
    print("%-34s %10s %12s %10s" % ("call overhead", "ptxjit", "Python def", "Numba"))
    print("%-34s %10s %12s %10s" % ("f(a, b, c), three float64 arrays", ns(o3 - lam), ns(p3 - lam), ns(nb_o3)))
    print("%-34s %10s %12s %10s" % ("f(), no arguments", ns(o0 - lam), "-", ns(nb_o0)))


if __name__ == "__main__":
    main()

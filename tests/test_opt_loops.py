"""The loop passes keep every result bit-identical.

Run-time unrolling (four copies of a small body per test, the old loop
running what is left), 32-bit loop counters where the value ranges allow
them, and strength reduction of addresses must change no bit of any
output.  Each benchmark kernel (bench/suite_kernels.py) runs on random
inputs compiled three ways: opt=False (no IR passes), and optimised in
the plain variant and in the launch-time variant that a small launch of
disjoint arrays picks (extents below 2^31: the one where 32-bit counters
are proven).  Loops written here cover the edges: trip counts 0 to 9 and
empty ranges, start values near the top of int32, unsigned bounds, while
loops, counters read after the loop, branches in the body, a body with a
barrier.  The IR is checked too: the unrolled loop is there.

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1).
"""

import os
import re
import sys

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ROOT, launch_all, load_module, run_variant, same_bits

sys.path.insert(0, os.path.join(ROOT, "bench"))
import suite_cases  # noqa: E402

_mod = []


def suite():
    if not _mod:
        _mod.append(load_module(os.path.join(ROOT, "bench", "suite_kernels.py"), "ptxjit_suite_kernels_loops"))
    return _mod[0]


def run_inst(func, inst, flags, **options):
    """run_variant on a suite case's arguments, outputs and launch."""
    return run_variant(func, inst.args, inst.outputs, inst.grid, inst.block, flags, **options)


@pytest.mark.parametrize("name", [n for n, _ in suite_cases.CASES])
def test_suite_kernel_bit_identical(name, rng):
    make = dict(suite_cases.CASES)[name]
    inst = make(rng, "small")
    check = inst.check
    if name == "reduce_sum":
        # the blocks' float atomics add in an order a GPU does not fix: one
        # block, so that the sum is made in one order
        a = inst.args[0] = inst.args[0][: inst.block]
        inst.grid = 1

        def check(outs):
            np.testing.assert_allclose(outs[0][0], a.astype(np.float64).sum(), rtol=1e-5)
    func = getattr(suite(), name).py_func
    want, _ = run_inst(func, inst, 0, opt=False)
    check(want)
    for flags in (0, 3, 7):
        got, _ = run_inst(func, inst, flags)
        for g, w in zip(got, want):
            assert same_bits(g, w), "%s: variant %d differs from opt=False" % (name, flags)


# ------------------------------------------------------------ loops of our own

@cuda.jit
def row_sums(a, out, start, n):
    i = cuda.grid(1)
    if i < out.size:
        s = np.float32(0)
        for k in range(start, n):
            s += a[i, k] * np.float32(k + 1)
        out[i] = s


@cuda.jit
def counter_after(out, start, n):
    i = cuda.grid(1)
    if i < out.size:
        k = start + i
        acc = 0
        while k < n:
            acc += k * 3 + 1
            k += 1
        out[i] = acc + k


@cuda.jit
def branchy(a, out, n):
    i = cuda.grid(1)
    if i < out.size:
        s = 0.0
        for k in range(n):
            v = a[i, k]
            if v > 0.5:
                s += v
            else:
                s -= 2.0 * v
        out[i] = s


@cuda.jit
def unsigned_bound(a, out, n):
    i = cuda.grid(1)
    if i < out.size:
        s = np.float32(0)
        for k in range(n):
            s += a[k]
        out[i] = s + np.float32(i)


@cuda.jit
def with_barrier(a, out, n):
    sm = cuda.shared.array(64, np.float32)
    t = cuda.threadIdx.x
    acc = np.float32(0)
    for k in range(n):
        sm[t] = a[k, t]
        cuda.syncthreads()
        acc += sm[63 - t]
        cuda.syncthreads()
    out[t] = acc


def copies(*arrays):
    return [a.copy() for a in arrays]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 9, 33])
def test_trip_counts(n, rng):
    a = rng.random((37, 40), dtype=np.float32)
    out = np.zeros(37, np.float32)
    for start in (0, 1, 3, n, n + 2, -0):
        s, e = min(start, 39), n
        (got,) = launch_all(row_sums, 1, 64, [a, out, np.int32(s), np.int32(e)], [1])
        want = np.zeros(37, np.float32)
        for k in range(s, e):
            want += a[:, k] * np.float32(k + 1)
        np.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("sig", ["int32", "int64", "uint32"])
def test_counter_after_loop(sig, rng):
    kind = np.dtype(sig).type
    out = np.zeros(13, np.int64)
    top = 2**31 - 1 if sig != "uint32" else 2**31 + 5
    for start, n in ((0, 9), (5, 4), (top - 11, top), (top - 3, top), (-6, 3) if sig != "uint32" else (1, 3)):
        (got,) = launch_all(counter_after, 1, 32, [out, kind(start), kind(n)], [0])
        want = []
        for i in range(13):
            k, acc = start + i, 0
            while k < n:
                acc += k * 3 + 1
                k += 1
            want.append(acc + k)
        np.testing.assert_array_equal(got, np.array(want, np.int64))


def test_branch_in_body(rng):
    a = rng.random((50, 23))
    out = np.zeros(50)
    (got,) = launch_all(branchy, 2, 32, [a, out, np.int64(23)], [1])
    want = np.where(a > 0.5, a, -2.0 * a).sum(axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_unsigned_bound(rng):
    a = rng.random(19, dtype=np.float32)
    out = np.zeros(40, np.float32)
    for n in (0, 6, 19):
        (got,) = launch_all(unsigned_bound, 1, 64, [a, out, np.uint64(n)], [1])
        s = np.float32(0)
        for k in range(n):
            s += a[k]
        np.testing.assert_array_equal(got, s + np.arange(40, dtype=np.float32))


def test_barrier_in_body(rng):
    a = rng.random((11, 64), dtype=np.float32)
    out = np.zeros(64, np.float32)
    for n in (0, 3, 11):
        (got,) = launch_all(with_barrier, 1, 64, [a, out, np.int64(n)], [1])
        want = np.zeros(64, np.float32)
        for k in range(n):
            want += a[k, ::-1]
        np.testing.assert_array_equal(got, want)


@cuda.jit
def dot_rows(a, x, out):
    i = cuda.grid(1)
    if i < out.size:
        s = np.float32(0)
        for k in range(a.shape[1]):
            s += a[i, k] * x[k]
        out[i] = s


def test_dot_rows(rng):
    a = rng.random((45, 27), dtype=np.float32)
    x = rng.random(27, dtype=np.float32)
    out = np.zeros(45, np.float32)
    (got,) = launch_all(dot_rows, 2, 32, [a, x, out], [2])
    np.testing.assert_allclose(got, a @ x, rtol=1e-5)


def test_unrolled_in_ir():
    """The loop over a row is run four bodies per test, with 32-bit
    counters in the small variant (the extent is below 2^31); the old
    loop is there for the rest; the addresses are pointer increments."""
    d = cuda.jit(dot_rows.py_func)
    sig = ("float32[:, ::1]", "float32[::1]", "float32[::1]")
    k = d._compile(", ".join(sig), sig, 3)
    ir = k.ir
    assert ir.count("load.global") == 10, ir
    assert ir.count(" fma ") == 5
    for b in ir.split("\n@"):
        if "load.global" in b:
            assert " mul " not in b, b
    assert "and i64" in ir and ", -4" in ir
    assert ir.count("cmp.lt i32") >= 2, "the counters are 32-bit"
    assert re.search(r"add i32 %\d+, 4", ir) and re.search(r"add i32 %\d+, 1\b", ir)


def test_loop_runtime_unroll_catalogue(load, rng):
    """tests/golden/kernels/loop_runtime_unroll.py against NumPy, for row
    lengths around multiples of four."""
    k = load("loop_runtime_unroll").row_dot
    for n in (0, 1, 4, 6, 21):
        a = rng.random((70, 24), dtype=np.float32)
        x = rng.random(24, dtype=np.float32)
        out = np.zeros(70, np.float32)
        k[3, 32](a, x, out, np.int32(n))
        np.testing.assert_allclose(out, a[:, :n] @ x[:n], rtol=1e-5, atol=1e-6)


# ------------------------------------------- loops inside counted loops

SORT = 64


@cuda.jit
def sort_block(a, out):
    """Bitonic sort of each block's SORT keys: the inner loop's first value
    comes from the outer loop's counter, which doubles."""
    sm = cuda.shared.array(SORT, np.float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * SORT
    sm[t] = a[base + t]
    cuda.syncthreads()
    k = 2
    while k <= SORT:
        j = k // 2
        while j > 0:
            p = t ^ j
            if p > t:
                up = (t & k) == 0
                x, y = sm[t], sm[p]
                if (x > y) == up:
                    sm[t] = y
                    sm[p] = x
            cuda.syncthreads()
            j //= 2
        k *= 2
    out[base + t] = sm[t]


@cuda.jit
def rows_thrice(a, out, n):
    """A counted outer loop around a loop whose count is known only at run
    time: unrolling the outer one would only copy the inner one."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        for r in range(3):
            s = np.float32(0)
            for k in range(n):
                s += a[i, k] * np.float32(r + 1)
            out[i, r] = s


def test_nested_counted_loops_unrolled(rng):
    a = rng.random(SORT * 3, dtype=np.float32)
    (got,) = launch_all(sort_block, 3, SORT, [a, np.zeros_like(a)], [1])
    np.testing.assert_array_equal(got, np.sort(a.reshape(3, SORT), axis=1).ravel())
    d = cuda.jit(sort_block.py_func)
    sig = ("float32[::1]", "float32[::1]")
    k = d._compile(", ".join(sig), sig, 3)
    # every step of the network is its own copy: 6 * 7 / 2 barriers, and
    # the one before it (a loop would keep two)
    assert len(re.findall(r"^  bar\b", k.ir, re.M)) == 22, k.ir


def test_outer_loop_of_runtime_loop(rng):
    a = rng.random((33, 10), dtype=np.float32)
    out = np.zeros((33, 3), np.float32)
    for n in (0, 5, 10):
        (got,) = launch_all(rows_thrice, 2, 32, [a, out, np.int64(n)], [1])
        want = a[:, :n].sum(axis=1, dtype=np.float32)[:, None] * np.arange(1, 4, dtype=np.float32)
        np.testing.assert_allclose(got, want, rtol=1e-5)


@cuda.jit
def triangle(a, out):
    """10 outer trips, each fixing the inner loop's count (60 down to 51)."""
    i = cuda.grid(1)
    if i < out.size:
        s = np.float32(0)
        r = 0
        while r < 10:
            k = 0
            while k < 60 - r:
                s += a[i, k] * np.float32(r + 1) + a[i, k + 1] * a[i, k + 2] - a[i, 62 - k] * np.float32(k)
                k += 1
            r += 1
        out[i] = s


def test_inner_counts_from_the_outer_counter(rng):
    a = rng.random((40, 63), dtype=np.float32)
    (got,) = launch_all(triangle, 2, 32, [a, np.zeros(40, np.float32)], [1])
    want = np.zeros(40, np.float32)
    for r in range(10):
        for k in range(60 - r):
            want += a[:, k] * np.float32(r + 1) + a[:, k + 1] * a[:, k + 2] - a[:, 62 - k] * np.float32(k)
    np.testing.assert_allclose(got, want, rtol=1e-5)

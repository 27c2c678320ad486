"""Loop versioning on the sign of a counter's start (src/opt/version.c).

A loop whose counter starts at a value of unknown sign (`for k in
range(indptr[row], indptr[row + 1])`) runs in a copy chosen by
`start >= 0`, where the wraps of negative indices of k (and of k plus a
constant >= 0) fold away; the original code runs for a negative start.
Each kernel here runs with starts drawn from arrays that hold negative
values too, so both copies run, and must give the bits the unoptimised
compile gives (and NumPy's answer, which wraps the same way): CSR rows
crossing zero, indices k + 2 and k - 1, a step of 3, a counter read after
the loop, a loop inside a loop over rows, an outer loop whose counter
starts at a loaded value, two versioned loops one after the other.  The
IR is checked too: in the fast copy of spmv_csr's loop, only the wrap of
x[indices[k]] is left, which must stay (a loaded index may be negative).

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1).
"""

import re

import numpy as np
import pytest

from ptxjit import cuda

from conftest import launch_all


@cuda.jit
def spmv_csr(indptr, indices, data, x, y):
    row = cuda.grid(1)
    if row < y.shape[0]:
        acc = 0.0
        for k in range(indptr[row], indptr[row + 1]):
            acc += data[k] * x[indices[k]]
        y[row] = acc


@cuda.jit
def offsets(lo, hi, a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        s = np.float32(0)
        for k in range(lo[i], hi[i]):
            s += a[k] * np.float32(2) + a[k + 2] - a[k - 1]
        out[i] = s


@cuda.jit
def stepped(lo, hi, a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        s = 0
        for k in range(lo[i], hi[i], 3):
            s += a[k] * (k + 7)
        out[i] = s


@cuda.jit
def counter_after(lo, n, a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        k = lo[i]
        s = 0
        while k < n:
            s += a[k]
            k += 1
        out[i] = s * 1000 + k


@cuda.jit
def rows_of_block(indptr, data, out):
    """A thread's rows in a loop around the CSR loop."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        s = 0.0
        for r in range(4 * i, 4 * i + 4):
            for k in range(indptr[r], indptr[r + 1]):
                s += data[k] * (r + 1)
        out[i] = s


@cuda.jit
def outer_start(lo, a, out):
    """The outer counter starts at a loaded value; the inner loop indexes
    with it."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        s = np.float32(0)
        for r in range(lo[i], lo[i] + 3):
            for c in range(a.shape[1]):
                s += a[r, c] * np.float32(c + 1)
        out[i] = s


@cuda.jit
def two_loops(lo, hi, a, b, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        s = 0.0
        for k in range(lo[i], hi[i]):
            s += a[k]
        t = 0.0
        for k in range(lo[i] - 1, hi[i]):
            t += b[k + 1]
        out[i] = s - 2.0 * t


def csr_with_negative_starts(rng, n, nnz_pad):
    """indptr rising from a negative value: the first rows index from the
    end of the arrays, one row crosses zero, the rest are ordinary."""
    counts = rng.integers(0, 9, n)
    counts[n // 2] = 0
    indptr = np.empty(n + 1, np.int32)
    indptr[0] = -int(counts[: n // 3].sum()) - 2
    indptr[1:] = indptr[0] + np.cumsum(counts)
    nnz = max(int(indptr[-1]), -int(indptr[0])) + nnz_pad
    return indptr, nnz


def spmv_reference(indptr, indices, data, x):
    y = np.zeros(len(indptr) - 1)
    for r in range(len(y)):
        acc = 0.0
        for k in range(indptr[r], indptr[r + 1]):
            acc += data[k] * x[indices[k]]
        y[r] = acc
    return y


def test_spmv_csr_negative_and_positive_starts(rng):
    n = 70
    indptr, nnz = csr_with_negative_starts(rng, n, 5)
    assert indptr[0] < 0 < indptr[-1]
    indices = rng.integers(-n, n, nnz).astype(np.int32)   # negative columns wrap in x too
    data = rng.random(nnz)
    x = rng.random(n)
    (got,) = launch_all(spmv_csr, 3, 32, [indptr, indices, data, x, np.zeros(n)], [4])
    np.testing.assert_allclose(got, spmv_reference(indptr, indices, data, x), rtol=1e-12)


def test_spmv_csr_non_negative_starts(rng):
    n = 50
    counts = rng.integers(0, 11, n)
    indptr = np.zeros(n + 1, np.int32)
    indptr[1:] = np.cumsum(counts)
    nnz = int(indptr[-1])
    indices = rng.integers(0, n, nnz).astype(np.int32)
    data = rng.random(nnz)
    x = rng.random(n)
    (got,) = launch_all(spmv_csr, 2, 32, [indptr, indices, data, x, np.zeros(n)], [4])
    np.testing.assert_allclose(got, spmv_reference(indptr, indices, data, x), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_index_plus_and_minus_offsets(dtype, rng):
    a = rng.random(40, dtype=np.float32)
    lo = rng.integers(-30, 20, 64).astype(dtype)
    hi = np.minimum(lo + rng.integers(-2, 18, 64), 38).astype(dtype)
    (got,) = launch_all(offsets, 2, 32, [lo, hi, a, np.zeros(64, np.float32)], [3])
    want = np.zeros(64, np.float32)
    for i in range(64):
        s = np.float32(0)
        for k in range(lo[i], hi[i]):
            s += a[k] * np.float32(2) + a[k + 2] - a[k - 1]
        want[i] = s
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_step_of_three(rng):
    a = rng.integers(-100, 100, 50).astype(np.int64)
    lo = rng.integers(-50, 30, 40).astype(np.int32)
    hi = np.minimum(lo + rng.integers(0, 25, 40), 50).astype(np.int32)
    (got,) = launch_all(stepped, 2, 32, [lo, hi, a, np.zeros(40, np.int64)], [3])
    want = [sum(int(a[k]) * (k + 7) for k in range(lo[i], hi[i], 3)) for i in range(40)]
    np.testing.assert_array_equal(got, np.array(want, np.int64))


def test_counter_read_after_loop(rng):
    a = rng.integers(0, 50, 30).astype(np.int32)
    lo = rng.integers(-30, 32, 45).astype(np.int32)
    for n in (-31, 0, 7, 30):
        (got,) = launch_all(counter_after, 2, 32, [lo, np.int64(n), a, np.zeros(45, np.int64)], [3])
        want = []
        for i in range(45):
            k, s = int(lo[i]), 0
            while k < n:
                s += int(a[k])
                k += 1
            want.append(s * 1000 + k)
        np.testing.assert_array_equal(got, np.array(want, np.int64))


def test_csr_loop_inside_a_loop(rng):
    n = 4 * 20
    indptr, nnz = csr_with_negative_starts(rng, n, 0)
    data = rng.random(nnz)
    (got,) = launch_all(rows_of_block, 1, 32, [indptr, data, np.zeros(20)], [2])
    want = np.zeros(20)
    for i in range(20):
        for r in range(4 * i, 4 * i + 4):
            for k in range(indptr[r], indptr[r + 1]):
                want[i] += data[k] * (r + 1)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_outer_counter_from_memory(rng):
    a = rng.random((12, 5), dtype=np.float32)
    lo = rng.integers(-12, 10, 37).astype(np.int32)
    (got,) = launch_all(outer_start, 2, 32, [lo, a, np.zeros(37, np.float32)], [2])
    w = np.arange(1, 6, dtype=np.float32)
    want = np.array([sum((a[r] * w).sum() for r in range(lo[i], lo[i] + 3)) for i in range(37)], np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_two_loops_in_sequence(rng):
    a = rng.random(25)
    b = rng.random(26)
    lo = rng.integers(-20, 20, 33).astype(np.int32)
    hi = np.minimum(lo + rng.integers(0, 9, 33), 24).astype(np.int32)
    (got,) = launch_all(two_loops, 2, 32, [lo, hi, a, b, np.zeros(33)], [4])
    want = np.array([sum(a[k] for k in range(lo[i], hi[i])) - 2.0 * sum(b[k + 1] for k in range(lo[i] - 1, hi[i]))
                     for i in range(33)])
    np.testing.assert_allclose(got, want, rtol=1e-12)


def compiled(kernel, sig, flags):
    d = cuda.jit(kernel.py_func)
    return d._compile(", ".join(sig), sig, flags)


def fma_blocks(ir):
    """The number of selects in each block of ir that holds an fma."""
    return [b.count(" sel ") for b in ir.split("\n@") if " fma " in b]


def test_spmv_csr_fast_copy_keeps_only_the_loaded_index_wrap():
    """The versioned loop (test `start >= 0`): its four-body copy and the
    loop for the rest select only x[indices[k]]'s wrap, one per body; the
    slow copy keeps all three.  Without versioning every body keeps three."""
    sig = ("int32[::1]", "int32[::1]", "float64[::1]", "float64[::1]", "float64[::1]")
    for flags in (0, 3, 7):
        k = compiled(spmv_csr, sig, flags)
        ir = k.ir
        assert re.search(r"cmp\.ge i(32|64) %\d+, 0\n", ir), ir
        sels = fma_blocks(ir)
        assert sels.count(1) >= 5 and sels.count(3) == 1, (sels, ir)
        # the wraps of the four bodies, of the loop for the rest and of the
        # slow copy, and the four-body loop's count
        assert k.ptx.count("selp.") == 4 + 1 + 3 + 1, k.ptx


def test_index_with_offset_wrap_folds():
    """With bounds read from int32 arrays, a[k] and a[k + 2] lose their
    wraps in the fast copy; a[k - 1] keeps its own (k - 1 is -1 for a
    start of 0).  With int64 bounds k + 2 might wrap past 2^63 - 1 (k is
    only known to lie below the bound), so its wrap stays too."""
    for ty, fast in (("int32", 1), ("int64", 2)):
        sig = (ty + "[::1]", ty + "[::1]", "float32[::1]", "float32[::1]")
        ir = compiled(offsets, sig, 3).ir
        sels = [b.count(" sel ") for b in ir.split("\n@") if " fadd " in b or " add f32" in b]
        assert sels.count(fast) >= 5 and sels.count(3) == 1, (ty, sels, ir)

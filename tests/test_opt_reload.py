"""Loads of what the thread already read or wrote are reused (src/opt/reload.c).

- Blelloch's down-sweep step `x = t[ai]; t[ai] = t[bi]; t[bi] += x`
  reads t[bi] once: the store to t[ai] (ai = bi - offset, a constant
  apart once unrolled) cannot change it.  Results equal NumPy's and the
  unoptimised compile's bits; the PTX has two ld.shared a step.
- A row's constant columns apart are apart (a[i, 0] read again after a
  store to a[i, 1]); columns known only at run time may be the same
  place, and the load after the store reads memory (k1 == k2 in some
  rows, whose result is the stored value).
- Two arguments that may be one array: a store through one makes the
  other's value read again (launched with the same array twice).
- A barrier between two reads of a place another thread writes makes
  the second read memory (the writer on the other branch).

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1).
"""

import re

import numpy as np

from ptxjit import cuda

from conftest import launch_all

TPB = 64


def ptx_of(kernel, args):
    d = cuda.jit(kernel.py_func)
    argtypes = d._typeof(tuple(args))
    return d._compile(", ".join(argtypes), argtypes, 7).ptx


@cuda.jit
def blelloch(a, out):
    temp = cuda.shared.array(64, np.int32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * 64
    temp[t] = a[base + t]
    offset = 1
    d = 32
    while d > 0:
        cuda.syncthreads()
        if t < d:
            temp[offset * (2 * t + 2) - 1] += temp[offset * (2 * t + 1) - 1]
        offset *= 2
        d >>= 1
    if t == 0:
        temp[63] = 0
    d = 1
    while d < 64:
        offset >>= 1
        cuda.syncthreads()
        if t < d:
            ai = offset * (2 * t + 1) - 1
            bi = offset * (2 * t + 2) - 1
            x = temp[ai]
            temp[ai] = temp[bi]
            temp[bi] += x
        d *= 2
    cuda.syncthreads()
    out[base + t] = temp[t]


def test_blelloch_reads_each_place_once(rng):
    a = rng.integers(-1000, 1000, 64 * 5).astype(np.int32)
    out = np.zeros_like(a)
    got = launch_all(blelloch, 5, 64, [a, out], [1])[0]
    blocks = a.reshape(5, 64)
    want = (np.cumsum(blocks, axis=1, dtype=np.int32) - blocks).ravel()
    np.testing.assert_array_equal(got, want)
    body = ptx_of(blelloch, [a, out])
    # up-sweep: 2 a step (6), down-sweep: 2 a step (6), the result: 1
    assert len(re.findall(r"ld\.shared", body)) == 6 * 2 + 6 * 2 + 1, body


@cuda.jit
def row_places(a, k1, k2, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        x = a[i, 0]
        a[i, 1] = x + 1.5
        y = a[i, 0]                 # columns 0 and 1 apart: x
        p = a[i, k1[i]]
        a[i, k2[i]] = 7.25
        q = a[i, k1[i]]             # maybe the place just stored
        out[i, 0] = x + y
        out[i, 1] = p
        out[i, 2] = q


def test_row_places(rng):
    n = 200
    a = rng.standard_normal((n, 4))
    k1 = rng.integers(0, 4, n)
    k2 = rng.integers(0, 4, n)
    k2[::3] = k1[::3]
    out = np.zeros((n, 3))
    got = launch_all(row_places, 2, 128, [a, k1, k2, out], [3])[0]
    b = a.copy()
    b[:, 1] = a[:, 0] + 1.5
    np.testing.assert_array_equal(got[:, 0], 2 * a[:, 0])
    np.testing.assert_array_equal(got[:, 1], b[np.arange(n), k1])
    np.testing.assert_array_equal(got[:, 2], np.where(k1 == k2, 7.25, b[np.arange(n), k1]))
    body = ptx_of(row_places, [a, k1, k2, out])
    assert len(re.findall(r"ld\.global(\.nc)?\.f64", body)) == 3, body     # x, p and q


@cuda.jit
def two_names(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        b[i] = x * 2.0 + 1.0
        out[i] = a[i] + x           # a[i] again: b may be a


def test_two_names_of_one_array(rng):
    a = rng.standard_normal(300)
    outs = []
    for opt in (False, True):       # one device array under both names (host arrays
        x = cuda.to_device(a)       # are copied one argument at a time, as Numba does)
        out = cuda.device_array(300)
        cuda.jit(opt=opt)(two_names.py_func)[3, 128](x, x, out)
        outs.append(out.copy_to_host())
    np.testing.assert_array_equal(outs[0], (a * 2.0 + 1.0) + a)
    np.testing.assert_array_equal(outs[1], outs[0])
    out = np.zeros(300)
    b = np.zeros(300)
    got = launch_all(two_names, 3, 128, [a, b, out], [2])[0]
    np.testing.assert_array_equal(got, 2 * a)


@cuda.jit
def barrier_reread(a, out):
    s = cuda.shared.array(64, np.int64)
    t = cuda.threadIdx.x
    s[t] = a[t]
    cuda.syncthreads()
    v1 = s[0]
    cuda.syncthreads()
    if t >= 32:                     # the second warp: a chain of blocks from v1's load
        cuda.syncthreads()
        v2 = s[0]                   # thread 0 wrote it before the barrier
    else:                           # (each warp at one barrier: no DeadlockError on the simulator)
        if t == 0:
            s[0] = v1 * 3 + 1
        cuda.syncthreads()
        v2 = s[0]
    out[t, 0] = v1
    out[t, 1] = v2


def test_barrier_between_reads(rng):
    a = rng.integers(-10**6, 10**6, 64).astype(np.int64)
    out = np.zeros((64, 2), np.int64)
    got = launch_all(barrier_reread, 1, 64, [a, out], [1])[0]
    np.testing.assert_array_equal(got[:, 0], a[0])
    np.testing.assert_array_equal(got[:, 1], a[0] * 3 + 1)

"""Block-wide prefix sums: Hillis-Steele (inclusive, double-buffered) and
Blelloch (exclusive, work-efficient up-sweep and down-sweep), each block
scanning its own TPB elements."""

import numpy as np
from numba import cuda, int32

from _case import Case

TPB = 512


@cuda.jit
def scan_hillis_steele(a, out):
    buf = cuda.shared.array((2, TPB), int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[0, t] = a[i] if i < a.size else 0
    cuda.syncthreads()
    src = 0
    offset = 1
    while offset < TPB:
        v = buf[src, t]
        if t >= offset:
            v += buf[src, t - offset]
        buf[1 - src, t] = v
        src = 1 - src
        cuda.syncthreads()
        offset *= 2
    if i < a.size:
        out[i] = buf[src, t]


@cuda.jit
def scan_blelloch(a, out):
    temp = cuda.shared.array(TPB, int32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * TPB
    temp[t] = a[base + t] if base + t < a.size else 0
    offset = 1
    d = TPB >> 1
    while d > 0:
        cuda.syncthreads()
        if t < d:
            ai = offset * (2 * t + 1) - 1
            bi = offset * (2 * t + 2) - 1
            temp[bi] += temp[ai]
        offset *= 2
        d >>= 1
    if t == 0:
        temp[TPB - 1] = 0
    d = 1
    while d < TPB:
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
    if base + t < a.size:
        out[base + t] = temp[t]


def make(small, rng):
    n = TPB * (3 if small else 1 << 15) - 77
    return dict(a=rng.integers(-1000, 1000, n).astype(np.int32), out=np.zeros(n, np.int32))


def blocked(a):
    pad = np.zeros(-(-a.size // TPB) * TPB, a.dtype)
    pad[:a.size] = a
    return pad.reshape(-1, TPB)


def ref_inclusive(h):
    return dict(out=np.cumsum(blocked(h["a"]), axis=1, dtype=np.int32).ravel()[:h["a"].size])


def ref_exclusive(h):
    inc = np.cumsum(blocked(h["a"]), axis=1, dtype=np.int32)
    return dict(out=(inc - blocked(h["a"])).ravel()[:h["a"].size])


def nblocks(d):
    return -(-d["a"].size // TPB)


def launch_hs(d):
    scan_hillis_steele[nblocks(d), TPB](d["a"], d["out"])


def launch_bl(d):
    scan_blelloch[nblocks(d), TPB // 2 * 2](d["a"], d["out"])


def c_hs(k, d):
    k((nblocks(d),), (TPB,), (d["a"], d["out"], np.int32(d["a"].size)))


CASES = [
    Case("scan_hillis_steele", make, launch_hs, ref_inclusive, ["out"], None, c=("scan_hillis_steele", c_hs)),
    Case("scan_blelloch", make, launch_bl, ref_exclusive, ["out"], None),
]

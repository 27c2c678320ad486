"""Counted loops with every step sign and size and per-thread bounds, up
and down, against Python's range: the trip count and the last value.

Each thread has its own bounds, so the loops of a warp run different trip
counts (a divergent exit), and one family takes its bound from the thread
index negated, as generated programs do (difftest seed 616)."""

import numpy as np
import pytest

from ptxjit import cuda

STEPS = (-3, -2, -1, 1, 2, 3)


def make(step):
    @cuda.jit
    def k(lo, hi, out):
        t = cuda.grid(1)
        if t < lo.size:
            n = 0
            last = -999
            nz = False
            for j in range(lo[t], hi[t], step):
                n += 1
                last = j
                nz = np.bool_(np.int32(j))
            out[t, 0] = n
            out[t, 1] = last
            out[t, 2] = nz
            n = 0
            last = -999
            for j in range(0, step * (t ^ 1), step):   # the bound from the thread index
                n += 1
                last = j
            out[t, 3] = n
            out[t, 4] = last
            nz = False
            for j in range(0, 0 - (np.int8(1) ^ t), step):   # difftest seed 616's loop
                nz = np.bool_(np.int32(j))
            out[t, 5] = nz
            n = 0
            for j in range(0 - (np.int8(1) ^ t), 0, step):   # counting up from a negated start
                n += j
            out[t, 6] = n
    return k


def reference(lo, hi, step):
    out = np.zeros((lo.size, 7), np.int64)
    for t in range(lo.size):
        r = range(int(lo[t]), int(hi[t]), step)
        out[t, 0] = len(r)
        out[t, 1] = r[-1] if len(r) else -999
        out[t, 2] = bool(np.int32(r[-1])) if len(r) else 0
        r = range(0, step * (t ^ 1), step)
        out[t, 3] = len(r)
        out[t, 4] = r[-1] if len(r) else -999
        r = range(0, -(1 ^ t), step)
        out[t, 5] = bool(np.int32(r[-1])) if len(r) else 0
        r = range(-(1 ^ t), 0, step)
        out[t, 6] = sum(r)
    return out


@pytest.mark.parametrize("step", STEPS)
def test_range_with_step_and_thread_bounds(rng, step):
    n = 256
    lo = rng.integers(-60, 60, n).astype(np.int64)
    hi = rng.integers(-60, 60, n).astype(np.int64)
    lo[:8] = [0, 0, 0, 0, 5, -5, 3, -3]
    hi[:8] = [0, 1, -1, 2, -5, 5, -3, 3]
    out = np.zeros((n, 7), np.int64)
    make(step)[4, 64](lo, hi, out)
    np.testing.assert_array_equal(out, reference(lo, hi, step))

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


@cuda.jit
def run_time_step(lo, hi, step, out):
    t = cuda.grid(1)
    if t < lo.size:
        n = 0
        for j in range(lo[t], hi[t], step[t]):
            n += j
        out[t] = n


def test_run_time_step_counts_as_python(rng):
    n = 200
    lo = rng.integers(-60, 60, n)
    hi = rng.integers(-60, 60, n)
    step = rng.choice([-7, -3, -1, 1, 2, 5], n)
    out = np.zeros(n, np.int64)
    run_time_step[2, 128](lo, hi, step, out)
    np.testing.assert_array_equal(out, [sum(range(a, b, s)) for a, b, s in zip(lo, hi, step)])


@pytest.mark.parametrize("start, stop", [(10, 0), (0, 10), (0, 0)])
def test_zero_step_at_run_time_raises_value_error(rng, start, stop):
    """Python's ValueError, without debug=True, where a zero step would
    loop forever (start > stop) or not at all; the thread that hit it is
    named as for a raise."""
    n = 96
    lo = np.full(n, start)
    hi = np.full(n, stop)
    step = rng.choice([-2, 1, 3], n)
    step[37] = 0
    out = np.zeros(n, np.int64)
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero") as e:
        run_time_step[3, 32](lo, hi, step, out)
    assert "tid=[5, 0, 0] ctaid=[1, 0, 0]" in str(e.value)
    step[37] = 1                               # the same kernel runs on afterwards
    run_time_step[3, 32](lo, hi, step, out)
    np.testing.assert_array_equal(out, [sum(range(a, b, s)) for a, b, s in zip(lo, hi, step)])


def test_constant_and_grid_steps_cost_nothing():
    """No test where the step is a constant or one the optimiser proves
    non-zero (cuda.gridsize): no trap, no error word, no wait after launch."""
    @cuda.jit
    def strided(x):
        for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
            x[i] += 1.0
        for i in range(x.size - 1, -1, -3):
            x[i] += 1.0

    x = np.zeros(10)
    strided[1, 4](x)
    assert "__pj_err" not in strided.inspect_asm(strided.signatures[0])
    k = run_time_step.compile("void(int64[::1], int64[::1], int64[::1], int64[::1])")   # tests may run apart
    assert "__pj_err" in run_time_step.inspect_asm(k.signature)


def test_zero_step_in_njit_raises_value_error():
    from ptxjit import njit

    @njit
    def total(a, b, s):
        n = 0
        for j in range(a, b, s):
            n += j
        return n

    assert total(10, -20, -3) == sum(range(10, -20, -3))
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):
        total(10, 0, 0)

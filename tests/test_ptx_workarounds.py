"""PTX forms chosen to keep clear of ptxas bugs, checked on the PTX text
(here) and on the GPU by the difftest regression that found each one
(tests/difftest/regress/)."""

import numpy as np

from ptxjit import cuda


@cuda.jit(opt=False)
def _double_not(out):
    tid = cuda.grid(1)
    if tid >= out.shape[0]:
        return
    v = 0
    if not tid:
        v = ~(~tid)
    out[tid] = v + ~tid


def test_integer_not_is_xor_with_all_ones():
    # ptxas 13.0 (sm_90) folds not.b64(not.b64(x)) under a branch on
    # x == 0 to -1; xor with -1 it gets right (004_gpu_o0_not_tid.py)
    out = np.zeros(40, np.int64)
    _double_not[1, 64](out)
    np.testing.assert_array_equal(out, ~np.arange(40))
    ((_, _), k), = _double_not._variants.items()
    assert "not.b64" not in k.ptx and "xor.b64" in k.ptx


@cuda.jit
def _down_and_up(lo, out):
    t = cuda.grid(1)
    if t < out.shape[0]:
        v = 0
        for j in range(0, 0 - (lo[t] ^ t), -1):
            v += j
        for j in range(lo[t], t):
            v += j
        out[t] = v


def test_loops_counting_down_are_not_unrolled_by_ptxas():
    # ptxas 13.0 (sm_90) unrolled a loop counting down to a negated bound
    # and lost the negation (008_gpu_ptxas_unrolled_down_loop.py); loops
    # counting up keep ptxas's unrolling
    lo = np.arange(40, dtype=np.int64) % 7
    out = np.zeros(40, np.int64)
    _down_and_up[1, 64](lo, out)
    want = [sum(range(0, -(int(lo[t]) ^ t), -1)) + sum(range(int(lo[t]), t)) for t in range(40)]
    np.testing.assert_array_equal(out, want)
    ((_, _), k), = _down_and_up._variants.items()
    assert k.ptx.count('.pragma "nounroll";') == 1   # the first loop's, not the second's

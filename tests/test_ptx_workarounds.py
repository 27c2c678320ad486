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

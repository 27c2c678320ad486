"""The compiler's optimisations keep every result bit-identical.

Each kernel of the benchmark suite (bench/suite_kernels.py) runs twice on
the same random inputs: compiled as usual and with opt=False (no IR passes
at all), and the outputs must be equal bit for bit; both must also agree
with NumPy (bench/suite_cases.py).  The sizes are small, with edges that
do not fall on block or tile boundaries.  The launch-time variants (all
extents below 2^31, arguments that share no memory) are compiled too:
their results must be the same bits.

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1).
"""

import os
import sys

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ROOT, load_module, same_bits

sys.path.insert(0, os.path.join(ROOT, "bench"))
import suite_cases  # noqa: E402

_mod = []


def kernels():
    if not _mod:
        _mod.append(load_module(os.path.join(ROOT, "bench", "suite_kernels.py"), "ptxjit_suite_kernels"))
    return _mod[0]


def run(kernel, inst):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in inst.args]
    for k in inst.outputs:
        args[k][...] = 0
    kernel[inst.grid, inst.block](*args)
    return [args[k] for k in inst.outputs]


@pytest.mark.parametrize("name", [n for n, _ in suite_cases.CASES])
def test_opt_bit_identical(name, rng):
    mod = kernels()
    make = dict(suite_cases.CASES)[name]
    inst = make(rng, "small")
    opt = getattr(mod, name)
    plain = cuda.jit(opt=False)(opt.py_func)
    got = run(opt, inst)
    want = run(plain, inst)
    inst.check(got)
    for g, w in zip(got, want):
        assert same_bits(g, w), "%s: the optimised kernel's result differs from opt=False" % name


def compiled_ir(func, sig, **options):
    k = cuda.jit(**options)(func)
    k.compile(sig)
    return k.inspect_ir(k.signatures[0])


def test_opt_changes_the_ir():
    """The passes did something: no index wraps left in the vector add, the
    constant-trip loops of the tree reduction and of the tiled product
    unrolled, the naive product's addresses strength-reduced."""
    mod = kernels()
    v1, m2 = "float32[::1]", "float32[:, ::1]"
    text = compiled_ir(mod.vector_add.py_func, "void(%s, %s, %s)" % (v1, v1, v1))
    assert "sel" not in text and "cmp.lt i64 %" in text
    plain = compiled_ir(mod.vector_add.py_func, "void(%s, %s, %s)" % (v1, v1, v1), opt=False)
    assert plain.count(" sel ") == 3
    rtext = compiled_ir(mod.reduce_sum.py_func, "void(%s, %s)" % (v1, v1))
    assert " phi " not in rtext and rtext.count(" bar") == 9
    ttext = compiled_ir(mod.matmul_tiled.py_func, "void(%s, %s, %s)" % (m2, m2, m2))
    assert ttext.count("load.shared") == 2 * 16 and ttext.count(" fma ") == 16
    ntext = compiled_ir(mod.matmul_naive.py_func, "void(%s, %s, %s)" % (m2, m2, m2))
    bodies = [b for b in ntext.split("\n@") if " fma " in b]   # unrolled: 4 + 1
    assert len(bodies) == 5 and all(b.count("load.global") == 2 and " mul " not in b for b in bodies)


def test_launch_variants(rng):
    """Disjoint arrays give the ld.global.nc variant; the same array passed
    twice gives another, without it; both compute the same."""
    mod = kernels()
    k = cuda.jit(mod.vector_add.py_func)
    x = rng.random(300, dtype=np.float32)
    y = rng.random(300, dtype=np.float32)
    out = np.zeros_like(x)
    k[2, 256](x, y, out)
    np.testing.assert_array_equal(out, x + y)
    z = x.copy()
    k[2, 256](z, y, z)
    np.testing.assert_array_equal(z, x + y)
    flags = sorted(f for (_, f) in k._variants)
    assert flags == [1 | 4, 3 | 4]      # 4: the grid is small as well
    texts = {f & 3: kv.ir for (_, f), kv in k._variants.items()}
    assert "load.global.nc" in texts[3] and "load.global.nc" not in texts[1]

"""The benchmark corpus (bench/corpus/) at tiny sizes: every kernel gives
NumPy's answer under ptxjit, and the optimised compile gives bit-identical
outputs to the unoptimised one (opt=False) on the same random inputs.

bench/bench_corpus.py times the same cases at full size against Numba and
CUDA C; here they run on the simulator (or the GPU with PTXJIT_TEST_GPU=1).
"""

import os
import sys
import zlib

import numpy as np
import pytest

from conftest import ON_GPU, ROOT

BENCH = os.path.join(ROOT, "bench")
sys.path.insert(0, BENCH)
sys.path.insert(0, os.path.join(BENCH, "corpus"))

import ptxjit  # noqa: E402
from ptxjit import cuda  # noqa: E402

import _load  # noqa: E402
import bench_corpus  # noqa: E402

OPT = bench_corpus.PyImpl("ptxjit", cuda, _load.load_all(ptxjit, "test"))
NOOPT = bench_corpus.PyImpl("ptxjit-O0", cuda, _load.load_all(ptxjit, "test_noopt", opt=False))
CASES = [(stem, c) for stem, mod in OPT.modules.items() for c in mod.CASES]
# loaded: the corpus's file names (sparse, misc, ...) must not shadow the
# packages later tests import (dask imports pydata's sparse if it can)
sys.path[:] = [p for p in sys.path if os.path.abspath(p) != os.path.join(BENCH, "corpus")]


def run(impl, stem, case, h):
    d = impl.to_device({k: v.copy() if isinstance(v, np.ndarray) else v for k, v in h.items()})
    impl.launcher(stem, case, d)()
    impl.sync()
    return {o: impl.to_host(d[o]) for o in case.outs}


def data(case):
    return case.make(True, np.random.default_rng(zlib.crc32(case.name.encode()) + 7))


def test_corpus_is_broad():
    assert len(CASES) >= 40
    assert len({c.name for _, c in CASES}) == len(CASES)
    assert sum(c.c is not None for _, c in CASES) >= 15


@pytest.mark.parametrize("stem,case", CASES, ids=[c.name for _, c in CASES])
def test_corpus_kernel_matches_numpy(stem, case):
    h = data(case)
    got = run(OPT, stem, case, h)
    assert bench_corpus.check(case, got, case.ref(h)) == []


@pytest.mark.parametrize("stem,case", CASES, ids=[c.name for _, c in CASES])
def test_corpus_opt_bit_identical(stem, case):
    h = data(case)
    got = run(OPT, stem, case, h)
    base = run(NOOPT, stem, case, h)
    if ON_GPU and case.float_atomics:  # the order of the atomics varies from run to run
        assert bench_corpus.check(case, got, base) == []
        return
    for o in case.outs:
        assert got[o].dtype == base[o].dtype and got[o].shape == base[o].shape
        same = got[o].view(np.uint8) == base[o].view(np.uint8)
        assert same.all(), "%s: %d of %d bytes differ between opt=True and opt=False" % (
            o, int((~same).sum()), same.size)


C_TYPES = {"float": np.float32, "double": np.float64, "int": np.int32, "unsigned char": np.uint8,
           "unsigned long long": np.uint64}


def c_params(stem, kname):
    """[(C type, is pointer)] of __global__ kname in bench/corpus/stem.cu."""
    import re
    with open(os.path.join(BENCH, "corpus", stem + ".cu")) as f:
        src = f.read()
    m = re.search(r"__global__\s+void\s+%s\s*\(([^)]*)\)" % kname, src)
    assert m, "no __global__ %s in %s.cu" % (kname, stem)
    out = []
    for p in m.group(1).split(","):
        words = p.replace("*", " * ").split()[:-1]
        ptr = "*" in words
        out.append((" ".join(w for w in words if w not in ("const", "*")), ptr))
    return out


C_CASES = [(stem, c) for stem, c in CASES if c.c is not None]


@pytest.mark.parametrize("stem,case", C_CASES, ids=[c.name for _, c in C_CASES])
def test_corpus_c_twin_arguments(stem, case):
    """The launcher passes the CUDA C kernel one argument of its C type each
    (CuPy packs NumPy scalars by their dtype, arrays as pointers)."""
    kname, launcher = case.c
    calls = []
    launcher(lambda grid, block, args: calls.append((grid, block, args)), data(case))
    assert len(calls) == 1
    grid, block, args = calls[0]
    assert all(isinstance(g, int) and g > 0 for g in grid + block)
    params = c_params(stem, kname)
    assert len(args) == len(params)
    for (ctype, ptr), a in zip(params, args):
        assert isinstance(a, np.ndarray) == ptr, (ctype, ptr, a)
        assert a.dtype == C_TYPES[ctype], (ctype, a.dtype)

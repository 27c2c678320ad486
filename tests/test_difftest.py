"""Differential testing: generated kernels against a Python reference.

tests/difftest/gen.py writes random, well-typed kernels (seeded), the
harness runs them on this back end (the simulator, or the GPU with
PTXJIT_TEST_GPU=1) with the optimiser on and off, and compares every output
with the same program executed per thread in Python over NumPy scalars
(tests/difftest/refrt.py): integers and exact float operations bit for
bit, math functions within their ULP bounds.

  * every reduced reproducer in tests/difftest/regress/ must now pass;
  * a fixed slice of random programs (DIFFTEST_N, default 800 seeds (about a minute) from
    DIFFTEST_SEED, default 0) must pass.

Larger runs: python3 tests/difftest/run.py --n N --seed S [--gpu].
"""

import glob
import os
import sys
import tempfile

import pytest

from conftest import ON_GPU

HERE = os.path.dirname(os.path.abspath(__file__))
DT = os.path.join(HERE, "difftest")
sys.path.insert(0, DT)

import gen  # noqa: E402
import harness  # noqa: E402

PATHS = ["gpu", "gpu-O0"] if ON_GPU else ["sim", "sim-O0"]
REGRESS = sorted(glob.glob(os.path.join(DT, "regress", "[0-9]*.py")))
N = int(os.environ.get("DIFFTEST_N", "800"))
SEED = int(os.environ.get("DIFFTEST_SEED", "0"))
CHUNK = 50


def _fail_text(outs):
    return "; ".join("%s: %s %s" % (o.path, o.status, o.detail) for o in outs if o.status not in ("ok", "skipped"))


@pytest.mark.parametrize("path", REGRESS, ids=[os.path.basename(p)[:-3] for p in REGRESS])
def test_regression(path):
    outs = harness.check_file(path, PATHS)
    assert all(o.status in ("ok",) for o in outs), _fail_text(outs) or outs


@pytest.mark.parametrize("start", range(SEED, SEED + N, CHUNK))
def test_random_slice(start):
    work = tempfile.mkdtemp(prefix="difftest")
    bad = []
    compared = 0
    for s in range(start, min(start + CHUNK, SEED + N)):
        outs = harness.check_text(gen.generate(s), PATHS, work)
        if any(o.status not in ("ok", "skipped") for o in outs):
            bad.append("seed %d: %s" % (s, _fail_text(outs)))
        compared += all(o.status == "ok" for o in outs)
    assert not bad, "\n".join(bad) + "\n(reduce with: python3 tests/difftest/minimise.py SEED)"
    assert compared >= CHUNK // 2, "too few programs compared (%d of %d)" % (compared, CHUNK)


def test_generator_is_reproducible():
    assert gen.generate(12345) == gen.generate(12345)
    assert gen.generate(1) != gen.generate(2)


def test_reference_catches_a_wrong_answer():
    """The comparison is not vacuous: a kernel that stores 5 where its
    reference stores 6 is reported, with the array and the values."""
    p = gen.Program(7, "pure")
    p.body.append(gen.Text("out_i[tid, 0] = 5", "out_i[tid, 0] = np.int64(6)"))
    outs = harness.check_text(p.render(), PATHS[:1], tempfile.mkdtemp(prefix="difftest"))
    assert outs[0].status == "mismatch", outs
    assert outs[0].detail.startswith("out_i[") and "= np.int64(5), should be np.int64(6)" in outs[0].detail

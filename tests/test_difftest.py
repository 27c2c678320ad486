"""Differential testing: generated kernels against a Python reference.

tests/difftest/gen.py writes random, well-typed kernels (seeded), the
harness runs them on this back end (the simulator, or the GPU with
PTXJIT_TEST_GPU=1) with the optimiser on and off, and compares every output
with the same program executed per thread in Python over NumPy scalars
(tests/difftest/refrt.py): integers and exact float operations bit for
bit, math functions within their ULP bounds.

  * every reduced reproducer in tests/difftest/regress/ must now pass;
  * a fixed slice of random programs (DIFFTEST_N, default 600 seeds from
    DIFFTEST_SEED, default 0) must pass, and a slice of DIFFTEST_COMM (default
    150) programs that communicate (shared memory, barriers, warp shuffles,
    votes and matches, integer and float atomics, compare-and-swap loops);
    together about a minute on the simulator;
  * where Numba is installed, 200 random scalar expressions must give
    the same results under ptxjit.njit and numba.njit
    (tests/difftest/numba_oracle.py).

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
N = int(os.environ.get("DIFFTEST_N", "600"))
SEED = int(os.environ.get("DIFFTEST_SEED", "0"))
NCOMM = int(os.environ.get("DIFFTEST_COMM", "150"))
COMM_SEED = 1000000 + SEED
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


@pytest.mark.parametrize("start", range(COMM_SEED, COMM_SEED + NCOMM, CHUNK))
def test_random_comm_slice(start):
    work = tempfile.mkdtemp(prefix="difftest")
    bad = []
    compared = 0
    features = set()
    for s in range(start, min(start + CHUNK, COMM_SEED + NCOMM)):
        text = gen.generate(s, "comm")
        features |= {f for f in ("shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "ballot_sync",
                                 "match_any_sync", "cuda.laneid", "cuda.atomic.cas", "fa32", "fa64")
                     if f in text}
        outs = harness.check_text(text, PATHS, work)
        if any(o.status not in ("ok", "skipped") for o in outs):
            bad.append("seed %d: %s" % (s, _fail_text(outs)))
        compared += all(o.status == "ok" for o in outs)
    assert not bad, "\n".join(bad) + "\n(reduce with: python3 tests/difftest/minimise.py SEED --mode comm)"
    assert compared >= CHUNK // 2, "too few programs compared (%d of %d)" % (compared, CHUNK)
    assert len(features) >= 8, features


# ------------------------------------------------------------ extra classes
# gen.EXTRAS: ufuncs on every width, cmath at special values, device
# functions with several signatures, NFKC-equal names (gen_<class>.py).
# A class in gen.DEFAULT_EXTRAS is drawn by the random slices above and
# gets a slice of its own where every program draws it; the others are
# opt-in (DIFFTEST_EXTRAS=ufunc,cmath,overload,nfkc, or run.py --extra).
NCLASS = int(os.environ.get("DIFFTEST_CLASS", "30"))
CLASS_SEED = 2000000 + SEED
MUTATION = {"ufunc": "ufunc64", "cmath": "cmath_nan", "overload": "first_sig", "nfkc": "nfkc_distinct"}


def _enabled(cls):
    if cls not in gen.DEFAULT_EXTRAS:
        pytest.skip("%s is opt-in (DIFFTEST_EXTRAS=%s)" % (cls, cls))


@pytest.mark.parametrize("cls", gen.EXTRAS)
def test_class_slice(cls):
    """NCLASS programs that each draw the class pass on both paths."""
    _enabled(cls)
    work = tempfile.mkdtemp(prefix="difftest")
    bad, compared = [], 0
    for s in range(CLASS_SEED, CLASS_SEED + NCLASS):
        outs = harness.check_text(gen.generate(s, focus=cls), PATHS, work)
        if any(o.status not in ("ok", "skipped") for o in outs):
            bad.append("seed %d: %s" % (s, _fail_text(outs)))
        compared += all(o.status == "ok" for o in outs)
    assert not bad, "\n".join(bad) + "\n(reduce with: python3 tests/difftest/minimise.py SEED --focus %s)" % cls
    assert compared >= NCLASS // 2, "too few programs compared (%d of %d)" % (compared, NCLASS)


@pytest.mark.parametrize("cls", gen.EXTRAS)
def test_class_mutation_is_caught(cls, monkeypatch):
    """The class's check can fail: with its reference broken the way the
    bug it stands for broke the compiler (run.py --mutate), programs of
    the class mismatch."""
    _enabled(cls)
    import refrt
    monkeypatch.setenv("DIFFTEST_MUTATE", MUTATION[cls])
    monkeypatch.setattr(refrt, "MUTATE", MUTATION[cls])
    work = tempfile.mkdtemp(prefix="difftest")
    caught = []
    for s in range(CLASS_SEED, CLASS_SEED + 40):
        o = harness.check_text(gen.generate(s, focus=cls), PATHS[:1], work)[0]
        caught += [s] if o.status == "mismatch" else []
        if len(caught) >= 3:
            break
    assert len(caught) >= 3, caught


def test_extra_references():
    """The extra classes' references on cases checked by hand (and
    against numba-cuda's typing on a GPU)."""
    import cmath
    import math
    import gen_cmath  # noqa: F401
    import gen_overload
    import gen_ufunc
    import refrt as R
    np = R.np
    assert gen_ufunc.TABLE[("add", ("u8", "u8"))] == "u8" and gen_ufunc.TABLE[("add", ("i8", "u8"))] == "i16"
    assert R.ufunc("add", [np.uint8(200), np.uint8(100)], ("u8", "u8"), "u8") == np.uint8(44)
    assert ("add", ("i32", "f32")) not in gen_ufunc.TABLE   # Numba: float32, NumPy: float64
    # numba-cuda: add(int16, int16) over (float32, float32) and (int32, int32) takes int32 (a promotion
    # beats a safe conversion); float64 arguments fit neither without an unsafe conversion
    sigs = [(("f32", "f32"), "f32"), (("i32", "i32"), "i32")]
    assert gen_overload.choose(("i16", "i16"), sigs) == 1 and gen_overload.choose(("f64", "f64"), sigs) is None
    assert gen_overload.choose(("i8", "f32"), sigs) == 0 and gen_overload.choose(("f32", "f32"), sigs) == 0
    assert gen_overload.choose(("u8", "u8"), [(("i16", "i16"), "i16"), (("u16", "u16"), "u16")]) == 1
    assert gen_overload.choose(("b",), [(("i8",), "i8"), (("u8",), "u8")]) is None   # a tie
    # int64 and uint64 convert to float64 safely (Numba's rules, against their own grain): uint32 goes
    # to float64 (uint32 -> int64 -> float64) as safely as uint8 goes to int32
    sigs = [(("u8", "f64"), "f64"), (("i32", "i64"), "i8")]
    assert gen_overload.choose(("u8", "u32"), sigs) == 0
    z = R.cmath_call("log", [complex(-0.0, 0.0)])
    assert z.real == -math.inf and z.imag == math.pi
    assert R.cmath_call("exp", [complex(1000.0, 0.5)]) is None and R.cpart(None, "re") == R.CSKIP
    w = R.cmath_call("sqrt", [complex(-math.inf, -0.0)])
    assert w == cmath.sqrt(complex(-math.inf, -0.0)) and math.copysign(1, w.real) == 1 and w.imag == -math.inf
    # lgamma correctly rounded (CPython's is 8 ulps off at 2.5), near a zero too
    assert R.lgamma(2.5) == 0.2846828704729192 and R.lgamma(-2.4570247382208006) == 5.619192358950097e-17


def test_extras_keep_earlier_programs():
    """A program that draws none of the extra classes renders what its seed
    rendered before they existed, which extras=() renders for every seed."""
    same = 0
    for s in range(200):
        p = gen.Program(s, extras=gen.EXTRAS)
        if not p.drawn:
            assert p.render() == gen.generate(s, extras=()), s
            same += 1
    assert same >= 20, same


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


def test_ticks_check_the_order_of_evaluation():
    """gen.py's evaluation-order ticks: off, a seed renders without them;
    a kernel whose two ticked operands run in Python's order passes, and
    is reported in tlog where its reference runs them the other way."""
    s = next(s for s in range(100) if gen.Program(s, "pure").tick_p)
    assert "tick(" not in gen.generate(s, "pure", ticks=False) and "tick(" in gen.generate(s, "pure")
    kern = "out_i[tid, 0] = tick(tlog, tid, 901, tid) - tick(tlog, tid, 902, 2)"
    for ref, want in (("_a = R.tick(tlog, tid, 901, tid)\n_b = R.tick(tlog, tid, 902, np.int64(2))", "ok"),
                      ("_b = R.tick(tlog, tid, 902, np.int64(2))\n_a = R.tick(tlog, tid, 901, tid)", "mismatch")):
        p = gen.Program(s, "pure")
        p.body.append(gen.Text(kern, ref + "\nout_i[tid, 0] = R.binop('-', _a, _b, 'i64')"))
        outs = harness.check_text(p.render(), PATHS[:1], tempfile.mkdtemp(prefix="difftest"))
        assert outs[0].status == want, outs
        assert want == "ok" or outs[0].detail.startswith("tlog["), outs


def test_reference_lgamma_is_correctly_rounded():
    """refrt.lgamma, the reference of math.lgamma everywhere in the tester:
    log|gamma(x)| rounded once (CPython's math.lgamma is 8 ulps off at 2.5,
    and has no correct digit near the zero at -2.457)."""
    import refrt as R
    assert R.lgamma(2.5) == 0.2846828704729192 and R.lgamma(0.5) == 0.5723649429247001
    assert R.lgamma(-2.4570247382208006) == 5.619192358950097e-17
    assert R.lgamma(1.0) == 0.0 and R.lgamma(-3.0) == R.lgamma(0.0) == R.math.inf
    assert R.inexact("lgamma", [2.5], "f64") == R.inexact("lgamma", [2.5], "f32") == R.lgamma(2.5)


def test_reference_warp_semantics():
    """refrt.warp_op against hand-computed results of a full warp."""
    import refrt as R
    vals = [R.NP["i32"](10 * i) for i in range(32)]
    up = R.warp_op("up", "i32", vals, [3] * 32)
    assert [int(x) for x in up] == [0, 10, 20] + [10 * (i - 3) for i in range(3, 32)]
    down = R.warp_op("down", "i32", vals, [35] * 32)      # the low 5 bits: 3
    assert [int(x) for x in down] == [10 * (i + 3) for i in range(29)] + [290, 300, 310]
    assert [int(x) for x in R.warp_op("xor", "i32", vals, [1] * 32)] == [10 * (i ^ 1) for i in range(32)]
    assert [int(x) for x in R.warp_op("shfl", "i32", vals, [i - 1 for i in range(32)])] == \
        [310] + [10 * (i - 1) for i in range(1, 32)]
    preds = [i % 2 == 1 for i in range(32)]
    assert int(R.warp_op("ballot", "b", preds, [0] * 32)[0]) == -1431655766   # 0xaaaaaaaa as int32
    assert not R.warp_op("all", "b", preds, [0] * 32)[0] and R.warp_op("any", "b", preds, [0] * 32)[0]
    assert not R.warp_op("eq", "b", preds, [0] * 32)[0] and R.warp_op("eq", "b", [True] * 32, [0] * 32)[0]
    m = R.warp_op("match_any", "f32", [R.NP["f32"](i % 3) for i in range(32)], [0] * 32)
    assert int(m[4]) == sum(1 << j for j in range(32) if j % 3 == 1) - (1 << 32)   # lane 31 is set
    assert R.warp_op("match_all", "i64", [R.NP["i64"](7)] * 32, [0] * 32)[5] == (-1, True)
    # Numba's float atomics: a NaN in memory stays, a NaN operand is ignored, nanmax replaces a NaN
    nan = float("nan")
    assert R.np.isnan(R.atomic("max", R.NP["f32"](nan), 3.0, "f32"))
    assert R.atomic("max", R.NP["f64"](1.0), nan, "f64") == 1.0
    assert R.atomic("nanmax", R.NP["f64"](nan), 2.0, "f64") == 2.0
    assert R.atomic("inc", R.NP["u32"](5), 5, "u32") == 0 and R.atomic("dec", R.NP["u32"](0), 5, "u32") == 5


def test_reference_catches_a_wrong_warp_answer():
    """A kernel that shuffles down where its reference shuffles up is
    reported, in the column the result went to."""
    p = gen.Program(11, "comm")
    p.body.append(gen.Text("out_i[tid, 0] = cuda.shfl_down_sync(0xffffffff, tid, 1)",
                           "out_i[tid, 0] = yield ('warp', ('up', 'i64', tid, 1))"))
    outs = harness.check_text(p.render(), PATHS[:1], tempfile.mkdtemp(prefix="difftest"))
    assert outs[0].status == "mismatch" and outs[0].detail.startswith("out_i["), outs


def test_constant_condition_types_the_taken_branch():
    """`v = True; x = a if v else b` (a uint64, b int64): Numba and ptxjit
    prune the dead branch, so x is uint64 (2**64 - 1, not the float64 of
    the unification); the generator types it so (IfExp.known)."""
    p = gen.Program(7, "pure")
    p.devs, p.args, p.mslots = [], [], []
    p.body = [gen.Assign("v1", "b", gen.Lit(True, "b"))]
    e = gen.IfExp(gen.Var("v1", "b"), gen.Lit(18446744073709551615, "u64"), gen.Var("tid", "i64"),
                  known=gen.Lit(True, "b"))
    assert e.ty == "u64"
    p.body.append(gen.Store("out_i", "i64", "tid, 0", gen.Bin("-", e, gen.Lit(1, "u64"))))
    text = p.render()
    assert "np.uint64(18446744073709551615) if v1 else tid" in text
    outs = harness.check_text(text, PATHS, tempfile.mkdtemp(prefix="difftest"))
    assert all(o.status == "ok" for o in outs), outs
    # the generator never assigns such a variable again, and says so
    q = next(gen.Program(s) for s in range(230, 300) if gen.Program(s).pinned)
    import minimise
    assert minimise.consistent(q)


def test_run_reports_progress_and_stops_at_its_time_budget(capsys):
    import run
    flag = ["--gpu"] if ON_GPU else []
    assert run.main(flag + ["--n", "5", "--seed", "7", "--progress", "2"]) == 0
    out = capsys.readouterr().out
    assert "... 2 programs" in out and "... 4 programs" in out and "5 programs (seeds 7..11)" in out
    assert run.main(flag + ["--n", "5", "--seed", "7", "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert "stopped after" in out and "0 programs" in out


@pytest.mark.skipif(ON_GPU, reason="the CPU targets of both compilers; runs once, on the simulator's pass")
def test_numba_itself_agrees_on_random_expressions():
    """tests/difftest/numba_oracle.py: 200 random scalar expressions give
    the same value of the same kind under ptxjit.njit as under
    numba.njit (where Numba is installed)."""
    try:
        import numpy as np
        if not hasattr(np, "row_stack"):
            np.row_stack = np.vstack
        import numba  # noqa: F401
    except Exception:
        pytest.skip("Numba is not installed")
    import numba_oracle
    counts, bad = numba_oracle.run(2, 200)
    assert not bad, bad[:5]
    assert counts["ok"] > 150 and counts["refused"] == 0, counts


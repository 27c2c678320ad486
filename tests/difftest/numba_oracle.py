"""Numba itself as the reference: random scalar expressions, compiled by
ptxjit.njit and by numba.njit (the CPU target, whose typing is the CUDA
target's), must give the same value of the same kind (int, float, bool).

    python3 tests/difftest/numba_oracle.py [--seed S] [--n N] [--print]

Needs Numba (the GPU machine has it; CI does not, where the test that
runs a slice of it skips).  Each function takes (a: int64, b: float64,
c: int32) and returns one expression over them, literals and NumPy scalar
constructors, with arithmetic (// % ** included), bit operations,
comparisons, conditional expressions (constant conditions included, which
is where the two typings can part), min, max, abs, float and bool.

Known differences, which the slice the tests run does not meet:
  - an and/or chain inside one of the opposite kind, ((x or y) and z):
    CPython's jumps let only y and z be the value, so Numba unifies
    their types alone; ptxjit unifies x's too (-5 comes out as -5.0);
  - a float out of int64's range converted by int(): undefined in LLVM,
    INT64_MIN on Numba's CPU code, saturated in ptxjit's (the GPU's).

A float converted to an integer kind goes through int() first: a float out
of an integer kind's range converts differently on the CPU (wrapping) and
on the GPU (saturating), and LLVM leaves it undefined.  A Numba error means
the expression is not valid Numba; it is skipped.  The functions are
written to one file under a temporary directory, as both compilers read
their source.
"""

import argparse
import importlib.util
import math
import os
import random
import sys
import tempfile

import numpy as np

INT_TYPES = ["np.int8", "np.int16", "np.int32", "np.int64", "np.uint8", "np.uint16", "np.uint32", "np.uint64"]
ARITH = ["+", "-", "*", "//", "%", "/"]
BITS = ["&", "|", "^"]
CMP = ["<", "<=", "==", "!=", ">", ">="]
VARS = ["a", "b", "c"]


def expr(r, depth):
    """One random expression, as text."""
    c = r.random()
    if depth <= 0 or c < 0.2:
        k = r.random()
        if k < 0.55:
            return r.choice(VARS)
        if k < 0.75:
            return str(r.randint(-5, 9))
        if k < 0.9:
            return repr(r.choice([0.5, -1.25, 3.0, 2.5, 1e-3, 7.0]))
        return "%s(%d)" % (r.choice(INT_TYPES + ["np.float32", "np.float64"]), r.randint(0, 9))
    if c < 0.5:
        return "(%s %s %s)" % (expr(r, depth - 1), r.choice(ARITH), expr(r, depth - 1))
    if c < 0.58:
        return "(int(%s) %s int(%s))" % (expr(r, depth - 1), r.choice(BITS), expr(r, depth - 1))
    if c < 0.63:
        return "(int(%s) %s %d)" % (expr(r, depth - 1), r.choice(["<<", ">>"]), r.randint(0, 6))
    if c < 0.67:
        return "(%s ** %d)" % (expr(r, depth - 1), r.randint(0, 3))
    if c < 0.8:
        cond = r.choice([
            "%s %s %s" % (expr(r, depth - 1), r.choice(CMP), expr(r, depth - 1)),
            "%s %s %s" % (expr(r, 0), r.choice(CMP), expr(r, 0)),
            "abs(%d) > %d" % (r.randint(-3, 3), r.randint(-1, 2)),
            "%s(%d)" % (r.choice(INT_TYPES + ["np.float32"]), r.randint(0, 1)),
        ])
        return "(%s if %s else %s)" % (expr(r, depth - 1), cond, expr(r, depth - 1))
    if c < 0.86:
        return "%s(int(%s))" % (r.choice(INT_TYPES), expr(r, depth - 1))
    if c < 0.9:
        return "%s(%s)" % (r.choice(["np.float32", "np.float64", "float", "abs"]), expr(r, depth - 1))
    if c < 0.94:
        return "%s(%s, %s)" % (r.choice(["min", "max"]), expr(r, depth - 1), expr(r, depth - 1))
    return "(%s %s %s)" % (expr(r, depth - 1), r.choice(["and", "or"]), expr(r, depth - 1))


def kind(v):
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, (int, np.integer)):
        return "int"
    return "float"


def same(x, y):
    if kind(x) != kind(y):
        return False
    if kind(x) == "float" and math.isnan(x):
        return math.isnan(y)
    return x == y


def run(seed, n, verbose=False):
    """(results, mismatches): results counts 'ok', 'skipped' (not valid
    Numba) and 'refused' (Numba compiles it, ptxjit does not); each
    mismatch is (expression, arguments, Numba's value, ptxjit's)."""
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack          # Numba 0.6x imports it; NumPy 2.5 removed it
    import numba
    import ptxjit
    r = random.Random(seed)
    exprs = [expr(r, 3) for _ in range(n)]
    d = tempfile.mkdtemp(prefix="ptxjit_oracle_")
    path = os.path.join(d, "oracle_%d.py" % seed)
    with open(path, "w") as f:
        f.write("import numpy as np\n\n")
        for i, e in enumerate(exprs):
            f.write("def f%d(a, b, c):\n    return %s\n\n" % (i, e))
    spec = importlib.util.spec_from_file_location("oracle_%d" % seed, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rng = np.random.default_rng(seed)
    counts = {"ok": 0, "skipped": 0, "refused": 0}
    mismatches = []
    for i, e in enumerate(exprs):
        fn = getattr(mod, "f%d" % i)
        args = (np.int64(rng.integers(-20, 20)), np.float64(rng.standard_normal() * 4), np.int32(rng.integers(-9, 9)))
        try:
            want = numba.njit(fn)(*args)
        except Exception:
            counts["skipped"] += 1
            continue
        try:
            got = ptxjit.njit(fn)(*args)
        except Exception as ex:
            counts["refused"] += 1
            if verbose:
                print("refused: %s: %s" % (e, str(ex).splitlines()[0]))
            continue
        if same(want, got):
            counts["ok"] += 1
        else:
            mismatches.append((e, args, want, got))
            if verbose:
                print("MISMATCH %s with %s: numba %r, ptxjit %r" % (e, args, want, got))
    return counts, mismatches


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--print", action="store_true", help="print each refusal and mismatch")
    o = ap.parse_args()
    counts, bad = run(o.seed, o.n, o.print)
    print("%d expressions: %d ok, %d mismatches, %d refused by ptxjit, %d not valid Numba"
          % (o.n, counts["ok"], len(bad), counts["refused"], counts["skipped"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

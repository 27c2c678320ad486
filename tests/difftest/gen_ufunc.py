"""NumPy ufuncs on scalars of every width, inside generated expressions.

np.add(np.uint8(200), np.uint8(100)) is np.uint8(44): a ufunc on scalars
computes in NumPy's result type of its operand types (NEP 50: a NumPy
scalar's type is its own, whatever its value), not at 64 bits as Python
operators on small ints do under Numba.  This class draws such calls with
operands of every type (bool, int8..uint64, float32, float64), as
subexpressions of the statements it adds (gen.Program.xexpr), and types
each by NumPy's own resolution (TABLE, computed from NumPy at import);
the reference calls the ufunc itself (refrt.ufunc), which checks that
NumPy's result has that type.

Left out, where Numba types a call otherwise than NumPy does (the typing
table numba-cuda gave on a GPU): a float32 with a 32- or 64-bit integer
(Numba float32, NumPy float64), divide of two small integers or bools
(Numba float32), NumPy's float16 results (small integers into float
functions), and ufuncs of bool that NumPy refuses; and comparisons and
min/max of uint64 with a signed integer (NumPy 2 compares them exactly,
Numba as float64).  Only ufuncs whose result is exact are drawn (float
arithmetic is IEEE, sqrt correctly rounded); shift counts are masked to
0..7, integer powers to 0..3.  Half the calls are of ufuncs that wrap
(add, multiply, ...), most of them on operands of one narrow type.

Mutation (run.py --mutate ufunc64): the reference widens integer
operands to 64 bits first, and types the result so, the bug this class
was written to catch.
"""

import os

import numpy as np

import gen
from gen import FLOATS, TYPES, Bin, Lit, Node

P = 0.35   # the share of programs that draw this class

UNARY = ("negative", "positive", "absolute", "square", "invert", "sign", "floor", "ceil", "trunc", "sqrt",
         "fabs", "logical_not", "isnan", "isinf", "isfinite", "signbit")
BINARY = ("add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder", "fmod",
          "maximum", "minimum", "fmax", "fmin", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
          "right_shift", "power", "greater", "greater_equal", "less", "less_equal", "equal", "not_equal",
          "logical_and", "logical_or", "logical_xor", "copysign")
SMALLI = ("b", "i8", "u8", "i16", "u16")
WRAPS = ("add", "subtract", "multiply", "negative", "square", "power", "left_shift", "absolute", "invert")
NARROW = ("i8", "u8", "i16", "u16", "i32", "u32")   # where 64-bit arithmetic would not wrap
CMP = ("greater", "greater_equal", "less", "less_equal", "equal", "not_equal", "maximum", "minimum",
       "fmax", "fmin")


def _kind(dt):
    for k, v in gen.DTYPE.items():
        if np.dtype(v) == dt:
            return k
    return None


def numba_differs(f, ts):
    """Numba types np.f(ts) otherwise than NumPy (see the docstring)."""
    if len(ts) == 2:
        a, b = ts
        if "f32" in ts and ({a, b} & {"i32", "u32", "i64", "u64"}):
            return True
        if f in ("divide", "true_divide") and a in SMALLI and b in SMALLI:
            return True
        if f in CMP and "u64" in ts and ({a, b} & {"i8", "i16", "i32", "i64"}):
            return True
    return False


def _table():
    out = {}
    with np.errstate(all="ignore"):
        for f in UNARY + BINARY:
            for ts in ([(t,) for t in TYPES] if f in UNARY else [(a, b) for a in TYPES for b in TYPES]):
                try:
                    v = getattr(np, f)(*[gen.DTYPE[t](1) for t in ts])
                except TypeError:
                    continue
                rt = _kind(np.asarray(v).dtype)
                if rt is None or numba_differs(f, ts):
                    continue
                if f == "power" and rt in FLOATS:
                    continue   # pow is not exact
                out[(f, ts)] = rt
    return out


TABLE = _table()


class UFunc(Node):
    """np.f(args...) on scalars of the types ats."""

    def __init__(self, f, ats, rt, *args):
        super().__init__(*args)
        self.f, self.ats, self.ty = f, tuple(ats), rt

    def k(self):
        return "np.%s(%s)" % (self.f, ", ".join(a.k() for a in self.args))

    def r(self):
        return "R.ufunc(%r, [%s], %r, %r)" % (self.f, ", ".join(a.r() for a in self.args), self.ats, self.ty)


def _fits(rt, want):
    return gen.Program.fits(rt, want)


def ufunc_expr(p, scope, depth, want):
    """A random ufunc call whose result is of class want (None: none fits)."""
    r = p.rnd
    fs = sorted({f for (f, ts), rt in TABLE.items() if _fits(rt, want)})
    if not fs:
        return None
    wrapping = [f for f in WRAPS if f in fs]
    f = r.choice(wrapping if wrapping and r.random() < 0.5 else fs)
    cands = [ts for (g, ts), rt in TABLE.items() if g == f and _fits(rt, want)]
    narrow = [ts for ts in cands if len(set(ts)) == 1 and ts[0] in NARROW]
    ts = r.choice(narrow if narrow and r.random() < 0.6 else cands)
    d = max(0, depth - 1)
    args = []
    for i, t in enumerate(ts):
        if i == 1 and f in ("left_shift", "right_shift", "power"):
            e = Bin("&", p.expr(scope, d, "int"), Lit(7 if f != "power" else 3, "i64"))
        else:
            e = p.expr(scope, d, "bool" if t == "b" else "num")
        args.append(p.coerce_exact(e, t))
    rt = TABLE[(f, ts)]
    if os.environ.get("DIFFTEST_MUTATE") == "ufunc64" and rt in gen.INTS and wide_type(f, ts) in gen.INTS:
        rt = wide_type(f, ts)
    return UFunc(f, ts, rt, *args)


def wide_type(f, ts):
    """The type of np.f on ts with integer operands widened to 64 bits
    (the mutation ufunc64)."""
    wide = [gen.DTYPE[t if t in FLOATS or t == "b" else gen.widen(t)](1) for t in ts]
    with np.errstate(all="ignore"):
        try:
            return _kind(np.asarray(getattr(np, f)(*wide)).dtype) or TABLE[(f, ts)]
        except TypeError:   # NumPy has no loop for the widened types
            return TABLE[(f, ts)]


def hook(p, scope, depth, want):
    if p.rnd.random() >= 0.3:
        return None
    return ufunc_expr(p, scope, depth, want)


def make(p, scope):
    """2..5 statements v = <expression around a ufunc call>, each stored
    to an out_wi / out_wf column."""
    r = p.rnd
    for _ in range(r.randint(2, 5)):
        want = r.choice(("int", "int", "float", "bool", "num"))
        p.xexpr = hook
        e = ufunc_expr(p, scope, r.randint(1, 3), want)
        if r.random() < 0.5:
            # used in arithmetic: its type matters beyond its value
            other = p.expr(scope, 1, "int")
            e = Bin(r.choice(("+", "*", "-")), e, other) if e.ty != "b" else e
        p.xexpr = None
        v = p.fresh()
        t = e.ty
        p.body.append(gen.Assign(v, t, e))
        scope[v] = t
        p.store_w(gen.Var(v, t))

"""cmath functions at special values.

Each call takes a complex whose parts come from the read-only input csp
(infinities, NaN, signed zeros, subnormals, and a few ordinary and huge
numbers; the index depends on the thread, so threads see different
pairs) or are such a constant written in the kernel.  The parts of the
result go to columns of out_c (SPEC["cslots"]: the function and the
part); the harness compares a NaN with a NaN, an infinity or a zero bit
for bit (its sign), and a finite part within the bound of the real
functions it is made of (harness._compare_c).  The reference is
CPython's cmath (refrt.cmath_call), which follows C99 Annex G; where it
raises for a finite argument (log(0), an overflow), the cell is left out
(refrt.CSKIP) unless Annex G's value is known (log and log10 at a zero).

Mutation (run.py --mutate cmath_nan): a special value in gives NaNs out.
"""

import math

import gen
from gen import Text

P = 0.3

SPECIALS = (0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -5e-324, 1.5e-310, 1.0, -1.0, 0.5, -2.5,
            1e300, -1e300, 1e-300, 3.0)
# constants written in the kernel: (value, text); a list, as 0.0 and -0.0
# are one key of a dict
SPELL = ((0.0, "0.0"), (-0.0, "(-0.0)"), (math.inf, "math.inf"), (-math.inf, "(-math.inf)"), (5e-324, "5e-324"),
         (1e300, "1e300"), (1.0, "1.0"), (-2.5, "(-2.5)"), (math.nan, "math.nan"))
FUNCS = ("sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
         "asinh", "acosh", "atanh", "phase", "isnan", "isinf", "isfinite", "rect", "polar")


def part(p, k, r):
    """A float operand: a csp element chosen by the thread, or a constant."""
    if r.random() < 0.25:
        v, text = r.choice(SPELL)
        return text, "np.float64(%r)" % repr(v)
    a, b = r.choice((1, 3, 5, 7, 11, 13)), r.randrange(16)
    return "csp[(tid * %d + %d) %% 16]" % (a, b), "csp[int((tid * %d + %d) %% 16)]" % (a, b)


def make(p, scope):
    r = p.rnd
    p.xin.append(("csp", "f64", [repr(v) for v in SPECIALS]))
    p.xglobals.append("import cmath")
    p.cslots = []
    calls = r.randint(2, 6)
    p.extra.append(("out_c", "f64", 0, "out"))
    idx = len(p.extra) - 1
    for _ in range(calls):
        f = r.choice(FUNCS)
        (xk, xr), (yk, yr) = part(p, 0, r), part(p, 1, r)
        z, w = p.fresh("z"), p.fresh("w")
        if f == "rect":
            p.body.append(Text("%s = cmath.rect(%s, %s)" % (w, xk, yk),
                               "%s = R.cmath_call('rect', [%s, %s])" % (w, xr, yr)))
        else:
            p.body.append(Text("%s = complex(%s, %s)" % (z, xk, yk), "%s = complex(%s, %s)" % (z, xr, yr)))
            p.body.append(Text("%s = cmath.%s(%s)" % (w, f, z), "%s = R.cmath_call(%r, [%s])" % (w, f, z)))
        if f in ("isnan", "isinf", "isfinite"):
            p.store_w(gen.Raw(w, "np.bool_(%s)" % w, "b"))
            continue
        if f == "phase":
            parts = [("val", w)]
        elif f == "polar":
            parts = [("abs", w + "[0]"), ("phase", w + "[1]")]
        else:
            parts = [("re", w + ".real"), ("im", w + ".imag")]
        for what, kt in parts:
            col = len(p.cslots)
            p.cslots.append((f, what))
            rt = "R.cpart(%s, %r)" % (w, what) if what in ("re", "im", "val") else \
                "R.cpart(%s and %s, 'val')" % (w, kt)
            p.body.append(Text("out_c[tid, %d] = %s" % (col, kt), "out_c[tid, %d] = %s" % (col, rt)))
    n, t, _, kind = p.extra[idx]
    p.extra[idx] = (n, t, max(1, len(p.cslots)), kind)

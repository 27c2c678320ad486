"""Device functions declared with several signatures.

    @cuda.jit(["int16(int16, float32)", "float64(float64, float64)"], device=True)
    def ov0(p0, p1):
        return (p0 * p1) - 3

The kernel calls such a function with arguments whose types need the
overload resolution Numba does (numba.core.typing.context's
resolve_overload over the conversions of numba.core.typeconv.rules): a
signature whose parameter types equal the arguments' wins; else each
candidate is rated by its conversions (unsafe, safe, promote), counted
over its parameters, and the least wins.  The generator only makes calls
that a signature fits with no unsafe conversion and whose best rating
is one signature's alone (Numba would take the first of a tie, or make an
unsafe conversion: there compilers may rightly differ).  The reference
calls that signature's Python rendering, which converts the arguments to
its parameter types and the result to its return type (the function's
body is one expression template typed per signature).

A signature's return type is mostly one the other signatures do not
have (an integer result wraps to a narrow one, a float one rounds to
float32), so that a wrong choice shows in the value; a float result is
never returned as an integer (undefined out of range).

Mutation (run.py --mutate first_sig): the reference takes the first
signature, whatever the arguments (and types the call by it).
"""

import os

import gen
from gen import FLOATS, TYPES, Bin, Lit, Var

P = 0.3

NUMBA = {"b": "boolean", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
         "u16": "uint16", "u32": "uint32", "u64": "uint64", "f32": "float32", "f64": "float64"}
PROMOTE, SAFE, UNSAFE = 1, 2, 3
RETURNS = ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64")


def _conversions():
    """{(from, to): kind}: Numba's casting rules (typeconv/rules.py), closed
    over paths (a path is as bad as its worst step; the best path counts)."""
    c = {}

    def rule(a, b, there, back):
        c[(a, b)], c[(b, a)] = there, back
    rule("b", "i8", SAFE, UNSAFE)
    rule("b", "u8", SAFE, UNSAFE)
    for a, b in (("i8", "i16"), ("u8", "u16"), ("i16", "i32"), ("u16", "u32"), ("i32", "i64"), ("u32", "u64"),
                 ("f32", "f64")):
        rule(a, b, PROMOTE, UNSAFE)
    for a, b in (("u8", "i16"), ("u16", "i32"), ("u32", "i64"), ("i16", "f32"), ("i32", "f64")):
        rule(a, b, SAFE, UNSAFE)
    rule("i32", "f32", UNSAFE, UNSAFE)
    # Numba's own note: inconsistent with the above, so that float64 wins
    # over int64 in a mixed operation
    rule("i64", "f64", SAFE, UNSAFE)
    rule("u64", "f64", SAFE, UNSAFE)
    for k in TYPES:
        for i in TYPES:
            for j in TYPES:
                if i != j and (i, k) in c and (k, j) in c:
                    via = max(c[(i, k)], c[(k, j)])
                    if via < c.get((i, j), UNSAFE + 1):
                        c[(i, j)] = via
    return c


CONV = _conversions()


def rating(args, params):
    """(unsafe, safe, promote) conversions from args to params; None when
    one does not convert at all."""
    n = [0, 0, 0]
    for a, p in zip(args, params):
        if a == p:
            continue
        k = CONV.get((a, p))
        if k is None:
            return None
        n[{UNSAFE: 0, SAFE: 1, PROMOTE: 2}[k]] += 1
    return tuple(n)


def choose(args, sigs):
    """The index of the signature Numba takes for argument types args,
    when one fits without unsafe conversions and beats every other; else
    None."""
    rated = [(rating(args, ps), i) for i, (ps, _) in enumerate(sigs)]
    rated = [(r, i) for r, i in rated if r is not None and r[0] == 0]
    if not rated:
        return None
    rated.sort()
    if len(rated) > 1 and rated[0][0] == rated[1][0]:
        return None
    return rated[0][1]


def template(r, nparams, depth):
    if depth == 0 or r.random() < 0.25:
        if r.random() < 0.75:
            return ("p", r.randrange(nparams))
        return ("lit", r.choice((1, 2, 3, 7, -5, 37, 1000)))
    op = r.choice(("+", "-", "*", "//", "%", "/", "+", "*"))
    return ("bin", op, template(r, nparams, depth - 1), template(r, nparams, depth - 1))


def uses(t):
    """The parameters template t reads."""
    if t[0] == "p":
        return {t[1]}
    if t[0] == "lit":
        return set()
    return uses(t[2]) | uses(t[3])


def build(t, types):
    """The expression of template t over parameters of the given types."""
    if t[0] == "p":
        return Var("p%d" % t[1], types[t[1]])
    if t[0] == "lit":
        return Lit(t[1], "i64")
    return Bin(t[1], build(t[2], types), build(t[3], types))


class OverDev:
    """A device function with explicit signatures: sigs [(params, ret)]."""

    def __init__(self, name, nparams, tmpl, sigs):
        self.name, self.nparams, self.tmpl, self.sigs = name, nparams, tmpl, sigs

    def render(self):
        ps = ", ".join("p%d" % i for i in range(self.nparams))
        sigtext = ", ".join('"%s(%s)"' % (NUMBA[rt], ", ".join(NUMBA[t] for t in ts)) for ts, rt in self.sigs)
        L = ["@cuda.jit([%s], device=True)" % sigtext, "def %s(%s):" % (self.name, ps),
             "    return %s" % build(self.tmpl, self.sigs[0][0]).k(), "", ""]
        for k, (ts, rt) in enumerate(self.sigs):
            L.append("def %s_r%d(%s):" % (self.name, k, ps))
            for i, t in enumerate(ts):
                L.append("    p%d = R.cast(p%d, %r)" % (i, i, t))
            L += ["    return R.cast(%s, %r)" % (build(self.tmpl, ts).r(), rt), "", ""]
        return L


class OverCall(gen.Node):
    """fn(args...): the signature choice (what Numba takes) decides the type."""

    def __init__(self, fn, choice, *args):
        super().__init__(*args)
        self.fn, self.choice = fn, choice
        self.ty = fn.sigs[choice][1]

    def k(self):
        return "%s(%s)" % (self.fn.name, ", ".join(a.k() for a in self.args))

    def r(self):
        return "%s_r%d(%s)" % (self.fn.name, self.choice, ", ".join(a.r() for a in self.args))


def make_fn(p):
    r = p.rnd
    n = r.choice((1, 2, 2))
    for _ in range(20):
        tmpl = template(r, n, r.randint(1, 2))
        if uses(tmpl) == set(range(n)):
            break
    sigs, seen, rts = [], set(), set()
    for _ in range(r.choice((2, 2, 3, 4))):
        ts = tuple(r.choice(TYPES) for _ in range(n))
        if ts in seen:
            continue
        seen.add(ts)
        nat = build(tmpl, ts).ty
        # a return type the other signatures do not have, where one fits:
        # a wrong choice then shows in the value more often
        fits = [t for t in (FLOATS if nat in FLOATS else RETURNS) if t not in rts]
        rt = r.choice(fits) if fits and r.random() < 0.8 else nat
        rts.add(rt)
        sigs.append((ts, rt))
    if len(sigs) < 2:
        return None
    return OverDev("ov%d" % len(p.xdevs), n, tmpl, sigs)


def call(p, fn, scope):
    """A call of fn with argument types that resolve (mostly without an
    exact match, mostly to another signature than the first); None when
    none was found."""
    r = p.rnd
    for _ in range(40):
        args = tuple(r.choice(TYPES) for _ in range(fn.nparams))
        c = choose(args, fn.sigs)
        if c is None or (args == fn.sigs[c][0] and r.random() < 0.7) or (c == 0 and r.random() < 0.6):
            continue
        es = [p.coerce_exact(p.expr(scope, 2, "bool" if t == "b" else "num"), t) for t in args]
        return OverCall(fn, 0 if os.environ.get("DIFFTEST_MUTATE") == "first_sig" else c, *es)
    return None


def make(p, scope):
    r = p.rnd
    fns = [f for f in (make_fn(p) for _ in range(r.randint(1, 2))) if f is not None]
    for f in fns:
        f.name = "ov%d" % len(p.xdevs)
        p.xdevs.append(f)
    if not fns:
        return
    for _ in range(r.randint(2, 5)):
        c = call(p, r.choice(fns), scope)
        if c is None:
            continue
        e = c
        if r.random() < 0.4 and c.ty != "b":
            e = Bin(r.choice(("+", "*")), c, p.expr(scope, 1, "int"))
        v = p.fresh()
        p.body.append(gen.Assign(v, e.ty, e))
        scope[v] = e.ty
        p.store_w(Var(v, e.ty))


"""Names that are equal under NFKC.

Python reads identifiers in NFKC form (PEP 3131): `ﬁx` (U+FB01),
`ｆｉｘ` (fullwidth), `𝐟𝐢𝐱` (mathematical bold) and `fix` are one name.
This class spells the kernel's names so:

  * a renaming pass over the kernel's text (from its `def` line on) gives
    some of its parameters, locals and globals (np, math) a compatibility
    spelling at each occurrence, drawn at random (the reference keeps the
    plain spelling: Python's own semantics);
  * statements of its own assign a local in one spelling, assign it again
    in another (maybe under a condition), and read it in the first;
  * module-level globals are assigned twice in two spellings (Python
    keeps the second value under the NFKC name) and read in the kernel in
    the spelling of the first.

Mutation (run.py --mutate nfkc_distinct): the reference takes spellings
for different names (its locals and globals get one name per spelling),
as a compiler that compared names byte for byte would.
"""

import io
import os
import tokenize
import unicodedata

import gen
from gen import Var

P = 0.3

LOWER = (0xFF41, 0x1D41A, 0x1D5EE, 0x1D68A, 0x1D5BA)   # fullwidth, bold, sans bold, monospace, sans
UPPER = (0xFF21, 0x1D400, 0x1D5A0)
DIGIT = (0xFF10, 0x1D7CE, 0x1D7EC)


def _char(c, r, first):
    if "a" <= c <= "z":
        if c == "s" and r.random() < 0.2:
            return "\u017f"   # long s
        return chr(r.choice(LOWER) + ord(c) - ord("a"))
    if "A" <= c <= "Z":
        return chr(r.choice(UPPER) + ord(c) - ord("A"))
    if "0" <= c <= "9" and not first:
        return chr(r.choice(DIGIT) + ord(c) - ord("0"))
    return c


def spell(name, r):
    """A random spelling of name that Python reads as name (NFKC)."""
    for _ in range(4):
        out, i = [], 0
        while i < len(name):
            two = name[i:i + 2]
            if two in ("fi", "fl") and r.random() < 0.6:
                out.append("\ufb01" if two == "fi" else "\ufb02")
                i += 2
                continue
            c = name[i]
            out.append(_char(c, r, i == 0) if r.random() < 0.5 else c)
            i += 1
        s = "".join(out)
        if s != name and s.isidentifier() and unicodedata.normalize("NFKC", s) == name:
            return s
    return name


def distinct():
    return os.environ.get("DIFFTEST_MUTATE") == "nfkc_distinct"


class NVar(gen.E):
    """A local in the spelling sp (n: the spelling's number)."""

    def __init__(self, name, ty, sp, n):
        self.name, self.ty, self.sp, self.n = name, ty, sp, n

    def rname(self):
        return "%s_%d" % (self.name, self.n) if distinct() else self.name

    def k(self):
        return self.sp

    def r(self):
        return self.rname()


class NAssign(gen.S):
    """target = e, the target spelled (sp, k) as NVar."""

    def __init__(self, var, e):
        self.var, self.e = var, e

    def lines(self, ind, ref):
        if ref:
            return [ind + "%s = R.cast(%s, %r)" % (self.var.rname(), self.e.r(), self.var.ty)]
        return [ind + "%s = %s" % (self.var.sp, self.e.k())]

    def exprs(self):
        return [self]


class NGlobal(gen.E):
    """A module-level global read in the spelling of its first assignment
    (first: that assignment's value)."""

    def __init__(self, name, sp, first):
        self.name, self.sp, self.first, self.ty = name, sp, first, "i64"

    def k(self):
        return self.sp

    def r(self):
        return "np.int64(%d)" % self.first if distinct() else "np.int64(%s)" % self.name


def make(p, scope):
    r = p.rnd
    # globals: two spellings, two values
    for _ in range(r.randint(0, 2)):
        name = r.choice(("GFI", "FLAG", "KFI", "Sfi")) + str(len(p.xglobals))
        a, b = spell(name, r), spell(name, r)
        v1, v2 = r.randint(-50, 50), r.randint(-50, 50)
        p.xglobals += ["%s = %d" % (a, v1), "%s = %d" % (b, v2)]
        e = gen.Bin(r.choice(("+", "*", "-")), NGlobal(name, a, v1), p.expr(scope, 1, "int"))
        v = p.fresh()
        p.body.append(gen.Assign(v, e.ty, e))
        scope[v] = e.ty
        p.store_w(Var(v, e.ty))
    # locals: assigned in spelling 1, again in spelling 2, read in spelling 1
    for i in range(r.randint(1, 3)):
        name = r.choice(("fi", "fl", "defi", "ofs", "xfi")) + "%d" % p.nvar
        p.nvar += 1
        e1 = p.expr(scope, 2, "num")
        t = e1.ty
        s1, s2 = spell(name, r), spell(name, r)
        v1, v2 = NVar(name, t, s1, 1), NVar(name, t, s2, 2 if s2 != s1 else 1)
        p.body.append(NAssign(v1, e1))
        e2 = p.coerce_exact(p.expr(scope, 2, "num"), t)
        if r.random() < 0.5:
            p.body.append(gen.If([(p.expr(scope, 2, "bool"), [NAssign(v2, e2)])], []))
        else:
            p.body.append(NAssign(v2, e2))
        p.store_w(NVar(name, t, s1, 1))
    # the renaming pass over the kernel's text
    names = set()
    for a in p.args:
        if r.random() < 0.6:
            names.add(a.name)
    for n in ("tid", "np", "math", "out_i", "out_wi"):
        if r.random() < 0.4:
            names.add(n)
    for k in range(1, p.nvar + 1):
        if r.random() < 0.3:
            names.update(("v%d" % k, "j%d" % k))
    seed = r.random()
    p.xrename = lambda lines: rename(lines, names, seed)


def rename(lines, names, seed):
    """The kernel's lines with the names given a random NFKC-equal
    spelling at each occurrence (the decorator line stays as it is)."""
    import random
    r = random.Random(seed)
    head, body = lines[:1], lines[1:]
    text = "\n".join(body) + "\n"
    out = [list(ln) for ln in body]
    edits = []
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME and tok.string in names and prev != ".":
            edits.append((tok.start, tok.end, tok.string))
        if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            prev = tok.string
    for (row, c0), (_, c1), s in reversed(edits):
        if r.random() < 0.6:
            out[row - 1][c0:c1] = list(spell(s, r))
    return head + ["".join(x) for x in out]

"""Random float16 expressions against a model of Numba's typing and of
ptxjit's contraction, on the simulator (the default) or the GPU
(PTXJIT_TEST_GPU=1).

Each expression mixes float16 array elements and constants with int8,
bool, float32 and float64 operands under + - * /, unary minus, abs(),
min() and max().  The model types each operation as Numba does (float16
with float16, int8 or bool stays float16; otherwise the wider float),
rounds each result to its type once, and fuses a product that is a direct
operand of + or - of the same float type (and not made of constants
alone) into one correctly rounded fma, as the compiler does.  Results are
compared bit for bit.
"""

import importlib.util
import math
import os
import random
from fractions import Fraction

import numpy as np

NP = {"h": np.float16, "s": np.float32, "d": np.float64}
RANK = {"b": 0, "i8": 0, "h": 1, "s": 2, "d": 3}


def rnd(v, t):
    with np.errstate(all="ignore"):
        return float(NP[t](v))


def round_frac(q, t):
    """The exact rational q rounded once to float type t (ties to even)."""
    with np.errstate(all="ignore"):
        h = NP[t](float(q))
        if not np.isfinite(h):
            return float(h)
        near = (np.nextafter(h, NP[t](-np.inf)), h, np.nextafter(h, NP[t](np.inf)))
    best = None
    for v in near:
        if not np.isfinite(v):
            continue
        key = (abs(Fraction(float(v)) - q), int(np.array(v).view("u%d" % v.itemsize)) & 1)
        if best is None or key < best[0]:
            best = (key, float(v))
    return best[1]


class Node:
    const = False


class Leaf(Node):
    def __init__(self, src, ty, value=None, const=False):
        self.src, self.ty, self.value, self.const = src, ty, value, const

    def k(self):
        return self.src

    def eval(self, row):
        return row[self.src] if self.value is None else self.value


class Un(Node):
    def __init__(self, op, a):
        self.op, self.a = op, a
        self.ty = a.ty if a.ty in ("h", "s", "d") else "d"
        self.const = a.const

    def k(self):
        return "(-%s)" % self.a.k() if self.op == "-" else "abs(%s)" % self.a.k()

    def eval(self, row):
        v = self.a.eval(row)
        return -v if self.op == "-" else abs(v)


def result_type(a, b):
    if "h" in (a, b) and RANK[a] <= 1 and RANK[b] <= 1:
        return "h"
    r = max(RANK[a], RANK[b], 2)     # anything else with a float16 computes as float32 at least
    return {2: "s", 3: "d"}[r]


def fmin_fmax(op, x, y):
    """min/max of two float32/float64 operands in kernels, as Numba's CUDA
    target computes them: fmin/fmax, where a NaN loses to a number and
    -0.0 orders below +0.0 (docs/semantics.md)."""
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == y == 0:
        neg = math.copysign(1, x) < 0, math.copysign(1, y) < 0
        return -0.0 if (any(neg) if op == "min" else all(neg)) else 0.0
    return min(x, y) if op == "min" else max(x, y)


class Bin(Node):
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b
        self.ty = result_type(a.ty, b.ty)
        self.const = a.const and b.const

    def k(self):
        if self.op in ("min", "max"):
            return "%s(%s, %s)" % (self.op, self.a.k(), self.b.k())
        return "(%s %s %s)" % (self.a.k(), self.op, self.b.k())

    def contractible(self, m):
        return isinstance(m, Bin) and m.op == "*" and not m.const and m.ty == self.ty

    def eval(self, row):
        t = self.ty
        if self.op in ("+", "-") and (self.contractible(self.a) or self.contractible(self.b)):
            if self.contractible(self.a):
                x, y, z = self.a.a.eval(row), self.a.b.eval(row), self.b.eval(row)
                if self.op == "-":
                    z = -z
            else:
                z, x, y = self.a.eval(row), self.b.a.eval(row), self.b.b.eval(row)
                if self.op == "-":
                    x = -x
            x, y, z = rnd(x, t), rnd(y, t), rnd(z, t)
            if all(math.isfinite(v) for v in (x, y, z)):
                return round_frac(Fraction(x) * Fraction(y) + Fraction(z), t)
            with np.errstate(all="ignore"):
                return rnd(np.float64(x) * y + z, t)
        x, y = rnd(self.a.eval(row), t), rnd(self.b.eval(row), t)
        with np.errstate(all="ignore"):
            if self.op == "+":
                v = np.float64(x) + y
            elif self.op == "-":
                v = np.float64(x) - y
            elif self.op == "*":
                v = np.float64(x) * y
            elif self.op == "/":
                v = np.float64(x) / np.float64(y)
            elif self.a.ty in ("s", "d") and self.b.ty in ("s", "d"):
                v = fmin_fmax(self.op, x, y)
            elif self.op == "min":       # Python's min: the first unless the second is smaller
                v = y if y < x else x
            else:
                v = y if y > x else x
        return rnd(v, t)


def leaf(r):
    p = r.random()
    if p < 0.55:
        return Leaf(r.choice(["a[i]", "b[i]", "c[i]"]), "h")
    if p < 0.7:
        v = float(np.float16(r.choice([0.1, 0.5, 1.5, 3.0, -2.25, 1e-3, 300.0, 7.0])))
        return Leaf("np.float16(%r)" % v, "h", v, const=True)
    if p < 0.8:
        v = r.randint(-128, 127)
        return Leaf("np.int8(%d)" % v, "i8", float(v), const=True)
    if p < 0.85:
        v = r.random() < 0.5
        return Leaf(repr(v), "b", float(v), const=True)
    if p < 0.93:
        return Leaf("s[i]", "s")
    return Leaf("d[i]", "d")


def expr(r, depth):
    if depth == 0 or r.random() < 0.2:
        return leaf(r)
    if r.random() < 0.15:
        a = expr(r, depth - 1)
        if a.ty not in ("h", "s", "d"):
            return a
        return Un(r.choice(["-", "abs"]), a)
    op = r.choice(["+", "-", "*", "*", "/", "+", "min", "max"])
    a, b = expr(r, depth - 1), expr(r, depth - 1)
    if a.ty not in ("h", "s", "d") and b.ty not in ("h", "s", "d"):
        a = Leaf("a[i]", "h")
    return Bin(op, a, b)


def program(seed, n):
    r = random.Random(seed)
    exprs = [expr(r, 4) for _ in range(n)]
    lines = ["import numpy as np", "from ptxjit import cuda", "", "", "@cuda.jit",
             "def k(a, b, c, s, d, out):", "    i = cuda.grid(1)", "    if i < a.size:"]
    lines += ["        out[%d, i] = %s" % (j, e.k()) for j, e in enumerate(exprs)]
    return "\n".join(lines) + "\n", exprs


def load(path, src):
    with open(path, "w") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.k


def test_random_float16_expressions(tmp_path):
    nthreads = 96
    rng = np.random.default_rng(21)
    a, b, c = ((rng.standard_normal(nthreads) * 6).astype(np.float16) for _ in range(3))
    a[:4] = [np.nan, np.inf, 0.0, 60000]
    b[:4] = [0.0, -0.0, 65504, 1e-7]
    s = (rng.standard_normal(nthreads) * 3).astype(np.float32)
    d = rng.standard_normal(nthreads) * 3
    checked = 0
    for seed in range(10):
        src, exprs = program(seed, 30)
        k = load(str(tmp_path / ("f16expr%d.py" % seed)), src)
        out = np.zeros((len(exprs), nthreads), np.float64)
        k[1, nthreads](a, b, c, s, d, out)
        for i in range(nthreads):
            row = {"a[i]": float(a[i]), "b[i]": float(b[i]), "c[i]": float(c[i]), "s[i]": float(s[i]),
                   "d[i]": float(d[i])}
            for j, e in enumerate(exprs):
                want = e.eval(row)
                got = out[j, i]
                same = (math.isnan(got) and math.isnan(want)) or got == want
                assert same, "seed %d expr %d (%s), thread %d: got %r, want %r" % (seed, j, e.k(), i, got, want)
                checked += 1
    assert checked == 10 * 30 * nthreads

"""A seeded random generator of well-typed kernels in ptxjit's dialect.

Program(seed, mode) builds a small typed AST (expressions know their Numba
type) and renders it twice into one Python module:

  kern          the kernel, as a user writes it (implicit promotions,
                `x * y + z` that ptxjit contracts into an fma, ...);
  kern_ref      the same control flow as plain Python over NumPy scalars,
                with every conversion Numba's typing implies spelled out
                as calls into refrt.py.  It runs once per thread; in the
                "comm" mode it is a generator that yields at each
                cuda.syncthreads(), so the harness can run a block's threads
                in lock step over their shared arrays.

Types are short strings: b, i8..i64, u8..u64, f32, f64.  The typing rules
(checked against Numba 0.68's CPU typing, which CUDA shares):

  arithmetic   ints compute in 64 bits, unsigned only when both operands
               are (bool counts as signed); a float with a small int (bool,
               i8, u8, i16) keeps its width, float32 with anything wider
               goes to float64; int / int is float64;
  shifts       64 bits with the left operand's signedness;
  unary - + ~  ints widen to 64 bits (same signedness), floats keep;
  comparisons, min/max, `and`/`or`, `a if c else b`, and a variable's
               type: NumPy's promote_types (int64 with uint64 -> float64);
  float ** int keeps the float type; int ** int as arithmetic.

Things Numba and ptxjit spell differently on purpose (int(int32), float
(float32), math.copysign of ints) are not generated.

Statements: assignments (a variable keeps the type of its first
assignment; later ones may assign any type that unifies into it),
augmented assignments, if/elif/else, for over range() with run-time
bounds (bounded trip counts), while with break/continue, local arrays,
tuples (packing, unpacking, indexing), device functions, stores to the
output arrays, and math calls whose results go straight to an output
column that is compared within the math library's ULP bounds.

"comm" programs add, at the top level of the kernel (every thread of the
block, and every lane of its full warps, reaches them): shared arrays
between barriers, the reducing barriers, integer atomics on `acc`, and,
drawn from a generator of their own so that earlier seeds keep their
statements, warp operations (shfl_sync / _up / _down / _xor of int32,
int64, float32, float64; all/any/eq/ballot_sync; match_any/match_all_sync;
laneid, warpsize, lanemask_lt) and atomics whose result does not depend on
the threads' order: float add/sub of small dyadic numbers (exact sums),
float max/min/nanmax/nanmin, on global and shared slots, an add by a
compare-and-swap loop (cas, compare_and_swap), and inc/dec/exch with one
operand for all threads.

Evaluation-order ticks (Program.add_ticks): 70% of the programs wrap
randomly chosen subexpressions of the kernel (4, 8 or 15% of the sites)
in `tick(tlog, tid, code, e)`, a device function that appends the site's
code (distinct per site) to the thread's row of an extra int64 output
array `tlog` (column 0 counts every call, even once the row is full;
columns 1..64 hold the codes) and returns e unchanged.  The reference
calls refrt.tick at the same places and evaluates every shape in Python's
order and number: `and`/`or` and conditional expressions keep their short
circuits, a chained comparison evaluates a middle operand once (held in
a `:=` variable), `z + x*y` evaluates z first where it becomes an fma
(refrt.fma_r), a store's value before its subscript; the harness compares
tlog exactly.  Ticks go around operands of every shape (operators,
comparisons, math/NumPy/builtin calls, min/max, conditionals, `and`/`or`,
tuples, subscripts and their indices, device-function arguments, range()
bounds, conditions, warp operations, atomics, stored and augmented
values) and around the column of stores to the output arrays (evaluated
after the value); never around a literal condition (or the literal
assignment of a variable) whose value decides an expression's type, nor
around a product that may contract into an fma (nor inside one that may
be folded into a constant: ticks would keep it from folding).  Ticks stay out
of the device functions' bodies, which stay pure.  Such programs also
call NumPy for some operators of one meaning (np.add, np.subtract,
np.multiply, np.bitwise_and/or/xor for two operands of one type of
int64, uint64, float32, float64; np.divide for floats; np.minimum and
np.maximum for min/max of two such ints) and add augmented stores to
local arrays (`la[i] op= e`: Python evaluates i, once, before e).
All of it is drawn from a generator of its own, seeded from the
program's: Program(seed, mode, ticks=False), or a program that draws no
ticks, renders exactly what the seed rendered before ticks existed.

Extra classes (EXTRAS, one module each): gen_ufunc (NumPy ufuncs on
scalars of every width, typed by NumPy's own rules), gen_cmath (cmath
functions at infinities, NaNs, signed zeros and subnormals), gen_overload
(device functions declared with several signatures, called with
arguments that need Numba's overload resolution), gen_nfkc (names equal
under NFKC, spelled differently in the kernel).  Each draws from a
generator of its own (random.Random("<class>-<seed>")), after everything
else, ticks included, and only adds: statements at the end of the
kernel, device functions and module-level lines before it, arrays after
the others, a respelling of the kernel's text.  So Program(seed,
extras=()), or a program that draws none of them, renders exactly what
the seed rendered before they existed (checked over seeds 0..999 and
1000000..1000199 when they came).  DEFAULT_EXTRAS are drawn unless told
otherwise (extras=..., DIFFTEST_EXTRAS, run.py --extra); focus= makes
every program draw one class.  Each module has a mutation (run.py
--mutate) that breaks its reference the way the bug it stands for broke
the compiler.
"""

import copy
import os
import random

import numpy as np

TYPES = ("b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64")
INTS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
FLOATS = ("f32", "f64")
NPNAME = {"b": "np.bool_", "i8": "np.int8", "i16": "np.int16", "i32": "np.int32", "i64": "np.int64",
          "u8": "np.uint8", "u16": "np.uint16", "u32": "np.uint32", "u64": "np.uint64",
          "f32": "np.float32", "f64": "np.float64"}
DTYPE = {"b": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
         "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
         "f32": np.float32, "f64": np.float64}
SMALL = ("b", "i8", "u8", "i16")

INEXACT1 = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
            "atanh", "exp", "expm1", "log", "log2", "log10", "log1p", "erf", "erfc", "gamma", "lgamma")
INEXACT2 = ("atan2", "hypot", "pow")


def unify(a, b):
    if a == b:
        return a
    t = np.promote_types(DTYPE[a], DTYPE[b])
    for k, v in DTYPE.items():
        if np.dtype(v) == t:
            return k
    raise ValueError((a, b))


def arith(a, b):
    if a in FLOATS or b in FLOATS:
        wide = "f64" in (a, b) or any(t not in FLOATS and t not in SMALL for t in (a, b))
        return "f64" if wide else "f32"
    return "u64" if a[0] == "u" and b[0] == "u" else "i64"


def widen(a):
    if a in FLOATS:
        return a
    return "u64" if a[0] == "u" else "i64"


# ----------------------------------------------------------------- expressions
# Each node has .ty and two renderings: k() for the kernel, r() for the
# reference.  kids() and replace() serve the minimiser.

class E:
    const = False

    def kids(self):
        return []

    def set_kid(self, i, e):
        raise IndexError


class Lit(E):
    const = True

    def __init__(self, v, ty):
        self.v, self.ty = v, ty

    def k(self):
        if self.ty == "i64":
            return "(%d)" % self.v if self.v < 0 else "%d" % self.v
        if self.ty == "f64":
            s = repr(float(self.v))
            return "(%s)" % s if s.startswith("-") else s
        if self.ty == "b":
            return "True" if self.v else "False"
        return "%s(%r)" % (NPNAME[self.ty], self.v)

    def r(self):
        return "%s(%r)" % (NPNAME[self.ty], self.v)


def is_literal(e):
    """A literal Numba prunes a branch on (np.uint8(1) is a call to it)."""
    return isinstance(e, Lit) and e.ty in ("b", "i64", "f64")


class Var(E):
    def __init__(self, name, ty):
        self.name, self.ty = name, ty

    def k(self):
        return self.name

    r = k


class Raw(E):
    """A fixed piece of text in both renderings (thread indices, shapes)."""

    def __init__(self, ktext, rtext, ty):
        self.kt, self.rt, self.ty = ktext, rtext, ty

    def k(self):
        return self.kt

    def r(self):
        return self.rt


class Node(E):
    def __init__(self, *args):
        self.args = list(args)

    def kids(self):
        return self.args

    def set_kid(self, i, e):
        self.args[i] = e

    @property
    def const(self):
        return all(a.const for a in self.args)


class Bin(Node):
    def __init__(self, op, a, b):
        super().__init__(a, b)
        self.op = op
        self.retype()

    def retype(self):
        a, b = self.args[0].ty, self.args[1].ty
        op = self.op
        if op == "/":
            self.ct = arith(a, b) if (a in FLOATS or b in FLOATS) else "f64"
        elif op in ("<<", ">>"):
            self.ct = widen(a)
        elif op == "**" and a in FLOATS and b not in FLOATS:
            self.ct = a
        elif op in ("&", "|", "^") and a == "b" and b == "b":
            self.ct = "b"
        else:
            self.ct = arith(a, b)
        self.ty = self.ct

    npf = None   # a NumPy function of the same meaning (np.add ...) to call instead

    def fma_parts(self):
        """(x, y, z, negate_xy, negate_z) when ptxjit contracts this node."""
        if self.op not in ("+", "-") or self.ty not in FLOATS or self.npf:
            return None
        a, b = self.args
        if isinstance(a, Bin) and a.op == "*" and not a.npf and a.ty == self.ty and not a.const:
            return a.args[0], a.args[1], b, False, self.op == "-"
        if isinstance(b, Bin) and b.op == "*" and not b.npf and b.ty == self.ty and not b.const:
            return b.args[0], b.args[1], a, self.op == "-", False
        return None

    def k(self):
        if self.npf:
            return "%s(%s, %s)" % (self.npf, self.args[0].k(), self.args[1].k())
        return "(%s %s %s)" % (self.args[0].k(), self.op, self.args[1].k())

    def r(self):
        f = self.fma_parts()
        if f:
            x, y, z, nx, nz = f
            xs = "R.unop('-', %s, %r)" % (R_as(x, self.ty), self.ty) if nx else x.r()
            zs = "R.unop('-', %s, %r)" % (R_as(z, self.ty), self.ty) if nz else z.r()
            if z is self.args[0] and has_tick(self):
                # z + x*y: Python evaluates z first
                return "R.fma_r(%s, %s, %s, %r)" % (zs, xs, y.r(), self.ty)
            return "R.fma(%s, %s, %s, %r)" % (xs, y.r(), zs, self.ty)
        return "R.binop(%r, %s, %s, %r)" % (self.op, self.args[0].r(), self.args[1].r(), self.ct)


def R_as(e, t):
    return "R.cast(%s, %r)" % (e.r(), t)


class Un(Node):
    def __init__(self, op, a):
        super().__init__(a)
        self.op = op
        self.ty = widen(a.ty) if a.ty != "b" else "i64"

    def k(self):
        return "(%s%s)" % (self.op, self.args[0].k())

    def r(self):
        return "R.unop(%r, %s, %r)" % (self.op, self.args[0].r(), self.ty)


class Not(Node):
    ty = "b"

    def k(self):
        return "(not %s)" % self.args[0].k()

    def r(self):
        return "np.bool_(not %s)" % self.args[0].r()


class Cmp(Node):
    """a op1 b op2 c ...: chained."""
    ty = "b"

    def __init__(self, ops, *operands):
        super().__init__(*operands)
        self.ops = list(ops)

    def k(self):
        s = self.args[0].k()
        for op, e in zip(self.ops, self.args[1:]):
            s += " %s %s" % (op, e.k())
        return "(%s)" % s

    def r(self):
        parts = []
        held = None   # a middle operand with ticks is evaluated once: held in a variable
        for i, op in enumerate(self.ops):
            a, b = self.args[i], self.args[i + 1]
            ar = held or a.r()
            br = b.r()
            held = None
            code = first_tick(b) if i + 1 < len(self.ops) else None
            if code is not None:
                held = "_cm%d" % code
                br = "(%s := %s)" % (held, br)
            parts.append("R.cmp(%r, %s, %s, %r)" % (op, ar, br, unify(a.ty, b.ty)))
        return "(%s)" % " and ".join(parts) if len(parts) > 1 else parts[0]


class BoolOp(Node):
    """a and b, a or b: Numba prunes the branch on a literal left operand
    (True or x is bool), or on a variable whose one assignment is such a
    literal (known: that literal); gen gives any other left operand that
    either compiler may see as constant the right operand's type (see
    risky())."""

    def __init__(self, op, a, b, known=None):
        super().__init__(a, b)
        self.op = op
        self.known = known
        self.retype()

    def retype(self):
        a, b = self.args
        lit = a if is_literal(a) else self.known
        if lit is not None:
            self.ty = a.ty if bool(lit.v) == (self.op == "or") else b.ty
        else:
            self.ty = unify(a.ty, b.ty)

    def k(self):
        return "(%s %s %s)" % (self.args[0].k(), self.op, self.args[1].k())

    def r(self):
        return "R.cast((%s %s %s), %r)" % (self.args[0].r(), self.op, self.args[1].r(), self.ty)


class IfExp(Node):
    """a if c else b: Numba prunes a branch whose condition is a constant
    before typing (the type is the taken branch's): a literal, or a
    variable assigned once, by a literal (known: that literal; gen then
    never assigns the variable again).  Any other condition that ptxjit or
    Numba may fold (see risky()) gets two branches of one type."""

    def __init__(self, c, a, b, known=None):
        super().__init__(c, a, b)
        self.known = known
        self.retype()

    def retype(self):
        c, a, b = self.args
        lit = c if is_literal(c) else self.known
        if lit is not None:
            self.ty = a.ty if lit.v else b.ty
        else:
            self.ty = unify(a.ty, b.ty)

    def k(self):
        return "(%s if %s else %s)" % (self.args[1].k(), self.args[0].k(), self.args[2].k())

    def r(self):
        return "R.cast((%s if %s else %s), %r)" % (self.args[1].r(), self.args[0].r(), self.args[2].r(), self.ty)


class Cast(Node):
    """np.T(x), int(x) (floats and int64 only), float(x) (not float32), bool(x)."""

    def __init__(self, how, ty, a):
        super().__init__(a)
        self.how, self.ty = how, ty

    def k(self):
        return "%s(%s)" % (self.how, self.args[0].k())

    def r(self):
        return "R.cast(%s, %r)" % (self.args[0].r(), self.ty)


class Call(Node):
    """A call whose reference is R.<rfun>(args..., argtype)."""

    def __init__(self, kname, rfun, ty, at, *args):
        super().__init__(*args)
        self.kname, self.rfun, self.ty, self.at = kname, rfun, ty, at

    def k(self):
        return "%s(%s)" % (self.kname, ", ".join(a.k() for a in self.args))

    def r(self):
        return "R.%s(%s, %r)" % (self.rfun, ", ".join(a.r() for a in self.args), self.at)


class MathCall(Node):
    """math.f(x) with an inexact result: the reference stores the accurate
    value, and the harness compares within the function's ULP bound."""

    def __init__(self, f, t, *args):
        super().__init__(*args)
        self.f, self.ty = f, t

    def k(self):
        return "math.%s(%s)" % (self.f, ", ".join(a.k() for a in self.args))

    def r(self):
        return "R.inexact(%r, [%s], %r)" % (self.f, ", ".join(a.r() for a in self.args), self.ty)


class MinMax(Node):
    npf = None   # np.minimum / np.maximum (two ints of one 64-bit type)

    def __init__(self, which, *args):
        super().__init__(*args)
        self.which = which
        t = args[0].ty
        for a in args[1:]:
            t = unify(t, a.ty)
        self.ty = t

    def k(self):
        return "%s(%s)" % (self.npf or self.which, ", ".join(a.k() for a in self.args))

    def r(self):
        # Numba's CUDA target: min/max of two float32/float64 numbers is fmin/fmax
        fm = self.npf is None and len(self.args) == 2 and all(a.ty in ("f32", "f64") for a in self.args)
        return "R.minmax(%r, [%s], %r%s)" % (self.which, ", ".join(a.r() for a in self.args), self.ty,
                                             ", True" if fm else "")


class DevCall(Node):
    def __init__(self, fn, *args):
        super().__init__(*args)
        self.fn = fn
        self.ty = fn.rty

    def k(self):
        return "%s(%s)" % (self.fn.name, ", ".join(a.k() for a in self.args))

    def r(self):
        return "%s_ref(%s)" % (self.fn.name, ", ".join(a.r() for a in self.args))


class Index(Node):
    """arr[i] or arr[i, j]; the indices are int expressions already reduced
    into range (the generator builds `e % arr.shape[d]`, maybe minus the
    extent for a negative index)."""

    def __init__(self, arr, ty, *idx):
        super().__init__(*idx)
        self.arr, self.ty = arr, ty

    def k(self):
        return "%s[%s]" % (self.arr, ", ".join(a.k() for a in self.args))

    def r(self):
        return "%s[%s]" % (self.arr, ", ".join("int(%s)" % a.r() for a in self.args))


class TupleGet(E):
    def __init__(self, name, i, ty):
        self.name, self.i, self.ty = name, i, ty

    def k(self):
        return "%s[%d]" % (self.name, self.i)

    r = k


class Tick(Node):
    """tick(tlog, tid, code, e): appends code to the thread's log, e's value."""
    const = False

    def __init__(self, code, a):
        super().__init__(a)
        self.code, self.ty = code, a.ty

    def k(self):
        return "tick(tlog, tid, %d, %s)" % (self.code, self.args[0].k())

    def r(self):
        return "R.tick(tlog, tid, %d, %s)" % (self.code, self.args[0].r())


def first_tick(e):
    """The code of the first tick in e (None: none)."""
    if isinstance(e, Tick):
        return e.code
    for k in e.kids():
        c = first_tick(k)
        if c is not None:
            return c
    return None


def has_tick(e):
    return first_tick(e) is not None


# ----------------------------------------------------------------- constants
# Both compilers type only the taken branch of a condition they know at
# compile time, but they know different things.  ptxjit folds any
# expression of constants, variables assigned once included (np.int32(1)
# < 3, bool(v), t[0]); Numba (checked against 0.68) prunes on CPython
# constants and on `x op y` whose operands are constants, each reached
# through variables that have one reaching definition (after SSA: `v =
# True; v = False` prunes on False), and CPython splits `not`, `and`,
# `or` and chained comparisons in a condition into separate jumps, each
# pruned on its own (`x > 1 or v` with v = True never takes the else
# branch).  The generator types the taken branch only where both agree
# for certain: a literal condition, or a variable whose single assignment
# is a literal.  Elsewhere a condition that may be constant to either
# gets two branches of one type.  cvars: the names that have a possibly
# constant assignment so far.

def maybe_const(e, cvars):
    """Whether either compiler may fold e to a constant."""
    if isinstance(e, Lit):
        return True
    if isinstance(e, (Var, TupleGet)):
        return e.name in cvars
    if isinstance(e, (Raw, Index)) or not isinstance(e, Node):
        return False
    if isinstance(e, BoolOp):
        return maybe_const(e.args[0], cvars)
    if isinstance(e, IfExp):
        c, a, b = e.args
        return maybe_const(c, cvars) and (maybe_const(a, cvars) or maybe_const(b, cvars))
    return all(maybe_const(k, cvars) for k in e.args)


def risky(c, cvars):
    """Whether a compiler may prune on c, or on a part of it, as a condition."""
    if maybe_const(c, cvars):
        return True
    if isinstance(c, (Not, Tick)):
        return risky(c.args[0], cvars)
    if isinstance(c, (BoolOp, IfExp)):
        return any(risky(k, cvars) for k in c.args)
    if isinstance(c, Cmp):
        return any(maybe_const(x, cvars) and maybe_const(y, cvars) for x, y in zip(c.args, c.args[1:]))
    return False


# ----------------------------------------------------------------- statements

class S:
    def blocks(self):
        """The statement lists inside (for the minimiser)."""
        return []

    def exprs(self):
        return []


class Assign(S):
    def __init__(self, name, ty, e):
        self.name, self.ty, self.e = name, ty, e

    def lines(self, ind, ref):
        if ref:
            return [ind + "%s = R.cast(%s, %r)" % (self.name, self.e.r(), self.ty)]
        return [ind + "%s = %s" % (self.name, self.e.k())]

    def exprs(self):
        return [self]


class AugAssign(S):
    def __init__(self, name, ty, op, e):
        self.name, self.ty, self.op, self.e = name, ty, op, e

    def lines(self, ind, ref):
        if not ref:
            return [ind + "%s %s= %s" % (self.name, self.op, self.e.k())]
        return [ind + "%s = R.cast(%s, %r)" % (self.name, self.aug_bin().r(), self.ty)]

    def aug_bin(self):
        return Bin(self.op, Var(self.name, self.ty), self.e)

    def exprs(self):
        return [self]


class Store(S):
    """arr[row, col] = e (the store converts to the array's dtype); tcol:
    the code of a tick around the column (evaluated after e)."""
    tcol = None

    def __init__(self, arr, dt, idx, e):
        self.arr, self.dt, self.idx, self.e = arr, dt, idx, e

    def lines(self, ind, ref):
        idx = self.idx
        if self.tcol is not None:
            row, col = idx.rsplit(", ", 1)
            idx = "%s, %s(tlog, tid, %d, %s)" % (row, "R.tick" if ref else "tick", self.tcol, col)
        if ref:
            return [ind + "%s[%s] = R.cast(%s, %r)" % (self.arr, idx, self.e.r(), self.dt)]
        return [ind + "%s[%s] = %s" % (self.arr, idx, self.e.k())]

    def exprs(self):
        return [self]


class LocalStore(S):
    def __init__(self, arr, dt, idx, e):
        self.arr, self.dt, self.idx, self.e = arr, dt, idx, e

    def lines(self, ind, ref):
        if ref:
            return [ind + "%s[int(%s)] = R.cast(%s, %r)" % (self.arr, self.idx.r(), self.e.r(), self.dt)]
        return [ind + "%s[%s] = %s" % (self.arr, self.idx.k(), self.e.k())]

    def exprs(self):
        return [self]


class AugLocalStore(S):
    """la[idx] op= e on a local array: Python evaluates idx (once), loads
    the element, then evaluates e; the result converts to the dtype.  tmp:
    the reference's variable for the index."""

    def __init__(self, arr, dt, idx, op, e, tmp):
        self.arr, self.dt, self.idx, self.op, self.e, self.tmp = arr, dt, idx, op, e, tmp

    def aug_bin(self):
        cur = "%s[%s]" % (self.arr, self.tmp)
        return Bin(self.op, Raw(cur, cur, self.dt), self.e)

    def lines(self, ind, ref):
        if ref:
            return [ind + "%s = int(%s)" % (self.tmp, self.idx.r()),
                    ind + "%s[%s] = R.cast(%s, %r)" % (self.arr, self.tmp, self.aug_bin().r(), self.dt)]
        return [ind + "%s[%s] %s= %s" % (self.arr, self.idx.k(), self.op, self.e.k())]

    def exprs(self):
        return [self]


class Text(S):
    """A line that is the same in both renderings (or given twice)."""

    def __init__(self, ktext, rtext=None):
        self.kt, self.rt = ktext, ktext if rtext is None else rtext

    def lines(self, ind, ref):
        t = self.rt if ref else self.kt
        return [ind + x for x in t.split("\n")] if t else []


class TupleAssign(S):
    """t = (e1, e2, ...)  or  a, b = e1, e2 (names given)."""

    def __init__(self, names, tys, es, packed):
        self.names, self.tys, self.es, self.packed = names, tys, es, packed

    def lines(self, ind, ref):
        if ref:
            vals = ", ".join("R.cast(%s, %r)" % (e.r(), t) for e, t in zip(self.es, self.tys))
        else:
            vals = ", ".join(e.k() for e in self.es)
        if self.packed:
            return [ind + "%s = (%s,)" % (self.names[0], vals)]
        return [ind + "%s = %s" % (", ".join(self.names), vals)]

    def exprs(self):
        return [_ExprList(self.es)]


class _ExprList:
    def __init__(self, es):
        self.es = es


class If(S):
    def __init__(self, arms, orelse):
        self.arms, self.orelse = arms, orelse  # arms: [(cond, body)]

    def lines(self, ind, ref):
        out = []
        for i, (c, body) in enumerate(self.arms):
            out.append(ind + ("if " if i == 0 else "elif ") + (c.r() if ref else c.k()) + ":")
            out += body_lines(body, ind + "    ", ref)
        if self.orelse:
            out.append(ind + "else:")
            out += body_lines(self.orelse, ind + "    ", ref)
        return out

    def blocks(self):
        return [b for _, b in self.arms] + ([self.orelse] if self.orelse else [])


class For(S):
    def __init__(self, var, bounds, body):
        self.var, self.bounds, self.body = var, bounds, body
        # i is int64, uint64 when any bound is
        self.ty = "u64" if any(b.ty == "u64" for b in bounds) else "i64"

    def lines(self, ind, ref):
        if ref:
            bs = ", ".join("int(%s)" % b.r() for b in self.bounds)
            out = [ind + "for %s in range(%s):" % (self.var, bs),
                   ind + "    %s = R.cast(%s, %r)" % (self.var, self.var, self.ty)]
        else:
            out = [ind + "for %s in range(%s):" % (self.var, ", ".join(b.k() for b in self.bounds))]
        return out + body_lines(self.body, ind + "    ", ref)

    def blocks(self):
        return [self.body]


class While(S):
    """cnt = 0; while cnt < bound: cnt += 1; body (break/continue inside)."""

    def __init__(self, cnt, bound, body):
        self.cnt, self.bound, self.body = cnt, bound, body

    def lines(self, ind, ref):
        if ref:
            return ([ind + "%s = np.int64(0)" % self.cnt,
                     ind + "while %s < %d:" % (self.cnt, self.bound),
                     ind + "    %s = np.int64(%s + 1)" % (self.cnt, self.cnt)]
                    + body_lines(self.body, ind + "    ", ref))
        return ([ind + "%s = 0" % self.cnt, ind + "while %s < %d:" % (self.cnt, self.bound),
                 ind + "    %s += 1" % self.cnt] + body_lines(self.body, ind + "    ", ref))

    def blocks(self):
        return [self.body]


class Jump(S):
    """if c: break / continue"""

    def __init__(self, c, what):
        self.c, self.what = c, what

    def lines(self, ind, ref):
        return [ind + "if %s:" % (self.c.r() if ref else self.c.k()), ind + "    " + self.what]


class Return(S):
    def __init__(self, e, ty):
        self.e, self.ty = e, ty

    def lines(self, ind, ref):
        if ref:
            return [ind + "return R.cast(%s, %r)" % (self.e.r(), self.ty)]
        return [ind + "return %s" % self.e.k()]

    def exprs(self):
        return [self]


class Dyadic(Node):
    """T((np.int64(x) % 257 - 128) * scale): a float of type T that is a
    small multiple of a power of two, so that sums of a few hundred of
    them are exact in any order (the float atomics' operands).  Only x is
    a child: the minimiser cannot widen the range."""

    def __init__(self, x, ty, scale):
        super().__init__(x)
        self.ty, self.scale = ty, scale

    def k(self):
        return "%s((np.int64(%s) %% 257 - 128) * %r)" % (NPNAME[self.ty], self.args[0].k(), self.scale)

    def r(self):
        return ("R.cast(R.binop('*', R.binop('-', R.binop('%%', R.cast(%s, 'i64'), np.int64(257), 'i64'), "
                "np.int64(128), 'i64'), np.float64(%r), 'f64'), %r)" % (self.args[0].r(), self.scale, self.ty))


WARP_CALL = {"shfl": "shfl_sync", "up": "shfl_up_sync", "down": "shfl_down_sync", "xor": "shfl_xor_sync",
             "all": "all_sync", "any": "any_sync", "eq": "eq_sync", "ballot": "ballot_sync",
             "match_any": "match_any_sync", "match_all": "match_all_sync"}


class Warp(S):
    """names = cuda.<op>_sync(0xffffffff, e[, idx]) at the top level of a
    "comm" kernel, where every lane of every (full) warp reaches it.  The
    reference yields ('warp', (op, type, value, lane operand)) and the
    harness answers each lane with refrt.warp_op's result."""

    def __init__(self, names, op, t, e, idx=None):
        self.names, self.op, self.t, self.e, self.idx = names, op, t, e, idx
        self.assigns = names

    def lines(self, ind, ref):
        tgt = ", ".join(self.names)
        if ref:
            v = "np.bool_(bool(%s))" % self.e.r() if self.t == "b" else "R.cast(%s, %r)" % (self.e.r(), self.t)
            lane = "int(%s)" % self.idx.r() if self.idx is not None else "0"
            return [ind + "%s = yield ('warp', (%r, %r, %s, %s))" % (tgt, self.op, self.t, v, lane)]
        args = [self.e.k()] + ([self.idx.k()] if self.idx is not None else [])
        return [ind + "%s = cuda.%s(0xffffffff, %s)" % (tgt, WARP_CALL[self.op], ", ".join(args))]

    def exprs(self):
        return [self]


class Atom(S):
    """cuda.atomic.<op>(arr, slot, e) whose final value does not depend on
    the order of the threads (the operands make it so: see make_fatom)."""

    def __init__(self, op, arr, t, slot, e):
        self.op, self.arr, self.t, self.slot, self.e = op, arr, t, slot, e

    def lines(self, ind, ref):
        if ref:
            return [ind + "ATOM(%r, %d, R.cast(%s, %r), %s)" % (self.op, self.slot, self.e.r(), self.t, self.arr)]
        return [ind + "cuda.atomic.%s(%s, %d, %s)" % (self.op, self.arr, self.slot, self.e.k())]

    def exprs(self):
        return [self]


class CasAdd(S):
    """arr[slot] += e by a compare-and-swap loop (cuda.atomic.cas, or
    compare_and_swap on slot 0): an atomic add in the reference."""

    def __init__(self, arr, t, slot, e, names, cas2):
        self.arr, self.t, self.slot, self.e, self.names, self.cas2 = arr, t, slot, e, names, cas2
        self.assigns = names

    def lines(self, ind, ref):
        if ref:
            return [ind + "ATOM('add', %d, R.cast(%s, %r), %s)" % (self.slot, self.e.r(), self.t, self.arr)]
        x, c, p, w = self.names
        T = NPNAME[self.t]
        new = "%s(%s + %s)" % (T, c, x)
        call = "cuda.atomic.compare_and_swap(%s, %s, %s)" % (self.arr, c, new) if self.cas2 else \
            "cuda.atomic.cas(%s, %d, %s, %s)" % (self.arr, self.slot, c, new)
        L = ["%s = %s" % (x, self.e.k()), "%s = %s(0)" % (c, T), "%s = 0" % w,
             "while %s < 1000000:" % w, "    %s += 1" % w, "    %s = %s" % (p, call),
             "    if %s == %s:" % (p, c), "        break", "    %s = %s" % (c, p)]
        return [ind + ln for ln in L]

    def exprs(self):
        return [self]


def fma_factor(e):
    """e is a float product (it contracts as an operand of + or -)."""
    return isinstance(e, Bin) and e.op == "*" and e.ty in FLOATS and not e.npf


NPFUN = {("+", True): "np.add", ("-", True): "np.subtract", ("*", True): "np.multiply",
         ("/", True): "np.divide", ("+", False): "np.add", ("-", False): "np.subtract",
         ("*", False): "np.multiply", ("&", False): "np.bitwise_and", ("|", False): "np.bitwise_or",
         ("^", False): "np.bitwise_xor"}
TLOG_COLS = 65   # tlog: a call count and up to 64 codes per thread

# The extra classes (gen_<name>.py, see Program.make_extras), and those a
# program draws unless told otherwise (DIFFTEST_EXTRAS=ufunc,cmath,...
# chooses others; run.py --extra and --focus likewise).
EXTRAS = ("ufunc", "cmath", "overload", "nfkc")
DEFAULT_EXTRAS = frozenset(EXTRAS)
if os.environ.get("DIFFTEST_EXTRAS") is not None:
    DEFAULT_EXTRAS = frozenset(x for x in os.environ["DIFFTEST_EXTRAS"].split(",") if x)


def top_exprs(s):
    """(get, put) of each expression of statement s itself."""
    out = []
    for a in ("e", "c", "idx"):
        if isinstance(getattr(s, a, None), E):
            out.append((lambda a=a: getattr(s, a), lambda x, a=a: setattr(s, a, x)))
    if isinstance(s, For):
        out += [(lambda i=i: s.bounds[i], lambda x, i=i: s.bounds.__setitem__(i, x)) for i in range(len(s.bounds))]
    if isinstance(s, TupleAssign):
        out += [(lambda i=i: s.es[i], lambda x, i=i: s.es.__setitem__(i, x)) for i in range(len(s.es))]
    if isinstance(s, If):
        out += [(lambda i=i: s.arms[i][0], lambda x, i=i: s.arms.__setitem__(i, (x, s.arms[i][1])))
                for i in range(len(s.arms))]
    return out


def walk_stmts(s, f):
    f(s)
    for b in s.blocks():
        for t in b:
            walk_stmts(t, f)


def stmt_exprs(s):
    """The expressions of statement s itself (not of the statements inside)."""
    out = [getattr(s, a) for a in ("e", "c", "idx") if isinstance(getattr(s, a, None), E)]
    if isinstance(s, For):
        out += s.bounds
    if isinstance(s, TupleAssign):
        out += s.es
    if isinstance(s, If):
        out += [c for c, _ in s.arms]
    return out


def assigned(s):
    """(name, values, plain) for each name statement s assigns: the name
    may be constant when one of the values may; plain: `name = value`."""
    if isinstance(s, Assign):
        return [(s.name, [s.e], True)]
    if isinstance(s, AugAssign):
        return [(s.name, [Bin(s.op, Var(s.name, s.ty), s.e)], False)]
    if isinstance(s, TupleAssign):
        if s.packed:
            return [(s.names[0], s.es, False)]
        return [(n, [e], False) for n, e in zip(s.names, s.es)]
    if isinstance(s, For):
        return [(s.var, [], False)]
    if isinstance(s, While):
        return [(s.cnt, [], False), (s.cnt, [], False)]
    return [(n, [], False) for n in getattr(s, "assigns", ())]


def walk_program(p, visit_stmt):
    """visit_stmt(s, cvars) for every statement in textual order (device
    functions first), cvars: the names with a possibly constant assignment
    before s (see risky)."""
    cvars = set()

    def walk(s):
        visit_stmt(s, cvars)
        for name, es, plain in assigned(s):
            if any(maybe_const(e, cvars) for e in es):
                cvars.add(name)
        for b in s.blocks():
            for t in b:
                walk(t)
    for fn in p.devs:
        for s in fn.body:
            walk(s)
    for s in p.body:
        walk(s)


def ambiguous_fma(b, cvars):
    """b contracts into an fma in the reference, but its product may be
    folded at compile time (factors that are constants through variables):
    then ptxjit rounds the product on its own, as LLVM does."""
    f = b.fma_parts() if isinstance(b, Bin) else None
    if not f:
        return False
    prod = b.args[0] if f[2] is b.args[1] else b.args[1]
    return maybe_const(prod, cvars) and not prod.const


def settle_fma(p, only=None):
    """Turns x*y + z whose product may be a constant into x*y * z (same
    types), so that whether it contracts does not matter (only: the ids
    of the statements to change, None: all)."""
    def fix(e, cvars):
        for k in e.kids():
            fix(k, cvars)
        if ambiguous_fma(e, cvars):
            e.op = "*"
            e.retype()

    def visit(s, cvars):
        if only is not None and id(s) not in only:
            return
        for e in stmt_exprs(s):
            fix(e, cvars)
        if isinstance(s, (AugAssign, AugLocalStore)) and ambiguous_fma(s.aug_bin(), cvars):
            s.op = "*"
    walk_program(p, visit)


def body_lines(body, ind, ref):
    out = []
    for s in body:
        out += s.lines(ind, ref)
    return out or [ind + "pass"]


# ----------------------------------------------------------------- programs

class DevFn:
    def __init__(self, name, params, body, rty):
        self.name, self.params, self.body, self.rty = name, params, body, rty


class Arg:
    """An input argument: an array (dtype, layout) or a scalar."""

    def __init__(self, name, kind, ty, shape=None, layout=None, readonly=False):
        self.name, self.kind, self.ty = name, kind, ty
        self.shape, self.layout, self.readonly = shape, layout, readonly


CLAMP = {"i8": (-100, 100), "u8": (0, 200), "i16": (-30000, 30000), "u16": (0, 60000),
         "i32": (-1e9, 1e9), "u32": (0, 4e9), "i64": (-1e18, 1e18), "u64": (0, 1e19)}


def clamp(e, t):
    """max(lo, min(hi, e)): e in the range of int type t, NaN going to hi
    (Python's min and max keep the first operand unless another is
    strictly better), so converting the result to t is defined."""
    lo, hi = CLAMP[t]
    return MinMax("max", Lit(float(lo), "f64"), MinMax("min", Lit(float(hi), "f64"), e))


class Program:
    """One generated kernel program.  mode: 'pure' (threads independent:
    compared per thread) or 'comm' (shared memory, barriers, atomics:
    compared by invariants, with a lock-step reference)."""

    def __init__(self, seed, mode=None, ticks=True, extras=None, focus=None):
        self.seed = seed
        self.extras = set(DEFAULT_EXTRAS if extras is None else extras) | ({focus} if focus else set())
        self.focus = focus
        self.xexpr = None     # an extra class's expression hook (see make_extras)
        self.xdevs = []       # device functions with explicit signatures (gen_overload)
        self.xin = []         # extra read-only inputs: (name, type, values)
        self.xglobals = []    # module-level lines before the kernel (gen_nfkc)
        self.xrename = None   # the kernel text's renaming pass (gen_nfkc)
        self.drawn = []       # the extra classes this program drew
        self.rnd = random.Random(seed)
        r = self.rnd
        # evaluation-order ticks: a generator of their own (see the docstring)
        self.trnd = random.Random("tick-%d" % seed)
        self.tick_p = self.trnd.choice((0.04, 0.08, 0.15)) if ticks and self.trnd.random() < 0.7 else 0.0
        self.ncode = 0        # tick codes used
        self.ntmp = 0         # the reference's temporaries
        self.mode = mode or ("comm" if r.random() < 0.25 else "pure")
        self.nvar = 0
        self.in_dev = False
        self.nest = 0
        self.devs = []
        self.args = []
        self.mslots = []      # out_m columns: (func, float type)
        self.cv = {}          # name -> "lit" (one assignment, a literal) or "maybe" (see risky)
        self.cvlit = {}       # name -> its literal, for "lit"
        self.nas = {}         # name -> assignments so far
        self.pinned = set()   # "lit" names a pruned branch depends on: never assigned again
        self.extra = []       # more arrays after the arguments: (name, type, columns, "acc"|"out")
        self.wcols = {}       # out_wi / out_wf: columns used
        self.ncols = r.choice((2, 3, 4))
        self.sdt = r.choice(TYPES)   # dtype of out_s
        self.grid2 = self.mode == "pure" and r.random() < 0.2
        if self.mode == "comm":
            self.tpb = r.choice((32, 64))
            self.blocks = r.choice((1, 2, 3))
        elif self.grid2:
            self.tpb = r.choice(((8, 4), (16, 2), (4, 4)))
            self.blocks = r.choice(((2, 1), (1, 2), (2, 2)))
        else:
            self.tpb = r.choice((32, 64, 40))
            self.blocks = r.choice((1, 2))
        nthreads = self.nthreads()
        self.rows = nthreads - (r.choice((0, 0, 3)) if not self.grid2 else 0)
        self.make_args()
        self.budget = r.randint(6, 22)
        self.body = []
        self.comm = []
        for _ in range(r.choice((0, 0, 1, 2))):
            self.make_dev()
        self.make_body()
        settle_fma(self)
        if self.tick_p:
            self.add_ticks()
        self.make_extras()

    def nthreads(self):
        if self.grid2:
            return self.tpb[0] * self.tpb[1] * self.blocks[0] * self.blocks[1]
        return self.tpb * self.blocks

    # ---------------------------------------------------------- arguments

    def make_args(self):
        r = self.rnd
        for i in range(r.randint(1, 4)):
            dt = r.choice(TYPES)
            lay = r.choice(("1C", "1C", "2C", "2F", "1S", "2S", "1R"))
            n = r.randint(1, 40)
            shape = (n,) if lay[0] == "1" else (r.randint(1, 7), r.randint(1, 7))
            self.args.append(Arg("a%d" % i, "array", dt, shape, lay, readonly=r.random() < 0.2))
        for i in range(r.randint(0, 3)):
            self.args.append(Arg("s%d" % i, "scalar", r.choice(("i64", "f64", "f32", "i32", "u8", "u64",
                                                                "b", "i16"))))

    def note(self, name, e, plain=True):
        """An assignment name = e (e None: not constant)."""
        n = self.nas[name] = self.nas.get(name, 0) + 1
        if e is not None and maybe_const(e, self.cv):
            lit = plain and n == 1 and is_literal(e)
            self.cv[name] = "lit" if lit else "maybe"
            if lit:
                self.cvlit[name] = e
        elif name in self.cv:
            self.cv[name] = "maybe"

    def known(self, c, a, b):
        """The literal that decides condition c for both compilers, when
        the branches a, b differ in type and c is a variable assigned once
        by a literal (which then stays its only assignment)."""
        if a.ty != b.ty and isinstance(c, Var) and self.cv.get(c.name) == "lit":
            self.pinned.add(c.name)
            return self.cvlit[c.name]
        return None

    def fresh(self, p="v"):
        self.nvar += 1
        return "%s%d" % (p, self.nvar)

    # ---------------------------------------------------------- expressions

    def lit(self, ty):
        r = self.rnd
        if ty == "b":
            return Lit(r.random() < 0.5, "b")
        if ty in FLOATS:
            v = r.choice((0.0, 0.5, 1.0, 2.0, -1.5, 3.25, 0.1, 1e10, 1e-3, -7.0, 100.0, 0.3333, 65504.0,
                          1e30, 2.5))
            return Lit(v, ty)
        if ty == "i64":
            v = r.choice((0, 1, 2, 3, 5, 7, -1, -2, -8, 100, 255, 127, -128, 65535, 2147483647,
                          -2147483648, 4294967296, 9223372036854775807, 12345678901, -3))
            return Lit(v, "i64")
        lo, hi = (0, (1 << int(ty[1:])) - 1) if ty[0] == "u" else (-(1 << (int(ty[1:]) - 1)),
                                                                       (1 << (int(ty[1:]) - 1)) - 1)
        v = r.choice((0, 1, 2, 3, 7, lo, hi, hi // 2, lo + 1))
        return Lit(v, ty)

    def leaf(self, scope, want):
        r = self.rnd
        cands = []
        vs = [(n, t) for n, t in scope.items() if self.fits(t, want)]
        if vs:
            cands += ["var"] * 4
        arrs = [a for a in self.args if a.kind == "array" and self.fits(a.ty, want)] \
            if self.nest < 2 else []
        if arrs:
            cands += ["arr"] * 2
        scal = [a for a in self.args if a.kind == "scalar" and self.fits(a.ty, want)]
        if scal:
            cands += ["scal"]
        if want in ("int", "num", "any") and not self.in_dev:
            cands += ["tid", "sreg"]
        cands += ["lit"] * 2
        c = r.choice(cands)
        if c == "var":
            n, t = r.choice(vs)
            if isinstance(t, tuple):
                i = r.randrange(len(t))
                return TupleGet(n, i, t[i])
            return Var(n, t)
        if c == "arr":
            return self.index(r.choice(arrs), scope)
        if c == "scal":
            a = r.choice(scal)
            return Var(a.name, a.ty)
        if c == "tid":
            return Var("tid", "i64")
        if c == "sreg":
            if self.grid2:
                k = r.choice(("threadIdx.x", "threadIdx.y", "blockIdx.x", "blockIdx.y", "blockDim.x"))
            else:
                k = r.choice(("threadIdx.x", "blockIdx.x", "blockDim.x"))
            rv = {"threadIdx.x": "T.tx", "threadIdx.y": "T.ty", "blockIdx.x": "T.bx", "blockIdx.y": "T.by",
                  "blockDim.x": "T.bdx"}[k]
            return Raw("cuda." + k, "R.sr(%s)" % rv, "i32")
        ty = {"int": r.choice(INTS), "float": r.choice(FLOATS), "bool": "b"}.get(want) or r.choice(TYPES)
        return self.lit(ty)

    @staticmethod
    def fits(t, want):
        if isinstance(t, tuple):
            return any(Program.fits(x, want) for x in t)
        if want == "any":
            return True
        if want == "num":
            return t != "b"
        if want == "int":
            return t in INTS
        if want == "float":
            return t in FLOATS
        if want == "bool":
            return t == "b"
        return t == want

    def int_index(self, scope, extent_k, extent_r, neg=False):
        """An int expression in [0, extent) (or [-extent, 0) when neg)."""
        e = self.expr(scope, 1, "int")
        m = Bin("%", e, Raw(extent_k, "np.int64(%s)" % extent_r, "i64"))
        if neg:
            m = Bin("-", m, Raw(extent_k, "np.int64(%s)" % extent_r, "i64"))
        return m

    def index(self, a, scope):
        self.nest += 1
        try:
            return self._index(a, scope)
        finally:
            self.nest -= 1

    def _index(self, a, scope):
        r = self.rnd
        neg = r.random() < 0.2
        if len(a.shape) == 1:
            ext = r.choice(("%s.shape[0]" % a.name, "%s.size" % a.name, "len(%s)" % a.name))
            return Index(a.name, a.ty, self.int_index(scope, ext, "%s.shape[0]" % a.name, neg))
        return Index(a.name, a.ty,
                     self.int_index(scope, "%s.shape[0]" % a.name, "%s.shape[0]" % a.name, neg),
                     self.int_index(scope, "%s.shape[1]" % a.name, "%s.shape[1]" % a.name))

    def expr(self, scope, depth, want="any"):
        """A random expression of the class want (any, num, int, float, bool)."""
        r = self.rnd
        if self.xexpr is not None and depth > 0:
            e = self.xexpr(self, scope, depth, want)
            if e is not None:
                return e
        if depth <= 0 or r.random() < 0.25:
            e = self.leaf(scope, want)
            return self.coerce(e, want)
        kinds = {"any": ["bin", "bin", "bin", "cmp", "un", "cast", "call", "ifexp", "boolop", "minmax", "dev"],
                 "num": ["bin", "bin", "bin", "un", "cast", "call", "ifexp", "minmax", "dev"],
                 "int": ["bin", "bin", "bin", "un", "cast", "call", "ifexp", "minmax", "dev"],
                 "float": ["bin", "bin", "bin", "un", "cast", "call", "ifexp", "minmax", "dev"],
                 "bool": ["cmp", "cmp", "not", "boolop", "call"]}[want]
        k = r.choice(kinds)
        d = depth - 1
        if k == "bin":
            if want == "int" or (want in ("any", "num") and r.random() < 0.5):
                op = r.choice(("+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>", "**", "+", "-", "*"))
                a = self.expr(scope, d, "int")
                if op in ("<<", ">>"):
                    b = Bin("&", self.expr(scope, d, "int"), Lit(r.choice((7, 15, 31, 63)), "i64"))
                elif op == "**":
                    b = Lit(r.randint(0, 4), "i64") if r.random() < 0.5 else \
                        Bin("&", self.expr(scope, d, "int"), Lit(3, "i64"))
                else:
                    b = self.expr(scope, d, "int")
                e = Bin(op, a, b)
            else:
                op = r.choice(("+", "-", "*", "/", "+", "*", "-", "//", "%", "**"))
                a = self.expr(scope, d, "float")
                if op == "**":
                    e = Bin(op, a, Lit(r.choice((0, 1, 2, 3, 4, -1, -2)), "i64") if r.random() < 0.7
                            else Bin("&", self.expr(scope, d, "int"), Lit(3, "i64")))
                else:
                    b = self.expr(scope, d, r.choice(("float", "float", "num")))
                    if r.random() < 0.5:
                        a, b = b, a
                    if op in ("+", "-") and r.random() < 0.5:
                        # a contractible multiply
                        m = Bin("*", self.expr(scope, d, "float"), self.expr(scope, d, "float"))
                        a = m
                    e = Bin(op, a, b)
                    if e.ty not in FLOATS:  # num operands may both be ints
                        e = Bin(op, Cast("float", "f64", a), b)
            return self.coerce(e, want)
        if k == "cmp":
            n = 2 if r.random() < 0.8 else 3
            w = r.choice(("num", "int", "float"))
            ops = [r.choice(("<", "<=", ">", ">=", "==", "!=")) for _ in range(n - 1)]
            return self.coerce(Cmp(ops, *[self.expr(scope, d, w) for _ in range(n)]), want)
        if k == "not":
            return Not(self.expr(scope, d, r.choice(("bool", "num"))))
        if k == "boolop":
            w = "bool" if want == "bool" or r.random() < 0.5 else r.choice(("int", "float"))
            a, b = self.expr(scope, d, w), self.expr(scope, d, w)
            known = self.known(a, a, b)
            if known is None and not is_literal(a) and (a.const or risky(a, self.cv)):
                b = self.coerce_exact(b, a.ty)
            return self.coerce(BoolOp(r.choice(("and", "or")), a, b, known), want)
        if k == "un":
            a = self.expr(scope, d, "num" if want == "any" else want)
            ops = ["-", "+"] + (["~"] if a.ty in INTS else [])
            return self.coerce(Un(r.choice(ops), a), want)
        if k == "cast":
            a = self.expr(scope, d, "num" if r.random() < 0.8 else "bool")
            choices = []
            if want in ("any", "num", "int"):
                choices += [("np", t) for t in INTS]
                if a.ty in FLOATS or a.ty == "i64":
                    choices.append(("int", "i64"))
            if want in ("any", "num", "float"):
                choices += [("np", "f32"), ("np", "f64")]
                if a.ty != "f32":
                    choices.append(("float", "f64"))
            how, t = r.choice(choices)
            if a.ty in FLOATS and t in INTS:
                a = clamp(a, t)
            return self.coerce(Cast(NPNAME[t] if how == "np" else how, t, a), want)
        if k == "ifexp":
            w = want if want != "any" else r.choice(("int", "float", "num"))
            c, a, b = self.expr(scope, d, "bool"), self.expr(scope, d, w), self.expr(scope, d, w)
            known = self.known(c, a, b)
            if known is None and not is_literal(c) and (c.const or risky(c, self.cv)):
                b = self.coerce_exact(b, a.ty)
            return self.coerce(IfExp(c, a, b, known), want)
        if k == "minmax":
            w = want if want != "any" else r.choice(("int", "float", "num"))
            n = 2 if r.random() < 0.8 else 3
            return self.coerce(MinMax(r.choice(("min", "max")), *[self.expr(scope, d, w) for _ in range(n)]), want)
        if k == "dev" and self.devs:
            fn = r.choice(self.devs)
            args = [self.coerce_exact(self.expr(scope, d, "num"), t) for _, t in fn.params]
            return self.coerce(DevCall(fn, *args), want)
        # a math call with an exact result
        if want == "bool":
            a = self.expr(scope, d, "float")
            f = r.choice(("isnan", "isinf", "isfinite"))
            return Call("math." + f, "m" + f, "b", a.ty, a)
        c = r.choice(("floor", "ceil", "trunc", "sqrt", "fabs", "copysign", "abs", "round"))
        if c == "abs":
            a = self.expr(scope, d, "num" if want == "any" else want)
            return self.coerce(Call("abs", "absval", a.ty, a.ty, a), want)
        a = self.expr(scope, d, "float")
        if c in ("floor", "ceil", "trunc"):
            # numba-cuda: the rounding functions return floats (libdevice)
            return self.coerce(Call("math." + c, "m" + c, a.ty, a.ty, a), want)
        if c == "round":
            return self.coerce(Call("round", "pyround", "i64", "f64", clamp(a, "i64")), want)
        if c == "copysign":
            b = self.coerce_exact(self.expr(scope, d, "float"), a.ty)
            return self.coerce(Call("math.copysign", "mcopysign", a.ty, a.ty, a, b), want)
        if c == "sqrt" and r.random() < 0.3:
            a = self.expr(scope, d, "int")
            return self.coerce(Call("math.sqrt", "msqrt", "f64", "f64", a), want)
        return self.coerce(Call("math." + c, "m" + c, a.ty, a.ty, a), want)

    def coerce(self, e, want):
        """e, converted if its type is not of class want."""
        if self.fits(e.ty, want):
            return e
        r = self.rnd
        if want == "bool":
            if r.random() < 0.5:
                return Cmp([r.choice(("<", ">", "==", "!="))], e, self.lit(e.ty if e.ty != "b" else "i64"))
            return Cast("bool", "b", e)
        if want == "int":
            if e.ty in FLOATS:
                t = r.choice(INTS)
                if r.random() < 0.2:
                    return Cast("int", "i64", clamp(e, "i64"))
                return Cast(NPNAME[t], t, clamp(e, t))
            return Cast(NPNAME[t], t, e) if (t := r.choice(INTS)) else e
        if want == "float":
            t = r.choice(FLOATS)
            return Cast(NPNAME[t], t, e)
        if want == "num":
            return Cast(NPNAME["i64"], "i64", e)
        return e

    def coerce_exact(self, e, t):
        if e.ty == t:
            return e
        if e.ty in FLOATS and t in INTS:
            e = clamp(e, t)
        return Cast(NPNAME[t], t, e)

    # ---------------------------------------------------------- statements

    def stmts(self, scope, depth, n, in_loop, out):
        r = self.rnd
        for _ in range(n):
            if self.budget <= 0:
                return
            self.budget -= 1
            k = r.choice(["assign"] * 5 + ["aug"] * 2 + ["store"] * 3 + ["if"] * 2 + ["for"] * 2 +
                         ["while"] + ["tuple"] + ["local"] + (["jump"] if in_loop else []) +
                         ["math"] + ["reassign"] * 2)
            if self.in_dev and k in ("store", "math"):
                k = "assign"
            if depth >= 3 and k in ("if", "for", "while"):
                k = "assign"
            getattr(self, "st_" + k)(scope, depth, in_loop, out)

    def st_assign(self, scope, depth, in_loop, out):
        e = self.expr(scope, self.rnd.randint(1, 3))
        n = self.fresh()
        out.append(Assign(n, e.ty, e))
        self.note(n, e)
        scope[n] = e.ty

    def st_reassign(self, scope, depth, in_loop, out):
        vs = [(n, t) for n, t in scope.items() if not isinstance(t, tuple) and n[0] == "v"]
        if not vs:
            return self.st_assign(scope, depth, in_loop, out)
        n, t = self.rnd.choice(vs)
        e = self.expr(scope, self.rnd.randint(1, 3))
        if e.ty != t:
            # the value of each assignment has the variable's type: as in
            # Numba, a straight-line reassignment is a variable of its own
            # type, which meets the others' only at joins
            e = self.coerce_exact(e, t)
        if n in self.pinned:
            # keeps its one assignment: the value goes to a new variable
            n, t = self.fresh(), e.ty
        out.append(Assign(n, t, e))
        self.note(n, e)

    def st_aug(self, scope, depth, in_loop, out):
        vs = [(n, t) for n, t in scope.items() if not isinstance(t, tuple) and n[0] == "v" and t != "b"]
        if not vs:
            return self.st_assign(scope, depth, in_loop, out)
        n, t = self.rnd.choice(vs)
        for _ in range(6):
            op = self.rnd.choice(("+", "-", "*", "//", "%", "&", "|", "^", "+", "-"))
            if t in FLOATS:
                op = self.rnd.choice(("+", "-", "*", "/", "+", "-"))
            e = self.expr(scope, 2, "num")
            if op in ("+", "-") and t in FLOATS and self.rnd.random() < 0.4:
                e = Bin("*", self.expr(scope, 1, "float"), self.expr(scope, 1, "float"))
            if op in ("&", "|", "^") and e.ty not in INTS:
                continue
            b = Bin(op, Var(n, t), e)
            if unify(t, b.ty) == t:
                # x op= y*z contracts when the product has the result's type
                if n in self.pinned:
                    m = self.fresh()
                    out.append(Assign(m, b.ty, b))
                    self.note(m, b)
                    return
                out.append(AugAssign(n, t, op, e))
                self.note(n, b)
                return
        self.st_assign(scope, depth, in_loop, out)

    def st_store(self, scope, depth, in_loop, out):
        r = self.rnd
        arr = r.choice(("out_i", "out_f", "out_s"))
        dt = {"out_i": "i64", "out_f": "f64", "out_s": self.sdt}[arr]
        e = self.expr(scope, r.randint(1, 3), "int" if arr == "out_i" else "num")
        if dt in INTS and e.ty in FLOATS:
            e = self.coerce(e, "int")
        out.append(Store(arr, dt, "tid, %d" % r.randrange(self.ncols), e))

    def st_math(self, scope, depth, in_loop, out):
        """out_m[tid, k] = math.f(x): compared within the function's bound."""
        r = self.rnd
        if len(self.mslots) >= 4:
            return self.st_store(scope, depth, in_loop, out)
        t = r.choice(FLOATS)
        if r.random() < 0.75:
            f = r.choice(INEXACT1)
            a = self.coerce_exact(self.expr(scope, 2, "float"), t)
            if f in ("lgamma", "gamma"):
                a = Call("math.fabs", "mfabs", t, t, a)
            args = [a]
        else:
            f = r.choice(INEXACT2)
            args = [self.coerce_exact(self.expr(scope, 2, "float"), t) for _ in range(2)]
        k = len(self.mslots)
        self.mslots.append((f, t))
        out.append(Store("out_m", "f64", "tid, %d" % k, MathCall(f, t, *args)))

    def st_if(self, scope, depth, in_loop, out):
        r = self.rnd
        arms = []
        for _ in range(r.choice((1, 1, 2, 3))):
            c = self.expr(scope, 2, "bool")
            body = []
            self.stmts(dict(scope), depth + 1, r.randint(1, 3), in_loop, body)
            arms.append((c, body))
        orelse = []
        if r.random() < 0.5:
            self.stmts(dict(scope), depth + 1, r.randint(1, 3), in_loop, orelse)
        out.append(If(arms, orelse))

    def st_for(self, scope, depth, in_loop, out):
        r = self.rnd
        lo = self.expr(scope, 1, "int")
        span = Bin("%", self.expr(scope, 1, "int"), Lit(r.choice((3, 4, 5)), "i64"))
        kind = r.random()
        if kind < 0.4:
            bounds = [span]
        elif kind < 0.6:
            bounds = [Lit(r.choice((0, 1, 2)), "i64"), Lit(r.choice((2, 3, 4)), "i64")]
        elif kind < 0.7:
            bounds = [Cast("np.uint64", "u64", span)]
        elif kind < 0.85:
            base = Bin("%", lo, Lit(100, "i64"))
            bounds = [base, Bin("+", Var("_b", "i64"), span), Lit(r.choice((1, 2)), "i64")]
            # written out: range(base, base + span, step)
            bounds[1] = Bin("+", base, span)
        else:
            base = Bin("%", lo, Lit(100, "i64"))
            bounds = [base, Bin("-", base, span), Lit(-1, "i64")]
        v = self.fresh("j")
        f = For(v, bounds, [])
        sc = dict(scope)
        sc[v] = f.ty
        self.stmts(sc, depth + 1, r.randint(1, 4), True, f.body)
        out.append(f)

    def st_while(self, scope, depth, in_loop, out):
        cnt = self.fresh("w")
        w = While(cnt, self.rnd.randint(1, 5), [])
        sc = dict(scope)
        sc[cnt] = "i64"
        self.stmts(sc, depth + 1, self.rnd.randint(1, 4), True, w.body)
        out.append(w)

    def st_jump(self, scope, depth, in_loop, out):
        out.append(Jump(self.expr(scope, 2, "bool"), self.rnd.choice(("break", "continue"))))

    def st_tuple(self, scope, depth, in_loop, out):
        r = self.rnd
        n = r.choice((2, 2, 3))
        es = [self.expr(scope, 2) for _ in range(n)]
        tys = [e.ty for e in es]
        if r.random() < 0.5:
            name = self.fresh("t")
            out.append(TupleAssign([name], tys, es, True))
            self.note(name, next((e for e in es if maybe_const(e, self.cv)), None), False)
            scope[name] = tuple(tys)
        else:
            names = [self.fresh() for _ in range(n)]
            out.append(TupleAssign(names, tys, es, False))
            for nm, t, e in zip(names, tys, es):
                self.note(nm, e, False)
                scope[nm] = t

    def st_local(self, scope, depth, in_loop, out):
        r = self.rnd
        n = r.choice((2, 4, 5))
        t = r.choice(("i32", "i64", "f32", "f64", "u8", "i16"))
        name = self.fresh("la")
        q = self.fresh("q")
        out.append(Text("%s = cuda.local.array(%d, %s)" % (name, n, NPNAME[t]),
                        "%s = np.zeros(%d, %s)" % (name, n, NPNAME[t])))
        sc = dict(scope)
        sc[q] = "i64"
        init = For(q, [Lit(n, "i64")], [LocalStore(name, t, Var(q, "i64"),
                                                  self.coerce_exact(self.expr(sc, 2, "num"), t))])
        out.append(init)
        # one more store and a read into a variable
        idx = Bin("%", self.expr(scope, 1, "int"), Lit(n, "i64"))
        out.append(LocalStore(name, t, idx, self.coerce_exact(self.expr(scope, 2, "num"), t)))
        if self.tick_p and self.trnd.random() < 0.5:
            self.aug_local(name, t, n, scope, out)
        v = self.fresh()
        idx2 = Bin("%", self.expr(scope, 1, "int"), Lit(n, "i64"))
        out.append(Assign(v, t, Index(name, t, idx2)))
        scope[v] = t

    def aug_local(self, name, t, n, scope, out):
        """la[i] op= e, drawn from the ticks' generator."""
        saved = self.rnd
        self.rnd = r = self.trnd
        try:
            idx = Bin("%", self.expr(scope, 1, "int"), Lit(n, "i64"))
            e = self.expr(scope, 2, "int" if t in INTS else "num")
            op = r.choice(("+", "-", "*", "//", "%", "&", "|", "^") if t in INTS else ("+", "-", "*"))
            self.ntmp += 1
            s = AugLocalStore(name, t, idx, op, e, "_ix%d" % self.ntmp)
            if s.aug_bin().fma_parts():
                s.op = "*"   # la[i] += x*y contracts: kept out of the ticks' reach
            out.append(s)
        finally:
            self.rnd = saved

    # ---------------------------------------------------------- ticks

    def add_ticks(self):
        """Wraps random subexpressions of the kernel (not of the device
        functions) in ticks, turns some operators into NumPy calls, ticks
        some store columns (see the docstring)."""
        r = self.trnd
        p = self.tick_p
        self.extra.append(("tlog", "i64", TLOG_COLS, "out"))
        devs = set()
        for fn in self.devs:
            for s in fn.body:
                walk_stmts(s, lambda t: devs.add(id(t)))
        # a subtree that occurs twice (range(b, b + n)) gets a copy, so
        # that every tick is one site with one code
        seen = set()

        def unshare(e):
            for i, k in enumerate(e.kids()):
                if isinstance(k, Node):
                    if id(k) in seen:
                        k = copy.deepcopy(k)
                        e.set_kid(i, k)
                    seen.add(id(k))
                    unshare(k)

        def code():
            self.ncode += 1
            return self.ncode

        def visit(e, cvars, wrap=True, factor=False):
            """e with ticks inside, maybe around (wrap False: not around;
            factor: e is a product that may contract, as is)."""
            for i, k in enumerate(e.kids()):
                ok, inside, fac = True, True, False
                if isinstance(e, (IfExp, BoolOp)) and i == 0 and (is_literal(k) or e.known is not None):
                    ok = False   # the literal condition types the expression
                if isinstance(e, Bin) and e.op in ("+", "-") and e.ty in FLOATS and fma_factor(k):
                    ok, fac = False, True   # a product that may contract into an fma
                    inside = not maybe_const(k, cvars)
                if inside:
                    e.set_kid(i, visit(k, cvars, ok, fac))
            if isinstance(e, Bin) and not factor and not e.fma_parts() and r.random() < 0.3:
                a, b = e.args
                if a.ty == b.ty and (a.ty in FLOATS or a.ty in ("i64", "u64")):
                    e.npf = NPFUN.get((e.op, a.ty in FLOATS))
            if isinstance(e, MinMax) and len(e.args) == 2 and e.args[0].ty == e.args[1].ty == e.ty and \
                    e.ty in ("i64", "u64") and r.random() < 0.3:
                e.npf = {"min": "np.minimum", "max": "np.maximum"}[e.which]
            if wrap and r.random() < p:
                return Tick(code(), e)
            return e

        def stmt(s, cvars):
            if id(s) in devs:
                return
            for get, put in top_exprs(s):
                e = get()
                if isinstance(e, Node):
                    if id(e) in seen:
                        e = copy.deepcopy(e)
                        put(e)
                    seen.add(id(e))
                    unshare(e)
            for get, put in top_exprs(s):
                e = get()
                ok, inside, fac = True, True, False
                if isinstance(s, Assign) and is_literal(e) and s.name in self.pinned:
                    ok = False   # the literal an IfExp's or BoolOp's type depends on
                if isinstance(s, (AugAssign, AugLocalStore)) and s.op in ("+", "-") and fma_factor(e):
                    ok, fac = False, True   # acc += x*y contracts
                    inside = not maybe_const(e, cvars)
                if inside:
                    put(visit(e, cvars, ok, fac))
            if isinstance(s, Store) and r.random() < p:
                s.tcol = code()
        walk_program(self, stmt)

    # ---------------------------------------------------------- extra classes
    # Each class of EXTRAS lives in a module of its own (gen_<name>.py) and
    # draws from a generator of its own, seeded from the program's, after
    # everything else (ticks included): a program that draws none of them,
    # or Program(seed, extras=()), renders what the seed rendered before.
    # A class adds statements at the end of the kernel, storing to the
    # out_wi / out_wf columns (or arrays of its own); while it generates,
    # self.rnd is its generator and self.xexpr may add its expressions.

    def make_extras(self):
        import importlib
        for name in EXTRAS:
            if name not in self.extras:
                continue
            mod = importlib.import_module("gen_" + name)
            rnd = random.Random("%s-%d" % (name, self.seed))
            if name != self.focus and rnd.random() >= mod.P:
                continue
            n = len(self.body)
            self.drawn.append(name)
            saved = self.rnd
            self.rnd = rnd
            try:
                mod.make(self, self.top_scope)
            finally:
                self.rnd = saved
                self.xexpr = None
            settle_fma(self, {id(s) for s in self.body[n:]})

    # ---------------------------------------------------------- functions

    def make_dev(self):
        r = self.rnd
        name = "dev%d" % len(self.devs)
        params = [("p%d" % i, r.choice(TYPES)) for i in range(r.randint(1, 3))]
        scope = dict(params)
        body = []
        saved = self.args
        self.args = []  # a device function sees only its parameters
        saved_budget = self.budget
        self.budget = r.randint(1, 4)
        self.in_dev = True
        self.stmts(scope, 2, self.budget, False, body)
        e = self.expr(scope, 2, "num")
        self.in_dev = False
        self.args = saved
        self.budget = saved_budget
        body.append(Return(e, e.ty))
        self.devs.append(DevFn(name, params, body, e.ty))

    def make_body(self):
        scope = self.top_scope = {}
        self.stmts(scope, 0, 40, False, self.body)
        # every thread writes something
        for k in range(self.ncols):
            if self.rnd.random() < 0.5:
                e = self.expr(scope, 2, "int")
                self.body.append(Store("out_i", "i64", "tid, %d" % k, e))
        if self.mode == "comm":
            self.make_comm(scope)
            self.make_extra(scope)

    # ---------------------------------------------------------- communication
    # Each phase: every thread writes its own slot of a fresh shared array,
    # a barrier, then reads any slot; atomics on ints are order independent.

    def make_comm(self, scope):
        r = self.rnd
        tpb = self.tpb
        out = self.body
        prev = []
        for p in range(r.randint(1, 3)):
            t = r.choice(("i32", "i64", "f64", "f32", "u32", "i16"))
            sh = "sh%d" % p
            out.append(Text("%s = cuda.shared.array(%d, %s)" % (sh, tpb, NPNAME[t]),
                            "%s = SH(%r, %d, %s)" % (sh, sh, tpb, NPNAME[t])))
            e = self.expr(scope, 2, "num")
            if prev and r.random() < 0.7:
                psh, pt = r.choice(prev)
                e = Bin(r.choice(("+", "-", "*")), Index(psh, pt, Bin("%", Bin("+", Var("tx", "i32"),
                                                                              Lit(r.randint(1, tpb - 1), "i64")),
                                                                     Lit(tpb, "i64"))), e)
            out.append(LocalStore(sh, t, Var("tx", "i32"), self.coerce_exact(e, t)))
            out.append(Text("cuda.syncthreads()", "yield ('sync', None)"))
            prev.append((sh, t))
            v = self.fresh()
            src, st = r.choice(prev)
            idx = Bin("%", self.expr(scope, 1, "int"), Lit(tpb, "i64"))
            out.append(Assign(v, st, Index(src, st, idx)))
            scope[v] = st
            if r.random() < 0.5:
                out.append(Store("out_i" if st in INTS else "out_f", "i64" if st in INTS else "f64",
                                 "tid, %d" % r.randrange(self.ncols), Var(v, st)))
            out.append(Text("cuda.syncthreads()", "yield ('sync', None)"))
        # barrier reductions
        if r.random() < 0.5:
            f = r.choice(("syncthreads_count", "syncthreads_and", "syncthreads_or"))
            c = self.expr(scope, 2, "bool")
            v = self.fresh()
            out.append(Text("%s = cuda.%s(%s)" % (v, f, c.k()),
                            "%s = yield (%r, %s)" % (v, f, c.r())))
            scope[v] = "i32"
            out.append(Store("out_i", "i64", "tid, %d" % r.randrange(self.ncols), Var(v, "i32")))
        # atomics on the global accumulators (ints: exact in any order, as
        # long as the operations on one slot commute: add/sub on slot 0, max
        # on 1, min on 2, one bitwise operation per program on 3)
        bitop = r.choice(("and_", "or_", "xor"))
        for _ in range(r.randint(1, 3)):
            slot = r.randrange(4)
            op = (r.choice(("add", "add", "sub")), "max", "min", bitop)[slot]
            e = self.coerce_exact(self.expr(scope, 2, "int"), "i64")
            out.append(Text("cuda.atomic.%s(acc, %d, %s)" % (op, slot, e.k()),
                            "ATOM(%r, %d, R.cast(%s, 'i64'))" % (op, slot, e.r())))
        # shared-memory atomic add, read back after a barrier
        if r.random() < 0.6:
            sh = "sacc"
            out.append(Text("%s = cuda.shared.array(4, np.int64)" % sh, "%s = SH(%r, 4, np.int64)" % (sh, sh)))
            out.append(Text("if cuda.threadIdx.x < 4:\n    %s[cuda.threadIdx.x] = 0" % sh,
                            "if T.tx < 4:\n    %s[T.tx] = 0" % sh))
            out.append(Text("cuda.syncthreads()", "yield ('sync', None)"))
            e = self.coerce_exact(self.expr(scope, 2, "int"), "i64")
            k = r.randrange(4)
            out.append(Text("cuda.atomic.add(%s, %d, %s)" % (sh, k, e.k()),
                            "%s[%d] = R.binop('+', %s[%d], R.cast(%s, 'i64'), 'i64')" % (sh, k, sh, k, e.r())))
            out.append(Text("cuda.syncthreads()", "yield ('sync', None)"))
            out.append(Store("out_i", "i64", "tid, %d" % r.randrange(self.ncols),
                             Index(sh, "i64", Lit(k, "i64"))))

    # ---------------------------------------------------------- warps, float atomics
    # Drawn from a generator of their own (seeded from the program's), after
    # everything else: a program of an earlier seed keeps its statements and
    # only gains these at the end.  Their results go to columns of extra
    # output arrays (out_wi int64, out_wf float64) and to extra accumulators
    # (fa32/fa64 floats, ua32 uint32), all passed after the arguments.

    def make_extra(self, scope):
        saved = self.rnd
        self.rnd = random.Random("warp-atomic-%d" % self.seed)
        try:
            if self.rnd.random() < 0.75:
                self.make_warp(scope)
            if self.rnd.random() < 0.65:
                self.make_fatom(scope)
        finally:
            self.rnd = saved

    def out_col(self, t):
        """(array, column) for a result of type t."""
        name = "out_wf" if t in FLOATS else "out_wi"
        k = self.wcols.get(name, 0)
        self.wcols[name] = k + 1
        if k == 0:
            self.extra.append((name, "f64" if t in FLOATS else "i64", 0, "out"))
        return name, k % 8

    def store_w(self, e):
        arr, k = self.out_col(e.ty)
        self.body.append(Store(arr, "f64" if e.ty in FLOATS else "i64", "tid, %d" % k, e))

    def acc_array(self, name, t, n):
        if not any(x[0] == name for x in self.extra):
            self.extra.append((name, t, n, "acc"))
        return name

    def make_warp(self, scope):
        r = self.rnd
        out = self.body
        ln = self.fresh()
        out.append(Assign(ln, "i32", Raw("cuda.laneid", "R.sr(T.tx % 32)", "i32")))
        scope[ln] = "i32"
        lane = Var(ln, "i32")
        if r.random() < 0.3:
            ws = self.fresh()
            out.append(Assign(ws, "i32", Raw("cuda.warpsize", "np.int32(32)", "i32")))
            scope[ws] = "i32"
            self.store_w(Bin(r.choice(("*", "+", "-")), Var(ws, "i32"), lane))
        for _ in range(r.randint(1, 5)):
            op = r.choice(("shfl", "shfl", "up", "down", "xor", "xor", "all", "any", "eq", "ballot", "ballot",
                           "match_any", "match_all", "lanemask"))
            v = self.fresh()
            if op == "lanemask":
                out.append(Assign(v, "u32", Raw("cuda.lanemask_lt()",
                                                "np.uint32((1 << (T.tx % 32)) - 1)", "u32")))
                scope[v] = "u32"
                self.store_w(Var(v, "u32"))
                continue
            if op in ("shfl", "up", "down", "xor"):
                t = r.choice(("i32", "i64", "f32", "f64"))
                e = self.coerce_exact(self.expr(scope, 2, "num"), t)
                k = r.random()
                if op == "shfl":
                    idx = Lit(r.randrange(32), "i64") if k < 0.3 else \
                        Bin(r.choice(("+", "^", "-")), lane, Lit(r.randrange(1, 40), "i64")) if k < 0.7 else \
                        self.expr(scope, 1, "int")
                elif k < 0.6:
                    idx = Lit(r.choice((0, 1, 1, 2, 3, 4, 8, 16, 31) if op != "xor" else (1, 2, 4, 8, 16, 31, 5)),
                              "i64")
                elif k < 0.9:
                    idx = Bin("&", self.expr(scope, 1, "int"), Lit(31, "i64"))
                else:
                    idx = self.expr(scope, 1, "int")   # the low 5 bits count
                out.append(Warp([v], op, t, e, idx))
                scope[v] = t
            elif op in ("all", "any", "eq", "ballot"):
                e = self.expr(scope, 2, "bool") if r.random() < 0.7 else self.expr(scope, 1, "int")
                out.append(Warp([v], op, "b", e))
                scope[v] = "i32" if op == "ballot" else "b"
            else:
                t = r.choice(("i32", "i64", "u32", "u64", "f32", "f64"))
                if r.random() < 0.3:
                    x = Bin("//", Var("tx", "i32"), Lit(r.choice((32, 64)), "i64"))
                else:
                    x = Bin("%", self.expr(scope, 1, "int"), Lit(r.choice((2, 3, 5)), "i64"))
                e = self.coerce_exact(x, t)
                if op == "match_any":
                    out.append(Warp([v], op, t, e))
                    scope[v] = "i32"
                else:
                    v2 = self.fresh()
                    out.append(Warp([v, v2], op, t, e))
                    scope[v], scope[v2] = "i32", "b"
                    self.store_w(Var(v2, "b"))
                    if r.random() < 0.5:
                        continue
            self.store_w(Var(v, scope[v]))

    def make_fatom(self, scope):
        r = self.rnd
        out = self.body
        # global float accumulators: add/sub on slot 0 (exact operands),
        # max on 1, min on 2, one of nanmax/nanmin on 3
        t = r.choice(FLOATS)
        arr = self.acc_array("fa32" if t == "f32" else "fa64", t, 4)
        nanop = r.choice(("nanmax", "nanmin"))
        for _ in range(r.randint(1, 4)):
            slot = r.randrange(4)
            if slot == 0:
                e = Dyadic(self.expr(scope, 1, "int"), t, r.choice((1.0, 0.5, 0.25)))
                out.append(Atom(r.choice(("add", "add", "sub")), arr, t, 0, e))
            else:
                e = self.coerce_exact(self.expr(scope, 2, "float"), t)
                out.append(Atom(("max", "min", nanop)[slot - 1], arr, t, slot, e))
        # a shared float accumulator: zeroed, a barrier, atomics, a barrier, read back
        if r.random() < 0.6:
            st = r.choice(FLOATS)
            sh = self.fresh("fsh")
            out.append(Text("%s = cuda.shared.array(4, %s)" % (sh, NPNAME[st]),
                            "%s = SH(%r, 4, %s)" % (sh, sh, NPNAME[st])))
            out.append(Text("if tx < 4:\n    %s[tx] = 0" % sh, "if T.tx < 4:\n    %s[T.tx] = 0" % sh))
            out.append(Text("cuda.syncthreads()", "yield ('sync', None)"))
            for _ in range(r.randint(1, 3)):
                slot = r.randrange(3)
                if slot == 0:
                    out.append(Atom("add", sh, st, 0, Dyadic(self.expr(scope, 1, "int"), st, r.choice((1.0, 0.25)))))
                else:
                    out.append(Atom(("max", "min")[slot - 1], sh, st, slot,
                                    self.coerce_exact(self.expr(scope, 2, "float"), st)))
            out.append(Text("cuda.syncthreads()", "yield ('sync', None)"))
            self.store_w(Index(sh, st, Lit(r.randrange(3), "i64")))
        # an add by compare-and-swap: on acc[0] (global) or a shared int
        if r.random() < 0.6:
            names = [self.fresh("x"), self.fresh("c"), self.fresh("p"), self.fresh("w")]
            cas2 = r.random() < 0.4
            if r.random() < 0.5:
                e = self.coerce_exact(self.expr(scope, 2, "int"), "i64")
                out.append(CasAdd("acc", "i64", 0, e, names, cas2))
            else:
                ct = r.choice(("i32", "u32", "i64", "u64"))
                sh = self.fresh("ish")
                out.append(Text("%s = cuda.shared.array(2, %s)" % (sh, NPNAME[ct]),
                                "%s = SH(%r, 2, %s)" % (sh, sh, NPNAME[ct])))
                out.append(Text("if tx < 2:\n    %s[tx] = tx + 5" % sh, "if T.tx < 2:\n    %s[T.tx] = T.tx + 5" % sh))
                out.append(Text("cuda.syncthreads()", "yield ('sync', None)"))
                e = self.coerce_exact(self.expr(scope, 2, "int"), ct)
                out.append(CasAdd(sh, ct, 0, e, names, cas2))
                out.append(Text("cuda.syncthreads()", "yield ('sync', None)"))
                self.store_w(Index(sh, ct, Lit(0, "i64")))
        # inc/dec/exch, one operation and one operand per slot for every
        # thread and every statement: the same function applied n times,
        # whatever the order (two bounds, or inc and dec, on one slot
        # would make the result depend on the order, as the GPU showed)
        if r.random() < 0.4:
            arr = self.acc_array("ua32", "u32", 3)
            vals = [r.choice((0, 1, 5, 17, 100, 4294967295)) for _ in range(3)]
            for _ in range(r.randint(1, 3)):
                slot = r.randrange(3)
                op = ("inc", "dec", "exch")[slot]
                out.append(Atom(op, arr, "u32", slot, Lit(vals[slot], "u32")))

    # ---------------------------------------------------------- rendering

    def params(self):
        ps = ["out_i", "out_f", "out_s", "out_m"] + (["acc"] if self.mode == "comm" else [])
        return ps + [a.name for a in self.args] + [x[0] for x in self.extra] + [x[0] for x in self.xin]

    def render(self):
        L = ["# difftest program seed=%d mode=%s (tests/difftest/gen.py)" % (self.seed, self.mode),
             "import math", "", "import numpy as np", "", "from numba import cuda", "",
             "import refrt as R", "", ""]
        L.append("SPEC = %r" % (self.spec(),))
        L += ["", ""]
        if self.tick_p:
            L += ["@cuda.jit(device=True)", "def tick(tlog, row, code, v):", "    n = tlog[row, 0]",
                  "    if n + 1 < tlog.shape[1]:", "        tlog[row, n + 1] = code", "    tlog[row, 0] = n + 1",
                  "    return v", "", ""]
        L += self.xglobals
        for fn in self.xdevs:
            L += fn.render()
        for fn in self.devs:
            L.append("@cuda.jit(device=True)")
            L.append("def %s(%s):" % (fn.name, ", ".join(n for n, _ in fn.params)))
            L += body_lines(fn.body, "    ", False)
            L += ["", ""]
            L.append("def %s_ref(%s):" % (fn.name, ", ".join(n for n, _ in fn.params)))
            for n, t in fn.params:
                L.append("    %s = R.cast(%s, %r)" % (n, n, t))
            L += body_lines(fn.body, "    ", True)
            L += ["", ""]
        K = ["@cuda.jit", "def kern(%s):" % ", ".join(self.params())]
        K += self.prologue(False)
        K += body_lines(self.body, "    ", False)
        L += self.xrename(K) if self.xrename else K
        L += ["", ""]
        L.append("def kern_ref(T, SH, ATOM, %s):" % ", ".join(self.params()))
        L += self.prologue(True)
        for a in self.args:
            if a.kind == "scalar":
                L.append("    %s = R.cast(%s, %r)" % (a.name, a.name, a.ty))
        L += body_lines(self.body, "    ", True)
        if self.mode == "comm":
            L.append("    yield ('end', None)")
        return "\n".join(L) + "\n"

    def prologue(self, ref):
        L = self._prologue(ref)
        if self.tick_p:
            L.append("    tlog[tid, 0] = 0")
        return L

    def _prologue(self, ref):
        if self.grid2:
            w = self.tpb[0] * self.blocks[0]
            if ref:
                return ["    x, y = T.grid2()", "    tid = R.cast(y * %d + x, 'i64')" % w,
                        "    if tid >= out_i.shape[0]:", "        return"]
            return ["    x, y = cuda.grid(2)", "    tid = y * %d + x" % w,
                    "    if tid >= out_i.shape[0]:", "        return"]
        if ref:
            L = ["    tid = T.grid1()"]
            if self.mode == "comm":
                L.append("    tx = R.sr(T.tx)")
            else:
                L += ["    if tid >= out_i.shape[0]:", "        return"]
            return L
        L = ["    tid = cuda.grid(1)"]
        if self.mode == "comm":
            L.append("    tx = cuda.threadIdx.x")
        else:
            L += ["    if tid >= out_i.shape[0]:", "        return"]
        return L

    def spec(self):
        d = {
            "seed": self.seed, "mode": self.mode, "tpb": self.tpb, "blocks": self.blocks,
            "rows": self.rows if self.mode == "pure" else self.nthreads(), "ncols": self.ncols, "sdt": self.sdt,
            "grid2": self.grid2, "mslots": self.mslots,
            "args": [(a.name, a.kind, a.ty, a.shape, a.layout, a.readonly) for a in self.args],
        }
        if self.xin:
            # read-only inputs after the extra arrays: (name, type, values as repr strings)
            d["xin"] = self.xin
        if getattr(self, "cslots", None):
            # out_c's columns: (function, part), compared by gen_cmath's rules
            d["cslots"] = self.cslots
        if self.extra:
            # (name, type, slots or columns, "acc" or "out"), passed after the arguments
            d["extra"] = [(n, t, min(8, self.wcols[n]) if n in self.wcols else c, kind)
                          for n, t, c, kind in self.extra]
        return d


def generate(seed, mode=None, ticks=True, extras=None, focus=None):
    """The module text of program number seed (ticks=False: without the
    evaluation-order ticks, as before they existed; extras: the classes of
    EXTRAS to draw, DEFAULT_EXTRAS when None; focus: a class every program
    draws)."""
    return Program(seed, mode, ticks, extras, focus).render()


if __name__ == "__main__":
    import sys
    print(generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0,
                   sys.argv[2] if len(sys.argv) > 2 else None))

"""The reference semantics of generated kernels, in plain Python and NumPy.

gen.py renders every kernel twice: once in ptxjit's dialect (what the
compiler sees) and once as a per-thread Python function that calls the
helpers below.  The second rendering spells out every conversion Numba's
typing rules imply (gen.py computes the types), so these helpers only
need NumPy's fixed-width scalars and exact Python integers:

  * integers compute as Python ints and wrap to the operation's type
    (two's complement, as LLVM/PTX); `//` and `%` floor, and a zero
    divisor gives 0 (Numba's numpy error model on CUDA);
  * floats compute in np.float32 / np.float64, which round every
    operation correctly (IEEE); fma rounds once (exactly, via Fraction);
  * what Numba leaves undefined (a float out of an integer's range
    converted to it, INT_MIN // -1, a shift by 64 or more, a negative
    integer exponent) raises Undefined: the harness then leaves that
    thread's outputs out of the comparison.
"""

import math
import os
from fractions import Fraction

import numpy as np

NP = {"b": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
      "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
      "f32": np.float32, "f64": np.float64}
INTS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
FLOATS = ("f32", "f64")
BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64}


class Undefined(Exception):
    """The thread did something whose result Numba does not define."""


def lo_hi(t):
    n = BITS[t]
    if t[0] == "u":
        return 0, (1 << n) - 1
    return -(1 << (n - 1)), (1 << (n - 1)) - 1


def wrap(x, t):
    n = BITS[t]
    x &= (1 << n) - 1
    if t[0] == "i" and x >> (n - 1):
        x -= 1 << n
    return NP[t](x)


def is_float(v):
    return isinstance(v, (np.floating, float))


def cast(v, t):
    """v (a NumPy scalar or Python number) converted to type t as Numba does."""
    if t == "b":
        return np.bool_(bool(v))
    if t in INTS:
        if is_float(v):
            f = float(v)
            if not math.isfinite(f):
                raise Undefined("%r to %s" % (f, t))
            x = int(f)  # truncates
            lo, hi = lo_hi(t)
            if x < lo or x > hi:
                raise Undefined("%r to %s" % (f, t))
            return NP[t](x)
        return wrap(int(v), t)
    if is_float(v):
        with np.errstate(all="ignore"):
            return NP[t](v)
    x = int(v)
    # NumPy's int64/uint64 -> float conversion rounds once (a C cast)
    return (np.int64(x) if x < (1 << 63) else np.uint64(x)).astype(NP[t])


def _int_op(op, x, y, t):
    if op == "+":
        r = x + y
    elif op == "-":
        r = x - y
    elif op == "*":
        r = x * y
    elif op == "//":
        if y == 0:
            return NP[t](0)
        r = x // y
        lo, hi = lo_hi(t)
        if r > hi:
            raise Undefined("overflowing //")
    elif op == "%":
        if y == 0:
            return NP[t](0)
        if y == -1 and x == lo_hi(t)[0]:
            raise Undefined("INT_MIN % -1")
        r = x % y
    elif op == "&":
        r = x & y
    elif op == "|":
        r = x | y
    elif op == "^":
        r = x ^ y
    elif op == "**":
        if y < 0:
            raise Undefined("negative integer exponent")
        r = pow(x, y, 1 << 64)
    else:
        raise ValueError(op)
    return wrap(r, t)


def binop(op, a, b, t):
    """a op b computed in type t (both operands converted to t first)."""
    if op == "/":
        a, b = cast(a, t), cast(b, t)
        with np.errstate(all="ignore"):
            return NP[t](a / b)
    if op in ("<<", ">>"):
        n = int(b)
        if n < 0 or n >= 64:
            raise Undefined("shift by %d" % n)
        x = int(cast(a, t))
        return wrap(x << n, t) if op == "<<" else wrap(x >> n, t)
    if t in FLOATS:
        if op == "**":
            return fpow_int(cast(a, t), int(b), t) if not is_float(b) else fpow(a, b, t)
        a, b = cast(a, t), cast(b, t)
        with np.errstate(all="ignore"):
            if op == "+":
                r = a + b
            elif op == "-":
                r = a - b
            elif op == "*":
                r = a * b
            elif op == "//":
                r = a // b
            elif op == "%":
                r = a % b
            else:
                raise ValueError(op)
        return NP[t](r)
    if t == "b":  # bool & | ^ bool
        x, y = bool(a), bool(b)
        return np.bool_(x & y if op == "&" else x | y if op == "|" else x ^ y)
    return _int_op(op, int(cast(a, t)), int(cast(b, t)), t)


def fpow_int(a, n, t):
    """float ** int: Numba's exponentiation by squaring, in type t."""
    inv = n < 0
    n = -n if inv else n
    r = NP[t](1)
    with np.errstate(all="ignore"):
        while n:
            if n & 1:
                r = NP[t](r * a)
            n >>= 1
            if n:
                a = NP[t](a * a)
        if inv:
            r = NP[t](NP[t](1) / r)
    return r


def fpow(a, b, t):
    with np.errstate(all="ignore"):
        return NP[t](np.power(cast(a, t), cast(b, t)))


def unop(op, a, t):
    if op == "-":
        if t in FLOATS:
            return NP[t](-cast(a, t))
        return wrap(-int(cast(a, t)), t)
    if op == "+":
        return cast(a, t)
    if op == "~":
        return wrap(~int(cast(a, t)), t)
    raise ValueError(op)


def cmp(op, a, b, t):
    a, b = cast(a, t), cast(b, t)
    if t in INTS:
        a, b = int(a), int(b)
    r = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
    return np.bool_(bool(r))


def _frac_round(q, t):
    """The exact rational q rounded once to float type t (nearest, even)."""
    if t == "f64":
        try:
            return np.float64(float(q))  # Fraction.__float__ rounds correctly
        except OverflowError:
            return np.float64(math.inf if q > 0 else -math.inf)
    if q == 0:
        return np.float32(0.0)
    neg = q < 0
    q = -q if neg else q
    # q = m * 2**e with 2**23 <= m < 2**24, e >= -149 (subnormals)
    e = q.numerator.bit_length() - q.denominator.bit_length() - 24
    while q / Fraction(2) ** e >= (1 << 24):
        e += 1
    while q / Fraction(2) ** e < (1 << 23):
        e -= 1
    e = max(e, -149)
    m = q / Fraction(2) ** e
    r = int(m)
    frac = m - r
    if frac > Fraction(1, 2) or (frac == Fraction(1, 2) and r & 1):
        r += 1
    v = r * 2.0 ** e if e < 128 else math.inf
    with np.errstate(all="ignore"):
        f = np.float32(v) if v < 3.5e38 else np.float32(math.inf)
    return -f if neg else f


def fma(x, y, z, t):
    """x*y + z rounded once in type t."""
    x, y, z = cast(x, t), cast(y, t), cast(z, t)
    if not (np.isfinite(x) and np.isfinite(y) and np.isfinite(z)):
        with np.errstate(all="ignore"):
            return NP[t](np.float64(x) * np.float64(y) + np.float64(z)) if t == "f32" else NP[t](x * y + z)
    q = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
    if q == 0:
        # the sign of an exact zero: as x*y + z in IEEE arithmetic
        with np.errstate(all="ignore"):
            return NP[t](NP[t](x * y) + z) if (x * y) == 0 else NP[t](0.0)
    return _frac_round(q, t)


def fma_r(z, x, y, t):
    """z + x*y as an fma, the operands given in Python's order."""
    return fma(x, y, z, t)


def tick(log, row, code, v):
    """gen.py's evaluation-order tick: counts the call in log[row, 0],
    writes code at the next column while there is one, returns v."""
    n = int(log[row, 0])
    if n + 1 < log.shape[1]:
        log[row, n + 1] = code
    log[row, 0] = n + 1
    return v


def minmax(which, args, t, fminmax=False):
    """Python's min/max (Numba reproduces its algorithm): the first of the
    extreme values, comparisons in the unified type t.  fminmax: Numba's
    CUDA target's min/max of two float32/float64 numbers, fmin/fmax (a NaN
    loses to a number, -0.0 is below +0.0)."""
    if fminmax:
        a, b = cast(args[0], t), cast(args[1], t)
        if a != a or b != b:
            return b if a != a else a
        if a == b:
            neg, pos = (a, b) if np.signbit(a) else (b, a)
            return neg if which == "min" else pos
        return (a if a < b else b) if which == "min" else (a if a > b else b)
    acc = cast(args[0], t)
    for v in args[1:]:
        v = cast(v, t)
        if (v < acc) if which == "min" else (v > acc):
            acc = v
    return acc


def absval(a, t):
    if t in FLOATS:
        return NP[t](abs(cast(a, t)))
    return wrap(abs(int(cast(a, t))), t)


def pyround(a, t):
    """round(float) -> int64, half to even."""
    f = float(a)
    if not math.isfinite(f):
        raise Undefined("round(%r)" % f)
    return cast(np.float64(round(f)), "i64")


def mfloor(a, t):
    return NP[t](np.floor(cast(a, t)))


def mceil(a, t):
    return NP[t](np.ceil(cast(a, t)))


def mtrunc(a, t):
    return NP[t](np.trunc(cast(a, t)))


def msqrt(a, t):
    with np.errstate(all="ignore"):
        return NP[t](np.sqrt(cast(a, t)))


def mfabs(a, t):
    return NP[t](abs(cast(a, t)))


def mcopysign(a, b, t):
    b = cast(b, t)
    if np.isnan(b):
        # the sign of a NaN made by arithmetic is the platform's: x86's
        # default NaN is negative, NVIDIA's positive (IEEE 754 leaves it open)
        raise Undefined("copysign from a NaN")
    return NP[t](np.copysign(cast(a, t), b))


def misnan(a, t):
    return np.bool_(bool(np.isnan(cast(a, t)))) if t in FLOATS else np.bool_(False)


def misinf(a, t):
    return np.bool_(bool(np.isinf(cast(a, t)))) if t in FLOATS else np.bool_(False)


def misfinite(a, t):
    return np.bool_(bool(np.isfinite(cast(a, t)))) if t in FLOATS else np.bool_(True)


# ---------------------------------------------------------------- inexact math
# The value of math.NAME on argument(s) converted to float type t, computed
# in float64 (float32 functions) or with mpmath (float64), for the ULP check.

def _mp():
    import mpmath
    mpmath.mp.prec = 120
    return mpmath


def inexact(name, args, t):
    """The accurate value, as a Python float (or nan/inf)."""
    xs = [float(cast(a, t)) for a in args]
    if t == "f32":
        return _libm(name, xs)
    try:
        return _mpvalue(name, xs)
    except Exception:
        return _libm(name, xs)


def _c_pow(x, y):
    """C99's pow (CUDA's, Python's math.pow where it does not raise); NumPy
    takes x ** 0.5 as sqrt(x), which makes pow(-inf, 0.5) nan, not inf."""
    odd = math.isfinite(y) and y == int(y) and int(y) % 2 == 1
    try:
        return math.pow(x, y)
    except OverflowError:
        return -math.inf if x < 0 and odd else math.inf
    except ValueError:
        if x == 0:  # y < 0
            return math.copysign(math.inf, x) if odd else math.inf
        return math.nan


def _libm(name, xs):
    f = {"pow": _c_pow, "atan2": np.arctan2, "hypot": np.hypot, "exp": np.exp, "expm1": np.expm1,
         "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sin": np.sin,
         "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
         "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
         "acosh": np.arccosh, "atanh": np.arctanh}.get(name)
    with np.errstate(all="ignore"):
        if f is _c_pow:
            return _c_pow(*xs)
        if f is not None:
            return float(f(*[np.float64(x) for x in xs]))
        if name == "lgamma":
            return lgamma(xs[0])
        try:
            return float(getattr(math, name)(*xs))
        except (ValueError, OverflowError):
            if name == "gamma":
                x = xs[0]
                if x == 0:
                    return math.copysign(math.inf, x)
                if x < 0 and x == int(x) or x == -math.inf:
                    return math.nan
                return math.inf
            if name == "lgamma":
                return math.inf
            return math.nan


def lgamma(x):
    """log|gamma(x)| correctly rounded to float64 (CPython's math.lgamma is
    8 ulps off at 2.5): mpmath's loggamma (whose real part is log|gamma|
    for negative x too), its precision doubled until two roundings agree
    (the zeros near -2.457 and -2.747 need more than 120 bits)."""
    if math.isnan(x):
        return math.nan
    if math.isinf(x) or (x <= 0 and x == int(x)):
        return math.inf
    mp = _mp()
    prev = None
    for prec in (120, 240, 480, 960, 1920):
        with mp.workprec(prec):
            v = float(mp.re(mp.loggamma(mp.mpf(x))))
        if v == prev:
            break
        prev = v
    return v


def _mpvalue(name, xs):
    if any(not math.isfinite(x) or x == 0 for x in xs):
        return _libm(name, xs)  # mpmath has no signed zero
    mp = _mp()
    a = [mp.mpf(x) for x in xs]
    f = {"exp": mp.exp, "expm1": mp.expm1, "log": mp.log, "log1p": mp.log1p, "sin": mp.sin,
         "cos": mp.cos, "tan": mp.tan, "atan": mp.atan, "sinh": mp.sinh, "cosh": mp.cosh,
         "tanh": mp.tanh, "asinh": mp.asinh, "erf": mp.erf, "erfc": mp.erfc, "gamma": mp.gamma,
         "lgamma": lambda x: mp.mpf(lgamma(float(x))), "log2": lambda x: mp.log(x, 2),
         "log10": mp.log10, "asin": mp.asin, "acos": mp.acos, "atanh": mp.atanh, "acosh": mp.acosh,
         "atan2": mp.atan2, "hypot": mp.hypot, "pow": mp.power}.get(name)
    if name in ("gamma", "lgamma") and xs[0] <= 0 and xs[0] == int(xs[0]):
        return _libm(name, xs)
    if name in ("log2", "log10") and xs[0] <= 0:
        return _libm(name, xs)
    if name in ("asin", "acos", "atanh") and abs(xs[0]) >= 1 or name == "acosh" and xs[0] < 1:
        return _libm(name, xs)
    if name == "pow" and (xs[0] <= 0 or xs[1] == 0):
        return _libm(name, xs)
    if f is None or (name in ("log", "log1p") and xs[0] <= (0 if name == "log" else -1)):
        return _libm(name, xs)
    v = f(*a)
    if isinstance(v, mp.mpc):
        return _libm(name, xs)
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def ulps_apart(got, want, t):
    """How many ulps (of type t at want) got is from want; 0 for equal
    specials, inf when one is special and the other is not."""
    if math.isnan(want) or math.isnan(got):
        return 0.0 if math.isnan(want) and math.isnan(got) else math.inf
    if math.isinf(want) or math.isinf(got):
        if got == want:
            return 0.0
        # a result at the edge of the range: the float max counts as near inf
        fmax = float(np.finfo(NP[t]).max)
        other = got if math.isinf(want) else want
        return 1.0 if abs(other) >= fmax * (1 - 2.0 ** -20) and (other > 0) == ((got if math.isinf(got) else want) > 0) else math.inf
    if got == want:
        return 0.0
    tiny = float(np.finfo(NP[t]).smallest_subnormal)
    m, e = math.frexp(abs(want)) if want else (0.5, -1074)
    ulp = 2.0 ** (e - (24 if t == "f32" else 53))
    return abs(got - want) / max(ulp, tiny)


# ---------------------------------------------------------------- threads

class Thread:
    """What the reference sees of cuda.* for one thread (the fake cuda module)."""

    __slots__ = ("tx", "ty", "bx", "by", "bdx", "bdy", "gdx", "gdy")

    def __init__(self, tx, ty, bx, by, bdx, bdy, gdx, gdy):
        self.tx, self.ty, self.bx, self.by = tx, ty, bx, by
        self.bdx, self.bdy, self.gdx, self.gdy = bdx, bdy, gdx, gdy

    def grid1(self):
        return np.int64(self.bx * self.bdx + self.tx)

    def grid2(self):
        return np.int64(self.bx * self.bdx + self.tx), np.int64(self.by * self.bdy + self.ty)

    def gridsize1(self):
        return np.int64(self.gdx * self.bdx)


def sr(v):
    """A special register (threadIdx.x, ...): int32."""
    return np.int32(v)


# ---------------------------------------------------------------- atomics, warps

TYPE = {v: k for k, v in NP.items()}


def atomic(op, old, v, t):
    """The new value of a slot of type t holding old after cuda.atomic.<op>
    with operand v (Numba's semantics: float max/min leave a NaN in memory
    and ignore a NaN operand; nanmax/nanmin replace a NaN in memory; inc
    and dec wrap at the operand)."""
    if t in FLOATS:
        o, x = NP[t](old), cast(v, t)
        with np.errstate(all="ignore"):
            if op == "add":
                return NP[t](o + x)
            if op == "sub":
                return NP[t](o - x)
        if op == "exch":
            return x
        if op in ("max", "min"):
            if np.isnan(o) or np.isnan(x):
                return o
            return x if (x > o if op == "max" else x < o) else o
        if op in ("nanmax", "nanmin"):
            if np.isnan(x):
                return o
            return x if np.isnan(o) or (x > o if op == "nanmax" else x < o) else o
        raise ValueError(op)
    o, x = int(old), int(cast(v, t))
    if op == "inc":
        new = 0 if o >= x else o + 1
    elif op == "dec":
        new = x if o == 0 or o > x else o - 1
    else:
        new = {"add": o + x, "sub": o - x, "max": max(o, x), "min": min(o, x), "and_": o & x,
               "or_": o | x, "xor": o ^ x, "exch": x}[op]
    return wrap(new, t)


def _bits(v, t):
    if t in FLOATS:
        return int(np.array(v, NP[t]).view(np.uint32 if t == "f32" else np.uint64))
    return int(v) & ((1 << BITS[t]) - 1)


def warp_op(op, t, vals, args):
    """Each lane's result of a warp operation of a full warp (mask
    0xffffffff, width 32), from the lanes' operands vals (of type t) and
    lane operands args, as PTX's shfl.sync, vote.sync and match.sync do:
    the source lane comes from the operand's low 5 bits; shfl_up/down from
    a lane out of the warp give the lane's own value."""
    n = len(vals)
    if n != 32:
        raise ValueError("a warp of %d lanes" % n)
    if op in ("shfl", "up", "down", "xor"):
        out = []
        for lane in range(32):
            b = int(args[lane]) & 31
            j = {"shfl": b, "up": lane - b, "down": lane + b, "xor": lane ^ b}[op]
            out.append(vals[j] if 0 <= j < 32 else vals[lane])
        return out
    if op in ("all", "any", "eq", "ballot"):
        p = [bool(v) for v in vals]
        if op == "ballot":
            r = wrap(sum(1 << i for i in range(32) if p[i]), "i32")
        else:
            r = np.bool_(all(p) if op == "all" else any(p) if op == "any" else len(set(p)) == 1)
        return [r] * 32
    bits = [_bits(v, t) for v in vals]
    if op == "match_any":
        return [wrap(sum(1 << j for j in range(32) if bits[j] == bits[i]), "i32") for i in range(32)]
    if op == "match_all":
        same = len(set(bits)) == 1
        return [(wrap(0xffffffff if same else 0, "i32"), np.bool_(same))] * 32
    raise ValueError(op)


# ---------------------------------------------------------------- extra classes
# The references of gen_ufunc, gen_cmath (and the mutations of run.py
# --mutate, which break a reference the way a compiler bug would).

MUTATE = os.environ.get("DIFFTEST_MUTATE", "")


def ufunc(f, args, ats, rt):
    """NumPy's own scalar ufunc np.f on the operands converted to their
    types ats: its result (of type rt, as gen_ufunc typed it)."""
    xs = [cast(a, t) for a, t in zip(args, ats)]
    if MUTATE == "ufunc64":
        # the bug: integer operands widened to 64 bits before the ufunc
        xs = [x if t in FLOATS or t == "b" else cast(x, "u64" if t[0] == "u" else "i64") for x, t in zip(xs, ats)]
    if rt in INTS and f in ("floor_divide", "remainder", "fmod"):
        y = int(xs[1])
        if y == 0 and f == "fmod":
            raise Undefined("fmod by zero")
        if y == -1 and rt[0] == "i" and int(cast(xs[0], rt)) == lo_hi(rt)[0]:
            raise Undefined("INT_MIN %s -1" % f)
    if f in ("left_shift", "right_shift") and not (0 <= int(xs[1]) < BITS.get(rt, 64)):
        raise Undefined("shift by %d" % int(xs[1]))
    if f == "power" and rt in INTS and int(xs[1]) < 0:
        raise Undefined("negative integer exponent")
    if f in ("maximum", "minimum", "fmax", "fmin") and rt in FLOATS and float(xs[0]) == 0 == float(xs[1]) and \
            math.copysign(1, float(xs[0])) != math.copysign(1, float(xs[1])):
        # NumPy takes the second of two equal zeros, Numba (a >= b) the first
        raise Undefined("np.%s of 0.0 and -0.0" % f)
    if f == "sign" and rt in FLOATS and float(xs[0]) == 0:
        raise Undefined("np.sign of a zero (NumPy 0.0, Numba the zero itself)")
    with np.errstate(all="ignore"):
        try:
            v = getattr(np, f)(*xs)
        except TypeError:
            if MUTATE != "ufunc64":
                raise
            v = getattr(np, f)(*[cast(a, t) for a, t in zip(args, ats)])
    if MUTATE != "ufunc64" and type(v) is not NP[rt]:
        raise RuntimeError("np.%s%s is %s, not %s" % (f, tuple(ats), type(v).__name__, rt))
    return v


CSKIP = -1.2345678901234567e-301   # out_c: a cell not compared (CPython raised)


def _annex_g(f, z):
    """C99 Annex G's value where CPython's cmath raises (a pole or an
    overflow of a finite argument), None where it has none."""
    x, y = z.real, z.imag
    if f in ("log", "log10") and x == 0 and y == 0:
        return complex(-math.inf, math.atan2(y, x) / (math.log(10) if f == "log10" else 1))
    return None


def cmath_call(f, args):
    """cmath.f(*args) as CPython computes it (a complex, a float, a tuple
    or a bool); None where CPython raises and Annex G gives no value."""
    import cmath
    zs = [complex(a) if not isinstance(a, (float, np.floating)) or f != "rect" else float(a) for a in args]
    if MUTATE == "cmath_nan" and f not in ("isnan", "isinf", "isfinite") and \
            any(not (math.isfinite(complex(a).real) and math.isfinite(complex(a).imag)) for a in args):
        # the bug: a special value in, NaNs out
        return math.nan if f == "phase" else complex(math.nan, math.nan)
    try:
        return getattr(cmath, f)(*zs)
    except (ValueError, OverflowError):
        v = _annex_g(f, zs[0]) if len(zs) == 1 else None
        return None if v is None else v


def cpart(v, part):
    """The real or imaginary part (or the value) of a cmath result, as
    np.float64 (CSKIP for no result)."""
    if v is None:
        return np.float64(CSKIP)
    if part == "re":
        return np.float64(complex(v).real)
    if part == "im":
        return np.float64(complex(v).imag)
    return np.float64(v)

"""NumPy's ufuncs called on scalars: Numba's result type, NumPy's value.

Numba types np.f(x, y) on scalars by NumPy's choice of loop: the first of
the ufunc's loops that every argument casts to safely, where any integer
casts to any float or complex type when the arguments mix integers with
floats, and float16 loops are skipped.  So np.add(uint8, uint8) is a uint8
that wraps (200 + 100 -> 44) while the operator + computes in int64, and
np.add(int8, uint8) is an int16.  For every ufunc ptxjit supports and every
argument type, or pair of them (bool, int8 .. uint64, float16, float32,
float64, complex64, complex128), a kernel on the simulator computes
r = np.f(x[i], y[i]) on random non-zero values with wrap-around cases
among them, and so does an @njit function for the real types; r must have Numba's type
(tests/numba_ufunc_types.txt, Numba 0.68-era typing) and NumPy's value for
the arguments cast to that loop's types.  Where Numba refuses the types
(and NumPy too) the compiler refuses them with a TypingError.
"""

import io
import os
import re
import zlib

import numpy as np
import pytest

from conftest import load_module
from ptxjit import cuda, njit
from ptxjit.errors import TypingError

TYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
         "float16", "float32", "float64", "complex64", "complex128"]
CODES = "?bBhHiIqQefdFD"
N = 16


def _load_table():
    table = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "numba_ufunc_types.txt")
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            kind, name, codes = line.split()
            combos = [(a,) for a in TYPES] if kind == "U" else [(a, b) for a in TYPES for b in TYPES]
            table[name] = {c: None if r == "-" else TYPES[CODES.index(r)] for c, r in zip(combos, codes)}
    return table


NUMBA = _load_table()
# ufuncs the table lacks type as one that has the same loops
SAME_LOOPS = {"arccos": "arcsin", "arccosh": "arcsinh", "arctanh": "arcsinh", "cosh": "sinh",
              "radians": "deg2rad", "rad2deg": "degrees", "logaddexp2": "logaddexp",
              "divmod": "floor_divide", "frexp": "spacing", "modf": "spacing"}

UNARY = ["absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "ceil",
         "conjugate", "cos", "cosh", "deg2rad", "degrees", "exp", "exp2", "expm1", "fabs", "floor",
         "frexp", "invert", "isfinite", "isinf", "isnan", "log", "log10", "log1p", "log2",
         "logical_not", "modf", "negative", "positive", "rad2deg", "radians", "reciprocal", "rint",
         "sign", "signbit", "sin", "sinh", "spacing", "sqrt", "square", "tan", "tanh", "trunc"]
BINARY = ["add", "arctan2", "bitwise_and", "bitwise_or", "bitwise_xor", "copysign", "divide",
          "divmod", "equal", "float_power", "floor_divide", "fmax", "fmin", "fmod", "gcd", "greater",
          "greater_equal", "hypot", "lcm", "ldexp", "left_shift", "less", "less_equal", "logaddexp",
          "logaddexp2", "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
          "nextafter", "not_equal", "power", "remainder", "right_shift", "subtract"]
TWO_OUTPUTS = {"divmod", "frexp", "modf"}

# results that NumPy rounds once (or not at all): compared bit for bit
EXACT = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "divmod",
         "maximum", "minimum", "fmax", "fmin", "negative", "positive", "absolute", "square", "sign",
         "conjugate", "reciprocal", "sqrt", "floor", "ceil", "trunc", "rint", "fabs", "copysign",
         "nextafter", "spacing", "ldexp", "frexp", "modf", "signbit", "isnan", "isinf", "isfinite",
         "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
         "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
         "invert", "left_shift", "right_shift", "gcd", "lcm", "deg2rad", "radians", "rad2deg",
         "degrees"}
# complex results that are exact: the others are a few roundings apart
EXACT_COMPLEX = {"add", "subtract", "negative", "positive", "conjugate"}
INT_DIVISORS = {"floor_divide", "remainder", "fmod", "divmod"}
# complex loops that Numba has and ptxjit refuses: Numba's complex sign is
# NumPy 1's (the sign of the real part), not NumPy 2's z / |z|
REFUSED_COMPLEX = {"sign"}


ORDERED = {"maximum", "minimum", "fmax", "fmin", "greater", "greater_equal", "less", "less_equal"}


def refused_here(name, args):
    return name in REFUSED_COMPLEX and any(np.dtype(t).kind == "c" for t in args)


def numba_type(name, args):
    return NUMBA[SAME_LOOPS.get(name, name)][tuple(args)]


def numba_loop(name, args):
    """Numba's choice of loop (numba.np.numpy_support.ufunc_find_matching_loop)."""
    uf = getattr(np, name)
    dts = [np.dtype(a) for a in args]
    mixed = any(d.kind in "iu" for d in dts) and any(d.kind in "fc" for d in dts)
    for cand in uf.types:
        ins, outs = cand.split("->")
        if not set(ins + outs) <= set("?bBhHiIlLqQfdFD"):
            continue
        if all((mixed and d.kind in "iu" and np.dtype(c).kind in "fc") or np.can_cast(d, np.dtype(c), "safe")
               for d, c in zip(dts, ins)):
            return [np.dtype(c).name for c in ins], [np.dtype(c).name for c in outs]
    return None, None


def wide(t):
    k = np.dtype(t).kind
    return {"b": np.bool_, "i": np.int64, "u": np.uint64, "f": np.float64, "c": np.complex128}[k]


def _ints(rng, t, lo=None, hi=None):
    info = np.iinfo(t)
    lo = info.min if lo is None else max(lo, info.min)
    hi = info.max if hi is None else min(hi, info.max)
    v = np.concatenate([rng.integers(lo, hi, N // 2, endpoint=True, dtype=np.int64 if lo < 0 else np.uint64),
                        rng.integers(max(lo, -9), min(hi, 9), N - N // 2, endpoint=True)])
    v = np.where(v == 0, 1 if hi >= 1 else -1, v)
    return v.astype(t)


def values(rng, name, t, pos, loop_in):
    """N random non-zero values of type t for argument pos of np.<name>."""
    dt = np.dtype(t)
    lk = np.dtype(loop_in).kind if loop_in else dt.kind
    second = pos == 1
    if name in ("power", "float_power") and lk == "c" and dt.kind != "b":
        # complex powers of small numbers: ptxjit's complex ** drifts from
        # NumPy's by more than a few roundings for huge results
        v = rng.uniform(-3, 3, N) + (1j * rng.uniform(-3, 3, N) if dt.kind == "c" else 0)
        v = np.where(np.abs(v) < 0.5, 1.5, v)
        return (np.round(v) if dt.kind in "iu" else v).astype(t) if dt.kind != "u" else rng.integers(1, 4, N).astype(t)
    if dt.kind == "b":
        v = rng.random(N) < 0.5
        v[:2] = [True, False]
        if (name == "reciprocal" or (second and name in INT_DIVISORS)) and lk in "biu":
            v[:] = True
        if second and name == "divide" and lk == "c":
            v[:] = True   # z / 0: NumPy's complex division gives infinities
        if name in ("power", "float_power") and not second and lk == "c":
            v[:] = True   # 0 ** z: NumPy gives nan, Python raises
        return v
    if dt.kind in "iu":
        if second and name in ("left_shift", "right_shift"):
            return _ints(rng, t, 0, np.dtype(loop_in).itemsize * 8 + 1)
        if second and name == "power" and lk in "iu":
            return _ints(rng, t, 1, 7)
        if second and name == "ldexp":
            return _ints(rng, t, -30, 30)
        v = _ints(rng, t)
        info = np.iinfo(t)
        v[0], v[1] = info.max, info.min if info.min < 0 else 1
        if info.bits == 8:
            v[2], v[3] = (100, -100) if info.min < 0 else (200, 100)
        return v
    if dt.kind == "f":
        mag = 10.0 ** rng.uniform(-2, 4 if dt.itemsize > 2 else 3, N)
        v = (rng.standard_normal(N) * mag).astype(t)
        v[:4] = np.array([2.5, -3.0, 7.0, -0.75], t)
        if name in ("power", "float_power"):
            v = np.clip(v, -12, 12)
        if name not in ("power", "float_power", "ldexp", "divide", "floor_divide", "remainder", "fmod",
                        "divmod") and not second:
            v[4] = np.nan
        return np.where(v == 0, 1, v).astype(t)
    re = values(rng, name, "float64", pos, "float64")
    im = values(rng, name, "float64", pos, "float64")
    v = np.where(np.isnan(re + 1j * im), 1.5 + 2j, re + 1j * im)
    if name in ORDERED:   # NumPy orders by the real parts, then the imaginary ones; NaNs
        v[5 + pos] = complex(np.nan, 1) if pos == 0 else complex(1, np.nan)
        v[7] = 2 + 1j if pos == 0 else 2 + 3j
    return v.astype(t)


def _source(name, nin):
    call = "np.%s(%s)" % (name, "x[i]" if nin == 1 else "x[i], y[i]")
    store = "o0[i] = r[0]\n        o1[i] = r[1]" if name in TWO_OUTPUTS else "o0[i] = r"
    return ("\ndef f_%s(x, y, o0, o1):\n    for i in range(x.size):\n        r = %s\n        %s\n"
            % (name, call, store))


@pytest.fixture(scope="module")
def funcs(tmp_path_factory):
    src = ["import numpy as np\n"]
    src += [_source(n, 1) for n in UNARY] + [_source(n, 2) for n in BINARY]
    path = tmp_path_factory.mktemp("ufunc_scalar") / "ufunc_scalar_funcs.py"
    path.write_text("".join(src))
    return load_module(str(path), "ufunc_scalar_funcs")


def _typed_r(disp):
    out = io.StringIO()
    disp.inspect_types(file=out)
    for line in out.getvalue().splitlines():
        s = line.strip()
        if s.startswith("r: "):
            return s[3:]
    return None


def _type_str(res):
    if len(res) == 1:
        return res[0]
    if res[0] == res[1]:
        return "UniTuple(%s x 2)" % res[0]
    return "Tuple(%s, %s)" % tuple(res)


def _close(name, got, want, t, exact):
    if np.dtype(t).kind in "biu" or (exact and np.dtype(t).kind == "f") or name in EXACT_COMPLEX:
        same = (got == want) | (np.isnan(got) & np.isnan(want)) if np.dtype(t).kind in "fc" else got == want
        return np.asarray(same)
    eps = np.finfo(t).eps
    with np.errstate(all="ignore"):
        if np.dtype(t).kind == "c":   # a few roundings of the larger part
            tol = 64 * eps * np.maximum(np.abs(want), np.finfo(t).tiny)
            same = lambda g, w: (g == w) | (np.isnan(g) & np.isnan(w))
            return (same(got.real, want.real) & same(got.imag, want.imag)) | (np.abs(got - want) <= tol)
        tol = 8 * eps * np.maximum(np.abs(want), np.finfo(t).tiny)
        return (got == want) | (np.isnan(got) & np.isnan(want)) | (np.abs(got - want) <= tol)


def prepare(name, args):
    """The case's inputs, Numba's loop and result types."""
    ins, outs = numba_loop(name, args)
    rng = np.random.default_rng(zlib.crc32(("%s %s" % (name, args)).encode()))
    xs = [values(rng, name, t, i, ins[i] if ins else None) for i, t in enumerate(args)]
    return xs, ins, outs, None if refused_here(name, args) else numba_type(name, args)


def refused_case(launch, name, args, xs):
    """A case Numba (or ptxjit, REFUSED_COMPLEX) refuses: None when the
    compiler refuses it with an error that names the function."""
    try:
        with np.errstate(all="ignore"):
            getattr(np, name)(*[np.dtype(t).type(v[0]) for t, v in zip(args, xs)])
        if not refused_here(name, args):
            return "Numba refuses and NumPy accepts: not covered"
    except TypeError:
        pass
    y = xs[1] if len(xs) > 1 else np.ones(N, np.int8)
    try:
        launch(xs[0], y, np.zeros(N), np.zeros(N))
    except TypingError as e:
        if "numpy." + name not in str(e) and "np." + name not in str(e):
            return "refused without naming the function: %s" % str(e).splitlines()[0]
        return None
    return "accepted, but Numba and NumPy refuse it"


def check_case(name, args, case, got_t, got):
    """What is wrong with the type got_t and the values got (one array per
    output), or None."""
    xs, ins, outs, want_t = case
    if outs[0] != numba_type(name, args):
        return "test's loop choice %s differs from the table's %s" % (outs, want_t)
    problems = []
    if got_t != _type_str(outs):
        problems.append("typed %s, Numba: %s" % (got_t, _type_str(outs)))
    with np.errstate(all="ignore"):
        cast = [[np.dtype(lt).type(v) for v in xv] for lt, xv in zip(ins, xs)]
        refs = [getattr(np, name)(*a) for a in zip(*cast)]
    for k, t in enumerate(outs):
        want = np.array([r[k] if len(outs) > 1 else r for r in refs], dtype=t).astype(wide(t))
        exact = name in EXACT and not (name == "absolute" and np.dtype(args[0]).kind == "c")  # a hypot
        ok = _close(name, got[k], want, t, exact)
        if not ok.all():
            j = int(np.argmin(ok))
            shown = ", ".join(repr(np.dtype(a).type(v[j])) for a, v in zip(args, xs))
            problems.append("np.%s(%s) = %r, NumPy: %r" % (name, shown, got[k][j], want[j]))
    return "; ".join(problems) or None


def kernel_cases(funcs, name, combos):
    """Each case in its own kernel on the simulator: {combo: problem}."""
    fails = {}
    pyf = getattr(funcs, "f_" + name)
    for args in combos:
        case = prepare(name, args)
        xs, ins, outs, want_t = case
        k = cuda.jit(pyf)
        if want_t is None:
            why = refused_case(k[1, 1], name, args, xs)
        else:
            o = [np.zeros(N, wide(t)) for t in outs] + [np.zeros(N, np.int8)]
            y = xs[1] if len(xs) > 1 else np.ones(N, np.int8)
            try:
                k[1, 1](xs[0], y, o[0], o[1])
                why = check_case(name, args, case, _typed_r(k), o)
            except TypingError as e:
                why = "refused: %s" % str(e).splitlines()[0]
        if why:
            fails[args] = why
    return fails


def _batch_source(name, plan):
    """One @njit function that runs every planned case: plan holds, per
    case, its input rows (type, row) and output rows (wide kind, row)."""
    params = ["X%d" % i for i in range(len(TYPES))] + ["O" + k for k in "biufc"]
    lines = ["import numpy as np\n\n", "def batch(%s):\n" % ", ".join(params),
             "    for i in range(%d):\n" % N]
    for n, (ins, outs) in enumerate(plan):
        argv = ", ".join("X%d[%d, i]" % (TYPES.index(t), row) for t, row in ins)
        lines.append("        r%d = np.%s(%s)\n" % (n, name, argv))
        for m, (kind, row) in enumerate(outs):
            lines.append("        O%s[%d, i] = r%d%s\n" % (kind, row, n, "[%d]" % m if len(outs) > 1 else ""))
    return "".join(lines)


def njit_cases(funcs, tmp_path, name, combos):
    """The cases in one @njit function (one C compile): {combo: problem}.
    A case the compiler refuses is reported and left out of the batch."""
    fails = {}
    cases = {}
    for args in combos:
        case = prepare(name, args)
        if case[3] is None:
            why = refused_case(njit(getattr(funcs, "f_" + name)), name, args, case[0])
            if why:
                fails[args] = why
        else:
            cases[args] = case
    for attempt in range(len(cases) + 1):
        order = list(cases)
        rows = {t: 0 for t in TYPES}
        orows = {k: 0 for k in "biufc"}
        plan = []
        for args in order:
            ins = []
            for t in args:
                ins.append((t, rows[t]))
                rows[t] += 1
            outs = []
            for t in cases[args][2]:
                kind = np.dtype(wide(t)).kind
                outs.append((kind, orows[kind]))
                orows[kind] += 1
            plan.append((ins, outs))
        path = tmp_path / ("batch_%s_%d.py" % (name, attempt))
        path.write_text(_batch_source(name, plan))
        fn = njit(load_module(str(path), "ufunc_batch_%s_%d" % (name, attempt)).batch)
        X = [np.zeros((max(rows[t], 1), N), t) for t in TYPES]
        for args, (ins, _) in zip(order, plan):
            for (t, row), v in zip(ins, cases[args][0]):
                X[TYPES.index(t)][row] = v
        O = [np.zeros((max(orows[k], 1), N), wide({"b": "bool", "i": "int64", "u": "uint64", "f": "float64",
                                                    "c": "complex128"}[k])) for k in "biufc"]
        try:
            fn(*X, *O)
        except TypingError as e:
            line = int(re.search(r"batch_%s_%d\.py:(\d+)" % (name, attempt), str(e)).group(1))
            stmt = path.read_text().splitlines()[line - 1]
            n = int(re.match(r"\s*r(\d+) =", stmt).group(1))
            fails[order[n]] = "refused: %s" % str(e).splitlines()[0]
            del cases[order[n]]
            continue
        typed = {}
        out = io.StringIO()
        fn.inspect_types(file=out)
        for ln in out.getvalue().splitlines():
            m = re.match(r"\s*r(\d+): (.*)$", ln)
            if m:
                typed[int(m.group(1))] = m.group(2)
        for n, (args, (ins, outs)) in enumerate(zip(order, plan)):
            got = [O["biufc".index(kind)][row] for kind, row in outs]
            why = check_case(name, args, cases[args], typed.get(n), got)
            if why:
                fails[args] = why
        break
    return fails


def _check(funcs, tmp_path, target, name, combos):
    fails = kernel_cases(funcs, name, combos) if target == "kernel" else njit_cases(funcs, tmp_path, name, combos)
    msgs = ["%s(%s): %s" % (name, ", ".join(a), w) for a, w in fails.items()]
    assert not fails, "%d of %d cases fail:\n  %s" % (len(fails), len(combos), "\n  ".join(msgs[:20]))


def _types(target):
    """Kernels take every type; @njit (a C compile a ufunc) the real ones."""
    return TYPES if target == "kernel" else [t for t in TYPES if not t.startswith("complex")]


@pytest.mark.parametrize("target", ["kernel", "njit"])
@pytest.mark.parametrize("name", UNARY)
def test_unary_ufunc(funcs, tmp_path, target, name):
    _check(funcs, tmp_path, target, name, [(t,) for t in _types(target)])


@pytest.mark.parametrize("target", ["kernel", "njit"])
@pytest.mark.parametrize("name", BINARY)
def test_binary_ufunc(funcs, tmp_path, target, name):
    _check(funcs, tmp_path, target, name, [(a, b) for a in _types(target) for b in _types(target)])


def test_loop_choice_matches_numba_table():
    """The loop rule above reproduces every entry of the table."""
    bad = [(n, c) for n in NUMBA for c, t in NUMBA[n].items()
           if (numba_loop(n, c)[1] or [None])[0] != t]
    assert not bad, bad[:10]

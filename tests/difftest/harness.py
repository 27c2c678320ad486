"""Runs one generated program on a path (the simulator or the GPU, with the
optimiser on or off) and compares it with the reference.

check_file(path, paths) imports the program module (with `numba` bound to
ptxjit, as conftest.load_module does), builds its inputs from SPEC's seed,
launches `kern` on each path, runs `kern_ref` per thread, and returns a
list of Outcome, one per path:

  ok         every compared value agrees;
  mismatch   a value differs (detail says which array, row, column, the
             values), or the kernel wrote an input array;
  error      ptxjit raised (compile or launch) where the reference ran;
  refbug     the reference itself failed (a generator bug, not ptxjit's);
  skipped    no thread had a defined result to compare.

Comparisons: integers and exact float operations bit for bit (all NaNs
alike); out_m, the results of inexact math functions, within the CUDA
bound of docs/math_accuracy.md plus one ulp for the reference's own error.
Threads that did something undefined (refrt.Undefined) are left out; in
the "comm" mode such a program is skipped as a whole.  Float accumulators
(SPEC["extra"]) compare by value: max/min of -0.0 and 0.0 keep whichever
came first, so only their sign may depend on the order.  The
evaluation-order log `tlog` (gen.py's ticks: a call count, then the codes)
compares exactly, row by row, like the other outputs; a mismatch there
shows both rows.

The "comm" reference runs a block's threads as generators in lock step:
each yields at a barrier ('sync', a reducing one) or a warp operation
('warp': the harness computes every lane's result from the operands of the
32 lanes of its warp, refrt.warp_op) and is sent the result.
"""

import importlib
import importlib.util
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import refrt as R  # noqa: E402


def _bounds():
    """{(func, 'f32'|'f64'): CUDA ulp bound} from docs/math_accuracy.md."""
    out = {}
    path = os.path.join(ROOT, "docs", "math_accuracy.md")
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return out
    for ln in lines:
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if len(cells) >= 8 and cells[1] in ("f32", "f64") and cells[5].isdigit():
            name = cells[0].split()[0]
            out.setdefault((name, cells[1]), int(cells[5]))
    return out


BOUNDS = _bounds()


class Outcome:
    def __init__(self, path, status, detail=""):
        self.path, self.status, self.detail = path, status, detail

    def __repr__(self):
        return "<%s %s %s>" % (self.path, self.status, self.detail[:200])


_ptx = None


def ptxjit_cuda():
    global _ptx
    if _ptx is None:
        try:
            importlib.import_module("ptxjit")
        except ImportError:
            sys.path.insert(0, os.path.join(ROOT, "python"))
        from ptxjit import cuda
        _ptx = cuda
    return _ptx


_nmod = [0]


def load(path):
    cuda = ptxjit_cuda()
    import ptxjit
    saved = {k: sys.modules.get(k) for k in ("numba", "numba.cuda")}
    sys.modules["numba"] = ptxjit
    sys.modules["numba.cuda"] = cuda
    _nmod[0] += 1
    name = "difftest_prog_%d" % _nmod[0]
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod


# ---------------------------------------------------------------- inputs

def _values(rng, t, n):
    dt = R.NP[t]
    if t == "b":
        return rng.random(n) < 0.5
    if t in R.INTS:
        lo, hi = R.lo_hi(t)
        full = rng.integers(lo, hi, n, endpoint=True, dtype=dt)
        small = np.clip(rng.integers(-12, 13, n), lo, hi).astype(dt)
        return np.where(rng.random(n) < 0.3, full, small)
    v = rng.standard_normal(n) * rng.choice([1.0, 10.0, 1000.0], n)
    v = np.where(rng.random(n) < 0.3, np.round(v), v)
    sp = np.array([np.nan, np.inf, -np.inf, -0.0, 1e30, 1e-40, 0.5, -2.0])
    v = np.where(rng.random(n) < 0.06, sp[rng.integers(0, len(sp), n)], v)
    with np.errstate(all="ignore"):
        return v.astype(dt)


def _array(rng, t, shape, layout, readonly):
    """(the array, and for a strided view: (base, index) that makes it)."""
    n = int(np.prod(shape))
    how = None
    if layout in ("1C", "2C"):
        a = _values(rng, t, n).reshape(shape)
    elif layout == "2F":
        a = np.asfortranarray(_values(rng, t, n).reshape(shape))
    elif layout == "1S":
        base = _values(rng, t, 2 * n + 1)
        how = (base, (slice(1, 2 * n, 2),))
    elif layout == "1R":
        base = _values(rng, t, n)
        how = (base, (slice(None, None, -1),))
    else:  # 2S
        r, c = shape
        base = _values(rng, t, 2 * r * (2 * c + 1)).reshape(2 * r, 2 * c + 1)
        how = (base, (slice(None, None, 2), slice(1, None, 2)))
    if how:
        a = how[0][how[1]]
    if readonly and how is None:
        a = a.copy(order="A")
        a.flags.writeable = False
    return a, how


def _scalar(rng, t):
    if t == "b":
        return bool(rng.random() < 0.5)
    v = _values(rng, t, 1)[0]
    if t == "i64":
        return int(v)
    if t == "f64":
        return float(v)
    return v


def inputs(spec):
    rng = np.random.default_rng(spec["seed"])
    rows, ncols = spec["rows"], spec["ncols"]
    out_i = np.full((rows, ncols), -7, np.int64)
    out_f = np.full((rows, ncols), 0.25, np.float64)
    out_s = np.zeros((rows, ncols), R.NP[spec["sdt"]])
    out_m = np.zeros((rows, max(1, len(spec["mslots"]))), np.float64)
    arrs = [out_i, out_f, out_s, out_m]
    if spec["mode"] == "comm":
        arrs.append(rng.integers(-1000, 1000, 4).astype(np.int64))
    views = {}
    for name, kind, t, shape, layout, ro in spec["args"]:
        if kind == "array":
            a, how = _array(rng, t, shape, layout, ro)
            if how:
                views[len(arrs)] = how
            arrs.append(a)
        else:
            arrs.append(_scalar(rng, t))
    for name, t, n, kind in spec.get("extra", ()):
        if kind == "out":
            arrs.append(np.full((rows, n), 0.25 if t in R.FLOATS else -7, R.NP[t]))
        elif t in R.FLOATS:
            # small integers (exact sums); max/min slots NaN at times (it sticks, nanmax replaces it)
            a = rng.integers(-1000, 1000, n).astype(R.NP[t])
            a[1:][rng.random(n - 1) < 0.15] = np.nan
            arrs.append(a)
        else:
            arrs.append(rng.integers(0, 50, n).astype(R.NP[t]))
    for name, t, vals in spec.get("xin", ()):
        arrs.append(np.array([float(v) for v in vals], R.NP[t]))
    return arrs, views


def roles(spec):
    """(name, role) of each kernel parameter: 'out' (per-thread rows),
    'acc' (accumulators), 'in' (must not change), 'scalar'."""
    out = [(n, "out") for n in ("out_i", "out_f", "out_s", "out_m")]
    if spec["mode"] == "comm":
        out.append(("acc", "acc"))
    out += [(a[0], "in" if a[1] == "array" else "scalar") for a in spec["args"]]
    out += [(x[0], x[3]) for x in spec.get("extra", ())]
    out += [(x[0], "in") for x in spec.get("xin", ())]
    return out


# ---------------------------------------------------------------- reference

def reference(mod, spec, arrs):
    """(arrays after the reference ran, set of masked tids) or raises."""
    arrs = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in arrs]
    masked = set()
    if spec["grid2"]:
        (bx, by), (gx, gy) = spec["tpb"], spec["blocks"]
        w = bx * gx
        for byi in range(gy):
            for bxi in range(gx):
                for tyi in range(by):
                    for txi in range(bx):
                        T = R.Thread(txi, tyi, bxi, byi, bx, by, gx, gy)
                        try:
                            mod.kern_ref(T, None, None, *arrs)
                        except R.Undefined:
                            masked.add((byi * by + tyi) * w + bxi * bx + txi)
        return arrs, masked
    tpb, nb = spec["tpb"], spec["blocks"]
    if spec["mode"] == "pure":
        for b in range(nb):
            for t in range(tpb):
                T = R.Thread(t, 0, b, 0, tpb, 1, nb, 1)
                try:
                    mod.kern_ref(T, None, None, *arrs)
                except R.Undefined:
                    masked.add(b * tpb + t)
        return arrs, masked
    acc = arrs[4]

    def atom(op, slot, v, arr=None):
        a = acc if arr is None else arr
        a[slot] = R.atomic(op, a[slot], v, R.TYPE[a.dtype.type])

    for b in range(nb):
        shared = {}

        def SH(key, n, dt):
            if key not in shared:
                shared[key] = np.zeros(n, dt)
            return shared[key]
        gens = [mod.kern_ref(R.Thread(t, 0, b, 0, tpb, 1, nb, 1), SH, atom, *arrs) for t in range(tpb)]
        send = [None] * tpb
        while True:
            ys = [g.send(s) for g, s in zip(gens, send)]
            kinds = {k for k, _ in ys}
            if len(kinds) != 1:
                raise RuntimeError("threads diverged at a barrier: %s" % kinds)
            kind = kinds.pop()
            if kind == "end":
                break
            if kind == "sync":
                send = [None] * tpb
                continue
            if kind == "warp":
                ops = {(y[1][0], y[1][1]) for y in ys}
                if len(ops) != 1:
                    raise RuntimeError("lanes at different warp operations: %s" % ops)
                (op, t), = ops
                send = []
                for w in range(0, tpb, 32):
                    lanes = [y[1] for y in ys[w:w + 32]]
                    send += R.warp_op(op, t, [x[2] for x in lanes], [x[3] for x in lanes])
                continue
            preds = [bool(p) for _, p in ys]
            v = {"syncthreads_count": sum(preds), "syncthreads_and": int(all(preds)),
                 "syncthreads_or": int(any(preds))}[kind]
            send = [np.int32(v)] * tpb
    return arrs, masked


# ---------------------------------------------------------------- compare

def _same_float(a, b):
    a = np.ascontiguousarray(a)
    b = np.ascontiguousarray(b)
    both_nan = np.isnan(a) & np.isnan(b)
    same = (a.view(np.uint8).reshape(a.shape + (-1,)) == b.view(np.uint8).reshape(b.shape + (-1,))).all(-1)
    return same | both_nan


def compare(spec, got, want, orig, masked):
    """The first difference, as text, or None."""
    rows = spec["rows"]
    keep = np.array([r not in masked for r in range(rows)], bool)
    rl = roles(spec)
    for k, ((name, role), g, w) in enumerate(zip(rl, got, want)):
        if not isinstance(g, np.ndarray):
            continue
        if name == "out_m":
            for col, (f, t) in enumerate(spec["mslots"]):
                bound = BOUNDS.get((f, t), 4) + 1
                for r in range(rows):
                    if not keep[r]:
                        continue
                    gv, wv = float(g[r, col]), float(w[r, col])
                    if gv == 0.0 and wv == 0.0 and orig[3][r, col] == 0.0:
                        continue
                    d = R.ulps_apart(gv, wv, t)
                    if d > bound:
                        return "out_m[%d, %d] = %r, math.%s (%s) should be %r (%.3g ulps > %d)" % (
                            r, col, gv, f, t, wv, d, bound)
            continue
        if name == "out_c":
            d = _compare_c(spec, g, w, keep)
            if d:
                return d
            continue
        if role == "in":
            # an input: must be unchanged
            w = orig[k]
        if role == "acc" and g.dtype.kind == "f":
            # float accumulators: by value (max/min of -0.0 and 0.0 keep
            # whichever came first), NaN equal to NaN
            ok = (g == w) | (np.isnan(g) & np.isnan(w))
            if not ok.all():
                pos = int(np.argwhere(~ok)[0][0])
                return "%s[%d] = %r, should be %r" % (name, pos, g[pos], w[pos])
            continue
        if role == "out":
            g, w = g[keep], w[keep]
            idx_rows = np.nonzero(keep)[0]
        else:
            idx_rows = None
        if g.dtype.kind == "f":
            ok = _same_float(g, w)
        else:
            ok = g == w
        if not ok.all():
            pos = tuple(int(x) for x in np.argwhere(~ok)[0])
            if idx_rows is not None:
                pos = (int(idx_rows[pos[0]]),) + pos[1:]
                gv, wv = got[k][pos], want[k][pos]
            else:
                gv, wv = g[pos] if g.ndim else g, w[pos] if w.ndim else w
            what = "input %s was written" % name if role == "in" else name
            d = "%s%s = %r, should be %r" % (what, list(pos), gv, wv)
            if name == "tlog":
                n = min(int(want[k][pos[0], 0]), want[k].shape[1] - 1) + 1
                d += " (the row: %s, should be %s)" % (got[k][pos[0], :max(n, 2)].tolist(),
                                                      want[k][pos[0], :max(n, 2)].tolist())
            return d
    return None


CMATH_PARTS = {"sqrt": ("sqrt", "hypot"), "exp": ("exp", "sin", "cos"), "log": ("log", "log1p", "atan2", "hypot"),
               "log10": ("log10", "log1p", "atan2", "hypot"), "sin": ("sin", "cos", "sinh", "cosh"),
               "cos": ("sin", "cos", "sinh", "cosh"), "tan": ("tan", "tanh", "cosh"), "sinh": ("sin", "cos", "sinh", "cosh"),
               "cosh": ("sin", "cos", "sinh", "cosh"), "tanh": ("tan", "tanh", "cosh"), "phase": ("atan2",),
               "polar": ("atan2", "hypot"), "rect": ("sin", "cos")}


def cmath_bound(f):
    """The ulps a finite part of cmath.f may be off: the sum of the bounds
    of the real functions it is made of (asin, acos, atan and their
    hyperbolic kin: log, log1p, atan2, sqrt, hypot), one more for each
    rounding that joins them, and one for CPython's own error."""
    parts = CMATH_PARTS.get(f, ("log", "log1p", "atan2", "sqrt", "hypot"))
    return sum(BOUNDS.get((g, "f64"), 4) + 1 for g in parts) + 1


def _compare_c(spec, g, w, keep):
    """out_c (gen_cmath): a NaN part against a NaN, an infinite or zero
    part bit for bit (its sign), a finite part within the bound of
    refrt.cmath_bound."""
    for col, (f, part) in enumerate(spec.get("cslots", ())):
        for r in range(spec["rows"]):
            if not keep[r]:
                continue
            gv, wv = float(g[r, col]), float(w[r, col])
            if wv == R.CSKIP:
                continue
            if math.isnan(wv) or math.isnan(gv):
                ok = math.isnan(wv) and math.isnan(gv)
            elif math.isinf(wv) or wv == 0.0 or math.isinf(gv) or gv == 0.0:
                ok = gv == wv and math.copysign(1.0, gv) == math.copysign(1.0, wv)
            else:
                ok = R.ulps_apart(gv, wv, "f64") <= cmath_bound(f)
            if not ok:
                return "out_c[%d, %d] = %r, cmath.%s (%s) should be %r" % (r, col, gv, f, part, wv)
    return None


# ---------------------------------------------------------------- run

def run_path(mod, spec, arrs, views, path):
    """The arrays after the kernel ran on path (strided views are passed as
    views of a device array: NumPy views cannot be copied as one block)."""
    cuda = ptxjit_cuda()
    k = mod.kern if not path.endswith("O0") else cuda.jit(opt=False)(mod.kern.py_func)
    args = []
    for i, a in enumerate(arrs):
        if i in views:
            base, ix = views[i]
            args.append(cuda.to_device(base.copy())[ix])
        elif isinstance(a, np.ndarray):
            c = a.copy(order="A")
            c.flags.writeable = a.flags.writeable
            args.append(c)
        else:
            args.append(a)
    k[spec["blocks"], spec["tpb"]](*args)
    return [a.copy_to_host() if i in views else a for i, a in enumerate(args)]


def check_module(mod, paths):
    spec = mod.SPEC
    arrs, views = inputs(spec)
    try:
        want, masked = reference(mod, spec, arrs)
    except R.Undefined as e:
        return [Outcome(p, "skipped", "undefined in a communicating program: %s" % e) for p in paths]
    except Exception as e:
        return [Outcome(p, "refbug", "%s: %s" % (type(e).__name__, e)) for p in paths]
    if len(masked) >= spec["rows"]:
        return [Outcome(p, "skipped", "every thread undefined") for p in paths]
    out = []
    for p in paths:
        try:
            got = run_path(mod, spec, arrs, views, p)
        except Exception as e:
            msg = str(e).strip().splitlines()
            out.append(Outcome(p, "error", "%s: %s" % (type(e).__name__, " | ".join(msg[:6]))))
            continue
        d = compare(spec, got, want, arrs, masked)
        out.append(Outcome(p, "mismatch", d) if d else Outcome(p, "ok", "%d/%d threads compared" % (
            spec["rows"] - len(masked), spec["rows"])))
    return out


def check_file(path, paths):
    try:
        mod = load(path)
    except Exception as e:
        return [Outcome(p, "refbug", "import: %s: %s" % (type(e).__name__, e)) for p in paths]
    return check_module(mod, paths)


def check_text(text, paths, workdir):
    """Writes the module text to a file under workdir and checks it."""
    os.makedirs(workdir, exist_ok=True)
    _nmod[0] += 1
    path = os.path.join(workdir, "p%d_%d.py" % (os.getpid(), _nmod[0]))
    with open(path, "w") as f:
        f.write(text)
    try:
        return check_file(path, paths)
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass

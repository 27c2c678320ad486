"""Accuracy of ptxjit's math library: the maximum error in ulps of every
real function of math/NumPy that kernels can call, in float32 and float64,
against a high-precision reference, next to the bound CUDA's math library
documents for the same function.

    python3 bench/math_accuracy.py                  # 10^6 inputs a function, simulator
    PTXJIT_SIM=0 python3 bench/math_accuracy.py     # on the GPU
    python3 bench/math_accuracy.py -n 100000 --only sin,exp --prec f64
    python3 bench/math_accuracy.py --write docs/math_accuracy.md
    python3 bench/math_accuracy.py --make-data      # bench/data/math_ref_f64.npz (needs mpmath)

Inputs: special values (zeros, infinities, NaN, subnormals, the extremes,
integers and half-integers where they matter) and random inputs spread
over the whole domain with log-uniform magnitudes and both signs (pow also
takes exponents that keep the result in range, and negative bases with
integer exponents).  Each function runs in one kernel over all inputs.

References: float64 results against mpmath at 120 bits; when mpmath is
missing, against bench/data/math_ref_f64.npz (4096 points a function
computed here with mpmath, committed).  float32 results against the
function computed in float64 (NumPy, or Python's math for erf, erfc,
gamma, lgamma), whose own error is below 2^-28 of a float32 ulp.
Special values (an infinite or NaN argument or result) must match C99
Annex F, taken from the C library's libm, bit for bit including the
sign of a zero.

Two figures per function: "err" is |result - exact| / ulp(exact), the
real-valued error; "ulps" is the integer distance from the correctly
rounded result, the measure CUDA's bounds use (CUDA C++ Programming
Guide, section 5.5.7 "CUDA C++ Mathematical Standard Library Functions":
"the maximum observed absolute value of the difference in ULPs between the
value returned by the function and a correctly rounded result").  A
function passes when ulps <= CUDA's bound and no special value differs.
lgamma's bound holds outside (-23.0001, -2.2637) in float64 and
(-10.001, -2.264) in float32, where its zeros make the relative error
unbounded; inputs there are counted in a separate row.
"""

import argparse
import ctypes
import hashlib
import importlib.util
import math
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data", "math_ref_f64.npz")
CACHE = os.environ.get("PTXJIT_MATH_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "ptxjit-math-ref"))

try:
    import mpmath as mp
except ImportError:  # the GPU machine may not have it
    mp = None

# --------------------------------------------------------------- functions
#
# name: (kernel expression, arity, domain, CUDA bound float32, float64)
# Bounds: CUDA C++ Programming Guide 5.5.7 (exponential, power,
# trigonometric, hyperbolic, error and gamma functions); the exact functions
# (fmod, remainder, ...) are 0 ulp there.

FUNCS = {
    "sin": ("math.sin(x)", 1, "trig", 2, 2),
    "cos": ("math.cos(x)", 1, "trig", 2, 2),
    "tan": ("math.tan(x)", 1, "trig", 4, 2),
    "asin": ("math.asin(x)", 1, "unit", 2, 2),
    "acos": ("math.acos(x)", 1, "unit", 2, 2),
    "atan": ("math.atan(x)", 1, "all", 2, 2),
    "sinh": ("math.sinh(x)", 1, "hyp", 3, 2),
    "cosh": ("math.cosh(x)", 1, "hyp", 2, 1),
    "tanh": ("math.tanh(x)", 1, "all", 2, 1),
    "asinh": ("math.asinh(x)", 1, "all", 3, 3),
    "acosh": ("math.acosh(x)", 1, "ge1", 4, 3),
    "atanh": ("math.atanh(x)", 1, "unit", 3, 2),
    "exp": ("math.exp(x)", 1, "exp", 2, 1),
    "exp2": ("math.exp2(x)", 1, "exp2", 2, 1),
    "expm1": ("math.expm1(x)", 1, "exp", 1, 1),
    "log": ("math.log(x)", 1, "pos", 1, 1),
    "log2": ("math.log2(x)", 1, "pos", 1, 1),
    "log10": ("math.log10(x)", 1, "pos", 2, 1),
    "log1p": ("math.log1p(x)", 1, "log1p", 1, 1),
    "cbrt": ("np.cbrt(x)", 1, "all", 1, 1),
    "sqrt": ("math.sqrt(x)", 1, "pos", 0, 0),
    "erf": ("math.erf(x)", 1, "erf", 2, 2),
    "erfc": ("math.erfc(x)", 1, "erf", 4, 5),
    "gamma": ("math.gamma(x)", 1, "gamma", 5, 10),
    "lgamma": ("math.lgamma(x)", 1, "lgamma", 6, 4),
    "atan2": ("math.atan2(x, y)", 2, "all2", 3, 2),
    "hypot": ("math.hypot(x, y)", 2, "all2", 3, 2),
    "pow": ("math.pow(x, y)", 2, "pow", 4, 2),
    "fmod": ("math.fmod(x, y)", 2, "all2", 0, 0),
    "remainder": ("math.remainder(x, y)", 2, "all2", 0, 0),
}

LGAMMA_HOLE = {"f32": (-10.001, -2.264), "f64": (-23.0001, -2.2637)}

# ------------------------------------------------------------------ inputs

FMT = {
    "f32": dict(dt=np.float32, it=np.int32, ut=np.uint32, emin=-149, emax=128, p=24, nmin=-126),
    "f64": dict(dt=np.float64, it=np.int64, ut=np.uint64, emin=-1074, emax=1024, p=53, nmin=-1022),
}


def logu(rng, n, lo, hi, signed=True):
    """n numbers with |x| log-uniform in [2^lo, 2^hi), random signs."""
    x = np.exp2(rng.uniform(lo, hi, n))
    if signed:
        x *= rng.choice([-1.0, 1.0], n)
    return x


def specials(dom, prec):
    f = FMT[prec]
    big = float(np.finfo(f["dt"]).max)
    tiny = float(np.finfo(f["dt"]).tiny)
    sub = 2.0 ** f["emin"]
    base = [0.0, -0.0, math.inf, -math.inf, math.nan, sub, -sub, tiny, -tiny, big, -big, 1.0, -1.0, 0.5, -0.5,
            2.0, -2.0, 3.0, -3.0, 10.0, -10.0, 1e-7, -1e-7, 100.0, -100.0]
    extra = {
        "trig": [math.pi, -math.pi, math.pi / 2, math.pi / 4, 1e22, 2.0 ** 100, 6381956970095103.0 * 2.0 ** 797,
                 5.0 ** 22, 2.0 ** 1023],
        "unit": [1.0 - 2.0 ** -f["p"], -(1.0 - 2.0 ** -f["p"]), 0.7, -0.7, 0.9999, 1.0000001],
        "ge1": [1.0 + 2.0 ** (1 - f["p"]), 1.5, 2.0 ** 30],
        "exp": [709.78, 709.79, -745.13, -745.14, 88.72, 88.73, -103.97, -87.33, 20.0, -20.0, 40.0, -40.0],
        "exp2": [1023.99, 1024.0, -1074.0, -1075.0, 127.99, 128.0, -149.0, -150.0, -0.5],
        "log1p": [-1.0 + 2.0 ** -f["p"], -0.999, 2.0 ** -60, 1e300],
        "gamma": [-1.5, -2.5, -0.5, 171.6, 171.7, 35.0, 35.1, -170.5, -183.5, -190.5, 4.5, 1e-300, -1e-300],
        "lgamma": [-1.5, -2.5, 2.0, 1.0, 1e300, -1e300, 2.0 ** 60, -4.5],
        "erf": [5.9, 6.0, 26.5, 27.3, 28.0, -5.9, 3.9, 10.0, 0.84375, -1.25],
        "hyp": [710.4, 710.5, -710.5, 89.4, 89.5, 22.0, 0.55],
    }.get(dom, [])
    return [float(f["dt"](v)) for v in base + extra]


def gen_inputs(name, prec, n, seed):
    """The inputs of one function: (x[, y]) arrays of the precision."""
    _, arity, dom, _, _ = FUNCS[name]
    f = FMT[prec]
    rng = np.random.default_rng(seed + (0 if prec == "f64" else 7) + sum(map(ord, name)) * 101)
    e0, e1 = f["emin"] + 1, f["emax"]
    d = f["dt"]
    if arity == 1:
        sp = specials(dom, prec)
        m = max(n - len(sp), 0)
        if dom in ("trig", "all"):
            x = np.concatenate([logu(rng, m // 2, e0, e1), rng.uniform(-20, 20, m - m // 2)])
        elif dom == "unit":
            x = logu(rng, m, -60 if prec == "f64" else -30, 0)
        elif dom == "ge1":
            x = 1.0 + logu(rng, m, -60 if prec == "f64" else -30, e1 - 1, signed=False)
        elif dom == "pos":
            x = logu(rng, m, e0, e1, signed=False)
        elif dom == "log1p":
            x = np.concatenate([logu(rng, m // 2, -60, 0), logu(rng, m - m // 2, -60, e1 - 1, signed=False)])
        elif dom == "exp":
            lim = 750.0 if prec == "f64" else 105.0
            x = np.concatenate([rng.uniform(-lim, lim, m // 2), logu(rng, m - m // 2, -60, math.log2(lim))])
        elif dom == "exp2":
            lim = 1080.0 if prec == "f64" else 155.0
            x = np.concatenate([rng.uniform(-lim, lim, m // 2), logu(rng, m - m // 2, -60, math.log2(lim))])
        elif dom == "hyp":
            lim = 712.0 if prec == "f64" else 90.0
            x = np.concatenate([rng.uniform(-lim, lim, m // 2), logu(rng, m - m // 2, -60, math.log2(lim))])
        elif dom == "erf":
            x = np.concatenate([rng.uniform(-30, 30, m // 2), logu(rng, m - m // 2, -60, 5)])
        elif dom == "gamma":
            lim = 190.0 if prec == "f64" else 45.0
            x = np.concatenate([rng.uniform(-lim, lim, m // 2), logu(rng, m - m // 2, -60, math.log2(lim))])
        elif dom == "lgamma":
            x = np.concatenate([rng.uniform(-40, 40, m // 2), logu(rng, m - m // 2, -60, e1 - 24)])
        else:
            raise ValueError(dom)
        x = np.concatenate([np.array(sp), x]).astype(d)
        return (x,)
    sp = specials("all", prec)
    pairs = [(a, b) for a in sp for b in sp]
    m = max(n - len(pairs), 0)
    if dom == "pow":
        k = m // 4
        x1 = logu(rng, 2 * k, e0, e1, signed=False)
        t = rng.uniform(-1.1 * e1, 1.1 * e1, 2 * k)
        y1 = t / np.log2(x1)
        x2 = -logu(rng, k, -20, 20, signed=False)
        y2 = np.round(rng.uniform(-60, 60, k))
        x3 = rng.uniform(0, 4, m - 3 * k)
        y3 = rng.uniform(-30, 30, m - 3 * k)
        x = np.concatenate([x1, x2, x3])
        y = np.concatenate([y1, y2, y3])
    else:
        x = logu(rng, m, e0, e1)
        y = np.where(rng.random(m) < 0.5, logu(rng, m, e0, e1), x * logu(rng, m, -40, 40))
    px = np.array([p[0] for p in pairs])
    py = np.array([p[1] for p in pairs])
    with np.errstate(all="ignore"):
        return (np.concatenate([px, x]).astype(d), np.concatenate([py, y]).astype(d))


# ------------------------------------------------------------- references

def _libm():
    for name in ("libm.so.6", "libm.dylib", "libm.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


LIBM = _libm()
CNAMES = {"gamma": "tgamma", "remainder": "remainder"}


def libm_eval(name, prec, args):
    """The C library's function, element by element (special values)."""
    cname = CNAMES.get(name, name)
    if prec == "f32":
        cname += "f"
    fn = getattr(LIBM, cname)
    ct = ctypes.c_float if prec == "f32" else ctypes.c_double
    fn.restype = ct
    fn.argtypes = [ct] * len(args)
    dt = FMT[prec]["dt"]
    out = np.empty(len(args[0]), dtype=dt)
    for i in range(len(out)):
        out[i] = fn(*[float(a[i]) for a in args])
    return out


def mp_func(name):
    if name == "lgamma":
        return lambda x: mp.re(mp.loggamma(x))
    return {
        "sin": mp.sin, "cos": mp.cos, "tan": mp.tan, "asin": mp.asin, "acos": mp.acos, "atan": mp.atan,
        "sinh": mp.sinh, "cosh": mp.cosh, "tanh": mp.tanh, "asinh": mp.asinh, "acosh": mp.acosh,
        "atanh": mp.atanh, "exp": mp.exp, "exp2": lambda x: mp.power(2, x), "expm1": mp.expm1,
        "log": mp.log, "log2": lambda x: mp.log(x, 2), "log10": mp.log10, "log1p": mp.log1p,
        "cbrt": lambda x: mp.cbrt(x) if x >= 0 else -mp.cbrt(-x), "sqrt": mp.sqrt, "erf": mp.erf,
        "erfc": mp.erfc, "gamma": mp.gamma, "atan2": mp.atan2, "hypot": mp.hypot, "pow": mp.power,
    }[name]


def _to_pair(v):
    """An mpf as (hi, lo): hi the correctly rounded float64 (subnormals too)."""
    if not mp.isfinite(v):
        return float(v), 0.0
    if v == 0:
        return 0.0, 0.0
    if abs(v) < mp.ldexp(1, -1022):
        hi = float(mp.nint(v * mp.ldexp(1, 1074))) * 2.0 ** -1074
    else:
        hi = float(v)
    if math.isinf(hi):
        return hi, 0.0
    return hi, float(v - hi)


def _mp_chunk(job):
    name, xs, ys = job
    mp.mp.prec = 120
    f = mp_func(name)
    his, los = [], []
    for i in range(len(xs)):
        try:
            args = [mp.mpf(float(xs[i]))] + ([mp.mpf(float(ys[i]))] if ys is not None else [])
            v = f(*args)
            if isinstance(v, mp.mpc):
                v = mp.nan if abs(mp.im(v)) > 0 else mp.re(v)
            h, l = _to_pair(v)
        except (ValueError, ZeroDivisionError, OverflowError):
            h, l = math.nan, 0.0
        his.append(h)
        los.append(l)
    return np.array(his), np.array(los)


def ref_mpmath(name, args):
    """float64 references (hi, lo) with mpmath, in parallel, cached."""
    key = hashlib.sha1(name.encode() + b"".join(a.tobytes() for a in args)).hexdigest()[:20]
    path = os.path.join(CACHE, "%s-%s.npz" % (name, key))
    if os.path.exists(path):
        d = np.load(path)
        return d["hi"], d["lo"]
    from multiprocessing import Pool
    n = len(args[0])
    chunk = 20000
    jobs = [(name, args[0][i:i + chunk], args[1][i:i + chunk] if len(args) > 1 else None) for i in range(0, n, chunk)]
    with Pool(os.cpu_count() or 2) as pool:
        parts = pool.map(_mp_chunk, jobs)
    hi = np.concatenate([p[0] for p in parts])
    lo = np.concatenate([p[1] for p in parts])
    os.makedirs(CACHE, exist_ok=True)
    np.savez_compressed(path, hi=hi, lo=lo)
    return hi, lo


def _vec(fn):
    def g(x):
        out = np.empty(len(x))
        for i, v in enumerate(x):
            try:
                out[i] = fn(float(v))
            except (ValueError, OverflowError):
                out[i] = math.nan
        return out
    return g


def ref_f64_of_f32(name, args):
    """float32 references: the function in float64."""
    a = [v.astype(np.float64) for v in args]
    with np.errstate(all="ignore"):
        if name in ("erf", "erfc", "lgamma", "gamma"):
            return _vec(getattr(math, name))(a[0])
        if name in ("remainder", "fmod"):
            f = getattr(math, name)
            return np.array([f(u, v) if math.isfinite(u) and v != 0 and not math.isnan(v)
                             else math.nan for u, v in zip(a[0], a[1])])
        npname = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
                  "atanh": "arctanh", "atan2": "arctan2", "pow": "power"}.get(name, name)
        return getattr(np, npname)(*a)


# ------------------------------------------------------------------ metrics

def ordered(x, prec):
    """Float bits as integers whose order is the floats' order (both zeros 0)."""
    i = x.view(FMT[prec]["it"]).astype(np.int64)
    mag = i & (0x7fffffff if prec == "f32" else 0x7fffffffffffffff)
    return np.where(i < 0, -mag, mag)


def ulp_of(v, prec):
    f = FMT[prec]
    a = np.abs(v)
    with np.errstate(all="ignore"):
        e = np.floor(np.log2(np.where(a > 0, a, 2.0 ** f["nmin"])))
        # guard log2 rounding at powers of two
        e = np.where(np.exp2(e) > a, e - 1, e)
        e = np.where(np.exp2(e + 1) <= a, e + 1, e)
    e = np.maximum(e, f["nmin"])
    return np.exp2(e - (f["p"] - 1))


def measure(name, prec, args, got, hi, lo):
    """(max err, max ulps vs correctly rounded, special mismatches, where) over the inputs."""
    f = FMT[prec]
    dt = f["dt"]
    got = got.astype(dt)
    if prec == "f64":
        cr = hi
        exact_hi, exact_lo = hi, lo
    else:
        exact_hi, exact_lo = hi, np.zeros_like(hi)
        with np.errstate(all="ignore"):
            cr = hi.astype(np.float32)
    gd = got.astype(np.float64)
    refnan = np.isnan(cr)
    gotnan = np.isnan(gd)
    fin = np.isfinite(cr)
    bad = np.zeros(len(got), dtype=bool)
    bad |= refnan != gotnan
    inf = ~fin & ~refnan
    bad |= inf & (gd != cr)
    both = fin & np.isfinite(gd)
    bad |= fin & ~np.isfinite(gd)
    err = np.zeros(len(got))
    ulps = np.zeros(len(got))
    with np.errstate(all="ignore"):
        u = ulp_of(exact_hi, prec)
        e = np.abs((gd - exact_hi) - exact_lo) / u
        err = np.where(both, e, np.where(bad, np.inf, 0.0))
        oc = ordered(np.asarray(cr, dtype=dt), prec)
        og = ordered(got, prec)
        ulps = np.where(both, np.abs(og - oc).astype(np.float64), np.where(bad, np.inf, 0.0))
    # signed zeros of the special values
    zs = both & (cr == 0) & (gd == 0) & (np.signbit(cr) != np.signbit(gd))
    bad |= zs
    return err, ulps, bad


# ------------------------------------------------------------------ kernels

def kernel_module(names, precs):
    src = ["import math", "import numpy as np", "from ptxjit import cuda", ""]
    for name in names:
        expr, arity = FUNCS[name][0], FUNCS[name][1]
        for prec in precs:
            params = "x, y, out" if arity == 2 else "x, out"
            body = expr.replace("(x)", "(x[i])") if arity == 1 else expr.replace("(x, y)", "(x[i], y[i])")
            src += ["@cuda.jit", "def k_%s_%s(%s):" % (name, prec, params), "    i = cuda.grid(1)",
                    "    if i < out.size:", "        out[i] = %s" % body, ""]
    d = tempfile.mkdtemp(prefix="ptxjit_math_")
    path = os.path.join(d, "math_kernels.py")
    with open(path, "w") as f:
        f.write("\n".join(src))
    spec = importlib.util.spec_from_file_location("math_kernels", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_kernel(mod, name, prec, args):
    from ptxjit import cuda
    k = getattr(mod, "k_%s_%s" % (name, prec))
    out = np.zeros(len(args[0]), dtype=FMT[prec]["dt"])
    tpb = 256
    k[(len(out) + tpb - 1) // tpb, tpb](*args, out)
    cuda.synchronize()
    return out


# -------------------------------------------------------------------- main

def references(name, prec, args, use_mp, data):
    """(hi, lo, how) for the inputs; may replace args by the stored ones."""
    special = np.zeros(len(args[0]), dtype=bool)
    for a in args:
        special |= ~np.isfinite(a) | (a == 0)
    if name == "sqrt" and prec == "f64":
        return np.sqrt(args[0]), np.zeros(len(args[0])), "exact"
    if name in ("fmod", "remainder"):
        # Python's math.remainder is IEEE's (glibc's gives +0 for some subnormal divisors)
        hi = ref_f64_of_f32(name, args)
        return hi.astype(np.float64), np.zeros(len(hi)), "exact"
    if prec == "f32":
        hi = ref_f64_of_f32(name, args)
        how = "float64"
    elif use_mp:
        hi, lo = ref_mpmath(name, args)
        how = "mpmath"
        sp = special | ~np.isfinite(hi) | (hi == 0)
        if sp.any():
            idx = np.nonzero(sp)[0]
            hi = hi.copy()
            lo = lo.copy()
            hi[idx] = libm_eval(name, prec, [a[idx] for a in args])
            lo[idx] = 0.0
        return hi, lo, how
    else:
        raise RuntimeError("no float64 reference")
    sp = special | ~np.isfinite(hi) | (hi == 0)
    if sp.any() and LIBM is not None:
        idx = np.nonzero(sp)[0]
        hi = hi.copy()
        hi[idx] = libm_eval(name, prec, [a[idx] for a in args]).astype(np.float64)
    return hi, np.zeros(len(hi)), how


def make_data(n, seed, names):
    if mp is None:
        sys.exit("--make-data needs mpmath (pip install mpmath)")
    out = {}
    for name in names:
        if name in ("fmod", "remainder", "sqrt"):
            continue
        args = gen_inputs(name, "f64", n, seed + 12345)
        hi, lo, _ = references(name, "f64", args, True, None)
        out[name + ":x"] = args[0]
        if len(args) > 1:
            out[name + ":y"] = args[1]
        out[name + ":hi"] = hi
        # lo in ulps of hi: it fits a float32 whatever hi's magnitude
        with np.errstate(all="ignore"):
            out[name + ":lo"] = np.where(np.isfinite(hi), lo / ulp_of(hi, "f64"), 0.0).astype(np.float32)
        print("reference data for", name, flush=True)
    os.makedirs(os.path.dirname(DATA), exist_ok=True)
    np.savez_compressed(DATA, **out)
    print("wrote", DATA, os.path.getsize(DATA), "bytes")


def markdown(rows, n, backend, refnote):
    lines = [
        "# Accuracy of ptxjit's math library",
        "",
        "Written by `bench/math_accuracy.py` (%s inputs a function and precision, on the %s; %s)." % (
            n, backend, refnote),
        "",
        "err: the largest |result - exact| / ulp(exact). ulps: the largest distance in ulps from the",
        "correctly rounded result, the measure of CUDA's bounds (CUDA C++ Programming Guide, section",
        "5.5.7, \"CUDA C++ Mathematical Standard Library Functions\": \"the maximum observed absolute",
        "value of the difference in ULPs between the value returned by the function and a correctly",
        "rounded result\"). specials: special values (infinite or NaN arguments or results, signed",
        "zeros) that differ from C99 Annex F (glibc's libm). The exact functions (fmod, remainder)",
        "must be exact: CUDA documents 0 ulp for them.",
        "",
        "An err of exactly 1 with ulps 1 (exp, exp2, hypot, pow in float64) is a subnormal result,",
        "which the final scaling rounds a second time; normal results stay below that. lgamma's",
        "bound holds outside (-23.0001, -2.2637) in float64 and (-10.001, -2.264) in float32, where",
        "its zeros make the relative error unbounded (CUDA documents \"larger inside\"); inputs there",
        "have their own row, without a bound. The inputs: special values, and random ones with",
        "log-uniform magnitudes over each function's whole domain, both signs (trigonometric",
        "functions up to the largest float, so Payne-Hanek reduction is measured too).",
        "",
        "| function | prec | inputs | err | ulps | CUDA bound | specials | ok |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append("| %s | %s | %d | %.3f | %s | %s | %d | %s |" % (
            r["name"], r["prec"], r["n"], r["err"], "%g" % r["ulps"], r["bound"], r["specials"],
            "yes" if r["ok"] else "**no**"))
    lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=1000000, help="inputs per function and precision")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", default="", help="comma-separated function names")
    ap.add_argument("--prec", default="f32,f64")
    ap.add_argument("--write", default="", help="write the table as Markdown to this file")
    ap.add_argument("--make-data", action="store_true")
    ap.add_argument("--data-n", type=int, default=4096)
    ap.add_argument("--worst", action="store_true", help="print the worst inputs")
    ap.add_argument("--stored", action="store_true",
                    help="float64 against the stored references even when mpmath is there")
    args = ap.parse_args()
    np.seterr(all="ignore")
    names = [s for s in args.only.split(",") if s] or list(FUNCS)
    if args.make_data:
        make_data(args.data_n, args.seed, names)
        return
    precs = [p for p in args.prec.split(",") if p]
    os.environ.setdefault("PTXJIT_SIM", "1")
    try:  # an installed ptxjit or one on PYTHONPATH, else the checkout's in-place build
        import ptxjit  # noqa: F401
    except ImportError:
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import ptxjit  # noqa: F401
    backend = "simulator" if os.environ.get("PTXJIT_SIM") == "1" else "GPU"
    use_mp = mp is not None and not args.stored
    data = None
    if not use_mp:
        if not os.path.exists(DATA):
            sys.exit("no mpmath and no %s: float64 needs one of them" % DATA)
        data = np.load(DATA)
    mod = kernel_module(names, precs)
    rows = []
    failed = 0
    print("%-10s %-4s %8s %9s %7s %6s %8s  %s" % ("function", "prec", "inputs", "err", "ulps", "bound", "specials",
                                                   "reference"))
    for name in names:
        for prec in precs:
            t0 = time.time()
            if prec == "f64" and data is not None and name not in ("fmod", "remainder", "sqrt"):
                a = [data[name + ":x"]] + ([data[name + ":y"]] if FUNCS[name][1] == 2 else [])
                hi = data[name + ":hi"]
                lo = data[name + ":lo"].astype(np.float64) * ulp_of(hi, "f64")
                how = "stored mpmath"
            else:
                a = list(gen_inputs(name, prec, args.n, args.seed))
                hi, lo, how = references(name, prec, a, use_mp, data)
            got = run_kernel(mod, name, prec, a)
            err, ulps, bad = measure(name, prec, a, got, hi, lo)
            bound = FUNCS[name][3 if prec == "f32" else 4]
            sel = np.ones(len(got), dtype=bool)
            parts = [(name, sel)]
            if name == "lgamma":
                lo_, hi_ = LGAMMA_HOLE[prec]
                x = a[0].astype(np.float64)
                hole = (x > lo_) & (x < hi_)
                parts = [(name, ~hole), ("lgamma in (%g, %g)" % (lo_, hi_), hole)]
            for label, m in parts:
                nb = int(bad[m].sum())
                e = float(np.max(err[m][~bad[m]], initial=0.0))
                u = float(np.max(ulps[m][~bad[m]], initial=0.0))
                ok = nb == 0 and (u <= bound or "in (" in label)
                failed += not ok
                b = "-" if "in (" in label else str(bound)
                rows.append(dict(name=label, prec=prec, n=int(m.sum()), err=e, ulps=u, bound=b, specials=nb, ok=ok))
                print("%-10s %-4s %8d %9.3f %7g %6s %8d  %s (%.1fs)%s" % (label, prec, m.sum(), e, u, b, nb, how,
                                                                          time.time() - t0, "" if ok else "  FAIL"),
                      flush=True)
                if args.worst or not ok:
                    w = np.nonzero(m)[0]
                    key = np.where(bad[w], np.inf, err[w])
                    for i in w[np.argsort(-key)[:5]]:
                        print("    x=%r%s got=%r ref=%r+%r err=%g" % (
                            float(a[0][i]), ", y=%r" % float(a[1][i]) if len(a) > 1 else "", float(got[i]),
                            float(hi[i]), float(lo[i]), err[i]))
    if args.write:
        refnote = "float64 references from mpmath at 120 bits" if use_mp else \
            "float64 references from bench/data/math_ref_f64.npz"
        refnote += ", float32 references computed in float64"
        with open(args.write, "w") as f:
            f.write(markdown(rows, args.n, backend, refnote))
        print("wrote", args.write)
    print("%d of %d rows fail" % (failed, len(rows)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

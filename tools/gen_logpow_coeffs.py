"""Writes src/math/logpowtab.h: the polynomials and tables of the fast
paths of float32 log, log2, log10, log1p, erf and pow and of float64 erf
(exp_log.c, erf_gamma.c, pow.c), minimax fits made with mpmath
(remez.py), like tools/math_coeffs.py's.

    python3 tools/gen_logpow_coeffs.py            # rewrites src/math/logpowtab.h
    python3 tools/gen_logpow_coeffs.py --check    # prints each fit's error only

Each entry says the function fitted, its interval, the number of
coefficients and the weight; the header gives the coefficients low degree
first as C hex floats (float32 values for the float32 tables), with the
error after rounding them, measured on a dense grid.  The table for
float32 pow's log2 is described at pow_table() below.
"""

import os
import struct
import sys

import mpmath as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remez import guarded, minimax  # noqa: E402

mp.mp.prec = 256
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def fbits(u):
    return struct.unpack("<f", struct.pack("<I", u))[0]


def peval(c, x):
    r = mp.mpf(0)
    for v in reversed(c):
        r = r * x + mp.mpf(v)
    return r


SPECS = []


def spec(name, prec, g, a, b, n, weight, doc):
    SPECS.append(dict(name=name, prec=prec, g=g, a=mp.mpf(a), b=mp.mpf(b), n=n, weight=weight, doc=doc))


L2E = 1 / mp.log(2)
L10E = 1 / mp.log(10)

# float32 log and log10: x = 2^e m, m in [2/3, 4/3) from the bits
# (m = x - ((x - 0x3f2aaaab) & 0xff800000)), f = m - 1
F_LO = mp.mpf(fbits(0x3f2aaaab)) - 1
F_HI = 2 * mp.mpf(fbits(0x3f2aaaab)) - 1
# log1p: m in [3/4, 3/2) from 1 + x rounded to nearest (a hair beyond)
P_LO, P_HI = mp.mpf("-0.2500001"), mp.mpf("0.5000001")
# log2: m in [sqrt(1/2), sqrt(2))
S_LO = mp.mpf(fbits(0x3f3504f3)) - 1
S_HI = 2 * mp.mpf(fbits(0x3f3504f3)) - 1

_LQ = guarded(lambda f: (mp.log1p(f) - f) / f ** 2, -0.5)
# the error of f^2 Q relative to log1p(f)
_LW = lambda f: f ** 2 / abs(mp.log1p(f)) if f != 0 else abs(f)
spec("LOG_Q_F", "f", _LQ, F_LO, F_HI, 8, _LW, "log1p(f) = f + f^2 Q(f), f = m - 1, m in [2/3, 4/3)")
spec("LOG1P_Q_F", "f", _LQ, P_LO, P_HI, 8, _LW, "log1p(f) = f + f^2 Q(f), f in [-1/4, 1/2]")


def base_r(c, chi):
    """R(f) = (log_c(1 + f) - chi f) / f: log_c(1 + f) = chi f + f R(f)"""
    return guarded(lambda f: (mp.log1p(f) * c - chi * f) / f, c - chi)


_C2 = f32(L2E)
_C10 = f32(L10E)
spec("LOG2_R_F", "f", base_r(L2E, _C2), S_LO, S_HI, 10,
     lambda f: abs(f) / abs(mp.log1p(f) * L2E) if f != 0 else 1 / L2E,
     "log2(1 + f) = C f + f R(f), C = log2(e) in float32, m in [sqrt(1/2), sqrt(2))")
spec("LOG10_R_F", "f", base_r(L10E, _C10), F_LO, F_HI, 8,
     lambda f: abs(f) / abs(mp.log1p(f) * L10E) if f != 0 else 1 / L10E,
     "log10(1 + f) = C f + f R(f), C = log10(e) in float32, m in [2/3, 4/3)")

# float32 erf, CUDA's arrangement: one Horner evaluation whose
# coefficients are selected by |x| >= ERF_SPLIT: erf(x) = x + x P(x^2)
# below, erf(t) = 1 - 2^(-t - t P(t)) above (up to 3.92, where erf
# rounds to 1; the power of 2 is the GPU's ex2, as CUDA's erff does)
ERF_SPLIT = mp.mpf(f32(1.0029599666595458984))
_EP = guarded(lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) - 1, 2 / mp.sqrt(mp.pi) - 1)
spec("ERF_SMALL_F", "f", _EP, 0, ERF_SPLIT ** 2, 6,
     lambda z: mp.sqrt(z) / mp.erf(mp.sqrt(z)) if z != 0 else mp.sqrt(mp.pi) / 2,
     "erf(x) = x + x P(x^2), |x| <= 1.00296")
spec("ERF_BIG_F", "f", lambda t: -mp.log(mp.erfc(t), 2) / t - 1, ERF_SPLIT, mp.mpf("3.92"), 6,
     lambda t: t * mp.erfc(t) / mp.erf(t),
     "erf(t) = 1 - 2^(-t - t P(t)), 1.00296 <= t <= 3.92 (weighted by t erfc(t) / erf(t))")

# float64 erf: erf(t) = -expm1(-t Q(t)) on [0, 5.93], one coefficient
# fewer than math_coeffs.py's ERF_Q_D
_Q = guarded(lambda t: -mp.log(mp.erfc(t)) / t, 2 / mp.sqrt(mp.pi))
_QW = lambda t: mp.erfc(t) * t / mp.erf(t) if t != 0 else mp.sqrt(mp.pi) / 2
spec("ERF_Q23_D", "d", _Q, 0, mp.mpf("5.93"), 23, _QW,
     "erf(t) = -expm1(-t Q(t)), 0 <= t <= 5.93 (weighted by erfc(t) t / erf(t))")


def measure(s, c, n=3000):
    worst = mp.mpf(0)
    for i in range(n + 1):
        x = s["a"] + (s["b"] - s["a"]) * i / n
        e = (s["g"](x) - peval(c, x)) * s["weight"](x)
        worst = max(worst, abs(e))
    return worst


def main():
    check = "--check" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    out = []
    for s in SPECS:
        if only and s["name"] not in only:
            continue
        c, e = minimax(s["g"], s["a"], s["b"], s["n"], weight=s["weight"], iters=200,
                       grid=max(400, 100 * s["n"]))
        cr = [f32(v) if s["prec"] == "f" else float(v) for v in c]
        err = measure(s, cr)
        print("%-12s %s %2d coeffs  fit 2^%.1f  rounded 2^%.1f  %s" % (
            s["name"], s["prec"], len(cr), float(mp.log(e, 2)), float(mp.log(err, 2)), s["doc"]), flush=True)
        vals = ",\n\t".join(float(v).hex() for v in cr)
        out.append("/* %s: [%s, %s], weighted error 2^%.1f */\nstatic const double %s[%d] = {\n\t%s,\n};\n" % (
            s["doc"], mp.nstr(s["a"], 8), mp.nstr(s["b"], 8), float(mp.log(err, 2)), s["name"], len(cr), vals))
    if only:
        print("\n".join(out))
    if check or only:
        return
    path = os.path.join(ROOT, "src", "math", "logpowtab.h")
    with open(path, "w") as f:
        f.write("/*\n * logpowtab.h - polynomials and tables of the fast float32 log, log2,\n"
                " * log10, log1p, erf and pow and of float64 erf, written by\n"
                " * tools/gen_logpow_coeffs.py (minimax fits with mpmath; do not edit\n"
                " * by hand).  Low degree first.\n */\n")
        f.write("#ifndef PTXJIT_MATH_LOGPOWTAB_H\n#define PTXJIT_MATH_LOGPOWTAB_H\n\n")
        f.write("\n".join(out))
        f.write("\n#endif\n")
    print("wrote", path)


if __name__ == "__main__":
    main()

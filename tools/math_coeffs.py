"""Writes src/math/coeffs.h: the polynomial coefficients of ptxjit's math
library, minimax fits made here with mpmath (remez.py).

    python3 tools/math_coeffs.py            # rewrites src/math/coeffs.h
    python3 tools/math_coeffs.py --check    # prints each fit's error only

Each entry names the function fitted, its interval, the degree, and whether
the error is relative or absolute; the header gives the coefficients low
degree first as C hex floats (exact), with the fit's error after rounding
them to the target precision (measured on a dense grid in mpmath).
The library's C files (exp_log.c, trig.c, ...) say which formula each
table belongs to.
"""

import os
import sys

import mpmath as mp
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remez import guarded, minimax  # noqa: E402

mp.mp.prec = 256
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def rounded(c, prec):
    return [f32(v) if prec == "f" else float(v) for v in c]


def hexf(v, prec):
    if prec == "f":
        return float(v).hex()
    return float(v).hex()


def peval(c, x):
    r = mp.mpf(0)
    for v in reversed(c):
        r = r * x + mp.mpf(v)
    return r


def measure(g, a, b, c, rel, weight=None, n=3000):
    worst = mp.mpf(0)
    for i in range(n + 1):
        x = mp.mpf(a) + (mp.mpf(b) - a) * i / n
        gx = g(x)
        e = gx - peval(c, x)
        if weight is not None:
            e *= weight(x)
        elif rel:
            e /= abs(gx)
        worst = max(worst, abs(e))
    return worst


SPECS = []


def spec(name, prec, g, a, b, n, rel=True, doc="", weight=None, pairs=0):
    SPECS.append(dict(name=name, prec=prec, g=g, a=a, b=b, n=n, rel=rel, doc=doc, weight=weight, pairs=pairs))


# ------------------------------------------------------------------ exp/log
LN2 = mp.log(2)
R_EXP = 0.3466   # ln2/2 plus the rounding of k
spec("EXP_Q_D", "d", guarded(lambda r: (mp.exp(r) - 1 - r) / r ** 2, 0.5), -R_EXP, R_EXP, 10,
     doc="exp(r) = 1 + (r + r^2 Q(r)), |r| <= ln2/2")
spec("EXP_Q10_D", "d", guarded(lambda r: (mp.exp(r) - 1 - r) / r ** 2, 0.5), -R_EXP, R_EXP, 9,
     doc="exp(r) = 1 + (r + r^2 Q(r)), |r| <= ln2/2, one term fewer (exp and erf's fast paths)")
spec("EXP_Q_F", "f", guarded(lambda r: (mp.exp(r) - 1 - r) / r ** 2, 0.5), -R_EXP, R_EXP, 4,
     doc="exp(r) = 1 + (r + r^2 Q(r)), |r| <= ln2/2")
spec("EXP2_P_D", "d", guarded(lambda r: (mp.power(2, r) - 1) / r, LN2), -0.5, 0.5, 11,
     doc="2^r = 1 + r P(r), |r| <= 1/2")
spec("EXP2_P_F", "f", guarded(lambda r: (mp.power(2, r) - 1) / r, LN2), -0.5, 0.5, 5,
     doc="2^r = 1 + r P(r), |r| <= 1/2")
# log: s = f/(2+f), log1p(f) = 2s + s R(z), R(z) = z P(z), z = s^2, s^2 <= 0.0295
S_MAX = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
spec("LOG_P_D", "d", guarded(lambda z: (2 * mp.atanh(mp.sqrt(z)) - 2 * mp.sqrt(z)) / (mp.sqrt(z) * z), mp.mpf(2) / 3),
     0, S_MAX ** 2, 7, doc="log1p(f) = 2s + s z P(z), s = f/(2+f), z = s^2")
# float log: log1p(f) = f + f^2 P(f), f in [sqrt(1/2) - 1, sqrt(2) - 1]
spec("LOG_P_F", "f", guarded(lambda f: (mp.log1p(f) - f) / f ** 2, -0.5), mp.sqrt(0.5) - 1, mp.sqrt(2) - 1, 8,
     doc="log1p(f) = f + f^2 P(f)")

spec("LOG_P5_D", "d", guarded(lambda z: (2 * mp.atanh(mp.sqrt(z)) - 2 * mp.sqrt(z) - 2 * mp.sqrt(z) ** 3 / 3) / mp.sqrt(z) ** 5,
                              mp.mpf(2) / 5), 0, S_MAX ** 2, 7,
     doc="log1p(f) = 2s + 2s^3/3 + s^5 P(z), s = f/(2+f), z = s^2 (for pow)")

# ----------------------------------------------------------------- trig
PIO4SQ = (mp.pi / 4) ** 2 * mp.mpf("1.0001")
_S = guarded(lambda z: (mp.sin(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, -mp.mpf(1) / 6)
_C = guarded(lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z ** 2, mp.mpf(1) / 24)
_T = guarded(lambda z: (mp.tan(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, mp.mpf(1) / 3)
_A = guarded(lambda z: (mp.asin(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, mp.mpf(1) / 6)
_AT = guarded(lambda z: (mp.atan(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, -mp.mpf(1) / 3)
spec("SIN_S_D", "d", _S, 0, PIO4SQ, 6, doc="sin(r) = r + r^3 S(r^2), |r| <= pi/4")
spec("COS_C_D", "d", _C, 0, PIO4SQ, 6, doc="cos(r) = 1 - r^2/2 + r^4 C(r^2), |r| <= pi/4")
spec("SIN_S_F", "f", _S, 0, PIO4SQ, 3, doc="sin(r) = r + r^3 S(r^2), |r| <= pi/4")
spec("COS_C_F", "f", _C, 0, PIO4SQ, 3, doc="cos(r) = 1 - r^2/2 + r^4 C(r^2), |r| <= pi/4")
# sinf's fast path (CUDA's arrangement): sin(r) = r + r z S(z) with three
# terms and cos(r) = 1 + z P(z) with four, one Horner evaluation for both;
# the errors weighted by their effect on sin and cos
_CP = guarded(lambda z: (mp.cos(mp.sqrt(z)) - 1) / z, -mp.mpf(1) / 2)
spec("SIN_S3_F", "f", _S, mp.mpf("1e-8"), PIO4SQ, 2, rel=False, weight=lambda z: z,
     doc="sin(r) = r + r^3 S(r^2), |r| <= pi/4, weighted by r^2")
spec("COS_P_F", "f", _CP, mp.mpf("1e-8"), PIO4SQ, 3, rel=False, weight=lambda z: z / mp.cos(mp.sqrt(z)),
     doc="cos(r) = 1 + r^2 P(r^2), |r| <= pi/4, weighted by r^2 / cos(r)")
spec("TAN_T_D", "d", _T, 0, PIO4SQ, 14, doc="tan(r) = r + r^3 T(r^2), |r| <= pi/4")
spec("TAN_T_F", "f", _T, 0, PIO4SQ, 6, doc="tan(r) = r + r^3 T(r^2), |r| <= pi/4")
spec("ASIN_A_D", "d", _A, 0, 0.25, 12, doc="asin(s) = s + s^3 A(s^2), |s| <= 1/2")
spec("ASIN_A_F", "f", _A, 0, 0.25, 4, doc="asin(s) = s + s^3 A(s^2), |s| <= 1/2")
spec("ATAN_T_D", "d", _AT, 0, (mp.mpf(7) / 16) ** 2, 10, doc="atan(t) = t + t^3 T(t^2), |t| <= 7/16")
spec("ATAN_T_F", "f", _AT, 0, (mp.mpf(7) / 16) ** 2, 4, doc="atan(t) = t + t^3 T(t^2), |t| <= 7/16")
# hyperbolic
_SH = guarded(lambda z: (mp.sinh(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, mp.mpf(1) / 6)
_TH = guarded(lambda z: (mp.tanh(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, -mp.mpf(1) / 3)
spec("SINH_S_D", "d", _SH, 0, 1, 7, doc="sinh(a) = a + a^3 S(a^2), |a| <= 1")
spec("SINH_S_F", "f", _SH, 0, 1, 3, doc="sinh(a) = a + a^3 S(a^2), |a| <= 1")
spec("TANH_T_D", "d", _TH, 0, mp.mpf("0.3025"), 12, doc="tanh(a) = a + a^3 T(a^2), |a| <= 0.55")
spec("TANH_T_F", "f", _TH, 0, mp.mpf("0.3025"), 5, doc="tanh(a) = a + a^3 T(a^2), |a| <= 0.55")
# ------------------------------------------------------------------ erf
_E = guarded(lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) - 1, 2 / mp.sqrt(mp.pi) - 1)
spec("ERF_E_D", "d", _E, 0, 1, 11, rel=False, doc="erf(x) = x + x E(x^2), |x| <= 1")
# erf(t) = -expm1(-t Q(t)) with t Q(t) = -log(erfc(t)); the error weighted
# by erfc(t) t / erf(t), its effect on erf relative to erf
_Q = guarded(lambda t: -mp.log(mp.erfc(t)) / t, 2 / mp.sqrt(mp.pi))
_QW = lambda t: mp.erfc(t) * t / mp.erf(t) if t != 0 else mp.sqrt(mp.pi) / 2
spec("ERF_Q_D", "d", _Q, 0, mp.mpf("5.93"), 24, rel=False, weight=_QW,
     doc="erf(t) = -expm1(-t Q(t)), 0 <= t <= 5.93 (weighted by erfc(t) t / erf(t))")
spec("ERF_Q_F", "f", _Q, 0, mp.mpf("3.92"), 9, rel=False, weight=_QW,
     doc="erf(t) = -expm1(-t Q(t)), 0 <= t <= 3.92 (weighted by erfc(t) t / erf(t))")
spec("ERFC_H_D", "d", lambda u: mp.log(mp.erfc(u + 1)) + (u + 1) ** 2, 0, 1, 14, rel=False,
     doc="erfc(a) = exp(-a^2 + H(a - 1)), 1 <= a <= 2")
_K = mp.mpf(4)
def _erfcx_g(Y):
    x = _K * (1 + Y) / (1 - Y)
    return (1 + 2 * x) * mp.exp(x * x) * mp.erfc(x)
spec("ERFC_G_D", "d", _erfcx_g, (2 - _K) / (2 + _K), (mp.mpf("27.5") - _K) / (mp.mpf("27.5") + _K), 18,
     doc="erfc(a) = exp(-a^2) G(Y) / (1 + 2a), Y = (a - 4)/(a + 4), 2 <= a <= 27.5")


def constants():
    """pi/2 in three parts (float64 and float32) for Cody-Waite reduction,
    pi and pi/2 as pairs, and 2/pi's bits for Payne-Hanek reduction."""
    lines = ["/* pi/2 = PIO2_1 + PIO2_2 + PIO2_3 (+ 2^-160 or so), each rounded to the precision */"]
    for prec, ctype in (("d", "double"), ("f", "double")):
        rest = mp.pi / 2
        parts = []
        for i in range(3):
            v = f32(rest) if prec == "f" else float(rest)
            parts.append(v)
            rest -= mp.mpf(v)
        for i, v in enumerate(parts):
            lines.append("static const %s PIO2_%d_%s = %s;" % (ctype, i + 1, prec.upper(), float(v).hex()))
    # float32 pi/2 in three parts, each truncated (all positive, so that
    # x - j P1 - j P2 - j P3 keeps the sign of a zero x)
    rest = mp.pi / 2
    for i in range(3):
        v = f32(rest)
        if v > rest:
            v = float(np.nextafter(np.float32(v), np.float32(0)))
        rest -= mp.mpf(v)
        lines.append("static const double PIO2T_%d_F = %s;" % (i + 1, float(v).hex()))
    for name, val in (("PI", mp.pi), ("PIO2", mp.pi / 2), ("PIO4", mp.pi / 4), ("TWO_OVER_PI", 2 / mp.pi)):
        hi = float(val)
        lo = float(val - mp.mpf(hi))
        lines.append("static const double %s_HI = %s, %s_LO = %s;" % (name, hi.hex(), name, lo.hex()))
    # 2/pi: word 0 is zero (the bits before the binary point), word k the
    # fraction's bits 32(k-1)+1 .. 32k
    nw = 40
    frac = 2 / mp.pi
    words = [0]
    with mp.workprec(32 * nw + 64):
        f = 2 / mp.pi
        for k in range(nw - 1):
            f *= 2 ** 32
            w = int(mp.floor(f))
            words.append(w)
            f -= w
    lines.append("/* 2/pi in 32-bit words: word 0 is 0, word k holds bits 32(k-1)+1 .. 32k of the fraction */")
    lines.append("static const uint32_t TWO_OVER_PI_BITS[%d] = {" % nw)
    for i in range(0, nw, 6):
        lines.append("\t" + ", ".join("0x%08x" % w for w in words[i:i + 6]) + ",")
    lines.append("};")
    return "\n".join(lines) + "\n"

# ------------------------------------------------------------- cbrt
spec("CBRT_R0", "d", lambda m: m ** (-mp.mpf(1) / 3), 1, 8, 3, doc="m^(-1/3) ~ R(m), 1 <= m <= 8 (a start for Newton)")

# ---------------------------------------------------------------- gamma
spec("GAMMA_R_D", "d", lambda u: 1 / mp.gamma(1 + u), 0, 1, 15, doc="1/gamma(1 + u), 0 <= u <= 1")
_STIRS = guarded(lambda w: mp.gamma(1 / w) / (mp.sqrt(2 * mp.pi) * (1 / w) ** (1 / w - mp.mpf(0.5)) * mp.exp(-1 / w)), 1)
spec("GAMMA_S_D", "d", _STIRS, 0, 0.1, 8,
     doc="gamma(x) = sqrt(2 pi) x^(x - 1/2) e^-x S(1/x), x >= 10")
spec("LGAMMA_S_D", "d", guarded(lambda w: mp.log(_STIRS(w)) / w, mp.mpf(1) / 12), 0, 0.1, 6,
     doc="lgamma(x) = (x - 1/2) log x - x + log(2 pi)/2 + w L(w), w = 1/x, x >= 10")
spec("LGAMMA_G_D", "d", guarded(lambda v: mp.loggamma(2 + v) / v, 1 - mp.euler), -0.5, 0.5, 18,
     doc="lgamma(2 + v) = v G(v), |v| <= 1/2", pairs=2)


def main():
    check = "--check" in sys.argv
    out = []
    for s in SPECS:
        c, e = minimax(s["g"], s["a"], s["b"], s["n"], rel=s["rel"], weight=s["weight"], iters=200,
                       grid=max(400, 100 * s["n"]))
        cr = rounded(c, s["prec"])
        err = measure(s["g"], s["a"], s["b"], cr, s["rel"], s["weight"])
        bits = -float(mp.log(err, 2)) if err > 0 else 999
        line = "%-12s %s deg %2d  fit 2^%.1f  rounded 2^%.1f  %s" % (
            s["name"], s["prec"], s["n"], float(mp.log(e, 2)), -bits, s["doc"])
        print(line)
        ctype = "double"
        vals = ",\n\t".join(hexf(v, s["prec"]) for v in cr)
        out.append("/* %s: [%s, %s], %s error 2^%.1f */\nstatic const %s %s[%d] = {\n\t%s,\n};\n" % (
            s["doc"], mp.nstr(s["a"], 6), mp.nstr(s["b"], 6), "relative" if s["rel"] else "absolute",
            -bits, ctype, s["name"], len(cr), vals))
        if s["pairs"]:
            los = [float(mp.mpf(c[i]) - mp.mpf(cr[i])) for i in range(s["pairs"])]
            out.append("/* the rounding errors of %s's first %d coefficients */\nstatic const double %s_LO[%d] = {\n\t%s,\n};\n" % (
                s["name"], s["pairs"], s["name"], s["pairs"], ",\n\t".join(v.hex() for v in los)))
    if check:
        return
    out.append(constants())
    path = os.path.join(ROOT, "src", "math", "coeffs.h")
    with open(path, "w") as f:
        f.write("/*\n * coeffs.h - polynomial coefficients of the math library, written by\n"
                " * tools/math_coeffs.py (minimax fits with mpmath; do not edit by hand).\n"
                " * Low degree first.  The float32 tables hold float32 values.\n */\n")
        f.write("#ifndef PTXJIT_MATH_COEFFS_H\n#define PTXJIT_MATH_COEFFS_H\n\n#include <stdint.h>\n\n")
        f.write("\n".join(out))
        f.write("\n#endif\n")
    print("wrote", path)


if __name__ == "__main__":
    main()

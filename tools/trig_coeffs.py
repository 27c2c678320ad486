"""Coefficients of the circular and hyperbolic functions' fast paths
(src/math/trig.c), minimax fits made with mpmath (remez.py), written into
the block of src/math/coeffs.h between the trig_coeffs.py markers.

    python3 tools/trig_coeffs.py            # rewrites that block
    python3 tools/trig_coeffs.py --check    # prints each fit's error only

The fits are those of the arrangements trig.c uses: one polynomial for
float64 sin and cos whose coefficients are picked by the quadrant's parity
(SINCOS_T_D, two rows of eight: the sin row ends in a zero so that both
rows take the same Horner steps), float32 atan's polynomial on [0, 1],
float32 tanh's table of 160 degree-4 polynomials, and pi/2's truncated
second and third parts.  Each error printed is measured after rounding
the coefficients to the target precision.  (tools/math_coeffs.py rewrites
coeffs.h whole but keeps nothing of this block: run this script after it.)
"""

import math
import os
import sys

import mpmath as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remez import guarded, minimax  # noqa: E402

mp.mp.prec = 256
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "src", "math", "coeffs.h")
BEGIN = "/* ---- begin: written by tools/trig_coeffs.py ---- */"
END = "/* ---- end: tools/trig_coeffs.py ---- */"


def f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def rnd(c, prec):
    return [f32(v) if prec == "f" else float(v) for v in c]


def peval(c, x):
    r = mp.mpf(0)
    for v in reversed(c):
        r = r * x + mp.mpf(v)
    return r


def worst(err, a, b, n=4000):
    w = mp.mpf(0)
    for i in range(n + 1):
        x = mp.mpf(a) + (mp.mpf(b) - mp.mpf(a)) * i / n
        w = max(w, abs(err(x)))
    return w


def bits(e):
    return float(mp.log(e, 2)) if e > 0 else -999.0


OUT = []


def emit(name, vals, doc):
    body = ",\n\t".join(float(v).hex() for v in vals)
    OUT.append("/* %s */\nstatic const double %s[%d] = {\n\t%s,\n};\n" % (doc, name, len(vals), body))
    print("%-12s %s" % (name, doc))


PIO4SQ = (mp.pi / 4) ** 2 * mp.mpf("1.0001")
_S = guarded(lambda z: (mp.sin(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, -mp.mpf(1) / 6)
_CP = guarded(lambda z: (mp.cos(mp.sqrt(z)) - 1) / z, -mp.mpf(1) / 2)


def sincos_d():
    # sin(r) = r + r z S(z), S of degree 5, relative error of sin
    s, _ = minimax(_S, mp.mpf("1e-30"), PIO4SQ, 5, rel=False,
                   weight=lambda z: z * mp.sqrt(z) / mp.sin(mp.sqrt(z)), iters=200, grid=800)
    # cos(r) = 1 + z P(z), P of degree 6, relative error of cos
    c, _ = minimax(_CP, mp.mpf("1e-30"), PIO4SQ, 6, rel=False,
                   weight=lambda z: z / mp.cos(mp.sqrt(z)), iters=200, grid=800)
    sr, cr = rnd(s, "d"), rnd(c, "d")
    es = worst(lambda z: (mp.sqrt(z) + mp.sqrt(z) * z * peval(sr, z) - mp.sin(mp.sqrt(z))) / mp.sin(mp.sqrt(z)),
               mp.mpf("1e-20"), PIO4SQ)
    ec = worst(lambda z: (1 + z * peval(cr, z) - mp.cos(mp.sqrt(z))) / mp.cos(mp.sqrt(z)), 0, PIO4SQ)
    # Horner from the top: row[0] is the highest coefficient.  sin's row:
    # p = z S(z) (the last step adds 0), sin = r + r p; cos's: cos = 1 + z p
    srow = list(reversed(sr)) + [0.0]
    crow = list(reversed(cr))
    emit("SINCOS_T_D", srow + [0.0] * (8 - len(srow)) + crow + [0.0] * (8 - len(crow)),
         "sin(r) = r + r p(z) (row 0), cos(r) = 1 + z p(z) (row 1), z = r^2 <= (pi/4)^2, "
         "p's coefficients highest first, rows of 8; relative error sin 2^%.1f, cos 2^%.1f" % (bits(es), bits(ec)))


def pio2_truncated():
    # pi/2 = PIO2_1_D + PIO2T_2_D + PIO2T_3_D: the second part truncated,
    # so that the third is positive and x - k P1 - k P2 - k P3 (fmas with
    # -k) keeps the sign of a zero x
    p1 = float(mp.pi / 2)
    rest = mp.pi / 2 - mp.mpf(p1)
    p2 = float(rest)
    if mp.mpf(p2) > rest:
        p2 = math.nextafter(p2, 0.0)
    p3 = float(rest - mp.mpf(p2))
    OUT.append("/* pi/2 = PIO2_1_D + PIO2T_2_D + PIO2T_3_D (+ 2^-160 or so), the second part truncated */\n"
               "static const double PIO2T_2_D = %s;\nstatic const double PIO2T_3_D = %s;\n" % (p2.hex(), p3.hex()))
    print("PIO2T_2_D %s PIO2T_3_D %s" % (p2.hex(), p3.hex()))


TANH_W = 16          # rows per unit of |x|
TANH_ROWS = 160      # |x| up to 10 (tanh rounds to 1 in float32 beyond 9.02)
TANH_DEG = 4


def tanh_fit(lo, hi, c, zero):
    """Near-minimax (Lawson-weighted least squares, relative error) fit of
    tanh(c + t), t in [lo - c, hi - c], degree TANH_DEG; p0 = 0 if zero."""
    import numpy as np
    n = 80
    k = np.arange(n)
    a = (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / n)
    t = a - c
    y = np.array([float(mp.tanh(mp.mpf(float(v)))) for v in a])
    w = 1 / y
    V = np.vander(t, TANH_DEG + 1, increasing=True)
    if zero:
        V = V[:, 1:]
    lw = np.ones(n)
    best = None
    for _ in range(30):
        coef = np.linalg.lstsq(V * (w * np.sqrt(lw))[:, None], y * w * np.sqrt(lw), rcond=None)[0]
        r = np.abs(V @ coef - y) * w
        if best is None or r.max() < best[0]:
            best = (r.max(), coef)
        lw = lw * (r + 1e-300)
        lw /= lw.sum()
    coef = list(best[1])
    return [0.0] + coef if zero else coef


def tanh_f():
    # float32 tanh: row i holds tanh(i/16 + t) = p(t), |t| <= 1/32, as
    # float32; coefficient-major (all p0, then all p1, ...) so that the
    # rows a warp reads at once share few cache lines.  Row 0 (c = 0) has
    # p0 = 0 and a relative fit, so that tiny |x| gets tanh(x) ~ x.
    import numpy as np
    rows = []
    worst = 0.0
    for i in range(TANH_ROWS):
        c = i / TANH_W
        lo, hi = max(c - 0.5 / TANH_W, 1e-6), c + 0.5 / TANH_W
        co = [f32(v) for v in tanh_fit(lo, hi, c, i == 0)]
        a = np.linspace(lo, hi, 2000).astype(np.float32).astype(np.float64)
        p = np.zeros_like(a)
        for v in reversed(co):
            p = p * (a - c) + v
        ref = np.tanh(a)
        ulp = 2.0 ** (np.floor(np.log2(ref)) - 23)
        worst = max(worst, float(np.max(np.abs(p - ref) / ulp)))
        rows.append(co)
    vals = [rows[i][k] for k in range(TANH_DEG + 1) for i in range(TANH_ROWS)]
    body = ",\n\t".join(", ".join(float(v).hex() for v in vals[j:j + 4]) for j in range(0, len(vals), 4))
    OUT.append("/* float32 tanh(|x|) = p(t), |x| = i/%d + t, |t| <= 1/%d, row i < %d: the %d coefficients of\n"
               " * p (degree %d) in arrays of %d rows, p0's first; error before the last rounding %.2f ulp */\n"
               "#define TANH_W_F %d\n#define TANH_ROWS_F %d\n"
               "static const float TANH_TAB_F[%d] = {\n\t%s,\n};\n"
               % (TANH_W, 2 * TANH_W, TANH_ROWS, TANH_DEG + 1, TANH_DEG, TANH_ROWS, worst,
                  TANH_W, TANH_ROWS, len(vals), body))
    print("TANH_TAB_F   %d rows, degree %d, %.2f ulp before the last rounding" % (TANH_ROWS, TANH_DEG, worst))


_AT = guarded(lambda z: (mp.atan(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, -mp.mpf(1) / 3)


def atan_f():
    # float32 atan: atan(t) = t + t z P(z), z = t^2 <= 1 (|x| > 1 takes
    # t = 1/|x|), P of degree ATAN_DEG_F, the error relative to atan(t)
    for deg in (7,):
        c, _ = minimax(_AT, mp.mpf("1e-12"), 1, deg, rel=False,
                       weight=lambda z: z * mp.sqrt(z) / mp.atan(mp.sqrt(z)), iters=200, grid=800)
        cr = rnd(c, "f")
        e = worst(lambda z: (mp.sqrt(z) + mp.sqrt(z) * z * peval(cr, z) - mp.atan(mp.sqrt(z))) / mp.atan(mp.sqrt(z)),
                  mp.mpf("1e-8"), 1)
        emit("ATAN_P_F", cr, "atan(t) = t + t z P(z), z = t^2 <= 1, float32 values: relative error 2^%.1f" % bits(e))


def main():
    pio2_truncated()
    atan_f()
    sincos_d()
    tanh_f()
    if "--check" in sys.argv:
        return
    text = open(HEADER).read()
    block = BEGIN + "\n" + "\n".join(OUT) + END + "\n"
    if BEGIN in text:
        a = text.index(BEGIN)
        b = text.index(END) + len(END) + 1
        text = text[:a] + block + text[b:]
    else:
        k = text.rindex("#endif")
        text = text[:k] + block + "\n" + text[k:]
    with open(HEADER, "w") as f:
        f.write(text)
    print("wrote", HEADER)


if __name__ == "__main__":
    main()

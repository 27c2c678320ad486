"""Coefficients of the circular and hyperbolic functions' fast paths
(src/math/trig.c), minimax fits made with mpmath (remez.py), written into
the block of src/math/coeffs.h between the trig_coeffs.py markers.

    python3 tools/trig_coeffs.py            # rewrites that block
    python3 tools/trig_coeffs.py --check    # prints each fit's error only

The fits are those of the arrangements trig.c uses: one polynomial for
float64 sin and cos whose coefficients are picked by the quadrant's parity
(SINCOS_T_D, two rows of eight: the sin row ends in a zero so that both
rows take the same Horner steps), float32 atan's polynomial on [0, 1],
float32 tanh's polynomial below 0.55, float32 tan's, and pi/2's truncated
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


TANH_SMALL = mp.mpf("0.55")


def odd_f(name, fn, limit, zmax, deg, doc):
    """A float32 fit of an odd function: fn(t) = t + t z P(z), z = t^2 <=
    zmax, P of degree deg (limit: P's value at 0), with the error relative
    to fn(t)."""
    p = guarded(lambda z: (fn(mp.sqrt(z)) - mp.sqrt(z)) / mp.sqrt(z) ** 3, limit)
    c, _ = minimax(p, mp.mpf("1e-12"), zmax, deg, rel=False,
                   weight=lambda z: z * mp.sqrt(z) / fn(mp.sqrt(z)), iters=200, grid=800)
    cr = rnd(c, "f")
    e = worst(lambda z: (mp.sqrt(z) + mp.sqrt(z) * z * peval(cr, z) - fn(mp.sqrt(z))) / fn(mp.sqrt(z)),
              mp.mpf("1e-8"), zmax)
    emit(name, cr, doc % bits(e))


def tanh_f():
    # float32 tanh below 0.55, S of degree 3; from 0.55 trig.c takes
    # 1 - 2/(e^2a + 1) (CUDA's tanhf has the same split, near 0.6)
    odd_f("TANH_S_F", mp.tanh, -mp.mpf(1) / 3, TANH_SMALL ** 2 * mp.mpf("1.0001"), 3,
          "tanh(a) = a + a z S(z), z = a^2, a <= 0.55, float32 values: relative error 2^%.1f")


def atan_f():
    # float32 atan on t <= 1 (|x| > 1 takes t = 1/|x|), P of degree 7
    odd_f("ATAN_P_F", mp.atan, -mp.mpf(1) / 3, 1, 7,
          "atan(t) = t + t z P(z), z = t^2 <= 1, float32 values: relative error 2^%.1f")


def tan_f():
    # float32 tan, T of degree 5 (one step fewer than math_coeffs.py's TAN_T_F)
    odd_f("TAN_S_F", mp.tan, mp.mpf(1) / 3, PIO4SQ, 5,
          "tan(r) = r + r z T(z), z = r^2 <= (pi/4)^2, float32 values: relative error 2^%.1f")


def main():
    pio2_truncated()
    atan_f()
    sincos_d()
    tanh_f()
    tan_f()
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

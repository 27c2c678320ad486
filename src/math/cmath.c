/*
 * cmath.c - the complex functions of Python's cmath module (and NumPy's
 * ufuncs on complex scalars), on a pair of real parts in the builder's
 * precision, built from the real functions of the library.
 *
 * The algorithms are CPython's (Modules/cmathmodule.c, which Numba's
 * cmathimpl.py follows): sqrt scales into range first and takes
 * t = sqrt((|x| + |z|)/2), the other part |y| / 2t; log takes
 * log1p((|z| - 1)(|z| + 1)) / 2 when |z| is near 1; the inverse
 * functions are Kahan's square-root formulas (asinh from sqrt(1 + iz) and
 * sqrt(1 - iz), acos and acosh alike), with the large-argument forms
 * log(|z|/2) + 2 ln2 past 1e150 (float32: 1e18); atanh is
 * log1p(4x / ((1-x)^2 + y^2)) / 4 with the atan2 imaginary part; tanh
 * uses tan(y) and 1/cosh(x), or its limit past |x| = 354 (float32: 44).
 * sin, cos, tan, asin, atan and asin follow from the hyperbolic ones by
 * multiplying the argument by i, as CPython does.
 *
 * Arguments with an infinite or NaN part take C99 Annex G's values, as
 * CPython's cmath gives them: after the formula, one test (re*0 + im*0 is
 * a NaN) branches to a lookup in the function's table of the 49 pairs of
 * part classes (cmathtab.h, made by tools/gen_cmath_special.py from
 * CPython), whose mask names the rows the formula itself gives (exp(inf +
 * iy) is inf cos y + i inf sin y).  Where CPython raises (log(0), atanh(1),
 * an overflow) the value is C99's, as in Numba, which raises neither.
 */
#include <math.h>

#include "cmathtab.h"
#include "mathlib.h"

static Cx cx(Ref re, Ref im)
{
	Cx z = {re, im};
	return z;
}

/* i z and -i z */
static Cx times_i(MB *b, Cx z)
{
	return cx(mb_neg(b, z.im), z.re);
}

static Cx times_minus_i(MB *b, Cx z)
{
	return cx(z.im, mb_neg(b, z.re));
}

/* A function's values at arguments with an infinite or NaN part (C99
 * Annex G, as CPython's cmath gives them): a table of 49 rows, one per
 * pair of part classes, and a mask of the rows that the function's own
 * formula gives (cmathtab.h, tools/gen_cmath_special.py). */
typedef struct Special {
	const char *name64, *name32;
	const double *d;
	const float *f;
	uint64_t mask;
} Special;

#define SPECIAL(var, fn, NAME) \
	static const Special var = {"__pj_c" fn "_d", "__pj_c" fn "_f", CMATH_##NAME##_D, CMATH_##NAME##_F, \
	                            CMATH_##NAME##_MASK}
SPECIAL(EXP, "exp", EXP);
SPECIAL(LOG, "log", LOG);
SPECIAL(SQRT, "sqrt", SQRT);
SPECIAL(SINH, "sinh", SINH);
SPECIAL(COSH, "cosh", COSH);
SPECIAL(TANH, "tanh", TANH);
SPECIAL(ASINH, "asinh", ASINH);
SPECIAL(ACOS, "acos", ACOS);
SPECIAL(ACOSH, "acosh", ACOSH);
SPECIAL(ATANH, "atanh", ATANH);
SPECIAL(RECT, "rect", RECT);

/* 0 -inf, 1 negative finite, 2 -0, 3 +0, 4 positive finite, 5 +inf, 6 NaN (int32) */
static Ref part_class(MB *b, Ref x)
{
	Ref zero = mb_i(b, KW, 0), one = mb_i(b, KW, 1);
	Ref a = mb_abs(b, x);
	Ref nz = mb_isel(b, KW, mb_eq(b, a, mb_f(b, 0)), zero, one);
	Ref c = mb_iop(b, O_ADD, KW, nz, mb_isel(b, KW, mb_isinf(b, x), one, zero));
	Ref pos = mb_iop(b, O_ADD, KW, c, mb_i(b, KW, 3)), neg = mb_iop(b, O_SUB, KW, mb_i(b, KW, 2), c);
	Ref cls = mb_isel(b, KW, mb_signbit(b, x), neg, pos);
	return mb_isel(b, KW, mb_isnan(b, x), mb_i(b, KW, 6), cls);
}

/* r, the formula's value at z, or where a part of z is infinite or NaN (a
 * branch, told by re*0 + im*0 being a NaN) the table's */
static Cx special(MB *b, Cx z, Cx r, const Special *t)
{
	int d = mb_is64(b), size = d ? 8 : 4;
	int vre = mb_var(b, b->k, "cre"), vim = mb_var(b, b->k, "cim");
	mb_set(b, vre, r.re);
	mb_set(b, vim, r.im);
	MIf s;
	mb_if(b, &s, mb_isnan(b, mb_fma(b, z.re, mb_f(b, 0), mb_mul(b, z.im, mb_f(b, 0)))));
	Ref cre = part_class(b, z.re);
	Ref cim = part_class(b, z.im);
	Ref row = mb_iop(b, O_ADD, KW, mb_iop(b, O_MUL, KW, cre, mb_i(b, KW, 7)), cim);
	Ref row64 = mb_cvt(b, row, SK_I32, SK_U64);
	Ref tab = d ? mb_gtable(b, t->name64, t->d, 49 * 2 * 8) : mb_gtable(b, t->name32, t->f, 49 * 2 * 4);
	Ref addr = mb_uop(b, O_ADD, KL, tab, mb_uop(b, O_MUL, KL, row64, mb_i(b, KL, 2 * size)));
	Ref tre = mb_gload(b, addr, b->sk);
	Ref tim = mb_gload(b, mb_uop(b, O_ADD, KL, addr, mb_i(b, KL, size)), b->sk);
	if (t->mask) {
		Ref bit = mb_uop(b, O_AND, KL, mb_uop(b, O_SHR, KL, mb_i(b, KL, (int64_t)t->mask), row64), mb_i(b, KL, 1));
		Ref own = mb_ucmp(b, CC_NE, KL, bit, mb_i(b, KL, 0));
		tre = mb_sel(b, own, r.re, tre);
		tim = mb_sel(b, own, r.im, tim);
	}
	mb_set(b, vre, tre);
	mb_set(b, vim, tim);
	mb_endif(b, &s);
	Ref re = mb_get(b, vre);
	Ref im = mb_get(b, vim);
	return cx(re, im);
}

Cx math_cmul(MB *b, Cx x, Cx y)
{
	Ref re = mb_fma(b, x.re, y.re, mb_neg(b, mb_mul(b, x.im, y.im)));
	Ref im = mb_fma(b, x.re, y.im, mb_mul(b, x.im, y.re));
	return cx(re, im);
}

/* Smith's division: the larger part of the divisor divided out first */
Cx math_cdiv(MB *b, Cx x, Cx y)
{
	Ref ayre = mb_abs(b, y.re), ayim = mb_abs(b, y.im);
	Ref big = mb_ge(b, ayre, ayim);
	Ref c = mb_sel(b, big, y.re, y.im), d = mb_sel(b, big, y.im, y.re);
	Ref r = mb_div(b, d, c);
	Ref den = mb_fma(b, d, r, c);
	/* big: (a + b r, b - a r) / den; else (a r + b, b r - a) / den */
	Ref re1 = mb_fma(b, x.im, r, x.re), re2 = mb_fma(b, x.re, r, x.im);
	Ref re = mb_sel(b, big, re1, re2);
	Ref im1 = mb_fma(b, mb_neg(b, x.re), r, x.im), im2 = mb_fma(b, x.im, r, mb_neg(b, x.re));
	Ref im = mb_sel(b, big, im1, im2);
	re = mb_div(b, re, den);
	im = mb_div(b, im, den);
	return cx(re, im);
}

Ref math_cabs(MB *b, Cx z)
{
	return math_hypot(b, z.re, z.im);
}

Ref math_cphase(MB *b, Cx z)
{
	return math_atan2(b, z.im, z.re);
}

Cx math_crect(MB *b, Ref r, Ref phi)
{
	/* r phi for a zero angle (r = inf keeps a zero imaginary part) */
	Ref re = mb_mul(b, r, math_cos(b, phi));
	Ref im = mb_mul(b, r, math_sin(b, phi));
	Ref zero_angle = mb_eq(b, phi, mb_f(b, 0));
	im = mb_sel(b, zero_angle, mb_xorsign(b, phi, mb_signbit(b, r)), im);
	return special(b, cx(r, phi), cx(re, im), &RECT);
}

Cx math_cexp(MB *b, Cx z)
{
	/* e^x cos y, e^x sin y; where e^x overflows but its half does not, the
	 * half is multiplied and doubled last (no spurious overflow), elsewhere
	 * e^x itself (halving first would lose a subnormal product's last bit) */
	Ref h = math_exp_scaled(b, z.re, -1);
	Ref two = mb_f(b, 2);
	Ref cy = math_cos(b, z.im);
	Ref sy = math_sin(b, z.im);
	Ref e = mb_mul(b, h, two);
	Ref huge = mb_isinf(b, e);
	Ref re_half = mb_mul(b, mb_mul(b, h, cy), two);
	Ref im_half = mb_mul(b, mb_mul(b, h, sy), two);
	Ref re = mb_sel(b, huge, re_half, mb_mul(b, e, cy));
	Ref im = mb_sel(b, huge, im_half, mb_mul(b, e, sy));
	Ref real = mb_eq(b, z.im, mb_f(b, 0));
	re = mb_sel(b, real, math_exp(b, z.re), re);
	im = mb_sel(b, real, z.im, im);
	return special(b, z, cx(re, im), &EXP);
}

Cx math_clog(MB *b, Cx z)
{
	int d = mb_is64(b);
	Ref ax = mb_abs(b, z.re), ay = mb_abs(b, z.im);
	Ref big = mb_max(b, ax, ay), small = mb_min(b, ax, ay);
	Ref one = mb_f(b, 1);
	/* |z| scaled by 1/2 where it could overflow, by 2^54 (float32: 2^24)
	 * where it could be subnormal; log(scale) is subtracted after the log */
	Ref hi = mb_gt(b, big, mb_f(b, d ? 0x1p1022 : 0x1p126));
	Ref lo = mb_lt(b, big, mb_f(b, d ? 0x1p-1022 : 0x1p-126));
	Ref sc = mb_sel(b, hi, mb_f(b, 0.5), mb_sel(b, lo, mb_f(b, d ? 0x1p54 : 0x1p24), one));
	Ref lsc = mb_sel(b, hi, mb_f(b, 0.6931471805599453), mb_sel(b, lo, mb_f(b, (d ? -54 : -24) * 0.6931471805599453), mb_f(b, 0)));
	Ref sre = mb_mul(b, z.re, sc);
	Ref sim = mb_mul(b, z.im, sc);
	Ref h = math_hypot(b, sre, sim);
	Ref above = mb_gt(b, h, mb_f(b, 0.71)), below = mb_lt(b, h, mb_f(b, 1.73));
	Ref near1 = mb_and(b, above, below);
	Ref bm1 = mb_sub(b, big, one), bp1 = mb_add(b, big, one), s2 = mb_mul(b, small, small);
	Ref t = mb_fma(b, bm1, bp1, s2);
	Ref re1 = mb_mul(b, mb_f(b, 0.5), math_log1p(b, t));
	Ref re = mb_sel(b, near1, re1, mb_add(b, math_log(b, h), lsc));
	return special(b, z, cx(re, math_atan2(b, z.im, z.re)), &LOG);
}

Cx math_clog10(MB *b, Cx z)
{
	Cx l = math_clog(b, z);
	Ref c = mb_f(b, 0.4342944819032518);
	Ref re = mb_mul(b, l.re, c), im = mb_mul(b, l.im, c);
	return cx(re, im);
}

Cx math_csqrt(MB *b, Cx z)
{
	int d = mb_is64(b);
	Ref ax = mb_abs(b, z.re), ay = mb_abs(b, z.im);
	Ref m = mb_max(b, ax, ay);
	/* scale by a power of 4 so that the square root scales exactly */
	Ref hi = mb_gt(b, m, mb_f(b, d ? 0x1p1000 : 0x1p120));
	Ref lo = mb_lt(b, m, mb_f(b, d ? 0x1p-1000 : 0x1p-120));
	Ref sc = mb_sel(b, hi, mb_f(b, 0x1p-4), mb_sel(b, lo, mb_f(b, d ? 0x1p108 : 0x1p50), mb_f(b, 1)));
	Ref un = mb_sel(b, hi, mb_f(b, 0x1p2), mb_sel(b, lo, mb_f(b, d ? 0x1p-54 : 0x1p-25), mb_f(b, 1)));
	Ref xs = mb_mul(b, ax, sc), ys = mb_mul(b, ay, sc);
	Ref t = mb_sqrt(b, mb_mul(b, mb_add(b, xs, math_hypot(b, xs, ys)), mb_f(b, 0.5)));
	t = mb_mul(b, t, un);
	Ref dd = mb_div(b, ay, mb_add(b, t, t));
	Ref pos = mb_not(b, mb_signbit(b, z.re));
	Ref re = mb_sel(b, pos, t, dd);
	Ref im = mb_copysign(b, mb_sel(b, pos, dd, t), z.im);
	/* zero, and an infinite imaginary part (even with a NaN real part) */
	Ref ax0 = mb_eq(b, ax, mb_f(b, 0)), ay0 = mb_eq(b, ay, mb_f(b, 0));
	Ref zero = mb_and(b, ax0, ay0);
	re = mb_sel(b, zero, mb_f(b, 0), re);
	im = mb_sel(b, zero, z.im, im);
	return special(b, z, cx(re, im), &SQRT);
}

Cx math_csinh(MB *b, Cx z)
{
	Ref sh = math_sinh(b, z.re), c = math_cos(b, z.im);
	Ref re = mb_mul(b, sh, c);
	Ref ch = math_cosh(b, z.re), s = math_sin(b, z.im);
	Ref im = mb_mul(b, ch, s);
	Ref real = mb_eq(b, z.im, mb_f(b, 0));
	re = mb_sel(b, real, math_sinh(b, z.re), re);
	im = mb_sel(b, real, z.im, im);
	return special(b, z, cx(re, im), &SINH);
}

Cx math_ccosh(MB *b, Cx z)
{
	Ref ch = math_cosh(b, z.re), c = math_cos(b, z.im);
	Ref re = mb_mul(b, ch, c);
	Ref sh = math_sinh(b, z.re), s = math_sin(b, z.im);
	Ref im = mb_mul(b, sh, s);
	Ref real = mb_eq(b, z.im, mb_f(b, 0));
	Ref im0 = mb_mul(b, z.im, mb_copysign(b, mb_f(b, 1), z.re));
	re = mb_sel(b, real, math_cosh(b, z.re), re);
	im = mb_sel(b, real, im0, im);
	return special(b, z, cx(re, im), &COSH);
}

Cx math_ctanh(MB *b, Cx z)
{
	int d = mb_is64(b);
	Ref one = mb_f(b, 1);
	Ref tx = math_tanh(b, z.re), ty = math_tan(b, z.im), ch = math_cosh(b, z.re);
	/* float32: the parts combine in float64, as Numba's (whose literal 1 makes
	 * them float64); in float32 the quotients add 4 ulps near tan's poles */
	MB w = d ? *b : mb_new(b->L, SK_F64);
	w.fast = b->fast;
	if (!d) {
		tx = mb_cvt(b, tx, SK_F32, SK_F64);
		ty = mb_cvt(b, ty, SK_F32, SK_F64);
		ch = mb_cvt(b, ch, SK_F32, SK_F64);
	}
	Ref onew = mb_f(&w, 1);
	Ref cx_ = mb_div(&w, onew, ch);
	Ref txty = mb_mul(&w, tx, ty);
	Ref den = mb_fma(&w, txty, txty, onew);
	Ref re = mb_div(&w, mb_mul(&w, tx, mb_fma(&w, ty, ty, onew)), den);
	Ref im = mb_mul(&w, mb_mul(&w, mb_div(&w, ty, den), cx_), cx_);
	if (!d) {
		tx = mb_cvt(b, tx, SK_F64, SK_F32);
		re = mb_cvt(b, re, SK_F64, SK_F32);
		im = mb_cvt(b, im, SK_F64, SK_F32);
	}
	/* |x| large: (sign x, 4 sin y cos y e^-2|x|) */
	Ref ax = mb_abs(b, z.re);
	Ref big = mb_gt(b, ax, mb_f(b, d ? 354 : 44));
	Ref s = math_sin(b, z.im), c = math_cos(b, z.im);
	Ref s4c = mb_mul(b, mb_mul(b, mb_f(b, 4), s), c);
	Ref imb = mb_mul(b, s4c, math_exp(b, mb_mul(b, mb_f(b, -2), ax)));
	re = mb_sel(b, big, mb_copysign(b, one, z.re), re);
	im = mb_sel(b, big, imb, im);
	Ref real = mb_eq(b, z.im, mb_f(b, 0));
	re = mb_sel(b, real, tx, re);
	im = mb_sel(b, real, z.im, im);
	return special(b, z, cx(re, im), &TANH);
}

Cx math_csin(MB *b, Cx z)
{
	return times_minus_i(b, math_csinh(b, times_i(b, z)));
}

Cx math_ccos(MB *b, Cx z)
{
	return math_ccosh(b, times_i(b, z));
}

Cx math_ctan(MB *b, Cx z)
{
	return times_minus_i(b, math_ctanh(b, times_i(b, z)));
}

static double large(MB *b)
{
	return mb_is64(b) ? 1e150 : 1e18;
}

/* log(hypot(x/2, y/2)) + 2 ln2 = log|z| without overflow */
static Ref log_abs_big(MB *b, Cx z)
{
	Ref hx = mb_mul(b, z.re, mb_f(b, 0.5)), hy = mb_mul(b, z.im, mb_f(b, 0.5));
	Ref h = math_hypot(b, hx, hy);
	return mb_add(b, math_log(b, h), mb_f(b, 2 * 0.6931471805599453));
}

static Ref is_large(MB *b, Cx z)
{
	Ref l = mb_f(b, large(b));
	Ref xl = mb_gt(b, mb_abs(b, z.re), l), yl = mb_gt(b, mb_abs(b, z.im), l);
	return mb_or(b, xl, yl);
}

Cx math_casinh(MB *b, Cx z)
{
	Ref one = mb_f(b, 1);
	/* s1 = sqrt(1 - iz), s2 = sqrt(1 + iz) */
	Ref re1 = mb_add(b, one, z.im), im1 = mb_neg(b, z.re);
	Cx s1 = math_csqrt(b, cx(re1, im1));
	Cx s2 = math_csqrt(b, cx(mb_sub(b, one, z.im), z.re));
	Ref re = math_asinh(b, mb_fma(b, s1.re, s2.im, mb_neg(b, mb_mul(b, s2.re, s1.im))));
	Ref im = math_atan2(b, z.im, mb_fma(b, s1.re, s2.re, mb_neg(b, mb_mul(b, s1.im, s2.im))));
	Ref lb = log_abs_big(b, z);
	Ref ypos = mb_ge(b, z.im, mb_f(b, 0));
	Ref rep = mb_copysign(b, lb, z.re), ren = mb_neg(b, mb_copysign(b, lb, mb_neg(b, z.re)));
	Ref reb = mb_sel(b, ypos, rep, ren);
	Ref imb = math_atan2(b, z.im, mb_abs(b, z.re));
	Ref big = is_large(b, z);
	re = mb_sel(b, big, reb, re);
	im = mb_sel(b, big, imb, im);
	return special(b, z, cx(re, im), &ASINH);
}

Cx math_casin(MB *b, Cx z)
{
	return times_minus_i(b, math_casinh(b, times_i(b, z)));
}

Cx math_cacos(MB *b, Cx z)
{
	Ref one = mb_f(b, 1);
	/* s1 = sqrt(1 - z), s2 = sqrt(1 + z) */
	Ref re1 = mb_sub(b, one, z.re), im1 = mb_neg(b, z.im);
	Cx s1 = math_csqrt(b, cx(re1, im1));
	Cx s2 = math_csqrt(b, cx(mb_add(b, one, z.re), z.im));
	Ref re = mb_mul(b, mb_f(b, 2), math_atan2(b, s1.re, s2.re));
	Ref im = math_asinh(b, mb_fma(b, s2.re, s1.im, mb_neg(b, mb_mul(b, s2.im, s1.re))));
	Ref lb = log_abs_big(b, z);
	Ref reb = math_atan2(b, mb_abs(b, z.im), z.re);
	Ref xneg = mb_lt(b, z.re, mb_f(b, 0));
	Ref imn = mb_neg(b, mb_copysign(b, lb, z.im)), imp = mb_copysign(b, lb, mb_neg(b, z.im));
	Ref imb = mb_sel(b, xneg, imn, imp);
	Ref big = is_large(b, z);
	re = mb_sel(b, big, reb, re);
	im = mb_sel(b, big, imb, im);
	return special(b, z, cx(re, im), &ACOS);
}

Cx math_cacosh(MB *b, Cx z)
{
	Ref one = mb_f(b, 1);
	Cx s1 = math_csqrt(b, cx(mb_sub(b, z.re, one), z.im));
	Cx s2 = math_csqrt(b, cx(mb_add(b, z.re, one), z.im));
	Ref re = math_asinh(b, mb_fma(b, s1.re, s2.re, mb_mul(b, s1.im, s2.im)));
	Ref im = mb_mul(b, mb_f(b, 2), math_atan2(b, s1.im, s2.re));
	Ref big = is_large(b, z);
	re = mb_sel(b, big, log_abs_big(b, z), re);
	im = mb_sel(b, big, math_atan2(b, z.im, z.re), im);
	return special(b, z, cx(re, im), &ACOSH);
}

Cx math_catanh(MB *b, Cx z)
{
	/* for x >= 0; x < 0 by atanh(-z) = -atanh(z) */
	Ref neg = mb_signbit(b, z.re);
	Ref x = mb_abs(b, z.re), y = mb_xorsign(b, z.im, neg);
	Ref ay = mb_abs(b, y);
	Ref one = mb_f(b, 1);
	Ref omx = mb_sub(b, one, x);
	Ref den = mb_fma(b, omx, omx, mb_mul(b, ay, ay));
	Ref re = mb_mul(b, mb_f(b, 0.25), math_log1p(b, mb_div(b, mb_mul(b, mb_f(b, 4), x), den)));
	Ref m2y = mb_mul(b, mb_f(b, -2), y);
	Ref opx = mb_add(b, one, x), may2 = mb_neg(b, mb_mul(b, ay, ay));
	Ref im = mb_mul(b, mb_f(b, -0.5), math_atan2(b, m2y, mb_fma(b, omx, opx, may2)));
	/* large: x / |z|^2 and +-pi/2 */
	Ref sl = mb_f(b, mb_is64(b) ? 1e150 : 1e18);
	Ref xl = mb_gt(b, x, sl), yl = mb_gt(b, ay, sl);
	Ref big = mb_or(b, xl, yl);
	Ref hx = mb_mul(b, x, mb_f(b, 0.5)), hy = mb_mul(b, y, mb_f(b, 0.5));
	Ref h = math_hypot(b, hx, hy);
	Ref reb = mb_div(b, mb_div(b, mb_mul(b, x, mb_f(b, 0.25)), h), h);
	Ref imb = mb_neg(b, mb_copysign(b, mb_f(b, 1.5707963267948966), mb_neg(b, y)));
	re = mb_sel(b, big, reb, re);
	im = mb_sel(b, big, imb, im);
	/* x = 1, y = 0: a pole */
	Ref x1 = mb_eq(b, x, one), ay0 = mb_eq(b, ay, mb_f(b, 0));
	Ref pole = mb_and(b, x1, ay0);
	re = mb_sel(b, pole, mb_f(b, HUGE_VAL), re);
	im = mb_sel(b, pole, y, im);
	/* x = 1 with y^2 below the normal range: log(hypot(y, 2) / |y|) / 2 */
	int vre = mb_var(b, b->k, "atanh");
	mb_set(b, vre, re);
	MIf s;
	Ref tiny = mb_lt(b, ay, mb_f(b, mb_is64(b) ? 0x1p-511 : 0x1p-63));
	Ref near_one = mb_and(b, x1, tiny);
	mb_if(b, &s, mb_and(b, near_one, mb_not(b, ay0)));
	Ref ray = mb_sqrt(b, ay);
	Ref q = mb_div(b, ray, mb_sqrt(b, math_hypot(b, ay, mb_f(b, 2))));
	mb_set(b, vre, mb_neg(b, math_log(b, q)));
	mb_endif(b, &s);
	re = mb_get(b, vre);
	re = mb_xorsign(b, re, neg);
	im = mb_xorsign(b, im, neg);
	return special(b, z, cx(re, im), &ATANH);
}

Cx math_catan(MB *b, Cx z)
{
	return times_minus_i(b, math_catanh(b, times_i(b, z)));
}

/*
 * pow.c - pow, cbrt and hypot.
 *
 * pow(x, y) = exp(y log|x|): float64 takes log|x| as a pair to about
 * 2^-70 from float64 log's table (log_pair), forms y log|x| as a pair with an exact
 * product, and exponentiates the pair (math_exp_dd), which keeps the
 * error near 1 ulp even when y log|x| is near 700; float32 (pow32)
 * computes in float64 without a pair, a division or a branch: log|x| from
 * the float64 log's table, e^t by a short polynomial, rounded to float32
 * and scaled there.  The sign (a negative x to an odd
 * integer y) and every special case of C99 Annex F (pow(x, 0) = 1 and
 * pow(1, y) = 1 even for NaN, zeros, infinities, -1 to an infinite power,
 * a negative x to a non-integer power is NaN) are selected at the end.
 *
 * cbrt: x = m 2^(3q) with m in [1, 8) (exact), r = m^(-1/3) by a cubic
 * start and Newton steps r += r (1 - m r^3) / 3 (no division), y = m r^2,
 * then one step with the residual m - y^3 taken exactly (two-products), so
 * the result is within about half an ulp; scaled back by 2^q.
 *
 * hypot: the parts ordered by their bits (no floating min and max), both
 * scaled by a normal power of two that brings the larger into [1, 4)
 * (exact), sqrt(a^2 + b^2) with one fma and a correctly rounded sqrt,
 * scaled back by a normal power of two (one rounding); no division, and
 * an infinity wins over a NaN.  float32 computes in float64, where
 * neither overflow nor underflow can happen.
 */
#include <math.h>

#include "coeffs.h"
#include "mathlib.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* y is an integer; an odd one */
static void int_odd(MB *b, Ref y, Ref *isint, Ref *odd)
{
	*isint = mb_eq(b, mb_trunc(b, y), y);
	Ref h = mb_mul(b, y, mb_f(b, 0.5));
	*odd = mb_and(b, *isint, mb_cmp(b, CC_NE, mb_trunc(b, h), h));
}

static Ref pow_specials(MB *b, Ref x, Ref y, Ref core)
{
	Ref isint, odd;
	int_odd(b, y, &isint, &odd);
	Ref zero = mb_f(b, 0), one = mb_f(b, 1), inf = mb_f(b, HUGE_VAL);
	Ref r = mb_xorsign(b, core, mb_and(b, odd, mb_signbit(b, x)));
	Ref xneg = mb_lt(b, x, zero);
	r = mb_sel(b, mb_and(b, xneg, mb_not(b, isint)), mb_f(b, NAN), r);
	Ref ax = mb_abs(b, x);
	/* y = +-inf */
	Ref yinf = mb_isinf(b, y);
	Ref ypos = mb_gt(b, y, zero);
	Ref big = mb_gt(b, ax, one);
	Ref ax_one = mb_eq(b, ax, one);
	Ref rinf = mb_sel(b, ax_one, one, mb_sel(b, mb_iop(b, O_XOR, KB, big, ypos), zero, inf));
	r = mb_sel(b, yinf, rinf, r);
	/* x = +-0 */
	Ref r0pos = mb_sel(b, odd, x, zero);
	Ref r0neg = mb_sel(b, odd, mb_copysign(b, inf, x), inf);
	Ref r0 = mb_sel(b, ypos, r0pos, r0neg);
	r = mb_sel(b, mb_eq(b, ax, zero), r0, r);
	/* x = +-inf */
	Ref rx = mb_sel(b, ypos, inf, zero);
	rx = mb_xorsign(b, rx, mb_and(b, odd, mb_signbit(b, x)));
	Ref xinf = mb_isinf(b, x);
	r = mb_sel(b, mb_and(b, xinf, mb_not(b, yinf)), rx, r);
	/* NaN, then the two that hold even for NaN */
	Ref nan = mb_anynan(b, x, y);
	r = mb_sel(b, nan, mb_add(b, x, y), r);
	r = mb_sel(b, mb_eq(b, x, one), one, r);
	return mb_sel(b, mb_eq(b, y, zero), one, r);
}

/*
 * float32 pow(a, y) for finite a > 0, in float64 arithmetic that needs
 * none of float64's care: log(a) from float64 log's table (logtab.h: k
 * and the interval from the high word, r = z invc - 1 in one fma, log(a)
 * = k ln2 + log(c) + r + r^2 P(r), P Taylor's to r^5, log(c)'s low part
 * left out: about 2^-40 relative), t = y log(a) rounded once, and
 * e^t = 2^k e^r with k by the magic addition, r = t - k ln2 and e^r
 * Taylor's polynomial of degree 7 (2^-27 relative); e^r is rounded to
 * float32 and scaled by 2^k in two float32 products, so that overflow
 * and gradual underflow round once more at most.  |t| >= 128 gives 0 or
 * inf directly (the magic addition needs |t| below 2^51).  About 0.6
 * ulp; no division, no branch.
 */
static Ref pow32(MB *b, Ref a, Ref y)
{
	static const double LN2 = 0x1.62e42fefa39efp-1, L2E = 0x1.71547652b82fep0;
	static const double P[] = {-1.0 / 2, 1.0 / 3, -1.0 / 4, 1.0 / 5};
	static const double E[] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040};
	MB dd = mb_new(b->L, SK_F64);
	MB *d = &dd;
	Ref ad = mb_cvt(b, a, SK_F32, SK_F64), yd = mb_cvt(b, y, SK_F32, SK_F64);
	/* float32 arguments are normal in float64: no scaling */
	LogRow q = math_log_row(d, ad, 0);
	Ref r = mb_fma(d, q.z, q.invc, mb_f(d, -1));
	Ref w = mb_fma(d, q.kd, mb_f(d, LN2), q.chi);
	Ref r2 = mb_mul(d, r, r);
	Ref l = mb_add(d, w, mb_fma(d, r2, mb_horner(d, r, P, N(P)), r));
	Ref tl = mb_mul(d, yd, l);
	Ref kf, kraw;
	mb_round_magic(d, tl, mb_f(d, L2E), &kf, &kraw);
	Ref p = mb_horner(d, mb_fma(d, kf, mb_f(d, -LN2), tl), E, N(E));
	Ref k1 = mb_iop(b, O_SHR, KW, kraw, mb_i(b, KW, 1));
	Ref k2 = mb_iop(b, O_SUB, KW, kraw, k1);
	Ref pf = mb_cvt(b, p, SK_F64, SK_F32);
	Ref res = mb_mul(b, pf, mb_pow2(b, k1));
	res = mb_mul(b, res, mb_pow2(b, k2));
	Ref th = mb_hiword(d, tl);
	Ref big = mb_icmp(b, CC_GE, KW, mb_iop(b, O_AND, KW, th, mb_i(b, KW, 0x7fffffff)), mb_i(b, KW, 0x40600000));
	Ref lim = mb_sel(b, mb_icmp(b, CC_LT, KW, th, mb_i(b, KW, 0)), mb_f(b, 0), mb_f(b, HUGE_VAL));
	return mb_sel(b, big, lim, res);
}

/*
 * log(a) as a pair hi + lo for finite a > 0, float64 pow, to about 2^-70
 * of log(a): float64 log's table and reduction (log64 in exp_log.c:
 * a = 2^k z, invc ~ 1/c for z's interval, log(c) = chi + clo, chi a
 * multiple of 2^-43), no division.  z invc = ph + pl exactly (a product
 * and an fma) and r = ph - 1 exactly (|r| < 2^-8), so that r + pl is
 * z invc - 1 with no error.  log(a) = w + r - r^2/2 + r^3 P(r) + pl (1 - r
 * + r^2) + k ln2_lo + clo with w = k ln2_hi + chi exact (ln2_hi has 42
 * bits), P Taylor's to r^8 (truncation below 2^-75), w + r and that plus
 * -r^2/2 (an exact product of r and -r/2) each summed exactly, every small
 * term added into the low part; the pair normalised at the end.
 * The interval holding 1 has invc = 1 and chi = clo = 0: there pl = 0 and
 * log(a) is r's series, so relative accuracy holds near 1 too.
 */
static DD log_pair(MB *b, Ref x)
{
	static const double LN2_HI42 = 0x1.62e42fefa38p-1, LN2_LO42 = 0x1.ef35793c7673p-45;
	static const double P[] = {1.0 / 3, -1.0 / 4, 1.0 / 5, -1.0 / 6, 1.0 / 7, -1.0 / 8};
	LogRow q = math_log_row(b, x, 1);
	Ref kd = q.kd, chi = q.chi, clo = q.clo;
	DD pr = mb_two_prod(b, q.z, q.invc);
	Ref r = mb_sub(b, pr.hi, mb_f(b, 1));
	Ref w = mb_fma(b, kd, mb_f(b, LN2_HI42), chi);
	DD h = mb_fast_two_sum(b, w, r);
	DD s = mb_two_prod(b, r, mb_mul(b, r, mb_f(b, -0.5)));
	DD u = mb_fast_two_sum(b, h.hi, s.hi);
	Ref r2 = mb_mul(b, r, r);
	Ref r3 = mb_mul(b, r2, r);
	Ref cub = mb_mul(b, r3, mb_horner(b, r, P, N(P)));
	Ref plt = mb_fma(b, pr.lo, mb_fma(b, r, r, mb_neg(b, r)), pr.lo);
	Ref hulo = mb_add(b, h.lo, u.lo);
	Ref lo = mb_add(b, hulo, mb_add(b, s.lo, plt));
	lo = mb_add(b, lo, mb_add(b, mb_fma(b, kd, mb_f(b, LN2_LO42), clo), cub));
	return mb_fast_two_sum(b, u.hi, lo);
}

Ref math_pow(MB *b, Ref x, Ref y)
{
	Ref ax = mb_abs(b, x);
	/* keep the kernel on finite positive numbers: the specials are selected */
	Ref pos = mb_gt(b, ax, mb_f(b, 0));
	Ref fin = mb_lt(b, ax, mb_f(b, HUGE_VAL));
	Ref ok = mb_and(b, pos, fin);
	Ref a = mb_sel(b, ok, ax, mb_f(b, 1));
	Ref core;
	if (mb_is64(b)) {
		DD l = log_pair(b, a);
		DD p = mb_two_prod(b, y, l.hi);
		p.lo = mb_fma(b, y, l.lo, p.lo);
		core = math_exp_dd(b, p);
	} else {
		core = pow32(b, a, y);
	}
	return pow_specials(b, x, y, core);
}

/* ------------------------------------------------------------ cbrt */

static Ref cbrt_core(MB *b, Ref x)
{
	int d = mb_is64(b);
	Ref ax = mb_abs(b, x);
	Ref ex;
	Ref fm = math_frexp(b, ax, &ex);                 /* ax = fm 2^ex, fm in [0.5, 1) */
	Ref E = mb_iop(b, O_SUB, KW, ex, mb_i(b, KW, 1));  /* ax = (2 fm) 2^E */
	Ref q = mb_iop(b, O_SUB, KW, mb_uop(b, O_DIV, KW, mb_iop(b, O_ADD, KW, E, mb_i(b, KW, 1200)), mb_i(b, KW, 3)),
	               mb_i(b, KW, 400));
	Ref rem = mb_iop(b, O_SUB, KW, E, mb_iop(b, O_MUL, KW, q, mb_i(b, KW, 3)));
	Ref fm2 = mb_add(b, fm, fm);                     /* [1, 2) */
	Ref m = mb_mul(b, fm2, mb_pow2(b, rem));         /* [1, 8) */
	Ref r = mb_horner(b, m, CBRT_R0, N(CBRT_R0));
	Ref third = mb_f(b, 1.0 / 3.0);
	for (int i = 0; i < (d ? 4 : 3); i++) {
		Ref r3 = mb_mul(b, mb_mul(b, r, r), r);
		Ref e = mb_fma(b, mb_neg(b, m), r3, mb_f(b, 1));
		r = mb_fma(b, mb_mul(b, r, e), third, r);
	}
	Ref r2 = mb_mul(b, r, r);
	Ref yv = mb_mul(b, m, r2);
	DD s = mb_two_prod(b, yv, yv);
	DD c = mb_two_prod(b, s.hi, yv);
	Ref clo = mb_fma(b, s.lo, yv, c.lo);
	Ref res = mb_sub(b, mb_sub(b, m, c.hi), clo);
	yv = mb_fma(b, res, mb_mul(b, r2, third), yv);
	Ref y = mb_mul(b, yv, mb_pow2(b, q));
	y = mb_copysign(b, y, x);
	Ref zero = mb_eq(b, x, mb_f(b, 0));
	Ref special = mb_or(b, zero, mb_not(b, mb_isfinite(b, x)));
	return mb_sel(b, special, x, y);
}

Ref math_cbrt(MB *b, Ref x)
{
	return cbrt_core(b, x);
}

/* ----------------------------------------------------------- hypot */

static Ref hypot64(MB *b, Ref x, Ref y)
{
	/* a >= c, ordered by their bits (a NaN is above an infinity) */
	Ref ax = mb_abs(b, x), ay = mb_abs(b, y);
	Ref bx = mb_bits(b, ax), by = mb_bits(b, ay);
	Ref gt = mb_ucmp(b, CC_GT, KL, bx, by);
	Ref a = mb_sel(b, gt, ax, ay), c = mb_sel(b, gt, ay, ax);
	/* the larger one's biased exponent, from its high word (2047: inf or NaN) */
	Ref ea = mb_uop(b, O_SHR, KW, mb_hiword(b, a), mb_i(b, KW, 20));
	/*
	 * s = 2^(1023 - sb) with sb = 2046 - ea kept in [1, 2045], so that both
	 * s and 1/s = 2^(sb - 1023) are normal: a * s is in [1, 4) or, for a
	 * subnormal a, at least 2^-52; the scaling both ways is a product by
	 * a power of two, exact on the way in and one rounding on the way out
	 */
	Ref sb = mb_iop(b, O_SUB, KW, mb_i(b, KW, 2046), ea);
	sb = mb_iop(b, O_MIN, KW, mb_iop(b, O_MAX, KW, sb, mb_i(b, KW, 1)), mb_i(b, KW, 2045));
	Ref lo = mb_i(b, KW, 0);
	Ref s = mb_from_words(b, mb_iop(b, O_SHL, KW, sb, mb_i(b, KW, 20)), lo);
	Ref back = mb_from_words(b, mb_iop(b, O_SHL, KW, mb_iop(b, O_SUB, KW, mb_i(b, KW, 2046), sb),
	                                   mb_i(b, KW, 20)), lo);
	Ref as = mb_mul(b, a, s), cs = mb_mul(b, c, s);
	/* a = 0 gives sqrt(0) = 0 */
	Ref r = mb_mul(b, mb_sqrt(b, mb_fma(b, as, as, mb_mul(b, cs, cs))), back);
	/*
	 * An infinite a (then s is 2^-1022) gives inf and a NaN a gives NaN on
	 * the way above; but an infinite part wins over a NaN one, and as the
	 * NaN orders above, c = inf is that case
	 */
	Ref inf = mb_f(b, HUGE_VAL);
	return mb_sel(b, mb_eq(b, c, inf), inf, r);
}

Ref math_hypot(MB *b, Ref x, Ref y)
{
	if (mb_is64(b))
		return hypot64(b, x, y);
	MB d = mb_new(b->L, SK_F64);
	Ref xd = mb_cvt(b, x, SK_F32, SK_F64), yd = mb_cvt(b, y, SK_F32, SK_F64);
	Ref h = mb_sqrt(&d, mb_fma(&d, xd, xd, mb_mul(&d, yd, yd)));
	Ref r = mb_cvt(b, h, SK_F64, SK_F32);
	Ref xinf = mb_isinf(b, x);
	Ref yinf = mb_isinf(b, y);
	return mb_sel(b, mb_or(b, xinf, yinf), mb_f(b, HUGE_VAL), r);
}

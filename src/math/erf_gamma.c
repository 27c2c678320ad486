/*
 * erf_gamma.c - erf, erfc, gamma (tgamma) and lgamma.
 *
 * erf(t) = 1 - exp(-t Q(t)) with one polynomial Q over [0, 5.93] (float32:
 * [0, 3.92]), weighted by erfc so that erf's relative error stays small,
 * and no branch, as CUDA's; float64 (erf64) arranges it as CUDA does;
 * float32 (erf32) is CUDA's: x + x P(x^2) below 1.00296 and
 * 1 - exp(-t - t P(t)) above, one Horner evaluation with selected
 * coefficients.
 * erfc: 1 - erf(x) for |x| < 1; exp(H(a)) on [1, 2]; beyond,
 * exp(-a^2) G(Y) / (1 + 2a) with Y = (a - 4)/(a + 4), the
 * Schonfelder / Shepherd-Laframboise form that converges for all a >= 0,
 * and exp(-a^2) taken from the exact pair a^2 = hi + lo; negative x give
 * 2 - erfc(|x|).
 *
 * gamma: for 0 < x < 10, gamma(x) = (x-1)(x-2)...(x-n) / R(y - 1) with
 * y = x - n in [1, 2) and R(u) = 1/gamma(1 + u), which is entire and so
 * needs few terms; the factors x - k are exact and their product is kept
 * as a double-double; x < 1 gives 1/(x R(x)).  For x >= 10, Stirling:
 * exp((x - 1/2) log x - x) sqrt(2 pi) S(1/x), the exponent a
 * double-double (math_log_ext) so that the result keeps its accuracy up
 * to overflow.  x < 0 reflects: gamma(x) = pi / (|x| sin(pi x) gamma(|x|)),
 * with Stirling's exponent negated for |x| >= 10 so that results down in
 * the subnormals still come out.
 * lgamma: lgamma(2 + v) = v G(v) on |v| <= 1/2, and
 * lgamma(x) = lgamma(x - n) + log((x-1)...(x-n)) (exact factors) up to 10,
 * lgamma(x) = lgamma(x + 2) - log(x + x^2) below 1/2, lgamma(x + 1) -
 * log(x) near 1; Stirling beyond 10; reflection for x < 0.
 * float32 computes all four in float64.
 */
#include <math.h>

#include "coeffs.h"
#include "logpowtab.h"
#include "mathlib.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* -x for a pair */
static DD dd_neg(MB *b, DD x)
{
	Ref hi = mb_neg(b, x.hi);
	Ref lo = mb_neg(b, x.lo);
	return mb_dd(hi, lo);
}

/* ------------------------------------------------------------ erf */

/*
 * erf(x), float64: erf(t) = -expm1(-q) with q = -log(erfc(t)) = t Q(t),
 * one polynomial of degree 23 (ERF_Q23_D) in CUDA's arrangement.
 * q = t + t P(t) with P = Q - 1 (so that the leading coefficient
 * 2/sqrt(pi) keeps all its bits), q = qh + ql as a pair; e^-q = 2^k e^r
 * e^-ql with k = rint(-qh / ln2) by the magic addition and r = -qh - k ln2;
 * e^(r - ql) - 1 = r + (r^2 E(r) - ql) with E exp's polynomial, rounded
 * once, and erf = (1 - 2^k) - 2^k (e^(r - ql) - 1), 1 - 2^k exact.  Beyond
 * 5.93 erf is 1 in float64.  No branch, no division.
 */
static Ref erf64(MB *b, Ref x)
{
	static const double L2E = 0x1.71547652b82fep0, LN2 = 0x1.62e42fefa39efp-1;
	double P[N(ERF_Q23_D)];
	P[0] = ERF_Q23_D[0] - 1.0;
	for (int i = 1; i < N(ERF_Q23_D); i++)
		P[i] = ERF_Q23_D[i];
	Ref t = mb_abs(b, x);
	Ref p = mb_horner(b, t, P, N(ERF_Q23_D));
	Ref qh = mb_fma(b, t, p, t);
	Ref ql = mb_fma(b, t, p, mb_sub(b, t, qh));
	Ref kf, kraw;
	mb_round_magic(b, qh, mb_f(b, -L2E), &kf, &kraw);
	/* r = -qh - k ln2 is exact (ln2's rounding times k, below 2^-49, is
	 * below 2^-54 of erf once multiplied by 2^k); ql enters as e^-ql = 1 - ql */
	Ref r = mb_fma(b, kf, mb_f(b, -LN2), mb_neg(b, qh));
	Ref e = mb_horner(b, r, EXP_Q10_D, N(EXP_Q10_D));
	Ref r2 = mb_mul(b, r, r);
	Ref em1 = mb_add(b, r, mb_fma(b, r2, e, mb_neg(b, ql)));
	Ref a = mb_from_words(b, mb_iop(b, O_SHL, KW, mb_iop(b, O_ADD, KW, kraw, mb_i(b, KW, 1023)), mb_i(b, KW, 20)),
	                      mb_i(b, KW, 0));
	Ref na = mb_neg(b, a);
	Ref y = mb_fma(b, na, em1, mb_sub(b, mb_f(b, 1), a));
	y = mb_sel(b, mb_gt(b, t, mb_f(b, 5.93)), mb_f(b, 1), y);
	/* y >= 0 (or NaN): x's sign is or-ed in */
	Ref sg = mb_iop(b, O_AND, KL, mb_bits(b, x), mb_i(b, KL, (int64_t)0x8000000000000000ull));
	return mb_float(b, mb_iop(b, O_OR, KL, mb_bits(b, y), sg));
}

/*
 * erf(x), float32, in CUDA's arrangement: one Horner evaluation whose
 * seven coefficients are selected by |x| >= 1.00296; below, erf(x) =
 * x + x P(x^2); above, q = -t - t P(t) (t = |x|), in powers of 2, and
 * erf = 1 - 2^q with x's sign, 2^q by the GPU's ex2.approx as CUDA's
 * erff does (its relative error, about 2^-22, is on erf's scale, where
 * 2^q <= 0.16, below a quarter ulp; the simulator computes 2^q correctly
 * rounded, so, as float32 exp, the two may differ in the last bit:
 * docs/math.md).  Beyond 3.92 2^q rounds away against 1 and the
 * polynomial only grows (ex2 of a large negative q or -inf is 0), so large
 * arguments and infinities give 1; NaN takes the first formula.
 */
static Ref erf32(MB *b, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref big = mb_ge(b, a, mb_f(b, 0x1.00c1fcp+0));
	Ref z = mb_sel(b, big, a, mb_mul(b, x, x));
	Ref p = mb_horner_sel(b, z, big, ERF_BIG_F, ERF_SMALL_F, N(ERF_BIG_F));
	Ref s = mb_sel(b, big, mb_neg(b, a), x);
	Ref r = mb_fma(b, p, s, s);
	/* 1 - e^q >= 0: x's sign is or-ed in */
	Ref y = mb_bits(b, mb_sub(b, mb_f(b, 1), mb_approx(b, AP_EX2, r)));
	y = mb_iop(b, O_OR, KW, y, mb_iop(b, O_AND, KW, mb_bits(b, x), mb_i(b, KW, (int32_t)0x80000000u)));
	return mb_sel(b, big, mb_float(b, y), r);
}

Ref math_erf(MB *b, Ref x)
{
	if (mb_is64(b))
		return erf64(b, x);
	return erf32(b, x);
}

static Ref erfc64(MB *b, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref one = mb_f(b, 1);
	/* 1 - (x + x p) with 1 - x exact as a pair */
	Ref z = mb_mul(b, x, x);
	Ref p = mb_horner(b, z, ERF_E_D, N(ERF_E_D));
	DD omx = mb_two_sum(b, one, mb_neg(b, x));
	Ref y0 = mb_add(b, omx.hi, mb_fma(b, mb_neg(b, x), p, omx.lo));
	/* 1 <= a < 2: exp(-a^2 + H(a - 1)), the exponent a pair */
	Ref a1 = mb_min(b, a, mb_f(b, 2));
	DD sq1 = mb_two_prod(b, a1, a1);
	Ref h = mb_horner(b, mb_sub(b, a1, one), ERFC_H_D, N(ERFC_H_D));
	Ref e1 = math_exp_dd(b, mb_dd_add(b, dd_neg(b, sq1), mb_dd(h, mb_f(b, 0))));
	/* a >= 2 */
	Ref ac = mb_min(b, a, mb_f(b, 28));
	Ref num = mb_sub(b, ac, mb_f(b, 4));
	Ref den = mb_add(b, ac, mb_f(b, 4));
	Ref Y = mb_div(b, num, den);
	Ref g = mb_horner(b, Y, ERFC_G_D, N(ERFC_G_D));
	Ref fac = mb_div(b, g, mb_fma(b, mb_f(b, 2), ac, one));
	DD sq = mb_two_prod(b, ac, ac);
	Ref e2 = math_exp_dd_mul(b, dd_neg(b, sq), fac);
	Ref e = mb_sel(b, mb_lt(b, a, mb_f(b, 2)), e1, e2);
	Ref neg = mb_signbit(b, x);
	Ref y1 = mb_sel(b, neg, mb_sub(b, mb_f(b, 2), e), e);
	Ref small = mb_lt(b, a, one);
	return mb_sel(b, small, y0, mb_sel(b, mb_isnan(b, x), x, y1));
}

Ref math_erfc(MB *b, Ref x)
{
	return mb_via_f64(b, erfc64, x);
}

/* ---------------------------------------------------------- gamma */

static const double SQRT2PI = 0x1.40d931ff62706p+1;
static const double HALF_LOG_2PI_HI = 0x1.d67f1c864beb4p-1, HALF_LOG_2PI_LO = -0x1.65b5a1b7ff5dfp-55;
static const double LOG_PI = 0x1.250d048e7a1bdp+0;

/* (x - 1/2) log x - x as a pair, x >= 10 */
static DD stirling_exp(MB *b, Ref x)
{
	DD l = math_log_ext(b, x);
	DD t = mb_dd_mul_d(b, l, mb_sub(b, x, mb_f(b, 0.5)));
	return mb_dd_add(b, t, mb_dd(mb_neg(b, x), mb_f(b, 0)));
}

/* the product (x-1)(x-2)...(x-n), 0 <= n <= 8, as a pair */
static DD gamma_product(MB *b, Ref x, Ref nf)
{
	DD p = mb_dd(mb_f(b, 1), mb_f(b, 0));
	for (int k = 1; k <= 8; k++) {
		Ref used = mb_le(b, mb_f(b, k), nf);     /* k <= n */
		Ref f = mb_sel(b, used, mb_sub(b, x, mb_f(b, k)), mb_f(b, 1));
		DD t = mb_two_prod(b, p.hi, f);
		p = mb_fast_two_sum(b, t.hi, mb_fma(b, p.lo, f, t.lo));
	}
	return p;
}

/* gamma(a) for 0 < a < 10 */
static Ref gamma_small(MB *b, Ref a)
{
	Ref one = mb_f(b, 1);
	Ref lt1 = mb_lt(b, a, one);
	Ref nf = mb_max(b, mb_sub(b, mb_floor(b, a), one), mb_f(b, 0));
	Ref u = mb_sel(b, lt1, a, mb_sub(b, mb_sub(b, a, nf), one));
	Ref r = mb_horner(b, u, GAMMA_R_D, N(GAMMA_R_D));
	DD p = gamma_product(b, a, nf);
	/* a < 1: (1/a) / R(a), which stays right for subnormal a */
	Ref nh = mb_sel(b, lt1, mb_div(b, one, a), p.hi), nl = mb_sel(b, lt1, mb_f(b, 0), p.lo);
	Ref den = r;
	Ref inv = mb_div(b, one, den);
	Ref q = mb_mul(b, nh, inv);
	Ref rem = mb_add(b, mb_fma(b, mb_neg(b, q), den, nh), nl);
	Ref fin = mb_isfinite(b, q);
	return mb_sel(b, fin, mb_fma(b, rem, inv, q), q);
}

static Ref tgamma64(MB *b, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref ten = mb_f(b, 10);
	Ref big = mb_ge(b, a, ten);
	Ref as = mb_sel(b, big, mb_f(b, 1.5), a);
	Ref ab = mb_sel(b, big, mb_min(b, a, mb_f(b, 400)), ten);
	Ref gs = gamma_small(b, mb_sel(b, mb_gt(b, as, mb_f(b, 0)), as, mb_f(b, 1)));
	DD e = stirling_exp(b, ab);
	Ref w = mb_div(b, mb_f(b, 1), ab);
	Ref F = mb_mul(b, mb_f(b, SQRT2PI), mb_horner(b, w, GAMMA_S_D, N(GAMMA_S_D)));
	Ref neg = mb_signbit(b, x);
	/* x < 0: pi / (|x| sin(pi x) gamma(|x|)) */
	Ref sp = mb_mul(b, a, math_sinpi(b, x));
	Ref pos_small = gs;
	Ref pos_big = math_exp_dd_mul(b, e, F);
	Ref neg_small = mb_div(b, mb_f(b, PI_HI), mb_mul(b, sp, gs));
	DD ne = dd_neg(b, e);
	Ref neg_big = math_exp_dd_mul(b, ne, mb_div(b, mb_f(b, PI_HI), mb_mul(b, sp, F)));
	Ref yneg = mb_sel(b, big, neg_big, neg_small);
	Ref ypos = mb_sel(b, big, pos_big, pos_small);
	Ref y = mb_sel(b, neg, yneg, ypos);
	/* tiny negative x: (1/x) / R(x), R extrapolated a hair below 0 */
	Ref rt = mb_horner(b, x, GAMMA_R_D, N(GAMMA_R_D));
	Ref tiny = mb_div(b, mb_div(b, mb_f(b, 1), x), rt);
	y = mb_sel(b, mb_and(b, neg, mb_lt(b, a, mb_f(b, 0x1p-20))), tiny, y);
	/* poles and the rest */
	Ref isint = mb_eq(b, mb_trunc(b, x), x);
	y = mb_sel(b, mb_and(b, neg, isint), mb_f(b, NAN), y);
	Ref zero = mb_eq(b, x, mb_f(b, 0));
	y = mb_sel(b, zero, mb_div(b, mb_f(b, 1), x), y);
	y = mb_sel(b, mb_eq(b, x, mb_f(b, HUGE_VAL)), x, y);
	return mb_sel(b, mb_isnan(b, x), x, y);
}

Ref math_tgamma(MB *b, Ref x)
{
	return mb_via_f64(b, tgamma64, x);
}

/* lgamma(v) for v > 0 */
static Ref lgamma_pos(MB *b, Ref v)
{
	Ref one = mb_f(b, 1);
	Ref big = mb_ge(b, v, mb_f(b, 10));
	/* n = floor(v - 1.5) clamped to [-2, 8]; gv = v - (n + 2) in [-1/2, 1/2) */
	Ref n = mb_floor(b, mb_sub(b, v, mb_f(b, 1.5)));
	n = mb_min(b, mb_max(b, n, mb_f(b, -2)), mb_f(b, 8));
	Ref vs = mb_sel(b, big, mb_f(b, 2), v);
	n = mb_sel(b, big, mb_f(b, 0), n);
	Ref gv = mb_sub(b, vs, mb_add(b, n, mb_f(b, 2)));
	/* lgamma(2 + gv) = gv G(gv): the first two terms of gv G in double-double */
	DD ta = mb_two_prod(b, gv, mb_f(b, LGAMMA_G_D[0]));
	ta.lo = mb_fma(b, gv, mb_f(b, LGAMMA_G_D_LO[0]), ta.lo);
	DD g2 = mb_two_prod(b, gv, gv);
	DD tb = mb_two_prod(b, g2.hi, mb_f(b, LGAMMA_G_D[1]));
	tb.lo = mb_fma(b, g2.hi, mb_f(b, LGAMMA_G_D_LO[1]), mb_fma(b, g2.lo, mb_f(b, LGAMMA_G_D[1]), tb.lo));
	Ref gv3 = mb_mul(b, g2.hi, gv);
	Ref g3 = mb_mul(b, gv3, mb_horner(b, gv, LGAMMA_G_D + 2, N(LGAMMA_G_D) - 2));
	DD tab = mb_two_sum(b, ta.hi, tb.hi);
	DD t1 = mb_dd(tab.hi, mb_add(b, tab.lo, mb_add(b, mb_add(b, ta.lo, tb.lo), g3)));
	/* log of Q: the product for n >= 1, v for n = -1, v + v^2 for n = -2 */
	DD p = gamma_product(b, vs, n);
	DD vv = mb_fast_two_sum(b, vs, mb_mul(b, vs, vs));
	Ref nm2 = mb_eq(b, n, mb_f(b, -2)), nm1 = mb_eq(b, n, mb_f(b, -1));
	Ref qh = mb_sel(b, nm2, vv.hi, mb_sel(b, nm1, vs, p.hi));
	Ref ql = mb_sel(b, nm2, vv.lo, mb_sel(b, nm1, mb_f(b, 0), p.lo));
	DD lq = math_log_dd(b, qh);
	Ref lql = mb_add(b, lq.lo, mb_div(b, ql, qh));
	Ref negq = mb_lt(b, n, mb_f(b, 0));
	lq.hi = mb_xorsign(b, lq.hi, negq);
	lql = mb_xorsign(b, lql, negq);
	DD s = mb_two_sum(b, lq.hi, t1.hi);
	Ref ysmall = mb_add(b, s.hi, mb_add(b, s.lo, mb_add(b, lql, t1.lo)));
	/* Stirling */
	Ref vb = mb_sel(b, big, v, mb_f(b, 10));
	DD e = stirling_exp(b, vb);
	Ref w = mb_div(b, one, vb);
	Ref tail = mb_fma(b, w, mb_horner(b, w, LGAMMA_S_D, N(LGAMMA_S_D)), mb_f(b, HALF_LOG_2PI_LO));
	DD eh = mb_two_sum(b, e.hi, mb_f(b, HALF_LOG_2PI_HI));
	Ref ybig = mb_add(b, eh.hi, mb_add(b, eh.lo, mb_add(b, e.lo, tail)));
	ybig = mb_sel(b, mb_lt(b, mb_abs(b, e.hi), mb_f(b, HUGE_VAL)), ybig, mb_f(b, HUGE_VAL));
	return mb_sel(b, big, ybig, ysmall);
}

static Ref lgamma64(MB *b, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref inf = mb_f(b, HUGE_VAL);
	Ref pos = mb_gt(b, a, mb_f(b, 0));
	Ref fin = mb_lt(b, a, inf);
	Ref ok = mb_and(b, pos, fin);
	Ref lp = lgamma_pos(b, mb_sel(b, ok, a, mb_f(b, 1)));
	/* x < 0: log(pi) - log|x sin(pi x)| - lgamma(|x|) */
	Ref sp = mb_abs(b, mb_mul(b, a, math_sinpi(b, x)));
	DD ls = math_log_dd(b, mb_sel(b, mb_gt(b, sp, mb_f(b, 0)), sp, mb_f(b, 1)));
	DD d1 = mb_two_sum(b, mb_f(b, LOG_PI), mb_neg(b, ls.hi));
	Ref yn = mb_sub(b, d1.hi, lp);
	yn = mb_add(b, yn, mb_sub(b, d1.lo, ls.lo));
	/* a large negative x: the log of |x sin| is fine; lgamma(|x|) dominates */
	/* tiny negative x: lgamma(x) = lgamma(|x|) + 2 gamma |x| + O(x^2) */
	Ref tiny = mb_lt(b, a, mb_f(b, 0x1p-30));
	yn = mb_sel(b, tiny, mb_fma(b, mb_f(b, 2 * 0.5772156649015329), a, lp), yn);
	Ref y = mb_sel(b, mb_signbit(b, x), yn, lp);
	Ref zero = mb_eq(b, a, mb_f(b, 0));
	Ref neg = mb_signbit(b, x);
	Ref pole = mb_or(b, zero, mb_and(b, neg, mb_eq(b, mb_trunc(b, x), x)));
	y = mb_sel(b, mb_or(b, pole, mb_isinf(b, x)), inf, y);
	return mb_sel(b, mb_isnan(b, x), x, y);
}

Ref math_lgamma(MB *b, Ref x)
{
	return mb_via_f64(b, lgamma64, x);
}

/*
 * inverse.c - libdevice's inverse functions: erfinv, erfcinv,
 * normcdfinv, and normcdf, erfcx, rsqrt, rcbrt.  Written in float64; the
 * float32 versions compute that and round once.
 *
 * erfinv and erfcinv start from Giles's single-precision approximation
 * ("Approximating the erfinv function", GPU Computing Gems, 2011: a
 * polynomial in w = -log(1 - a^2), one for w < 5 and one in sqrt(w) - 3),
 * or, far in the tail (1 - a < 1e-8), from the asymptotic erfc(x) ~
 * exp(-x^2) / (x sqrt(pi)), and refine by Newton's method: on erf(x) = a
 * for a <= 0.5, on log(erfc(x)) = log(t) with t = 1 - a, exact there, for
 * a > 0.5.  The root's error is then erf's (or erfc's) relative error
 * scaled by at most 1, and below 1 far out (erfc's by 1 / 2x^2).
 */
#include <math.h>

#include "mathlib.h"

/* Giles: erfinv(a) ~ a p(w), w = -log((1 - a)(1 + a)) */
static const double giles_mid[9] = {
	1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087,
	-4.39150654e-06, -3.5233877e-06, 3.43273939e-07, 2.81022636e-08,
};
static const double giles_tail[9] = {
	2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773,
	-0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257,
};

static const double SQRT_PI_2 = 0.88622692545275801365;   /* sqrt(pi) / 2 */

/* erfinv(a) for a in [0, 1), t = 1 - a (exact when a > 0.5) */
static Ref erfinv_pos(MB *b, Ref a, Ref t)
{
	Ref w = mb_neg(b, math_log(b, mb_mul(b, t, mb_add(b, mb_f(b, 1), a))));
	Ref pm = mb_horner(b, mb_sub(b, w, mb_f(b, 2.5)), giles_mid, 9);
	Ref pt = mb_horner(b, mb_sub(b, mb_sqrt(b, w), mb_f(b, 3)), giles_tail, 9);
	Ref x0 = mb_mul(b, a, mb_sel(b, mb_lt(b, w, mb_f(b, 5)), pm, pt));
	Ref lt = mb_neg(b, math_log(b, t));
	Ref far = mb_sqrt(b, mb_sub(b, lt, mb_mul(b, mb_f(b, 0.5), math_log(b, mb_mul(b, lt, mb_f(b, M_PI))))));
	x0 = mb_sel(b, mb_lt(b, t, mb_f(b, 1e-8)), far, x0);
	int xv = mb_var(b, b->k, "erfinv");
	mb_set(b, xv, x0);
	MIf s;
	mb_if(b, &s, mb_le(b, a, mb_f(b, 0.5)));
	for (int i = 0; i < 2; i++) {
		Ref x = mb_get(b, xv);
		Ref d = mb_sub(b, math_erf(b, x), a);
		Ref g = math_exp(b, mb_mul(b, x, x));
		mb_set(b, xv, mb_sub(b, x, mb_mul(b, mb_mul(b, d, mb_f(b, SQRT_PI_2)), g)));
	}
	mb_else(b, &s);
	for (int i = 0; i < 3; i++) {
		Ref x = mb_get(b, xv);
		Ref e = math_erfc(b, x);
		Ref g = math_exp(b, mb_mul(b, x, x));
		Ref step = mb_mul(b, mb_mul(b, math_log(b, mb_div(b, e, t)), mb_mul(b, e, g)), mb_f(b, SQRT_PI_2));
		mb_set(b, xv, mb_add(b, x, step));
	}
	mb_endif(b, &s);
	return mb_get(b, xv);
}

/* the value at a = 0, 1 and outside [0, 1] (NaN included) */
static Ref erfinv_special(MB *b, Ref a, Ref x)
{
	Ref one = mb_f(b, 1);
	x = mb_sel(b, mb_eq(b, a, one), mb_f(b, INFINITY), x);
	x = mb_sel(b, mb_eq(b, a, mb_f(b, 0)), mb_f(b, 0), x);
	Ref bad = mb_not(b, mb_le(b, a, one));   /* a > 1 or NaN */
	return mb_sel(b, bad, mb_f(b, NAN), x);
}

static Ref erfinv64(MB *b, Ref y)
{
	Ref a = mb_abs(b, y);
	Ref one = mb_f(b, 1);
	Ref ac = mb_sel(b, mb_lt(b, a, one), a, mb_f(b, 0.25));   /* keeps the iteration finite */
	Ref x = erfinv_pos(b, ac, mb_sub(b, one, ac));
	return mb_copysign(b, erfinv_special(b, a, x), y);
}

Ref math_erfinv(MB *b, Ref y)
{
	return mb_via_f64(b, erfinv64, y);
}

/* erfcinv(t) = erfinv(1 - t), with t kept exact: erfcinv(t) = -erfcinv(2 - t) */
static Ref erfcinv64(MB *b, Ref t)
{
	Ref one = mb_f(b, 1), two = mb_f(b, 2), zero = mb_f(b, 0);
	Ref upper = mb_gt(b, t, one);
	Ref tt = mb_sel(b, upper, mb_sub(b, two, t), t);          /* in [0, 1] */
	Ref ok = mb_and(b, mb_gt(b, tt, zero), mb_le(b, tt, one));
	Ref tc = mb_sel(b, ok, tt, mb_f(b, 0.75));
	Ref x = erfinv_pos(b, mb_sub(b, one, tc), tc);
	x = mb_sel(b, mb_eq(b, tt, zero), mb_f(b, INFINITY), x);
	x = mb_sel(b, mb_and(b, mb_ge(b, t, zero), mb_le(b, t, two)), x, mb_f(b, NAN));
	return mb_sel(b, upper, mb_neg(b, x), x);
}

Ref math_erfcinv(MB *b, Ref t)
{
	return mb_via_f64(b, erfcinv64, t);
}

static const double SQRT2_HI = 1.4142135623730951, SQRT2_LO = -9.6672933134529135e-17;
static const double ISQRT2_HI = 0.70710678118654757, ISQRT2_LO = -4.8336466567264567e-17;

/* normcdfinv(p) = -sqrt(2) erfcinv(2p) */
static Ref normcdfinv64(MB *b, Ref p)
{
	Ref x = erfcinv64(b, mb_mul(b, p, mb_f(b, 2)));
	Ref r = mb_fma(b, x, mb_f(b, SQRT2_HI), mb_mul(b, x, mb_f(b, SQRT2_LO)));
	return mb_neg(b, r);
}

Ref math_normcdfinv(MB *b, Ref p)
{
	return mb_via_f64(b, normcdfinv64, p);
}

/* normcdf(x) = erfc(-x / sqrt(2)) / 2, the argument as a pair th + tl and
 * erfc(th + tl) ~ erfc(th) - tl 2/sqrt(pi) exp(-th^2) */
static Ref normcdf64(MB *b, Ref x)
{
	DD t = mb_two_prod(b, x, mb_f(b, -ISQRT2_HI));
	Ref tl = mb_fma(b, x, mb_f(b, -ISQRT2_LO), t.lo);
	Ref e = math_erfc(b, t.hi);
	Ref d = mb_mul(b, mb_mul(b, tl, mb_f(b, 1 / SQRT_PI_2)), math_exp(b, mb_neg(b, mb_mul(b, t.hi, t.hi))));
	Ref r = mb_mul(b, mb_sub(b, e, d), mb_f(b, 0.5));
	return mb_sel(b, mb_isfinite(b, d), r, mb_mul(b, e, mb_f(b, 0.5)));
}

Ref math_normcdf(MB *b, Ref x)
{
	return mb_via_f64(b, normcdf64, x);
}

/* x scaled into [2^-900, 2^900] by 2^(-2k) (or -3k), and 2^k to undo the
 * function's power on the result */
static Ref prescale(MB *b, Ref x, int power, Ref *post)
{
	Ref a = mb_abs(b, x);
	Ref tiny = mb_lt(b, a, mb_f(b, 0x1p-900)), huge = mb_gt(b, a, mb_f(b, 0x1p900));
	double up = power == 2 ? 0x1p200 : 0x1p300, down = power == 2 ? 0x1p-200 : 0x1p-300;
	*post = mb_sel(b, tiny, mb_f(b, 0x1p100), mb_sel(b, huge, mb_f(b, 0x1p-100), mb_f(b, 1)));
	return mb_mul(b, x, mb_sel(b, tiny, mb_f(b, up), mb_sel(b, huge, mb_f(b, down), mb_f(b, 1))));
}

/* 1 / sqrt(x): y0 = 1 / sqrt(x), then y0 + y0 (1 - x y0^2) / 2 with
 * y0^2 as an exact pair */
static Ref rsqrt64(MB *b, Ref x)
{
	Ref post;
	Ref xs = prescale(b, x, 2, &post);
	Ref y0 = mb_div(b, mb_f(b, 1), mb_sqrt(b, xs));
	DD h = mb_two_prod(b, y0, y0);
	Ref e = mb_sub(b, mb_fma(b, mb_neg(b, xs), h.hi, mb_f(b, 1)), mb_mul(b, xs, h.lo));
	Ref y = mb_mul(b, mb_fma(b, mb_mul(b, y0, mb_f(b, 0.5)), e, y0), post);
	Ref ordinary = mb_and(b, mb_gt(b, x, mb_f(b, 0)), mb_isfinite(b, x));
	return mb_sel(b, ordinary, y, mb_div(b, mb_f(b, 1), mb_sqrt(b, x)));
}

Ref math_rsqrt(MB *b, Ref x)
{
	return mb_via_f64(b, rsqrt64, x);
}

/* 1 / cbrt(x): y0 = 1 / cbrt(x), then y0 + y0 (1 - x y0^3) / 3 */
static Ref rcbrt64(MB *b, Ref x)
{
	Ref post;
	Ref xs = prescale(b, x, 3, &post);
	Ref y0 = mb_div(b, mb_f(b, 1), math_cbrt(b, xs));
	DD c = mb_dd_mul_d(b, mb_two_prod(b, y0, y0), y0);
	DD p = mb_dd_mul_d(b, c, xs);
	Ref e = mb_sub(b, mb_sub(b, mb_f(b, 1), p.hi), p.lo);
	Ref y = mb_mul(b, mb_fma(b, mb_mul(b, y0, mb_f(b, 1.0 / 3)), e, y0), post);
	Ref ordinary = mb_and(b, mb_isfinite(b, x), mb_not(b, mb_eq(b, x, mb_f(b, 0))));
	return mb_sel(b, ordinary, y, mb_div(b, mb_f(b, 1), math_cbrt(b, x)));
}

Ref math_rcbrt(MB *b, Ref x)
{
	return mb_via_f64(b, rcbrt64, x);
}

/* erfcx(x) = exp(x^2) erfc(x): below 26, exp of x^2 as an exact pair
 * times erfc(x); above, where erfc underflows, the asymptotic series
 * 1/(x sqrt(pi)) sum (-1)^n (2n-1)!! / (2x^2)^n, 10 terms (the 11th is
 * below 2^-60 of the sum) */
static Ref erfcx64(MB *b, Ref x)
{
	Ref small = math_exp_dd_mul(b, mb_two_prod(b, x, x), math_erfc(b, x));
	Ref big = mb_gt(b, x, mb_f(b, 26));
	Ref xs = mb_sel(b, big, x, mb_f(b, 26));
	Ref t = mb_div(b, mb_f(b, 1), mb_mul(b, mb_mul(b, xs, xs), mb_f(b, 2)));
	Ref s = mb_f(b, 0);
	for (int n = 9; n >= 1; n--)
		s = mb_mul(b, mb_fma(b, s, mb_f(b, -1), mb_f(b, 1)), mb_mul(b, t, mb_f(b, 2 * n - 1)));
	Ref series = mb_div(b, mb_sub(b, mb_f(b, 1), s), mb_mul(b, xs, mb_f(b, 1.7724538509055160273)));
	return mb_sel(b, big, mb_sel(b, mb_isinf(b, x), mb_f(b, 0), series), small);
}

Ref math_erfcx(MB *b, Ref x)
{
	return mb_via_f64(b, erfcx64, x);
}

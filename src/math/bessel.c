/*
 * bessel.c - Bessel functions of the first and second kind: J0, J1, Y0,
 * Y1, and Jn, Yn of integer order n, in float64; float32 evaluates the
 * float64 function and rounds once.
 *
 * J0, J1, Y0, Y1 below 8: a table of rows (besseltab.h, made by
 * tools/gen_bessel_table.py), each a polynomial fit P(x - c) of
 * f(x) / (x - z), z the zero of f nearest to the row, held as the pair
 * zhi + zlo; f = ((x - zhi) - zlo) P(x - c) keeps its relative error small
 * up to the zeros (x - zhi is exact there).  Rows with no zero near (J0
 * below 1.5) fit f itself.  Y0 below 3/4 and Y1 below 3/2
 * take the series forms 2/pi log(x) J0(x) + S0(x^2) and
 * 2/pi log(x) J1(x) - 2/(pi x) + x S1(x^2), S0 and S1 entire.
 * From 8 on, the Hankel forms with P(1/x^2) and Q(1/x^2)/x, and the
 * phase x - pi/4 (x - 3pi/4) expanded into sin x and cos x, so that the
 * argument reduction is sin's and cos's own: the error is then small in
 * absolute terms, as CUDA documents (2^-51 and below).
 *
 * Jn: forward recurrence J(k+1) = (2k/x) J(k) - J(k-1) from J0, J1 where
 * |x| >= n (stable there); below, Miller's backward recurrence from
 * m = n + 16 + sqrt(40 n) with a start of 1, rescaled by 2^-600 whenever
 * it passes 2^600, and normalised by whichever of J0(x), J1(x) is larger;
 * below 2^-20, the first two terms of the series (x/2)^n/n! (1 -
 * (x/2)^2/(n+1)); 0 for n >= 1100 and |x| <= 0.36 n, where
 * |J(n, x)| <= (x/2)^n/n! <= (e x/(2n))^n < 2^-n rounds to 0.  Yn: forward recurrence from Y0, Y1 (Y grows with n),
 * stopping at the first infinity.  As libdevice: NaN for n < 0, and for
 * Y of x < 0; Y(0) = -inf; J and Y of +inf are +0.  The loops run about
 * n times; for large n only where |x| is about n/3 or more (J), or until
 * Y overflows.
 */
#include <math.h>

#include "besseltab.h"
#include "mathlib.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const double INV_SQRT_PI = 0x1.20dd750429b6dp-1;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1;

typedef struct BTab {
	const char *name;
	const double *tab;
	int rows, nc, bytes;
	double start, invh;
} BTab;

#define BTAB(F) {"__pj_bessel_" #F, BESSEL_##F##_TAB, BESSEL_##F##_ROWS, BESSEL_##F##_NC, \
                  (int)sizeof BESSEL_##F##_TAB, BESSEL_##F##_START, BESSEL_##F##_INVH}
static const BTab TJ0 = BTAB(J0), TJ1 = BTAB(J1), TY0 = BTAB(Y0), TY1 = BTAB(Y1);

/* f(a) from t's row of a (a below 8; other a read a row at the ends):
 * ((a - zhi) - zlo) P(a - c), or P(a - c) alone in a row with m = 0 */
static Ref from_table(MB *b, const BTab *t, Ref a)
{
	Ref fi = mb_floor(b, mb_mul(b, mb_sub(b, a, mb_f(b, t->start)), mb_f(b, t->invh)));
	fi = mb_min(b, mb_max(b, fi, mb_f(b, 0)), mb_f(b, t->rows - 1));
	int stride = (t->nc + 4) * 8;
	Ref off = mb_iop(b, O_MUL, KW, mb_toint(b, fi), mb_i(b, KW, stride));
	Ref row = mb_uop(b, O_ADD, KL, mb_gtable(b, t->name, t->tab, t->bytes), mb_cvt(b, off, SK_I32, SK_U64));
	Ref at[4 + 32];
	if (t->nc > 32)
		ICE(b->L->c, "%s has %d coefficients a row", t->name, t->nc);
	for (int i = 0; i < t->nc + 4; i++)
		at[i] = mb_gload(b, mb_uop(b, O_ADD, KL, row, mb_i(b, KL, 8 * i)), SK_F64);
	Ref s = mb_sub(b, a, at[0]);
	Ref p = at[4 + t->nc - 1];
	for (int i = t->nc - 2; i >= 0; i--)
		p = mb_fma(b, p, s, at[4 + i]);
	Ref d = mb_sub(b, mb_sub(b, a, at[1]), at[2]);
	Ref z = mb_fma(b, at[3], d, mb_sub(b, mb_f(b, 1), at[3]));
	return mb_mul(b, z, p);
}

/* a >= 8: J and Y of order nu (0 or 1) from the Hankel forms */
static void hankel(MB *b, Ref a, int nu, Ref *j, Ref *y)
{
	const double *pc = nu ? BESSEL_H1_P : BESSEL_H0_P, *qc = nu ? BESSEL_H1_Q : BESSEL_H0_Q;
	int np = nu ? N(BESSEL_H1_P) : N(BESSEL_H0_P), nq = nu ? N(BESSEL_H1_Q) : N(BESSEL_H0_Q);
	Ref w = mb_div(b, mb_f(b, 1), a);
	Ref u = mb_mul(b, w, w);
	Ref P = mb_horner(b, u, pc, np);
	Ref Q = mb_mul(b, w, mb_horner(b, u, qc, nq));
	Ref s = math_sin(b, a), c = math_cos(b, a);
	Ref sp = mb_add(b, s, c), sm = mb_sub(b, s, c);
	Ref amp = mb_div(b, mb_f(b, INV_SQRT_PI), mb_sqrt(b, a));
	if (nu == 0) {
		*j = mb_mul(b, amp, mb_fma(b, P, sp, mb_mul(b, mb_neg(b, Q), sm)));
		*y = mb_mul(b, amp, mb_fma(b, P, sm, mb_mul(b, Q, sp)));
	} else {
		*j = mb_mul(b, amp, mb_fma(b, P, sm, mb_mul(b, Q, sp)));
		*y = mb_mul(b, amp, mb_fma(b, Q, sm, mb_mul(b, mb_neg(b, P), sp)));
	}
}

/* J0 or J1 of a = |x| (nu: the order) */
static Ref j01(MB *b, Ref a, int nu)
{
	Ref hj, hy;
	hankel(b, mb_max(b, a, mb_f(b, 8)), nu, &hj, &hy);
	Ref r = mb_sel(b, mb_lt(b, a, mb_f(b, 8)), from_table(b, nu ? &TJ1 : &TJ0, a), hj);
	r = mb_sel(b, mb_isinf(b, a), mb_f(b, 0), r);
	return mb_sel(b, mb_isnan(b, a), a, r);
}

static Ref j0_64(MB *b, Ref x)
{
	return j01(b, mb_abs(b, x), 0);
}

static Ref j1_64(MB *b, Ref x)
{
	return mb_xorsign(b, j01(b, mb_abs(b, x), 1), mb_signbit(b, x));
}

static Ref y01(MB *b, Ref x, int nu)
{
	const BTab *t = nu ? &TY1 : &TY0;
	Ref xs = mb_min(b, mb_max(b, x, mb_f(b, 0)), mb_f(b, t->start));
	Ref l = mb_mul(b, mb_f(b, TWO_OVER_PI), mb_mul(b, math_log(b, xs), from_table(b, nu ? &TJ1 : &TJ0, xs)));
	Ref small;
	if (nu == 0) {
		small = mb_add(b, l, mb_horner(b, mb_mul(b, xs, xs), BESSEL_S0, N(BESSEL_S0)));
	} else {
		Ref pole = mb_div(b, mb_f(b, TWO_OVER_PI), xs);
		small = mb_add(b, mb_sub(b, l, pole), mb_mul(b, xs, mb_horner(b, mb_mul(b, xs, xs), BESSEL_S1, N(BESSEL_S1))));
		small = mb_sel(b, mb_eq(b, xs, mb_f(b, 0)), mb_f(b, -INFINITY), small);
	}
	Ref hj, hy;
	hankel(b, mb_max(b, x, mb_f(b, 8)), nu, &hj, &hy);
	Ref r = mb_sel(b, mb_lt(b, x, mb_f(b, 8)), from_table(b, t, x), hy);
	r = mb_sel(b, mb_lt(b, x, mb_f(b, t->start)), small, r);
	r = mb_sel(b, mb_isinf(b, x), mb_f(b, 0), r);
	r = mb_sel(b, mb_lt(b, x, mb_f(b, 0)), mb_f(b, NAN), r);
	return mb_sel(b, mb_isnan(b, x), x, r);
}

static Ref y0_64(MB *b, Ref x) { return y01(b, x, 0); }
static Ref y1_64(MB *b, Ref x) { return y01(b, x, 1); }

Ref math_j0(MB *b, Ref x) { return mb_via_f64(b, j0_64, x); }
Ref math_j1(MB *b, Ref x) { return mb_via_f64(b, j1_64, x); }
Ref math_y0(MB *b, Ref x) { return mb_via_f64(b, y0_64, x); }
Ref math_y1(MB *b, Ref x) { return mb_via_f64(b, y1_64, x); }

/* ------------------------------------------------------- integer order */

/* one step of the three-term recurrence: (2k/x) f - g */
static Ref step(MB *b, Ref k, Ref two_x, Ref f, Ref g)
{
	return mb_fma(b, mb_mul(b, mb_fromint(b, k), two_x), f, mb_neg(b, g));
}

/* J(n, a) for a >= n: forward from j0, j1 */
static Ref jn_forward(MB *b, Ref n, Ref two_a, Ref j0, Ref j1)
{
	int prev = mb_var(b, KD, "jn"), cur = mb_var(b, KD, "jn"), k = mb_var(b, KW, "jn");
	mb_set(b, prev, j0);
	mb_set(b, cur, j1);
	mb_set(b, k, mb_i(b, KW, 1));
	MLoop lp;
	mb_while(b, &lp);
	mb_do(b, &lp, mb_icmp(b, CC_LT, KW, mb_get(b, k), n));
	Ref kk = mb_get(b, k), c = mb_get(b, cur);
	Ref t = step(b, kk, two_a, c, mb_get(b, prev));
	mb_set(b, prev, c);
	mb_set(b, cur, t);
	mb_set(b, k, mb_iop(b, O_ADD, KW, kk, mb_i(b, KW, 1)));
	mb_endwhile(b, &lp);
	return mb_get(b, cur);
}

/* J(n, a) for 2^-20 <= a < n: Miller's backward recurrence */
static Ref jn_backward(MB *b, Ref n, Ref nf, Ref two_a, Ref j0, Ref j1)
{
	Ref mf = mb_add(b, mb_add(b, nf, mb_f(b, 16)), mb_floor(b, mb_sqrt(b, mb_mul(b, nf, mb_f(b, 40)))));
	int hi = mb_var(b, KD, "jn"), cur = mb_var(b, KD, "jn"), at_n = mb_var(b, KD, "jn");
	int k = mb_var(b, KW, "jn");
	mb_set(b, hi, mb_f(b, 0));
	mb_set(b, cur, mb_f(b, 1));
	mb_set(b, at_n, mb_f(b, 0));
	mb_set(b, k, mb_toint(b, mf));
	MLoop lp;
	mb_while(b, &lp);
	mb_do(b, &lp, mb_icmp(b, CC_GT, KW, mb_get(b, k), mb_i(b, KW, 0)));
	Ref kk = mb_get(b, k), c = mb_get(b, cur);
	Ref t = step(b, kk, two_a, c, mb_get(b, hi));
	Ref k1 = mb_iop(b, O_SUB, KW, kk, mb_i(b, KW, 1));
	Ref saved = mb_sel(b, mb_icmp(b, CC_EQ, KW, k1, n), t, mb_get(b, at_n));
	Ref scale = mb_sel(b, mb_gt(b, mb_abs(b, t), mb_f(b, 0x1p600)), mb_f(b, 0x1p-600), mb_f(b, 1));
	mb_set(b, hi, mb_mul(b, c, scale));
	mb_set(b, cur, mb_mul(b, t, scale));
	mb_set(b, at_n, mb_mul(b, saved, scale));
	mb_set(b, k, k1);
	mb_endwhile(b, &lp);
	Ref b0 = mb_get(b, cur), b1 = mb_get(b, hi), v = mb_get(b, at_n);
	Ref by0 = mb_ge(b, mb_abs(b, j0), mb_abs(b, j1));
	return mb_mul(b, v, mb_div(b, mb_sel(b, by0, j0, j1), mb_sel(b, by0, b0, b1)));
}

/* J(n, a) for a < 2^-20: (a/2)^n / n! (1 - (a/2)^2 / (n + 1)) */
static Ref jn_series(MB *b, Ref n, Ref nf, Ref a)
{
	Ref h = mb_mul(b, a, mb_f(b, 0.5));
	int p = mb_var(b, KD, "jn"), k = mb_var(b, KW, "jn");
	mb_set(b, p, mb_f(b, 1));
	mb_set(b, k, mb_i(b, KW, 1));
	MLoop lp;
	mb_while(b, &lp);
	Ref more = mb_icmp(b, CC_LE, KW, mb_get(b, k), n);
	mb_do(b, &lp, mb_and(b, more, mb_gt(b, mb_get(b, p), mb_f(b, 0))));
	Ref kk = mb_get(b, k);
	mb_set(b, p, mb_mul(b, mb_get(b, p), mb_div(b, h, mb_fromint(b, kk))));
	mb_set(b, k, mb_iop(b, O_ADD, KW, kk, mb_i(b, KW, 1)));
	mb_endwhile(b, &lp);
	Ref corr = mb_sub(b, mb_f(b, 1), mb_div(b, mb_mul(b, h, h), mb_add(b, nf, mb_f(b, 1))));
	return mb_mul(b, mb_get(b, p), corr);
}

static Ref jn64(MB *b, Ref n, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref j0 = j0_64(b, a), j1 = j1_64(b, a);
	Ref nf = mb_fromint(b, n);
	Ref two_a = mb_div(b, mb_f(b, 2), a);
	int res = mb_var(b, KD, "jn");
	MIf s, t, u;
	mb_if(b, &s, mb_or(b, mb_ge(b, a, nf), mb_lt(b, nf, mb_f(b, 2))));
	mb_set(b, res, mb_sel(b, mb_eq(b, nf, mb_f(b, 0)), j0, jn_forward(b, n, two_a, j0, j1)));
	mb_else(b, &s);
	mb_if(b, &u, mb_and(b, mb_ge(b, nf, mb_f(b, 1100)), mb_le(b, a, mb_mul(b, nf, mb_f(b, 0.36)))));
	mb_set(b, res, mb_f(b, 0));
	mb_else(b, &u);
	mb_if(b, &t, mb_lt(b, a, mb_f(b, 0x1p-20)));
	mb_set(b, res, jn_series(b, n, nf, a));
	mb_else(b, &t);
	mb_set(b, res, jn_backward(b, n, nf, two_a, j0, j1));
	mb_endif(b, &t);
	mb_endif(b, &u);
	mb_endif(b, &s);
	Ref r = mb_get(b, res);
	Ref odd = mb_icmp(b, CC_NE, KW, mb_iop(b, O_AND, KW, n, mb_i(b, KW, 1)), mb_i(b, KW, 0));
	r = mb_xorsign(b, r, mb_and(b, odd, mb_signbit(b, x)));
	r = mb_sel(b, mb_isinf(b, x), mb_f(b, 0), r);
	r = mb_sel(b, mb_icmp(b, CC_LT, KW, n, mb_i(b, KW, 0)), mb_f(b, NAN), r);
	return mb_sel(b, mb_isnan(b, x), x, r);
}

static Ref yn64(MB *b, Ref n, Ref x)
{
	Ref y0 = y0_64(b, x), y1 = y1_64(b, x);
	Ref two_x = mb_div(b, mb_f(b, 2), x);
	int prev = mb_var(b, KD, "yn"), cur = mb_var(b, KD, "yn"), k = mb_var(b, KW, "yn");
	mb_set(b, prev, y0);
	mb_set(b, cur, y1);
	mb_set(b, k, mb_i(b, KW, 1));
	MLoop lp;
	mb_while(b, &lp);
	Ref more = mb_icmp(b, CC_LT, KW, mb_get(b, k), n);
	mb_do(b, &lp, mb_and(b, more, mb_isfinite(b, mb_get(b, cur))));
	Ref kk = mb_get(b, k), c = mb_get(b, cur);
	Ref t = step(b, kk, two_x, c, mb_get(b, prev));
	mb_set(b, prev, c);
	mb_set(b, cur, t);
	mb_set(b, k, mb_iop(b, O_ADD, KW, kk, mb_i(b, KW, 1)));
	mb_endwhile(b, &lp);
	Ref r = mb_sel(b, mb_icmp(b, CC_EQ, KW, n, mb_i(b, KW, 0)), y0, mb_get(b, cur));
	r = mb_sel(b, mb_isinf(b, x), mb_f(b, 0), r);
	r = mb_sel(b, mb_icmp(b, CC_LT, KW, n, mb_i(b, KW, 0)), mb_f(b, NAN), r);
	r = mb_sel(b, mb_lt(b, x, mb_f(b, 0)), mb_f(b, NAN), r);
	return mb_sel(b, mb_isnan(b, x), x, r);
}

static Ref order_n(MB *b, Ref (*fn)(MB *, Ref, Ref), Ref n, Ref x)
{
	if (mb_is64(b))
		return fn(b, n, x);
	MB d = mb_new(b->L, SK_F64);
	d.fast = b->fast;
	Ref r = fn(&d, n, lower_cvt(b->L, x, SK_F32, SK_F64));
	return lower_cvt(b->L, r, SK_F64, SK_F32);
}

Ref math_jn(MB *b, Ref n, Ref x) { return order_n(b, jn64, n, x); }
Ref math_yn(MB *b, Ref n, Ref x) { return order_n(b, yn64, n, x); }

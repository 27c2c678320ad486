/*
 * exp_log.c - exponentials and logarithms: exp, exp2, expm1, log, log2,
 * log10, log1p, logaddexp, logaddexp2, and the extended-precision exp
 * and log that pow, sinh, cosh and the gamma functions build on.
 *
 * exp(x): k = rint(x / ln2), r = x - k ln2 with ln2 in two parts (the
 * first product is exact under fma: x - k*LN2 needs at most 52 bits),
 * r kept as a pair rh + rl, e^r = 1 + rh + (rh^2 Q(rh) + rl (1 + rh)) with
 * the sum 1 + rh exact, and the result p 2^k made by adding k to p's
 * exponent field.  Arguments whose result may be subnormal, huge, zero or
 * infinite (|x| >= 707, or NaN) take a branch instead: x is clamped to
 * where the result is 0 or infinity anyway and p is scaled in two
 * exact-then-rounding steps, 2^(k/2) then 2^(k - k/2), so that overflow and
 * gradual underflow round once.
 *
 * log(x): subnormals are scaled by 2^54 (2^25); x = 2^e m with m in
 * [sqrt(1/2), sqrt(2)) taken from the bits, f = m - 1 exact.  float64:
 * s = f / (2 + f) and log1p(f) = f - hfsq + s (hfsq + R(s^2)) with
 * hfsq = f^2 / 2 (fdlibm's identity, hfsq taken exactly with an fma) gives
 * log1p(f) as a pair hi + lo; float32 (the inverse hyperbolic functions,
 * logaddexp2): log1p(f) = f + f^2 P(f).  The
 * result e C + (hi + lo) D (C = ln2, D = 1 for log; C = 1, D = log2(e)
 * for log2; C = log10(2), D = log10(e) for log10) is summed with exact
 * products and an exact two-sum, so only the last addition rounds.
 * log1p(x) reduces u = 1 + x and adds the correction (1 + x - u) / u; when
 * u is within [sqrt(1/2), sqrt(2)) it uses f = x itself.
 *
 * expm1(x) = 2^k (1 + expm1(r)) - 1 with r = rh + rl a pair, expm1(r) =
 * u + v, and the sum (2^k - 1) + 2^k u + 2^k v taken with an exact
 * two-sum: below 1 ulp, as CUDA's.
 *
 * math.exp and math.log themselves take shorter fast paths (math_exp,
 * log64 below; float32 log, log2, log10 and log1p: log32_reduce and
 * log1p32, CUDA's arrangement with the polynomials of logpowtab.h): the reduced argument rounded once, k from a magic
 * addition, special values from the high word; within CUDA's bounds with
 * about as many operations as CUDA's own.
 *
 * For gamma's Stirling exponent, math_log_ext gives log(x) to about
 * 2^-100 relative (s as a pair, the s^3 term in double-double; float64
 * pow has its own table-driven pair, log_pair in pow.c), and math_exp_dd takes a pair
 * (math_exp_dd_mul also multiplies a factor in before the scaling, for
 * gamma and erfc).  math_exp_pair returns e^x unrounded, as a pair (sinh,
 * cosh, tanh); math_one_minus_exp gives 1 - e^x as (1 - 2^k) - 2^k (...)
 * with the first difference exact (erf).
 */
#include <math.h>

#include "coeffs.h"
#include "logpowtab.h"
#include "mathlib.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const double LN2_D = 0x1.62e42fefa39efp-1, LN2_LO_D = 0x1.abc9e3b39803fp-56;
static const double L2E_D = 0x1.71547652b82fep0, L2E_LO_D = 0x1.777d0ffda0d24p-56;
static const double L10E_D = 0x1.bcb7b1526e50ep-2, L10E_LO_D = 0x1.95355baaafad3p-57;
static const double L10_2_D = 0x1.34413509f79ffp-2, L10_2_LO_D = -0x1.9dc1da994fd21p-59;

/* A constant hi + lo in b's precision: float32 splits the float64 pair. */
static void kpair(MB *b, double hi, double lo, Ref *h, Ref *l)
{
	if (mb_is64(b)) {
		*h = mb_f(b, hi);
		*l = mb_f(b, lo);
		return;
	}
	float fh = (float)hi;
	*h = mb_f(b, fh);
	*l = mb_f(b, (float)((hi - (double)fh) + lo));
}

/* ----------------------------------------------------------------- exp */

/* p * 2^k, k an int32 in [-1100, 1100] (float32: [-160, 160]); one rounding */
static Ref scale2(MB *b, Ref p, Ref k)
{
	Ref k1 = mb_iop(b, O_SHR, KW, k, mb_i(b, KW, 1));
	Ref k2 = mb_iop(b, O_SUB, KW, k, k1);
	Ref p1 = mb_mul(b, p, mb_pow2(b, k1));
	return mb_mul(b, p1, mb_pow2(b, k2));
}

/* x clamped to [lo, hi]; a NaN stays */
static Ref clamp(MB *b, Ref x, double lo, double hi)
{
	x = mb_sel(b, mb_gt(b, x, mb_f(b, hi)), mb_f(b, hi), x);
	return mb_sel(b, mb_lt(b, x, mb_f(b, lo)), mb_f(b, lo), x);
}

/* e^x = p 2^k with p in [0.70, 1.42]; r's pair: x - k ln2 = rh + rl (rl only when want_lo) */
static Ref exp_reduce(MB *b, Ref x, Ref xlo, Ref *kf, Ref *rh, Ref *rl)
{
	Ref ln2, ln2lo, l2e, l2elo;
	kpair(b, LN2_D, LN2_LO_D, &ln2, &ln2lo);
	kpair(b, L2E_D, L2E_LO_D, &l2e, &l2elo);
	*kf = mb_rint(b, mb_mul(b, x, l2e));
	Ref r1 = mb_fma(b, *kf, mb_neg(b, ln2), x);
	Ref t = mb_mul(b, *kf, mb_neg(b, ln2lo));
	if (xlo.kind != R_NONE)
		t = mb_add(b, t, xlo);
	if (rl) {
		/* when |r1| < |t| the sum is tiny and rl does not matter */
		DD r = mb_fast_two_sum(b, r1, t);
		*rh = r.hi;
		*rl = r.lo;
		return r1;
	}
	*rh = mb_add(b, r1, t);
	return r1;
}

/* expm1(rh + rl) = rh + the result, for |rh| <= ln2/2: rh^2 Q(rh) + rl (1 + rh) */
static Ref expm1_tail(MB *b, Ref rh, Ref rl)
{
	Ref q = mb_is64(b) ? mb_horner(b, rh, EXP_Q_D, N(EXP_Q_D)) : mb_horner(b, rh, EXP_Q_F, N(EXP_Q_F));
	Ref t = mb_fma(b, rl, rh, rl);
	return mb_fma(b, mb_mul(b, rh, rh), q, t);
}

/* 1 + rh + tail with the first sum exact */
static Ref one_plus(MB *b, Ref rh, Ref tail)
{
	DD p = mb_fast_two_sum(b, mb_f(b, 1), rh);
	return mb_add(b, p.hi, mb_add(b, p.lo, tail));
}

/* exp(x) * 2^scale for |x| >= 707 (float32 86), infinities and NaN: x
 * clamped to where the result is 0 or infinity anyway, the scaling in two
 * steps that round once */
static Ref exp_big(MB *b, Ref x, int scale)
{
	int d = mb_is64(b);
	Ref kf, rh, rl;
	Ref xc = d ? clamp(b, x, -746.0, 712.0) : clamp(b, x, -104.0f, 91.0f);
	exp_reduce(b, xc, REF_NONE, &kf, &rh, &rl);
	Ref p = one_plus(b, rh, expm1_tail(b, rh, rl));
	Ref k = mb_toint(b, kf);
	if (scale)
		k = mb_iop(b, O_ADD, KW, k, mb_i(b, KW, scale));
	return scale2(b, p, k);
}

/* exp(x) * 2^scale, scale 0 or -1.  The usual case adds k to the
 * exponent field of p; a branch that only huge, tiny, infinite and NaN
 * arguments take clamps x and scales in two steps. */
Ref math_exp_scaled(MB *b, Ref x, int scale)
{
	int d = mb_is64(b);
	Ref kf, rh, rl;
	exp_reduce(b, x, REF_NONE, &kf, &rh, &rl);
	Ref p = one_plus(b, rh, expm1_tail(b, rh, rl));
	Ref k = mb_toint(b, kf);
	if (scale)
		k = mb_iop(b, O_ADD, KW, k, mb_i(b, KW, scale));
	Ref kb = d ? mb_cvt(b, k, SK_I32, SK_I64) : k;
	kb = mb_iop(b, O_SHL, b->ik, kb, mb_i(b, b->ik, d ? 52 : 23));
	int v = mb_var(b, b->k, "exp");
	mb_set(b, v, mb_float(b, mb_iop(b, O_ADD, b->ik, mb_bits(b, p), kb)));
	MIf s;
	mb_if(b, &s, mb_not(b, mb_lt(b, mb_abs(b, x), mb_f(b, d ? 707.0 : 86.0))));
	mb_set(b, v, exp_big(b, x, scale));
	mb_endif(b, &s);
	return mb_get(b, v);
}

/* 1 - e^(xh + xl) for xh in [-40, 0] (float32: [-18, 0]), no special
 * values: (1 - 2^k) - 2^k (rh + v), where 1 - 2^k is exact (erf) */
Ref math_one_minus_exp(MB *b, DD x)
{
	Ref kf, rh, rl;
	exp_reduce(b, x.hi, x.lo, &kf, &rh, &rl);
	Ref v = expm1_tail(b, rh, rl);
	Ref a = mb_pow2(b, mb_toint(b, kf));
	Ref na = mb_neg(b, a);
	Ref s = mb_fma(b, na, v, mb_mul(b, na, rh));
	return mb_add(b, mb_sub(b, mb_f(b, 1), a), s);
}

/* e^x as an unevaluated pair, for moderate x (no overflow or underflow:
 * |x| below about 700, float32 80) */
DD math_exp_pair(MB *b, Ref x)
{
	Ref kf, rh, rl;
	exp_reduce(b, x, REF_NONE, &kf, &rh, &rl);
	Ref tail = expm1_tail(b, rh, rl);
	DD p = mb_fast_two_sum(b, mb_f(b, 1), rh);
	p = mb_fast_two_sum(b, p.hi, mb_add(b, p.lo, tail));
	Ref s = mb_pow2(b, mb_toint(b, kf));
	Ref hi = mb_mul(b, p.hi, s);
	Ref lo = mb_mul(b, p.lo, s);
	return mb_dd(hi, lo);
}

/*
 * float32 exp(x) as CUDA's expf computes it, with no branch and no
 * compare: t = x log2(e)/252 + 1/2 saturated to [0, 1] (NaN gives 0);
 * j = t 252 + 2^23 + 2^22 + 1 rounded down, whose low bits hold k + 127
 * for k = floor(x log2(e)) clamped to [-126, 126]; f = x log2(e) - k in
 * two fmas (log2(e) as a pair), in [0, 1) where k is not clamped; 2^f
 * from the GPU's ex2.approx (below 2 ulp); the result 2^f 2^k with 2^k
 * from j's bits shifted into the exponent field, one rounding, so that
 * overflow, gradual underflow, infinities and NaN come out of the
 * product.  The simulator computes 2^f correctly rounded: the two agree
 * to ex2.approx's error, not bit for bit (docs/math.md).
 */
static Ref exp_f32(MB *b, Ref x, Ref l2e, Ref l2elo)
{
	/* 0x1.77313ap-8 is log2(e)/252 as CUDA rounds it */
	Ref t = mb_fma_mode(b, x, mb_f(b, 0x1.77313ap-8), mb_f(b, 0.5), FMA_SAT);
	Ref j = mb_fma_mode(b, t, mb_f(b, 252), mb_f(b, 0x1.8p23 + 1), FMA_RM);
	Ref kf = mb_sub(b, j, mb_f(b, 0x1.8p23 + 127));
	Ref f = mb_fma(b, x, l2elo, mb_fma(b, x, l2e, mb_neg(b, kf)));
	Ref scale = mb_float(b, mb_iop(b, O_SHL, KW, mb_bits(b, j), mb_i(b, KW, 23)));
	return mb_mul(b, mb_approx(b, AP_EX2, f), scale);
}

/*
 * exp(x) for math.exp: the usual case in as many operations as CUDA's.
 * k = rint(x / ln2) by the magic addition (its integer bits come with
 * it), r = x - k ln2 with ln2 in two parts (the first product exact),
 * r rounded once, e^r = 1 + r (1 + r Q(r)) in fmas (Horner's rule to the
 * end), and k added to the exponent field.  Error: r's rounding
 * (ulp(r)/2 <= ulp(1)/4 relative), the rounding of 1 + r Q times |r| <=
 * ln2/2 (below ulp(1)/5) and the last one (1/2): under 1 ulp, CUDA's bound.
 * |x| >= 707, NaN and infinities take math_exp_scaled's branch.  float32
 * takes exp_f32.
 */
Ref math_exp(MB *b, Ref x)
{
	int d = mb_is64(b);
	Ref ln2, ln2lo, l2e, l2elo, kf, kraw;
	kpair(b, LN2_D, LN2_LO_D, &ln2, &ln2lo);
	kpair(b, L2E_D, L2E_LO_D, &l2e, &l2elo);
	if (!d)
		return exp_f32(b, x, l2e, l2elo);
	mb_round_magic(b, x, l2e, &kf, &kraw);
	Ref r = mb_fma(b, kf, mb_neg(b, ln2), x);
	r = mb_fma(b, kf, mb_neg(b, ln2lo), r);
	Ref q = mb_horner(b, r, EXP_Q10_D, N(EXP_Q10_D));
	Ref p = mb_fma(b, mb_fma(b, q, r, mb_f(b, 1)), r, mb_f(b, 1));
	Ref ph = mb_hiword(b, p);
	Ref kx = mb_iop(b, O_SHL, KW, kraw, mb_i(b, KW, 20));    /* k in the exponent field */
	Ref hi = mb_iop(b, O_ADD, KW, ph, kx);
	Ref y = mb_from_words(b, hi, mb_loword(b, p));
	/* |x| >= 707 or NaN, from the high word: no float64 compare; read as
	 * a float32 (its sign bit cleared by abs) the high word orders as the
	 * integer does, 0x40861800 is 0x1.0c3p+2, and x's infinities and NaN
	 * are float32 NaNs there, which the unordered compare takes */
	MB fb = mb_new(b->L, SK_F32);
	Ref hf = mb_abs(&fb, mb_float(&fb, mb_hiword(b, x)));
	Ref big = mb_cmp(&fb, CC_GEU, hf, mb_f(&fb, 0x1.0c3p+2));
	int v = mb_var(b, b->k, "exp");
	mb_set(b, v, y);
	MIf s;
	mb_if(b, &s, big);
	mb_set(b, v, exp_big(b, x, 0));
	mb_endif(b, &s);
	return mb_get(b, v);
}

/* e^(xh + xl) f for a float64 pair, f (may be REF_NONE) multiplied in
 * before the scaling, so that a subnormal result rounds once more only */
Ref math_exp_dd_mul(MB *b, DD x, Ref f)
{
	/* below -746 only for the factor f's sake: 2^(k/2) stays normal down to -1400 */
	Ref xh = clamp(b, x.hi, -1400.0, 710.0);
	Ref xl = mb_sel(b, mb_eq(b, xh, x.hi), x.lo, mb_f(b, 0));
	Ref kf, rh, rl;
	exp_reduce(b, xh, xl, &kf, &rh, &rl);
	Ref p = one_plus(b, rh, expm1_tail(b, rh, rl));
	if (f.kind != R_NONE)
		p = mb_mul(b, p, f);
	return scale2(b, p, mb_toint(b, kf));
}

Ref math_exp_dd(MB *b, DD x)
{
	return math_exp_dd_mul(b, x, REF_NONE);
}

Ref math_exp2(MB *b, Ref x)
{
	int d = mb_is64(b);
	x = d ? clamp(b, x, -1080.0, 1025.0) : clamp(b, x, -152.0, 129.0);
	Ref kf = mb_rint(b, x);
	Ref r = mb_sub(b, x, kf);
	Ref q = d ? mb_horner(b, r, EXP2_P_D, N(EXP2_P_D)) : mb_horner(b, r, EXP2_P_F, N(EXP2_P_F));
	Ref p = mb_fma(b, r, q, mb_f(b, 1));
	return scale2(b, p, mb_toint(b, kf));
}

/* math.exp2, numpy.exp2 and libdevice.exp2f of a float32: CUDA's exp2f,
 * which is the GPU's ex2.approx.f32 (2 ulp, subnormals kept), so that the
 * GPU gives Numba's bits; the simulator rounds 2^x correctly (docs/math.md).
 * float64: math_exp2. */
Ref math_exp2_cuda(MB *b, Ref x)
{
	if (mb_is64(b))
		return math_exp2(b, x);
	return mb_approx(b, AP_EX2S, x);
}

Ref math_expm1(MB *b, Ref x)
{
	int d = mb_is64(b);
	Ref xc = d ? clamp(b, x, -40.0, 710.0) : clamp(b, x, -18.0, 89.0);
	Ref kf, rh, rl;
	exp_reduce(b, xc, REF_NONE, &kf, &rh, &rl);
	Ref v = expm1_tail(b, rh, rl);         /* expm1(rh + rl) = rh + v */
	Ref k = mb_toint(b, kf);
	int kmax = d ? 1000 : 120;
	Ref kc = mb_iop(b, O_MIN, KW, k, mb_i(b, KW, kmax));
	Ref a = mb_pow2(b, kc);
	DD dm = mb_two_sum(b, a, mb_f(b, -1));
	DD s = mb_two_sum(b, dm.hi, mb_mul(b, a, rh));
	Ref tail = mb_add(b, s.lo, mb_fma(b, a, v, dm.lo));
	Ref y = mb_add(b, s.hi, tail);
	/* near overflow: 2^k (1 + rh + v), the -1 is lost */
	Ref big = scale2(b, one_plus(b, rh, v), k);
	y = mb_sel(b, mb_icmp(b, CC_GT, KW, k, mb_i(b, KW, kmax)), big, y);
	y = mb_sel(b, mb_lt(b, x, xc), mb_f(b, -1), y);
	return mb_sel(b, mb_eq(b, x, mb_f(b, 0)), x, y);
}

/* ----------------------------------------------------------------- log */

/* x = 2^e m, m in [sqrt(1/2), sqrt(2)), for finite x > 0; e is int32 */
static Ref log_reduce(MB *b, Ref x, Ref *e)
{
	int d = mb_is64(b);
	Ref sub = mb_lt(b, x, mb_f(b, d ? 0x1p-1022 : 0x1p-126));
	Ref xs = mb_sel(b, sub, mb_mul(b, x, mb_f(b, d ? 0x1p54 : 0x1p25)), x);
	Ref adj = mb_isel(b, KW, sub, mb_i(b, KW, d ? -54 : -25), mb_i(b, KW, 0));
	Ref ix = mb_bits(b, xs);
	Ref t = mb_iop(b, O_SUB, b->ik, ix, mb_i(b, b->ik, d ? 0x3fe6a09e667f3bcdll : 0x3f3504f3));
	Ref ei = mb_iop(b, O_SHR, b->ik, t, mb_i(b, b->ik, d ? 52 : 23));
	Ref mbits = mb_iop(b, O_SUB, b->ik, ix, mb_iop(b, O_SHL, b->ik, ei, mb_i(b, b->ik, d ? 52 : 23)));
	if (d)
		ei = mb_cvt(b, ei, SK_I64, SK_I32);
	*e = mb_iop(b, O_ADD, KW, ei, adj);
	return mb_float(b, mbits);
}

/* log1p(f) = hi + lo for f in [sqrt(1/2) - 1, sqrt(2) - 1] */
static DD log_kernel(MB *b, Ref f)
{
	if (!mb_is64(b)) {
		Ref p = mb_horner(b, f, LOG_P_F, N(LOG_P_F));
		return mb_dd(f, mb_mul(b, mb_mul(b, f, f), p));
	}
	Ref s = mb_div(b, f, mb_add(b, mb_f(b, 2), f));
	Ref z = mb_mul(b, s, s);
	Ref R = mb_mul(b, z, mb_horner(b, z, LOG_P_D, N(LOG_P_D)));
	DD sq = mb_two_prod(b, f, f);
	Ref hfsq = mb_mul(b, mb_f(b, 0.5), sq.hi), hlo = mb_mul(b, mb_f(b, 0.5), sq.lo);
	Ref hi = mb_sub(b, f, hfsq);
	Ref err = mb_sub(b, mb_sub(b, f, hi), hfsq);
	Ref hr = mb_add(b, hfsq, R);
	Ref lo = mb_add(b, err, mb_fma(b, s, hr, mb_neg(b, hlo)));
	return mb_dd(hi, lo);
}

/* e C + (hi + lo) D, C = ch + cl, D = dh + dl, one rounding at the end */
static Ref log_combine(MB *b, Ref e, DD l, double ch, double cl, double dh, double dl, DD *pair)
{
	Ref ef = mb_fromint(b, e);
	Ref Ch, Cl, Dh, Dl;
	kpair(b, ch, cl, &Ch, &Cl);
	kpair(b, dh, dl, &Dh, &Dl);
	DD q = ch == 1.0 ? mb_dd(ef, mb_f(b, 0)) : mb_two_prod(b, ef, Ch);
	DD p = dh == 1.0 ? mb_dd(l.hi, mb_f(b, 0)) : mb_two_prod(b, l.hi, Dh);
	DD s = mb_two_sum(b, q.hi, p.hi);
	Ref t = dh == 1.0 ? l.lo : mb_fma(b, l.lo, Dh, mb_fma(b, l.hi, Dl, p.lo));
	if (ch != 1.0)
		t = mb_add(b, t, mb_fma(b, ef, Cl, q.lo));
	Ref tail = mb_add(b, s.lo, t);
	if (pair)
		*pair = mb_fast_two_sum(b, s.hi, tail);
	return mb_add(b, s.hi, tail);
}

/* the result for x <= 0, inf and NaN, selected unless 0 < x < inf */
static Ref log_special(MB *b, Ref x, Ref y)
{
	Ref sp = mb_sel(b, mb_lt(b, x, mb_f(b, 0)), mb_f(b, NAN), x);
	sp = mb_sel(b, mb_eq(b, x, mb_f(b, 0)), mb_f(b, -HUGE_VAL), sp);
	Ref pos = mb_gt(b, x, mb_f(b, 0));
	Ref fin = mb_lt(b, x, mb_f(b, HUGE_VAL));
	Ref ok = mb_and(b, pos, fin);
	return mb_sel(b, ok, y, sp);
}

static Ref log_base(MB *b, Ref x, double ch, double cl, double dh, double dl)
{
	Ref e;
	Ref m = log_reduce(b, x, &e);
	DD l = log_kernel(b, mb_sub(b, m, mb_f(b, 1)));
	return log_special(b, x, log_combine(b, e, l, ch, cl, dh, dl, NULL));
}

/*
 * log(x), float64, for math.log, with a table and no division.  The high
 * word of x (subnormals scaled by 2^54 first) minus LOG_OFF_HI gives k
 * (its top bits) and the interval i of z = x 2^-k in [0.6855, 1.3711)
 * (the next 7); the table (logtab.h, in global memory: a warp reads it at
 * many indices) holds invc ~ 1/c for the middle c of the interval and
 * log(c) = -log(invc) as chi + clo, chi a multiple of 2^-43.  Then
 * log(x) = k ln2 + log(c) + log1p(r) with r = z invc - 1 (|r| < 2^-8, one
 * fma) and log1p(r) = r + r^2 P(r), P Taylor's to r^7 (truncation below
 * 2^-66).  w = k ln2_hi + chi is exact (ln2_hi has 42 bits), h = w + r
 * with its error kept (w is 0 or larger than r), and every small term is
 * added to that before the last rounding: about 0.5 ulp.  The interval
 * holding 1 has invc = 1 and chi = clo = 0, so near 1 the result is r
 * plus a small correction.  Zero, negative, infinite and NaN arguments are
 * told by the high word and selected in at the end.
 */
#include "logtab.h"

LogRow math_log_row(MB *b, Ref x, int subnormals)
{
	LogRow o;
	Ref adj = mb_i(b, KW, 0);
	o.xs = x;
	if (subnormals) {
		Ref sub = mb_icmp(b, CC_LT, KW, mb_hiword(b, x), mb_i(b, KW, 0x00100000));
		o.xs = mb_sel(b, sub, mb_mul(b, x, mb_f(b, 0x1p54)), x);
		adj = mb_isel(b, KW, sub, mb_i(b, KW, -54), adj);
	}
	o.hs = mb_hiword(b, o.xs);
	Ref t = mb_iop(b, O_SUB, KW, o.hs, mb_i(b, KW, LOG_OFF_HI));
	Ref idx = mb_iop(b, O_AND, KW, mb_uop(b, O_SHR, KW, t, mb_i(b, KW, 13)), mb_i(b, KW, 127));
	Ref k = mb_iop(b, O_ADD, KW, mb_iop(b, O_SHR, KW, t, mb_i(b, KW, 20)), adj);
	Ref zhi = mb_iop(b, O_SUB, KW, o.hs, mb_iop(b, O_AND, KW, t, mb_i(b, KW, (int32_t)0xfff00000)));
	o.z = mb_from_words(b, zhi, mb_loword(b, o.xs));
	Ref tab = mb_gtable(b, "__pj_logtab", LOG_TAB, (int)sizeof LOG_TAB);
	Ref row = mb_uop(b, O_ADD, KL, tab, mb_cvt(b, mb_iop(b, O_MUL, KW, idx, mb_i(b, KW, 24)), SK_I32, SK_U64));
	o.invc = mb_gload(b, row, SK_F64);
	o.chi = mb_gload(b, mb_uop(b, O_ADD, KL, row, mb_i(b, KL, 8)), SK_F64);
	o.clo = mb_gload(b, mb_uop(b, O_ADD, KL, row, mb_i(b, KL, 16)), SK_F64);
	o.kd = mb_fromint(b, k);
	return o;
}

static Ref log64(MB *b, Ref x)
{
	static const double LN2_HI42 = 0x1.62e42fefa38p-1, LN2_LO42 = 0x1.ef35793c7673p-45;
	static const double P[] = {-1.0 / 2, 1.0 / 3, -1.0 / 4, 1.0 / 5, -1.0 / 6, 1.0 / 7};
	LogRow q = math_log_row(b, x, 1);
	Ref xs = q.xs, hs = q.hs, kd = q.kd;
	Ref r = mb_fma(b, q.z, q.invc, mb_f(b, -1));
	Ref w = mb_fma(b, kd, mb_f(b, LN2_HI42), q.chi);
	Ref h = mb_add(b, w, r);
	Ref herr = mb_add(b, mb_sub(b, w, h), r);     /* h's error: w + r - h */
	Ref lo = mb_add(b, herr, mb_fma(b, kd, mb_f(b, LN2_LO42), q.clo));
	Ref r2 = mb_mul(b, r, r);
	Ref y = mb_add(b, h, mb_fma(b, r2, mb_horner(b, r, P, N(P)), lo));
	/* x <= 0, inf, NaN: xs's high word outside [2^-1022, 2^1024) */
	Ref bad = mb_ucmp(b, CC_GE, KW, mb_iop(b, O_SUB, KW, hs, mb_i(b, KW, 0x00100000)), mb_i(b, KW, 0x7fe00000));
	Ref ahs = mb_iop(b, O_AND, KW, hs, mb_i(b, KW, 0x7fffffff));
	Ref zero = mb_icmp(b, CC_EQ, KW, mb_iop(b, O_OR, KW, ahs, mb_loword(b, xs)), mb_i(b, KW, 0));
	Ref sp = mb_sel(b, mb_icmp(b, CC_LT, KW, hs, mb_i(b, KW, 0)), mb_f(b, NAN), x);
	sp = mb_sel(b, zero, mb_f(b, -HUGE_VAL), sp);
	return mb_sel(b, bad, sp, y);
}

/*
 * float32 log, log2, log10 and log1p in CUDA's arrangement, no division
 * and no pair.  x = 2^e m from the bits: subnormals are scaled by 2^23
 * first, eb = (bits - OFF) & 0xff800000 is e << 23 and m = bits - eb, in
 * [2/3, 4/3) for OFF = 0x3f2aaaab (log, log10) and in [sqrt(1/2),
 * sqrt(2)) for 0x3f3504f3 (log2, whose result e + log2(m) then rounds
 * less); e = float(eb) 2^-23, exact (one conversion, of eb itself).
 * f = m - 1 is exact and log_b(1 + f) = C f + f R(f) (R = f Q for the
 * natural log, C = 1; for log2 and log10 C is log_b(e) rounded to
 * float32 and R's constant term holds its rounding error), a Horner
 * evaluation to the end; the result is e log_b(2) + that in one fma (an
 * add for log2).  Two roundings: below 1 ulp (log, log2, log1p) and 2
 * (log10), CUDA's bounds.  Zero, negative, infinite and NaN arguments:
 * x * inf + inf gives NaN, inf and NaN for the ones whose bits are at or
 * above 0x7f800000 as an unsigned number, zeros give -inf.
 */
static Ref log32_reduce(MB *b, Ref x, int32_t off, Ref *f)
{
	Ref sub = mb_lt(b, x, mb_f(b, 0x1p-126));
	Ref xs = mb_sel(b, sub, mb_mul(b, x, mb_f(b, 0x1p23)), x);
	Ref ix = mb_bits(b, xs);
	Ref eb = mb_iop(b, O_AND, KW, mb_iop(b, O_SUB, KW, ix, mb_i(b, KW, off)), mb_i(b, KW, (int32_t)0xff800000u));
	*f = mb_sub(b, mb_float(b, mb_iop(b, O_SUB, KW, ix, eb)), mb_f(b, 1));
	Ref ef = mb_fromint(b, eb);
	return mb_fma(b, ef, mb_f(b, 0x1p-23), mb_sel(b, sub, mb_f(b, -23), mb_f(b, 0)));
}

static Ref log32_special(MB *b, Ref x, Ref y)
{
	Ref inf = mb_f(b, HUGE_VAL);
	Ref bad = mb_ucmp(b, CC_GE, KW, mb_bits(b, x), mb_i(b, KW, 0x7f800000));
	y = mb_sel(b, bad, mb_fma(b, x, inf, inf), y);
	return mb_sel(b, mb_eq(b, x, mb_f(b, 0)), mb_f(b, -HUGE_VAL), y);
}

/* C f + f R(f) */
static Ref log32_poly(MB *b, Ref f, double c, const double *r, int n)
{
	Ref t = mb_mul(b, f, mb_horner(b, f, r, n));
	return c == 1.0 ? mb_fma(b, f, t, f) : mb_fma(b, f, mb_f(b, c), t);
}

Ref math_log(MB *b, Ref x)
{
	if (mb_is64(b))
		return log64(b, x);
	Ref f;
	Ref e = log32_reduce(b, x, 0x3f2aaaab, &f);
	Ref p = log32_poly(b, f, 1.0, LOG_Q_F, N(LOG_Q_F));
	return log32_special(b, x, mb_fma(b, e, mb_f(b, LN2_D), p));
}

Ref math_log2(MB *b, Ref x)
{
	if (mb_is64(b))
		return log_base(b, x, 1.0, 0.0, L2E_D, L2E_LO_D);
	Ref f;
	Ref e = log32_reduce(b, x, 0x3f3504f3, &f);
	Ref p = log32_poly(b, f, L2E_D, LOG2_R_F, N(LOG2_R_F));
	return log32_special(b, x, mb_add(b, e, p));
}

Ref math_log10(MB *b, Ref x)
{
	if (mb_is64(b))
		return log_base(b, x, L10_2_D, L10_2_LO_D, L10E_D, L10E_LO_D);
	Ref f;
	Ref e = log32_reduce(b, x, 0x3f2aaaab, &f);
	Ref p = log32_poly(b, f, L10E_D, LOG10_R_F, N(LOG10_R_F));
	/* log10(2) as a pair: its float32 rounding alone would be 2 ulp of a
	 * result near log10(4/3) */
	Ref ch, cl;
	kpair(b, L10_2_D, L10_2_LO_D, &ch, &cl);
	return log32_special(b, x, mb_fma(b, e, ch, mb_fma(b, e, cl, p)));
}

/*
 * float32 log1p(x), CUDA's way: e from u = 1 + x (offset 0x3f400000: m
 * in [3/4, 3/2)), and f = (1 + x) 2^-e - 1 = x 2^-e - (1 - 2^-e) from x
 * itself, both terms made from the bits (x 2^-e by subtracting e from
 * the exponent field: x is normal whenever e != 0) and their difference
 * exact (Sterbenz), so u's rounding costs nothing; a u rounded up across
 * a binade puts f a hair below -1/4, which the fit covers.  The result
 * e ln2 + f + f^2 Q(f) with e ln2 formed as float(-eb) (-ln2 2^-23): a
 * -0 when e = 0, so that the sign of a zero x comes through.  x <= -1,
 * inf and NaN are selected: x * inf gives -inf, inf and NaN, and NaN
 * below -1.
 */
static Ref log1p32(MB *b, Ref x)
{
	Ref inf = mb_f(b, HUGE_VAL);
	Ref u = mb_add(b, mb_f(b, 1), x);
	Ref eb = mb_iop(b, O_AND, KW, mb_iop(b, O_SUB, KW, mb_bits(b, u), mb_i(b, KW, 0x3f400000)),
	                mb_i(b, KW, (int32_t)0xff800000u));
	Ref xs = mb_float(b, mb_iop(b, O_SUB, KW, mb_bits(b, x), eb));
	Ref v = mb_float(b, mb_iop(b, O_SUB, KW, mb_i(b, KW, 0x40800000), eb));      /* 4 2^-e */
	Ref f = mb_sub(b, xs, mb_fma(b, v, mb_f(b, -0.25), mb_f(b, 1)));
	Ref p = log32_poly(b, f, 1.0, LOG1P_Q_F, N(LOG1P_Q_F));
	Ref ne = mb_fromint(b, mb_iop(b, O_SUB, KW, mb_i(b, KW, 0), eb));
	Ref y = mb_fma(b, ne, mb_f(b, -0x1.62e43p-24), p);
	Ref below = mb_lt(b, x, mb_f(b, -1));
	Ref sp = mb_sel(b, below, mb_f(b, NAN), mb_mul(b, x, inf));
	Ref above = mb_gt(b, x, mb_f(b, -1));
	Ref ok = mb_and(b, above, mb_lt(b, x, inf));
	return mb_sel(b, ok, y, sp);
}

/* log(1 + x) + c / (1 + x) pieces shared by log1p and the inverse
 * hyperbolic functions: log(u) + corr where u = 1 + x rounded */
static Ref log1p_core(MB *b, Ref x, double ch, double cl, double dh, double dl)
{
	Ref u = mb_add(b, mb_f(b, 1), x);
	Ref e;
	Ref m = log_reduce(b, u, &e);
	Ref e0 = mb_icmp(b, CC_EQ, KW, e, mb_i(b, KW, 0));
	Ref f = mb_sel(b, e0, x, mb_sub(b, m, mb_f(b, 1)));
	/* 1 + x - u exactly */
	Ref big = mb_gt(b, u, mb_f(b, 2));
	Ref cbig = mb_sub(b, mb_f(b, 1), mb_sub(b, u, x));
	Ref csmall = mb_sub(b, x, mb_sub(b, u, mb_f(b, 1)));
	Ref c = mb_sel(b, big, cbig, csmall);
	c = mb_sel(b, e0, mb_f(b, 0), mb_div(b, c, u));
	DD l = log_kernel(b, f);
	l.lo = mb_add(b, l.lo, c);
	Ref y = log_combine(b, e, l, ch, cl, dh, dl, NULL);
	y = log_special(b, u, y);
	return mb_sel(b, mb_eq(b, x, mb_f(b, 0)), x, y);
}

Ref math_log1p(MB *b, Ref x)
{
	if (!mb_is64(b))
		return log1p32(b, x);
	return log1p_core(b, x, LN2_D, LN2_LO_D, 1.0, 0.0);
}

/* log(x) as a pair, for finite x > 0 (the other inputs give garbage) */
DD math_log_dd(MB *b, Ref x)
{
	Ref e;
	Ref m = log_reduce(b, x, &e);
	DD l = log_kernel(b, mb_sub(b, m, mb_f(b, 1)));
	DD r;
	log_combine(b, e, l, LN2_D, LN2_LO_D, 1.0, 0.0, &r);
	return r;
}

/*
 * log(x) to about 2^-100 relative for finite x > 0, float64 (gamma):
 * s = f/(2+f) as a pair sh + sl, log1p(f) = 2s + (2/3)s^3 + s^5 P(s^2)
 * with the first two terms in double-double.
 */
DD math_log_ext(MB *b, Ref x)
{
	static const double TWO3 = 0x1.5555555555555p-1, TWO3_LO = 0x1.5555555555555p-55;
	Ref e;
	Ref m = log_reduce(b, x, &e);
	Ref f = mb_sub(b, m, mb_f(b, 1));
	Ref dh = mb_add(b, mb_f(b, 2), f);
	Ref dlo = mb_sub(b, f, mb_sub(b, dh, mb_f(b, 2)));
	Ref y = mb_div(b, mb_f(b, 1), dh);
	Ref sh = mb_mul(b, f, y);
	Ref rem = mb_fma(b, mb_neg(b, sh), dh, f);
	rem = mb_fma(b, mb_neg(b, sh), dlo, rem);
	Ref sl = mb_mul(b, rem, y);
	/* s^3 = sh^3 + 3 sh^2 sl */
	DD z = mb_two_prod(b, sh, sh);
	DD c = mb_two_prod(b, z.hi, sh);
	Ref clo = mb_add(b, c.lo, mb_fma(b, z.lo, sh, mb_mul(b, mb_mul(b, mb_f(b, 3), z.hi), sl)));
	DD t3 = mb_two_prod(b, c.hi, mb_f(b, TWO3));
	Ref t3lo = mb_add(b, t3.lo, mb_fma(b, c.hi, mb_f(b, TWO3_LO), mb_mul(b, clo, mb_f(b, TWO3))));
	/* s^5 P(z) */
	Ref s5 = mb_mul(b, c.hi, z.hi);
	Ref p5 = mb_mul(b, s5, mb_horner(b, z.hi, LOG_P5_D, N(LOG_P5_D)));
	Ref two_sh = mb_add(b, sh, sh);
	DD a = mb_two_sum(b, two_sh, t3.hi);
	Ref two_sl = mb_add(b, sl, sl);
	Ref lo = mb_add(b, a.lo, mb_add(b, two_sl, mb_add(b, t3lo, p5)));
	DD l1 = mb_fast_two_sum(b, a.hi, lo);
	/* + e ln2 */
	Ref ef = mb_fromint(b, e);
	DD q = mb_two_prod(b, ef, mb_f(b, LN2_D));
	q.lo = mb_fma(b, ef, mb_f(b, LN2_LO_D), q.lo);
	return mb_dd_add(b, q, l1);
}

/* ------------------------------------------------------------ logaddexp */

/* NumPy's npy_logaddexp: x + log1p(exp(y - x)) for the larger x; equal
 * arguments (infinities of one sign too) give x + ln2; NaN propagates */
Ref math_logaddexp(MB *b, Ref x, Ref y)
{
	Ref eq = mb_eq(b, x, y);
	Ref big = mb_max(b, x, y);
	Ref d = mb_neg(b, mb_abs(b, mb_sub(b, x, y)));
	Ref r = mb_add(b, big, math_log1p(b, math_exp(b, d)));
	r = mb_sel(b, eq, mb_add(b, x, mb_f(b, LN2_D)), r);
	Ref nan = mb_anynan(b, x, y);
	return mb_sel(b, nan, mb_add(b, x, y), r);
}

/* NumPy's npy_logaddexp2: x + log2(1 + 2^(y - x)) */
Ref math_logaddexp2(MB *b, Ref x, Ref y)
{
	Ref eq = mb_eq(b, x, y);
	Ref big = mb_max(b, x, y);
	Ref d = mb_neg(b, mb_abs(b, mb_sub(b, x, y)));
	Ref l = log1p_core(b, math_exp2(b, d), 1.0, 0.0, L2E_D, L2E_LO_D);
	Ref r = mb_add(b, big, l);
	r = mb_sel(b, eq, mb_add(b, x, mb_f(b, 1)), r);
	Ref nan = mb_anynan(b, x, y);
	return mb_sel(b, nan, mb_add(b, x, y), r);
}

/* the inverse hyperbolic functions' logarithms: log(t) or log1p(t), plus k ln2 */
Ref math_log_or_log1p(MB *b, Ref t, Ref use_log1p)
{
	/* log1p(t) when use_log1p, else log(t): u = use_log1p ? 1 + t : t */
	Ref one = mb_sel(b, use_log1p, mb_f(b, 1), mb_f(b, 0));
	Ref u = mb_add(b, one, t);
	Ref e;
	Ref m = log_reduce(b, u, &e);
	Ref e0 = mb_and(b, use_log1p, mb_icmp(b, CC_EQ, KW, e, mb_i(b, KW, 0)));
	Ref f = mb_sel(b, e0, t, mb_sub(b, m, mb_f(b, 1)));
	Ref big = mb_gt(b, u, mb_f(b, 2));
	Ref cbig = mb_sub(b, mb_f(b, 1), mb_sub(b, u, t));
	Ref csmall = mb_sub(b, t, mb_sub(b, u, mb_f(b, 1)));
	Ref c = mb_sel(b, big, cbig, csmall);
	Ref nocorr = mb_or(b, e0, mb_not(b, use_log1p));
	c = mb_sel(b, nocorr, mb_f(b, 0), mb_div(b, c, u));
	DD l = log_kernel(b, f);
	l.lo = mb_add(b, l.lo, c);
	return log_combine(b, e, l, LN2_D, LN2_LO_D, 1.0, 0.0, NULL);
}

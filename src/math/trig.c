/*
 * trig.c - circular and hyperbolic functions and their inverses: sin,
 * cos, tan, asin, acos, atan, atan2, sinpi (for the gamma functions),
 * sinh, cosh, tanh, asinh, acosh, atanh.
 *
 * Argument reduction, x = q pi/2 + r with |r| <= pi/4 and r a pair rh + rl:
 *   - Cody-Waite with pi/2 in three parts; the first product is exact
 *     under fma (x - q*P1 is a multiple of P1's last bit and below 1), the
 *     second is taken exactly with a two-product, so r is right to about
 *     2^-100 absolute.  Used for |x| < 2^27 (float32: |x| < 2^15 in
 *     float32 arithmetic).
 *   - Payne-Hanek beyond, on the integers: x's 53-bit mantissa, shifted
 *     so that the binary point of the product falls on a word boundary,
 *     times a 224-bit window of 2/pi's bits (TWO_OVER_PI_BITS in constant
 *     memory; the bits before the window only add multiples of 4), in
 *     32-bit limbs with 64-bit products; the quadrant is the product's
 *     two integer bits, the fraction its next 128 bits, normalised with
 *     clz and multiplied by pi/2 in double-double.  224 bits keep the
 *     fraction right to 2^-116 even for the x closest to a multiple of
 *     pi/2 (|r| about 2^-61).  It runs in a branch that only such large
 *     arguments take.  float32 arguments beyond 105615 take a float32
 *     Payne-Hanek on 32-bit words with the quadrant rounded in
 *     (reduce_ph_f32, CUDA's arrangement).
 * The pair reduction serves float64 tan; float64 sin and cos reduce
 * like CUDA (three fmas, r rounded, sincos_f64), float32 sin, cos and tan
 * take a shorter path below 105615 (reduce_f32: pi/2 in three float32
 * parts, r rounded, CUDA's arrangement).
 * sin(pi x) keeps the pair: sincos_kernel takes rh + rl, its coefficients
 * selected by the quadrant, rl entering through the derivative.
 * tan(r) = r + r^3 T(r^2) on the whole of [-pi/4, pi/4]; odd quadrants
 * take -1/tan (float64: the quotient corrected once; float32: a
 * division-free reciprocal, recip_f32).
 *
 * float64 atan uses fdlibm's five intervals (|x| < 7/16, 11/16, 19/16,
 * 39/16, beyond) with t = (2x-1)/(2+x), (x-1)/(x+1), (x-1.5)/(1+1.5x),
 * -1/x and atan(t) = t + t^3 T(t^2) on |t| <= 7/16, selected without
 * branches; float32 atan is one polynomial on [0, 1] after t = 1/|x|
 * (atan_f32).
 * asin(x) = x + x^3 A(x^2) for |x| <= 1/2, else pi/2 - 2 asin(s) with
 * s = sqrt((1-|x|)/2) and sqrt's rounding error put back; acos is built
 * from the same pieces.
 *
 * sinh and cosh: exp(|x|)/2 (math_exp_scaled, no spurious overflow) minus
 * or plus its quarter reciprocal; sinh of |x| < 1 is an odd polynomial.
 * float64 tanh: an odd polynomial below 0.55, else 1 - 2 / (exp(2|x|) + 1);
 * float32 tanh: the same split in CUDA's arrangement, e^2a from the
 * magic-addition rounding and exp2's polynomial, the reciprocal without a
 * division (tanh_f32, no memory loads).  The newer coefficients come from
 * tools/trig_coeffs.py.
 * asinh, acosh, atanh: fdlibm's formulas on log1p or log.
 */
#include <math.h>

#include "coeffs.h"
#include "mathlib.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

typedef struct Red {
	Ref q;          /* int32; only q mod 4 matters */
	Ref rh, rl;
} Red;

/* ----------------------------------------------------- Cody-Waite */

static Red reduce_cw(MB *b, Ref x)
{
	int d = mb_is64(b);
	Red r;
	Ref kf = mb_rint(b, mb_mul(b, x, mb_f(b, TWO_OVER_PI_HI)));
	Ref r1 = mb_fma(b, kf, mb_f(b, d ? -PIO2_1_D : -PIO2_1_F), x);
	DD t = mb_two_prod(b, kf, mb_f(b, d ? PIO2_2_D : PIO2_2_F));
	DD s = mb_two_sum(b, r1, mb_neg(b, t.hi));
	Ref lo = mb_sub(b, s.lo, mb_fma(b, kf, mb_f(b, d ? PIO2_3_D : PIO2_3_F), t.lo));
	DD rr = mb_fast_two_sum(b, s.hi, lo);
	r.q = mb_toint(b, kf);
	r.rh = rr.hi;
	r.rl = rr.lo;
	return r;
}

/* ---------------------------------------------------- Payne-Hanek */

static Ref u64c(MB *b, uint64_t v)
{
	return mb_i(b, KL, (int64_t)v);
}

static Ref shr64(MB *b, Ref x, Ref n)
{
	return mb_uop(b, O_SHR, KL, x, n);
}

static Ref shl64(MB *b, Ref x, Ref n)
{
	return mb_uop(b, O_SHL, KL, x, n);
}

static Ref and64(MB *b, Ref x, Ref y)
{
	return mb_uop(b, O_AND, KL, x, y);
}

/* float64 x with |x| >= 2^27, finite */
static Red reduce_ph(MB *b, Ref x)
{
	Red res;
	Ref M32 = u64c(b, 0xffffffffu);
	Ref ix = and64(b, mb_bits(b, x), u64c(b, 0x7fffffffffffffffull));
	Ref E = mb_cvt(b, shr64(b, ix, u64c(b, 52)), SK_U64, SK_I32);
	E = mb_iop(b, O_SUB, KW, E, mb_i(b, KW, 1075));
	Ref m = mb_uop(b, O_OR, KL, and64(b, ix, u64c(b, (1ull << 52) - 1)), u64c(b, 1ull << 52));
	Ref j0 = mb_iop(b, O_SUB, KW, mb_iop(b, O_SHR, KW, mb_iop(b, O_ADD, KW, E, mb_i(b, KW, 62)), mb_i(b, KW, 5)),
	                mb_i(b, KW, 1));
	Ref d = mb_iop(b, O_SUB, KW, E, mb_iop(b, O_SHL, KW, mb_iop(b, O_SUB, KW, j0, mb_i(b, KW, 1)), mb_i(b, KW, 5)));
	Ref d64 = mb_cvt(b, d, SK_I32, SK_U64);
	/* m' = m << d in three limbs */
	Ref lo64 = shl64(b, m, d64);
	Ref hi64 = shr64(b, m, mb_uop(b, O_SUB, KL, u64c(b, 64), d64));
	Ref ml0 = and64(b, lo64, M32);
	Ref ml1 = shr64(b, lo64, u64c(b, 32));
	Ref ml[3] = {ml0, ml1, hi64};
	/* the window W[j0 .. j0+6], least significant first */
	Ref tab = mb_table(b, "__pj_2overpi", TWO_OVER_PI_BITS, (int)sizeof TWO_OVER_PI_BITS);
	Ref base = mb_uop(b, O_ADD, KL, tab, mb_uop(b, O_MUL, KL, mb_cvt(b, j0, SK_I32, SK_I64), u64c(b, 4)));
	Ref w[7];
	for (int i = 0; i < 7; i++) {
		Ref a = mb_uop(b, O_ADD, KL, base, u64c(b, (uint64_t)(4 * (6 - i))));
		w[i] = mb_cvt(b, mb_load(b, a, SK_U32), SK_U32, SK_U64);
	}
	/* rows m_j * W, then their sum with carries */
	Ref row[3][8];
	for (int j = 0; j < 3; j++) {
		Ref carry = u64c(b, 0);
		for (int i = 0; i < 7; i++) {
			Ref t = mb_uop(b, O_ADD, KL, mb_uop(b, O_MUL, KL, w[i], ml[j]), carry);
			row[j][i] = and64(b, t, M32);
			carry = shr64(b, t, u64c(b, 32));
		}
		row[j][7] = carry;
	}
	Ref out[8];
	Ref carry = u64c(b, 0);
	for (int c = 0; c < 8; c++) {
		Ref acc = mb_uop(b, O_ADD, KL, row[0][c], carry);
		if (c >= 1)
			acc = mb_uop(b, O_ADD, KL, acc, row[1][c - 1]);
		if (c >= 2)
			acc = mb_uop(b, O_ADD, KL, acc, row[2][c - 2]);
		out[c] = and64(b, acc, M32);
		carry = shr64(b, acc, u64c(b, 32));
	}
	/* quadrant and 128 fraction bits */
	Ref q = mb_cvt(b, and64(b, out[7], u64c(b, 3)), SK_U64, SK_I32);
	Ref T = mb_uop(b, O_OR, KL, shl64(b, out[6], u64c(b, 32)), out[5]);
	Ref U = mb_uop(b, O_OR, KL, shl64(b, out[4], u64c(b, 32)), out[3]);
	Ref half = mb_ucmp(b, CC_GE, KL, T, u64c(b, 1ull << 63));
	q = mb_isel(b, KW, half, mb_iop(b, O_ADD, KW, q, mb_i(b, KW, 1)), q);
	Ref nU = mb_uop(b, O_SUB, KL, u64c(b, 0), U);
	Ref notT = mb_uop(b, O_NOT, KL, T, REF_NONE);
	Ref cy = mb_isel(b, KL, mb_ucmp(b, CC_EQ, KL, U, u64c(b, 0)), u64c(b, 1), u64c(b, 0));
	Ref nT = mb_uop(b, O_ADD, KL, notT, cy);
	T = mb_isel(b, KL, half, nT, T);
	U = mb_isel(b, KL, half, nU, U);
	/* n = the leading zeros of T (nonzero), from the exponent of an exact
	 * conversion: T >> 11 when that is nonzero, else T */
	Ref top = shr64(b, T, u64c(b, 11));
	Ref big = mb_ucmp(b, CC_NE, KL, top, u64c(b, 0));
	Ref fd = mb_cvt(b, mb_isel(b, KL, big, top, T), SK_U64, SK_F64);
	Ref ef = shr64(b, mb_bits(b, fd), u64c(b, 52));
	ef = mb_uop(b, O_ADD, KL, ef, mb_isel(b, KL, big, u64c(b, 11), u64c(b, 0)));
	Ref n = mb_uop(b, O_SUB, KL, u64c(b, 1023 + 63), ef);
	Ref Tn = shl64(b, T, n);
	Ref Un = shr64(b, U, mb_uop(b, O_SUB, KL, u64c(b, 64), n));
	Ref T2 = mb_uop(b, O_OR, KL, Tn, Un);
	Ref U2 = shl64(b, U, n);
	Ref n32 = mb_cvt(b, n, SK_U64, SK_I32);
	Ref A = mb_cvt(b, shr64(b, T2, u64c(b, 11)), SK_U64, SK_F64);
	Ref B = mb_cvt(b, and64(b, T2, u64c(b, 0x7ff)), SK_U64, SK_F64);
	Ref C = mb_cvt(b, U2, SK_U64, SK_F64);
	Ref fh = mb_mul(b, A, mb_pow2(b, mb_iop(b, O_SUB, KW, mb_i(b, KW, -53), n32)));
	Ref BC = mb_fma(b, C, mb_f(b, 0x1p-64), B);
	Ref sl = mb_pow2(b, mb_iop(b, O_SUB, KW, mb_i(b, KW, -64), n32));
	Ref fl = mb_mul(b, BC, sl);
	DD r = mb_dd_mul(b, mb_dd(fh, fl), mb_dd(mb_f(b, PIO2_HI), mb_f(b, PIO2_LO)));
	Ref neg = mb_or(b, half, mb_signbit(b, x));
	Ref both = mb_and(b, half, mb_signbit(b, x));
	neg = mb_and(b, neg, mb_not(b, both));
	res.rh = mb_xorsign(b, r.hi, neg);
	res.rl = mb_xorsign(b, r.lo, neg);
	Ref xneg = mb_signbit(b, x);
	Ref nq = mb_iop(b, O_SUB, KW, mb_i(b, KW, 0), q);
	res.q = mb_isel(b, KW, xneg, nq, q);
	return res;
}

/* float64 reduction: Cody-Waite, Payne-Hanek in a branch for |x| >= 2^27 */
static Red reduce_d(MB *b, Ref x)
{
	Red r = reduce_cw(b, x);
	int vq = mb_var(b, KW, "trig_q"), vh = mb_var(b, KD, "trig_rh"), vl = mb_var(b, KD, "trig_rl");
	mb_set(b, vq, r.q);
	mb_set(b, vh, r.rh);
	mb_set(b, vl, r.rl);
	Ref ax = mb_abs(b, x);
	MIf s;
	Ref big = mb_ge(b, ax, mb_f(b, 0x1p27));
	Ref finite = mb_lt(b, ax, mb_f(b, HUGE_VAL));
	mb_if(b, &s, mb_and(b, big, finite));
	Red p = reduce_ph(b, x);
	mb_set(b, vq, p.q);
	mb_set(b, vh, p.rh);
	mb_set(b, vl, p.rl);
	mb_endif(b, &s);
	r.q = mb_get(b, vq);
	r.rh = mb_get(b, vh);
	r.rl = mb_get(b, vl);
	return r;
}

/* -------------------------------------------------------- sin, cos */

/* cos(rh + rl) when use_cos, else sin(rh + rl) */
static Ref sincos_kernel(MB *b, Ref rh, Ref rl, Ref use_cos)
{
	int d = mb_is64(b);
	Ref z = mb_mul(b, rh, rh);
	Ref p = d ? mb_horner_sel(b, z, use_cos, COS_C_D, SIN_S_D, N(SIN_S_D))
	          : mb_horner_sel(b, z, use_cos, COS_C_F, SIN_S_F, N(SIN_S_F));
	Ref hz = mb_mul(b, mb_f(b, 0.5), z);
	Ref w = mb_sub(b, mb_f(b, 1), hz);
	Ref rhz = mb_mul(b, rh, z);
	Ref rlw = mb_mul(b, rl, w);
	Ref sin_tail = mb_fma(b, rhz, p, rlw);
	/* (1 - w) - hz, w's rounding error, plus z^2 p - rh rl */
	Ref werr = mb_sub(b, mb_sub(b, mb_f(b, 1), w), hz);
	Ref z2 = mb_mul(b, z, z);
	Ref nrr = mb_neg(b, mb_mul(b, rh, rl));
	Ref cos_tail = mb_add(b, werr, mb_fma(b, z2, p, nrr));
	Ref head = mb_sel(b, use_cos, w, rh);
	Ref tail = mb_sel(b, use_cos, cos_tail, sin_tail);
	return mb_add(b, head, tail);
}

static Ref bit(MB *b, Ref q, int m)
{
	return mb_icmp(b, CC_NE, KW, mb_iop(b, O_AND, KW, q, mb_i(b, KW, m)), mb_i(b, KW, 0));
}

/*
 * float32 sin and cos in CUDA's arrangement, the cost of a few float32
 * operations: j = rint(x 2/pi) by the magic addition (its bits give the
 * quadrant), r = x - j pi/2 with pi/2 in three truncated float32 parts
 * (the first product exact, all parts positive so that r keeps a zero's
 * sign), rounded twice; beyond FAST_MAX reduce_ph_f32 runs in a branch.
 * sin(r) = r + r z S(z) (three terms) and cos(r) = 1 + z P(z) (four)
 * share one Horner evaluation, coefficients selected by the quadrant.
 * The reduction's worst cancellation below FAST_MAX keeps r right to
 * about 2^-22 relative; the error stays below CUDA's 2 ulp
 * (bench/math_accuracy.py).
 */
#define FAST_MAX 105615.0

static Ref reduce_f32(MB *b, Ref x, Ref *qp);

static Ref sincos_f32(MB *b, Ref x, int want_cos)
{
	const double S4[4] = {SIN_S3_F[0], SIN_S3_F[1], SIN_S3_F[2], 0.0};
	Ref q, r = reduce_f32(b, x, &q);
	if (want_cos)
		q = mb_iop(b, O_ADD, KW, q, mb_i(b, KW, 1));
	Ref odd = bit(b, q, 1);
	Ref z = mb_mul(b, r, r);
	Ref poly = mb_horner_sel(b, z, odd, COS_P_F, S4, 4);
	Ref base = mb_sel(b, odd, mb_f(b, 1), r);
	/* base z + 0 is +0 for r = -0, so that the sum below keeps -0 (sin(-0)) */
	Ref y = mb_fma(b, mb_fma(b, base, z, mb_f(b, 0)), poly, base);
	Ref neg = bit(b, q, 2);
	Ref ny = mb_neg(b, y);
	return mb_sel(b, neg, ny, y);
}

/*
 * float32 Payne-Hanek for |x| >= FAST_MAX, on 32-bit words as CUDA's
 * sinf does: x = m 2^(e - 158) with m the 32-bit mantissa (leading one
 * on top) and e the biased exponent; m times the first 192 bits of 2/pi
 * (six words, immediates) is P, 224 bits in seven words p[0..6], and
 * x 2/pi = P 2^(e - 350).  So the 64 bits V = P >> (288 - e) hold the
 * quadrant's two bits on top and 62 bits of fraction below (288 - e is
 * 34 to 145: three words p[j..j+2], j = 1..4, picked by selects, shifted
 * by the rest); the words of 2/pi beyond 192 bits and P's bits below V
 * change V by less than its last bit.  V << 2 read as a signed number is the fraction rounded to the
 * nearest quadrant (its top bit carries into q), and r = that times
 * pi/2 2^-64 in float64, rounded to float32.  Infinities and NaN give
 * NaN (x 0).
 */
static Ref reduce_ph_f32(MB *b, Ref x, Ref *qp)
{
	Ref M32 = u64c(b, 0xffffffffu);
	Ref ix = mb_bits(b, x);
	Ref e = mb_iop(b, O_AND, KW, mb_uop(b, O_SHR, KW, ix, mb_i(b, KW, 23)), mb_i(b, KW, 0xff));
	Ref m = mb_cvt(b, mb_iop(b, O_OR, KW, mb_iop(b, O_SHL, KW, ix, mb_i(b, KW, 8)), mb_i(b, KW, (int32_t)0x80000000u)),
	               SK_U32, SK_U64);
	Ref p[7], carry = u64c(b, 0);
	for (int i = 0; i < 6; i++) {
		Ref t = mb_uop(b, O_ADD, KL, mb_uop(b, O_MUL, KL, m, u64c(b, TWO_OVER_PI_BITS[6 - i])), carry);
		p[i] = and64(b, t, M32);
		carry = shr64(b, t, u64c(b, 32));
	}
	p[6] = carry;
	Ref base = mb_iop(b, O_SUB, KW, mb_i(b, KW, 288), e);
	Ref j = mb_uop(b, O_SHR, KW, base, mb_i(b, KW, 5));
	Ref sh = mb_cvt(b, mb_iop(b, O_AND, KW, base, mb_i(b, KW, 31)), SK_U32, SK_U64);
	Ref w[3];
	for (int k = 0; k < 3; k++) {
		w[k] = p[4 + k];
		for (int jj = 3; jj >= 1; jj--)
			w[k] = mb_isel(b, KL, mb_icmp(b, CC_EQ, KW, j, mb_i(b, KW, jj)), p[jj + k], w[k]);
	}
	Ref hi = mb_uop(b, O_OR, KL, shl64(b, w[2], u64c(b, 32)), w[1]);
	Ref vh = shl64(b, hi, mb_uop(b, O_SUB, KL, u64c(b, 32), sh));
	Ref vl = shr64(b, w[0], sh);
	Ref v = mb_uop(b, O_OR, KL, vh, vl);
	Ref q = mb_cvt(b, shr64(b, v, u64c(b, 62)), SK_U64, SK_I32);
	q = mb_iop(b, O_ADD, KW, q, mb_cvt(b, and64(b, shr64(b, v, u64c(b, 61)), u64c(b, 1)), SK_U64, SK_I32));
	MB d = mb_new(b->L, SK_F64);
	Ref f = mb_cvt(&d, shl64(b, v, u64c(b, 2)), SK_I64, SK_F64);
	Ref r = mb_cvt(&d, mb_mul(&d, f, mb_f(&d, 0x1.921fb54442d18p-64)), SK_F64, SK_F32);
	Ref neg = mb_signbit(b, x);
	*qp = mb_isel(b, KW, neg, mb_iop(b, O_SUB, KW, mb_i(b, KW, 0), q), q);
	r = mb_xorsign(b, r, neg);
	Ref nonfinite = mb_cmp(b, CC_GEU, mb_abs(b, x), mb_f(b, HUGE_VAL));
	Ref x0 = mb_mul(b, x, mb_f(b, 0));
	return mb_sel(b, nonfinite, x0, r);
}

/* the float32 reduction of sincos_f32: r, and the quadrant in *qp */
static Ref reduce_f32(MB *b, Ref x, Ref *qp)
{
	Ref jf, jraw;
	mb_round_magic(b, x, mb_f(b, TWO_OVER_PI_HI), &jf, &jraw);
	Ref r = mb_fma(b, jf, mb_f(b, -PIO2T_1_F), x);
	r = mb_fma(b, jf, mb_f(b, -PIO2T_2_F), r);
	r = mb_fma(b, jf, mb_f(b, -PIO2T_3_F), r);
	int vq = mb_var(b, KW, "trig_q"), vr = mb_var(b, KS, "trig_r");
	mb_set(b, vq, jraw);
	mb_set(b, vr, r);
	MIf s;
	mb_if(b, &s, mb_ge(b, mb_abs(b, x), mb_f(b, FAST_MAX)));
	Ref q;
	mb_set(b, vr, reduce_ph_f32(b, x, &q));
	mb_set(b, vq, q);
	mb_endif(b, &s);
	*qp = mb_get(b, vq);
	return mb_get(b, vr);
}

/*
 * float64 sin and cos, CUDA's arrangement: j = rint(x 2/pi) by the magic
 * addition (the sum's low word is j, the quadrant), r = x - j pi/2 by
 * three fmas with pi/2 = PIO2_1_D + PIO2T_2_D + PIO2T_3_D, each rounded
 * (the first is exact: x - j P1 is a multiple of 2^-52 below 1; the
 * second part is truncated so that the third is positive and r keeps a
 * zero's sign), so r carries up to one ulp of error, within CUDA's 2 ulp.
 * One polynomial serves both: p(z), z = r^2, its seven coefficients read
 * from a row of SINCOS_T_D picked by the quadrant's parity (two rows in
 * global memory, a few vector loads; selecting fourteen constants would
 * cost more instructions than the loads), then sin = r + r p or
 * cos = 1 + z p; the sign comes from the quadrant's second bit.
 * |x| >= 2^31 takes Payne-Hanek in a branch, its pair rounded to r;
 * an infinite x gives NaN there (x 0 added to r), NaN gives NaN throughout.
 */
#define SINCOS_FAST_MAX 0x1p31

static Ref sincos_f64(MB *b, Ref x, int want_cos)
{
	Ref jf, jraw;
	mb_round_magic(b, x, mb_f(b, TWO_OVER_PI_HI), &jf, &jraw);
	Ref nj = mb_neg(b, jf);
	Ref r = mb_fma(b, nj, mb_f(b, PIO2_1_D), x);
	r = mb_fma(b, nj, mb_f(b, PIO2T_2_D), r);
	r = mb_fma(b, nj, mb_f(b, PIO2T_3_D), r);
	int vq = mb_var(b, KW, "trig_q"), vr = mb_var(b, KD, "trig_r");
	mb_set(b, vq, jraw);
	mb_set(b, vr, r);
	MIf s;
	mb_if(b, &s, mb_ge(b, mb_abs(b, x), mb_f(b, SINCOS_FAST_MAX)));
	Red p = reduce_ph(b, x);
	mb_set(b, vq, p.q);
	Ref inf = mb_isinf(b, x);
	Ref pr = mb_add(b, p.rh, p.rl);
	mb_set(b, vr, mb_sel(b, inf, mb_f(b, NAN), pr));
	mb_endif(b, &s);
	Ref q = mb_get(b, vq);
	r = mb_get(b, vr);
	if (want_cos)
		q = mb_iop(b, O_ADD, KW, q, mb_i(b, KW, 1));
	Ref z = mb_mul(b, r, r);
	Ref tab = mb_gtable(b, "__pj_sincos", SINCOS_T_D, (int)sizeof SINCOS_T_D);
	Ref off = mb_iop(b, O_AND, KW, mb_iop(b, O_SHL, KW, q, mb_i(b, KW, 6)), mb_i(b, KW, 64));
	Ref row = mb_uop(b, O_ADD, KL, tab, mb_cvt(b, off, SK_U32, SK_U64));
	Ref c = mb_gload(b, row, SK_F64);
	for (int i = 1; i < 7; i++)
		c = mb_fma(b, c, z, mb_gload(b, mb_uop(b, O_ADD, KL, row, mb_i(b, KL, 8 * i)), SK_F64));
	Ref odd = bit(b, q, 1);
	Ref cosr = mb_fma(b, z, c, mb_f(b, 1));
	Ref sinr = mb_fma(b, r, c, r);
	Ref y = mb_sel(b, odd, cosr, sinr);
	/* the sign: bit 1 of q moved to bit 63 */
	Ref sg = mb_iop(b, O_AND, KW, mb_iop(b, O_SHL, KW, q, mb_i(b, KW, 30)), mb_i(b, KW, (int32_t)0x80000000u));
	sg = mb_uop(b, O_SHL, KL, mb_cvt(b, sg, SK_U32, SK_U64), mb_i(b, KL, 32));
	return mb_float(b, mb_uop(b, O_XOR, KL, mb_bits(b, y), sg));
}

Ref math_sin(MB *b, Ref x)
{
	if (!mb_is64(b))
		return sincos_f32(b, x, 0);
	return sincos_f64(b, x, 0);
}

Ref math_cos(MB *b, Ref x)
{
	if (!mb_is64(b))
		return sincos_f32(b, x, 1);
	return sincos_f64(b, x, 1);
}

/* sin(pi x), exactly reduced: x = q/2 + r, |r| <= 1/4 */
Ref math_sinpi(MB *b, Ref x)
{
	Ref qf = mb_rint(b, mb_mul(b, x, mb_f(b, 2)));
	Ref r = mb_fma(b, qf, mb_f(b, -0.5), x);
	Ref q4 = mb_sub(b, qf, mb_mul(b, mb_f(b, 4), mb_floor(b, mb_mul(b, qf, mb_f(b, 0.25)))));
	Ref q = mb_toint(b, q4);
	Ref ph, pl;
	if (mb_is64(b)) {
		DD p = mb_two_prod(b, r, mb_f(b, PI_HI));
		ph = p.hi;
		pl = mb_fma(b, r, mb_f(b, PI_LO), p.lo);
	} else {
		float hi = (float)PI_HI;
		DD p = mb_two_prod(b, r, mb_f(b, hi));
		ph = p.hi;
		pl = mb_fma(b, r, mb_f(b, (float)(PI_HI - (double)hi)), p.lo);
	}
	Ref y = sincos_kernel(b, ph, pl, bit(b, q, 1));
	y = mb_xorsign(b, y, bit(b, q, 2));
	return mb_sel(b, mb_eq(b, x, mb_f(b, 0)), x, y);
}

static Ref recip_f32(MB *b, Ref a);
static Ref recip_f32_neg(MB *b, Ref a);

/*
 * float32 tan: sincos_f32's reduction, tan(r) = r + r z T(z) (TAN_S_F,
 * degree 5, relative error 2^-25.5, tools/trig_coeffs.py),
 * and in odd quadrants -1/tan(r) from recip_f32_neg: the seed of -1/t
 * from t's bits takes t's sign with it, so there is no |t| and no sign
 * to put back.  No division, within CUDA's 4 ulp.
 */
static Ref tan_f32(MB *b, Ref x)
{
	Ref q, r = reduce_f32(b, x, &q);
	Ref z = mb_mul(b, r, r);
	Ref rz = mb_mul(b, r, z);
	Ref p = mb_horner(b, z, TAN_S_F, N(TAN_S_F));
	Ref t = mb_fma(b, rz, p, r);
	Ref odd = bit(b, q, 1);
	Ref cot = recip_f32_neg(b, t);
	return mb_sel(b, odd, cot, t);
}

Ref math_tan(MB *b, Ref x)
{
	int d = mb_is64(b);
	if (!d)
		return tan_f32(b, x);
	Red r = reduce_d(b, x);
	Ref z = mb_mul(b, r.rh, r.rh);
	Ref p = d ? mb_horner(b, z, TAN_T_D, N(TAN_T_D)) : mb_horner(b, z, TAN_T_F, N(TAN_T_F));
	/* tan(rh + rl) = tan(rh) + rl (1 + tan^2) */
	Ref rhz = mb_mul(b, r.rh, z);
	Ref rlt = mb_fma(b, r.rl, z, r.rl);
	Ref s = mb_fma(b, rhz, p, rlt);
	DD t = mb_fast_two_sum(b, r.rh, s);
	/* odd quadrants: -1/t, the quotient corrected once */
	Ref y = mb_div(b, mb_f(b, -1), t.hi);
	Ref e = mb_fma(b, y, t.lo, mb_fma(b, y, t.hi, mb_f(b, 1)));
	Ref cot = mb_fma(b, y, e, y);
	Ref odd = bit(b, r.q, 1);
	Ref tanr = mb_add(b, t.hi, t.lo);
	Ref res = mb_sel(b, odd, cot, tanr);
	return mb_sel(b, mb_eq(b, x, mb_f(b, 0)), x, res);
}

/* ------------------------------------------------------ asin, acos */

/* asin(s) = s + q for |s| <= 1/2: returns q = s^3 A(s^2) */
static Ref asin_tail(MB *b, Ref s, Ref z)
{
	Ref p = mb_is64(b) ? mb_horner(b, z, ASIN_A_D, N(ASIN_A_D)) : mb_horner(b, z, ASIN_A_F, N(ASIN_A_F));
	return mb_mul(b, mb_mul(b, s, z), p);
}

/* for |x| > 1/2: s = sqrt((1-|x|)/2) and its rounding error c, q as above */
static void asin_big(MB *b, Ref a, Ref *s, Ref *c, Ref *q)
{
	Ref z = mb_mul(b, mb_sub(b, mb_f(b, 1), a), mb_f(b, 0.5));
	*s = mb_sqrt(b, z);
	Ref err = mb_fma(b, mb_neg(b, *s), *s, z);
	Ref s2 = mb_add(b, *s, *s);
	*c = mb_div(b, err, s2);
	*c = mb_sel(b, mb_gt(b, *s, mb_f(b, 0)), *c, mb_f(b, 0));
	*q = asin_tail(b, *s, z);
	/* asin(s + c) = asin(s) + c (1 + z/2) */
	*c = mb_fma(b, *c, mb_mul(b, z, mb_f(b, 0.5)), *c);
}

static void pair_const(MB *b, double hi, double lo, Ref *h, Ref *l)
{
	if (mb_is64(b)) {
		*h = mb_f(b, hi);
		*l = mb_f(b, lo);
	} else {
		float fh = (float)hi;
		*h = mb_f(b, fh);
		*l = mb_f(b, (float)((hi - (double)fh) + lo));
	}
}

Ref math_asin(MB *b, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref small = mb_le(b, a, mb_f(b, 0.5));
	Ref q0 = asin_tail(b, a, mb_mul(b, a, a));
	Ref y0 = mb_add(b, a, q0);
	Ref s, c, q;
	asin_big(b, a, &s, &c, &q);
	Ref ph, pl;
	pair_const(b, PIO2_HI, PIO2_LO, &ph, &pl);
	DD t = mb_two_sum(b, ph, mb_mul(b, mb_f(b, -2), s));
	Ref y1 = mb_add(b, t.hi, mb_add(b, t.lo, mb_fma(b, mb_f(b, -2), mb_add(b, q, c), pl)));
	Ref y = mb_sel(b, small, y0, y1);
	return mb_copysign(b, y, x);
}

Ref math_acos(MB *b, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref small = mb_le(b, a, mb_f(b, 0.5));
	Ref ph, pl, Ph, Pl;
	pair_const(b, PIO2_HI, PIO2_LO, &ph, &pl);
	pair_const(b, PI_HI, PI_LO, &Ph, &Pl);
	/* |x| <= 1/2: pi/2 - (x + q) */
	Ref q0 = asin_tail(b, x, mb_mul(b, x, x));
	DD t0 = mb_two_sum(b, ph, mb_neg(b, x));
	Ref y0 = mb_add(b, t0.hi, mb_add(b, t0.lo, mb_sub(b, pl, q0)));
	Ref s, c, q;
	asin_big(b, a, &s, &c, &q);
	Ref qc = mb_add(b, q, c);
	/* x > 1/2: 2 (s + q + c) */
	Ref y1 = mb_fma(b, mb_f(b, 2), s, mb_mul(b, mb_f(b, 2), qc));
	/* x < -1/2: pi - 2 (s + q + c) */
	DD t2 = mb_two_sum(b, Ph, mb_mul(b, mb_f(b, -2), s));
	Ref y2 = mb_add(b, t2.hi, mb_add(b, t2.lo, mb_fma(b, mb_f(b, -2), qc, Pl)));
	Ref y = mb_sel(b, mb_signbit(b, x), y2, y1);
	return mb_sel(b, small, y0, y);
}

/* --------------------------------------------------------- atan */

static const double ATAN_HI[4] = {
	0x1.dac670561bb4fp-2, 0x1.921fb54442d18p-1, 0x1.f730bd281f69bp-1, 0x1.921fb54442d18p+0,
};
static const double ATAN_LO[4] = {
	0x1.a2b7f222f65e2p-56, 0x1.1a62633145c07p-55, 0x1.007887af0cbbdp-56, 0x1.1a62633145c07p-54,
};

/*
 * 1/a for float32 a >= 1 (below 2^100) without a division: the seed
 * 0x7ef311c3 - bits(a) is within 5.1%, one cubic step y (1 + e + e^2),
 * e = 1 - a y, takes that to 2^-12.9 and one Newton step to 2^-25.8.
 * Five fmas and an integer subtraction, no branch (IEEE division costs a
 * reciprocal, four fmas, a check and a branch to its slow path).
 */
static Ref recip_k(MB *b, Ref a, int neg)
{
	Ref y = mb_float(b, mb_iop(b, O_SUB, KW, mb_i(b, KW, (int32_t)(neg ? 0xfef311c3u : 0x7ef311c3u)), mb_bits(b, a)));
	Ref one = mb_f(b, 1), na = neg ? a : mb_neg(b, a);
	Ref e = mb_fma(b, na, y, one);
	y = mb_fma(b, y, mb_fma(b, e, e, e), y);
	e = mb_fma(b, na, y, one);
	return mb_fma(b, y, e, y);
}

static Ref recip_f32(MB *b, Ref a)
{
	return recip_k(b, a, 0);
}

/*
 * -1/a for float32 a of either sign (|a| and 1/|a| normal): the seed
 * 0xfef311c3 - bits(a) is recip_f32's seed of -a, since adding 2^31 to
 * the bits flips the sign modulo 2^32; then the same steps with -a.
 */
static Ref recip_f32_neg(MB *b, Ref a)
{
	return recip_k(b, a, 1);
}

/*
 * float32 atan, CUDA's arrangement without its approximate reciprocal:
 * t = |x| or, beyond 1, 1/|x| (recip_f32; |x| is clamped to 2^100 first,
 * where atan is pi/2 in float32 anyway); atan(t) = t + t z P(z), z = t^2,
 * P of degree 7 (ATAN_P_F); beyond 1 the result is pi/2 - atan(t) as one
 * fma A B - r, A B a product of two float32 constants equal to pi/2 within
 * 2^-47.  x's sign is or'ed in; NaN is selected back at the end.
 */
static const float ATAN_PIO2_A = 0x1.aee9d6p-1f, ATAN_PIO2_B = 0x1.ddcb02p+0f;

static Ref atan_f32(MB *b, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref big = mb_gt(b, a, mb_f(b, 1));
	Ref t = mb_sel(b, big, recip_f32(b, mb_min(b, a, mb_f(b, 0x1p100))), a);
	Ref z = mb_mul(b, t, t);
	Ref p = mb_horner(b, z, ATAN_P_F, N(ATAN_P_F));
	Ref r = mb_fma(b, mb_mul(b, t, z), p, t);
	Ref A = mb_sel(b, big, mb_f(b, ATAN_PIO2_A), mb_f(b, 0));
	Ref sr = mb_sel(b, big, mb_neg(b, r), r);
	r = mb_fma(b, A, mb_f(b, ATAN_PIO2_B), sr);
	Ref sg = mb_iop(b, O_AND, KW, mb_bits(b, x), mb_i(b, KW, (int32_t)0x80000000u));
	Ref y = mb_float(b, mb_iop(b, O_OR, KW, mb_bits(b, r), sg));
	return mb_sel(b, mb_isnan(b, x), x, y);
}

Ref math_atan(MB *b, Ref x)
{
	if (!mb_is64(b))
		return atan_f32(b, x);
	Ref a = mb_abs(b, x);
	Ref one = mb_f(b, 1), two = mb_f(b, 2), zero = mb_f(b, 0);
	Ref c1 = mb_ge(b, a, mb_f(b, 7.0 / 16)), c2 = mb_ge(b, a, mb_f(b, 11.0 / 16));
	Ref c3 = mb_ge(b, a, mb_f(b, 19.0 / 16)), c4 = mb_ge(b, a, mb_f(b, 39.0 / 16));
	c4 = mb_or(b, c4, mb_isnan(b, a));
	/* numerator and denominator of t per interval */
	Ref n3 = mb_sub(b, a, mb_f(b, 1.5));
	Ref n2 = mb_sub(b, a, one);
	Ref n1 = mb_fma(b, two, a, mb_f(b, -1));
	Ref num = mb_sel(b, c4, mb_f(b, -1), mb_sel(b, c3, n3, mb_sel(b, c2, n2, mb_sel(b, c1, n1, a))));
	Ref d3 = mb_fma(b, mb_f(b, 1.5), a, one);
	Ref d2 = mb_add(b, a, one);
	Ref d1 = mb_add(b, two, a);
	Ref den = mb_sel(b, c4, a, mb_sel(b, c3, d3, mb_sel(b, c2, d2, mb_sel(b, c1, d1, one))));
	Ref t = mb_div(b, num, den);
	Ref hi = zero, lo = zero;
	for (int i = 0; i < 4; i++) {
		Ref c = i == 0 ? c1 : i == 1 ? c2 : i == 2 ? c3 : c4;
		Ref h, l;
		pair_const(b, ATAN_HI[i], ATAN_LO[i], &h, &l);
		hi = mb_sel(b, c, h, hi);
		lo = mb_sel(b, c, l, lo);
	}
	Ref z = mb_mul(b, t, t);
	Ref p = mb_is64(b) ? mb_horner(b, z, ATAN_T_D, N(ATAN_T_D)) : mb_horner(b, z, ATAN_T_F, N(ATAN_T_F));
	Ref q = mb_mul(b, mb_mul(b, t, z), p);
	Ref y = mb_add(b, hi, mb_add(b, t, mb_add(b, q, lo)));
	return mb_copysign(b, y, x);
}

Ref math_atan2(MB *b, Ref y, Ref x)
{
	Ref ax = mb_abs(b, x), ay = mb_abs(b, y);
	Ref swap = mb_gt(b, ay, ax);
	Ref lo = mb_min(b, ax, ay);
	Ref hi = mb_max(b, ax, ay);
	Ref t = mb_div(b, lo, hi);
	Ref a0 = math_atan(b, t);
	Ref ph, pl, Ph, Pl;
	pair_const(b, PIO2_HI, PIO2_LO, &ph, &pl);
	pair_const(b, PI_HI, PI_LO, &Ph, &Pl);
	/* pi/2 - a0 and pi - that as pairs, rounded once at the end */
	DD s1 = mb_two_sum(b, ph, mb_neg(b, a0));
	Ref h1 = mb_sel(b, swap, s1.hi, a0), l1 = mb_sel(b, swap, mb_add(b, s1.lo, pl), mb_f(b, 0));
	DD s2 = mb_two_sum(b, Ph, mb_neg(b, h1));
	Ref neg = mb_signbit(b, x);
	Ref h2 = mb_sel(b, neg, s2.hi, h1), l2 = mb_sel(b, neg, mb_add(b, s2.lo, mb_sub(b, Pl, l1)), l1);
	Ref r = mb_add(b, h2, l2);
	/* both zero: 0 or pi; both infinite: pi/4 or 3pi/4 */
	Ref xz = mb_eq(b, ax, mb_f(b, 0));
	Ref yz = mb_eq(b, ay, mb_f(b, 0));
	Ref zz = mb_and(b, xz, yz);
	r = mb_sel(b, zz, mb_sel(b, mb_signbit(b, x), Ph, mb_f(b, 0)), r);
	Ref xinf = mb_isinf(b, x);
	Ref yinf = mb_isinf(b, y);
	Ref ii = mb_and(b, xinf, yinf);
	Ref q4 = mb_sel(b, mb_signbit(b, x), mb_f(b, 3 * 0.7853981633974483), mb_f(b, 0.7853981633974483));
	r = mb_sel(b, ii, q4, r);
	r = mb_copysign(b, r, y);
	Ref nan = mb_anynan(b, x, y);
	return mb_sel(b, nan, mb_add(b, x, y), r);
}

/* ------------------------------------------------------ hyperbolic */

Ref math_sinh(MB *b, Ref x)
{
	int d = mb_is64(b);
	Ref a = mb_abs(b, x);
	Ref z = mb_mul(b, a, a);
	Ref p = d ? mb_horner(b, z, SINH_S_D, N(SINH_S_D)) : mb_horner(b, z, SINH_S_F, N(SINH_S_F));
	Ref y0 = mb_fma(b, mb_mul(b, a, z), p, a);
	/* 1 <= a < 22 (float32: 10): (e^a - e^-a)/2 with e^a and its reciprocal as pairs */
	Ref am = mb_min(b, a, mb_f(b, d ? 22 : 10));
	DD e = math_exp_pair(b, am);
	Ref q = mb_div(b, mb_f(b, 1), e.hi);
	/* ql = q (1 - q e.hi - q e.lo), the quotient's correction */
	Ref nq = mb_neg(b, q);
	Ref resid = mb_fma(b, mb_neg(b, q), e.hi, mb_f(b, 1));
	Ref ql = mb_mul(b, q, mb_fma(b, nq, e.lo, resid));
	DD s = mb_two_sum(b, e.hi, mb_neg(b, q));
	Ref y1 = mb_mul(b, mb_f(b, 0.5), mb_add(b, s.hi, mb_add(b, s.lo, mb_sub(b, e.lo, ql))));
	/* beyond: e^a / 2, without a spurious overflow */
	Ref y2 = math_exp_scaled(b, a, -1);
	Ref small = mb_lt(b, a, mb_f(b, 1));
	Ref mid = mb_lt(b, a, mb_f(b, d ? 22 : 10));
	Ref y = mb_sel(b, small, y0, mb_sel(b, mid, y1, y2));
	return mb_copysign(b, y, x);
}

Ref math_cosh(MB *b, Ref x)
{
	int d = mb_is64(b);
	Ref a = mb_abs(b, x);
	/* a < 22 (float32: 10): (e^a + e^-a)/2 with pairs, as sinh */
	Ref am = mb_min(b, a, mb_f(b, d ? 22 : 10));
	DD e = math_exp_pair(b, am);
	Ref q = mb_div(b, mb_f(b, 1), e.hi);
	/* ql = q (1 - q e.hi - q e.lo), the quotient's correction */
	Ref nq = mb_neg(b, q);
	Ref resid = mb_fma(b, mb_neg(b, q), e.hi, mb_f(b, 1));
	Ref ql = mb_mul(b, q, mb_fma(b, nq, e.lo, resid));
	DD s = mb_two_sum(b, e.hi, q);
	Ref y1 = mb_mul(b, mb_f(b, 0.5), mb_add(b, s.hi, mb_add(b, s.lo, mb_add(b, e.lo, ql))));
	Ref y2 = math_exp_scaled(b, a, -1);
	return mb_sel(b, mb_lt(b, a, mb_f(b, d ? 22 : 10)), y1, y2);
}

/*
 * float32 tanh without a table or an approximate instruction, in CUDA's
 * arrangement: a = |x| (clamped to 9.1; tanh rounds to 1 from 9.02).
 * Below 0.55, tanh(a) = a + a^3 S(a^2) (TANH_S_F, degree 3, relative
 * error 2^-24.6, tools/trig_coeffs.py).  From 0.55,
 * tanh(a) = 1 - 2 / (e^2a + 1): 2a log2(e) = k + f by the magic
 * addition (log2(e) as a float pair, |f| <= 1/2), 2^f = 1 + f P(f)
 * (EXP2_P_F, relative error 2^-25.5), and the denominator 2^k (1 + f P)
 * + 1 as one fma q 2^k + (2^k + 1), exact but for that rounding (2^k + 1
 * is exact for k <= 23; beyond, 2/(e^2a + 1) is below 2^-32); its
 * reciprocal from recip_f32 (no division), and 1 - 2 r in one fma.  The
 * error of e^2a is damped by 2e/(e^2 - 1) <= 0.75 relative there.  Both
 * sides are computed, no branch, no memory load, no conversion; x's sign
 * is or'ed in (the result is >= 0) and NaN selected back at the end.
 */
static Ref tanh_f32(MB *b, Ref x)
{
	const float l2h = (float)(2 * 0x1.71547652b82fep0);
	Ref a = mb_min(b, mb_abs(b, x), mb_f(b, 9.1f));
	Ref z = mb_mul(b, a, a);
	Ref az = mb_mul(b, a, z);
	Ref p0 = mb_horner(b, z, TANH_S_F, N(TANH_S_F));
	Ref y0 = mb_fma(b, az, p0, a);
	Ref m = mb_f(b, 0x1.8p23f);
	Ref s = mb_fma(b, a, mb_f(b, l2h), m);
	Ref kf = mb_sub(b, s, m);
	Ref f = mb_fma(b, a, mb_f(b, l2h), mb_neg(b, kf));
	Ref q = mb_mul(b, f, mb_horner(b, f, EXP2_P_F, N(EXP2_P_F)));
	/* s's bits are 0x4b400000 + k: shifted by 23, plus 127 << 23, 2^k */
	Ref e = mb_iop(b, O_SHL, KW, mb_bits(b, s), mb_i(b, KW, 23));
	Ref sc = mb_float(b, mb_iop(b, O_ADD, KW, e, mb_i(b, KW, 127 << 23)));
	Ref d = mb_fma(b, q, sc, mb_add(b, sc, mb_f(b, 1)));
	Ref y1 = mb_fma(b, mb_f(b, -2), recip_f32(b, d), mb_f(b, 1));
	Ref p = mb_sel(b, mb_lt(b, a, mb_f(b, 0.55f)), y0, y1);
	/* p >= 0: x's sign or'ed in */
	Ref sg = mb_iop(b, O_AND, KW, mb_bits(b, x), mb_i(b, KW, (int32_t)0x80000000u));
	Ref y = mb_float(b, mb_iop(b, O_OR, KW, mb_bits(b, p), sg));
	return mb_sel(b, mb_isnan(b, x), x, y);
}

Ref math_tanh(MB *b, Ref x)
{
	int d = mb_is64(b);
	if (!d)
		return tanh_f32(b, x);
	Ref a = mb_abs(b, x);
	Ref z = mb_mul(b, a, a);
	Ref p = d ? mb_horner(b, z, TANH_T_D, N(TANH_T_D)) : mb_horner(b, z, TANH_T_F, N(TANH_T_F));
	Ref y0 = mb_fma(b, mb_mul(b, a, z), p, a);
	/* 1 - 2 / (e^2a + 1), with e^2a and the quotient as pairs */
	Ref ac = mb_min(b, a, mb_f(b, d ? 22 : 10));
	DD e = math_exp_pair(b, mb_add(b, ac, ac));
	DD den = mb_fast_two_sum(b, e.hi, mb_add(b, e.lo, mb_f(b, 1)));
	Ref q = mb_div(b, mb_f(b, 2), den.hi);
	Ref nq = mb_neg(b, q);
	Ref r = mb_fma(b, nq, den.lo, mb_fma(b, mb_neg(b, q), den.hi, mb_f(b, 2)));
	Ref ql = mb_mul(b, r, mb_mul(b, q, mb_f(b, 0.5)));
	Ref y1 = mb_sub(b, mb_sub(b, mb_f(b, 1), q), ql);
	Ref y = mb_sel(b, mb_lt(b, a, mb_f(b, 0.55)), y0, y1);
	y = mb_sel(b, mb_isnan(b, a), x, y);
	return mb_copysign(b, y, x);
}

Ref math_asinh(MB *b, Ref x)
{
	int d = mb_is64(b);
	Ref a = mb_abs(b, x);
	Ref one = mb_f(b, 1);
	Ref big = mb_gt(b, a, mb_f(b, d ? 0x1p28 : 0x1p12));
	Ref mid = mb_gt(b, a, mb_f(b, 2));
	Ref a2 = mb_mul(b, a, a);
	Ref r = mb_sqrt(b, mb_add(b, a2, one));
	Ref tmid = mb_fma(b, mb_f(b, 2), a, mb_div(b, one, mb_add(b, r, a)));
	Ref tsmall = mb_add(b, a, mb_div(b, a2, mb_add(b, one, r)));
	Ref t = mb_sel(b, big, a, mb_sel(b, mid, tmid, tsmall));
	Ref y = math_log_or_log1p(b, t, mb_not(b, mid));
	y = mb_sel(b, big, mb_add(b, y, mb_f(b, 0.6931471805599453)), y);
	Ref inf = mb_isinf(b, a);
	Ref zero = mb_eq(b, a, mb_f(b, 0));
	y = mb_sel(b, mb_or(b, inf, zero), a, y);
	y = mb_copysign(b, y, x);
	return mb_sel(b, mb_isnan(b, x), x, y);
}

Ref math_acosh(MB *b, Ref x)
{
	int d = mb_is64(b);
	Ref one = mb_f(b, 1);
	Ref big = mb_gt(b, x, mb_f(b, d ? 0x1p28 : 0x1p12));
	Ref mid = mb_gt(b, x, mb_f(b, 2));
	Ref x2 = mb_add(b, x, x);
	Ref rcp = mb_div(b, one, mb_add(b, x, mb_sqrt(b, mb_fma(b, x, x, mb_f(b, -1)))));
	Ref tmid = mb_sub(b, x2, rcp);
	Ref u = mb_sub(b, x, one);
	Ref tsmall = mb_add(b, u, mb_sqrt(b, mb_fma(b, u, u, mb_add(b, u, u))));
	Ref t = mb_sel(b, big, x, mb_sel(b, mid, tmid, tsmall));
	Ref y = math_log_or_log1p(b, t, mb_not(b, mid));
	y = mb_sel(b, big, mb_add(b, y, mb_f(b, 0.6931471805599453)), y);
	y = mb_sel(b, mb_eq(b, x, one), mb_f(b, 0), y);
	y = mb_sel(b, mb_isinf(b, x), x, y);
	Ref bad = mb_not(b, mb_ge(b, x, one));
	return mb_sel(b, bad, mb_f(b, NAN), y);
}

Ref math_atanh(MB *b, Ref x)
{
	Ref a = mb_abs(b, x);
	Ref one = mb_f(b, 1);
	Ref om = mb_sub(b, one, a);
	Ref a2 = mb_add(b, a, a);
	Ref tsmall = mb_add(b, a2, mb_div(b, mb_mul(b, a2, a), om));
	Ref tbig = mb_div(b, a2, om);
	Ref t = mb_sel(b, mb_lt(b, a, mb_f(b, 0.5)), tsmall, tbig);
	Ref y = mb_mul(b, mb_f(b, 0.5), math_log_or_log1p(b, t, mb_true(b)));
	y = mb_sel(b, mb_eq(b, a, one), mb_f(b, HUGE_VAL), y);
	y = mb_sel(b, mb_eq(b, a, mb_f(b, 0)), a, y);
	y = mb_sel(b, mb_gt(b, a, one), mb_f(b, NAN), y);
	y = mb_copysign(b, y, x);
	return mb_sel(b, mb_isnan(b, x), x, y);
}

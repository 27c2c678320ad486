/*
 * rounding.c - arithmetic rounded toward zero, down or up (libdevice's
 * _rz, _rd, _ru functions), built from the IR's round-to-nearest
 * operations, so the simulator and the GPU give the same bits without
 * rounding-mode instructions.
 *
 * Each operation computes its round-to-nearest result r and the sign of
 * the exact error (exact - r), then moves r one float toward the mode's
 * direction when the error points that way.  The error's sign comes from
 * an exact residual: two-sum for addition; for multiplication, division
 * and square root an fma on the operands' mantissas (frexp), r scaled by
 * the same power of two, which keeps the residual exact and away from
 * underflow even when r is subnormal, and gives an infinite r (an
 * overflow) the error's right sign.  Conversions compare the converted
 * value with the source in the wider type.
 */
#include <math.h>

#include "mathlib.h"

/* r moved one float in the mode's direction when the exact result lies
 * there: pos/neg are bools, the exact result's side of r */
static Ref adjust(MB *b, Ref r, Ref pos, Ref neg, int mode)
{
	switch (mode) {
	case RND_DOWN:
		return mb_sel(b, neg, math_nextafter(b, r, mb_f(b, -INFINITY)), r);
	case RND_UP:
		return mb_sel(b, pos, math_nextafter(b, r, mb_f(b, INFINITY)), r);
	case RND_ZERO: {
		Ref zero = mb_f(b, 0);
		Ref in = mb_or(b, mb_and(b, mb_gt(b, r, zero), neg), mb_and(b, mb_lt(b, r, zero), pos));
		return mb_sel(b, in, math_nextafter(b, r, zero), r);
	}
	default:
		return r;
	}
}

static Ref by_sign(MB *b, Ref r, Ref err, int mode)
{
	Ref zero = mb_f(b, 0);
	return adjust(b, r, mb_gt(b, err, zero), mb_lt(b, err, zero), mode);
}

Ref math_add_rnd(MB *b, Ref x, Ref y, int mode)
{
	if (mode == RND_NEAR)
		return mb_add(b, x, y);
	DD s = mb_two_sum(b, x, y);
	/* an overflow to infinity from finite operands errs toward zero */
	Ref over = mb_and(b, mb_isinf(b, s.hi), mb_and(b, mb_isfinite(b, x), mb_isfinite(b, y)));
	Ref err = mb_sel(b, over, mb_neg(b, s.hi), s.lo);
	Ref r = by_sign(b, s.hi, err, mode);
	if (mode == RND_DOWN) {
		/* an exact zero sum is -0 rounding down, but for +0 + +0 */
		Ref nz = mb_neg(b, mb_add(b, mb_neg(b, x), mb_neg(b, y)));
		r = mb_sel(b, mb_eq(b, s.hi, mb_f(b, 0)), nz, r);
	}
	return r;
}

Ref math_mul_rnd(MB *b, Ref x, Ref y, int mode)
{
	Ref p = mb_mul(b, x, y);
	if (mode == RND_NEAR)
		return p;
	Ref ex, ey;
	Ref mx = math_frexp(b, x, &ex);
	Ref my = math_frexp(b, y, &ey);
	Ref ps = mb_scale(b, p, mb_iop(b, O_NEG, KW, mb_iop(b, O_ADD, KW, ex, ey), REF_NONE));
	Ref err = mb_fma(b, mx, my, mb_neg(b, ps));
	return by_sign(b, p, err, mode);
}

Ref math_div_rnd(MB *b, Ref x, Ref y, int mode)
{
	Ref q = mb_div(b, x, y);
	if (mode == RND_NEAR)
		return q;
	Ref ex, ey;
	Ref mx = math_frexp(b, x, &ex);
	Ref my = math_frexp(b, y, &ey);
	Ref qs = mb_scale(b, q, mb_iop(b, O_SUB, KW, ey, ex));
	Ref rem = mb_fma(b, mb_neg(b, qs), my, mx);
	return by_sign(b, q, mb_mul(b, rem, my), mode);
}

Ref math_sqrt_rnd(MB *b, Ref x, int mode)
{
	Ref s = mb_sqrt(b, x);
	if (mode == RND_NEAR)
		return s;
	Ref ex;
	math_frexp(b, x, &ex);
	Ref k = mb_iop(b, O_SHR, KW, ex, mb_i(b, KW, 1));
	Ref xs = mb_scale(b, x, mb_iop(b, O_MUL, KW, k, mb_i(b, KW, -2)));
	Ref ss = mb_scale(b, s, mb_iop(b, O_NEG, KW, k, REF_NONE));
	Ref err = mb_fma(b, mb_neg(b, ss), ss, xs);
	return by_sign(b, s, err, mode);
}

/* x*y + z rounded once in the mode: the exact error of the
 * round-to-nearest fma r is (g + a2) of Boldo and Muller's ErrFma, whose
 * rounded sum has the exact error's sign.  It is exact while x*y's own
 * rounding error is a normal number (|x*y| above 2^-969 in float64,
 * 2^-102 in float32). */
Ref math_fma_rnd(MB *b, Ref x, Ref y, Ref z, int mode)
{
	Ref r = mb_fma(b, x, y, z);
	if (mode == RND_NEAR)
		return r;
	DD u = mb_two_prod(b, x, y);
	DD a = mb_two_sum(b, z, u.lo);
	DD s = mb_two_sum(b, u.hi, a.hi);
	Ref g = mb_add(b, mb_sub(b, s.hi, r), s.lo);
	Ref err = mb_add(b, g, a.lo);
	Ref finite = mb_and(b, mb_isfinite(b, x), mb_and(b, mb_isfinite(b, y), mb_isfinite(b, z)));
	Ref over = mb_and(b, mb_isinf(b, r), finite);
	err = mb_sel(b, over, mb_neg(b, r), err);
	Ref out = by_sign(b, r, err, mode);
	if (mode == RND_DOWN) {
		/* an exact zero is -0 rounding down, but for +0 + +0 */
		Ref nz = mb_neg(b, mb_fma(b, mb_neg(b, x), y, mb_neg(b, z)));
		out = mb_sel(b, mb_and(b, mb_eq(b, r, mb_f(b, 0)), mb_eq(b, err, mb_f(b, 0))), nz, out);
	}
	return out;
}

/* A float64 to float32 (b is float32's builder). */
Ref math_narrow_rnd(MB *b, Ref d, int mode)
{
	Ref f = mb_cvt(b, d, SK_F64, SK_F32);
	if (mode == RND_NEAR)
		return f;
	MB w = mb_new(b->L, SK_F64);
	Ref err = mb_sub(&w, d, mb_cvt(b, f, SK_F32, SK_F64));
	Ref zero = mb_f(&w, 0);
	return adjust(b, f, mb_gt(&w, err, zero), mb_lt(&w, err, zero), mode);
}

/* An int64 (uint64 when is_unsigned) to b's float. */
Ref math_int_rnd(MB *b, Ref x, int is_unsigned, int mode)
{
	ScalarKind isk = is_unsigned ? SK_U64 : SK_I64;
	Ref r = mb_cvt(b, x, isk, b->sk);
	if (mode == RND_NEAR)
		return r;
	/* r at the top of the range (2^63, 2^64) is above every x */
	Ref top = mb_ge(b, r, mb_f(b, is_unsigned ? 0x1p64 : 0x1p63));
	Ref back = mb_cvt(b, r, b->sk, isk);
	Ref diff = mb_iop(b, O_SUB, KL, x, back);
	Ref zero = mb_i(b, KL, 0);
	Ref pos = mb_and(b, mb_not(b, top), mb_icmp(b, CC_GT, KL, diff, zero));
	Ref neg = mb_or(b, top, mb_icmp(b, CC_LT, KL, diff, zero));
	return adjust(b, r, pos, neg, mode);
}

/*
 * lower_bf16.c - calls of cuda.bf16's functions (sema_bf16.c types them).
 *
 * A bfloat16 lives in a float32 register holding a value bfloat16
 * represents exactly (core.h, SK_BF16): a cvt to bfloat16 rounds, to
 * nearest even, and an operation of kind bfloat16 is the float32
 * operation rounded again (lower_emit).  So + - * / and sqrt are
 * correctly rounded; neg, abs, min, max, floor, ceil, trunc, rint and the
 * compares are exact; the transcendental functions, hrsqrt and hrcp
 * compute in float32 and round the result once, within one bfloat16 ulp.
 * hfma computes in float64, where the product is exact, and rounds the
 * sum to bfloat16: correctly rounded unless the exact sum needs more than
 * float64's 53 bits and lies next to a midpoint of two bfloat16s.
 *
 * The directed roundings (_rz, _rd, _ru) to bfloat16 work on the float32
 * bits: cleared below bfloat16's 8 bits (toward zero), then one bfloat16
 * step away from zero when anything was cleared and the direction says
 * so.  An integer of 32 or 64 bits reaches float32 rounded to nearest
 * first, so its directed rounding can be one step off when it needs
 * more than float32's 24 bits.
 */
#include <math.h>

#include "../math/mathlib.h"
#include "lower.h"

static Ref to_f32(Lower *L, Ref x)
{
	return lower_cvt(L, x, SK_BF16, SK_F32);
}

static Ref round_bf16(Lower *L, Ref x)
{
	return lower_cvt(L, x, SK_F32, SK_BF16);
}

/* The float32 f rounded to bfloat16 in direction mode (RM_*). */
static Ref directed(Lower *L, Ref f, int mode)
{
	if (mode == RM_N)
		return round_bf16(L, f);
	MB b = mb_new(L, SK_F32);
	Ref u = lower_emit(L, O_BITS, KW, SK_U32, f, REF_NONE, REF_NONE, 0);
	Ref low = mb_iop(&b, O_AND, KW, u, mb_i(&b, KW, 0xffff));
	Ref keep = mb_iop(&b, O_AND, KW, u, mb_i(&b, KW, (int32_t)0xffff0000u));
	Ref inexact = mb_icmp(&b, CC_NE, KW, low, mb_i(&b, KW, 0));
	Ref neg = mb_icmp(&b, CC_LT, KW, u, mb_i(&b, KW, 0));
	Ref away = mode == RM_Z ? REF_NONE : mb_and(&b, inexact, mode == RM_D ? neg : mb_not(&b, neg));
	Ref bits = away.kind == R_NONE ? keep
	         : mb_isel(&b, KW, away, mb_iop(&b, O_ADD, KW, keep, mb_i(&b, KW, 0x10000)), keep);
	Ref r = lower_emit(L, O_BITS, KS, SK_F32, bits, REF_NONE, REF_NONE, 0);
	return mb_sel(&b, mb_isnan(&b, f), round_bf16(L, f), r);   /* NaN: the canonical NaN */
}

static Ref math1(Lower *L, int in, Ref x)
{
	MB b = mb_new(L, SK_F32);
	x = to_f32(L, x);
	Ref r;
	switch (in) {
	case IN_BF16_htrunc: return mb_trunc(&b, x);
	case IN_BF16_hceil: return mb_ceil(&b, x);
	case IN_BF16_hfloor: return mb_floor(&b, x);
	case IN_BF16_hrint: return mb_rint(&b, x);
	case IN_BF16_hsqrt: r = mb_sqrt(&b, x); break;
	case IN_BF16_hrsqrt: r = mb_div(&b, mb_f(&b, 1.0), mb_sqrt(&b, x)); break;
	case IN_BF16_hrcp: r = mb_div(&b, mb_f(&b, 1.0), x); break;
	case IN_BF16_hlog: r = math_log(&b, x); break;
	case IN_BF16_hlog2: r = math_log2(&b, x); break;
	case IN_BF16_hlog10: r = math_log10(&b, x); break;
	case IN_BF16_hcos: r = math_cos(&b, x); break;
	case IN_BF16_hsin: r = math_sin(&b, x); break;
	case IN_BF16_htanh: case IN_BF16_htanh_approx: r = math_tanh(&b, x); break;
	case IN_BF16_hexp: r = math_exp(&b, x); break;
	case IN_BF16_hexp2: r = math_exp2(&b, x); break;
	case IN_BF16_hexp10: r = math_exp2(&b, mb_mul(&b, x, mb_f(&b, 3.321928094887362))); break;
	default: ICE(L->c, "cuda.bf16 function %s", intrin_name[in]);
	}
	return round_bf16(L, r);
}

static Ref compare(Lower *L, int cc, int unordered, Ref x, Ref y)
{
	MB b = mb_new(L, SK_F32);
	x = to_f32(L, x);
	y = to_f32(L, y);
	if (cc == CC_NE)      /* CC_NE is true when unordered; hne is not */
		return unordered ? mb_cmp(&b, CC_NE, x, y) : mb_or(&b, mb_lt(&b, x, y), mb_gt(&b, x, y));
	Ref r = mb_cmp(&b, (CondCode)cc, x, y);
	return unordered ? mb_or(&b, r, mb_anynan(&b, x, y)) : r;
}

/* bfloat16 a converted to integer kind to, rounded in direction mode;
 * an 8-bit kind saturates to its own range. */
static Ref to_int(Lower *L, Ref a, int to, int mode)
{
	MB b = mb_new(L, SK_F32);
	Ref x = to_f32(L, a);
	switch (mode) {
	case RM_N: x = mb_rint(&b, x); break;
	case RM_D: x = mb_floor(&b, x); break;
	case RM_U: x = mb_ceil(&b, x); break;
	default: break;
	}
	if (to == SK_I8 || to == SK_U8) {
		x = mb_max(&b, x, mb_f(&b, to == SK_I8 ? -128.0 : 0.0));
		x = mb_min(&b, x, mb_f(&b, to == SK_I8 ? 127.0 : 255.0));
	}
	return lower_cvt(L, x, SK_F32, (ScalarKind)to);
}

Value lower_bf16_intrin(Lower *L, Expr *e, int in)
{
	int a, mode, form = intrin_bf16_form(in, &a, &mode);
	Type *h = ty_scalar(SK_BF16);
	Type *argty = form == BF_TO || form == BF_FROM_BITS ? ty_scalar((ScalarKind)a) : h;
	Ref x[3] = {REF_NONE, REF_NONE, REF_NONE};
	for (int i = 0; i < e->call.nargs && i < 3; i++)
		x[i] = lower_convert(L, lower_expr(L, e->call.args[i]), argty, e->call.args[i]->span).r;
	MB b = mb_new(L, SK_F32);
	Ref r;
	switch (form) {
	case BF_BIN: case BF_SAT:
		r = lower_emit(L, (Opcode)a, KS, SK_BF16, x[0], x[1], REF_NONE, 0);
		if (form == BF_SAT)     /* to [0, 1]; maxNum takes NaN to 0 */
			r = mb_min(&b, mb_max(&b, r, mb_f(&b, 0.0)), mb_f(&b, 1.0));
		break;
	case BF_FMA: {
		MB d = mb_new(L, SK_F64);
		Ref p[3];
		for (int i = 0; i < 3; i++)
			p[i] = lower_cvt(L, x[i], SK_BF16, SK_F64);
		r = lower_cvt(L, mb_fma(&d, p[0], p[1], p[2]), SK_F64, SK_BF16);
		if (mode == RM_SAT)
			r = mb_min(&b, mb_max(&b, r, mb_f(&b, 0.0)), mb_f(&b, 1.0));
		else if (mode == RM_RELU)     /* negative to +0; NaN stays */
			r = mb_sel(&b, mb_lt(&b, r, mb_f(&b, 0.0)), mb_f(&b, 0.0), r);
		break;
	}
	case BF_NEG: r = mb_neg(&b, x[0]); break;
	case BF_ABS: r = mb_abs(&b, x[0]); break;
	case BF_CMP: r = compare(L, a, mode, x[0], x[1]); break;
	case BF_MAX: case BF_MIN:
		r = form == BF_MAX ? mb_max(&b, x[0], x[1]) : mb_min(&b, x[0], x[1]);
		if (mode == RM_NAN)
			r = mb_sel(&b, mb_anynan(&b, x[0], x[1]), round_bf16(L, mb_f(&b, NAN)), r);
		break;
	case BF_ISNAN: r = mb_isnan(&b, x[0]); break;
	case BF_ISINF: {
		Ref one = ir_con_int(L->f, KW, 1), none = ir_con_int(L->f, KW, -1), zero = ir_con_int(L->f, KW, 0);
		Ref s = mb_isel(&b, KW, mb_lt(&b, x[0], mb_f(&b, 0.0)), none, one);
		r = mb_isel(&b, KW, mb_isinf(&b, x[0]), s, zero);
		break;
	}
	case BF_MATH: r = math1(L, in, x[0]); break;
	case BF_TO:
		if (a == SK_F32)
			r = directed(L, x[0], mode);
		else if (mode == RM_N)
			r = lower_cvt(L, x[0], (ScalarKind)a, SK_BF16);
		else
			r = directed(L, lower_cvt(L, x[0], (ScalarKind)a, SK_F32), mode);
		break;
	case BF_FROM:
		r = a == SK_F32 ? to_f32(L, x[0]) : to_int(L, x[0], a, mode);
		break;
	case BF_AS: {
		/* the high half of the float32's bits, sign- or zero-extended */
		Ref u = lower_emit(L, O_BITS, KW, SK_U32, x[0], REF_NONE, REF_NONE, 0);
		r = lower_emit(L, O_SHR, KW, a == SK_I16 ? SK_I32 : SK_U32, u, ir_con_int(L->f, KW, 16), REF_NONE, 0);
		break;
	}
	case BF_FROM_BITS: {
		Ref u = lower_emit(L, O_SHL, KW, SK_U32, x[0], ir_con_int(L->f, KW, 16), REF_NONE, 0);
		r = lower_emit(L, O_BITS, KS, SK_F32, u, REF_NONE, REF_NONE, 0);
		break;
	}
	default:
		ICE(L->c, "cuda.bf16 function %s", intrin_name[in]);
	}
	return lower_scalar(e->ty, r);
}

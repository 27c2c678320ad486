/*
 * lower_fp8.c - conversions from and to CUDA's fp8 types, and the cvt_*
 * functions of numba.cuda._internal.cuda_fp8 (sema_fp8.c types them).
 *
 * An fp8 value is its encoding, zero-extended in a 32-bit register
 * (core.h, SK_E5M2): e5m2 and e4m3 are sign, exponent and mantissa of
 * 1+5+2 and 1+4+3 bits (biases 15 and 7, subnormals below); e5m2 has
 * infinities (0x7c) and NaNs above them, e4m3 has no infinity and one
 * NaN magnitude (0x7f); e8m0 is an exponent alone, 2^(bits - 127), from
 * 0 (2^-127) to 0xfe (2^127), with 0xff the NaN and no sign.
 *
 * Everything is computed here with integer operations on the bits, as
 * the portable code of cuda_fp8.hpp does, so that the simulator and the
 * GPU give the same bits on every device:
 *
 * - to e5m2/e4m3 (__nv_cvt_double_to_fp8): rounded to nearest even from
 *   the float32 or float64 bits at once; a magnitude at most half the
 *   least subnormal gives 0, one beyond the largest finite plus half its
 *   ulp (a tie included for e5m2, whose largest is odd) overflows: to the
 *   largest finite under SATFINITE, else to infinity (e5m2) or NaN
 *   (e4m3).  A float32 NaN gives 0x7f; a float64 NaN keeps its sign, and
 *   for e5m2 is 0x7e with the two top bits of its payload or'ed in.
 *   float16 and bfloat16 go through float32 (exact), integers through
 *   float32 rounded to nearest; the constructors saturate.
 * - to e8m0 (__nv_cvt_float_to_e8m0): toward zero, the float32's
 *   bfloat16 bits truncated; toward +inf, the magnitude's bfloat16
 *   rounded up and its exponent rounded up when any mantissa bit is set
 *   above 2^-127; SATFINITE turns 0xff from a finite input into 0xfe.
 *   The sign is dropped.  A float64 reaches float32 rounded toward zero
 *   with a sticky low bit, so that the rounding after it is exact.  The
 *   constructors round toward +inf and saturate; 16-bit integers go
 *   through float32, 32-bit through float64, 64-bit through bfloat16
 *   rounded to nearest and nudged up a step when that rounded down.
 * - from e5m2/e4m3: the float32 exactly (NaN as 0x7fffffff), then on to
 *   the target (float16 and bfloat16 hold it exactly); to 8-bit
 *   integers NaN gives 0 and values saturate, wider integers truncate as
 *   the float32 does (cvt); to bool, whether the magnitude bits are set.
 * - from e8m0: the float32 2^(bits - 127) (0 is 2^-127, a float32
 *   subnormal; NaN 0x7fff0000, bfloat16's), then on as above; to float16
 *   rounded to nearest; to bool, true.
 *
 * The PTX cvt instructions for fp8 (sm_89+) are not used: the
 * simulator's bits would have to follow the hardware's.
 */
#include "../math/mathlib.h"
#include "lower.h"

enum { SAT_NONE, SAT_FINITE };               /* saturation_t */
enum { INTERP_E4M3, INTERP_E5M2 };           /* fp8_interpretation_t */
enum { ROUND_ZERO = 1, ROUND_UP = 2 };       /* cudaRoundMode */

static Ref sel(MB *b, Cls k, Ref c, int64_t x, Ref y)
{
	return mb_isel(b, k, c, mb_i(b, k, x), y);
}

/* The e5m2 (or e4m3) encoding of the float whose bits (class k: KW for
 * float32, KL for float64) are `bits`; a float32 NaN is canonical. */
static Ref to_e5m2_e4m3(Lower *L, Ref bits, Cls k, int e5m2, int sat)
{
	MB b = mb_new(L, k == KL ? SK_F64 : SK_F32);
	int P = k == KL ? 52 : 23, B = k == KL ? 1023 : 127, W = k == KL ? 64 : 32;
	int m = e5m2 ? 2 : 3, fb = e5m2 ? 15 : 7;
	int64_t sign = (int64_t)((uint64_t)1 << (W - 1)), inf = (((int64_t)1 << (W - 1 - P)) - 1) << P;
	int64_t tiny = (int64_t)(B - fb - m) << P;   /* half the least subnormal, 2^(-fb-m) */
	int64_t thr = e5m2 ? ((int64_t)(B + 15) << P | (int64_t)7 << (P - 3)) - 1   /* 61440 - 1 ulp */
	                   : (int64_t)(B + 8) << P | (int64_t)13 << (P - 4);        /* 464 */
	Ref a = mb_iop(&b, O_AND, k, bits, mb_i(&b, k, ~sign));
	Ref neg = mb_icmp(&b, CC_LT, k, bits, mb_i(&b, k, 0));
	Ref e = mb_uop(&b, O_SHR, k, a, mb_i(&b, k, P));
	Ref sig = mb_iop(&b, O_OR, k, mb_iop(&b, O_AND, k, a, mb_i(&b, k, ((int64_t)1 << P) - 1)),
	                 mb_i(&b, k, (int64_t)1 << P));
	Ref et = mb_iop(&b, O_SUB, k, e, mb_i(&b, k, B - fb));          /* the fp8 exponent field */
	Ref under = mb_iop(&b, O_SUB, k, mb_i(&b, k, 1), et);
	under = mb_iop(&b, O_MIN, k, mb_iop(&b, O_MAX, k, under, mb_i(&b, k, 0)), mb_i(&b, k, m + 2));
	Ref sh = mb_iop(&b, O_ADD, k, under, mb_i(&b, k, P - m));
	Ref q = mb_uop(&b, O_SHR, k, sig, sh);
	Ref one = mb_i(&b, k, 1);
	Ref rem = mb_iop(&b, O_AND, k, sig, mb_iop(&b, O_SUB, k, mb_iop(&b, O_SHL, k, one, sh), one));
	Ref half = mb_iop(&b, O_SHL, k, one, mb_iop(&b, O_SUB, k, sh, one));
	Ref ex = mb_iop(&b, O_SUB, k, mb_iop(&b, O_MAX, k, et, one), one);
	Ref enc = mb_iop(&b, O_ADD, k, q, mb_iop(&b, O_SHL, k, ex, mb_i(&b, k, m)));
	Ref odd = mb_ucmp(&b, CC_NE, k, mb_iop(&b, O_AND, k, q, one), mb_i(&b, k, 0));
	Ref up = mb_or(&b, mb_ucmp(&b, CC_GT, k, rem, half), mb_and(&b, mb_ucmp(&b, CC_EQ, k, rem, half), odd));
	enc = mb_iop(&b, O_ADD, k, enc, mb_isel(&b, k, up, one, mb_i(&b, k, 0)));
	Ref r = k == KL ? lower_cvt(L, enc, SK_U64, SK_U32) : enc;
	r = sel(&b, KW, mb_ucmp(&b, CC_LE, k, a, mb_i(&b, k, tiny)), 0, r);
	r = sel(&b, KW, mb_ucmp(&b, CC_GT, k, a, mb_i(&b, k, thr)), sat ? (e5m2 ? 0x7b : 0x7e) : e5m2 ? 0x7c : 0x7f, r);
	Ref nan = mb_ucmp(&b, CC_GT, k, a, mb_i(&b, k, inf));
	Ref s = mb_isel(&b, KW, neg, mb_i(&b, KW, 0x80), mb_i(&b, KW, 0));
	if (k == KW)
		return sel(&b, KW, nan, 0x7f, mb_iop(&b, O_OR, KW, r, s));
	Ref code = mb_i(&b, KW, 0x7f);
	if (e5m2) {
		Ref top = lower_cvt(L, mb_uop(&b, O_SHR, KL, bits, mb_i(&b, KL, 50)), SK_U64, SK_U32);
		code = mb_iop(&b, O_OR, KW, mb_i(&b, KW, 0x7e), mb_iop(&b, O_AND, KW, top, mb_i(&b, KW, 3)));
	}
	return mb_iop(&b, O_OR, KW, mb_isel(&b, KW, nan, code, r), s);
}

/* The e8m0 encoding of the bfloat16 bits bf (KW, __nv_cvt_bfloat16raw_to_e8m0). */
static Ref bf16raw_to_e8m0(Lower *L, Ref bf, int sat, int mode)
{
	MB b = mb_new(L, SK_F32);
	Ref r = mb_iop(&b, O_AND, KW, mb_uop(&b, O_SHR, KW, bf, mb_i(&b, KW, 7)), mb_i(&b, KW, 0xff));
	Ref a = mb_iop(&b, O_AND, KW, bf, mb_i(&b, KW, 0x7fff));
	if (mode == ROUND_UP) {
		Ref frac = mb_ucmp(&b, CC_NE, KW, mb_iop(&b, O_AND, KW, bf, mb_i(&b, KW, 0x7f)), mb_i(&b, KW, 0));
		Ref in = mb_and(&b, mb_ucmp(&b, CC_GT, KW, a, mb_i(&b, KW, 0x40)), mb_ucmp(&b, CC_LT, KW, a, mb_i(&b, KW, 0x7f80)));
		r = mb_iop(&b, O_ADD, KW, r, mb_isel(&b, KW, mb_and(&b, frac, in), mb_i(&b, KW, 1), mb_i(&b, KW, 0)));
	}
	if (sat == SAT_FINITE) {
		Ref over = mb_and(&b, mb_ucmp(&b, CC_LE, KW, a, mb_i(&b, KW, 0x7f80)), mb_ucmp(&b, CC_EQ, KW, r, mb_i(&b, KW, 0xff)));
		r = sel(&b, KW, over, 0xfe, r);
	}
	return r;
}

/* The e8m0 encoding of the float32 bits u (__nv_cvt_float_to_e8m0). */
static Ref float_to_e8m0(Lower *L, Ref u, int sat, int mode)
{
	MB b = mb_new(L, SK_F32);
	Ref a = mb_iop(&b, O_AND, KW, u, mb_i(&b, KW, 0x7fffffff));
	Ref nan = mb_ucmp(&b, CC_GT, KW, a, mb_i(&b, KW, 0x7f800000));
	Ref bf;
	if (mode == ROUND_UP) {
		Ref low = mb_ucmp(&b, CC_NE, KW, mb_iop(&b, O_AND, KW, a, mb_i(&b, KW, 0xffff)), mb_i(&b, KW, 0));
		Ref bump = mb_and(&b, mb_ucmp(&b, CC_LT, KW, a, mb_i(&b, KW, 0x7f800000)), low);
		bf = mb_iop(&b, O_ADD, KW, mb_uop(&b, O_SHR, KW, a, mb_i(&b, KW, 16)),
		            mb_isel(&b, KW, bump, mb_i(&b, KW, 1), mb_i(&b, KW, 0)));
	} else {
		bf = mb_uop(&b, O_SHR, KW, u, mb_i(&b, KW, 16));
	}
	return bf16raw_to_e8m0(L, sel(&b, KW, nan, 0x7fff, bf), sat, mode);
}

/* float64 x as the bits of a float32 rounded toward zero, the lowest
 * bit set when that lost anything (cuda_fp8.hpp's
 * __internal_double_to_float_with_sticky). */
static Ref f64_to_f32_sticky(Lower *L, Ref x)
{
	MB d = mb_new(L, SK_F64), b = mb_new(L, SK_F32);
	Ref f = lower_cvt(L, x, SK_F64, SK_F32);
	Ref back = lower_cvt(L, f, SK_F32, SK_F64);
	Ref u = mb_bits(&b, f);
	Ref zero = mb_f(&d, 0.0);
	Ref notnan = mb_ucmp(&b, CC_LE, KW, mb_iop(&b, O_SHL, KW, u, mb_i(&b, KW, 1)), mb_i(&b, KW, (int32_t)0xff000000u));
	Ref away = mb_or(&d, mb_and(&d, mb_gt(&d, x, zero), mb_gt(&d, back, x)),
	                 mb_and(&d, mb_lt(&d, x, zero), mb_lt(&d, back, x)));
	u = mb_iop(&b, O_SUB, KW, u, mb_isel(&b, KW, away, mb_i(&b, KW, 1), mb_i(&b, KW, 0)));
	Ref lost = mb_and(&d, mb_cmp(&d, CC_NE, back, x), notnan);
	return mb_isel(&b, KW, lost, mb_iop(&b, O_OR, KW, u, mb_i(&b, KW, 1)), u);
}

/* e8m0 of a 64-bit integer v of kind sk, as __nv_fp8_e8m0's constructor. */
static Ref e8m0_of_int64(Lower *L, Ref v, ScalarKind sk)
{
	MB b = mb_new(L, SK_F32);
	Ref rn = lower_cvt(L, v, sk, SK_BF16);
	Ref raw = mb_uop(&b, O_SHR, KW, mb_bits(&b, rn), mb_i(&b, KW, 16));
	Ref back = lower_cvt(L, rn, SK_BF16, sk);
	Ref zero = mb_i(&b, KL, 0), low;
	if (sk == SK_I64)
		low = mb_or(&b, mb_and(&b, mb_icmp(&b, CC_GT, KL, v, zero), mb_icmp(&b, CC_LT, KL, back, v)),
		            mb_and(&b, mb_icmp(&b, CC_LT, KL, v, zero), mb_icmp(&b, CC_GT, KL, back, v)));
	else
		low = mb_ucmp(&b, CC_LT, KL, back, v);
	raw = mb_iop(&b, O_ADD, KW, raw, mb_isel(&b, KW, low, mb_i(&b, KW, 1), mb_i(&b, KW, 0)));
	return bf16raw_to_e8m0(L, raw, SAT_FINITE, ROUND_UP);
}

static Ref f32_bits(Lower *L, Ref f)
{
	MB b = mb_new(L, SK_F32);
	return mb_bits(&b, f);
}

/* r of kind from (a number) as the fp8 kind `to`, as its constructor. */
static Ref to_fp8(Lower *L, Ref r, ScalarKind from, ScalarKind to)
{
	if (to == SK_E8M0) {
		if (from == SK_I64 || from == SK_U64)
			return e8m0_of_int64(L, r, from);
		if (from == SK_I32 || from == SK_U32)
			r = lower_cvt(L, r, from, SK_F64), from = SK_F64;
		if (from == SK_F64)
			return float_to_e8m0(L, f64_to_f32_sticky(L, r), SAT_FINITE, ROUND_UP);
		return float_to_e8m0(L, f32_bits(L, lower_cvt(L, r, from, SK_F32)), SAT_FINITE, ROUND_UP);
	}
	int e5m2 = to == SK_E5M2;
	if (from == SK_F64) {
		MB d = mb_new(L, SK_F64);
		return to_e5m2_e4m3(L, mb_bits(&d, r), KL, e5m2, SAT_FINITE);
	}
	return to_e5m2_e4m3(L, f32_bits(L, lower_cvt(L, r, from, SK_F32)), KW, e5m2, SAT_FINITE);
}

/* The float32 that fp8 bits x (KW) of kind sk stand for. */
static Ref fp8_to_f32(Lower *L, Ref x, ScalarKind sk)
{
	MB b = mb_new(L, SK_F32);
	Ref r;
	if (sk == SK_E8M0) {
		r = mb_iop(&b, O_SHL, KW, x, mb_i(&b, KW, 23));
		r = sel(&b, KW, mb_ucmp(&b, CC_EQ, KW, x, mb_i(&b, KW, 0)), 0x00400000, r);
		r = sel(&b, KW, mb_ucmp(&b, CC_EQ, KW, x, mb_i(&b, KW, 0xff)), 0x7fff0000, r);
		return mb_float(&b, r);
	}
	int e5m2 = sk == SK_E5M2, m = e5m2 ? 2 : 3, fb = e5m2 ? 15 : 7;
	Ref a = mb_iop(&b, O_AND, KW, x, mb_i(&b, KW, 0x7f));
	Ref s = mb_iop(&b, O_SHL, KW, mb_iop(&b, O_AND, KW, x, mb_i(&b, KW, 0x80)), mb_i(&b, KW, 24));
	Ref norm = mb_iop(&b, O_ADD, KW, mb_iop(&b, O_SHL, KW, a, mb_i(&b, KW, 23 - m)), mb_i(&b, KW, (int64_t)(127 - fb) << 23));
	Ref sub = mb_iop(&b, O_SUB, KW, mb_bits(&b, lower_cvt(L, a, SK_U32, SK_F32)), mb_i(&b, KW, (int64_t)(fb + m - 1) << 23));
	sub = sel(&b, KW, mb_ucmp(&b, CC_EQ, KW, a, mb_i(&b, KW, 0)), 0, sub);
	r = mb_isel(&b, KW, mb_ucmp(&b, CC_LT, KW, a, mb_i(&b, KW, 1 << m)), sub, norm);
	if (e5m2)
		r = sel(&b, KW, mb_ucmp(&b, CC_EQ, KW, a, mb_i(&b, KW, 0x7c)), 0x7f800000, r);
	r = mb_iop(&b, O_OR, KW, r, s);
	Ref nan = e5m2 ? mb_ucmp(&b, CC_GT, KW, a, mb_i(&b, KW, 0x7c)) : mb_ucmp(&b, CC_EQ, KW, a, mb_i(&b, KW, 0x7f));
	return mb_float(&b, sel(&b, KW, nan, 0x7fffffff, r));
}

/* fp8 bits x of kind sk as kind `to`, as its conversion operators. */
static Ref from_fp8(Lower *L, Ref x, ScalarKind sk, ScalarKind to)
{
	MB b = mb_new(L, SK_F32);
	if (to == SK_BOOL)
		return sk == SK_E8M0 ? ir_con_bool(L->f, 1)
		                     : mb_ucmp(&b, CC_NE, KW, mb_iop(&b, O_AND, KW, x, mb_i(&b, KW, 0x7f)), mb_i(&b, KW, 0));
	Ref f = fp8_to_f32(L, x, sk);
	if (to == SK_I8 || to == SK_U8) {
		f = mb_sel(&b, mb_isnan(&b, f), mb_f(&b, 0.0), f);
		f = mb_max(&b, f, mb_f(&b, to == SK_I8 ? -128.0 : 0.0));
		f = mb_min(&b, f, mb_f(&b, to == SK_I8 ? 127.0 : 255.0));
	}
	return lower_cvt(L, f, SK_F32, to);
}

Ref lower_fp8_cvt(Lower *L, Ref r, ScalarKind from, ScalarKind to)
{
	if (SK_IS_FP8(from) && SK_IS_FP8(to))
		ICE(L->c, "conversion between fp8 kinds %d and %d", from, to);
	if (SK_IS_FP8(from))
		return from_fp8(L, r, from, to);
	if (scalar_info[from].is_complex)
		ICE(L->c, "complex to fp8");
	return to_fp8(L, r, from, to);
}

static int enum_arg(Lower *L, Expr *e, int i)
{
	const Const *v = e->call.args[i]->cval;
	if (!v || (v->kind != PJ_V_INT && v->kind != PJ_V_BOOL))
		ICE(L->c, "fp8 conversion argument %d is not a constant", i + 1);
	return (int)v->i;
}

Value lower_fp8_intrin(Lower *L, Expr *e, int in)
{
	Expr *a = e->call.args[0];
	Value v = lower_expr(L, a);
	MB b = mb_new(L, SK_F32);
	if (in == IN_FP8_E8M0_TO_BF16RAW) {
		Ref x = lower_convert(L, v, ty_scalar(SK_U8), a->span).r;
		Ref r = mb_iop(&b, O_SHL, KW, x, mb_i(&b, KW, 7));
		r = sel(&b, KW, mb_ucmp(&b, CC_EQ, KW, x, mb_i(&b, KW, 0xff)), 0x7fff, r);
		r = sel(&b, KW, mb_ucmp(&b, CC_EQ, KW, x, mb_i(&b, KW, 0)), 0x0040, r);
		Value t = {.ty = e->ty, .n = 1};
		t.elts = arena_alloc(L->c->arena, sizeof(Value));
		t.elts[0] = lower_scalar(ty_scalar(SK_U16), r);
		return t;
	}
	int sat = enum_arg(L, e, 1), third = enum_arg(L, e, 2);
	Ref r;
	switch (in) {
	case IN_FP8_FLOAT_TO_FP8:
		r = to_e5m2_e4m3(L, f32_bits(L, lower_convert(L, v, ty_scalar(SK_F32), a->span).r), KW,
		                 third == INTERP_E5M2, sat);
		break;
	case IN_FP8_DOUBLE_TO_FP8: {
		MB d = mb_new(L, SK_F64);
		r = to_e5m2_e4m3(L, mb_bits(&d, lower_convert(L, v, ty_scalar(SK_F64), a->span).r), KL,
		                 third == INTERP_E5M2, sat);
		break;
	}
	case IN_FP8_BF16RAW_TO_FP8:
		r = to_e5m2_e4m3(L, mb_iop(&b, O_SHL, KW, v.elts[0].r, mb_i(&b, KW, 16)), KW, third == INTERP_E5M2, sat);
		break;
	case IN_FP8_FLOAT_TO_E8M0:
		r = float_to_e8m0(L, f32_bits(L, lower_convert(L, v, ty_scalar(SK_F32), a->span).r), sat, third);
		break;
	case IN_FP8_DOUBLE_TO_E8M0:
		r = float_to_e8m0(L, f64_to_f32_sticky(L, lower_convert(L, v, ty_scalar(SK_F64), a->span).r), sat, third);
		break;
	case IN_FP8_BF16RAW_TO_E8M0:
		r = bf16raw_to_e8m0(L, v.elts[0].r, sat, third);
		break;
	default:
		ICE(L->c, "fp8 function %s", intrin_name[in]);
	}
	return lower_scalar(e->ty, r);
}

/*
 * lower_fp16.c - calls of cuda.fp16's functions (sema_fp16.c types them).
 *
 * A float16 lives in a float32 register holding a value float16
 * represents exactly.  An operation of kind float16 is one IR instruction
 * whose result the back ends round to float16 once (add, sub, mul, div,
 * sqrt, fma: correctly rounded, as the hardware's half instructions are);
 * neg, abs, floor, ceil, trunc, rint, min and max are exact.  The
 * transcendental functions and hrsqrt compute in float32 and round the
 * result to float16, within one float16 ulp of the exact value (CUDA's
 * half functions go through the float32 approximations the same way).
 */
#include <math.h>

#include "../math/mathlib.h"
#include "lower.h"

/* One instruction of kind float16. */
static Ref half(Lower *L, Opcode op, Ref a, Ref b, Ref c)
{
	return lower_emit(L, op, KS, SK_F16, a, b, c, 0);
}

static Ref transcendental(Lower *L, int in, Ref x)
{
	MB b = mb_new(L, SK_F32);
	x = lower_cvt(L, x, SK_F16, SK_F32);
	Ref r;
	switch (in) {
	case IN_FP16_HSIN: r = math_sin(&b, x); break;
	case IN_FP16_HCOS: r = math_cos(&b, x); break;
	case IN_FP16_HEXP: r = math_exp(&b, x); break;
	case IN_FP16_HEXP2: r = math_exp2(&b, x); break;
	case IN_FP16_HEXP10: r = math_exp2(&b, mb_mul(&b, x, mb_f(&b, 3.321928094887362))); break;
	case IN_FP16_HLOG: r = math_log(&b, x); break;
	case IN_FP16_HLOG2: r = math_log2(&b, x); break;
	case IN_FP16_HLOG10: r = math_log10(&b, x); break;
	case IN_FP16_HTANH: r = math_tanh(&b, x); break;
	case IN_FP16_HRSQRT: r = mb_div(&b, mb_f(&b, 1.0), mb_sqrt(&b, x)); break;
	default: ICE(L->c, "cuda.fp16 function %s", intrin_name[in]);
	}
	return lower_cvt(L, r, SK_F32, SK_F16);
}

static Ref compare(Lower *L, int in, Ref x, Ref y)
{
	switch (in) {
	case IN_FP16_HEQ: return lower_cmp(L, CC_EQ, SK_F16, x, y);
	case IN_FP16_HNE: {   /* ordered: false when either is NaN, unlike Python's != */
		Ref lt = lower_cmp(L, CC_LT, SK_F16, x, y);
		Ref gt = lower_cmp(L, CC_GT, SK_F16, x, y);
		return lower_emit(L, O_OR, KB, SK_BOOL, lt, gt, REF_NONE, 0);
	}
	case IN_FP16_HGT: return lower_cmp(L, CC_GT, SK_F16, x, y);
	case IN_FP16_HGE: return lower_cmp(L, CC_GE, SK_F16, x, y);
	case IN_FP16_HLT: return lower_cmp(L, CC_LT, SK_F16, x, y);
	case IN_FP16_HLE: return lower_cmp(L, CC_LE, SK_F16, x, y);
	/* unordered: the negation of the ordered opposite; CC_NE is already */
	case IN_FP16_HEQU: return lower_emit(L, O_NOT, KB, SK_BOOL, compare(L, IN_FP16_HNE, x, y), REF_NONE, REF_NONE, 0);
	case IN_FP16_HNEU: return lower_cmp(L, CC_NE, SK_F16, x, y);
	case IN_FP16_HGTU: return lower_emit(L, O_NOT, KB, SK_BOOL, compare(L, IN_FP16_HLE, x, y), REF_NONE, REF_NONE, 0);
	case IN_FP16_HGEU: return lower_emit(L, O_NOT, KB, SK_BOOL, compare(L, IN_FP16_HLT, x, y), REF_NONE, REF_NONE, 0);
	case IN_FP16_HLTU: return lower_emit(L, O_NOT, KB, SK_BOOL, compare(L, IN_FP16_HGE, x, y), REF_NONE, REF_NONE, 0);
	case IN_FP16_HLEU: return lower_emit(L, O_NOT, KB, SK_BOOL, compare(L, IN_FP16_HGT, x, y), REF_NONE, REF_NONE, 0);
	default: ICE(L->c, "cuda.fp16 comparison %s", intrin_name[in]);
	}
}

Value lower_fp16_intrin(Lower *L, Expr *e, int in)
{
	Type *h = ty_scalar(SK_F16);
	Ref x[3] = {REF_NONE, REF_NONE, REF_NONE};
	for (int i = 0; i < e->call.nargs && i < 3; i++)
		x[i] = lower_convert(L, lower_expr(L, e->call.args[i]), h, e->call.args[i]->span).r;
	if (intrin_fp16_compare(in))
		return lower_scalar(e->ty, compare(L, in, x[0], x[1]));
	Ref r;
	switch (in) {
	case IN_FP16_HADD: r = half(L, O_ADD, x[0], x[1], REF_NONE); break;
	case IN_FP16_HSUB: r = half(L, O_SUB, x[0], x[1], REF_NONE); break;
	case IN_FP16_HMUL: r = half(L, O_MUL, x[0], x[1], REF_NONE); break;
	case IN_FP16_HDIV: r = half(L, O_DIV, x[0], x[1], REF_NONE); break;
	case IN_FP16_HFMA: r = half(L, O_FMA, x[0], x[1], x[2]); break;
	case IN_FP16_HNEG: r = half(L, O_NEG, x[0], REF_NONE, REF_NONE); break;
	case IN_FP16_HABS: r = half(L, O_ABS, x[0], REF_NONE, REF_NONE); break;
	case IN_FP16_HSQRT: r = half(L, O_SQRT, x[0], REF_NONE, REF_NONE); break;
	case IN_FP16_HRCP: r = half(L, O_DIV, lower_con_float(L, SK_F16, 1.0), x[0], REF_NONE); break;
	case IN_FP16_HFLOOR: r = half(L, O_FLOOR, x[0], REF_NONE, REF_NONE); break;
	case IN_FP16_HCEIL: r = half(L, O_CEIL, x[0], REF_NONE, REF_NONE); break;
	case IN_FP16_HTRUNC: r = half(L, O_TRUNC, x[0], REF_NONE, REF_NONE); break;
	case IN_FP16_HRINT: r = half(L, O_RINT, x[0], REF_NONE, REF_NONE); break;
	case IN_FP16_HMAX: r = half(L, O_MAX, x[0], x[1], REF_NONE); break;
	case IN_FP16_HMIN: r = half(L, O_MIN, x[0], x[1], REF_NONE); break;
	case IN_FP16_HMAX_NAN: case IN_FP16_HMIN_NAN: {
		Ref m = half(L, in == IN_FP16_HMAX_NAN ? O_MAX : O_MIN, x[0], x[1], REF_NONE);
		Ref nan = lower_emit(L, O_OR, KB, SK_BOOL, lower_cmp(L, CC_NE, SK_F16, x[0], x[0]),
		                     lower_cmp(L, CC_NE, SK_F16, x[1], x[1]), REF_NONE, 0);
		r = lower_sel(L, KS, nan, lower_con_float(L, SK_F16, NAN), m);
		break;
	}
	case IN_FP16_HISNAN: return lower_scalar(e->ty, lower_cmp(L, CC_NE, SK_F16, x[0], x[0]));
	case IN_FP16_HISINF: {
		Ref inf = lower_cmp(L, CC_EQ, SK_F16, half(L, O_ABS, x[0], REF_NONE, REF_NONE),
		                    lower_con_float(L, SK_F16, INFINITY));
		Ref neg = lower_cmp(L, CC_LT, SK_F16, x[0], lower_con_float(L, SK_F16, 0.0));
		Ref s = lower_sel(L, KW, neg, ir_con_int(L->f, KW, -1), ir_con_int(L->f, KW, 1));
		return lower_scalar(e->ty, lower_sel(L, KW, inf, s, ir_con_int(L->f, KW, 0)));
	}
	default: r = transcendental(L, in, x[0]); break;
	}
	return lower_scalar(e->ty, r);
}

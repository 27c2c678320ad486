/*
 * sema_fp8.c - typing of CUDA's fp8 types and of the conversions of
 * numba.cuda._internal.cuda_fp8 (lower_fp8.c lowers them).
 *
 * fp8_e5m2, fp8_e4m3 and fp8_e8m0 are scalar types that only convert:
 *
 *   fp8_e4m3(x)          x a bool, an integer or a float of any width
 *                        (float16, bfloat16, float32, float64), as
 *                        cuda_fp8.hpp's constructors round it
 *   float32(v) int64(v)  v an fp8 value, to any number type (the dtype
 *   bool(v) ...          constructors, int, float and bool)
 *
 * An fp8 value has no arithmetic, no compares and no arrays; one fp8
 * type does not convert to another except through a float.  The
 * storage conversions take and return the bits:
 *
 *   cvt_float_to_fp8(x, sat, interp)          float32 -> uint8
 *   cvt_double_to_fp8(x, sat, interp)         float64 -> uint8
 *   cvt_bfloat16raw_to_fp8(raw, sat, interp)  bfloat16_raw -> uint8
 *   cvt_float_to_e8m0(x, sat, mode)           float32 -> uint8
 *   cvt_double_to_e8m0(x, sat, mode)          float64 -> uint8
 *   cvt_bfloat16raw_to_e8m0(raw, sat, mode)   bfloat16_raw -> uint8
 *   cvt_e8m0_to_bf16raw(bits)                 uint8 -> bfloat16_raw
 *
 * sat is saturation_t.NOSAT (0) or SATFINITE (1), interp
 * fp8_interpretation_t.E4M3 (0) or E5M2 (1), mode cudaRoundMode's
 * cudaRoundZero (1) or cudaRoundPosInf (2), the two cuda_fp8.h accepts
 * (it asserts the others away); each is a constant, as the enum members
 * a kernel names are.  A bfloat16_raw is the namedtuple ty_bf16raw()
 * with the bits in .x.  @njit functions cannot name these (sema_cpu.c
 * refuses cuda.fp8's names first).
 */
#include "sema.h"

static const char *short_name(int in)
{
	return intrin_name[in] + sizeof "cuda.fp8." - 1;
}

static const char *fp8_hint = "an fp8 value only converts: compute in float32 (float32(x)) and convert the "
                              "result back (fp8_e4m3(y))";

Type *type_fp8_conversion(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	Expr *a = e->call.args[0];
	Type *t = a->ty;
	int to = intrin_dtype(in);
	int from_fp8 = t->kind == TY_SCALAR && SK_IS_FP8(t->sk);
	const char *what = from_fp8 ? scalar_info[t->sk].name : scalar_info[to].name;
	if (from_fp8) {
		if (in == IN_BOOL)
			return ty_scalar(SK_BOOL);
		if (in == IN_INT)
			return ty_scalar(SK_I64);
		if (in == IN_FLOAT)
			return ty_scalar(SK_F64);
		if (to >= 0 && SK_IS_FP8(to))
			err_at(c, a->span, "convert through float32: fp8_e4m3(float32(x))",
			       "%s() of a %s is not supported", scalar_info[to].name, what);
		if (to < 0 || scalar_info[to].is_complex)
			err_at(c, a->span, fp8_hint, "%s() of a %s is not supported", intrin_name[in], what);
		return ty_scalar((ScalarKind)to);
	}
	if (!ty_is_number(t) || ty_is_complex(t))
		err_at(c, a->span, "make an fp8 value from a bool, an integer or a float",
		       "%s() of a %s is not supported", what, ty_str_of(c, t));
	return ty_scalar((ScalarKind)to);
}

/* Argument i of call e is a constant among the values allowed (a mask
 * of them); names spells them for the message. */
static void enum_arg(Scope *sc, Expr *e, const char *name, int i, unsigned allowed, const char *names)
{
	Expr *a = e->call.args[i];
	int64_t v;
	if (!const_int_value(a, &v) || v < 0 || v > 31 || !(allowed >> v & 1u))
		err_at(sc->c, a->span, arena_printf(sc->c->arena, "pass %s", names),
		       "argument %d of %s() is %s", i + 1, name,
		       const_int_value(a, &v) ? arena_printf(sc->c->arena, "%lld, which it does not accept", (long long)v)
		                              : "not a constant");
}

Type *type_fp8_intrin(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	const char *name = short_name(in);
	int n = in == IN_FP8_E8M0_TO_BF16RAW ? 1 : 3;
	const char *hint = arena_printf(c->arena, n == 1 ? "call it as %s(bits)" : "call it as %s(x, saturation, mode)",
	                                name);
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, hint, "%s() does not take keyword arguments", name);
	if (e->call.nargs != n)
		err_at(c, e->span, hint, "%s() takes %d argument%s (%d given)", name, n, n == 1 ? "" : "s",
		       e->call.nargs);
	Expr *x = e->call.args[0];
	int raw = in == IN_FP8_BF16RAW_TO_FP8 || in == IN_FP8_BF16RAW_TO_E8M0;
	if (raw && !ty_equal(x->ty, ty_bf16raw(c)))
		err_at(c, x->span, "pass the bfloat16_raw that cvt_e8m0_to_bf16raw returns",
		       "%s() takes a bfloat16_raw, not a %s", name, ty_str_of(c, x->ty));
	if (!raw && (!ty_is_number(x->ty) || ty_is_complex(x->ty)))
		err_at(c, x->span, in == IN_FP8_E8M0_TO_BF16RAW ? "pass the bits as an integer (uint8)"
		                                                : "pass a float (converted to the function's type)",
		       "%s() does not accept a %s argument", name, ty_str_of(c, x->ty));
	if (n == 3) {
		enum_arg(sc, e, name, 1, 3, "saturation_t.NOSAT or saturation_t.SATFINITE");
		if (in == IN_FP8_FLOAT_TO_FP8 || in == IN_FP8_DOUBLE_TO_FP8 || in == IN_FP8_BF16RAW_TO_FP8)
			enum_arg(sc, e, name, 2, 3, "fp8_interpretation_t.E4M3 or fp8_interpretation_t.E5M2");
		else
			enum_arg(sc, e, name, 2, 1u << 1 | 1u << 2,
			         "cudaRoundMode.cudaRoundZero or cudaRoundMode.cudaRoundPosInf: cuda_fp8.h rounds to "
			         "e8m0 toward zero or toward +inf only");
	}
	e->ty = in == IN_FP8_E8M0_TO_BF16RAW ? ty_bf16raw(c) : ty_scalar(SK_U8);
	e->cval = NULL;
	return e->ty;
}

/*
 * sema_fp16.c - typing of cuda.fp16, Numba's half-precision functions:
 *
 *   hadd hsub hmul hdiv (a, b)           float16
 *   hfma (a, b, c)                       float16, rounded once
 *   hneg habs hsqrt hrsqrt hrcp (a)      float16
 *   hsin hcos hexp hexp2 hexp10 (a)      float16
 *   hlog hlog2 hlog10 htanh (a)          float16
 *   hfloor hceil htrunc hrint (a)        float16
 *   hmax hmin (a, b)                     float16; NaN only when both are
 *   __hmax_nan __hmin_nan (a, b)         float16; NaN when either is
 *   heq hne hgt hge hlt hle (a, b)       bool; false when either is NaN
 *   __hequ __hneu __hgtu ... (a, b)      bool; true when either is NaN
 *   __hisnan (a)                         bool
 *   __hisinf (a)                         int32: 1 for +inf, -1 for -inf, else 0
 *
 * Each argument is a real number (or bool), converted to float16 first.
 */
#include "sema.h"

static int fp16_arity(int in)
{
	switch (in) {
	case IN_FP16_HFMA:
		return 3;
	case IN_FP16_HADD: case IN_FP16_HSUB: case IN_FP16_HMUL: case IN_FP16_HDIV:
	case IN_FP16_HMAX: case IN_FP16_HMIN: case IN_FP16_HMAX_NAN: case IN_FP16_HMIN_NAN:
		return 2;
	default:
		return intrin_fp16_compare(in) ? 2 : 1;
	}
}

void sema_check_half_args(Scope *sc, Expr *e, int in, int n, const char *type)
{
	const char *name = intrin_name[in];
	static const char *const params[] = {"a", "a, b", "a, b, c"};
	const char *hint = arena_printf(sc->c->arena, "call it as %s(%s)", name, params[n - 1]);
	if (e->call.nkw)
		err_at(sc->c, e->call.kwargs[0]->span, hint, "%s() does not take keyword arguments", name);
	if (e->call.nargs != n)
		err_at(sc->c, e->span, hint, "%s() takes %d argument%s (%d given)", name, n, n == 1 ? "" : "s",
		       e->call.nargs);
	for (int i = 0; i < n; i++) {
		Expr *a = e->call.args[i];
		if (!ty_is_number(a->ty) || ty_is_complex(a->ty))
			err_at(sc->c, a->span, arena_printf(sc->c->arena, "pass a %s (or another real number, "
			                                    "converted to %s)", type, type),
			       "%s() does not accept a %s argument", name, ty_str_of(sc->c, a->ty));
	}
}

Type *type_fp16_intrin(Scope *sc, Expr *e, int in)
{
	sema_check_half_args(sc, e, in, fp16_arity(in), "float16");
	e->ty = ty_scalar(intrin_fp16_compare(in) || in == IN_FP16_HISNAN ? SK_BOOL :
	                  in == IN_FP16_HISINF ? SK_I32 : SK_F16);
	e->cval = NULL;
	return e->ty;
}

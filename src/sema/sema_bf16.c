/*
 * sema_bf16.c - typing of bfloat16 and of cuda.bf16, Numba's bfloat16
 * functions (the table is BF16_FUNCS in core.h; lower_bf16.c lowers them):
 *
 *   hadd hsub hmul hdiv (+ _rn) (a, b)       bfloat16
 *   hadd_sat hsub_sat hmul_sat (a, b)        bfloat16 clamped to [0, 1]
 *   hfma hfma_sat hfma_relu (a, b, c)        bfloat16
 *   hneg habs (a)                            bfloat16
 *   heq hne hgt hge hlt hle (a, b)           bool; false when either is NaN
 *   hequ hneu hgtu hgeu hltu hleu (a, b)     bool; true when either is NaN
 *   hmax hmin (a, b)                         bfloat16; NaN only when both are
 *   hmax_nan hmin_nan (a, b)                 bfloat16; NaN when either is
 *   hisnan (a) bool, hisinf (a) int32        -1, 1 for -inf, +inf, else 0
 *   htrunc hceil hfloor hrint hsqrt hrsqrt hrcp hlog hlog2 hlog10 hcos
 *   hsin htanh htanh_approx hexp hexp2 hexp10 (a)            bfloat16
 *   <int or float>2bfloat16[_rn|_rz|_rd|_ru] (x)    bfloat16, x converted
 *                                            to the named type first
 *   bfloat162<int or float>[_rn|_rz|_rd|_ru] (a)    that type
 *   bfloat16_as_[u]short, [u]short_as_bfloat16 (x)  the bits
 *
 * The bfloat16 arguments are real numbers converted to bfloat16.  The
 * arithmetic of bfloat16 values (a + b) is in sema_expr.c; this file
 * also says where bfloat16 cannot go.
 */
#include "sema.h"

static const struct { int form, a, b; } bf16_funcs[] = {
#define B(X, name, form, a, b) {form, a, b},
	BF16_FUNCS(B, _)
#undef B
};

int intrin_bf16_form(int in, int *a, int *b)
{
	int k = in - IN_BF16_BEGIN - 1;
	if (a)
		*a = bf16_funcs[k].a;
	if (b)
		*b = bf16_funcs[k].b;
	return bf16_funcs[k].form;
}

static int bf16_arity(int form)
{
	switch (form) {
	case BF_BIN: case BF_SAT: case BF_CMP: case BF_MAX: case BF_MIN: return 2;
	case BF_FMA: return 3;
	default: return 1;
	}
}

void sema_check_bf16_target(Scope *sc, Span sp)
{
	const PjOptions *o = sc->c->opt;
	if (o && o->target_cpu)
		err_at(sc->c, sp, "compute in float32 in @njit functions, or call this from a @cuda.jit kernel",
		       "bfloat16 is a type of CUDA kernels; the CPU target does not support it");
	if (o && o->arch && o->arch < 80)
		err_at(sc->c, sp, "bfloat16 needs compute capability 8.0 or newer (cuda.is_bfloat16_supported()); "
		                  "use float16 or float32 on this device",
		       "bfloat16 is not supported on compute capability %d.%d", o->arch / 10, o->arch % 10);
}

Type *type_bf16_intrin(Scope *sc, Expr *e, int in)
{
	int a, b, form = intrin_bf16_form(in, &a, &b);
	sema_check_half_args(sc, e, in, bf16_arity(form), "bfloat16");
	sema_check_bf16_target(sc, e->span);
	ScalarKind r;
	switch (form) {
	case BF_CMP: case BF_ISNAN: r = SK_BOOL; break;
	case BF_ISINF: r = SK_I32; break;
	case BF_FROM: case BF_AS: r = (ScalarKind)a; break;
	default: r = SK_BF16; break;
	}
	e->ty = ty_scalar(r);
	e->cval = NULL;
	return e->ty;
}

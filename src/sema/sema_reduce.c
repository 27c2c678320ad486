/*
 * sema_reduce.c - whole-array reductions in kernels, as Numba types them:
 * np.sum(a), np.prod(a), np.min(a), np.max(a), np.all(a), np.any(a),
 * np.mean(a) and the methods a.sum() ... a.mean().  None allocates; the
 * result is a scalar:
 *
 *   sum, prod   int64 of signed integers and bool, uint64 of unsigned
 *               ones, the element type of floats and complex numbers
 *   min, max    the element type (not complex: NumPy orders complex
 *               numbers lexicographically, refused here); NaN propagates
 *   all, any    bool
 *   mean        float64 of integers and bool, else the element type
 *   nansum,     as sum and prod (int64 of every integer type), NaNs skipped
 *   nanprod
 *   nanmin,     the element type; NaNs skipped (NaN only when every
 *   nanmax      element is NaN)
 *   nanmean     float64 (complex128 of complex), NaNs skipped
 *   var, std    float64: the mean of |x - mean|^2 (x - mean in the mean's
 *               type, as Numba), and its square root
 *   count_nonzero  int64
 *
 * The axis, dtype and out arguments are refused: kernels reduce along an
 * axis with a loop.
 */
#include <string.h>

#include "sema.h"

static Type *set(Expr *e, Type *t)
{
	e->ty = t;
	e->cval = NULL;
	return t;
}

int sema_reduce_method(const char *name)
{
	static const struct { const char *name; int in; } m[] = {
		{"sum", IN_NP_SUM}, {"prod", IN_NP_PROD}, {"min", IN_NP_AMIN}, {"max", IN_NP_AMAX},
		{"all", IN_NP_ALL}, {"any", IN_NP_ANY}, {"mean", IN_NP_MEAN}, {"var", IN_NP_VAR}, {"std", IN_NP_STD},
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (strcmp(name, m[i].name) == 0)
			return m[i].in;
	return 0;
}

/* the array reduced: a.f() or np.f(a) */
Expr *sema_reduced_array(Expr *e)
{
	Expr *fn = e->call.fn;
	if (fn->kind == E_ATTR && fn->attr.obj->ty && fn->attr.obj->ty->kind == TY_ARRAY)
		return fn->attr.obj;
	return e->call.nargs ? e->call.args[0] : NULL;
}

Type *sema_reduce(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	const char *f = intrin_name[in] + strlen("numpy.");
	Expr *fn = e->call.fn;
	int method = fn->kind == E_ATTR && fn->attr.obj->ty && fn->attr.obj->ty->kind == TY_ARRAY;
	int want = method ? 0 : 1;
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, "reduce along an axis with a loop over the other axes",
		       "%s() takes no %s argument in kernels", f, e->call.kwnames[0]);
	if (e->call.nargs != want)
		err_at(c, e->call.nargs > want ? e->call.args[want]->span : e->span,
		       "reduce along an axis with a loop over the other axes",
		       method ? "a.%s() takes no arguments in kernels" : "np.%s() takes one array in kernels", f);
	Expr *a = sema_reduced_array(e);
	Type *at = a->ty;
	if (at->kind != TY_ARRAY)
		err_at(c, a->span, "pass an array (the reduction of a scalar is the scalar itself)",
		       "np.%s() of %s is not supported in kernels", f, ty_str_of(c, at));
	Type *el = at->elem;
	if (el->kind != TY_SCALAR || !ty_is_number(el))
		err_at(c, a->span, "reduce an array of numbers", "np.%s() of an array of %s is not supported",
		       f, ty_str_of(c, el));
	ScalarKind sk = el->sk;
	switch (in) {
	case IN_NP_NANSUM: case IN_NP_NANPROD:
		if (sk == SK_BOOL || scalar_info[sk].is_int)
			return set(e, ty_scalar(SK_I64));
		return set(e, ty_scalar(sk == SK_F16 ? SK_F32 : sk));
	case IN_NP_NANMEAN:
		return set(e, ty_scalar(scalar_info[sk].is_complex ? SK_C128 : SK_F64));
	case IN_NP_VAR: case IN_NP_STD:
		return set(e, ty_scalar(SK_F64));
	case IN_NP_COUNT_NONZERO:
		return set(e, ty_scalar(SK_I64));
	case IN_NP_SUM: case IN_NP_PROD:
		if (sk == SK_BOOL || (scalar_info[sk].is_int && scalar_info[sk].is_signed))
			return set(e, ty_scalar(SK_I64));
		if (scalar_info[sk].is_int)
			return set(e, ty_scalar(SK_U64));
		return set(e, ty_scalar(sk == SK_F16 ? SK_F32 : sk));
	case IN_NP_AMIN: case IN_NP_AMAX: case IN_NP_NANMIN: case IN_NP_NANMAX:
		if (scalar_info[sk].is_complex)
			err_at(c, a->span, "reduce the real parts (a.real) or the magnitudes yourself",
			       "np.%s() of a complex array is not supported in kernels", f);
		return set(e, ty_scalar(sk));
	case IN_NP_ALL: case IN_NP_ANY:
		return set(e, ty_scalar(SK_BOOL));
	case IN_NP_MEAN:
		if (sk == SK_BOOL || scalar_info[sk].is_int)
			return set(e, ty_scalar(SK_F64));
		return set(e, ty_scalar(sk == SK_F16 ? SK_F32 : sk));
	default:
		ICE(c, "reduction %s", intrin_name[in]);
	}
}

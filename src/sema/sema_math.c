/*
 * sema_math.c - typing of the math library's intrinsics (IN_MATH_ACOS ..
 * IN_NP_LCM): the functions of math and cmath and NumPy's ufuncs called
 * on scalars, with Numba's rules (numba.cuda's cudamath.py and
 * cmathdecl.py, and the loop choice of Numba's ufunc database):
 *
 *   math.f(x)         float32 -> float32, float64 -> float64, integers
 *                     and bool -> float64 (float16 computes as float32)
 *   math.f(x, y)      float32 when both are float32, else float64
 *                     (atan2, hypot, copysign, fmod, remainder,
 *                     nextafter, pow; pow(x, int) keeps x's float type)
 *   math.log(x, b)    log(x) / log(b), typed as a binary function
 *   isnan/isinf/isfinite   bool; of an integer a constant
 *   frexp(x)          (float, int32); modf(x) (float, float);
 *   ldexp(x, n)       x's float type, n an integer
 *   numpy.f(x[, y])   NumPy's ufuncs: the results of the loop that Numba
 *                     picks for the arguments' types (ufunc.c):
 *                     np.add(uint8, uint8) is a uint8, np.sqrt(int8) a
 *                     float32, np.less(int64, uint64) compares exactly
 *   cmath.f(z)        complex64 for complex64 and float32 (and smaller)
 *                     arguments, else complex128; phase and polar give
 *                     floats, rect(r, phi) a complex, isnan/isinf/isfinite
 *                     bool
 *
 *   numpy.f(x[, y], out[, out2])   with output arrays: elementwise
 *                     over the outputs' shape, the inputs (scalars or
 *                     arrays) broadcast to it; the loop is chosen as NumPy
 *                     does with explicit outputs (its results must cast
 *                     "same_kind" to them); the call's value is the output
 *                     array (a tuple of both for frexp, modf, divmod)
 *
 * Arguments are positional (Numba takes no keywords here).  A NumPy ufunc
 * of an array without an output array is refused with a hint: kernels
 * cannot allocate its result.
 */
#include <string.h>

#include "sema.h"

enum {
	TK_F1,        /* math: unary float */
	TK_F2,        /* math: binary float */
	TK_POWM,      /* math.pow */
	TK_LOGM,      /* math.log(x[, base]) */
	TK_PRED,      /* isnan, isinf, isfinite: bool */
	TK_FREXP,
	TK_MODF,
	TK_LDEXP,
	TK_C1,        /* cmath: complex -> complex */
	TK_CLOG,      /* cmath.log(z[, base]) */
	TK_CPRED,     /* cmath: bool */
	TK_CPHASE,    /* cmath.phase: float */
	TK_CPOLAR,    /* cmath.polar: (float, float) */
	TK_CRECT,     /* cmath.rect(r, phi): complex */
};

static int kind_of(int in)
{
	switch (in) {
	case IN_MATH_ATAN2: case IN_MATH_HYPOT: case IN_MATH_COPYSIGN: case IN_MATH_FMOD:
	case IN_MATH_REMAINDER: case IN_MATH_NEXTAFTER:
		return TK_F2;
	case IN_MATH_POW: return TK_POWM;
	case IN_MATH_LOG: return TK_LOGM;
	case IN_MATH_ISNAN: case IN_MATH_ISINF: case IN_MATH_ISFINITE:
		return TK_PRED;
	case IN_MATH_FREXP: return TK_FREXP;
	case IN_MATH_MODF: return TK_MODF;
	case IN_MATH_LDEXP: return TK_LDEXP;
	case IN_CMATH_ISFINITE: case IN_CMATH_ISINF: case IN_CMATH_ISNAN: return TK_CPRED;
	case IN_CMATH_PHASE: return TK_CPHASE;
	case IN_CMATH_POLAR: return TK_CPOLAR;
	case IN_CMATH_RECT: return TK_CRECT;
	case IN_CMATH_LOG: return TK_CLOG;
	default:
		if (in >= IN_CMATH_ACOS && in <= IN_CMATH_TANH)
			return TK_C1;
		return TK_F1;
	}
}

static Type *set(Expr *e, Type *t, Const *cv)
{
	e->ty = t;
	e->cval = cv;
	return t;
}

static const char *fname(int in)
{
	return intrin_name[in];
}

static const char *tstr(Scope *sc, const Type *t)
{
	return ty_str_of(sc->c, t);
}

static int is_bool(const Type *t)
{
	return t && t->kind == TY_SCALAR && t->sk == SK_BOOL;
}

static int is_intlike(const Type *t)
{
	return ty_is_int(t) || is_bool(t);
}

static void arity(Scope *sc, Expr *e, int in, int lo, int hi)
{
	int n = e->call.nargs;
	if (e->call.nkw)
		err_at(sc->c, e->call.kwargs[0]->span, "pass the arguments by position",
		       "%s() does not take keyword arguments in kernels", fname(in));
	if (n >= lo && n <= hi)
		return;
	if (ufunc_loops(in) && n > hi + ufunc_nout(in))
		err_at(sc->c, e->call.args[hi + ufunc_nout(in)]->span,
		       arena_printf(sc->c->arena, "pass %d input%s, then %s", hi, hi == 1 ? "" : "s",
		                    ufunc_nout(in) == 1 ? "an output array" : "the output arrays"),
		       "%s() takes %d argument%s in kernels (%d given)", fname(in), hi + ufunc_nout(in),
		       hi + ufunc_nout(in) == 1 ? "" : "s", n);
	const char *hint = arena_printf(sc->c->arena, "call it as %s(%s)", fname(in),
	                                hi == 1 ? "x" : lo == 1 ? "x[, base]" : "x, y");
	if (lo == hi)
		err_at(sc->c, e->span, hint, "%s() takes %d argument%s (%d given)", fname(in), lo, lo == 1 ? "" : "s", n);
	err_at(sc->c, e->span, hint, "%s() takes %d or %d arguments (%d given)", fname(in), lo, hi, n);
}

/* a real (or, when complex_ok, complex) number argument */
static Type *number(Scope *sc, int in, Expr *a, int complex_ok)
{
	Type *t = a->ty;
	if (t->kind == TY_ARRAY && ufunc_loops(in))
		err_at(sc->c, a->span,
		       arena_printf(sc->c->arena, "pass an output array as the last argument (%s(..., out)), "
		                    "or call it on each element", fname(in)),
		       "%s() of an array needs an output array in kernels: they cannot allocate its result",
		       fname(in));
	if (!ty_is_number(t) || (!complex_ok && ty_is_complex(t)))
		err_at(sc->c, a->span,
		       ty_is_complex(t) ? "use the cmath module for complex numbers" : "pass a number",
		       "%s() does not accept a %s argument", fname(in), tstr(sc, t));
	return t;
}

static Type *f32_or_f64(Type *t)
{
	return ty_scalar(t->sk == SK_F32 || t->sk == SK_F16 || t->sk == SK_BF16 ? SK_F32 : SK_F64);
}

/* math: float32 stays, everything else computes in float64 */
static Type *math_type(Type *t)
{
	return f32_or_f64(t);
}

/* A float16 stays a float16 through the functions that Numba routes to
 * CUDA's half-precision ones, and a bfloat16 a bfloat16 through those
 * numba.cuda.bf16 overloads (the others compute it as a float32). */
static Type *math1_type(int in, Type *t)
{
	switch (in) {
	case IN_MATH_SIN: case IN_MATH_COS: case IN_MATH_TANH: case IN_MATH_EXP: case IN_MATH_EXP2:
	case IN_MATH_LOG: case IN_MATH_LOG2: case IN_MATH_LOG10:
		if (t->sk == SK_F16 || (t->sk == SK_BF16 && in != IN_MATH_LOG2))
			return t;
		break;
	}
	return math_type(t);
}

/* cmath: complex64 for float32 and the integers that fit it exactly */
static Type *complex_of(Type *t)
{
	if (ty_is_complex(t))
		return t;
	switch (t->sk) {
	case SK_F16: case SK_F32: case SK_BOOL: case SK_I8: case SK_U8: case SK_I16: case SK_U16:
		return ty_scalar(SK_C64);
	default:
		return ty_scalar(SK_C128);
	}
}

static Const *bool_const(Ctx *c, int v)
{
	Const *k = new_const(c, PJ_V_BOOL, ty_scalar(SK_BOOL));
	k->i = v != 0;
	return k;
}

static Type *pair(Scope *sc, Type *a, Type *b)
{
	Type **el = arena_alloc(sc->c->arena, sizeof(Type *) * 2);
	el[0] = a;
	el[1] = b;
	return ty_tuple(sc->c, 2, el);
}

/* The element kind of argument a of a ufunc with output arrays: a number
 * or an array of numbers (its ndim the most in *nd) */
static ScalarKind elem_kind(Scope *sc, int in, Expr *a, int *nd)
{
	Type *t = a->ty;
	if (t->kind != TY_ARRAY)
		return number(sc, in, a, 1)->sk;
	if (t->elem->kind != TY_SCALAR || !ty_is_number(t->elem))
		err_at(sc->c, a->span, "pass an array of numbers",
		       "%s() does not accept an array of %s", fname(in), tstr(sc, t->elem));
	if (t->ndim > *nd)
		*nd = t->ndim;
	return t->elem->sk;
}

/* np.f(x[, y], out[, out2]): elementwise into the output arrays */
static Type *type_ufunc_out(Scope *sc, Expr *e, int in, int nin, int nout)
{
	Ctx *c = sc->c;
	Expr **a = e->call.args;
	ScalarKind k[2], ok[2];
	int nd = 0;
	UfuncLoop lp;
	for (int i = 0; i < nin; i++)
		k[i] = elem_kind(sc, in, a[i], &nd);
	for (int j = 0; j < nout; j++) {
		Expr *o = a[nin + j];
		Type *t = o->ty;
		if (t->kind != TY_ARRAY)
			err_at(c, o->span, arena_printf(c->arena, "pass %d input%s, then %s", nin, nin == 1 ? "" : "s",
			                                nout == 1 ? "an output array" : "the output arrays"),
			       "the output of %s() must be an array, not %s", fname(in), tstr(sc, t));
		if (t->readonly)
			err_at(c, o->span, "pass a writable array", "the output of %s() is a read-only array", fname(in));
		if (t->elem->kind != TY_SCALAR || !ty_is_number(t->elem))
			err_at(c, o->span, "pass an array of numbers", "%s() cannot write into an array of %s",
			       fname(in), tstr(sc, t->elem));
		if (t->ndim < nd)
			err_at(c, o->span, "give the output array as many dimensions as the inputs",
			       "the output of %s() has %d dimension%s, an input %d", fname(in), t->ndim,
			       t->ndim == 1 ? "" : "s", nd);
		if (j && t->ndim != a[nin]->ty->ndim)
			err_at(c, o->span, "give both outputs the same shape",
			       "the outputs of %s() differ in dimensions", fname(in));
		ok[j] = t->elem->sk;
	}
	if (!ufunc_loop_out(in, nin, k, nout, ok, &lp)) {
		const char *ins = nin == 1 ? scalar_info[k[0]].name
		                           : arena_printf(c->arena, "%s and %s", scalar_info[k[0]].name, scalar_info[k[1]].name);
		const char *outs = nout == 1 ? scalar_info[ok[0]].name
		                             : arena_printf(c->arena, "%s and %s", scalar_info[ok[0]].name, scalar_info[ok[1]].name);
		err_at(c, e->span, "give the output array a dtype that the result casts to (NumPy's casting=\"same_kind\")",
		       "%s() of %s cannot write into %s output", fname(in), ins, outs);
	}
	if (nout == 1)
		return set(e, a[nin]->ty, NULL);
	return set(e, pair(sc, a[nin]->ty, a[nin + 1]->ty), NULL);
}

/* A NumPy ufunc on scalars: the results of the loop Numba picks; the
 * tests of an integer (isnan, isinf, isfinite) are constants.  With
 * output arrays: type_ufunc_out. */
Type *type_ufunc(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	Expr **a = e->call.args;
	int nin = ufunc_nin(in);
	if (!e->call.nkw && e->call.nargs == nin + ufunc_nout(in))
		return type_ufunc_out(sc, e, in, nin, ufunc_nout(in));
	ScalarKind k[2];
	UfuncLoop lp;
	arity(sc, e, in, nin, nin);
	for (int i = 0; i < nin; i++)
		k[i] = number(sc, in, a[i], 1)->sk;
	if (!ufunc_loop(in, nin, k, &lp)) {
		const char *t0 = ufunc_takes(in, 0);
		if (nin == 1)
			err_at(c, a[0]->span, arena_printf(c->arena, "%s() takes %s", fname(in), t0),
			       "%s() does not support a %s argument", fname(in), scalar_info[k[0]].name);
		const char *t1 = ufunc_takes(in, 1);
		err_at(c, e->span,
		       strcmp(t0, t1) == 0 ? arena_printf(c->arena, "%s() takes %s", fname(in), t0)
		                           : arena_printf(c->arena, "%s() takes %s, then %s", fname(in), t0, t1),
		       "%s() does not support %s and %s", fname(in), scalar_info[k[0]].name, scalar_info[k[1]].name);
	}
	Type *t = ty_scalar(lp.out[0]);
	if (lp.nout == 2)
		t = pair(sc, t, ty_scalar(lp.out[1]));
	if ((in == IN_NP_ISNAN || in == IN_NP_ISINF || in == IN_NP_ISFINITE) && is_intlike(a[0]->ty))
		return set(e, t, bool_const(c, in == IN_NP_ISFINITE));
	return set(e, t, NULL);
}

Type *type_math_intrin(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	Expr **a = e->call.args;
	Type *t, *u;
	if (ufunc_loops(in))
		return type_ufunc(sc, e, in);
	switch (kind_of(in)) {
	case TK_F1:
		arity(sc, e, in, 1, 1);
		return set(e, math1_type(in, number(sc, in, a[0], 0)), NULL);
	case TK_F2:
		arity(sc, e, in, 2, 2);
		t = number(sc, in, a[0], 0);
		u = number(sc, in, a[1], 0);
		return set(e, math_type(t)->sk == SK_F32 && math_type(u)->sk == SK_F32 ? ty_scalar(SK_F32)
		                                                                         : ty_scalar(SK_F64), NULL);
	case TK_POWM:
		arity(sc, e, in, 2, 2);
		t = number(sc, in, a[0], 0);
		u = number(sc, in, a[1], 0);
		if (ty_is_float(t) && is_intlike(u))
			return set(e, math_type(t), NULL);
		return set(e, math_type(t)->sk == SK_F32 && math_type(u)->sk == SK_F32 ? ty_scalar(SK_F32)
		                                                                         : ty_scalar(SK_F64), NULL);
	case TK_LOGM:
		arity(sc, e, in, 1, 2);
		t = number(sc, in, a[0], 0);
		if (e->call.nargs == 1)
			return set(e, math1_type(in, t), NULL);
		t = math_type(t);
		if (math_type(number(sc, in, a[1], 0))->sk != SK_F32)
			t = ty_scalar(SK_F64);
		return set(e, t, NULL);
	case TK_PRED:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], 0);
		if (is_intlike(t))
			return set(e, ty_scalar(SK_BOOL), bool_const(c, in == IN_MATH_ISFINITE));
		return set(e, ty_scalar(SK_BOOL), NULL);
	case TK_FREXP:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], 0);
		return set(e, pair(sc, math_type(t), ty_scalar(SK_I32)), NULL);
	case TK_MODF:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], 0);
		t = math_type(t);
		return set(e, pair(sc, t, t), NULL);
	case TK_LDEXP:
		arity(sc, e, in, 2, 2);
		t = number(sc, in, a[0], 0);
		u = number(sc, in, a[1], 0);
		if (!is_intlike(u))
			err_at(c, a[1]->span, "the exponent is an integer", "%s() needs an integer exponent, not %s",
			       fname(in), tstr(sc, u));
		return set(e, math_type(t), NULL);
	case TK_C1:
		arity(sc, e, in, 1, 1);
		return set(e, complex_of(number(sc, in, a[0], 1)), NULL);
	case TK_CLOG:
		arity(sc, e, in, 1, 2);
		t = complex_of(number(sc, in, a[0], 1));
		if (e->call.nargs == 2 && complex_of(number(sc, in, a[1], 1))->sk != SK_C64)
			t = ty_scalar(SK_C128);
		return set(e, t, NULL);
	case TK_CPRED:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], 1);
		if (is_intlike(t))
			return set(e, ty_scalar(SK_BOOL), bool_const(c, in == IN_CMATH_ISFINITE));
		return set(e, ty_scalar(SK_BOOL), NULL);
	case TK_CPHASE:
		arity(sc, e, in, 1, 1);
		t = complex_of(number(sc, in, a[0], 1));
		return set(e, ty_scalar(t->sk == SK_C64 ? SK_F32 : SK_F64), NULL);
	case TK_CPOLAR:
		arity(sc, e, in, 1, 1);
		t = complex_of(number(sc, in, a[0], 1));
		t = ty_scalar(t->sk == SK_C64 ? SK_F32 : SK_F64);
		return set(e, pair(sc, t, t), NULL);
	case TK_CRECT:
		arity(sc, e, in, 2, 2);
		t = math_type(number(sc, in, a[0], 0));
		u = math_type(number(sc, in, a[1], 0));
		return set(e, ty_scalar(t->sk == SK_F32 && u->sk == SK_F32 ? SK_C64 : SK_C128), NULL);
	default:
		ICE(c, "math intrinsic %s has no typing", fname(in));
	}
}

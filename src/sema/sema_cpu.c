/*
 * sema_cpu.c - what the CPU target (@njit, PjOptions.target_cpu) adds to
 * typing: the NumPy functions that create arrays, and the refusal of the
 * CUDA-only intrinsics in a CPU function.
 *
 *   np.empty(shape, dtype=np.float64), np.zeros, np.ones
 *                       shape an int (1-d) or a tuple of ints; the result
 *                       is a new C-contiguous array
 *   np.empty_like(a, dtype=None), np.zeros_like, np.ones_like
 *                       a's shape, a's dtype unless one is given
 *   np.copy(a), a.copy()   a C-contiguous copy
 *   np.arange(stop), (start, stop), (start, stop, step), dtype=
 *                       int64 when every bound is an integer, else float64
 *
 * Lowering (src/ir/lower_cpu.c) allocates with O_ALLOC, which only the C
 * back end and the simulator implement: a CUDA kernel that calls one of
 * these gets an error that names cuda.local.array instead.
 */
#include <string.h>

#include "sema.h"

static int cpu(Scope *sc)
{
	return sc->c->opt && sc->c->opt->target_cpu;
}

static Type *set(Expr *e, Type *t)
{
	e->ty = t;
	e->cval = NULL;
	return t;
}

static const char *fname(int in)
{
	return in == IN_ARRAY_COPY ? "array.copy" : intrin_name[in];
}

/* Puts keyword arguments into positional places; names[i] is parameter i. */
static void place(Scope *sc, Expr *e, int in, const char *const *names, int nnames, int required)
{
	Ctx *c = sc->c;
	int n = e->call.nargs;
	if (n > nnames)
		err_at(c, e->span, NULL, "%s() takes at most %d arguments (%d given)", fname(in), nnames, n);
	Expr **args = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(nnames + 1));
	for (int i = 0; i < n; i++)
		args[i] = e->call.args[i];
	for (int k = 0; k < e->call.nkw; k++) {
		int j = -1;
		for (int i = 0; i < nnames; i++)
			if (strcmp(names[i], e->call.kwnames[k]) == 0)
				j = i;
		if (j < 0)
			err_at(c, e->call.kwargs[k]->span, NULL, "%s() got an unexpected keyword argument '%s'", fname(in),
			       e->call.kwnames[k]);
		if (args[j])
			err_at(c, e->call.kwargs[k]->span, NULL, "%s() got multiple values for argument '%s'", fname(in),
			       names[j]);
		args[j] = e->call.kwargs[k];
	}
	int last = 0;
	for (int i = 0; i < nnames; i++)
		if (args[i])
			last = i + 1;
	for (int i = 0; i < required; i++)
		if (!args[i])
			err_at(c, e->span, NULL, "%s() missing required argument '%s'", fname(in), names[i]);
	for (int i = 0; i < last; i++)
		if (!args[i])
			err_at(c, e->span, NULL, "%s() missing argument '%s'", fname(in), names[i]);
	e->call.args = args;
	e->call.nargs = last;
	e->call.nkw = 0;
}

/* The scalar kind a dtype argument names (None: dflt). */
static ScalarKind dtype_arg(Scope *sc, Expr *a, ScalarKind dflt)
{
	Type *t = a ? a->ty : NULL;
	if (!t || t->kind == TY_NONE)
		return dflt;
	if (t->kind == TY_DTYPE && (int)t->sk >= 0 && t->sk < NSK && !t->elem)
		return t->sk;
	if (t->kind == TY_INTRIN) {
		int sk = intrin_dtype(t->intrin);
		if (sk >= 0)
			return (ScalarKind)sk;
		if (t->intrin == IN_FLOAT)
			return SK_F64;
		if (t->intrin == IN_INT)
			return SK_I64;
		if (t->intrin == IN_BOOL)
			return SK_BOOL;
		if (t->intrin == IN_COMPLEX)
			return SK_C128;
	}
	if (t->kind == TY_STR && a->cval && a->cval->s) {
		int sk = (int)ty_sk_from_name(a->cval->s);
		if (strcmp(a->cval->s, "float") == 0)
			sk = SK_F64;
		else if (strcmp(a->cval->s, "int") == 0)
			sk = SK_I64;
		if (sk >= 0)
			return (ScalarKind)sk;
	}
	err_at(sc->c, a->span, "give a dtype such as np.float64, np.int32 or the string 'float32'",
	       "%s is not a dtype an array can have", ty_str_of(sc->c, t));
}

/* The number of dimensions a shape argument gives: an int, or a tuple of ints. */
static int shape_ndim(Scope *sc, Expr *a, int in)
{
	Type *t = a->ty;
	if (ty_is_int(t) || (t->kind == TY_SCALAR && t->sk == SK_BOOL))
		return 1;
	if (t->kind == TY_TUPLE && t->n >= 1 && t->n <= 8) {
		for (int i = 0; i < t->n; i++)
			if (!ty_is_int(t->elts[i]))
				goto bad;
		return t->n;
	}
bad:
	err_at(sc->c, a->span, "give the shape as an int or a tuple of 1 to 8 ints, such as (n, m)",
	       "the shape given to %s() must be an int or a tuple of ints, not %s", fname(in),
	       ty_str_of(sc->c, t));
}

static Type *array_arg(Scope *sc, Expr *a, int in)
{
	if (!a->ty || a->ty->kind != TY_ARRAY)
		err_at(sc->c, a->span, "pass an array", "%s() takes an array, not %s", fname(in),
		       a->ty ? ty_str_of(sc->c, a->ty) : "this");
	if (!a->ty->elem || a->ty->elem->kind != TY_SCALAR)
		err_at(sc->c, a->span, "use an array of numbers", "%s() of an array of records is not supported",
		       fname(in));
	return a->ty;
}

static Type *new_array(Scope *sc, ScalarKind sk, int ndim)
{
	return ty_array(sc->c, sk, ndim, LAYOUT_C, SP_GLOBAL, 0);
}

Type *type_cpu_call(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	if (!cpu(sc))
		err_at(c, e->span,
		       "a CUDA kernel cannot allocate: use cuda.local.array(shape, dtype) for a per-thread array, "
		       "cuda.shared.array for a per-block one, or pass an array argument",
		       "%s() is supported in @njit functions only, not in CUDA kernels", fname(in));
	switch (in) {
	case IN_NP_EMPTY:
	case IN_NP_ZEROS:
	case IN_NP_ONES: {
		static const char *const names[] = {"shape", "dtype"};
		place(sc, e, in, names, 2, 1);
		int nd = shape_ndim(sc, e->call.args[0], in);
		return set(e, new_array(sc, dtype_arg(sc, e->call.nargs > 1 ? e->call.args[1] : NULL, SK_F64), nd));
	}
	case IN_NP_EMPTY_LIKE:
	case IN_NP_ZEROS_LIKE:
	case IN_NP_ONES_LIKE: {
		static const char *const names[] = {"a", "dtype"};
		place(sc, e, in, names, 2, 1);
		Type *at = array_arg(sc, e->call.args[0], in);
		ScalarKind sk = dtype_arg(sc, e->call.nargs > 1 ? e->call.args[1] : NULL, at->elem->sk);
		return set(e, new_array(sc, sk, at->ndim));
	}
	case IN_NP_COPY: {
		static const char *const names[] = {"a"};
		place(sc, e, in, names, 1, 1);
		Type *at = array_arg(sc, e->call.args[0], in);
		return set(e, new_array(sc, at->elem->sk, at->ndim));
	}
	case IN_ARRAY_COPY: {
		if (e->call.nargs || e->call.nkw)
			err_at(c, e->span, "call a.copy() without arguments", "array.copy() takes no arguments here");
		Expr *fn = e->call.fn;
		if (fn->kind != E_ATTR)
			ICE(c, "array.copy without its array");
		Type *at = array_arg(sc, fn->attr.obj, in);
		return set(e, new_array(sc, at->elem->sk, at->ndim));
	}
	case IN_NP_ARANGE: {
		static const char *const names[] = {"start", "stop", "step", "dtype"};
		place(sc, e, in, names, 4, 1);
		int nb = e->call.nargs > 3 ? 3 : e->call.nargs;
		int allint = 1;
		for (int i = 0; i < nb; i++) {
			Expr *a = e->call.args[i];
			if (!a)
				continue;
			if (a->ty->kind == TY_NONE && i > 0)
				continue;
			if (!ty_is_number(a->ty) || ty_is_complex(a->ty))
				err_at(c, a->span, "np.arange takes ints or floats", "np.arange() does not take %s",
				       ty_str_of(c, a->ty));
			if (!ty_is_int(a->ty) && a->ty->sk != SK_BOOL)
				allint = 0;
		}
		ScalarKind d = allint ? SK_I64 : SK_F64;
		return set(e, new_array(sc, dtype_arg(sc, e->call.nargs > 3 ? e->call.args[3] : NULL, d), 1));
	}
	default:
		ICE(c, "type_cpu_call of %s", fname(in));
	}
}

void sema_cpu_refuse(Scope *sc, Expr *e, int in)
{
	if (!cpu(sc) || in <= IN_NONE || in >= NINTRIN || strncmp(intrin_name[in], "cuda.", 5) != 0)
		return;
	err_at(sc->c, e->span, "an @njit function runs on the CPU, one call at a time; write a @cuda.jit kernel "
	                       "for thread indices, shared memory, barriers and atomics",
	       "%s exists only in CUDA kernels, not in @njit functions", intrin_name[in]);
}

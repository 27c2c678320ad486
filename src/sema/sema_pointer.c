/*
 * sema_pointer.c - the typing of pointers (TY_POINTER, Numba's CPointer):
 *
 *   p[i], p[i] = v, p[i] += v    an element of the pointer's type; i one
 *                                integer (no slices, no wraparound: C's p[i])
 *   carray(p, shape, dtype=None) an array of p's element type and layout C
 *   farray(p, shape, dtype=None) (F) over the memory p points to; shape is an
 *                                integer or a tuple of them; a dtype given
 *                                must be p's element type (Numba's rule)
 *   ffi.from_buffer(a)           a pointer to a's first element; a is an
 *                                array of numbers, C-contiguous (or F of 1d)
 *
 * Pointers come from signatures ("void(int32*, int32)"), from
 * ffi.from_buffer and from external functions (cuda.declare_device); they
 * pass to device functions and external functions.  Pointer arithmetic is
 * not typed: Numba's CUDA target has none.
 */
#include <string.h>

#include "sema.h"

static Type *set(Expr *e, Type *t)
{
	e->ty = t;
	e->cval = NULL;
	return t;
}

static int is_int(const Type *t)
{
	return t && t->kind == TY_SCALAR && scalar_info[t->sk].is_int;
}

static const char *const index_hint = "index a pointer with one integer, p[i], or view it as an array first: "
                                      "carray(p, n)[a:b]";

static void check_index(Scope *sc, Type *pt, Expr *index)
{
	if (index->kind == E_SLICE || index->kind == E_TUPLE)
		err_at(sc->c, index->span, index_hint, "a pointer (%s) takes one integer index, not %s",
		       ty_str_of(sc->c, pt), index->kind == E_SLICE ? "a slice" : "several");
	Type *it = type_expr(sc, index);
	if (it && !is_int(it))
		err_at(sc->c, index->span, index_hint, "a pointer index must be an integer, not %s",
		       ty_str_of(sc->c, it));
}

Type *sema_pointer_index(Scope *sc, Expr *e, Type *pt)
{
	check_index(sc, pt, e->sub.index);
	return set(e, pt->elem);
}

void sema_pointer_store(Scope *sc, Expr *target, Type *pt, Type *vt, Expr *value)
{
	check_index(sc, pt, target->sub.index);
	target->ty = pt->elem;
	target->cval = NULL;
	if (vt)
		storable_type(sc, pt->elem, vt, value ? value->span : target->span,
		              arena_printf(sc->c->arena, "an element of %s", ty_str_of(sc->c, pt)));
}

/* The scalar kind a dtype argument names (np.float32, float32, "float32"), or -1. */
static int dtype_kind(Expr *a)
{
	Type *t = a->ty;
	if (t->kind == TY_DTYPE && !t->elem && (int)t->sk >= 0 && t->sk < NSK)
		return (int)t->sk;
	if (t->kind == TY_INTRIN)
		return intrin_dtype(t->intrin);
	if (a->cval && a->cval->kind == PJ_V_STR)
		return (int)ty_sk_from_name(a->cval->s);
	return -1;
}

/* carray(ptr, shape, dtype=None) and farray: the arguments as [ptr, shape]
 * (a dtype checked and dropped) */
static Type *type_cfarray(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	const char *fname = in == IN_CARRAY ? "carray" : "farray";
	Expr *arg[3] = {NULL, NULL, NULL};
	static const char *const names[3] = {"ptr", "shape", "dtype"};
	if (e->call.nargs > 3)
		err_at(c, e->call.args[3]->span, "call it as carray(ptr, shape, dtype=None)",
		       "%s() takes at most 3 arguments (ptr, shape, dtype)", fname);
	for (int i = 0; i < e->call.nargs; i++)
		arg[i] = e->call.args[i];
	for (int k = 0; k < e->call.nkw; k++) {
		int j = 0;
		while (j < 3 && strcmp(names[j], e->call.kwnames[k]) != 0)
			j++;
		if (j == 3 || arg[j])
			err_at(c, e->call.kwargs[k]->span, "call it as carray(ptr, shape, dtype=None)",
			       "%s() got %s argument '%s'", fname, j == 3 ? "an unexpected" : "a second", e->call.kwnames[k]);
		arg[j] = e->call.kwargs[k];
		type_expr(sc, arg[j]);
	}
	if (!arg[0] || !arg[1])
		err_at(c, e->span, "call it as carray(ptr, shape, dtype=None)", "%s() needs a pointer and a shape", fname);
	Type *pt = arg[0]->ty, *st = arg[1]->ty;
	if (pt->kind != TY_POINTER)
		err_at(c, arg[0]->span, "pass a pointer: a pointer argument (int32*) or ffi.from_buffer(a)",
		       "pointer argument expected, got '%s'", ty_str_of(c, pt));
	int nd = 1;
	if (st->kind == TY_TUPLE) {
		nd = st->n;
		for (int i = 0; i < st->n; i++)
			if (!is_int(st->elts[i]))
				nd = -1;
	} else if (!is_int(st))
		nd = -1;
	if (nd < 1 || nd > 8)
		err_at(c, arg[1]->span, "give the shape as an integer or a tuple of 1 to 8 integers",
		       "invalid shape '%s'", ty_str_of(c, st));
	if (arg[2] && !(arg[2]->ty && arg[2]->ty->kind == TY_NONE)) {
		int sk = dtype_kind(arg[2]);
		if (sk < 0)
			err_at(c, arg[2]->span, "pass a number type: dtype=np.float32", "invalid dtype spec '%s'",
			       ty_str_of(c, arg[2]->ty));
		if (!ty_equal(ty_scalar((ScalarKind)sk), pt->elem))
			err_at(c, arg[2]->span, "leave dtype out, or give the pointer's own element type",
			       "mismatching dtype '%s' for pointer type '%s'", scalar_info[sk].name, ty_str_of(c, pt));
	}
	e->call.args = arena_alloc(c->arena, 2 * sizeof(Expr *));
	e->call.args[0] = arg[0];
	e->call.args[1] = arg[1];
	e->call.nargs = 2;
	e->call.nkw = 0;
	return set(e, ty_array_of(c, pt->elem, nd, in == IN_CARRAY ? LAYOUT_C : LAYOUT_F, SP_GLOBAL, 0));
}

static Type *type_from_buffer(Scope *sc, Expr *e)
{
	Ctx *c = sc->c;
	if (e->call.nargs != 1 || e->call.nkw)
		err_at(c, e->span, "call it as ffi.from_buffer(a)", "ffi.from_buffer() takes one array");
	Expr *a = e->call.args[0];
	Type *at = a->ty;
	if (at->kind != TY_ARRAY)
		err_at(c, a->span, "pass an array", "from_buffer() expected a buffer object, got %s", ty_str_of(c, at));
	if (at->elem->kind != TY_SCALAR)
		err_at(c, a->span, "pass an array of numbers", "from_buffer() of an array of records is not supported");
	if (at->layout != LAYOUT_C && at->layout != LAYOUT_F)
		err_at(c, a->span, "pass a contiguous array (float32[::1] types one)",
		       "from_buffer() unsupported on non-contiguous buffers (got %s)", ty_str_of(c, at));
	if (at->layout == LAYOUT_F && at->ndim > 1)
		err_at(c, a->span, "pass a C-contiguous array",
		       "from_buffer() only supports multidimensional arrays with C layout (got %s)", ty_str_of(c, at));
	if (at->space != SP_GLOBAL)
		err_at(c, a->span, "pass an array in global memory (an argument)",
		       "from_buffer() of a shared, local or constant array is not supported");
	return set(e, ty_pointer(c, at->elem));
}

Type *sema_pointer_call(Scope *sc, Expr *e, int in)
{
	if (in == IN_FFI_FROM_BUFFER)
		return type_from_buffer(sc, e);
	return type_cfarray(sc, e, in);
}

/*
 * sema_arrayview.c - the array attributes and methods that kernels use
 * without allocating, as Numba types them:
 *
 *   a.strides          UniTuple(int64, ndim): byte strides
 *   a.nbytes           int64: size * itemsize
 *   a.T, a.transpose() the axes reversed: C <-> F, A stays A
 *   a.real, a.imag     of a complex array: a float view (layout A) of its
 *                      parts; a.real of a real array is the array; a.imag
 *                      of a real array is refused (Numba allocates zeros)
 *   a.view(dtype)      the same bytes as another dtype: of an equal item
 *                      size any layout; of another, as Numba (NumPy's
 *                      descr_set): a C array's last extent rescaled, an F
 *                      array's first, an A array's last when that axis is
 *                      contiguous, else its first when that one is (checked
 *                      at run time, as the extents' bytes are)
 *   a.reshape(shape)   of a C-contiguous array: a C array of the new shape
 *                      (an int, ints, or a tuple of ints; one -1 is
 *                      inferred; the size is checked at run time)
 *   a.field            of a record array: a view (layout A) of that field
 *                      of every record, for a field of numbers or records
 *
 * Everything else named on an array is refused with the list of these.
 */
#include <string.h>

#include "sema.h"

static Type *set(Expr *e, Type *t, Const *cv)
{
	e->ty = t;
	e->cval = cv;
	return t;
}

static const char ARRAY_ATTRS[] = "kernels can use the array attributes shape, strides, size, ndim, itemsize, "
                                  "nbytes, dtype, T, real, imag and the methods view, reshape, transpose, sum, prod, "
                                  "min, max, all, any, mean";

static Type *with(Ctx *c, Type *at, Type *elem, int ndim, char layout)
{
	return ty_array_of(c, elem, ndim, layout, at->space, at->readonly);
}

static Type *transposed(Ctx *c, Type *at)
{
	char l = at->ndim <= 1 ? at->layout : at->layout == LAYOUT_C ? LAYOUT_F
	       : at->layout == LAYOUT_F ? LAYOUT_C : LAYOUT_A;
	return with(c, at, at->elem, at->ndim, l);
}

Type *sema_array_attr(Scope *sc, Expr *e, Type *at, Span nsp)
{
	Ctx *c = sc->c;
	const char *name = e->attr.name;
	if (strcmp(name, "strides") == 0)
		return set(e, ty_unituple(c, ty_scalar(SK_I64), at->ndim), NULL);
	if (strcmp(name, "nbytes") == 0)
		return set(e, ty_scalar(SK_I64), NULL);
	if (strcmp(name, "T") == 0)
		return set(e, transposed(c, at), NULL);
	if (strcmp(name, "real") == 0 || strcmp(name, "imag") == 0) {
		if (at->elem->kind == TY_SCALAR && ty_is_complex(at->elem))
			return set(e, with(c, at, ty_scalar(at->elem->sk == SK_C64 ? SK_F32 : SK_F64), at->ndim, LAYOUT_A), NULL);
		if (name[0] == 'r' && at->elem->kind == TY_SCALAR)
			return set(e, at, NULL);
		err_at(c, nsp, name[0] == 'i' ? "the imaginary part of a real array is 0: use 0 itself"
		                              : "record arrays have fields: read them by name",
		       "a.%s of an array of %s is not supported in kernels", name, ty_str_of(c, at->elem));
	}
	if (strcmp(name, "view") == 0)
		return set(e, ty_intrin(c, IN_ARRAY_VIEW), NULL);
	if (strcmp(name, "reshape") == 0)
		return set(e, ty_intrin(c, IN_ARRAY_RESHAPE), NULL);
	if (strcmp(name, "transpose") == 0)
		return set(e, ty_intrin(c, IN_ARRAY_TRANSPOSE), NULL);
	if (sema_reduce_method(name))
		return set(e, ty_intrin(c, sema_reduce_method(name)), NULL);   /* a.sum(): sema_reduce.c */
	const RecField *f = at->elem->kind == TY_RECORD && ty_field(at->elem, name)
	                    ? sema_record_field(sc, at->elem, name, nsp) : NULL;
	if (f && f->ty->kind != TY_ARRAY)
		return set(e, with(c, at, f->ty, at->ndim, LAYOUT_A), NULL);
	if (f)
		err_at(c, nsp, "index a record first: a[i].field", "a.%s of a record array is not supported in kernels: "
		       "the field is itself an array", name);
	err_at(c, nsp, ARRAY_ATTRS, "arrays have no attribute '%s' that kernels can use", name);
}

/* The scalar kind that a dtype argument names, or -1 */
static int dtype_kind(Expr *a)
{
	Type *t = a->ty;
	if (t->kind == TY_DTYPE && (int)t->sk >= 0 && t->sk < NSK && !t->elem)
		return (int)t->sk;
	if (t->kind == TY_INTRIN)
		return intrin_dtype(t->intrin);
	return -1;
}

static int is_int_type(const Type *t)
{
	return t->kind == TY_SCALAR && scalar_info[t->sk].is_int;
}

Type *sema_array_method(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	Expr *fn = e->call.fn;
	if (fn->kind != E_ATTR)
		ICE(c, "%s without its array", intrin_name[in]);
	Type *at = fn->attr.obj->ty;
	int n = e->call.nargs;
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, "pass the arguments by position",
		       "%s() takes no keyword arguments in kernels", intrin_name[in]);
	switch (in) {
	case IN_ARRAY_TRANSPOSE:
		if (n)
			err_at(c, e->call.args[0]->span, "use a.transpose() or a.T to reverse the axes",
			       "a.transpose() with axes is not supported in kernels");
		return set(e, transposed(c, at), NULL);
	case IN_ARRAY_VIEW: {
		int sk = n == 1 ? dtype_kind(e->call.args[0]) : -1;
		if (sk < 0)
			err_at(c, n ? e->call.args[0]->span : e->span, "pass a NumPy dtype: a.view(np.int32)",
			       "a.view() takes one dtype");
		if (at->elem->kind != TY_SCALAR)
			err_at(c, fn->span, "view an array of numbers", "a.view() of an array of records is not supported");
		int same = scalar_info[sk].size == scalar_info[at->elem->sk].size;
		if (!same && at->ndim == 0)
			err_at(c, fn->attr.obj->span, "view it with a dtype of the same size",
			       "a.view() of a 0-d array with another item size is not supported");
		return set(e, with(c, at, ty_scalar((ScalarKind)sk), at->ndim, at->layout), NULL);
	}
	case IN_ARRAY_RESHAPE: {
		int nd = 0;
		if (n == 1 && e->call.args[0]->ty->kind == TY_TUPLE) {
			Type *t = e->call.args[0]->ty;
			for (int i = 0; i < t->n; i++)
				if (!is_int_type(t->elts[i]))
					err_at(c, e->call.args[0]->span, "give the shape as integers",
					       "a.reshape() takes a tuple of integers, not %s", ty_str_of(c, t));
			nd = t->n;
		} else {
			for (int i = 0; i < n; i++)
				if (!is_int_type(e->call.args[i]->ty))
					err_at(c, e->call.args[i]->span, "give the shape as integers",
					       "a.reshape() takes integers or a tuple of them, not %s",
					       ty_str_of(c, e->call.args[i]->ty));
			nd = n;
		}
		if (nd == 0)
			err_at(c, e->span, "give the new shape: a.reshape((m, n))", "a.reshape() needs a shape");
		if (at->layout != LAYOUT_C && at->ndim > 1)
			err_at(c, fn->attr.obj->span, "reshape a C-contiguous array, or copy the values into one",
			       "a.reshape() of %s needs a copy, which kernels cannot make", ty_str_of(c, at));
		if (at->layout == LAYOUT_A)
			err_at(c, fn->attr.obj->span, "reshape a C-contiguous array (a[::1] types one)",
			       "a.reshape() of %s is not supported in kernels", ty_str_of(c, at));
		return set(e, with(c, at, at->elem, nd, LAYOUT_C), NULL);
	}
	default:
		ICE(c, "array method %s", intrin_name[in]);
	}
}

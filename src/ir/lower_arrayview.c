/*
 * lower_arrayview.c - the array views that sema_arrayview.c types: a.T,
 * a.real, a.imag, a.field of a record array, a.view(dtype),
 * a.reshape(shape).  Each is the same
 * memory seen through another descriptor (data address, extents, and for
 * layout A the byte strides); nothing is copied.
 */
#include <string.h>

#include "lower.h"

static Value new_desc(Lower *L, Type *t, Ref data)
{
	Value v = {.ty = t, .data = data};
	v.shape = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(t->ndim + 1));
	if (t->layout == LAYOUT_A)
		v.stride = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(t->ndim + 1));
	return v;
}

static Value transpose(Lower *L, Type *t, Value a)
{
	int nd = a.ty->ndim;
	Value v = new_desc(L, t, a.data);
	for (int i = 0; i < nd; i++) {
		v.shape[i] = a.shape[nd - 1 - i];
		if (v.stride)
			v.stride[i] = lower_byte_stride(L, a, nd - 1 - i);
	}
	return v;
}

Value lower_array_view_attr(Lower *L, Expr *e, Value a)
{
	const char *name = e->attr.name;
	Type *t = e->ty;
	int nd = a.ty->ndim;
	if (t == a.ty && strcmp(name, "real") == 0)
		return a;
	if (strcmp(name, "T") == 0)
		return transpose(L, t, a);
	/* real, imag of a complex array: its parts, strided; a record array's
	 * field: that field of each record */
	int off = 0;
	if (a.ty->elem->kind == TY_RECORD)
		off = ty_field(a.ty->elem, name)->off;
	else if (name[0] == 'i')
		off = ty_elem_size(t->elem);
	Ref data = off ? lower_emit(L, O_ADD, KL, SK_I64, a.data, con64(L, off), REF_NONE, 0) : a.data;
	Value v = new_desc(L, t, data);
	for (int i = 0; i < nd; i++) {
		v.shape[i] = a.shape[i];
		v.stride[i] = lower_byte_stride(L, a, i);
	}
	return v;
}

/* The extent of axis i of view v (from-byte items) as to-byte items,
 * where `on` holds (REF_NONE: always): its bytes must be a whole number
 * of them (checked at run time), and a strided view's stride becomes
 * one item. */
static void rescale(Lower *L, Value *v, int i, int from, int to, Ref on)
{
	Ref bytes = mul64(L, v->shape[i], con64(L, from));
	Ref rem = lower_emit(L, O_REM, KL, SK_I64, bytes, con64(L, to), REF_NONE, 0);
	Ref whole = lower_cmp(L, CC_EQ, SK_I64, rem, con64(L, 0));
	if (on.kind != R_NONE)
		whole = lower_emit(L, O_OR, KB, SK_BOOL, whole, lower_not(L, on), REF_NONE, 0);
	lower_guard(L, whole, "ValueError: a.view(): the bytes of the contiguous axis are not a whole number "
	                      "of the new dtype's items");
	Ref dim = lower_emit(L, O_DIV, KL, SK_I64, bytes, con64(L, to), REF_NONE, 0);
	v->shape[i] = on.kind == R_NONE ? dim : lower_sel(L, KL, on, dim, v->shape[i]);
	if (v->stride)
		v->stride[i] = on.kind == R_NONE ? con64(L, to) : lower_sel(L, KL, on, con64(L, to), v->stride[i]);
}

static Value view(Lower *L, Expr *e, Value a)
{
	Type *t = e->ty;
	int nd = t->ndim, from = ty_elem_size(a.ty->elem), to = ty_elem_size(t->elem);
	Value v = new_desc(L, t, a.data);
	for (int i = 0; i < nd; i++) {
		v.shape[i] = a.shape[i];
		if (v.stride)
			v.stride[i] = lower_byte_stride(L, a, i);
	}
	if (from == to)
		return v;
	/* as Numba (and NumPy's descr_set): the last axis of a C array is
	 * rescaled, the first of an F array; an A array is taken as C when
	 * its last axis is contiguous, else as F when its first is */
	if (t->layout != LAYOUT_A) {
		rescale(L, &v, t->layout == LAYOUT_F ? 0 : nd - 1, from, to, REF_NONE);
		return v;
	}
	Ref c_like = lower_cmp(L, CC_EQ, SK_I64, v.stride[nd - 1], con64(L, from));
	Ref f_like = lower_cmp(L, CC_EQ, SK_I64, v.stride[0], con64(L, from));
	lower_guard(L, lower_emit(L, O_OR, KB, SK_BOOL, c_like, f_like, REF_NONE, 0),
	            "ValueError: new type not compatible with array: neither its last nor its first axis is "
	            "contiguous (a.view())");
	if (nd > 1)
		rescale(L, &v, 0, from, to, lower_emit(L, O_AND, KB, SK_BOOL, lower_not(L, c_like), f_like, REF_NONE, 0));
	rescale(L, &v, nd - 1, from, to, c_like);
	return v;
}

static Value reshape(Lower *L, Expr *e, Value a)
{
	Type *t = e->ty;
	int nd = t->ndim;
	Ref dims[8];
	if (nd > 8)
		lower_unsupported(L, e->span, "a reshape to more than 8 dimensions");
	if (e->call.nargs == 1 && e->call.args[0]->ty->kind == TY_TUPLE) {
		Value s = lower_expr(L, e->call.args[0]);
		for (int i = 0; i < nd; i++)
			dims[i] = lower_convert(L, s.elts[i], ty_scalar(SK_I64), e->span).r;
	} else {
		for (int i = 0; i < nd; i++)
			dims[i] = lower_convert(L, lower_expr(L, e->call.args[i]), ty_scalar(SK_I64), e->span).r;
	}
	/* one extent of -1 is the size over the others' product */
	Ref size = lower_array_size(L, a);
	Ref known = con64(L, 1), unknown = con64(L, 0);
	for (int i = 0; i < nd; i++) {
		Ref neg = lower_cmp(L, CC_EQ, SK_I64, dims[i], con64(L, -1));
		known = lower_sel(L, KL, neg, known, mul64(L, known, dims[i]));
		unknown = lower_emit(L, O_ADD, KL, SK_I64, unknown,
		                     lower_sel(L, KL, neg, con64(L, 1), con64(L, 0)), REF_NONE, 0);
		lower_guard(L, lower_cmp(L, CC_GE, SK_I64, dims[i], con64(L, -1)),
		            "ValueError: a.reshape(): negative dimensions are not allowed");
	}
	lower_guard(L, lower_cmp(L, CC_LE, SK_I64, unknown, con64(L, 1)),
	            "ValueError: a.reshape(): can only specify one unknown dimension");
	Ref safe = lower_sel(L, KL, lower_cmp(L, CC_EQ, SK_I64, known, con64(L, 0)), con64(L, 1), known);
	Ref inferred = lower_emit(L, O_DIV, KL, SK_I64, size, safe, REF_NONE, 0);
	Value v = new_desc(L, t, a.data);
	Ref total = con64(L, 1);
	for (int i = 0; i < nd; i++) {
		Ref neg = lower_cmp(L, CC_EQ, SK_I64, dims[i], con64(L, -1));
		v.shape[i] = lower_sel(L, KL, neg, inferred, dims[i]);
		total = mul64(L, total, v.shape[i]);
	}
	lower_guard(L, lower_cmp(L, CC_EQ, SK_I64, total, size),
	            "ValueError: a.reshape(): the total size of the new array must be unchanged");
	return v;
}

Value lower_array_method(Lower *L, Expr *e, int in)
{
	Expr *fn = e->call.fn;
	Value a = lower_expr(L, fn->attr.obj);
	switch (in) {
	case IN_ARRAY_TRANSPOSE:
		return transpose(L, e->ty, a);
	case IN_ARRAY_VIEW:
		return view(L, e, a);
	case IN_ARRAY_RESHAPE:
		return reshape(L, e, a);
	default:
		ICE(L->c, "array method %s", intrin_name[in]);
	}
}

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
	if (from != to) {   /* C-contiguous (sema): the last extent rescaled */
		Ref bytes = mul64(L, a.shape[nd - 1], con64(L, from));
		Ref rem = lower_emit(L, O_REM, KL, SK_I64, bytes, con64(L, to), REF_NONE, 0);
		lower_guard(L, lower_cmp(L, CC_EQ, SK_I64, rem, con64(L, 0)),
		            "a.view(): the last axis' bytes are not a whole number of the new dtype's items");
		v.shape[nd - 1] = lower_emit(L, O_DIV, KL, SK_I64, bytes, con64(L, to), REF_NONE, 0);
	}
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
		            "a.reshape(): negative dimensions are not allowed");
	}
	lower_guard(L, lower_cmp(L, CC_LE, SK_I64, unknown, con64(L, 1)),
	            "a.reshape(): can only specify one unknown dimension");
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
	            "a.reshape(): the total size of the new array must be unchanged");
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

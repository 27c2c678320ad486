/*
 * lower_array.c - arrays: element addresses, loads and stores, views
 * (partial indexing and slices), shared and local arrays, atomics, and
 * indexing of tuples.
 *
 * An array value is its data pointer, its extents and, for layout A, its
 * byte strides (lower.h).  The byte offset of a[i0, i1, i2] is
 *   C  ((i0*e1 + i1)*e2 + i2) * itemsize
 *   F  ((i2*e1 + i1)*e0 + i0) * itemsize
 *   A  i0*s0 + i1*s1 + i2*s2
 * in 64 bits.  A negative index wraps (idx < 0 ? idx + extent : idx) unless
 * it is a non-negative constant or unsigned; later passes drop the wrap
 * where they prove the index non-negative.  When Fn.checked is set each
 * index is followed by an O_CHECK against its extent, with a CheckInfo
 * that names the array as the source writes it.
 *
 * Memory kinds: a bool element is one byte (loaded as u8 and compared
 * with 0, stored as 0/1); int8/int16 and their unsigned kinds load into
 * KW registers extended from their width (the back ends do the
 * extension); a complex element is two loads of its parts.
 *
 * cuda.shared.array / cuda.local.array: each lowering of a call makes one
 * static array (Fn.arrays) whose address is an O_ADDR; the extents are
 * constants.  A shared array of extent 0 is the dynamic shared array: all
 * of them are one static array (they alias, as in Numba), and the extent
 * is the launch's dynamic shared memory (special register dynsmem)
 * divided by the itemsize.  An array is aligned to its element (at least
 * 4 bytes) or to the alignment= given, whichever is larger.  Elements may
 * be records: an element "load" is then a reference to the record, and
 * an element store copies a whole record (lower_record.c).
 */
#include <string.h>

#include "lower.h"

enum { IX_INT, IX_SLICE };

typedef struct Idx {
	int kind;
	Value v;        /* IX_INT: an integer scalar */
	Expr *e;        /* the index expression (IX_SLICE: an E_SLICE, or NULL for ':') */
	Span sp;
} Idx;

Ref lower_array_size(Lower *L, Value arr)
{
	Ref n = con64(L, 1);
	for (int i = 0; i < arr.ty->ndim; i++)
		n = i ? mul64(L, n, arr.shape[i]) : arr.shape[i];
	return n;
}

/* --------------------------------------------------------------- indices */

static int is_none_expr(Expr *e)
{
	return !e || e->kind == E_NONE || (e->ty && e->ty->kind == TY_NONE);
}

static void add_int_index(Lower *L, Idx *out, int *n, int max, Value v, Expr *e, Span sp)
{
	if (*n >= max)
		err_at(L->c, sp, NULL, "too many indices for the array");
	if (v.ty->kind == TY_ARRAY && v.ty->ndim == 0)     /* a 0-d array of integers: its element */
		v = lower_load(L, v.ty->elem, v.data, v.ty->space, sp);
	if (v.ty->kind != TY_SCALAR || !lower_is_intsk(v.ty->sk))
		err_at(L->c, sp, "index arrays with integers or slices", "an array index must be an "
		       "integer, not %s", ty_str_of(L->c, v.ty));
	out[(*n)++] = (Idx){IX_INT, v, e, sp};
}

/* The indices of a subscript, left to right. */
static int gather(Lower *L, Expr *index, Idx *out, int max)
{
	int n = 0;
	if (index->kind == E_TUPLE) {
		for (int i = 0; i < index->tuple.n; i++) {
			Expr *x = index->tuple.elts[i];
			if (x->kind == E_SLICE) {
				if (n >= max)
					err_at(L->c, x->span, NULL, "too many indices for the array");
				out[n++] = (Idx){IX_SLICE, {0}, x, x->span};
			} else
				add_int_index(L, out, &n, max, lower_expr(L, x), x, x->span);
		}
		return n;
	}
	if (index->kind == E_SLICE) {
		out[n++] = (Idx){IX_SLICE, {0}, index, index->span};
		return n;
	}
	Value v = lower_expr(L, index);
	if (v.ty->kind == TY_TUPLE) {
		for (int i = 0; i < v.n; i++)
			add_int_index(L, out, &n, max, v.elts[i], index, index->span);
		return n;
	}
	add_int_index(L, out, &n, max, v, index, index->span);
	return n;
}

static void check_index(Lower *L, Ref idx, Value arr, int axis, const char *name)
{
	Fn *f = L->f;
	if (!f->checked)
		return;
	CheckInfo ci;
	memset(&ci, 0, sizeof ci);
	ci.array = name;
	ci.axis = axis;
	ci.ndim = arr.ty->ndim;
	for (int d = 0; d < arr.ty->ndim && d < 8; d++)
		ci.ext[d] = arr.shape[d];
	ci.loc = f->cur_loc;
	VEC_PUSH(L->c, f->checks, f->nchecks, f->capchecks, ci);
	lower_emit(L, O_CHECK, KL, SK_I64, idx, arr.shape[axis], REF_NONE, f->nchecks - 1);
}

/* An integer index as int64, wrapped when it may be negative. */
static Ref wrap_index(Lower *L, Value v, Ref ext)
{
	ScalarKind sk = v.ty->sk;
	Ref r = lower_cvt(L, v.r, sk, SK_I64);
	if (!lower_is_signed(sk))
		return r;
	if (r.kind == R_CON && L->f->con[r.idx].i >= 0)
		return r;
	Ref neg = lower_cmp(L, CC_LT, SK_I64, r, con64(L, 0));
	return lower_sel(L, KL, neg, add64(L, r, ext), r);
}

static Ref elem_addr(Lower *L, Value arr, Ref *idx)
{
	Type *t = arr.ty;
	int n = t->ndim, isz = ty_elem_size(t->elem);
	Ref off = con64(L, 0);
	if (n == 0)
		return arr.data;
	if (t->layout == LAYOUT_A) {
		for (int k = 0; k < n; k++) {
			Ref term = mul64(L, idx[k], arr.stride[k]);
			off = k ? add64(L, off, term) : term;
		}
		return add64(L, arr.data, off);
	}
	if (t->layout == LAYOUT_F) {
		off = idx[n - 1];
		for (int k = n - 2; k >= 0; k--)
			off = add64(L, mul64(L, off, arr.shape[k]), idx[k]);
	} else {
		off = idx[0];
		for (int k = 1; k < n; k++)
			off = add64(L, mul64(L, off, arr.shape[k]), idx[k]);
	}
	return add64(L, arr.data, mul64(L, off, con64(L, isz)));
}

/* A slice bound x (counted from the end n when negative) clamped into [bot, top]. */
static Ref clamp_bound(Lower *L, Ref x, Ref n, Ref bot, Ref top)
{
	Ref neg = lower_cmp(L, CC_LT, SK_I64, x, con64(L, 0));
	Ref from_end = add64(L, x, n);
	Ref v = lower_sel(L, KL, neg, from_end, x);
	v = lower_emit(L, O_MAX, KL, SK_I64, v, bot, REF_NONE, 0);
	return lower_emit(L, O_MIN, KL, SK_I64, v, top, REF_NONE, 0);
}

/* Python's slice.indices() for a constant step: *start and *len. */
static void slice_bounds(Lower *L, Expr *sl, Ref n, Ref *start, Ref *len, int64_t *step)
{
	Expr *lo = sl ? sl->slice.lo : NULL, *hi = sl ? sl->slice.hi : NULL;
	Expr *st = sl ? sl->slice.step : NULL;
	*step = 1;
	if (!is_none_expr(st) && !lower_const_int(st, step))
		lower_unsupported(L, st->span, "a slice step that is not a constant");
	if (*step == 0)
		err_at(L->c, st->span, NULL, "slice step cannot be zero");
	Ref los = REF_NONE, his = REF_NONE;
	if (!is_none_expr(lo)) {
		Value v = lower_expr(L, lo);
		if (v.ty->kind != TY_SCALAR || !lower_is_intsk(v.ty->sk))
			err_at(L->c, lo->span, NULL, "slice bounds must be integers");
		los = lower_cvt(L, v.r, v.ty->sk, SK_I64);
	}
	if (!is_none_expr(hi)) {
		Value v = lower_expr(L, hi);
		if (v.ty->kind != TY_SCALAR || !lower_is_intsk(v.ty->sk))
			err_at(L->c, hi->span, NULL, "slice bounds must be integers");
		his = lower_cvt(L, v.r, v.ty->sk, SK_I64);
	}
	Ref zero = con64(L, 0), mone = con64(L, -1);
	Ref top = *step > 0 ? n : sub64(L, n, con64(L, 1));
	Ref bot = *step > 0 ? zero : mone;
	Ref a = los.kind != R_NONE ? clamp_bound(L, los, n, bot, top) : (*step > 0 ? zero : top);
	Ref b = his.kind != R_NONE ? clamp_bound(L, his, n, bot, top) : (*step > 0 ? n : mone);
	Ref d = *step > 0 ? sub64(L, b, a) : sub64(L, a, b);
	d = lower_emit(L, O_MAX, KL, SK_I64, d, zero, REF_NONE, 0);
	int64_t m = *step > 0 ? *step : -*step;
	if (m > 1)
		d = lower_emit(L, O_DIV, KL, SK_I64, add64(L, d, con64(L, m - 1)), con64(L, m), REF_NONE, 0);
	*start = a;
	*len = d;
}

/* a[ix...]: fills *addr and returns 1 when every axis has an integer
 * index, else fills *view (of type vty, or layout A) and returns 0. */
static int access(Lower *L, Value arr, Idx *ix, int n, const char *name, Type *vty, Ref *addr,
                  Value *view)
{
	Type *t = arr.ty;
	int nd = t->ndim, full = n == nd;
	for (int i = 0; i < n; i++)
		if (ix[i].kind != IX_INT)
			full = 0;
	if (full) {
		Ref *idx = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(nd + 1));
		for (int k = 0; k < nd; k++) {
			idx[k] = wrap_index(L, ix[k].v, arr.shape[k]);
			check_index(L, idx[k], arr, k, name);
		}
		*addr = elem_addr(L, arr, idx);
		return 1;
	}
	Arena *a = L->c->arena;
	Ref data = arr.data;
	Ref *shape = arena_alloc(a, sizeof(Ref) * (size_t)(nd + 1));
	Ref *stride = arena_alloc(a, sizeof(Ref) * (size_t)(nd + 1));
	int m = 0, strided = 0;
	for (int k = 0; k < nd; k++) {
		Ref s = lower_byte_stride(L, arr, k);
		if (k < n && ix[k].kind == IX_INT) {
			Ref i = wrap_index(L, ix[k].v, arr.shape[k]);
			check_index(L, i, arr, k, name);
			data = add64(L, data, mul64(L, i, s));
			continue;
		}
		Ref start, len;
		int64_t step;
		slice_bounds(L, k < n ? ix[k].e : NULL, arr.shape[k], &start, &len, &step);
		data = add64(L, data, mul64(L, start, s));
		shape[m] = len;
		stride[m] = step == 1 ? s : mul64(L, s, con64(L, step));
		strided |= step != 1;
		m++;
	}
	Type *vt = vty;
	if (!vt || vt->kind != TY_ARRAY || vt->ndim != m || !ty_equal(vt->elem, t->elem))
		vt = ty_array_of(L->c, t->elem, m, LAYOUT_A, t->space, t->readonly);
	if (vt->layout != LAYOUT_A && (strided || t->layout == LAYOUT_A))
		ICE(L->c, "a strided view of %s typed %s", ty_str_of(L->c, t), ty_str_of(L->c, vt));
	*view = (Value){.ty = vt, .data = data, .shape = shape,
	                .stride = vt->layout == LAYOUT_A ? stride : NULL};
	return 0;
}

/* ------------------------------------------------------------ load, store */

static Value load_elem(Lower *L, Type *elem, Ref addr, int space, Span sp)
{
	ScalarKind sk = elem->sk;
	if (elem->kind == TY_RECORD)
		return (Value){.ty = ty_record_in(L->c, elem, space, 0), .data = addr};
	if (sk == SK_BOOL) {
		Ref w = lower_emit(L, O_LOAD, KW, SK_U8, addr, REF_NONE, REF_NONE, space);
		return lower_scalar(elem, lower_cmp(L, CC_NE, SK_U8, w, ir_con_int(L->f, KW, 0)));
	}
	if (scalar_info[sk].is_complex) {
		ScalarKind p = lower_part_sk(sk);
		Value v = {.ty = elem};
		v.r = lower_emit(L, O_LOAD, lower_cls(p), p, addr, REF_NONE, REF_NONE, space);
		Ref a2 = add64(L, addr, con64(L, scalar_info[p].size));
		v.im = lower_emit(L, O_LOAD, lower_cls(p), p, a2, REF_NONE, REF_NONE, space);
		return v;
	}
	return lower_scalar(elem, lower_emit(L, O_LOAD, lower_cls(sk), sk, addr, REF_NONE, REF_NONE, space));
}

static void store_elem(Lower *L, Type *elem, Ref addr, int space, Value v, Span sp)
{
	ScalarKind sk = elem->sk;
	if (elem->kind == TY_RECORD) {
		lower_record_copy(L, ty_record_in(L->c, elem, space, 0), addr, v, sp);
		return;
	}
	v = lower_convert(L, v, elem, sp);
	if (sk == SK_BOOL) {
		Ref w = lower_sel(L, KW, v.r, ir_con_int(L->f, KW, 1), ir_con_int(L->f, KW, 0));
		lower_emit(L, O_STORE, KW, SK_U8, addr, w, REF_NONE, space);
		return;
	}
	if (scalar_info[sk].is_complex) {
		ScalarKind p = lower_part_sk(sk);
		lower_emit(L, O_STORE, lower_cls(p), p, addr, v.r, REF_NONE, space);
		Ref a2 = add64(L, addr, con64(L, scalar_info[p].size));
		lower_emit(L, O_STORE, lower_cls(p), p, a2, v.im, REF_NONE, space);
		return;
	}
	lower_emit(L, O_STORE, lower_cls(sk), sk, addr, v.r, REF_NONE, space);
}

Value lower_load(Lower *L, Type *elem, Ref addr, int space, Span sp)
{
	return load_elem(L, elem, addr, space, sp);
}

void lower_store(Lower *L, Type *elem, Ref addr, int space, Value v, Span sp)
{
	store_elem(L, elem, addr, space, v, sp);
}

static Ref item_addr(Lower *L, Value arr, Ref k, const char *name)
{
	check_index(L, k, arr, 0, name);
	return add64(L, arr.data, mul64(L, k, lower_byte_stride(L, arr, 0)));
}

Value lower_array_item(Lower *L, Value arr, Ref k, const char *name, Span sp)
{
	if (arr.ty->ndim != 1)
		lower_unsupported(L, sp, "iterating or unpacking an array that is not 1-D");
	return load_elem(L, arr.ty->elem, item_addr(L, arr, k, name), arr.ty->space, sp);
}

typedef struct Fill {
	Value view, v;
	Span sp;
} Fill;

/* lower_nd_loop's body: the scalar stored into the element at idx */
static void fill_elem(Lower *L, Ref *idx, void *ctx)
{
	Fill *f = ctx;
	Type *t = f->view.ty;
	Ref a = f->view.data;
	for (int d = 0; d < t->ndim; d++)
		a = add64(L, a, mul64(L, idx[d], lower_byte_stride(L, f->view, d)));
	store_elem(L, t->elem, a, t->space, f->v, f->sp);
}

/* view[:] = src: a tuple element by element, a scalar broadcast (a view
 * of any number of axes), or a 1-D array copied, with a loop for the last
 * two. */
static void store_view(Lower *L, Value view, Value src, const char *name, Span sp)
{
	Type *t = view.ty;
	if (t->ndim != 1 && src.ty->kind == TY_SCALAR) {
		Fill f = {view, lower_convert(L, src, t->elem, sp), sp};
		lower_nd_loop(L, t->ndim, view.shape, fill_elem, &f);
		return;
	}
	if (t->ndim != 1)
		lower_unsupported(L, sp, "assigning to an array view that is not 1-D");
	if (src.ty->kind == TY_TUPLE) {
		for (int k = 0; k < src.n; k++)
			store_elem(L, t->elem, item_addr(L, view, con64(L, k), name), t->space, src.elts[k], sp);
		return;
	}
	int isarr = src.ty->kind == TY_ARRAY;
	if (isarr && src.ty->ndim != 1)
		lower_unsupported(L, sp, "assigning an array that is not 1-D to a view");
	if (!isarr && src.ty->kind != TY_SCALAR)
		lower_unsupported(L, sp, "assigning this value to an array view");
	Type *i64 = ty_scalar(SK_I64);
	int ks = lower_new_slots(L, i64, "k");
	lower_write(L, ks, i64, lower_scalar(i64, con64(L, 0)));
	Blk *head = lower_new_blk(L), *body = lower_new_blk(L), *done = lower_new_blk(L);
	lower_jump(L, head);
	lower_enter(L, head);
	Ref k = lower_read(L, ks, i64).r;
	lower_branch(L, lower_cmp(L, CC_LT, SK_I64, k, view.shape[0]), body, done);
	lower_seal(L, body);
	lower_enter(L, body);
	Value v = isarr ? lower_array_item(L, src, k, "value", sp) : src;
	store_elem(L, t->elem, item_addr(L, view, k, name), t->space, v, sp);
	lower_write(L, ks, i64, lower_scalar(i64, add64(L, k, con64(L, 1))));
	lower_jump(L, head);
	lower_seal(L, head);
	lower_seal(L, done);
	lower_enter(L, done);
}

/* ------------------------------------------------------------ subscripts */

static int64_t const_tuple_index(Lower *L, Expr *ie, int n, Span sp)
{
	int64_t k;
	if (!lower_const_int(ie, &k))
		return -1 - (int64_t)n;
	if (k < 0)
		k += n;
	if (k < 0 || k >= n)
		err_at(L->c, sp, NULL, "tuple index out of range (the tuple has %d elements)", n);
	return k;
}

static Value tuple_subscript(Lower *L, Expr *e)
{
	Value t = lower_expr(L, e->sub.obj);
	Expr *ie = e->sub.index;
	int n = t.n;
	if (ie->kind == E_SLICE) {
		int64_t lo = 0, hi = n, st = 1;
		if ((!is_none_expr(ie->slice.lo) && !lower_const_int(ie->slice.lo, &lo)) ||
		    (!is_none_expr(ie->slice.hi) && !lower_const_int(ie->slice.hi, &hi)) ||
		    (!is_none_expr(ie->slice.step) && !lower_const_int(ie->slice.step, &st)) || st != 1)
			lower_unsupported(L, ie->span, "slicing a tuple with bounds that are not constants");
		if (lo < 0)
			lo += n;
		if (hi < 0)
			hi += n;
		lo = lo < 0 ? 0 : lo > n ? n : lo;
		hi = hi < lo ? lo : hi > n ? n : hi;
		Value r = {.ty = e->ty, .n = (int)(hi - lo), .elts = t.elts + lo};
		if (e->ty->kind != TY_TUPLE || e->ty->n != r.n)
			ICE(L->c, "tuple slice typed %s", ty_str_of(L->c, e->ty));
		for (int i = 0; i < r.n; i++)
			r.elts[i] = lower_convert(L, r.elts[i], e->ty->elts[i], e->span);
		return r;
	}
	int64_t k = const_tuple_index(L, ie, n, ie->span);
	if (k >= 0)
		return lower_convert(L, t.elts[k], e->ty, e->span);
	/* an index known at run time: a chain of selects over the elements */
	Value iv = lower_expr(L, ie);
	if (iv.ty->kind != TY_SCALAR || !lower_is_intsk(iv.ty->sk))
		err_at(L->c, ie->span, NULL, "a tuple index must be an integer");
	if (n == 0)
		err_at(L->c, ie->span, NULL, "index into an empty tuple");
	Type *ty = e->ty;
	if (ty->kind != TY_SCALAR)
		lower_unsupported(L, ie->span, "indexing a tuple of non-scalars with a variable");
	Ref i = wrap_index(L, iv, con64(L, n));
	if (L->debug)   /* Python's IndexError, as Numba raises it under debug=True */
		lower_guard(L, lower_cmp(L, CC_LT, SK_U64, i, con64(L, n)), "IndexError: tuple index out of range");
	Cls kc = lower_cls(ty->sk);
	Value r = lower_convert(L, t.elts[n - 1], ty, e->span);
	for (int j = n - 2; j >= 0; j--) {
		Value x = lower_convert(L, t.elts[j], ty, e->span);
		Ref c = lower_cmp(L, CC_EQ, SK_I64, i, con64(L, j));
		r.r = lower_sel(L, kc, c, x.r, r.r);
		if (scalar_info[ty->sk].is_complex)
			r.im = lower_sel(L, kc, c, x.im, r.im);
	}
	return r;
}

/* Gives the array and its access for a subscript expression; the
 * instructions from here to the end of the access (the load or store)
 * carry the subscript's location. */
static int subscript_access(Lower *L, Expr *e, Value *arr, Ref *addr, Value *view)
{
	Expr *o = e->sub.obj;
	*arr = lower_expr(L, o);
	if (arr->ty->kind != TY_ARRAY)
		ICE(L->c, "subscript of %s", ty_str_of(L->c, arr->ty));
	Idx ix[8];
	int nd = arr->ty->ndim;
	int n = gather(L, e->sub.index, ix, nd < 8 ? nd : 8);
	L->f->cur_loc = ir_add_loc(L->f, e->span);
	return access(L, *arr, ix, n, lower_span_text(L, o->span), e->ty, addr, view);
}

Value lower_subscript(Lower *L, Expr *e)
{
	Expr *o = e->sub.obj;
	if (!o->ty)
		ICE(L->c, "subscript of an untyped expression");
	if (o->ty->kind == TY_TUPLE)
		return tuple_subscript(L, e);
	if (o->ty->kind == TY_RECORD)
		return lower_record_load(L, e);
	if (o->ty->kind == TY_POINTER)
		return lower_pointer_load(L, e);
	if (o->ty->kind != TY_ARRAY)
		err_at(L->c, e->span, "index arrays and tuples", "%s cannot be indexed",
		       ty_str_of(L->c, o->ty));
	Value arr, view;
	Ref addr;
	int loc = L->f->cur_loc;
	int full = subscript_access(L, e, &arr, &addr, &view);
	Value v = full ? load_elem(L, arr.ty->elem, addr, arr.ty->space, e->span) : view;
	L->f->cur_loc = loc;
	return lower_convert(L, v, e->ty, e->span);
}

void lower_store_subscript(Lower *L, Expr *target, Value v)
{
	Expr *o = target->sub.obj;
	if (o->ty && o->ty->kind == TY_TUPLE)
		err_at(L->c, target->span, "build a new tuple instead", "tuples cannot be assigned to");
	if (o->ty && o->ty->kind == TY_RECORD) {
		lower_record_store(L, target, v);
		return;
	}
	if (o->ty && o->ty->kind == TY_POINTER) {
		lower_pointer_store(L, target, v);
		return;
	}
	if (!o->ty || o->ty->kind != TY_ARRAY)
		err_at(L->c, target->span, NULL, "this value cannot be assigned to by index");
	if (o->ty->readonly)
		err_at(L->c, target->span, "pass a writable array", "this array is read-only");
	Value arr, view;
	Ref addr;
	int loc = L->f->cur_loc;
	if (subscript_access(L, target, &arr, &addr, &view))
		store_elem(L, arr.ty->elem, addr, arr.ty->space, v, target->span);
	else
		store_view(L, view, v, lower_span_text(L, o->span), target->span);
	L->f->cur_loc = loc;
}

void lower_aug_subscript(Lower *L, Expr *target, AstOp op, Expr *value)
{
	Expr *o = target->sub.obj;
	if (o->ty && o->ty->kind == TY_RECORD) {
		lower_record_aug(L, target, op, value);
		return;
	}
	if (o->ty && o->ty->kind == TY_POINTER) {
		lower_pointer_aug(L, target, op, value);
		return;
	}
	if (!o->ty || o->ty->kind != TY_ARRAY)
		err_at(L->c, target->span, NULL, "this value cannot be updated by index");
	if (o->ty->readonly)
		err_at(L->c, target->span, "pass a writable array", "this array is read-only");
	Value arr, view;
	Ref addr;
	int loc = L->f->cur_loc;
	if (!subscript_access(L, target, &arr, &addr, &view))
		lower_unsupported(L, target->span, "augmented assignment to an array slice");
	Type *elem = arr.ty->elem;
	Value cur = load_elem(L, elem, addr, arr.ty->space, target->span);
	Value r = lower_aug_value(L, op, cur, elem, value, value->span);
	L->f->cur_loc = ir_add_loc(L->f, target->span);
	store_elem(L, elem, addr, arr.ty->space, r, target->span);
	L->f->cur_loc = loc;
}

/* ---------------------------------------------------- shared/local arrays */

static Expr *call_arg(Expr *e, int i, const char *kw)
{
	if (i < e->call.nargs)
		return e->call.args[i];
	for (int k = 0; k < e->call.nkw; k++)
		if (e->call.kwnames[k] && strcmp(e->call.kwnames[k], kw) == 0)
			return e->call.kwargs[k];
	return NULL;
}

Value lower_static_array(Lower *L, Expr *e, int space)
{
	Fn *f = L->f;
	Type *t = e->ty;
	Expr *se = call_arg(e, 0, "shape");
	const char *what = space == SP_SHARED ? "cuda.shared.array" : "cuda.local.array";
	if (!t || t->kind != TY_ARRAY)
		ICE(L->c, "%s typed %s", what, t ? ty_str_of(L->c, t) : "?");
	if (!se || !se->cval)
		err_at(L->c, se ? se->span : e->span, "the shape must be an int or a tuple of ints "
		       "known when the kernel is compiled (a literal, a global or a closure variable)",
		       "%s() needs a constant shape", what);
	const Const *cv = se->cval;
	int64_t dims[8];
	int nd = 0;
	if (cv->kind == PJ_V_INT)
		dims[nd++] = cv->i;
	else if (cv->kind == PJ_V_TUPLE && cv->n <= 8) {
		for (int i = 0; i < cv->n; i++) {
			if (cv->elts[i].kind != PJ_V_INT)
				err_at(L->c, se->span, NULL, "the shape of %s() must hold integers", what);
			dims[nd++] = cv->elts[i].i;
		}
	} else
		err_at(L->c, se->span, "pass an int or a tuple of ints", "%s() needs a constant shape", what);
	if (nd != t->ndim)
		ICE(L->c, "%s of %d dimensions typed %s", what, nd, ty_str_of(L->c, t));
	int isz = ty_elem_size(t->elem);
	int64_t total = 1;
	for (int i = 0; i < nd; i++) {
		if (dims[i] < 0 || (dims[i] > 0 && total > ((int64_t)1 << 40) / dims[i]))
			err_at(L->c, se->span, NULL, "%s() of shape %lld is not possible", what,
			       (long long)dims[i]);
		total *= dims[i];
	}
	int dynamic = space == SP_SHARED && nd == 1 && total == 0;
	int align = ty_elem_align(t->elem), idx = -1;
	int64_t al;
	while (align & (align - 1))
		align++;
	if (align < 4)
		align = 4;
	if (e->call.nargs > 2 && lower_const_int(e->call.args[2], &al) && al > align && al <= 4096)
		align = (int)al;
	/* every dynamic shared array is the one extern array: they alias */
	for (int i = 0; dynamic && i < f->narrays; i++)
		if (f->arrays[i].space == SP_SHARED && f->arrays[i].dynamic)
			idx = i;
	if (idx < 0) {
		SArray sa;
		memset(&sa, 0, sizeof sa);
		sa.space = space;
		sa.size = total * isz;
		sa.dynamic = dynamic;
		sa.name = dynamic ? "dynamic"
		                  : arena_printf(L->c->arena, "%s%d", space == SP_SHARED ? "smem" : "lmem", f->narrays);
		VEC_PUSH(L->c, f->arrays, f->narrays, f->caparrays, sa);
		idx = f->narrays - 1;
	}
	if (f->arrays[idx].align < align)
		f->arrays[idx].align = align;
	Value v = {.ty = t};
	v.data = lower_emit(L, O_ADDR, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, idx);
	v.shape = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(nd + 1));
	for (int i = 0; i < nd; i++)
		v.shape[i] = con64(L, dims[i]);
	if (dynamic) {
		/* the extent the launch gives: %dynamic_smem_size / itemsize */
		Ref bytes = lower_cvt(L, lower_sreg(L, SR_DYNSMEM).r, SK_U32, SK_I64);
		v.shape[0] = lower_emit(L, O_DIV, KL, SK_I64, bytes, con64(L, isz), REF_NONE, 0);
	}
	if (t->layout == LAYOUT_A) {
		Value c = v;
		c.ty = ty_array_of(L->c, t->elem, nd, LAYOUT_C, t->space, t->readonly);
		return lower_convert(L, c, t, e->span);
	}
	return v;
}

/* ---------------------------------------------------------------- atomics */

static AtomOp atom_op(int in)
{
	switch (in) {
	case IN_ATOMIC_ADD: return AT_ADD;
	case IN_ATOMIC_SUB: return AT_SUB;
	case IN_ATOMIC_MAX: return AT_MAX;
	case IN_ATOMIC_MIN: return AT_MIN;
	case IN_ATOMIC_AND: return AT_AND;
	case IN_ATOMIC_OR: return AT_OR;
	case IN_ATOMIC_XOR: return AT_XOR;
	case IN_ATOMIC_EXCH: return AT_EXCH;
	case IN_ATOMIC_INC: return AT_INC;
	case IN_ATOMIC_DEC: return AT_DEC;
	case IN_ATOMIC_NANMAX: return AT_NANMAX;
	case IN_ATOMIC_NANMIN: return AT_NANMIN;
	default: return AT_CAS;
	}
}

Value lower_atomic(Lower *L, Expr *e, int in)
{
	const char *fname = intrin_name[in];
	Expr *ae = call_arg(e, 0, "ary"), *ie = NULL, *ve = NULL, *oe = NULL;
	if (in == IN_ATOMIC_CAS2) {
		oe = call_arg(e, 1, "old");
		ve = call_arg(e, 2, "val");
	} else if (in == IN_ATOMIC_CAS) {
		ie = call_arg(e, 1, "idx");
		oe = call_arg(e, 2, "old");
		ve = call_arg(e, 3, "val");
	} else {
		ie = call_arg(e, 1, "idx");
		ve = call_arg(e, 2, "val");
	}
	if (!ae || !ve || (in != IN_ATOMIC_CAS2 && !ie) || ((in == IN_ATOMIC_CAS || in == IN_ATOMIC_CAS2) && !oe))
		err_at(L->c, e->span, NULL, "%s() is missing an argument", fname);
	Value arr = lower_expr(L, ae);
	if (arr.ty->kind != TY_ARRAY)
		err_at(L->c, ae->span, "pass an array (global or shared)", "the first argument of %s() "
		       "must be an array", fname);
	if (arr.ty->space == SP_LOCAL)
		err_at(L->c, ae->span, "use a global or shared array", "atomics on local arrays are "
		       "not supported");
	Idx ix[8];
	int nd = arr.ty->ndim, n;
	if (ie)
		n = gather(L, ie, ix, nd < 8 ? nd : 8);
	else {
		if (nd != 1)
			err_at(L->c, ae->span, NULL, "%s() needs a 1-D array", fname);
		ix[0] = (Idx){IX_INT, lower_scalar(ty_scalar(SK_I64), con64(L, 0)), NULL, e->span};
		n = 1;
	}
	Type *elem = arr.ty->elem;
	Value old = {0};
	if (oe)
		old = lower_convert(L, lower_expr(L, oe), elem, oe->span);
	Value val = lower_convert(L, lower_expr(L, ve), elem, ve->span);
	if (n != nd)
		err_at(L->c, ie ? ie->span : e->span, "index every axis: cuda.atomic.add(a, (i, j), v)",
		       "%s() needs one index per axis of the array (%d)", fname, nd);
	for (int i = 0; i < n; i++)
		if (ix[i].kind != IX_INT)
			err_at(L->c, ix[i].sp, NULL, "%s() takes integer indices, not slices", fname);
	Ref addr;
	Value view;
	int saved = L->f->cur_loc;
	L->f->cur_loc = ir_add_loc(L->f, e->span);
	access(L, arr, ix, n, lower_span_text(L, ae->span), NULL, &addr, &view);
	AtomOp op = atom_op(in);
	ScalarKind sk = elem->sk;
	if (elem->kind != TY_SCALAR || sk == SK_BOOL || scalar_info[sk].size < 4 ||
	    scalar_info[sk].is_complex)
		err_at(L->c, ae->span, "atomics work on int32, uint32, int64, uint64, float32 and float64 "
		       "arrays", "%s() on an array of %s is not supported", fname, ty_str_of(L->c, elem));
	Ref r = lower_emit(L, O_ATOM, lower_cls(sk), sk, addr, val.r, op == AT_CAS ? old.r : REF_NONE,
	                   (int32_t)op | arr.ty->space << 8);
	L->f->cur_loc = saved;
	return lower_convert(L, lower_scalar(elem, r), e->ty, e->span);
}

/* ----------------------------------------------------------- cache hints */

static int cache_op(int in)
{
	switch (in) {
	case IN_LDCA: return CO_CA;
	case IN_LDCG: case IN_STCG: return CO_CG;
	case IN_LDCS: case IN_STCS: return CO_CS;
	case IN_LDLU: return CO_LU;
	case IN_LDCV: return CO_CV;
	case IN_STWB: return CO_WB;
	default: return CO_WT;
	}
}

/* The load or store of a cache hint at addr, carrying the operator. */
static Value hinted(Lower *L, Expr *e, int in, Type *elem, Ref addr, Value val)
{
	ScalarKind sk = elem->sk;
	int32_t aux = SP_GLOBAL | cache_op(in) << 8;
	if (in >= IN_STCG) {
		lower_emit(L, O_STORE, lower_cls(sk), sk, addr, val.r, REF_NONE, aux);
		return lower_none(e->ty);
	}
	return lower_scalar(elem, lower_emit(L, O_LOAD, lower_cls(sk), sk, addr, REF_NONE, REF_NONE, aux));
}

/* cuda.ldcs(p, i) and cuda.stcs(p, i, v) of a pointer p: p[i]'s address,
 * as a global one (the instructions read and write global memory). */
static Value pointer_cache_hint(Lower *L, Expr *e, int in)
{
	Expr *pe = e->call.args[0];
	Type *elem = pe->ty->elem;
	Value val = {0};
	if (in >= IN_STCG)
		val = lower_convert(L, lower_expr(L, e->call.args[2]), elem, e->call.args[2]->span);
	int saved = L->f->cur_loc;
	Value p;
	Ref addr = lower_pointer_element(L, pe, e->call.args[1], e->span, &p);
	Value r = hinted(L, e, in, elem, addr, val);
	L->f->cur_loc = saved;
	return r;
}

/* cuda.ldcs(a, i) and cuda.stcs(a, i, v): the element's address as for
 * a[i] (wrapped, checked), one load or store carrying the operator. */
Value lower_cache_hint(Lower *L, Expr *e, int in)
{
	Expr *ae = e->call.args[0], *ie = e->call.args[1];
	if (ae->ty->kind == TY_POINTER)
		return pointer_cache_hint(L, e, in);
	Value arr = lower_expr(L, ae);
	Type *t = arr.ty, *elem = t->elem;
	if (t->kind != TY_ARRAY || t->space != SP_GLOBAL || elem->kind != TY_SCALAR)
		ICE(L->c, "%s() of %s", intrin_name[in], ty_str_of(L->c, t));
	Idx ix[8];
	int nd = t->ndim, n = gather(L, ie, ix, nd < 8 ? nd : 8);
	if (n != nd)
		ICE(L->c, "%s() with %d indices for %d axes", intrin_name[in], n, nd);
	int store = in >= IN_STCG;
	Value val = {0};
	if (store)
		val = lower_convert(L, lower_expr(L, e->call.args[2]), elem, e->call.args[2]->span);
	int saved = L->f->cur_loc;
	L->f->cur_loc = ir_add_loc(L->f, e->span);
	Ref addr;
	Value view;
	access(L, arr, ix, n, lower_span_text(L, ae->span), NULL, &addr, &view);
	Value r = hinted(L, e, in, elem, addr, val);
	L->f->cur_loc = saved;
	return r;
}

/*
 * lower_pointer.c - pointers (TY_POINTER): p[i], carray/farray over a
 * pointer, ffi.from_buffer, and a pointer kernel parameter.
 *
 * A pointer value is three operands (lower.h): its address (data) and,
 * in the simulator's program (Ctx.for_sim) and on the CPU target, the
 * bounds of the memory it
 * points into: base, the allocation's first byte, and room, the number
 * of byte offsets from base at which an element of the pointer's type
 * starts inside it (bytes - itemsize + 1; zero when none fits).
 * p[i] is at data + i * itemsize, as in C (a negative i is not wrapped),
 * read and written as a generic address (a pointer an external function
 * gives may point into any memory, as Numba's does);
 * the simulator checks 0 <= data + i * itemsize - base < room, so an
 * access outside the allocation is reported with the pointer's name
 * (CheckInfo.ptr_size).  On the GPU base and room are the constant 0,
 * and nothing is checked (the driver knows no bounds of a raw address).
 *
 * Where the bounds come from: a kernel parameter's from the launch (the
 * device allocation holding the address: KP_PBASE, KP_PBYTES), a
 * from_buffer's from its array (the bytes the array spans, a view's own),
 * an external function's result none (it is unchecked: room is the
 * largest int64).  carray(p, shape) makes an array over p after checking,
 * in the simulator, that its elements lie inside p's allocation; its own
 * accesses are then checked against shape as every array's are.
 */
#include <string.h>

#include "lower.h"

/* Do pointers carry bounds: in the simulator's program and on the CPU
 * target, whose pointers come from ffi.from_buffer only. */
static int bounded(Lower *L)
{
	return L->c->for_sim || L->cpu;
}

int lower_has_pointer(const Type *t)
{
	if (t->kind == TY_TUPLE)
		for (int i = 0; i < t->n; i++)
			if (lower_has_pointer(t->elts[i]))
				return 1;
	return t->kind == TY_POINTER;
}

Value lower_pointer_value(Lower *L, Type *t, Ref addr, Ref base, Ref bytes)
{
	Value v = {.ty = t, .data = addr, .base = con64(L, 0), .room = con64(L, 0)};
	if (bounded(L)) {
		v.base = base;
		v.room = sub64(L, bytes, con64(L, ty_elem_size(t->elem) - 1));
		v.room = lower_emit(L, O_MAX, KL, SK_I64, v.room, con64(L, 0), REF_NONE, 0);   /* none fits: 0 */
	}
	return v;
}

/* Fails in the simulator unless 0 <= off < room: an element of p at byte
 * offset off from its allocation's start. */
static void check_offset(Lower *L, Value p, Ref off, Ref room, const char *name)
{
	Fn *f = L->f;
	if (!bounded(L) || !f->checked)
		return;
	CheckInfo ci;
	memset(&ci, 0, sizeof ci);
	ci.array = name;
	ci.ptr_size = ty_elem_size(p.ty->elem);
	ci.loc = f->cur_loc;
	VEC_PUSH(L->c, f->checks, f->nchecks, f->capchecks, ci);
	lower_emit(L, O_CHECK, KL, SK_I64, off, room, REF_NONE, f->nchecks - 1);
}

Ref lower_pointer_element(Lower *L, Expr *o, Expr *index, Span at, Value *p)
{
	*p = lower_expr(L, o);
	Value iv = lower_expr(L, index);
	if (iv.ty->kind != TY_SCALAR || !lower_is_intsk(iv.ty->sk))
		ICE(L->c, "pointer index of %s", ty_str_of(L->c, iv.ty));
	L->f->cur_loc = ir_add_loc(L->f, at);
	Ref i = lower_cvt(L, iv.r, iv.ty->sk, SK_I64);
	Ref addr = add64(L, p->data, mul64(L, i, con64(L, ty_elem_size(p->ty->elem))));
	if (bounded(L))
		check_offset(L, *p, sub64(L, addr, p->base), p->room, lower_span_text(L, o->span));
	return addr;
}

/* The address of p[index] of a subscript e, checked in the simulator. */
static Ref element(Lower *L, Expr *e, Value *p)
{
	return lower_pointer_element(L, e->sub.obj, e->sub.index, e->span, p);
}

Value lower_pointer_load(Lower *L, Expr *e)
{
	int loc = L->f->cur_loc;
	Value p;
	Ref addr = element(L, e, &p);
	Value v = lower_load(L, p.ty->elem, addr, SP_GENERIC, e->span);
	L->f->cur_loc = loc;
	return lower_convert(L, v, e->ty, e->span);
}

void lower_pointer_store(Lower *L, Expr *target, Value v)
{
	int loc = L->f->cur_loc;
	Value p;
	Ref addr = element(L, target, &p);
	lower_store(L, p.ty->elem, addr, SP_GENERIC, v, target->span);
	L->f->cur_loc = loc;
}

void lower_pointer_aug(Lower *L, Expr *target, AstOp op, Expr *value)
{
	int loc = L->f->cur_loc;
	Value p;
	Ref addr = element(L, target, &p);
	Type *elem = p.ty->elem;
	Value cur = lower_load(L, elem, addr, SP_GENERIC, target->span);
	Value r = lower_aug_value(L, op, cur, elem, value, value->span);
	L->f->cur_loc = ir_add_loc(L->f, target->span);
	lower_store(L, elem, addr, SP_GENERIC, r, target->span);
	L->f->cur_loc = loc;
}

/* carray(p, shape) / farray(p, shape) (sema_pointer.c left [p, shape]) */
static Value cfarray(Lower *L, Expr *e)
{
	Type *t = e->ty;
	Value p = lower_expr(L, e->call.args[0]);
	Value s = lower_expr(L, e->call.args[1]);
	int nd = t->ndim;
	Value v = {.ty = t, .data = p.data};
	v.shape = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(nd + 1));
	for (int k = 0; k < nd; k++) {
		Value x = s.ty->kind == TY_TUPLE ? s.elts[k] : s;
		v.shape[k] = lower_cvt(L, x.r, x.ty->sk, SK_I64);
	}
	if (bounded(L) && L->f->checked) {
		/* the last element inside p's allocation (nothing to check when there are none) */
		int loc = L->f->cur_loc;
		L->f->cur_loc = ir_add_loc(L->f, e->span);
		Ref n = lower_array_size(L, v);
		Ref es = con64(L, ty_elem_size(t->elem));
		Ref last = add64(L, sub64(L, p.data, p.base), mul64(L, sub64(L, n, con64(L, 1)), es));
		Ref none = lower_cmp(L, CC_EQ, SK_I64, n, con64(L, 0));
		check_offset(L, p, lower_sel(L, KL, none, con64(L, 0), last), lower_sel(L, KL, none, con64(L, 1), p.room),
		             lower_span_text(L, e->call.args[0]->span));
		L->f->cur_loc = loc;
	}
	return v;
}

/* ffi.from_buffer(a): a's data, bounded by the bytes a spans */
static Value from_buffer(Lower *L, Expr *e)
{
	Value a = lower_expr(L, e->call.args[0]);
	Ref bytes = con64(L, 0);
	if (bounded(L))
		bytes = mul64(L, lower_array_size(L, a), con64(L, ty_elem_size(a.ty->elem)));
	return lower_pointer_value(L, e->ty, a.data, a.data, bytes);
}

Value lower_pointer_call(Lower *L, Expr *e, int in)
{
	return in == IN_FFI_FROM_BUFFER ? from_buffer(L, e) : cfarray(L, e);
}

/*
 * lower_record.c - records (elements of structured arrays) and constant
 * arrays.
 *
 * A record value is the address of one record (Value.data) in the memory
 * space its type names (record.c): `r = a[i]` only computes the address,
 * `r.x` and `r['x']` load the field at its byte offset, `r.x = v` stores
 * there (converted to the field's type) and `a[i] = b[j]` copies the
 * record field by field.  Sema has checked that every field used lies at
 * a multiple of its size, so these are ordinary aligned loads and stores.
 *
 * Constant arrays (cuda.const.array_like(x), or a module-level NumPy
 * array used directly) become static arrays in constant memory whose
 * bytes are the array's at compile time (SArray.init): the PTX back end
 * writes them as the initialiser of a `.const` array, the simulator
 * copies them.  Two uses of arrays with the same bytes share one array.
 * Constant memory holds 64 KiB in all.
 */
#include <string.h>

#include "lower.h"

enum { CONST_MEM_BYTES = 65536 };

static Ref field_addr(Lower *L, Value rec, const RecField *f)
{
	if (!f->off)
		return rec.data;
	return lower_emit(L, O_ADD, KL, SK_I64, rec.data, ir_con_int(L->f, KL, f->off), REF_NONE, 0);
}

static const RecField *field_of(Lower *L, Type *rt, const char *name, Span sp)
{
	const RecField *f = rt && rt->kind == TY_RECORD ? ty_field(rt, name) : NULL;
	if (!f)
		ICE(L->c, "record %s has no field '%s'", rt ? ty_str_of(L->c, rt) : "?", name ? name : "?");
	return f;
}

/* The record and field of r.x or r['x']. */
static const RecField *target_field(Lower *L, Expr *e, Value *rec)
{
	if (e->kind == E_ATTR) {
		*rec = lower_expr(L, e->attr.obj);
		return field_of(L, rec->ty, e->attr.name, e->span);
	}
	*rec = lower_expr(L, e->sub.obj);
	Expr *ix = e->sub.index;
	int64_t k;
	if (ix->cval && ix->cval->kind == PJ_V_STR && ix->cval->s)
		return field_of(L, rec->ty, ix->cval->s, e->span);
	if (!lower_const_int(ix, &k) || k < -rec->ty->nfields || k >= rec->ty->nfields)
		ICE(L->c, "record subscript without a constant field name");
	return &rec->ty->fields[k < 0 ? k + rec->ty->nfields : k];
}

static Value load_field(Lower *L, Expr *e)
{
	Value rec;
	const RecField *f = target_field(L, e, &rec);
	int loc = L->f->cur_loc;
	L->f->cur_loc = ir_add_loc(L->f, e->span);
	Value v = lower_load(L, f->ty, field_addr(L, rec, f), rec.ty->space, e->span);
	L->f->cur_loc = loc;
	return lower_convert(L, v, e->ty, e->span);
}

Value lower_record_attr(Lower *L, Expr *e)
{
	return load_field(L, e);
}

Value lower_record_load(Lower *L, Expr *e)
{
	return load_field(L, e);
}

void lower_record_store(Lower *L, Expr *target, Value v)
{
	Value rec;
	const RecField *f = target_field(L, target, &rec);
	if (rec.ty->readonly)
		err_at(L->c, target->span, "write into records of an array that is not read-only",
		       "cannot assign to a field of a record in a read-only array");
	int loc = L->f->cur_loc;
	L->f->cur_loc = ir_add_loc(L->f, target->span);
	lower_store(L, f->ty, field_addr(L, rec, f), rec.ty->space, v, target->span);
	L->f->cur_loc = loc;
}

void lower_record_aug(Lower *L, Expr *target, AstOp op, Expr *value)
{
	Value rec;
	const RecField *f = target_field(L, target, &rec);
	if (rec.ty->readonly)
		err_at(L->c, target->span, "write into records of an array that is not read-only",
		       "cannot assign to a field of a record in a read-only array");
	int loc = L->f->cur_loc;
	L->f->cur_loc = ir_add_loc(L->f, target->span);
	Ref addr = field_addr(L, rec, f);
	Value cur = lower_load(L, f->ty, addr, rec.ty->space, target->span);
	L->f->cur_loc = loc;
	Type *ty = lower_arith_type(op, f->ty, value->ty);
	if (!ty)
		err_at(L->c, value->span, NULL, "unsupported operand types for %s=: %s and %s", ast_op_name[op],
		       ty_str_of(L->c, f->ty), ty_str_of(L->c, value->ty));
	Value r;
	if (!lower_try_fma_aug(L, op, cur, value, ty, &r)) {
		Value v = lower_expr(L, value);
		r = op == OP_POW ? lower_pow(L, cur, value, v, ty, value->span)
		                 : lower_binop(L, op, cur, v, ty, value->span);
	}
	L->f->cur_loc = ir_add_loc(L->f, target->span);
	lower_store(L, f->ty, addr, rec.ty->space, r, target->span);
	L->f->cur_loc = loc;
}

void lower_record_copy(Lower *L, Type *dst, Ref addr, Value src, Span sp)
{
	if (!src.ty || src.ty->kind != TY_RECORD || !ty_record_same(src.ty, dst))
		err_at(L->c, sp, "assign a record of the same dtype", "cannot store %s into a record of type %s",
		       src.ty ? ty_str_of(L->c, src.ty) : "this value", ty_str_of(L->c, dst));
	Value to = {.ty = dst, .data = addr};
	for (int i = 0; i < dst->nfields; i++) {
		const RecField *f = &dst->fields[i];
		Value v = lower_load(L, f->ty, field_addr(L, src, f), src.ty->space, sp);
		lower_store(L, f->ty, field_addr(L, to, f), dst->space, v, sp);
	}
}

/* ------------------------------------------------------ constant arrays */

Value lower_const_array(Lower *L, const Const *cv, Span sp)
{
	Fn *f = L->f;
	Type *t = cv->ty;
	if (!t || t->kind != TY_ARRAY || t->space != SP_CONST || !cv->data || cv->n != t->ndim)
		ICE(L->c, "constant array of type %s", t ? ty_str_of(L->c, t) : "?");
	int64_t bytes = ty_elem_size(t->elem), used = 0;
	for (int i = 0; i < t->ndim; i++) {
		int64_t d = cv->elts[i].i;
		if (d < 0 || (d > 0 && bytes > CONST_MEM_BYTES / d + 1))
			bytes = CONST_MEM_BYTES + 1;
		else
			bytes *= d;
	}
	int idx = -1;
	for (int i = 0; i < f->narrays; i++) {
		SArray *a = &f->arrays[i];
		if (a->space != SP_CONST)
			continue;
		used += a->size;
		if (idx < 0 && a->size == bytes && a->init && memcmp(a->init, cv->data, (size_t)bytes) == 0)
			idx = i;
	}
	if (idx < 0) {
		if (bytes > CONST_MEM_BYTES || used + bytes > CONST_MEM_BYTES)
			err_at(L->c, sp, "pass large arrays to the kernel as arguments (cuda.to_device)",
			       "this constant array needs %lld bytes, and constant memory holds %d bytes in all "
			       "(%lld are used by other constant arrays)", (long long)bytes, CONST_MEM_BYTES,
			       (long long)used);
		SArray sa;
		memset(&sa, 0, sizeof sa);
		sa.space = SP_CONST;
		sa.size = bytes;
		sa.align = ty_elem_align(t->elem) < 8 ? 8 : ty_elem_align(t->elem);
		void *copy = arena_alloc(L->c->arena, (size_t)(bytes ? bytes : 1));
		memcpy(copy, cv->data, (size_t)bytes);
		sa.init = copy;
		sa.name = arena_printf(L->c->arena, "cmem%d", f->narrays);
		VEC_PUSH(L->c, f->arrays, f->narrays, f->caparrays, sa);
		idx = f->narrays - 1;
	}
	Value v = {.ty = t};
	v.data = lower_emit(L, O_ADDR, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, idx);
	v.shape = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(t->ndim + 1));
	for (int i = 0; i < t->ndim; i++)
		v.shape[i] = ir_con_int(f, KL, cv->elts[i].i);
	return v;
}

/*
 * lower_record.c - records (elements of structured arrays) and constant
 * arrays.
 *
 * A record value is the address of one record (Value.data) in the memory
 * space its type names (record.c): `r = a[i]` only computes the address,
 * `r.x` and `r['x']` load the field at its byte offset, `r.x = v` stores
 * there (converted to the field's type).  A nested record field is the
 * address of the inner record (`r.p.x` is one load at the sum of the
 * offsets); a sub-array field is a C array whose data pointer is the
 * field's address and whose extents are constants, so indexing it, its
 * .shape and passing it on are those of any array.  Sema has checked that
 * every field used lies at a multiple of its size, so these are ordinary
 * aligned loads and stores.
 *
 * Copies: `a[i] = b[j]` and `r.p = q` copy the record's bytes in units of
 * the largest power of two (at most 8) that divides both the record's
 * size and its alignment, which every record of that dtype is aligned to
 * (padding bytes are copied too, as memcpy would); `r.j = src` copies an
 * array element by element in C order, converting each element (a
 * number is broadcast).  Longer copies are loops.
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

enum { CONST_MEM_BYTES = 65536, UNROLL_COPY = 16 };

/* a + b, or a itself when b is the constant 0 */
static Ref add64_nz(Lower *L, Ref a, Ref b)
{
	if (b.kind == R_CON && L->f->con[b.idx].i == 0)
		return a;
	return lower_emit(L, O_ADD, KL, SK_I64, a, b, REF_NONE, 0);
}

static Ref field_addr(Lower *L, Value rec, const RecField *f)
{
	return add64_nz(L, rec.data, con64(L, f->off));
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

/* A nested record or sub-array field as a value (no memory is read). */
static Value field_ref(Lower *L, Value rec, const RecField *f)
{
	Type *ft = ty_field_in(L->c, rec.ty, f);
	Value v = {.ty = ft, .data = field_addr(L, rec, f)};
	if (ft->kind == TY_ARRAY) {
		v.shape = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(ft->ndim + 1));
		for (int d = 0; d < ft->ndim; d++)
			v.shape[d] = con64(L, f->dims[d]);
	}
	return v;
}

static Value load_field(Lower *L, Expr *e)
{
	Value rec;
	const RecField *f = target_field(L, e, &rec);
	if (f->ty->kind != TY_SCALAR)
		return lower_convert(L, field_ref(L, rec, f), e->ty, e->span);
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

/* ------------------------------------------------------------- loops */

/* for k in range(n): the body goes between loop_begin and loop_end */
typedef struct CopyLoop {
	int slot;
	Blk *head, *done;
	Ref k;
} CopyLoop;

static Ref loop_begin(Lower *L, CopyLoop *lp, Ref n)
{
	Type *i64 = ty_scalar(SK_I64);
	lp->slot = lower_new_slots(L, i64, "k");
	lower_write(L, lp->slot, i64, lower_scalar(i64, con64(L, 0)));
	lp->head = lower_new_blk(L);
	Blk *body = lower_new_blk(L);
	lp->done = lower_new_blk(L);
	lower_jump(L, lp->head);
	lower_enter(L, lp->head);
	lp->k = lower_read(L, lp->slot, i64).r;
	lower_branch(L, lower_cmp(L, CC_LT, SK_I64, lp->k, n), body, lp->done);
	lower_seal(L, body);
	lower_enter(L, body);
	return lp->k;
}

static void loop_end(Lower *L, CopyLoop *lp)
{
	Type *i64 = ty_scalar(SK_I64);
	lower_write(L, lp->slot, i64, lower_scalar(i64, add64_nz(L, lp->k, con64(L, 1))));
	lower_jump(L, lp->head);
	lower_seal(L, lp->head);
	lower_seal(L, lp->done);
	lower_enter(L, lp->done);
}

/* ------------------------------------------------------------- copies */

/* size bytes from src to dst in units of `unit` bytes */
static void copy_bytes(Lower *L, Ref dst, int dspace, Ref src, int sspace, int64_t size, int unit)
{
	static const ScalarKind unit_sk[9] = {[1] = SK_U8, [2] = SK_U16, [4] = SK_U32, [8] = SK_U64};
	ScalarKind sk = unit_sk[unit];
	Cls k = lower_cls(sk);
	int64_t n = size / unit;
	if (n <= UNROLL_COPY) {
		for (int64_t i = 0; i < n; i++) {
			Ref o = con64(L, i * unit);
			Ref v = lower_emit(L, O_LOAD, k, sk, add64_nz(L, src, o), REF_NONE, REF_NONE, sspace);
			lower_emit(L, O_STORE, k, sk, add64_nz(L, dst, o), v, REF_NONE, dspace);
		}
		return;
	}
	CopyLoop lp;
	Ref i = loop_begin(L, &lp, con64(L, n));
	Ref o = mul64(L, i, con64(L, unit));
	Ref v = lower_emit(L, O_LOAD, k, sk, add64_nz(L, src, o), REF_NONE, REF_NONE, sspace);
	lower_emit(L, O_STORE, k, sk, add64_nz(L, dst, o), v, REF_NONE, dspace);
	loop_end(L, &lp);
}

/* dst (a string) = src (a string of its kind): its characters, cut to
 * dst's length, then zero characters to the end */
static void copy_charseq(Lower *L, Type *dst, Ref addr, Value src)
{
	int64_t n = src.ty->size < dst->size ? src.ty->size : dst->size;
	copy_bytes(L, addr, dst->space, src.data, src.ty->space, n, 1);
	Cls k = lower_cls(SK_U8);
	Ref zero = ir_con_int(L->f, k, 0);
	if (dst->size - n <= UNROLL_COPY) {
		for (int64_t i = n; i < dst->size; i++)
			lower_emit(L, O_STORE, k, SK_U8, add64_nz(L, addr, con64(L, i)), zero, REF_NONE, dst->space);
		return;
	}
	CopyLoop lp;
	Ref i = loop_begin(L, &lp, con64(L, dst->size - n));
	lower_emit(L, O_STORE, k, SK_U8, add64_nz(L, addr, add64_nz(L, i, con64(L, n))), zero, REF_NONE, dst->space);
	loop_end(L, &lp);
}

void lower_record_copy(Lower *L, Type *dst, Ref addr, Value src, Span sp)
{
	if (dst->charseq && src.ty && src.ty->kind == TY_RECORD && src.ty->charseq == dst->charseq) {
		copy_charseq(L, dst, addr, src);
		return;
	}
	if (!src.ty || src.ty->kind != TY_RECORD || !ty_record_same(src.ty, dst))
		err_at(L->c, sp, "assign a record of the same dtype", "cannot store %s into a record of type %s",
		       src.ty ? ty_str_of(L->c, src.ty) : "this value", ty_str_of(L->c, dst));
	int unit = 8;
	while (unit > 1 && (dst->size % unit || dst->align % unit))
		unit /= 2;
	copy_bytes(L, addr, dst->space, src.data, src.ty->space, dst->size, unit);
}

static void check_src(Lower *L, Ref idx, Value arr, int axis)
{
	Fn *f = L->f;
	if (!f->checked)
		return;
	CheckInfo ci;
	memset(&ci, 0, sizeof ci);
	ci.array = "the value assigned";
	ci.axis = axis;
	ci.ndim = arr.ty->ndim;
	for (int d = 0; d < arr.ty->ndim && d < 8; d++)
		ci.ext[d] = arr.shape[d];
	ci.loc = f->cur_loc;
	VEC_PUSH(L->c, f->checks, f->nchecks, f->capchecks, ci);
	lower_emit(L, O_CHECK, KL, SK_I64, idx, arr.shape[axis], REF_NONE, f->nchecks - 1);
}

/* dst (a sub-array field: C, constant extents) = src, element by element
 * in C order; src is an array of the same number of dimensions (its
 * elements converted) or a number stored into every element. */
static void store_subarray(Lower *L, Value dst, Value src, Span sp)
{
	Type *t = dst.ty;
	int64_t n = 1, esz = ty_elem_size(t->elem);
	for (int d = 0; d < t->ndim; d++)
		n *= L->f->con[dst.shape[d].idx].i;
	int isarr = src.ty->kind == TY_ARRAY;
	if (isarr && (src.ty->ndim != t->ndim || t->elem->kind != TY_SCALAR))
		ICE(L->c, "storing %s into %s", ty_str_of(L->c, src.ty), ty_str_of(L->c, t));
	if (!isarr)
		src = lower_convert(L, src, t->elem, sp);
	CopyLoop lp;
	Ref k = loop_begin(L, &lp, con64(L, n));
	Value v = src;
	if (isarr) {
		Ref saddr = src.data, rest = k;
		for (int d = t->ndim - 1; d >= 0; d--) {
			Ref ext = dst.shape[d];
			Ref i = d ? lower_emit(L, O_REM, KL, SK_I64, rest, ext, REF_NONE, 0) : rest;
			if (d)
				rest = lower_emit(L, O_DIV, KL, SK_I64, rest, ext, REF_NONE, 0);
			check_src(L, i, src, d);
			saddr = add64_nz(L, saddr, mul64(L, i, lower_byte_stride(L, src, d)));
		}
		v = lower_load(L, src.ty->elem, saddr, src.ty->space, sp);
	}
	lower_store(L, t->elem, add64_nz(L, dst.data, mul64(L, k, con64(L, esz))), t->space, v, sp);
	loop_end(L, &lp);
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
	if (f->ty->kind == TY_RECORD)
		lower_record_copy(L, ty_field_in(L->c, rec.ty, f), field_addr(L, rec, f), v, target->span);
	else if (f->ty->kind == TY_ARRAY)
		store_subarray(L, field_ref(L, rec, f), v, target->span);
	else
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
	if (f->ty->kind != TY_SCALAR)
		ICE(L->c, "augmented assignment to the non-scalar field '%s'", f->name);
	int loc = L->f->cur_loc;
	L->f->cur_loc = ir_add_loc(L->f, target->span);
	Ref addr = field_addr(L, rec, f);
	Value cur = lower_load(L, f->ty, addr, rec.ty->space, target->span);
	L->f->cur_loc = loc;
	Value r = lower_aug_value(L, op, cur, f->ty, value, value->span);
	L->f->cur_loc = ir_add_loc(L->f, target->span);
	lower_store(L, f->ty, addr, rec.ty->space, r, target->span);
	L->f->cur_loc = loc;
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

/* A global device array: its address and extents (and byte strides, for
 * layout A) are constants; the kernel's Fn notes the bytes it spans. */
Value lower_device_array(Lower *L, const Const *cv, Type *t)
{
	Fn *f = L->f, *kf = f->mod ? f->mod : f;
	int n = t->ndim;
	if (cv->n != n)
		ICE(L->c, "device array constant of %d dimensions typed %s", cv->n, ty_str_of(L->c, t));
	Value v = {.ty = t};
	v.data = ir_con_int(f, KL, cv->i);
	v.shape = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(n + 1));
	int64_t lo = 0, hi = ty_elem_size(t->elem);
	int empty = 0;
	for (int d = 0; d < n; d++) {
		int64_t ext = cv->elts[d].i, st = cv->elts[n + d].i;
		v.shape[d] = ir_con_int(f, KL, ext);
		if (ext == 0)
			empty = 1;
		else if (st < 0)
			lo += (ext - 1) * st;
		else
			hi += (ext - 1) * st;
	}
	if (t->layout == LAYOUT_A) {
		v.stride = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(n + 1));
		for (int d = 0; d < n; d++)
			v.stride[d] = ir_con_int(f, KL, cv->elts[n + d].i);
	}
	DevMem m = {(uint64_t)cv->i + (uint64_t)lo, empty ? 0 : (uint64_t)(hi - lo), cv->s ? cv->s : "?"};
	for (int i = 0; i < kf->ndevmem; i++)
		if (kf->devmem[i].lo == m.lo && kf->devmem[i].len == m.len)
			return v;
	VEC_PUSH(L->c, kf->devmem, kf->ndevmem, kf->capdevmem, m);
	return v;
}

/*
 * record.c - records (NumPy structured dtypes) and arrays whose element
 * is a scalar or a record.
 *
 * A record type lists its fields: a name, a scalar type and a byte
 * offset, in the order of the dtype, and the size of one record in bytes
 * (the dtype's itemsize, padding included).  As a value in a kernel a
 * record is a reference to one record in memory, as in Numba: `r =
 * a[i]` does not copy, `r.x = 1` writes into the array.  So a record
 * value's type also says which memory space it points into (`space`) and
 * whether it may be written (`readonly`), like an array's; the element
 * type of an array of records is the plain dtype (global, writable) and
 * indexing makes the reference type.  Two record types are the same
 * dtype when their fields, offsets and size agree.
 *
 * The text form is Numba's str() of a Record type,
 *   Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)
 * which the glue writes for structured dtypes and sig.c reads back.
 *
 * Fields must be aligned to their size in every record of an array (the
 * GPU has no unaligned loads): a packed dtype that misaligns a field is
 * refused where the field is used, with a hint to build it with
 * align=True.
 */
#include <string.h>

#include "../core.h"

Type *ty_record(Ctx *c, int nfields, const RecField *fields, int size)
{
	Type *t = arena_alloc(c->arena, sizeof *t);
	t->kind = TY_RECORD;
	t->nfields = nfields;
	t->fields = arena_alloc(c->arena, sizeof(RecField) * (size_t)(nfields ? nfields : 1));
	int align = 1;
	for (int i = 0; i < nfields; i++) {
		t->fields[i] = fields[i];
		int a = ty_elem_align(fields[i].ty);
		if (a > align)
			align = a;
	}
	t->size = size;
	t->align = align;
	t->space = SP_GLOBAL;
	return t;
}

Type *ty_record_in(Ctx *c, Type *rec, int space, int readonly)
{
	if (rec->space == space && rec->readonly == readonly)
		return rec;
	Type *t = arena_alloc(c->arena, sizeof *t);
	*t = *rec;
	t->space = (char)space;
	t->readonly = (char)readonly;
	return t;
}

const RecField *ty_field(const Type *rec, const char *name)
{
	if (!rec || rec->kind != TY_RECORD || !name)
		return NULL;
	for (int i = 0; i < rec->nfields; i++)
		if (strcmp(rec->fields[i].name, name) == 0)
			return &rec->fields[i];
	return NULL;
}

int ty_record_same(const Type *a, const Type *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->kind != TY_RECORD || b->kind != TY_RECORD)
		return 0;
	if (a->nfields != b->nfields || a->size != b->size)
		return 0;
	for (int i = 0; i < a->nfields; i++) {
		const RecField *x = &a->fields[i], *y = &b->fields[i];
		if (x->off != y->off || strcmp(x->name, y->name) != 0 || !ty_equal(x->ty, y->ty))
			return 0;
	}
	return 1;
}

Type *ty_array_of(Ctx *c, Type *elem, int ndim, char layout, int space, int readonly)
{
	if (elem->kind == TY_SCALAR)
		return ty_array(c, elem->sk, ndim, layout, space, readonly);
	Type *t = ty_array(c, SK_U8, ndim, layout, space, readonly);
	t->elem = ty_record_in(c, elem, SP_GLOBAL, 0);
	return t;
}

int ty_elem_size(const Type *elem)
{
	if (!elem)
		return 1;
	if (elem->kind == TY_RECORD)
		return elem->size > 0 ? elem->size : 1;
	return scalar_info[elem->sk].size;
}

int ty_elem_align(const Type *elem)
{
	if (!elem)
		return 1;
	if (elem->kind == TY_RECORD)
		return elem->align > 0 ? elem->align : 1;
	const ScalarInfo *si = &scalar_info[elem->sk];
	return si->is_complex ? si->size / 2 : si->size;
}

Type *ty_dtype_record(Ctx *c, Type *rec)
{
	Type *t = ty_dtype(c, SK_U8);
	t->elem = ty_record_in(c, rec, SP_GLOBAL, 0);
	return t;
}

const char *ty_record_str(Ctx *c, const Type *rec)
{
	const char *s = "Record(";
	for (int i = 0; i < rec->nfields; i++) {
		const RecField *f = &rec->fields[i];
		s = arena_printf(c->arena, "%s%s%s[type=%s;offset=%d]", s, i ? "," : "", f->name,
		                 ty_str_of(c, f->ty), f->off);
	}
	return arena_printf(c->arena, "%s;%d;False)", s, rec->size);
}

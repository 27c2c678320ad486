/*
 * record.c - records (NumPy structured dtypes) and arrays whose element
 * is a scalar or a record.
 *
 * A record type lists its fields: a name, a type and a byte offset, in
 * the order of the dtype, and the size of one record in bytes (the
 * dtype's itemsize, padding included).  A field's type is a scalar, a
 * record (a nested struct) or a C array of fixed extents (RecField.dims)
 * of scalars or records: Numba's NestedArray.
 *
 * As a value in a kernel a record is a reference to one record in
 * memory, as in Numba: `r = a[i]` does not copy, `r.x = 1` writes into
 * the array.  So a record value's type also says which memory space it
 * points into (`space`) and whether it may be written (`readonly`), like
 * an array's; the element type of an array of records is the plain dtype
 * (global, writable) and indexing makes the reference type.  A field's
 * own record or array type is stored global and writable too; reading
 * it through a reference (ty_field_in) gives a reference, or an array,
 * in the reference's space and read-only when it is: `r.p.x = 1` and
 * `r.j[1, 0] = 2` write into the memory that holds r.  Two record types
 * are the same dtype when their fields, offsets (and extents) and size
 * agree.
 *
 * The text form is Numba's str() of a Record type,
 *   Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)
 * with sub-array fields spelled j[type=nestedarray(int32, (2, 3));offset=8]
 * and nested records spelled as records, which the glue writes for
 * structured dtypes and sig.c reads back.
 *
 * A fixed-length string (NumPy's |S12 and <U12: Numba's CharSeq and
 * UnicodeCharSeq, spelled [char x 12] and [unichr x 12]) is a record
 * without fields whose `charseq` is its character's width (1 or 4): an
 * array element or a field of that type is assigned a literal of its
 * kind (b'...' or '...'), truncated to its length and padded with zero
 * characters as NumPy does, or another string of its kind; its bytes are
 * copied one at a time (alignment 1, as NumPy's packed strings need).
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
	t->field_index = arena_alloc(c->arena, sizeof *t->field_index);
	int align = 1;
	for (int i = 0; i < nfields; i++) {
		t->fields[i] = fields[i];
		if (names_get(t->field_index, fields[i].name) < 0)
			names_put(c, t->field_index, fields[i].name, i);
		int a = ty_elem_align(fields[i].ty);
		if (a > align)
			align = a;
	}
	t->size = size;
	t->align = align;
	t->space = SP_GLOBAL;
	return t;
}

Type *ty_charseq(Ctx *c, int width, int n)
{
	Type *t = ty_record(c, 0, NULL, width * n);
	t->charseq = width;
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
	if (rec->field_index) {
		int i = names_get(rec->field_index, name);
		return i >= 0 ? &rec->fields[i] : NULL;
	}
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
	if (a->nfields != b->nfields || a->size != b->size || a->charseq != b->charseq)
		return 0;
	for (int i = 0; i < a->nfields; i++) {
		const RecField *x = &a->fields[i], *y = &b->fields[i];
		if (x->off != y->off || strcmp(x->name, y->name) != 0 || !ty_equal(x->ty, y->ty))
			return 0;
		if (x->ty->kind == TY_ARRAY)
			for (int d = 0; d < x->ty->ndim; d++)
				if (!x->dims || !y->dims || x->dims[d] != y->dims[d])
					return 0;
	}
	return 1;
}

int64_t ty_field_size(const RecField *f)
{
	if (f->ty->kind != TY_ARRAY)
		return ty_elem_size(f->ty);
	int64_t n = ty_elem_size(f->ty->elem);
	for (int d = 0; d < f->ty->ndim; d++)
		n *= f->dims ? f->dims[d] : 0;
	return n;
}

Type *ty_field_in(Ctx *c, const Type *rec, const RecField *f)
{
	Type *t = f->ty;
	if (t->kind == TY_RECORD)
		return ty_record_in(c, t, rec->space, rec->readonly);
	if (t->kind == TY_ARRAY)
		return ty_array_of(c, t->elem, t->ndim, LAYOUT_C, rec->space, rec->readonly);
	return t;
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
	if (elem->kind == TY_ARRAY)
		return ty_elem_align(elem->elem);
	const ScalarInfo *si = &scalar_info[elem->sk];
	return si->is_complex ? si->size / 2 : si->size;
}

Type *ty_dtype_record(Ctx *c, Type *rec)
{
	Type *t = ty_dtype(c, SK_U8);
	t->elem = ty_record_in(c, rec, SP_GLOBAL, 0);
	return t;
}

/* nestedarray(int32, (2, 3)), as Numba spells a sub-array field */
static const char *field_type_str(Ctx *c, const RecField *f)
{
	if (f->ty->kind != TY_ARRAY)
		return ty_str_of(c, f->ty);
	const char *s = "";
	for (int d = 0; d < f->ty->ndim; d++)
		s = arena_printf(c->arena, "%s%s%lld", s, d ? ", " : "", (long long)(f->dims ? f->dims[d] : 0));
	return arena_printf(c->arena, "nestedarray(%s, (%s%s))", ty_str_of(c, f->ty->elem), s,
	                    f->ty->ndim == 1 ? "," : "");
}

/* The fields' text is gathered first and joined once: appending field by
 * field would copy the text so far for every field. */
const char *ty_record_str(Ctx *c, const Type *rec)
{
	if (rec->charseq)
		return arena_printf(c->arena, "[%s x %d]", rec->charseq == 1 ? "char" : "unichr", rec->size / rec->charseq);
	const char **part = arena_alloc(c->arena, sizeof *part * (size_t)(rec->nfields + 1));
	size_t len = 0;
	for (int i = 0; i < rec->nfields; i++) {
		const RecField *f = &rec->fields[i];
		part[i] = arena_printf(c->arena, "%s%s[type=%s;offset=%d]", i ? "," : "", f->name,
		                       field_type_str(c, f), f->off);
		len += strlen(part[i]);
	}
	char *s = arena_alloc(c->arena, len + 1), *p = s;
	for (int i = 0; i < rec->nfields; i++) {
		size_t n = strlen(part[i]);
		memcpy(p, part[i], n);
		p += n;
	}
	return arena_printf(c->arena, "Record(%s;%d;False)", s, rec->size);
}

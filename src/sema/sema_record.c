/*
 * sema_record.c - typing of records (fields of structured arrays) and of
 * constant arrays (cuda.const.array_like and module-level NumPy arrays).
 *
 * Records: `a[i]` of an array of records is a record (a reference into
 * the array, see record.c); its fields are read and written as `r.x`,
 * `r['x']` (or by constant position, `r[0]`), `a[i].x = v`,
 * `a[i]['x'] += v`; `a[i] = a[j]` copies a whole record of the same
 * dtype.  A nested record field is a record again (`r.p.x`, `r.p = q`
 * copies); a sub-array field is a C array of constant extents in the
 * record's memory (`r.j[1, 0]`, `r.j.shape`, passed on as an array),
 * and `r.j = src` copies an array of its shape (or broadcasts a number)
 * into it.  The field is looked up here, so lowering finds it again by
 * name.  A field must be aligned to its size in every record of an
 * array, else the access is refused here (a packed dtype).
 *
 * Constant arrays: a global name bound to a NumPy array resolves to a
 * Const of kind PJ_V_ARRAY (resolve.c) whose type is a read-only C array
 * in constant memory; cuda.const.array_like(x) takes such a name (or any
 * expression with that Const) and has its type.  Lowering makes one
 * `.const` array per distinct content.
 */
#include <string.h>

#include "sema.h"

static Type *set(Expr *e, Type *t, Const *cv)
{
	e->ty = t;
	e->cval = cv;
	return t;
}

static const char *field_list(Ctx *c, const Type *rt)
{
	const char *s = "";
	for (int i = 0; i < rt->nfields; i++)
		s = arena_printf(c->arena, "%s%s%s", s, i ? ", " : "", rt->fields[i].name);
	return s;
}

static const char *field_desc(Ctx *c, const RecField *f)
{
	if (f->ty->kind == TY_ARRAY)
		return arena_printf(c->arena, "an array of %s", ty_str_of(c, f->ty->elem));
	if (f->ty->kind == TY_RECORD)
		return "a record";
	return ty_str_of(c, f->ty);
}

const RecField *sema_record_field(Scope *sc, Type *rt, const char *name, Span sp)
{
	Ctx *c = sc->c;
	const RecField *f = ty_field(rt, name);
	if (!f)
		err_at(c, sp, arena_printf(c->arena, "the fields of this record are %s", field_list(c, rt)),
		       "the record has no field '%s'", name);
	/* a sub-array's elements follow each other: a record element's size
	 * must keep the next one aligned too */
	int al = ty_elem_align(f->ty);
	int esz = f->ty->kind == TY_ARRAY ? ty_elem_size(f->ty->elem) : al;
	if (f->off % al || rt->size % al || esz % al)
		err_at(c, sp, "make the dtype with align=True (numpy.dtype([...], align=True)) so every field "
		              "lies at a multiple of its size",
		       "field '%s': type %s is not aligned (it lies at byte %d of a %d-byte record; the GPU loads "
		       "and stores it at a multiple of %d bytes)", name, ty_str_of(c, f->ty), f->off, rt->size, al);
	return f;
}

Type *sema_record_attr(Scope *sc, Expr *e, Type *rt)
{
	Span sp = e->attr.name_span.src ? e->attr.name_span : e->span;
	return set(e, ty_field_in(sc->c, rt, sema_record_field(sc, rt, e->attr.name, sp)), NULL);
}

/* The field named by a record subscript r['x'] (or numbered: r[0]). */
static const RecField *index_field(Scope *sc, Expr *e, Type *rt)
{
	Expr *ix = e->sub.index;
	Type *it = type_expr(sc, ix);
	int64_t k;
	if (!it)
		return NULL;
	if (ty_is_int(it) && const_int_value(ix, &k)) {
		if (k < -rt->nfields || k >= rt->nfields)
			err_at(sc->c, ix->span, arena_printf(sc->c->arena, "the fields of this record are %s",
			                                     field_list(sc->c, rt)),
			       "field index %lld is out of range for a record of %d fields", (long long)k, rt->nfields);
		return sema_record_field(sc, rt, rt->fields[k < 0 ? k + rt->nfields : k].name, ix->span);
	}
	if (it->kind != TY_STR || !ix->cval || !ix->cval->s)
		err_at(sc->c, ix->span, arena_printf(sc->c->arena, "name a field with a string, as in r['%s']",
		                                     rt->nfields ? rt->fields[0].name : "x"),
		       "a record is indexed with the constant name of a field, not %s", ty_str_of(sc->c, it));
	return sema_record_field(sc, rt, ix->cval->s, ix->span);
}

Type *sema_record_index(Scope *sc, Expr *e, Type *rt)
{
	const RecField *f = index_field(sc, e, rt);
	return set(e, f ? ty_field_in(sc->c, rt, f) : NULL, NULL);
}

/* r.x = v, r['x'] = v (value NULL: an augmented assignment, vt unused) */
void sema_record_store(Scope *sc, Expr *target, Type *vt, Expr *value)
{
	Ctx *c = sc->c;
	Expr *obj = target->kind == E_ATTR ? target->attr.obj : target->sub.obj;
	Type *rt = type_expr(sc, obj);
	target->ty = NULL;
	target->cval = NULL;
	if (!rt)
		return;
	if (rt->kind != TY_RECORD)
		ICE(c, "record store into %s", ty_str_of(c, rt));
	const RecField *f;
	if (target->kind == E_ATTR) {
		Span sp = target->attr.name_span.src ? target->attr.name_span : target->span;
		f = sema_record_field(sc, rt, target->attr.name, sp);
	} else if (!(f = index_field(sc, target, rt)))
		return;
	if (rt->readonly)
		err_at(c, target->span, "write into records of an array that is not read-only",
		       "cannot assign to a field of a record in a read-only array");
	Type *ft = ty_field_in(c, rt, f);
	target->ty = ft;
	if (ft->kind == TY_SCALAR) {
		if (value && vt)
			storable(sc, ft, value, arena_printf(c->arena, "field '%s' (%s)", f->name, ty_str_of(c, ft)));
		return;
	}
	if (!value)
		err_at(c, target->span, ft->kind == TY_ARRAY ? "update the elements of the field: r.j[i] += v"
		                                              : "update the fields of the nested record: r.p.x += v",
		       "field '%s' is %s, which an augmented assignment cannot update", f->name, field_desc(c, f));
	if (!vt)
		return;
	if (ft->kind == TY_RECORD) {
		sema_record_copy(sc, ft, value);
		return;
	}
	/* r.j = src (an array of the same number of dimensions) or r.j = x */
	const char *what = arena_printf(c->arena, "the elements of field '%s' (%s)", f->name, field_desc(c, f));
	if (vt->kind == TY_ARRAY) {
		if (vt->ndim != ft->ndim || ft->elem->kind != TY_SCALAR || vt->elem->kind != TY_SCALAR ||
		    (ty_is_complex(vt->elem) && !ty_is_complex(ft->elem)))
			err_at(c, value->span, arena_printf(c->arena, "assign a %dd array of numbers of the field's shape",
			                                    ft->ndim),
			       "cannot store %s into %s", ty_str_of(c, vt), what);
		return;
	}
	if (ft->elem->kind != TY_SCALAR)
		err_at(c, value->span, "assign the records one by one", "cannot store %s into %s", ty_str_of(c, vt),
		       what);
	storable(sc, ft->elem, value, what);
}

/* The bytes of string literal e stored into a string of type rt: UTF-32
 * code points for <U, the bytes for |S, truncated to rt's length and
 * padded with zero characters, as NumPy stores a str or bytes. */
static unsigned char *charseq_bytes(Scope *sc, Type *rt, Expr *e)
{
	unsigned char *out = arena_alloc(sc->c->arena, (size_t)rt->size);
	memset(out, 0, (size_t)rt->size);
	const unsigned char *s = (const unsigned char *)e->str.s;
	int n = e->str.len, k = 0, w = rt->charseq;
	for (int i = 0; i < n && k + w <= rt->size;) {
		uint32_t cp = s[i++];
		if (w == 4 && cp >= 0x80) {        /* the source is UTF-8 */
			int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : 1;
			cp &= 0x3F >> more;
			for (; more > 0 && i < n; more--)
				cp = cp << 6 | (s[i++] & 0x3F);
		}
		for (int b = 0; b < w; b++)
			out[k++] = (unsigned char)(cp >> (8 * b));
	}
	return out;
}

/* r = a string literal stored into a string of type rt: a constant of
 * rt's bytes (in constant memory), which the store copies */
static void charseq_literal(Scope *sc, Type *rt, Expr *value)
{
	Ctx *c = sc->c;
	Type *plain = ty_record_in(c, rt, SP_GLOBAL, 0);
	Const *one = arena_alloc(c->arena, sizeof *one);
	memset(one, 0, sizeof *one);
	one->kind = PJ_V_INT;
	one->i = 1;
	Const *cv = arena_alloc(c->arena, sizeof *cv);
	memset(cv, 0, sizeof *cv);
	cv->kind = PJ_V_ARRAY;
	cv->n = 1;
	cv->elts = one;
	cv->data = charseq_bytes(sc, rt, value);
	cv->ty = ty_array_of(c, plain, 1, LAYOUT_C, SP_CONST, 1);
	value->ty = ty_record_in(c, plain, SP_CONST, 1);
	value->cval = cv;
}

/* a[i] = value where a[i] is a string (rt->charseq): a literal of its
 * kind, or a string of its kind (of any length) */
static void charseq_store(Scope *sc, Type *rt, Expr *value)
{
	Type *vt = value->ty;
	int bytes = rt->charseq == 1;
	const char *want = bytes ? "assign a bytes literal (b'abc') or an element of another bytes array (dtype |S)"
	                         : "assign a str literal ('abc') or an element of another str array (dtype <U)";
	if (value->kind == E_STR && (value->str.bytes != 0) == bytes) {
		charseq_literal(sc, rt, value);
		return;
	}
	if (vt->kind == TY_RECORD && vt->charseq == rt->charseq)
		return;
	err_at(sc->c, value->span, want, "cannot store %s into an element of type %s",
	       value->kind == E_STR ? (value->str.bytes ? "a bytes literal" : "a str literal") : ty_str_of(sc->c, vt),
	       ty_str_of(sc->c, rt));
}

/* a[i] = value where a[i] is a record of type rt */
void sema_record_copy(Scope *sc, Type *rt, Expr *value)
{
	Type *vt = value->ty;
	if (!vt)
		return;
	if (rt->charseq) {
		charseq_store(sc, rt, value);
		return;
	}
	if (vt->kind != TY_RECORD || !ty_record_same(vt, rt))
		err_at(sc->c, value->span, "assign a record of the same dtype (a[i] = b[j]), or assign the fields one by one",
		       "cannot store %s into a record of type %s", ty_str_of(sc->c, vt), ty_str_of(sc->c, rt));
}

/* ------------------------------------------------------ constant arrays */

/* The type of a global array (resolve.c fills cv->data, cv->elts with
 * the extents and cv->s with the dtype's name). */
Type *sema_const_array_type(Ctx *c, Const *cv)
{
	Type *elem = NULL;
	if (cv->s && strncmp(cv->s, "Record(", 7) == 0)
		elem = ty_parse_one(c, cv->s);
	else {
		int sk = cv->s ? (int)ty_sk_from_name(cv->s) : -1;
		elem = sk >= 0 ? ty_scalar((ScalarKind)sk) : NULL;
	}
	if (!elem || cv->n < 0 || cv->n > 8)
		return NULL;
	return ty_array_of(c, elem, cv->n, LAYOUT_C, SP_CONST, 1);
}

/* The bytes of a constant array. */
int64_t sema_const_array_bytes(const Const *cv)
{
	if (!cv->ty || cv->ty->kind != TY_ARRAY)
		return 0;
	int64_t n = ty_elem_size(cv->ty->elem);
	for (int i = 0; i < cv->n; i++)
		n *= cv->elts[i].i;
	return n;
}

Type *sema_const_array_like(Scope *sc, Expr *e)
{
	Ctx *c = sc->c;
	const char *hint = "pass a NumPy array that is a global (module-level) or closure variable: "
	                   "cuda.const.array_like(TABLE)";
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, hint, "cuda.const.array_like() takes the array by position");
	if (e->call.nargs != 1)
		err_at(c, e->span, hint, "cuda.const.array_like() takes 1 argument (%d given)", e->call.nargs);
	Expr *a = e->call.args[0];
	Type *t = type_expr(sc, a);
	if (!t)
		return set(e, NULL, NULL);
	if (!a->cval || a->cval->kind != PJ_V_ARRAY)
		err_at(c, a->span, hint,
		       "cuda.const.array_like() needs an array known when the kernel is compiled, not %s%s",
		       t->kind == TY_ARRAY ? "an array argument or a local array: " : "", ty_str_of(c, t));
	return set(e, t, a->cval);
}

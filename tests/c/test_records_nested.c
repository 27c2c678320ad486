/*
 * test_records_nested.c - records whose fields are sub-arrays
 * (nestedarray(T, (extents))) or records: their spelling in signatures,
 * sizes, alignment, the types of fields read through a reference, and
 * the errors of bad spellings.  Kernels using them are tested in
 * tests/test_records_nested.py.
 *
 *   make build/test_records_nested && build/test_records_nested
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "check.h"

static Ctx ctx;
static jmp_buf jb;

static void fresh(void)
{
	if (ctx.arena)
		arena_free(ctx.arena);
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = arena_new();
	ctx.jmp = &jb;
}

/* the type of s, or NULL with the message in ctx.diag */
static Type *one(const char *s)
{
	fresh();
	if (setjmp(jb))
		return NULL;
	return ty_parse_one(&ctx, s);
}

#define POINT "Record(x[type=float32;offset=0],y[type=float32;offset=4];8;False)"
#define NESTED "Record(a[type=float64;offset=0],j[type=nestedarray(int32, (2, 3));offset=8]," \
               "p[type=" POINT ";offset=32];40;False)"

TEST(nested_spelling_reads_back)
{
	Type *t = one(NESTED);
	CHECK(t && t->kind == TY_RECORD && t->nfields == 3 && t->size == 40 && t->align == 8);
	if (!t)
		return;
	const RecField *j = ty_field(t, "j"), *p = ty_field(t, "p");
	CHECK(j && j->ty->kind == TY_ARRAY && j->ty->ndim == 2 && j->ty->layout == LAYOUT_C && j->dims);
	CHECK(j && j->dims && j->dims[0] == 2 && j->dims[1] == 3);
	CHECK_EQ_INT(ty_field_size(j), 24);
	CHECK(p && p->ty->kind == TY_RECORD && p->ty->size == 8 && p->off == 32);
	CHECK_EQ_INT(ty_field_size(p), 8);
	CHECK_STR_CONTAINS(ty_record_str(&ctx, t), "j[type=nestedarray(int32, (2, 3));offset=8]");
	CHECK_STR_CONTAINS(ty_record_str(&ctx, t), "p[type=" POINT ";offset=32]");
	CHECK(ty_record_same(t, ty_parse_one(&ctx, ty_record_str(&ctx, t))));
	/* other extents make another dtype */
	Type *u = ty_parse_one(&ctx, "Record(a[type=float64;offset=0],j[type=nestedarray(int32, (3, 2));offset=8],"
	                              "p[type=" POINT ";offset=32];40;False)");
	CHECK(!ty_record_same(t, u));
	/* 1-d extents are spelled with a trailing comma, as Python's tuples */
	Type *v = ty_parse_one(&ctx, "Record(h[type=nestedarray(float32, (2,));offset=0];8;True)");
	CHECK_STR_CONTAINS(ty_record_str(&ctx, v), "nestedarray(float32, (2,))");
	CHECK_EQ_INT(v->align, 4);
}

TEST(fields_read_through_a_reference)
{
	Type *t = one(NESTED);
	if (!t)
		return;
	Type *sh = ty_record_in(&ctx, t, SP_SHARED, 0);
	Type *ro = ty_record_in(&ctx, t, SP_CONST, 1);
	Type *j = ty_field_in(&ctx, sh, ty_field(t, "j"));
	CHECK(j->kind == TY_ARRAY && j->space == SP_SHARED && !j->readonly && j->elem->sk == SK_I32);
	Type *jr = ty_field_in(&ctx, ro, ty_field(t, "j"));
	CHECK(jr->space == SP_CONST && jr->readonly);
	Type *p = ty_field_in(&ctx, ro, ty_field(t, "p"));
	CHECK(p->kind == TY_RECORD && p->space == SP_CONST && p->readonly);
	CHECK(ty_field_in(&ctx, ro, ty_field(t, "a")) == ty_scalar(SK_F64));
	/* an array of such records */
	Type *arr = ty_array_of(&ctx, t, 1, LAYOUT_C, SP_GLOBAL, 0);
	CHECK_EQ_INT(ty_elem_size(arr->elem), 40);
	CHECK_EQ_INT(ty_elem_align(arr->elem), 8);
}

TEST(records_inside_sub_arrays)
{
	Type *t = one("Record(q[type=nestedarray(" POINT ", (3,));offset=0],k[type=nestedarray(int16, (2, 2));offset=24];"
	              "32;True)");
	CHECK(t != NULL);
	if (!t)
		return;
	const RecField *q = ty_field(t, "q");
	CHECK(q->ty->kind == TY_ARRAY && q->ty->elem->kind == TY_RECORD && q->dims[0] == 3);
	CHECK_EQ_INT(ty_field_size(q), 24);
	CHECK_EQ_INT(t->align, 4);
}

TEST(nested_spelling_errors)
{
	CHECK(!one("Record(j[type=nestedarray(int32, (2, 3));offset=8];16;False)"));
	CHECK_STR_CONTAINS(ctx.diag.msg, "field 'j' lies outside the record");
	CHECK(!one("Record(j[type=nestedarray(int32, ());offset=0];16;False)"));
	CHECK_STR_CONTAINS(ctx.diag.msg, "expected the extents of the sub-array");
	CHECK(!one("Record(j[type=nestedarray(int32, (1, 1, 1, 1, 1, 1, 1, 1, 1));offset=0];16;False)"));
	CHECK_STR_CONTAINS(ctx.diag.msg, "at most 8 dimensions");
	CHECK(!one("Record(j[type=UniTuple(int32, 2);offset=0];16;False)"));
	CHECK_STR_CONTAINS(ctx.diag.msg, "record fields hold numbers, records or nestedarray");
	CHECK(!one("Record(p[type=" POINT ";offset=4];8;False)"));
	CHECK_STR_CONTAINS(ctx.diag.msg, "field 'p' lies outside the record");
}

int main(void)
{
	RUN(nested_spelling_reads_back);
	RUN(fields_read_through_a_reference);
	RUN(records_inside_sub_arrays);
	RUN(nested_spelling_errors);
	if (ctx.arena)
		arena_free(ctx.arena);
	return check_summary("records_nested");
}

/*
 * types.c - the types of kernel values: scalars, arrays, tuples and the
 * compile-time-only kinds (modules, intrinsics, dtypes, ...).
 *
 * Scalars, None and str are process-wide immutable singletons; every
 * other type is built in the request's arena and compared structurally
 * with ty_equal, never by pointer.
 *
 * Two different rules combine numbers, and both are Numba's:
 *
 *   ty_promote  the operand type of arithmetic (a + b, a * b, ...), from
 *               Numba's operator templates: integers compute in at least
 *               64 bits (int32 + int32 -> int64, uint32 + uint32 ->
 *               uint64, signed with unsigned -> int64, bool + bool ->
 *               int64); a float takes a small integer (bool, int8, uint8,
 *               int16) without widening and anything wider to float64;
 *               complex likewise.  float16 computes as float32.
 *   ty_unify    the one type of a variable assigned several types, which
 *               Numba takes from NumPy's promote_types: int32 and int64 ->
 *               int64, int64 and uint64 -> float64, int16 and float32 ->
 *               float32, bool and int8 -> int8.  Tuples unify element-wise,
 *               arrays that differ only in layout unify to layout A.
 */
#include <string.h>

#include "../core.h"

const ScalarInfo scalar_info[NSK] = {
	[SK_BOOL] = {"bool", "b1", 1, 0, 0, 0, 0},
	[SK_I8] = {"int8", "i1", 1, 1, 1, 0, 0},
	[SK_I16] = {"int16", "i2", 2, 1, 1, 0, 0},
	[SK_I32] = {"int32", "i4", 4, 1, 1, 0, 0},
	[SK_I64] = {"int64", "i8", 8, 1, 1, 0, 0},
	[SK_U8] = {"uint8", "u1", 1, 1, 0, 0, 0},
	[SK_U16] = {"uint16", "u2", 2, 1, 0, 0, 0},
	[SK_U32] = {"uint32", "u4", 4, 1, 0, 0, 0},
	[SK_U64] = {"uint64", "u8", 8, 1, 0, 0, 0},
	[SK_F16] = {"float16", "f2", 2, 0, 1, 1, 0},
	[SK_F32] = {"float32", "f4", 4, 0, 1, 1, 0},
	[SK_F64] = {"float64", "f8", 8, 0, 1, 1, 0},
	[SK_C64] = {"complex64", "c8", 8, 0, 1, 0, 1},
	[SK_C128] = {"complex128", "c16", 16, 0, 1, 0, 1},
	[SK_BF16] = {"bfloat16", "bf16", 2, 0, 1, 1, 0},
	[SK_E5M2] = {"fp8_e5m2", "e5m2", 1, 0, 0, 0, 0},
	[SK_E4M3] = {"fp8_e4m3", "e4m3", 1, 0, 0, 0, 0},
	[SK_E8M0] = {"fp8_e8m0", "e8m0", 1, 0, 0, 0, 0},
};

ScalarKind sk_unsigned(ScalarKind sk)
{
	switch (sk) {
	case SK_I8: return SK_U8;
	case SK_I16: return SK_U16;
	case SK_I32: return SK_U32;
	case SK_I64: return SK_U64;
	default: return sk;
	}
}

static Type scalars[NSK] = {
#define S(k) [k] = {.kind = TY_SCALAR, .sk = k}
	S(SK_BOOL), S(SK_I8), S(SK_I16), S(SK_I32), S(SK_I64), S(SK_U8), S(SK_U16),
	S(SK_U32), S(SK_U64), S(SK_F16), S(SK_F32), S(SK_F64), S(SK_C64), S(SK_C128), S(SK_BF16),
	S(SK_E5M2), S(SK_E4M3), S(SK_E8M0),
#undef S
};
static Type none_type = {.kind = TY_NONE};
static Type str_type = {.kind = TY_STR};

Type *ty_scalar(ScalarKind sk)
{
	return (unsigned)sk < NSK ? &scalars[sk] : NULL;
}

Type *ty_none(void) { return &none_type; }
Type *ty_str(void) { return &str_type; }

static Type *new_type(Ctx *c, TypeKind k)
{
	Type *t = arena_alloc(c->arena, sizeof *t);
	t->kind = k;
	return t;
}

Type *ty_array(Ctx *c, ScalarKind elem, int ndim, char layout, int space, int readonly)
{
	Type *t = new_type(c, TY_ARRAY);
	t->elem = ty_scalar(elem);
	t->ndim = ndim;
	t->layout = layout;
	t->space = (char)space;
	t->readonly = (char)readonly;
	return t;
}

Type *ty_pointer(Ctx *c, Type *elem)
{
	Type *t = new_type(c, TY_POINTER);
	t->elem = elem;
	t->space = SP_GLOBAL;
	return t;
}

Type *ty_tuple(Ctx *c, int n, Type **elts)
{
	Type *t = new_type(c, TY_TUPLE);
	t->n = n;
	t->elts = arena_alloc(c->arena, sizeof(Type *) * (n ? n : 1));
	for (int i = 0; i < n; i++)
		t->elts[i] = elts[i];
	return t;
}

Type *ty_enum_member(Ctx *c, const char *cls)
{
	Type *t = new_type(c, TY_SCALAR);
	t->sk = SK_I64;
	t->cls = cls;
	return t;
}

Type *ty_named_tuple(Ctx *c, const Type *of, const char *cls, const char **names)
{
	Type *t = ty_tuple(c, of->n, of->elts);
	t->cls = cls;
	t->names = names;
	return t;
}

int ty_field_index(const Type *t, const char *name)
{
	for (int i = 0; t->kind == TY_TUPLE && t->names && i < t->n; i++)
		if (strcmp(t->names[i], name) == 0)
			return i;
	return -1;
}

static int same_fields(const Type *a, const Type *b)
{
	if (!a->names || !b->names)
		return a->names == b->names;
	if (strcmp(a->cls, b->cls) != 0)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->names[i], b->names[i]) != 0)
			return 0;
	return 1;
}

Type *ty_unituple(Ctx *c, Type *elt, int n)
{
	Type *t = new_type(c, TY_TUPLE);
	t->n = n;
	t->elts = arena_alloc(c->arena, sizeof(Type *) * (n ? n : 1));
	for (int i = 0; i < n; i++)
		t->elts[i] = elt;
	return t;
}

Type *ty_module(Ctx *c, const char *name)
{
	Type *t = new_type(c, TY_MODULE);
	t->name = arena_strdup(c->arena, name);
	return t;
}

Type *ty_intrin(Ctx *c, int intrin)
{
	Type *t = new_type(c, TY_INTRIN);
	t->intrin = intrin;
	t->name = intrin_name[intrin];
	return t;
}

Type *ty_dtype(Ctx *c, ScalarKind sk)
{
	Type *t = new_type(c, TY_DTYPE);
	t->sk = sk;
	return t;
}

Type *ty_dim3(Ctx *c, int intrin)
{
	Type *t = new_type(c, TY_DIM3);
	t->intrin = intrin;
	t->name = intrin_name[intrin];
	return t;
}

Type *ty_range(Ctx *c, Type *elem)
{
	Type *t = new_type(c, TY_RANGE);
	t->elem = elem;
	return t;
}

Type *ty_func(Ctx *c, const PjFunc *f)
{
	Type *t = new_type(c, TY_FUNC);
	t->func = f;
	t->name = f->name;
	return t;
}

Type *ty_exc(Ctx *c, const char *name)
{
	Type *t = new_type(c, TY_EXC);
	t->name = arena_strdup(c->arena, name);
	return t;
}

static int streq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Two PjFuncs are the same function when they are the same object or
 * come from the same text at the same place (a resolver may hand out a
 * fresh PjFunc for each lookup). */
static int same_func(const PjFunc *a, const PjFunc *b)
{
	if (a == b)
		return 1;
	if (!a || !b)
		return 0;
	if (a->choose || b->choose)          /* overloaded: one per resolver's data */
		return a->choose == b->choose && a->data == b->data;
	return streq(a->name, b->name) && streq(a->file, b->file) &&
	       a->first_line == b->first_line && streq(a->source, b->source);
}

int ty_equal(const Type *a, const Type *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case TY_SCALAR:
		return a->sk == b->sk && streq(a->cls, b->cls);
	case TY_DTYPE:
		return a->sk == b->sk && (!a->elem || !b->elem ? a->elem == b->elem : ty_equal(a->elem, b->elem));
	case TY_ARRAY:
		return ty_equal(a->elem, b->elem) && a->ndim == b->ndim && a->layout == b->layout &&
		       a->space == b->space && a->readonly == b->readonly;
	case TY_TUPLE:
		if (a->n != b->n || !streq(a->name, b->name) || !same_fields(a, b))
			return 0;
		for (int i = 0; i < a->n; i++)
			if (!ty_equal(a->elts[i], b->elts[i]))
				return 0;
		return 1;
	case TY_NONE:
	case TY_STR:
	case TY_UNKNOWN:
		return 1;
	case TY_MODULE:
	case TY_EXC:
		return streq(a->name, b->name);
	case TY_INTRIN:
	case TY_DIM3:
		return a->intrin == b->intrin;
	case TY_RANGE:
		return ty_equal(a->elem, b->elem);
	case TY_FUNC:
		return same_func(a->func, b->func);
	case TY_RECORD:
		return ty_record_same(a, b) && a->space == b->space && a->readonly == b->readonly;
	case TY_POINTER:
		return ty_equal(a->elem, b->elem);
	}
	return 0;
}

static const ScalarInfo *info(const Type *t)
{
	return t && t->kind == TY_SCALAR ? &scalar_info[t->sk] : NULL;
}

int ty_is_int(const Type *t)
{
	const ScalarInfo *i = info(t);
	return i && i->is_int;
}

int ty_is_float(const Type *t)
{
	const ScalarInfo *i = info(t);
	return i && i->is_float && !i->is_complex;
}

int ty_is_complex(const Type *t)
{
	const ScalarInfo *i = info(t);
	return i && i->is_complex;
}

int ty_is_number(const Type *t)
{
	return t && t->kind == TY_SCALAR && !t->cls && !SK_IS_FP8(t->sk);
}

Type *ty_bf16raw(Ctx *c)
{
	static const char *const names[] = {"x"};
	return ty_named_tuple(c, ty_unituple(c, ty_scalar(SK_U16), 1), "bfloat16_raw", (const char **)names);
}

/* An integer (or bool) that float32 holds exactly: Numba converts it to
 * float32 "safely", every wider one goes to float64. */
static int small_int(ScalarKind k)
{
	return k == SK_BOOL || k == SK_I8 || k == SK_U8 || k == SK_I16;
}

Type *ty_promote(const Type *a, const Type *b)
{
	if (!ty_is_number(a) || !ty_is_number(b))
		return NULL;
	ScalarKind x = a->sk, y = b->sk;
	const ScalarInfo *ix = &scalar_info[x], *iy = &scalar_info[y];
	if (ix->is_complex || iy->is_complex) {
		int wide = x == SK_C128 || y == SK_C128 || x == SK_F64 || y == SK_F64 ||
		           (!ix->is_float && !ix->is_complex && !small_int(x)) ||
		           (!iy->is_float && !iy->is_complex && !small_int(y));
		return ty_scalar(wide ? SK_C128 : SK_C64);
	}
	if (ix->is_float || iy->is_float) {
		int wide = x == SK_F64 || y == SK_F64 || (!ix->is_float && !small_int(x)) ||
		           (!iy->is_float && !small_int(y));
		return ty_scalar(wide ? SK_F64 : SK_F32);
	}
	/* integers and bools: 64 bits, unsigned only when both are unsigned */
	if (ix->is_int && !ix->is_signed && iy->is_int && !iy->is_signed)
		return ty_scalar(SK_U64);
	return ty_scalar(SK_I64);
}

static ScalarKind int_of(int size, int is_signed)
{
	switch (size) {
	case 1: return is_signed ? SK_I8 : SK_U8;
	case 2: return is_signed ? SK_I16 : SK_U16;
	case 4: return is_signed ? SK_I32 : SK_U32;
	default: return is_signed ? SK_I64 : SK_U64;
	}
}

static ScalarKind float_of(int size)
{
	return size <= 2 ? SK_F16 : size == 4 ? SK_F32 : SK_F64;
}

/* The smallest float that holds every value of integer kind k. */
static int float_size_for_int(ScalarKind k)
{
	int size = scalar_info[k].size;
	return size == 1 ? 2 : size == 2 ? 4 : 8;
}

/* NumPy's promote_types for two scalar kinds. */
static ScalarKind promote_types(ScalarKind x, ScalarKind y)
{
	if (x == y)
		return x;
	if (x == SK_BOOL)
		return y;
	if (y == SK_BOOL)
		return x;
	if (x == SK_BF16 || y == SK_BF16)     /* bfloat16 with another: as a float32 */
		return promote_types(x == SK_BF16 ? SK_F32 : x, y == SK_BF16 ? SK_F32 : y);
	const ScalarInfo *ix = &scalar_info[x], *iy = &scalar_info[y];
	if (ix->is_complex || iy->is_complex) {
		/* the component float that holds both */
		int cx = ix->is_complex ? ix->size / 2 : ix->is_float ? ix->size : float_size_for_int(x);
		int cy = iy->is_complex ? iy->size / 2 : iy->is_float ? iy->size : float_size_for_int(y);
		int c = cx > cy ? cx : cy;
		return c <= 4 ? SK_C64 : SK_C128;
	}
	if (ix->is_float || iy->is_float) {
		int fx = ix->is_float ? ix->size : float_size_for_int(x);
		int fy = iy->is_float ? iy->size : float_size_for_int(y);
		return float_of(fx > fy ? fx : fy);
	}
	if (ix->is_signed == iy->is_signed)
		return ix->size >= iy->size ? x : y;
	const ScalarInfo *s = ix->is_signed ? ix : iy, *u = ix->is_signed ? iy : ix;
	if (u->size < s->size)
		return int_of(s->size, 1);
	if (u->size == 8)
		return SK_F64;
	return int_of(u->size * 2, 1);
}

int ty_can_cast(ScalarKind from, ScalarKind to)
{
	if (SK_IS_FP8(from) || SK_IS_FP8(to))
		return from == to;
	return promote_types(from, to) == to;
}

Type *ty_unify(Ctx *c, Type *a, Type *b)
{
	if (!a || a->kind == TY_UNKNOWN)
		return b;
	if (!b || b->kind == TY_UNKNOWN)
		return a;
	if (ty_equal(a, b))
		return a;
	if (a->kind != b->kind)
		return NULL;
	switch (a->kind) {
	case TY_SCALAR:
		if (a->cls || b->cls)
			return NULL;   /* an Enum member unifies with members of its class alone */
		if (SK_IS_FP8(a->sk) || SK_IS_FP8(b->sk))
			return NULL;   /* an fp8 type with itself alone */
		return ty_scalar(promote_types(a->sk, b->sk));
	case TY_TUPLE: {
		if (a->n != b->n || a->name || b->name)
			return NULL;   /* vector types unify only with themselves */
		Type **elts = arena_alloc(c->arena, sizeof(Type *) * (a->n ? a->n : 1));
		for (int i = 0; i < a->n; i++)
			if (!(elts[i] = ty_unify(c, a->elts[i], b->elts[i])))
				return NULL;
		Type *t = ty_tuple(c, a->n, elts);
		return same_fields(a, b) && a->names ? ty_named_tuple(c, t, a->cls, a->names) : t;
	}
	case TY_ARRAY:
		if (!ty_equal(a->elem, b->elem) || a->ndim != b->ndim || a->space != b->space)
			return NULL;
		return ty_array_of(c, a->elem, a->ndim, a->layout == b->layout ? a->layout : LAYOUT_A,
		                   a->space, a->readonly || b->readonly);
	case TY_RANGE: {
		Type *e = ty_unify(c, a->elem, b->elem);
		return e ? ty_range(c, e) : NULL;
	}
	default:
		return NULL;
	}
}

static int is_unituple(const Type *t)
{
	for (int i = 1; i < t->n; i++)
		if (!ty_equal(t->elts[0], t->elts[i]))
			return 0;
	return t->n > 0;
}

const char *ty_str_of(Ctx *c, const Type *t)
{
	Arena *A = c->arena;
	if (!t)
		return "undefined";
	switch (t->kind) {
	case TY_SCALAR:
		if (t->cls)
			return arena_printf(A, "EnumMember(%s, int64)", t->cls);
		return scalar_info[t->sk].name;
	case TY_ARRAY:
		return arena_printf(A, "%sarray(%s, %dd, %c)", t->readonly ? "readonly " : "",
		                    ty_str_of(c, t->elem), t->ndim, t->layout);
	case TY_TUPLE: {
		if (t->name)
			return t->name;
		if (t->names && is_unituple(t))
			return arena_printf(A, "NamedUniTuple(%s x %d, %s)", ty_str_of(c, t->elts[0]), t->n, t->cls);
		if (t->names) {
			const char *s = "NamedTuple(";
			for (int i = 0; i < t->n; i++)
				s = arena_printf(A, "%s%s, ", s, ty_str_of(c, t->elts[i]));
			return arena_printf(A, "%s%s)", s, t->cls);
		}
		if (is_unituple(t))
			return arena_printf(A, "UniTuple(%s x %d)", ty_str_of(c, t->elts[0]), t->n);
		const char *s = "Tuple(";
		for (int i = 0; i < t->n; i++)
			s = arena_printf(A, "%s%s%s", s, i ? ", " : "", ty_str_of(c, t->elts[i]));
		return arena_printf(A, "%s)", s);
	}
	case TY_NONE:
		return "none";
	case TY_STR:
		return "str";
	case TY_MODULE:
		return arena_printf(A, "module(%s)", t->name);
	case TY_INTRIN:
		return arena_printf(A, "function(%s)", intrin_name[t->intrin]);
	case TY_DTYPE:
		if (t->elem && t->elem->kind == TY_RECORD)
			return arena_printf(A, "class(%s)", ty_str_of(c, t->elem));
		return arena_printf(A, "class(%s)", scalar_info[t->sk].name);
	case TY_DIM3:
		return "Dim3";
	case TY_RANGE:
		return arena_printf(A, "range(%s)", ty_str_of(c, t->elem));
	case TY_FUNC:
		if (t->func && t->func->name && strchr(t->func->name, '@'))   /* a closure: "NAME@OFF[...]" */
			return arena_printf(A, "function(%.*s)", (int)(strchr(t->func->name, '@') - t->func->name),
			                    t->func->name);
		return arena_printf(A, "function(%s)", t->func && t->func->name ? t->func->name : "?");
	case TY_EXC:
		return arena_printf(A, "class(%s)", t->name);
	case TY_UNKNOWN:
		return "undefined";
	case TY_RECORD:
		return ty_record_str(c, t);
	case TY_POINTER:
		return arena_printf(A, "%s*", ty_str_of(c, t->elem));
	}
	return "?";
}

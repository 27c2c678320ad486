/*
 * sig.c - Numba signature strings.
 *
 *   sig     = [type] "(" [args] ")" | args          "void(f4[::1], i8)", "f4[:], int32"
 *   args    = type {"," type} [","]
 *   type    = ["readonly"] base [ "[" dim {"," dim} "]" ] | NAME "*"
 *                                                    int32*: Numba's CPointer(int32)
 *   base    = NAME                                   float32, f4, intp, boolean, double, ...
 *           | "UniTuple" "(" type ("," INT | "x" INT) ")"
 *           | "Tuple" "(" [type {"," type}] ")"
 *           | "array" "(" (NAME | record) "," INT "d" "," LAYOUT ["," "readonly"] ")"
 *           | record | string
 *   record  = "Record" "(" field {"," field} ";" INT ";" NAME ")"
 *   string  = "[" ("char" | "unichr") "x" INT "]"        |S12 and <U12 as Numba spells them
 *   field   = NAME "[" "type" "=" (type | nested) ";" "offset" "=" INT "]"
 *   nested  = "nestedarray" "(" (NAME | record) "," "(" INT {"," INT} [","] ")" ")"
 *   dim     = ":" | "::1"
 *
 * A Record is spelled as Numba prints one (size in bytes, then whether the
 * dtype is aligned); array(T, 0d, C) is a 0-d array.  Array layouts follow Numba: "::1" on the last axis is C, on the first
 * axis of a 2d-or-more array F, nowhere A.  Names are those of Numba's
 * types namespace (so float_ is float32, as in numba.types), with an
 * optional module prefix ("types.float32", "nb.int64").
 *
 * Errors are user errors whose span points into a synthetic source named
 * "<signature>" that holds the signature text.
 */
#include <ctype.h>
#include <string.h>

#include "../core.h"

static const struct {
	const char *name;
	ScalarKind sk;
} sk_names[] = {
	{"bool", SK_BOOL}, {"bool_", SK_BOOL}, {"boolean", SK_BOOL}, {"b1", SK_BOOL},
	{"int8", SK_I8}, {"i1", SK_I8}, {"char", SK_I8},
	{"int16", SK_I16}, {"i2", SK_I16}, {"short", SK_I16},
	{"int32", SK_I32}, {"i4", SK_I32}, {"intc", SK_I32},
	{"int64", SK_I64}, {"i8", SK_I64}, {"intp", SK_I64}, {"int_", SK_I64}, {"long_", SK_I64},
	{"longlong", SK_I64}, {"ssize_t", SK_I64},
	{"uint8", SK_U8}, {"u1", SK_U8}, {"byte", SK_U8}, {"uchar", SK_U8},
	{"uint16", SK_U16}, {"u2", SK_U16}, {"ushort", SK_U16},
	{"uint32", SK_U32}, {"u4", SK_U32}, {"uintc", SK_U32},
	{"uint64", SK_U64}, {"u8", SK_U64}, {"uintp", SK_U64}, {"uint", SK_U64}, {"ulong", SK_U64},
	{"ulonglong", SK_U64}, {"size_t", SK_U64},
	{"float16", SK_F16}, {"f2", SK_F16}, {"half", SK_F16},
	{"bfloat16", SK_BF16}, {"__nv_bfloat16", SK_BF16},
	{"fp8_e5m2", SK_E5M2}, {"__nv_fp8_e5m2", SK_E5M2}, {"fp8_e4m3", SK_E4M3}, {"__nv_fp8_e4m3", SK_E4M3},
	{"fp8_e8m0", SK_E8M0}, {"__nv_fp8_e8m0", SK_E8M0},
	{"float32", SK_F32}, {"f4", SK_F32}, {"float_", SK_F32}, {"single", SK_F32},
	{"float64", SK_F64}, {"f8", SK_F64}, {"double", SK_F64},
	{"complex64", SK_C64}, {"c8", SK_C64},
	{"complex128", SK_C128}, {"c16", SK_C128},
};

ScalarKind ty_sk_from_name(const char *name)
{
	if (!name)
		return (ScalarKind)-1;
	for (size_t i = 0; i < sizeof sk_names / sizeof sk_names[0]; i++)
		if (strcmp(sk_names[i].name, name) == 0)
			return sk_names[i].sk;
	return (ScalarKind)-1;
}

enum { K_END, K_NAME, K_INT, K_PUNCT };

typedef struct SigParser {
	Ctx *c;
	Src *src;
	const char *s;
	int pos;
	/* current token */
	int kind, off, len;
	long long ival;
	char punct;
} SigParser;

static const char *sig_hint =
	"signature types are spelled like float32, int64, f4, i8, boolean, float32[::1] (C 1d), "
	"float32[:] (any layout), float32[:, ::1] (C 2d), UniTuple(int64, 2), Tuple(int64, float32), "
	"int32* (a pointer); "
	"a whole signature is \"void(float32[::1], int64)\"";

static _Noreturn void sig_error(SigParser *p, int off, int len, const char *fmt, const char *what)
{
	Span sp = {p->src, off, len > 0 ? len : 1};
	err_at(p->c, sp, sig_hint, fmt, what);
}

static void next(SigParser *p)
{
	const char *s = p->s;
	int i = p->pos;
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	p->off = i;
	if (!s[i]) {
		p->kind = K_END;
		p->len = 0;
	} else if (isalpha((unsigned char)s[i]) || s[i] == '_') {
		while (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.')
			i++;
		p->kind = K_NAME;
	} else if (isdigit((unsigned char)s[i])) {
		long long v = 0;
		while (isdigit((unsigned char)s[i])) {
			if (v < 100000000)
				v = v * 10 + (s[i] - '0');
			i++;
		}
		p->ival = v;
		p->kind = K_INT;
	} else if (strchr("()[],:;=*", s[i])) {
		p->punct = s[i++];
		p->kind = K_PUNCT;
	} else {
		Span sp = {p->src, i, 1};
		err_at(p->c, sp, sig_hint, "unexpected character '%c' in signature", s[i]);
	}
	p->len = i - p->off;
	p->pos = i;
}

static int is_punct(SigParser *p, char ch)
{
	return p->kind == K_PUNCT && p->punct == ch;
}

static int is_name(SigParser *p, const char *name)
{
	return p->kind == K_NAME && (int)strlen(name) == p->len && memcmp(p->s + p->off, name, p->len) == 0;
}

static void expect(SigParser *p, char ch)
{
	if (!is_punct(p, ch)) {
		char want[2] = {ch, 0};
		sig_error(p, p->off, p->len, "expected '%s' in signature", want);
	}
	next(p);
}

static const char *tok_text(SigParser *p)
{
	return arena_strndup(p->c->arena, p->s + p->off, p->len);
}

static Type *parse_type(SigParser *p);

/* The name of the current token without a module prefix ("types.f4" -> "f4"). */
static const char *base_name(SigParser *p)
{
	const char *t = tok_text(p);
	const char *dot = strrchr(t, '.');
	return dot ? dot + 1 : t;
}

static ScalarKind scalar_name(SigParser *p)
{
	if (p->kind != K_NAME)
		sig_error(p, p->off, p->len, "expected a type in signature%s", "");
	ScalarKind sk = ty_sk_from_name(base_name(p));
	if ((int)sk < 0)
		sig_error(p, p->off, p->len, "unknown type '%s' in signature", tok_text(p));
	if (sk == SK_BF16)
		err_at(p->c, (Span){p->src, p->off, p->len > 0 ? p->len : 1},
		       "pass float32 values (exact for every bfloat16) and make bfloat16s in the kernel with bfloat16(x)",
		       "bfloat16 arguments and arrays are not supported yet%s", "");
	if (SK_IS_FP8(sk))
		err_at(p->c, (Span){p->src, p->off, p->len > 0 ? p->len : 1},
		       "pass the values as float32 (or their storage bits as uint8, converted with cvt_float_to_fp8) "
		       "and make fp8 values in the kernel with fp8_e4m3(x)",
		       "%s arguments and arrays are not supported", scalar_info[sk].name);
	next(p);
	return sk;
}

/* "UniTuple" "(" type ("," INT | "x" INT) ")" */
static Type *parse_unituple(SigParser *p)
{
	next(p);
	expect(p, '(');
	Type *elt = parse_type(p);
	if (is_punct(p, ','))
		next(p);
	else if (is_name(p, "x"))
		next(p);
	else
		sig_error(p, p->off, p->len, "expected ', count' in UniTuple(type, count)%s", "");
	if (p->kind != K_INT)
		sig_error(p, p->off, p->len, "expected the element count in UniTuple(type, count)%s", "");
	if (p->ival > 64)
		sig_error(p, p->off, p->len, "UniTuple of %s elements is too long (at most 64)", tok_text(p));
	int n = (int)p->ival;
	next(p);
	expect(p, ')');
	return ty_unituple(p->c, elt, n);
}

/* "Tuple" "(" [type {"," type}] ")" */
static Type *parse_tuple(SigParser *p)
{
	Type **elts = NULL;
	int n = 0, cap = 0;
	next(p);
	expect(p, '(');
	while (!is_punct(p, ')')) {
		VEC_PUSH(p->c, elts, n, cap, parse_type(p));
		if (n > 64)
			sig_error(p, p->off, p->len, "tuple is too long (at most 64 elements)%s", "");
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect(p, ')');
	return ty_tuple(p->c, n, elts);
}

/* "NamedTuple" "(" NAME "," "(" NAME {"," NAME} ")" {"," type} ")": a
 * collections.namedtuple, its class's name and fields, then one type per
 * field (the launch path's spelling of a namedtuple argument) */
static Type *parse_named_tuple(SigParser *p)
{
	next(p);
	expect(p, '(');
	if (p->kind != K_NAME)
		sig_error(p, p->off, p->len, "expected the class name in NamedTuple(name, (fields), types...)%s", "");
	const char *cls = tok_text(p);
	next(p);
	expect(p, ',');
	expect(p, '(');
	const char **names = NULL;
	int nf = 0, capf = 0;
	while (p->kind == K_NAME) {
		VEC_PUSH(p->c, names, nf, capf, tok_text(p));
		next(p);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect(p, ')');
	Type **elts = NULL;
	int n = 0, cap = 0;
	while (is_punct(p, ',') && n < nf) {
		next(p);
		VEC_PUSH(p->c, elts, n, cap, parse_type(p));
	}
	if (n != nf || n > 64)
		sig_error(p, p->off, p->len, "a NamedTuple takes one type per field (at most 64)%s", "");
	expect(p, ')');
	return ty_named_tuple(p->c, ty_tuple(p->c, n, elts), cls, names);
}

static Type *parse_record(SigParser *p);

/* "[" ("char" | "unichr") "x" INT "]": a fixed-length string */
static Type *parse_string(SigParser *p)
{
	int off = p->off;
	next(p);
	int width = is_name(p, "char") ? 1 : is_name(p, "unichr") ? 4 : 0;
	if (!width)
		sig_error(p, p->off, p->len, "expected char or unichr, as in [char x 12] or [unichr x 12]%s", "");
	next(p);
	if (!is_name(p, "x"))
		sig_error(p, p->off, p->len, "expected 'x' and the length, as in [char x 12]%s", "");
	next(p);
	if (p->kind != K_INT || p->ival < 1 || p->ival > (1 << 20))
		sig_error(p, p->off, p->len, "expected the length of the string, 1 to 1048576 characters%s", "");
	int n = (int)p->ival;
	next(p);
	if (!is_punct(p, ']'))
		sig_error(p, off, 1, "expected ']' closing the string type%s", "");
	next(p);
	return ty_charseq(p->c, width, n);
}

/* NAME | record | string: the element of an array or a sub-array */
static Type *parse_elem(SigParser *p)
{
	if (is_punct(p, '['))
		return parse_string(p);
	return is_name(p, "Record") ? parse_record(p) : ty_scalar(scalar_name(p));
}

/* "array" "(" NAME "," INT "d" "," LAYOUT ["," "readonly"] ")" */
static Type *parse_array_call(SigParser *p, int readonly)
{
	next(p);
	expect(p, '(');
	Type *elem = parse_elem(p);
	expect(p, ',');
	if (p->kind != K_INT)
		sig_error(p, p->off, p->len, "expected the number of dimensions, as in array(float32, 2d, C)%s", "");
	int ndim = (int)p->ival;
	int off = p->off;
	next(p);
	if (!is_name(p, "d"))
		sig_error(p, p->off, p->len, "expected 'd' after the number of dimensions, as in 2d%s", "");
	next(p);
	if (ndim < 0 || ndim > 8)
		sig_error(p, off, 1, "arrays have 0 to 8 dimensions%s", "");
	expect(p, ',');
	char layout = 0;
	if (is_name(p, "C"))
		layout = LAYOUT_C;
	else if (is_name(p, "F"))
		layout = LAYOUT_F;
	else if (is_name(p, "A"))
		layout = LAYOUT_A;
	else
		sig_error(p, p->off, p->len, "expected the layout C, F or A%s", "");
	next(p);
	if (is_punct(p, ',')) {
		next(p);
		if (!is_name(p, "readonly"))
			sig_error(p, p->off, p->len, "expected 'readonly'%s", "");
		readonly = 1;
		next(p);
	}
	expect(p, ')');
	return ty_array_of(p->c, elem, ndim, layout, SP_GLOBAL, readonly);
}

/* "nestedarray" "(" (NAME | record) "," "(" INT {"," INT} [","] ")" ")":
 * a sub-array field of a record, C-ordered, extents in *dims */
static Type *parse_nestedarray(SigParser *p, const int64_t **dims)
{
	int64_t *d = arena_alloc(p->c->arena, sizeof(int64_t) * 8);
	int n = 0;
	next(p);
	expect(p, '(');
	Type *elem = parse_elem(p);
	expect(p, ',');
	expect(p, '(');
	while (p->kind == K_INT) {
		if (n == 8)
			sig_error(p, p->off, p->len, "a sub-array field has at most 8 dimensions%s", "");
		d[n++] = p->ival;
		next(p);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	if (!n)
		sig_error(p, p->off, p->len, "expected the extents of the sub-array, as in nestedarray(int32, (2, 3))%s", "");
	expect(p, ')');
	expect(p, ')');
	*dims = d;
	return ty_array_of(p->c, elem, n, LAYOUT_C, SP_GLOBAL, 0);
}

/* "Record" "(" field {"," field} ";" INT ";" NAME ")"
 * field = NAME "[" "type" "=" (type | nestedarray) ";" "offset" "=" INT "]" */
static Type *parse_record(SigParser *p)
{
	RecField *f = NULL;
	int n = 0, cap = 0;
	NameMap seen = {0};    /* field names so far */
	next(p);
	expect(p, '(');
	while (p->kind == K_NAME) {
		RecField x = {0};
		int noff = p->off, nlen = p->len;
		x.name = tok_text(p);
		next(p);
		expect(p, '[');
		if (!is_name(p, "type"))
			sig_error(p, p->off, p->len, "expected 'type=' in a record field%s", "");
		next(p);
		expect(p, '=');
		int toff = p->off, tlen = p->len;
		x.ty = is_name(p, "nestedarray") ? parse_nestedarray(p, &x.dims) : parse_type(p);
		if (x.ty->kind != TY_SCALAR && x.ty->kind != TY_RECORD && !x.dims)
			sig_error(p, toff, tlen, "record fields hold numbers, records or nestedarray(type, (extents))%s", "");
		expect(p, ';');
		if (!is_name(p, "offset"))
			sig_error(p, p->off, p->len, "expected 'offset=' in a record field%s", "");
		next(p);
		expect(p, '=');
		if (p->kind != K_INT)
			sig_error(p, p->off, p->len, "expected the offset of the field%s", "");
		x.off = (int)p->ival;
		next(p);
		expect(p, ']');
		if (names_get(&seen, x.name) >= 0)
			sig_error(p, noff, nlen, "the record has two fields named '%s'", x.name);
		names_put(p->c, &seen, x.name, n);
		VEC_PUSH(p->c, f, n, cap, x);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect(p, ';');
	if (p->kind != K_INT)
		sig_error(p, p->off, p->len, "expected the size of the record in bytes%s", "");
	int size = (int)p->ival, soff = p->off;
	next(p);
	expect(p, ';');
	if (p->kind != K_NAME)
		sig_error(p, p->off, p->len, "expected True or False (whether the record is aligned)%s", "");
	next(p);
	expect(p, ')');
	for (int i = 0; i < n; i++)
		if (f[i].off < 0 || f[i].off + ty_field_size(&f[i]) > size)
			sig_error(p, soff, 1, "field '%s' lies outside the record", f[i].name);
	return ty_record(p->c, n, f, size);
}

/* "[" dim {"," dim} "]" after a scalar or record type */
static Type *parse_dims(SigParser *p, Type *elem, int readonly, int at)
{
	int ndim = 0, contig_at = -1, ncontig = 0, bad = -1;
	next(p);
	for (;;) {
		int off = p->off;
		expect(p, ':');
		if (is_punct(p, ':')) {
			next(p);
			if (p->kind != K_INT || p->ival != 1)
				sig_error(p, p->off, p->len, "expected '::1' (a contiguous axis)%s", "");
			next(p);
			contig_at = ndim;
			if (ncontig++)
				bad = off;
		}
		ndim++;
		if (ndim > 8)
			sig_error(p, off, 1, "arrays have at most 8 dimensions%s", "");
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect(p, ']');
	char layout = LAYOUT_A;
	if (ncontig == 1 && contig_at == ndim - 1)
		layout = LAYOUT_C;
	else if (ncontig == 1 && contig_at == 0)
		layout = LAYOUT_F;
	else if (ncontig)
		bad = bad >= 0 ? bad : at;
	if (bad >= 0)
		sig_error(p, bad, 3, "'::1' may mark only the first axis (F layout) or the last axis (C layout)%s", "");
	return ty_array_of(p->c, elem, ndim, layout, SP_GLOBAL, readonly);
}

static Type *parse_type(SigParser *p)
{
	int readonly = 0;
	if (is_name(p, "readonly")) {
		readonly = 1;
		next(p);
	}
	if (is_punct(p, '[')) {
		int at = p->off;
		Type *t = parse_string(p);
		return is_punct(p, '[') ? parse_dims(p, t, readonly, at) : t;
	}
	if (p->kind != K_NAME)
		sig_error(p, p->off, p->len, "expected a type in signature%s", "");
	const char *name = base_name(p);
	if (strcmp(name, "UniTuple") == 0)
		return parse_unituple(p);
	if (strcmp(name, "Tuple") == 0)
		return parse_tuple(p);
	if (strcmp(name, "NamedTuple") == 0)
		return parse_named_tuple(p);
	if (strcmp(name, "array") == 0 || strcmp(name, "Array") == 0)
		return parse_array_call(p, readonly);
	if (strcmp(name, "void") == 0 || strcmp(name, "none") == 0 || strcmp(name, "voidptr") == 0) {
		int off = p->off, len = p->len;
		next(p);
		if (is_punct(p, '*') || strcmp(name, "voidptr") == 0)
			err_at(p->c, (Span){p->src, off, len}, "give the pointer the type it points to: int32*, float32*",
			       "untyped pointers (void*, voidptr) are not supported%s", "");
		return ty_none();
	}
	int at = p->off;
	Type *t = strcmp(name, "Record") == 0 ? parse_record(p) : ty_scalar(scalar_name(p));
	if (is_punct(p, '*')) {
		if (t->kind != TY_SCALAR || readonly)
			sig_error(p, at, p->off + 1 - at, "pointers point to numbers: int32*, float64*%s", "");
		next(p);
		if (is_punct(p, '*') || is_punct(p, '['))
			sig_error(p, p->off, p->len, "a pointer to a pointer or to arrays is not supported; "
			          "write one number type and '*': int32*%s", "");
		return ty_pointer(p->c, t);
	}
	if (is_punct(p, '['))
		return parse_dims(p, t, readonly, at);
	return t;
}

/* args up to (but not including) `close` (')' or end) */
/* The type at off is spelled void (an argument may be none: None passed). */
static int is_void(SigParser *p, int off)
{
	return strncmp(p->s + off, "void", 4) == 0;
}

static void parse_args(SigParser *p, int closing, int *nargs, Type ***args)
{
	Type **v = NULL;
	int n = 0, cap = 0;
	while (!(closing ? is_punct(p, ')') : p->kind == K_END)) {
		int off = p->off, len = p->len;
		Type *t = parse_type(p);
		if (t->kind == TY_NONE && is_void(p, off))
			sig_error(p, off, len, "an argument cannot have type '%s'", "void");
		VEC_PUSH(p->c, v, n, cap, t);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	*nargs = n;
	*args = v;
}

static void init_parser(SigParser *p, Ctx *c, const char *sig)
{
	Src *src = arena_alloc(c->arena, sizeof *src);
	src->file = "<signature>";
	src->text = arena_strdup(c->arena, sig ? sig : "");
	src->len = (int)strlen(src->text);
	src->first_line = 1;
	p->c = c;
	p->src = src;
	p->s = src->text;
	p->pos = 0;
	next(p);
}

Type *ty_parse_sig(Ctx *c, const char *sig, int *nargs, Type ***args)
{
	SigParser p = {0};
	init_parser(&p, c, sig);
	Type *ret = NULL;
	*nargs = 0;
	*args = NULL;
	if (p.kind == K_END)
		return NULL;
	if (is_punct(&p, '(')) {
		next(&p);
		parse_args(&p, 1, nargs, args);
		expect(&p, ')');
	} else {
		int off = p.off, len = p.len;
		Type *first = parse_type(&p);
		if (is_punct(&p, '(')) {
			ret = first;
			next(&p);
			parse_args(&p, 1, nargs, args);
			expect(&p, ')');
		} else {
			if (first->kind == TY_NONE && is_void(&p, off))
				sig_error(&p, off, len, "an argument cannot have type '%s'", "void");
			Type **v = NULL;
			int n = 0, cap = 0;
			VEC_PUSH(c, v, n, cap, first);
			if (is_punct(&p, ',')) {
				next(&p);
				int m;
				Type **rest;
				parse_args(&p, 0, &m, &rest);
				for (int i = 0; i < m; i++)
					VEC_PUSH(c, v, n, cap, rest[i]);
			}
			*nargs = n;
			*args = v;
		}
	}
	if (p.kind != K_END)
		sig_error(&p, p.off, p.len, "unexpected '%s' after the signature", tok_text(&p));
	return ret;
}

Type *ty_parse_one(Ctx *c, const char *s)
{
	SigParser p = {0};
	init_parser(&p, c, s);
	Type *t = parse_type(&p);
	if (p.kind != K_END)
		sig_error(&p, p.off, p.len, "unexpected '%s' after the type", tok_text(&p));
	return t;
}

/*
 * test_front.c - unit tests of the lexer, the parser, the AST printer,
 * ast_clone, and ptxjitc's reading of module-level names (src/cli/consts.c,
 * compiled into this test).
 *
 *   make build/test_front && build/test_front
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../src/cli/consts.c"

/* One compile request's worth of context, with errors caught here. */
typedef struct T {
	Arena *arena;
	jmp_buf jb;
	Ctx c;
	Src src;
} T;

static T *t_new(const char *text)
{
	T *t = calloc(1, sizeof *t);
	t->arena = arena_new();
	t->c.arena = t->arena;
	t->c.jmp = &t->jb;
	t->src = (Src){.file = "k.py", .text = text, .len = (int)strlen(text), .first_line = 1};
	return t;
}

static void t_free(T *t)
{
	arena_free(t->arena);
	free(t);
}

static char dumpbuf[1 << 16];

/* The AST dump of function `name` in text, or "ERROR: <message>". */
static const char *dump_of(const char *text, const char *name)
{
	T *t = t_new(text);
	if (setjmp(t->jb)) {
		snprintf(dumpbuf, sizeof dumpbuf, "ERROR: %s", t->c.diag.msg);
		t_free(t);
		return dumpbuf;
	}
	FuncDef *fn = parse_function(&t->c, &t->src, name);
	FILE *m = fmemopen(dumpbuf, sizeof dumpbuf, "w");
	ast_dump(m, fn);
	fclose(m);
	t_free(t);
	return dumpbuf;
}

/* The dump of the body of `def f():\n    <stmt>`, without the def line. */
static const char *body_of(const char *stmts)
{
	static char text[4096];
	snprintf(text, sizeof text, "def f():\n%s\n", stmts);
	const char *d = dump_of(text, "f");
	if (!strncmp(d, "ERROR", 5))
		return d;
	const char *nl = strchr(d, '\n');
	static char body[1 << 16];
	snprintf(body, sizeof body, "%s", nl ? nl + 1 : d);
	size_t n = strlen(body);
	if (n >= 2 && body[n - 1] == '\n' && body[n - 2] == ')')
		body[n - 2] = 0;   /* the def's own closing parenthesis */
	return body;
}

/* The dump of one expression statement's expression. */
static const char *expr_of(const char *expr)
{
	static char text[4096];
	snprintf(text, sizeof text, "    %s", expr);
	const char *b = body_of(text);
	if (!strncmp(b, "ERROR", 5))
		return b;
	static char out[1 << 16];
	if (!strncmp(b, "  (expr ", 8)) {
		snprintf(out, sizeof out, "%s", b + 8);
		out[strlen(out) - 1] = 0;
		return out;
	}
	return b;
}

static const char *error_of(const char *text)
{
	const char *d = dump_of(text, NULL);
	return strncmp(d, "ERROR", 5) ? NULL : d;
}

#define CHECK_STR_EQ(a, b) do { const char *a_ = (a), *b_ = (b); if (strcmp(a_, b_)) { \
	printf("%s:%d: got:\n%s\nexpected:\n%s\n", __FILE__, __LINE__, a_, b_); check_failed_now = 1; } } while (0)

/* ------------------------------------------------------------- lexer */

static Token *lex(T *t, int *n)
{
	return lex_source(&t->c, &t->src, n);
}

/* Lexes text; returns NULL and the first token in *out, or the error. */
static const char *lex_first(const char *text, Token *out, int *ntok)
{
	static char err[2048];
	T *t = t_new(text);
	if (setjmp(t->jb)) {
		snprintf(err, sizeof err, "%s", t->c.diag.msg);
		t_free(t);
		return err;
	}
	Token *tok = lex(t, ntok);
	*out = tok[0];
	t_free(t);
	return NULL;
}

TEST(lex_numbers)
{
	static const struct { const char *text; TokKind kind; uint64_t i; double f; int big; } cases[] = {
		{"0", T_INT, 0, 0, 0}, {"42", T_INT, 42, 0, 0}, {"1_000", T_INT, 1000, 0, 0},
		{"0x1f", T_INT, 31, 0, 0}, {"0X_FF", T_INT, 255, 0, 0}, {"0o17", T_INT, 15, 0, 0},
		{"0b101", T_INT, 5, 0, 0}, {"0b_1_0", T_INT, 2, 0, 0}, {"00", T_INT, 0, 0, 0},
		{"9223372036854775807", T_INT, INT64_MAX, 0, 0},
		{"9223372036854775808", T_INT, (uint64_t)INT64_MAX + 1, 0, 1},
		{"18446744073709551615", T_INT, UINT64_MAX, 0, 1},
		{"0xffffffffffffffff", T_INT, UINT64_MAX, 0, 1},
		{"18446744073709551616", T_INT, 0, 0, 2},
		{"1e-3", T_FLOAT, 0, 1e-3, 0}, {".5", T_FLOAT, 0, 0.5, 0}, {"5.", T_FLOAT, 0, 5.0, 0},
		{"1.5", T_FLOAT, 0, 1.5, 0}, {"1_0.2_5", T_FLOAT, 0, 10.25, 0}, {"1E+2", T_FLOAT, 0, 100.0, 0},
		{"1.e2", T_FLOAT, 0, 100.0, 0}, {"012.5", T_FLOAT, 0, 12.5, 0}, {"1e400", T_FLOAT, 0, 1e308 * 10, 0},
		{"2j", T_IMAG, 0, 2.0, 0}, {"1.5e3j", T_IMAG, 0, 1500.0, 0}, {"3J", T_IMAG, 0, 3.0, 0},
		{".5j", T_IMAG, 0, 0.5, 0}, {"0j", T_IMAG, 0, 0.0, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Token tok;
		int n = 0;
		const char *err = lex_first(cases[i].text, &tok, &n);
		if (err) {
			printf("%s: unexpected error %s\n", cases[i].text, err);
			check_failed_now = 1;
			continue;
		}
		CHECK_EQ_INT(n, 3);   /* number, NEWLINE, EOF */
		CHECK_EQ_INT(tok.kind, cases[i].kind);
		if (cases[i].kind == T_INT) {
			if (cases[i].big != 2)
				CHECK(tok.ival == cases[i].i);
			CHECK_EQ_INT(tok.big, cases[i].big);
		} else {
			CHECK(tok.fval == cases[i].f);
		}
		CHECK_EQ_INT(tok.span.len, (int)strlen(cases[i].text));
		if (check_failed_now)
			printf("  (case %s)\n", cases[i].text);
	}
}

TEST(lex_bad_numbers)
{
	static const struct { const char *text, *msg; } cases[] = {
		{"0123", "leading zeros"}, {"1__0", "invalid decimal literal"}, {"1_", "invalid decimal literal"},
		{"0x", "invalid hexadecimal literal"}, {"0b102", "invalid digit '2' in binary literal"},
		{"0o8", "invalid digit '8' in octal literal"}, {"1abc", "invalid decimal literal"},
		{"0x1g", "invalid hexadecimal literal"}, {"1.5e3jx", "invalid imaginary literal"},
	};
	static const int cols[] = {1, 1, 1, 1, 5, 3, 1, 1, 1};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Token tok;
		int n;
		const char *err = lex_first(cases[i].text, &tok, &n);
		char where[32];
		snprintf(where, sizeof where, "k.py:1:%d: error:", cols[i]);
		CHECK_STR_CONTAINS(err, cases[i].msg);
		CHECK_STR_CONTAINS(err, where);
	}
}

/* The token kinds of text as a string: N name, I int, F float, S string,
 * O op, K keyword, > indent, < dedent, ; newline, $ eof. */
static const char *kinds_of(const char *text)
{
	static char out[4096];
	T *t = t_new(text);
	if (setjmp(t->jb)) {
		snprintf(out, sizeof out, "ERROR: %s", t->c.diag.msg);
		t_free(t);
		return out;
	}
	int n;
	Token *tok = lex(t, &n);
	int k = 0;
	for (int i = 0; i < n && k < (int)sizeof out - 1; i++)
		out[k++] = "$;><NIFjSOK"[tok[i].kind];
	out[k] = 0;
	t_free(t);
	return out;
}

TEST(lex_indentation)
{
	/* spaces */
	CHECK_STR_EQ(kinds_of("if a:\n    b\n    c\nd\n"), "KNO;>N;N;<N;$");
	/* tabs, and a tab equal to 8 spaces in a nested block */
	CHECK_STR_EQ(kinds_of("if a:\n\tif b:\n\t\tc\n\td\n"), "KNO;>KNO;>N;<N;<$");
	/* blank, whitespace-only and comment-only lines do nothing */
	CHECK_STR_EQ(kinds_of("if a:\n\n    b\n  \n# c\n        # d\n    e\n"), "KNO;>N;N;<$");
	/* several dedents at once, and at end of file without a newline */
	CHECK_STR_EQ(kinds_of("if a:\n  if b:\n    c\nd"), "KNO;>KNO;>N;<<N;$");
	CHECK_STR_EQ(kinds_of("if a:\n  if b:\n    c"), "KNO;>KNO;>N;<<$");
	/* form feed resets the column */
	CHECK_STR_EQ(kinds_of("a\n\f b\n"), "N;>N;<$");
	/* inconsistent dedent */
	CHECK_STR_CONTAINS(kinds_of("if a:\n    b\n  c\n"), "k.py:3:1: error: unindent does not match any outer indentation level");
	/* tabs and spaces whose meaning depends on the tab size */
	CHECK_STR_CONTAINS(kinds_of("if a:\n        b\n\tc\n"), "inconsistent use of tabs and spaces");
	/* a tab after 8 spaces is consistent neither way */
	CHECK_STR_CONTAINS(kinds_of("if a:\n    b\n\tc\n"), "error:");
}

TEST(lex_continuation)
{
	/* brackets join lines and suspend indentation */
	CHECK_STR_EQ(kinds_of("x = (1,\n        2,\n  3)\ny\n"), "NOOIOIOIO;N;$");
	CHECK_STR_EQ(kinds_of("x = [1,\n\n# c\n 2]\n"), "NOOIOIO;$");
	/* backslash continuation */
	CHECK_STR_EQ(kinds_of("x = 1 + \\\n      2\ny\n"), "NOIOI;N;$");
	CHECK_STR_EQ(kinds_of("x = 1 + \\\r\n2\r\n"), "NOIOI;$");
	CHECK_STR_CONTAINS(kinds_of("x = 1 \\ 2\n"), "unexpected character after line continuation character");
	CHECK_STR_CONTAINS(kinds_of("x = (1,\n"), "'(' was never closed");
	CHECK_STR_CONTAINS(kinds_of("x = 1)\n"), "unmatched ')'");
	CHECK_STR_CONTAINS(kinds_of("x = (1]\n"), "closing parenthesis ']' does not match opening parenthesis '('");
}

static const char *string_of(const char *text, int *flags)
{
	static char out[4096];
	T *t = t_new(text);
	if (setjmp(t->jb)) {
		snprintf(out, sizeof out, "ERROR: %s", t->c.diag.msg);
		t_free(t);
		return out;
	}
	int n;
	Token *tok = lex(t, &n);
	if (tok[0].kind != T_STRING) {
		t_free(t);
		return "NOT A STRING";
	}
	memcpy(out, tok[0].s, (size_t)tok[0].slen);
	out[tok[0].slen] = 0;
	if (flags)
		*flags = (int)tok[0].ival;
	t_free(t);
	return out;
}

TEST(lex_strings)
{
	int fl = -1;
	CHECK_STR_EQ(string_of("'abc'", &fl), "abc");
	CHECK_EQ_INT(fl, 0);
	CHECK_STR_EQ(string_of("\"a'b\"", NULL), "a'b");
	CHECK_STR_EQ(string_of("'a\\tb\\n\\\\\\'\\\"'", NULL), "a\tb\n\\'\"");
	CHECK_STR_EQ(string_of("'\\x41\\101\\u00e9\\U0001F600'", NULL), "AA\xc3\xa9\xf0\x9f\x98\x80");
	CHECK_STR_EQ(string_of("'\\q'", NULL), "\\q");
	CHECK_STR_EQ(string_of("'a\\\nb'", NULL), "ab");
	CHECK_STR_EQ(string_of("r'a\\nb\\''", &fl), "a\\nb\\'");
	CHECK_EQ_INT(fl, 4);
	CHECK_STR_EQ(string_of("'''one\ntwo''' ", NULL), "one\ntwo");
	CHECK_STR_EQ(string_of("\"\"\"a \"quoted\" b\"\"\"", NULL), "a \"quoted\" b");
	CHECK_STR_EQ(string_of("b'\\x80'", &fl), "\x80");
	CHECK_EQ_INT(fl, 1);
	string_of("f'{x}'", &fl);
	CHECK_EQ_INT(fl, 2);
	string_of("Rb'x'", &fl);
	CHECK_EQ_INT(fl, 5);
	string_of("'\\N{BULLET}'", &fl);
	CHECK_EQ_INT(fl, 8);
	CHECK_STR_CONTAINS(string_of("'abc\n'", NULL), "k.py:1:1: error: unterminated string literal");
	CHECK_STR_CONTAINS(string_of("'''abc\n", NULL), "unterminated triple-quoted string literal");
	CHECK_STR_CONTAINS(string_of("'\\x4'", NULL), "truncated \\x escape");
	CHECK_STR_CONTAINS(string_of("'\\Uffffffff'", NULL), "illegal Unicode character");
	CHECK_STR_CONTAINS(string_of("b'\xc3\xa9'", NULL), "bytes can only contain ASCII");
}

TEST(lex_keywords_and_ops)
{
	T *t = t_new("x **= not_ is not None // 2 -> ... := !=");
	if (setjmp(t->jb)) {
		printf("error %s\n", t->c.diag.msg);
		check_failed_now = 1;
		t_free(t);
		return;
	}
	int n;
	Token *tok = lex(t, &n);
	CHECK_EQ_INT(tok[1].kind, T_OP);
	CHECK(!strcmp(tok[1].op, "**="));
	CHECK_EQ_INT(tok[2].kind, T_NAME);
	CHECK(!strcmp(tok[2].s, "not_"));
	CHECK_EQ_INT(tok[3].kind, T_KEYWORD);
	CHECK(!strcmp(tok[3].op, "is"));
	CHECK_EQ_INT(tok[4].kind, T_KEYWORD);
	CHECK_EQ_INT(tok[5].kind, T_KEYWORD);
	CHECK(!strcmp(tok[5].op, "None"));
	CHECK(!strcmp(tok[6].op, "//"));
	CHECK(!strcmp(tok[8].op, "->"));
	CHECK(!strcmp(tok[9].op, "..."));
	CHECK(!strcmp(tok[10].op, ":="));
	CHECK(!strcmp(tok[11].op, "!="));
	/* the same keyword is the same pointer: spellings are interned */
	Token *a = lex(t, &n);
	CHECK(a[3].op == tok[3].op);
	t_free(t);
	CHECK_STR_CONTAINS(kinds_of("a $ b"), "invalid character '$' (U+0024)");
	CHECK_STR_CONTAINS(kinds_of("a ! b"), "invalid character '!'");
	CHECK_STR_CONTAINS(kinds_of("x = \xe2\x80\x9chi\xe2\x80\x9d"), "use straight quotes");
	CHECK_STR_CONTAINS(kinds_of("x =\xc2\xa0" "1"), "invalid non-printable character U+00A0");
	{
		T *t = t_new("x = 1");
		t->src.len = 6;   /* the NUL terminator is part of the text */
		if (!setjmp(t->jb)) {
			int n;
			lex(t, &n);
			CHECK(!"a NUL byte is an error");
		} else {
			CHECK_STR_CONTAINS(t->c.diag.msg, "k.py:1:6: error: source contains a null byte");
		}
		t_free(t);
	}
	CHECK_STR_CONTAINS(kinds_of("x = \xff"), "invalid UTF-8");
	/* identifiers may be non-ASCII */
	CHECK_STR_EQ(kinds_of("\xce\xb1 = 1"), "NOI;$");
	/* a number may run into a keyword, as in CPython */
	CHECK_STR_EQ(kinds_of("1if x else 2"), "IKNKI;$");
}

TEST(lex_expr_mode)
{
	T *t = t_new("f = cuda.jit(lambda a, b:\n    a + b)(x)\n");
	if (setjmp(t->jb)) {
		printf("error %s\n", t->c.diag.msg);
		check_failed_now = 1;
		t_free(t);
		return;
	}
	int n;
	Token *tok = lex_expr(&t->c, &t->src, 13, &n);
	CHECK(tok[0].kind == T_KEYWORD && !strcmp(tok[0].op, "lambda"));
	CHECK_EQ_INT(n, 9);   /* lambda a , b : a + b EOF (no NEWLINE; stops at ')') */
	CHECK_EQ_INT(tok[n - 1].kind, T_EOF);
	CHECK_EQ_INT(tok[n - 1].span.off, 35);
	t_free(t);
}

/* ------------------------------------------------------------ parser */

TEST(parse_add_kernel)
{
	const char *src =
		"import numpy as np\n"
		"from numba import cuda\n"
		"\n"
		"@cuda.jit\n"
		"def add_kernel(x, y, out):\n"
		"    idx = cuda.grid(1)\n"
		"    if idx < out.size:\n"
		"        out[idx] = x[idx] + y[idx]\n"
		"\n"
		"def main():\n"
		"    add_kernel[4, 256](x, y, out)\n";
	CHECK_STR_EQ(dump_of(src, "add_kernel"),
		"(def add_kernel (x y out)\n"
		"  (assign (name idx) (call (attr (name cuda) grid) (int 1)))\n"
		"  (if (compare (name idx) < (attr (name out) size))\n"
		"    (assign (subscript (name out) (name idx)) (binop + (subscript (name x) (name idx)) (subscript (name y) (name idx))))))\n");
	CHECK_STR_EQ(dump_of(src, "main"),
		"(def main ()\n"
		"  (expr (call (subscript (name add_kernel) (tuple (int 4) (int 256))) (name x) (name y) (name out))))\n");
	CHECK_STR_EQ(dump_of(src, NULL), dump_of(src, "add_kernel"));
	CHECK_STR_CONTAINS(dump_of(src, "nope"), "no function named 'nope'");
}

TEST(parse_statements)
{
	CHECK_STR_EQ(body_of("    a = b = 1\n    i, j = j, i\n    (p, q) = t\n    x.y[1].z = 2\n    a[i, j] += 1"),
		"  (assign (name a) (name b) (int 1))\n"
		"  (assign (tuple (name i) (name j)) (tuple (name j) (name i)))\n"
		"  (assign (tuple (name p) (name q)) (name t))\n"
		"  (assign (attr (subscript (attr (name x) y) (int 1)) z) (int 2))\n"
		"  (augassign + (subscript (name a) (tuple (name i) (name j))) (int 1))");
	CHECK_STR_EQ(body_of("    a -= 1; a *= 2; a /= 3; a //= 4; a %= 5; a **= 6\n"
	                     "    a @= b; a <<= 1; a >>= 2; a &= 3; a |= 4; a ^= 5;"),
		"  (augassign - (name a) (int 1))\n  (augassign * (name a) (int 2))\n"
		"  (augassign / (name a) (int 3))\n  (augassign // (name a) (int 4))\n"
		"  (augassign % (name a) (int 5))\n  (augassign ** (name a) (int 6))\n"
		"  (augassign @ (name a) (name b))\n  (augassign << (name a) (int 1))\n"
		"  (augassign >> (name a) (int 2))\n  (augassign & (name a) (int 3))\n"
		"  (augassign | (name a) (int 4))\n  (augassign ^ (name a) (int 5))");
	CHECK_STR_EQ(body_of("    x: float = 1.0\n    y: int\n    z = 1,"),
		"  (annassign (name x) (float 1.0))\n  (pass)\n  (assign (name z) (tuple (int 1)))");
	CHECK_STR_EQ(body_of("    if a: b = 1\n    elif c:\n        pass\n    else:\n        return\n"),
		"  (if (name a)\n"
		"    (assign (name b) (int 1))\n"
		"  else\n"
		"    (if (name c)\n"
		"      (pass)\n"
		"    else\n"
		"      (return)))");
	CHECK_STR_EQ(body_of("    while i < n:\n        i += 1\n        if i: break\n        continue\n    else:\n        x = 0"),
		"  (while (compare (name i) < (name n))\n"
		"    (augassign + (name i) (int 1))\n"
		"    (if (name i)\n"
		"      (break))\n"
		"    (continue)\n"
		"  else\n"
		"    (assign (name x) (int 0)))");
	CHECK_STR_EQ(body_of("    for i, (j, k) in zip(a, b):\n        pass\n    else: pass\n    for x in 1, 2: pass"),
		"  (for (tuple (name i) (tuple (name j) (name k))) (call (name zip) (name a) (name b))\n"
		"    (pass)\n"
		"  else\n"
		"    (pass))\n"
		"  (for (name x) (tuple (int 1) (int 2))\n"
		"    (pass))");
	CHECK_STR_EQ(body_of("    return a, b\n    assert x > 0, 'msg'\n    assert y\n    raise ValueError('bad') from e\n    raise"),
		"  (return (tuple (name a) (name b)))\n"
		"  (assert (compare (name x) > (int 0)) (str \"msg\"))\n"
		"  (assert (name y))\n"
		"  (raise (call (name ValueError) (str \"bad\")))\n"
		"  (raise)");
	CHECK_STR_EQ(body_of("    with a as b:\n        c\n    try:\n        x\n    except E:\n        y\n    else:\n        z\n    finally:\n        w\n"
	                     "    class C: pass\n    global g\n    nonlocal n\n    del a[0]\n    import math\n    from math import sqrt\n"
	                     "    yield 1\n    async for a in b:\n        pass\n    match x:\n        case 1:\n            pass\n"
	                     "    def g(y):\n        return y\n    @dec\n    def h(): pass\n    x = 1"),
		"  (unsupported with)\n  (unsupported try)\n  (unsupported class)\n  (unsupported global)\n"
		"  (unsupported nonlocal)\n  (unsupported del)\n  (unsupported import)\n  (unsupported import)\n"
		"  (unsupported yield)\n  (unsupported async)\n  (unsupported match)\n  (nested def)\n  (nested def)\n"
		"  (assign (name x) (int 1))");
	/* a name called match is still a name */
	CHECK_STR_EQ(body_of("    match = 1\n    match(x)"), "  (assign (name match) (int 1))\n  (expr (call (name match) (name x)))");
}

TEST(parse_params)
{
	CHECK_STR_EQ(dump_of("def f(a, b: int = 2, *args, c=3, **kw) -> None:\n    pass\n", NULL),
		"(def f (a b=(int 2) *varargs)\n  (pass))\n");
	CHECK_STR_EQ(dump_of("def f(a, /, b, *, c):\n    pass\n", NULL), "(def f (a b *varargs)\n  (pass))\n");
	CHECK_STR_EQ(dump_of("def f(\n    a,\n    b,\n):\n    pass\n", NULL), "(def f (a b)\n  (pass))\n");
	CHECK_STR_CONTAINS(dump_of("def f(a=1, b):\n    pass\n", NULL), "parameter without a default follows parameter with a default");
	CHECK_STR_CONTAINS(dump_of("def f(a, a):\n    pass\n", NULL), "duplicate argument 'a'");
}

TEST(parse_precedence)
{
	CHECK_STR_EQ(expr_of("-2**2"), "(unary - (binop ** (int 2) (int 2)))");
	CHECK_STR_EQ(expr_of("2**-1"), "(binop ** (int 2) (unary - (int 1)))");
	CHECK_STR_EQ(expr_of("2**3**2"), "(binop ** (int 2) (binop ** (int 3) (int 2)))");
	CHECK_STR_EQ(expr_of("a + b * c - d"), "(binop - (binop + (name a) (binop * (name b) (name c))) (name d))");
	CHECK_STR_EQ(expr_of("a // b % c / d @ e"),
		"(binop @ (binop / (binop % (binop // (name a) (name b)) (name c)) (name d)) (name e))");
	CHECK_STR_EQ(expr_of("a | b ^ c & d << e >> f + g"),
		"(binop | (name a) (binop ^ (name b) (binop & (name c) (binop >> (binop << (name d) (name e)) (binop + (name f) (name g))))))");
	CHECK_STR_EQ(expr_of("not a == b"), "(unary not (compare (name a) == (name b)))");
	CHECK_STR_EQ(expr_of("a or b and not c"), "(or (name a) (and (name b) (unary not (name c))))");
	CHECK_STR_EQ(expr_of("a and b and c or d or e"), "(or (and (name a) (name b) (name c)) (name d) (name e))");
	CHECK_STR_EQ(expr_of("a < b <= c != d"), "(compare (name a) < (name b) <= (name c) != (name d))");
	CHECK_STR_EQ(expr_of("a is not b"), "(compare (name a) is not (name b))");
	CHECK_STR_EQ(expr_of("a not in b in c is d"), "(compare (name a) not in (name b) in (name c) is (name d))");
	CHECK_STR_EQ(expr_of("a if b else c if d else e"),
		"(ifexp (name b) (name a) (ifexp (name d) (name c) (name e)))");
	CHECK_STR_EQ(expr_of("-a.b[c](d)"), "(unary - (call (subscript (attr (name a) b) (name c)) (name d)))");
	CHECK_STR_EQ(expr_of("~-+x"), "(unary ~ (unary - (unary + (name x))))");
	CHECK_STR_EQ(expr_of("lambda a, b=1: a + b"), "(lambda)");
	CHECK_STR_EQ(expr_of("await x"), "(unsupported \"await\")");
	CHECK_STR_EQ(expr_of("(a + b) * c"), "(binop * (binop + (name a) (name b)) (name c))");
}

TEST(parse_atoms)
{
	CHECK_STR_EQ(expr_of("(1, 2.5, 'x' \"y\", True, False, None, 3j)"),
		"(tuple (int 1) (float 2.5) (str \"xy\") (bool True) (bool False) (none) (imag 3.0))");
	CHECK_STR_EQ(expr_of("((), (1,), (a))"), "(tuple (tuple) (tuple (int 1)) (name a))");
	CHECK_STR_EQ(expr_of("a[1:2, ::3]"),
		"(subscript (name a) (tuple (slice (int 1) (int 2) _) (slice _ _ (int 3))))");
	CHECK_STR_EQ(expr_of("a[()]"), "(subscript (name a) (tuple))");
	CHECK_STR_EQ(expr_of("a[i,]"), "(subscript (name a) (tuple (name i)))");
	CHECK_STR_EQ(expr_of("a[:]"), "(subscript (name a) (slice _ _ _))");
	CHECK_STR_EQ(expr_of("a[-1:, i]"), "(subscript (name a) (tuple (slice (unary - (int 1)) _ _) (name i)))");
	CHECK_STR_EQ(expr_of("f(a, b=1, c=d)"), "(call (name f) (name a) (kw b (int 1)) (kw c (name d)))");
	CHECK_STR_EQ(expr_of("f(*a, **k)"),
		"(call (name f) (starred (name a)) (unsupported \"**kwargs argument unpacking\"))");
	CHECK_STR_EQ(expr_of("f(x for x in y)"), "(call (name f) (unsupported \"generator expression\"))");
	CHECK_STR_EQ(expr_of("([1, 2], [x for x in y if x], {}, {1: 2}, {1, 2}, {k: v for k, v in d}, {x for x in y})"),
		"(tuple (unsupported \"list display\") (unsupported \"list comprehension\") (unsupported \"dict display\") "
		"(unsupported \"dict display\") (unsupported \"set display\") (unsupported \"dict comprehension\") "
		"(unsupported \"set comprehension\"))");
	CHECK_STR_EQ(expr_of("(f'a{b}', b'x', ..., *a)"),
		"(tuple (unsupported \"f-string\") (bytes \"x\") (unsupported \"Ellipsis\") "
		"(unsupported \"starred expression\"))");
	CHECK_STR_EQ(expr_of("(n := 10)"), "(unsupported \"assignment expression (:=)\")");
	CHECK_STR_EQ(expr_of("18446744073709551615 + 99999999999999999999"),
		"(binop + (int 18446744073709551615) (unsupported \"integer literal wider than 64 bits\"))");
	CHECK_STR_EQ(expr_of("(1e-5, 1.5e16, 0.1, 100.0, 1e400)"),
		"(tuple (float 1e-05) (float 1.5e+16) (float 0.1) (float 100.0) (float inf))");
	CHECK_STR_EQ(expr_of("'tab\\there \"q\" \\x01'"), "(str \"tab\\there \\\"q\\\" \\x01\")");
}

/* The column (1-based) where the source text of an expression starts,
 * and its length. */
TEST(parse_spans)
{
	const char *src = "def f(a):\n    x = a[i, j] + foo(1, k=2) * -b.c\n";
	T *t = t_new(src);
	if (setjmp(t->jb)) {
		printf("error %s\n", t->c.diag.msg);
		check_failed_now = 1;
		t_free(t);
		return;
	}
	FuncDef *fn = parse_function(&t->c, &t->src, "f");
	CHECK_EQ_INT(span_loc(fn->params[0].span).col, 7);
	Stmt *s = fn->body.s[0];
	CHECK_EQ_INT(span_loc(s->span).line, 2);
	CHECK_EQ_INT(span_loc(s->span).col, 5);
	CHECK_EQ_INT(s->span.len, (int)strlen("x = a[i, j] + foo(1, k=2) * -b.c"));
	Expr *v = s->assign.value;                 /* a[i, j] + ... */
	CHECK_EQ_INT(span_loc(v->span).col, 9);
	CHECK_EQ_INT(v->span.len, (int)strlen("a[i, j] + foo(1, k=2) * -b.c"));
	Expr *sub = v->bin.a;
	CHECK_EQ_INT(sub->span.len, 7);
	CHECK_EQ_INT(span_loc(sub->sub.index->span).col, 11);   /* i, j */
	CHECK_EQ_INT(sub->sub.index->span.len, 4);
	Expr *mul = v->bin.b;
	Expr *call = mul->bin.a;
	CHECK_EQ_INT(span_loc(call->span).col, 19);
	CHECK_EQ_INT(call->span.len, (int)strlen("foo(1, k=2)"));
	CHECK_EQ_INT(span_loc(call->call.kwargs[0]->span).col, 28);
	Expr *neg = mul->bin.b;
	CHECK_EQ_INT(span_loc(neg->span).col, 33);
	CHECK_EQ_INT(neg->span.len, 4);
	CHECK_EQ_INT(span_loc(neg->bin.a->attr.name_span).col, 36);
	t_free(t);

	/* positions in a dedented source are shifted back to the file's */
	t = t_new("def g():\n    return 1 +  x\n");
	t->src.first_line = 10;
	t->src.col_shift = 4;
	if (setjmp(t->jb)) {
		printf("error %s\n", t->c.diag.msg);
		check_failed_now = 1;
		t_free(t);
		return;
	}
	fn = parse_function(&t->c, &t->src, "g");
	Loc l = span_loc(fn->body.s[0]->ret.value->bin.b->span);
	CHECK_EQ_INT(l.line, 11);
	CHECK_EQ_INT(l.col, 21);
	t_free(t);
}

TEST(parse_errors)
{
	const char *e;
	e = error_of("def f(a):\n    x = = 1\n");
	CHECK_STR_CONTAINS(e, "k.py:2:9: error:");
	CHECK_STR_CONTAINS(e, "\n        x = = 1\n            ^\n");
	CHECK_STR_CONTAINS(e, "hint:");
	e = error_of("def f(a):\n    if a\n        pass\n");
	CHECK_STR_CONTAINS(e, "k.py:2:9: error: expected ':'");
	e = error_of("def f(a):\n    if a:\n    pass\n");
	CHECK_STR_CONTAINS(e, "k.py:3:5: error: expected an indented block after 'if' statement on line 2");
	e = error_of("def f(a):\n    x = 1\n        y = 2\n");
	CHECK_STR_CONTAINS(e, "k.py:3:9: error: unexpected indent");
	e = error_of("def f(a):\n    f(a) = 1\n");
	CHECK_STR_CONTAINS(e, "k.py:2:5: error: cannot assign to function call");
	CHECK_STR_CONTAINS(e, "^~~~");
	e = error_of("def f(a):\n    1 = a\n");
	CHECK_STR_CONTAINS(e, "cannot assign to literal");
	e = error_of("def f(a):\n    a, b += 1\n");
	CHECK_STR_CONTAINS(e, "illegal expression for augmented assignment");
	e = error_of("def f(a):\n    x = (1 +\n");
	CHECK_STR_CONTAINS(e, "'(' was never closed");
	e = error_of("def f(a):\n    x = a +\n");
	CHECK_STR_CONTAINS(e, "k.py:2:12: error: invalid syntax: expected an expression, found end of line");
	e = error_of("def f(a):\n    x = f(a=1, 2)\n");
	CHECK_STR_CONTAINS(e, "positional argument follows keyword argument");
	e = error_of("def f(a):\n    x = f(a=1, a=2)\n");
	CHECK_STR_CONTAINS(e, "keyword argument repeated: a");
	e = error_of("def f(a):\n    x = a[]\n");
	CHECK_STR_CONTAINS(e, "empty subscript");
	e = error_of("def f(a):\n    else:\n        pass\n");
	CHECK_STR_CONTAINS(e, "'else' without a matching block");
	e = error_of("def f(a):\n    x = 1 2\n");
	CHECK_STR_CONTAINS(e, "k.py:2:11: error: invalid syntax: unexpected number after the statement");
	e = error_of("def f(a):\n    return a if b\n");
	CHECK_STR_CONTAINS(e, "expected 'else'");
	e = error_of("def f(a):\n    for i in range(3) print(i)\n");
	CHECK_STR_CONTAINS(e, "expected ':'");
	e = error_of("def (a):\n    pass\n");
	CHECK(e != NULL && strstr(e, "no function definition"));
	e = error_of("x = 1\n");
	CHECK_STR_CONTAINS(e, "no function definition in the source");
	e = error_of("def f(a):\n    x = a.\n");
	CHECK_STR_CONTAINS(e, "expected an attribute name after '.'");
	e = error_of("async def f(a):\n    pass\n");
	CHECK_STR_CONTAINS(e, "async functions cannot be compiled");
	/* common mistakes get their own words */
	e = error_of("def f(x):\n    print x\n");
	CHECK_STR_CONTAINS(e, "k.py:2:5: error: missing parentheses in call to 'print'");
	e = error_of("def f(x):\n    if x = 1:\n        pass\n");
	CHECK_STR_CONTAINS(e, "k.py:2:10: error: invalid syntax: '=' in the condition of 'if' statement");
	CHECK_STR_CONTAINS(e, "hint: to compare, use '=='");
	e = error_of("def f(x):\n    if x:\n        pass\n    else if y:\n        pass\n");
	CHECK_STR_CONTAINS(e, "k.py:4:5: error: invalid syntax: 'else if' is written 'elif' in Python");
	e = error_of("def f(x):\n    x++\n");
	CHECK_STR_CONTAINS(e, "k.py:2:6: error: invalid syntax: '++' is not an operator");
	e = error_of("def f(x):\n    if x && y:\n        pass\n");
	CHECK_STR_CONTAINS(e, "k.py:2:10: error: invalid syntax: '&&' is not a Python operator");
	e = error_of("def f(x):\n    y = g(x\n    z = [1\n");
	CHECK_STR_CONTAINS(e, "k.py:2:10: error: '(' was never closed");
	e = error_of("def f(x):\n    y = g(x, (1\n");
	CHECK_STR_CONTAINS(e, "k.py:2:14: error: '(' was never closed");
	e = error_of("def f(x):\n    y = g(x\n    z = 1\n    return (z)\n");
	CHECK_STR_CONTAINS(e, "k.py:2:10: error: '(' was never closed");
	e = error_of("def f(x):\n    y = f(1 2)\n");
	CHECK_STR_CONTAINS(e, "k.py:2:13: error: invalid syntax: expected ')', found number");
}

TEST(parse_depth_limit)
{
	static char text[20000];
	int k = snprintf(text, sizeof text, "def f():\n    x = ");
	for (int i = 0; i < 150; i++)
		text[k++] = '(', text[k++] = '-';
	text[k++] = '1';
	for (int i = 0; i < 150; i++)
		text[k++] = ')';
	text[k++] = '\n';
	text[k] = 0;
	CHECK_STR_CONTAINS(error_of(text), "expression nested too deeply");
	k = snprintf(text, sizeof text, "def f():\n    x = ");
	for (int i = 0; i < 250; i++)
		text[k++] = '[';
	text[k++] = '\n';
	text[k] = 0;
	CHECK_STR_CONTAINS(error_of(text), "too many nested parentheses");
	k = snprintf(text, sizeof text, "def f():\n    x = ");
	for (int i = 0; i < 5000; i++)
		text[k++] = '-';
	text[k++] = '1';
	text[k++] = '\n';
	text[k] = 0;
	CHECK_STR_CONTAINS(error_of(text), "expression nested too deeply");
	k = snprintf(text, sizeof text, "def f():\n    x = 1");
	for (int i = 0; i < 3000; i++)
		k += snprintf(text + k, sizeof text - k, "+1");
	text[k++] = '\n';
	text[k] = 0;
	CHECK_STR_CONTAINS(error_of(text), "expression nested too deeply");
	/* 40 levels are fine */
	k = snprintf(text, sizeof text, "def f():\n    x = ");
	for (int i = 0; i < 40; i++)
		text[k++] = '(';
	text[k++] = '1';
	for (int i = 0; i < 40; i++)
		text[k++] = ')';
	text[k++] = '\n';
	text[k] = 0;
	CHECK(error_of(text) == NULL);
	/* and deep block nesting is refused by the lexer */
	k = snprintf(text, sizeof text, "def f():\n");
	for (int i = 0; i < 120; i++)
		k += snprintf(text + k, sizeof text - k, "%*sif x:\n", i + 1, "");
	k += snprintf(text + k, sizeof text - k, "%*spass\n", 121, "");
	CHECK_STR_CONTAINS(error_of(text), "too many levels of indentation");
}

TEST(parse_clone)
{
	const char *src =
		"def k(a, b=2.5):\n"
		"    i, j = cuda.grid(2)\n"
		"    if i < a.shape[0] and j < a.shape[1] or not b:\n"
		"        a[i, j] = b * 2 if i else -b ** 2\n"
		"    for t in range(0, 10, 2):\n"
		"        a[1:2, ::3] += f(t, k=[1])\n"
		"    else:\n"
		"        assert i > 0 < j, 'x'\n"
		"    while True:\n"
		"        break\n"
		"    return\n";
	T *t = t_new(src);
	if (setjmp(t->jb)) {
		printf("error %s\n", t->c.diag.msg);
		check_failed_now = 1;
		t_free(t);
		return;
	}
	FuncDef *fn = parse_function(&t->c, &t->src, "k");
	fn->body.s[0]->assign.value->ty = (Type *)fn;   /* a sema field, to be cleared */
	fn->params[0].var = (Var *)fn;
	FuncDef *cl = ast_clone(&t->c, fn);
	static char a[8192], b[8192];
	FILE *m = fmemopen(a, sizeof a, "w");
	ast_dump(m, fn);
	fclose(m);
	m = fmemopen(b, sizeof b, "w");
	ast_dump(m, cl);
	fclose(m);
	CHECK_STR_EQ(b, a);
	CHECK(cl->body.s[0] != fn->body.s[0]);
	CHECK(cl->body.s[0]->assign.value != fn->body.s[0]->assign.value);
	CHECK(cl->body.s[0]->assign.value->ty == NULL);
	CHECK(cl->params[0].var == NULL);
	CHECK(cl->params[1].defval != fn->params[1].defval);
	CHECK_EQ_INT(cl->body.s[0]->span.off, fn->body.s[0]->span.off);
	/* the copy is independent */
	cl->body.s[1]->cond.cond->boolop.op = OP_AND;
	m = fmemopen(b, sizeof b, "w");
	ast_dump(m, fn);
	fclose(m);
	CHECK_STR_EQ(b, a);
	t_free(t);
}

TEST(parse_module_items)
{
	const char *src =
		"import numpy as np, math\n"
		"import numba.cuda\n"
		"from numba import cuda, float32 as f32\n"
		"from math import (sqrt,\n    pi)\n"
		"TPB = 32\n"
		"N: int = TPB * 4\n"
		"A, B = 1, 2.0\n"
		"x = y = 3\n"
		"if __name__ == '__main__':\n"
		"    def hidden(): pass\n"
		"class C:\n"
		"    def m(self): pass\n"
		"@cuda.jit(device=True)\n"
		"def dev(a):\n"
		"    return a + 1\n"
		"@cuda.jit(fastmath=True, lineinfo=True)\n"
		"def kern(a):\n"
		"    a[0] = dev(1)\n"
		"@numba.cuda.jit(device=True, inline=True)\n"
		"def dev2(a): return a\n"
		"@ptxjit.cuda.jit('float32(float32)', device=True)\n"
		"def dev3(a): return a\n"
		"def broken(a):\n"
		"    x = = 1\n"
		"print(kern)\n";
	T *t = t_new(src);
	if (setjmp(t->jb)) {
		printf("error %s\n", t->c.diag.msg);
		check_failed_now = 1;
		t_free(t);
		return;
	}
	int n;
	ModuleItem *it = parse_module(&t->c, &t->src, &n);
	static char out[4096];
	int k = 0;
	for (int i = 0; i < n; i++)
		k += snprintf(out + k, sizeof out - k, "%d %s %s %s %d %s%s%s%s\n", it[i].kind, it[i].name ? it[i].name : "-",
		              it[i].module ? it[i].module : "-", it[i].attr ? it[i].attr : "-", it[i].is_device,
		              it[i].kind == MI_DEF ? (it[i].def ? "def" : "nodef") : it[i].value ? "value" : "-",
		              it[i].sig ? " " : "", it[i].sig ? it[i].sig : "",
		              it[i].jit == (JIT_FASTMATH | JIT_LINEINFO) ? " fastmath lineinfo" : it[i].jit ? " ?" : "");
	CHECK_STR_EQ(out,
		"2 np numpy - 0 -\n"
		"2 math math - 0 -\n"
		"2 numba numba - 0 -\n"
		"2 cuda numba cuda 0 -\n"
		"2 f32 numba float32 0 -\n"
		"2 sqrt math sqrt 0 -\n"
		"2 pi math pi 0 -\n"
		"1 TPB - - 0 value\n"
		"1 N - - 0 value\n"
		"1 A - - 0 value\n"
		"1 B - - 0 value\n"
		"0 dev - - 1 def\n"
		"0 kern - - 0 def fastmath lineinfo\n"
		"0 dev2 - - 1 def\n"
		"0 dev3 - - 1 def float32(float32)\n"
		"0 broken - - 0 nodef\n");
	CHECK_EQ_INT(t->c.depth, 0);
	t_free(t);
}

TEST(parse_lambda_fn)
{
	const char *src = "add = cuda.jit(device=True)(lambda a, b=1: a + b * 2)\n";
	T *t = t_new(src);
	if (setjmp(t->jb)) {
		printf("error %s\n", t->c.diag.msg);
		check_failed_now = 1;
		t_free(t);
		return;
	}
	FuncDef *fn = parse_lambda(&t->c, &t->src, (int)(strstr(src, "lambda") - src), "add");
	static char a[1024];
	FILE *m = fmemopen(a, sizeof a, "w");
	ast_dump(m, fn);
	fclose(m);
	CHECK_STR_EQ(a, "(def add (a b=(int 1))\n  (return (binop + (name a) (binop * (name b) (int 2)))))\n");
	CHECK_EQ_INT(span_loc(fn->span).col, 29);
	t_free(t);
	/* a source without a def: parse_function reads its lambda */
	CHECK_STR_EQ(dump_of(src, "<lambda>"),
		"(def <lambda> (a b=(int 1))\n  (return (binop + (name a) (binop * (name b) (int 2)))))\n");
	CHECK_STR_CONTAINS(dump_of(src, "add"), "no function named 'add'");
}

/* ---------------------------------------------------- ptxjitc's names */

static void value_str(char *out, size_t n, const PjValue *v)
{
	switch (v->kind) {
	case PJ_V_INT: snprintf(out, n, "int %lld", (long long)v->i); break;
	case PJ_V_FLOAT: snprintf(out, n, "float %g", v->f); break;
	case PJ_V_BOOL: snprintf(out, n, "bool %lld", (long long)v->i); break;
	case PJ_V_STR: snprintf(out, n, "str %s", v->s); break;
	case PJ_V_NONE: snprintf(out, n, "none"); break;
	case PJ_V_MODULE: snprintf(out, n, "module %s", v->s); break;
	case PJ_V_INTRIN: snprintf(out, n, "intrin %s", v->s); break;
	case PJ_V_DTYPE: snprintf(out, n, "dtype %s", v->s); break;
	case PJ_V_UNKNOWN: snprintf(out, n, "unknown %s", v->s); break;
	case PJ_V_FUNC: snprintf(out, n, "func %s%s", v->func->name, v->func->is_device ? " device" : ""); break;
	case PJ_V_TUPLE: {
		size_t k = (size_t)snprintf(out, n, "(");
		for (int i = 0; i < v->n && k < n; i++) {
			value_str(out + k, n - k, &v->elts[i]);
			k += strlen(out + k);
			if (k < n - 2)
				k += (size_t)snprintf(out + k, n - k, i + 1 < v->n ? ", " : "");
		}
		if (k < n - 2)
			snprintf(out + k, n - k, ")");
		break;
	}
	default: snprintf(out, n, "kind %d", v->kind); break;
	}
}

TEST(cli_names)
{
	const char *src =
		"import numpy as np\n"
		"import math, numba\n"
		"from numba import cuda, float32, jit\n"
		"from math import sqrt, pi as PI\n"
		"from math import *\n"
		"TPB = 32\n"
		"N = TPB * 4\n"
		"SHAPE = (16, TPB // 2)\n"
		"X = -1.5\n"
		"F = np.float32\n"
		"HALF = 1 / 2\n"
		"FD = 7 // -2, -7 % 3, -7.5 // 2, 7.5 % -2, 2 ** -1, 2 ** 10, 1 << 4, ~5\n"
		"BIG = 2 ** 63\n"
		"MIN = -9223372036854775807 - 1\n"
		"EDGE = MIN % 3, MIN % -3, MIN // 3, (MIN + 1) % 7\n"
		"T2 = (1, 2) * 512\n"
		"T4 = T2 + T2\n"
		"A8 = np.array((300, 2), dtype=np.uint8)\n"
		"AI = np.array((1e20, 2.0), dtype=np.int64)\n"
		"AN = np.array((2.5, -1.5, 255.9), dtype=np.uint8)\n"
		"TWO_PI = 2 * math.pi\n"
		"T = SHAPE + (1,)\n"
		"E = SHAPE[1], len(SHAPE), max(1, 2.5), int(-2.7), abs(-3), float(TPB)\n"
		"L = [1, 2]\n"
		"SC = np.float64(2.5) * 2\n"
		"sq = cuda.jit(device=True)(lambda v: v * v)\n"
		"Z = np.zeros(3)\n"
		"S, B = 'text', True\n"
		"REBOUND = 1\n"
		"REBOUND = 2\n"
		"@cuda.jit(device=True)\n"
		"def helper(a):\n"
		"    return a\n"
		"@cuda.jit\n"
		"def kern(a):\n"
		"    a[0] = helper(TPB)\n";
	static const struct { const char *name, *want; } cases[] = {
		{"np", "module numpy"}, {"math", "module math"}, {"numba", "module numba"},
		{"cuda", "module cuda"}, {"float32", "dtype float32"}, {"jit", "intrin numba.jit"},
		{"sqrt", "intrin math.sqrt"}, {"PI", "float 3.14159"}, {"floor", "intrin math.floor"},
		{"TPB", "int 32"}, {"N", "int 128"}, {"SHAPE", "(int 16, int 16)"}, {"X", "float -1.5"},
		{"F", "intrin numpy.float32"}, {"HALF", "float 0.5"},
		{"FD", "(int -4, int 2, float -4, float -0.5, float 0.5, int 1024, int 16, int -6)"},
		{"BIG", "unknown non-constant"}, {"TWO_PI", "float 6.28319"},
		{"EDGE", "(int 1, int -2, int -3074457345618258603, int 0)"},
		{"T4", "unknown non-constant"}, {"A8", "unknown call result"}, {"AI", "unknown call result"},
		{"AN", "unknown call result"},
		{"T", "(int 16, int 16, int 1)"},
		{"E", "(int 16, int 2, float 2.5, int -2, int 3, float 32)"},
		{"L", "unknown list"}, {"SC", "float 5"}, {"sq", "func <lambda> device"}, {"Z", "unknown call result"}, {"S", "str text"}, {"B", "bool 1"},
		{"REBOUND", "int 2"}, {"helper", "func helper device"}, {"kern", "func kern"},
		{"range", NULL}, {"undefined", NULL},
	};
	Module M = {.file = "m.py", .text = src, .arena = arena_new()}, *m = &M;
	Src s = {.file = "m.py", .text = src, .len = (int)strlen(src), .first_line = 1};
	jmp_buf jb;
	Ctx c = {.arena = m->arena, .jmp = &jb};
	if (setjmp(jb)) {
		printf("error %s\n", c.diag.msg);
		check_failed_now = 1;
		arena_free(m->arena);
		return;
	}
	m->items = parse_module(&c, &s, &m->nitems);
	cli_bind(m);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		PjValue v;
		memset(&v, 0, sizeof v);
		int found = cli_resolve(m, cases[i].name, &v, (PjArena *)m->arena);
		if (!cases[i].want) {
			CHECK_EQ_INT(found, 0);
			continue;
		}
		char got[256];
		value_str(got, sizeof got, &v);
		if (!found || strcmp(got, cases[i].want)) {
			printf("%s:%d: %s resolves to %s, expected %s\n", __FILE__, __LINE__, cases[i].name,
			       found ? got : "nothing", cases[i].want);
			check_failed_now = 1;
		}
	}
	/* the functions of the file share its text, so positions are the file's */
	PjValue v;
	cli_resolve(m, "kern", &v, (PjArena *)m->arena);
	CHECK(v.func->source == src);
	CHECK_EQ_INT(v.func->first_line, 1);
	CHECK(v.func->resolve == cli_resolve);
	arena_free(m->arena);
}

int main(void)
{
	RUN(lex_numbers);
	RUN(lex_bad_numbers);
	RUN(lex_indentation);
	RUN(lex_continuation);
	RUN(lex_strings);
	RUN(lex_keywords_and_ops);
	RUN(lex_expr_mode);
	RUN(parse_add_kernel);
	RUN(parse_statements);
	RUN(parse_params);
	RUN(parse_precedence);
	RUN(parse_atoms);
	RUN(parse_spans);
	RUN(parse_errors);
	RUN(parse_depth_limit);
	RUN(parse_clone);
	RUN(parse_module_items);
	RUN(parse_lambda_fn);
	RUN(cli_names);
	return check_summary("front");
}

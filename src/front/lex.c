/*
 * lex.c - Python source text to tokens.
 *
 * The lexer reads the whole text once and returns an array of tokens in
 * the arena, ending with T_EOF.  It follows CPython's tokenizer where a
 * kernel can notice the difference:
 *
 *   - Logical lines end with T_NEWLINE.  Blank and comment-only lines
 *     produce nothing.  Inside (), [] and {} newlines are ignored, and a
 *     backslash before a newline joins two lines.
 *   - Indentation is measured at the start of each logical line (a tab
 *     moves to the next multiple of 8, a form feed resets the column) and
 *     turned into T_INDENT/T_DEDENT against a stack.  As in CPython the
 *     same lines are measured a second time with tabs counting 1, and a
 *     block whose nesting differs under the two measures is a TabError.
 *   - Numbers in every spelling (1_000, 0x1f, 0o17, 0b101, 1e-3, .5, 5.,
 *     2j, 1.5e3j).  Integers keep 64 bits: Token.big is 1 for a literal
 *     above INT64_MAX and 2 for one above UINT64_MAX, which the parser
 *     turns into an unsupported expression (host code may hold one).
 *   - Strings with any quote style and the r/b/u/f prefixes.  Escapes are
 *     decoded into Token.s/slen (UTF-8).  For T_STRING, Token.ival holds
 *     STR_* flags saying what the prefix was (and whether a \N{name}
 *     escape, which we do not decode, was seen), so that the parser can
 *     refuse bytes, f-strings and \N{} with a clear message.
 *   - Keywords are T_KEYWORD; their spelling in Token.op points into the
 *     static table below (as do operators), so compare with strcmp.
 *   - A name with a non-ASCII character is normalised to NFKC (nfkc.c) in
 *     Token.s, as Python's tokenizer does: `ﬁ` is `fi`.  Its span stays
 *     the text as written.
 *
 * lex_expr is the variant used for a lambda found inside a larger text:
 * it starts at an offset as if inside brackets (newlines are spaces) and
 * stops before the first closing bracket that was not opened after it.
 *
 * Errors (unterminated strings, bad characters, inconsistent dedents,
 * unbalanced brackets) are user errors at the offending span.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define MAX_INDENT 100   /* CPython's limit on nested blocks */
#define MAX_PAREN 200    /* CPython's limit on nested brackets */

typedef struct Lexer {
	Ctx *c;
	const Src *src;
	const unsigned char *s;
	int n;
	int pos;
	Token *tok;
	int ntok, cap;
	int indent[MAX_INDENT + 1];     /* columns of the open blocks */
	int altindent[MAX_INDENT + 1];  /* the same with tabs counting 1 */
	int nindent;
	int paren[MAX_PAREN];           /* offsets of the open brackets */
	int nparen;
	int expr_mode;                  /* lex_expr: an implicit bracket is open */
} Lexer;

/* Longest first, so the first match is the token. */
static const struct { const char *s; int len; } ops[] = {
	{"**=", 3}, {"//=", 3}, {">>=", 3}, {"<<=", 3}, {"...", 3},
	{"!=", 2}, {"%=", 2}, {"&=", 2}, {"**", 2}, {"*=", 2}, {"+=", 2}, {"-=", 2}, {"->", 2},
	{"//", 2}, {"/=", 2}, {":=", 2}, {"<<", 2}, {"<=", 2}, {"==", 2}, {">=", 2}, {">>", 2},
	{"@=", 2}, {"^=", 2}, {"|=", 2},
	{"%", 1}, {"&", 1}, {"(", 1}, {")", 1}, {"*", 1}, {"+", 1}, {",", 1}, {"-", 1}, {".", 1},
	{"/", 1}, {":", 1}, {";", 1}, {"<", 1}, {"=", 1}, {">", 1}, {"@", 1}, {"[", 1}, {"]", 1},
	{"^", 1}, {"{", 1}, {"|", 1}, {"}", 1}, {"~", 1},
	{NULL, 0}
};

static const struct { const char *s; int len; } keywords[] = {
	{"False", 5}, {"None", 4}, {"True", 4}, {"and", 3}, {"as", 2}, {"assert", 6}, {"async", 5},
	{"await", 5}, {"break", 5}, {"class", 5}, {"continue", 8}, {"def", 3}, {"del", 3},
	{"elif", 4}, {"else", 4}, {"except", 6}, {"finally", 7}, {"for", 3}, {"from", 4},
	{"global", 6}, {"if", 2}, {"import", 6}, {"in", 2}, {"is", 2}, {"lambda", 6},
	{"nonlocal", 8}, {"not", 3}, {"or", 2}, {"pass", 4}, {"raise", 5}, {"return", 6},
	{"try", 3}, {"while", 5}, {"with", 4}, {"yield", 5},
	{NULL, 0}
};

/* The keyword spelled by s[0..len), or NULL. */
static const char *keyword(const unsigned char *s, int len)
{
	if (len < 2 || len > 8)
		return NULL;
	for (int i = 0; keywords[i].s; i++)
		if (keywords[i].len == len && keywords[i].s[0] == s[0] && !memcmp(keywords[i].s, s, (size_t)len))
			return keywords[i].s;
	return NULL;
}

static Span span(Lexer *L, int off, int len)
{
	return (Span){L->src, off, len};
}

static Token *new_token(Lexer *L, TokKind kind, int off, int len)
{
	Token t = {0};
	t.kind = kind;
	t.span = span(L, off, len);
	VEC_PUSH(L->c, L->tok, L->ntok, L->cap, t);
	return &L->tok[L->ntok - 1];
}

static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static int is_alpha(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static int is_ident_start(int ch) { return is_alpha(ch) || ch == '_' || ch >= 0x80; }
static int is_ident_char(int ch) { return is_ident_start(ch) || is_digit(ch); }

static int peek(Lexer *L, int k)
{
	return L->pos + k < L->n ? L->s[L->pos + k] : 0;
}

/* Length of the line break at i (1 or 2), or 0. */
static int newline_at(Lexer *L, int i)
{
	if (i >= L->n)
		return 0;
	if (L->s[i] == '\n')
		return 1;
	if (L->s[i] == '\r')
		return i + 1 < L->n && L->s[i + 1] == '\n' ? 2 : 1;
	return 0;
}

/* Decodes the UTF-8 sequence at i into *cp; returns its length, or 0 if
 * it is malformed. */
static int utf8_decode(const unsigned char *s, int i, int n, int *cp)
{
	int c0 = s[i], len, v;
	if (c0 < 0x80) {
		*cp = c0;
		return 1;
	}
	if (c0 >= 0xc2 && c0 <= 0xdf)
		len = 2, v = c0 & 0x1f;
	else if (c0 >= 0xe0 && c0 <= 0xef)
		len = 3, v = c0 & 0x0f;
	else if (c0 >= 0xf0 && c0 <= 0xf4)
		len = 4, v = c0 & 0x07;
	else
		return 0;
	if (i + len > n)
		return 0;
	for (int k = 1; k < len; k++) {
		if ((s[i + k] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i + k] & 0x3f);
	}
	if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

static int utf8_encode(char *out, int cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int is_space_like(int cp)
{
	return cp == 0xa0 || (cp >= 0x2000 && cp <= 0x200b) || cp == 0x202f || cp == 0x205f ||
	       cp == 0x3000 || cp == 0xfeff;
}

/* Characters that text copied from web pages and word processors brings
 * along, which look like Python but are not. */
static const char *confusable_hint(int cp)
{
	switch (cp) {
	case 0x2018: case 0x2019: case 0x201c: case 0x201d: case 0x00ab: case 0x00bb:
		return "use straight quotes ' or \" around strings";
	case 0x2212: case 0x2013: case 0x2014:
		return "use the ASCII minus sign -";
	case 0x00d7:
		return "use * to multiply";
	case 0x00f7:
		return "use / to divide";
	case 0x2026:
		return "use three dots ...";
	case 0x2264: case 0x2265: case 0x2260:
		return "use <=, >= or !=";
	}
	return NULL;
}

static _Noreturn void bad_char(Lexer *L, int off)
{
	int cp, len = utf8_decode(L->s, off, L->n, &cp);
	if (!len)
		err_at(L->c, span(L, off, 1), "Python source files are UTF-8 text",
		       "invalid UTF-8 byte 0x%02x in source", L->s[off]);
	if (cp == 0)
		err_at(L->c, span(L, off, 1), "remove the NUL byte from the source",
		       "source contains a null byte");
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || is_space_like(cp))
		err_at(L->c, span(L, off, len),
		       is_space_like(cp) ? "replace it with a plain space" : "remove the control character",
		       "invalid non-printable character U+%04X", cp);
	const char *hint = confusable_hint(cp);
	if (cp == '!')
		hint = "use 'not' for negation and != for inequality";
	if (!hint)
		hint = "Python operators are ASCII: + - * / // % ** @ << >> & | ^ ~ < > = ( ) [ ] { } , : . ;";
	err_at(L->c, span(L, off, len), hint, "invalid character '%.*s' (U+%04X)", len,
	       (const char *)L->s + off, cp);
}

/* ------------------------------------------------------------ numbers */

static _Noreturn void bad_number(Lexer *L, int start, int end, const char *what)
{
	err_at(L->c, span(L, start, end - start),
	       "numbers are written like 42, 1_000, 0x1f, 0o17, 0b101, 3.5, 1e-3 or 2j",
	       "invalid %s literal", what);
}

static int is_base_digit(int ch, int base)
{
	if (base == 16)
		return is_digit(ch) || ((ch | 32) >= 'a' && (ch | 32) <= 'f');
	return is_digit(ch) && ch - '0' < base;
}

/* digitpart: digit (["_"] digit)*, for the digits of `base`.  Returns the
 * end offset; underscores must sit between two digits. */
static int scan_digits(Lexer *L, int p, int base, int start, const char *what)
{
	for (;;) {
		int ch = p < L->n ? L->s[p] : 0;
		if (ch == '_') {
			p++;
			if (!is_base_digit(p < L->n ? L->s[p] : 0, base))
				bad_number(L, start, p, what);
			continue;
		}
		if (!is_base_digit(ch, base))
			return p;
		p++;
	}
}

static int is_keyword_at(Lexer *L, int p)
{
	int q = p;
	while (q < L->n && is_ident_char(L->s[q]))
		q++;
	return keyword(L->s + p, q - p) != NULL;
}

/* A number may not run into a name ("1abc"), but may be followed by a
 * keyword ("1if x else 2"), as in CPython. */
static void check_number_end(Lexer *L, int start, int p, const char *what)
{
	if (p < L->n && is_ident_char(L->s[p]) && !(is_ident_start(L->s[p]) && is_keyword_at(L, p))) {
		int q = p;
		while (q < L->n && is_ident_char(L->s[q]))
			q++;
		bad_number(L, start, q, what);
	}
}

static int digit_value(int ch)
{
	return is_digit(ch) ? ch - '0' : (ch | 32) - 'a' + 10;
}

static void lex_number(Lexer *L)
{
	int start = L->pos, p = start;
	const unsigned char *s = L->s;
	int ch1 = peek(L, 1) | 32;
	if (s[p] == '0' && (ch1 == 'x' || ch1 == 'o' || ch1 == 'b')) {
		int base = ch1 == 'x' ? 16 : ch1 == 'o' ? 8 : 2;
		const char *what = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
		p += 2;
		if (p < L->n && s[p] == '_')
			p++;
		int d0 = p;
		p = scan_digits(L, p, base, start, what);
		if (p < L->n && is_digit(s[p]))
			err_at(L->c, span(L, p, 1), "octal digits are 0-7 and binary digits 0-1",
			       "invalid digit '%c' in %s literal", s[p], what);
		if (p == d0)
			bad_number(L, start, p < L->n ? p + 1 : p, what);
		check_number_end(L, start, p, what);
		uint64_t v = 0;
		int wide = 0;
		for (int i = d0; i < p; i++) {
			if (s[i] == '_')
				continue;
			unsigned d = (unsigned)digit_value(s[i]);
			if (v > (UINT64_MAX - d) / (unsigned)base)
				wide = 1;
			v = v * (unsigned)base + d;
		}
		Token *t = new_token(L, T_INT, start, p - start);
		t->ival = v;
		t->big = wide ? 2 : v > (uint64_t)INT64_MAX;
		L->pos = p;
		return;
	}

	int is_float = 0;
	if (is_digit(s[p]))
		p = scan_digits(L, p, 10, start, "decimal");
	int int_end = p;
	if (p < L->n && s[p] == '.') {
		is_float = 1;
		p++;
		if (p < L->n && is_digit(s[p]))
			p = scan_digits(L, p, 10, start, "decimal");
	}
	if (p < L->n && (s[p] | 32) == 'e') {
		int q = p + 1;
		if (q < L->n && (s[q] == '+' || s[q] == '-'))
			q++;
		if (q < L->n && is_digit(s[q])) {
			p = scan_digits(L, q, 10, start, "decimal");
			is_float = 1;
		}
	}
	int imag = 0;
	if (p < L->n && (s[p] | 32) == 'j') {
		imag = 1;
		p++;
	}
	check_number_end(L, start, p, imag ? "imaginary" : "decimal");

	if (!is_float && !imag) {
		if (s[start] == '0')
			for (int i = start; i < int_end; i++)
				if (s[i] != '0' && s[i] != '_')
					err_at(L->c, span(L, start, p - start),
					       "use an 0o prefix for octal integers (0o17)",
					       "leading zeros in decimal integer literals are not permitted");
		uint64_t v = 0;
		int wide = 0;
		for (int i = start; i < p; i++) {
			if (s[i] == '_')
				continue;
			unsigned d = (unsigned)(s[i] - '0');
			if (v > (UINT64_MAX - d) / 10)
				wide = 1;
			v = v * 10 + d;
		}
		Token *t = new_token(L, T_INT, start, p - start);
		t->ival = v;
		t->big = wide ? 2 : v > (uint64_t)INT64_MAX;
		L->pos = p;
		return;
	}

	char small[64];
	int len = p - start - imag;
	char *buf = len < (int)sizeof small ? small : arena_alloc(L->c->arena, (size_t)len + 1);
	int k = 0;
	for (int i = start; i < start + len; i++)
		if (s[i] != '_')
			buf[k++] = (char)s[i];
	buf[k] = 0;
	Token *t = new_token(L, imag ? T_IMAG : T_FLOAT, start, p - start);
	t->fval = strtod(buf, NULL);
	L->pos = p;
}

/* ------------------------------------------------------------ strings */

static int hexval(int ch)
{
	if (is_digit(ch))
		return ch - '0';
	ch |= 32;
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* Decodes the body [b, e) of a non-raw string literal into out; returns
 * the length.  The decoded text is never longer than the source.  A
 * \N{name} escape is copied as written and sets *named. */
static int decode_escapes(Lexer *L, int b, int e, int bytes, char *out, int *named)
{
	const unsigned char *s = L->s;
	int k = 0;
	for (int i = b; i < e;) {
		if (s[i] != '\\') {
			if (bytes && s[i] >= 0x80)
				err_at(L->c, span(L, i, 1), "write other bytes as \\xhh escapes",
				       "bytes can only contain ASCII literal characters");
			out[k++] = (char)s[i++];
			continue;
		}
		int esc = i;
		i++;
		int ch = s[i];
		int nl = newline_at(L, i);
		if (nl) {
			i += nl;
			continue;
		}
		i++;
		switch (ch) {
		case '\\': out[k++] = '\\'; break;
		case '\'': out[k++] = '\''; break;
		case '"': out[k++] = '"'; break;
		case 'a': out[k++] = '\a'; break;
		case 'b': out[k++] = '\b'; break;
		case 'f': out[k++] = '\f'; break;
		case 'n': out[k++] = '\n'; break;
		case 'r': out[k++] = '\r'; break;
		case 't': out[k++] = '\t'; break;
		case 'v': out[k++] = '\v'; break;
		case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
			int v = ch - '0';
			for (int d = 0; d < 2 && i < e && s[i] >= '0' && s[i] <= '7'; d++)
				v = v * 8 + s[i++] - '0';
			if (bytes)
				out[k++] = (char)(v & 0xff);
			else
				k += utf8_encode(out + k, v);
			break;
		}
		case 'x': case 'u': case 'U': {
			int nd = ch == 'x' ? 2 : ch == 'u' ? 4 : 8;
			if (bytes && ch != 'x') {
				out[k++] = '\\';
				out[k++] = (char)ch;
				break;
			}
			uint32_t v = 0;
			for (int d = 0; d < nd; d++) {
				int h = i < e ? hexval(s[i]) : -1;
				if (h < 0)
					err_at(L->c, span(L, esc, i - esc + 1), "write \\xhh, \\uhhhh or \\Uhhhhhhhh with hex digits",
					       "truncated \\%c escape in string literal", ch);
				v = v * 16 + (uint32_t)h;
				i++;
			}
			if (bytes)
				out[k++] = (char)v;
			else if (v > 0x10ffff)
				err_at(L->c, span(L, esc, i - esc), "Unicode ends at \\U0010ffff",
				       "illegal Unicode character in string literal");
			else
				k += utf8_encode(out + k, (int)v);
			break;
		}
		case 'N':
			if (!bytes && i < e && s[i] == '{') {
				/* kept as written; the parser refuses the literal */
				*named = 1;
				out[k++] = '\\';
				out[k++] = 'N';
				while (i < e && s[i] != '}')
					out[k++] = (char)s[i++];
				if (i < e)
					out[k++] = (char)s[i++];
				break;
			}
			/* fall through */
		default:
			/* unknown escapes keep their backslash, as in Python */
			out[k++] = '\\';
			i--;
			break;
		}
	}
	return k;
}

/* String prefixes: any case of r, u, b, f, br, rb, fr, rf.  Returns the
 * STR_* flags, or -1 when the name is not a prefix. */
static int string_prefix(const unsigned char *s, int len)
{
	if (len < 1 || len > 2)
		return -1;
	int flags = 0, seen = 0;
	for (int i = 0; i < len; i++) {
		int ch = s[i] | 32, bit;
		switch (ch) {
		case 'r': bit = STR_RAW; break;
		case 'b': bit = STR_BYTES; break;
		case 'f': bit = STR_FSTRING; break;
		case 'u': bit = 8; break;
		default: return -1;
		}
		if (seen & bit)
			return -1;
		seen |= bit;
		flags |= bit & 7;
	}
	if ((seen & 8) && len > 1)
		return -1;
	if ((seen & STR_BYTES) && (seen & STR_FSTRING))
		return -1;
	return flags;
}

/* A string literal whose prefix starts at `start` and whose opening quote
 * is at L->pos. */
static void lex_string(Lexer *L, int start, int flags)
{
	const unsigned char *s = L->s;
	int q = s[L->pos];
	int triple = peek(L, 1) == q && peek(L, 2) == q;
	int b = L->pos + (triple ? 3 : 1), i = b, e;
	for (;;) {
		if (i >= L->n)
			goto unterminated;
		int ch = s[i];
		if (ch == '\\') {
			i += 2;
			if (i > L->n)
				goto unterminated;
			if (i <= L->n && s[i - 1] == '\r' && i < L->n && s[i] == '\n')
				i++;
			continue;
		}
		if (!triple && (ch == '\n' || ch == '\r'))
			goto unterminated;
		if (ch == q && (!triple || (i + 2 < L->n && s[i + 1] == q && s[i + 2] == q))) {
			e = i;
			i += triple ? 3 : 1;
			break;
		}
		i++;
	}
	Token *t = new_token(L, T_STRING, start, i - start);
	t->ival = (uint64_t)flags;
	char *out = arena_alloc(L->c->arena, (size_t)(e - b) + 1);
	if (flags & STR_RAW) {
		memcpy(out, s + b, (size_t)(e - b));
		t->slen = e - b;
		if (flags & STR_BYTES)
			for (int k = b; k < e; k++)
				if (s[k] >= 0x80)
					err_at(L->c, span(L, k, 1), "write other bytes as \\xhh escapes in a non-raw bytes literal",
					       "bytes can only contain ASCII literal characters");
	} else {
		int named = 0;
		t->slen = decode_escapes(L, b, e, flags & STR_BYTES, out, &named);
		if (named)
			t->ival |= STR_NAMED;
	}
	out[t->slen] = 0;
	t->s = out;
	L->pos = i;
	return;

unterminated:;
	int eol = L->pos;
	while (eol < L->n && s[eol] != '\n' && s[eol] != '\r')
		eol++;
	if (triple)
		err_at(L->c, span(L, start, b - start), "close it with the same three quotes",
		       "unterminated triple-quoted string literal");
	err_at(L->c, span(L, start, eol - start),
	       "close the string on the same line, or use triple quotes for text over several lines",
	       "unterminated string literal");
}

/* ----------------------------------------------------- names, operators */

/* The UTF-8 text of a name with a non-ASCII character in NFKC, as
 * Python's tokenizer normalises identifiers (nfkc.c). */
static char *nfkc_name(Lexer *L, int start, int len, int *outlen)
{
	Arena *a = L->c->arena;
	uint32_t *in = arena_alloc(a, sizeof(uint32_t) * (size_t)len);
	uint32_t *norm = arena_alloc(a, sizeof(uint32_t) * (size_t)len * PJ_NFKC_GROWTH);
	int n = 0;
	for (int p = start; p < start + len;) {
		int cp, k = utf8_decode(L->s, p, L->n, &cp);
		in[n++] = (uint32_t)cp;
		p += k;
	}
	int m = pj_nfkc(in, n, norm);
	char *out = arena_alloc(a, (size_t)m * 4 + 1);
	int k = 0;
	for (int i = 0; i < m; i++)
		k += utf8_encode(out + k, (int)norm[i]);
	out[k] = 0;
	*outlen = k;
	return out;
}

static void lex_name(Lexer *L)
{
	int start = L->pos, p = start, ascii = 1;
	while (p < L->n && is_ident_char(L->s[p])) {
		if (L->s[p] >= 0x80) {
			int cp, len = utf8_decode(L->s, p, L->n, &cp);
			if (!len || cp < 0xa0 || is_space_like(cp) || confusable_hint(cp))
				bad_char(L, p);
			p += len;
			ascii = 0;
		} else {
			p++;
		}
	}
	int len = p - start;
	if (p < L->n && (L->s[p] == '\'' || L->s[p] == '"')) {
		int flags = string_prefix(L->s + start, len);
		if (flags >= 0) {
			L->pos = p;
			lex_string(L, start, flags);
			return;
		}
	}
	const char *kw = keyword(L->s + start, len);
	if (kw) {
		Token *t = new_token(L, T_KEYWORD, start, len);
		t->op = t->s = kw;
		t->slen = len;
		L->pos = p;
		return;
	}
	Token *t = new_token(L, T_NAME, start, len);
	if (ascii) {
		t->s = arena_strndup(L->c->arena, (const char *)L->s + start, (size_t)len);
		t->slen = len;
	} else {
		t->s = nfkc_name(L, start, len, &t->slen);
	}
	L->pos = p;
}

/* Returns 0 when lexing stops here (lex_expr's closing bracket). */
static int lex_op(Lexer *L)
{
	int start = L->pos;
	const char *op = NULL;
	int len = 0;
	for (int i = 0; ops[i].s; i++)
		if (ops[i].s[0] == L->s[start] && start + ops[i].len <= L->n &&
		    !memcmp(ops[i].s, L->s + start, (size_t)ops[i].len)) {
			op = ops[i].s;
			len = ops[i].len;
			break;
		}
	if (!op)
		bad_char(L, start);
	int ch = op[0];
	if (len == 1 && (ch == '(' || ch == '[' || ch == '{')) {
		if (L->nparen == MAX_PAREN)
			err_at(L->c, span(L, start, 1), "split the expression into several statements",
			       "too many nested parentheses");
		L->paren[L->nparen++] = start;
	} else if (len == 1 && (ch == ')' || ch == ']' || ch == '}')) {
		if (L->nparen == 0) {
			if (L->expr_mode)
				return 0;
			err_at(L->c, span(L, start, 1), "remove it, or add the opening bracket it closes",
			       "unmatched '%c'", ch);
		}
		int open = L->s[L->paren[L->nparen - 1]];
		int want = open == '(' ? ')' : open == '[' ? ']' : '}';
		if (ch != want) {
			Loc lo = span_loc(span(L, L->paren[L->nparen - 1], 1));
			err_at(L->c, span(L, start, 1), arena_printf(L->c->arena, "close the '%c' with '%c'", open, want),
			       "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d",
			       ch, open, lo.line);
		}
		L->nparen--;
	}
	Token *t = new_token(L, T_OP, start, len);
	t->op = op;
	L->pos = start + len;
	return 1;
}

/* --------------------------------------------------------- indentation */

static _Noreturn void tab_error(Lexer *L, int bol, int p)
{
	err_at(L->c, span(L, bol, p - bol > 0 ? p - bol : 1),
	       "indent with spaces only (4 per level), or tabs only",
	       "inconsistent use of tabs and spaces in indentation");
}

/* At the start of a line outside brackets: measures the indentation and
 * emits INDENT/DEDENT.  Returns 0 for a blank or comment-only line, which
 * it skips whole (including its line break). */
static int lex_indent(Lexer *L)
{
	int bol = L->pos, p = bol, col = 0, alt = 0;
	const unsigned char *s = L->s;
	for (; p < L->n; p++) {
		if (s[p] == ' ')
			col++, alt++;
		else if (s[p] == '\t')
			col = (col / 8 + 1) * 8, alt++;
		else if (s[p] == '\f')
			col = alt = 0;
		else
			break;
	}
	if (p >= L->n) {
		L->pos = p;
		return 0;
	}
	if (s[p] == '#' || s[p] == '\n' || s[p] == '\r' ||
	    (s[p] == '\\' && newline_at(L, p + 1))) {
		while (p < L->n && s[p] != '\n' && s[p] != '\r')
			p++;
		p += newline_at(L, p);
		L->pos = p;
		return 0;
	}
	int top = L->nindent - 1;
	if (col == L->indent[top]) {
		if (alt != L->altindent[top])
			tab_error(L, bol, p);
	} else if (col > L->indent[top]) {
		if (alt <= L->altindent[top])
			tab_error(L, bol, p);
		if (L->nindent > MAX_INDENT)
			err_at(L->c, span(L, p, 1), "move inner code into device functions",
			       "too many levels of indentation");
		L->indent[L->nindent] = col;
		L->altindent[L->nindent] = alt;
		L->nindent++;
		new_token(L, T_INDENT, p, 0);
	} else {
		while (L->nindent > 1 && col < L->indent[L->nindent - 1]) {
			L->nindent--;
			new_token(L, T_DEDENT, p, 0);
		}
		if (col != L->indent[L->nindent - 1])
			err_at(L->c, span(L, bol, p - bol > 0 ? p - bol : 1),
			       "indent this line as far as the block it belongs to",
			       "unindent does not match any outer indentation level");
		if (alt != L->altindent[L->nindent - 1])
			tab_error(L, bol, p);
	}
	L->pos = p;
	return 1;
}

static int line_of(Lexer *L, int off)
{
	return span_loc(span(L, off, 0)).line;
}

static int line_has_tokens(Lexer *L)
{
	if (L->ntok == 0)
		return 0;
	TokKind k = L->tok[L->ntok - 1].kind;
	return k != T_NEWLINE && k != T_INDENT && k != T_DEDENT;
}

/* ---------------------------------------------------------- the driver */

static void lex_run(Lexer *L)
{
	const unsigned char *s = L->s;
	int at_bol = !L->expr_mode;
	if (L->pos == 0 && L->n >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		L->pos = 3;
	for (;;) {
		if (at_bol && L->nparen == 0 && !L->expr_mode) {
			if (!lex_indent(L)) {
				if (L->pos >= L->n)
					break;
				continue;
			}
			at_bol = 0;
		}
		while (L->pos < L->n && (s[L->pos] == ' ' || s[L->pos] == '\t' || s[L->pos] == '\f'))
			L->pos++;
		if (L->pos >= L->n)
			break;
		int ch = s[L->pos];
		if (ch == '#') {
			while (L->pos < L->n && s[L->pos] != '\n' && s[L->pos] != '\r')
				L->pos++;
			continue;
		}
		int nl = newline_at(L, L->pos);
		if (nl) {
			if (L->nparen == 0 && !L->expr_mode && line_has_tokens(L))
				new_token(L, T_NEWLINE, L->pos, nl);
			L->pos += nl;
			at_bol = L->nparen == 0 && !L->expr_mode;
			continue;
		}
		if (ch == '\\') {
			int nl2 = newline_at(L, L->pos + 1);
			if (nl2) {
				L->pos += 1 + nl2;
				continue;
			}
			if (L->pos + 1 >= L->n)
				err_at(L->c, span(L, L->pos, 1), "remove the backslash at the end of the file",
				       "unexpected end of file after line continuation character");
			err_at(L->c, span(L, L->pos, 1), "a backslash continues a line only when it is the last character of the line",
			       "unexpected character after line continuation character");
		}
		if (is_digit(ch) || (ch == '.' && is_digit(peek(L, 1)))) {
			lex_number(L);
			continue;
		}
		if (ch == '\'' || ch == '"') {
			lex_string(L, L->pos, 0);
			continue;
		}
		if (is_ident_start(ch)) {
			lex_name(L);
			continue;
		}
		if (!lex_op(L))
			break;
	}
	if (!L->expr_mode) {
		if (L->nparen > 0) {
			/* the innermost when all are on one line, else the first */
			int off = L->paren[L->nparen - 1];
			if (line_of(L, L->paren[0]) != line_of(L, off))
				off = L->paren[0];
			err_at(L->c, span(L, off, 1), "close every bracket that you open",
			       "'%c' was never closed", s[off]);
		}
		if (line_has_tokens(L))
			new_token(L, T_NEWLINE, L->n, 0);
		while (L->nindent > 1) {
			L->nindent--;
			new_token(L, T_DEDENT, L->n, 0);
		}
	}
	new_token(L, T_EOF, L->pos < L->n ? L->pos : L->n, 0);
}

static Token *lex(Ctx *c, const Src *src, int off, int expr_mode, int *ntok)
{
	Lexer L = {0};
	L.c = c;
	L.src = src;
	L.s = (const unsigned char *)src->text;
	L.n = src->len;
	L.pos = off < 0 ? 0 : off > src->len ? src->len : off;
	L.nindent = 1;
	L.expr_mode = expr_mode;
	L.cap = 0;
	lex_run(&L);
	*ntok = L.ntok;
	return L.tok;
}

Token *lex_source(Ctx *c, const Src *src, int *ntok)
{
	return lex(c, src, 0, 0, ntok);
}

Token *lex_expr(Ctx *c, const Src *src, int off, int *ntok)
{
	return lex(c, src, off, 1, ntok);
}

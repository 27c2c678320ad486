/*
 * err.c - user errors and internal compiler errors.
 *
 * A user error names file:line:col, shows the source line with a caret
 * under the column (and tildes under the rest of the span on that line),
 * and says what is supported instead.  An internal error names the C file
 * and line of the compiler.  Both unwind to the entry point through
 * Ctx.jmp; the entry point turns Ctx.diag into a PjError.
 */
#include <string.h>

#include "../core.h"

/* The number of characters (UTF-8 code points) in the n bytes at s:
 * columns count characters, as Python's do. */
static int chars(const char *s, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xc0) != 0x80;
	return k;
}

void src_index(Ctx *c, Src *s)
{
	int n = 1;
	for (int i = 0; i < s->len; i++)
		n += s->text[i] == '\n';
	int32_t *bol = arena_alloc(c->arena, sizeof *bol * (size_t)n);
	n = 1;
	for (int i = 0; i < s->len; i++)
		if (s->text[i] == '\n')
			bol[n++] = i + 1;
	s->bol = bol;
	s->nbol = n;
}

static Loc locate(Span sp, int bytes)
{
	Loc l = {"<unknown>", 0, 0};
	if (!sp.src)
		return l;
	const char *t = sp.src->text;
	int off = sp.off < 0 ? 0 : sp.off > sp.src->len ? sp.src->len : sp.off;
	int line = 0, bol = 0;
	if (sp.src->bol) {
		int lo = 0, hi = sp.src->nbol - 1;   /* the last line that begins at or before off */
		while (lo < hi) {
			int mid = lo + (hi - lo + 1) / 2;
			if (sp.src->bol[mid] <= off)
				lo = mid;
			else
				hi = mid - 1;
		}
		line = lo;
		bol = sp.src->bol[lo];
	} else {
		for (int i = 0; i < off; i++)
			if (t[i] == '\n') {
				line++;
				bol = i + 1;
			}
	}
	l.file = sp.src->file ? sp.src->file : "<string>";
	l.line = sp.src->first_line + line;
	l.col = (bytes ? off - bol : chars(t + bol, off - bol)) + 1 + sp.src->col_shift;
	return l;
}

Loc span_loc(Span sp)
{
	return locate(sp, 0);
}

Loc span_code_loc(Span sp)
{
	return locate(sp, 1);
}

int span_line_text(Span sp, const char **start, int *len)
{
	if (!sp.src)
		return 0;
	const char *t = sp.src->text;
	int off = sp.off < 0 ? 0 : sp.off > sp.src->len ? sp.src->len : sp.off;
	int bol = off, eol = off;
	while (bol > 0 && t[bol - 1] != '\n')
		bol--;
	while (eol < sp.src->len && t[eol] != '\n' && t[eol] != '\r')
		eol++;
	*start = t + bol;
	*len = eol - bol;
	return 1;
}

static _Noreturn void unwind(Ctx *c)
{
	longjmp(*c->jmp, 1);
}

/* Appends one character to the message, keeping it terminated. */
static void put(Diag *d, int *n, char ch)
{
	if (*n < 0 || *n >= (int)sizeof d->msg - 1)
		return;
	d->msg[(*n)++] = ch;
	d->msg[*n] = 0;
}

static _Noreturn void report(Ctx *c, Span sp, int py_exc, const char *hint, const char *what);

void err_at(Ctx *c, Span sp, const char *hint, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	report(c, sp, 0, hint, what);
}

void err_type_at(Ctx *c, Span sp, const char *hint, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	report(c, sp, PJ_EXC_TYPE, hint, what);
}

void err_value_at(Ctx *c, Span sp, const char *hint, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	report(c, sp, PJ_EXC_VALUE, hint, what);
}

static void report(Ctx *c, Span sp, int py_exc, const char *hint, const char *what)
{
	Diag *d = &c->diag;
	Loc l = span_loc(sp);
	d->kind = PJ_ERR_USER;
	d->py_exc = py_exc;
	d->file = l.file;
	d->line = l.line;
	d->col = l.col;
	int n = snprintf(d->msg, sizeof d->msg, "%s:%d:%d: error: %s\n", l.file, l.line, l.col, what);
	const char *line;
	int len;
	if (n < (int)sizeof d->msg && sp.src && sp.src->rebuilt) {
		n += snprintf(d->msg + n, sizeof d->msg - n,
		              "    (no source text: the function was rebuilt from its bytecode)\n");
	} else if (n < (int)sizeof d->msg && span_line_text(sp, &line, &len)) {
		int shift = sp.src->col_shift;
		n += snprintf(d->msg + n, sizeof d->msg - n, "    %*s%.*s\n", shift, "", len, line);
		int at = (int)(sp.src->text + (sp.off < 0 ? 0 : sp.off > sp.src->len ? sp.src->len : sp.off) - line);
		int end = sp.len > 1 && at + sp.len < len ? at + sp.len : len;
		int under = at < end ? chars(line + at, end - at) - 1 : 0;
		/* the caret line repeats the source line's tabs so that it lines up */
		if (n < (int)sizeof d->msg)
			n += snprintf(d->msg + n, sizeof d->msg - n, "    %*s", shift, "");
		for (int i = 0; i < at; i++)
			if (((unsigned char)line[i] & 0xc0) != 0x80)
				put(d, &n, line[i] == '\t' ? '\t' : ' ');
		put(d, &n, '^');
		for (int i = 0; i < under && sp.len > 1; i++)
			put(d, &n, '~');
		put(d, &n, '\n');
	}
	if (hint && n < (int)sizeof d->msg)
		snprintf(d->msg + n, sizeof d->msg - n, "hint: %s\n", hint);
	unwind(c);
}

void ice_at(Ctx *c, const char *cfile, int cline, const char *fmt, ...)
{
	Diag *d = &c->diag;
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	d->kind = PJ_ERR_INTERNAL;
	d->file = cfile;
	d->line = cline;
	d->col = 0;
	snprintf(d->msg, sizeof d->msg,
	         "internal compiler error at %s:%d: %s\n"
	         "This is a bug in ptxjit, not in your code; please report it with the kernel's source.\n",
	         cfile, cline, what);
	unwind(c);
}

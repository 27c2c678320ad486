/*
 * module.c - a whole Python file, read for the command-line tool.
 *
 * parse_module keeps what ptxjitc needs to answer a kernel's global names
 * without running Python: the top-level defs (with whether a decorator
 * makes them device functions), `NAME = expr` assignments (also with an
 * annotation, and `A, B = 1, 2`), and imports.  Everything else at top
 * level (if __name__ blocks, calls, classes) is skipped, and so is any
 * statement that does not parse: a file that Python accepts must not fail
 * here because of host code the parser does not read.  A def that does
 * not parse is kept with def == NULL, so that its name is still known;
 * compiling it reports the error.
 */
#include "parse.h"

typedef struct ModParser {
	Parser *p;
	ModuleItem *items;
	int n, cap;
	int device;         /* the decorators read so far mark a device function */
	const char *sig;    /* and give this signature, or NULL */
	const char **sigs;  /* or these (a list of strings) */
	int nsigs;
	unsigned jit;       /* and give these JIT_* options */
} ModParser;

/* Runs fn(mp) and returns 1, or returns 0 with the tokens and items
 * rewound when it fails with a user error. */
static int attempt(ModParser *mp, void (*fn)(ModParser *))
{
	Ctx *c = mp->p->c;
	jmp_buf jb;
	jmp_buf *saved = c->jmp;
	int depth = c->depth;
	int n = mp->n;
	Token *start = mp->p->tok;
	c->jmp = &jb;
	if (setjmp(jb)) {
		c->jmp = saved;
		c->depth = depth;
		mp->p->tok = start;
		mp->n = n;
		return 0;
	}
	fn(mp);
	c->jmp = saved;
	return 1;
}

static void add_item(ModParser *mp, ModuleItem it)
{
	VEC_PUSH(mp->p->c, mp->items, mp->n, mp->cap, it);
}

/* dotted_name = NAME ("." NAME)* */
static const char *dotted_name(Parser *p)
{
	Token *t = p->tok;
	if (t->kind != T_NAME)
		parse_unexpected(p, "a module name");
	const char *s = advance(p)->s;
	while (equal(p, ".") && p->tok[1].kind == T_NAME) {
		advance(p);
		s = arena_printf(p->c->arena, "%s.%s", s, advance(p)->s);
	}
	return s;
}

/* import_name = "import" dotted_name ("as" NAME)? ("," dotted_name ("as" NAME)?)*
 * import_from = "from" "."* dotted_name? "import" ("*" | "(" names ")" | names)
 * names = NAME ("as" NAME)? ("," NAME ("as" NAME)?)* ","? */
static void import_stmt(ModParser *mp)
{
	Parser *p = mp->p;
	Token *t = advance(p);
	if (is_kw(t, "import")) {
		do {
			Token *s = p->tok;
			const char *mod = dotted_name(p);
			ModuleItem it = {.kind = MI_IMPORT, .module = mod, .span = s->span};
			if (consume(p, "as")) {
				if (p->tok->kind != T_NAME)
					parse_unexpected(p, NULL);
				it.name = advance(p)->s;
			} else {
				const char *dot = strchr(mod, '.');
				it.name = dot ? arena_strndup(p->c->arena, mod, (size_t)(dot - mod)) : mod;
				it.module = it.name;
			}
			add_item(mp, it);
		} while (consume(p, ","));
	} else {
		const char *dots = "";
		while (equal(p, ".") || equal(p, "..."))
			dots = arena_printf(p->c->arena, "%s%s", dots, advance(p)->op);
		const char *mod = p->tok->kind == T_NAME ? dotted_name(p) : "";
		mod = arena_printf(p->c->arena, "%s%s", dots, mod);
		parse_skip(p, "import", NULL);
		if (equal(p, "*")) {
			Token *s = advance(p);
			add_item(mp, (ModuleItem){.kind = MI_IMPORT, .name = "*", .module = mod, .attr = "*", .span = s->span});
		} else {
			int paren = consume(p, "(");
			do {
				if (paren && equal(p, ")"))
					break;
				Token *s = p->tok;
				if (s->kind != T_NAME)
					parse_unexpected(p, NULL);
				advance(p);
				ModuleItem it = {.kind = MI_IMPORT, .name = s->s, .module = mod, .attr = s->s, .span = s->span};
				if (consume(p, "as")) {
					if (p->tok->kind != T_NAME)
						parse_unexpected(p, NULL);
					it.name = advance(p)->s;
				}
				add_item(mp, it);
			} while (consume(p, ","));
			if (paren)
				parse_skip(p, ")", NULL);
		}
	}
	if (p->tok->kind != T_NEWLINE && !equal(p, ";"))
		parse_unexpected(p, NULL);
}

/* module_assign = NAME (":" expression)? "=" expression
 *               | NAME ("," NAME)+ ","? "=" expression ("," expression)+ */
static void module_assign(ModParser *mp)
{
	Parser *p = mp->p;
	Token *names[16];
	int n = 0;
	do {
		if (p->tok->kind != T_NAME || n == 16)
			parse_unexpected(p, NULL);
		names[n++] = advance(p);
	} while (consume(p, ",") && p->tok->kind == T_NAME);
	if (n == 1 && consume(p, ":"))
		parse_expression(p);
	parse_skip(p, "=", NULL);
	Expr *v = parse_star_expressions(p);
	if (p->tok->kind != T_NEWLINE && !equal(p, ";"))
		parse_unexpected(p, NULL);
	if (n == 1) {
		add_item(mp, (ModuleItem){.kind = MI_ASSIGN, .name = names[0]->s, .value = v, .span = names[0]->span});
		return;
	}
	if (v->kind != E_TUPLE || v->tuple.n != n)
		return;
	for (int i = 0; i < n; i++)
		add_item(mp, (ModuleItem){.kind = MI_ASSIGN, .name = names[i]->s, .value = v->tuple.elts[i],
		                          .span = names[i]->span});
}

static void module_def(ModParser *mp)
{
	FuncDef *fn = parse_function_def(mp->p);
	mp->items[mp->n - 1].def = fn;
}

/* A call of jit, cuda.jit, numba.cuda.jit or ptxjit.cuda.jit. */
static int is_jit_call(const Expr *d)
{
	if (d->kind != E_CALL)
		return 0;
	const Expr *f = d->call.fn;
	if (f->kind == E_NAME)
		return !strcmp(f->name.id, "jit");
	if (f->kind != E_ATTR || strcmp(f->attr.name, "jit"))
		return 0;
	const Expr *o = f->attr.obj;
	if (o->kind == E_NAME)
		return !strcmp(o->name.id, "cuda");
	return o->kind == E_ATTR && !strcmp(o->attr.name, "cuda") && o->attr.obj->kind == E_NAME &&
	       (!strcmp(o->attr.obj->name.id, "numba") || !strcmp(o->attr.obj->name.id, "ptxjit"));
}

/* decorator = "@" named_expression NEWLINE
 * Notes device=True, the options the command line has too (fastmath,
 * debug, lineinfo, opt) and a signature string of a jit decorator. */
/* The signatures of a decorator's list display ["...", "..."] at span
 * (the parser keeps no elements of a list): its tokens, when they are
 * plain strings between commas. */
static void sig_list(ModParser *mp, Span sp)
{
	Parser *p = mp->p;
	Token *t = p->toks;
	while (t->kind != T_EOF && t->span.off < sp.off)
		t++;
	if (!is_op(t, "["))
		return;
	const char **v = NULL;
	int n = 0, cap = 0;
	for (t++; t->kind == T_STRING && !(t->ival & (STR_BYTES | STR_FSTRING | STR_NAMED)); t++) {
		VEC_PUSH(p->c, v, n, cap, t->s);
		if (!is_op(t + 1, ","))
			break;
		t++;
	}
	if (n && is_op(t + 1, "]") && t[1].span.off + 1 == sp.off + sp.len) {
		mp->sigs = v;
		mp->nsigs = n;
	}
}

static void decorator(ModParser *mp)
{
	Parser *p = mp->p;
	parse_skip(p, "@", NULL);
	Expr *d = parse_named_expression(p);
	if (p->tok->kind != T_NEWLINE)
		parse_unexpected(p, NULL);
	advance(p);
	if (!is_jit_call(d))
		return;
	for (int i = 0; i < d->call.nkw; i++) {
		if (d->call.kwargs[i]->kind != E_BOOL)
			continue;
		const char *name = d->call.kwnames[i];
		int on = d->call.kwargs[i]->ival != 0;
		if (!strcmp(name, "device"))
			mp->device |= on;
		else if (!strcmp(name, "fastmath") && on)
			mp->jit |= JIT_FASTMATH;
		else if (!strcmp(name, "debug") && on)
			mp->jit |= JIT_DEBUG;
		else if (!strcmp(name, "lineinfo") && on)
			mp->jit |= JIT_LINEINFO;
		else if (!strcmp(name, "opt") && !on)
			mp->jit |= JIT_NOOPT;
	}
	if (d->call.nargs >= 1 && d->call.args[0]->kind == E_STR)
		mp->sig = d->call.args[0]->str.s;
	else if (d->call.nargs >= 1)
		sig_list(mp, d->call.args[0]->span);
}

/* module = (decorator* function_def | import_stmt | module_assign | other)* */
ModuleItem *parse_module(Ctx *c, const Src *src, int *nitems)
{
	int ntok;
	Token *toks = lex_source(c, src, &ntok);
	Parser P, *p = &P;
	parse_init(p, c, src, toks, ntok);
	ModParser M = {.p = p}, *mp = &M;
	int depth0 = c->depth;
	c->depth = 0;
	while (p->tok->kind != T_EOF) {
		Token *t = p->tok;
		if (t->kind == T_NEWLINE || t->kind == T_DEDENT) {
			advance(p);
			continue;
		}
		mp->device = 0;
		mp->sig = NULL;
		mp->sigs = NULL;
		mp->nsigs = 0;
		mp->jit = 0;
		while (equal(p, "@"))
			if (!attempt(mp, decorator))
				parse_skip_statement(p);
		t = p->tok;
		if (is_kw(t, "def") && t[1].kind == T_NAME) {
			add_item(mp, (ModuleItem){.kind = MI_DEF, .name = t[1].s, .is_device = mp->device,
			                          .sig = mp->sig, .sigs = mp->sigs, .nsigs = mp->nsigs, .jit = mp->jit, .span = span_join(t->span, t[1].span)});
			if (!attempt(mp, module_def))
				parse_skip_statement(p);   /* the item stays, with def == NULL */
			continue;
		}
		int ok = 0;
		if (is_kw(t, "import") || is_kw(t, "from"))
			ok = attempt(mp, import_stmt);
		else if (t->kind == T_NAME && (is_op(t + 1, "=") || is_op(t + 1, ":") || is_op(t + 1, ",")))
			ok = attempt(mp, module_assign);
		if (ok && consume(p, ";") && p->tok->kind != T_NEWLINE)
			continue;
		parse_skip_statement(p);
	}
	c->depth = depth0;
	*nitems = mp->n;
	return mp->items;
}

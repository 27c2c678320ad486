/*
 * parse.c - recursive-descent parser from tokens to the AST of core.h.
 *
 * Each function reads one rule of Python's grammar, written in a comment
 * above it (simplified from the PEG grammar of CPython 3.12: only what a
 * kernel body can hold is built, the rest is recognised so that sema can
 * refuse it by name).  Every node carries the span of its source text.
 *
 * What is built: assignments (chained, tuple targets, subscripts and
 * attributes), augmented and annotated assignments, if/elif/else,
 * while/else, for/else, break, continue, return, pass, assert, raise, and
 * expressions with Python's precedence.  What is recognised and kept as
 * "unsupported": with, try, class, global, nonlocal, del, import, yield,
 * async and match statements (S_UNSUPPORTED, the suite skipped), nested
 * defs (S_DEF), and list/dict/set displays, comprehensions, generator
 * expressions, starred expressions, f-strings, bytes, `...`, `:=`,
 * `await` and `yield` expressions, integers wider than 64 bits
 * (E_UNSUPPORTED with a description in str.s).  Lambdas are E_LAMBDA.
 * An annotation without a value (`x: int`) declares nothing a kernel
 * needs and becomes S_PASS.
 *
 * Syntax errors are user errors at the offending token, with a hint.
 * Recursion is bounded by Ctx.depth, which also counts the length of
 * left-associative chains, so that neither this parser nor the passes
 * that walk the tree can run out of stack on hostile input.
 *
 * parse_function finds the def it is asked for in a source (a whole file
 * or one function's text) and reads only that def; a source without a
 * def, asked for "<lambda>", gives its first lambda (parse_lambda) as a
 * function returning the lambda's expression; asked for "<lambda@N>", the
 * lambda whose keyword starts at byte N.  Whole files (parse_module,
 * for the command-line tool) are read by module.c with the rules
 * exported through parse.h.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define MAX_DEPTH 200

static Expr *expression(Parser *p);
static Expr *named_expression(Parser *p);
static Expr *star_expressions(Parser *p);
static Expr *disjunction(Parser *p);
static Expr *bitwise_or(Parser *p);
static Expr *factor(Parser *p);
static Expr *primary(Parser *p);
static void statement(Parser *p, StmtList *out, int *cap);
static StmtList block(Parser *p, Token *hdr, const char *what);
static FuncDef *function_def(Parser *p);

/* ------------------------------------------------------------ helpers */

static const char *describe(Parser *p, const Token *t)
{
	switch (t->kind) {
	case T_EOF: return "end of file";
	case T_NEWLINE: return "end of line";
	case T_INDENT: return "indent";
	case T_DEDENT: return "dedent";
	case T_NAME: return arena_printf(p->c->arena, "name '%s'", t->s);
	case T_INT: case T_FLOAT: case T_IMAG: return "number";
	case T_STRING: return "string";
	case T_OP: return arena_printf(p->c->arena, "'%s'", t->op);
	case T_KEYWORD: return arena_printf(p->c->arena, "keyword '%s'", t->op);
	}
	return "token";
}

static _Noreturn void unexpected(Parser *p, const char *hint)
{
	Token *t = p->tok;
	if (t->kind == T_INDENT)
		err_at(p->c, t->span, hint ? hint : "indent a line only at the start of a block, after a ':'",
		       "unexpected indent");
	err_at(p->c, t->span, hint ? hint : "see the Python grammar: this token cannot appear here",
	       "invalid syntax: unexpected %s", describe(p, t));
}

static Token *skip(Parser *p, const char *s, const char *hint)
{
	if (!equal(p, s)) {
		Token *t = p->tok;
		err_at(p->c, t->span, hint, "expected '%s', found %s", s, describe(p, t));
	}
	return advance(p);
}

static int line_of(Span sp)
{
	return span_loc(sp).line;
}

/* Reads the closing bracket of `open`.  When the next token is on a later
 * line than the last one read, the bracket was most likely left open. */
static void close_bracket(Parser *p, Token *open, const char *close, const char *hint)
{
	if (equal(p, close)) {
		advance(p);
		return;
	}
	Token *t = p->tok;
	if (t->kind == T_EOF || (t > p->toks && line_of(t->span) > line_of(t[-1].span)))
		err_at(p->c, open->span, "close the bracket on this line, or continue the expression inside it",
		       "'%s' was never closed", open->op);
	err_at(p->c, t->span, hint, "invalid syntax: expected '%s', found %s", close, describe(p, t));
}

/* The end offset of the last token read. */
static int prev_end(Parser *p)
{
	if (p->tok == p->toks)
		return p->tok->span.off;
	Token *t = p->tok - 1;
	return t->span.off + t->span.len;
}

static Span span_from(Parser *p, Span start)
{
	Span s = start;
	int end = prev_end(p);
	s.len = end > s.off ? end - s.off : 0;
	return s;
}

static void enter(Parser *p)
{
	if (++p->c->depth > MAX_DEPTH)
		err_at(p->c, p->tok->span, "split it into several statements with intermediate variables",
		       "expression nested too deeply");
}

static void leave(Parser *p)
{
	p->c->depth--;
}

static Expr *new_expr(Parser *p, ExprKind kind, Span sp)
{
	Expr *e = arena_alloc(p->c->arena, sizeof *e);
	e->kind = kind;
	e->span = sp;
	return e;
}

static Expr *new_unsupported(Parser *p, Span sp, const char *what)
{
	Expr *e = new_expr(p, E_UNSUPPORTED, sp);
	e->str.s = what;
	e->str.len = (int)strlen(what);
	return e;
}

static Expr *new_binary(Parser *p, AstOp op, Expr *a, Expr *b)
{
	Expr *e = new_expr(p, E_BINARY, span_join(a->span, b->span));
	e->bin.op = op;
	e->bin.a = a;
	e->bin.b = b;
	return e;
}

static Expr *new_unary(Parser *p, AstOp op, Span sp, Expr *a)
{
	Expr *e = new_expr(p, E_UNARY, span_join(sp, a->span));
	e->bin.op = op;
	e->bin.a = a;
	return e;
}

static Stmt *new_stmt(Parser *p, StmtKind kind, Span sp)
{
	Stmt *s = arena_alloc(p->c->arena, sizeof *s);
	s->kind = kind;
	s->span = sp;
	return s;
}

/* Tokens that can start an expression. */
static int starts_expression(const Token *t)
{
	switch (t->kind) {
	case T_NAME: case T_INT: case T_FLOAT: case T_IMAG: case T_STRING:
		return 1;
	case T_KEYWORD:
		return is_kw(t, "not") || is_kw(t, "lambda") || is_kw(t, "True") || is_kw(t, "False") ||
		       is_kw(t, "None") || is_kw(t, "await") || is_kw(t, "yield");
	case T_OP:
		return is_op(t, "(") || is_op(t, "[") || is_op(t, "{") || is_op(t, "-") || is_op(t, "+") ||
		       is_op(t, "~") || is_op(t, "*") || is_op(t, "...");
	default:
		return 0;
	}
}

static const char *expr_what(const Expr *e)
{
	switch (e->kind) {
	case E_INT: case E_FLOAT: case E_IMAG: case E_STR: return "literal";
	case E_BOOL: return e->ival ? "True" : "False";
	case E_NONE: return "None";
	case E_UNARY: case E_BINARY: return "expression";
	case E_COMPARE: return "comparison";
	case E_BOOLOP: return "expression";
	case E_IFEXP: return "conditional expression";
	case E_CALL: return "function call";
	case E_SLICE: return "slice";
	case E_LAMBDA: return "lambda";
	case E_UNSUPPORTED: return e->str.s;
	default: return "expression";
	}
}

/* Checks that e can be assigned to: a name, an attribute, a subscript, or
 * (when tuples are allowed) a tuple of targets. */
static void check_target(Parser *p, Expr *e, int allow_tuple, const char *op)
{
	switch (e->kind) {
	case E_NAME: case E_ATTR: case E_SUBSCRIPT:
		return;
	case E_TUPLE:
		if (allow_tuple) {
			for (int i = 0; i < e->tuple.n; i++)
				check_target(p, e->tuple.elts[i], 1, op);
			return;
		}
		err_at(p->c, e->span, "assign to a single name, attribute or subscript",
		       "'tuple' is an illegal target for %s", op);
	case E_UNSUPPORTED:
		if (allow_tuple && (!strcmp(e->str.s, "starred expression") || !strcmp(e->str.s, "list display")))
			return;   /* refused by sema with its own message */
		break;
	default:
		break;
	}
	err_at(p->c, e->span,
	       "the target of an assignment is a name, an attribute, a subscript or a tuple of those; "
	       "to compare, use '=='",
	       "cannot assign to %s", expr_what(e));
}

/* ------------------------------------------------------------- atoms */

/* strings = STRING+   (adjacent literals concatenate) */
static Expr *strings(Parser *p)
{
	Token *first = p->tok;
	int flags = 0, total = 0, kinds = 0;
	for (Token *t = first; t->kind == T_STRING; t++) {
		flags |= (int)t->ival;
		kinds |= (t->ival & STR_BYTES) ? 1 : 2;
		total += t->slen;
	}
	char *buf = arena_alloc(p->c->arena, (size_t)total + 1);
	int n = 0;
	while (p->tok->kind == T_STRING) {
		Token *t = advance(p);
		memcpy(buf + n, t->s, (size_t)t->slen);
		n += t->slen;
	}
	Span sp = span_from(p, first->span);
	if (kinds == 3)
		err_at(p->c, sp, "write all the pieces as bytes or all as text",
		       "cannot mix bytes and nonbytes literals");
	if (flags & STR_FSTRING)
		return new_unsupported(p, sp, "f-string");
	if (flags & STR_NAMED)
		return new_unsupported(p, sp, "\\N{...} escape in a string");
	Expr *e = new_expr(p, E_STR, sp);
	e->str.s = buf;
	e->str.len = n;
	e->str.bytes = (flags & STR_BYTES) != 0;
	return e;
}

/* for_if_clauses = ("async"? "for" star_targets "in" disjunction ("if" disjunction)*)+
 * (parsed to be skipped: comprehensions are refused) */
static Expr *target_list(Parser *p);
static void for_if_clauses(Parser *p)
{
	while (equal(p, "for") || equal(p, "async")) {
		consume(p, "async");
		skip(p, "for", "a comprehension reads: [x for x in items if cond]");
		target_list(p);
		skip(p, "in", "a comprehension reads: [x for x in items if cond]");
		disjunction(p);
		while (consume(p, "if"))
			disjunction(p);
	}
}

/* star_named_expression = "*" bitwise_or | named_expression */
static Expr *star_named_expression(Parser *p)
{
	if (equal(p, "*")) {
		Token *t = advance(p);
		Expr *e = bitwise_or(p);
		return new_unsupported(p, span_join(t->span, e->span), "starred expression");
	}
	return named_expression(p);
}

/* group_or_tuple = "(" ")"
 *                | "(" yield_expr ")"
 *                | "(" named_expression for_if_clauses ")"
 *                | "(" star_named_expression ("," star_named_expression)* ","? ")" */
static Expr *yield_expr(Parser *p);
static Expr *group_or_tuple(Parser *p)
{
	Token *open = skip(p, "(", NULL);
	if (consume(p, ")")) {
		Expr *e = new_expr(p, E_TUPLE, span_from(p, open->span));
		return e;
	}
	if (equal(p, "yield")) {
		Expr *e = yield_expr(p);
		close_bracket(p, open, ")", "close the parenthesis");
		return e;
	}
	Expr *first = star_named_expression(p);
	if (equal(p, "for") || equal(p, "async")) {
		for_if_clauses(p);
		close_bracket(p, open, ")", "close the parenthesis");
		return new_unsupported(p, span_from(p, open->span), "generator expression");
	}
	if (!equal(p, ",")) {
		close_bracket(p, open, ")", "close the parenthesis, or separate tuple elements with ','");
		return first;
	}
	Expr **elts = NULL;
	int n = 0, cap = 0;
	VEC_PUSH(p->c, elts, n, cap, first);
	while (consume(p, ",")) {
		if (equal(p, ")"))
			break;
		VEC_PUSH(p->c, elts, n, cap, star_named_expression(p));
	}
	close_bracket(p, open, ")", "close the parenthesis, or separate tuple elements with ','");
	Expr *e = new_expr(p, E_TUPLE, span_from(p, open->span));
	e->tuple.n = n;
	e->tuple.elts = elts;
	return e;
}

/* list = "[" star_named_expressions? "]" | "[" named_expression for_if_clauses "]" */
static Expr *list_display(Parser *p)
{
	Token *open = skip(p, "[", NULL);
	const char *what = "list display";
	if (!equal(p, "]")) {
		star_named_expression(p);
		if (equal(p, "for") || equal(p, "async")) {
			for_if_clauses(p);
			what = "list comprehension";
		} else {
			while (consume(p, ",") && !equal(p, "]"))
				star_named_expression(p);
		}
	}
	close_bracket(p, open, "]", "close the bracket, or separate list elements with ','");
	return new_unsupported(p, span_from(p, open->span), what);
}

/* dict_or_set = "{" "}"
 *             | "{" (("**" bitwise_or | expression ":" expression) ","?)+ "}"
 *             | "{" star_named_expression ("," star_named_expression)* ","? "}"
 *             | "{" (kvpair | named_expression) for_if_clauses "}" */
static Expr *dict_or_set(Parser *p)
{
	Token *open = skip(p, "{", NULL);
	const char *what = "dict display";
	if (!equal(p, "}")) {
		int is_dict;
		if (consume(p, "**")) {
			bitwise_or(p);
			is_dict = 1;
		} else {
			star_named_expression(p);
			is_dict = consume(p, ":");
			if (is_dict)
				expression(p);
		}
		what = is_dict ? "dict display" : "set display";
		if (equal(p, "for") || equal(p, "async")) {
			for_if_clauses(p);
			what = is_dict ? "dict comprehension" : "set comprehension";
		} else {
			while (consume(p, ",") && !equal(p, "}")) {
				if (is_dict && consume(p, "**")) {
					bitwise_or(p);
				} else if (is_dict) {
					expression(p);
					skip(p, ":", "a dict display reads {key: value, ...}");
					expression(p);
				} else {
					star_named_expression(p);
				}
			}
		}
	}
	close_bracket(p, open, "}", "close the brace, or separate elements with ','");
	return new_unsupported(p, span_from(p, open->span), what);
}

/* atom = NAME | "True" | "False" | "None" | strings | NUMBER
 *      | group_or_tuple | list | dict_or_set | "..." */
static Expr *atom(Parser *p)
{
	Token *t = p->tok;
	Expr *e;
	switch (t->kind) {
	case T_NAME:
		advance(p);
		e = new_expr(p, E_NAME, t->span);
		e->name.id = t->s;
		return e;
	case T_INT:
		advance(p);
		if (t->big == 2)
			return new_unsupported(p, t->span, "integer literal wider than 64 bits");
		e = new_expr(p, E_INT, t->span);
		e->ival = (int64_t)t->ival;
		e->big = t->big;
		return e;
	case T_FLOAT:
	case T_IMAG:
		advance(p);
		e = new_expr(p, t->kind == T_FLOAT ? E_FLOAT : E_IMAG, t->span);
		e->fval = t->fval;
		return e;
	case T_STRING:
		return strings(p);
	case T_KEYWORD:
		if (is_kw(t, "True") || is_kw(t, "False")) {
			advance(p);
			e = new_expr(p, E_BOOL, t->span);
			e->ival = is_kw(t, "True");
			return e;
		}
		if (is_kw(t, "None")) {
			advance(p);
			return new_expr(p, E_NONE, t->span);
		}
		break;
	case T_OP:
		if (is_op(t, "("))
			return group_or_tuple(p);
		if (is_op(t, "["))
			return list_display(p);
		if (is_op(t, "{"))
			return dict_or_set(p);
		if (is_op(t, "...")) {
			advance(p);
			return new_unsupported(p, t->span, "Ellipsis");
		}
		break;
	default:
		break;
	}
	if (t > p->toks + 1 && (is_op(&t[-1], "+") || is_op(&t[-1], "-")) && is_op(&t[-2], t[-1].op) &&
	    !starts_expression(t))
		err_at(p->c, span_join(t[-2].span, t[-1].span), "Python has no ++ or --: write x += 1",
		       "invalid syntax: '%s%s' is not an operator", t[-2].op, t[-1].op);
	if (t > p->toks && (is_op(t, "&") || is_op(t, "|")) && is_op(&t[-1], t->op))
		err_at(p->c, span_join(t[-1].span, t->span), "use 'and', 'or' and 'not'",
		       "invalid syntax: '%s%s' is not a Python operator", t->op, t->op);
	if (t->kind == T_NEWLINE || t->kind == T_EOF)
		err_at(p->c, t->span, "complete the expression on this line, or continue it inside ( )",
		       "invalid syntax: expected an expression, found %s", describe(p, t));
	if (t->kind == T_KEYWORD)
		err_at(p->c, t->span, "keywords cannot be used as names or values here",
		       "invalid syntax: expected an expression, found keyword '%s'", t->op);
	if (is_op(t, "="))
		err_at(p->c, t->span, "an assignment is a statement of its own: name = value",
		       "invalid syntax: expected an expression, found '='");
	unexpected(p, "an expression is a name, a number, a string, a call, or an operator between expressions");
}

/* --------------------------------------------------------- primaries */

/* slice = expression? ":" expression? (":" expression?)? | named_expression
 *       | "*" bitwise_or */
static Expr *slice(Parser *p)
{
	Token *start = p->tok;
	if (equal(p, "*"))
		return star_named_expression(p);
	Expr *lo = NULL, *hi = NULL, *step = NULL;
	if (!equal(p, ":")) {
		lo = named_expression(p);
		if (!equal(p, ":"))
			return lo;
	}
	skip(p, ":", NULL);
	if (!equal(p, ":") && !equal(p, ",") && !equal(p, "]"))
		hi = expression(p);
	if (consume(p, ":") && !equal(p, ",") && !equal(p, "]"))
		step = expression(p);
	Expr *e = new_expr(p, E_SLICE, span_from(p, start->span));
	e->slice.lo = lo;
	e->slice.hi = hi;
	e->slice.step = step;
	return e;
}

/* slices = slice | slice ("," slice)* ","?    (inside [ ]) */
static Expr *slices(Parser *p)
{
	Token *start = p->tok;
	if (equal(p, "]"))
		err_at(p->c, p->tok->span, "write an index between the brackets: a[i], a[i, j], a[lo:hi]",
		       "invalid syntax: empty subscript");
	Expr *first = slice(p);
	if (!equal(p, ","))
		return first;
	Expr **elts = NULL;
	int n = 0, cap = 0;
	VEC_PUSH(p->c, elts, n, cap, first);
	while (consume(p, ",")) {
		if (equal(p, "]"))
			break;
		VEC_PUSH(p->c, elts, n, cap, slice(p));
	}
	Expr *e = new_expr(p, E_TUPLE, span_from(p, start->span));
	e->tuple.n = n;
	e->tuple.elts = elts;
	return e;
}

/* arguments = "(" (arg ("," arg)* ","?)? ")"
 * arg = "*" expression | "**" expression | NAME "=" expression
 *     | named_expression for_if_clauses?          (a sole generator argument) */
static void arguments(Parser *p, Expr *call)
{
	Token *open = skip(p, "(", NULL);
	Expr **args = NULL, **kwargs = NULL;
	const char **kwnames = NULL;
	int n = 0, cap = 0, nkw = 0, capkw = 0, capnames = 0, nnames = 0;
	while (!equal(p, ")")) {
		Token *t = p->tok;
		Expr *a;
		if (equal(p, "*") || equal(p, "**")) {
			int two = is_op(t, "**");
			advance(p);
			Expr *v = expression(p);
			if (two) {
				a = new_unsupported(p, span_join(t->span, v->span), "**kwargs argument unpacking");
			} else {
				a = new_expr(p, E_STARRED, span_join(t->span, v->span));
				a->bin.a = v;
			}
			VEC_PUSH(p->c, args, n, cap, a);
		} else if (t->kind == T_NAME && is_op(t + 1, "=")) {
			for (int i = 0; i < nkw; i++)
				if (!strcmp(kwnames[i], t->s))
					err_at(p->c, t->span, "pass each keyword argument once",
					       "keyword argument repeated: %s", t->s);
			advance(p);
			advance(p);
			VEC_PUSH(p->c, kwnames, nnames, capnames, t->s);
			VEC_PUSH(p->c, kwargs, nkw, capkw, expression(p));
		} else {
			a = named_expression(p);
			if (equal(p, "for") || equal(p, "async")) {
				for_if_clauses(p);
				a = new_unsupported(p, span_from(p, t->span), "generator expression");
			}
			if (nkw)
				err_at(p->c, a->span, "pass positional arguments before keyword arguments",
				       "positional argument follows keyword argument");
			VEC_PUSH(p->c, args, n, cap, a);
		}
		if (!consume(p, ","))
			break;
	}
	if (!equal(p, ")") && !equal(p, ","))
		close_bracket(p, open, ")", "separate the arguments of a call with ','");
	close_bracket(p, open, ")", "separate the arguments of a call with ','");
	call->call.nargs = n;
	call->call.args = args;
	call->call.nkw = nkw;
	call->call.kwnames = kwnames;
	call->call.kwargs = kwargs;
}

/* primary = atom ("." NAME | arguments | "[" slices "]")* */
static Expr *primary(Parser *p)
{
	Expr *e = atom(p);
	int chain = 0;
	for (;;) {
		if (equal(p, ".")) {
			advance(p);
			Token *name = p->tok;
			if (name->kind != T_NAME)
				err_at(p->c, name->span, "an attribute is a name: cuda.threadIdx.x",
				       "invalid syntax: expected an attribute name after '.', found %s", describe(p, name));
			advance(p);
			enter(p), chain++;
			Expr *a = new_expr(p, E_ATTR, span_join(e->span, name->span));
			a->attr.obj = e;
			a->attr.name = name->s;
			a->attr.name_span = name->span;
			e = a;
		} else if (equal(p, "(")) {
			enter(p), chain++;
			Expr *call = new_expr(p, E_CALL, e->span);
			call->call.fn = e;
			arguments(p, call);
			call->span = span_from(p, e->span);
			e = call;
		} else if (equal(p, "[")) {
			Token *open = advance(p);
			enter(p), chain++;
			Expr *s = new_expr(p, E_SUBSCRIPT, e->span);
			s->sub.obj = e;
			s->sub.index = slices(p);
			close_bracket(p, open, "]", "close the subscript with ']'; separate indices with ','");
			s->span = span_from(p, e->span);
			e = s;
		} else {
			break;
		}
	}
	p->c->depth -= chain;
	return e;
}

/* --------------------------------------------------------- operators */

/* power = ("await" primary | primary) ("**" factor)? */
static Expr *power(Parser *p)
{
	Expr *e;
	if (equal(p, "await")) {
		Token *t = advance(p);
		Expr *a = primary(p);
		e = new_unsupported(p, span_join(t->span, a->span), "await");
	} else {
		e = primary(p);
	}
	if (consume(p, "**")) {
		enter(p);
		Expr *b = factor(p);
		leave(p);
		e = new_binary(p, OP_POW, e, b);
	}
	return e;
}

/* factor = ("+" | "-" | "~") factor | power */
static Expr *factor(Parser *p)
{
	AstOp op;
	if (equal(p, "-"))
		op = OP_NEG;
	else if (equal(p, "+"))
		op = OP_POS;
	else if (equal(p, "~"))
		op = OP_INVERT;
	else
		return power(p);
	Token *t = advance(p);
	enter(p);
	Expr *a = factor(p);
	leave(p);
	return new_unary(p, op, t->span, a);
}

/* A left-associative level: operand (OP operand)*, with ops[i] -> aops[i]. */
static Expr *binary_level(Parser *p, Expr *(*operand)(Parser *), const char *const *ops, const AstOp *aops)
{
	Expr *e = operand(p);
	int chain = 0;
	for (;;) {
		int i;
		for (i = 0; ops[i]; i++)
			if (p->tok->kind == T_OP && p->tok->op[0] == ops[i][0] && !strcmp(p->tok->op, ops[i]))
				break;
		if (!ops[i])
			break;
		advance(p);
		enter(p), chain++;
		e = new_binary(p, aops[i], e, operand(p));
	}
	p->c->depth -= chain;
	return e;
}

/* term = factor (("*" | "/" | "//" | "%" | "@") factor)* */
static Expr *term(Parser *p)
{
	static const char *const ops[] = {"*", "/", "//", "%", "@", NULL};
	static const AstOp aops[] = {OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_MATMUL};
	return binary_level(p, factor, ops, aops);
}

/* sum = term (("+" | "-") term)* */
static Expr *sum(Parser *p)
{
	static const char *const ops[] = {"+", "-", NULL};
	static const AstOp aops[] = {OP_ADD, OP_SUB};
	return binary_level(p, term, ops, aops);
}

/* shift_expr = sum (("<<" | ">>") sum)* */
static Expr *shift_expr(Parser *p)
{
	static const char *const ops[] = {"<<", ">>", NULL};
	static const AstOp aops[] = {OP_LSHIFT, OP_RSHIFT};
	return binary_level(p, sum, ops, aops);
}

/* bitwise_and = shift_expr ("&" shift_expr)* */
static Expr *bitwise_and(Parser *p)
{
	static const char *const ops[] = {"&", NULL};
	static const AstOp aops[] = {OP_BITAND};
	return binary_level(p, shift_expr, ops, aops);
}

/* bitwise_xor = bitwise_and ("^" bitwise_and)* */
static Expr *bitwise_xor(Parser *p)
{
	static const char *const ops[] = {"^", NULL};
	static const AstOp aops[] = {OP_BITXOR};
	return binary_level(p, bitwise_and, ops, aops);
}

/* bitwise_or = bitwise_xor ("|" bitwise_xor)* */
static Expr *bitwise_or(Parser *p)
{
	static const char *const ops[] = {"|", NULL};
	static const AstOp aops[] = {OP_BITOR};
	return binary_level(p, bitwise_xor, ops, aops);
}

/* compare_op = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in"
 *            | "is" | "is" "not"
 * Returns NOP when the current tokens are not a comparison operator. */
static AstOp compare_op(Parser *p)
{
	static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!=", NULL};
	static const AstOp aops[] = {OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE};
	Token *t = p->tok;
	if (t->kind == T_OP) {
		for (int i = 0; ops[i]; i++)
			if (t->op[0] == ops[i][0] && !strcmp(t->op, ops[i])) {
				advance(p);
				return aops[i];
			}
		return NOP;
	}
	if (is_kw(t, "in")) {
		advance(p);
		return OP_IN;
	}
	if (is_kw(t, "not") && is_kw(t + 1, "in")) {
		advance(p);
		advance(p);
		return OP_NOTIN;
	}
	if (is_kw(t, "is")) {
		advance(p);
		return consume(p, "not") ? OP_ISNOT : OP_IS;
	}
	return NOP;
}

/* comparison = bitwise_or (compare_op bitwise_or)* */
static Expr *comparison(Parser *p)
{
	Expr *e = bitwise_or(p);
	AstOp op = compare_op(p);
	if (op == NOP)
		return e;
	AstOp *ops = NULL;
	Expr **args = NULL;
	int nops = 0, capops = 0, nargs = 0, capargs = 0;
	VEC_PUSH(p->c, args, nargs, capargs, e);
	do {
		VEC_PUSH(p->c, ops, nops, capops, op);
		VEC_PUSH(p->c, args, nargs, capargs, bitwise_or(p));
	} while ((op = compare_op(p)) != NOP);
	Expr *c = new_expr(p, E_COMPARE, span_join(e->span, args[nargs - 1]->span));
	c->cmp.n = nops;
	c->cmp.ops = ops;
	c->cmp.args = args;
	return c;
}

/* inversion = "not" inversion | comparison */
static Expr *inversion(Parser *p)
{
	if (!equal(p, "not"))
		return comparison(p);
	Token *t = advance(p);
	enter(p);
	Expr *a = inversion(p);
	leave(p);
	return new_unary(p, OP_NOT, t->span, a);
}

static Expr *boolop(Parser *p, const char *kw, AstOp op, Expr *(*operand)(Parser *))
{
	Expr *e = operand(p);
	if (!equal(p, kw))
		return e;
	Expr **args = NULL;
	int n = 0, cap = 0;
	VEC_PUSH(p->c, args, n, cap, e);
	while (consume(p, kw))
		VEC_PUSH(p->c, args, n, cap, operand(p));
	Expr *b = new_expr(p, E_BOOLOP, span_join(e->span, args[n - 1]->span));
	b->boolop.op = op;
	b->boolop.n = n;
	b->boolop.args = args;
	return b;
}

/* conjunction = inversion ("and" inversion)* */
static Expr *conjunction(Parser *p)
{
	return boolop(p, "and", OP_AND, inversion);
}

/* disjunction = conjunction ("or" conjunction)* */
static Expr *disjunction(Parser *p)
{
	return boolop(p, "or", OP_OR, conjunction);
}

/* lambda_params = (lambda_param ("," lambda_param)* ","?)?
 * lambda_param = NAME ("=" expression)? | "*" NAME? | "**" NAME | "/"
 * Fills fn's parameters; the caller has read "lambda". */
static void params(Parser *p, FuncDef *fn, const char *close, int annotations)
{
	Param *ps = NULL;
	int n = 0, cap = 0, seen_default = 0, kwonly = 0;
	while (!equal(p, close)) {
		Token *t = p->tok;
		if (consume(p, "/")) {
			/* positional-only marker: nothing to record */
		} else if (equal(p, "*") || equal(p, "**")) {
			int two = is_op(t, "**");
			advance(p);
			kwonly = 1;
			if (!two && p->tok->kind == T_NAME && !fn->star && !fn->has_varargs && is_op(p->tok + 1, close)) {
				/* a last *args: a tuple of the extra positional arguments */
				Param prm = {.name = p->tok->s, .span = p->tok->span};
				VEC_PUSH(p->c, ps, n, cap, prm);
				fn->star = n;
				advance(p);
			} else if (p->tok->kind == T_NAME) {
				fn->has_varargs = 1;
				advance(p);
				if (annotations && consume(p, ":"))
					expression(p);
			} else {
				fn->has_varargs = 1;
				if (two)
					err_at(p->c, p->tok->span, "write **kwargs", "invalid syntax: expected a name after '**'");
			}
		} else {
			if (t->kind != T_NAME)
				err_at(p->c, t->span, "parameters are names, optionally with a default: def f(a, b=1)",
				       "invalid syntax: expected a parameter name, found %s", describe(p, t));
			advance(p);
			for (int i = 0; i < n; i++)
				if (!strcmp(ps[i].name, t->s))
					err_at(p->c, t->span, "give each parameter its own name",
					       "duplicate argument '%s' in function definition", t->s);
			Param prm = {.name = t->s, .span = t->span};
			if (annotations && consume(p, ":"))
				expression(p);
			if (consume(p, "=")) {
				prm.defval = expression(p);
				seen_default = 1;
			} else if (seen_default && !kwonly) {
				err_at(p->c, t->span, "move parameters with defaults after those without",
				       "parameter without a default follows parameter with a default");
			}
			if (!kwonly)
				VEC_PUSH(p->c, ps, n, cap, prm);
		}
		if (!consume(p, ","))
			break;
	}
	fn->nparams = n;
	fn->params = ps;
}

/* lambdef = "lambda" lambda_params ":" expression */
static Expr *lambda_body(Parser *p, FuncDef *fn)
{
	skip(p, "lambda", NULL);
	params(p, fn, ":", 0);
	skip(p, ":", "a lambda reads: lambda a, b: a + b");
	return expression(p);
}

static Expr *lambdef(Parser *p)
{
	Token *t = p->tok;
	FuncDef tmp = {0};
	Expr *body = lambda_body(p, &tmp);
	return new_expr(p, E_LAMBDA, span_join(t->span, body->span));
}

/* expression = disjunction ("if" disjunction "else" expression)? | lambdef */
static Expr *expression(Parser *p)
{
	enter(p);
	Expr *e;
	if (equal(p, "lambda")) {
		e = lambdef(p);
	} else {
		e = disjunction(p);
		if (equal(p, "if")) {
			advance(p);
			Expr *cond = disjunction(p);
			skip(p, "else", "a conditional expression reads: a if cond else b");
			Expr *b = expression(p);
			Expr *x = new_expr(p, E_IFEXP, span_join(e->span, b->span));
			x->ifexp.cond = cond;
			x->ifexp.a = e;
			x->ifexp.b = b;
			e = x;
		}
	}
	leave(p);
	return e;
}

/* named_expression = NAME ":=" expression | expression */
static Expr *named_expression(Parser *p)
{
	Expr *e = expression(p);
	if (!equal(p, ":="))
		return e;
	if (e->kind != E_NAME)
		err_at(p->c, e->span, "the left side of ':=' is a name",
		       "cannot use assignment expressions with %s", expr_what(e));
	advance(p);
	Expr *v = expression(p);
	return new_unsupported(p, span_join(e->span, v->span), "assignment expression (:=)");
}

/* star_expression = "*" bitwise_or | expression */
static Expr *star_expression(Parser *p)
{
	if (equal(p, "*")) {
		Token *t = advance(p);
		Expr *e = bitwise_or(p);
		return new_unsupported(p, span_join(t->span, e->span), "starred expression");
	}
	return expression(p);
}

/* star_expressions = star_expression ("," star_expression)* ","? */
static Expr *star_expressions(Parser *p)
{
	Expr *first = star_expression(p);
	if (!equal(p, ","))
		return first;
	Expr **elts = NULL;
	int n = 0, cap = 0;
	VEC_PUSH(p->c, elts, n, cap, first);
	while (consume(p, ",")) {
		if (!starts_expression(p->tok))
			break;
		VEC_PUSH(p->c, elts, n, cap, star_expression(p));
	}
	Expr *e = new_expr(p, E_TUPLE, span_from(p, first->span));
	e->tuple.n = n;
	e->tuple.elts = elts;
	return e;
}

/* yield_expr = "yield" "from" expression | "yield" star_expressions? */
static Expr *yield_expr(Parser *p)
{
	Token *t = skip(p, "yield", NULL);
	if (consume(p, "from"))
		expression(p);
	else if (starts_expression(p->tok))
		star_expressions(p);
	return new_unsupported(p, span_from(p, t->span), "yield");
}

/* star_target = "*"? bitwise_or
 * target_list = star_target ("," star_target)* ","?     (for loops, comprehensions) */
static Expr *star_target(Parser *p)
{
	if (equal(p, "*")) {
		Token *t = advance(p);
		Expr *e = bitwise_or(p);
		return new_unsupported(p, span_join(t->span, e->span), "starred expression");
	}
	return bitwise_or(p);
}

static Expr *target_list(Parser *p)
{
	Expr *first = star_target(p);
	Expr *e = first;
	if (equal(p, ",")) {
		Expr **elts = NULL;
		int n = 0, cap = 0;
		VEC_PUSH(p->c, elts, n, cap, first);
		while (consume(p, ",")) {
			if (equal(p, "in") || !starts_expression(p->tok))
				break;
			VEC_PUSH(p->c, elts, n, cap, star_target(p));
		}
		e = new_expr(p, E_TUPLE, span_from(p, first->span));
		e->tuple.n = n;
		e->tuple.elts = elts;
	}
	check_target(p, e, 1, "a for loop");
	return e;
}

/* -------------------------------------------------------- statements */

static void push_stmt(Parser *p, StmtList *l, int *cap, Stmt *s)
{
	VEC_PUSH(p->c, l->s, l->n, *cap, s);
}

/* Skips the rest of a logical line and the indented block after it. */
static void skip_line_and_block(Parser *p)
{
	while (p->tok->kind != T_NEWLINE && p->tok->kind != T_EOF)
		advance(p);
	if (p->tok->kind == T_NEWLINE)
		advance(p);
	if (p->tok->kind == T_INDENT) {
		int depth = 0;
		do {
			if (p->tok->kind == T_INDENT)
				depth++;
			else if (p->tok->kind == T_DEDENT)
				depth--;
			advance(p);
		} while (depth > 0 && p->tok->kind != T_EOF);
	}
}

/* A compound statement kernels do not support (with, try, class, async,
 * match, a nested def): the header, its suite and, for try, its clauses. */
static Stmt *unsupported_compound(Parser *p, StmtKind kind, const char *what)
{
	Token *t = p->tok;
	int is_try = is_kw(t, "try");
	Span sp = t->span;
	if (kind == S_DEF && t[1].kind == T_NAME)
		sp = span_join(t->span, t[1].span);
	skip_line_and_block(p);
	while (is_try && (equal(p, "except") || equal(p, "else") || equal(p, "finally")))
		skip_line_and_block(p);
	Stmt *s = new_stmt(p, kind, sp);
	s->unsupported.what = what;
	return s;
}

/* Skips a simple statement up to its ';' or end of line. */
static Stmt *unsupported_simple(Parser *p, const char *what)
{
	Token *t = p->tok;
	while (p->tok->kind != T_NEWLINE && p->tok->kind != T_EOF && !equal(p, ";"))
		advance(p);
	Stmt *s = new_stmt(p, S_UNSUPPORTED, t->span);
	s->unsupported.what = what;
	return s;
}

static int is_augassign(const Token *t, AstOp *op)
{
	static const char *const ops[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=",
	                                  "<<=", ">>=", "&=", "|=", "^=", NULL};
	static const AstOp aops[] = {OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW,
	                             OP_MATMUL, OP_LSHIFT, OP_RSHIFT, OP_BITAND, OP_BITOR, OP_BITXOR};
	if (t->kind != T_OP)
		return 0;
	for (int i = 0; ops[i]; i++)
		if (!strcmp(t->op, ops[i])) {
			*op = aops[i];
			return 1;
		}
	return 0;
}

/* annotated_rhs = yield_expr | star_expressions */
static Expr *annotated_rhs(Parser *p)
{
	return equal(p, "yield") ? yield_expr(p) : star_expressions(p);
}

/* assignment = star_expressions ("=" (yield_expr | star_expressions))+
 *            | single_target augassign annotated_rhs
 *            | single_target ":" expression ("=" annotated_rhs)?
 * expr_stmt  = star_expressions */
static Stmt *assignment(Parser *p)
{
	Token *start = p->tok;
	Expr *e = star_expressions(p);
	AstOp op;
	if (equal(p, ":")) {
		if (e->kind == E_TUPLE)
			err_at(p->c, e->span, "annotate one name at a time", "only single target (not tuple) can be annotated");
		check_target(p, e, 0, "an annotated assignment");
		advance(p);
		expression(p);
		if (!consume(p, "="))
			return new_stmt(p, S_PASS, span_from(p, start->span));
		Stmt *s = new_stmt(p, S_ANNASSIGN, start->span);
		s->assign.ntargets = 1;
		s->assign.targets = arena_alloc(p->c->arena, sizeof(Expr *));
		s->assign.targets[0] = e;
		s->assign.value = annotated_rhs(p);
		s->span = span_from(p, start->span);
		return s;
	}
	if (is_augassign(p->tok, &op)) {
		if (e->kind == E_TUPLE)
			err_at(p->c, e->span, "update one variable per statement: a += 1; b += 1",
			       "'tuple' is an illegal expression for augmented assignment");
		check_target(p, e, 0, "augmented assignment");
		advance(p);
		Stmt *s = new_stmt(p, S_AUGASSIGN, start->span);
		s->aug.op = op;
		s->aug.target = e;
		s->aug.value = annotated_rhs(p);
		s->span = span_from(p, start->span);
		return s;
	}
	if (equal(p, "=")) {
		Expr **targets = NULL;
		int n = 0, cap = 0;
		Expr *v = e;
		while (consume(p, "=")) {
			check_target(p, v, 1, "assignment");
			VEC_PUSH(p->c, targets, n, cap, v);
			v = annotated_rhs(p);
		}
		Stmt *s = new_stmt(p, S_ASSIGN, span_from(p, start->span));
		s->assign.ntargets = n;
		s->assign.targets = targets;
		s->assign.value = v;
		return s;
	}
	Stmt *s = new_stmt(p, S_EXPR, span_from(p, start->span));
	s->expr = e;
	return s;
}

/* simple_stmt = assignment | star_expressions | "return" star_expressions?
 *             | "raise" (expression ("from" expression)?)? | "pass" | "break"
 *             | "continue" | "assert" expression ("," expression)?
 *             | del_stmt | global_stmt | nonlocal_stmt | import_stmt | yield_stmt */
static Stmt *simple_stmt(Parser *p)
{
	Token *t = p->tok;
	if (t->kind == T_KEYWORD) {
		static const char *const refused[] = {"del", "global", "nonlocal", "import", "yield", NULL};
		for (int i = 0; refused[i]; i++)
			if (is_kw(t, refused[i]))
				return unsupported_simple(p, refused[i]);
		if (is_kw(t, "from"))
			return unsupported_simple(p, "import");
		if (is_kw(t, "pass") || is_kw(t, "break") || is_kw(t, "continue")) {
			advance(p);
			return new_stmt(p, is_kw(t, "pass") ? S_PASS : is_kw(t, "break") ? S_BREAK : S_CONTINUE, t->span);
		}
		if (is_kw(t, "return")) {
			advance(p);
			Stmt *s = new_stmt(p, S_RETURN, t->span);
			if (starts_expression(p->tok))
				s->ret.value = star_expressions(p);
			s->span = span_from(p, t->span);
			return s;
		}
		if (is_kw(t, "raise")) {
			advance(p);
			Stmt *s = new_stmt(p, S_RAISE, t->span);
			if (starts_expression(p->tok)) {
				s->ret.value = expression(p);
				if (consume(p, "from"))
					expression(p);
			}
			s->span = span_from(p, t->span);
			return s;
		}
		if (is_kw(t, "assert")) {
			advance(p);
			Stmt *s = new_stmt(p, S_ASSERT, t->span);
			s->assert_.cond = expression(p);
			if (consume(p, ","))
				s->assert_.msg = expression(p);
			s->span = span_from(p, t->span);
			return s;
		}
		if (is_kw(t, "else") || is_kw(t, "elif") || is_kw(t, "except") || is_kw(t, "finally"))
			err_at(p->c, t->span,
			       "'else' and 'elif' follow an if, for or while block at the same indentation",
			       "invalid syntax: '%s' without a matching block", t->op);
	}
	return assignment(p);
}

/* simple_stmts = simple_stmt (";" simple_stmt)* ";"? NEWLINE */
static void simple_stmts(Parser *p, StmtList *out, int *cap)
{
	for (;;) {
		push_stmt(p, out, cap, simple_stmt(p));
		if (!consume(p, ";"))
			break;
		if (p->tok->kind == T_NEWLINE)
			break;
	}
	if (p->tok->kind != T_NEWLINE) {
		Token *t = p->tok;
		Stmt *last = out->s[out->n - 1];
		if (last->kind == S_EXPR && last->expr->kind == E_NAME && !strcmp(last->expr->name.id, "print") &&
		    starts_expression(t))
			err_at(p->c, last->span, "print is a function in Python 3: print(x, y)",
			       "missing parentheses in call to 'print'");
		if (is_op(t, "="))
			err_at(p->c, t->span, "to compare, use '=='; to assign, the left side must be a name, attribute or subscript",
			       "invalid syntax: unexpected '='");
		err_at(p->c, t->span, "put one statement per line, or separate statements with ';'",
		       "invalid syntax: unexpected %s after the statement", describe(p, t));
	}
	advance(p);
}

/* block = NEWLINE INDENT statement+ DEDENT | simple_stmts */
static StmtList block(Parser *p, Token *hdr, const char *what)
{
	StmtList l = {0};
	int cap = 0;
	if (!equal(p, ":")) {
		Token *t = p->tok;
		if (is_op(t, "="))
			err_at(p->c, t->span, "to compare, use '=='",
			       "invalid syntax: '=' in the condition of %s", what);
		err_at(p->c, t->span,
		       arena_printf(p->c->arena, "end the %s's first line with ':'", what),
		       "expected ':', found %s", describe(p, t));
	}
	advance(p);
	if (p->tok->kind != T_NEWLINE) {
		simple_stmts(p, &l, &cap);
		return l;
	}
	advance(p);
	if (p->tok->kind != T_INDENT)
		err_at(p->c, p->tok->span, "indent the statements of the block (4 spaces), or write 'pass'",
		       "expected an indented block after %s on line %d", what, line_of(hdr->span));
	advance(p);
	while (p->tok->kind != T_DEDENT && p->tok->kind != T_EOF)
		statement(p, &l, &cap);
	if (p->tok->kind == T_DEDENT)
		advance(p);
	return l;
}

/* if_stmt = "if" named_expression block ("elif" named_expression block)* ("else" block)? */
static Stmt *if_stmt(Parser *p)
{
	Token *t = advance(p);   /* "if" or "elif" */
	Stmt *s = new_stmt(p, S_IF, t->span);
	s->cond.cond = named_expression(p);
	s->cond.body = block(p, t, is_kw(t, "if") ? "'if' statement" : "'elif' statement");
	if (equal(p, "elif")) {
		Stmt *e = if_stmt(p);
		s->cond.orelse.n = 1;
		s->cond.orelse.s = arena_alloc(p->c->arena, sizeof(Stmt *));
		s->cond.orelse.s[0] = e;
	} else if (equal(p, "else")) {
		Token *e = advance(p);
		if (equal(p, "if"))
			err_at(p->c, span_join(e->span, p->tok->span), "write 'elif cond:'",
			       "invalid syntax: 'else if' is written 'elif' in Python");
		s->cond.orelse = block(p, e, "'else' statement");
	}
	s->span = span_from(p, t->span);
	return s;
}

/* while_stmt = "while" named_expression block ("else" block)? */
static Stmt *while_stmt(Parser *p)
{
	Token *t = advance(p);
	Stmt *s = new_stmt(p, S_WHILE, t->span);
	s->cond.cond = named_expression(p);
	s->cond.body = block(p, t, "'while' statement");
	if (equal(p, "else")) {
		Token *e = advance(p);
		s->cond.orelse = block(p, e, "'else' statement");
	}
	s->span = span_from(p, t->span);
	return s;
}

/* for_stmt = "for" target_list "in" star_expressions block ("else" block)? */
static Stmt *for_stmt(Parser *p)
{
	Token *t = advance(p);
	Stmt *s = new_stmt(p, S_FOR, t->span);
	s->loop.target = target_list(p);
	skip(p, "in", "a for loop reads: for i in range(n):");
	s->loop.iter = star_expressions(p);
	s->loop.body = block(p, t, "'for' statement");
	if (equal(p, "else")) {
		Token *e = advance(p);
		s->loop.orelse = block(p, e, "'else' statement");
	}
	s->span = span_from(p, t->span);
	return s;
}

/* A `match` statement: the soft keyword followed by a subject and ':' at
 * the end of the line (then an indented block of cases). */
static int is_match_stmt(Parser *p)
{
	Token *t = p->tok;
	if (t->kind != T_NAME || strcmp(t->s, "match"))
		return 0;
	Token *n = t + 1;
	if (n->kind == T_NEWLINE || n->kind == T_EOF || (n->kind == T_OP && !is_op(n, "(") &&
	    !is_op(n, "[") && !is_op(n, "{") && !is_op(n, "-") && !is_op(n, "*")))
		return 0;
	Token *e = n;
	while (e->kind != T_NEWLINE && e->kind != T_EOF)
		e++;
	return e->kind == T_NEWLINE && is_op(e - 1, ":") && e[1].kind == T_INDENT;
}

/* statement = compound_stmt | simple_stmts
 * compound_stmt = if_stmt | while_stmt | for_stmt | function_def
 *               | with_stmt | try_stmt | class_def | async_stmt | match_stmt
 *               | decorators (function_def | class_def) */
static void statement(Parser *p, StmtList *out, int *cap)
{
	Token *t = p->tok;
	if (t->kind == T_INDENT)
		unexpected(p, NULL);
	if (t->kind == T_NEWLINE) {   /* only after a ';' chain; harmless */
		advance(p);
		return;
	}
	if (t->kind == T_KEYWORD) {
		if (is_kw(t, "if")) {
			push_stmt(p, out, cap, if_stmt(p));
			return;
		}
		if (is_kw(t, "while")) {
			push_stmt(p, out, cap, while_stmt(p));
			return;
		}
		if (is_kw(t, "for")) {
			push_stmt(p, out, cap, for_stmt(p));
			return;
		}
		if (is_kw(t, "def")) {
			Stmt *s = new_stmt(p, S_DEF, span_join(t->span, t[1].span));
			s->nested.what = "def";
			s->nested.fn = function_def(p);
			push_stmt(p, out, cap, s);
			return;
		}
		static const char *const refused[] = {"with", "try", "class", "async", NULL};
		for (int i = 0; refused[i]; i++)
			if (is_kw(t, refused[i])) {
				push_stmt(p, out, cap, unsupported_compound(p, S_UNSUPPORTED, refused[i]));
				return;
			}
	}
	if (is_op(t, "@")) {
		while (equal(p, "@"))
			skip_line_and_block(p);
		Stmt *s;
		if (equal(p, "def"))
			s = unsupported_compound(p, S_DEF, "def");
		else if (equal(p, "class") || equal(p, "async"))
			s = unsupported_compound(p, S_UNSUPPORTED, p->tok->op);
		else
			err_at(p->c, p->tok->span, "a decorator goes right before a def or class",
			       "invalid syntax: expected 'def' or 'class' after a decorator, found %s", describe(p, p->tok));
		s->span = span_join(t->span, s->span);
		push_stmt(p, out, cap, s);
		return;
	}
	if (is_match_stmt(p)) {
		push_stmt(p, out, cap, unsupported_compound(p, S_UNSUPPORTED, "match"));
		return;
	}
	simple_stmts(p, out, cap);
}

/* function_def = "def" NAME "(" params? ")" ("->" expression)? block
 * params = param ("," param)* ","?
 * param = NAME (":" expression)? ("=" expression)? | "*" NAME? | "**" NAME | "/" */
static FuncDef *function_def(Parser *p)
{
	Token *def = skip(p, "def", NULL);
	Token *name = p->tok;
	if (name->kind != T_NAME)
		err_at(p->c, name->span, "a function definition reads: def name(a, b):",
		       "invalid syntax: expected a function name after 'def', found %s", describe(p, name));
	advance(p);
	FuncDef *fn = arena_alloc(p->c->arena, sizeof *fn);
	fn->name = name->s;
	fn->src = p->src;
	skip(p, "(", "a function definition reads: def name(a, b):");
	params(p, fn, ")", 1);
	if (!equal(p, ")"))
		err_at(p->c, p->tok->span, "separate parameters with ','",
		       "invalid syntax: expected ',' or ')' in the parameter list, found %s", describe(p, p->tok));
	advance(p);
	if (consume(p, "->"))
		expression(p);
	fn->span = span_join(def->span, p->tok->span);
	fn->body = block(p, def, "function definition");
	return fn;
}

/* ------------------------------------------------------- entry points */

void parse_init(Parser *p, Ctx *c, const Src *src, Token *toks, int ntok)
{
	p->c = c;
	p->src = src;
	p->toks = toks;
	p->ntok = ntok;
	p->tok = toks;
}

FuncDef *parse_function(Ctx *c, const Src *src, const char *name)
{
	/* "<lambda@N>": the lambda whose keyword starts at byte N (a line may hold several) */
	if (name && !strncmp(name, "<lambda@", 8)) {
		long off = strtol(name + 8, NULL, 10);
		if (off >= 0 && off < src->len)
			return parse_lambda(c, src, (int)off, "<lambda>");
	}
	int ntok;
	Token *toks = lex_source(c, src, &ntok);
	Parser P, *p = &P;
	parse_init(p, c, src, toks, ntok);
	Token *found = NULL;
	int depth = 0;
	const char *at = name ? strchr(name, '@') : NULL;
	if (at && at != name) {
		/* "NAME@OFF...": the def at byte OFF, at any depth (a closure: sema_closure.c) */
		long off = strtol(at + 1, NULL, 10);
		for (Token *t = toks; t->kind != T_EOF && !found; t++)
			if (is_kw(t, "def") && t->span.off == off && t[1].kind == T_NAME)
				found = t;
	}
	for (Token *t = toks; t->kind != T_EOF && !found; t++) {
		if (t->kind == T_INDENT)
			depth++;
		else if (t->kind == T_DEDENT)
			depth--;
		else if (is_kw(t, "def") && t[1].kind == T_NAME && (!name || !strcmp(t[1].s, name))) {
			if (depth == 0) {
				found = t;
				break;
			}
			if (!found)
				found = t;
		}
	}
	if (!found && (!name || !strcmp(name, "<lambda>")))
		for (Token *t = toks; t->kind != T_EOF; t++)
			if (is_kw(t, "lambda"))
				return parse_lambda(c, src, t->span.off, "<lambda>");
	if (!found) {
		Span sp = {src, 0, 0};
		if (name)
			err_at(c, sp, "the source must contain 'def NAME(...):'", "no function named '%s' in the source", name);
		err_at(c, sp, "the source must contain 'def NAME(...):'", "no function definition in the source");
	}
	if (found > toks && is_kw(found - 1, "async"))
		err_at(c, found[-1].span, "write a plain 'def'", "async functions cannot be compiled");
	p->tok = found;
	int depth0 = c->depth;   /* the parser's budget does not depend on the caller's depth */
	c->depth = 0;
	FuncDef *fn = function_def(p);
	c->depth = depth0;
	return fn;
}

FuncDef *parse_lambda(Ctx *c, const Src *src, int off, const char *name)
{
	int ntok;
	Token *toks = lex_expr(c, src, off, &ntok);
	Parser P, *p = &P;
	parse_init(p, c, src, toks, ntok);
	if (!equal(p, "lambda"))
		err_at(c, p->tok->span, "the text must start with 'lambda'", "expected a lambda expression");
	Token *t = p->tok;
	FuncDef *fn = arena_alloc(c->arena, sizeof *fn);
	fn->name = name ? name : "<lambda>";
	fn->src = src;
	int depth0 = c->depth;
	c->depth = 0;
	Expr *body = lambda_body(p, fn);
	c->depth = depth0;
	fn->span = span_join(t->span, body->span);
	Stmt *ret = new_stmt(p, S_RETURN, body->span);
	ret->ret.value = body;
	fn->body.n = 1;
	fn->body.s = arena_alloc(c->arena, sizeof(Stmt *));
	fn->body.s[0] = ret;
	return fn;
}

/* For module.c: the rules it shares. */
Expr *parse_expression(Parser *p) { return expression(p); }
Expr *parse_named_expression(Parser *p) { return named_expression(p); }
Expr *parse_star_expressions(Parser *p) { return star_expressions(p); }
FuncDef *parse_function_def(Parser *p) { return function_def(p); }
void parse_skip_statement(Parser *p) { skip_line_and_block(p); }
Token *parse_skip(Parser *p, const char *s, const char *hint) { return skip(p, s, hint); }
void parse_unexpected(Parser *p, const char *hint) { unexpected(p, hint); }

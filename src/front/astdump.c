/*
 * astdump.c - the AST as text, and deep copies of it.
 *
 * ast_dump prints a function as S-expressions, one statement per line,
 * indented two spaces per block level; a compound statement's closing
 * parenthesis ends its last line, and `else` stands alone on a line at
 * the statement's own indentation:
 *
 *   (def add_kernel (x y out)
 *     (assign (name idx) (call (attr (name cuda) grid) (int 1)))
 *     (if (compare (name idx) < (attr (name out) size))
 *       (assign (subscript (name out) (name idx)) (binop + (name a) (name b)))
 *     else
 *       (pass)))
 *
 * The form is stable (golden files depend on it): floats print in their
 * shortest round-tripping form, strings with C-style escapes.
 *
 * ast_clone deep-copies a FuncDef so that each specialisation of a
 * function can hang its own types off the nodes; the fields sema fills
 * are left empty in the copy.  Strings are shared: they never change.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core.h"

const char *const ast_op_name[NOP] = {
	[OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
	[OP_FLOORDIV] = "//", [OP_MOD] = "%", [OP_POW] = "**", [OP_MATMUL] = "@",
	[OP_LSHIFT] = "<<", [OP_RSHIFT] = ">>", [OP_BITAND] = "&", [OP_BITOR] = "|",
	[OP_BITXOR] = "^",
	[OP_NEG] = "-", [OP_POS] = "+", [OP_INVERT] = "~", [OP_NOT] = "not",
	[OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">=", [OP_EQ] = "==",
	[OP_NE] = "!=", [OP_IS] = "is", [OP_ISNOT] = "is not", [OP_IN] = "in",
	[OP_NOTIN] = "not in",
	[OP_AND] = "and", [OP_OR] = "or",
};

static const char *op_name(AstOp op)
{
	return op >= 0 && op < NOP && ast_op_name[op] ? ast_op_name[op] : "?";
}

/* Python's repr of a float: the shortest digits that read back to the
 * same value, positional for exponents in [-4, 16), else scientific. */
static void dump_float(FILE *f, double v)
{
	if (isnan(v)) {
		fputs("nan", f);
		return;
	}
	if (isinf(v)) {
		fputs(v < 0 ? "-inf" : "inf", f);
		return;
	}
	char buf[48];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	char *ep = strchr(buf, 'e');
	int exp = atoi(ep + 1);
	char digits[24];
	int nd = 0;
	for (char *q = buf; q < ep; q++)
		if (*q >= '0' && *q <= '9')
			digits[nd++] = *q;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (buf[0] == '-')
		fputc('-', f);
	if (exp < -4 || exp >= 16) {
		fputc(digits[0], f);
		if (nd > 1)
			fprintf(f, ".%.*s", nd - 1, digits + 1);
		fprintf(f, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	} else if (exp < 0) {
		fputs("0.", f);
		for (int i = 0; i < -exp - 1; i++)
			fputc('0', f);
		fprintf(f, "%.*s", nd, digits);
	} else {
		int ip = exp + 1;
		for (int i = 0; i < ip; i++)
			fputc(i < nd ? digits[i] : '0', f);
		if (nd > ip)
			fprintf(f, ".%.*s", nd - ip, digits + ip);
		else
			fputs(".0", f);
	}
}

static void dump_str(FILE *f, const char *s, int len)
{
	fputc('"', f);
	for (int i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void dump_expr(FILE *f, const Expr *e)
{
	if (!e) {
		fputc('_', f);
		return;
	}
	switch (e->kind) {
	case E_INT:
		if (e->big)
			fprintf(f, "(int %llu)", (unsigned long long)(uint64_t)e->ival);
		else
			fprintf(f, "(int %lld)", (long long)e->ival);
		return;
	case E_FLOAT:
	case E_IMAG:
		fputs(e->kind == E_FLOAT ? "(float " : "(imag ", f);
		dump_float(f, e->fval);
		fputc(')', f);
		return;
	case E_BOOL:
		fputs(e->ival ? "(bool True)" : "(bool False)", f);
		return;
	case E_NONE:
		fputs("(none)", f);
		return;
	case E_STR:
		fputs(e->str.bytes ? "(bytes " : "(str ", f);
		dump_str(f, e->str.s, e->str.len);
		fputc(')', f);
		return;
	case E_NAME:
		fprintf(f, "(name %s)", e->name.id);
		return;
	case E_UNARY:
		fprintf(f, "(unary %s ", op_name(e->bin.op));
		dump_expr(f, e->bin.a);
		fputc(')', f);
		return;
	case E_BINARY:
		fprintf(f, "(binop %s ", op_name(e->bin.op));
		dump_expr(f, e->bin.a);
		fputc(' ', f);
		dump_expr(f, e->bin.b);
		fputc(')', f);
		return;
	case E_COMPARE:
		fputs("(compare ", f);
		dump_expr(f, e->cmp.args[0]);
		for (int i = 0; i < e->cmp.n; i++) {
			fprintf(f, " %s ", op_name(e->cmp.ops[i]));
			dump_expr(f, e->cmp.args[i + 1]);
		}
		fputc(')', f);
		return;
	case E_BOOLOP:
		fprintf(f, "(%s", op_name(e->boolop.op));
		for (int i = 0; i < e->boolop.n; i++) {
			fputc(' ', f);
			dump_expr(f, e->boolop.args[i]);
		}
		fputc(')', f);
		return;
	case E_IFEXP:
		fputs("(ifexp ", f);
		dump_expr(f, e->ifexp.cond);
		fputc(' ', f);
		dump_expr(f, e->ifexp.a);
		fputc(' ', f);
		dump_expr(f, e->ifexp.b);
		fputc(')', f);
		return;
	case E_CALL:
		fputs("(call ", f);
		dump_expr(f, e->call.fn);
		for (int i = 0; i < e->call.nargs; i++) {
			fputc(' ', f);
			dump_expr(f, e->call.args[i]);
		}
		for (int i = 0; i < e->call.nkw; i++) {
			fprintf(f, " (kw %s ", e->call.kwnames[i]);
			dump_expr(f, e->call.kwargs[i]);
			fputc(')', f);
		}
		fputc(')', f);
		return;
	case E_ATTR:
		fputs("(attr ", f);
		dump_expr(f, e->attr.obj);
		fprintf(f, " %s)", e->attr.name);
		return;
	case E_SUBSCRIPT:
		fputs("(subscript ", f);
		dump_expr(f, e->sub.obj);
		fputc(' ', f);
		dump_expr(f, e->sub.index);
		fputc(')', f);
		return;
	case E_SLICE:
		fputs("(slice ", f);
		dump_expr(f, e->slice.lo);
		fputc(' ', f);
		dump_expr(f, e->slice.hi);
		fputc(' ', f);
		dump_expr(f, e->slice.step);
		fputc(')', f);
		return;
	case E_TUPLE:
		fputs("(tuple", f);
		for (int i = 0; i < e->tuple.n; i++) {
			fputc(' ', f);
			dump_expr(f, e->tuple.elts[i]);
		}
		fputc(')', f);
		return;
	case E_LAMBDA:
		fputs("(lambda)", f);
		return;
	case E_STARRED:
		fputs("(starred ", f);
		dump_expr(f, e->bin.a);
		fputc(')', f);
		return;
	case E_UNSUPPORTED:
		fputs("(unsupported ", f);
		dump_str(f, e->str.s ? e->str.s : "", e->str.s ? (int)strlen(e->str.s) : 0);
		fputc(')', f);
		return;
	}
	fputs("(?)", f);
}

static void dump_stmt(FILE *f, const Stmt *s, int ind);

static void dump_body(FILE *f, StmtList l, int ind)
{
	for (int i = 0; i < l.n; i++) {
		fputc('\n', f);
		dump_stmt(f, l.s[i], ind);
	}
}

static void dump_else(FILE *f, StmtList l, int ind)
{
	if (!l.n)
		return;
	fprintf(f, "\n%*selse", ind, "");
	dump_body(f, l, ind + 2);
}

static void dump_stmt(FILE *f, const Stmt *s, int ind)
{
	fprintf(f, "%*s", ind, "");
	switch (s->kind) {
	case S_EXPR:
		fputs("(expr ", f);
		dump_expr(f, s->expr);
		fputc(')', f);
		return;
	case S_ASSIGN:
	case S_ANNASSIGN:
		fputs(s->kind == S_ASSIGN ? "(assign" : "(annassign", f);
		for (int i = 0; i < s->assign.ntargets; i++) {
			fputc(' ', f);
			dump_expr(f, s->assign.targets[i]);
		}
		fputc(' ', f);
		dump_expr(f, s->assign.value);
		fputc(')', f);
		return;
	case S_AUGASSIGN:
		fprintf(f, "(augassign %s ", op_name(s->aug.op));
		dump_expr(f, s->aug.target);
		fputc(' ', f);
		dump_expr(f, s->aug.value);
		fputc(')', f);
		return;
	case S_IF:
	case S_WHILE:
		fputs(s->kind == S_IF ? "(if " : "(while ", f);
		dump_expr(f, s->cond.cond);
		dump_body(f, s->cond.body, ind + 2);
		dump_else(f, s->cond.orelse, ind);
		fputc(')', f);
		return;
	case S_FOR:
		fputs("(for ", f);
		dump_expr(f, s->loop.target);
		fputc(' ', f);
		dump_expr(f, s->loop.iter);
		dump_body(f, s->loop.body, ind + 2);
		dump_else(f, s->loop.orelse, ind);
		fputc(')', f);
		return;
	case S_BREAK:
		fputs("(break)", f);
		return;
	case S_CONTINUE:
		fputs("(continue)", f);
		return;
	case S_PASS:
		fputs("(pass)", f);
		return;
	case S_RETURN:
	case S_RAISE:
		fputs(s->kind == S_RETURN ? "(return" : "(raise", f);
		if (s->ret.value) {
			fputc(' ', f);
			dump_expr(f, s->ret.value);
		}
		fputc(')', f);
		return;
	case S_ASSERT:
		fputs("(assert ", f);
		dump_expr(f, s->assert_.cond);
		if (s->assert_.msg) {
			fputc(' ', f);
			dump_expr(f, s->assert_.msg);
		}
		fputc(')', f);
		return;
	case S_DEF:
		fputs("(nested def)", f);
		return;
	case S_UNSUPPORTED:
		fprintf(f, "(unsupported %s)", s->unsupported.what ? s->unsupported.what : "?");
		return;
	}
	fputs("(?)", f);
}

void ast_dump(FILE *f, const FuncDef *fn)
{
	fprintf(f, "(def %s (", fn->name);
	for (int i = 0; i < fn->nparams; i++) {
		if (i)
			fputc(' ', f);
		if (fn->star == i + 1)
			fputc('*', f);
		fputs(fn->params[i].name, f);
		if (fn->params[i].defval) {
			fputc('=', f);
			dump_expr(f, fn->params[i].defval);
		}
	}
	if (fn->has_varargs)
		fputs(fn->nparams ? " *varargs" : "*varargs", f);
	fputc(')', f);
	dump_body(f, fn->body, 2);
	fputs(")\n", f);
}

/* -------------------------------------------------------------- clone */

static Expr *clone_expr(Ctx *c, const Expr *e);

static Expr **clone_exprs(Ctx *c, Expr *const *v, int n)
{
	if (!v || n <= 0)
		return NULL;
	Expr **out = arena_alloc(c->arena, (size_t)n * sizeof *out);
	for (int i = 0; i < n; i++)
		out[i] = clone_expr(c, v[i]);
	return out;
}

static Expr *clone_expr(Ctx *c, const Expr *e)
{
	if (!e)
		return NULL;
	Expr *x = arena_alloc(c->arena, sizeof *x);
	*x = *e;
	x->ty = NULL;
	x->cval = NULL;
	switch (e->kind) {
	case E_NAME:
		x->name.var = NULL;
		break;
	case E_UNARY:
	case E_BINARY:
	case E_STARRED:
		x->bin.a = clone_expr(c, e->bin.a);
		x->bin.b = clone_expr(c, e->bin.b);
		break;
	case E_COMPARE:
		x->cmp.ops = arena_alloc(c->arena, (size_t)(e->cmp.n > 0 ? e->cmp.n : 1) * sizeof(AstOp));
		if (e->cmp.n > 0)
			memcpy(x->cmp.ops, e->cmp.ops, (size_t)e->cmp.n * sizeof(AstOp));
		x->cmp.args = clone_exprs(c, e->cmp.args, e->cmp.n + 1);
		break;
	case E_BOOLOP:
		x->boolop.args = clone_exprs(c, e->boolop.args, e->boolop.n);
		break;
	case E_IFEXP:
		x->ifexp.cond = clone_expr(c, e->ifexp.cond);
		x->ifexp.a = clone_expr(c, e->ifexp.a);
		x->ifexp.b = clone_expr(c, e->ifexp.b);
		break;
	case E_CALL:
		x->call.fn = clone_expr(c, e->call.fn);
		x->call.args = clone_exprs(c, e->call.args, e->call.nargs);
		x->call.kwargs = clone_exprs(c, e->call.kwargs, e->call.nkw);
		if (e->call.nkw > 0) {
			x->call.kwnames = arena_alloc(c->arena, (size_t)e->call.nkw * sizeof(char *));
			memcpy(x->call.kwnames, e->call.kwnames, (size_t)e->call.nkw * sizeof(char *));
		}
		x->call.spec = NULL;
		x->call.intrin = 0;
		break;
	case E_ATTR:
		x->attr.obj = clone_expr(c, e->attr.obj);
		break;
	case E_SUBSCRIPT:
		x->sub.obj = clone_expr(c, e->sub.obj);
		x->sub.index = clone_expr(c, e->sub.index);
		break;
	case E_SLICE:
		x->slice.lo = clone_expr(c, e->slice.lo);
		x->slice.hi = clone_expr(c, e->slice.hi);
		x->slice.step = clone_expr(c, e->slice.step);
		break;
	case E_TUPLE:
		x->tuple.elts = clone_exprs(c, e->tuple.elts, e->tuple.n);
		break;
	default:
		break;
	}
	return x;
}

static StmtList clone_body(Ctx *c, StmtList l);

static Stmt *clone_stmt(Ctx *c, const Stmt *s)
{
	Stmt *x = arena_alloc(c->arena, sizeof *x);
	*x = *s;
	switch (s->kind) {
	case S_EXPR:
		x->expr = clone_expr(c, s->expr);
		break;
	case S_ASSIGN:
	case S_ANNASSIGN:
		x->assign.targets = clone_exprs(c, s->assign.targets, s->assign.ntargets);
		x->assign.value = clone_expr(c, s->assign.value);
		break;
	case S_AUGASSIGN:
		x->aug.target = clone_expr(c, s->aug.target);
		x->aug.value = clone_expr(c, s->aug.value);
		break;
	case S_IF:
	case S_WHILE:
		x->cond.cond = clone_expr(c, s->cond.cond);
		x->cond.body = clone_body(c, s->cond.body);
		x->cond.orelse = clone_body(c, s->cond.orelse);
		break;
	case S_FOR:
		x->loop.target = clone_expr(c, s->loop.target);
		x->loop.iter = clone_expr(c, s->loop.iter);
		x->loop.body = clone_body(c, s->loop.body);
		x->loop.orelse = clone_body(c, s->loop.orelse);
		if (s->loop.nunroll > 0) {
			x->loop.utargets = clone_exprs(c, s->loop.utargets, s->loop.nunroll);
			x->loop.ubodies = arena_alloc(c->arena, (size_t)s->loop.nunroll * sizeof(StmtList));
			for (int i = 0; i < s->loop.nunroll; i++)
				x->loop.ubodies[i] = clone_body(c, s->loop.ubodies[i]);
			x->loop.target = x->loop.utargets[0];
			x->loop.body = x->loop.ubodies[0];
		}
		break;
	case S_RETURN:
	case S_RAISE:
		x->ret.value = clone_expr(c, s->ret.value);
		break;
	case S_ASSERT:
		x->assert_.cond = clone_expr(c, s->assert_.cond);
		x->assert_.msg = clone_expr(c, s->assert_.msg);
		break;
	default:
		break;
	}
	return x;
}

static StmtList clone_body(Ctx *c, StmtList l)
{
	StmtList x = {l.n, NULL};
	if (l.n > 0) {
		x.s = arena_alloc(c->arena, (size_t)l.n * sizeof *x.s);
		for (int i = 0; i < l.n; i++)
			x.s[i] = clone_stmt(c, l.s[i]);
	}
	return x;
}

Expr *ast_clone_expr(Ctx *c, const Expr *e)
{
	return clone_expr(c, e);
}

StmtList ast_clone_body(Ctx *c, StmtList l)
{
	return clone_body(c, l);
}

FuncDef *ast_clone(Ctx *c, const FuncDef *fn)
{
	FuncDef *x = arena_alloc(c->arena, sizeof *x);
	*x = *fn;
	if (fn->nparams > 0) {
		x->params = arena_alloc(c->arena, (size_t)fn->nparams * sizeof *x->params);
		for (int i = 0; i < fn->nparams; i++) {
			x->params[i] = fn->params[i];
			x->params[i].defval = clone_expr(c, fn->params[i].defval);
			x->params[i].var = NULL;
		}
	}
	x->body = clone_body(c, fn->body);
	return x;
}

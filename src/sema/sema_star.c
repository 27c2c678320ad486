/*
 * sema_star.c - a call's unpacked arguments, f(a, *t, b), as Numba
 * types them: t is a tuple and its elements become positional arguments
 * in its place, as if written f(a, t[0], t[1], ..., b).
 *
 * Two steps.  Before typing (sema_rewrite_stars, on each specialisation's
 * own copy of the function, before its variables are collected), an
 * unpacked expression that is neither a name nor a tuple display is
 * evaluated once, into a fresh variable assigned just before the
 * statement:
 *
 *   out[i] = complex(*cmath.polar(x))    __pj_st0 = cmath.polar(x)
 *                                        out[i] = complex(*__pj_st0)
 *
 * That keeps Python's order of evaluation only where nothing the
 * statement evaluates earlier calls a function, and where the call is
 * evaluated exactly once when the statement runs (not in a while loop's
 * condition, a branch of `x if c else y`, the right of `and`/`or`, a later
 * operand of a chained comparison or an assert's message); elsewhere the
 * unpacking is refused with a hint to name the tuple first.  While typing
 * (sema_spread_stars, from type_call), once the unpacked name's type is
 * known, *name becomes name[0], ..., name[n-1] and *(a, b) becomes a, b.
 */
#include <string.h>

#include "sema.h"

typedef struct St {
	Scope *sc;
	int ntemp;
	int ncalls;            /* calls the statement evaluates before the point reached */
	StmtList pre;          /* the assignments before the current statement */
	int cappre;
} St;

static const char *const once_hint = "assign the tuple to a variable first: t = g(x); f(*t)";

static Expr *new_expr(Ctx *c, ExprKind k, Span sp)
{
	Expr *e = arena_alloc(c->arena, sizeof *e);
	e->kind = k;
	e->span = sp;
	return e;
}

static int is_simple(const Expr *v)
{
	return v->kind == E_NAME || v->kind == E_TUPLE;
}

static void walk(St *w, Expr *e, int cond);

static void walk_all(St *w, Expr **v, int n, int cond)
{
	for (int i = 0; i < n; i++)
		walk(w, v[i], cond);
}

/* The unpacked operand of star: hoisted into a fresh variable when it is
 * not simple. */
static void starred(St *w, Expr *star, int cond)
{
	Ctx *c = w->sc->c;
	Expr *v = star->bin.a;
	int before = w->ncalls;
	walk(w, v, cond);
	if (is_simple(v))
		return;
	if (cond)
		err_at(c, v->span, once_hint,
		       "this unpacked tuple is evaluated only on some paths of its statement; kernels unpack a tuple "
		       "named beforehand here");
	if (before)
		err_at(c, v->span, once_hint,
		       "this unpacked tuple would be evaluated before the calls that come ahead of it; kernels unpack "
		       "a tuple named beforehand here");
	const char *id = arena_printf(c->arena, "__pj_st%d", w->ntemp++);
	Expr *name = new_expr(c, E_NAME, v->span);
	name->name.id = id;
	Expr *target = new_expr(c, E_NAME, v->span);
	target->name.id = id;
	Stmt *s = arena_alloc(c->arena, sizeof *s);
	s->kind = S_ASSIGN;
	s->span = v->span;
	s->assign.ntargets = 1;
	s->assign.targets = arena_alloc(c->arena, sizeof(Expr *));
	s->assign.targets[0] = target;
	s->assign.value = v;
	VEC_PUSH(c, w->pre.s, w->pre.n, w->cappre, s);
	star->bin.a = name;
}

/* Walks e in Python's order of evaluation; cond: e is evaluated on some
 * paths of its statement only, or more than once. */
static void walk(St *w, Expr *e, int cond)
{
	if (!e)
		return;
	switch (e->kind) {
	case E_UNARY: case E_BINARY:
		walk(w, e->bin.a, cond);
		walk(w, e->bin.b, cond);
		break;
	case E_COMPARE:
		walk(w, e->cmp.args[0], cond);
		walk(w, e->cmp.args[1], cond);
		walk_all(w, e->cmp.args + 2, e->cmp.n - 1, 1);
		break;
	case E_BOOLOP:
		walk(w, e->boolop.args[0], cond);
		walk_all(w, e->boolop.args + 1, e->boolop.n - 1, 1);
		break;
	case E_IFEXP:
		walk(w, e->ifexp.cond, cond);
		walk(w, e->ifexp.a, 1);
		walk(w, e->ifexp.b, 1);
		break;
	case E_CALL:
		walk(w, e->call.fn, cond);
		for (int i = 0; i < e->call.nargs; i++) {
			if (e->call.args[i]->kind == E_STARRED)
				starred(w, e->call.args[i], cond);
			else
				walk(w, e->call.args[i], cond);
		}
		walk_all(w, e->call.kwargs, e->call.nkw, cond);
		w->ncalls++;
		break;
	case E_ATTR:
		walk(w, e->attr.obj, cond);
		break;
	case E_SUBSCRIPT:
		walk(w, e->sub.obj, cond);
		walk(w, e->sub.index, cond);
		break;
	case E_SLICE:
		walk(w, e->slice.lo, cond);
		walk(w, e->slice.hi, cond);
		walk(w, e->slice.step, cond);
		break;
	case E_TUPLE:
		walk_all(w, e->tuple.elts, e->tuple.n, cond);
		break;
	default:
		break;
	}
}

static void rewrite_body(St *w, StmtList *b);

/* The statement's own expressions (not those of its suites), in order. */
static void walk_stmt(St *w, Stmt *s)
{
	switch (s->kind) {
	case S_EXPR:
		walk(w, s->expr, 0);
		break;
	case S_ASSIGN: case S_ANNASSIGN:
		walk(w, s->assign.value, 0);
		walk_all(w, s->assign.targets, s->assign.ntargets, 0);
		break;
	case S_AUGASSIGN:
		walk(w, s->aug.target, 0);
		walk(w, s->aug.value, 0);
		break;
	case S_IF:
		walk(w, s->cond.cond, 0);
		break;
	case S_WHILE:
		walk(w, s->cond.cond, 1);
		break;
	case S_FOR:
		walk(w, s->loop.iter, 0);
		walk(w, s->loop.target, 1);
		break;
	case S_RETURN: case S_RAISE:
		walk(w, s->ret.value, 0);
		break;
	case S_ASSERT:
		walk(w, s->assert_.cond, 0);
		walk(w, s->assert_.msg, 1);
		break;
	default:
		break;
	}
}

static void rewrite_body(St *w, StmtList *b)
{
	Ctx *c = w->sc->c;
	StmtList out = {0};
	int cap = 0, changed = 0;
	for (int i = 0; i < b->n; i++) {
		Stmt *s = b->s[i];
		w->ncalls = 0;
		w->pre.n = 0;
		walk_stmt(w, s);
		for (int k = 0; k < w->pre.n; k++)
			VEC_PUSH(c, out.s, out.n, cap, w->pre.s[k]);
		changed |= w->pre.n > 0;
		VEC_PUSH(c, out.s, out.n, cap, s);
		switch (s->kind) {
		case S_IF: case S_WHILE:
			rewrite_body(w, &s->cond.body);
			rewrite_body(w, &s->cond.orelse);
			break;
		case S_FOR:
			rewrite_body(w, &s->loop.body);
			rewrite_body(w, &s->loop.orelse);
			break;
		default:
			break;
		}
	}
	if (changed)
		*b = out;
}

void sema_rewrite_stars(Scope *sc)
{
	St w = {.sc = sc};
	rewrite_body(&w, &sc->spec->def->body);
}

/* Spreads the unpacked arguments of call e whose tuples' types are known;
 * 0 while one is not known yet. */
int sema_spread_stars(Scope *sc, Expr *e)
{
	Ctx *c = sc->c;
	int n = 0, known = 1, any = 0;
	for (int i = 0; i < e->call.nargs; i++) {
		Expr *a = e->call.args[i];
		if (a->kind != E_STARRED) {
			n++;
			continue;
		}
		any = 1;
		Expr *v = a->bin.a;
		if (v->kind == E_TUPLE) {
			n += v->tuple.n;
			continue;
		}
		if (v->kind != E_NAME)
			err_at(c, v->span, once_hint, "kernels unpack a tuple named beforehand here");
		Type *t = type_expr(sc, v);
		if (!t) {
			known = 0;
			continue;
		}
		if (t->kind != TY_TUPLE || t->name)
			err_at(c, v->span, "unpack a tuple into the arguments: f(*(a, b)), or pass the value itself",
			       "*%s: kernels unpack only tuples into a call's arguments", ty_str_of(c, t));
		n += t->n;
	}
	if (!any)
		return 1;
	if (!known)
		return 0;
	Expr **args = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
	int k = 0;
	for (int i = 0; i < e->call.nargs; i++) {
		Expr *a = e->call.args[i];
		if (a->kind != E_STARRED) {
			args[k++] = a;
			continue;
		}
		Expr *v = a->bin.a;
		if (v->kind == E_TUPLE) {
			for (int j = 0; j < v->tuple.n; j++)
				args[k++] = v->tuple.elts[j];
			continue;
		}
		for (int j = 0; j < v->ty->n; j++) {
			Expr *name = new_expr(c, E_NAME, v->span);
			name->name.id = v->name.id;
			Expr *idx = new_expr(c, E_INT, v->span);
			idx->ival = j;
			Expr *sub = new_expr(c, E_SUBSCRIPT, a->span);
			sub->sub.obj = name;
			sub->sub.index = idx;
			args[k++] = sub;
		}
	}
	e->call.args = args;
	e->call.nargs = n;
	return 1;
}

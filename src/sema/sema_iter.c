/*
 * sema_iter.c - enumerate() and zip() in for loops, rewritten before
 * typing into a loop over indices, as Numba iterates them:
 *
 *   for T in enumerate(X, S): B      __pj_it0 = X; __pj_it1 = S
 *                                    for __pj_k2 in range(len(__pj_it0)):
 *                                        T = (__pj_k2 + __pj_it1, __pj_it0[__pj_k2])
 *                                        B
 *   for T in zip(X, Y): B            ... range(min(len(X'), len(Y'))):
 *                                        T = (X'[k], Y'[k]) ...
 *
 * They nest (enumerate(zip(x, y)), zip(enumerate(x), y)).  Each iterable
 * and the start are evaluated once, before the loop, in order, as Python
 * does; the loop's else and break keep their meaning.  An iterable is
 * anything a kernel can index with an integer and take len() of: arrays
 * (one row at a time for more than one dimension) and tuples whose
 * elements have one type; a tuple of mixed elements is refused at its
 * index, as Numba refuses it.  The rewrite runs on each specialisation's
 * own copy of the function before its variables are collected, so the
 * new names are ordinary variables; it applies only where enumerate and
 * zip are Python's builtins (not local names, nor globals bound to
 * something else).
 */
#include <string.h>

#include "sema.h"

typedef struct Rw {
	Scope *sc;
	int ntemp;
	StmtList pre;          /* the assignments before the loop */
	int cappre;
} Rw;

static Expr *new_expr(Ctx *c, ExprKind k, Span sp)
{
	Expr *e = arena_alloc(c->arena, sizeof *e);
	e->kind = k;
	e->span = sp;
	return e;
}

static Expr *name_expr(Ctx *c, const char *id, Span sp)
{
	Expr *e = new_expr(c, E_NAME, sp);
	e->name.id = id;
	return e;
}

static Expr *call1(Ctx *c, const char *fn, int n, Expr **args, Span sp)
{
	Expr *e = new_expr(c, E_CALL, sp);
	e->call.fn = name_expr(c, fn, sp);
	e->call.nargs = n;
	e->call.args = args;
	return e;
}

static Expr **list(Ctx *c, int n)
{
	return arena_alloc(c->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
}

static Stmt *assign(Ctx *c, Expr *target, Expr *value, Span sp)
{
	Stmt *s = arena_alloc(c->arena, sizeof *s);
	s->kind = S_ASSIGN;
	s->span = sp;
	s->assign.ntargets = 1;
	s->assign.targets = list(c, 1);
	s->assign.targets[0] = target;
	s->assign.value = value;
	return s;
}

/* A fresh variable holding value, assigned before the loop. */
static const char *temp(Rw *w, Expr *value)
{
	Ctx *c = w->sc->c;
	const char *id = arena_printf(c->arena, "__pj_it%d", w->ntemp++);
	VEC_PUSH(c, w->pre.s, w->pre.n, w->cappre, assign(c, name_expr(c, id, value->span), value, value->span));
	return id;
}

static int is_assigned(const StmtList *b, const char *name);

static int target_names(const Expr *t, const char *name)
{
	if (t->kind == E_NAME)
		return strcmp(t->name.id, name) == 0;
	if (t->kind == E_TUPLE)
		for (int i = 0; i < t->tuple.n; i++)
			if (target_names(t->tuple.elts[i], name))
				return 1;
	return 0;
}

static int is_assigned(const StmtList *b, const char *name)
{
	for (int i = 0; i < b->n; i++) {
		const Stmt *s = b->s[i];
		switch (s->kind) {
		case S_ASSIGN: case S_ANNASSIGN:
			for (int k = 0; k < s->assign.ntargets; k++)
				if (target_names(s->assign.targets[k], name))
					return 1;
			break;
		case S_AUGASSIGN:
			if (target_names(s->aug.target, name))
				return 1;
			break;
		case S_IF: case S_WHILE:
			if (is_assigned(&s->cond.body, name) || is_assigned(&s->cond.orelse, name))
				return 1;
			break;
		case S_FOR:
			if (target_names(s->loop.target, name) || is_assigned(&s->loop.body, name) ||
			    is_assigned(&s->loop.orelse, name))
				return 1;
			for (int u = 1; u < s->loop.nunroll; u++)
				if (target_names(s->loop.utargets[u], name) || is_assigned(&s->loop.ubodies[u], name))
					return 1;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* Is e a call of the builtin `which` (enumerate or zip)? */
static int builtin_call(Rw *w, const Expr *e, const char *which)
{
	Scope *sc = w->sc;
	if (e->kind != E_CALL || e->call.fn->kind != E_NAME || strcmp(e->call.fn->name.id, which) != 0)
		return 0;
	FuncDef *def = sc->spec->def;
	for (int i = 0; i < def->nparams; i++)
		if (strcmp(def->params[i].name, which) == 0)
			return 0;
	if (is_assigned(&def->body, which))
		return 0;
	Const *cv = scope_global(sc, which, e->span);
	int builtin = cv->kind == PJ_V_INTRIN && !cv->ty && cv->s && strncmp(cv->s, "the builtin ", 12) == 0 &&
	       strncmp(cv->s + 12, which, strlen(which)) == 0;
	for (int i = 0; builtin && i < e->call.nargs; i++)
		if (e->call.args[i]->kind == E_STARRED)
			err_at(sc->c, e->call.args[i]->span, "name the iterables: zip(t[0], t[1])",
			       "%s() in a for loop takes its iterables written out, not unpacked from a tuple", which);
	return builtin;
}

/* An iterable of the loop: its length and its element at index k. */
typedef struct Iter {
	Expr *len;
	Expr *(*elem)(Rw *w, struct Iter *it, Expr *k);
	const char *seq;       /* a plain iterable: its variable */
	Expr *start;           /* enumerate: the start, or NULL */
	int n;                 /* enumerate: 1; zip: the iterables */
	struct Iter *parts;
	Span span;
} Iter;

static Expr *plain_elem(Rw *w, Iter *it, Expr *k)
{
	Ctx *c = w->sc->c;
	Expr *e = new_expr(c, E_SUBSCRIPT, it->span);
	e->sub.obj = name_expr(c, it->seq, it->span);
	e->sub.index = k;
	return e;
}

static Expr *tuple_elem(Rw *w, Iter *it, Expr *k)
{
	Ctx *c = w->sc->c;
	Expr *e = new_expr(c, E_TUPLE, it->span);
	int enumer = it->start != NULL;
	e->tuple.n = it->n + enumer;
	e->tuple.elts = list(c, e->tuple.n);
	if (enumer) {
		Expr *i = k;
		if (it->start->kind != E_INT || it->start->ival != 0) {
			i = new_expr(c, E_BINARY, it->span);
			i->bin.op = OP_ADD;
			i->bin.a = k;
			i->bin.b = it->start;
		}
		e->tuple.elts[0] = i;
	}
	for (int p = 0; p < it->n; p++)
		e->tuple.elts[enumer + p] = it->parts[p].elem(w, &it->parts[p], k);
	return e;
}

static void read_iter(Rw *w, Expr *e, Iter *it);

static void read_zip(Rw *w, Expr *e, Iter *it)
{
	Ctx *c = w->sc->c;
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, "call it as zip(a, b, ...)", "zip() takes no keyword arguments");
	it->n = e->call.nargs;
	it->parts = arena_alloc(c->arena, sizeof(Iter) * (size_t)(it->n ? it->n : 1));
	for (int i = 0; i < it->n; i++)
		read_iter(w, e->call.args[i], &it->parts[i]);
	if (it->n == 0) {
		Expr *zero = new_expr(c, E_INT, e->span);
		it->len = zero;
	} else if (it->n == 1) {
		it->len = it->parts[0].len;
	} else {
		Expr **lens = list(c, it->n);
		for (int i = 0; i < it->n; i++)
			lens[i] = it->parts[i].len;
		it->len = call1(c, "min", it->n, lens, e->span);
	}
	it->elem = tuple_elem;
}

static void read_enumerate(Rw *w, Expr *e, Iter *it)
{
	Ctx *c = w->sc->c;
	Expr *x = e->call.nargs > 0 ? e->call.args[0] : NULL, *start = e->call.nargs > 1 ? e->call.args[1] : NULL;
	for (int k = 0; k < e->call.nkw; k++) {
		if (strcmp(e->call.kwnames[k], "start") != 0 || start)
			err_at(c, e->call.kwargs[k]->span, "call it as enumerate(a) or enumerate(a, start)",
			       "enumerate() got an unexpected keyword argument '%s'", e->call.kwnames[k]);
		start = e->call.kwargs[k];
	}
	if (!x || e->call.nargs > 2)
		err_at(c, e->span, "call it as enumerate(a) or enumerate(a, start)",
		       "enumerate() takes 1 or 2 arguments, not %d", e->call.nargs + e->call.nkw);
	it->n = 1;
	it->parts = arena_alloc(c->arena, sizeof(Iter));
	read_iter(w, x, &it->parts[0]);
	if (start && start->kind != E_INT)
		start = name_expr(c, temp(w, start), start->span);
	it->start = start ? start : new_expr(c, E_INT, e->span);   /* 0 */
	it->len = it->parts[0].len;
	it->elem = tuple_elem;
}

static void read_iter(Rw *w, Expr *e, Iter *it)
{
	Ctx *c = w->sc->c;
	memset(it, 0, sizeof *it);
	it->span = e->span;
	if (builtin_call(w, e, "enumerate")) {
		read_enumerate(w, e, it);
	} else if (builtin_call(w, e, "zip")) {
		read_zip(w, e, it);
	} else {
		it->seq = temp(w, e);
		Expr **a = list(c, 1);
		a[0] = name_expr(c, it->seq, e->span);
		it->len = call1(c, "len", 1, a, e->span);
		it->elem = plain_elem;
	}
}

static void rewrite_body(Rw *w, StmtList *b);

/* The for loop s over enumerate() or zip() as the statements that replace it. */
static StmtList rewrite_for(Rw *w, Stmt *s)
{
	Ctx *c = w->sc->c;
	w->pre = (StmtList){0};
	w->cappre = 0;
	Iter it;
	read_iter(w, s->loop.iter, &it);
	Span sp = s->loop.iter->span;
	const char *k = arena_printf(c->arena, "__pj_it%d", w->ntemp++);
	Expr **rargs = list(c, 1);
	rargs[0] = it.len;
	Stmt *head = assign(c, s->loop.target, it.elem(w, &it, name_expr(c, k, sp)), s->loop.target->span);
	StmtList body = {0};
	int cap = 0;
	VEC_PUSH(c, body.s, body.n, cap, head);
	for (int i = 0; i < s->loop.body.n; i++)
		VEC_PUSH(c, body.s, body.n, cap, s->loop.body.s[i]);
	s->loop.target = name_expr(c, k, sp);
	s->loop.iter = call1(c, "range", 1, rargs, sp);
	s->loop.body = body;
	StmtList out = w->pre;
	int capout = w->cappre;
	VEC_PUSH(c, out.s, out.n, capout, s);
	return out;
}

static void rewrite_body(Rw *w, StmtList *b)
{
	Ctx *c = w->sc->c;
	StmtList out = {0};
	int cap = 0, changed = 0;
	for (int i = 0; i < b->n; i++) {
		Stmt *s = b->s[i];
		switch (s->kind) {
		case S_IF: case S_WHILE:
			rewrite_body(w, &s->cond.body);
			rewrite_body(w, &s->cond.orelse);
			break;
		case S_FOR:
			rewrite_body(w, &s->loop.body);
			rewrite_body(w, &s->loop.orelse);
			if (builtin_call(w, s->loop.iter, "enumerate") || builtin_call(w, s->loop.iter, "zip")) {
				StmtList r = rewrite_for(w, s);
				for (int k = 0; k < r.n; k++)
					VEC_PUSH(c, out.s, out.n, cap, r.s[k]);
				changed = 1;
				continue;
			}
			break;
		default:
			break;
		}
		VEC_PUSH(c, out.s, out.n, cap, s);
	}
	if (changed)
		*b = out;
}

void sema_rewrite_loops(Scope *sc)
{
	Rw w = {.sc = sc};
	rewrite_body(&w, &sc->spec->def->body);
}

/*
 * sema_webs.c - a variable assigned values of different types in places
 * whose values never meet is several variables, as in Numba, whose SSA
 * form gives each assignment its own version and unifies only the
 * versions that reach a common use (through a phi).
 *
 * Reaching definitions over the AST: a definition is an assignment of
 * the name (=, op=, a for target, the parameter on entry); the state at
 * a point is the set of definitions that reach it (a bitset over all of
 * them); if joins its branches, a loop iterates its body until its
 * header's set no longer grows, break and continue carry their sets to
 * the loop's exit and header, return and raise end a path.  Each use
 * joins the definitions that reach it into one web (union-find), and so
 * does an augmented assignment, whose one name is read and written.  A
 * variable of several webs becomes one Var per web: the one holding the
 * parameter (or the first assignment) keeps the Var it had, the others
 * are new Vars of the same name, and every name node of the variable
 * gets its web's Var in name.var before typing, which then types each
 * web as it types any variable (ty_unify of its assignments).
 *
 * A branch is pruned where the condition is a constant Numba prunes on
 * (sema_prunes: a global or closure value, ndim of an array argument,
 * ...), so the condition is typed once here, before the variables have
 * types; what cannot be typed yet is not pruned.  A use that no
 * definition reaches belongs to the first web.  Functions holding a
 * nested def (whose free names are found by name) are left whole.
 */
#include <string.h>

#include "sema.h"

typedef uint64_t Word;

typedef struct State {
	Word *bits;    /* the definitions that reach */
	int live;      /* 0: no path gets here (after return, break, ...) */
} State;

typedef struct Loop {
	State brk, cont;
	struct Loop *up;
} Loop;

typedef struct PtrMap {
	const void **key;
	int *val;
	int cap, n;
} PtrMap;

typedef struct W {
	Scope *sc;
	Ctx *c;
	int nvars, words;
	int ndefs, capdefs, capnodes;
	int *def_var;          /* per definition: its variable */
	Expr **def_node;       /* per definition: its target (NULL: a parameter on entry) */
	int *parent;           /* union-find over definitions */
	int *first_def;        /* per variable: its first definition */
	PtrMap defs;           /* a target node to its definition */
	PtrMap uses;           /* a read node to a definition of its web (-1: none reaches) */
	Loop *loop;
	int nested_def;
} W;

/* ------------------------------------------------------------ helpers */

static int map_get(const PtrMap *m, const void *k)
{
	if (!m->cap)
		return -2;
	unsigned h = (unsigned)(((uintptr_t)k >> 4) * 2654435761u) & (unsigned)(m->cap - 1);
	while (m->key[h]) {
		if (m->key[h] == k)
			return m->val[h];
		h = (h + 1) & (unsigned)(m->cap - 1);
	}
	return -2;
}

static void map_put(Ctx *c, PtrMap *m, const void *k, int v)
{
	if (2 * (m->n + 1) > m->cap) {
		PtrMap old = *m;
		m->cap = old.cap ? 2 * old.cap : 64;
		m->key = arena_alloc(c->arena, sizeof(void *) * (size_t)m->cap);
		m->val = arena_alloc(c->arena, sizeof(int) * (size_t)m->cap);
		memset(m->key, 0, sizeof(void *) * (size_t)m->cap);
		m->n = 0;
		for (int i = 0; i < old.cap; i++)
			if (old.key[i])
				map_put(c, m, old.key[i], old.val[i]);
	}
	unsigned h = (unsigned)(((uintptr_t)k >> 4) * 2654435761u) & (unsigned)(m->cap - 1);
	while (m->key[h] && m->key[h] != k)
		h = (h + 1) & (unsigned)(m->cap - 1);
	if (!m->key[h])
		m->n++;
	m->key[h] = k;
	m->val[h] = v;
}

static int find(W *w, int d)
{
	while (w->parent[d] != d)
		d = w->parent[d] = w->parent[w->parent[d]];
	return d;
}

static void join_defs(W *w, int a, int b)
{
	a = find(w, a);
	b = find(w, b);
	if (a != b)
		w->parent[a > b ? a : b] = a < b ? a : b;
}

static int var_of(W *w, const char *id)
{
	return id && id[0] != '<' ? names_get(&w->sc->spec->var_index, id) : -1;
}

static State new_state(W *w, int live)
{
	State s = {arena_alloc(w->c->arena, sizeof(Word) * (size_t)w->words), live};
	memset(s.bits, 0, sizeof(Word) * (size_t)w->words);
	return s;
}

static State copy_state(W *w, State s)
{
	State t = new_state(w, s.live);
	memcpy(t.bits, s.bits, sizeof(Word) * (size_t)w->words);
	return t;
}

/* into |= from, where from is live; 1 if into grew */
static int merge(W *w, State *into, State from)
{
	if (!from.live)
		return 0;
	int grew = !into->live;
	into->live = 1;
	for (int i = 0; i < w->words; i++) {
		grew |= (from.bits[i] & ~into->bits[i]) != 0;
		into->bits[i] |= from.bits[i];
	}
	return grew;
}

static int has(State s, int d)
{
	return (s.bits[d / 64] >> (d % 64)) & 1;
}

/* ------------------------------------------------------- definitions */

static void add_def(W *w, int var, Expr *node)
{
	int d = w->ndefs;
	w->def_var = arena_grow(w->c->arena, w->def_var, d, &w->capdefs, sizeof(int));
	w->def_node = arena_grow(w->c->arena, w->def_node, d, &w->capnodes, sizeof(Expr *));
	w->def_var[d] = var;
	w->def_node[d] = node;
	w->ndefs++;
	if (node)
		map_put(w->c, &w->defs, node, d);
}

static void number_target(W *w, Expr *t)
{
	if (t->kind == E_NAME) {
		int v = var_of(w, t->name.id);
		if (v >= 0 && map_get(&w->defs, t) == -2)
			add_def(w, v, t);
	} else if (t->kind == E_TUPLE) {
		for (int i = 0; i < t->tuple.n; i++)
			number_target(w, t->tuple.elts[i]);
	}
}

/* the same definitions as sema.c's collect_body */
static void number_body(W *w, StmtList *b)
{
	for (int i = 0; i < b->n; i++) {
		Stmt *s = b->s[i];
		switch (s->kind) {
		case S_ASSIGN:
		case S_ANNASSIGN:
			for (int k = 0; k < s->assign.ntargets; k++)
				number_target(w, s->assign.targets[k]);
			break;
		case S_AUGASSIGN:
			number_target(w, s->aug.target);
			break;
		case S_IF:
		case S_WHILE:
			number_body(w, &s->cond.body);
			number_body(w, &s->cond.orelse);
			break;
		case S_FOR:
			if (s->loop.nunroll > 0) {
				for (int u = 0; u < s->loop.nunroll; u++) {
					number_target(w, s->loop.utargets[u]);
					number_body(w, &s->loop.ubodies[u]);
				}
			} else {
				number_target(w, s->loop.target);
				number_body(w, &s->loop.body);
			}
			number_body(w, &s->loop.orelse);
			break;
		case S_DEF:
			w->nested_def = 1;
			break;
		default:
			break;
		}
	}
}

/* ------------------------------------------------------------- flow */

static void use_name(W *w, Expr *e, State s)
{
	int v = var_of(w, e->name.id);
	if (v < 0)
		return;
	int web = map_get(&w->uses, e);
	if (web == -2)
		web = -1;
	for (int d = w->first_def[v]; d >= 0 && d < w->ndefs; d++) {
		if (w->def_var[d] != v || !s.live || !has(s, d))
			continue;
		if (web < 0)
			web = d;
		else
			join_defs(w, web, d);
	}
	map_put(w->c, &w->uses, e, web);
}

static void use_expr(W *w, Expr *e, State s)
{
	if (!e)
		return;
	switch (e->kind) {
	case E_NAME:
		use_name(w, e, s);
		break;
	case E_UNARY:
	case E_STARRED:
		use_expr(w, e->bin.a, s);
		break;
	case E_BINARY:
		use_expr(w, e->bin.a, s);
		use_expr(w, e->bin.b, s);
		break;
	case E_COMPARE:
		for (int i = 0; i <= e->cmp.n; i++)
			use_expr(w, e->cmp.args[i], s);
		break;
	case E_BOOLOP:
		for (int i = 0; i < e->boolop.n; i++)
			use_expr(w, e->boolop.args[i], s);
		break;
	case E_IFEXP:
		use_expr(w, e->ifexp.cond, s);
		use_expr(w, e->ifexp.a, s);
		use_expr(w, e->ifexp.b, s);
		break;
	case E_CALL:
		use_expr(w, e->call.fn, s);
		for (int i = 0; i < e->call.nargs; i++)
			use_expr(w, e->call.args[i], s);
		for (int i = 0; i < e->call.nkw; i++)
			use_expr(w, e->call.kwargs[i], s);
		break;
	case E_ATTR:
		use_expr(w, e->attr.obj, s);
		break;
	case E_SUBSCRIPT:
		use_expr(w, e->sub.obj, s);
		use_expr(w, e->sub.index, s);
		break;
	case E_SLICE:
		use_expr(w, e->slice.lo, s);
		use_expr(w, e->slice.hi, s);
		use_expr(w, e->slice.step, s);
		break;
	case E_TUPLE:
		for (int i = 0; i < e->tuple.n; i++)
			use_expr(w, e->tuple.elts[i], s);
		break;
	default:
		break;
	}
}

/* the assignment of target: its definitions replace the variables' others */
static void define(W *w, Expr *t, State *s)
{
	if (t->kind == E_TUPLE) {
		for (int i = 0; i < t->tuple.n; i++)
			define(w, t->tuple.elts[i], s);
		return;
	}
	if (t->kind != E_NAME) {
		use_expr(w, t, *s);
		return;
	}
	int d = map_get(&w->defs, t);
	if (d < 0)
		return;
	int v = w->def_var[d];
	for (int k = w->first_def[v]; k < w->ndefs; k++)
		if (w->def_var[k] == v)
			s->bits[k / 64] &= ~((Word)1 << (k % 64));
	s->bits[d / 64] |= (Word)1 << (d % 64);
}

/* Is cond a constant that Numba prunes on?  Typed here before the
 * variables are: a user error only means it is not known yet. */
static int known_truth(W *w, Expr *cond, int *truth)
{
	Ctx *c = w->c;
	jmp_buf here, *volatile outer = c->jmp;
	const Src *volatile src = c->src;
	volatile int depth = c->depth, known = 0;
	c->jmp = &here;
	if (setjmp(here)) {
		c->jmp = outer;
		c->src = src;
		c->depth = depth;
		if (c->diag.kind != PJ_ERR_USER)
			longjmp(*c->jmp, 1);
		memset(&c->diag, 0, sizeof c->diag);
		return 0;
	}
	known = type_truth(w->sc, cond) && const_truth(cond->cval, truth) && sema_prunes(cond);
	c->jmp = outer;
	return known;
}

static State flow_body(W *w, StmtList *b, State s);

/* a loop whose body runs from its header: entry, then what comes back */
static State flow_loop(W *w, Stmt *s, State entry, int endless)
{
	Loop lp = {new_state(w, 0), new_state(w, 0), w->loop};
	w->loop = &lp;
	State head = copy_state(w, entry);
	for (int iter = 0;; iter++) {
		if (iter > w->ndefs + 2)
			ICE(w->c, "the definitions reaching a loop do not settle");
		int grew = 0;
		if (s->kind == S_WHILE) {
			use_expr(w, s->cond.cond, head);
			grew |= merge(w, &head, flow_body(w, &s->cond.body, copy_state(w, head)));
		} else if (s->loop.nunroll > 0) {
			for (int u = 0; u < s->loop.nunroll; u++) {
				State st = copy_state(w, head);
				define(w, s->loop.utargets[u], &st);
				grew |= merge(w, &head, flow_body(w, &s->loop.ubodies[u], st));
			}
		} else {
			State st = copy_state(w, head);
			define(w, s->loop.target, &st);
			grew |= merge(w, &head, flow_body(w, &s->loop.body, st));
		}
		grew |= merge(w, &head, lp.cont);
		if (!grew)
			break;
	}
	w->loop = lp.up;
	State out = endless ? new_state(w, 0) : flow_body(w, s->kind == S_WHILE ? &s->cond.orelse : &s->loop.orelse,
	                                                   copy_state(w, head));
	if (endless)
		memcpy(out.bits, head.bits, sizeof(Word) * (size_t)w->words);   /* for code after it, if any */
	merge(w, &out, lp.brk);
	return out;
}

static State flow_stmt(W *w, Stmt *s, State st)
{
	int truth;
	switch (s->kind) {
	case S_EXPR:
		use_expr(w, s->expr, st);
		return st;
	case S_ASSIGN:
	case S_ANNASSIGN:
		use_expr(w, s->assign.value, st);
		for (int k = 0; k < s->assign.ntargets; k++)
			define(w, s->assign.targets[k], &st);
		return st;
	case S_AUGASSIGN: {
		Expr *t = s->aug.target;
		use_expr(w, s->aug.value, st);
		use_expr(w, t, st);
		int d = t->kind == E_NAME ? map_get(&w->defs, t) : -1;
		int u = t->kind == E_NAME ? map_get(&w->uses, t) : -1;
		if (d >= 0 && u >= 0)
			join_defs(w, d, u);
		define(w, t, &st);
		return st;
	}
	case S_IF: {
		use_expr(w, s->cond.cond, st);
		int known = known_truth(w, s->cond.cond, &truth);
		State a = copy_state(w, st), b = copy_state(w, st);
		if (known)   /* the pruned branch is walked dead: its names still get their webs */
			(truth ? &b : &a)->live = 0;
		a = flow_body(w, &s->cond.body, a);
		b = flow_body(w, &s->cond.orelse, b);
		State out = new_state(w, 0);
		merge(w, &out, a);
		merge(w, &out, b);
		if (!out.live)   /* dead code may follow */
			memcpy(out.bits, a.bits, sizeof(Word) * (size_t)w->words);
		return out;
	}
	case S_WHILE: {
		const Expr *k = s->cond.cond;
		int endless = (k->kind == E_BOOL || k->kind == E_INT) && k->ival != 0;
		return flow_loop(w, s, st, endless);
	}
	case S_FOR:
		use_expr(w, s->loop.iter, st);
		return flow_loop(w, s, st, 0);
	case S_BREAK:
	case S_CONTINUE:
		if (w->loop)
			merge(w, s->kind == S_BREAK ? &w->loop->brk : &w->loop->cont, st);
		st.live = 0;
		return st;
	case S_RETURN:
	case S_RAISE:
		use_expr(w, s->ret.value, st);
		st.live = 0;
		return st;
	case S_ASSERT:
		use_expr(w, s->assert_.cond, st);
		use_expr(w, s->assert_.msg, st);
		return st;
	default:
		return st;
	}
}

static State flow_body(W *w, StmtList *b, State s)
{
	for (int i = 0; i < b->n; i++)
		s = flow_stmt(w, b->s[i], s);
	return s;
}

/* ------------------------------------------------------------- webs */

static Var *new_var(Ctx *c, const Var *like, Span at)
{
	Var *v = arena_alloc(c->arena, sizeof *v);
	v->name = like->name;
	v->span = at;
	return v;
}

static void grow_arrays(Scope *sc, int n, int nold)
{
	Ctx *c = sc->c;
	int *na = arena_alloc(c->arena, sizeof(int) * (size_t)n);
	Const **vc = arena_alloc(c->arena, sizeof(Const *) * (size_t)n);
	unsigned char *ve = arena_alloc(c->arena, (size_t)n);
	char *seen = arena_alloc(c->arena, (size_t)n);
	memset(ve, 0, (size_t)n);
	memset(seen, 0, (size_t)n);
	memset(vc, 0, sizeof(Const *) * (size_t)n);
	memcpy(na, sc->nassign, sizeof(int) * (size_t)nold);
	memcpy(vc, sc->vconst, sizeof(Const *) * (size_t)nold);
	memcpy(ve, sc->vearly, (size_t)nold);
	sc->nassign = na;
	sc->vconst = vc;
	sc->vearly = ve;
	sc->seen = seen;
}

void sema_fill_webs(Scope *sc)
{
	Ctx *c = sc->c;
	Spec *sp = sc->spec;
	FuncDef *def = sp->def;
	W w = {.sc = sc, .c = c, .nvars = sp->nvars};
	if (!sp->nvars)
		return;
	for (int i = 0; i < def->nparams; i++)
		add_def(&w, i, NULL);
	number_body(&w, &def->body);
	if (w.nested_def || w.ndefs <= sp->nvars)
		return;   /* no variable has two definitions */
	w.first_def = arena_alloc(c->arena, sizeof(int) * (size_t)sp->nvars);
	for (int v = 0; v < sp->nvars; v++)
		w.first_def[v] = -1;
	for (int d = w.ndefs - 1; d >= 0; d--)
		w.first_def[w.def_var[d]] = d;
	w.parent = arena_alloc(c->arena, sizeof(int) * (size_t)w.ndefs);
	for (int d = 0; d < w.ndefs; d++)
		w.parent[d] = d;
	w.words = (w.ndefs + 63) / 64;
	State entry = new_state(&w, 1);
	for (int i = 0; i < def->nparams; i++)
		entry.bits[i / 64] |= (Word)1 << (i % 64);
	flow_body(&w, &def->body, entry);

	/* one Var per web: the first definition's web keeps the variable */
	Var **webvar = arena_alloc(c->arena, sizeof(Var *) * (size_t)w.ndefs);
	int *count = arena_alloc(c->arena, sizeof(int) * (size_t)w.ndefs);
	memset(webvar, 0, sizeof(Var *) * (size_t)w.ndefs);
	memset(count, 0, sizeof(int) * (size_t)w.ndefs);
	int nold = sp->nvars, n = nold, cap = nold;
	Var **vars = arena_alloc(c->arena, sizeof(Var *) * (size_t)nold);
	memcpy(vars, sp->vars, sizeof(Var *) * (size_t)nold);
	char *split = arena_alloc(c->arena, (size_t)nold);
	memset(split, 0, (size_t)nold);
	for (int d = 0; d < w.ndefs; d++) {
		int r = find(&w, d), v = w.def_var[d];
		count[r]++;
		if (webvar[r])
			continue;
		if (d == w.first_def[v]) {
			webvar[r] = sp->vars[v];
			continue;
		}
		Var *nv = new_var(c, sp->vars[v], w.def_node[d]->span);
		nv->index = n;
		VEC_PUSH(c, vars, n, cap, nv);
		webvar[r] = nv;
		split[v] = 1;
	}
	if (n == nold)
		return;
	grow_arrays(sc, n, nold);
	for (int d = 0; d < w.ndefs; d++) {
		int r = find(&w, d), v = w.def_var[d];
		if (!split[v] || r != d)
			continue;
		Var *x = webvar[r];
		if (x->index < def->nparams)
			sc->nassign[x->index] = count[r] - 1 + (sc->vconst[x->index] ? 1 : 2);
		else
			sc->nassign[x->index] = count[r];
	}
	for (int d = 0; d < w.ndefs; d++)
		if (w.def_node[d] && split[w.def_var[d]])
			w.def_node[d]->name.var = webvar[find(&w, d)];
	for (int i = 0; i < w.uses.cap; i++) {
		Expr *e = (Expr *)w.uses.key[i];
		if (!e)
			continue;
		int v = var_of(&w, e->name.id), d = w.uses.val[i];
		if (v >= 0 && split[v] && map_get(&w.defs, e) == -2)
			e->name.var = webvar[find(&w, d >= 0 ? d : w.first_def[v])];
	}
	sp->vars = vars;
	sp->nvars = n;
}

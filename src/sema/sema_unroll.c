/*
 * sema_unroll.c - `for x in literal_unroll(t): B`, made into one copy of
 * B per element of the tuple t before typing, so that each copy is typed
 * with its own element's type (t may mix numbers, arrays and tuples):
 *
 *   for x in literal_unroll(t): B     __pj_uN = t
 *   else: E                           for x in __pj_uN:          (nunroll = len(t))
 *                                         copy i: x_i = __pj_uN[i]; B_i
 *                                     else: E
 *
 * The loop stays a for over a tuple, so break, continue and else keep
 * their meaning; lowering runs copy i for element i (lower_stmt.c,
 * for_tuple).  In copy i the loop variable and the variables private
 * to the body get their own names ("x__pj_u3_1": loop 3, copy 1), and
 * so their own types: a private variable is one that no statement
 * outside the loop mentions and that the body assigns, at its top level,
 * before any other mention (a value carried from one element to the next keeps one name,
 * and one type, as does a loop variable read after the loop; another
 * loop's variable of the same name is not a mention).
 *
 * The number of copies is the tuple's length, which must be known before
 * typing: a tuple written out, a tuple argument, a global or closure
 * tuple, an array argument's shape or strides, a slice with constant
 * bounds of one of these, or a local variable every assignment of which
 * is one of these with the same length.  The rewrite runs after sema_iter.c's, on each
 * specialisation's own copy of the function, before its variables are
 * collected.  Nested literal_unroll loops are rewritten inside out, but
 * for an inner loop over the outer one's variable (or over an element or
 * a slice of it), whose length is known only in each copy: it is left
 * for unroll_copies, which rewrites each copy's body again with that
 * variable bound to its element.
 */
#include <string.h>

#include "sema.h"

enum { MAX_NEST = 8 };

typedef struct Un {
	Scope *sc;
	int ntemp;
	int nloops;            /* literal_unroll loops rewritten: their copies' names */
	int depth;             /* of static_len's look through local variables */
	int pending;           /* enclosing literal_unroll loops not rewritten yet */
	/* while a copy's body is rewritten again (see unroll_copies): for
	 * each enclosing copy, its variable, element bidx of bseq, and the
	 * statements around the loops in it (obody, all but oskip) */
	int nbind;
	const char *bname[MAX_NEST];
	const Expr *bseq[MAX_NEST];
	int bidx[MAX_NEST];
	const StmtList *obody[MAX_NEST + 1];
	const Stmt *oskip[MAX_NEST + 1];
} Un;

/* ------------------------------------------------------- name mentions */

static int mentions_body(const StmtList *b, const char *id, const Stmt *skip);

static int mentions_expr(const Expr *e, const char *id)
{
	if (!e)
		return 0;
	switch (e->kind) {
	case E_NAME:
		return strcmp(e->name.id, id) == 0;
	case E_UNARY:
	case E_BINARY:
		return mentions_expr(e->bin.a, id) || mentions_expr(e->bin.b, id);
	case E_COMPARE:
		for (int i = 0; i <= e->cmp.n; i++)
			if (mentions_expr(e->cmp.args[i], id))
				return 1;
		return 0;
	case E_BOOLOP:
		for (int i = 0; i < e->boolop.n; i++)
			if (mentions_expr(e->boolop.args[i], id))
				return 1;
		return 0;
	case E_IFEXP:
		return mentions_expr(e->ifexp.cond, id) || mentions_expr(e->ifexp.a, id) || mentions_expr(e->ifexp.b, id);
	case E_CALL:
		if (mentions_expr(e->call.fn, id))
			return 1;
		for (int i = 0; i < e->call.nargs; i++)
			if (mentions_expr(e->call.args[i], id))
				return 1;
		for (int i = 0; i < e->call.nkw; i++)
			if (mentions_expr(e->call.kwargs[i], id))
				return 1;
		return 0;
	case E_ATTR:
		return mentions_expr(e->attr.obj, id);
	case E_SUBSCRIPT:
		return mentions_expr(e->sub.obj, id) || mentions_expr(e->sub.index, id);
	case E_SLICE:
		return mentions_expr(e->slice.lo, id) || mentions_expr(e->slice.hi, id) || mentions_expr(e->slice.step, id);
	case E_TUPLE:
		for (int i = 0; i < e->tuple.n; i++)
			if (mentions_expr(e->tuple.elts[i], id))
				return 1;
		return 0;
	default:
		return 0;
	}
}

static int mentions_stmt(const Stmt *s, const char *id, const Stmt *skip)
{
	if (s == skip)
		return 0;
	switch (s->kind) {
	case S_EXPR:
		return mentions_expr(s->expr, id);
	case S_ASSIGN:
	case S_ANNASSIGN:
		for (int k = 0; k < s->assign.ntargets; k++)
			if (mentions_expr(s->assign.targets[k], id))
				return 1;
		return mentions_expr(s->assign.value, id);
	case S_AUGASSIGN:
		return mentions_expr(s->aug.target, id) || mentions_expr(s->aug.value, id);
	case S_IF:
	case S_WHILE:
		return mentions_expr(s->cond.cond, id) || mentions_body(&s->cond.body, id, skip) ||
		       mentions_body(&s->cond.orelse, id, skip);
	case S_FOR:
		if (mentions_expr(s->loop.iter, id))
			return 1;
		if (skip && s->loop.target->kind == E_NAME && strcmp(s->loop.target->name.id, id) == 0)
			return 0;   /* outside the loop skip: another loop's own variable of that name */
		if (mentions_body(&s->loop.orelse, id, skip))
			return 1;
		if (s->loop.nunroll > 0) {
			for (int i = 0; i < s->loop.nunroll; i++)
				if (mentions_expr(s->loop.utargets[i], id) || mentions_body(&s->loop.ubodies[i], id, skip))
					return 1;
			return 0;
		}
		return mentions_expr(s->loop.target, id) || mentions_body(&s->loop.body, id, skip);
	case S_RETURN:
	case S_RAISE:
		return mentions_expr(s->ret.value, id);
	case S_ASSERT:
		return mentions_expr(s->assert_.cond, id) || mentions_expr(s->assert_.msg, id);
	default:
		return 0;
	}
}

static int mentions_body(const StmtList *b, const char *id, const Stmt *skip)
{
	for (int i = 0; i < b->n; i++)
		if (mentions_stmt(b->s[i], id, skip))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ renaming */

typedef struct Renames {
	int n, capfrom, capto;
	const char **from, **to;
} Renames;

static const char *renamed(const Renames *r, const char *id)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->from[i], id) == 0)
			return r->to[i];
	return NULL;
}

static void rename_body(StmtList *b, const Renames *r);

static void rename_expr(Expr *e, const Renames *r)
{
	if (!e)
		return;
	switch (e->kind) {
	case E_NAME: {
		const char *to = renamed(r, e->name.id);
		if (to)
			e->name.id = to;
		return;
	}
	case E_UNARY:
	case E_BINARY:
		rename_expr(e->bin.a, r);
		rename_expr(e->bin.b, r);
		return;
	case E_COMPARE:
		for (int i = 0; i <= e->cmp.n; i++)
			rename_expr(e->cmp.args[i], r);
		return;
	case E_BOOLOP:
		for (int i = 0; i < e->boolop.n; i++)
			rename_expr(e->boolop.args[i], r);
		return;
	case E_IFEXP:
		rename_expr(e->ifexp.cond, r);
		rename_expr(e->ifexp.a, r);
		rename_expr(e->ifexp.b, r);
		return;
	case E_CALL:
		rename_expr(e->call.fn, r);
		for (int i = 0; i < e->call.nargs; i++)
			rename_expr(e->call.args[i], r);
		for (int i = 0; i < e->call.nkw; i++)
			rename_expr(e->call.kwargs[i], r);
		return;
	case E_ATTR:
		rename_expr(e->attr.obj, r);
		return;
	case E_SUBSCRIPT:
		rename_expr(e->sub.obj, r);
		rename_expr(e->sub.index, r);
		return;
	case E_SLICE:
		rename_expr(e->slice.lo, r);
		rename_expr(e->slice.hi, r);
		rename_expr(e->slice.step, r);
		return;
	case E_TUPLE:
		for (int i = 0; i < e->tuple.n; i++)
			rename_expr(e->tuple.elts[i], r);
		return;
	default:
		return;
	}
}

static void rename_stmt(Stmt *s, const Renames *r)
{
	switch (s->kind) {
	case S_EXPR:
		rename_expr(s->expr, r);
		return;
	case S_ASSIGN:
	case S_ANNASSIGN:
		for (int k = 0; k < s->assign.ntargets; k++)
			rename_expr(s->assign.targets[k], r);
		rename_expr(s->assign.value, r);
		return;
	case S_AUGASSIGN:
		rename_expr(s->aug.target, r);
		rename_expr(s->aug.value, r);
		return;
	case S_IF:
	case S_WHILE:
		rename_expr(s->cond.cond, r);
		rename_body(&s->cond.body, r);
		rename_body(&s->cond.orelse, r);
		return;
	case S_FOR:
		rename_expr(s->loop.iter, r);
		rename_body(&s->loop.orelse, r);
		if (s->loop.nunroll > 0) {
			for (int i = 0; i < s->loop.nunroll; i++) {
				rename_expr(s->loop.utargets[i], r);
				rename_body(&s->loop.ubodies[i], r);
			}
			s->loop.target = s->loop.utargets[0];
			s->loop.body = s->loop.ubodies[0];
		} else {
			rename_expr(s->loop.target, r);
			rename_body(&s->loop.body, r);
		}
		return;
	case S_RETURN:
	case S_RAISE:
		rename_expr(s->ret.value, r);
		return;
	case S_ASSERT:
		rename_expr(s->assert_.cond, r);
		rename_expr(s->assert_.msg, r);
		return;
	default:
		return;
	}
}

static void rename_body(StmtList *b, const Renames *r)
{
	for (int i = 0; i < b->n; i++)
		rename_stmt(b->s[i], r);
}

/* ------------------------------------------------- the loop's iterable */

static int assigned_len(Un *u, const StmtList *b, const char *id, int len);

/* Is e literal_unroll (under any name or module path that reaches it)? */
static int is_literal_unroll(Un *u, const Expr *e)
{
	Scope *sc = u->sc;
	if (e->kind == E_NAME) {
		FuncDef *def = sc->spec->def;
		for (int i = 0; i < def->nparams; i++)
			if (strcmp(def->params[i].name, e->name.id) == 0)
				return 0;
		if (assigned_len(u, &def->body, e->name.id, -2) != -2)
			return 0;
		Const *cv = scope_global(sc, e->name.id, e->span);
		return cv && cv->kind == PJ_V_INTRIN && cv->s && strcmp(cv->s, "cuda.literal_unroll") == 0;
	}
	if (e->kind == E_ATTR) {
		const Expr *o = e->attr.obj;
		const char *mod = NULL;
		if (o->kind == E_NAME) {
			Const *cv = scope_global(sc, o->name.id, o->span);
			if (cv && cv->kind == PJ_V_MODULE)
				mod = cv->s;
		} else if (o->kind == E_ATTR && o->attr.obj->kind == E_NAME) {
			Const *cv = scope_global(sc, o->attr.obj->name.id, o->attr.obj->span);
			if (cv && cv->kind == PJ_V_MODULE) {
				Const *m = resolve_member(sc->c, cv->s, o->attr.name);
				if (m && m->kind == PJ_V_MODULE)
					mod = m->s;
			}
		}
		if (!mod)
			return 0;
		Const *cv = resolve_member(sc->c, mod, e->attr.name);
		return cv && cv->kind == PJ_V_INTRIN && cv->s && strcmp(cv->s, "cuda.literal_unroll") == 0;
	}
	return 0;
}

static int is_param(Un *u, const char *id)
{
	FuncDef *def = u->sc->spec->def;
	for (int i = 0; i < def->nparams; i++)
		if (strcmp(def->params[i].name, id) == 0)
			return i;
	return -1;
}

static int static_len(Un *u, const Expr *e);
static int elem_len(Un *u, const Expr *seq, int i);

/* The length every assignment to the local id gives, or -1 (also when id
 * is assigned any other way: augmented, unpacked, as a loop variable). */
static int assigned_len(Un *u, const StmtList *b, const char *id, int len)
{
	for (int i = 0; i < b->n && len != -1; i++) {
		const Stmt *s = b->s[i];
		switch (s->kind) {
		case S_ASSIGN:
		case S_ANNASSIGN:
			for (int k = 0; k < s->assign.ntargets; k++) {
				const Expr *t = s->assign.targets[k];
				if (t->kind == E_NAME && strcmp(t->name.id, id) == 0) {
					int n = static_len(u, s->assign.value);
					len = n < 0 || (len >= 0 && n != len) ? -1 : n;
				} else if (t->kind != E_NAME && mentions_expr(t, id) && t->kind == E_TUPLE) {
					len = -1;
				}
			}
			break;
		case S_AUGASSIGN:
			if (s->aug.target->kind == E_NAME && strcmp(s->aug.target->name.id, id) == 0)
				len = -1;
			break;
		case S_IF:
		case S_WHILE:
			len = assigned_len(u, &s->cond.body, id, len);
			len = assigned_len(u, &s->cond.orelse, id, len);
			break;
		case S_FOR:
			if (mentions_expr(s->loop.target, id))
				return -1;
			len = assigned_len(u, &s->loop.body, id, len);
			len = assigned_len(u, &s->loop.orelse, id, len);
			break;
		default:
			break;
		}
	}
	return len;
}

static int int_literal(const Expr *e, int64_t *v)
{
	if (e && e->kind == E_INT && !e->big) {
		*v = e->ival;
		return 1;
	}
	if (e && e->kind == E_UNARY && e->bin.op == OP_NEG && e->bin.a->kind == E_INT && !e->bin.a->big) {
		*v = -e->bin.a->ival;
		return 1;
	}
	return 0;
}

/* A slice bound of a sequence of n, as Python's slice.indices() */
static int64_t clamp(int64_t v, int64_t n, int64_t st)
{
	if (v < 0)
		v += n;
	if (v < 0)
		return st > 0 ? 0 : -1;
	if (v >= n)
		return st > 0 ? n : n - 1;
	return v;
}

/* The length of t[lo:hi:step] with constant bounds, as Python's slice. */
static int slice_len(Un *u, const Expr *e)
{
	const Expr *sl = e->sub.index;
	int64_t n = static_len(u, e->sub.obj), lo, hi, st = 1;
	if (n < 0 || (sl->slice.step && (!int_literal(sl->slice.step, &st) || st == 0)))
		return -1;
	int64_t dlo = st > 0 ? 0 : n - 1, dhi = st > 0 ? n : -1;
	if (!sl->slice.lo)
		lo = dlo;
	else if (!int_literal(sl->slice.lo, &lo))
		return -1;
	else
		lo = clamp(lo, n, st);
	if (!sl->slice.hi)
		hi = dhi;
	else if (!int_literal(sl->slice.hi, &hi))
		return -1;
	else
		hi = clamp(hi, n, st);
	int64_t len = st > 0 ? (hi > lo ? (hi - lo + st - 1) / st : 0) : (lo > hi ? (lo - hi - st - 1) / -st : 0);
	return (int)len;
}

/* The length of element i of the tuple seq, or -1 */
static int elem_len(Un *u, const Expr *seq, int i)
{
	Scope *sc = u->sc;
	FuncDef *def = sc->spec->def;
	if (seq->kind == E_TUPLE)
		return i < seq->tuple.n ? static_len(u, seq->tuple.elts[i]) : -1;
	if (seq->kind != E_NAME)
		return -1;
	const char *id = seq->name.id;
	int p = is_param(u, id);
	if (assigned_len(u, &def->body, id, -2) != -2)
		return -1;
	if (p >= 0) {
		Type *t = def->params[p].var ? def->params[p].var->ty : NULL;
		return t && t->kind == TY_TUPLE && i < t->n && t->elts[i]->kind == TY_TUPLE ? t->elts[i]->n : -1;
	}
	Const *cv = scope_global(sc, id, seq->span);
	return cv && cv->kind == PJ_V_TUPLE && i < cv->n && cv->elts[i].kind == PJ_V_TUPLE ? cv->elts[i].n : -1;
}

/* How many elements the tuple e has, known before typing; -1 if unknown. */
static int static_len(Un *u, const Expr *e)
{
	Scope *sc = u->sc;
	FuncDef *def = sc->spec->def;
	if (e->kind == E_TUPLE)
		return e->tuple.n;
	if (e->kind == E_SUBSCRIPT && e->sub.index->kind == E_SLICE)
		return slice_len(u, e);
	if (e->kind == E_ATTR && e->attr.obj->kind == E_NAME &&
	    (strcmp(e->attr.name, "shape") == 0 || strcmp(e->attr.name, "strides") == 0)) {
		int p = is_param(u, e->attr.obj->name.id);
		Type *t = p >= 0 && def->params[p].var ? def->params[p].var->ty : NULL;
		if (t && t->kind == TY_ARRAY && assigned_len(u, &def->body, e->attr.obj->name.id, -2) == -2)
			return t->ndim;
		return -1;
	}
	if (e->kind != E_NAME || u->depth > 8)
		return -1;
	const char *id = e->name.id;
	for (int k = u->nbind - 1; k >= 0; k--)
		if (u->bname[k] && strcmp(u->bname[k], id) == 0)
			return elem_len(u, u->bseq[k], u->bidx[k]);
	int p = is_param(u, id);
	u->depth++;
	int n = assigned_len(u, &def->body, id, -2);   /* -2: never assigned */
	u->depth--;
	if (p >= 0) {
		Type *t = def->params[p].var ? def->params[p].var->ty : NULL;
		return n == -2 && t && t->kind == TY_TUPLE ? t->n : -1;
	}
	if (n == -2) {
		Const *cv = scope_global(sc, id, e->span);
		return cv && cv->kind == PJ_V_TUPLE ? cv->n : -1;
	}
	return n;
}

/* ------------------------------------------------------------- rewrite */

static void add_rename(Ctx *c, Renames *r, const char *from)
{
	if (renamed(r, from))
		return;
	r->from = arena_grow(c->arena, r->from, r->n, &r->capfrom, sizeof(char *));
	r->to = arena_grow(c->arena, r->to, r->n, &r->capto, sizeof(char *));
	r->from[r->n] = from;
	r->to[r->n] = NULL;
	r->n++;
}

/* Does a statement outside the loop s mention id?  Outside is the
 * function but for s, and but for the enclosing copies being rewritten
 * again (whose siblings are other elements' copies). */
static int mentioned_outside(Un *u, const StmtList *fbody, const char *id, const Stmt *s)
{
	if (mentions_body(&s->loop.orelse, id, NULL))
		return 1;
	if (!u->nbind)
		return mentions_body(fbody, id, s);
	for (int k = 0; k <= u->nbind; k++) {
		const StmtList *b = k ? u->obody[k] : fbody;
		const Stmt *skip = k < u->nbind ? u->oskip[k] : s;
		if (mentions_body(b, id, skip))
			return 1;
	}
	return 0;
}

static void target_renames(Un *u, Renames *r, const Expr *t, const StmtList *fbody, const Stmt *loop)
{
	Ctx *c = u->sc->c;
	if (t->kind == E_NAME) {
		if (!mentioned_outside(u, fbody, t->name.id, loop))
			add_rename(c, r, t->name.id);
	} else if (t->kind == E_TUPLE) {
		for (int i = 0; i < t->tuple.n; i++)
			target_renames(u, r, t->tuple.elts[i], fbody, loop);
	}
}

/* The names private to each copy of the loop s's body (see the top). */
static void private_names(Un *u, Renames *r, const StmtList *fbody, const Stmt *s)
{
	Ctx *c = u->sc->c;
	target_renames(u, r, s->loop.target, fbody, s);
	const StmtList *b = &s->loop.body;
	for (int i = 0; i < b->n; i++) {
		const Stmt *a = b->s[i];
		if (a->kind != S_ASSIGN || a->assign.ntargets != 1 || a->assign.targets[0]->kind != E_NAME)
			continue;
		const char *id = a->assign.targets[0]->name.id;
		if (renamed(r, id) || mentions_expr(a->assign.value, id) || mentioned_outside(u, fbody, id, s))
			continue;
		int earlier = 0;
		for (int k = 0; k < i && !earlier; k++)
			earlier = mentions_stmt(b->s[k], id, NULL);
		if (!earlier)
			add_rename(c, r, id);
	}
}

static Expr *name_expr(Ctx *c, const char *id, Span sp)
{
	Expr *e = arena_alloc(c->arena, sizeof *e);
	e->kind = E_NAME;
	e->span = sp;
	e->name.id = id;
	return e;
}

static Stmt *assign(Ctx *c, Expr *target, Expr *value, Span sp)
{
	Stmt *s = arena_alloc(c->arena, sizeof *s);
	s->kind = S_ASSIGN;
	s->span = sp;
	s->assign.ntargets = 1;
	s->assign.targets = arena_alloc(c->arena, sizeof(Expr *));
	s->assign.targets[0] = target;
	s->assign.value = value;
	return s;
}

static void unroll_body(Un *u, StmtList *b, const StmtList *fbody);

/* The literal_unroll loops left in the copies of s (those over the
 * variable of s, or of a loop around it), rewritten now that copy i's
 * variable is element i of seq. */
static void unroll_copies(Un *u, Stmt *s, const Expr *seq, const StmtList *fbody)
{
	if (u->nbind >= MAX_NEST)
		return;
	int k = u->nbind++;
	u->bseq[k] = seq;
	u->oskip[k] = s;
	for (int i = 0; i < s->loop.nunroll; i++) {
		const Expr *tg = s->loop.utargets[i];
		u->bname[k] = tg->kind == E_NAME ? tg->name.id : NULL;
		u->bidx[k] = i;
		u->obody[k + 1] = &s->loop.ubodies[i];
		unroll_body(u, &s->loop.ubodies[i], fbody);
	}
	u->nbind--;
}

/* The for loop s over literal_unroll(t): the copies of its body, and the
 * assignment of t to the loop's own variable, put before the loop (*pre). */
static Stmt *unroll_for(Un *u, Stmt *s, const StmtList *fbody, Stmt **pre)
{
	Scope *sc = u->sc;
	Ctx *c = sc->c;
	Expr *call = s->loop.iter;
	if (call->call.nkw || call->call.nargs != 1)
		err_at(c, call->span, "call it as literal_unroll(t) with one tuple",
		       "literal_unroll() takes exactly one argument");
	Expr *t = call->call.args[0];
	int n = static_len(u, t);
	*pre = NULL;
	if (n < 0 && u->pending)
		return NULL;   /* may unroll an enclosing copy's variable: again in each copy */
	if (n < 0)
		err_at(c, t->span,
		       "unroll a tuple written out, a tuple argument, a global or closure tuple, or a variable "
		       "assigned one of these",
		       "literal_unroll() needs a tuple whose length is known before the kernel is typed");
	const Expr *seq = t;
	if (t->kind != E_NAME) {
		const char *tmp = arena_printf(c->arena, "__pj_u%d", u->ntemp++);
		*pre = assign(c, name_expr(c, tmp, t->span), t, t->span);
		t = name_expr(c, tmp, t->span);
	}
	s->loop.iter = t;
	if (n == 0)
		return s;   /* a for over the empty tuple: the body never runs */
	Renames r = {0};
	private_names(u, &r, fbody, s);
	int loop = u->nloops++;
	s->loop.utargets = arena_alloc(c->arena, sizeof(Expr *) * (size_t)n);
	s->loop.ubodies = arena_alloc(c->arena, sizeof(StmtList) * (size_t)n);
	for (int i = 0; i < n; i++) {
		Expr *tg = ast_clone_expr(c, s->loop.target);
		StmtList b = ast_clone_body(c, s->loop.body);
		if (r.n) {
			for (int k = 0; k < r.n; k++)
				r.to[k] = arena_printf(c->arena, "%s__pj_u%d_%d", r.from[k], loop, i);
			rename_expr(tg, &r);
			rename_body(&b, &r);
		}
		s->loop.utargets[i] = tg;
		s->loop.ubodies[i] = b;
	}
	s->loop.nunroll = n;
	s->loop.target = s->loop.utargets[0];
	s->loop.body = s->loop.ubodies[0];
	unroll_copies(u, s, seq, fbody);
	return s;
}

static void unroll_body(Un *u, StmtList *b, const StmtList *fbody)
{
	Ctx *c = u->sc->c;
	StmtList out = {0};
	int cap = 0, changed = 0;
	for (int i = 0; i < b->n; i++) {
		Stmt *s = b->s[i];
		switch (s->kind) {
		case S_IF:
		case S_WHILE:
			unroll_body(u, &s->cond.body, fbody);
			unroll_body(u, &s->cond.orelse, fbody);
			break;
		case S_FOR: {
			int lu = s->loop.nunroll == 0 && s->loop.iter->kind == E_CALL &&
			         is_literal_unroll(u, s->loop.iter->call.fn);
			u->pending += lu;
			if (s->loop.nunroll == 0)
				unroll_body(u, &s->loop.body, fbody);
			for (int k = 0; k < s->loop.nunroll; k++)   /* rewritten again: loops left in its copies */
				unroll_body(u, &s->loop.ubodies[k], fbody);
			u->pending -= lu;
			unroll_body(u, &s->loop.orelse, fbody);
			if (lu) {
				Stmt *pre;
				unroll_for(u, s, fbody, &pre);
				if (pre) {
					VEC_PUSH(c, out.s, out.n, cap, pre);
					changed = 1;
				}
			}
			break;
		}
		default:
			break;
		}
		VEC_PUSH(c, out.s, out.n, cap, s);
	}
	if (changed)
		*b = out;
}

const char *sema_user_name(Ctx *c, const char *name)
{
	const char *m = strstr(name, "__pj_u");
	if (!m || m == name)
		return name;
	const char *p = m + 6;
	int digits = 0, sep = 0;
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '_' && digits && !sep)
			sep = 1, digits = 0;
		else
			return name;
	}
	return sep && digits ? arena_strndup(c->arena, name, (size_t)(m - name)) : name;
}

void sema_rewrite_unroll(Scope *sc)
{
	Un u = {.sc = sc};
	unroll_body(&u, &sc->spec->def->body, &sc->spec->def->body);
}

/*
 * sema_closure.c - a function defined inside a kernel or device function
 * (`def inner(x): return x + y`), as Numba's closures: a device function
 * that can be called there, passed to other device functions and called
 * by them.
 *
 * The inner function is a PjFunc of its own: the enclosing function's
 * text and resolver, named "NAME@OFF[captures]", where OFF is the byte
 * offset of its `def` in the text (parse_function finds it there, at any
 * depth).  The names it uses that are local variables of the enclosing
 * function are its captures; as Numba does for a function that may
 * escape, each must hold one constant (assigned once): the constants
 * are written into the name, so that two closures with other values are
 * two functions, and scope_global finds them through sema_captured.
 * Names that are not local resolve as the enclosing function's globals.
 * Captures are read when the def runs in the typing order; a capture
 * assigned after the def is refused, as Numba refuses it.
 */
#include <stdio.h>
#include <string.h>

#include "sema.h"

typedef struct Names {
	const char **v;
	int n, cap;
} Names;

static int has(const Names *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->v[i], name) == 0)
			return 1;
	return 0;
}

static void add(Ctx *c, Names *l, const char *name)
{
	if (!has(l, name))
		VEC_PUSH(c, l->v, l->n, l->cap, name);
}

static void targets(Ctx *c, Names *l, const Expr *t)
{
	if (t->kind == E_NAME)
		add(c, l, t->name.id);
	else if (t->kind == E_TUPLE)
		for (int i = 0; i < t->tuple.n; i++)
			targets(c, l, t->tuple.elts[i]);
}

/* The names a body binds (assignments, for targets, defs). */
static void bound(Ctx *c, Names *l, const StmtList *b)
{
	for (int i = 0; i < b->n; i++) {
		const Stmt *s = b->s[i];
		switch (s->kind) {
		case S_ASSIGN: case S_ANNASSIGN:
			for (int k = 0; k < s->assign.ntargets; k++)
				targets(c, l, s->assign.targets[k]);
			break;
		case S_AUGASSIGN:
			targets(c, l, s->aug.target);
			break;
		case S_IF: case S_WHILE:
			bound(c, l, &s->cond.body);
			bound(c, l, &s->cond.orelse);
			break;
		case S_FOR:
			targets(c, l, s->loop.target);
			bound(c, l, &s->loop.body);
			bound(c, l, &s->loop.orelse);
			break;
		case S_DEF:
			if (s->nested.fn)
				add(c, l, s->nested.fn->name);
			break;
		default:
			break;
		}
	}
}

static void used_body(Ctx *c, Names *l, const StmtList *b);

static void used(Ctx *c, Names *l, const Expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case E_NAME:
		add(c, l, e->name.id);
		break;
	case E_UNARY: case E_BINARY: case E_STARRED:
		used(c, l, e->bin.a);
		used(c, l, e->bin.b);
		break;
	case E_COMPARE:
		for (int i = 0; i <= e->cmp.n; i++)
			used(c, l, e->cmp.args[i]);
		break;
	case E_BOOLOP:
		for (int i = 0; i < e->boolop.n; i++)
			used(c, l, e->boolop.args[i]);
		break;
	case E_IFEXP:
		used(c, l, e->ifexp.cond);
		used(c, l, e->ifexp.a);
		used(c, l, e->ifexp.b);
		break;
	case E_CALL:
		used(c, l, e->call.fn);
		for (int i = 0; i < e->call.nargs; i++)
			used(c, l, e->call.args[i]);
		for (int i = 0; i < e->call.nkw; i++)
			used(c, l, e->call.kwargs[i]);
		break;
	case E_ATTR:
		used(c, l, e->attr.obj);
		break;
	case E_SUBSCRIPT:
		used(c, l, e->sub.obj);
		used(c, l, e->sub.index);
		break;
	case E_SLICE:
		used(c, l, e->slice.lo);
		used(c, l, e->slice.hi);
		used(c, l, e->slice.step);
		break;
	case E_TUPLE:
		for (int i = 0; i < e->tuple.n; i++)
			used(c, l, e->tuple.elts[i]);
		break;
	default:
		break;
	}
}

/* The names fn uses that it does not bind itself: those of its body and
 * of the functions defined in it. */
static void free_names(Ctx *c, Names *out, const FuncDef *fn)
{
	Names use = {0}, own = {0};
	for (int i = 0; i < fn->nparams; i++)
		add(c, &own, fn->params[i].name);
	bound(c, &own, &fn->body);
	used_body(c, &use, &fn->body);
	for (int i = 0; i < use.n; i++)
		if (!has(&own, use.v[i]))
			add(c, out, use.v[i]);
}

static void used_body(Ctx *c, Names *l, const StmtList *b)
{
	for (int i = 0; i < b->n; i++) {
		const Stmt *s = b->s[i];
		switch (s->kind) {
		case S_EXPR:
			used(c, l, s->expr);
			break;
		case S_ASSIGN: case S_ANNASSIGN:
			used(c, l, s->assign.value);
			for (int k = 0; k < s->assign.ntargets; k++)
				used(c, l, s->assign.targets[k]);
			break;
		case S_AUGASSIGN:
			used(c, l, s->aug.target);
			used(c, l, s->aug.value);
			break;
		case S_IF: case S_WHILE:
			used(c, l, s->cond.cond);
			used_body(c, l, &s->cond.body);
			used_body(c, l, &s->cond.orelse);
			break;
		case S_FOR:
			used(c, l, s->loop.iter);
			used_body(c, l, &s->loop.body);
			used_body(c, l, &s->loop.orelse);
			break;
		case S_RETURN: case S_RAISE:
			used(c, l, s->ret.value);
			break;
		case S_ASSERT:
			used(c, l, s->assert_.cond);
			used(c, l, s->assert_.msg);
			break;
		case S_DEF:
			if (s->nested.fn) {
				for (int k = 0; k < s->nested.fn->nparams; k++)
					used(c, l, s->nested.fn->params[k].defval);
				free_names(c, l, s->nested.fn);
			}
			break;
		default:
			break;
		}
	}
}

/* A constant's text, for the closure's name: its type and value. */
static const char *const_text(Ctx *c, const Const *v)
{
	const char *t = v->ty ? ty_str_of(c, v->ty) : "?";
	switch (v->kind) {
	case PJ_V_INT: case PJ_V_BOOL:
		return arena_printf(c->arena, "%s:%lld", t, (long long)v->i);
	case PJ_V_FLOAT:
		return arena_printf(c->arena, "%s:%a", t, v->f);
	case PJ_V_COMPLEX:
		return arena_printf(c->arena, "%s:%a,%a", t, v->f, v->im);
	case PJ_V_NONE:
		return "None";
	case PJ_V_TUPLE: {
		const char *s = "(";
		for (int i = 0; i < v->n; i++)
			s = arena_printf(c->arena, "%s%s%s", s, i ? "," : "", const_text(c, &v->elts[i]));
		return arena_printf(c->arena, "%s)", s);
	}
	default:   /* functions, dtypes, modules, strings: named by their type and text */
		return arena_printf(c->arena, "%s:%s", t, v->s ? v->s : "");
	}
}

static const Closure *find_closure(Sema *S, const PjFunc *f)
{
	for (int i = 0; i < S->nclosures; i++)
		if (same_pjfunc(S->closures[i].func, f))
			return &S->closures[i];
	return NULL;
}

Const *sema_captured(Scope *sc, const char *name)
{
	const Closure *cl = sc->S ? find_closure(sc->S, sc->func) : NULL;
	for (int i = 0; cl && i < cl->n; i++)
		if (strcmp(cl->names[i], name) == 0)
			return cl->vals[i];
	return NULL;
}

/* The statement `def NAME(...): ...`: NAME becomes the closure, a constant. */
void sema_nested_def(Scope *sc, Stmt *s)
{
	Ctx *c = sc->c;
	FuncDef *fn = s->nested.fn;
	Names fv = {0};
	free_names(c, &fv, fn);
	for (int i = 0; i < fn->nparams; i++)
		used(c, &fv, fn->params[i].defval);   /* defaults are evaluated where the def is */
	Closure cl = {0};
	cl.names = arena_alloc(c->arena, sizeof(char *) * (size_t)(fv.n ? fv.n : 1));
	cl.vals = arena_alloc(c->arena, sizeof(Const *) * (size_t)(fv.n ? fv.n : 1));
	const char *caps = "";
	for (int i = 0; i < fv.n; i++) {
		if (strcmp(fv.v[i], fn->name) == 0)
			err_at(c, s->span, "define a recursive function at module level with @cuda.jit(device=True)",
			       "a function defined inside a kernel cannot call itself");
		Const *cv = NULL;
		Var *v = scope_find_var(sc, fv.v[i]);
		if (!v) {
			cv = sema_captured(sc, fv.v[i]);   /* captured by the enclosing closure itself */
			if (!cv)
				continue;                      /* a global: the resolver's */
		} else {
			cv = sc->vconst[v->index];
			if (!cv && !v->is_param && sc->nassign[v->index] > 1)
				err_at(c, s->span, "assign the variable once, or pass the value to the function as an argument",
				       "Cannot capture a constant value for variable '%s' as there are multiple definitions "
				       "present", v->name);
			if (!cv && !v->ty && !sc->final)
				return;                            /* not typed yet: the next pass */
			if (!cv || !cv->ty)
				err_at(c, s->span, "pass the value to the function as an argument",
				       "Cannot capture the non-constant value associated with variable '%s' in a function "
				       "that may escape: kernels capture only constants", v->name);
		}
		cl.names[cl.n] = fv.v[i];
		cl.vals[cl.n++] = cv;
		caps = arena_printf(c->arena, "%s%s%s=%s", caps, *caps ? "," : "", fv.v[i], const_text(c, cv));
	}
	PjFunc *f = arena_alloc(c->arena, sizeof *f);
	*f = *sc->func;
	f->name = arena_printf(c->arena, "%s@%d[%s]", fn->name, (int)fn->span.off, caps);
	f->sigs = NULL;
	f->nsigs = 0;
	f->inline_always = 0;
	f->is_device = 1;
	f->choose = NULL;
	f->external = NULL;
	f->abi_c = 0;
	cl.func = f;
	const Closure *known = find_closure(sc->S, f);
	if (known)
		f = (PjFunc *)known->func;
	else
		VEC_PUSH(c, sc->S->closures, sc->S->nclosures, sc->S->capclosures, cl);
	Const *k = new_const(c, PJ_V_FUNC, ty_func(c, f));
	k->s = f->name;
	Var *v = scope_find_var(sc, fn->name);
	if (!v)
		ICE(c, "nested def '%s' was not collected", fn->name);
	if (sc->final)
		sc->seen[v->index] = 1;
	scope_assign_var(sc, v, k->ty, s->span);
	if (sc->nassign[v->index] == 1 && !sc->vconst[v->index]) {
		sc->vconst[v->index] = k;
		sc->vearly[v->index] = 1;
		sc->changed = 1;
	}
}

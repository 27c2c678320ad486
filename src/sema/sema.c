/*
 * sema.c - semantic analysis of a kernel: parse it, bind its parameters
 * to the argument types, infer the type of every variable and
 * expression, and specialise every device function it calls.
 *
 * Inference.  Python scoping decides which names are local: a name
 * assigned anywhere in the function (=, op=, for, tuple targets) is a
 * variable, every other name is global (resolve.c).  Each variable gets
 * one type, the unification (ty_unify) of the types of all values
 * assigned to it.  Typing walks the body repeatedly: an expression that
 * reads a variable whose type is not known yet is unknown, and so is
 * whatever uses it; assignments widen variables' types; when a pass
 * changes nothing, a final pass checks everything with all types known
 * and reports any remaining problem.  Types only grow (int32 -> int64 ->
 * float64), so this terminates.
 *
 * A variable assigned exactly once, with a constant, is that constant
 * wherever it is read (TPB = 16 then cuda.shared.array(TPB, ...)).
 *
 * Specialisation.  A call of a device function with argument types T
 * uses the specialisation of that function for T, or makes one: a fresh
 * parse of its source (no AST node is shared between specialisations),
 * typed the same way.  Its return type is the unification of its return
 * statements' values (None without any).  A function with a declared
 * signature has one specialisation with the declared types.  Early
 * passes may make specialisations for types that do not survive; at the
 * end Ctx.specs holds the kernel and the specialisations reachable from
 * it through the calls of final passes, and Spec.id is their index.
 *
 * Constant arguments.  As Numba retries a call with literal argument
 * types when the plain ones fail, a call whose arguments include ints,
 * bools or tuples of them known at the call site first types the callee
 * for the argument types alone; only if that fails with a user error
 * (the shape of a cuda.shared.array given by a parameter, say) does it
 * type a specialisation for those constant values, in which each such
 * parameter that the body never assigns is that constant, known early
 * (branches on it are pruned, as Numba prunes on literal arguments).  A
 * failed plain attempt is remembered (ST_FAILED) so that later passes go
 * straight to the constants.
 *
 * Recursion.  A call of a function with the argument types it is being
 * typed for, further up the chain of calls, is recursion (direct or
 * through other functions); every specialisation on the cycle is marked
 * recursive and lowering calls it instead of inlining it.  The call's
 * type is the declared return type, or the unification of the return
 * statements typed so far in any pass (Scope.rec_ret): a base case that
 * returns before the recursive call gives it, and later passes widen it
 * as inference goes on.  A function called on the way (the `g` of f -> g
 * -> f) that used such a tentative type stays open: it is not kept, and
 * typed again in each pass, until the function it depends on reaches
 * its final pass, where the type is final.  A recursive call whose type
 * is still unknown then is the error "recursion without a way to type it".
 *
 * A parameter is a variable like the others: assignments may widen its
 * type beyond the argument's (n -= 1 on an int32 argument makes n int64);
 * the argument converts to the variable's type on entry.
 *
 * Kernel parameters: a kernel given fewer argument types than it has
 * parameters uses the defaults of the rest; spec->nargs is the number of
 * arguments given, spec->argtypes has one type per parameter, and the
 * parameter's defval (typed, with a cval) is its value.
 */
#include <string.h>

#include "sema.h"

enum { ST_NEW, ST_TYPING, ST_DONE, ST_OPEN, ST_FAILED };

int same_pjfunc(const PjFunc *a, const PjFunc *b)
{
	if (a == b)
		return 1;
	if (!a || !b)
		return 0;
	return a->name && b->name && a->source && b->source && strcmp(a->name, b->name) == 0 &&
	       strcmp(a->source, b->source) == 0 && a->first_line == b->first_line &&
	       (a->file == b->file || (a->file && b->file && strcmp(a->file, b->file) == 0));
}

int ty_is_static(const Type *t)
{
	switch (t->kind) {
	case TY_MODULE: case TY_INTRIN: case TY_DTYPE: case TY_FUNC: case TY_EXC: case TY_DIM3:
		return 1;
	default:
		return 0;
	}
}

Src *sema_src(Ctx *c, const PjFunc *f)
{
	Src *s = arena_alloc(c->arena, sizeof *s);
	s->file = f->file ? f->file : "<string>";
	s->text = f->source ? f->source : "";
	s->len = (int)strlen(s->text);
	s->first_line = f->first_line > 0 ? f->first_line : 1;
	s->col_shift = f->col_shift > 0 ? f->col_shift : 0;
	s->rebuilt = f->col_shift == PJ_REBUILT;
	src_index(c, s);
	return s;
}

/* ------------------------------------------------------------ variables */

Var *scope_find_var(Scope *sc, const char *name)
{
	Spec *sp = sc->spec;
	if (!sp || !name)
		return NULL;
	int i = names_get(&sp->var_index, name);
	return i >= 0 ? sp->vars[i] : NULL;
}

void scope_assign_var(Scope *sc, Var *v, Type *t, Span at)
{
	static const char hint[] = "the values of a variable that meet (after an if, around a loop) have one type; "
	                           "use a new name for a different kind of value";
	sc->defd[v->index] = 1;
	if (!t)
		return;
	Type *u = ty_unify(sc->c, v->ty, t);
	if (!u) {
		if (v->is_param)
			err_at(sc->c, at, hint, "cannot assign %s to parameter '%s', which holds %s", ty_str_of(sc->c, t),
			       v->name, ty_str_of(sc->c, v->ty));
		err_at(sc->c, at, hint, "cannot assign %s to variable '%s', which holds %s elsewhere", ty_str_of(sc->c, t),
		       sema_user_name(sc->c, v->name), ty_str_of(sc->c, v->ty));
	}
	if (!v->ty || !ty_equal(u, v->ty)) {
		v->ty = u;
		sc->changed = 1;
	}
}

typedef struct VarList {
	Var **v;
	int n, cap;
	int *nassign;
	int capassign;
	NameMap index;
} VarList;

static Var *add_var(Ctx *c, VarList *l, const char *name, Span sp)
{
	int i = names_get(&l->index, name);
	if (i >= 0) {
		l->nassign[i]++;
		return l->v[i];
	}
	names_put(c, &l->index, name, l->n);
	Var *v = arena_alloc(c->arena, sizeof *v);
	v->name = name;
	v->span = sp;
	v->index = l->n;
	VEC_PUSH(c, l->v, l->n, l->cap, v);
	int k = l->n - 1;
	l->nassign = arena_grow(c->arena, l->nassign, k, &l->capassign, sizeof(int));
	l->nassign[k] = 1;
	return v;
}

static void collect_target(Ctx *c, VarList *l, Expr *t)
{
	if (t->kind == E_NAME)
		add_var(c, l, t->name.id, t->span);
	else if (t->kind == E_TUPLE)
		for (int i = 0; i < t->tuple.n; i++)
			collect_target(c, l, t->tuple.elts[i]);
}

static void collect_body(Ctx *c, VarList *l, StmtList *b)
{
	for (int i = 0; i < b->n; i++) {
		Stmt *s = b->s[i];
		switch (s->kind) {
		case S_ASSIGN:
		case S_ANNASSIGN:
			for (int k = 0; k < s->assign.ntargets; k++)
				collect_target(c, l, s->assign.targets[k]);
			break;
		case S_AUGASSIGN:
			collect_target(c, l, s->aug.target);
			break;
		case S_IF:
		case S_WHILE:
			collect_body(c, l, &s->cond.body);
			collect_body(c, l, &s->cond.orelse);
			break;
		case S_FOR:
			if (s->loop.nunroll > 0) {
				for (int u = 0; u < s->loop.nunroll; u++) {
					collect_target(c, l, s->loop.utargets[u]);
					collect_body(c, l, &s->loop.ubodies[u]);
				}
			} else {
				collect_target(c, l, s->loop.target);
				collect_body(c, l, &s->loop.body);
			}
			collect_body(c, l, &s->loop.orelse);
			break;
		case S_DEF:
			if (s->nested.fn)
				add_var(c, l, s->nested.fn->name, s->span);
			break;
		default:
			break;
		}
	}
}

/* ------------------------------------------------------------- globals */

Const *scope_global(Scope *sc, const char *name, Span at)
{
	for (int i = 0; i < sc->nglobals; i++)
		if (strcmp(sc->globals[i].name, name) == 0)
			return sc->globals[i].cv;
	Const *cv = sema_captured(sc, name);
	if (!cv)
		cv = sema_resolve_global(sc->c, sc->func, name, at);
	GlobalEnt g = {name, cv};
	VEC_PUSH(sc->c, sc->globals, sc->nglobals, sc->capglobals, g);
	return cv;
}

/* The value of parameter p's default, typed where f was defined. */
Const *sema_default(Scope *sc, const PjFunc *f, Param *p)
{
	Scope tmp = {.c = sc->c, .S = sc->S, .func = f, .in_default = 1, .final = 1};
	Type *t = type_expr(&tmp, p->defval);
	if (p->defval->cval)
		return p->defval->cval;
	if (!ty_is_static(t))
		err_at(sc->c, p->defval->span, "give the parameter a constant default such as 0, 1.0, None or a dtype",
		       "the default value of parameter '%s' must be a constant", p->name);
	Const *v = new_const(sc->c, PJ_V_UNKNOWN, t);
	v->s = "default";
	return v;
}

/* -------------------------------------------------------------- specs */

static Spec *new_spec(Sema *S, FuncDef *def, const PjFunc *f, int is_kernel)
{
	Ctx *c = S->c;
	Spec *sp = arena_alloc(c->arena, sizeof *sp);
	sp->def = def;
	sp->func = f;
	sp->is_kernel = is_kernel;
	sp->id = S->nall;
	sp->state = ST_NEW;
	VEC_PUSH(c, S->all, S->nall, S->capall, sp);
	return sp;
}

static Scope *new_scope(Sema *S, Spec *sp, Scope *caller)
{
	Ctx *c = S->c;
	Scope *sc = arena_alloc(c->arena, sizeof *sc);
	sc->c = c;
	sc->S = S;
	sc->spec = sp;
	sc->func = sp->func;
	sc->caller = caller;
	sc->nest = caller ? caller->nest + 1 : 0;
	int n = sp->id;
	S->scopes = arena_grow(c->arena, S->scopes, n, &S->capscopes, sizeof(Scope *));
	S->scopes[n] = sc;
	return sc;
}

/* Makes the variables of sp: its parameters with their types, then every
 * other assigned name. */
static void bind_vars(Scope *sc, Type **ptypes)
{
	Ctx *c = sc->c;
	Spec *sp = sc->spec;
	FuncDef *def = sp->def;
	VarList l = {0};
	for (int i = 0; i < def->nparams; i++) {
		Param *p = &def->params[i];
		for (int k = 0; k < i; k++)
			if (strcmp(def->params[k].name, p->name) == 0)
				err_at(c, p->span, "give each parameter its own name", "duplicate argument '%s' in function definition",
				       p->name);
		Var *v = add_var(c, &l, p->name, p->span);
		v->is_param = 1;
		v->ty = ptypes[i];
		p->var = v;
	}
	sema_rewrite_loops(sc);
	sema_rewrite_unroll(sc);
	sema_rewrite_stars(sc);
	collect_body(c, &l, &def->body);
	sp->vars = l.v;
	sp->nvars = l.n;
	sp->var_index = l.index;
	sc->nassign = l.nassign;
	sc->vconst = arena_alloc(c->arena, sizeof(Const *) * (size_t)(l.n ? l.n : 1));
	sc->vearly = arena_alloc(c->arena, (size_t)(l.n ? l.n : 1));
	memset(sc->vearly, 0, (size_t)(l.n ? l.n : 1));
	sc->seen = arena_alloc(c->arena, (size_t)(l.n ? l.n : 1));
	sc->defd = arena_alloc(c->arena, (size_t)(l.n ? l.n : 1));
	for (int i = 0; i < def->nparams; i++) {
		Const *k = sp->argconsts ? sp->argconsts[i] : NULL;
		if (k && sc->nassign[i] == 1) {   /* specialised for a constant it never reassigns */
			sc->vconst[i] = k;
			sc->vearly[i] = 1;
		} else {
			sc->nassign[i]++;   /* a parameter is otherwise never a constant */
		}
	}
	sema_fill_webs(sc);
}

/* At the start of the body only the parameters hold values. */
static void start_pass(Scope *sc)
{
	Spec *sp = sc->spec;
	memset(sc->defd, 0, (size_t)(sp->nvars ? sp->nvars : 1));
	for (int i = 0; i < sp->def->nparams; i++)
		sc->defd[i] = 1;
}

static void infer(Scope *sc)
{
	Ctx *c = sc->c;
	Spec *sp = sc->spec;
	const Src *saved = c->src;
	c->src = sp->def->src;
	sp->state = ST_TYPING;
	for (int pass = 0;; pass++) {
		if (pass > 100 + 20 * sp->nvars)
			ICE(c, "type inference of '%s' does not converge", sp->def->name);
		sc->changed = 0;
		sc->ret = NULL;
		sc->nreturns = 0;
		start_pass(sc);
		type_body(sc, &sp->def->body);
		if (!sc->changed)
			break;
	}
	if (sc->open_dep && sc->open_dep != sc) {
		/* depends on a tentative type further up: typed again later */
		sp->ret = sc->declared_ret ? sc->declared_ret : sc->rec_ret;
		sp->state = ST_OPEN;
		c->src = saved;
		return;
	}
	for (int pass = 0;; pass++) {
		if (pass > 8)
			ICE(c, "the final typing pass of '%s' changes types", sp->def->name);
		sc->final = 1;
		sc->changed = 0;
		memset(sc->seen, 0, (size_t)(sp->nvars ? sp->nvars : 1));
		for (int i = 0; i < sp->def->nparams; i++)
			sc->seen[i] = 1;
		sc->ret = NULL;
		sc->nreturns = 0;
		sc->ncallees = 0;
		start_pass(sc);
		type_body(sc, &sp->def->body);
		if (!sc->changed)
			break;
	}
	/* variables never assigned in live code are dropped */
	int n = 0;
	sp->var_index = (NameMap){0};
	for (int i = 0; i < sp->nvars; i++) {
		Var *v = sp->vars[i];
		if (!v->ty && !v->is_param)
			continue;
		v->index = n;
		if (names_get(&sp->var_index, v->name) < 0)   /* a variable's first web */
			names_put(c, &sp->var_index, v->name, n);
		sp->vars[n++] = v;
	}
	sp->nvars = n;
	if (!sp->is_kernel)
		sp->ret = sc->declared_ret ? sc->declared_ret : sc->rec_ret ? sc->rec_ret : sc->ret ? sc->ret : ty_none();
	else
		sp->ret = ty_none();
	sp->state = sc->open_dep && sc->open_dep != sc ? ST_OPEN : ST_DONE;
	c->src = saved;
}

/* parse_function with the parser's nesting budget, not what typing has used */
static FuncDef *parse_fresh(Ctx *c, const PjFunc *f)
{
	int depth = c->depth;
	c->depth = 0;
	FuncDef *def = parse_function(c, sema_src(c, f), f->name);
	c->depth = depth;
	return def;
}

FuncDef *sema_template(Sema *S, const PjFunc *f)
{
	for (int i = 0; i < S->ntmpl; i++)
		if (same_pjfunc(S->tmpl[i].func, f))
			return S->tmpl[i].def;
	Template t = {f, parse_fresh(S->c, f)};
	VEC_PUSH(S->c, S->tmpl, S->ntmpl, S->captmpl, t);
	return t.def;
}

/* The scopes from `from` up to (not including) `to` depend on the
 * tentative return type of `to`. */
static void depend_on(Scope *from, Scope *to)
{
	for (Scope *x = from; x && x != to; x = x->caller)
		if (!x->open_dep || to->nest < x->open_dep->nest)
			x->open_dep = to;
}

/* A call of f with argtypes that recurses into a function being typed
 * further up: that specialisation, with its return type so far. */
static Spec *recursion(Scope *caller, const PjFunc *f, int nargs, Type **argtypes, Span at)
{
	Ctx *c = caller->c;
	for (Scope *s = caller; s; s = s->caller) {
		Spec *sp = s->spec;
		if (!sp || sp->is_kernel || sp->state != ST_TYPING || sp->nargs != nargs || !same_pjfunc(s->func, f))
			continue;
		int k = 0;
		while (k < nargs && ty_equal(sp->argtypes[k], argtypes[k]))
			k++;
		if (k < nargs)
			continue;
		for (Scope *x = caller; x != s; x = x->caller)
			x->spec->recursive = 1;
		sp->recursive = 1;
		Type *ret = s->declared_ret ? s->declared_ret : s->rec_ret;
		if (!s->declared_ret && !s->final)
			depend_on(caller, s);
		if (!ret && s->final)
			err_at(c, at, arena_printf(c->arena, "give %s() a base case that returns before it calls itself "
			                           "(if n < 2: return n), or declare its signature, as in "
			                           "@cuda.jit(\"int64(int64)\", device=True)", f->name),
			       "recursion without a way to type it: no return statement of '%s' gives its type "
			       "without calling '%s'%s", f->name, f->name, s == caller ? "" : " again");
		sp->ret = ret;
		return sp;
	}
	return NULL;
}

/* The declared signature of f that a call with argtypes uses (see
 * overload.c); none is an error at the call that lists them all. */
static int pick_signature(Ctx *c, const PjFunc *f, int nargs, Type **argtypes, Span at)
{
	int n = f->nsigs, *np = arena_alloc(c->arena, sizeof(int) * (size_t)n);
	int *best = arena_alloc(c->arena, sizeof(int) * (size_t)n);
	Type ***params = arena_alloc(c->arena, sizeof(Type **) * (size_t)n);
	for (int i = 0; i < n; i++)
		ty_parse_sig(c, f->sigs[i], &np[i], &params[i]);
	if (sema_pick_signature(n, np, params, nargs, argtypes, best))
		return best[0];
	const char *args = "";
	for (int i = 0; i < nargs; i++)
		args = arena_printf(c->arena, "%s%s%s", args, i ? ", " : "", ty_str_of(c, argtypes[i]));
	if (n == 1) {
		const char *hint = arena_printf(c->arena, "the signature of %s is \"%s\"", f->name, f->sigs[0]);
		if (np[0] != nargs)
			err_at(c, at, hint, "%s() takes %d argument%s (signature \"%s\") but %d were given", f->name, np[0],
			       np[0] == 1 ? "" : "s", f->sigs[0], nargs);
		for (int i = 0; i < nargs; i++)
			if (ty_conversion(argtypes[i], params[0][i]) == CONV_NONE)
				err_at(c, at, hint, "argument %d of %s() is %s, which does not convert to %s", i + 1, f->name,
				       ty_str_of(c, argtypes[i]), ty_str_of(c, params[0][i]));
	}
	const char *list = "";
	for (int i = 0; i < n; i++)
		list = arena_printf(c->arena, "%s%s\"%s\"", list, i == 0 ? "" : i == n - 1 ? " and " : ", ", f->sigs[i]);
	err_at(c, at, arena_printf(c->arena, "%s() is declared for %s; pass arguments that convert to one of them, "
	                           "or declare a signature for these", f->name, list),
	       "Invalid use of type %s() with parameters (%s): no declared signature of %s() takes them", f->name,
	       args, f->name);
}

static int same_const(const Const *a, const Const *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || !ty_equal(a->ty, b->ty))
		return 0;
	if (a->kind == PJ_V_TUPLE) {
		if (a->n != b->n)
			return 0;
		for (int i = 0; i < a->n; i++)
			if (!same_const(&a->elts[i], &b->elts[i]))
				return 0;
		return 1;
	}
	if (a->kind == PJ_V_STR)
		return a->s && b->s && strcmp(a->s, b->s) == 0;
	return a->i == b->i;
}

/* A finished specialisation of f for argtypes and argconsts (NULL: none),
 * or one whose plain typing failed (ST_FAILED), or NULL. */
static Spec *find_spec(Sema *S, const PjFunc *f, int nargs, Type **argtypes, Const **argconsts, int state)
{
	for (int i = 0; i < S->nall; i++) {
		Spec *sp = S->all[i];
		if (sp->state != state || sp->is_kernel || sp->nargs != nargs || !same_pjfunc(sp->func, f) ||
		    !sp->argconsts != !argconsts)
			continue;
		int k = 0;
		while (k < nargs && ty_equal(sp->argtypes[k], argtypes[k]) &&
		       (!argconsts || same_const(sp->argconsts[k], argconsts[k])))
			k++;
		if (k == nargs)
			return sp;
	}
	return NULL;
}

static Spec *new_specialisation(Scope *caller, const PjFunc *f, int nargs, Type **argtypes, Const **argconsts,
                                Type *ret, Span at)
{
	Sema *S = caller->S;
	Ctx *c = S->c;
	if (caller->nest >= 32)
		err_at(c, at, "call fewer levels of device functions", "device function calls nested too deeply");
	FuncDef *def = parse_fresh(c, f);
	if (def->has_varargs)
		err_at(c, def->span, "give the device function a fixed list of parameters",
		       "device functions with *args or **kwargs are not supported");
	if (def->nparams != nargs)
		ICE(c, "call of %s() with %d arguments for %d parameters", f->name, nargs, def->nparams);
	Spec *sp = new_spec(S, def, f, 0);
	sp->nargs = nargs;
	sp->argtypes = argtypes;
	sp->argconsts = argconsts;
	Scope *sc = new_scope(S, sp, caller);
	sc->declared_ret = ret;
	sc->call_at = at;
	bind_vars(sc, argtypes);
	infer(sc);
	if (sp->state == ST_OPEN && sc->open_dep)
		depend_on(caller, sc->open_dep);
	return sp;
}

/* The plain specialisation of f for argtypes, or NULL where typing it
 * fails with a user error (then marked ST_FAILED); internal errors go on
 * unwinding. */
static Spec *try_specialisation(Scope *caller, const PjFunc *f, int nargs, Type **argtypes, Span at)
{
	Ctx *c = caller->c;
	jmp_buf here, *volatile outer = c->jmp;
	const Src *volatile src = c->src;
	volatile int depth = c->depth, nall = caller->S->nall;
	c->jmp = &here;
	if (setjmp(here)) {
		c->jmp = outer;
		c->src = src;
		c->depth = depth;
		if (c->diag.kind != PJ_ERR_USER)
			longjmp(*c->jmp, 1);
		if (caller->S->nall > nall)
			caller->S->all[nall]->state = ST_FAILED;
		memset(&c->diag, 0, sizeof c->diag);
		return NULL;
	}
	Spec *sp = new_specialisation(caller, f, nargs, argtypes, NULL, NULL, at);
	c->jmp = outer;
	return sp;
}

Spec *sema_specialise(Scope *caller, const PjFunc *f, int nargs, Type **argtypes, Const **argconsts, Span at)
{
	Sema *S = caller->S;
	Ctx *c = S->c;
	Type *ret = NULL;
	if (f->nsigs) {
		int k = pick_signature(c, f, nargs, argtypes, at);
		ret = ty_parse_sig(c, f->sigs[k], &nargs, &argtypes);
		argconsts = NULL;
	}
	Spec *rec = recursion(caller, f, nargs, argtypes, at);
	if (rec)
		return rec;
	Spec *sp = find_spec(S, f, nargs, argtypes, NULL, ST_DONE);
	if (sp)
		return sp;
	int any = 0;
	for (int i = 0; argconsts && i < nargs; i++)
		any |= argconsts[i] != NULL;
	if (!any)
		return new_specialisation(caller, f, nargs, argtypes, NULL, ret, at);
	if ((sp = find_spec(S, f, nargs, argtypes, argconsts, ST_DONE)))
		return sp;
	if (!find_spec(S, f, nargs, argtypes, NULL, ST_FAILED) && (sp = try_specialisation(caller, f, nargs, argtypes, at)))
		return sp;
	return new_specialisation(caller, f, nargs, argtypes, argconsts, ret, at);
}

/* Ctx.specs: the kernel, then the specialisations its final passes call. */
static void fill_specs(Sema *S, Spec *kernel)
{
	Ctx *c = S->c;
	char *seen = arena_alloc(c->arena, (size_t)S->nall + 1);
	c->specs = NULL;
	c->nspec = c->capspec = 0;
	VEC_PUSH(c, c->specs, c->nspec, c->capspec, kernel);
	seen[kernel->id] = 1;
	for (int i = 0; i < c->nspec; i++) {
		Scope *sc = S->scopes[c->specs[i]->id];
		for (int k = 0; k < sc->ncallees; k++) {
			Spec *callee = sc->callees[k];
			if (!seen[callee->id]) {
				seen[callee->id] = 1;
				VEC_PUSH(c, c->specs, c->nspec, c->capspec, callee);
			}
		}
	}
	for (int i = 0; i < c->nspec; i++)
		c->specs[i]->id = i;
}

Spec *sema_kernel(Ctx *c, const PjFunc *kernel, int nargs, Type **argtypes)
{
	Sema S = {.c = c};
	Src *src = sema_src(c, kernel);
	c->src = src;
	FuncDef *def = parse_function(c, src, kernel->name);
	if ((c->dump & DUMP_AST) && c->dumpf)
		ast_dump(c->dumpf, def);
	if (def->has_varargs)
		err_at(c, def->span, "give the kernel a fixed list of parameters",
		       "kernels with **kwargs or keyword-only parameters are not supported");
	if (def->star)
		err_at(c, def->span, "launch a kernel with a fixed list of parameters; one with *args can be called "
		       "from another kernel",
		       "a kernel with *args cannot be launched");
	Spec *sp = new_spec(&S, def, kernel, !(c->opt && c->opt->target_cpu));   /* a CPU function returns */
	Scope *sc = new_scope(&S, sp, NULL);
	int np = def->nparams, required = 0;
	for (int i = 0; i < np; i++)
		if (!def->params[i].defval)
			required = i + 1;
	if (nargs > np || nargs < required) {
		if (required == np)
			err_at(c, def->span, "the signature gives one type per parameter of the kernel",
			       "kernel '%s' takes %d argument%s, but %d %s given", def->name, np, np == 1 ? "" : "s", nargs,
			       nargs == 1 ? "was" : "were");
		err_at(c, def->span, "the signature gives one type per parameter of the kernel",
		       "kernel '%s' takes %d to %d arguments, but %d %s given", def->name, required, np, nargs,
		       nargs == 1 ? "was" : "were");
	}
	Type **ptypes = arena_alloc(c->arena, sizeof(Type *) * (size_t)(np ? np : 1));
	for (int i = 0; i < np; i++) {
		if (i < nargs) {
			ptypes[i] = argtypes[i];
		} else {
			Const *d = sema_default(sc, kernel, &def->params[i]);
			ptypes[i] = d->ty;
		}
	}
	sp->nargs = nargs;
	sp->argtypes = ptypes;
	bind_vars(sc, ptypes);
	infer(sc);
	fill_specs(&S, sp);
	c->kernel = sp;
	c->src = src;
	return sp;
}

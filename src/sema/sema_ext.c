/*
 * sema_ext.c - calls of overloaded functions: Numba's extension API
 * (numba.cuda.extending's @overload, @overload_method, @overload_attribute).
 *
 * An overloaded function is a PjFunc without source whose choose()
 * (the glue's) runs the user's typing functions for the argument types of
 * a call and returns the implementation they pick, a device function; the
 * call is then typed, specialised and lowered as a call of that function
 * (sema_device_call).  An int or bool constant argument is spelled as
 * Numba's literal type; the chooser decides which typing functions see
 * it so (prefer_literal).  Each pass goes back to the call as written
 * (call.src_*): keyword arguments and defaults are placed against the
 * implementation's parameters, and the implementation chosen may change
 * as the arguments' types widen.
 *
 * A method x.NAME(args) of a number, array, tuple or record is the
 * overloaded function the resolver gives for ".m.NAME", called as
 * NAME(x, args); an attribute x.NAME that kernels do not know otherwise is
 * ".a.NAME" called as NAME(x).  Both rewrite the expression once, into a
 * call of an E_NAME "<overload NAME>" that carries the function.
 */
#include <string.h>

#include "sema.h"

/* An argument's type; an int or bool constant as Numba's literal type,
 * "Literal[int](5)", "Literal[bool](True)". */
static const char *one_arg(Ctx *c, const Expr *a)
{
	if (sema_literal_arg(a) && a->cval->kind == PJ_V_INT && a->ty->sk == SK_I64)
		return arena_printf(c->arena, "Literal[int](%lld)", (long long)a->cval->i);
	if (sema_literal_arg(a) && a->cval->kind == PJ_V_BOOL)
		return a->cval->i ? "Literal[bool](True)" : "Literal[bool](False)";
	return ty_str_of(c, a->ty);
}

/* "int64, array(float32, 1d, C), z=float64" */
static const char *arg_text(Ctx *c, const Expr *e)
{
	const char *s = "";
	for (int i = 0; i < e->call.nargs; i++)
		s = arena_printf(c->arena, "%s%s%s", s, i ? ", " : "", one_arg(c, e->call.args[i]));
	for (int k = 0; k < e->call.nkw; k++)
		s = arena_printf(c->arena, "%s%s%s=%s", s, e->call.nargs + k ? ", " : "", e->call.kwnames[k],
		                 one_arg(c, e->call.kwargs[k]));
	return s;
}

static void keep_shape(Ctx *c, Expr *e)
{
	int n = e->call.nargs, m = e->call.nkw;
	e->call.src_nargs = n;
	e->call.src_nkw = m;
	e->call.src_args = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
	e->call.src_kwargs = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(m ? m : 1));
	e->call.src_kwnames = arena_alloc(c->arena, sizeof(char *) * (size_t)(m ? m : 1));
	if (n)
		memcpy(e->call.src_args, e->call.args, sizeof(Expr *) * (size_t)n);
	if (m) {
		memcpy(e->call.src_kwargs, e->call.kwargs, sizeof(Expr *) * (size_t)m);
		memcpy(e->call.src_kwnames, e->call.kwnames, sizeof(char *) * (size_t)m);
	}
	e->call.shaped = 1;
}

static void restore_shape(Ctx *c, Expr *e)
{
	int n = e->call.src_nargs, m = e->call.src_nkw;
	e->call.nargs = n;
	e->call.nkw = m;
	e->call.args = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
	e->call.kwargs = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(m ? m : 1));
	e->call.kwnames = arena_alloc(c->arena, sizeof(char *) * (size_t)(m ? m : 1));
	if (n)
		memcpy(e->call.args, e->call.src_args, sizeof(Expr *) * (size_t)n);
	if (m) {
		memcpy(e->call.kwargs, e->call.src_kwargs, sizeof(Expr *) * (size_t)m);
		memcpy(e->call.kwnames, e->call.src_kwnames, sizeof(char *) * (size_t)m);
	}
	e->call.star_packed = 0;
}

Type *sema_overload_call(Scope *sc, Expr *e, const PjFunc *f)
{
	Ctx *c = sc->c;
	if (e->call.shaped)
		restore_shape(c, e);
	else
		keep_shape(c, e);
	if (!sema_type_args(sc, e)) {
		e->ty = NULL;
		e->cval = NULL;
		return NULL;
	}
	const char *args = arg_text(c, e), *why = NULL;
	const PjFunc *impl = f->choose(f, args, (PjArena *)c->arena, &why);
	if (!impl)
		err_at(c, e->span,
		       why ? why : "an @overload's typing function returns the implementation for the argument types "
		                   "it accepts, and None for those it does not",
		       "no implementation of %s() for the argument types (%s)", f->name, args);
	if (!impl->source)
		ICE(c, "the implementation chosen for %s() has no source", f->name);
	return sema_device_call(sc, e, impl);
}

static Expr *overload_name(Ctx *c, Span sp, const PjFunc *f)
{
	Expr *n = arena_alloc(c->arena, sizeof *n);
	n->kind = E_NAME;
	n->span = sp;
	n->name.id = arena_printf(c->arena, "<overload %s>", f->name);
	n->ty = ty_func(c, f);
	n->cval = new_const(c, PJ_V_FUNC, n->ty);
	n->cval->s = f->name;
	return n;
}

static int has_members(const Type *t)
{
	return t->kind == TY_SCALAR || t->kind == TY_ARRAY || t->kind == TY_TUPLE || t->kind == TY_RECORD;
}

int sema_method_overload(Scope *sc, Expr *e, Type *ot)
{
	Ctx *c = sc->c;
	Expr *fn = e->call.fn;
	if (!has_members(ot))
		return 0;
	const PjFunc *f = sema_resolve_member_overload(c, sc->func, 'm', fn->attr.name);
	if (!f)
		return 0;
	int n = e->call.nargs;
	Expr **args = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(n + 1));
	args[0] = fn->attr.obj;
	for (int i = 0; i < n; i++)
		args[i + 1] = e->call.args[i];
	e->call.args = args;
	e->call.nargs = n + 1;
	e->call.fn = overload_name(c, fn->span, f);
	return 1;
}

int sema_attr_overload(Scope *sc, Expr *e, Type *ot)
{
	Ctx *c = sc->c;
	if (!has_members(ot))
		return 0;
	const PjFunc *f = sema_resolve_member_overload(c, sc->func, 'a', e->attr.name);
	if (!f)
		return 0;
	Expr *obj = e->attr.obj;
	Span sp = e->attr.name_span.src ? e->attr.name_span : e->span;
	memset(&e->call, 0, sizeof e->call);
	e->kind = E_CALL;
	e->call.fn = overload_name(c, sp, f);
	e->call.args = arena_alloc(c->arena, sizeof(Expr *));
	e->call.args[0] = obj;
	e->call.nargs = 1;
	return 1;
}

/*
 * sema_ret.c - the return type of a device function on its own.
 *
 * The array-function layer (ufuncs, @jit(target='gpu'), reductions) calls
 * a user's scalar function from a kernel it generates, and must know the
 * function's return type before it can allocate the outputs that kernel
 * writes.  This types the function exactly as a kernel's call would: a
 * specialisation for the argument types, made by sema_specialise from an
 * empty top-level scope (no caller, so no recursion through a kernel),
 * with the same unification of return statements.  Nothing is lowered.
 */
#include "sema.h"

/* f specialised for these argument types, its parameters counted first */
static Spec *specialise(Ctx *c, const PjFunc *f, int nargs, Type **argtypes)
{
	Sema S = {.c = c};
	Scope top = {.c = c, .S = &S};
	c->src = sema_src(c, f);
	FuncDef *def = sema_template(&S, f);
	if (def->nparams != nargs)
		err_at(c, def->span, "give one argument per parameter of the function",
		       "%s() takes %d argument%s, but %d argument type%s %s given", f->name, def->nparams,
		       def->nparams == 1 ? "" : "s", nargs, nargs == 1 ? "" : "s", nargs == 1 ? "was" : "were");
	return sema_specialise(&top, f, nargs, argtypes, NULL, def->span);
}

Spec *sema_device(Ctx *c, const PjFunc *f, int nargs, Type **argtypes)
{
	Spec *sp = specialise(c, f, nargs, argtypes);
	c->kernel = sp;
	return sp;
}

Type *sema_return_type(Ctx *c, const PjFunc *f, int nargs, Type **argtypes)
{
	return specialise(c, f, nargs, argtypes)->ret;
}

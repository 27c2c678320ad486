/*
 * sema_cachehint.c - typing of the loads and stores with a cache operator,
 * with Numba's rules:
 *
 *   ldca, ldcg, ldcs, ldlu, ldcv(array, i)   the element type
 *   stcg, stcs, stwb, stwt(array, i, value)  None; value converts to the
 *                                            element type
 *
 * array is a global array (an argument) of integers or floats (float16
 * too); i is an integer for a 1d array, else a tuple of one integer per
 * axis.  Negative indices wrap, as in a[i].  It may also be a pointer
 * (CPointer) to such numbers, indexed by one integer as p[i] (no wrap),
 * its memory taken to be global.  A shared, local or constant
 * array is refused: the instructions read and write global memory.
 * Lowering (lower_array.c) makes an O_LOAD or O_STORE whose aux carries
 * the operator (CO_*).
 */
#include "sema.h"

static const char *tstr(Scope *sc, const Type *t)
{
	return ty_str_of(sc->c, t);
}

static const char *bare(int in)
{
	return intrin_name[in] + 5;   /* "cuda.ldcs" -> "ldcs" */
}

static void check_index(Scope *sc, Expr *e, int in, Type *at)
{
	Ctx *c = sc->c;
	Expr *ix = e->call.args[1];
	Type *t = ix->ty;
	const char *hint = at->ndim == 1 ? "index a 1d array with an integer, such as i"
	                                 : arena_printf(c->arena, "index a %dd array with a tuple of %d integers, such as "
	                                                          "(i, j%s)", at->ndim, at->ndim, at->ndim > 2 ? ", ..." : "");
	if (ty_is_int(t)) {
		if (at->ndim != 1)
			err_at(c, ix->span, hint, "Expected %d indices, got a scalar: %s() takes one index per axis of %s",
			       at->ndim, intrin_name[in], tstr(sc, at));
		return;
	}
	if (t->kind == TY_TUPLE) {
		int ints = 1;
		for (int k = 0; k < t->n; k++)
			ints &= ty_is_int(t->elts[k]);
		if (ints) {
			if (t->n != at->ndim)
				err_at(c, ix->span, hint, "Expected %d indices, got %d: %s() takes one index per axis of %s",
				       at->ndim, t->n, intrin_name[in], tstr(sc, at));
			return;
		}
	}
	err_at(c, ix->span, hint, "%s is not a valid index of %s(): it takes integers, one per axis", tstr(sc, t),
	       intrin_name[in]);
}

/* The type of a hinted load (the element el) or store (None, its value
 * checked to convert to el, stored into `what`). */
static Type *hint_type(Scope *sc, Expr *e, int store, Type *el, const char *what)
{
	if (store)
		storable(sc, el, e->call.args[2], what);
	e->ty = store ? ty_none() : el;
	e->cval = NULL;
	return e->ty;
}

/* ldcs(p, i) and stcs(p, i, value) of a pointer p: p[i] (an integer i,
 * not wrapped), which must be in global memory. */
static Type *pointer_hint(Scope *sc, Expr *e, int in, int store)
{
	Ctx *c = sc->c;
	Type *pt = e->call.args[0]->ty, *el = pt->elem;
	if (!(ty_is_int(el) || ty_is_float(el)))
		err_at(c, e->call.args[0]->span, "use a pointer to int8 ... uint64, float16, float32 or float64",
		       "%s requires a pointer to integers or floats, got %s", bare(in), tstr(sc, pt));
	Expr *ix = e->call.args[1];
	if (!ty_is_int(ix->ty))
		err_at(c, ix->span, "index a pointer with an integer, such as p[i]",
		       "%s is not a valid index of %s(): a pointer takes one integer", tstr(sc, ix->ty), intrin_name[in]);
	return hint_type(sc, e, store, el, arena_printf(c->arena, "a pointer to %s", tstr(sc, el)));
}

Type *type_cache_hint(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	int store = in >= IN_STCG;
	int n = store ? 3 : 2;
	const char *use = store ? arena_printf(c->arena, "call it as %s(array, index, value)", intrin_name[in])
	                        : arena_printf(c->arena, "call it as %s(array, index)", intrin_name[in]);
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, use, "%s() does not take keyword arguments in kernels", intrin_name[in]);
	if (e->call.nargs != n)
		err_at(c, e->span, use, "%s() takes %d argument%s (%d given)", intrin_name[in], n, "s", e->call.nargs);
	Expr *ary = e->call.args[0];
	Type *at = ary->ty;
	if (at->kind == TY_POINTER)
		return pointer_hint(sc, e, in, store);
	if (at->kind != TY_ARRAY)
		err_at(c, ary->span, "pass an array argument of the kernel", "%s operates on arrays or pointers, not %s",
		       bare(in), tstr(sc, at));
	Type *el = at->elem;
	if (!(ty_is_int(el) || ty_is_float(el)))
		err_at(c, ary->span, "use an array of int8 ... uint64, float16, float32 or float64",
		       "%s requires array of integer or float type, got %s", bare(in), tstr(sc, el));
	if (at->space != SP_GLOBAL)
		err_at(c, ary->span, "use the array in global memory (a kernel argument) or load and store it plainly",
		       "%s() %s global memory, and this array is in %s memory", intrin_name[in], store ? "writes" : "reads",
		       at->space == SP_SHARED ? "shared" : at->space == SP_LOCAL ? "local" : "constant");
	if (store && at->readonly)
		err_at(c, ary->span, "cache hints for stores need a writable array", "%s() cannot change a read-only array",
		       intrin_name[in]);
	check_index(sc, e, in, at);
	return hint_type(sc, e, store, el, arena_printf(c->arena, "an array of %s", tstr(sc, el)));
}

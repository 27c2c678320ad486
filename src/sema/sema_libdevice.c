/*
 * sema_libdevice.c - typing of numba.cuda.libdevice's functions
 * (IN_LD_*): each has the one signature numba-cuda declares for it
 * (libdevice_tab.h).  Every argument is a real number or a bool,
 * converted to the declared type as Numba converts it (a float64 passed
 * to sinf becomes a float32, a float passed to popc an int32); the
 * result is the declared type, or a tuple of them for the functions whose
 * libdevice form writes through pointers (sincos, frexp, modf, remquo).
 */
#include <string.h>

#include "sema.h"

static const struct {
	const char *ret, *args;
} sigs[] = {
#define SIG(X, name, r, a) {r, a},
	LIBDEVICE(SIG, X)
#undef SIG
};

static Type *letter_type(char t)
{
	switch (t) {
	case 'f': return ty_scalar(SK_F32);
	case 'd': return ty_scalar(SK_F64);
	case 'i': return ty_scalar(SK_I32);
	case 'l': return ty_scalar(SK_I64);
	default: return ty_scalar(SK_I16);
	}
}

static const char *letter_name(char t)
{
	return scalar_info[letter_type(t)->sk].name;
}

/* the declared argument types of a libdevice function: "float32, int32" */
const char *libdevice_params(Ctx *c, int in)
{
	const char *a = sigs[in - IN_LD_BEGIN - 1].args, *s = "";
	for (int i = 0; a[i]; i++)
		s = arena_printf(c->arena, "%s%s%s", s, i ? ", " : "", letter_name(a[i]));
	return s;
}

/* The result type of libdevice function in (a scalar or a tuple). */
Type *libdevice_result(Ctx *c, int in)
{
	const char *r = sigs[in - IN_LD_BEGIN - 1].ret;
	int n = (int)strlen(r);
	if (n == 1)
		return letter_type(r[0]);
	Type **el = arena_alloc(c->arena, sizeof(Type *) * (size_t)n);
	for (int i = 0; i < n; i++)
		el[i] = letter_type(r[i]);
	return ty_tuple(c, n, el);
}

/* The declared type of argument i. */
Type *libdevice_arg(int in, int i)
{
	return letter_type(sigs[in - IN_LD_BEGIN - 1].args[i]);
}

Type *type_libdevice(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	const char *name = intrin_name[in];
	int n = (int)strlen(sigs[in - IN_LD_BEGIN - 1].args);
	const char *hint = arena_printf(c->arena, "%s() takes (%s)", name, libdevice_params(c, in));
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, hint, "%s() does not take keyword arguments", name);
	if (e->call.nargs != n)
		err_at(c, e->span, hint, "%s() takes %d argument%s (%d given)", name, n, n == 1 ? "" : "s",
		       e->call.nargs);
	for (int i = 0; i < n; i++) {
		Expr *a = e->call.args[i];
		if (!a->ty || a->ty->kind != TY_SCALAR || !ty_is_number(a->ty) || ty_is_complex(a->ty))
			err_at(c, a->span, hint, "%s() does not accept a %s argument", name, ty_str_of(c, a->ty));
	}
	e->ty = libdevice_result(c, in);
	e->cval = NULL;
	return e->ty;
}

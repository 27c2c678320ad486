/*
 * sema_vector.c - Numba's CUDA vector types: cuda.float32x3, cuda.int8x4,
 * ... and their C aliases (cuda.float3, cuda.uchar4, cuda.longlong2; the
 * lookup is in intrin.c).  A vector is a tuple type with the vector's name
 * (Type.name), so it passes to and returns from device functions as a
 * tuple does, but it equals and unifies only with its own type, prints as
 * its name, and has the attributes .x .y .z .w.
 *
 *   cuda.float32x3(a, b, c)       each argument converted to float32
 *   cuda.float32x3(v2, c)         a vector of the same base type gives
 *   cuda.float32x3(a, v2)         its elements in order (Numba's
 *   cuda.float32x3(v3)            overloads: any mix, n elements in all)
 */
#include <string.h>

#include "sema.h"

static const ScalarKind vector_sk[10] = {
	SK_I8, SK_I16, SK_I32, SK_I64, SK_U8, SK_U16, SK_U32, SK_U64, SK_F32, SK_F64,
};

Type *ty_vector(Ctx *c, ScalarKind sk, int n)
{
	Type *t = ty_unituple(c, ty_scalar(sk), n);
	t->name = arena_printf(c->arena, "%sx%d", scalar_info[sk].name, n);
	return t;
}

Type *ty_vector_of(Ctx *c, int in)
{
	int i = in - IN_VEC_BEGIN - 1;
	return ty_vector(c, vector_sk[i % 10], i / 10 + 1);
}

static int is_vector(const Type *t)
{
	return t && t->kind == TY_TUPLE && t->name;
}

Type *type_vector_ctor(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	Type *vt = ty_vector_of(c, in);
	Type *base = vt->elts[0];
	const char *name = intrin_name[in];
	const char *hint = arena_printf(c->arena, "build a %s from %d %s values or %s vectors (%d elements in all)",
	                                vt->name, vt->n, scalar_info[base->sk].name, scalar_info[base->sk].name, vt->n);
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, hint, "%s() does not take keyword arguments", name);
	int total = 0;
	for (int i = 0; i < e->call.nargs; i++) {
		Expr *a = e->call.args[i];
		Type *t = a->ty;
		if (is_vector(t) && ty_equal(t->elts[0], base))
			total += t->n;
		else if (t && t->kind == TY_SCALAR && ty_is_number(t) && !ty_is_complex(t))
			total++;
		else
			err_at(c, a->span, hint, "%s() does not accept a %s argument", name, ty_str_of(c, t));
	}
	if (total != vt->n)
		err_at(c, e->span, hint, "%s() takes %d element%s, %d given", name, vt->n, vt->n == 1 ? "" : "s", total);
	e->ty = vt;
	e->cval = NULL;
	return vt;
}

/* v.x, v.y, v.z, v.w */
Type *type_vector_attr(Scope *sc, Expr *e, Type *vt)
{
	static const char names[] = "xyzw";
	const char *a = e->attr.name;
	const char *p = a[0] && !a[1] ? strchr(names, a[0]) : NULL;
	if (!p || p - names >= vt->n) {
		Span sp = e->attr.name_span.src ? e->attr.name_span : e->span;
		err_at(sc->c, sp, arena_printf(sc->c->arena, "a %s has the attributes %.*s", vt->name, 3 * vt->n - 2,
		                               "x, y, z, w"),
		       "%s has no attribute '%s'", vt->name, a);
	}
	e->ty = vt->elts[p - names];
	e->cval = NULL;
	return e->ty;
}

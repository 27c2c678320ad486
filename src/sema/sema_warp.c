/*
 * sema_warp.c - typing of the cuda intrinsics that work across threads
 * (reducing barriers, warp barriers, fences, shuffles, votes, matches,
 * the active mask) and of the bit and float intrinsics (popc, brev, clz,
 * ffs, fma, cbrt, selp, nanosleep), with Numba's rules:
 *
 *   syncthreads_count/and/or(predicate)   int32; predicate an integer
 *                                          (or bool)
 *   syncwarp(mask=0xffffffff)             None
 *   threadfence(), _block(), _system()    None
 *   shfl_sync(mask, value, src_lane)      the value's type, which must be
 *   shfl_up_sync(mask, value, delta)      int32, int64, float32 or
 *   shfl_down_sync(mask, value, delta)    float64; mask and lane integers
 *   shfl_xor_sync(mask, value, lane_mask)
 *   all_sync, any_sync, eq_sync(mask, predicate)   bool
 *   ballot_sync(mask, predicate)          int32
 *   match_any_sync(mask, value)           int32; value a 32- or 64-bit
 *   match_all_sync(mask, value)           (int32, bool)    int or float
 *   activemask(), lanemask_lt()           uint32
 *   popc(x), clz(x)                       x's integer type (also x.bit_count())
 *   ffs(x)                                uint32
 *   brev(x)                               uint32 (x of up to 32 bits) or
 *                                          uint64
 *   fma(a, b, c)                          float32 when all three are
 *                                          float32, else float64
 *   cbrt(x)                               float32 for float32, else float64
 *   selp(pred, a, b)                      a's type; a and b of the same
 *                                          type among float64, float32,
 *                                          int16..uint64
 *   nanosleep(ns)                         None; ns an integer
 *
 * The warp functions take their arguments by position or by Numba's
 * parameter names; keywords are moved into place, so lowering finds
 * call.args in parameter order (syncwarp() may have none).  The scalar
 * intrinsics take positional arguments only, as in Numba.
 */
#include <string.h>

#include "sema.h"

static Type *set(Expr *e, Type *t)
{
	e->ty = t;
	e->cval = NULL;
	return t;
}

static const char *tstr(Scope *sc, const Type *t)
{
	return ty_str_of(sc->c, t);
}

static int is_sk(const Type *t, ScalarKind sk)
{
	return t && t->kind == TY_SCALAR && t->sk == sk;
}

static int int_bits(const Type *t)
{
	return ty_is_int(t) ? scalar_info[t->sk].size * 8 : 0;
}

/* Numba's parameter names; NULL: positional only. */
static const char *const *param_names(int in, int *n)
{
	static const char *const pred[] = {"predicate"}, *const mask[] = {"mask"};
	static const char *const shfl[] = {"mask", "value", "src_lane"};
	static const char *const shfl_d[] = {"mask", "value", "delta"};
	static const char *const shfl_x[] = {"mask", "value", "lane_mask"};
	static const char *const vote[] = {"mask", "predicate"}, *const match[] = {"mask", "value"};
	static const char *const ns[] = {"ns"};
	switch (in) {
	case IN_SYNCTHREADS_COUNT: case IN_SYNCTHREADS_AND: case IN_SYNCTHREADS_OR:
		*n = 1;
		return pred;
	case IN_SYNCWARP:
		*n = 1;
		return mask;
	case IN_SHFL_SYNC:
		*n = 3;
		return shfl;
	case IN_SHFL_UP_SYNC: case IN_SHFL_DOWN_SYNC:
		*n = 3;
		return shfl_d;
	case IN_SHFL_XOR_SYNC:
		*n = 3;
		return shfl_x;
	case IN_ALL_SYNC: case IN_ANY_SYNC: case IN_EQ_SYNC: case IN_BALLOT_SYNC:
		*n = 2;
		return vote;
	case IN_MATCH_ANY_SYNC: case IN_MATCH_ALL_SYNC:
		*n = 2;
		return match;
	case IN_NANOSLEEP:
		*n = 1;
		return ns;
	case IN_THREADFENCE: case IN_THREADFENCE_BLOCK: case IN_THREADFENCE_SYSTEM:
	case IN_ACTIVEMASK: case IN_LANEMASK_LT:
		*n = 0;
		return NULL;
	case IN_POPC: case IN_BREV: case IN_CLZ: case IN_FFS: case IN_CBRT:
		*n = 1;
		return NULL;
	case IN_FMA: case IN_SELP:
		*n = 3;
		return NULL;
	default:
		*n = 0;
		return NULL;
	}
}

/* "cuda.shfl_sync(mask, value, src_lane)" */
static const char *usage(Scope *sc, int in)
{
	static const char *const x[] = {"x"}, *const abc[] = {"a", "b", "c"}, *const sel[] = {"pred", "a", "b"};
	int n;
	const char *const *names = param_names(in, &n);
	if (!names)
		names = in == IN_FMA ? abc : in == IN_SELP ? sel : x;
	const char *s = "";
	for (int i = 0; i < n; i++)
		s = arena_printf(sc->c->arena, "%s%s%s", s, i ? ", " : "", names[i]);
	return arena_printf(sc->c->arena, "call it as %s(%s)", intrin_name[in], s);
}

/* Checks the number of arguments and moves keywords into place. */
static void place_args(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	int n;
	const char *const *names = param_names(in, &n);
	int required = in == IN_SYNCWARP ? 0 : n;
	if (e->call.nkw && !names)
		err_at(c, e->call.kwargs[0]->span, usage(sc, in), "%s() does not take keyword arguments",
		       intrin_name[in]);
	if (e->call.nargs > n)
		err_at(c, e->span, usage(sc, in), "%s() takes %s%d argument%s (%d given)", intrin_name[in],
		       required < n ? "at most " : "", n, n == 1 ? "" : "s", e->call.nargs);
	Expr **args = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
	for (int i = 0; i < e->call.nargs; i++)
		args[i] = e->call.args[i];
	for (int k = 0; k < e->call.nkw; k++) {
		int j = -1;
		for (int i = 0; i < n; i++)
			if (strcmp(names[i], e->call.kwnames[k]) == 0)
				j = i;
		if (j < 0)
			err_at(c, e->call.kwargs[k]->span, usage(sc, in), "%s() got an unexpected keyword argument '%s'",
			       intrin_name[in], e->call.kwnames[k]);
		if (args[j])
			err_at(c, e->call.kwargs[k]->span, usage(sc, in), "%s() got multiple values for argument '%s'",
			       intrin_name[in], names[j]);
		args[j] = e->call.kwargs[k];
	}
	int last = 0;
	for (int i = 0; i < n; i++)
		if (args[i])
			last = i + 1;
	for (int i = 0; i < (last > required ? last : required); i++)
		if (!args[i]) {
			if (n == 1 || !names)
				err_at(c, e->span, usage(sc, in), "%s() takes %d argument%s (%d given)", intrin_name[in], n,
				       n == 1 ? "" : "s", e->call.nargs + e->call.nkw);
			err_at(c, e->span, usage(sc, in), "%s() missing required argument '%s'", intrin_name[in],
			       names[i]);
		}
	e->call.args = args;
	e->call.nargs = last;
	e->call.nkw = 0;
}

static void need_int(Scope *sc, Expr *a, int in, const char *what, const char *hint)
{
	if (!ty_is_int(a->ty))
		err_at(sc->c, a->span, hint, "the %s of %s() must be an integer, not %s", what, intrin_name[in],
		       tstr(sc, a->ty));
}

/* (the messages begin with Numba's words) */
static void need_mask(Scope *sc, Expr *a, int in)
{
	if (!ty_is_int(a->ty))
		err_at(sc->c, a->span, "pass the lanes taking part as a 32-bit mask, such as 0xffffffff for the whole warp",
		       "Mask type must be an integer: the mask of %s() is %s", intrin_name[in], tstr(sc, a->ty));
}

static void need_pred(Scope *sc, Expr *a, int in)
{
	if (!ty_is_int(a->ty) && !is_sk(a->ty, SK_BOOL))
		err_at(sc->c, a->span, "pass a comparison such as x > 0, or an integer (nonzero is true)",
		       "Predicate must be an integer or boolean: the predicate of %s() is %s", intrin_name[in],
		       tstr(sc, a->ty));
}

/* How to turn a value of type t into one of the types a warp function takes. */
static const char *convert_hint(Scope *sc, Type *t, int match)
{
	const char *ok = match ? "int32, uint32, int64, uint64, float32 or float64"
	                       : "int32, int64, float32 or float64";
	if (ty_is_int(t) || is_sk(t, SK_BOOL))
		return arena_printf(sc->c->arena, "it works on %s values: convert with np.%s(x)", ok,
		                    int_bits(t) == 64 ? "int64" : "int32");
	if (ty_is_float(t))
		return arena_printf(sc->c->arena, "it works on %s values: convert with np.float32(x)", ok);
	if (ty_is_complex(t))
		return "shuffle the real and imaginary parts (x.real, x.imag) separately";
	return arena_printf(sc->c->arena, "it works on one number of type %s", ok);
}

static Type *type_shfl(Scope *sc, Expr *e, int in)
{
	Expr *mask = e->call.args[0], *v = e->call.args[1], *lane = e->call.args[2];
	need_mask(sc, mask, in);
	Type *t = v->ty;
	if (!(is_sk(t, SK_I32) || is_sk(t, SK_I64) || is_sk(t, SK_F32) || is_sk(t, SK_F64)))
		err_at(sc->c, v->span, convert_hint(sc, t, 0),
		       "%s() shuffles int32, int64, float32 and float64 values, not %s", intrin_name[in], tstr(sc, t));
	need_int(sc, lane, in, in == IN_SHFL_SYNC ? "source lane" : in == IN_SHFL_XOR_SYNC ? "lane mask" : "delta",
	         "pass a lane number or offset from 0 to 31");
	return set(e, t);
}

static Type *type_match(Scope *sc, Expr *e, int in)
{
	Expr *mask = e->call.args[0], *v = e->call.args[1];
	need_mask(sc, mask, in);
	Type *t = v->ty;
	int bits = int_bits(t);
	if (!(bits == 32 || bits == 64 || is_sk(t, SK_F32) || is_sk(t, SK_F64)))
		err_at(sc->c, v->span, convert_hint(sc, t, 1),
		       "%s() compares 32- and 64-bit integers and floats, not %s", intrin_name[in], tstr(sc, t));
	Type *i32 = ty_scalar(SK_I32);
	if (in == IN_MATCH_ANY_SYNC)
		return set(e, i32);
	Type *elts[2] = {i32, ty_scalar(SK_BOOL)};
	return set(e, ty_tuple(sc->c, 2, elts));
}

static Type *int_arg(Scope *sc, Expr *e, int in)
{
	Expr *a = e->call.args[0];
	if (!ty_is_int(a->ty))
		err_at(sc->c, a->span, "pass an integer such as int32, uint32, int64 or uint64",
		       "%s() takes an integer, not %s", intrin_name[in], tstr(sc, a->ty));
	return a->ty;
}

static Type *type_float_fn(Scope *sc, Expr *e, int in)
{
	int all32 = 1;
	for (int i = 0; i < e->call.nargs; i++) {
		Type *t = e->call.args[i]->ty;
		if (!ty_is_number(t) || ty_is_complex(t))
			err_at(sc->c, e->call.args[i]->span, "pass float32 or float64 numbers",
			       "%s() takes real numbers, not %s", intrin_name[in], tstr(sc, t));
		if (!is_sk(t, SK_F32) && !is_sk(t, SK_F16))
			all32 = 0;
	}
	return set(e, ty_scalar(all32 ? SK_F32 : SK_F64));
}

static Type *type_selp(Scope *sc, Expr *e)
{
	Expr *p = e->call.args[0], *a = e->call.args[1], *b = e->call.args[2];
	need_pred(sc, p, IN_SELP);
	Type *t = a->ty;
	static const ScalarKind ok[] = {SK_F64, SK_F32, SK_I16, SK_U16, SK_I32, SK_U32, SK_I64, SK_U64};
	int good = 0;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (is_sk(t, ok[i]))
			good = 1;
	if (!good)
		err_at(sc->c, a->span, "cuda.selp() selects between float64, float32, int16, uint16, int32, uint32, "
		                       "int64 or uint64 values",
		       "cuda.selp() cannot select %s values", tstr(sc, t));
	if (!ty_equal(t, b->ty))
		err_at(sc->c, b->span,
		       arena_printf(sc->c->arena, "both values must have one type: convert with np.%s(...)",
		                    scalar_info[t->sk].name),
		       "cuda.selp() needs two values of the same type, not %s and %s", tstr(sc, t), tstr(sc, b->ty));
	return set(e, t);
}

/* x.bit_count() becomes cuda.popc(x): the call gets x as its argument
 * (once; typing passes see the call again) and IN_POPC as its intrinsic. */
Type *type_bit_count(Scope *sc, Expr *e)
{
	Expr *x = e->call.fn->attr.obj;
	int done = e->call.nargs == 1 && e->call.args[0] == x;
	if (!done && (e->call.nargs || e->call.nkw))
		err_at(sc->c, e->span, "call it as x.bit_count()", "bit_count() takes no arguments");
	if (!done) {
		e->call.args = arena_alloc(sc->c->arena, sizeof(Expr *));
		e->call.args[0] = x;
		e->call.nargs = 1;
	}
	e->call.intrin = IN_POPC;
	set(e->call.fn, x->ty);
	return set(e, x->ty);
}

Type *type_warp_intrin(Scope *sc, Expr *e, int in)
{
	place_args(sc, e, in);
	Type *i32 = ty_scalar(SK_I32), *u32 = ty_scalar(SK_U32);
	Expr **a = e->call.args;
	switch (in) {
	case IN_SYNCTHREADS_COUNT: case IN_SYNCTHREADS_AND: case IN_SYNCTHREADS_OR:
		need_pred(sc, a[0], in);
		return set(e, i32);
	case IN_SYNCWARP:
		if (e->call.nargs)
			need_mask(sc, a[0], in);
		return set(e, ty_none());
	case IN_THREADFENCE: case IN_THREADFENCE_BLOCK: case IN_THREADFENCE_SYSTEM:
		return set(e, ty_none());
	case IN_SHFL_SYNC: case IN_SHFL_UP_SYNC: case IN_SHFL_DOWN_SYNC: case IN_SHFL_XOR_SYNC:
		return type_shfl(sc, e, in);
	case IN_ALL_SYNC: case IN_ANY_SYNC: case IN_EQ_SYNC: case IN_BALLOT_SYNC:
		need_mask(sc, a[0], in);
		need_pred(sc, a[1], in);
		return set(e, in == IN_BALLOT_SYNC ? i32 : ty_scalar(SK_BOOL));
	case IN_MATCH_ANY_SYNC: case IN_MATCH_ALL_SYNC:
		return type_match(sc, e, in);
	case IN_ACTIVEMASK: case IN_LANEMASK_LT:
		return set(e, u32);
	case IN_POPC: case IN_CLZ:
		return set(e, int_arg(sc, e, in));
	case IN_FFS:
		int_arg(sc, e, in);
		return set(e, u32);
	case IN_BREV:
		return set(e, int_bits(int_arg(sc, e, in)) == 64 ? ty_scalar(SK_U64) : u32);
	case IN_FMA: case IN_CBRT:
		return type_float_fn(sc, e, in);
	case IN_SELP:
		return type_selp(sc, e);
	case IN_NANOSLEEP:
		need_int(sc, a[0], in, "duration", "pass the time in nanoseconds as an integer");
		return set(e, ty_none());
	default:
		ICE(sc->c, "%s is not a warp or bit intrinsic", intrin_name[in]);
	}
}

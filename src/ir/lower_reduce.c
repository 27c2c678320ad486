/*
 * lower_reduce.c - np.sum, np.prod, np.min, np.max, np.all, np.any and
 * np.mean, their nan forms, np.var, np.std and np.count_nonzero of a
 * whole array (sema_reduce.c types them): one loop over its elements in C
 * order (lower_nd_loop) with an accumulator (two for var and std: the mean
 * first).  sum and prod add and multiply in the result's type, left to
 * right, as Numba; min and max keep the first NaN they meet, and of an
 * empty array stop the kernel (NumPy raises "zero-size array to reduction
 * operation"); the mean of an empty array is NaN (0 / 0).  The nan forms
 * skip NaN elements (a complex one has a NaN part); nanmin and nanmax take
 * x over the value so far unless that one is below (above) x, as Numba,
 * so that a NaN first element gives way.
 */
#include "lower.h"

typedef struct {
	int in, slot;
	int count;     /* nanmean: the slot of the elements counted */
	Value arr;
	Type *ty;
	Value mean;    /* var, std: the mean, in its own type */
	Span sp;
} Red;

/* Is x (a number) NaN? */
static Ref is_nan(Lower *L, Value x)
{
	ScalarKind sk = x.ty->sk;
	if (!lower_is_floatsk(sk) && !scalar_info[sk].is_complex)
		return ir_con_int(L->f, KB, 0);
	ScalarKind p = lower_part_sk(sk);
	Ref n = lower_cmp(L, CC_NE, p, x.r, x.r);
	if (scalar_info[sk].is_complex)
		n = lower_emit(L, O_OR, KB, SK_BOOL, n, lower_cmp(L, CC_NE, p, x.im, x.im), REF_NONE, 0);
	return n;
}

/* c ? a : b of two numbers of type ty */
static Value select(Lower *L, Type *ty, Ref c, Value a, Value b)
{
	ScalarKind sk = ty->sk;
	if (!scalar_info[sk].is_complex)
		return lower_scalar(ty, lower_sel(L, lower_cls(sk), c, a.r, b.r));
	Value v = a;
	Cls k = lower_cls(lower_part_sk(sk));
	v.r = lower_sel(L, k, c, a.r, b.r);
	v.im = lower_sel(L, k, c, a.im, b.im);
	return v;
}

/* |x - mean|^2 of x, in the mean's type, as float64 */
static Value square_dev(Lower *L, Red *r, Value x)
{
	Type *mt = r->mean.ty, *f64 = ty_scalar(SK_F64);
	Value d = lower_binop(L, OP_SUB, lower_convert(L, x, mt, r->sp), r->mean, mt, r->sp);
	if (!scalar_info[mt->sk].is_complex)
		return lower_convert(L, lower_binop(L, OP_MUL, d, d, mt, r->sp), f64, r->sp);
	Type *pt = ty_scalar(lower_part_sk(mt->sk));
	Value re = lower_scalar(pt, d.r), im = lower_scalar(pt, d.im);
	Value s = lower_binop(L, OP_ADD, lower_binop(L, OP_MUL, re, re, pt, r->sp),
	                      lower_binop(L, OP_MUL, im, im, pt, r->sp), pt, r->sp);
	return lower_convert(L, s, f64, r->sp);
}

static void red_body(Lower *L, Ref *idx, void *p)
{
	Red *r = p;
	Value a = r->arr;
	Value x = lower_load(L, a.ty->elem, lower_elem_addr(L, a, idx, a.ty->ndim), a.ty->space, r->sp);
	Value acc = lower_read(L, r->slot, r->ty);
	Value v;
	switch (r->in) {
	case IN_NP_SUM: case IN_NP_MEAN:
		v = lower_binop(L, OP_ADD, acc, lower_convert(L, x, r->ty, r->sp), r->ty, r->sp);
		break;
	case IN_NP_PROD:
		v = lower_binop(L, OP_MUL, acc, lower_convert(L, x, r->ty, r->sp), r->ty, r->sp);
		break;
	case IN_NP_NANSUM: case IN_NP_NANPROD: case IN_NP_NANMEAN: {
		Ref keep = lower_not(L, is_nan(L, x));
		v = lower_binop(L, r->in == IN_NP_NANPROD ? OP_MUL : OP_ADD, acc, lower_convert(L, x, r->ty, r->sp),
		                r->ty, r->sp);
		v = select(L, r->ty, keep, v, acc);
		if (r->in == IN_NP_NANMEAN) {
			Ref n = lower_read(L, r->count, ty_scalar(SK_I64)).r;
			Ref n1 = lower_emit(L, O_ADD, KL, SK_I64, n, ir_con_int(L->f, KL, 1), REF_NONE, 0);
			lower_write(L, r->count, ty_scalar(SK_I64),
			            lower_scalar(ty_scalar(SK_I64), lower_sel(L, KL, keep, n1, n)));
		}
		break;
	}
	case IN_NP_VAR: case IN_NP_STD:
		v = lower_binop(L, OP_ADD, acc, square_dev(L, r, x), r->ty, r->sp);
		break;
	case IN_NP_COUNT_NONZERO: {
		Ref t = lower_truth(L, x, r->sp);
		Ref n1 = lower_emit(L, O_ADD, KL, SK_I64, acc.r, ir_con_int(L->f, KL, 1), REF_NONE, 0);
		v = lower_scalar(r->ty, lower_sel(L, KL, t, n1, acc.r));
		break;
	}
	case IN_NP_NANMIN: case IN_NP_NANMAX: {
		ScalarKind sk = r->ty->sk;
		Ref keep;
		if (sk == SK_BOOL)   /* not acc < x (min), not acc > x (max) */
			keep = lower_not(L, r->in == IN_NP_NANMIN
			                        ? lower_emit(L, O_AND, KB, SK_BOOL, lower_not(L, acc.r), x.r, REF_NONE, 0)
			                        : lower_emit(L, O_AND, KB, SK_BOOL, acc.r, lower_not(L, x.r), REF_NONE, 0));
		else
			keep = lower_not(L, lower_cmp(L, r->in == IN_NP_NANMIN ? CC_LT : CC_GT, sk, acc.r, x.r));
		keep = lower_emit(L, O_AND, KB, SK_BOOL, keep, lower_not(L, is_nan(L, x)), REF_NONE, 0);
		v = lower_scalar(r->ty, lower_sel(L, lower_cls(sk), keep, x.r, acc.r));
		break;
	}
	case IN_NP_ALL: case IN_NP_ANY: {
		Ref t = lower_truth(L, x, r->sp);
		v = lower_scalar(r->ty, lower_emit(L, r->in == IN_NP_ALL ? O_AND : O_OR, KB, SK_BOOL, acc.r, t,
		                                   REF_NONE, 0));
		break;
	}
	default: {   /* min, max: x replaces acc when it is beyond it, or NaN */
		ScalarKind sk = r->ty->sk;
		Ref take;
		if (sk == SK_BOOL) {
			take = r->in == IN_NP_AMIN ? lower_emit(L, O_AND, KB, SK_BOOL, acc.r, lower_not(L, x.r), REF_NONE, 0)
			                           : lower_emit(L, O_AND, KB, SK_BOOL, lower_not(L, acc.r), x.r, REF_NONE, 0);
		} else {
			take = lower_cmp(L, r->in == IN_NP_AMIN ? CC_LT : CC_GT, sk, x.r, acc.r);
			if (lower_is_floatsk(sk))
				take = lower_emit(L, O_OR, KB, SK_BOOL, take, lower_cmp(L, CC_NE, sk, x.r, x.r), REF_NONE, 0);
		}
		v = lower_scalar(r->ty, lower_sel(L, lower_cls(sk), take, x.r, acc.r));
		break;
	}
	}
	lower_write(L, r->slot, r->ty, v);
}

/* The first element of the array a (of at least one) */
static Value first(Lower *L, Value a, Span sp)
{
	Ref zero[8];
	for (int i = 0; i < a.ty->ndim && i < 8; i++)
		zero[i] = ir_con_int(L->f, KL, 0);
	return lower_load(L, a.ty->elem, lower_elem_addr(L, a, zero, a.ty->ndim), a.ty->space, sp);
}

/* The reduction in of the array a, of type ty, by one loop */
static Value reduce(Lower *L, Value a, int in, Type *ty, Value mean, Span sp)
{
	Red r = {in, 0, 0, a, ty, mean, sp};
	Const k = {.kind = PJ_V_INT, .i = in == IN_NP_PROD || in == IN_NP_NANPROD};
	if (in == IN_NP_ALL || in == IN_NP_ANY) {
		k.kind = PJ_V_BOOL;
		k.i = in == IN_NP_ALL;
	}
	r.slot = lower_new_slots(L, ty, "acc");
	Ref size = lower_array_size(L, a);
	if (in == IN_NP_AMIN || in == IN_NP_AMAX || in == IN_NP_NANMIN || in == IN_NP_NANMAX) {
		static const char *const msg[] = {
			"zero-size array to reduction operation minimum which has no identity",
			"zero-size array to reduction operation maximum which has no identity",
			"zero-size array to reduction operation fmin which has no identity",
			"zero-size array to reduction operation fmax which has no identity",
		};
		int m = in == IN_NP_AMIN ? 0 : in == IN_NP_AMAX ? 1 : in == IN_NP_NANMIN ? 2 : 3;
		lower_guard(L, lower_cmp(L, CC_GT, SK_I64, size, ir_con_int(L->f, KL, 0)), msg[m]);
		lower_write(L, r.slot, ty, first(L, a, sp));
	} else
		lower_write(L, r.slot, ty, lower_const(L, &k, ty, sp));
	Type *i64 = ty_scalar(SK_I64);
	if (in == IN_NP_NANMEAN) {
		r.count = lower_new_slots(L, i64, "count");
		lower_write(L, r.count, i64, lower_scalar(i64, ir_con_int(L->f, KL, 0)));
	}
	lower_nd_loop(L, a.ty->ndim, a.shape, red_body, &r);
	Value v = lower_read(L, r.slot, ty);
	if (in == IN_NP_MEAN || in == IN_NP_VAR || in == IN_NP_STD || in == IN_NP_NANMEAN) {
		Ref n = in == IN_NP_NANMEAN ? lower_read(L, r.count, i64).r : size;
		v = lower_binop(L, OP_DIV, v, lower_convert(L, lower_scalar(i64, n), ty, sp), ty, sp);
	}
	return v;
}

Value lower_reduce(Lower *L, Expr *e, int in)
{
	Value a = lower_expr(L, sema_reduced_array(e));
	Value mean = {0};
	if (in == IN_NP_VAR || in == IN_NP_STD) {
		ScalarKind sk = a.ty->elem->sk;
		Type *mt = ty_scalar(sk == SK_BOOL || scalar_info[sk].is_int ? SK_F64 : sk == SK_F16 ? SK_F32 : sk);
		mean = reduce(L, a, IN_NP_MEAN, mt, mean, e->span);
	}
	Value v = reduce(L, a, in, e->ty, mean, e->span);
	if (in == IN_NP_STD)
		v = lower_scalar(e->ty, lower_emit(L, O_SQRT, KD, SK_F64, v.r, REF_NONE, REF_NONE, 0));
	return v;
}

/*
 * lower_reduce.c - np.sum, np.prod, np.min, np.max, np.all, np.any and
 * np.mean of a whole array (sema_reduce.c types them): one loop over its
 * elements in C order (lower_nd_loop) with an accumulator.  sum and prod
 * add and multiply in the result's type, left to right, as Numba; min and
 * max keep the first NaN they meet, and of an empty array stop the kernel
 * (NumPy raises "zero-size array to reduction operation"); the mean of an
 * empty array is NaN (0 / 0).
 */
#include "lower.h"

typedef struct {
	int in, slot;
	Value arr;
	Type *ty;
	Span sp;
} Red;

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

Value lower_reduce(Lower *L, Expr *e, int in)
{
	Expr *ae = sema_reduced_array(e);
	Value a = lower_expr(L, ae);
	Type *ty = e->ty;
	Type *acc_ty = ty;
	Red r = {in, 0, a, acc_ty, e->span};
	Const k = {.kind = PJ_V_INT, .i = in == IN_NP_PROD};
	if (in == IN_NP_ALL || in == IN_NP_ANY) {
		k.kind = PJ_V_BOOL;
		k.i = in == IN_NP_ALL;
	}
	r.slot = lower_new_slots(L, acc_ty, "acc");
	Ref size = lower_array_size(L, a);
	if (in == IN_NP_AMIN || in == IN_NP_AMAX) {
		lower_guard(L, lower_cmp(L, CC_GT, SK_I64, size, ir_con_int(L->f, KL, 0)),
		            in == IN_NP_AMIN ? "zero-size array to reduction operation minimum which has no identity"
		                             : "zero-size array to reduction operation maximum which has no identity");
		Ref zero[8];
		for (int i = 0; i < a.ty->ndim && i < 8; i++)
			zero[i] = ir_con_int(L->f, KL, 0);
		lower_write(L, r.slot, acc_ty, lower_load(L, a.ty->elem, lower_elem_addr(L, a, zero, a.ty->ndim),
		                                          a.ty->space, e->span));
	} else
		lower_write(L, r.slot, acc_ty, lower_const(L, &k, acc_ty, e->span));
	lower_nd_loop(L, a.ty->ndim, a.shape, red_body, &r);
	Value v = lower_read(L, r.slot, acc_ty);
	if (in == IN_NP_MEAN) {
		Value n = lower_convert(L, lower_scalar(ty_scalar(SK_I64), size), ty, e->span);
		v = lower_binop(L, OP_DIV, v, n, ty, e->span);
	}
	return v;
}

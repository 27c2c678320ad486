/*
 * lower_elementwise.c - loops over every element of an array, in C order
 * of its indices: the NumPy ufuncs called with output arrays
 * (np.sin(x, out): out[i...] = sin(x[i...]), the inputs broadcast to the
 * output's shape) and the in-kernel reductions built on them.
 *
 * An input array of fewer dimensions lines up with the output's last
 * ones; an extent of 1 is repeated (index 0) along that axis, any other
 * extent must equal the output's (checked at run time, as NumPy raises
 * "operands could not be broadcast together").
 */
#include "lower.h"

void lower_nd_loop(Lower *L, int nd, Ref *shape, NdBody body, void *ctx)
{
	Type *i64 = ty_scalar(SK_I64);
	int slot[8];
	Ref idx[8];
	Blk *head[8], *done[8];
	if (nd > 8)
		ICE(L->c, "a loop over %d dimensions", nd);
	for (int d = 0; d < nd; d++) {
		slot[d] = lower_new_slots(L, i64, "i");
		lower_write(L, slot[d], i64, lower_scalar(i64, con64(L, 0)));
		head[d] = lower_new_blk(L);
		Blk *in = lower_new_blk(L);
		done[d] = lower_new_blk(L);
		lower_jump(L, head[d]);
		lower_enter(L, head[d]);
		idx[d] = lower_read(L, slot[d], i64).r;
		lower_branch(L, lower_cmp(L, CC_LT, SK_I64, idx[d], shape[d]), in, done[d]);
		lower_seal(L, in);
		lower_enter(L, in);
	}
	body(L, idx, ctx);
	for (int d = nd - 1; d >= 0; d--) {
		lower_write(L, slot[d], i64, lower_scalar(i64, add64(L, idx[d], con64(L, 1))));
		lower_jump(L, head[d]);
		lower_seal(L, head[d]);
		lower_seal(L, done[d]);
		lower_enter(L, done[d]);
	}
}

Ref lower_elem_addr(Lower *L, Value arr, const Ref *idx, int nd)
{
	int k = arr.ty->ndim, off = nd - k;
	Ref a = arr.data;
	for (int d = 0; d < k; d++) {
		Ref i = idx[off + d];
		/* an extent of 1 is broadcast: its only index is 0 */
		Ref one = lower_cmp(L, CC_EQ, SK_I64, arr.shape[d], con64(L, 1));
		i = lower_sel(L, KL, one, con64(L, 0), i);
		a = add64(L, a, mul64(L, i, lower_byte_stride(L, arr, d)));
	}
	return a;
}

void lower_check_broadcast(Lower *L, Value arr, const Ref *shape, int nd, const char *msg)
{
	int k = arr.ty->ndim, off = nd - k;
	for (int d = 0; d < k; d++) {
		Ref same = lower_cmp(L, CC_EQ, SK_I64, arr.shape[d], shape[off + d]);
		Ref one = lower_cmp(L, CC_EQ, SK_I64, arr.shape[d], con64(L, 1));
		lower_guard(L, lower_emit(L, O_OR, KB, SK_BOOL, same, one, REF_NONE, 0), msg);
	}
}

/* ---------------------------------------------------- ufuncs into arrays */

typedef struct {
	Expr *e;
	int in, nin, nout;
	Value *av;
	const UfuncLoop *lp;
	Type *res;
} UfuncCtx;

static void ufunc_body(Lower *L, Ref *idx, void *p)
{
	UfuncCtx *u = p;
	Value x[4];
	int nd = u->av[u->nin].ty->ndim;
	for (int i = 0; i < u->nin; i++) {
		Value a = u->av[i];
		x[i] = a.ty->kind == TY_ARRAY
		       ? lower_load(L, a.ty->elem, lower_elem_addr(L, a, idx, nd), a.ty->space, u->e->span) : a;
	}
	Value r = lower_ufunc_scalar(L, u->e, u->in, x, u->lp, u->res);
	for (int j = 0; j < u->nout; j++) {
		Value o = u->av[u->nin + j];
		Value v = u->nout == 1 ? r : r.elts[j];
		lower_store(L, o.ty->elem, lower_elem_addr(L, o, idx, nd), o.ty->space, v, u->e->span);
	}
}

Value lower_ufunc_out(Lower *L, Expr *e, int in, Value *av)
{
	int nin = ufunc_nin(in), nout = ufunc_nout(in);
	ScalarKind k[2], ok[2];
	UfuncLoop lp;
	for (int i = 0; i < nin; i++)
		k[i] = av[i].ty->kind == TY_ARRAY ? av[i].ty->elem->sk : av[i].ty->sk;
	for (int j = 0; j < nout; j++)
		ok[j] = av[nin + j].ty->elem->sk;
	if (!ufunc_loop_out(in, nin, k, nout, ok, &lp))
		ICE(L->c, "%s() lowered without a loop", intrin_name[in]);
	Value out = av[nin];
	int nd = out.ty->ndim;
	const char *msg = arena_printf(L->c->arena, "%s: operands could not be broadcast together",
	                               intrin_name[in]);
	for (int i = 0; i < nin + nout; i++)
		if (i != nin && av[i].ty->kind == TY_ARRAY)
			lower_check_broadcast(L, av[i], out.shape, nd, msg);
	Type *res = ty_scalar(lp.out[0]);
	if (nout == 2) {
		Type **el = arena_alloc(L->c->arena, sizeof(Type *) * 2);
		el[0] = res;
		el[1] = ty_scalar(lp.out[1]);
		res = ty_tuple(L->c, 2, el);
	}
	UfuncCtx u = {e, in, nin, nout, av, &lp, res};
	lower_nd_loop(L, nd, out.shape, ufunc_body, &u);
	if (nout == 1)
		return out;
	Value r = {.ty = e->ty, .n = 2, .elts = arena_alloc(L->c->arena, sizeof(Value) * 2)};
	r.elts[0] = av[nin];
	r.elts[1] = av[nin + 1];
	return r;
}

/*
 * unroll.c - unrolling loops: constant trip counts fully or by a factor,
 * run-time trip counts by four (grid-stride loops by eight, then four)
 * with the old loop for the rest.
 *
 * Precondition: a verified function, folded (constants are constants).
 * A loop qualifies when it is innermost (or, for full unrolling, when
 * the loops inside it become counted: see inner_counted), has a
 * preheader and one latch,
 * leaves only from its header (a `for` or `while` without break or
 * return), and its header's branch depends on one header phi, the
 * induction variable, whose first value is a constant and whose next
 * value the loop computes from it and constants alone: `for j in
 * range(TPB)` and `s = TPB // 2; while s > 0: ...; s //= 2` both are.
 * The iterations are then counted by evaluating that chain, with the
 * IR's integer semantics (wrapping at the class's width, division by zero
 * giving 0, ...), up to a limit.
 *
 * Full unrolling (when trips x body stays small) peels the loop once
 * more than it runs (the last copy's test leaves): each copy keeps its
 * own header test, with the
 * induction variable replaced by its value in that iteration, and the
 * last copy falls into the original loop.  So the result is right even
 * if the count were wrong; with the count right, folding turns every
 * copied test into a constant and the original loop becomes unreachable.
 * Values of the header used after the loop get a phi in the exit block
 * over all the copies.
 *
 * Partial unrolling (a larger body, a count divisible by the factor, an
 * induction variable stepped by a constant add and compared with a
 * constant) repeats the body u times inside the loop; the tests of
 * copies 2..u are dropped, which the exact count and its divisibility
 * make safe. *
 * A loop whose count is known only at run time (`for k in range(n)`)
 * gets a copy in front of it that runs four bodies per test (a grid-stride
 * loop eight, then four); see "run-time trip counts" below.
 */
#include <string.h>

#include "opt.h"

enum { MAX_TRIPS = 4096, FULL_BUDGET = 1200, FULL_TRIPS = 64, PART_BUDGET = 600 };
enum { UNROLL_AGAIN = 2 };   /* Blk.unrolled of a loop left behind an eight-body one */

typedef struct U {
	Fn *f;
	Cfg g;
	Loop *l;
	int iv;           /* the induction variable (a phi of the header) */
	int from_pre, from_latch;   /* its argument positions */
	int nblk, nval;   /* blocks and values when g was made: those added since
	                     (by another loop's transformation) lie outside l */
} U;

static int in_loop(U *u, int b)
{
	return b >= 0 && b < u->nblk && u->l->in[b];
}

static int def_blk(U *u, int v)
{
	return v >= 0 && v < u->nval ? u->g.defblk[v] : -1;
}

static int64_t norm(int k, uint64_t v)
{
	if (k == KW)
		return (int32_t)(uint32_t)v;
	if (k == KB)
		return v != 0;
	return (int64_t)v;
}

static int is_signed(int ty)
{
	return ty == SK_I8 || ty == SK_I16 || ty == SK_I32 || ty == SK_I64;
}

static int narrow(int ty)
{
	return ty == SK_I8 || ty == SK_U8 || ty == SK_I16 || ty == SK_U16 || ty == SK_F16;
}

/* The value of r in an iteration where the induction variable is ivval;
 * 0 when it cannot be computed from the induction variable and constants. */
static int eval(U *u, Ref r, int64_t ivval, int64_t *out, int depth)
{
	Fn *f = u->f;
	if (r.kind == R_CON && (int)r.idx < f->ncon) {
		Con *c = &f->con[r.idx];
		if (c->cls != KW && c->cls != KL && c->cls != KB)
			return 0;
		*out = norm(c->cls, (uint64_t)c->i);
		return 1;
	}
	if (r.kind != R_VAL || (int)r.idx >= u->nval || depth > 64)
		return 0;
	if ((int)r.idx == u->iv) {
		*out = ivval;
		return 1;
	}
	Ins *i = u->g.def[r.idx];
	int b = u->g.defblk[r.idx];
	if (!i || !in_loop(u, b))
		return 0;
	int k = i->cls;
	if ((k != KW && k != KL && k != KB) || narrow(i->ty))
		return 0;
	int64_t a = 0, c = 0, d = 0;
	int n = ir_nargs(i);
	if (n > 0 && !eval(u, i->arg[0], ivval, &a, depth + 1))
		return 0;
	if (n > 1 && !eval(u, i->arg[1], ivval, &c, depth + 1))
		return 0;
	if (n > 2 && !eval(u, i->arg[2], ivval, &d, depth + 1))
		return 0;
	int w = k == KW ? 32 : 64;
	uint64_t mask = w == 32 ? 0xffffffffu : ~(uint64_t)0;
	uint64_t ua = (uint64_t)a & mask, uc = (uint64_t)c & mask;
	int64_t min = w == 32 ? INT32_MIN : INT64_MIN;
	int sg = is_signed(i->ty);
	switch (i->op) {
	case O_COPY: *out = a; return 1;
	case O_ADD: *out = norm(k, ua + uc); return 1;
	case O_SUB: *out = norm(k, ua - uc); return 1;
	case O_MUL: *out = norm(k, ua * uc); return 1;
	case O_AND: *out = norm(k, ua & uc); return 1;
	case O_OR: *out = norm(k, ua | uc); return 1;
	case O_XOR: *out = norm(k, ua ^ uc); return 1;
	case O_NEG: *out = norm(k, 0 - ua); return 1;
	case O_SHL: *out = uc >= (uint64_t)w ? 0 : norm(k, ua << uc); return 1;
	case O_SHR:
		if (sg)
			*out = uc >= (uint64_t)w ? (a < 0 ? -1 : 0) : a >> uc;
		else
			*out = uc >= (uint64_t)w ? 0 : norm(k, ua >> uc);
		return 1;
	case O_DIV:
		if (c == 0)
			*out = 0;
		else if (sg)
			*out = a == min && c == -1 ? min : a / c;
		else
			*out = norm(k, ua / uc);
		return 1;
	case O_REM:
		if (c == 0)
			*out = a;
		else if (sg)
			*out = a == min && c == -1 ? 0 : a % c;
		else
			*out = norm(k, ua % uc);
		return 1;
	case O_MIN: case O_MAX: {
		int lt = sg ? a < c : ua < uc;
		*out = (i->op == O_MIN) == lt ? a : c;
		return 1;
	}
	case O_SEL:
		*out = a ? c : d;
		return 1;
	case O_CMP: {
		int ck = ir_cls_of_sk((ScalarKind)i->ty);
		if (ck != KW && ck != KL)
			return 0;
		int cw = ck == KW ? 32 : 64;
		uint64_t m2 = cw == 32 ? 0xffffffffu : ~(uint64_t)0;
		uint64_t xa = (uint64_t)a & m2, xc = (uint64_t)c & m2;
		int s2 = is_signed(i->ty), r2;
		switch (i->aux) {
		case CC_EQ: r2 = xa == xc; break;
		case CC_NE: r2 = xa != xc; break;
		case CC_LT: r2 = s2 ? a < c : xa < xc; break;
		case CC_LE: r2 = s2 ? a <= c : xa <= xc; break;
		case CC_GT: r2 = s2 ? a > c : xa > xc; break;
		case CC_GE: r2 = s2 ? a >= c : xa >= xc; break;
		case CC_LTU: r2 = xa < xc; break;
		case CC_LEU: r2 = xa <= xc; break;
		case CC_GTU: r2 = xa > xc; break;
		case CC_GEU: r2 = xa >= xc; break;
		default: return 0;
		}
		*out = r2;
		return 1;
	}
	case O_CVT: {
		int from = i->ty, to = i->aux;
		if (narrow(from) || narrow(to) || from == SK_BOOL || to == SK_BOOL)
			return 0;
		if (from < SK_I8 || from > SK_U64 || to < SK_I8 || to > SK_U64)
			return 0;
		int64_t v = from == SK_U32 ? (int64_t)(uint32_t)a : from == SK_I32 ? (int32_t)a : a;
		*out = norm(k, (uint64_t)v);
		return 1;
	}
	default:
		return 0;
	}
}

static int is_val(Ref r, int v)
{
	return r.kind == R_VAL && (int)r.idx == v;
}

static int64_t con_value(Fn *f, Ref r)
{
	Con *c = &f->con[r.idx];
	return norm(c->cls, (uint64_t)c->i);
}

/* The trip count, or -1. */
static int64_t trips(U *u, Ref cond, int stay_if)
{
	Phi *p = u->g.phi[u->iv];
	Ref init = p->arg[u->from_pre], next = p->arg[u->from_latch];
	if (init.kind != R_CON)
		return -1;
	int64_t v = con_value(u->f, init), c, n = 0;
	for (;;) {
		if (!eval(u, cond, v, &c, 0))
			return -1;
		if ((c != 0) != stay_if)
			return n;
		if (++n > MAX_TRIPS || !eval(u, next, v, &v, 0))
			return -1;
	}
}

/* Does r depend on a header phi other than the induction variable, or on
 * a load, call or anything with an effect inside the loop? */
static int only_iv(U *u, Ref r, int depth)
{
	if (r.kind != R_VAL)
		return 1;
	if ((int)r.idx == u->iv)
		return 1;
	int b = def_blk(u, (int)r.idx);
	if (!in_loop(u, b))
		return 1;
	Ins *i = u->g.def[r.idx];
	if (!i || depth > 64 || op_info[i->op].effect || i->op == O_LOAD)
		return 0;
	for (int k = 0; k < ir_nargs(i); k++)
		if (!only_iv(u, i->arg[k], depth + 1))
			return 0;
	return 1;
}

/* The instructions, phis and branches of l: a block that only jumps on
 * (what inlining leaves between a call's parts) costs nothing. */
static int body_size(Fn *f, Loop *l)
{
	int n = 0;
	for (int k = 0; k < l->nblk; k++) {
		Blk *b = f->blk[l->blk[k]];
		n += b->nins + b->nphi + (b->jmp == J_JNZ || b->nins + b->nphi > 0);
	}
	return n;
}

static void push_pred(Fn *f, Blk *b, int p)
{
	b->pred = arena_grow(f->ctx->arena, b->pred, b->npred, &b->cappred, sizeof *b->pred);
	b->pred[b->npred++] = p;
}

static void push_phi_arg(Fn *f, Phi *p, Ref r)
{
	Ref *a = arena_alloc(f->ctx->arena, sizeof *a * (size_t)(p->n + 1));
	memcpy(a, p->arg, sizeof *a * (size_t)p->n);
	a[p->n++] = r;
	p->arg = a;
}

/* One copy of the loop's blocks.  map: the header's phis already map to
 * their values for this copy; it receives every value the copy defines.
 * Jumps to the header go to next_head; with keep_test 0 the header's
 * branch becomes a jump into the loop.  Returns the block map. */
static int *clone_body(U *u, Ref *map, int next_head, int keep_test)
{
	Fn *f = u->f;
	Loop *l = u->l;
	Arena *a = f->ctx->arena;
	int n0 = f->nblk;
	int *bmap = arena_alloc(a, sizeof(int) * (size_t)(n0 + 1));
	for (int i = 0; i < n0; i++)
		bmap[i] = -1;
	for (int k = 0; k < l->nblk; k++)
		bmap[l->blk[k]] = ir_new_blk(f)->id;
	for (int k = 0; k < l->nblk; k++) {
		Blk *ob = f->blk[l->blk[k]];
		Blk *nb = f->blk[bmap[ob->id]];
		if (ob->id != l->head)
			for (int j = 0; j < ob->nphi; j++) {
				Phi *op = &ob->phi[j];
				Phi *np = ir_add_phi(f, nb, (Cls)op->cls, op->n);
				int v = opt_new_val(f, op->to);
				f->val[v].blk = nb->id;
				np->to = v;
				map[op->to] = REF_VAL(v);
			}
		for (int j = 0; j < ob->nins; j++) {
			Ins *i = &ob->ins[j];
			opt_clone_ins(f, nb, i, map);
			Ins *ni = &nb->ins[nb->nins - 1];
			if (ni->op == O_CHECK && ni->aux >= 0 && ni->aux < f->nchecks) {
				CheckInfo ci = f->checks[ni->aux];
				for (int d = 0; d < 8; d++)
					ci.ext[d] = opt_mapped(map, ci.ext[d]);
				VEC_PUSH(f->ctx, f->checks, f->nchecks, f->capchecks, ci);
				ni->aux = f->nchecks - 1;
			}
		}
		nb->jmp = ob->jmp;
		nb->cond = opt_mapped(map, ob->cond);
		int s[2] = {ob->s1, ob->s2};
		for (int e = 0; e < 2; e++) {
			if (s[e] < 0)
				continue;
			if (s[e] == l->head)
				s[e] = next_head;
			else if (l->in[s[e]])
				s[e] = bmap[s[e]];
		}
		nb->s1 = s[0];
		nb->s2 = s[1];
		if (ob->id == l->head && !keep_test && ob->jmp == J_JNZ) {
			nb->jmp = J_JMP;
			nb->s1 = l->in[ob->s1] ? s[0] : s[1];
			nb->s2 = -1;
			nb->cond = REF_NONE;
		}
	}
	/* phi arguments and predecessors of the copied blocks other than the header */
	for (int k = 0; k < l->nblk; k++) {
		Blk *ob = f->blk[l->blk[k]];
		if (ob->id == l->head)
			continue;
		Blk *nb = f->blk[bmap[ob->id]];
		for (int j = 0; j < ob->npred; j++)
			push_pred(f, nb, bmap[ob->pred[j]]);
		for (int j = 0; j < ob->nphi; j++)
			for (int m = 0; m < ob->phi[j].n; m++)
				nb->phi[j].arg[m] = opt_mapped(map, ob->phi[j].arg[m]);
	}
	return bmap;
}

static Ref *new_map(Fn *f, int extra)
{
	return arena_alloc(f->ctx->arena, sizeof(Ref) * (size_t)(f->nval + extra + 1));
}

/* A map big enough for the values clone_body will add. */
static int map_room(Fn *f, Loop *l)
{
	return body_size(f, l) + 8;
}

static int phi_pos(Blk *b, int pred)
{
	for (int m = 0; m < b->npred; m++)
		if (b->pred[m] == pred)
			return m;
	return -1;
}

static int is_head_val(U *u, Ref r, int nval0)
{
	return r.kind == R_VAL && (int)r.idx < nval0 && def_blk(u, (int)r.idx) == u->l->head;
}

/* Marks the header's values used outside the loop other than by the exit
 * block's phis; returns how many. */
static int uses_outside(U *u, int exit, char *used, int nval0, int nblk0)
{
	Fn *f = u->f;
	int n = 0;
	for (int b = 0; b < nblk0; b++) {
		if (in_loop(u, b))
			continue;
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			for (int j = 0; j < 3; j++)
				if (is_head_val(u, i->arg[j], nval0))
					n += !used[i->arg[j].idx]++;
			if (i->op == O_CHECK && i->aux >= 0 && i->aux < f->nchecks)
				for (int d = 0; d < 8; d++)
					if (is_head_val(u, f->checks[i->aux].ext[d], nval0))
						n += !used[f->checks[i->aux].ext[d].idx]++;
		}
		if (b != exit)
			for (int k = 0; k < bk->nphi; k++)
				for (int j = 0; j < bk->phi[k].n; j++)
					if (is_head_val(u, bk->phi[k].arg[j], nval0))
						n += !used[bk->phi[k].arg[j].idx]++;
		if (bk->jmp == J_JNZ && is_head_val(u, bk->cond, nval0))
			n += !used[bk->cond.idx]++;
	}
	return n;
}

static void swap_in(Ref *r, int from, Ref to)
{
	if (r->kind == R_VAL && (int)r->idx == from)
		*r = to;
}

/* Uses of v outside the loop (blocks below nblk0), except the exit
 * block's phis, become uses of `to`. */
static void redirect(U *u, int exit, int v, Ref to, int nblk0)
{
	Fn *f = u->f;
	for (int b = 0; b < nblk0; b++) {
		if (in_loop(u, b))
			continue;
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			for (int j = 0; j < 3; j++)
				swap_in(&i->arg[j], v, to);
			if (i->op == O_CHECK && i->aux >= 0 && i->aux < f->nchecks) {
				CheckInfo ci = f->checks[i->aux];
				int changed = 0;
				for (int d = 0; d < 8; d++)
					if (ci.ext[d].kind == R_VAL && (int)ci.ext[d].idx == v) {
						ci.ext[d] = to;
						changed = 1;
					}
				if (changed) {
					VEC_PUSH(f->ctx, f->checks, f->nchecks, f->capchecks, ci);
					i->aux = f->nchecks - 1;
				}
			}
		}
		if (b != exit)
			for (int k = 0; k < bk->nphi; k++)
				for (int j = 0; j < bk->phi[k].n; j++)
					swap_in(&bk->phi[k].arg[j], v, to);
		if (bk->jmp == J_JNZ)
			swap_in(&bk->cond, v, to);
	}
}

/* Peels all n iterations (see the top of the file). */
static void full(U *u, int64_t n, int exit)
{
	Fn *f = u->f;
	Loop *l = u->l;
	Blk *h = f->blk[l->head], *e = f->blk[exit];
	int pre = l->pre, latch = l->latch[0];
	int nval0 = f->nval, nblk0 = f->nblk;
	char *used = arena_alloc(f->ctx->arena, (size_t)nval0 + 1);
	int nused = uses_outside(u, exit, used, nval0, nblk0);
	if (nused && e->npred != 1)
		return;     /* cannot happen in SSA: the header's values would not dominate */
	int epos = phi_pos(e, l->head), pp = phi_pos(h, pre), pl = phi_pos(h, latch);
	int room = map_room(f, l) * (int)(n + 1) + nused;
	Ref **maps = arena_alloc(f->ctx->arena, sizeof *maps * (size_t)(n + 1));
	int *heads = arena_alloc(f->ctx->arena, sizeof(int) * (size_t)(n + 1));
	int *latches = arena_alloc(f->ctx->arena, sizeof(int) * (size_t)(n + 1));
	for (int64_t c = 0; c < n; c++) {
		Ref *map = new_map(f, room);
		for (int j = 0; j < h->nphi; j++) {
			Phi *p = &h->phi[j];
			map[p->to] = c == 0 ? p->arg[pp] : opt_mapped(maps[c - 1], p->arg[pl]);
		}
		int *bmap = clone_body(u, map, l->head, 1);
		heads[c] = bmap[l->head];
		latches[c] = bmap[latch];
		maps[c] = map;
	}
	/* pre -> copy 0 -> ... -> copy n-1 -> the loop */
	f->blk[pre]->s1 = heads[0];
	push_pred(f, f->blk[heads[0]], pre);
	for (int64_t c = 1; c < n; c++) {
		f->blk[latches[c - 1]]->s1 = heads[c];
		push_pred(f, f->blk[heads[c]], latches[c - 1]);
	}
	h->pred[pp] = latches[n - 1];
	for (int j = 0; j < h->nphi; j++)
		h->phi[j].arg[pp] = opt_mapped(maps[n - 1], h->phi[j].arg[pl]);
	/* the exit block gains an edge from every copy's header */
	int nphi0 = e->nphi;
	for (int64_t c = 0; c < n; c++) {
		push_pred(f, e, heads[c]);
		for (int j = 0; j < nphi0; j++)
			push_phi_arg(f, &e->phi[j], opt_mapped(maps[c], e->phi[j].arg[epos]));
	}
	for (int v = 0; v < nval0; v++) {
		if (!used[v])
			continue;
		int nv = opt_new_val(f, v);
		f->val[nv].blk = e->id;
		redirect(u, exit, v, REF_VAL(nv), nblk0);
		Phi *p = ir_add_phi(f, e, (Cls)f->val[v].cls, e->npred);
		p->to = nv;
		p->arg[epos] = REF_VAL(v);
		for (int64_t c = 0; c < n; c++)
			p->arg[phi_pos(e, heads[c])] = opt_mapped(maps[c], REF_VAL(v));
	}
}

/* Repeats the body u times inside the loop, dropping the copies' tests.
 * All copies are made from the untouched loop first, then chained:
 * latch -> copy 1 -> ... -> copy u-1 -> header. */
static void partial(U *un, int u)
{
	Fn *f = un->f;
	Loop *l = un->l;
	Blk *h = f->blk[l->head];
	int latch = l->latch[0], pl = phi_pos(h, latch);
	int room = map_room(f, l) * (u + 1);
	Ref *prev = NULL;
	int *heads = arena_alloc(f->ctx->arena, sizeof(int) * (size_t)(u + 1));
	int *latches = arena_alloc(f->ctx->arena, sizeof(int) * (size_t)(u + 1));
	latches[0] = latch;
	for (int c = 1; c < u; c++) {
		Ref *map = new_map(f, room);
		for (int j = 0; j < h->nphi; j++) {
			Phi *p = &h->phi[j];
			map[p->to] = prev ? opt_mapped(prev, p->arg[pl]) : p->arg[pl];
		}
		int *bmap = clone_body(un, map, l->head, 0);
		heads[c] = bmap[l->head];
		latches[c] = bmap[latch];
		prev = map;
	}
	for (int c = 1; c < u; c++) {
		f->blk[latches[c - 1]]->s1 = heads[c];
		push_pred(f, f->blk[heads[c]], latches[c - 1]);
	}
	h->pred[pl] = latches[u - 1];
	for (int j = 0; j < h->nphi; j++)
		h->phi[j].arg[pl] = opt_mapped(prev, h->phi[j].arg[pl]);
}

/* iv = phi(c0, iv + step) compared with a constant: the partial unroll's
 * condition (the count is then exact arithmetic). */
static int linear(U *u, Ins *cond)
{
	Phi *p = u->g.phi[u->iv];
	Ref next = p->arg[u->from_latch];
	if (next.kind != R_VAL)
		return 0;
	Ins *i = u->g.def[next.idx];
	if (!i || i->op != O_ADD || narrow(i->ty))
		return 0;
	int iv_first = i->arg[0].kind == R_VAL && (int)i->arg[0].idx == u->iv;
	Ref step = iv_first ? i->arg[1] : i->arg[0];
	Ref ivr = iv_first ? i->arg[0] : i->arg[1];
	if (step.kind != R_CON || ivr.kind != R_VAL || (int)ivr.idx != u->iv)
		return 0;
	int a0 = cond->arg[0].kind == R_VAL && (int)cond->arg[0].idx == u->iv;
	int a1 = cond->arg[1].kind == R_VAL && (int)cond->arg[1].idx == u->iv;
	return (a0 && cond->arg[1].kind == R_CON) || (a1 && cond->arg[0].kind == R_CON);
}

/* The header of l (one latch) when it branches on one value and the
 * latch jumps back to it, the shape both unrollings take; NULL when not,
 * or when the loop was unrolled already (but for a loop the run-time
 * unroller left behind a wide unrolling: `again`, see below). */
static Blk *plain_header(Fn *f, Loop *l, int again)
{
	Blk *h = f->blk[l->head];
	Blk *lb = f->blk[l->latch[0]];
	if ((h->unrolled && !(again && h->unrolled == UNROLL_AGAIN)) || !h->nphi || h->jmp != J_JNZ ||
	    h->s1 == h->s2 || lb->jmp != J_JMP || h->cond.kind != R_VAL)
		return NULL;
	return h;
}

/* Do the tests of the loops directly inside u->l compare only values
 * that u->l's induction variable and constants determine (an inner
 * header phi by its first value)?  Then each copy of a full unrolling
 * holds inner loops with constant trip counts, which the next sweep
 * unrolls in turn: `k = 2; while k <= 1024: j = k // 2; while j > 0:`. */
static int inner_counted(U *u, int64_t ivval)
{
	Fn *f = u->f;
	int me = (int)(u->l - u->g.loop);
	for (int i = 0; i < u->g.nloop; i++) {
		Loop *m = &u->g.loop[i];
		if (m->parent != me)
			continue;
		Blk *h = f->blk[m->head];
		if (m->pre < 0 || h->jmp != J_JNZ || h->cond.kind != R_VAL)
			return 0;
		Ins *cond = u->g.def[h->cond.idx];
		if (!cond || cond->op != O_CMP)
			return 0;
		for (int k = 0; k < 2; k++) {
			Ref r = cond->arg[k];
			for (int j = 0; j < h->nphi; j++)
				if (is_val(r, h->phi[j].to))
					r = h->phi[j].arg[phi_pos(h, m->pre)];
			int64_t v;
			if (!eval(u, r, ivval, &v, 0))
				return 0;
		}
	}
	return 1;
}

/* Unrolls loop u->l fully (allow_partial 0) or by a factor (1); a loop
 * with loops inside only fully, when that makes theirs counted. */
static int try_loop(Fn *f, U *u, int allow_partial)
{
	Loop *l = u->l;
	if ((l->ninner && allow_partial) || l->pre < 0 || l->nlatch != 1 || l->nexit != 1)
		return 0;
	Blk *h = plain_header(f, l, 0);
	if (!h)
		return 0;
	int stay_if = l->in[h->s1];
	int exit = stay_if ? h->s2 : h->s1;
	if (l->in[exit])
		return 0;
	Ins *cond = u->g.def[h->cond.idx];
	if (!cond || cond->op != O_CMP || u->g.defblk[h->cond.idx] != l->head)
		return 0;
	/* the induction variable: the header phi the condition reads */
	u->iv = -1;
	for (int j = 0; j < h->nphi; j++) {
		int v = h->phi[j].to;
		for (int k = 0; k < 2; k++)
			if (cond->arg[k].kind == R_VAL && (int)cond->arg[k].idx == v)
				u->iv = v;
	}
	if (u->iv < 0)
		return 0;
	u->from_pre = phi_pos(h, l->pre);
	u->from_latch = phi_pos(h, l->latch[0]);
	if (u->from_pre < 0 || u->from_latch < 0)
		return 0;
	if (!only_iv(u, h->cond, 0) || !only_iv(u, u->g.phi[u->iv]->arg[u->from_latch], 0))
		return 0;
	int64_t n = trips(u, h->cond, stay_if);
	if (n <= 0)
		return 0;
	int size = body_size(f, l);
	if (!allow_partial) {
		if (n > FULL_TRIPS || n * size > FULL_BUDGET)
			return 0;
		if (l->ninner && !inner_counted(u, con_value(f, u->g.phi[u->iv]->arg[u->from_pre])))
			return 0;
		full(u, n + 1, exit);   /* the last copy only tests and leaves */
		return 1;
	}
	if (!linear(u, cond))
		return 0;
	for (int k = 4; k >= 2; k /= 2)
		if (n % k == 0 && k * size <= PART_BUDGET) {
			partial(u, k);
			return 1;
		}
	return 0;
}

/* ------------------------------------------- run-time trip counts
 *
 * A loop `for k in range(init, n)` whose bound is only known when the
 * kernel runs: an innermost loop leaving only from its header, whose
 * test is `iv < n` (signed or unsigned, or `n > iv`) with n invariant and
 * iv a header phi stepped by 1.  It runs exactly cnt = n - init times
 * when init < n, else none (iv cannot wrap: it stays below n).  The
 * preheader computes
 *
 *     lim = init + ((init < n ? n - init : 0) & -4)
 *
 * and a new loop in front of the old one runs four copies of the body
 * per test of `iv < lim` (the same comparison, so the same order of
 * values): floor(cnt / 4) times, the copies' own tests dropped.  The old
 * loop follows, entered with the values the new one leaves, and runs the
 * remaining cnt mod 4 iterations with its test intact; every value of
 * the loop used after it is still defined by the old loop's header,
 * which runs at least once more.  Small bodies only (RT_BUDGET), as
 * nvcc does.
 *
 * A step other than 1 (a constant, or a value invariant in the loop: the
 * grid stride of `for i in range(cuda.grid(1), n, cuda.gridsize(1))`),
 * and a loop counting down (`iv > n` with a negative step), are unrolled
 * the same way with another test.  The four bodies may run when the
 * first and the next three values all pass the loop's own test without
 * the arithmetic wrapping: with iv on the staying side of n, the
 * distance d = n - iv (iv - n counting down) is exact as an unsigned
 * number, and the next three values stay on that side exactly when
 * d > 3 * |step| as unsigned numbers.  The preheader computes
 *
 *     s3 = s >u UMAX / 3 ? UMAX : 3 * s      (s = step, or -step down)
 *
 * (UMAX the class's all-ones: a step too large, or of the wrong sign,
 * makes s3 UMAX and the four-body loop never runs), and the new header
 * tests `iv < n && d >u s3`.  Each copy steps from the new header's iv
 * by step, 2 step, 3 step (sums made in the preheader), so the counter
 * stays a basic induction variable of step 4 step.  The old loop still
 * runs whatever is left with its own test, so the values the loop
 * computes are those of the original, in the same order; where the
 * original wraps, the new test fails first and the old loop wraps as
 * before.
 *
 * A grid-stride loop (its step ntid * nctaid, cuda.gridsize's) with a
 * small body (RT_WIDE_BUDGET) runs many times per thread: it gets eight
 * copies per test (uf = 8: the count rounded down by & -8, s3 = 7 * s),
 * and the loop left behind (Blk.unrolled UNROLL_AGAIN) four more in the
 * next sweep, so that at most three iterations run one at a time.
 * Other loops (a row per block, a CSR segment) run a few times, where
 * eight copies would leave their trips to the old loop. */
enum { RT_FACTOR = 4, RT_BUDGET = 64, RT_WIDE = 8, RT_WIDE_BUDGET = 32 };

/* The instruction defining r, through conversions (widening, narrowing). */
static Ins *def_through_cvt(U *u, Ref r)
{
	for (int depth = 0; depth < 4 && r.kind == R_VAL && (int)r.idx < u->nval; depth++) {
		Ins *i = u->g.def[r.idx];
		if (!i || i->op != O_CVT)
			return i;
		r = i->arg[0];
	}
	return NULL;
}

/* Is r the number of threads of the grid along one axis (ntid * nctaid,
 * cuda.gridsize's)?  A loop stepping by it is a grid-stride loop, which
 * runs n / (the grid's threads) times: many, as the grid is sized to the
 * GPU rather than to the data. */
static int is_grid_size(U *u, Ref r)
{
	Ins *m = def_through_cvt(u, r);
	if (!m || m->op != O_MUL)
		return 0;
	Ins *a = def_through_cvt(u, m->arg[0]), *b = def_through_cvt(u, m->arg[1]);
	if (!a || !b || a->op != O_SREG || b->op != O_SREG)
		return 0;
	int x = a->aux, y = b->aux;
	for (int d = 0; d < 3; d++)
		if ((x == SR_NTID_X + d && y == SR_NCTAID_X + d) || (y == SR_NTID_X + d && x == SR_NCTAID_X + d))
			return 1;
	return 0;
}

static Ref pre_ins(Fn *f, Blk *b, Opcode op, Cls k, int ty, Ref a, Ref c, Ref d, int aux)
{
	int loc = f->cur_loc;
	f->cur_loc = -1;
	Ref r = ir_ins(f, b, op, k, (ScalarKind)ty, a, c, d, aux);
	f->cur_loc = loc;
	return r;
}

static int try_runtime(Fn *f, U *u, int general)
{
	Loop *l = u->l;
	if (l->ninner || l->pre < 0 || l->nlatch != 1 || l->nexit != 1)
		return 0;
	Blk *h = plain_header(f, l, 1);
	if (!h)
		return 0;
	if (!l->in[h->s1] || l->in[h->s2])
		return 0;            /* stays on true: `jnz (iv < n) body exit` */
	Ins *cond = u->g.def[h->cond.idx];
	if (!cond || cond->op != O_CMP || u->g.defblk[h->cond.idx] != l->head || narrow(cond->ty))
		return 0;
	if (cond->aux != CC_LT && cond->aux != CC_LTU && cond->aux != CC_GT && cond->aux != CC_GTU)
		return 0;
	/* the side of the header phi; up: the test is iv < n (or n > iv) */
	int ivside = -1;
	for (int sd = 0; sd < 2 && ivside < 0; sd++) {
		Ref r = cond->arg[sd];
		if (r.kind == R_VAL && (int)r.idx < u->nval && u->g.phi[r.idx] && u->g.defblk[r.idx] == l->head &&
		    opt_invariant(&u->g, l, cond->arg[!sd]))
			ivside = sd;
	}
	if (ivside < 0)
		return 0;
	int up = (cond->aux == CC_LT || cond->aux == CC_LTU) == (ivside == 0);
	Ref ivr = cond->arg[ivside], n = cond->arg[!ivside];
	u->iv = (int)ivr.idx;
	Phi *p = u->g.phi[u->iv];
	u->from_pre = phi_pos(h, l->pre);
	u->from_latch = phi_pos(h, l->latch[0]);
	if (u->from_pre < 0 || u->from_latch < 0)
		return 0;
	Ref init = p->arg[u->from_pre], next = p->arg[u->from_latch];
	if (init.kind == R_CON && n.kind == R_CON)
		return 0;            /* a constant count: the passes above */
	Ins *add = next.kind == R_VAL ? u->g.def[next.idx] : NULL;
	if (!add || add->op != O_ADD || add->cls != p->cls || narrow(add->ty) ||
	    (p->cls != KW && p->cls != KL) || ir_cls_of_sk((ScalarKind)cond->ty) != p->cls)
		return 0;
	Ref step = is_val(add->arg[0], u->iv) ? add->arg[1] : is_val(add->arg[1], u->iv) ? add->arg[0] : REF_NONE;
	if (step.kind == R_NONE || (step.kind != R_CON && !opt_invariant(&u->g, l, step)))
		return 0;
	int size = body_size(f, l);
	if (size > RT_BUDGET)
		return 0;
	int uf = size <= RT_WIDE_BUDGET && h->unrolled != UNROLL_AGAIN && is_grid_size(u, step) ? RT_WIDE
	                                                                                       : RT_FACTOR;
	int unit = up && step.kind == R_CON && con_value(f, step) == 1;
	if (unit == general)
		return 0;

	/* the preheader: lim */
	Cls k = (Cls)p->cls;
	int ty = cond->ty;
	Blk *pre = f->blk[l->pre];
	Ref ca[2], lim = REF_NONE, s3 = REF_NONE, ks[RT_WIDE];
	int uty = k == KL ? SK_U64 : SK_U32;
	if (unit) {
		ca[ivside] = init;
		ca[!ivside] = n;
		Ref ok = pre_ins(f, pre, O_CMP, KB, ty, ca[0], ca[1], REF_NONE, cond->aux);
		Ref d = pre_ins(f, pre, O_SUB, k, add->ty, n, init, REF_NONE, 0);
		Ref cnt = pre_ins(f, pre, O_SEL, k, add->ty, ok, d, ir_con_int(f, k, 0), 0);
		Ref q = pre_ins(f, pre, O_AND, k, add->ty, cnt, ir_con_int(f, k, -uf), REF_NONE, 0);
		lim = pre_ins(f, pre, O_ADD, k, add->ty, init, q, REF_NONE, 0);
	} else {
		Ref s = up ? step : pre_ins(f, pre, O_NEG, k, add->ty, step, REF_NONE, REF_NONE, 0);
		int64_t part = k == KL ? (int64_t)(UINT64_MAX / (uint64_t)(uf - 1))
		                       : (int64_t)(UINT32_MAX / (uint32_t)(uf - 1));
		Ref big = pre_ins(f, pre, O_CMP, KB, uty, s, ir_con_int(f, k, part), REF_NONE, CC_GTU);
		Ref m3 = pre_ins(f, pre, O_MUL, k, uty, s, ir_con_int(f, k, uf - 1), REF_NONE, 0);
		s3 = pre_ins(f, pre, O_SEL, k, uty, big, ir_con_int(f, k, -1), m3, 0);
		ks[0] = step;
		for (int c = 1; c < uf; c++)
			ks[c] = pre_ins(f, pre, O_ADD, k, add->ty, ks[c - 1], step, REF_NONE, 0);
	}

	/* the new header: a phi for each of the old header's, and the test */
	int nphi = h->nphi, latch = l->latch[0];
	Blk *h4 = ir_new_blk(f);
	h4->unrolled = 1;
	h->unrolled = uf == RT_WIDE ? UNROLL_AGAIN : 1;
	int *p4 = arena_alloc(f->ctx->arena, sizeof(int) * (size_t)nphi);
	for (int j = 0; j < nphi; j++) {
		Phi *np = ir_add_phi(f, h4, (Cls)h->phi[j].cls, 2);
		f->val[np->to].name = f->val[h->phi[j].to].name;
		p4[j] = np->to;
	}
	int iv4 = -1;
	for (int j = 0; j < nphi; j++)
		if (h->phi[j].to == u->iv)
			iv4 = p4[j];
	ca[ivside] = REF_VAL(iv4);
	ca[!ivside] = unit ? lim : n;
	Ref c4 = pre_ins(f, h4, O_CMP, KB, ty, ca[0], ca[1], REF_NONE, cond->aux);
	/* the distance test in a block of its own: value ranges read each
	 * test as a fact about the bodies (iv4 < n bounds the counter) */
	Blk *hd = NULL;
	Ref room4 = REF_NONE;
	if (!unit) {
		hd = ir_new_blk(f);
		Ref d = up ? pre_ins(f, hd, O_SUB, k, uty, n, REF_VAL(iv4), REF_NONE, 0)
		           : pre_ins(f, hd, O_SUB, k, uty, REF_VAL(iv4), n, REF_NONE, 0);
		room4 = pre_ins(f, hd, O_CMP, KB, uty, d, s3, REF_NONE, CC_GTU);
	}

	/* uf copies of the body, chained; the last jumps back to h4 */
	int room = map_room(f, l) * (uf + 1);
	Ref *prev = NULL, *maps[RT_WIDE];
	int heads[RT_WIDE], latches[RT_WIDE], nblk0 = f->nblk;
	for (int c = 0; c < uf; c++) {
		Ref *map = maps[c] = new_map(f, room);
		for (int j = 0; j < nphi; j++) {
			Phi *op = &h->phi[j];
			map[op->to] = prev ? opt_mapped(prev, op->arg[u->from_latch]) : REF_VAL(p4[j]);
		}
		int *bmap = clone_body(u, map, h4->id, 0);
		heads[c] = bmap[l->head];
		latches[c] = bmap[latch];
		prev = map;
	}
	for (int c = 1; c < uf; c++) {
		f->blk[latches[c - 1]]->s1 = heads[c];
		push_pred(f, f->blk[heads[c]], latches[c - 1]);
	}
	/* copy c's step of iv becomes iv4 + (c + 1) step, not a chain */
	for (int c = 0; c < uf; c++) {
		Ref nx = maps[c][next.idx];
		for (int b = nblk0; b < f->nblk && nx.kind == R_VAL; b++)
			for (int j = 0; j < f->blk[b]->nins; j++) {
				Ins *i = &f->blk[b]->ins[j];
				if (i->to == (int)nx.idx && i->op == O_ADD) {
					i->arg[0] = REF_VAL(iv4);
					i->arg[1] = unit ? ir_con_int(f, k, c + 1) : ks[c];
				}
			}
	}
	Blk *x = ir_new_blk(f);
	if (hd) {
		ir_jnz(h4, c4, hd->id, x->id);
		push_pred(f, hd, h4->id);
		ir_jnz(hd, room4, heads[0], x->id);
		push_pred(f, f->blk[heads[0]], hd->id);
		push_pred(f, x, hd->id);
	} else {
		ir_jnz(h4, c4, heads[0], x->id);
		push_pred(f, f->blk[heads[0]], h4->id);
	}
	push_pred(f, h4, l->pre);
	push_pred(f, h4, latches[uf - 1]);
	for (int j = 0; j < nphi; j++) {
		Phi *np = &h4->phi[j];
		np->arg[0] = h->phi[j].arg[u->from_pre];
		np->arg[1] = opt_mapped(prev, h->phi[j].arg[u->from_latch]);
	}
	/* pre -> h4 -> x -> the old loop */
	pre->s1 = h4->id;
	push_pred(f, x, h4->id);
	ir_jmp(x, l->head);
	h->pred[u->from_pre] = x->id;
	for (int j = 0; j < nphi; j++)
		h->phi[j].arg[u->from_pre] = REF_VAL(p4[j]);
	return 1;
}

/* Twice: the loops left behind eight-body ones get a four-body one */
static int sweep_runtime(Fn *f, int general)
{
	int done = 0;
	for (int pass = 0; pass < 2; pass++) {
		U u = {.f = f};
		opt_fill_cfg(f, &u.g);
		u.nblk = f->nblk;
		u.nval = f->nval;
		int now = 0;
		for (int i = 0; i < u.g.nloop; i++) {
			u.l = &u.g.loop[i];
			now += try_runtime(f, &u, general);
		}
		if (!now)
			break;
		ir_fill_rpo(f);
		opt_fold(f);
		opt_copy(f);
		opt_dce(f);
		done += now;
	}
	return done;
}

/* Each loop is transformed at most once per analysis, and none around
 * or inside one that was: loops that do not nest share no block, and a
 * transformation only adds blocks and values, so the others' analysis
 * stays right (for the blocks and values it knew: in_loop and def_blk
 * place the new ones outside). */
static int sweep(Fn *f, int allow_partial)
{
	U u = {.f = f};
	opt_fill_cfg(f, &u.g);
	u.nblk = f->nblk;
	u.nval = f->nval;
	char *touched = arena_alloc(f->ctx->arena, (size_t)u.nblk + 1);
	memset(touched, 0, (size_t)u.nblk + 1);
	int done = 0;
	for (int i = 0; i < u.g.nloop; i++) {
		u.l = &u.g.loop[i];
		int free_ = 1;
		for (int k = 0; k < u.l->nblk; k++)
			free_ &= !touched[u.l->blk[k]];
		if (!free_ || !try_loop(f, &u, allow_partial))
			continue;
		done++;
		for (int k = 0; k < u.l->nblk; k++)
			touched[u.l->blk[k]] = 1;
	}
	if (done) {
		ir_fill_rpo(f);
		opt_fold(f);
		opt_copy(f);
		opt_dce(f);
	}
	return done;
}

void opt_unroll(Fn *f)
{
	for (int round = 0; round < 8 && sweep(f, 0); round++)
		;
	sweep(f, 1);
	sweep_runtime(f, 0);
}

void opt_unroll_stride(Fn *f)
{
	sweep_runtime(f, 0);     /* a body that scalar replacement made small enough */
	sweep_runtime(f, 1);
}

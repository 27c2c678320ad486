/*
 * promote.c - scalar replacement: memory a loop owns held in registers.
 *
 * Precondition: a verified function, after licm (invariant addresses are
 * computed before their loops).  An innermost loop with a preheader,
 * leaving only from its header, qualifies when every memory access in it
 * is a load or store of global or local memory at an address that is the
 * same number in every iteration, and nothing else in it has an effect
 * (no atomic, barrier, fence, call, warp operation, trap or print).  The
 * addresses are sums of loop-invariant terms and a constant; all of them
 * must share the same terms, so that two of them are the same place or
 * places apart by their constants (states[tid].s0 and states[tid].s1),
 * and no two places may overlap in part.  Each place must be stored in
 * the loop, and every access must lie in a block that runs in each
 * iteration (one dominating the latch), of a 32- or 64-bit kind (a
 * register holds exactly what memory does).  Another thread cannot touch
 * such a place without a race the program already has: the loop has no
 * synchronisation to order it.
 *
 * The preheader then tests the header's own comparison on the values
 * that enter the loop (the header's test must be one comparison of its
 * phis and invariants): when the loop will run, a new block loads each
 * place once; a new preheader joins the two paths with a phi per place
 * (0 where the loop will not run and never reads it) and a flag.  In the
 * loop each place is a header phi: a load reads the value the last
 * store before it (in dominance order) wrote, or the phi; the last
 * store's value goes around the back edge.  On the exit a new block,
 * entered when the flag says the loop ran (then every place was stored),
 * stores each place's value once.  The memory the loop leaves is what it
 * left before, and every load the loop made is made once before it on
 * the same condition, so no address is read that was not read before.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

enum { MAXT = 6, MAXLOC = 8 };

typedef struct Addr {
	int nt;
	Ref t[MAXT];
	int64_t c;
} Addr;

typedef struct Place {
	int64_t off;
	int ty, space, size, stored;
	Ref addr;         /* an address of it defined before the loop */
	Ref cur;          /* while rewriting: its value at this point */
	int phi;          /* its header phi */
} Place;

static int flatten(const Cfg *g, Fn *f, Ref r, Addr *a, int depth)
{
	if (r.kind == R_CON) {
		a->c += f->con[r.idx].i;
		return 1;
	}
	if (r.kind != R_VAL || depth > 12)
		return 0;
	const Ins *d = (int)r.idx < g->ndef ? g->def[r.idx] : NULL;
	if (d && d->op == O_ADD && d->cls == KL)
		return flatten(g, f, d->arg[0], a, depth + 1) && flatten(g, f, d->arg[1], a, depth + 1);
	if (a->nt == MAXT)
		return 0;
	a->t[a->nt++] = r;
	return 1;
}

static int ref_cmp(const void *x, const void *y)
{
	const Ref *a = x, *b = y;
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int kind_size(int ty)
{
	switch (ty) {
	case SK_I32: case SK_U32: case SK_F32: return 4;
	case SK_I64: case SK_U64: case SK_F64: return 8;
	default: return 0;
	}
}

static void push_pred(Fn *f, Blk *b, int p)
{
	b->pred = arena_grow(f->ctx->arena, b->pred, b->npred, &b->cappred, sizeof *b->pred);
	b->pred[b->npred++] = p;
}

static Ref add_ins(Fn *f, Blk *b, Opcode op, Cls k, int ty, Ref a, Ref c, int aux)
{
	int loc = f->cur_loc;
	f->cur_loc = -1;
	Ref r = ir_ins(f, b, op, k, (ScalarKind)ty, a, c, REF_NONE, aux);
	f->cur_loc = loc;
	return r;
}

static int phi_pos(const Blk *b, int pred)
{
	for (int j = 0; j < b->npred; j++)
		if (b->pred[j] == pred)
			return j;
	return -1;
}

/* The blocks of l that run in every iteration, in dominance order. */
static int spine(const Cfg *g, const Loop *l, int *out)
{
	int n = 0;
	for (int b = l->latch[0]; n < l->nblk; b = g->idom[b]) {
		out[n++] = b;
		if (b == l->head)
			break;
	}
	for (int i = 0; i < n / 2; i++) {
		int t = out[i];
		out[i] = out[n - 1 - i];
		out[n - 1 - i] = t;
	}
	return n;
}

static int try_loop(Fn *f, Cfg *g, Loop *l)
{
	if (l->ninner || l->pre < 0 || l->nlatch != 1 || l->nexit != 1)
		return 0;
	Blk *h = f->blk[l->head];
	if (h->jmp != J_JNZ || h->cond.kind != R_VAL || h->s1 == h->s2 || !l->in[h->s1] || l->in[h->s2])
		return 0;
	Blk *ex = f->blk[h->s2];
	if (ex->npred != 1 || ex->nphi)
		return 0;
	Ins *cond = (int)h->cond.idx < g->ndef ? g->def[h->cond.idx] : NULL;
	if (!cond || cond->op != O_CMP || g->defblk[h->cond.idx] != l->head)
		return 0;
	int pp = phi_pos(h, l->pre);
	Ref ca[2];
	for (int s = 0; s < 2; s++) {
		Ref r = cond->arg[s];
		if (opt_invariant(g, l, r))
			ca[s] = r;
		else if (r.kind == R_VAL && (int)r.idx < g->ndef && g->phi[r.idx] && g->defblk[r.idx] == l->head)
			ca[s] = g->phi[r.idx]->arg[pp];
		else
			return 0;
	}
	int *sp = arena_alloc(f->ctx->arena, sizeof(int) * (size_t)(l->nblk + 1));
	int nsp = spine(g, l, sp);
	char *on = arena_alloc(f->ctx->arena, (size_t)f->nblk + 1);
	memset(on, 0, (size_t)f->nblk + 1);
	for (int k = 0; k < nsp; k++)
		on[sp[k]] = 1;

	Place pl[MAXLOC];
	int np = 0;
	Addr base = {0};
	int have_base = 0;
	for (int k = 0; k < l->nblk; k++) {
		Blk *bk = f->blk[l->blk[k]];
		for (int j = 0; j < bk->nins; j++) {
			Ins *i = &bk->ins[j];
			if (i->op == O_NOP_)
				continue;
			if (i->op != O_LOAD && i->op != O_STORE) {
				if (i->op >= NOPS || (op_info[i->op].effect && i->op != O_CHECK) || i->op == O_FARG ||
				    i->op == O_CRES)
					return 0;
				continue;
			}
			if ((i->aux != SP_GLOBAL && i->aux != SP_LOCAL) || !on[bk->id] || !kind_size(i->ty))
				return 0;
			Addr a = {0};
			if (!flatten(g, f, i->arg[0], &a, 0))
				return 0;
			for (int t = 0; t < a.nt; t++)
				if (!opt_invariant(g, l, a.t[t]))
					return 0;
			qsort(a.t, (size_t)a.nt, sizeof a.t[0], ref_cmp);
			if (!have_base) {
				base = a;
				have_base = 1;
			} else if (base.nt != a.nt || memcmp(base.t, a.t, sizeof a.t[0] * (size_t)a.nt))
				return 0;          /* other terms: it may be anywhere */
			int p = -1;
			for (int q = 0; q < np; q++)
				if (pl[q].off == a.c)
					p = q;
			if (p < 0) {
				if (np == MAXLOC)
					return 0;
				p = np++;
				pl[p] = (Place){.off = a.c, .ty = i->ty, .space = i->aux, .size = kind_size(i->ty),
				                .addr = REF_NONE};
			}
			if (pl[p].ty != i->ty || pl[p].space != i->aux)
				return 0;
			if (i->op == O_STORE)
				pl[p].stored = 1;
			if (pl[p].addr.kind == R_NONE && opt_invariant(g, l, i->arg[0]))
				pl[p].addr = i->arg[0];
		}
	}
	if (!np)
		return 0;
	for (int p = 0; p < np; p++) {
		if (!pl[p].stored || pl[p].addr.kind == R_NONE)
			return 0;
		for (int q = 0; q < np; q++)
			if (q != p && pl[q].off < pl[p].off + pl[p].size && pl[p].off < pl[q].off + pl[q].size)
				return 0;
	}

	/* pre: jnz (the test on the entry values) L1 N; L1 loads; both to P2 */
	Blk *pre = f->blk[l->pre];
	Ref c0 = add_ins(f, pre, O_CMP, KB, cond->ty, ca[0], ca[1], cond->aux);
	Blk *l1 = ir_new_blk(f), *nb = ir_new_blk(f), *p2 = ir_new_blk(f);
	ir_jnz(pre, c0, l1->id, nb->id);
	push_pred(f, l1, pre->id);
	push_pred(f, nb, pre->id);
	Ref first[MAXLOC];
	for (int p = 0; p < np; p++) {
		Cls k = ir_cls_of_sk((ScalarKind)pl[p].ty);
		first[p] = add_ins(f, l1, O_LOAD, k, pl[p].ty, pl[p].addr, REF_NONE, pl[p].space);
	}
	ir_jmp(l1, p2->id);
	ir_jmp(nb, p2->id);
	push_pred(f, p2, l1->id);
	push_pred(f, p2, nb->id);
	Phi *ran = ir_add_phi(f, p2, KB, 2);
	ran->arg[0] = ir_con_int(f, KB, 1);
	ran->arg[1] = ir_con_int(f, KB, 0);
	int ranv = ran->to;
	int entry[MAXLOC];
	for (int p = 0; p < np; p++) {
		Cls k = ir_cls_of_sk((ScalarKind)pl[p].ty);
		Phi *e = ir_add_phi(f, p2, k, 2);
		e->arg[0] = first[p];
		e->arg[1] = k == KS ? ir_con_f32(f, 0) : k == KD ? ir_con_f64(f, 0) : ir_con_int(f, k, 0);
		entry[p] = e->to;
	}
	ir_jmp(p2, h->id);
	h->pred[pp] = p2->id;

	/* the header's phis, and the loop's loads and stores rewritten */
	int lp = phi_pos(h, l->latch[0]);
	for (int p = 0; p < np; p++) {
		Phi *ph = ir_add_phi(f, h, ir_cls_of_sk((ScalarKind)pl[p].ty), h->npred);
		for (int j = 0; j < h->npred; j++)
			ph->arg[j] = REF_VAL(entry[p]);
		pl[p].phi = ph->to;
		pl[p].cur = REF_VAL(ph->to);
	}
	for (int k = 0; k < nsp; k++) {
		Blk *bk = f->blk[sp[k]];
		for (int j = 0; j < bk->nins; j++) {
			Ins *i = &bk->ins[j];
			if (i->op != O_LOAD && i->op != O_STORE)
				continue;
			Addr a = {0};
			flatten(g, f, i->arg[0], &a, 0);
			int p = 0;
			while (pl[p].off != a.c)
				p++;
			if (i->op == O_STORE) {
				pl[p].cur = i->arg[1];
				*i = (Ins){.op = O_NOP_, .to = -1, .loc = i->loc};
			} else {
				i->op = O_COPY;
				i->arg[0] = pl[p].cur;
				i->arg[1] = REF_NONE;
				i->aux = 0;
			}
		}
	}
	for (int p = 0; p < np; p++)
		for (int j = 0; j < h->nphi; j++)
			if (h->phi[j].to == pl[p].phi)
				h->phi[j].arg[lp] = pl[p].cur;

	/* the exit: jnz ran S ex; S stores each place */
	Blk *j1 = ir_new_blk(f), *st = ir_new_blk(f);
	h->s2 = j1->id;
	push_pred(f, j1, h->id);
	ir_jnz(j1, REF_VAL(ranv), st->id, ex->id);
	push_pred(f, st, j1->id);
	for (int p = 0; p < np; p++) {
		int loc = f->cur_loc;
		f->cur_loc = -1;
		ir_ins(f, st, O_STORE, ir_cls_of_sk((ScalarKind)pl[p].ty), (ScalarKind)pl[p].ty, pl[p].addr, REF_VAL(pl[p].phi), REF_NONE,
		       pl[p].space);
		f->cur_loc = loc;
	}
	ir_jmp(st, ex->id);
	ex->pred[0] = j1->id;
	push_pred(f, ex, st->id);
	return 1;
}

void opt_promote(Fn *f)
{
	for (int round = 0; round < 16; round++) {
		Cfg g;
		opt_fill_cfg(f, &g);
		int done = 0;
		for (int i = 0; i < g.nloop && !done; i++)
			done = try_loop(f, &g, &g.loop[i]);
		if (!done)
			break;
		ir_fill_rpo(f);
	}
}

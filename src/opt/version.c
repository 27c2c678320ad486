/*
 * version.c - loop versioning on the sign of an induction variable's
 * start.
 *
 * Python wraps a negative index, so lowering guards every index that may
 * be negative with `i < 0 ? i + n : i`; range.c proves most of them
 * non-negative and fold removes the guard.  It cannot when a loop counter
 * starts at a value of unknown sign, as in CSR's
 *
 *     for k in range(indptr[row], indptr[row + 1]):
 *         acc += data[k] * x[indices[k]]
 *
 * where data[k] and indices[k] keep a comparison and a select per
 * iteration.  Such a loop gets a second copy, and the preheader chooses:
 *
 *     pre:   ... ; jnz (start >= 0) @fast @slow
 *     @fast: jmp @head            the loop itself
 *     @slow: jmp @head'           a copy of it
 *     @head, @head' leave to @merge, which has a phi for each value of
 *     the header used after the loop, and jumps to the old exit.
 *
 * Both copies are the original code, so every input, a negative start
 * included, gives the same results in the same order; the test has no
 * effect.  What the copy buys is a fact: the fast loop runs only where
 * start >= 0 dominates it, and range.c reads dominating branches, so the
 * counter's phi joins [0, ...] with its own steps.  The header test bounds
 * iv from above and the step s is a positive constant, so iv + s cannot
 * wrap when the largest iv the test admits plus s fits the class (n - 1 + s
 * under `iv < n`, n + s under `iv <= n`, with n's largest value: always for
 * a 64-bit counter bounded by a 32-bit value, and for `iv < n` stepped by
 * 1); then every value of iv, and of iv + c for a constant c >= 0 where
 * that does not wrap either, is non-negative in the fast loop, and range
 * folds those wraps.  The proof is
 * range.c's, interval arithmetic with the IR's wrapping; where it does
 * not go through (an index iv - 1, a bound near the top of the class),
 * the wrap stays in the fast copy too and the result is still exact.
 * The driver runs range right after this pass, before the unroller
 * copies the body.
 *
 * A loop qualifies when it has a preheader and one latch, leaves only
 * from its header, whose branch stays in the loop on `iv < n` or `iv <= n`
 * (signed; or n > iv, n >= iv: n may be a load in the header, as in a
 * `while`), iv a header phi stepped by a positive constant add; its
 * start is not a constant (range knows a constant's sign); its body holds
 * at least one comparison `x < 0` (or `0 > x`) with x the counter, the
 * counter plus a constant c >= 0, or a sign extension of these (the wraps
 * range could not fold); and the body is small (BUDGET), since the copy
 * is code that a non-negative start never runs.  The copy's loop headers are marked as
 * unrolled (Blk.unrolled) so that the unrollers leave the slow loop
 * alone; the fast loop is the original blocks and stays open to them,
 * to licm, promote, sr and narrow.  Loops are taken innermost first, and
 * none around or inside one already versioned in the same sweep: the
 * analysis of loops that share no block stays valid (the new blocks and
 * values lie outside every loop it knows).
 *
 * Precondition: a verified function, after range (a wrap it folded is not
 * counted).
 */
#include <string.h>

#include "opt.h"

enum { BUDGET = 64 };

typedef struct V {
	Fn *f;
	Cfg g;
	Loop *l;
	int iv;           /* the counter (a header phi) */
	int pp;           /* its argument position from the preheader */
	int nblk, nval;   /* blocks and values when g was made */
} V;

static int in_loop(V *v, int b)
{
	return b >= 0 && b < v->nblk && v->l->in[b];
}

static int is_val(Ref r, int x)
{
	return r.kind == R_VAL && (int)r.idx == x;
}

static Ins *def_of(V *v, Ref r)
{
	return r.kind == R_VAL && (int)r.idx < v->nval ? v->g.def[r.idx] : NULL;
}

static int64_t con_int(Fn *f, Ref r)
{
	Con *c = &f->con[r.idx];
	return c->cls == KW ? (int32_t)c->i : c->i;
}

static int is_int_con(Fn *f, Ref r)
{
	return r.kind == R_CON && (int)r.idx < f->ncon && (f->con[r.idx].cls == KW || f->con[r.idx].cls == KL);
}

static int is_zero(Fn *f, Ref r)
{
	return is_int_con(f, r) && con_int(f, r) == 0;
}

/* Is r the counter, the counter plus a constant >= 0, or a sign
 * extension of one of these? */
static int of_iv(V *v, Ref r, int depth)
{
	if (is_val(r, v->iv))
		return 1;
	Ins *i = def_of(v, r);
	if (!i || depth > 8)
		return 0;
	if (i->op == O_CVT)
		return i->ty == SK_I32 && (i->aux == SK_I64 || i->aux == SK_I32) && of_iv(v, i->arg[0], depth + 1);
	if (i->op != O_ADD || (i->ty != SK_I32 && i->ty != SK_I64))
		return 0;
	for (int k = 0; k < 2; k++)
		if (is_int_con(v->f, i->arg[!k]) && con_int(v->f, i->arg[!k]) >= 0 && of_iv(v, i->arg[k], depth + 1))
			return 1;
	return 0;
}

/* The wraps of the counter in the loop: signed `x < 0` or `0 > x`. */
static int wraps(V *v)
{
	Fn *f = v->f;
	int n = 0;
	for (int k = 0; k < v->l->nblk; k++) {
		Blk *b = f->blk[v->l->blk[k]];
		for (int j = 0; j < b->nins; j++) {
			Ins *i = &b->ins[j];
			if (i->op != O_CMP || (i->ty != SK_I32 && i->ty != SK_I64))
				continue;
			if ((i->aux == CC_LT && is_zero(f, i->arg[1]) && of_iv(v, i->arg[0], 0)) ||
			    (i->aux == CC_GT && is_zero(f, i->arg[0]) && of_iv(v, i->arg[1], 0)))
				n++;
		}
	}
	return n;
}

/* The instructions, phis and branches of l (a block that only jumps on
 * costs nothing), as unroll.c counts them. */
static int body_size(Fn *f, Loop *l)
{
	int n = 0;
	for (int k = 0; k < l->nblk; k++) {
		Blk *b = f->blk[l->blk[k]];
		n += b->nins + b->nphi + (b->jmp == J_JNZ || b->nins + b->nphi > 0);
	}
	return n;
}

static int phi_pos(Blk *b, int pred)
{
	for (int m = 0; m < b->npred; m++)
		if (b->pred[m] == pred)
			return m;
	return -1;
}

/* The exit block of a loop of the shape above, -1 if it is not one; sets
 * v->iv and v->pp. */
static int shape(V *v)
{
	Fn *f = v->f;
	Loop *l = v->l;
	if (l->pre < 0 || l->nlatch != 1 || l->nexit != 1)
		return -1;
	Blk *h = f->blk[l->head];
	if (h->unrolled || h->jmp != J_JNZ || h->s1 == h->s2 || !l->in[h->s1] || l->in[h->s2])
		return -1;
	Ins *c = def_of(v, h->cond);
	if (!c || c->op != O_CMP || v->g.defblk[h->cond.idx] != l->head || (c->ty != SK_I32 && c->ty != SK_I64))
		return -1;
	int side;
	if (c->aux == CC_LT || c->aux == CC_LE)
		side = 0;
	else if (c->aux == CC_GT || c->aux == CC_GE)
		side = 1;
	else
		return -1;
	Ref ivr = c->arg[side];
	if (ivr.kind != R_VAL || (int)ivr.idx >= v->nval || !v->g.phi[ivr.idx] || v->g.defblk[ivr.idx] != l->head)
		return -1;
	v->iv = (int)ivr.idx;
	Phi *p = v->g.phi[v->iv];
	v->pp = phi_pos(h, l->pre);
	int pl = phi_pos(h, l->latch[0]);
	if (v->pp < 0 || pl < 0 || (p->cls != KW && p->cls != KL) || p->arg[v->pp].kind == R_CON)
		return -1;
	Ins *add = def_of(v, p->arg[pl]);
	if (!add || add->op != O_ADD || add->cls != p->cls || !in_loop(v, v->g.defblk[p->arg[pl].idx]))
		return -1;
	Ref step = is_val(add->arg[0], v->iv) ? add->arg[1] : is_val(add->arg[1], v->iv) ? add->arg[0] : REF_NONE;
	if (!is_int_con(f, step) || con_int(f, step) <= 0)
		return -1;
	if (body_size(f, l) > BUDGET || !wraps(v))
		return -1;
	return h->s2;
}

static void push_pred(Fn *f, Blk *b, int p)
{
	b->pred = arena_grow(f->ctx->arena, b->pred, b->npred, &b->cappred, sizeof *b->pred);
	b->pred[b->npred++] = p;
}

static int is_head_val(V *v, Ref r)
{
	return r.kind == R_VAL && (int)r.idx < v->nval && v->g.defblk[r.idx] == v->l->head;
}

/* Marks the header's values used outside the loop (blocks below nblk0,
 * which are the function's blocks when this loop's turn came). */
static void fill_used(V *v, char *used, int nblk0)
{
	Fn *f = v->f;
	for (int b = 0; b < nblk0; b++) {
		if (in_loop(v, b))
			continue;
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			for (int j = 0; j < 3; j++)
				if (is_head_val(v, i->arg[j]))
					used[i->arg[j].idx] = 1;
			if (i->op == O_CHECK && i->aux >= 0 && i->aux < f->nchecks)
				for (int d = 0; d < 8; d++)
					if (is_head_val(v, f->checks[i->aux].ext[d]))
						used[f->checks[i->aux].ext[d].idx] = 1;
		}
		for (int k = 0; k < bk->nphi; k++)
			for (int j = 0; j < bk->phi[k].n; j++)
				if (is_head_val(v, bk->phi[k].arg[j]))
					used[bk->phi[k].arg[j].idx] = 1;
		if (bk->jmp == J_JNZ && is_head_val(v, bk->cond))
			used[bk->cond.idx] = 1;
	}
}

static void swap_in(Ref *r, int from, Ref to)
{
	if (r->kind == R_VAL && (int)r->idx == from)
		*r = to;
}

/* Uses of x outside the loop (blocks below nblk0) become uses of `to`. */
static void redirect(V *v, int x, Ref to, int nblk0)
{
	Fn *f = v->f;
	for (int b = 0; b < nblk0; b++) {
		if (in_loop(v, b))
			continue;
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			for (int j = 0; j < 3; j++)
				swap_in(&i->arg[j], x, to);
			if (i->op == O_CHECK && i->aux >= 0 && i->aux < f->nchecks) {
				CheckInfo ci = f->checks[i->aux];
				int changed = 0;
				for (int d = 0; d < 8; d++)
					if (is_val(ci.ext[d], x)) {
						ci.ext[d] = to;
						changed = 1;
					}
				if (changed) {
					VEC_PUSH(f->ctx, f->checks, f->nchecks, f->capchecks, ci);
					i->aux = f->nchecks - 1;
				}
			}
		}
		for (int k = 0; k < bk->nphi; k++)
			for (int j = 0; j < bk->phi[k].n; j++)
				swap_in(&bk->phi[k].arg[j], x, to);
		if (bk->jmp == J_JNZ)
			swap_in(&bk->cond, x, to);
	}
}

/* A copy of the loop's blocks: jumps inside it stay inside the copy, the
 * exit edge goes to `merge`, the preheader's edge comes from `entry`.
 * map receives every value the copy defines; returns the block map. */
static int *clone_loop(V *v, Ref *map, int entry, int merge)
{
	Fn *f = v->f;
	Loop *l = v->l;
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
		for (int j = 0; j < ob->nphi; j++) {
			Phi *np = ir_add_phi(f, nb, (Cls)ob->phi[j].cls, ob->phi[j].n);
			f->val[np->to].name = f->val[ob->phi[j].to].name;
			map[ob->phi[j].to] = REF_VAL(np->to);
		}
	}
	for (int k = 0; k < l->nblk; k++) {
		Blk *ob = f->blk[l->blk[k]];
		Blk *nb = f->blk[bmap[ob->id]];
		for (int j = 0; j < ob->nins; j++) {
			opt_clone_ins(f, nb, &ob->ins[j], map);
			Ins *ni = &nb->ins[nb->nins - 1];
			if (ni->op == O_CHECK && ni->aux >= 0 && ni->aux < f->nchecks) {
				CheckInfo ci = f->checks[ni->aux];
				for (int d = 0; d < 8; d++)
					ci.ext[d] = opt_mapped(map, ci.ext[d]);
				VEC_PUSH(f->ctx, f->checks, f->nchecks, f->capchecks, ci);
				ni->aux = f->nchecks - 1;
			}
		}
	}
	for (int k = 0; k < l->nblk; k++) {
		Blk *ob = f->blk[l->blk[k]];
		Blk *nb = f->blk[bmap[ob->id]];
		nb->jmp = ob->jmp;
		nb->cond = opt_mapped(map, ob->cond);
		int s[2] = {ob->s1, ob->s2};
		for (int e = 0; e < 2; e++)
			if (s[e] >= 0)
				s[e] = l->in[s[e]] ? bmap[s[e]] : merge;
		nb->s1 = s[0];
		nb->s2 = s[1];
		for (int j = 0; j < ob->npred; j++) {
			int p = ob->pred[j];
			push_pred(f, nb, in_loop(v, p) ? bmap[p] : entry);
		}
		for (int j = 0; j < ob->nphi; j++)
			for (int m = 0; m < ob->phi[j].n; m++)
				nb->phi[j].arg[m] = opt_mapped(map, ob->phi[j].arg[m]);
	}
	return bmap;
}

static void version(V *v, int exit)
{
	Fn *f = v->f;
	Loop *l = v->l;
	Arena *a = f->ctx->arena;
	int nval0 = f->nval, nblk0 = f->nblk, head = l->head;
	char *used = arena_alloc(a, (size_t)nval0 + 1);
	fill_used(v, used, nblk0);

	/* the test at the end of the preheader */
	Blk *pre = f->blk[l->pre];
	Phi *p = v->g.phi[v->iv];
	Cls k = (Cls)p->cls;
	int loc = f->cur_loc;
	f->cur_loc = -1;
	Ref ok = ir_ins(f, pre, O_CMP, KB, k == KL ? SK_I64 : SK_I32, p->arg[v->pp], ir_con_int(f, k, 0), REF_NONE,
	                CC_GE);
	f->cur_loc = loc;
	int fast = ir_new_blk(f)->id, slow = ir_new_blk(f)->id, merge = ir_new_blk(f)->id;

	Ref *map = arena_alloc(a, sizeof(Ref) * (size_t)(nval0 + 1));
	int *bmap = clone_loop(v, map, slow, merge);

	ir_jnz(f->blk[l->pre], ok, fast, slow);
	ir_jmp(f->blk[fast], head);
	push_pred(f, f->blk[fast], l->pre);
	ir_jmp(f->blk[slow], bmap[head]);
	push_pred(f, f->blk[slow], l->pre);
	f->blk[head]->pred[v->pp] = fast;

	/* both headers leave to merge, which goes on to the old exit */
	Blk *h = f->blk[head];
	if (h->s1 == exit)
		h->s1 = merge;
	else
		h->s2 = merge;
	Blk *m = f->blk[merge];
	push_pred(f, m, head);
	push_pred(f, m, bmap[head]);
	ir_jmp(m, exit);
	Blk *e = f->blk[exit];
	e->pred[phi_pos(e, head)] = merge;
	for (int x = 0; x < nval0; x++) {
		if (!used[x])
			continue;
		Phi *q = ir_add_phi(f, m, (Cls)f->val[x].cls, 2);
		q->arg[0] = REF_VAL(x);
		q->arg[1] = opt_mapped(map, REF_VAL(x));
		f->val[q->to].name = f->val[x].name;
		redirect(v, x, REF_VAL(q->to), nblk0);
	}

	/* the unrollers leave the slow copy's loops alone */
	for (int i = 0; i < v->g.nloop; i++)
		if (l->in[v->g.loop[i].head])
			f->blk[bmap[v->g.loop[i].head]]->unrolled = 1;
}

int opt_version(Fn *f)
{
	V v = {.f = f};
	opt_fill_cfg(f, &v.g);
	v.nblk = f->nblk;
	v.nval = f->nval;
	char *touched = arena_alloc(f->ctx->arena, (size_t)v.nblk + 1);
	memset(touched, 0, (size_t)v.nblk + 1);
	int done = 0;
	for (int i = 0; i < v.g.nloop; i++) {
		v.l = &v.g.loop[i];
		int free_ = v.l->pre < 0 || !touched[v.l->pre];
		for (int k = 0; k < v.l->nblk; k++)
			free_ &= !touched[v.l->blk[k]];
		int exit = free_ ? shape(&v) : -1;
		if (exit < 0)
			continue;
		touched[v.l->pre] = 1;   /* its branch changes: a loop around it would leave twice */
		version(&v, exit);
		done++;
		for (int k = 0; k < v.l->nblk; k++)
			touched[v.l->blk[k]] = 1;
	}
	if (done)
		ir_fill_rpo(f);
	return done;
}

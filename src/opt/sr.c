/*
 * sr.c - strength reduction of affine index arithmetic in loops.
 *
 * Precondition: a verified function, after licm (invariants are outside
 * their loops).  A basic induction variable is a phi of a loop header
 * whose value around the back edge is iv + step, step invariant, in a
 * 64-bit integer.  A value the loop computes from one such iv with add,
 * sub, mul by an invariant and shl by a constant is affine in it:
 *
 *     v = A * iv + B      A = c * s,   B = c1 * t1 + ... + c4 * t4 + k
 *
 * with s and the t's invariant values (or absent) and c's and k
 * constants.  A value that is affine with A other than 1 and is used by
 * something that is not itself affine arithmetic (an address of a load
 * or store, a comparison, ...) becomes a phi of its own, started at
 * A * init + B in the preheader and advanced by A * step in the latch:
 * the multiplications leave the loop.  Values that differ only in k
 * share one phi and become `phi + (k - k0)`, which ptxas folds into the
 * address of a load (a[i, j], a[i, j + 1] after unrolling).  Wrapping
 * integer arithmetic is a ring, so A * iv + B computed step by step is
 * the same number in every iteration.
 */
#include <string.h>

#include "opt.h"

enum { NT = 4, MAXC = 64 };

typedef struct Aff {
	int ok;
	int iv;              /* the basic induction variable (a value) */
	int64_t ac;
	Ref as;              /* A = ac * as (as REF_NONE: 1) */
	int nt;
	int64_t tc[NT];
	Ref tr[NT];          /* B = sum tc * tr + bc */
	int64_t bc;
} Aff;

typedef struct S {
	Fn *f;
	Cfg g;
	Loop *l;
	Blk *pre;
	Aff *aff;            /* per value (memo), ok = 0: not affine */
	char *done;
	int *ivs;            /* per value: 1 when a basic induction variable */
	Ref *step;           /* per iv: its step */
	Ref *init;           /* per iv: its first value */
} S;

static Ref emit(S *s, Opcode op, Ref a, Ref b)
{
	Fn *f = s->f;
	Blk *p = s->pre;
	int v = ir_new_val(f, KL, NULL);
	f->val[v].blk = p->id;
	Ins i = {.op = (uint16_t)op, .cls = KL, .ty = SK_I64, .to = v, .arg = {a, b, REF_NONE}, .loc = -1};
	p->ins = arena_grow(f->ctx->arena, p->ins, p->nins, &p->capins, sizeof *p->ins);
	p->ins[p->nins++] = i;
	return REF_VAL(v);
}

static Ref con(S *s, int64_t v)
{
	return ir_con_int(s->f, KL, v);
}

static int is_con(S *s, Ref r, int64_t *v)
{
	if (r.kind != R_CON || (int)r.idx >= s->f->ncon || s->f->con[r.idx].cls != KL)
		return 0;
	*v = s->f->con[r.idx].i;
	return 1;
}

/* c * r, folded when r is a constant */
static Ref scale(S *s, int64_t c, Ref r)
{
	int64_t k;
	if (r.kind == R_NONE)
		return con(s, c);
	if (is_con(s, r, &k))
		return con(s, (int64_t)((uint64_t)c * (uint64_t)k));
	if (c == 1)
		return r;
	return emit(s, O_MUL, r, con(s, c));
}

static Ref plus(S *s, Ref a, Ref b)
{
	int64_t x, y;
	if (is_con(s, a, &x) && is_con(s, b, &y))
		return con(s, (int64_t)((uint64_t)x + (uint64_t)y));
	if (is_con(s, a, &x) && x == 0)
		return b;
	if (is_con(s, b, &y) && y == 0)
		return a;
	return emit(s, O_ADD, a, b);
}

static Ref times(S *s, Ref a, Ref b)
{
	int64_t x, y;
	if (is_con(s, a, &x))
		return scale(s, x, b);
	if (is_con(s, b, &y))
		return scale(s, y, a);
	return emit(s, O_MUL, a, b);
}

static int add_term(Aff *a, int64_t c, Ref r)
{
	if (r.kind == R_NONE) {
		a->bc = (int64_t)((uint64_t)a->bc + (uint64_t)c);
		return 1;
	}
	for (int k = 0; k < a->nt; k++)
		if (ref_eq(a->tr[k], r)) {
			a->tc[k] = (int64_t)((uint64_t)a->tc[k] + (uint64_t)c);
			return 1;
		}
	if (a->nt == NT)
		return 0;
	a->tc[a->nt] = c;
	a->tr[a->nt++] = r;
	return 1;
}

static int invariant_val(S *s, Ref r)
{
	return r.kind == R_CON || (r.kind == R_VAL && opt_invariant(&s->g, s->l, r));
}

static Aff leaf_inv(S *s, Ref r)
{
	Aff a;
	memset(&a, 0, sizeof a);
	int64_t k;
	a.ok = 1;
	a.iv = -1;
	if (is_con(s, r, &k))
		a.bc = k;
	else
		add_term(&a, 1, r);
	return a;
}

static Aff affine(S *s, Ref r, int depth);

/* x * y with y invariant (not constant): terms and A gain the factor y,
 * products of two values computed in the preheader */
static Aff mul_inv(S *s, Aff x, Ref y)
{
	int64_t k;
	Aff r = x;
	if (is_con(s, y, &k)) {
		r.ac = (int64_t)((uint64_t)x.ac * (uint64_t)k);
		r.bc = (int64_t)((uint64_t)x.bc * (uint64_t)k);
		for (int j = 0; j < x.nt; j++)
			r.tc[j] = (int64_t)((uint64_t)x.tc[j] * (uint64_t)k);
		return r;
	}
	r.as = x.as.kind == R_NONE ? y : times(s, x.as, y);
	r.nt = 0;
	r.bc = 0;
	if (!add_term(&r, 1, times(s, con(s, x.bc), y)))
		r.ok = 0;
	for (int j = 0; j < x.nt && r.ok; j++)
		if (!add_term(&r, x.tc[j], times(s, x.tr[j], y)))
			r.ok = 0;
	return r;
}

static Aff combine(Aff a, Aff b, int64_t sign)
{
	Aff r = a;
	if (a.iv >= 0 && b.iv >= 0) {
		if (a.iv != b.iv || !ref_eq(a.as, b.as)) {
			r.ok = 0;
			return r;
		}
		r.ac = (int64_t)((uint64_t)a.ac + (uint64_t)sign * (uint64_t)b.ac);
	} else if (b.iv >= 0) {
		r.iv = b.iv;
		r.ac = (int64_t)((uint64_t)sign * (uint64_t)b.ac);
		r.as = b.as;
	}
	r.bc = (int64_t)((uint64_t)a.bc + (uint64_t)sign * (uint64_t)b.bc);
	for (int j = 0; j < b.nt; j++)
		if (!add_term(&r, (int64_t)((uint64_t)sign * (uint64_t)b.tc[j]), b.tr[j]))
			r.ok = 0;
	return r;
}

static Aff affine(S *s, Ref r, int depth)
{
	Aff bad;
	memset(&bad, 0, sizeof bad);
	if (invariant_val(s, r))
		return leaf_inv(s, r);
	if (r.kind != R_VAL || depth > 32)
		return bad;
	int v = (int)r.idx;
	if (s->done[v])
		return s->aff[v];
	s->done[v] = 1;
	s->aff[v] = bad;
	if (s->ivs[v]) {
		Aff a;
		memset(&a, 0, sizeof a);
		a.ok = 1;
		a.iv = v;
		a.ac = 1;
		a.as = REF_NONE;
		return s->aff[v] = a;
	}
	Ins *i = s->g.def[v];
	if (!i || i->cls != KL || (i->ty != SK_I64 && i->ty != SK_U64))
		return bad;
	Aff a, b, res = bad;
	int64_t k;
	switch (i->op) {
	case O_ADD: case O_SUB:
		a = affine(s, i->arg[0], depth + 1);
		b = affine(s, i->arg[1], depth + 1);
		if (a.ok && b.ok && (a.iv >= 0 || b.iv >= 0))
			res = combine(a, b, i->op == O_ADD ? 1 : -1);
		break;
	case O_MUL:
		a = affine(s, i->arg[0], depth + 1);
		b = affine(s, i->arg[1], depth + 1);
		if (a.ok && a.iv >= 0 && invariant_val(s, i->arg[1]))
			res = mul_inv(s, a, i->arg[1]);
		else if (b.ok && b.iv >= 0 && invariant_val(s, i->arg[0]))
			res = mul_inv(s, b, i->arg[0]);
		break;
	case O_SHL:
		a = affine(s, i->arg[0], depth + 1);
		if (a.ok && a.iv >= 0 && i->arg[1].kind == R_CON && s->f->con[i->arg[1].idx].i >= 0 &&
		    s->f->con[i->arg[1].idx].i < 63) {
			k = s->f->con[i->arg[1].idx].i;
			res = mul_inv(s, a, con(s, (int64_t)1 << k));
		}
		break;
	case O_COPY:
		res = affine(s, i->arg[0], depth + 1);
		break;
	default:
		break;
	}
	return s->aff[v] = res;
}

static int same_group(const Aff *a, const Aff *b)
{
	if (a->iv != b->iv || a->ac != b->ac || !ref_eq(a->as, b->as) || a->nt != b->nt)
		return 0;
	for (int j = 0; j < a->nt; j++) {
		int found = 0;
		for (int m = 0; m < b->nt; m++)
			if (ref_eq(a->tr[j], b->tr[m]) && a->tc[j] == b->tc[m])
				found = 1;
		if (!found)
			return 0;
	}
	return 1;
}

static int is_affine_op(const Ins *i)
{
	return i->op == O_ADD || i->op == O_SUB || i->op == O_MUL || i->op == O_SHL || i->op == O_COPY;
}

/* Values of the loop used by something other than affine arithmetic. */
static void fill_roots(S *s, char *root)
{
	Fn *f = s->f;
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			int aff = is_affine_op(i) && i->cls == KL && s->l->in[b];
			for (int j = 0; j < ir_nargs(i); j++)
				if (i->arg[j].kind == R_VAL && !aff)
					root[i->arg[j].idx] = 1;
		}
		for (int k = 0; k < bk->nphi; k++)
			for (int j = 0; j < bk->phi[k].n; j++)
				if (bk->phi[k].arg[j].kind == R_VAL)
					root[bk->phi[k].arg[j].idx] = 1;
		if (bk->jmp == J_JNZ && bk->cond.kind == R_VAL)
			root[bk->cond.idx] = 1;
	}
	for (int i = 0; i < f->nchecks; i++)
		for (int d = 0; d < 8; d++)
			if (f->checks[i].ext[d].kind == R_VAL)
				root[f->checks[i].ext[d].idx] = 1;
}

static int find_ivs(S *s)
{
	Fn *f = s->f;
	Loop *l = s->l;
	Blk *h = f->blk[l->head];
	int n = 0, pp = -1, pl = -1;
	for (int m = 0; m < h->npred; m++) {
		if (h->pred[m] == l->pre)
			pp = m;
		if (h->pred[m] == l->latch[0])
			pl = m;
	}
	if (pp < 0 || pl < 0)
		return 0;
	for (int j = 0; j < h->nphi; j++) {
		Phi *p = &h->phi[j];
		if (p->cls != KL || p->to < 0)
			continue;
		Ref nx = p->arg[pl];
		if (nx.kind != R_VAL)
			continue;
		Ins *i = s->g.def[nx.idx];
		if (!i || i->op != O_ADD || i->cls != KL || (i->ty != SK_I64 && i->ty != SK_U64))
			continue;
		Ref st;
		if (i->arg[0].kind == R_VAL && (int)i->arg[0].idx == p->to)
			st = i->arg[1];
		else if (i->arg[1].kind == R_VAL && (int)i->arg[1].idx == p->to)
			st = i->arg[0];
		else
			continue;
		if (!invariant_val(s, st))
			continue;
		s->ivs[p->to] = 1;
		s->step[p->to] = st;
		s->init[p->to] = p->arg[pp];
		n++;
	}
	return n;
}

typedef struct Group {
	Aff a;
	int phi;             /* the new phi's value */
} Group;

static void reduce_loop(S *s)
{
	Fn *f = s->f;
	Loop *l = s->l;
	Arena *ar = f->ctx->arena;
	int nval0 = f->nval;
	s->aff = arena_alloc(ar, sizeof *s->aff * (size_t)(nval0 + 1));
	s->done = arena_alloc(ar, (size_t)nval0 + 1);
	char *root = arena_alloc(ar, (size_t)nval0 + 1);
	fill_roots(s, root);
	Group groups[MAXC];
	int ng = 0;
	Blk *h = f->blk[l->head], *lt = f->blk[l->latch[0]];
	int pp = -1, pl = -1;
	for (int m = 0; m < h->npred; m++) {
		if (h->pred[m] == l->pre)
			pp = m;
		if (h->pred[m] == l->latch[0])
			pl = m;
	}
	for (int k = 0; k < l->nblk; k++) {
		Blk *b = f->blk[l->blk[k]];
		for (int j = 0; j < b->nins; j++) {
			Ins *i = &b->ins[j];
			if (i->to < 0 || i->to >= nval0 || !root[i->to] || i->cls != KL || !is_affine_op(i))
				continue;
			Aff a = affine(s, REF_VAL(i->to), 0);
			if (!a.ok || a.iv < 0 || (a.ac == 1 && a.as.kind == R_NONE) || a.ac == 0)
				continue;
			int gi = 0;
			while (gi < ng && !same_group(&groups[gi].a, &a))
				gi++;
			if (gi == ng) {
				if (ng == MAXC)
					continue;
				/* start = A * init + B (without the constant of this
				 * first member: members add their own), step = A * step */
				Ref A = scale(s, a.ac, a.as);
				Ref B = con(s, a.bc);
				for (int t = 0; t < a.nt; t++)
					B = plus(s, B, scale(s, a.tc[t], a.tr[t]));
				Ref start = plus(s, times(s, A, s->init[a.iv]), B);
				Ref stp = times(s, A, s->step[a.iv]);
				Phi *p = ir_add_phi(f, h, KL, h->npred);
				int pv = ir_new_val(f, KL, NULL);
				f->val[pv].blk = h->id;
				p->to = pv;
				p->arg[pp] = start;
				int nx = ir_new_val(f, KL, NULL);
				f->val[nx].blk = lt->id;
				Ins add = {.op = O_ADD, .cls = KL, .ty = SK_I64, .to = nx,
				           .arg = {REF_VAL(pv), stp, REF_NONE}, .loc = -1};
				lt->ins = arena_grow(ar, lt->ins, lt->nins, &lt->capins, sizeof *lt->ins);
				lt->ins[lt->nins++] = add;
				i = &b->ins[j];     /* lt may be b */
				/* phis of h may have moved: find ours again */
				h->phi[h->nphi - 1].arg[pl] = REF_VAL(nx);
				groups[ng].a = a;
				groups[ng].phi = pv;
				ng++;
			}
			int64_t d = (int64_t)((uint64_t)a.bc - (uint64_t)groups[gi].a.bc);
			Ref pr = REF_VAL(groups[gi].phi);
			*i = (Ins){.op = d ? O_ADD : O_COPY, .cls = KL, .ty = SK_I64, .to = i->to,
			           .arg = {pr, d ? con(s, d) : REF_NONE, REF_NONE}, .loc = i->loc};
		}
	}
}

void opt_sr(Fn *f)
{
	S s = {.f = f};
	opt_fill_cfg(f, &s.g);
	Arena *a = f->ctx->arena;
	int nval0 = f->nval;
	s.ivs = arena_alloc(a, sizeof *s.ivs * (size_t)(nval0 + 1));
	s.step = arena_alloc(a, sizeof *s.step * (size_t)(nval0 + 1));
	s.init = arena_alloc(a, sizeof *s.init * (size_t)(nval0 + 1));
	/* innermost loops only: their values are the ones computed most often */
	for (int li = 0; li < s.g.nloop; li++) {
		Loop *l = &s.g.loop[li];
		if (l->ninner || l->pre < 0 || l->nlatch != 1 || f->blk[l->latch[0]]->jmp != J_JMP)
			continue;
		s.l = l;
		s.pre = f->blk[l->pre];
		if (find_ivs(&s))
			reduce_loop(&s);
	}
}

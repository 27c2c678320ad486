/*
 * sr.c - strength reduction of affine index arithmetic in loops.
 *
 * Precondition: a verified function, after licm (invariants are outside
 * their loops).  A basic induction variable is a phi of a loop header
 * whose value around the back edge is iv + step, step invariant, in a
 * 64-bit integer (or, after unrolling, iv + c1 + c2 + ..., constants).  A value the loop computes from one such iv with add,
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
 * address of a load (a[i, j], a[i, j + 1] after unrolling).  Values
 * with the same A whose B differ by invariant terms (no pointer among
 * them) share the phi too: each is reached from the nearest value of
 * the group computed before it, `p1 = p0 + 4 * w`, `p2 = p1 + 4 * w`
 * (a[k, x], a[k + 1, x] ... after unrolling), and the step from the last
 * one.  Under small_extents (PjOptions) an array extent in A or B is
 * read as the sign extension of its low half, the same number, so the
 * products are mul.wide of a 32-bit register and ptxas makes each step
 * one IMAD.WIDE (ops.c).  Wrapping integer arithmetic is a ring, so
 * A * iv + B computed step by step is the same number in every
 * iteration.
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
	int small;           /* small_extents: array extents below 2^31 */
	Ref *wide;           /* per value: its 32-bit-widened twin in this preheader */
	int nval0;           /* values the analysis describes */
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

/* The instruction of the preheader defining r (a value this pass made),
 * or NULL. */
static Ins *pre_def(S *s, Ref r)
{
	if (r.kind != R_VAL)
		return NULL;
	for (int k = 0; k < s->pre->nins; k++)
		if (s->pre->ins[k].to == (int)r.idx)
			return &s->pre->ins[k];
	return NULL;
}

/*
 * An array extent, under small_extents, as the sign extension of its low
 * half: the same number (the extent is below 2^31), but products of it
 * and constants become mul.wide of a 32-bit register, and a pointer
 * stepped by one is one IMAD.WIDE instead of a 64-bit add (ops.c).
 * Other values come back as they are.
 */
static Ref widen_extent(S *s, Ref r)
{
	if (!s->small || r.kind != R_VAL || (int)r.idx >= s->nval0)
		return r;
	Ins *i = s->g.def[r.idx];
	if (!i || i->op != O_PARAM || i->cls != KL)
		return r;
	int shape = 0;
	for (int k = 0; k < s->f->nparam; k++)
		if (s->f->param[k].off == i->aux && s->f->param[k].role == KP_SHAPE)
			shape = 1;
	if (!shape)
		return r;
	if (s->wide[r.idx].kind != R_NONE)
		return s->wide[r.idx];
	Fn *f = s->f;
	Blk *p = s->pre;
	int lo = ir_new_val(f, KW, NULL), w = ir_new_val(f, KL, NULL);
	f->val[lo].blk = f->val[w].blk = p->id;
	Ins t = {.op = O_CVT, .cls = KW, .ty = SK_I64, .aux = SK_I32, .to = lo, .arg = {r, REF_NONE, REF_NONE},
	         .loc = -1};
	Ins x = {.op = O_CVT, .cls = KL, .ty = SK_I32, .aux = SK_I64, .to = w,
	         .arg = {REF_VAL(lo), REF_NONE, REF_NONE}, .loc = -1};
	p->ins = arena_grow(f->ctx->arena, p->ins, p->nins, &p->capins, sizeof *p->ins);
	p->ins[p->nins++] = t;
	p->ins = arena_grow(f->ctx->arena, p->ins, p->nins, &p->capins, sizeof *p->ins);
	p->ins[p->nins++] = x;
	return s->wide[r.idx] = REF_VAL(w);
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
	Ins *i = pre_def(s, r);
	if (i && i->op == O_MUL && i->cls == KL && is_con(s, i->arg[1], &k))
		return scale(s, (int64_t)((uint64_t)c * (uint64_t)k), i->arg[0]);
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
		add_term(&a, 1, widen_extent(s, r));
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
	y = widen_extent(s, y);
	r.as = x.as.kind == R_NONE ? y : times(s, x.as, y);
	r.nt = 0;
	r.bc = 0;
	if (x.bc && !add_term(&r, x.bc, y))
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
	return a->iv == b->iv && a->ac == b->ac && ref_eq(a->as, b->as);
}

/* A pointer: a data pointer parameter or a static array's address. */
static int pointer(S *s, Ref r)
{
	Ins *i = r.kind == R_VAL && (int)r.idx < s->nval0 ? s->g.def[r.idx] : NULL;
	if (!i)
		return 0;
	if (i->op == O_ADDR)
		return 1;
	if (i->op == O_PARAM)
		for (int k = 0; k < s->f->nparam; k++)
			if (s->f->param[k].off == i->aux && s->f->param[k].role == KP_DATA)
				return 1;
	return 0;
}

/* Whether b may be written a + (invariant terms) + constant: the terms
 * are few and no pointer is among them, so every address still has
 * one pointer it is based on (nc.c and ir_arg_effects follow that). */
static int differs_by_terms(S *s, const Aff *a, const Aff *b)
{
	Aff x = *b;
	x.iv = -1;
	Aff y = *a;
	y.iv = -1;
	x = combine(x, y, -1);
	if (!x.ok)
		return 0;
	for (int t = 0; t < x.nt; t++) {
		if (x.tc[t] == 0)
			continue;
		/* a pointer loaded from memory (the CPU target's arrays) counts
		 * as a pointer too */
		Ins *d = x.tr[t].kind == R_VAL && (int)x.tr[t].idx < s->nval0 ? s->g.def[x.tr[t].idx] : NULL;
		if (pointer(s, x.tr[t]) || (d && d->op == O_LOAD))
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

/* The step of next = iv + step: an add of iv and an invariant, or (after
 * unrolling) a chain of adds of constants ending at iv, whose sum is the
 * step; REF_NONE when next is neither. */
static Ref chain_step(S *s, Ref next, int iv)
{
	uint64_t sum = 0;
	Ref r = next;
	for (int depth = 0; depth < 64; depth++) {
		Ins *i = r.kind == R_VAL ? s->g.def[r.idx] : NULL;
		if (!i || i->op != O_ADD || i->cls != KL || (i->ty != SK_I64 && i->ty != SK_U64))
			return REF_NONE;
		int first = i->arg[0].kind == R_VAL && (int)i->arg[0].idx == iv;
		int second = i->arg[1].kind == R_VAL && (int)i->arg[1].idx == iv;
		if ((first || second) && depth == 0)
			return invariant_val(s, i->arg[first ? 1 : 0]) ? i->arg[first ? 1 : 0] : REF_NONE;
		int64_t k;
		Ref other;
		if (is_con(s, i->arg[1], &k))
			other = i->arg[0];
		else if (is_con(s, i->arg[0], &k))
			other = i->arg[1];
		else
			return REF_NONE;
		sum += (uint64_t)k;
		if (other.kind == R_VAL && (int)other.idx == iv)
			return con(s, (int64_t)sum);
		r = other;
	}
	return REF_NONE;
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
		Ref st = chain_step(s, nx, p->to);
		if (st.kind == R_NONE)
			continue;
		s->ivs[p->to] = 1;
		s->step[p->to] = st;
		s->init[p->to] = p->arg[pp];
		n++;
	}
	return n;
}

enum { MAXM = 16 };

typedef struct Group {
	Aff a;
	int phi;             /* the new phi's value */
	int nx;              /* its value around the back edge (phi + step) */
	Ref stp;             /* the step */
	/* the group's values computed so far without their constants: phi +
	 * terms, the terms relative to the first member, in mb[] blocks */
	Ref mv[MAXM];
	Aff md[MAXM];
	int mb[MAXM];
	int nm;
} Group;

/* The terms of x - y (constants dropped) and how many are not zero. */
static Aff term_diff(Aff x, Aff y, int *n)
{
	x.iv = y.iv = -1;
	x.bc = y.bc = 0;
	Aff r = combine(x, y, -1);
	*n = 0;
	for (int t = 0; t < r.nt; t++)
		*n += r.tc[t] != 0;
	return r;
}

/* r + the terms of x, written before position *j of block b (REF_NONE
 * terms: r itself). */
static Ref add_terms(S *s, Blk *b, int *j, Ref r, const Aff *x, int32_t loc)
{
	Fn *f = s->f;
	for (int t = 0; t < x->nt; t++) {
		if (x->tc[t] == 0)
			continue;
		Ref v = scale(s, x->tc[t], x->tr[t]);
		int nv = ir_new_val(f, KL, NULL);
		f->val[nv].blk = b->id;
		Ins sum = {.op = O_ADD, .cls = KL, .ty = SK_I64, .to = nv, .arg = {r, v, REF_NONE}, .loc = loc};
		b->ins = arena_grow(f->ctx->arena, b->ins, b->nins, &b->capins, sizeof *b->ins);
		memmove(&b->ins[*j + 1], &b->ins[*j], sizeof *b->ins * (size_t)(b->nins - *j));
		b->nins++;
		b->ins[(*j)++] = sum;
		r = REF_VAL(nv);
	}
	return r;
}

/*
 * The value of group g computed so far from which x (terms relative to
 * the first member) is reached with the fewest terms, each of the
 * smallest coefficient, among those available in block b: a chain
 * p1 = p0 + 4 * w, p2 = p1 + 4 * w ... where unrolled accesses are a
 * multiple of an extent apart (one IMAD.WIDE each, where a[k + 2, x]
 * from p0 would need a second product live).  *rest: what remains.
 */
static int chain_base(S *s, Group *g, const Aff *x, int b, Aff *rest)
{
	int best = -1, bn = 0;
	uint64_t bc = 0;
	for (int m = 0; m < g->nm; m++) {
		if (g->mb[m] != b && !opt_dominates(&s->g, g->mb[m], b))
			continue;
		int n;
		Aff r = term_diff(*x, g->md[m], &n);
		if (!r.ok || n > 1)
			continue;
		uint64_t c = 0;
		for (int t = 0; t < r.nt; t++)
			if (r.tc[t])
				c = r.tc[t] < 0 ? -(uint64_t)r.tc[t] : (uint64_t)r.tc[t];
		if (best < 0 || n < bn || (n == bn && c <= bc)) {
			best = m;
			bn = n;
			bc = c;
			*rest = r;
		}
	}
	return best;
}

static void reduce_loop(S *s)
{
	Fn *f = s->f;
	Loop *l = s->l;
	Arena *ar = f->ctx->arena;
	int nval0 = f->nval;
	s->aff = arena_alloc(ar, sizeof *s->aff * (size_t)(nval0 + 1));
	s->done = arena_alloc(ar, (size_t)nval0 + 1);
	s->wide = arena_alloc(ar, sizeof *s->wide * (size_t)(nval0 + 1));
	memset(s->wide, 0, sizeof *s->wide * (size_t)(nval0 + 1));
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
	/* every candidate's form first: the rewriting below inserts
	 * instructions into the loop's blocks, which moves the instructions
	 * the analysis (s->g.def) points at */
	char *cand = arena_alloc(ar, (size_t)nval0 + 1);
	Aff *form = arena_alloc(ar, sizeof *form * (size_t)(nval0 + 1));
	for (int k = 0; k < l->nblk; k++) {
		Blk *b = f->blk[l->blk[k]];
		for (int j = 0; j < b->nins; j++) {
			Ins *i = &b->ins[j];
			if (i->to < 0 || i->to >= nval0 || !root[i->to] || i->cls != KL || !is_affine_op(i))
				continue;
			form[i->to] = affine(s, REF_VAL(i->to), 0);
			cand[i->to] = 1;
		}
	}
	for (int k = 0; k < l->nblk; k++) {
		Blk *b = f->blk[l->blk[k]];
		for (int j = 0; j < b->nins; j++) {
			Ins *i = &b->ins[j];
			if (i->to < 0 || i->to >= nval0 || !cand[i->to])
				continue;
			Aff a = form[i->to];
			if (!a.ok || a.iv < 0 || (a.ac == 1 && a.as.kind == R_NONE) || a.ac == 0)
				continue;
			int gi = 0;
			while (gi < ng && !(same_group(&groups[gi].a, &a) && differs_by_terms(s, &groups[gi].a, &a)))
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
				groups[ng].nx = nx;
				groups[ng].stp = stp;
				groups[ng].nm = 1;
				groups[ng].mv[0] = REF_VAL(pv);
				memset(&groups[ng].md[0], 0, sizeof groups[ng].md[0]);
				groups[ng].md[0].ok = 1;
				groups[ng].md[0].iv = -1;
				groups[ng].mb[0] = h->id;
				ng++;
			}
			Group *g = &groups[gi];
			int dn;
			Aff x = term_diff(a, g->a, &dn);
			int64_t d = (int64_t)((uint64_t)a.bc - (uint64_t)g->a.bc);
			Ref base = REF_VAL(g->phi);
			if (dn) {
				/* phi + terms (from the nearest value of the chain),
				 * then + d: a displacement ptxas folds */
				Aff rest;
				int m = chain_base(s, g, &x, b->id, &rest);
				Ref from = m >= 0 ? g->mv[m] : base;
				base = add_terms(s, b, &j, from, m >= 0 ? &rest : &x, i->loc);
				i = &b->ins[j];
				if (g->nm < MAXM && !ref_eq(base, from)) {
					g->mv[g->nm] = base;
					g->md[g->nm] = x;
					g->mb[g->nm++] = b->id;
				}
			}
			*i = (Ins){.op = d ? O_ADD : O_COPY, .cls = KL, .ty = SK_I64, .to = i->to,
			           .arg = {base, d ? con(s, d) : REF_NONE, REF_NONE}, .loc = i->loc};
		}
	}
	/* the step from the chain's last value when it is one term away:
	 * p' = p3 + 4 * w rather than p0 + 16 * w */
	for (int gi = 0; gi < ng; gi++) {
		Group *g = &groups[gi];
		int64_t k;
		if (!g->nm || g->a.as.kind == R_NONE || !is_con(s, s->step[g->a.iv], &k))
			continue;
		Aff st;
		memset(&st, 0, sizeof st);
		st.ok = 1;
		st.iv = -1;
		add_term(&st, (int64_t)((uint64_t)g->a.ac * (uint64_t)k), g->a.as);
		Aff rest;
		int m = chain_base(s, g, &st, lt->id, &rest);
		if (m < 0)
			continue;
		for (int j = 0; j < lt->nins; j++)
			if (lt->ins[j].to == g->nx) {
				Ins i = lt->ins[j];
				lt->nins--;
				memmove(&lt->ins[j], &lt->ins[j + 1], sizeof *lt->ins * (size_t)(lt->nins - j));
				int pos = lt->nins;
				Ref r = add_terms(s, lt, &pos, g->mv[m], &rest, -1);
				i.arg[0] = r;
				i.arg[1] = con(s, 0);
				i.op = O_COPY;
				i.arg[1] = REF_NONE;
				lt->ins = arena_grow(ar, lt->ins, lt->nins, &lt->capins, sizeof *lt->ins);
				lt->ins[lt->nins++] = i;
				break;
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
	s.nval0 = nval0;
	s.small = f->ctx->opt && f->ctx->opt->small_extents && !f->ctx->opt->target_cpu;
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

/*
 * nc.c - loads of arrays the kernel never writes go through the
 * read-only (non-coherent) cache: ld.global.nc.
 *
 * Precondition: the final IR of a kernel (the last pass).  The
 * non-coherent path may return stale data for memory written while the
 * kernel runs, so a load qualifies only when nothing can write what it
 * reads:
 *   - the launch said no two array arguments share memory
 *     (PjOptions.noalias, a variant of the signature chosen at launch);
 *   - its address is built (add, sub, copy, sel, phi) from the data
 *     pointers of array arguments only, none of which the kernel stores
 *     to or updates atomically (ir_arg_effects; a store whose target is
 *     not understood counts as writing every argument);
 *   - the kernel calls no device function that is not inlined (their
 *     stores are not in this function).
 * Fn.nc marks the loads; the printer writes load.global.nc and the PTX
 * back end ld.global.nc.
 *
 * Two such loads of the same address and kind read the same value
 * wherever they are (nothing writes that memory), so a load dominated by
 * an identical one is replaced by it (cse leaves loads alone): the
 * S[i], X[i], T[i] that an expression names several times are read once.
 */
#include "opt.h"

typedef struct N {
	Fn *f;
	Cfg g;
	uint64_t written;
	char *seen;
	int data;       /* data pointers reached */
	int bad;        /* a written array, or something that is not an address */
} N;

static int param_role(Fn *f, const Ins *i, int *arg)
{
	for (int k = 0; k < f->nparam; k++)
		if (f->param[k].off == i->aux) {
			*arg = f->param[k].arg;
			return f->param[k].role;
		}
	return -1;
}

static void walk(N *n, Ref r, int depth)
{
	Fn *f = n->f;
	if (n->bad || r.kind != R_VAL || (int)r.idx >= f->nval || n->seen[r.idx])
		return;
	if (depth > 200) {
		n->bad = 1;
		return;
	}
	n->seen[r.idx] = 1;
	Phi *p = n->g.phi[r.idx];
	if (p) {
		for (int j = 0; j < p->n; j++)
			walk(n, p->arg[j], depth + 1);
		return;
	}
	Ins *i = n->g.def[r.idx];
	if (!i)
		return;
	switch (i->op) {
	case O_ADD: case O_SUB: case O_COPY:
		walk(n, i->arg[0], depth + 1);
		walk(n, i->arg[1], depth + 1);
		return;
	case O_SEL:
		walk(n, i->arg[1], depth + 1);
		walk(n, i->arg[2], depth + 1);
		return;
	case O_PARAM: {
		int arg = -1, role = param_role(f, i, &arg);
		if (role == KP_DATA) {
			n->data++;
			if (arg < 0 || arg >= 63 || (n->written >> arg & 1))
				n->bad = 1;
		}
		return;
	}
	case O_ADDR: case O_LOAD: case O_ATOM: case O_CRES: case O_FARG:
		n->bad = 1;   /* a static array, or a value read from memory */
		return;
	default:
		return;       /* an offset (multiply, shift, extent, index) */
	}
}

/* Is load a (in block ba, at position ka) before load b everywhere b runs? */
static int before(const Cfg *g, int ba, int ka, int bb, int kb)
{
	return ba == bb ? ka < kb : opt_dominates(g, ba, bb);
}

static void merge(Fn *f, const Cfg *g)
{
	typedef struct L { Ins *i; int b, k; } L;
	L *ld = NULL;
	int nld = 0, cap = 0;
	for (int b = 0; b < f->nblk; b++)
		for (int k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			if (ir_load_nc(f, i) && nld < 4096) {
				L l = {i, b, k};
				VEC_PUSH(f->ctx, ld, nld, cap, l);
			}
		}
	for (int y = 0; y < nld; y++)
		for (int x = 0; x < nld; x++) {
			Ins *a = ld[x].i, *b = ld[y].i;
			if (x == y || a->op != O_LOAD || b->op != O_LOAD || a->ty != b->ty || a->cls != b->cls ||
			    !ref_eq(a->arg[0], b->arg[0]) || !before(g, ld[x].b, ld[x].k, ld[y].b, ld[y].k))
				continue;
			int old = b->to;
			opt_replace_uses(f, old, REF_VAL(a->to));
			*b = (Ins){.op = O_NOP_, .to = -1, .arg = {REF_NONE, REF_NONE, REF_NONE}, .loc = b->loc};
			break;
		}
}

void opt_nc(Fn *f)
{
	const PjOptions *o = f->ctx->opt;
	if (!o || !o->noalias || o->target_cpu || f->is_func || f->nfuncs || f->checked)
		return;
	uint64_t read = 0, written = 0;
	ir_arg_effects(f, &read, &written);
	if (written >> 63 & 1)
		return;
	N n = {.f = f, .written = written};
	opt_fill_cfg(f, &n.g);
	Arena *a = f->ctx->arena;
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			if (i->op != O_LOAD || i->aux != SP_GLOBAL || i->to < 0)
				continue;
			n.seen = arena_alloc(a, (size_t)f->nval + 1);
			n.data = n.bad = 0;
			walk(&n, i->arg[0], 0);
			if (n.bad || n.data == 0)
				continue;
			if (!f->nc) {
				f->nnc = f->nval;
				f->nc = arena_alloc(a, (size_t)f->nnc + 1);
			}
			f->nc[i->to] = 1;
		}
	}
	if (f->nc)
		merge(f, &n.g);
}

/*
 * dce.c - dead code elimination.
 *
 * Precondition: a verified function.  First the blocks no path from the
 * entry reaches are dropped (ir_fill_rpo, which also renumbers the rest
 * in reverse post-order and drops the phi arguments that came from
 * them).  Then liveness is marked from the roots: instructions with an
 * effect (op_info), jnz conditions, and the extents a live bounds check
 * prints.  A value is live when a live instruction or phi uses it.  What
 * is not marked goes, so phis that only feed each other around a loop
 * go too.
 */
#include "../core.h"

typedef struct D {
	Fn *f;
	char *live;
	int *stack;
	int n;
	Ins **def;
	Phi **phi;
} D;

static void mark(D *d, Ref r)
{
	if (r.kind != R_VAL || (int)r.idx >= d->f->nval || d->live[r.idx])
		return;
	d->live[r.idx] = 1;
	d->stack[d->n++] = (int)r.idx;
}

static void mark_ins(D *d, Ins *i)
{
	Fn *f = d->f;
	int n = ir_nargs(i);
	for (int k = 0; k < n; k++)
		mark(d, i->arg[k]);
	if (i->op == O_CHECK && i->aux >= 0 && i->aux < f->nchecks)
		for (int k = 0; k < f->checks[i->aux].ndim && k < 8; k++)
			mark(d, f->checks[i->aux].ext[k]);
}

void opt_dce(Fn *f)
{
	Arena *a = f->ctx->arena;
	ir_fill_rpo(f);
	D d = {.f = f};
	d.live = arena_alloc(a, (size_t)f->nval + 1);
	d.stack = arena_alloc(a, sizeof *d.stack * (size_t)(f->nval + 1));
	d.def = arena_alloc(a, sizeof *d.def * (size_t)(f->nval + 1));
	d.phi = arena_alloc(a, sizeof *d.phi * (size_t)(f->nval + 1));
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		for (int k = 0; k < b->nphi; k++)
			if (b->phi[k].to >= 0 && b->phi[k].to < f->nval)
				d.phi[b->phi[k].to] = &b->phi[k];
		for (int k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			if (i->to >= 0 && i->to < f->nval)
				d.def[i->to] = i;
			if (i->op < NOPS && op_info[i->op].effect)
				mark_ins(&d, i);
		}
		if (b->jmp == J_JNZ)
			mark(&d, b->cond);
	}
	while (d.n) {
		int v = d.stack[--d.n];
		if (d.def[v])
			mark_ins(&d, d.def[v]);
		else if (d.phi[v])
			for (int j = 0; j < d.phi[v]->n; j++)
				mark(&d, d.phi[v]->arg[j]);
	}
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		int n = 0;
		for (int k = 0; k < b->nphi; k++)
			if (b->phi[k].to >= 0 && b->phi[k].to < f->nval && d.live[b->phi[k].to])
				b->phi[n++] = b->phi[k];
		b->nphi = n;
		n = 0;
		for (int k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			int keep = i->op < NOPS && op_info[i->op].effect;
			if (i->to >= 0 && i->to < f->nval && d.live[i->to])
				keep = 1;
			if (keep)
				b->ins[n++] = *i;
			else if (i->to >= 0 && i->to < f->nval)
				f->val[i->to].blk = -1;
		}
		b->nins = n;
	}
}

/*
 * copy.c - copy propagation: uses of a `copy` become uses of its
 * operand, and redundant phis disappear.
 *
 * Precondition: a verified function.  A phi is redundant when, whatever
 * path is taken, it holds one value v defined elsewhere: its arguments
 * are v, itself, or other phis that are redundant with the same v.  That
 * covers the trivial phi (Braun et al.) and cycles of phis that only pass
 * one value around a loop.  It is found optimistically, as constant
 * propagation finds constants: each phi starts unknown, an argument that
 * is not an unknown phi narrows it to that value, two different values
 * make it varying, and this repeats until nothing changes.  At the end
 * every path into a phi marked v has passed v's definition, so v
 * dominates it and can replace it.  A phi that stays unknown (a loop no
 * entry reaches) is left for DCE.  Check messages (CheckInfo.ext) are
 * rewritten like operands.
 */
#include "../core.h"

enum { UNKNOWN, ONE, VARYING };

typedef struct Lat {
	int state;
	Ref v;
} Lat;

static Ref resolve(Fn *f, Ref *rep, Ref r)
{
	for (int n = 0; r.kind == R_VAL && (int)r.idx < f->nval && rep[r.idx].kind != R_NONE; n++) {
		if (n > f->nval)
			ICE(f->ctx, "copy: replacement cycle at %%%u", (unsigned)r.idx);
		r = rep[r.idx];
	}
	return r;
}

static void meet(Lat *l, Ref r)
{
	if (l->state == VARYING)
		return;
	if (l->state == UNKNOWN) {
		l->state = ONE;
		l->v = r;
	} else if (!ref_eq(l->v, r))
		l->state = VARYING;
}

/* Marks redundant phis in rep; returns whether it found any. */
static int redundant_phis(Fn *f, Ref *rep)
{
	Arena *a = f->ctx->arena;
	Lat *lat = arena_alloc(a, sizeof *lat * (size_t)(f->nval + 1));
	char *isphi = arena_alloc(a, (size_t)f->nval + 1);
	for (int bi = 0; bi < f->nblk; bi++)
		for (int k = 0; k < f->blk[bi]->nphi; k++)
			isphi[f->blk[bi]->phi[k].to] = 1;
	int rounds = 0;
	for (int changed = 1; changed; rounds++) {
		changed = 0;
		if (rounds > 4 * f->nval + 8)
			return 0;   /* not settling: leave the phis as they are */
		for (int bi = 0; bi < f->nblk; bi++) {
			Blk *b = f->blk[bi];
			for (int k = 0; k < b->nphi; k++) {
				Phi *p = &b->phi[k];
				Lat l = {UNKNOWN, REF_NONE};
				for (int j = 0; j < p->n && l.state != VARYING; j++) {
					Ref r = p->arg[j] = resolve(f, rep, p->arg[j]);
					if (r.kind == R_VAL && isphi[r.idx]) {
						Lat *o = &lat[r.idx];
						if ((int)r.idx == p->to || o->state == UNKNOWN)
							continue;
						if (o->state == VARYING) {
							meet(&l, r);
							continue;
						}
						meet(&l, o->v);
					} else
						meet(&l, r);
				}
				Lat *old = &lat[p->to];
				if (old->state != l.state || !ref_eq(old->v, l.v)) {
					*old = l;
					changed = 1;
				}
			}
		}
	}
	int found = 0;
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		for (int k = 0; k < b->nphi; k++) {
			Phi *p = &b->phi[k];
			if (lat[p->to].state == ONE) {
				rep[p->to] = lat[p->to].v;
				found = 1;
			}
		}
	}
	return found;
}

void opt_copy(Fn *f)
{
	Ref *rep = arena_alloc(f->ctx->arena, sizeof *rep * (size_t)(f->nval + 1));
	for (int changed = 1; changed;) {
		changed = 0;
		for (int bi = 0; bi < f->nblk; bi++) {
			Blk *b = f->blk[bi];
			for (int k = 0; k < b->nins; k++) {
				Ins *i = &b->ins[k];
				if (i->op != O_COPY || i->to < 0)
					continue;
				Ref r = resolve(f, rep, i->arg[0]);
				if (r.kind == R_VAL && (int)r.idx == i->to)
					continue;
				rep[i->to] = r;
				*i = (Ins){.op = O_NOP_, .to = -1, .loc = i->loc};
				changed = 1;
			}
		}
		if (redundant_phis(f, rep))
			changed = 1;
		for (int bi = 0; bi < f->nblk; bi++) {
			Blk *b = f->blk[bi];
			int n = 0;
			for (int k = 0; k < b->nphi; k++)
				if (rep[b->phi[k].to].kind == R_NONE)
					b->phi[n++] = b->phi[k];
			b->nphi = n;
		}
	}
	for (int i = 0; i < f->nchecks; i++)
		for (int d = 0; d < 8; d++)
			f->checks[i].ext[d] = resolve(f, rep, f->checks[i].ext[d]);
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		for (int k = 0; k < b->nphi; k++)
			for (int j = 0; j < b->phi[k].n; j++)
				b->phi[k].arg[j] = resolve(f, rep, b->phi[k].arg[j]);
		int n = 0;
		for (int k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			if (i->op == O_NOP_)
				continue;
			for (int j = 0; j < 3; j++)
				i->arg[j] = resolve(f, rep, i->arg[j]);
			b->ins[n++] = *i;
		}
		b->nins = n;
		if (b->jmp == J_JNZ)
			b->cond = resolve(f, rep, b->cond);
	}
}

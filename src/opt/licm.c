/*
 * licm.c - loop-invariant code motion.
 *
 * Precondition: a verified function.  An instruction inside a loop whose
 * operands are all defined outside the loop (or by instructions already
 * moved out) computes the same value in every iteration; when it is pure
 * (no effect, not a load: memory may change in the loop) it moves to the
 * end of the loop's preheader, which runs once before the loop and
 * dominates it.  Pure instructions cannot trap in this IR (division by
 * zero has a defined result), so computing one that a path of the loop
 * would have skipped changes no result.  Loops are visited innermost
 * first, so an invariant of an inner loop can leave the outer loop too.
 * A loop without a preheader is left alone.
 */
#include "opt.h"

static int movable(const Ins *i)
{
	if (i->op >= NOPS || i->to < 0 || !op_info[i->op].def || op_info[i->op].effect)
		return 0;
	switch (i->op) {
	case O_LOAD: case O_FARG: case O_NOP_:
		return 0;
	default:
		return 1;
	}
}

static void append(Fn *f, Blk *b, Ins i)
{
	b->ins = arena_grow(f->ctx->arena, b->ins, b->nins, &b->capins, sizeof *b->ins);
	b->ins[b->nins++] = i;
}

void opt_licm(Fn *f)
{
	Cfg g;
	opt_fill_cfg(f, &g);
	for (int li = 0; li < g.nloop; li++) {
		Loop *l = &g.loop[li];
		if (l->pre < 0)
			continue;
		Blk *pre = f->blk[l->pre];
		for (int k = 0; k < l->nblk; k++) {
			Blk *b = f->blk[l->blk[k]];
			int n = 0;
			for (int j = 0; j < b->nins; j++) {
				Ins i = b->ins[j];
				int inv = movable(&i);
				for (int a = 0; inv && a < ir_nargs(&i); a++)
					inv = opt_invariant(&g, l, i.arg[a]);
				if (!inv) {
					b->ins[n++] = i;
					continue;
				}
				append(f, pre, i);
				g.defblk[i.to] = pre->id;
				f->val[i.to].blk = pre->id;
			}
			b->nins = n;
		}
		/* the moved instructions' definitions are now outside every
		 * loop that does not contain the preheader */
		for (int j = 0; j < pre->nins; j++)
			if (pre->ins[j].to >= 0)
				g.def[pre->ins[j].to] = &pre->ins[j];
	}
}

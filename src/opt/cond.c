/*
 * cond.c - `a and b`, `a or b` in a branch as one predicate.
 *
 * Precondition: a verified function, folded.  Python's short-circuit
 * operators lower to a branch per operand:
 *
 *     A: c1 = ...; jnz c1 @B @X          (and)
 *     B: c2 = ...; jnz c2 @T @X'
 *
 * where X and X' go to the same place.  When B computes c2 with a few
 * instructions that cannot fail and have no effect (arithmetic,
 * comparisons, conversions: no load, no division, no call), computing
 * them also when c1 is false changes nothing that can be seen, and the
 * two branches become one:
 *
 *     A: c1 = ...; c2 = ...; c = and c1, c2; jnz c @T @X
 *
 * (`or` alike with the roles of the targets exchanged).  A loop whose
 * test is `n < m and zr * zr + zi * zi <= 4.0` then has a one-block
 * header, which the PTX writer repeats at the back edge (a bottom-tested
 * loop, emit.c), and one exit; ptxas gets one predicate and one branch.
 *
 * "The same place": the same block, whose phis take the same value from
 * A and from B, or two empty blocks that jump to one block whose phis
 * take the same value from both.  B must have A as its only predecessor
 * and no phis; T gets A as predecessor in B's place (A must not be one
 * already), its phis keeping their arguments.
 */
#include "opt.h"

enum { MAXSPEC = 8 };

static int speculable(const Ins *i)
{
	if (i->op >= NOPS || !op_info[i->op].def || op_info[i->op].effect)
		return 0;
	switch (i->op) {
	case O_ADD: case O_SUB: case O_MUL: case O_NEG: case O_NOT: case O_AND: case O_OR: case O_XOR:
	case O_SHL: case O_SHR: case O_MIN: case O_MAX: case O_ABS: case O_FMA: case O_CMP: case O_SEL:
	case O_CVT: case O_BITS: case O_COPY:
		return 1;
	default:
		return 0;
	}
}

static int pred_pos(const Blk *b, int p)
{
	for (int j = 0; j < b->npred; j++)
		if (b->pred[j] == p)
			return j;
	return -1;
}

/* Do the phis of s take the same value along the edges from p and q? */
static int same_args(const Blk *s, int p, int q)
{
	int jp = pred_pos(s, p), jq = pred_pos(s, q);
	if (jp < 0 || jq < 0)
		return 0;
	for (int k = 0; k < s->nphi; k++)
		if (jp >= s->phi[k].n || jq >= s->phi[k].n || !ref_eq(s->phi[k].arg[jp], s->phi[k].arg[jq]))
			return 0;
	return 1;
}

/* Is going to x from a the same as going to y from b? */
static int same_place(Fn *f, int a, int x, int b, int y)
{
	if (x == y)
		return same_args(f->blk[x], a, b);
	Blk *bx = f->blk[x], *by = f->blk[y];
	if (bx->nphi || by->nphi || bx->nins || by->nins || bx->jmp != J_JMP || by->jmp != J_JMP ||
	    bx->s1 != by->s1 || bx->npred != 1 || by->npred != 1)
		return 0;
	return same_args(f->blk[bx->s1], x, y);
}

static int merge(Fn *f, Blk *a)
{
	if (a->jmp != J_JNZ || a->s1 == a->s2 || a->cond.kind != R_VAL)
		return 0;
	for (int side = 0; side < 2; side++) {
		/* side 0: and (B on the true edge), 1: or (B on the false edge) */
		int bi = side ? a->s2 : a->s1, other = side ? a->s1 : a->s2;
		if (bi == a->id || bi <= 0)
			continue;
		Blk *b = f->blk[bi];
		if (b->jmp != J_JNZ || b->s1 == b->s2 || b->nphi || b->npred != 1 || b->nins > MAXSPEC ||
		    b->cond.kind == R_NONE)
			continue;
		int cont = side ? b->s2 : b->s1, leave = side ? b->s1 : b->s2;
		if (cont == bi || leave == bi || cont == other || pred_pos(f->blk[cont], a->id) >= 0 ||
		    pred_pos(f->blk[cont], bi) < 0)
			continue;
		if (!same_place(f, a->id, other, bi, leave))
			continue;
		int ok = 1;
		for (int k = 0; k < b->nins && ok; k++)
			ok = speculable(&b->ins[k]);
		if (!ok)
			continue;
		for (int k = 0; k < b->nins; k++) {
			a->ins = arena_grow(f->ctx->arena, a->ins, a->nins, &a->capins, sizeof *a->ins);
			a->ins[a->nins++] = b->ins[k];
			if (b->ins[k].to >= 0 && b->ins[k].to < f->nval)
				f->val[b->ins[k].to].blk = a->id;
		}
		Ref c = ir_ins(f, a, side ? O_OR : O_AND, KB, SK_BOOL, a->cond, b->cond, REF_NONE, 0);
		a->ins[a->nins - 1].loc = a->nins > 1 ? a->ins[a->nins - 2].loc : -1;
		a->cond = c;
		if (side)
			a->s2 = cont;
		else
			a->s1 = cont;
		/* the edge b -> cont is a -> cont now: cont's phis keep their
		 * arguments, which b did not define (b has no phis, and its
		 * instructions are a's now) */
		f->blk[cont]->pred[pred_pos(f->blk[cont], bi)] = a->id;
		/* b is unreachable now; its instructions live in a */
		b->nins = 0;
		b->jmp = J_JMP;
		b->s1 = leave;
		return 1;
	}
	return 0;
}

void opt_merge_cond(Fn *f)
{
	int any = 0;
	for (int again = 1; again;) {
		again = 0;
		for (int k = 0; k < f->nblk; k++)
			if (merge(f, f->blk[k]))
				again = any = 1;
	}
	if (any)
		ir_fill_rpo(f);
}

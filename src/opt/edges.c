/*
 * edges.c - splitting critical edges.
 *
 * Precondition: a verified function.  An edge is critical when it leaves
 * a block with two successors (jnz) and enters a block with two or more
 * predecessors; the moves that resolve a phi cannot be placed on it in
 * either block.  Each such edge gets a new block holding only a jmp.
 * The new block takes the old one's place in the target's Blk.pred, so
 * every phi argument stays paired with its edge.  For a jnz whose two
 * targets are the same block, the s1 edge is the first occurrence in
 * Blk.pred (ir_fill_preds' order).  At the end the blocks are put in
 * reverse post-order again (ir_fill_rpo), which also drops unreachable
 * blocks.
 */
#include "../core.h"

static void split(Fn *f, Blk *b, int *succ, char *used)
{
	Blk *s = f->blk[*succ];
	if (s->npred < 2)
		return;
	int j = 0;
	while (j < s->npred && (used[j] || s->pred[j] != b->id))
		j++;
	if (j == s->npred)
		ICE(f->ctx, "split_edges: @b%d jumps to @b%d but is not among its predecessors", b->id, s->id);
	Blk *n = ir_new_blk(f);
	ir_jmp(n, s->id);
	ir_add_pred(f, n, b->id);
	s->pred[j] = n->id;
	used[j] = 1;
	*succ = n->id;
}

void opt_split_edges(Fn *f)
{
	int nblk = f->nblk;
	for (int bi = 0; bi < nblk; bi++) {
		Blk *b = f->blk[bi];
		if (b->jmp != J_JNZ)
			continue;
		int s1 = b->s1, s2 = b->s2;
		if (s1 < 0 || s1 >= nblk || s2 < 0 || s2 >= nblk)
			ICE(f->ctx, "split_edges: @b%d jumps to a nonexistent block", b->id);
		Blk *t1 = f->blk[s1], *t2 = f->blk[s2];
		char *used1 = arena_alloc(f->ctx->arena, (size_t)t1->npred + 1);
		char *used2 = t2 == t1 ? used1 : arena_alloc(f->ctx->arena, (size_t)t2->npred + 1);
		split(f, b, &b->s1, used1);
		split(f, b, &b->s2, used2);
	}
	ir_fill_rpo(f);
}

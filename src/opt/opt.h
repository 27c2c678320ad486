/*
 * opt.h - what the loop passes of src/opt share: dominators, natural
 * loops, the definitions of values, and copying instructions.
 *
 * opt_fill_cfg first puts the blocks in reverse post-order (ir_fill_rpo),
 * so a block's index is its position in that order: a dominator always
 * has a smaller index than the blocks it dominates, and the header of a
 * loop the smallest index of the loop's blocks.  The analysis describes
 * the function as it is; a pass that adds or removes blocks or edges
 * fills it again.
 */
#ifndef PTXJIT_OPT_H
#define PTXJIT_OPT_H

#include "../core.h"

/* A natural loop: the blocks that reach one of the header's back edges
 * without passing the header.  Back edges into one header make one loop. */
typedef struct Loop {
	int head;
	int *blk;            /* its blocks in index order (head first) */
	int nblk;
	char *in;            /* in[b]: block b belongs to the loop */
	int *latch;          /* predecessors of head inside the loop */
	int nlatch;
	int pre;             /* the preheader: the only predecessor of head outside
	                        the loop, ending in a jmp to head; -1 if there is none */
	int nexit;           /* edges from the loop to a block outside */
	int parent;          /* the innermost loop around it, or -1 */
	int depth;           /* 1 for an outermost loop */
	int ninner;          /* loops directly inside it */
} Loop;

typedef struct Cfg {
	Fn *f;
	int *idom;           /* immediate dominator (idom[0] == 0) */
	Loop *loop;
	int nloop;           /* loops, innermost first (ordered by size) */
	int *loop_of;        /* innermost loop of each block, or -1 */
	Ins **def;           /* defining instruction of each value, NULL for phis */
	Phi **phi;           /* defining phi of each value */
	int *defblk;         /* block of each value's definition, -1 if none */
	int ndef;            /* values the three tables above cover: f->nval when
	                      * they were filled (later values are not in them) */
} Cfg;

/* loop.c */
void opt_fill_cfg(Fn *f, Cfg *g);
int opt_dominates(const Cfg *g, int a, int b);
/* Is r available everywhere in loop l without being computed there: a
 * constant, or a value defined outside the loop? */
int opt_invariant(const Cfg *g, const Loop *l, Ref r);
/* A new value of the class of `to` (names kept for dumps). */
int opt_new_val(Fn *f, int like);
/* Appends a copy of instruction i to block b with operands renamed by
 * map (map[v], when not REF_NONE, replaces value v) and a new defined
 * value, which map records; returns the new instruction's value. */
Ref opt_clone_ins(Fn *f, Blk *b, const Ins *i, Ref *map);
Ref opt_mapped(const Ref *map, Ref r);
/* Replaces every use of value `from` in the function by `to` (phis,
 * instructions, jumps and check messages). */
void opt_replace_uses(Fn *f, int from, Ref to);
/* The values special register sr can hold on any launch ([*lo, *hi]),
 * or 0 for one that is not bounded here (range.c). */
int opt_sreg_bounds(int sr, int64_t *lo, int64_t *hi);
/* Whether i (an add or mul; def[0..ndef) the defining instructions of the
 * values) is one dimension's ctaid * ntid, nctaid * ntid or tid +
 * ctaid * ntid, through widenings of the 32-bit registers: under
 * small_grid (the launch checked gridDim * blockDim < 2^31 per dimension,
 * and ctaid < nctaid) it lies in [*lo, 2^31 - 1], *lo being 1 for
 * nctaid * ntid and 0 for the others (range.c). */
int opt_grid_value(Ins *const *def, int ndef, const Ins *i, int64_t *lo);

#endif

/*
 * sched.c - the order of instructions within a block: special register
 * reads first, then global loads.  Values never change, only the order
 * in which ptxas is handed the instructions, which it keeps more than
 * one would expect.
 *
 * Precondition: the final IR of a kernel, after opt_nc.  Kernels built
 * with bounds checks (the simulator) are left alone: a load must not
 * pass the check of its index.
 *
 * Special registers: their reads move to the front of the block, for
 * each dimension in the order ntid, ctaid, tid (the order of `blockIdx.x
 * * blockDim.x + threadIdx.x` in CUDA C compilers' PTX).  ptxas assigns
 * registers by that order: with tid read first, the block index goes to
 * a uniform register and the block size comes through a constant load
 * into a vector register, which cost an RGB-to-gray conversion 3% of its
 * time and a 5-point stencil 1.5%.  The reads have no operands, so any
 * order is valid.
 *
 * Loads: a global load and the integer arithmetic of its address move
 * to the front (after the special registers), in their original order.
 * A block of straight-line IR may still become several blocks of
 * machine code: ptxas expands a float64 division, a square root or a
 * reciprocal into a fast path and a rarely taken call, and does not move
 * a load from after such a call to before it.  `sqrt(T[i])` followed by
 * `S[i] / X[i]` then waits for memory twice in a row; with the three
 * loads issued together it waits once.  A load of memory nothing writes
 * while the kernel runs (ld.global.nc, nc.c) may pass any instruction;
 * any other global load only pure ones, so it moves when no instruction
 * with an effect (a store, an atomic, a barrier, a call) comes before it
 * in the block.  A load whose address depends on anything else (a float
 * computation, a division, a load that may not move) stays where it is;
 * moving float work up would only lengthen what stays live.  Shared
 * memory answers too quickly for its loads to need this.
 */
#include <string.h>

#include "opt.h"

typedef struct S {
	Fn *f;
	Blk *b;
	int *pos;        /* pos[v]: index in b of v's definition, or -1 */
	char *move;      /* move[k]: instruction k of b moves to the front */
	int first_effect; /* index in b of the first instruction with an effect */
	int *trail;      /* the instructions slice() marked in try[], in order */
	int ntrail;
} S;

/* May instruction k of the block move to the front with a load? */
static int movable(const S *s, int k)
{
	const Ins *i = &s->b->ins[k];
	if (i->op >= NOPS || i->to < 0 || !op_info[i->op].def || op_info[i->op].effect)
		return 0;
	switch (i->op) {
	case O_LOAD:
		return i->aux == SP_GLOBAL && (ir_load_nc(s->f, i) || k < s->first_effect);
	case O_DIV: case O_REM: case O_FARG: case O_NOP_: case O_APPROX:
		return 0;
	default:
		return i->cls == KW || i->cls == KL || i->cls == KB;
	}
}

/* Can instruction k and the instructions of b it depends on move to the
 * front?  Marks them in try[] and lists them in s->trail (the caller
 * clears them, and moves them when it can). */
static int slice(S *s, int k, char *try, int depth)
{
	if (s->move[k] || try[k])
		return 1;
	const Ins *i = &s->b->ins[k];
	if (depth > 64 || !movable(s, k))
		return 0;
	try[k] = 1;
	s->trail[s->ntrail++] = k;
	for (int a = 0; a < ir_nargs(i); a++) {
		Ref r = i->arg[a];
		if (r.kind != R_VAL || (int)r.idx >= s->f->nval || s->pos[r.idx] < 0)
			continue;
		if (!slice(s, s->pos[r.idx], try, depth + 1))
			return 0;
	}
	return 1;
}

static int sreg_rank(const Ins *i)
{
	int sr = i->aux;
	if (sr >= SR_NTID_X && sr <= SR_NTID_Z)
		return 3 * (sr - SR_NTID_X);
	if (sr >= SR_CTAID_X && sr <= SR_CTAID_Z)
		return 3 * (sr - SR_CTAID_X) + 1;
	if (sr >= SR_TID_X && sr <= SR_TID_Z)
		return 3 * (sr - SR_TID_X) + 2;
	return 9 + sr;
}

enum { RANK_LOAD = 9 + NSR, RANK_REST, NRANK };

/* Marks in s->move the global loads that may move to the front, with
 * the instructions computing their addresses. */
static void mark_loads(S *s, char *try)
{
	Blk *b = s->b;
	s->first_effect = b->nins;
	for (int k = b->nins - 1; k >= 0; k--)
		if (b->ins[k].op < NOPS && op_info[b->ins[k].op].effect)
			s->first_effect = k;
	for (int k = 0; k < b->nins; k++) {
		if (b->ins[k].op != O_LOAD || s->move[k])
			continue;
		s->ntrail = 0;
		int ok = slice(s, k, try, 0);
		for (int t = 0; t < s->ntrail; t++) {
			s->move[s->trail[t]] |= ok;
			try[s->trail[t]] = 0;
		}
	}
}

/* b's instructions ordered by rank, each rank keeping its order */
static void stable_order(Fn *f, Blk *b, const int *rank)
{
	Ins *old = arena_alloc(f->ctx->arena, (size_t)b->nins * sizeof *old);
	memcpy(old, b->ins, (size_t)b->nins * sizeof *old);
	int n = 0;
	for (int r = 0; r < NRANK; r++)
		for (int k = 0; k < b->nins; k++)
			if (rank[k] == r)
				b->ins[n++] = old[k];
}

/* s->pos of the values s->b defines: their positions, or -1 again */
static void index_block(S *s, int on)
{
	for (int k = 0; k < s->b->nins; k++)
		if (s->b->ins[k].to >= 0 && s->b->ins[k].to < s->f->nval)
			s->pos[s->b->ins[k].to] = on ? k : -1;
}

void opt_sched(Fn *f)
{
	const PjOptions *o = f->ctx->opt;
	if (f->checked || (o && o->target_cpu))
		return;
	Arena *a = f->ctx->arena;
	S s = {.f = f};
	s.pos = arena_alloc(a, (size_t)(f->nval + 1) * sizeof *s.pos);
	for (int v = 0; v <= f->nval; v++)
		s.pos[v] = -1;
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		int loads = 0, sregs = 0;
		for (int k = 0; k < b->nins; k++) {
			loads += b->ins[k].op == O_LOAD;
			sregs += b->ins[k].op == O_SREG;
		}
		if (!loads && !sregs)
			continue;
		s.b = b;
		s.move = arena_alloc(a, (size_t)b->nins + 1);
		if (loads) {
			index_block(&s, 1);
			s.trail = arena_alloc(a, (size_t)b->nins * sizeof *s.trail + 1);
			mark_loads(&s, arena_alloc(a, (size_t)b->nins + 1));
			index_block(&s, 0);
		}
		int *rank = arena_alloc(a, (size_t)b->nins * sizeof *rank + 1);
		for (int k = 0; k < b->nins; k++)
			rank[k] = b->ins[k].op == O_SREG ? sreg_rank(&b->ins[k]) : s.move[k] ? RANK_LOAD : RANK_REST;
		stable_order(f, b, rank);
	}
}

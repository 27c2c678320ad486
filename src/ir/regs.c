/*
 * regs.c - an estimate of the registers a thread of the kernel needs.
 *
 * On the GPU, get_regs_per_thread() is the driver's count, which ptxas
 * decides when it allocates registers.  The simulator has no ptxas, so it
 * answers with this estimate from the final IR: the largest number of
 * 32-bit registers that the values live at one point hold at once.  A KW
 * or KS value takes one, a KL or KD value two; KB values live in
 * predicate registers, which the count leaves out.  The kernel and each
 * function it calls for real (Fn.funcs) are measured, and the largest
 * wins: a callee's frame replaces its caller's while it runs, roughly.
 * The result lies in [1, 255], the range a thread's registers have on
 * every device ptxjit targets.  ptxas may need more (addresses it forms,
 * temporaries of expanded instructions) or fewer (values it
 * rematerialises), so this is a measure of pressure, not a promise.
 *
 * The count at an instruction is the larger of what is live before it
 * and what is live after it (its result among them): a result may take
 * the register of an operand that dies there, as ptxas lets it.
 *
 * Liveness is the usual backward dataflow over the blocks: a value is
 * live into a block when the block uses it before defining it, or when
 * it is live out of the block and not defined there; live out is the
 * union of the successors' live-in and of the phi arguments that come
 * from this block.  Precondition: a verified function.
 */
#include <string.h>

#include "../core.h"

typedef struct L {
	const Fn *f;
	int words;          /* uint64_t words per set */
	uint64_t *in, *out; /* per block */
	uint64_t *cur;
} L;

static int weight(const Fn *f, int v)
{
	switch (f->val[v].cls) {
	case KW: case KS: return 1;
	case KL: case KD: return 2;
	default: return 0;
	}
}

static int is_val(const Fn *f, Ref r)
{
	return r.kind == R_VAL && (int)r.idx < f->nval;
}

static void set_bit(uint64_t *s, int v) { s[v >> 6] |= (uint64_t)1 << (v & 63); }
static void clear_bit(uint64_t *s, int v) { s[v >> 6] &= ~((uint64_t)1 << (v & 63)); }
static int has_bit(const uint64_t *s, int v) { return (int)(s[v >> 6] >> (v & 63)) & 1; }

/* The phi arguments of successor s that come from block b, into set. */
static void add_phi_uses(const L *l, const Blk *b, int s, uint64_t *set)
{
	const Fn *f = l->f;
	if (s < 0 || s >= f->nblk)
		return;
	const Blk *t = f->blk[s];
	for (int p = 0; p < t->npred; p++) {
		if (t->pred[p] != b->id)
			continue;
		for (int k = 0; k < t->nphi; k++)
			if (p < t->phi[k].n && is_val(f, t->phi[k].arg[p]))
				set_bit(set, (int)t->phi[k].arg[p].idx);
	}
}

static void fill_out(const L *l, const Blk *b, uint64_t *out)
{
	memset(out, 0, sizeof *out * (size_t)l->words);
	int succ[2] = {-1, -1};
	if (b->jmp == J_JMP)
		succ[0] = b->s1;
	else if (b->jmp == J_JNZ)
		succ[0] = b->s1, succ[1] = b->s2;
	for (int j = 0; j < 2; j++) {
		if (succ[j] < 0 || succ[j] >= l->f->nblk)
			continue;
		const uint64_t *in = l->in + (size_t)succ[j] * (size_t)l->words;
		for (int w = 0; w < l->words; w++)
			out[w] |= in[w];
		add_phi_uses(l, b, succ[j], out);
	}
}

/* Adds v to the set, keeping *w the set's weight. */
static void add_live(const Fn *f, uint64_t *s, int v, int *w)
{
	if (!has_bit(s, v)) {
		set_bit(s, v);
		*w += weight(f, v);
	}
}

static void use_ref(const Fn *f, Ref r, uint64_t *s, int *w)
{
	if (is_val(f, r))
		add_live(f, s, (int)r.idx, w);
}

static void use_ins(const Fn *f, const Ins *i, uint64_t *s, int *w)
{
	int n = ir_nargs(i);
	for (int k = 0; k < n && k < 3; k++)
		use_ref(f, i->arg[k], s, w);
	if (i->op == O_CHECK && i->aux >= 0 && i->aux < f->nchecks)
		for (int k = 0; k < f->checks[i->aux].ndim && k < 8; k++)
			use_ref(f, f->checks[i->aux].ext[k], s, w);
}

static int set_weight(const Fn *f, const uint64_t *s, int words)
{
	int n = 0;
	for (int w = 0; w < words; w++)
		for (uint64_t m = s[w]; m; m &= m - 1) {
			int v = w * 64 + __builtin_ctzll(m);
			if (v < f->nval)
				n += weight(f, v);
		}
	return n;
}

/* Walks block b backward from its live-out set in l->cur (left as its
 * live-in); returns the heaviest point.  The weight is kept as the set
 * changes, so a walk costs a step per operand. */
static int walk_block(const L *l, const Blk *b)
{
	const Fn *f = l->f;
	uint64_t *s = l->cur;
	if (b->jmp == J_JNZ && is_val(f, b->cond))   /* the branch reads it last */
		set_bit(s, (int)b->cond.idx);
	int w = set_weight(f, s, l->words), peak = w;
	for (int k = b->nins - 1; k >= 0; k--) {
		const Ins *i = &b->ins[k];
		if (i->to >= 0 && i->to < f->nval) {
			if (has_bit(s, i->to)) {
				clear_bit(s, i->to);
				w -= weight(f, i->to);
			} else if (w + weight(f, i->to) > peak) {   /* defined but dead: its register is still written */
				peak = w + weight(f, i->to);
			}
		}
		use_ins(f, i, s, &w);   /* a use that dies here leaves its register to the result */
		peak = w > peak ? w : peak;
	}
	for (int k = 0; k < b->nphi; k++)
		if (b->phi[k].to >= 0 && b->phi[k].to < f->nval)
			clear_bit(s, b->phi[k].to);
	return peak;
}

static int fn_estimate(Arena *a, const Fn *f)
{
	if (f->external || f->nblk == 0)
		return 0;
	L l = {.f = f, .words = (f->nval + 64) / 64};
	size_t set = sizeof(uint64_t) * (size_t)l.words;
	l.in = arena_alloc(a, set * (size_t)f->nblk);
	l.out = arena_alloc(a, set * (size_t)f->nblk);
	l.cur = arena_alloc(a, set);
	memset(l.in, 0, set * (size_t)f->nblk);
	for (int changed = 1; changed;) {
		changed = 0;
		for (int bi = f->nblk - 1; bi >= 0; bi--) {
			const Blk *b = f->blk[bi];
			uint64_t *out = l.out + (size_t)bi * (size_t)l.words;
			fill_out(&l, b, out);
			memcpy(l.cur, out, set);
			walk_block(&l, b);
			uint64_t *in = l.in + (size_t)bi * (size_t)l.words;
			if (memcmp(in, l.cur, set) != 0) {
				memcpy(in, l.cur, set);
				changed = 1;
			}
		}
	}
	int peak = 0;
	for (int bi = 0; bi < f->nblk; bi++) {
		memcpy(l.cur, l.out + (size_t)bi * (size_t)l.words, set);
		int p = walk_block(&l, f->blk[bi]);
		peak = p > peak ? p : peak;
	}
	return peak;
}

int ir_reg_estimate(Fn *f)
{
	int peak = fn_estimate(f->ctx->arena, f);
	for (int i = 0; i < f->nfuncs; i++) {
		int p = fn_estimate(f->ctx->arena, f->funcs[i]);
		peak = p > peak ? p : peak;
	}
	return peak < 1 ? 1 : peak > 255 ? 255 : peak;
}

/*
 * cse.c - common subexpression elimination within dominance.
 *
 * Precondition: a verified function.  Two pure instructions with the
 * same opcode, class, kind, aux and operands compute the same value; when
 * the first one's block dominates the second one's (or it comes earlier
 * in the same block), uses of the second take the first, and the second
 * goes.  Blocks are visited in reverse post-order, so an instruction's
 * operands have already been replaced by their representatives when it
 * is looked up.  Operands of commutative integer operations are ordered
 * first, so a+b and b+a meet.  Loads are left alone (memory may change
 * between them; a read-only analysis would be needed), as is anything
 * with an effect.  Phis are not merged.
 */
#include <string.h>

#include "../core.h"

typedef struct Entry {
	Ins *ins;
	int blk;
	struct Entry *next;
} Entry;

typedef struct C {
	Fn *f;
	int *rpo, *idom;
	Ref *rep;
	Entry **tab;
	uint32_t mask;
} C;

static Ref resolve(C *c, Ref r)
{
	for (int n = 0; r.kind == R_VAL && (int)r.idx < c->f->nval && c->rep[r.idx].kind != R_NONE; n++) {
		if (n > c->f->nval)
			ICE(c->f->ctx, "cse: replacement cycle at %%%u", (unsigned)r.idx);
		r = c->rep[r.idx];
	}
	return r;
}

static int succ(Fn *f, Blk *b, int *s)
{
	int n = 0;
	if ((b->jmp == J_JMP || b->jmp == J_JNZ) && b->s1 >= 0 && b->s1 < f->nblk)
		s[n++] = b->s1;
	if (b->jmp == J_JNZ && b->s2 >= 0 && b->s2 < f->nblk)
		s[n++] = b->s2;
	return n;
}

/* Reverse post-order and immediate dominators (Cooper, Harvey, Kennedy);
 * returns the blocks in reverse post-order. */
static int *fill_dom(C *c, int *norder)
{
	Fn *f = c->f;
	Arena *a = f->ctx->arena;
	int n = f->nblk;
	int *post = arena_alloc(a, sizeof(int) * (size_t)n);
	int *stack = arena_alloc(a, sizeof(int) * (size_t)n);
	int *next = arena_alloc(a, sizeof(int) * (size_t)n);
	char *seen = arena_alloc(a, (size_t)n);
	c->rpo = arena_alloc(a, sizeof(int) * (size_t)n);
	c->idom = arena_alloc(a, sizeof(int) * (size_t)n);
	int np = 0, sp = 0;
	stack[sp++] = 0;
	seen[0] = 1;
	while (sp) {
		int b = stack[sp - 1], s[2];
		int ns = succ(f, f->blk[b], s);
		while (next[b] < ns && seen[s[next[b]]])
			next[b]++;
		if (next[b] < ns) {
			int x = s[next[b]++];
			seen[x] = 1;
			stack[sp++] = x;
		} else {
			post[np++] = b;
			sp--;
		}
	}
	int *order = arena_alloc(a, sizeof(int) * (size_t)(np + 1));
	for (int i = 0; i < n; i++)
		c->rpo[i] = c->idom[i] = -1;
	for (int i = 0; i < np; i++) {
		order[i] = post[np - 1 - i];
		c->rpo[order[i]] = i;
	}
	c->idom[0] = 0;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 1; i < np; i++) {
			Blk *b = f->blk[order[i]];
			int nd = -1;
			for (int j = 0; j < b->npred; j++) {
				int p = b->pred[j];
				if (p < 0 || p >= n || c->idom[p] < 0)
					continue;
				if (nd < 0) {
					nd = p;
					continue;
				}
				int x = p, y = nd;
				while (x != y) {
					while (c->rpo[x] > c->rpo[y])
						x = c->idom[x];
					while (c->rpo[y] > c->rpo[x])
						y = c->idom[y];
				}
				nd = x;
			}
			if (nd >= 0 && c->idom[b->id] != nd) {
				c->idom[b->id] = nd;
				changed = 1;
			}
		}
	}
	*norder = np;
	return order;
}

static int dominates(C *c, int a, int b)
{
	for (;;) {
		if (a == b)
			return 1;
		if (b <= 0 || c->idom[b] < 0 || c->idom[b] == b)
			return 0;
		b = c->idom[b];
	}
}

static int commutes(const Ins *i)
{
	if (i->cls != KW && i->cls != KL && i->cls != KB)
		return 0;
	switch (i->op) {
	case O_ADD: case O_MUL: case O_AND: case O_OR: case O_XOR: case O_MIN: case O_MAX:
		return 1;
	default:
		return 0;
	}
}

static uint32_t ref_bits(Ref r)
{
	return (uint32_t)r.kind << 30 | r.idx;
}

static uint32_t hash(const Ins *i)
{
	uint32_t h = i->op * 0x9e3779b1u ^ i->cls * 0x85ebca77u ^ i->ty * 0xc2b2ae3du ^ (uint32_t)i->aux * 0x27d4eb2fu;
	for (int k = 0; k < 3; k++)
		h = (h ^ ref_bits(i->arg[k])) * 0x165667b1u;
	return h ^ h >> 15;
}

static int same(const Ins *a, const Ins *b)
{
	if (a->op != b->op || a->cls != b->cls || a->ty != b->ty || a->aux != b->aux)
		return 0;
	for (int k = 0; k < 3; k++)
		if (!ref_eq(a->arg[k], b->arg[k]))
			return 0;
	return 1;
}

static int candidate(const Ins *i)
{
	if (i->op >= NOPS || !op_info[i->op].def || op_info[i->op].effect || i->to < 0)
		return 0;
	return i->op != O_LOAD && i->op != O_COPY;
}

void opt_cse(Fn *f)
{
	Arena *a = f->ctx->arena;
	C c = {.f = f};
	int norder;
	int *order = fill_dom(&c, &norder);
	c.rep = arena_alloc(a, sizeof *c.rep * (size_t)(f->nval + 1));
	uint32_t size = 64;
	int nins = 0;
	for (int i = 0; i < f->nblk; i++)
		nins += f->blk[i]->nins;
	while (size < (uint32_t)nins * 2 && size < (1u << 24))
		size *= 2;
	c.tab = arena_alloc(a, sizeof *c.tab * size);
	c.mask = size - 1;
	int removed = 0;
	for (int oi = 0; oi < norder; oi++) {
		int bi = order[oi];
		Blk *b = f->blk[bi];
		for (int k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			for (int j = 0; j < 3; j++)
				i->arg[j] = resolve(&c, i->arg[j]);
			if (!candidate(i))
				continue;
			if (commutes(i) && ref_bits(i->arg[1]) < ref_bits(i->arg[0])) {
				Ref t = i->arg[0];
				i->arg[0] = i->arg[1];
				i->arg[1] = t;
			}
			uint32_t h = hash(i) & c.mask;
			Entry *e = c.tab[h];
			for (; e; e = e->next)
				if (same(e->ins, i) && dominates(&c, e->blk, bi))
					break;
			if (e) {
				c.rep[i->to] = REF_VAL(e->ins->to);
				*i = (Ins){.op = O_NOP_, .to = -1, .loc = i->loc};
				removed = 1;
				continue;
			}
			e = arena_alloc(a, sizeof *e);
			*e = (Entry){i, bi, c.tab[h]};
			c.tab[h] = e;
		}
	}
	if (!removed)
		return;
	for (int i = 0; i < f->nchecks; i++)
		for (int d = 0; d < 8; d++)
			f->checks[i].ext[d] = resolve(&c, f->checks[i].ext[d]);
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		for (int k = 0; k < b->nphi; k++)
			for (int j = 0; j < b->phi[k].n; j++)
				b->phi[k].arg[j] = resolve(&c, b->phi[k].arg[j]);
		int n = 0;
		for (int k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			if (i->op == O_NOP_)
				continue;
			for (int j = 0; j < 3; j++)
				i->arg[j] = resolve(&c, i->arg[j]);
			b->ins[n++] = *i;
		}
		b->nins = n;
		if (b->jmp == J_JNZ)
			b->cond = resolve(&c, b->cond);
	}
}

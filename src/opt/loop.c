/*
 * loop.c - dominators and natural loops for the loop passes (opt.h), and
 * the small rewriting helpers they share.
 *
 * The blocks are first put in reverse post-order (ir_fill_rpo), which
 * also drops unreachable ones.  Dominators then come from Cooper, Harvey
 * and Kennedy's iteration ("A Simple, Fast Dominance Algorithm"), with
 * the block index as the post-order number.  An edge b -> h is a back
 * edge when h dominates b; the loop of header h is h and every block
 * from which a back edge's source is reached backwards without passing
 * h.  The lowering gives every loop a preheader (the block before a
 * `for` or `while` ends in a jmp to the header), which the passes use to
 * place code that runs once before the loop; a loop without one is left
 * alone by them.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

static int succs(const Blk *b, int *s)
{
	int n = 0;
	if (b->jmp == J_JMP || b->jmp == J_JNZ)
		s[n++] = b->s1;
	if (b->jmp == J_JNZ)
		s[n++] = b->s2;
	return n;
}

static void fill_idom(Cfg *g)
{
	Fn *f = g->f;
	int n = f->nblk;
	g->idom = arena_alloc(f->ctx->arena, sizeof(int) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		g->idom[i] = -1;
	if (n)
		g->idom[0] = 0;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int b = 1; b < n; b++) {
			Blk *bk = f->blk[b];
			int nd = -1;
			for (int j = 0; j < bk->npred; j++) {
				int p = bk->pred[j];
				if (p < 0 || p >= n || g->idom[p] < 0)
					continue;
				if (nd < 0) {
					nd = p;
					continue;
				}
				int x = p, y = nd;
				while (x != y) {
					while (x > y)
						x = g->idom[x];
					while (y > x)
						y = g->idom[y];
				}
				nd = x;
			}
			if (nd >= 0 && g->idom[b] != nd) {
				g->idom[b] = nd;
				changed = 1;
			}
		}
	}
}

int opt_dominates(const Cfg *g, int a, int b)
{
	if (a < 0 || b < 0)
		return 0;
	while (b > a)
		b = g->idom[b] >= 0 && g->idom[b] < b ? g->idom[b] : -1;
	return a == b;
}

static int by_size(const void *x, const void *y)
{
	const Loop *a = x, *b = y;
	if (a->nblk != b->nblk)
		return a->nblk - b->nblk;
	return a->head - b->head;
}

static void fill_loops(Cfg *g)
{
	Fn *f = g->f;
	Arena *a = f->ctx->arena;
	int n = f->nblk;
	int *stack = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	Loop *loops = NULL;
	int nl = 0, cap = 0;
	for (int h = 0; h < n; h++) {
		Blk *hb = f->blk[h];
		char *in = NULL;
		int sp = 0;
		for (int j = 0; j < hb->npred; j++) {
			int b = hb->pred[j];
			if (!opt_dominates(g, h, b))
				continue;
			if (!in) {
				in = arena_alloc(a, (size_t)n + 1);
				in[h] = 1;
			}
			if (!in[b]) {
				in[b] = 1;
				stack[sp++] = b;
			}
		}
		if (!in)
			continue;
		while (sp) {
			Blk *b = f->blk[stack[--sp]];
			for (int j = 0; j < b->npred; j++) {
				int p = b->pred[j];
				if (p >= 0 && p < n && !in[p] && g->idom[p] >= 0) {
					in[p] = 1;
					stack[sp++] = p;
				}
			}
		}
		Loop l;
		memset(&l, 0, sizeof l);
		l.head = h;
		l.in = in;
		l.pre = -1;
		l.parent = -1;
		for (int b = 0; b < n; b++)
			l.nblk += in[b];
		l.blk = arena_alloc(a, sizeof(int) * (size_t)l.nblk);
		l.latch = arena_alloc(a, sizeof(int) * (size_t)(hb->npred + 1));
		l.nblk = 0;
		for (int b = 0; b < n; b++) {
			if (!in[b])
				continue;
			l.blk[l.nblk++] = b;
			int s[2], ns = succs(f->blk[b], s);
			for (int k = 0; k < ns; k++)
				if (!in[s[k]])
					l.nexit++;
		}
		int nout = 0, out = -1;
		for (int j = 0; j < hb->npred; j++) {
			if (in[hb->pred[j]])
				l.latch[l.nlatch++] = hb->pred[j];
			else {
				nout++;
				out = hb->pred[j];
			}
		}
		if (nout == 1 && f->blk[out]->jmp == J_JMP && f->blk[out]->s1 == h)
			l.pre = out;
		VEC_PUSH(f->ctx, loops, nl, cap, l);
	}
	if (nl > 1)
		qsort(loops, (size_t)nl, sizeof *loops, by_size);
	g->loop = loops;
	g->nloop = nl;
	g->loop_of = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	for (int b = 0; b < n; b++)
		g->loop_of[b] = -1;
	for (int i = nl - 1; i >= 0; i--)
		for (int k = 0; k < loops[i].nblk; k++)
			g->loop_of[loops[i].blk[k]] = i;
	for (int i = 0; i < nl; i++) {
		for (int j = i + 1; j < nl; j++)
			if (loops[j].in[loops[i].head] && loops[j].head != loops[i].head) {
				loops[i].parent = j;
				loops[j].ninner++;
				break;
			}
	}
	for (int i = nl - 1; i >= 0; i--)
		loops[i].depth = loops[i].parent >= 0 ? loops[loops[i].parent].depth + 1 : 1;
}

static void fill_defs(Cfg *g)
{
	Fn *f = g->f;
	Arena *a = f->ctx->arena;
	g->def = arena_alloc(a, sizeof *g->def * (size_t)(f->nval + 1));
	g->phi = arena_alloc(a, sizeof *g->phi * (size_t)(f->nval + 1));
	g->defblk = arena_alloc(a, sizeof *g->defblk * (size_t)(f->nval + 1));
	g->ndef = f->nval;
	for (int v = 0; v < f->nval; v++)
		g->defblk[v] = -1;
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nphi; k++) {
			int v = bk->phi[k].to;
			if (v >= 0 && v < f->nval) {
				g->phi[v] = &bk->phi[k];
				g->defblk[v] = b;
			}
		}
		for (int k = 0; k < bk->nins; k++) {
			int v = bk->ins[k].to;
			if (v >= 0 && v < f->nval) {
				g->def[v] = &bk->ins[k];
				g->defblk[v] = b;
			}
		}
	}
}

void opt_fill_cfg(Fn *f, Cfg *g)
{
	memset(g, 0, sizeof *g);
	g->f = f;
	ir_fill_rpo(f);
	fill_idom(g);
	fill_loops(g);
	fill_defs(g);
}

int opt_invariant(const Cfg *g, const Loop *l, Ref r)
{
	if (r.kind == R_CON || r.kind == R_NONE)
		return 1;
	if ((int)r.idx >= g->ndef)   /* made after the tables: not known invariant */
		return 0;
	int b = g->defblk[r.idx];
	return b >= 0 && !l->in[b];
}

int opt_new_val(Fn *f, int like)
{
	Val *v = &f->val[like];
	return ir_new_val(f, (Cls)v->cls, v->name);
}

Ref opt_mapped(const Ref *map, Ref r)
{
	if (r.kind == R_VAL && map[r.idx].kind != R_NONE)
		return map[r.idx];
	return r;
}

Ref opt_clone_ins(Fn *f, Blk *b, const Ins *i, Ref *map)
{
	Ins c = *i;
	for (int k = 0; k < 3; k++)
		c.arg[k] = opt_mapped(map, c.arg[k]);
	if (c.to >= 0) {
		int v = opt_new_val(f, c.to);
		map[i->to] = REF_VAL(v);
		c.to = v;
		f->val[v].blk = b->id;
	}
	b->ins = arena_grow(f->ctx->arena, b->ins, b->nins, &b->capins, sizeof *b->ins);
	b->ins[b->nins++] = c;
	return c.to >= 0 ? REF_VAL(c.to) : REF_NONE;
}

static void swap_ref(Ref *r, int from, Ref to)
{
	if (r->kind == R_VAL && (int)r->idx == from)
		*r = to;
}

void opt_replace_uses(Fn *f, int from, Ref to)
{
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nphi; k++)
			for (int j = 0; j < bk->phi[k].n; j++)
				swap_ref(&bk->phi[k].arg[j], from, to);
		for (int k = 0; k < bk->nins; k++)
			for (int j = 0; j < 3; j++)
				swap_ref(&bk->ins[k].arg[j], from, to);
		if (bk->jmp == J_JNZ)
			swap_ref(&bk->cond, from, to);
	}
	for (int i = 0; i < f->nchecks; i++)
		for (int d = 0; d < 8; d++)
			swap_ref(&f->checks[i].ext[d], from, to);
}

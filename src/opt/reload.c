/*
 * reload.c - loads of a value the thread already has: reused.
 *
 * Precondition: a verified function after cse (equal addresses are one
 * value).  Along each chain of blocks where a block's only predecessor
 * is the one before it (a straight run of code that inlining and
 * unrolling may have cut into blocks, or the body of an `if` after its
 * test), the pass remembers what memory
 * holds: each load's address, space and kind with the value it gave,
 * and each store's address with the value it wrote (for the 32- and
 * 64-bit kinds, whose registers hold exactly what memory does).  A later
 * load of the same address, space and kind takes that value instead (a
 * copy).  `x = t[a]; t[a] = t[b]; t[b] += x` reads t[b] once.
 *
 * What a store may overwrite is forgotten.  Two places are apart only
 * when they are in different state spaces (global, shared, local,
 * constant, parameter: never generic) or their addresses are sums of the
 * same terms plus constants whose byte ranges do not meet (t[b] and
 * t[b - offset] for a constant offset, states[tid].s0 and .s1); any
 * other pair may be one place.  Everything is forgotten at an atomic, a
 * barrier, a fence, a warp operation, a call, a print or anything else
 * with an effect (only a bounds check or a trap is none): another thread
 * may write memory and make it visible there.  Between two such points a
 * thread that reads memory another thread writes without them has a race
 * the program already has, in which the value read first is one of the
 * values the second read could give.
 */
#include <stdlib.h>
#include <string.h>

#include "../core.h"

enum { MAXT = 6, MAXE = 64 };

typedef struct Addr {
	int nt;
	Ref t[MAXT];
	int64_t c;
	int ok;           /* the address is such a sum */
} Addr;

typedef struct Entry {
	Ref addr;
	int space, ty;
	Ref val;
	Addr a;
} Entry;

typedef struct Known {
	Entry e[MAXE];
	int n;
} Known;

typedef struct R {
	Fn *f;
	Ins **def;
} R;

static int ref_cmp(const void *x, const void *y)
{
	const Ref *a = x, *b = y;
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int flatten(R *r, Ref x, Addr *a, int depth)
{
	if (x.kind == R_CON) {
		a->c += r->f->con[x.idx].i;
		return 1;
	}
	if (x.kind != R_VAL || depth > 12)
		return 0;
	const Ins *d = (int)x.idx < r->f->nval ? r->def[x.idx] : NULL;
	if (d && d->op == O_ADD && d->cls == KL)
		return flatten(r, d->arg[0], a, depth + 1) && flatten(r, d->arg[1], a, depth + 1);
	if (a->nt == MAXT)
		return 0;
	a->t[a->nt++] = x;
	return 1;
}

static Addr addr_of(R *r, Ref x)
{
	Addr a = {0};
	a.ok = flatten(r, x, &a, 0);
	if (a.ok)
		qsort(a.t, (size_t)a.nt, sizeof a.t[0], ref_cmp);
	return a;
}

/* Bytes of memory kind ty; 16 for any not listed (a bound, not a size). */
static int kind_bytes(int ty)
{
	switch (ty) {
	case SK_BOOL: case SK_I8: case SK_U8: return 1;
	case SK_I16: case SK_U16: case SK_F16: case SK_BF16: return 2;
	case SK_I32: case SK_U32: case SK_F32: return 4;
	case SK_I64: case SK_U64: case SK_F64: case SK_C64: return 8;
	default: return 16;
	}
}

static int exact_kind(int ty)
{
	switch (ty) {
	case SK_I32: case SK_U32: case SK_F32: case SK_I64: case SK_U64: case SK_F64:
		return 1;
	default:
		return 0;
	}
}

/* Can a store of kind ty at a (space sp) change entry e? */
static int may_meet(const Entry *e, int sp, int ty, const Addr *a)
{
	if (sp != e->space && sp != SP_GENERIC && e->space != SP_GENERIC)
		return 0;
	if (sp != e->space || !a->ok || !e->a.ok || a->nt != e->a.nt ||
	    memcmp(a->t, e->a.t, sizeof a->t[0] * (size_t)a->nt))
		return 1;
	return a->c < e->a.c + kind_bytes(e->ty) && e->a.c < a->c + kind_bytes(ty);
}

static void remember(Known *k, Ref addr, int sp, int ty, Ref val, Addr a)
{
	if (k->n == MAXE) {
		memmove(k->e, k->e + 1, sizeof k->e[0] * (MAXE - 1));
		k->n--;
	}
	k->e[k->n++] = (Entry){addr, sp, ty, val, a};
}

static int forgets_all(const Ins *i)
{
	if (i->op >= NOPS)
		return 1;
	if (i->op == O_CHECK || i->op == O_TRAP || i->op == O_STORE)
		return 0;
	return op_info[i->op].effect || i->op == O_FARG || i->op == O_CRES;
}

static void block(R *r, Blk *b, Known *k)
{
	for (int j = 0; j < b->nins; j++) {
		Ins *i = &b->ins[j];
		if (i->op == O_LOAD && i->to >= 0) {
			int hit = -1;
			for (int q = k->n - 1; q >= 0 && hit < 0; q--)
				if (ref_eq(k->e[q].addr, i->arg[0]) && k->e[q].space == i->aux && k->e[q].ty == i->ty &&
				    ir_cls_of(r->f, k->e[q].val) == i->cls)
					hit = q;
			if (hit >= 0) {
				i->op = O_COPY;
				i->arg[0] = k->e[hit].val;
				i->aux = 0;
				continue;
			}
			remember(k, i->arg[0], i->aux, i->ty, REF_VAL(i->to), addr_of(r, i->arg[0]));
		} else if (i->op == O_STORE) {
			Addr a = addr_of(r, i->arg[0]);
			int n = 0;
			for (int q = 0; q < k->n; q++)
				if (!may_meet(&k->e[q], i->aux, i->ty, &a))
					k->e[n++] = k->e[q];
			k->n = n;
			if (exact_kind(i->ty) && i->cls == ir_cls_of_sk((ScalarKind)i->ty) &&
			    ir_cls_of(r->f, i->arg[1]) == i->cls)
				remember(k, i->arg[0], i->aux, i->ty, i->arg[1], a);
		} else if (forgets_all(i))
			k->n = 0;
	}
}

void opt_reload(Fn *f)
{
	Arena *ar = f->ctx->arena;
	R r = {.f = f};
	r.def = arena_alloc(ar, sizeof *r.def * (size_t)(f->nval + 1));
	memset(r.def, 0, sizeof *r.def * (size_t)(f->nval + 1));
	for (int bi = 0; bi < f->nblk; bi++)
		for (int j = 0; j < f->blk[bi]->nins; j++) {
			Ins *i = &f->blk[bi]->ins[j];
			if (i->to >= 0 && i->to < f->nval)
				r.def[i->to] = i;
		}
	char *done = arena_alloc(ar, (size_t)f->nblk + 1);
	memset(done, 0, (size_t)f->nblk + 1);
	Known *k = arena_alloc(ar, sizeof *k);
	for (int bi = 0; bi < f->nblk; bi++) {
		if (done[bi])
			continue;
		/* a chain: bi, then while the successor has bi's block as its only predecessor */
		k->n = 0;
		for (int b = bi; b >= 0 && !done[b];) {
			Blk *bk = f->blk[b];
			done[b] = 1;
			block(&r, bk, k);
			int s = bk->jmp == J_JMP || bk->jmp == J_JNZ ? bk->s1 : -1;
			b = s >= 0 && s < f->nblk && f->blk[s]->npred == 1 && f->blk[s]->pred[0] == b ? s : -1;
		}
	}
}

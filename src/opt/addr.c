/*
 * addr.c - addresses of loads and stores: constant displacements out of
 * the index, and 32-bit index arithmetic where every valid access fits.
 *
 * Precondition: the final IR of a GPU kernel (after nc.c); fold, cse and
 * dce run after it.  Lowering computes the address of a[y, x + 1] as
 *
 *     p + (y * w + (x + 1)) * 4
 *
 * in 64 bits, one whole computation per access.  Here each address of a
 * load or store is read as a sum: one pointer root (a data pointer
 * parameter, or a static array's address) and integer offset terms
 * walked through add, sub and copy.  The offset is rebuilt with its
 * constants pulled out through add, sub, neg, mul and shl by constants,
 *
 *     (p + (y * w + x) * 4) + 4
 *
 * so that neighbouring accesses share one base (cse merges the rebuilt
 * parts) and the PTX writer puts the constant into the address operand,
 * [%rd+4].  Integer arithmetic that wraps is a ring, so in 64 bits the
 * rebuilt sum is the same number for every input.
 *
 * 32-bit offsets.  When every valid access's byte offset from its
 * pointer root lies within +-(2^31 - 2^20), the offset is rebuilt in 32
 * bits instead: 64-bit leaves are truncated (their low half; a value
 * widened from 32 bits is used as it was), the ring operations and
 * selects are done on .b32 registers, and the sum is sign-extended once.
 * The low 32 bits of a ring expression depend only on the low 32 bits of
 * its operands, so the 32-bit result is the true offset's low half, and
 * sign-extending it gives the true offset whenever that is below 2^31 in
 * magnitude.  Displacements pulled out are at most 2^20 in magnitude, so
 * what remains is in range too.  When the offset is an index times a
 * constant element size, the index is narrowed and the product taken in
 * 64 bits from its sign extension (ptxas: one IMAD.WIDE).  The bound
 * holds for static arrays (shared, local and constant memory are far
 * smaller), and for array arguments when the launch said so
 * (PjOptions.small_extents: every extent below 2^31 and every array
 * spanning fewer than 2^31 - 2^20 bytes).  Out-of-bounds accesses of
 * unchecked kernels are undefined either way; checked builds (simulator,
 * debug) test the index before the access, so what they compute is
 * exact as well.
 */
#include <string.h>

#include "opt.h"

enum { MAXT = 8, MAXDEPTH = 48 };
#define DISP_MAX ((int64_t)1 << 20)

typedef struct Part {
	Ref r;           /* REF_NONE: zero */
	int64_t c;       /* the value is r + c (in the width being built) */
} Part;

typedef struct Bnd {
	__int128 lo, hi;
} Bnd;

typedef struct A {
	Fn *f;
	Blk *b;          /* the block being rebuilt */
	int nval0;       /* values that existed before the pass */
	Ins **def;       /* defining instruction of each old value */
	int *stamp[2];   /* memo of gen per width: block id + 1 when set */
	Part *memo[2];
	int32_t loc;
	int small;       /* array arguments: offsets fit in 32 bits */
	int grid;        /* small_grid: ctaid * ntid + tid below 2^31 */
	char *bset;      /* bounds of old values (fits32), 1 known, 2 being found */
	Bnd *bnd;
} A;

static int is_con(A *a, Ref r, int64_t *v)
{
	if (r.kind != R_CON || (int)r.idx >= a->f->ncon)
		return 0;
	Con *k = &a->f->con[r.idx];
	if (k->cls != KW && k->cls != KL)
		return 0;
	*v = k->i;
	return 1;
}

static Ins *def_of(A *a, Ref r)
{
	if (r.kind != R_VAL || (int)r.idx >= a->nval0)
		return NULL;
	return a->def[r.idx];
}

/* A 64-bit wrapping integer operation (not a small kind re-extended). */
static int ring64(const Ins *i)
{
	return i && i->cls == KL && (i->ty == SK_I64 || i->ty == SK_U64);
}

static Ref emit(A *a, Opcode op, Cls k, ScalarKind ty, Ref x, Ref y, Ref z, int aux)
{
	Ref r = ir_ins(a->f, a->b, op, k, ty, x, y, z, aux);
	a->b->ins[a->b->nins - 1].loc = a->loc;
	return r;
}

static Ref con(A *a, int w32, int64_t v)
{
	return w32 ? ir_con_int(a->f, KW, (int32_t)(uint32_t)v) : ir_con_int(a->f, KL, v);
}

static Ref op2(A *a, int w32, Opcode op, Ref x, Ref y)
{
	return emit(a, op, w32 ? KW : KL, w32 ? SK_I32 : SK_I64, x, y, REF_NONE, 0);
}

static Ref add(A *a, int w32, Ref x, Ref y)
{
	if (x.kind == R_NONE)
		return y;
	if (y.kind == R_NONE)
		return x;
	return op2(a, w32, O_ADD, x, y);
}

static Ref sub(A *a, int w32, Ref x, Ref y)
{
	if (y.kind == R_NONE)
		return x;
	if (x.kind == R_NONE)
		return emit(a, O_NEG, w32 ? KW : KL, w32 ? SK_I32 : SK_I64, y, REF_NONE, REF_NONE, 0);
	return op2(a, w32, O_SUB, x, y);
}

/* r + c as one value (REF_NONE for zero). */
static Ref whole(A *a, int w32, Part p)
{
	if (w32)
		p.c = (int32_t)(uint32_t)p.c;
	if (p.c == 0)
		return p.r;
	if (p.r.kind == R_NONE)
		return con(a, w32, p.c);
	return add(a, w32, p.r, con(a, w32, p.c));
}

static Ref as_reg(A *a, int w32, Part p)
{
	Ref r = whole(a, w32, p);
	return r.kind == R_NONE ? con(a, w32, 0) : r;
}

/* A 64-bit leaf in the width being built: itself, or its low half. */
static Ref leaf(A *a, int w32, Ref v)
{
	if (!w32)
		return v;
	Ins *i = def_of(a, v);
	/* widened from a 32-bit register: the register is its low half */
	if (i && i->op == O_CVT && i->aux == SK_I64 && i->arg[0].kind == R_VAL &&
	    ir_cls_of(a->f, i->arg[0]) == KW && i->ty != SK_BOOL)
		return i->arg[0];
	return emit(a, O_CVT, KW, SK_I64, v, REF_NONE, REF_NONE, SK_I32);
}

/*
 * v (a 64-bit integer) as r + c, built in 32 bits (w32) or 64.  In 64
 * bits a value whose parts are its own operands comes back as itself,
 * so nothing is rebuilt where no constant moves.
 */
static Part gen(A *a, int w32, Ref v, int depth)
{
	int64_t k;
	if (is_con(a, v, &k))
		return (Part){REF_NONE, k};
	Ins *i = def_of(a, v);
	if (!ring64(i) || depth > MAXDEPTH)
		return (Part){leaf(a, w32, v), 0};
	int slot = (int)v.idx;
	if (a->stamp[w32][slot] == a->b->id + 1)
		return a->memo[w32][slot];
	Part p = {leaf(a, w32, v), 0}, x, y;
	int64_t m;
	switch (i->op) {
	case O_COPY:
		p = gen(a, w32, i->arg[0], depth + 1);
		break;
	case O_ADD:
	case O_SUB:
		x = gen(a, w32, i->arg[0], depth + 1);
		y = gen(a, w32, i->arg[1], depth + 1);
		if (!w32 && ref_eq(x.r, i->arg[0]) && ref_eq(y.r, i->arg[1]) && !x.c && !y.c) {
			p = (Part){v, 0};
			break;
		}
		if (i->op == O_ADD)
			p = (Part){add(a, w32, x.r, y.r), (int64_t)((uint64_t)x.c + (uint64_t)y.c)};
		else
			p = (Part){sub(a, w32, x.r, y.r), (int64_t)((uint64_t)x.c - (uint64_t)y.c)};
		break;
	case O_NEG:
		x = gen(a, w32, i->arg[0], depth + 1);
		if (!w32 && ref_eq(x.r, i->arg[0]) && !x.c) {
			p = (Part){v, 0};
			break;
		}
		p = (Part){sub(a, w32, REF_NONE, x.r), (int64_t)(0 - (uint64_t)x.c)};
		break;
	case O_MUL:
	case O_SHL: {
		int n = 0;
		if (i->op == O_SHL) {
			if (!is_con(a, i->arg[1], &m) || m < 0 || m >= (w32 ? 32 : 64))
				break;
			m = (int64_t)((uint64_t)1 << m);
		} else if (!is_con(a, i->arg[1], &m)) {
			if (!is_con(a, i->arg[0], &m)) {
				if (w32) {
					/* a product of two values: the low halves multiply */
					Ref l = as_reg(a, w32, gen(a, w32, i->arg[0], depth + 1));
					Ref r = as_reg(a, w32, gen(a, w32, i->arg[1], depth + 1));
					p = (Part){op2(a, w32, O_MUL, l, r), 0};
				}
				break;
			}
			n = 1;
		}
		x = gen(a, w32, i->arg[n], depth + 1);
		if (!w32 && ref_eq(x.r, i->arg[n]) && !x.c) {
			p = (Part){v, 0};
			break;
		}
		Ref r = x.r.kind == R_NONE ? REF_NONE : op2(a, w32, O_MUL, x.r, con(a, w32, m));
		p = (Part){r, (int64_t)((uint64_t)x.c * (uint64_t)m)};
		break;
	}
	case O_SEL:
		if (w32) {
			Ref l = as_reg(a, w32, gen(a, w32, i->arg[1], depth + 1));
			Ref r = as_reg(a, w32, gen(a, w32, i->arg[2], depth + 1));
			p = (Part){emit(a, O_SEL, KW, SK_I32, i->arg[0], l, r, 0), 0};
		}
		break;
	default:
		break;
	}
	if (w32)
		p.c = (int32_t)(uint32_t)p.c;
	a->stamp[w32][slot] = a->b->id + 1;
	a->memo[w32][slot] = p;
	return p;
}

/* ------------------------------------------------------------ addresses */

typedef struct Sum {
	Ref root;         /* the pointer */
	int narrow;       /* offsets from it fit in 32 bits */
	Ref t[MAXT];      /* offset terms, each added (sign 1) or subtracted */
	int sign[MAXT];
	int n;
	int bad;
} Sum;

static int root_kind(A *a, Ref v)
{
	Ins *i = def_of(a, v);
	if (!i)
		return 0;
	if (i->op == O_ADDR)
		return 2;
	if (i->op == O_PARAM)
		for (int k = 0; k < a->f->nparam; k++)
			if (a->f->param[k].off == i->aux)
				return a->f->param[k].role == KP_DATA ? 1 : 0;
	return 0;
}

static void terms(A *a, Sum *s, Ref v, int sign, int depth)
{
	if (s->bad)
		return;
	int rk = root_kind(a, v);
	if (rk) {
		if (s->root.kind != R_NONE || sign != 1) {
			s->bad = 1;
			return;
		}
		s->root = v;
		s->narrow = rk == 2 || a->small;
		return;
	}
	Ins *i = def_of(a, v);
	if (ring64(i) && depth < 8 && (i->op == O_ADD || i->op == O_SUB || i->op == O_COPY)) {
		terms(a, s, i->arg[0], sign, depth + 1);
		if (i->op != O_COPY)
			terms(a, s, i->arg[1], i->op == O_SUB ? -sign : sign, depth + 1);
		return;
	}
	if (s->n == MAXT) {
		s->bad = 1;
		return;
	}
	s->t[s->n] = v;
	s->sign[s->n++] = sign;
}

/* The rebuilt address of a load or store at address v, or v itself. */
static Ref address(A *a, Ref v)
{
	Sum s = {.root = REF_NONE};
	terms(a, &s, v, 1, 0);
	if (s.bad || s.root.kind == R_NONE || s.n == 0)
		return v;
	int w32 = s.narrow;
	Ref off = REF_NONE;
	int64_t disp = 0, m;
	Ins *i = s.n == 1 && s.sign[0] == 1 ? def_of(a, s.t[0]) : NULL;
	int n = i && i->op == O_MUL && is_con(a, i->arg[0], &m) ? 1 : 0;
	if (w32 && ring64(i) && i->op == O_MUL && is_con(a, i->arg[1 - n], &m) && m > 0 && m <= 4096) {
		/* index * element size: the index in 32 bits, the product wide */
		Part x = gen(a, 1, i->arg[n], 0);
		if (x.c <= -DISP_MAX / m || x.c >= DISP_MAX / m)
			x = (Part){whole(a, 1, x), 0};
		if (x.r.kind != R_NONE) {
			Ref e = emit(a, O_CVT, KL, SK_I32, x.r, REF_NONE, REF_NONE, SK_I64);
			off = op2(a, 0, O_MUL, e, con(a, 0, m));
		}
		disp = x.c * m;
	} else {
		Part sum = {REF_NONE, 0};
		for (int k = 0; k < s.n; k++) {
			Part x = gen(a, w32, s.t[k], 0);
			if (s.sign[k] > 0)
				sum = (Part){add(a, w32, sum.r, x.r), (int64_t)((uint64_t)sum.c + (uint64_t)x.c)};
			else
				sum = (Part){sub(a, w32, sum.r, x.r), (int64_t)((uint64_t)sum.c - (uint64_t)x.c)};
		}
		if (w32) {
			sum.c = (int32_t)(uint32_t)sum.c;
			if (sum.c <= -DISP_MAX || sum.c >= DISP_MAX)
				sum = (Part){whole(a, 1, sum), 0};
			if (sum.r.kind != R_NONE)
				off = emit(a, O_CVT, KL, SK_I32, sum.r, REF_NONE, REF_NONE, SK_I64);
		} else {
			if (sum.c == 0 && s.n == 1 && s.sign[0] == 1 && ref_eq(sum.r, s.t[0]))
				return v;   /* nothing moves */
			off = sum.r;
		}
		disp = sum.c;
	}
	Ref r = add(a, 0, s.root, off);
	if (disp)
		r = op2(a, 0, O_ADD, r, con(a, 0, disp));
	return r;
}

/* ---------------------------------------------------------- comparisons
 *
 * A 64-bit comparison of two values that both lie in the int32 range is
 * the same comparison of their low halves, signed or unsigned (the
 * low halves keep the order of such values in either reading).  The
 * bounds come from the values' own definitions only: special registers
 * (the hardware's limits), values widened from 32 bits, array extents
 * under small_extents, constants, and add, sub and mul of those; under
 * small_grid also tid + ctaid * ntid, ctaid * ntid and nctaid * ntid of
 * one dimension (below 2^31).
 */
static Bnd bnd(__int128 lo, __int128 hi)
{
	return (Bnd){lo, hi};
}

static Bnd sreg_bnd(int sr)
{
	int64_t lo, hi;
	return opt_sreg_bounds(sr, &lo, &hi) ? bnd(lo, hi) : bnd(0, (int64_t)1 << 24);
}

/* Under small_grid (PjOptions), 1 with *b set when i is a grid value
 * (opt_grid_value): below 2^31. */
static int grid_bnd(A *a, const Ins *i, Bnd *b)
{
	int64_t lo;
	if (!a->grid || !opt_grid_value(a->def, a->nval0, i, &lo))
		return 0;
	*b = bnd(0, INT32_MAX);
	return 1;
}

static Bnd bounds(A *a, Ref r, int depth)
{
	const Bnd full = bnd(INT64_MIN, INT64_MAX), w32 = bnd(INT32_MIN, INT32_MAX);
	int64_t k;
	if (is_con(a, r, &k)) {
		Cls c = ir_cls_of(a->f, r);
		return c == KW ? bnd((int32_t)k, (int32_t)k) : bnd(k, k);
	}
	Ins *i = def_of(a, r);
	if (!i || depth > MAXDEPTH)
		return i && i->cls == KW ? w32 : full;
	if (a->bset[r.idx] == 1)
		return a->bnd[r.idx];
	Bnd b = i->cls == KW ? w32 : full, x, y;
	switch (i->op) {
	case O_SREG:
		b = sreg_bnd(i->aux);
		break;
	case O_PARAM:
		for (int n = 0; n < a->f->nparam; n++)
			if (a->f->param[n].off == i->aux && a->f->param[n].role == KP_SHAPE && a->small)
				b = bnd(0, INT32_MAX);
		break;
	case O_CVT:
		if (i->aux != SK_I64 && i->aux != SK_U64)
			break;
		x = bounds(a, i->arg[0], depth + 1);
		if (i->ty == SK_I32 || i->ty == SK_I16 || i->ty == SK_I8)
			b = x;
		else if (i->ty == SK_U32 || i->ty == SK_U16 || i->ty == SK_U8)
			b = x.lo >= 0 ? x : bnd(0, UINT32_MAX);
		break;
	case O_ADD: case O_SUB: case O_MUL:
		if (!ring64(i) && !(i->cls == KW && i->ty == SK_I32))
			break;
		if (grid_bnd(a, i, &b))
			break;
		x = bounds(a, i->arg[0], depth + 1);
		y = bounds(a, i->arg[1], depth + 1);
		if (i->op == O_ADD)
			x = bnd(x.lo + y.lo, x.hi + y.hi);
		else if (i->op == O_SUB)
			x = bnd(x.lo - y.hi, x.hi - y.lo);
		else {
			/* operands within 2^63: the products fit in 128 bits */
			__int128 p[4] = {x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
			x = bnd(p[0], p[0]);
			for (int n = 1; n < 4; n++) {
				x.lo = p[n] < x.lo ? p[n] : x.lo;
				x.hi = p[n] > x.hi ? p[n] : x.hi;
			}
		}
		if (x.lo >= b.lo && x.hi <= b.hi)
			b = x;
		break;
	default:
		break;
	}
	a->bset[r.idx] = 1;
	a->bnd[r.idx] = b;
	return b;
}

static int fits32(A *a, Ref r)
{
	if (ir_cls_of(a->f, r) != KL)
		return 0;
	Bnd b = bounds(a, r, 0);
	return b.lo >= INT32_MIN && b.hi <= INT32_MAX;
}

/* The comparison i in 32 bits when both operands fit (i is rewritten). */
static void compare(A *a, Ins *i)
{
	if (i->op != O_CMP || i->cls != KB || ir_cls_of(a->f, i->arg[0]) != KL || !fits32(a, i->arg[0]) ||
	    !fits32(a, i->arg[1]))
		return;
	Ref x = as_reg(a, 1, gen(a, 1, i->arg[0], 0));
	Ref y = as_reg(a, 1, gen(a, 1, i->arg[1], 0));
	i->arg[0] = x;
	i->arg[1] = y;
	i->ty = i->ty == SK_U64 ? SK_U32 : SK_I32;
}

static int mem_op(const Ins *i)
{
	return i->op == O_LOAD || i->op == O_STORE;
}

void opt_addr(Fn *f)
{
	const PjOptions *o = f->ctx->opt;
	if (!o || o->target_cpu)
		return;
	Arena *ar = f->ctx->arena;
	A a = {.f = f, .nval0 = f->nval, .small = o->small_extents, .grid = o->small_grid};
	a.def = arena_alloc(ar, sizeof *a.def * (size_t)(f->nval + 1));
	memset(a.def, 0, sizeof *a.def * (size_t)(f->nval + 1));
	int any = 0;
	for (int b = 0; b < f->nblk; b++)
		for (int k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			if (i->to >= 0 && i->to < f->nval)
				a.def[i->to] = i;
			any |= (mem_op(i) && i->arg[0].kind == R_VAL) || i->op == O_CMP;
		}
	if (!any)
		return;
	a.bset = arena_alloc(ar, (size_t)f->nval + 1);
	memset(a.bset, 0, (size_t)f->nval + 1);
	a.bnd = arena_alloc(ar, sizeof *a.bnd * (size_t)(f->nval + 1));
	for (int w = 0; w < 2; w++) {
		a.stamp[w] = arena_alloc(ar, sizeof(int) * (size_t)(f->nval + 1));
		memset(a.stamp[w], 0, sizeof(int) * (size_t)(f->nval + 1));
		a.memo[w] = arena_alloc(ar, sizeof(Part) * (size_t)(f->nval + 1));
	}
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		Ins *old = bk->ins;
		int n = bk->nins;
		int has = 0;
		for (int k = 0; k < n; k++)
			has |= (mem_op(&old[k]) && old[k].arg[0].kind == R_VAL) || old[k].op == O_CMP;
		if (!has)
			continue;
		/* the old instructions stay where a.def points; the block gets a
		 * new array with the rebuilt addresses before their accesses */
		bk->ins = NULL;
		bk->nins = bk->capins = 0;
		a.b = bk;
		for (int k = 0; k < n; k++) {
			Ins i = old[k];
			if (mem_op(&i) && i.arg[0].kind == R_VAL) {
				a.loc = i.loc;
				i.arg[0] = address(&a, i.arg[0]);
			} else if (i.op == O_CMP) {
				a.loc = i.loc;
				compare(&a, &i);
			}
			VEC_PUSH(f->ctx, bk->ins, bk->nins, bk->capins, i);
		}
	}
}

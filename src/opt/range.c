/*
 * range.c - value ranges of integers, and what they prove.
 *
 * Precondition: a verified function.  Every integer and bool value gets
 * an interval [lo, hi] of the numbers its register can hold, read as a
 * signed number of its class's width (32 bits for w, 64 for l, 0..1 for
 * b).  Where the intervals come from:
 *
 *   - special registers: tid.x is 0..1023, ntid.x 1..1024, ctaid.x
 *     0..2^31-1, ctaid.y 0..65535, ... (the hardware's limits);
 *   - parameters: an extent is never negative, and below 2^31 when the
 *     launch said all array extents are (PjOptions.small_extents); other
 *     parameters, loads and atomics: the range of their kind (a uint8 is
 *     0..255);
 *   - arithmetic on intervals, computed in 128 bits: a result that may
 *     leave the class's range (the register would wrap) is unknown;
 *   - conditions that dominate: in a block entered only through the true
 *     edge of `jnz (i < n)`, i is at most n.hi - 1 there, and everywhere
 *     that block dominates (an SSA value cannot change under it).  A phi
 *     argument also gets the condition of its own edge.
 *
 * The intervals are found by iteration to a fixed point in block order,
 * starting from "no value yet"; a phi that keeps growing is widened to
 * the class's limit in the direction it grows (a loop counter counting up
 * from 0 becomes 0..max), and two descending rounds then take back what
 * the conditions allow (0..n.hi).
 *
 * What is rewritten, each change exact for every input the intervals
 * admit:
 *   - a comparison whose answer the intervals decide becomes that
 *     constant (fold then removes the negative-index wrap `i < 0 ? i + n
 *     : i` that lowering emits for every index, and the sign fix-ups of
 *     Python's // and %);
 *   - a signed integer widened from a value proven non-negative is
 *     zero-extended instead (cvt from u32), which ptxas folds into its
 *     wide multiply-adds;
 *   - a signed division or remainder of non-negative operands becomes
 *     unsigned (a shift or mask for a power of two, no sign fix-up).
 */
#include <string.h>

#include "opt.h"

typedef __int128 i128;

typedef struct Rng {
	int64_t lo, hi;
	int set;          /* 0: no value has been seen yet (unreachable so far) */
} Rng;

/* What a dominating branch says: the comparison `cmp` gave `truth`. */
typedef struct Fact {
	const Ins *cmp;
	int truth;
	struct Fact *next;
} Fact;

typedef struct R {
	Fn *f;
	Cfg g;
	Rng *r;
	int *grow;        /* per phi value: how often its interval grew */
	Fact **facts;     /* per block: the conditions that hold in it */
	int small;        /* extents below 2^31 */
} R;

static const Rng NONE_ = {0, 0, 0};

static int64_t cls_min(int k)
{
	return k == KW ? INT32_MIN : k == KB ? 0 : INT64_MIN;
}

static int64_t cls_max(int k)
{
	return k == KW ? INT32_MAX : k == KB ? 1 : INT64_MAX;
}

static Rng rng(int64_t lo, int64_t hi)
{
	return (Rng){lo, hi, 1};
}

static Rng full(int k)
{
	return rng(cls_min(k), cls_max(k));
}

static Rng wide(int k, i128 lo, i128 hi)
{
	if (lo < cls_min(k) || hi > cls_max(k) || lo > hi)
		return full(k);
	return rng((int64_t)lo, (int64_t)hi);
}

static int is_intcls(int k)
{
	return k == KW || k == KL || k == KB;
}

static int sk_signed(int sk)
{
	return sk == SK_I8 || sk == SK_I16 || sk == SK_I32 || sk == SK_I64;
}

static int sk_int(int sk)
{
	return sk >= SK_I8 && sk <= SK_U64;
}

/* The numbers a register of kind sk holds (the signed view of its class). */
static Rng kind_range(int sk)
{
	switch (sk) {
	case SK_BOOL: return rng(0, 1);
	case SK_I8: return rng(-128, 127);
	case SK_U8: return rng(0, 255);
	case SK_I16: return rng(-32768, 32767);
	case SK_U16: return rng(0, 65535);
	case SK_I32: case SK_U32: return full(KW);
	default: return full(KL);
	}
}

static int narrow_kind(int sk)
{
	return sk == SK_I8 || sk == SK_U8 || sk == SK_I16 || sk == SK_U16;
}

static Rng join(Rng a, Rng b)
{
	if (!a.set)
		return b;
	if (!b.set)
		return a;
	return rng(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

static Rng sreg_range(int sr)
{
	switch (sr) {
	case SR_TID_X: case SR_TID_Y: return rng(0, 1023);
	case SR_TID_Z: return rng(0, 63);
	case SR_NTID_X: case SR_NTID_Y: return rng(1, 1024);
	case SR_NTID_Z: return rng(1, 64);
	case SR_CTAID_X: return rng(0, INT32_MAX - 1);
	case SR_CTAID_Y: case SR_CTAID_Z: return rng(0, 65534);
	case SR_NCTAID_X: return rng(1, INT32_MAX);
	case SR_NCTAID_Y: case SR_NCTAID_Z: return rng(1, 65535);
	case SR_LANEID: return rng(0, 31);
	case SR_WARPSIZE: return rng(32, 32);
	case SR_DYNSMEM: return rng(0, 1 << 24);
	default: return full(KW);
	}
}

static Rng base(R *s, Ref r)
{
	Fn *f = s->f;
	if (r.kind == R_CON && (int)r.idx < f->ncon) {
		Con *c = &f->con[r.idx];
		if (!is_intcls(c->cls))
			return NONE_;
		int64_t v = c->cls == KW ? (int32_t)c->i : c->cls == KB ? c->i != 0 : c->i;
		return rng(v, v);
	}
	if (r.kind == R_VAL && (int)r.idx < f->nval)
		return s->r[r.idx];
	return NONE_;
}

/* Normalised relation of a comparison: v REL o, with signedness. */
enum { REL_LT, REL_LE, REL_GT, REL_GE, REL_EQ, REL_NE, REL_NONE };

static int rel_of(const Ins *c, int *is_unsigned)
{
	*is_unsigned = !sk_signed(c->ty);
	switch (c->aux) {
	case CC_LT: return REL_LT;
	case CC_LE: return REL_LE;
	case CC_GT: return REL_GT;
	case CC_GE: return REL_GE;
	case CC_EQ: *is_unsigned = 0; return REL_EQ;
	case CC_NE: *is_unsigned = 0; return REL_NE;
	case CC_LTU: *is_unsigned = 1; return REL_LT;
	case CC_LEU: *is_unsigned = 1; return REL_LE;
	case CC_GTU: *is_unsigned = 1; return REL_GT;
	case CC_GEU: *is_unsigned = 1; return REL_GE;
	default: return REL_NONE;
	}
}

static int negate(int rel)
{
	static const int n[] = {REL_GE, REL_GT, REL_LE, REL_LT, REL_NE, REL_EQ, REL_NONE};
	return n[rel];
}

static int swapped(int rel)
{
	static const int n[] = {REL_GT, REL_GE, REL_LT, REL_LE, REL_EQ, REL_NE, REL_NONE};
	return n[rel];
}

static int int_cmp(const Ins *c)
{
	return c->op == O_CMP && is_intcls(ir_cls_of_sk((ScalarKind)c->ty)) && c->ty != SK_BOOL;
}

/* x narrowed by "x rel o". */
static Rng apply(Rng x, int rel, Rng o, int is_unsigned)
{
	if (!x.set || !o.set)
		return x;
	if (is_unsigned && (x.lo < 0 || o.lo < 0)) {
		/* x <u o with o non-negative: x is non-negative and below o */
		if (o.lo < 0 || (rel != REL_LT && rel != REL_LE))
			return x;
		int64_t bound = rel == REL_LT ? o.hi - 1 : o.hi;
		if (x.lo < 0)
			x.lo = 0;
		if (bound < x.hi)
			x.hi = bound;
		return x;
	}
	switch (rel) {
	case REL_LT:
		if (o.hi != INT64_MIN && o.hi - 1 < x.hi)
			x.hi = o.hi - 1;
		break;
	case REL_LE:
		if (o.hi < x.hi)
			x.hi = o.hi;
		break;
	case REL_GT:
		if (o.lo != INT64_MAX && o.lo + 1 > x.lo)
			x.lo = o.lo + 1;
		break;
	case REL_GE:
		if (o.lo > x.lo)
			x.lo = o.lo;
		break;
	case REL_EQ:
		if (o.lo > x.lo)
			x.lo = o.lo;
		if (o.hi < x.hi)
			x.hi = o.hi;
		break;
	case REL_NE:
		if (o.lo == o.hi && x.lo == o.lo && x.lo != INT64_MAX)
			x.lo++;
		else if (o.lo == o.hi && x.hi == o.lo && x.hi != INT64_MIN)
			x.hi--;
		break;
	default:
		break;
	}
	return x;
}

static Rng refine(R *s, Rng x, Ref r, const Fact *ft)
{
	for (; ft && x.set; ft = ft->next) {
		const Ins *c = ft->cmp;
		int uns, rel = rel_of(c, &uns);
		if (rel == REL_NONE)
			continue;
		if (!ft->truth)
			rel = negate(rel);
		if (ref_eq(c->arg[0], r))
			x = apply(x, rel, base(s, c->arg[1]), uns);
		if (ref_eq(c->arg[1], r))
			x = apply(x, swapped(rel), base(s, c->arg[0]), uns);
	}
	if (x.set && x.lo > x.hi)
		return NONE_;
	return x;
}

/* The range of r in block b. */
static Rng at(R *s, Ref r, int b)
{
	Rng x = base(s, r);
	if (r.kind != R_VAL || !x.set)
		return x;
	return refine(s, x, r, s->facts[b]);
}

/* The fact an edge p -> b adds, if p branches on a comparison. */
static Fact *edge_fact(R *s, int p, int b, Fact *next)
{
	Blk *pb = s->f->blk[p];
	if (pb->jmp != J_JNZ || pb->s1 == pb->s2 || pb->cond.kind != R_VAL)
		return next;
	Ins *c = s->g.def[pb->cond.idx];
	if (!c || !int_cmp(c))
		return next;
	Fact *ft = arena_alloc(s->f->ctx->arena, sizeof *ft);
	*ft = (Fact){c, pb->s1 == b, next};
	return ft;
}

static void fill_facts(R *s)
{
	Fn *f = s->f;
	s->facts = arena_alloc(f->ctx->arena, sizeof *s->facts * (size_t)(f->nblk + 1));
	for (int b = 1; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		int d = s->g.idom[b];
		Fact *ft = d >= 0 && d < b ? s->facts[d] : NULL;
		if (bk->npred == 1)
			ft = edge_fact(s, bk->pred[0], b, ft);
		s->facts[b] = ft;
	}
}

/* Does `a rel b` hold for every pair (1), for none (0), or unknown (-1)? */
static int decide(Rng a, Rng b, int rel, int is_unsigned)
{
	if (!a.set || !b.set)
		return -1;
	if (is_unsigned && (a.lo < 0 || b.lo < 0))
		return -1;
	switch (rel) {
	case REL_LT: return a.hi < b.lo ? 1 : a.lo >= b.hi ? 0 : -1;
	case REL_LE: return a.hi <= b.lo ? 1 : a.lo > b.hi ? 0 : -1;
	case REL_GT: return a.lo > b.hi ? 1 : a.hi <= b.lo ? 0 : -1;
	case REL_GE: return a.lo >= b.hi ? 1 : a.hi < b.lo ? 0 : -1;
	case REL_EQ:
		if (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo)
			return 1;
		return a.hi < b.lo || b.hi < a.lo ? 0 : -1;
	case REL_NE:
		if (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo)
			return 0;
		return a.hi < b.lo || b.hi < a.lo ? 1 : -1;
	default:
		return -1;
	}
}

static int decide_cmp(R *s, const Ins *i, int b)
{
	if (!int_cmp(i))
		return -1;
	int uns, rel = rel_of(i, &uns);
	return decide(at(s, i->arg[0], b), at(s, i->arg[1], b), rel, uns);
}

static Rng param_range(R *s, const Ins *i)
{
	Fn *f = s->f;
	for (int k = 0; k < f->nparam; k++) {
		if (f->param[k].off != i->aux)
			continue;
		if (f->param[k].role == KP_SHAPE && i->cls == KL)
			return rng(0, s->small ? INT32_MAX : INT64_MAX);
		break;
	}
	return kind_range(i->ty);
}

/* int -> int: the value is kept when it fits the target (a 32- or 64-bit
 * register holds it as the same signed number); else the target's range */
static Rng eval_cvt(Rng a, const Ins *i)
{
	int from = i->ty, to = i->aux;
	if (to == SK_BOOL || from == SK_BOOL)
		return rng(0, 1);
	if (!sk_int(to))
		return NONE_;
	Rng t = kind_range(to);
	if (!sk_int(from))
		return t;           /* float -> int saturates to the kind */
	if (!a.set)
		return NONE_;
	if (a.lo < 0 && !sk_signed(from))
		return t;           /* an unsigned number of 2^31 or more */
	if (narrow_kind(to))
		return a.lo >= t.lo && a.hi <= t.hi ? a : t;
	int k = ir_cls_of_sk((ScalarKind)to);
	return a.lo >= cls_min(k) && a.hi <= cls_max(k) ? a : full(k);
}

static Rng eval_ins(R *s, const Ins *i, int b)
{
	int k = i->cls;
	if (!is_intcls(k))
		return NONE_;
	if (i->op == O_CMP) {
		int d = decide_cmp(s, i, b);
		return d < 0 ? rng(0, 1) : rng(d, d);
	}
	int n = ir_nargs(i);
	Rng a = n > 0 ? at(s, i->arg[0], b) : NONE_;
	Rng c = n > 1 ? at(s, i->arg[1], b) : NONE_;
	switch (i->op) {
	case O_PARAM: return param_range(s, i);
	case O_SREG: return sreg_range(i->aux);
	case O_LOAD: case O_ATOM: case O_CRES: case O_FARG:
		return k == KB ? rng(0, 1) : kind_range(i->ty);
	case O_POPC: case O_CLZ: return rng(0, 64);
	case O_COPY: return a.set ? a : NONE_;
	case O_CVT:
		return a.set || !sk_int(i->ty) ? eval_cvt(a, i) : NONE_;
	case O_SEL: {
		Rng x = n > 2 ? at(s, i->arg[2], b) : NONE_;
		if (!c.set || !x.set)
			return NONE_;
		return join(c, x);
	}
	default:
		break;
	}
	if (k == KB)
		return rng(0, 1);
	if (narrow_kind(i->ty))
		return kind_range(i->ty);
	int sg = sk_signed(i->ty);
	switch (i->op) {
	case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_REM: case O_AND: case O_OR:
	case O_XOR: case O_SHL: case O_SHR: case O_MIN: case O_MAX:
		if (!a.set || !c.set)
			return NONE_;
		break;
	case O_NEG: case O_NOT: case O_ABS:
		if (!a.set)
			return NONE_;
		break;
	default:
		return full(k);
	}
	switch (i->op) {
	case O_ADD: return wide(k, (i128)a.lo + c.lo, (i128)a.hi + c.hi);
	case O_SUB: return wide(k, (i128)a.lo - c.hi, (i128)a.hi - c.lo);
	case O_MUL: {
		i128 p[4] = {(i128)a.lo * c.lo, (i128)a.lo * c.hi, (i128)a.hi * c.lo, (i128)a.hi * c.hi};
		i128 lo = p[0], hi = p[0];
		for (int j = 1; j < 4; j++) {
			lo = p[j] < lo ? p[j] : lo;
			hi = p[j] > hi ? p[j] : hi;
		}
		return wide(k, lo, hi);
	}
	case O_DIV:
		if (c.lo > 0 && (sg || a.lo >= 0)) {
			if (a.lo >= 0)
				return rng(a.lo / c.hi, a.hi / c.lo);
			if (a.hi <= 0)
				return rng(a.lo / c.lo, a.hi / c.hi);
			return rng(a.lo / c.lo, a.hi / c.lo);
		}
		return full(k);
	case O_REM:
		if (c.lo > 0 && (sg || a.lo >= 0)) {
			int64_t m = c.hi - 1;
			if (a.lo >= 0)
				return rng(0, a.hi < m ? a.hi : m);
			if (a.hi <= 0)
				return rng(a.lo > -m ? a.lo : -m, 0);
			return rng(-m, m);
		}
		return full(k);
	case O_AND:
		if (a.lo >= 0 && c.lo >= 0)
			return rng(0, a.hi < c.hi ? a.hi : c.hi);
		if (a.lo >= 0)
			return rng(0, a.hi);
		if (c.lo >= 0)
			return rng(0, c.hi);
		return full(k);
	case O_OR: case O_XOR:
		if (a.lo >= 0 && c.lo >= 0) {
			int64_t m = a.hi > c.hi ? a.hi : c.hi, p = 1;
			while (p <= m && p < ((int64_t)1 << 62))
				p <<= 1;
			return rng(0, p <= m ? cls_max(k) : 2 * p - 1 < cls_max(k) ? 2 * p - 1 : cls_max(k));
		}
		return full(k);
	case O_SHL:
		if (c.lo == c.hi && c.lo >= 0 && c.lo < 62)
			return wide(k, (i128)a.lo * ((i128)1 << c.lo), (i128)a.hi * ((i128)1 << c.lo));
		return full(k);
	case O_SHR:
		if (c.lo == c.hi && c.lo >= 0 && c.lo < (k == KW ? 32 : 64) && (sg || a.lo >= 0))
			return rng(a.lo >> c.lo, a.hi >> c.lo);
		return full(k);
	case O_MIN: case O_MAX:
		if (!sg && (a.lo < 0 || c.lo < 0))
			return full(k);
		if (i->op == O_MIN)
			return rng(a.lo < c.lo ? a.lo : c.lo, a.hi < c.hi ? a.hi : c.hi);
		return rng(a.lo > c.lo ? a.lo : c.lo, a.hi > c.hi ? a.hi : c.hi);
	case O_NEG: return wide(k, -(i128)a.hi, -(i128)a.lo);
	case O_NOT: return wide(k, -(i128)a.hi - 1, -(i128)a.lo - 1);
	case O_ABS:
		if (a.lo >= 0)
			return a;
		if (a.lo > cls_min(k))
			return rng(0, -a.lo > a.hi ? -a.lo : a.hi);
		return full(k);
	default:
		return full(k);
	}
}

static Rng eval_phi(R *s, const Phi *p, int b)
{
	Blk *bk = s->f->blk[b];
	Rng x = NONE_;
	for (int j = 0; j < p->n && j < bk->npred; j++) {
		int pr = bk->pred[j];
		Rng a = base(s, p->arg[j]);
		if (p->arg[j].kind == R_VAL && a.set) {
			Fact edge, *ft = edge_fact(s, pr, b, NULL);
			if (ft) {
				edge = *ft;
				edge.next = s->facts[pr];
				a = refine(s, a, p->arg[j], &edge);
			} else
				a = refine(s, a, p->arg[j], s->facts[pr]);
		}
		x = join(x, a);
	}
	return x;
}

static int update(R *s, int v, Rng x, int widen)
{
	Rng *o = &s->r[v];
	if (!x.set)
		return 0;
	if (!o->set) {
		*o = x;
		return 1;
	}
	if (x.lo >= o->lo && x.hi <= o->hi)
		return 0;
	int k = s->f->val[v].cls;
	if (widen) {
		if (x.lo < o->lo)
			o->lo = cls_min(k);
		if (x.hi > o->hi)
			o->hi = cls_max(k);
	} else
		*o = join(*o, x);
	return 1;
}

static int round_(R *s, int narrowing)
{
	Fn *f = s->f;
	int changed = 0;
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nphi; k++) {
			Phi *p = &bk->phi[k];
			if (p->to < 0 || !is_intcls(p->cls))
				continue;
			Rng x = eval_phi(s, p, b);
			if (narrowing) {
				if (x.set)
					s->r[p->to] = x;
				continue;
			}
			if (update(s, p->to, x, s->grow[p->to] >= 2)) {
				s->grow[p->to]++;
				changed = 1;
			}
		}
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			if (i->to < 0 || !op_info[i->op].def || !is_intcls(i->cls))
				continue;
			Rng x = eval_ins(s, i, b);
			if (narrowing) {
				if (x.set)
					s->r[i->to] = x;
				continue;
			}
			changed |= update(s, i->to, x, 0);
		}
	}
	return changed;
}

static int unsigned_of(int sk)
{
	switch (sk) {
	case SK_I8: return SK_U8;
	case SK_I16: return SK_U16;
	case SK_I32: return SK_U32;
	case SK_I64: return SK_U64;
	default: return sk;
	}
}

static void rewrite(R *s)
{
	Fn *f = s->f;
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			if (i->op == O_CMP) {
				int d = decide_cmp(s, i, b);
				if (d >= 0)
					*i = (Ins){.op = O_COPY, .cls = KB, .ty = SK_BOOL, .to = i->to,
					           .arg = {ir_con_bool(f, d), REF_NONE, REF_NONE}, .loc = i->loc};
			} else if (i->op == O_CVT && sk_signed(i->ty) && sk_int(i->aux) &&
			           scalar_info[i->aux].size > scalar_info[i->ty].size) {
				Rng a = at(s, i->arg[0], b);
				if (a.set && a.lo >= 0)
					i->ty = (uint8_t)unsigned_of(i->ty);
			} else if ((i->op == O_DIV || i->op == O_REM) && (i->cls == KW || i->cls == KL) &&
			           (i->ty == SK_I32 || i->ty == SK_I64)) {
				Rng a = at(s, i->arg[0], b), c = at(s, i->arg[1], b);
				if (a.set && c.set && a.lo >= 0 && c.lo >= 0)
					i->ty = (uint8_t)unsigned_of(i->ty);
			}
		}
	}
}

void opt_range(Fn *f)
{
	R s = {.f = f, .small = f->ctx->opt ? f->ctx->opt->small_extents : 0};
	opt_fill_cfg(f, &s.g);
	Arena *a = f->ctx->arena;
	s.r = arena_alloc(a, sizeof *s.r * (size_t)(f->nval + 1));
	s.grow = arena_alloc(a, sizeof *s.grow * (size_t)(f->nval + 1));
	fill_facts(&s);
	int rounds = 0;
	while (round_(&s, 0))
		if (++rounds > 100)
			return;     /* should not happen: widening bounds the rounds */
	round_(&s, 1);
	round_(&s, 1);
	rewrite(&s);
}

/*
 * range.c - value ranges of integers, and what they prove.
 *
 * Precondition: a verified function.  Every integer and bool value gets
 * an interval [lo, hi] of the numbers its register can hold, read as a
 * signed number of its class's width (32 bits for w, 64 for l, 0..1 for
 * b).  Where the intervals come from:
 *
 *   - special registers: tid.x is 0..1023, ntid.x 1..1024, ctaid.x
 *     0..2^31-1, ctaid.y 0..65535, ... (the hardware's limits); when
 *     the launch said gridDim * blockDim is below 2^31 in every
 *     dimension (PjOptions.small_grid), ctaid * ntid + tid, ctaid * ntid
 *     and nctaid * ntid of one dimension are too (cuda.grid, gridsize);
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
 *     unsigned (a shift or mask for a power of two, no sign fix-up), and
 *     a 64-bit one of operands below 2^31 a 32-bit one.
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
	int grid;         /* small_grid: ctaid * ntid + tid below 2^31 */
	int nval;         /* values when the intervals were found */
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

int opt_sreg_bounds(int sr, int64_t *lo, int64_t *hi)
{
	int64_t l, h;
	switch (sr) {
	case SR_TID_X: case SR_TID_Y: l = 0, h = 1023; break;
	case SR_TID_Z: l = 0, h = 63; break;
	case SR_NTID_X: case SR_NTID_Y: l = 1, h = 1024; break;
	case SR_NTID_Z: l = 1, h = 64; break;
	case SR_CTAID_X: l = 0, h = INT32_MAX - 1; break;
	case SR_CTAID_Y: case SR_CTAID_Z: l = 0, h = 65534; break;
	case SR_NCTAID_X: l = 1, h = INT32_MAX; break;
	case SR_NCTAID_Y: case SR_NCTAID_Z: l = 1, h = 65535; break;
	case SR_LANEID: l = 0, h = 31; break;
	case SR_WARPSIZE: l = h = 32; break;
	case SR_DYNSMEM: l = 0, h = 1 << 24; break;
	default: return 0;
	}
	*lo = l, *hi = h;
	return 1;
}

static Rng sreg_range(int sr)
{
	int64_t lo, hi;
	return opt_sreg_bounds(sr, &lo, &hi) ? rng(lo, hi) : full(KW);
}

/* The special register r reads, through widenings of a 32-bit value
 * (cvt from u32 or i32 to a wider integer), or -1; def[0..ndef) are the
 * defining instructions of the values. */
static int sreg_of(Ins *const *def, int ndef, Ref r)
{
	for (int d = 0; d < 4 && r.kind == R_VAL && (int)r.idx < ndef; d++) {
		const Ins *i = def[r.idx];
		if (!i)
			return -1;
		if (i->op == O_SREG)
			return i->aux;
		if (i->op != O_CVT || (i->ty != SK_U32 && i->ty != SK_I32) ||
		    (i->aux != SK_I32 && i->aux != SK_U32 && i->aux != SK_I64 && i->aux != SK_U64))
			return -1;
		r = i->arg[0];
	}
	return -1;
}

int opt_grid_value(Ins *const *def, int ndef, const Ins *i, int64_t *lo)
{
	if (i->cls != KW && i->cls != KL)
		return 0;
	int a = sreg_of(def, ndef, i->arg[0]), c = sreg_of(def, ndef, i->arg[1]);
	if (i->op == O_MUL) {
		int l = a < c ? a : c, h = a < c ? c : a;
		if (l < SR_NTID_X || l > SR_NTID_Z)
			return 0;
		*lo = h == l + (SR_NCTAID_X - SR_NTID_X);
		return *lo || h == l + (SR_CTAID_X - SR_NTID_X);
	}
	if (i->op != O_ADD)
		return 0;
	for (int k = 0; k < 2; k++) {
		int t = k ? c : a;
		Ref m = i->arg[!k];
		if (t < SR_TID_X || t > SR_TID_Z || m.kind != R_VAL || (int)m.idx >= ndef)
			continue;
		const Ins *mi = def[m.idx];
		if (!mi || mi->op != O_MUL || mi->cls != i->cls)
			continue;
		int x = sreg_of(def, ndef, mi->arg[0]), y = sreg_of(def, ndef, mi->arg[1]);
		int n = t - SR_TID_X + SR_NTID_X, g = t - SR_TID_X + SR_CTAID_X;
		if ((x == n && y == g) || (x == g && y == n)) {
			*lo = 0;
			return 1;
		}
	}
	return 0;
}

/* Under small_grid, the interval of i when it is a grid value
 * (opt_grid_value); no value (.set 0) otherwise. */
static Rng grid_range(R *s, const Ins *i)
{
	int64_t lo;
	return s->grid && opt_grid_value(s->g.def, s->nval, i, &lo) ? rng(lo, INT32_MAX) : NONE_;
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
	if (r.kind == R_VAL && (int)r.idx < s->nval)
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

/* The 32-bit value r is the sign extension of (the same number), or
 * REF_NONE: a fact about that value is a fact about r when the
 * comparison is a signed one. */
static Ref sext_of(R *s, Ref r)
{
	if (r.kind != R_VAL || (int)r.idx >= s->nval)
		return REF_NONE;
	const Ins *d = s->g.def[r.idx];
	if (d && d->op == O_CVT && d->ty == SK_I32 && (d->aux == SK_I64 || d->aux == SK_I32))
		return d->arg[0];
	return REF_NONE;
}

static Rng refine(R *s, Rng x, Ref r, const Fact *ft)
{
	Ref n = sext_of(s, r);
	for (; ft && x.set; ft = ft->next) {
		const Ins *c = ft->cmp;
		int uns, rel = rel_of(c, &uns);
		if (rel == REL_NONE)
			continue;
		if (!ft->truth)
			rel = negate(rel);
		if (ref_eq(c->arg[0], r) || (!uns && n.kind != R_NONE && ref_eq(c->arg[0], n)))
			x = apply(x, rel, base(s, c->arg[1]), uns);
		if (ref_eq(c->arg[1], r) || (!uns && n.kind != R_NONE && ref_eq(c->arg[1], n)))
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
		/* each arm only counts where the condition picks it */
		const Ins *d = i->arg[0].kind == R_VAL && (int)i->arg[0].idx < s->nval ? s->g.def[i->arg[0].idx] : NULL;
		if (d && int_cmp(d)) {
			Fact t = {d, 1, NULL}, e = {d, 0, NULL};
			c = refine(s, c, i->arg[1], &t);
			x = refine(s, x, i->arg[2], &e);
			if (!c.set)
				return x;
			if (!x.set)
				return c;
		}
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
	if (i->op == O_ADD || i->op == O_MUL) {
		Rng gr = grid_range(s, i);
		if (gr.set)
			return gr;
	}
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
		/* x & -2^m rounds a non-negative x down: monotonic */
		if (a.lo >= 0 && c.lo == c.hi && c.lo < 0 && ((-(uint64_t)c.lo) & (-(uint64_t)c.lo - 1)) == 0)
			return rng(a.lo & c.lo, a.hi & c.lo);
		if (a.lo >= 0 && c.lo >= 0)
			return rng(0, a.hi < c.hi ? a.hi : c.hi);
		if (a.lo >= 0)
			return rng(0, a.hi);
		if (c.lo >= 0)
			return rng(0, c.hi);
		return full(k);
	case O_OR: case O_XOR:
		if (c.lo == 0 && c.hi == 0)   /* x | 0, x ^ 0 (the sign of a number >= 0) */
			return a;
		if (a.lo == 0 && a.hi == 0)
			return c;
		if (a.lo >= 0 && c.lo >= 0) {
			int64_t m = a.hi > c.hi ? a.hi : c.hi, p = 1;
			while (p <= m && p < ((int64_t)1 << 62))
				p <<= 1;
			int64_t top = (p - 1) + p;   /* all bits below p's: 2p - 1, which may be INT64_MAX */
			return rng(0, p <= m ? cls_max(k) : top < cls_max(k) ? top : cls_max(k));
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
		if (a.lo >= 0 || !sg)   /* abs of an unsigned value is the value */
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

static void insert_ins(Fn *f, Blk *b, int pos, Ins i)
{
	b->ins = arena_grow(f->ctx->arena, b->ins, b->nins, &b->capins, sizeof *b->ins);
	memmove(&b->ins[pos + 1], &b->ins[pos], sizeof *b->ins * (size_t)(b->nins - pos));
	b->ins[pos] = i;
	b->nins++;
}

/* A new w or l value defined by `op` at position pos of b. */
static Ref put(Fn *f, Blk *b, int pos, Opcode op, Cls k, int ty, Ref a, Ref c, int aux)
{
	int v = ir_new_val(f, k, NULL);
	f->val[v].blk = b->id;
	insert_ins(f, b, pos, (Ins){.op = (uint16_t)op, .cls = (uint8_t)k, .ty = (uint8_t)ty, .to = v,
	                           .arg = {a, c, REF_NONE}, .aux = aux, .loc = -1});
	return REF_VAL(v);
}

static int fits_i32(Rng x)
{
	return x.set && x.lo >= 0 && x.hi <= INT32_MAX;
}

/* The unsigned 64-bit division or remainder at position *k of block b, whose
 * operands lie in 0 .. 2^31 - 1, done in 32 bits: a 64-bit one is a routine
 * of some forty instructions (ptx/idiv.c), a 32-bit one a handful. */
static void narrow_div(R *s, Blk *bk, int *k)
{
	Fn *f = s->f;
	Ins i = bk->ins[*k];
	Ref x[2];
	for (int j = 0; j < 2; j++)
		x[j] = i.arg[j].kind == R_CON ? ir_con_int(f, KW, (int32_t)base(s, i.arg[j]).lo)
		     : put(f, bk, (*k)++, O_CVT, KW, SK_U64, i.arg[j], REF_NONE, SK_U32);
	Ref q = put(f, bk, (*k)++, (Opcode)i.op, KW, SK_U32, x[0], x[1], 0);
	bk->ins[*k] = (Ins){.op = O_CVT, .cls = KL, .ty = SK_U32, .to = i.to, .arg = {q, REF_NONE, REF_NONE},
	                    .aux = SK_U64, .loc = i.loc};
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
					i->ty = (uint8_t)sk_unsigned((ScalarKind)i->ty);
			} else if ((i->op == O_DIV || i->op == O_REM) && (i->cls == KW || i->cls == KL) &&
			           (i->ty == SK_I32 || i->ty == SK_I64)) {
				Rng a = at(s, i->arg[0], b), c = at(s, i->arg[1], b);
				if (a.set && c.set && a.lo >= 0 && c.lo >= 0)
					i->ty = (uint8_t)sk_unsigned((ScalarKind)i->ty);
			}
			if ((i->op == O_DIV || i->op == O_REM) && i->cls == KL && i->ty == SK_U64 &&
			    fits_i32(at(s, i->arg[0], b)) && fits_i32(at(s, i->arg[1], b)))
				narrow_div(s, bk, &k);
		}
	}
}

/* The intervals of every value of f; 0 if the iteration did not settle. */
static int analyse(R *s, Fn *f)
{
	const PjOptions *o = f->ctx->opt;
	*s = (R){.f = f, .small = o ? o->small_extents : 0, .grid = o && o->small_grid && !o->target_cpu,
	         .nval = f->nval};
	opt_fill_cfg(f, &s->g);
	Arena *a = f->ctx->arena;
	s->r = arena_alloc(a, sizeof *s->r * (size_t)(f->nval + 1));
	s->grow = arena_alloc(a, sizeof *s->grow * (size_t)(f->nval + 1));
	fill_facts(s);
	int rounds = 0;
	while (round_(s, 0))
		if (++rounds > 100)
			return 0;   /* should not happen: widening bounds the rounds */
	round_(s, 1);
	round_(s, 1);
	return 1;
}

void opt_range(Fn *f)
{
	R s;
	if (analyse(&s, f))
		rewrite(&s);
}

/* ------------------------------------------------ 32-bit induction variables
 *
 * A 64-bit loop counter costs two instructions for each add and each
 * comparison on the GPU.  A header phi iv = phi(init, iv + c), c a
 * constant or invariant, whose intervals (iv's, and iv + c's) lie within the int32
 * range holds the same numbers in a 32-bit register: a w twin
 * iv' = phi(trunc init, iv' + c) takes over.  A comparison of iv (or of
 * iv + c) with a value whose interval also fits becomes a 32-bit
 * comparison of the truncations (the order of numbers within the int32
 * range is the same in 32 and 64 bits, signed or unsigned); every other
 * use reads iv sign-extended from the twin (range then makes that a
 * zero extension where it can).  With the counter only compared and
 * stepped, the 64-bit phi dies.  The step may also be a value invariant
 * in the loop (a grid stride), and where the intervals fit uint32 but
 * not int32 (a counter below 2^31 plus a stride below 2^31) the twin is
 * a u32 one: its comparisons unsigned, its uses zero-extended.
 * Precondition: after sr, which has already taken the counter out of
 * the address arithmetic. */
static int fits32(Rng x)
{
	return x.set && x.lo >= INT32_MIN && x.hi <= INT32_MAX;
}

/* fits32, or (uns) fits uint32: 0 .. 2^32 - 1 */
static int fits(Rng x, int uns)
{
	return uns ? x.set && x.lo >= 0 && x.hi <= (int64_t)UINT32_MAX : fits32(x);
}

/* r truncated to 32 bits, for a use in block b at position *pos (moved on
 * when an instruction is put before it). */
static Ref trunc32(R *s, const Loop *l, Ref r, Blk *b, int *pos)
{
	Fn *f = s->f;
	if (r.kind == R_CON)
		return ir_con_int(f, KW, (int32_t)base(s, r).lo);
	if (opt_invariant(&s->g, l, r) && l->pre >= 0) {
		Blk *pre = f->blk[l->pre];
		return put(f, pre, pre->nins, O_CVT, KW, SK_I64, r, REF_NONE, SK_I32);
	}
	return put(f, b, (*pos)++, O_CVT, KW, SK_I64, r, REF_NONE, SK_I32);
}

static int narrow_kind32(int sk)
{
	return sk == SK_I64 ? SK_I32 : sk == SK_U64 ? SK_U32 : -1;
}

/* The comparisons of f reading iv64 (or its next value) as one operand
 * with a value that fits on the other side become 32-bit ones (unsigned
 * ones for a u32 twin: both sides lie in 0 .. 2^32 - 1 then). */
static void narrow_cmps(R *s, const Loop *l, int v64, Ref v32, int uns)
{
	Fn *f = s->f;
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			if (i->op != O_CMP || narrow_kind32(i->ty) < 0 || !l->in[b])
				continue;
			int side = ref_eq(i->arg[0], REF_VAL(v64)) ? 0 : ref_eq(i->arg[1], REF_VAL(v64)) ? 1 : -1;
			if (side < 0 || !fits(at(s, i->arg[!side], b), uns))
				continue;
			Ref o = trunc32(s, l, i->arg[!side], bk, &k);
			i = &bk->ins[k];
			i->arg[side] = v32;
			i->arg[!side] = o;
			i->ty = (uint8_t)(uns ? SK_U32 : narrow_kind32(i->ty));
		}
	}
}

/* Can every comparison in loop l reading v be narrowed?  (Otherwise the
 * 64-bit counter would only be traded for an extension in the loop.) */
static int cmps_fit(R *s, const Loop *l, int v, int uns)
{
	Fn *f = s->f;
	for (int k = 0; k < l->nblk; k++) {
		Blk *bk = f->blk[l->blk[k]];
		for (int m = 0; m < bk->nins; m++) {
			Ins *i = &bk->ins[m];
			if (i->op != O_CMP)
				continue;
			int side = ref_eq(i->arg[0], REF_VAL(v)) ? 0 : ref_eq(i->arg[1], REF_VAL(v)) ? 1 : -1;
			if (side >= 0 && (narrow_kind32(i->ty) < 0 || !fits(at(s, i->arg[!side], bk->id), uns)))
				return 0;
		}
	}
	return 1;
}

static int narrow_iv(R *s, const Loop *l, int pp, int pl, int j)
{
	Fn *f = s->f;
	Blk *h = f->blk[l->head];
	Phi *p = &h->phi[j];
	int iv = p->to;
	Ref next = p->arg[pl], init = p->arg[pp];
	if (p->cls != KL || next.kind != R_VAL || (int)next.idx >= s->nval)
		return 0;
	int ab = s->g.defblk[next.idx];
	Ins *add = NULL;
	for (int k = 0; ab >= 0 && k < f->blk[ab]->nins; k++)
		if (f->blk[ab]->ins[k].to == (int)next.idx)
			add = &f->blk[ab]->ins[k];
	if (!add || add->op != O_ADD || add->cls != KL || narrow_kind32(add->ty) < 0 || ab < 0 || !l->in[ab])
		return 0;
	int ivarg = ref_eq(add->arg[0], REF_VAL(iv)) ? 0 : ref_eq(add->arg[1], REF_VAL(iv)) ? 1 : -1;
	Ref step = ivarg < 0 ? REF_NONE : add->arg[!ivarg];
	if (ivarg < 0 || (step.kind != R_CON && !(step.kind == R_VAL && opt_invariant(&s->g, l, step))))
		return 0;
	/* an int32 twin, else a uint32 one (a grid-stride loop: the counter
	 * and its next value below 2^32, the stride invariant) */
	Rng c = at(s, step, l->pre);
	int uns = -1;
	for (int u = 0; u < 2 && uns < 0; u++)
		if (fits(c, u) && fits(s->r[iv], u) && fits(s->r[next.idx], u) && fits(at(s, init, l->pre), u) &&
		    cmps_fit(s, l, iv, u) && cmps_fit(s, l, (int)next.idx, u))
			uns = u;
	if (uns < 0)
		return 0;
	int apos = (int)(add - f->blk[ab]->ins);
	int zero = 0;
	Ref cc = step.kind == R_CON ? ir_con_int(f, KW, (int32_t)c.lo) : trunc32(s, l, step, f->blk[l->pre], &zero);
	int t32 = uns ? SK_U32 : SK_I32;

	/* the twin: phi, its start in the preheader, its step after the add */
	zero = 0;
	Ref init32 = trunc32(s, l, init, f->blk[l->pre], &zero);
	Phi *p32 = ir_add_phi(f, h, KW, h->npred);
	p = &h->phi[j];
	int v32 = p32->to;
	f->val[v32].name = f->val[iv].name;
	p32->arg[pp] = init32;
	Ref n32 = put(f, f->blk[ab], apos + 1, O_ADD, KW, t32, REF_VAL(v32), cc, 0);
	h->phi[h->nphi - 1].arg[pl] = n32;

	/* comparisons first, then every other use reads a sign extension */
	narrow_cmps(s, l, iv, REF_VAL(v32), uns);
	narrow_cmps(s, l, (int)next.idx, n32, uns);
	Ref ivx = put(f, h, 0, O_CVT, KL, t32, REF_VAL(v32), REF_NONE, SK_I64);
	opt_replace_uses(f, iv, ivx);
	/* the old add becomes the extension of the twin's next value */
	Blk *abk = f->blk[ab];
	for (int k = 0; k < abk->nins; k++)
		if (abk->ins[k].to == (int)next.idx) {
			abk->ins[k] = (Ins){.op = O_CVT, .cls = KL, .ty = (uint8_t)t32, .to = (int)next.idx,
			                    .arg = {n32, REF_NONE, REF_NONE}, .aux = SK_I64, .loc = abk->ins[k].loc};
			/* n32 must come first: it was put right after the add */
			if (k + 1 < abk->nins && abk->ins[k + 1].to == (int)n32.idx) {
				Ins t = abk->ins[k];
				abk->ins[k] = abk->ins[k + 1];
				abk->ins[k + 1] = t;
			}
			break;
		}
	return 1;
}

/* ------------------------------------------------ 32-bit int -> float
 *
 * A 64-bit integer converted to a float costs a slow conversion on the
 * GPU (cvt.rn.f32.s64 is several instructions), the 32-bit one is one.
 * Where the interval of the integer fits int32 (or uint32), the
 * conversion reads its low half instead: the same number, so the same
 * rounding.  A value that is itself a widening of a 32-bit one is read
 * at its source. */
static void narrow_fcvts(R *s)
{
	Fn *f = s->f;
	/* the defining cvt of each value, copied before put() moves
	 * instructions (s->g.def points into the blocks) */
	Ins *def = arena_alloc(f->ctx->arena, sizeof *def * (size_t)(s->nval + 1));
	for (int v = 0; v < s->nval; v++)
		if (s->g.def[v])
			def[v] = *s->g.def[v];
		else
			def[v].op = O_NOP_;
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			if (i->op != O_CVT || (i->ty != SK_I64 && i->ty != SK_U64) ||
			    (i->aux != SK_F32 && i->aux != SK_F64) || i->arg[0].kind != R_VAL)
				continue;
			Rng a = at(s, i->arg[0], b);
			int nt;
			if (!a.set || (i->ty == SK_U64 && a.lo < 0))
				continue;           /* a uint64 of 2^63 or more */
			if (a.lo >= INT32_MIN && a.hi <= INT32_MAX)
				nt = SK_I32;
			else if (a.lo >= 0 && a.hi <= UINT32_MAX)
				nt = SK_U32;
			else
				continue;
			const Ins *d = (int)i->arg[0].idx < s->nval ? &def[i->arg[0].idx] : NULL;
			Ref src;
			if (d && d->op == O_CVT && (d->ty == SK_I32 || d->ty == SK_U32) &&
			    (d->aux == SK_I64 || d->aux == SK_U64)) {
				src = d->arg[0];
				nt = d->ty;
			} else {
				src = put(f, bk, k, O_CVT, KW, i->ty, i->arg[0], REF_NONE, nt);
				i = &bk->ins[++k];
			}
			i->arg[0] = src;
			i->ty = (uint8_t)nt;
		}
	}
}

void opt_narrow(Fn *f)
{
	R s;
	if (!analyse(&s, f))
		return;
	narrow_fcvts(&s);
	for (int li = 0; li < s.g.nloop; li++) {
		const Loop *l = &s.g.loop[li];
		if (l->pre < 0 || l->nlatch != 1)
			continue;
		Blk *h = f->blk[l->head];
		int pp = -1, pl = -1;
		for (int m = 0; m < h->npred; m++) {
			if (h->pred[m] == l->pre)
				pp = m;
			if (h->pred[m] == l->latch[0])
				pl = m;
		}
		if (pp < 0 || pl < 0)
			continue;
		int n = h->nphi;
		for (int j = 0; j < n; j++)
			if (h->phi[j].to < s.nval)
				narrow_iv(&s, l, pp, pl, j);
	}
}

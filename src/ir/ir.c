/*
 * ir.c - building and querying the IR.
 *
 * A function (Fn) is an array of blocks; blk[i]->id == i and blk[0] is
 * the entry.  A block holds its phis, then its instructions, then one
 * jump.  Every SSA value is an index into Fn.val, every constant an index
 * into Fn.con; operands (Ref) name one or the other.  Constants are
 * deduplicated by class and bits: an int constant of class KW is kept
 * sign-extended from 32 bits and a KB constant is 0 or 1, so equal
 * register contents always give the same Ref.
 *
 * Phi arguments are ordered like Blk.pred.  Whoever changes jumps calls
 * ir_fill_preds (or ir_fill_rpo) afterwards; both recompute the
 * predecessor lists from the jumps and move each phi argument along with
 * the predecessor block it came from, matching the old Blk.pred list
 * (which must still describe the phis' order).  An argument whose edge
 * disappeared is dropped; a new edge gets REF_NONE, which the verifier
 * rejects unless the caller fills it in.
 *
 * All memory comes from the compile request's arena.
 */
#include <math.h>
#include <string.h>

#include "../core.h"

const char *const cls_name[NK] = {"x", "b", "w", "l", "s", "d"};
const char *const ir_cache_op_name[NCO] = {NULL, "ca", "cg", "cs", "lu", "cv", "wb", "wt"};

const OpInfo op_info[NOPS] = {
#define X(name, nargs, def, eff, fold) {#name, nargs, def, eff, fold},
	OPCODES(X)
#undef X
};

Fn *ir_new_fn(Ctx *c, const char *name)
{
	Fn *f = arena_alloc(c->arena, sizeof *f);
	f->name = name ? arena_strdup(c->arena, name) : "kernel";
	f->ctx = c;
	f->cur_loc = -1;
	f->def_loc = -1;
	f->mod = f;
	return f;
}

Blk *ir_new_blk(Fn *f)
{
	Blk *b = arena_alloc(f->ctx->arena, sizeof *b);
	b->id = f->nblk;
	b->jmp = J_NONE;
	b->cond = REF_NONE;
	b->s1 = b->s2 = -1;
	VEC_PUSH(f->ctx, f->blk, f->nblk, f->capblk, b);
	return b;
}

int ir_new_val(Fn *f, Cls k, const char *name)
{
	Val v = {.cls = (uint8_t)k, .blk = -1, .name = name};
	VEC_PUSH(f->ctx, f->val, f->nval, f->capval, v);
	return f->nval - 1;
}

static Ref con(Fn *f, Con k)
{
	for (int i = 0; i < f->ncon; i++) {
		Con *o = &f->con[i];
		if (o->cls != k.cls)
			continue;
		if (k.cls == KS ? memcmp(&o->s, &k.s, sizeof k.s) == 0
		                : memcmp(&o->i, &k.i, sizeof k.i) == 0)
			return REF_CON(i);
	}
	VEC_PUSH(f->ctx, f->con, f->ncon, f->capcon, k);
	return REF_CON(f->ncon - 1);
}

Ref ir_con_int(Fn *f, Cls k, int64_t v)
{
	Con x;
	memset(&x, 0, sizeof x);
	x.cls = (uint8_t)k;
	if (k == KB)
		x.i = v != 0;
	else if (k == KW)
		x.i = (int32_t)(uint32_t)(uint64_t)v;
	else if (k == KS) {
		int32_t w = (int32_t)(uint32_t)(uint64_t)v;
		memcpy(&x.s, &w, sizeof w);
	} else if (k == KD)
		memcpy(&x.d, &v, sizeof v);
	else
		x.i = v;
	return con(f, x);
}

Ref ir_con_f32(Fn *f, float v)
{
	Con x;
	memset(&x, 0, sizeof x);
	x.cls = KS;
	x.s = v;
	return con(f, x);
}

Ref ir_con_f64(Fn *f, double v)
{
	Con x;
	memset(&x, 0, sizeof x);
	x.cls = KD;
	x.d = v;
	return con(f, x);
}

Ref ir_con_bool(Fn *f, int v)
{
	return ir_con_int(f, KB, v);
}

Cls ir_cls_of(Fn *f, Ref r)
{
	if (r.kind == R_VAL && (int)r.idx < f->nval)
		return (Cls)f->val[r.idx].cls;
	if (r.kind == R_CON && (int)r.idx < f->ncon)
		return (Cls)f->con[r.idx].cls;
	return KX;
}

Cls ir_cls_of_sk(ScalarKind sk)
{
	switch (sk) {
	case SK_BOOL:
		return KB;
	case SK_I8: case SK_I16: case SK_I32: case SK_U8: case SK_U16: case SK_U32:
	case SK_E5M2: case SK_E4M3: case SK_E8M0:
		return KW;
	case SK_I64: case SK_U64:
		return KL;
	case SK_F16: case SK_F32: case SK_BF16:
		return KS;
	case SK_F64:
		return KD;
	default:
		return KX;
	}
}

int ir_nargs(const Ins *i)
{
	if (i->op >= NOPS)
		return 0;
	if (i->op == O_ATOM && (i->aux & 255) != AT_CAS)
		return 2;
	return op_info[i->op].nargs;
}

static Cls bits_partner(Cls k)
{
	switch (k) {
	case KW: return KS;
	case KS: return KW;
	case KL: return KD;
	case KD: return KL;
	default: return k;
	}
}

Cls ir_arg_cls(const Ins *i, int n)
{
	if (n < 0 || n >= ir_nargs(i))
		return KX;
	Cls k = (Cls)i->cls;
	switch (i->op) {
	case O_CMP:
		return ir_cls_of_sk((ScalarKind)i->ty);
	case O_SEL:
		return n == 0 ? KB : k;
	case O_CVT:
		return ir_cls_of_sk((ScalarKind)i->ty);
	case O_BITS:
		return bits_partner(k);
	case O_LOAD:
		return KL;
	case O_STORE:
		return n == 0 ? KL : k;
	case O_ATOM:
		return n == 0 ? KL : k;
	case O_CHECK:
		return KL;
	case O_VOTE:
		return n == 0 ? KB : KW;
	case O_MATCH:
		return n == 0 ? ir_cls_of_sk((ScalarKind)i->ty) : KW;
	case O_BARRED:
		return KB;
	case O_SHFL: case O_SYNCWARP: case O_NANOSLEEP:
		return KW;
	default:
		return k;
	}
}

Ref ir_ins(Fn *f, Blk *b, Opcode op, Cls k, ScalarKind ty, Ref a0, Ref a1, Ref a2, int32_t aux)
{
	Ins i = {
		.op = (uint16_t)op, .cls = (uint8_t)k, .ty = (uint8_t)ty, .to = -1,
		.arg = {a0, a1, a2}, .aux = aux, .loc = f->cur_loc,
	};
	Ref r = REF_NONE;
	if (op < NOPS && op_info[op].def) {
		i.to = ir_new_val(f, k, NULL);
		f->val[i.to].blk = b->id;
		r = REF_VAL(i.to);
	}
	VEC_PUSH(f->ctx, b->ins, b->nins, b->capins, i);
	return r;
}

Phi *ir_add_phi(Fn *f, Blk *b, Cls k, int nargs)
{
	Phi p = {.to = ir_new_val(f, k, NULL), .cls = (uint8_t)k, .n = nargs};
	f->val[p.to].blk = b->id;
	p.arg = arena_alloc(f->ctx->arena, sizeof(Ref) * (size_t)(nargs > 0 ? nargs : 1));
	VEC_PUSH(f->ctx, b->phi, b->nphi, b->capphi, p);
	return &b->phi[b->nphi - 1];
}

void ir_add_pred(Fn *f, Blk *b, int pred)
{
	VEC_PUSH(f->ctx, b->pred, b->npred, b->cappred, pred);
}

void ir_jmp(Blk *b, int s)
{
	b->jmp = J_JMP;
	b->cond = REF_NONE;
	b->s1 = s;
	b->s2 = -1;
}

void ir_jnz(Blk *b, Ref cond, int s1, int s2)
{
	b->jmp = J_JNZ;
	b->cond = cond;
	b->s1 = s1;
	b->s2 = s2;
}

void ir_ret(Blk *b)
{
	b->jmp = J_RET;
	b->cond = REF_NONE;
	b->s1 = b->s2 = -1;
}

static int has_grid_bar(const Fn *f)
{
	for (int b = 0; b < f->nblk; b++)
		for (int k = 0; k < f->blk[b]->nins; k++)
			if (f->blk[b]->ins[k].op == O_BAR && f->blk[b]->ins[k].aux == 1)
				return 1;
	return 0;
}

int ir_grid_sync(const Fn *f, int or_this_grid)
{
	if (has_grid_bar(f) || (or_this_grid && f->this_grid))
		return 1;
	for (int i = 0; i < f->nfuncs; i++)
		if (has_grid_bar(f->funcs[i]) || (or_this_grid && f->funcs[i]->this_grid))
			return 1;
	return 0;
}

int ir_add_loc(Fn *f, Span sp)
{
	Loc l = span_code_loc(sp);
	if (f->nlocs > 0) {
		Loc *p = &f->locs[f->nlocs - 1];
		if (p->line == l.line && p->col == l.col && p->file == l.file)
			return f->nlocs - 1;
	}
	VEC_PUSH(f->ctx, f->locs, f->nlocs, f->caplocs, l);
	return f->nlocs - 1;
}

/* The successors of b, as block pointers of the current numbering. */
static int succs(Fn *f, Blk *b, Blk **s)
{
	int n = 0;
	if (b->jmp == J_JMP || b->jmp == J_JNZ) {
		if (b->s1 >= 0 && b->s1 < f->nblk)
			s[n++] = f->blk[b->s1];
		if (b->jmp == J_JNZ && b->s2 >= 0 && b->s2 < f->nblk)
			s[n++] = f->blk[b->s2];
	}
	return n;
}

/* old[b->id] is b's predecessor list (as blocks) that its phis follow. */
static Blk ***snapshot_preds(Fn *f, Blk **byid, int nbyid, int **nold)
{
	Arena *a = f->ctx->arena;
	Blk ***old = arena_alloc(a, sizeof *old * (size_t)(f->nblk + 1));
	*nold = arena_alloc(a, sizeof **nold * (size_t)(f->nblk + 1));
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = f->blk[i];
		old[i] = arena_alloc(a, sizeof **old * (size_t)(b->npred + 1));
		for (int j = 0; j < b->npred; j++) {
			int p = b->pred[j];
			old[i][j] = p >= 0 && p < nbyid ? byid[p] : NULL;
		}
		(*nold)[i] = b->npred;
	}
	return old;
}

/* Recomputes preds (blocks in f->blk order, s1 before s2) and moves phi
 * arguments: old[i] is the predecessor list block f->blk[i] had before. */
static void repred(Fn *f, Blk ***old, int *nold)
{
	Arena *a = f->ctx->arena;
	for (int i = 0; i < f->nblk; i++)
		f->blk[i]->npred = 0;
	for (int i = 0; i < f->nblk; i++) {
		Blk *s[2];
		int n = succs(f, f->blk[i], s);
		for (int j = 0; j < n; j++)
			ir_add_pred(f, s[j], i);
	}
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = f->blk[i];
		if (!b->nphi)
			continue;
		int m = nold[i];
		char *used = arena_alloc(a, (size_t)m + 1);
		int *from = arena_alloc(a, sizeof *from * (size_t)(b->npred + 1));
		for (int j = 0; j < b->npred; j++) {
			Blk *p = f->blk[b->pred[j]];
			from[j] = -1;
			for (int k = 0; k < m; k++)
				if (!used[k] && old[i][k] == p) {
					used[k] = 1;
					from[j] = k;
					break;
				}
		}
		for (int k = 0; k < b->nphi; k++) {
			Phi *p = &b->phi[k];
			if (p->n != m) {
				/* not built along the old list: trust it when it fits */
				continue;
			}
			Ref *arg = arena_alloc(a, sizeof *arg * (size_t)(b->npred + 1));
			for (int j = 0; j < b->npred; j++)
				arg[j] = from[j] >= 0 ? p->arg[from[j]] : REF_NONE;
			p->arg = arg;
			p->n = b->npred;
		}
	}
}

void ir_fill_preds(Fn *f)
{
	int *nold;
	Blk ***old = snapshot_preds(f, f->blk, f->nblk, &nold);
	repred(f, old, nold);
}

static void fill_val_blk(Fn *f)
{
	for (int i = 0; i < f->nval; i++)
		f->val[i].blk = -1;
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = f->blk[i];
		for (int j = 0; j < b->nphi; j++)
			if (b->phi[j].to >= 0 && b->phi[j].to < f->nval)
				f->val[b->phi[j].to].blk = i;
		for (int j = 0; j < b->nins; j++)
			if (b->ins[j].to >= 0 && b->ins[j].to < f->nval)
				f->val[b->ins[j].to].blk = i;
	}
}

void ir_fill_rpo(Fn *f)
{
	Arena *a = f->ctx->arena;
	int n = f->nblk;
	if (n == 0)
		return;
	Blk **oldblk = f->blk;
	int *nold;
	Blk ***old = snapshot_preds(f, oldblk, n, &nold);

	/* iterative depth-first search; s2 is visited before s1 so that s1
	 * tends to follow its block in the final order */
	char *seen = arena_alloc(a, (size_t)n);
	Blk **post = arena_alloc(a, sizeof *post * (size_t)n);
	Blk **stack = arena_alloc(a, sizeof *stack * (size_t)n);
	int *next = arena_alloc(a, sizeof *next * (size_t)n);
	int npost = 0, sp = 0;
	stack[sp++] = oldblk[0];
	seen[0] = 1;
	while (sp) {
		Blk *b = stack[sp - 1];
		Blk *s[2], *order[2];
		int ns = succs(f, b, s);
		for (int k = 0; k < ns; k++)
			order[k] = s[ns - 1 - k];
		int *k = &next[b->id];
		while (*k < ns && seen[order[*k]->id])
			(*k)++;
		if (*k < ns) {
			Blk *c = order[(*k)++];
			seen[c->id] = 1;
			stack[sp++] = c;
		} else {
			post[npost++] = b;
			sp--;
		}
	}

	int *newid = arena_alloc(a, sizeof *newid * (size_t)n);
	for (int i = 0; i < n; i++)
		newid[i] = -1;
	Blk **nb = arena_alloc(a, sizeof *nb * (size_t)npost);
	Blk ***nold2 = arena_alloc(a, sizeof *nold2 * (size_t)npost);
	int *nnold = arena_alloc(a, sizeof *nnold * (size_t)npost);
	for (int i = 0; i < npost; i++) {
		Blk *b = post[npost - 1 - i];
		newid[b->id] = i;
		nb[i] = b;
		nold2[i] = old[b->id];
		nnold[i] = nold[b->id];
	}
	for (int i = 0; i < npost; i++) {
		Blk *b = nb[i];
		if (b->jmp == J_JMP || b->jmp == J_JNZ) {
			b->s1 = b->s1 >= 0 && b->s1 < n ? newid[b->s1] : -1;
			if (b->jmp == J_JNZ)
				b->s2 = b->s2 >= 0 && b->s2 < n ? newid[b->s2] : -1;
		}
	}
	for (int i = 0; i < npost; i++)
		nb[i]->id = i;
	f->blk = nb;
	f->nblk = npost;
	f->capblk = npost;
	repred(f, nold2, nnold);
	fill_val_blk(f);
}

int ir_fmt_conversions(const char *fmt, int *is_s, int max)
{
	int n = 0;
	for (const char *s = fmt; *s; s++) {
		if (*s != '%')
			continue;
		if (s[1] == '%') {
			s++;
			continue;
		}
		s++;
		while (*s && !strchr("diouxXfFeEgGcsp", *s))
			s++;
		if (!*s)
			break;
		if (is_s && n < max)
			is_s[n] = *s == 's';
		n++;
	}
	return n;
}

/* Rounding toward minus infinity without the floating-point environment
 * (a compiler may move fmaf across fesetround): the product of two floats
 * is exact in a double, the sum's error is exact too (Knuth's two-sum),
 * and the nearest float r of the sum s goes one float down when it lies
 * above s + err. */
float ir_fmaf_mode(float x, float y, float z, int mode)
{
	float r = fmaf(x, y, z);
	if ((mode & FMA_RM) && isfinite(x) && isfinite(y) && isfinite(z)) {
		double p = (double)x * y, s = p + z, bz = s - p;
		double err = (p - (s - bz)) + (z - bz);
		r = (float)s;
		if ((double)r > s || ((double)r == s && err < 0))
			r = nextafterf(r, -INFINITY);
		else if (s == 0 && err == 0)   /* an exact zero is -0 but for +0 + +0 */
			r = p == 0 && z == 0 && !signbit(p) && !signbit(z) ? 0.0f : -0.0f;
	}
	if (mode & FMA_SAT)
		r = r > 0 ? (r < 1 ? r : 1) : 0;   /* NaN and -0 become +0 */
	return r;
}

void ir_float_to_int_range(ScalarKind sk, double *lo, double *hi)
{
	int bits = scalar_info[sk].size * 8 < 16 ? 16 : scalar_info[sk].size * 8;
	*lo = scalar_info[sk].is_signed ? -ldexp(1, bits - 1) : 0;
	*hi = ldexp(1, scalar_info[sk].is_signed ? bits - 1 : bits) - 1;
}

int64_t ir_float_nan_to_int(ScalarKind from, ScalarKind sk)
{
	int bits = scalar_info[sk].size * 8;
	if (bits == 64)
		return INT64_MIN;
	if (from != SK_F64 || bits < 16)
		return 0;
	return sk == SK_I16 ? INT16_MIN : sk == SK_U16 ? 0x8000 : sk == SK_I32 ? INT32_MIN : (int64_t)0x80000000u;
}

int64_t ir_float_to_int(double v, ScalarKind from, ScalarKind sk)
{
	if (v != v)
		return ir_float_nan_to_int(from, sk);
	if (sk == SK_I64)
		return v >= 0x1p63 ? INT64_MAX : v <= -0x1p63 ? INT64_MIN : (int64_t)v;
	if (sk == SK_U64)
		return v >= 0x1p64 ? (int64_t)UINT64_MAX : v <= 0 ? 0 : (int64_t)(uint64_t)v;
	double lo, hi, t = trunc(v);
	ir_float_to_int_range(sk, &lo, &hi);
	int64_t r = (int64_t)(t < lo ? lo : t > hi ? hi : t);
	return sk == SK_I8 ? (int8_t)r : sk == SK_U8 ? (uint8_t)r : r;
}

/* ------------------------------------------------------ half floats */

float ir_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023, bits;
	if (e == 31)
		bits = sign | 0x7f800000u | m << 13;
	else if (e != 0)
		bits = sign | (e + 112) << 23 | m << 13;
	else if (m == 0)
		bits = sign;
	else {
		float f = ldexpf((float)m, -24);
		return sign ? -f : f;
	}
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

/* Rounds to nearest even, once, from double (exact for float inputs). */
uint16_t ir_f64_to_f16(double x)
{
	uint16_t sign = signbit(x) ? 0x8000 : 0;
	double a = fabs(x);
	if (a != a)
		return sign | 0x7e00;
	if (a >= 65520.0)
		return sign | 0x7c00;
	if (a < 0x1p-14)
		return sign | (uint16_t)nearbyint(a * 0x1p24);   /* 1024 is the smallest normal */
	int e;
	frexp(a, &e);                    /* a = f * 2^e, f in [0.5, 1) */
	double q = nearbyint(ldexp(a, 11 - e));   /* 1024 <= q <= 2048 */
	int E = e - 1 + 15;
	if (q >= 2048.0) {
		q = 1024.0;
		E++;
	}
	if (E >= 31)
		return sign | 0x7c00;
	return sign | (uint16_t)(E << 10) | (uint16_t)((int)q - 1024);
}

float ir_round_f16(double x)
{
	return ir_f16_to_f32(ir_f64_to_f16(x));
}

static float bf16_bits_to_f32(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* The float32 bits u rounded to bfloat16's 8 bits, to nearest even, when
 * the exact value also had nonzero bits below u's (sticky). */
static uint16_t bf16_round_bits(uint32_t u, int sticky)
{
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return 0x7fff;                                   /* the canonical NaN, as cvt.rn.bf16.f32 */
	uint32_t low = u & 0xffffu, keep = u >> 16;
	if (low > 0x8000u || (low == 0x8000u && (sticky || (keep & 1))))
		keep++;
	return (uint16_t)keep;
}

/* x as a float32 rounded toward zero, and whether that lost bits: the
 * sticky bit that makes the second rounding to bfloat16 exact. */
static uint32_t f32_rz_bits(double x, int *sticky)
{
	double a = fabs(x);
	float f;
	if (a == INFINITY)
		f = INFINITY;
	else if (a > 0x1.fffffep127)
		f = 0x1.fffffep127f;
	else if (a < 0x1p-149)
		f = 0.0f;
	else {
		int e;
		frexp(a, &e);
		int shift = e < -125 ? 149 : 24 - e;            /* float32 keeps 24 bits (subnormals fewer) */
		f = (float)ldexp(trunc(ldexp(a, shift)), -shift);
	}
	*sticky = a == a && (double)f != a;
	if (signbit(x))
		f = -f;
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

uint16_t ir_f64_to_bf16(double x)
{
	if (x != x)
		return 0x7fff;
	int sticky;
	uint32_t u = f32_rz_bits(x, &sticky);
	return bf16_round_bits(u, sticky);
}

float ir_round_bf16(double x)
{
	return bf16_bits_to_f32(ir_f64_to_bf16(x));
}

float ir_int_to_bf16(uint64_t bits, int is_signed)
{
	int neg = is_signed && (int64_t)bits < 0;
	uint64_t m = neg ? 0 - bits : bits;
	int sticky = 0;
	while (m >> 53) {                                  /* exact in a double once 53 bits */
		sticky |= (int)(m & 1);
		m >>= 1;
	}
	/* m * 2^k with the bits shifted out kept as a sticky low bit: m is
	 * exact, and the lost bits lie far below bfloat16's 8 */
	int k = 0;
	for (uint64_t t = neg ? 0 - bits : bits; t >> 53; t >>= 1)
		k++;
	double d = ldexp((double)(m | (uint64_t)sticky), k);
	return ir_round_bf16(neg ? -d : d);
}

uint16_t pj_half_from_double(double x)
{
	return ir_f64_to_f16(x);
}

double pj_half_to_double(uint16_t h)
{
	return ir_f16_to_f32(h);
}

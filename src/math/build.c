/*
 * build.c - the math library's instruction builder (MB, mathlib.h): one
 * small function per IR operation, in the precision the builder was made
 * for, plus the pieces every algorithm shares: bit access to floats,
 * exact scaling by powers of two, Horner evaluation with fma, the exact
 * two-sum and two-product of floating-point pairs, if/else on the
 * lowering's SSA slots, and static tables in constant memory.
 *
 * mb_div is IEEE division in both precisions, also under fastmath (the
 * PTX back end turns an f32 O_DIV into div.approx when fastmath is on,
 * which the library's error analysis does not allow): it is written as
 * an O_DIV of kind float32 only when fastmath is off; with fastmath the
 * quotient is computed by the float64 division and rounded, which is the
 * correctly rounded float32 quotient too.
 *
 * Constants are folded away by the IR passes (fold.c follows the same
 * semantics), so an algorithm may build freely from constants.
 */
#include <math.h>
#include <string.h>

#include "mathlib.h"

MB mb_new(Lower *L, ScalarKind sk)
{
	MB b;
	memset(&b, 0, sizeof b);
	b.L = L;
	b.sk = sk == SK_F64 ? SK_F64 : SK_F32;
	b.k = b.sk == SK_F64 ? KD : KS;
	b.ik = b.sk == SK_F64 ? KL : KW;
	b.isk = b.sk == SK_F64 ? SK_I64 : SK_I32;
	b.fast = L->c->opt && L->c->opt->fastmath;
	return b;
}

int mb_is64(const MB *b)
{
	return b->sk == SK_F64;
}

static Ref emit(MB *b, Opcode op, Cls k, ScalarKind ty, Ref x, Ref y, Ref z, int32_t aux)
{
	return lower_emit(b->L, op, k, ty, x, y, z, aux);
}

static ScalarKind int_sk(Cls k, int sgn)
{
	if (k == KL)
		return sgn ? SK_I64 : SK_U64;
	if (k == KB)
		return SK_BOOL;
	return sgn ? SK_I32 : SK_U32;
}

/* ------------------------------------------------------------- constants */

Ref mb_f(MB *b, double v)
{
	return b->sk == SK_F64 ? ir_con_f64(b->L->f, v) : ir_con_f32(b->L->f, (float)v);
}

Ref mb_i(MB *b, Cls k, int64_t v)
{
	return ir_con_int(b->L->f, k, k == KW ? (int64_t)(int32_t)(uint32_t)(uint64_t)v : v);
}

Ref mb_true(MB *b)
{
	return ir_con_bool(b->L->f, 1);
}

/* ------------------------------------------------------ float arithmetic */

static Ref f2(MB *b, Opcode op, Ref x, Ref y)
{
	return emit(b, op, b->k, b->sk, x, y, REF_NONE, 0);
}

static Ref f1(MB *b, Opcode op, Ref x)
{
	return emit(b, op, b->k, b->sk, x, REF_NONE, REF_NONE, 0);
}

Ref mb_add(MB *b, Ref x, Ref y) { return f2(b, O_ADD, x, y); }
Ref mb_sub(MB *b, Ref x, Ref y) { return f2(b, O_SUB, x, y); }
Ref mb_mul(MB *b, Ref x, Ref y) { return f2(b, O_MUL, x, y); }
Ref mb_neg(MB *b, Ref x) { return f1(b, O_NEG, x); }
Ref mb_abs(MB *b, Ref x) { return f1(b, O_ABS, x); }
Ref mb_floor(MB *b, Ref x) { return f1(b, O_FLOOR, x); }
Ref mb_ceil(MB *b, Ref x) { return f1(b, O_CEIL, x); }
Ref mb_trunc(MB *b, Ref x) { return f1(b, O_TRUNC, x); }
Ref mb_rint(MB *b, Ref x) { return f1(b, O_RINT, x); }
Ref mb_min(MB *b, Ref x, Ref y) { return f2(b, O_MIN, x, y); }
Ref mb_max(MB *b, Ref x, Ref y) { return f2(b, O_MAX, x, y); }

Ref mb_div(MB *b, Ref x, Ref y)
{
	if (b->sk == SK_F32 && b->fast) {
		Ref xd = emit(b, O_CVT, KD, SK_F32, x, REF_NONE, REF_NONE, SK_F64);
		Ref yd = emit(b, O_CVT, KD, SK_F32, y, REF_NONE, REF_NONE, SK_F64);
		Ref q = emit(b, O_DIV, KD, SK_F64, xd, yd, REF_NONE, 0);
		return emit(b, O_CVT, KS, SK_F64, q, REF_NONE, REF_NONE, SK_F32);
	}
	return f2(b, O_DIV, x, y);
}

Ref mb_div_fast(MB *b, Ref x, Ref y)
{
	if (b->L->c->opt && b->L->c->opt->fastmath)
		return f2(b, O_DIV, x, y);     /* div.approx.ftz.f32 in a fastmath kernel */
	return mb_mul(b, x, mb_approx(b, AP_RCP, y));
}

Ref mb_sqrt(MB *b, Ref x)
{
	if (b->sk == SK_F32 && b->fast) {
		Ref xd = emit(b, O_CVT, KD, SK_F32, x, REF_NONE, REF_NONE, SK_F64);
		Ref q = emit(b, O_SQRT, KD, SK_F64, xd, REF_NONE, REF_NONE, 0);
		return emit(b, O_CVT, KS, SK_F64, q, REF_NONE, REF_NONE, SK_F32);
	}
	return f1(b, O_SQRT, x);
}

Ref mb_fma(MB *b, Ref x, Ref y, Ref z)
{
	return emit(b, O_FMA, b->k, b->sk, x, y, z, 0);
}

Ref mb_fma_mode(MB *b, Ref x, Ref y, Ref z, int mode)
{
	if (b->k != KS || b->sk != SK_F32)
		ICE(b->L->c, "fma modes for float32 only");
	return emit(b, O_FMA, KS, SK_F32, x, y, z, mode);
}

/* ------------------------------------------------------------ comparisons */

Ref mb_cmp(MB *b, CondCode cc, Ref x, Ref y)
{
	return lower_cmp(b->L, cc, b->sk, x, y);
}

Ref mb_lt(MB *b, Ref x, Ref y) { return mb_cmp(b, CC_LT, x, y); }
Ref mb_le(MB *b, Ref x, Ref y) { return mb_cmp(b, CC_LE, x, y); }
Ref mb_gt(MB *b, Ref x, Ref y) { return mb_cmp(b, CC_GT, x, y); }
Ref mb_ge(MB *b, Ref x, Ref y) { return mb_cmp(b, CC_GE, x, y); }
Ref mb_eq(MB *b, Ref x, Ref y) { return mb_cmp(b, CC_EQ, x, y); }

Ref mb_isnan(MB *b, Ref x)
{
	return mb_cmp(b, CC_NE, x, x);
}

Ref mb_anynan(MB *b, Ref x, Ref y)
{
	Ref xnan = mb_isnan(b, x);
	Ref ynan = mb_isnan(b, y);
	return mb_or(b, xnan, ynan);
}

Ref mb_isinf(MB *b, Ref x)
{
	return mb_eq(b, mb_abs(b, x), mb_f(b, HUGE_VAL));
}

Ref mb_isfinite(MB *b, Ref x)
{
	return mb_lt(b, mb_abs(b, x), mb_f(b, HUGE_VAL));
}

Ref mb_sel(MB *b, Ref c, Ref x, Ref y)
{
	return lower_sel(b->L, b->k, c, x, y);
}

Ref mb_and(MB *b, Ref p, Ref q)
{
	return emit(b, O_AND, KB, SK_BOOL, p, q, REF_NONE, 0);
}

Ref mb_or(MB *b, Ref p, Ref q)
{
	return emit(b, O_OR, KB, SK_BOOL, p, q, REF_NONE, 0);
}

Ref mb_not(MB *b, Ref p)
{
	return lower_not(b->L, p);
}

/* --------------------------------------------------------------- integers */

Ref mb_iop(MB *b, Opcode op, Cls k, Ref x, Ref y)
{
	return emit(b, op, k, int_sk(k, 1), x, y, REF_NONE, 0);
}

Ref mb_uop(MB *b, Opcode op, Cls k, Ref x, Ref y)
{
	return emit(b, op, k, int_sk(k, 0), x, y, REF_NONE, 0);
}

Ref mb_icmp(MB *b, CondCode cc, Cls k, Ref x, Ref y)
{
	return lower_cmp(b->L, cc, int_sk(k, 1), x, y);
}

Ref mb_ucmp(MB *b, CondCode cc, Cls k, Ref x, Ref y)
{
	return lower_cmp(b->L, cc, int_sk(k, 0), x, y);
}

Ref mb_isel(MB *b, Cls k, Ref c, Ref x, Ref y)
{
	return lower_sel(b->L, k, c, x, y);
}

Ref mb_cvt(MB *b, Ref x, ScalarKind from, ScalarKind to)
{
	return lower_cvt(b->L, x, from, to);
}

/* ------------------------------------------------------------------- bits */

Ref mb_bits(MB *b, Ref x)
{
	return emit(b, O_BITS, b->ik, int_sk(b->ik, 0), x, REF_NONE, REF_NONE, 0);
}

Ref mb_float(MB *b, Ref i)
{
	return emit(b, O_BITS, b->k, b->sk, i, REF_NONE, REF_NONE, 0);
}

Ref mb_from_words(MB *b, Ref hi, Ref lo)
{
	Ref h = lower_cvt(b->L, hi, SK_U32, SK_U64);
	Ref l = lower_cvt(b->L, lo, SK_U32, SK_U64);
	h = emit(b, O_SHL, KL, SK_U64, h, ir_con_int(b->L->f, KL, 32), REF_NONE, 0);
	Ref u = emit(b, O_OR, KL, SK_U64, h, l, REF_NONE, 0);
	return emit(b, O_BITS, KD, SK_F64, u, REF_NONE, REF_NONE, 0);
}

Ref mb_hiword(MB *b, Ref x)
{
	Ref u = emit(b, O_BITS, KL, SK_U64, x, REF_NONE, REF_NONE, 0);
	u = emit(b, O_SHR, KL, SK_U64, u, ir_con_int(b->L->f, KL, 32), REF_NONE, 0);
	return lower_cvt(b->L, u, SK_U64, SK_I32);
}

Ref mb_loword(MB *b, Ref x)
{
	Ref u = emit(b, O_BITS, KL, SK_U64, x, REF_NONE, REF_NONE, 0);
	return lower_cvt(b->L, u, SK_U64, SK_I32);
}

/*
 * kf = rint(x * y) for |x * y| below 2^22 (float32) or 2^51, by adding
 * 1.5 * 2^23 (2^52) inside an fma: the sum rounds the exact product to an
 * integer once, and that integer sits in the low bits of the sum.  *kraw
 * gets those bits as an int32: for float64 the integer itself (two's
 * complement), for float32 the integer plus 0x4b400000, whose low 9 bits
 * are zero, so (*kraw << 23) is the integer times 2^23.  Two additions
 * instead of a rounding and a conversion, which are slow on the GPU.
 */
Ref mb_round_magic(MB *b, Ref x, Ref y, Ref *kf, Ref *kraw)
{
	Ref m = mb_f(b, b->sk == SK_F64 ? 0x1.8p52 : 0x1.8p23);
	Ref s = mb_fma(b, x, y, m);
	*kf = mb_sub(b, s, m);
	*kraw = b->sk == SK_F64 ? mb_loword(b, s) : mb_bits(b, s);
	return s;
}

Ref mb_approx(MB *b, ApproxFn fn, Ref x)
{
	return lower_emit(b->L, O_APPROX, KS, SK_F32, x, REF_NONE, REF_NONE, fn);
}

Ref mb_toint(MB *b, Ref x)
{
	return lower_cvt(b->L, x, b->sk, SK_I32);
}

Ref mb_fromint(MB *b, Ref i)
{
	return lower_cvt(b->L, i, SK_I32, b->sk);
}

/* 2^e as a float of b's precision; e (int32) must be in the normal range */
Ref mb_pow2(MB *b, Ref e)
{
	if (b->sk == SK_F64) {
		Ref t = mb_iop(b, O_ADD, KW, e, mb_i(b, KW, 1023));
		Ref hi = mb_iop(b, O_SHL, KW, t, mb_i(b, KW, 20));
		return mb_from_words(b, hi, mb_i(b, KW, 0));
	}
	Ref t = mb_iop(b, O_ADD, KW, e, mb_i(b, KW, 127));
	t = mb_iop(b, O_SHL, KW, t, mb_i(b, KW, 23));
	return mb_float(b, t);
}

Ref mb_signbit(MB *b, Ref x)
{
	return mb_icmp(b, CC_LT, b->ik, mb_bits(b, x), mb_i(b, b->ik, 0));
}

static Ref sign_mask(MB *b)
{
	return b->sk == SK_F64 ? mb_i(b, KL, (int64_t)0x8000000000000000ull) : mb_i(b, KW, (int32_t)0x80000000u);
}

Ref mb_copysign(MB *b, Ref x, Ref y)
{
	Ref m = sign_mask(b);
	Ref xb = mb_bits(b, x);
	Ref nm = mb_iop(b, O_NOT, b->ik, m, REF_NONE);
	Ref xa = mb_iop(b, O_AND, b->ik, xb, nm);
	Ref ys = mb_iop(b, O_AND, b->ik, mb_bits(b, y), m);
	return mb_float(b, mb_iop(b, O_OR, b->ik, xa, ys));
}

Ref mb_xorsign(MB *b, Ref x, Ref s)
{
	Ref m = mb_isel(b, b->ik, s, sign_mask(b), mb_i(b, b->ik, 0));
	return mb_float(b, mb_iop(b, O_XOR, b->ik, mb_bits(b, x), m));
}

/*
 * x * 2^e with one rounding for any int32 e: e is clamped to a range
 * beyond which the result is 0 or infinity anyway, and split into two
 * factors 2^a * 2^c, each a normal number, chosen so that the first
 * product is exact (x's exponent is brought into [-1, 1] of 0 by frexp
 * first) and only the second one rounds.
 */
Ref mb_scale(MB *b, Ref x, Ref e)
{
	int d = b->sk == SK_F64;
	int emin = d ? -1022 : -126, emax = d ? 1023 : 127, mant = d ? 53 : 24;
	/* x = m * 2^ex, m in [0.5, 1) */
	Ref ex;
	Ref m = math_frexp(b, x, &ex);
	Ref t = mb_iop(b, O_ADD, KW, e, ex);
	t = mb_iop(b, O_MAX, KW, t, mb_i(b, KW, emin - mant - 4));
	t = mb_iop(b, O_MIN, KW, t, mb_i(b, KW, 2 * emax + 2));
	/* t >= emin: a = min(t, emax), c = t - a (0 .. emax + 2); else a = t + 2 mant, c = -2 mant */
	Ref low = mb_icmp(b, CC_LT, KW, t, mb_i(b, KW, emin));
	Ref a_low = mb_iop(b, O_ADD, KW, t, mb_i(b, KW, 2 * mant));
	Ref a_norm = mb_iop(b, O_MIN, KW, t, mb_i(b, KW, emax));
	Ref a = mb_isel(b, KW, low, a_low, a_norm);
	Ref c = mb_iop(b, O_SUB, KW, t, a);
	c = mb_iop(b, O_MIN, KW, c, mb_i(b, KW, emax));
	Ref y = mb_mul(b, m, mb_pow2(b, a));
	y = mb_mul(b, y, mb_pow2(b, c));
	/* frexp leaves 0, inf and NaN alone; so does the scaling */
	Ref zero = mb_eq(b, x, mb_f(b, 0));
	Ref nonfinite = mb_not(b, mb_isfinite(b, x));
	Ref special = mb_or(b, zero, nonfinite);
	return mb_sel(b, special, x, y);
}

/* ------------------------------------------------------------ polynomials */

Ref mb_horner(MB *b, Ref x, const double *c, int n)
{
	Ref p = mb_f(b, c[n - 1]);
	for (int i = n - 2; i >= 0; i--)
		p = mb_fma(b, p, x, mb_f(b, c[i]));
	return p;
}

Ref mb_horner_sel(MB *b, Ref x, Ref pick, const double *c1, const double *c0, int n)
{
	Ref p = mb_sel(b, pick, mb_f(b, c1[n - 1]), mb_f(b, c0[n - 1]));
	for (int i = n - 2; i >= 0; i--)
		p = mb_fma(b, p, x, mb_sel(b, pick, mb_f(b, c1[i]), mb_f(b, c0[i])));
	return p;
}

/* ------------------------------------------------------------ exact pairs */

DD mb_dd(Ref hi, Ref lo)
{
	DD r = {hi, lo};
	return r;
}

DD mb_two_sum(MB *b, Ref x, Ref y)
{
	Ref s = mb_add(b, x, y);
	Ref bb = mb_sub(b, s, x);
	Ref a = mb_sub(b, s, bb);
	Ref da = mb_sub(b, x, a);
	Ref db = mb_sub(b, y, bb);
	Ref e = mb_add(b, da, db);
	return mb_dd(s, e);
}

DD mb_fast_two_sum(MB *b, Ref x, Ref y)
{
	Ref s = mb_add(b, x, y);
	Ref e = mb_sub(b, y, mb_sub(b, s, x));
	return mb_dd(s, e);
}

DD mb_two_prod(MB *b, Ref x, Ref y)
{
	Ref p = mb_mul(b, x, y);
	Ref e = mb_fma(b, x, y, mb_neg(b, p));
	return mb_dd(p, e);
}

DD mb_dd_add(MB *b, DD x, DD y)
{
	DD s = mb_two_sum(b, x.hi, y.hi);
	Ref lo = mb_add(b, s.lo, mb_add(b, x.lo, y.lo));
	return mb_fast_two_sum(b, s.hi, lo);
}

DD mb_dd_mul(MB *b, DD x, DD y)
{
	DD p = mb_two_prod(b, x.hi, y.hi);
	Ref t = mb_fma(b, x.hi, y.lo, mb_mul(b, x.lo, y.hi));
	return mb_fast_two_sum(b, p.hi, mb_add(b, p.lo, t));
}

DD mb_dd_mul_d(MB *b, DD x, Ref y)
{
	DD p = mb_two_prod(b, x.hi, y);
	return mb_fast_two_sum(b, p.hi, mb_fma(b, x.lo, y, p.lo));
}

/* ------------------------------------------------------------ control flow */

static Type *cls_type(Cls k)
{
	switch (k) {
	case KB: return ty_scalar(SK_BOOL);
	case KW: return ty_scalar(SK_I32);
	case KL: return ty_scalar(SK_I64);
	case KS: return ty_scalar(SK_F32);
	default: return ty_scalar(SK_F64);
	}
}

/* A variable's slot with its class in the low bits: slot * 8 + class. */
int mb_var(MB *b, Cls k, const char *name)
{
	return lower_new_slots(b->L, cls_type(k), name ? name : "math") * 8 + (int)k;
}

void mb_set(MB *b, int var, Ref v)
{
	Cls k = (Cls)(var & 7);
	Type *t = cls_type(k);
	lower_write(b->L, var >> 3, t, lower_scalar(t, v));
}

Ref mb_get(MB *b, int var)
{
	Type *t = cls_type((Cls)(var & 7));
	return lower_read(b->L, var >> 3, t).r;
}

void mb_if(MB *b, MIf *s, Ref cond)
{
	Lower *L = b->L;
	s->then = lower_new_blk(L);
	s->els = lower_new_blk(L);
	s->join = lower_new_blk(L);
	lower_branch(L, cond, s->then, s->els);
	lower_seal(L, s->then);
	lower_seal(L, s->els);
	lower_enter(L, s->then);
}

void mb_else(MB *b, MIf *s)
{
	lower_jump(b->L, s->join);
	lower_enter(b->L, s->els);
	s->els = NULL;
}

void mb_endif(MB *b, MIf *s)
{
	Lower *L = b->L;
	lower_jump(L, s->join);
	if (s->els) {
		lower_enter(L, s->els);
		lower_jump(L, s->join);
	}
	lower_seal(L, s->join);
	lower_enter(L, s->join);
}

/* while (cond) body: mb_while opens the loop's head, where the test is
 * built; mb_do branches on it into the body; mb_endwhile closes the body
 * and continues after the loop.  Variables set in the body (mb_set) are
 * read at the head as one value through the head's phis. */
void mb_while(MB *b, MLoop *lp)
{
	Lower *L = b->L;
	lp->head = lower_new_blk(L);
	lower_jump(L, lp->head);
	lower_enter(L, lp->head);
}

void mb_do(MB *b, MLoop *lp, Ref cond)
{
	Lower *L = b->L;
	Blk *body = lower_new_blk(L);
	lp->exit = lower_new_blk(L);
	lower_branch(L, cond, body, lp->exit);
	lower_seal(L, body);
	lower_enter(L, body);
}

void mb_endwhile(MB *b, MLoop *lp)
{
	Lower *L = b->L;
	lower_jump(L, lp->head);
	lower_seal(L, lp->head);
	lower_seal(L, lp->exit);
	lower_enter(L, lp->exit);
}

/* ------------------------------------------------------------- float32 */

Ref mb_via_f64(MB *b, Ref (*fn)(MB *, Ref), Ref x)
{
	if (b->sk == SK_F64)
		return fn(b, x);
	MB d = mb_new(b->L, SK_F64);
	d.fast = b->fast;
	Ref r = fn(&d, lower_cvt(b->L, x, SK_F32, SK_F64));
	return lower_cvt(b->L, r, SK_F64, SK_F32);
}

Ref mb_via_f64_2(MB *b, Ref (*fn)(MB *, Ref, Ref), Ref x, Ref y)
{
	if (b->sk == SK_F64)
		return fn(b, x, y);
	MB d = mb_new(b->L, SK_F64);
	d.fast = b->fast;
	Ref xd = lower_cvt(b->L, x, SK_F32, SK_F64);
	Ref yd = lower_cvt(b->L, y, SK_F32, SK_F64);
	Ref r = fn(&d, xd, yd);
	return lower_cvt(b->L, r, SK_F64, SK_F32);
}

/* ---------------------------------------------------------------- tables */

static Ref table(MB *b, const char *name, const void *data, int bytes, int global)
{
	Fn *f = b->L->f;
	int idx = -1;
	for (int i = 0; i < f->narrays; i++)
		if (f->arrays[i].space == SP_CONST && f->arrays[i].name && strcmp(f->arrays[i].name, name) == 0)
			idx = i;
	if (idx < 0) {
		SArray sa;
		memset(&sa, 0, sizeof sa);
		sa.space = SP_CONST;
		sa.size = bytes;
		sa.align = global ? 16 : 8;
		sa.init = data;
		sa.name = name;
		sa.global = global;
		VEC_PUSH(b->L->c, f->arrays, f->narrays, f->caparrays, sa);
		idx = f->narrays - 1;
	}
	return emit(b, O_ADDR, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, idx);
}

Ref mb_table(MB *b, const char *name, const void *data, int bytes)
{
	return table(b, name, data, bytes, 0);
}

Ref mb_gtable(MB *b, const char *name, const void *data, int bytes)
{
	return table(b, name, data, bytes, 1);
}

Ref mb_load(MB *b, Ref addr, ScalarKind sk)
{
	return emit(b, O_LOAD, ir_cls_of_sk(sk), sk, addr, REF_NONE, REF_NONE, SP_CONST);
}

Ref mb_gload(MB *b, Ref addr, ScalarKind sk)
{
	return emit(b, O_LOAD, ir_cls_of_sk(sk), sk, addr, REF_NONE, REF_NONE, SP_GLOBAL);
}

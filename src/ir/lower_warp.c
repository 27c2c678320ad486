/*
 * lower_warp.c - calls of the cuda intrinsics that sema_warp.c types:
 * reducing barriers, warp barriers, fences, shuffles, votes, matches,
 * the active mask, and the bit and float intrinsics.
 *
 * Arguments come in parameter order (sema moved keywords into place).
 * Masks, lanes and offsets are converted to int32 first, as Numba casts
 * them to i32 (an int64 0xffffffff keeps its low 32 bits).  A predicate is
 * "!= 0" of its value, except that syncthreads_count/and/or take the low
 * 32 bits of an integer first, as Numba's i32 cast does.
 *
 *   shfl_*_sync     one O_SHFL per 32 bits: a 64-bit value is shuffled as
 *                   its low and high halves; floats travel as their bits.
 *                   The c operand is Numba's: 0x1f (idx, down, xor), 0 (up).
 *   match_*_sync    O_MATCH on the value's bits (w or l); match_all's
 *                   predicate is "mask != 0" (the mask is 0 exactly when
 *                   the lanes disagree, since it holds the calling lane).
 *   lanemask_lt     (1 << laneid) - 1.
 *   popc, clz       8- and 16-bit kinds are counted on their own width:
 *                   the operand is zero-extended from it first, and clz
 *                   subtracts the extra leading zeros of the 32-bit count.
 *   ffs             x == 0 ? 0 : popc(x ^ (x - 1)), as uint32.
 *   brev            of the value converted to uint32 or uint64.
 *   cbrt            an IR routine (below), correctly rounded in almost
 *                   every case and within 1 ulp always.
 *   selp            O_SEL.
 *
 * match and nanosleep need compute capability 7.0; compiling them for an
 * older target is an error at the call.
 */
#include <math.h>

#include "lower.h"

static Ref emit(Lower *L, Opcode op, Cls k, ScalarKind ty, Ref a, Ref b, Ref c, int32_t aux)
{
	return lower_emit(L, op, k, ty, a, b, c, aux);
}

static Value arg(Lower *L, Expr *e, int i)
{
	return lower_expr(L, e->call.args[i]);
}

/* The argument as an int32 (class w). */
static Ref arg_w(Lower *L, Expr *e, int i)
{
	return lower_convert(L, arg(L, e, i), ty_scalar(SK_I32), e->call.args[i]->span).r;
}

static Ref arg_pred(Lower *L, Expr *e, int i)
{
	return lower_truth(L, arg(L, e, i), e->call.args[i]->span);
}

static Ref con_w(Lower *L, int64_t v)
{
	return ir_con_int(L->f, KW, (int32_t)(uint32_t)v);
}

static void need_sm70(Lower *L, Expr *e)
{
	int arch = L->c->opt && L->c->opt->arch ? L->c->opt->arch : 90;
	if (arch < 70)
		err_at(L->c, e->span, "it needs a GPU of compute capability 7.0 or newer",
		       "%s() is not available on sm_%d", intrin_name[e->call.intrin], arch);
}

/* ------------------------------------------------------------ warps */

static Ref shfl32(Lower *L, Ref x, Ref lane, Ref mask, int aux)
{
	return emit(L, O_SHFL, KW, SK_U32, x, lane, mask, aux);
}

static Value shuffle(Lower *L, Expr *e, int mode)
{
	static const int clamp[4] = {0x1f, 0, 0x1f, 0x1f};
	Ref mask = arg_w(L, e, 0);
	Value v = arg(L, e, 1);
	Ref lane = arg_w(L, e, 2);
	int aux = mode | clamp[mode] << 8;
	ScalarKind sk = v.ty->sk;
	if (sk == SK_I32 || sk == SK_F32) {
		Ref x = sk == SK_F32 ? emit(L, O_BITS, KW, SK_U32, v.r, REF_NONE, REF_NONE, 0) : v.r;
		Ref r = shfl32(L, x, lane, mask, aux);
		if (sk == SK_F32)
			r = emit(L, O_BITS, KS, SK_F32, r, REF_NONE, REF_NONE, 0);
		return lower_scalar(v.ty, r);
	}
	if (sk != SK_I64 && sk != SK_F64)
		ICE(L->c, "shuffle of a %s", ty_str_of(L->c, v.ty));
	Ref x = sk == SK_F64 ? emit(L, O_BITS, KL, SK_U64, v.r, REF_NONE, REF_NONE, 0) : v.r;
	Ref lo = lower_cvt(L, x, SK_U64, SK_U32);
	Ref hi = emit(L, O_SHR, KL, SK_U64, x, ir_con_int(L->f, KL, 32), REF_NONE, 0);
	hi = lower_cvt(L, hi, SK_U64, SK_U32);
	Ref rlo = lower_cvt(L, shfl32(L, lo, lane, mask, aux), SK_U32, SK_U64);
	Ref rhi = lower_cvt(L, shfl32(L, hi, lane, mask, aux), SK_U32, SK_U64);
	rhi = emit(L, O_SHL, KL, SK_U64, rhi, ir_con_int(L->f, KL, 32), REF_NONE, 0);
	Ref r = emit(L, O_OR, KL, SK_U64, rhi, rlo, REF_NONE, 0);
	if (sk == SK_F64)
		r = emit(L, O_BITS, KD, SK_F64, r, REF_NONE, REF_NONE, 0);
	return lower_scalar(v.ty, r);
}

static Value vote(Lower *L, Expr *e, int mode)
{
	Ref mask = arg_w(L, e, 0);
	Ref p = arg_pred(L, e, 1);
	Ref r = emit(L, O_VOTE, mode == 3 ? KW : KB, SK_BOOL, p, mask, REF_NONE, mode);
	return lower_scalar(e->ty, r);
}

static Value match(Lower *L, Expr *e, int all)
{
	need_sm70(L, e);
	Ref mask = arg_w(L, e, 0);
	Value v = arg(L, e, 1);
	ScalarKind sk = v.ty->sk;
	int wide = scalar_info[sk].size == 8;
	Ref x = v.r;
	if (sk == SK_F32 || sk == SK_F64)
		x = emit(L, O_BITS, wide ? KL : KW, wide ? SK_U64 : SK_U32, x, REF_NONE, REF_NONE, 0);
	Ref m = emit(L, O_MATCH, KW, wide ? SK_U64 : SK_U32, x, mask, REF_NONE, all);
	Type *i32 = ty_scalar(SK_I32);
	if (!all)
		return lower_scalar(i32, m);
	Value t = {.ty = e->ty, .n = 2};
	t.elts = arena_alloc(L->c->arena, sizeof(Value) * 2);
	t.elts[0] = lower_scalar(i32, m);
	t.elts[1] = lower_scalar(ty_scalar(SK_BOOL), lower_cmp(L, CC_NE, SK_U32, m, con_w(L, 0)));
	return t;
}

static Value reducing_barrier(Lower *L, Expr *e, int op)
{
	Value v = arg(L, e, 0);
	Ref p;
	if (v.ty->kind == TY_SCALAR && v.ty->sk == SK_BOOL)
		p = v.r;
	else {
		Ref w = lower_convert(L, v, ty_scalar(SK_I32), e->call.args[0]->span).r;
		p = lower_cmp(L, CC_NE, SK_I32, w, con_w(L, 0));
	}
	return lower_scalar(e->ty, emit(L, O_BARRED, KW, SK_BOOL, p, REF_NONE, REF_NONE, op));
}

/* ------------------------------------------------------------- bits */

/* x of integer kind sk, zero-extended from its width when it is narrower
 * than its class. */
static Ref zext_narrow(Lower *L, Ref x, ScalarKind sk)
{
	int size = scalar_info[sk].size;
	if (size >= 4)
		return x;
	return emit(L, O_AND, KW, SK_U32, x, con_w(L, size == 1 ? 0xff : 0xffff), REF_NONE, 0);
}

static Value popc(Lower *L, Expr *e)
{
	Value v = arg(L, e, 0);
	ScalarKind sk = v.ty->sk;
	Cls k = lower_cls(sk);
	Ref r = emit(L, O_POPC, k, sk, zext_narrow(L, v.r, sk), REF_NONE, REF_NONE, 0);
	return lower_scalar(v.ty, r);
}

static Value clz(Lower *L, Expr *e)
{
	Value v = arg(L, e, 0);
	ScalarKind sk = v.ty->sk;
	Cls k = lower_cls(sk);
	int size = scalar_info[sk].size;
	Ref r = emit(L, O_CLZ, k, sk, zext_narrow(L, v.r, sk), REF_NONE, REF_NONE, 0);
	if (size < 4)
		r = emit(L, O_SUB, KW, SK_U32, r, con_w(L, 32 - 8 * size), REF_NONE, 0);
	return lower_scalar(v.ty, r);
}

static Value ffs(Lower *L, Expr *e)
{
	Value v = arg(L, e, 0);
	ScalarKind sk = v.ty->sk;
	Cls k = lower_cls(sk);
	ScalarKind u = k == KL ? SK_U64 : SK_U32;
	Ref one = ir_con_int(L->f, k, 1), zero = lower_zero(L, k);
	Ref m1 = emit(L, O_SUB, k, u, v.r, one, REF_NONE, 0);
	Ref low = emit(L, O_XOR, k, u, v.r, m1, REF_NONE, 0);
	Ref n = lower_cvt(L, emit(L, O_POPC, k, u, low, REF_NONE, REF_NONE, 0), u, SK_U32);
	Ref z = lower_cmp(L, CC_EQ, u, v.r, zero);
	return lower_scalar(e->ty, lower_sel(L, KW, z, con_w(L, 0), n));
}

static Value brev(Lower *L, Expr *e)
{
	Value v = lower_convert(L, arg(L, e, 0), e->ty, e->call.args[0]->span);
	ScalarKind sk = e->ty->sk;
	return lower_scalar(e->ty, emit(L, O_BREV, lower_cls(sk), sk, v.r, REF_NONE, REF_NONE, 0));
}

/* ------------------------------------------------------------ floats */

static Value fma3(Lower *L, Expr *e)
{
	Ref x[3];
	for (int i = 0; i < 3; i++)
		x[i] = lower_convert(L, arg(L, e, i), e->ty, e->call.args[i]->span).r;
	ScalarKind sk = e->ty->sk;
	return lower_scalar(e->ty, emit(L, O_FMA, lower_cls(sk), sk, x[0], x[1], x[2], 0));
}

static Ref fcon(Lower *L, ScalarKind sk, double d)
{
	return lower_con_float(L, sk, d);
}

static Ref fop(Lower *L, Opcode op, ScalarKind sk, Ref a, Ref b)
{
	return emit(L, op, lower_cls(sk), sk, a, b, REF_NONE, 0);
}

static Ref fma_(Lower *L, ScalarKind sk, Ref a, Ref b, Ref c)
{
	return emit(L, O_FMA, lower_cls(sk), sk, a, b, c, 0);
}

/*
 * cbrt(x) without branches.  Zero, infinities and NaN give x itself.
 * Otherwise a = |x| is scaled into the normal range (subnormals by 2^54
 * or 2^24, undone by 2^-18 or 2^-8 at the end), a first guess comes from
 * dividing the exponent bits by three (Kahan's trick in fdlibm: bits/3 +
 * magic, in integer arithmetic on the value's bits), Newton's iteration
 * r -= (r - a/r^2) / 3 refines it to full precision, and a last step
 * computes the residual res = a - r^3 exactly enough with fma to correct
 * r by res/(3 r^2).  The sign is copied back from x.  Against NumPy's cbrt
 * the result is within 1 ulp, and equal in all but about 0.5% (float64)
 * and 0.05% (float32) of random arguments.
 */
static Value cbrtval(Lower *L, Expr *e)
{
	Type *ty = e->ty;
	ScalarKind sk = ty->sk;
	int dbl = sk == SK_F64;
	Cls k = lower_cls(sk), ik = dbl ? KL : KW;
	ScalarKind isk = dbl ? SK_U64 : SK_U32;
	Ref x = lower_convert(L, arg(L, e, 0), ty, e->call.args[0]->span).r;
	Ref a = emit(L, O_ABS, k, sk, x, REF_NONE, REF_NONE, 0);
	double tiny = dbl ? 0x1p-1022 : 0x1p-126, up = dbl ? 0x1p54 : 0x1p24, down = dbl ? 0x1p-18 : 0x1p-8;
	Ref sub = lower_cmp(L, CC_LT, sk, a, fcon(L, sk, tiny));
	Ref as = lower_sel(L, k, sub, fop(L, O_MUL, sk, a, fcon(L, sk, up)), a);
	Ref post = lower_sel(L, k, sub, fcon(L, sk, down), fcon(L, sk, 1.0));
	/* first guess: bits / 3 + magic (5 or so correct bits) */
	Ref bits = emit(L, O_BITS, ik, isk, as, REF_NONE, REF_NONE, 0);
	Ref third = emit(L, O_DIV, ik, isk, bits, ir_con_int(L->f, ik, 3), REF_NONE, 0);
	int64_t magic = dbl ? (int64_t)0x2A9F789300000000ull : 0x2A5137A0;
	Ref g = emit(L, O_ADD, ik, isk, third, ir_con_int(L->f, ik, magic), REF_NONE, 0);
	Ref r = emit(L, O_BITS, k, sk, g, REF_NONE, REF_NONE, 0);
	int steps = dbl ? 5 : 4;
	for (int i = 0; i < steps; i++) {
		/* r = r - (r - a / (r * r)) / 3 */
		Ref r2 = fop(L, O_MUL, sk, r, r);
		Ref q = fop(L, O_DIV, sk, as, r2);
		Ref d = fop(L, O_SUB, sk, r, q);
		r = emit(L, O_FMA, k, sk, fcon(L, sk, -1.0 / 3.0), d, r, 0);
	}
	/* correction from the residual a - r^3, with r^2 = r2h + r2l exact */
	Ref r2h = fop(L, O_MUL, sk, r, r);
	Ref r2l = fma_(L, sk, r, r, emit(L, O_NEG, k, sk, r2h, REF_NONE, REF_NONE, 0));
	Ref r3h = fop(L, O_MUL, sk, r2h, r);
	Ref r3e = fma_(L, sk, r2h, r, emit(L, O_NEG, k, sk, r3h, REF_NONE, REF_NONE, 0));
	Ref r3l = fma_(L, sk, r2l, r, r3e);
	Ref res = fop(L, O_SUB, sk, fop(L, O_SUB, sk, as, r3h), r3l);
	Ref den = fop(L, O_MUL, sk, fcon(L, sk, 3.0), r2h);
	r = fop(L, O_ADD, sk, r, fop(L, O_DIV, sk, res, den));
	r = fop(L, O_MUL, sk, r, post);
	/* sign of x; zero, inf and nan pass through */
	Ref neg = lower_cmp(L, CC_LT, sk, x, fcon(L, sk, 0.0));
	r = lower_sel(L, k, neg, emit(L, O_NEG, k, sk, r, REF_NONE, REF_NONE, 0), r);
	Ref inf = fcon(L, sk, INFINITY);
	Ref special = lower_cmp(L, CC_EQ, sk, a, fcon(L, sk, 0.0));
	special = emit(L, O_OR, KB, SK_BOOL, special, lower_cmp(L, CC_EQ, sk, a, inf), REF_NONE, 0);
	special = emit(L, O_OR, KB, SK_BOOL, special, lower_cmp(L, CC_NE, sk, x, x), REF_NONE, 0);
	return lower_scalar(ty, lower_sel(L, k, special, x, r));
}

static Value selp(Lower *L, Expr *e)
{
	Ref p = arg_pred(L, e, 0);
	Ref a = lower_convert(L, arg(L, e, 1), e->ty, e->call.args[1]->span).r;
	Ref b = lower_convert(L, arg(L, e, 2), e->ty, e->call.args[2]->span).r;
	ScalarKind sk = e->ty->sk;
	return lower_scalar(e->ty, emit(L, O_SEL, lower_cls(sk), sk, p, a, b, 0));
}

/* ----------------------------------------------------------- entry */

Value lower_warp_intrin(Lower *L, Expr *e, int in)
{
	switch (in) {
	case IN_SYNCTHREADS_COUNT: return reducing_barrier(L, e, 0);
	case IN_SYNCTHREADS_AND: return reducing_barrier(L, e, 1);
	case IN_SYNCTHREADS_OR: return reducing_barrier(L, e, 2);
	case IN_SYNCWARP: {
		Ref mask = e->call.nargs ? arg_w(L, e, 0) : con_w(L, 0xffffffff);
		emit(L, O_SYNCWARP, KW, SK_U32, mask, REF_NONE, REF_NONE, 0);
		return lower_none(e->ty);
	}
	case IN_THREADFENCE:
	case IN_THREADFENCE_BLOCK:
	case IN_THREADFENCE_SYSTEM: {
		int level = in == IN_THREADFENCE ? 1 : in == IN_THREADFENCE_BLOCK ? 0 : 2;
		emit(L, O_MEMBAR, KX, SK_I32, REF_NONE, REF_NONE, REF_NONE, level);
		return lower_none(e->ty);
	}
	case IN_SHFL_SYNC: return shuffle(L, e, 0);
	case IN_SHFL_UP_SYNC: return shuffle(L, e, 1);
	case IN_SHFL_DOWN_SYNC: return shuffle(L, e, 2);
	case IN_SHFL_XOR_SYNC: return shuffle(L, e, 3);
	case IN_ALL_SYNC: return vote(L, e, 0);
	case IN_ANY_SYNC: return vote(L, e, 1);
	case IN_EQ_SYNC: return vote(L, e, 2);
	case IN_BALLOT_SYNC: return vote(L, e, 3);
	case IN_MATCH_ANY_SYNC: return match(L, e, 0);
	case IN_MATCH_ALL_SYNC: return match(L, e, 1);
	case IN_ACTIVEMASK:
		return lower_scalar(e->ty, emit(L, O_ACTIVEMASK, KW, SK_U32, REF_NONE, REF_NONE, REF_NONE, 0));
	case IN_LANEMASK_LT: {
		Ref lane = lower_sreg(L, SR_LANEID).r;
		Ref bit = emit(L, O_SHL, KW, SK_U32, con_w(L, 1), lane, REF_NONE, 0);
		return lower_scalar(e->ty, emit(L, O_SUB, KW, SK_U32, bit, con_w(L, 1), REF_NONE, 0));
	}
	case IN_POPC: return popc(L, e);
	case IN_CLZ: return clz(L, e);
	case IN_FFS: return ffs(L, e);
	case IN_BREV: return brev(L, e);
	case IN_FMA: return fma3(L, e);
	case IN_CBRT: return cbrtval(L, e);
	case IN_SELP: return selp(L, e);
	case IN_NANOSLEEP: {
		need_sm70(L, e);
		Ref ns = lower_convert(L, arg(L, e, 0), ty_scalar(SK_U32), e->call.args[0]->span).r;
		emit(L, O_NANOSLEEP, KW, SK_U32, ns, REF_NONE, REF_NONE, 0);
		return lower_none(e->ty);
	}
	default:
		ICE(L->c, "%s is not a warp or bit intrinsic", intrin_name[in]);
	}
}

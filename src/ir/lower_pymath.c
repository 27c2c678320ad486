/*
 * lower_pymath.c - Python's float and complex arithmetic, built exactly
 * from the IR's primitive operations so the GPU and the simulator give
 * the same bits as CPython (and Numba, which copies CPython's code).
 *
 *   fmod           exact, on the integer mantissas (musl's algorithm): the
 *                  dividend's mantissa is reduced by the divisor's one bit
 *                  at a time, as long division does, so no rounding ever
 *                  happens.  Subnormal operands are first scaled by 2**54
 *                  (exact), which spares the normalising loops.  The loop
 *                  runs once per binary order of magnitude between the
 *                  operands (at most about 2100 times).  float32 operands
 *                  are reduced in float64: the remainder is exact in both.
 *   // and %       CPython's float_divmod: mod = fmod(a, b), div = (a - mod)
 *                  / b, the remainder moved to the divisor's sign, the
 *                  quotient snapped to the nearest integer; a zero divisor
 *                  gives a / b and NaN (NumPy's error model, as Numba).
 *   round(x, n)    correctly rounded, as CPython's (which goes through an
 *                  exact decimal conversion): y = x * 10**n with its exact
 *                  error (an fma), rounded half to even on the exact value,
 *                  then divided back, one IEEE rounding; |n| <= 22 keeps
 *                  10**n exact.  Beyond that Numba's scaled approximation.
 *   hypot          abs() of a complex: math.hypot's (src/math/pow.c), the
 *                  parts scaled by a power of two, one fma and a sqrt.
 *   complex /      CPython's _Py_c_quot (Smith's method): the larger part
 *                  of the divisor is divided out first (its operands
 *                  selected before the three divisions); a real divisor
 *                  takes two divisions, with the same bits.  A zero
 *                  divisor gives NaN parts.
 *   complex ** n   for a constant integer n: CPython's c_powi (square and
 *                  multiply, 1 / x**-n for negative n).
 *
 * Branches are avoided where both sides are cheap: both are computed and
 * one is selected; only the two fmod loops make blocks.
 */
#include <math.h>
#include <string.h>

#include "../math/mathlib.h"
#include "lower.h"

static Ref op2(Lower *L, Opcode op, ScalarKind sk, Ref a, Ref b)
{
	return lower_emit(L, op, lower_cls(sk), sk, a, b, REF_NONE, 0);
}

static Ref op1(Lower *L, Opcode op, ScalarKind sk, Ref a)
{
	return lower_emit(L, op, lower_cls(sk), sk, a, REF_NONE, REF_NONE, 0);
}

static Ref lcon(Lower *L, uint64_t v)
{
	return ir_con_int(L->f, KL, (int64_t)v);
}

static Ref land(Lower *L, Ref a, Ref b)
{
	return lower_emit(L, O_AND, KB, SK_BOOL, a, b, REF_NONE, 0);
}

static Ref lor(Lower *L, Ref a, Ref b)
{
	return lower_emit(L, O_OR, KB, SK_BOOL, a, b, REF_NONE, 0);
}

static Ref fcon(Lower *L, ScalarKind sk, double d)
{
	return lower_con_float(L, sk, d);
}

/* The bits of a float (KS -> KW, KD -> KL) and back. */
static Ref to_bits(Lower *L, ScalarKind sk, Ref x)
{
	return lower_emit(L, O_BITS, sk == SK_F32 ? KW : KL, sk == SK_F32 ? SK_U32 : SK_U64, x, REF_NONE,
	                  REF_NONE, 0);
}

static Ref from_bits(Lower *L, ScalarKind sk, Ref x)
{
	return lower_emit(L, O_BITS, lower_cls(sk), sk, x, REF_NONE, REF_NONE, 0);
}

/* copysign(mag, sgn) for floats of kind sk. */
static Ref copysign_f(Lower *L, ScalarKind sk, Ref mag, Ref sgn)
{
	int w = sk == SK_F32;
	ScalarKind ik = w ? SK_U32 : SK_U64;
	Cls k = w ? KW : KL;
	Ref sign = w ? ir_con_int(L->f, KW, (int32_t)0x80000000u) : lcon(L, 1ull << 63);
	Ref rest = w ? ir_con_int(L->f, KW, 0x7fffffff) : lcon(L, ~(1ull << 63));
	Ref m = lower_emit(L, O_AND, k, ik, to_bits(L, sk, mag), rest, REF_NONE, 0);
	Ref s = lower_emit(L, O_AND, k, ik, to_bits(L, sk, sgn), sign, REF_NONE, 0);
	return from_bits(L, sk, lower_emit(L, O_OR, k, ik, m, s, REF_NONE, 0));
}

/* ---------------------------------------------------------------- fmod */

/* A loop `while cond(slots) { body }` is built by the callers with these. */
typedef struct Loop2 {
	Blk *head, *body, *exit;
} Loop2;

static void loop_begin(Lower *L, Loop2 *lp)
{
	lp->head = lower_new_blk(L);
	lp->body = lower_new_blk(L);
	lp->exit = lower_new_blk(L);
	lower_jump(L, lp->head);
	lower_enter(L, lp->head);
}

static void loop_test(Lower *L, Loop2 *lp, Ref cond)
{
	lower_branch(L, cond, lp->body, lp->exit);
	lower_seal(L, lp->body);
	lower_enter(L, lp->body);
}

static void loop_end(Lower *L, Loop2 *lp)
{
	lower_jump(L, lp->head);
	lower_seal(L, lp->head);
	lower_seal(L, lp->exit);
	lower_enter(L, lp->exit);
}

static Ref shr_u(Lower *L, Ref a, Ref n)
{
	return lower_emit(L, O_SHR, KL, SK_U64, a, n, REF_NONE, 0);
}

static Ref and64(Lower *L, Ref a, Ref b)
{
	return lower_emit(L, O_AND, KL, SK_U64, a, b, REF_NONE, 0);
}

static Ref or64(Lower *L, Ref a, Ref b)
{
	return lower_emit(L, O_OR, KL, SK_U64, a, b, REF_NONE, 0);
}

/* Exponent field and mantissa with its hidden bit of a finite nonzero
 * double x (bits ux, without sign: ax); a subnormal one is scaled by
 * 2**54 first, which the exponent accounts for. */
static void unpack64(Lower *L, Ref x, Ref ax, Ref *e, Ref *m)
{
	Ref mant = lcon(L, (1ull << 52) - 1), hid = lcon(L, 1ull << 52), c52 = lcon(L, 52);
	Ref sub = lower_cmp(L, CC_EQ, SK_U64, shr_u(L, ax, c52), lcon(L, 0));
	Ref xs = op2(L, O_MUL, SK_F64, x, fcon(L, SK_F64, 0x1p54));
	Ref as = and64(L, to_bits(L, SK_F64, xs), lcon(L, ~(1ull << 63)));
	Ref es = sub64(L, shr_u(L, as, c52), lcon(L, 54));
	*e = lower_sel(L, KL, sub, es, shr_u(L, ax, c52));
	*m = or64(L, and64(L, lower_sel(L, KL, sub, as, ax), mant), hid);
}

/* fmod(x, y) of two doubles, exactly (C's fmod). */
static Ref fmod64(Lower *L, Ref x, Ref y)
{
	Type *i64 = ty_scalar(SK_I64);
	Ref signbit = lcon(L, 1ull << 63), absmask = lcon(L, ~(1ull << 63)), inf = lcon(L, 0x7ff0000000000000ull);
	Ref ux = to_bits(L, SK_F64, x), uy = to_bits(L, SK_F64, y);
	Ref ax = and64(L, ux, absmask), ay = and64(L, uy, absmask), sx = and64(L, ux, signbit);
	Ref yzero = lower_cmp(L, CC_EQ, SK_U64, ay, lcon(L, 0)), ynan = lower_cmp(L, CC_GT, SK_U64, ay, inf);
	Ref bad = lor(L, yzero, ynan);
	bad = lor(L, bad, lower_cmp(L, CC_GE, SK_U64, ax, inf));
	Ref small = lower_cmp(L, CC_LE, SK_U64, ax, ay);
	Ref same = lower_cmp(L, CC_EQ, SK_U64, ax, ay);
	Ref ex, mx, ey, my;
	unpack64(L, x, ax, &ex, &mx);
	unpack64(L, y, ay, &ey, &my);
	/* nothing to reduce: no iteration */
	ex = lower_sel(L, KL, lor(L, bad, small), ey, ex);

	int es = lower_new_slots(L, i64, "fmod_e"), ms = lower_new_slots(L, i64, "fmod_m");
	lower_write(L, es, i64, lower_scalar(i64, ex));
	lower_write(L, ms, i64, lower_scalar(i64, mx));
	Loop2 lp;
	loop_begin(L, &lp);
	Ref e1 = lower_read(L, es, i64).r;
	loop_test(L, &lp, lower_cmp(L, CC_GT, SK_I64, e1, ey));
	{
		Ref m1 = lower_read(L, ms, i64).r;
		Ref d = sub64(L, m1, my);
		Ref ge = lower_cmp(L, CC_GE, SK_I64, d, lcon(L, 0));
		Ref m2 = lower_sel(L, KL, ge, d, m1);
		lower_write(L, ms, i64, lower_scalar(i64, lower_emit(L, O_SHL, KL, SK_U64, m2, lcon(L, 1), REF_NONE, 0)));
		lower_write(L, es, i64, lower_scalar(i64, sub64(L, e1, lcon(L, 1))));
	}
	loop_end(L, &lp);
	Ref m3 = lower_read(L, ms, i64).r;
	Ref d = sub64(L, m3, my);
	m3 = lower_sel(L, KL, lower_cmp(L, CC_GE, SK_I64, d, lcon(L, 0)), d, m3);
	lower_write(L, ms, i64, lower_scalar(i64, m3));
	/* normalise: the hidden bit back at bit 52 */
	Loop2 nl;
	loop_begin(L, &nl);
	Ref m4 = lower_read(L, ms, i64).r;
	Ref low = lower_cmp(L, CC_EQ, SK_U64, shr_u(L, m4, lcon(L, 52)), lcon(L, 0));
	loop_test(L, &nl, land(L, low, lower_cmp(L, CC_NE, SK_U64, m4, lcon(L, 0))));
	{
		Ref m5 = lower_read(L, ms, i64).r, e5 = lower_read(L, es, i64).r;
		lower_write(L, ms, i64, lower_scalar(i64, lower_emit(L, O_SHL, KL, SK_U64, m5, lcon(L, 1), REF_NONE, 0)));
		lower_write(L, es, i64, lower_scalar(i64, sub64(L, e5, lcon(L, 1))));
	}
	loop_end(L, &nl);
	Ref m = lower_read(L, ms, i64).r, e = lower_read(L, es, i64).r;
	Ref mbits = sub64(L, m, lcon(L, 1ull << 52));
	Ref ebits = lower_emit(L, O_SHL, KL, SK_U64, e, lcon(L, 52), REF_NONE, 0);
	Ref normal = or64(L, mbits, ebits);
	Ref subn = shr_u(L, m, sub64(L, lcon(L, 1), e));
	Ref mag = lower_sel(L, KL, lower_cmp(L, CC_GT, SK_I64, e, lcon(L, 0)), normal, subn);
	mag = lower_sel(L, KL, lower_cmp(L, CC_EQ, SK_U64, m, lcon(L, 0)), lcon(L, 0), mag);
	Ref r = from_bits(L, SK_F64, or64(L, mag, sx));
	/* the special cases, as C's fmod */
	Ref xy = op2(L, O_MUL, SK_F64, x, y);
	Ref nan = op2(L, O_DIV, SK_F64, xy, xy);
	Ref zero = from_bits(L, SK_F64, sx);
	r = lower_sel(L, KD, small, lower_sel(L, KD, same, zero, x), r);
	return lower_sel(L, KD, bad, nan, r);
}

Ref lower_fmod(Lower *L, ScalarKind sk, Ref a, Ref b)
{
	if (sk == SK_F64)
		return fmod64(L, a, b);
	Ref a64 = lower_cvt(L, a, sk, SK_F64), b64 = lower_cvt(L, b, sk, SK_F64);
	Ref r = fmod64(L, a64, b64);
	return lower_cvt(L, r, SK_F64, sk);
}

/* ------------------------------------------------------ float divmod */

void lower_float_divmod(Lower *L, ScalarKind sk, Ref a, Ref b, Ref *q, Ref *r)
{
	Cls k = lower_cls(sk);
	Ref zero = fcon(L, sk, 0.0), one = fcon(L, sk, 1.0);
	Ref mod = lower_fmod(L, sk, a, b);
	Ref div = op2(L, O_DIV, sk, op2(L, O_SUB, sk, a, mod), b);
	Ref modnz = lower_cmp(L, CC_NE, sk, mod, zero);
	Ref bneg = lower_cmp(L, CC_LT, sk, b, zero), mneg = lower_cmp(L, CC_LT, sk, mod, zero);
	Ref fix = land(L, modnz, lower_emit(L, O_XOR, KB, SK_BOOL, bneg, mneg, REF_NONE, 0));
	Ref bz = lower_cmp(L, CC_EQ, sk, b, zero);
	Ref quot = op2(L, O_DIV, sk, a, b);
	if (r) {
		Ref m1 = lower_sel(L, k, fix, op2(L, O_ADD, sk, mod, b), mod);
		Ref m2 = lower_sel(L, k, modnz, m1, copysign_f(L, sk, zero, b));
		*r = lower_sel(L, k, bz, fcon(L, sk, NAN), m2);
	}
	if (q) {
		Ref d1 = lower_sel(L, k, fix, op2(L, O_SUB, sk, div, one), div);
		Ref fl = op1(L, O_FLOOR, sk, d1);
		Ref up = lower_cmp(L, CC_GT, sk, op2(L, O_SUB, sk, d1, fl), fcon(L, sk, 0.5));
		Ref fd = lower_sel(L, k, up, op2(L, O_ADD, sk, fl, one), fl);
		Ref divnz = lower_cmp(L, CC_NE, sk, d1, zero);
		Ref fd2 = lower_sel(L, k, divnz, fd, copysign_f(L, sk, zero, quot));
		*q = lower_sel(L, k, bz, quot, fd2);
	}
}

/* ---------------------------------------------------------- round */

/* Round half to even of the exact value y + s/|s| * tiny, where s is
 * (y - floor(y) - 0.5) combined with the exact error: its sign says on
 * which side of the half the exact value lies (0: exactly on it). */
static Ref round_even(Lower *L, Ref fl, Ref s)
{
	ScalarKind sk = SK_F64;
	Ref one = fcon(L, sk, 1.0), zero = fcon(L, sk, 0.0);
	Ref half = op2(L, O_MUL, sk, fl, fcon(L, sk, 0.5));
	Ref odd = lower_cmp(L, CC_NE, sk, op2(L, O_SUB, sk, half, op1(L, O_FLOOR, sk, half)), zero);
	Ref above = lower_cmp(L, CC_GT, sk, s, zero);
	Ref tie = lower_cmp(L, CC_EQ, sk, s, zero);
	Ref up = lor(L, above, land(L, tie, odd));
	return lower_sel(L, KD, up, op2(L, O_ADD, sk, fl, one), fl);
}

/* CPython's round(x, n) of a double, for n known to lie in [0, 22]
 * (p = 10**n, exact). */
static Ref round_pos(Lower *L, Ref x, Ref p)
{
	ScalarKind sk = SK_F64;
	Ref y = op2(L, O_MUL, sk, x, p);
	Ref err = lower_emit(L, O_FMA, KD, sk, x, p, op1(L, O_NEG, sk, y), 0);
	Ref fl = op1(L, O_FLOOR, sk, y);
	Ref d = op2(L, O_SUB, sk, op2(L, O_SUB, sk, y, fl), fcon(L, sk, 0.5));
	Ref z = round_even(L, fl, op2(L, O_ADD, sk, d, err));
	Ref r = op2(L, O_DIV, sk, z, p);
	Ref big = lower_cmp(L, CC_GEU, sk, op1(L, O_ABS, sk, y), fcon(L, sk, 0x1p53));
	return lower_sel(L, KD, big, x, r);
}

/* ... for n in [-22, -1] (p = 10**-n, exact). */
static Ref round_neg(Lower *L, Ref x, Ref p)
{
	ScalarKind sk = SK_F64;
	Ref y = op2(L, O_DIV, sk, x, p);
	Ref rem = lower_emit(L, O_FMA, KD, sk, op1(L, O_NEG, sk, y), p, x, 0);
	Ref fl = op1(L, O_FLOOR, sk, y);
	Ref d = op2(L, O_SUB, sk, op2(L, O_SUB, sk, y, fl), fcon(L, sk, 0.5));
	Ref z = round_even(L, fl, op2(L, O_ADD, sk, op2(L, O_MUL, sk, d, p), rem));
	Ref r = op2(L, O_MUL, sk, z, p);
	Ref big = lower_cmp(L, CC_GEU, sk, op1(L, O_ABS, sk, y), fcon(L, sk, 0x1p53));
	return lower_sel(L, KD, big, x, r);
}

/* Numba's approximation for |n| > 22: x scaled by 10**n in two steps. */
static Ref round_far(Lower *L, Ref x, Ref p1, Ref p2, int neg)
{
	ScalarKind sk = SK_F64;
	Ref y = neg ? op2(L, O_DIV, sk, x, p1) : op2(L, O_MUL, sk, op2(L, O_MUL, sk, x, p1), p2);
	Ref fl = op1(L, O_FLOOR, sk, y);
	Ref d = op2(L, O_SUB, sk, op2(L, O_SUB, sk, y, fl), fcon(L, sk, 0.5));
	Ref z = round_even(L, fl, d);
	Ref r = neg ? op2(L, O_MUL, sk, z, p1) : op2(L, O_DIV, sk, op2(L, O_DIV, sk, z, p2), p1);
	Ref big = lower_cmp(L, CC_GEU, sk, op1(L, O_ABS, sk, y), fcon(L, sk, 0x1p53));
	return lower_sel(L, KD, big, x, r);
}

static Ref pow10_run(Lower *L, Ref k)
{
	Type *f64 = ty_scalar(SK_F64), *i64 = ty_scalar(SK_I64);
	Value v = lower_pow(L, lower_scalar(f64, fcon(L, SK_F64, 10.0)), NULL, lower_scalar(i64, k), f64,
	                    (Span){0});
	return v.r;
}

/* round(x, n): x of a float kind, n an integer; the result has x's kind
 * (ty).  The work is done in float64. */
Value lower_round_ndigits(Lower *L, Value xv, Value nv, Expr *ne, Type *ty, Span sp)
{
	ScalarKind sk = ty->sk;
	Ref x = lower_convert(L, xv, ty_scalar(SK_F64), sp).r;
	Ref r;
	int64_t n;
	Ref finite = lower_cmp(L, CC_LT, SK_F64, op1(L, O_ABS, SK_F64, x), fcon(L, SK_F64, INFINITY));
	Ref nz = lower_cmp(L, CC_NE, SK_F64, x, fcon(L, SK_F64, 0.0));
	if (lower_const_int(ne, &n)) {
		if (n > 323)
			r = x;
		else if (n < -308)
			r = op2(L, O_MUL, SK_F64, x, fcon(L, SK_F64, 0.0));
		else if (n >= 0 && n <= 22)
			r = round_pos(L, x, fcon(L, SK_F64, pow(10.0, (double)n)));
		else if (n < 0 && n >= -22)
			r = round_neg(L, x, fcon(L, SK_F64, pow(10.0, (double)-n)));
		else if (n > 0)
			r = round_far(L, x, fcon(L, SK_F64, pow(10.0, (double)(n - 22))), fcon(L, SK_F64, 1e22), 0);
		else
			r = round_far(L, x, fcon(L, SK_F64, pow(10.0, (double)-n)), REF_NONE, 1);
	} else {
		Ref k = lower_convert(L, nv, ty_scalar(SK_I64), sp).r;
		Ref zero = ir_con_int(L->f, KL, 0);
		Ref neg = lower_cmp(L, CC_LT, SK_I64, k, zero);
		Ref ak = lower_emit(L, O_ABS, KL, SK_I64, k, REF_NONE, REF_NONE, 0);
		/* both exact variants with |k| clamped to 22, the far ones with the rest */
		Ref kc = lower_emit(L, O_MIN, KL, SK_I64, ak, ir_con_int(L->f, KL, 22), REF_NONE, 0);
		Ref p = pow10_run(L, kc);
		Ref near_neg = round_neg(L, x, p), near_pos = round_pos(L, x, p);
		Ref near = lower_sel(L, KD, neg, near_neg, near_pos);
		Ref kfar = lower_emit(L, O_MIN, KL, SK_I64, ak, ir_con_int(L->f, KL, 330), REF_NONE, 0);
		Ref pfar = pow10_run(L, lower_sel(L, KL, neg, kfar,
		                                  sub64(L, lower_emit(L, O_MAX, KL, SK_I64, kfar, ir_con_int(L->f, KL, 22),
		                                                      REF_NONE, 0), ir_con_int(L->f, KL, 22))));
		Ref far_neg = round_far(L, x, pfar, REF_NONE, 1);
		Ref far_pos = round_far(L, x, pfar, fcon(L, SK_F64, 1e22), 0);
		Ref far = lower_sel(L, KD, neg, far_neg, far_pos);
		Ref isfar = lower_cmp(L, CC_GT, SK_I64, ak, ir_con_int(L->f, KL, 22));
		r = lower_sel(L, KD, isfar, far, near);
		Ref tiny = lower_cmp(L, CC_LT, SK_I64, k, ir_con_int(L->f, KL, -308));
		Ref huge = lower_cmp(L, CC_GT, SK_I64, k, ir_con_int(L->f, KL, 323));
		r = lower_sel(L, KD, tiny, op2(L, O_MUL, SK_F64, x, fcon(L, SK_F64, 0.0)), r);
		r = lower_sel(L, KD, huge, x, r);
	}
	/* the sign of x survives (round(-0.4, 0) is -0.0); 0, inf and nan stay */
	r = copysign_f(L, SK_F64, r, x);
	r = lower_sel(L, KD, land(L, finite, nz), r, x);
	return lower_convert(L, lower_scalar(ty_scalar(SK_F64), r), ty_scalar(sk), sp);
}

/* ----------------------------------------------------------- complex */

/* hypot(a, b) of kind sk: math.hypot's (src/math/pow.c), no division. */
Ref lower_hypot(Lower *L, ScalarKind sk, Ref a, Ref b)
{
	MB m = mb_new(L, sk);
	return math_hypot(&m, a, b);
}

/* r is the constant +0.0 (a real operand's imaginary part) */
static int is_pos_zero(Lower *L, Ref r)
{
	if (r.kind != R_CON)
		return 0;
	const Con *c = &L->f->con[r.idx];
	if (c->cls == KD)
		return c->d == 0 && !signbit(c->d);
	if (c->cls == KS)
		return c->s == 0 && !signbit(c->s);
	return 0;
}

/*
 * a / b for complex values of type ty (converted already): _Py_c_quot.
 * With p the larger part of b and q the other, r = q / p, d = p + q r,
 * and the quotient is ((ar + ai r) / d, (ai - ar r) / d) when p = br, or
 * ((ar r + ai) / d, (ai r - ar) / d) when p = bi: the operands are
 * selected first, so three divisions are made, not six.  A real divisor
 * (bi the constant +0) has p = br, r = 0 / br = copysign(0, br) and
 * d = br exactly, so two divisions; a NaN or zero br gives NaN as before.
 */
Value lower_complex_div(Lower *L, Value a, Value b, Type *ty)
{
	ScalarKind p = lower_part_sk(ty->sk);
	Cls k = lower_cls(p);
	Ref ar = a.r, ai = a.im, br = b.r, bi = b.im;
	Ref nan = fcon(L, p, NAN), zero = fcon(L, p, 0.0);
	Ref br0 = lower_cmp(L, CC_EQ, p, br, zero);
	Value r = {.ty = ty};
	if (is_pos_zero(L, bi)) {
		Ref q = copysign_f(L, p, zero, br);
		r.r = op2(L, O_DIV, p, op2(L, O_ADD, p, ar, op2(L, O_MUL, p, ai, q)), br);
		r.im = op2(L, O_DIV, p, op2(L, O_SUB, p, ai, op2(L, O_MUL, p, ar, q)), br);
		r.r = lower_sel(L, k, br0, nan, r.r);
		r.im = lower_sel(L, k, br0, nan, r.im);
		return r;
	}
	Ref abr = op1(L, O_ABS, p, br), abi = op1(L, O_ABS, p, bi);
	Ref first = lower_cmp(L, CC_GE, p, abr, abi), second = lower_cmp(L, CC_GE, p, abi, abr);
	Ref big = lower_sel(L, k, first, br, bi), other = lower_sel(L, k, first, bi, br);
	Ref q = op2(L, O_DIV, p, other, big);
	Ref d = op2(L, O_ADD, p, big, op2(L, O_MUL, p, other, q));
	Ref arq = op2(L, O_MUL, p, ar, q), aiq = op2(L, O_MUL, p, ai, q);
	Ref re0 = lower_sel(L, k, first, ar, ai), re1 = lower_sel(L, k, first, aiq, arq);
	Ref im0 = lower_sel(L, k, first, ai, aiq), im1 = lower_sel(L, k, first, arq, ar);
	Ref re = op2(L, O_ADD, p, re0, re1);
	Ref im = op2(L, O_SUB, p, im0, im1);
	re = op2(L, O_DIV, p, re, d);
	im = op2(L, O_DIV, p, im, d);
	/* a NaN part of b: neither comparison holds */
	Ref ordered = lor(L, first, second);
	Ref bi0 = lower_cmp(L, CC_EQ, p, bi, zero);
	Ref both0 = land(L, br0, bi0);
	r.r = lower_sel(L, k, both0, nan, lower_sel(L, k, ordered, re, nan));
	r.im = lower_sel(L, k, both0, nan, lower_sel(L, k, ordered, im, nan));
	return r;
}

static Value cmul(Lower *L, ScalarKind p, Value a, Value b)
{
	Value r = a;
	Ref ac = op2(L, O_MUL, p, a.r, b.r), bd = op2(L, O_MUL, p, a.im, b.im);
	r.r = op2(L, O_SUB, p, ac, bd);
	Ref ad = op2(L, O_MUL, p, a.r, b.im), bc = op2(L, O_MUL, p, a.im, b.r);
	r.im = op2(L, O_ADD, p, ad, bc);
	return r;
}

/* a ** n for a complex a (of type ty) and a constant integer n. */
Value lower_complex_powi(Lower *L, Value a, int64_t n, Type *ty)
{
	ScalarKind p = lower_part_sk(ty->sk);
	Value one = {.ty = ty, .r = fcon(L, p, 1.0), .im = fcon(L, p, 0.0)};
	uint64_t m = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
	Value r = one, x = a;
	int have = 0;
	while (m) {
		if (m & 1) {
			r = have ? cmul(L, p, r, x) : x;
			have = 1;
		}
		m >>= 1;
		if (m)
			x = cmul(L, p, x, x);
	}
	if (n < 0)
		r = lower_complex_div(L, one, r, ty);
	return r;
}

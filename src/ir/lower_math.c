/*
 * lower_math.c - calls of the math library's intrinsics (IN_MATH_ACOS ..
 * IN_NP_LCM): math.*, cmath.* and NumPy's ufuncs on scalars.
 *
 * Sema (sema_math.c) has given each call its type; here the arguments are
 * converted to the precision the function computes in (the call's type,
 * or its float part) and the function is built by the library in
 * src/math/ (mathlib.h), inline at the call: the same instructions for
 * the GPU and the simulator.  Under fastmath the float32 functions that
 * Numba maps to the hardware's approximations (sin, cos, tan, exp, exp2,
 * log, log2, log10, pow, tanh) use them (src/math/fast.c).
 *
 * A NumPy ufunc first converts its arguments to the types of the loop
 * that Numba picks (ufunc.c), and computes in those: np.add(uint8, uint8)
 * adds two uint8s and wraps, np.add(int8, uint8) adds two int16s.  Its
 * arithmetic, comparison, logical and bitwise loops are the operators'
 * lowerings (lower_binop, lower_compare) in the loop's type; int64 against
 * uint64 compares exactly, complex numbers order as NumPy orders them
 * (real parts first); maximum/minimum propagate a NaN and fmax/fmin
 * ignore one, as NumPy's loops do; gcd and lcm run Euclid's loop.
 */
#include <math.h>
#include <string.h>

#include "../math/mathlib.h"
#include "lower.h"

typedef Ref (*Fn1)(MB *, Ref);
typedef Ref (*Fn2)(MB *, Ref, Ref);
typedef Cx (*Cfn1)(MB *, Cx);

enum { MATH_MAX_ARGS = 3 };   /* the most any math, cmath or NumPy function takes */

static Ref deg2rad(MB *b, Ref x)
{
	return mb_mul(b, x, mb_f(b, 0.017453292519943295));
}

static Ref rad2deg(MB *b, Ref x)
{
	return mb_mul(b, x, mb_f(b, 57.29577951308232));
}

/* NumPy's float32 loop multiplies by 180.0f / pi rounded to float32, a
 * float32 division (57.2957763...), not by 180 / pi rounded once */
static Ref np_rad2deg(MB *b, Ref x)
{
	if (b->sk == SK_F32)
		return mb_mul(b, x, mb_f(b, (double)(180.0f / 3.14159265358979323846f)));
	return rad2deg(b, x);
}

static Ref fabs1(MB *b, Ref x) { return mb_abs(b, x); }
static Ref trunc1(MB *b, Ref x) { return mb_trunc(b, x); }
static Ref rint1(MB *b, Ref x) { return mb_rint(b, x); }
static Ref copysign2(MB *b, Ref x, Ref y) { return mb_copysign(b, x, y); }

static Ref fmod2(MB *b, Ref x, Ref y)
{
	return lower_fmod(b->L, b->sk, x, y);
}

static Fn1 real1(int in)
{
	switch (in) {
	case IN_MATH_ACOS: case IN_NP_ARCCOS: return math_acos;
	case IN_MATH_ASIN: case IN_NP_ARCSIN: return math_asin;
	case IN_MATH_ATAN: case IN_NP_ARCTAN: return math_atan;
	case IN_MATH_ACOSH: case IN_NP_ARCCOSH: return math_acosh;
	case IN_MATH_ASINH: case IN_NP_ARCSINH: return math_asinh;
	case IN_MATH_ATANH: case IN_NP_ARCTANH: return math_atanh;
	case IN_MATH_SIN: case IN_NP_SIN: return math_sin;
	case IN_MATH_COS: case IN_NP_COS: return math_cos;
	case IN_MATH_TAN: case IN_NP_TAN: return math_tan;
	case IN_MATH_SINH: case IN_NP_SINH: return math_sinh;
	case IN_MATH_COSH: case IN_NP_COSH: return math_cosh;
	case IN_MATH_TANH: case IN_NP_TANH: return math_tanh;
	case IN_MATH_EXP: case IN_NP_EXP: return math_exp;
	case IN_MATH_EXP2: case IN_NP_EXP2: return math_exp2_cuda;
	case IN_MATH_EXPM1: case IN_NP_EXPM1: return math_expm1;
	case IN_MATH_LOG: case IN_NP_LOG: return math_log;
	case IN_MATH_LOG2: case IN_NP_LOG2: return math_log2;
	case IN_MATH_LOG10: case IN_NP_LOG10: return math_log10;
	case IN_MATH_LOG1P: case IN_NP_LOG1P: return math_log1p;
	case IN_MATH_ERF: return math_erf;
	case IN_MATH_ERFC: return math_erfc;
	case IN_MATH_GAMMA: return math_tgamma;
	case IN_MATH_LGAMMA: return math_lgamma;
	case IN_MATH_RADIANS: case IN_NP_DEG2RAD: case IN_NP_RADIANS: return deg2rad;
	case IN_MATH_DEGREES: return rad2deg;
	case IN_NP_RAD2DEG: case IN_NP_DEGREES: return np_rad2deg;
	case IN_MATH_CBRT: case IN_NP_CBRT: return math_cbrt;
	case IN_NP_FABS: return fabs1;
	case IN_NP_SPACING: return math_spacing;
	case IN_NP_TRUNC: return trunc1;
	case IN_NP_RINT: return rint1;
	default: return NULL;
	}
}

static Fn2 real2(int in)
{
	switch (in) {
	case IN_MATH_ATAN2: case IN_NP_ARCTAN2: return math_atan2;
	case IN_MATH_HYPOT: case IN_NP_HYPOT: return math_hypot;
	case IN_MATH_COPYSIGN: case IN_NP_COPYSIGN: return copysign2;
	case IN_MATH_FMOD: return fmod2;
	case IN_MATH_REMAINDER: return math_remainder;
	case IN_MATH_NEXTAFTER: case IN_NP_NEXTAFTER: return math_nextafter;
	case IN_MATH_POW: case IN_NP_FLOAT_POWER: return math_pow;
	case IN_NP_LOGADDEXP: return math_logaddexp;
	case IN_NP_LOGADDEXP2: return math_logaddexp2;
	default: return NULL;
	}
}

static Cfn1 complex1(int in)
{
	switch (in) {
	case IN_CMATH_ACOS: case IN_NP_ARCCOS: return math_cacos;
	case IN_CMATH_ASIN: case IN_NP_ARCSIN: return math_casin;
	case IN_CMATH_ATAN: case IN_NP_ARCTAN: return math_catan;
	case IN_CMATH_ACOSH: case IN_NP_ARCCOSH: return math_cacosh;
	case IN_CMATH_ASINH: case IN_NP_ARCSINH: return math_casinh;
	case IN_CMATH_ATANH: case IN_NP_ARCTANH: return math_catanh;
	case IN_CMATH_COS: case IN_NP_COS: return math_ccos;
	case IN_CMATH_SIN: case IN_NP_SIN: return math_csin;
	case IN_CMATH_TAN: case IN_NP_TAN: return math_ctan;
	case IN_CMATH_COSH: case IN_NP_COSH: return math_ccosh;
	case IN_CMATH_SINH: case IN_NP_SINH: return math_csinh;
	case IN_CMATH_TANH: case IN_NP_TANH: return math_ctanh;
	case IN_CMATH_EXP: case IN_NP_EXP: return math_cexp;
	case IN_CMATH_LOG: case IN_NP_LOG: return math_clog;
	case IN_CMATH_LOG10: case IN_NP_LOG10: return math_clog10;
	case IN_CMATH_SQRT: case IN_NP_SQRT: return math_csqrt;
	default: return NULL;
	}
}

/* argument i of the call, lowered already (lower_math_intrin) */
static Value arg(Lower *L, Expr *e, const Value *av, int i)
{
	if (i >= e->call.nargs)
		ICE(L->c, "%s() lowered with %d arguments", intrin_name[e->call.intrin], e->call.nargs);
	return av[i];
}

static Ref as_sk(Lower *L, Value v, ScalarKind sk, Span sp)
{
	return lower_convert(L, v, ty_scalar(sk), sp).r;
}

/* A NumPy ufunc's operator: never raises, x // 0 is 0 and 1.0 / 0.0 is inf
 * whatever the error model of Python's operators. */
static Value np_binop(Lower *L, AstOp op, Value a, Value b, Type *ty, Span sp)
{
	int zd = L->zerodiv;
	L->zerodiv = 0;
	Value r = lower_binop(L, op, a, b, ty, sp);
	L->zerodiv = zd;
	return r;
}

static Value pair(Lower *L, Type *ty, Value a, Value b)
{
	Value v = {.ty = ty, .n = 2};
	v.elts = arena_alloc(L->c->arena, sizeof(Value) * 2);
	v.elts[0] = a;
	v.elts[1] = b;
	return v;
}

static Cx as_cx(Lower *L, Value v, ScalarKind csk, Span sp)
{
	Value c = lower_convert(L, v, ty_scalar(csk), sp);
	Cx z = {c.r, c.im};
	return z;
}

static Value cx_value(Type *ty, Cx z)
{
	Value v = {.ty = ty, .r = z.re, .im = z.im};
	return v;
}

/* ------------------------------------------------------- predicates */

static Value predicate(Lower *L, Expr *e, int in, const Value *av)
{
	Value v = arg(L, e, av, 0);
	Type *bt = ty_scalar(SK_BOOL);
	ScalarKind sk = lower_part_sk(v.ty->sk);
	MB b = mb_new(L, sk == SK_F64 ? SK_F64 : SK_F32);
	Ref re = as_sk(L, lower_scalar(ty_scalar(sk), v.r), b.sk, e->span);
	Ref im = scalar_info[v.ty->sk].is_complex ? as_sk(L, lower_scalar(ty_scalar(sk), v.im), b.sk, e->span) : REF_NONE;
	Ref r;
	switch (in) {
	case IN_MATH_ISNAN: case IN_NP_ISNAN: case IN_CMATH_ISNAN:
		r = mb_isnan(&b, re);
		if (im.kind != R_NONE)
			r = mb_or(&b, r, mb_isnan(&b, im));
		break;
	case IN_MATH_ISINF: case IN_NP_ISINF: case IN_CMATH_ISINF:
		r = mb_isinf(&b, re);
		if (im.kind != R_NONE)
			r = mb_or(&b, r, mb_isinf(&b, im));
		break;
	default:
		r = mb_isfinite(&b, re);
		if (im.kind != R_NONE)
			r = mb_and(&b, r, mb_isfinite(&b, im));
		break;
	}
	return lower_scalar(bt, r);
}

/* ---------------------------------------------------------- NumPy */

static AstOp ufunc_op(int in)
{
	switch (in) {
	case IN_NP_ADD: return OP_ADD;
	case IN_NP_SUBTRACT: return OP_SUB;
	case IN_NP_MULTIPLY: return OP_MUL;
	case IN_NP_DIVIDE: return OP_DIV;
	case IN_NP_FLOOR_DIVIDE: return OP_FLOORDIV;
	case IN_NP_REMAINDER: return OP_MOD;
	case IN_NP_POWER: return OP_POW;
	case IN_NP_BITWISE_AND: return OP_BITAND;
	case IN_NP_BITWISE_OR: return OP_BITOR;
	case IN_NP_BITWISE_XOR: return OP_BITXOR;
	case IN_NP_LEFT_SHIFT: return OP_LSHIFT;
	case IN_NP_RIGHT_SHIFT: return OP_RSHIFT;
	case IN_NP_GREATER: return OP_GT;
	case IN_NP_GREATER_EQUAL: return OP_GE;
	case IN_NP_LESS: return OP_LT;
	case IN_NP_LESS_EQUAL: return OP_LE;
	case IN_NP_NOT_EQUAL: return OP_NE;
	case IN_NP_EQUAL: return OP_EQ;
	default: return NOP;
	}
}

/* a op b for an int64 and a uint64 (NumPy's loops qQ->? and Qq->?): a
 * negative int64 is below every uint64, else the two compare unsigned */
static Ref compare_mixed(Lower *L, AstOp op, Value a, Value b, Span sp)
{
	int left = scalar_info[a.ty->sk].is_signed;
	Ref s = left ? a.r : b.r;
	Ref neg = lower_cmp(L, CC_LT, SK_I64, s, ir_con_int(L->f, KL, 0));
	Value ua = lower_scalar(ty_scalar(SK_U64), a.r), ub = lower_scalar(ty_scalar(SK_U64), b.r);
	Ref r = lower_compare(L, op, ua, ub, sp);
	int below = op == OP_LT || op == OP_LE || op == OP_NE;    /* true of s < u */
	int above = op == OP_GT || op == OP_GE || op == OP_NE;    /* true of u > s */
	Ref when_neg = ir_con_bool(L->f, left ? below : above);
	return lower_emit(L, O_OR, KB, SK_BOOL, lower_emit(L, O_AND, KB, SK_BOOL, neg, when_neg, REF_NONE, 0),
	                  lower_emit(L, O_AND, KB, SK_BOOL, lower_not(L, neg), r, REF_NONE, 0), REF_NONE, 0);
}

/* NumPy's order of complex numbers (CLT, CLE, CGT, CGE of its loops):
 * by the real parts when neither imaginary part is a NaN, else by the
 * imaginary parts where the real parts are equal */
static Ref order_complex(MB *m, AstOp op, Cx a, Cx b)
{
	int up = op == OP_GT || op == OP_GE, eq = op == OP_LE || op == OP_GE;
	Ref real = up ? mb_gt(m, a.re, b.re) : mb_lt(m, a.re, b.re);
	Ref imag = mb_cmp(m, up ? (eq ? CC_GE : CC_GT) : (eq ? CC_LE : CC_LT), a.im, b.im);
	Ref by_real = mb_and(m, real, mb_not(m, mb_anynan(m, a.im, b.im)));
	return mb_or(m, by_real, mb_and(m, mb_eq(m, a.re, b.re), imag));
}

/* maximum/minimum of complex numbers keep x when it has a NaN or orders
 * first (x >= y for maximum), fmax/fmin keep x when y has a NaN or x
 * orders first: NumPy's complex loops */
static Value extremum_complex(Lower *L, int in, Type *ty, Value x, Value y)
{
	MB m = mb_new(L, lower_part_sk(ty->sk));
	Cx a = {x.r, x.im}, b = {y.r, y.im};
	int ismax = in == IN_NP_MAXIMUM || in == IN_NP_FMAX;
	Cx nan_side = in == IN_NP_MAXIMUM || in == IN_NP_MINIMUM ? a : b;
	Ref keep = mb_or(&m, mb_anynan(&m, nan_side.re, nan_side.im), order_complex(&m, ismax ? OP_GE : OP_LE, a, b));
	Cx r = {mb_sel(&m, keep, a.re, b.re), mb_sel(&m, keep, a.im, b.im)};
	return cx_value(ty, r);
}

/* maximum/minimum (a NaN wins) and fmax/fmin (a NaN loses), NumPy's loops */
static Value extremum(Lower *L, Expr *e, int in, const Value *av)
{
	Type *ty = e->ty;
	ScalarKind sk = ty->sk;
	Value a = lower_convert(L, arg(L, e, av, 0), ty, e->span), c = lower_convert(L, arg(L, e, av, 1), ty, e->span);
	int ismax = in == IN_NP_MAXIMUM || in == IN_NP_FMAX;
	if (scalar_info[sk].is_complex)
		return extremum_complex(L, in, ty, a, c);
	if (!lower_is_floatsk(sk)) {
		if (sk == SK_BOOL)
			return lower_scalar(ty, lower_emit(L, ismax ? O_OR : O_AND, KB, SK_BOOL, a.r, c.r, REF_NONE, 0));
		return lower_scalar(ty, lower_emit(L, ismax ? O_MAX : O_MIN, lower_cls(sk), sk, a.r, c.r, REF_NONE, 0));
	}
	MB b = mb_new(L, sk);
	Ref r = in == IN_NP_MAXIMUM ? math_maximum(&b, a.r, c.r)
	      : in == IN_NP_MINIMUM ? math_minimum(&b, a.r, c.r)
	      : in == IN_NP_FMAX ? math_fmax(&b, a.r, c.r) : math_fmin(&b, a.r, c.r);
	return lower_scalar(ty, r);
}

/* np.sign, np.square, np.reciprocal, np.negative, np.positive, np.conjugate */
static Value same1(Lower *L, Expr *e, int in, const Value *av)
{
	Type *ty = e->ty;
	Value a = lower_convert(L, arg(L, e, av, 0), ty, e->span);
	ScalarKind sk = ty->sk;
	int cx = scalar_info[sk].is_complex;
	ScalarKind p = lower_part_sk(sk);
	Cls k = lower_cls(sk);
	Value r = {.ty = ty};
	switch (in) {
	case IN_NP_POSITIVE:
		return a;
	case IN_NP_CONJUGATE:
		if (cx)
			a.im = lower_emit(L, O_NEG, k, p, a.im, REF_NONE, REF_NONE, 0);
		return a;
	case IN_NP_NEGATIVE:
		if (sk == SK_BOOL)
			return lower_scalar(ty, lower_not(L, a.r));
		r.r = lower_norm(L, lower_emit(L, O_NEG, k, p, a.r, REF_NONE, REF_NONE, 0), sk);
		if (cx)
			r.im = lower_emit(L, O_NEG, k, p, a.im, REF_NONE, REF_NONE, 0);
		return r;
	case IN_NP_SQUARE:
		if (cx) {
			MB b = mb_new(L, p);
			Cx z = {a.r, a.im};
			return cx_value(ty, math_cmul(&b, z, z));
		}
		if (sk == SK_BOOL)
			return a;
		return lower_binop(L, OP_MUL, a, a, ty, e->span);
	case IN_NP_RECIPROCAL:
		if (cx) {
			MB b = mb_new(L, p);
			Cx one = {mb_f(&b, 1), mb_f(&b, 0)}, z = {a.r, a.im};
			return cx_value(ty, math_cdiv(&b, one, z));
		}
		if (sk == SK_BOOL)
			return a;
		return lower_scalar(ty, lower_norm(L, lower_emit(L, O_DIV, k, sk, lower_con_int(L, sk, 1), a.r,
		                                                 REF_NONE, 0), sk));
	case IN_NP_SIGN:
		if (lower_is_floatsk(sk)) {
			MB b = mb_new(L, sk);
			return lower_scalar(ty, math_sign(&b, a.r));
		}
		if (cx)
			lower_unsupported(L, e->span, "numpy.sign of a complex number");
		{
			Ref pos = lower_cmp(L, CC_GT, sk, a.r, lower_con_int(L, sk, 0));
			Ref neg = lower_cmp(L, CC_LT, sk, a.r, lower_con_int(L, sk, 0));
			Ref one = lower_con_int(L, sk, 1), m1 = lower_con_int(L, sk, -1), z = lower_con_int(L, sk, 0);
			return lower_scalar(ty, lower_sel(L, k, pos, one, lower_sel(L, k, neg, m1, z)));
		}
	default:
		ICE(L->c, "numpy function %s", intrin_name[in]);
	}
}

/* gcd by Euclid's loop on absolute values; lcm = |a / gcd * b| */
static Value gcdlcm(Lower *L, Expr *e, int in, const Value *av)
{
	Type *ty = e->ty;
	ScalarKind sk = ty->sk;
	Cls k = lower_cls(sk);
	Ref a = lower_convert(L, arg(L, e, av, 0), ty, e->span).r, c = lower_convert(L, arg(L, e, av, 1), ty, e->span).r;
	Ref x = lower_emit(L, O_ABS, k, sk, a, REF_NONE, REF_NONE, 0);
	Ref y = lower_emit(L, O_ABS, k, sk, c, REF_NONE, REF_NONE, 0);
	int xs = lower_new_slots(L, ty, "gcd"), ys = lower_new_slots(L, ty, "gcd");
	lower_write(L, xs, ty, lower_scalar(ty, x));
	lower_write(L, ys, ty, lower_scalar(ty, y));
	Blk *head = lower_new_blk(L), *body = lower_new_blk(L), *done = lower_new_blk(L);
	lower_jump(L, head);
	lower_enter(L, head);
	Ref y1 = lower_read(L, ys, ty).r;
	lower_branch(L, lower_cmp(L, CC_NE, sk, y1, lower_con_int(L, sk, 0)), body, done);
	lower_seal(L, body);
	lower_enter(L, body);
	Ref x1 = lower_read(L, xs, ty).r;
	ScalarKind usk = scalar_info[sk].size == 8 ? SK_U64 : SK_U32;
	Ref rem = lower_emit(L, O_REM, k, usk, x1, y1, REF_NONE, 0);
	lower_write(L, xs, ty, lower_scalar(ty, y1));
	lower_write(L, ys, ty, lower_scalar(ty, rem));
	lower_jump(L, head);
	lower_seal(L, head);
	lower_seal(L, done);
	lower_enter(L, done);
	Ref g = lower_read(L, xs, ty).r;
	if (in == IN_NP_GCD)
		return lower_scalar(ty, g);
	Ref q = lower_emit(L, O_DIV, k, usk, x, g, REF_NONE, 0);
	Ref l = lower_emit(L, O_MUL, k, sk, q, y, REF_NONE, 0);
	return lower_scalar(ty, l);
}

static Value numpy_misc(Lower *L, Expr *e, int in, const Value *av)
{
	Type *ty = e->ty;
	AstOp op = ufunc_op(in);
	switch (in) {
	case IN_NP_MAXIMUM: case IN_NP_MINIMUM: case IN_NP_FMAX: case IN_NP_FMIN:
		return extremum(L, e, in, av);
	case IN_NP_SQUARE: case IN_NP_RECIPROCAL: case IN_NP_NEGATIVE: case IN_NP_POSITIVE:
	case IN_NP_SIGN: case IN_NP_CONJUGATE:
		return same1(L, e, in, av);
	case IN_NP_GCD: case IN_NP_LCM:
		return gcdlcm(L, e, in, av);
	case IN_NP_GREATER: case IN_NP_GREATER_EQUAL: case IN_NP_LESS: case IN_NP_LESS_EQUAL:
	case IN_NP_NOT_EQUAL: case IN_NP_EQUAL: {
		Value a = arg(L, e, av, 0), b = arg(L, e, av, 1);
		if (scalar_info[a.ty->sk].size == 8 && scalar_info[b.ty->sk].size == 8 && lower_is_intsk(a.ty->sk) &&
		    lower_is_intsk(b.ty->sk) && scalar_info[a.ty->sk].is_signed != scalar_info[b.ty->sk].is_signed)
			return lower_scalar(ty, compare_mixed(L, op, a, b, e->span));
		if (scalar_info[a.ty->sk].is_complex && op != OP_EQ && op != OP_NE) {
			MB m = mb_new(L, lower_part_sk(a.ty->sk));
			Cx x = {a.r, a.im}, y = {b.r, b.im};
			return lower_scalar(ty, order_complex(&m, op, x, y));
		}
		return lower_scalar(ty, lower_compare(L, op, a, b, e->span));
	}
	case IN_NP_LOGICAL_AND: case IN_NP_LOGICAL_OR: case IN_NP_LOGICAL_XOR: {
		Ref p = lower_truth(L, arg(L, e, av, 0), e->call.args[0]->span);
		Ref q = lower_truth(L, arg(L, e, av, 1), e->call.args[1]->span);
		Opcode o = in == IN_NP_LOGICAL_AND ? O_AND : in == IN_NP_LOGICAL_OR ? O_OR : O_XOR;
		return lower_scalar(ty, lower_emit(L, o, KB, SK_BOOL, p, q, REF_NONE, 0));
	}
	case IN_NP_LOGICAL_NOT:
		return lower_scalar(ty, lower_not(L, lower_truth(L, arg(L, e, av, 0), e->call.args[0]->span)));
	case IN_NP_SIGNBIT: {
		Value v = arg(L, e, av, 0);
		ScalarKind sk = v.ty->sk;
		if (!lower_is_floatsk(sk)) {
			if (!lower_is_signed(sk) || sk == SK_BOOL)
				return lower_scalar(ty, ir_con_bool(L->f, 0));
			return lower_scalar(ty, lower_cmp(L, CC_LT, sk, v.r, lower_con_int(L, sk, 0)));
		}
		MB b = mb_new(L, sk);
		return lower_scalar(ty, mb_signbit(&b, as_sk(L, v, b.sk, e->span)));
	}
	case IN_NP_INVERT: {
		Value v = lower_convert(L, arg(L, e, av, 0), ty, e->span);
		if (ty->sk == SK_BOOL)
			return lower_scalar(ty, lower_not(L, v.r));
		return lower_scalar(ty, lower_norm(L, lower_emit(L, O_NOT, lower_cls(ty->sk), ty->sk, v.r, REF_NONE,
		                                                 REF_NONE, 0), ty->sk));
	}
	case IN_NP_BITWISE_AND: case IN_NP_BITWISE_OR: case IN_NP_BITWISE_XOR:
	case IN_NP_LEFT_SHIFT: case IN_NP_RIGHT_SHIFT:
	case IN_NP_ADD: case IN_NP_SUBTRACT: case IN_NP_MULTIPLY: case IN_NP_DIVIDE:
	case IN_NP_FLOOR_DIVIDE: case IN_NP_REMAINDER: case IN_NP_POWER:
		return np_binop(L, op, arg(L, e, av, 0), arg(L, e, av, 1), ty, e->span);
	case IN_NP_FMOD: {
		Value a = lower_convert(L, arg(L, e, av, 0), ty, e->span), c = lower_convert(L, arg(L, e, av, 1), ty, e->span);
		ScalarKind sk = ty->sk;
		if (lower_is_floatsk(sk))
			return lower_scalar(ty, lower_fmod(L, sk, a.r, c.r));
		/* C's %, and 0 for a zero divisor (NumPy's result) */
		Cls k = lower_cls(sk);
		Ref r = lower_emit(L, O_REM, k, sk, a.r, c.r, REF_NONE, 0);
		Ref z = lower_cmp(L, CC_EQ, sk, c.r, lower_con_int(L, sk, 0));
		return lower_scalar(ty, lower_norm(L, lower_sel(L, k, z, lower_con_int(L, sk, 0), r), sk));
	}
	case IN_NP_DIVMOD: {
		Value a = arg(L, e, av, 0), c = arg(L, e, av, 1);
		Type *t = ty->elts[0];
		Value q = np_binop(L, OP_FLOORDIV, a, c, t, e->span);
		Value r = np_binop(L, OP_MOD, a, c, t, e->span);
		return pair(L, ty, q, r);
	}
	default:
		ICE(L->c, "numpy function %s is not lowered", intrin_name[in]);
	}
}

/* ---------------------------------------------------------- cmath */

static Value cmath_call(Lower *L, Expr *e, int in, const Value *av)
{
	Type *ty = e->ty;
	Value v = arg(L, e, av, 0);
	ScalarKind csk;
	switch (in) {
	case IN_CMATH_PHASE: case IN_CMATH_POLAR:
		csk = (ty->kind == TY_TUPLE ? ty->elts[0] : ty)->sk == SK_F32 ? SK_C64 : SK_C128;
		break;
	case IN_CMATH_RECT:
		csk = ty->sk;
		break;
	default:
		csk = ty->sk;
		break;
	}
	ScalarKind p = lower_part_sk(csk);
	MB b = mb_new(L, p);
	if (in == IN_CMATH_RECT) {
		Ref r = as_sk(L, v, p, e->span), phi = as_sk(L, arg(L, e, av, 1), p, e->span);
		return cx_value(ty, math_crect(&b, r, phi));
	}
	Cx z = as_cx(L, v, csk, e->span);
	if (in == IN_CMATH_PHASE)
		return lower_scalar(ty, math_cphase(&b, z));
	if (in == IN_CMATH_POLAR) {
		Type *ft = ty_scalar(p);
		Ref r = math_cabs(&b, z);
		Ref phi = math_cphase(&b, z);
		return pair(L, ty, lower_scalar(ft, r), lower_scalar(ft, phi));
	}
	if (in == IN_CMATH_LOG && e->call.nargs == 2) {
		Cx base = as_cx(L, arg(L, e, av, 1), csk, e->span);
		Cx lz = math_clog(&b, z);
		Cx lbase = math_clog(&b, base);
		return cx_value(ty, math_cdiv(&b, lz, lbase));
	}
	Cfn1 f = complex1(in);
	if (!f)
		ICE(L->c, "cmath function %s", intrin_name[in]);
	return cx_value(ty, f(&b, z));
}

/* NumPy's complex loops that cmath lacks: exp2, log2, expm1 and log1p by
 * NumPy's formulas (npy_math_complex), rint of each part, float_power as
 * the ** operator */
static Value complex_ufunc(Lower *L, Expr *e, int in, const Value *av)
{
	Type *ty = e->ty;
	Value v = arg(L, e, av, 0);
	if (in == IN_NP_FLOAT_POWER)
		return lower_binop(L, OP_POW, v, arg(L, e, av, 1), ty, e->span);
	ScalarKind p = lower_part_sk(ty->sk);
	MB b = mb_new(L, p);
	Cx z = as_cx(L, v, ty->sk, e->span), r;
	switch (in) {
	case IN_NP_RINT:
		r.re = mb_rint(&b, z.re);
		r.im = mb_rint(&b, z.im);
		break;
	case IN_NP_EXP2: {
		Ref ln2 = mb_f(&b, 0.693147180559945309417232121458176568);
		Cx a = {mb_mul(&b, z.re, ln2), mb_mul(&b, z.im, ln2)};
		r = math_cexp(&b, a);
		break;
	}
	case IN_NP_LOG2: {
		Ref log2e = mb_f(&b, 1.442695040888963407359924681001892137);
		r = math_clog(&b, z);
		r.re = mb_mul(&b, r.re, log2e);
		r.im = mb_mul(&b, r.im, log2e);
		break;
	}
	case IN_NP_EXPM1: {
		Ref s = math_sin(&b, mb_mul(&b, z.im, mb_f(&b, 0.5)));
		Ref two_s2 = mb_mul(&b, mb_mul(&b, mb_f(&b, 2), s), s);
		r.re = mb_sub(&b, mb_mul(&b, math_expm1(&b, z.re), math_cos(&b, z.im)), two_s2);
		r.im = mb_mul(&b, math_exp(&b, z.re), math_sin(&b, z.im));
		break;
	}
	case IN_NP_LOG1P: {
		Ref x1 = mb_add(&b, z.re, mb_f(&b, 1));
		r.re = math_log(&b, math_hypot(&b, x1, z.im));
		r.im = math_atan2(&b, z.im, x1);
		break;
	}
	default:
		ICE(L->c, "complex %s() is not lowered", intrin_name[in]);
	}
	return cx_value(ty, r);
}

/* ------------------------------------------------------------- entry */

static Value math_call(Lower *L, Expr *e, int in, const Value *av)
{
	Type *ty = e->ty;
	if (in >= IN_CMATH_ACOS && in <= IN_CMATH_TANH) {
		if (in == IN_CMATH_ISNAN || in == IN_CMATH_ISINF || in == IN_CMATH_ISFINITE)
			return predicate(L, e, in, av);
		return cmath_call(L, e, in, av);
	}
	switch (in) {
	case IN_MATH_ISNAN: case IN_MATH_ISINF: case IN_MATH_ISFINITE:
	case IN_NP_ISNAN: case IN_NP_ISINF: case IN_NP_ISFINITE:
		return predicate(L, e, in, av);
	case IN_MATH_FREXP: case IN_NP_FREXP: {
		Type *ft = ty->elts[0];
		MB b = mb_new(L, ft->sk);
		Ref ex;
		Ref m = math_frexp(&b, as_sk(L, arg(L, e, av, 0), ft->sk, e->span), &ex);
		return pair(L, ty, lower_scalar(ft, m), lower_scalar(ty->elts[1], ex));
	}
	case IN_MATH_MODF: case IN_NP_MODF: {
		Type *ft = ty->elts[0];
		MB b = mb_new(L, ft->sk);
		Ref ip;
		Ref fr = math_modf(&b, as_sk(L, arg(L, e, av, 0), ft->sk, e->span), &ip);
		return pair(L, ty, lower_scalar(ft, fr), lower_scalar(ft, ip));
	}
	case IN_MATH_LDEXP: case IN_NP_LDEXP: {
		MB b = mb_new(L, ty->sk);
		Value n = arg(L, e, av, 1);
		/* an int64 exponent saturates to int32: the result is 0 or inf already */
		Ref n64 = as_sk(L, n, SK_I64, e->span);
		n64 = lower_emit(L, O_MAX, KL, SK_I64, n64, ir_con_int(L->f, KL, -100000), REF_NONE, 0);
		n64 = lower_emit(L, O_MIN, KL, SK_I64, n64, ir_con_int(L->f, KL, 100000), REF_NONE, 0);
		Ref n32 = lower_cvt(L, n64, SK_I64, SK_I32);
		return lower_scalar(ty, math_ldexp(&b, as_sk(L, arg(L, e, av, 0), ty->sk, e->span), n32));
	}
	case IN_MATH_LOG:
		if (e->call.nargs == 2) {
			MB b = mb_new(L, ty->sk);
			Ref x = as_sk(L, arg(L, e, av, 0), ty->sk, e->span), base = as_sk(L, arg(L, e, av, 1), ty->sk, e->span);
			Ref lx = math_log(&b, x);
			Ref lbase = math_log(&b, base);
			return lower_scalar(ty, mb_div(&b, lx, lbase));
		}
		break;
	case IN_MATH_POW: {
		Value y = arg(L, e, av, 1);
		MB b = mb_new(L, ty->sk);
		Ref x = as_sk(L, arg(L, e, av, 0), ty->sk, e->span);
		Ref yr = as_sk(L, y, ty->sk, e->span);
		if (b.fast && ty->sk == SK_F32) {
			Ref r = math_fast(&b, in, x, yr);
			if (r.kind != R_NONE)
				return lower_scalar(ty, r);
		}
		if (scalar_info[y.ty->sk].is_int && ty->sk == SK_F32) {
			/* an integer exponent is exact in float64: x ** n computed there */
			MB d = mb_new(L, SK_F64);
			Ref xd = lower_cvt(L, x, SK_F32, SK_F64), yd = as_sk(L, y, SK_F64, e->span);
			return lower_scalar(ty, lower_cvt(L, math_pow(&d, xd, yd), SK_F64, SK_F32));
		}
		return lower_scalar(ty, math_pow(&b, x, yr));
	}
	default:
		break;
	}
	if (in == IN_NP_TRUNC && !lower_is_floatsk(ty->sk))
		return arg(L, e, av, 0);   /* an integer loop: the argument itself */
	switch (in) {
	case IN_NP_RINT: case IN_NP_EXP2: case IN_NP_LOG2: case IN_NP_EXPM1: case IN_NP_LOG1P:
	case IN_NP_FLOAT_POWER:
		if (ty->kind == TY_SCALAR && scalar_info[ty->sk].is_complex)
			return complex_ufunc(L, e, in, av);
	}
	if (ty->kind == TY_SCALAR && scalar_info[ty->sk].is_complex && complex1(in)) {
		MB b = mb_new(L, lower_part_sk(ty->sk));
		return cx_value(ty, complex1(in)(&b, as_cx(L, arg(L, e, av, 0), ty->sk, e->span)));
	}
	if (ty->kind == TY_SCALAR && scalar_info[ty->sk].is_complex)
		return numpy_misc(L, e, in, av);
	Value a = arg(L, e, av, 0);
	Fn1 f1 = real1(in);
	if (f1) {
		MB b = mb_new(L, ty->sk);
		Ref x = as_sk(L, a, ty->sk, e->span);
		if (b.fast && ty->sk == SK_F32) {
			Ref r = math_fast(&b, in, x, REF_NONE);
			if (r.kind != R_NONE)
				return lower_scalar(ty, r);
		}
		return lower_scalar(ty, f1(&b, x));
	}
	Fn2 f2 = real2(in);
	if (f2) {
		MB b = mb_new(L, ty->sk);
		Ref x = as_sk(L, a, ty->sk, e->span), y = as_sk(L, arg(L, e, av, 1), ty->sk, e->span);
		return lower_scalar(ty, f2(&b, x, y));
	}
	return numpy_misc(L, e, in, av);
}

/* Every argument is lowered once, left to right, as Python evaluates
 * them, before anything else: a device function called in an argument
 * runs once, in its place. */
static Value with_f16(Lower *L, Expr *e, int in, Value *av, Type *ty);

Value lower_math_intrin(Lower *L, Expr *e, int in)
{
	Value av[MATH_MAX_ARGS];
	if (e->call.nargs > MATH_MAX_ARGS)
		ICE(L->c, "%s() lowered with %d arguments", intrin_name[in], e->call.nargs);
	for (int i = 0; i < e->call.nargs; i++)
		av[i] = lower_expr(L, e->call.args[i]);
	if (ufunc_loops(in)) {
		if (e->call.nargs > ufunc_nin(in))
			return lower_ufunc_out(L, e, in, av);
		ScalarKind k[MATH_MAX_ARGS];
		UfuncLoop lp;
		for (int i = 0; i < e->call.nargs; i++)
			k[i] = av[i].ty->sk;
		if (!ufunc_loop(in, e->call.nargs, k, &lp))
			ICE(L->c, "%s() lowered without a loop", intrin_name[in]);
		return lower_ufunc_scalar(L, e, in, av, &lp, e->ty);
	}
	return with_f16(L, e, in, av, e->ty);
}

/* math_call for a result of type ty (a float16 or bfloat16 computed as a
 * float32, then rounded once) */
static Value with_f16(Lower *L, Expr *e, int in, Value *av, Type *ty)
{
	int narrow = ty->kind == TY_SCALAR && (ty->sk == SK_F16 || ty->sk == SK_BF16);
	Type *saved = e->ty;
	e->ty = narrow ? ty_scalar(SK_F32) : ty;
	Value v = math_call(L, e, in, av);
	e->ty = saved;
	return narrow ? lower_convert(L, v, ty, e->span) : v;
}

Value lower_ufunc_scalar(Lower *L, Expr *e, int in, Value *av, const UfuncLoop *lp, Type *res)
{
	Value cv[MATH_MAX_ARGS];
	for (int i = 0; i < lp->nin; i++)
		cv[i] = lower_convert(L, av[i], ty_scalar(lp->in[i]), e->call.args[i]->span);
	/* the ufuncs whose scalar form lower_intrin.c lowers from the call */
	ScalarKind sk = lp->in[0];
	Opcode op = O_NOP_;
	switch (in) {
	case IN_NP_SQRT: op = scalar_info[sk].is_complex ? O_NOP_ : O_SQRT; break;
	case IN_NP_FLOOR: op = O_FLOOR; break;
	case IN_NP_CEIL: op = O_CEIL; break;
	case IN_NP_ABS:
		if (scalar_info[sk].is_complex) {
			ScalarKind p = lower_part_sk(sk);
			return lower_scalar(res, lower_hypot(L, p, cv[0].r, cv[0].im));
		}
		if (sk == SK_BOOL)
			return cv[0];
		return lower_scalar(res, lower_norm(L, lower_emit(L, O_ABS, lower_cls(sk), sk, cv[0].r, REF_NONE,
		                                                  REF_NONE, 0), sk));
	default: break;
	}
	if (op != O_NOP_) {
		if (!lower_is_floatsk(sk))
			return cv[0];
		return lower_scalar(res, lower_emit(L, op, lower_cls(sk), sk, cv[0].r, REF_NONE, REF_NONE, 0));
	}
	return with_f16(L, e, in, cv, res);
}

/* x ** y for floats known only at run time (lower_pow) */
Ref lower_math_pow(Lower *L, ScalarKind sk, Ref x, Ref y)
{
	MB b = mb_new(L, sk);
	if (b.fast && sk == SK_F32) {
		Ref r = math_fast(&b, IN_MATH_POW, x, y);
		if (r.kind != R_NONE)
			return r;
	}
	return math_pow(&b, x, y);
}

/*
 * sema_math.c - typing of the math library's intrinsics (IN_MATH_ACOS ..
 * IN_NP_LCM): the functions of math and cmath and NumPy's ufuncs called
 * on scalars, with Numba's rules (numba.cuda's cudamath.py and
 * cmathdecl.py, and the loop choice of Numba's ufunc database):
 *
 *   math.f(x)         float32 -> float32, float64 -> float64, integers
 *                     and bool -> float64 (float16 computes as float32)
 *   math.f(x, y)      float32 when both are float32, else float64
 *                     (atan2, hypot, copysign, fmod, remainder,
 *                     nextafter, pow; pow(x, int) keeps x's float type)
 *   math.log(x, b)    log(x) / log(b), typed as a binary function
 *   isnan/isinf/isfinite   bool; of an integer a constant
 *   frexp(x)          (float, int32); modf(x) (float, float);
 *   ldexp(x, n)       x's float type, n an integer
 *   numpy.f(x)        float ufuncs: float32 and float64 keep their type,
 *                     int8/uint8/int16/uint16/bool give float32 (the first
 *                     loop they cast to safely), wider integers float64;
 *                     the ones with complex loops take complex numbers
 *   numpy.f(x, y)     the same rule on NumPy's promotion of x and y
 *   numpy arithmetic  add, subtract, multiply, divide, floor_divide,
 *                     remainder, power, fmod, divmod: the operator's types;
 *                     comparisons and logical functions give bool; the
 *                     bitwise ones, shifts, gcd and lcm take integers;
 *                     maximum/minimum/fmax/fmin, square, negative,
 *                     positive, sign, reciprocal and conjugate keep the
 *                     promoted type
 *   cmath.f(z)        complex64 for complex64 and float32 (and smaller)
 *                     arguments, else complex128; phase and polar give
 *                     floats, rect(r, phi) a complex, isnan/isinf/isfinite
 *                     bool
 *
 * Arguments are positional (Numba takes no keywords here).  NumPy ufuncs
 * called on arrays, or with an `out` argument, are refused with a hint:
 * kernels loop over elements themselves.
 */
#include <string.h>

#include "sema.h"

enum {
	TK_F1,        /* math: unary float */
	TK_F2,        /* math: binary float */
	TK_POWM,      /* math.pow */
	TK_LOGM,      /* math.log(x[, base]) */
	TK_PRED,      /* isnan, isinf, isfinite: bool */
	TK_FREXP,
	TK_MODF,
	TK_LDEXP,
	TK_U1,        /* numpy: unary float ufunc */
	TK_U1C,       /* numpy: unary float ufunc with complex loops */
	TK_U2,        /* numpy: binary float ufunc */
	TK_SAME1,     /* numpy: the argument's (promoted) type */
	TK_SAME2,     /* numpy: maximum, minimum, fmax, fmin */
	TK_BOOL2,     /* numpy: comparisons, logical and/or/xor */
	TK_BOOL1,     /* numpy: logical_not, signbit */
	TK_BIT2,      /* numpy: bitwise and/or/xor, shifts, gcd, lcm */
	TK_BIT1,      /* numpy: invert */
	TK_ARITH,     /* numpy: the operator's typing */
	TK_DIVMOD,
	TK_C1,        /* cmath: complex -> complex */
	TK_CLOG,      /* cmath.log(z[, base]) */
	TK_CPRED,     /* cmath: bool */
	TK_CPHASE,    /* cmath.phase: float */
	TK_CPOLAR,    /* cmath.polar: (float, float) */
	TK_CRECT,     /* cmath.rect(r, phi): complex */
};

static int kind_of(int in)
{
	switch (in) {
	case IN_MATH_ATAN2: case IN_MATH_HYPOT: case IN_MATH_COPYSIGN: case IN_MATH_FMOD:
	case IN_MATH_REMAINDER: case IN_MATH_NEXTAFTER:
		return TK_F2;
	case IN_MATH_POW: return TK_POWM;
	case IN_MATH_LOG: return TK_LOGM;
	case IN_MATH_ISNAN: case IN_MATH_ISINF: case IN_MATH_ISFINITE:
	case IN_NP_ISNAN: case IN_NP_ISINF: case IN_NP_ISFINITE:
		return TK_PRED;
	case IN_MATH_FREXP: case IN_NP_FREXP: return TK_FREXP;
	case IN_MATH_MODF: case IN_NP_MODF: return TK_MODF;
	case IN_MATH_LDEXP: case IN_NP_LDEXP: return TK_LDEXP;
	case IN_NP_SIN: case IN_NP_COS: case IN_NP_TAN: case IN_NP_ARCSIN: case IN_NP_ARCCOS:
	case IN_NP_ARCTAN: case IN_NP_SINH: case IN_NP_COSH: case IN_NP_TANH: case IN_NP_ARCSINH:
	case IN_NP_ARCCOSH: case IN_NP_ARCTANH: case IN_NP_LOG: case IN_NP_LOG10: case IN_NP_EXP:
		return TK_U1C;
	case IN_NP_DEG2RAD: case IN_NP_RADIANS: case IN_NP_RAD2DEG: case IN_NP_DEGREES:
	case IN_NP_LOG2: case IN_NP_EXP2: case IN_NP_EXPM1: case IN_NP_LOG1P: case IN_NP_CBRT:
	case IN_NP_FABS: case IN_NP_SPACING: case IN_NP_TRUNC: case IN_NP_RINT:
		return TK_U1;
	case IN_NP_ARCTAN2: case IN_NP_HYPOT: case IN_NP_COPYSIGN: case IN_NP_NEXTAFTER:
	case IN_NP_LOGADDEXP: case IN_NP_LOGADDEXP2: case IN_NP_FLOAT_POWER:
		return TK_U2;
	case IN_NP_SQUARE: case IN_NP_RECIPROCAL: case IN_NP_NEGATIVE: case IN_NP_POSITIVE:
	case IN_NP_SIGN: case IN_NP_CONJUGATE:
		return TK_SAME1;
	case IN_NP_MAXIMUM: case IN_NP_MINIMUM: case IN_NP_FMAX: case IN_NP_FMIN:
		return TK_SAME2;
	case IN_NP_GREATER: case IN_NP_GREATER_EQUAL: case IN_NP_LESS: case IN_NP_LESS_EQUAL:
	case IN_NP_NOT_EQUAL: case IN_NP_EQUAL: case IN_NP_LOGICAL_AND: case IN_NP_LOGICAL_OR:
	case IN_NP_LOGICAL_XOR:
		return TK_BOOL2;
	case IN_NP_LOGICAL_NOT: case IN_NP_SIGNBIT: return TK_BOOL1;
	case IN_NP_BITWISE_AND: case IN_NP_BITWISE_OR: case IN_NP_BITWISE_XOR: case IN_NP_LEFT_SHIFT:
	case IN_NP_RIGHT_SHIFT: case IN_NP_GCD: case IN_NP_LCM:
		return TK_BIT2;
	case IN_NP_INVERT: return TK_BIT1;
	case IN_NP_ADD: case IN_NP_SUBTRACT: case IN_NP_MULTIPLY: case IN_NP_DIVIDE:
	case IN_NP_FLOOR_DIVIDE: case IN_NP_REMAINDER: case IN_NP_POWER: case IN_NP_FMOD:
		return TK_ARITH;
	case IN_NP_DIVMOD: return TK_DIVMOD;
	case IN_CMATH_ISFINITE: case IN_CMATH_ISINF: case IN_CMATH_ISNAN: return TK_CPRED;
	case IN_CMATH_PHASE: return TK_CPHASE;
	case IN_CMATH_POLAR: return TK_CPOLAR;
	case IN_CMATH_RECT: return TK_CRECT;
	case IN_CMATH_LOG: return TK_CLOG;
	default:
		if (in >= IN_CMATH_ACOS && in <= IN_CMATH_TANH)
			return TK_C1;
		return TK_F1;
	}
}

/* The AST operator of a NumPy arithmetic ufunc (fmod types as %). */
static AstOp sema_math_ufunc_op(int in)
{
	switch (in) {
	case IN_NP_ADD: return OP_ADD;
	case IN_NP_SUBTRACT: return OP_SUB;
	case IN_NP_MULTIPLY: return OP_MUL;
	case IN_NP_DIVIDE: return OP_DIV;
	case IN_NP_FLOOR_DIVIDE: return OP_FLOORDIV;
	case IN_NP_REMAINDER: case IN_NP_FMOD: return OP_MOD;
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

static Type *set(Expr *e, Type *t, Const *cv)
{
	e->ty = t;
	e->cval = cv;
	return t;
}

static const char *fname(int in)
{
	return intrin_name[in];
}

static const char *tstr(Scope *sc, const Type *t)
{
	return ty_str_of(sc->c, t);
}

static int is_bool(const Type *t)
{
	return t && t->kind == TY_SCALAR && t->sk == SK_BOOL;
}

static int is_intlike(const Type *t)
{
	return ty_is_int(t) || is_bool(t);
}

static void arity(Scope *sc, Expr *e, int in, int lo, int hi)
{
	int n = e->call.nargs;
	if (e->call.nkw)
		err_at(sc->c, e->call.kwargs[0]->span, "pass the arguments by position",
		       "%s() does not take keyword arguments in kernels", fname(in));
	if (n >= lo && n <= hi)
		return;
	if (in >= IN_NP_SIN && n > hi)
		err_at(sc->c, e->call.args[hi]->span,
		       "in a kernel NumPy functions work on scalars and return their result; store it yourself",
		       "%s() takes %d argument%s in kernels (%d given)", fname(in), hi, hi == 1 ? "" : "s", n);
	const char *hint = arena_printf(sc->c->arena, "call it as %s(%s)", fname(in),
	                                hi == 1 ? "x" : lo == 1 ? "x[, base]" : "x, y");
	if (lo == hi)
		err_at(sc->c, e->span, hint, "%s() takes %d argument%s (%d given)", fname(in), lo, lo == 1 ? "" : "s", n);
	err_at(sc->c, e->span, hint, "%s() takes %d or %d arguments (%d given)", fname(in), lo, hi, n);
}

/* a real (or, when complex_ok, complex) number argument */
static Type *number(Scope *sc, int in, Expr *a, int complex_ok)
{
	Type *t = a->ty;
	if (t->kind == TY_ARRAY && in >= IN_NP_SIN)
		err_at(sc->c, a->span, "loop over the elements and call it on each one",
		       "%s() of an array is not supported in kernels; it takes scalars", fname(in));
	if (!ty_is_number(t) || (!complex_ok && ty_is_complex(t)))
		err_at(sc->c, a->span,
		       ty_is_complex(t) ? (in >= IN_NP_SIN ? "this NumPy function takes real numbers"
		                                            : "use the cmath module for complex numbers")
		                        : "pass a number",
		       "%s() does not accept a %s argument", fname(in), tstr(sc, t));
	return t;
}

static Type *f32_or_f64(Type *t)
{
	return ty_scalar(t->sk == SK_F32 || t->sk == SK_F16 ? SK_F32 : SK_F64);
}

/* math: float32 stays, everything else computes in float64 */
static Type *math_type(Type *t)
{
	return f32_or_f64(t);
}

/* A float16 stays a float16 through the functions that Numba routes to
 * CUDA's half-precision ones (the others compute it as a float32). */
static Type *math1_type(int in, Type *t)
{
	switch (in) {
	case IN_MATH_SIN: case IN_MATH_COS: case IN_MATH_TANH: case IN_MATH_EXP: case IN_MATH_EXP2:
	case IN_MATH_LOG: case IN_MATH_LOG2: case IN_MATH_LOG10:
		if (t->sk == SK_F16)
			return t;
		break;
	}
	return math_type(t);
}

/* NumPy's float loops: small integers and bool go to float32 */
static Type *ufunc_float(Type *t)
{
	if (ty_is_complex(t))
		return t;
	switch (t->sk) {
	case SK_F16: case SK_F32: case SK_BOOL: case SK_I8: case SK_U8: case SK_I16: case SK_U16:
		return ty_scalar(SK_F32);
	default:
		return ty_scalar(SK_F64);
	}
}

static Type *complex_of(Type *t)
{
	if (ty_is_complex(t))
		return t;
	return ty_scalar(ufunc_float(t)->sk == SK_F32 ? SK_C64 : SK_C128);
}

static Const *bool_const(Ctx *c, int v)
{
	Const *k = new_const(c, PJ_V_BOOL, ty_scalar(SK_BOOL));
	k->i = v != 0;
	return k;
}

static Type *pair(Scope *sc, Type *a, Type *b)
{
	Type **el = arena_alloc(sc->c->arena, sizeof(Type *) * 2);
	el[0] = a;
	el[1] = b;
	return ty_tuple(sc->c, 2, el);
}

static Type *binop(Scope *sc, Expr *e, int in, AstOp op)
{
	Type *a = e->call.args[0]->ty, *b = e->call.args[1]->ty;
	Type *t = sema_binop_type(sc->c, op, a, b, NULL);
	if (!t)
		err_at(sc->c, e->span, NULL, "%s() of %s and %s is not supported", fname(in), tstr(sc, a), tstr(sc, b));
	return t;
}

Type *type_math_intrin(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	Expr **a = e->call.args;
	Type *t, *u;
	switch (kind_of(in)) {
	case TK_F1:
		arity(sc, e, in, 1, 1);
		return set(e, math1_type(in, number(sc, in, a[0], 0)), NULL);
	case TK_F2:
		arity(sc, e, in, 2, 2);
		t = number(sc, in, a[0], 0);
		u = number(sc, in, a[1], 0);
		return set(e, math_type(t)->sk == SK_F32 && math_type(u)->sk == SK_F32 ? ty_scalar(SK_F32)
		                                                                         : ty_scalar(SK_F64), NULL);
	case TK_POWM:
		arity(sc, e, in, 2, 2);
		t = number(sc, in, a[0], 0);
		u = number(sc, in, a[1], 0);
		if (ty_is_float(t) && is_intlike(u))
			return set(e, math_type(t), NULL);
		return set(e, math_type(t)->sk == SK_F32 && math_type(u)->sk == SK_F32 ? ty_scalar(SK_F32)
		                                                                         : ty_scalar(SK_F64), NULL);
	case TK_LOGM:
		arity(sc, e, in, 1, 2);
		t = number(sc, in, a[0], 0);
		if (e->call.nargs == 1)
			return set(e, math1_type(in, t), NULL);
		t = math_type(t);
		if (math_type(number(sc, in, a[1], 0))->sk != SK_F32)
			t = ty_scalar(SK_F64);
		return set(e, t, NULL);
	case TK_PRED:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], in >= IN_NP_SIN);
		if (is_intlike(t))
			return set(e, ty_scalar(SK_BOOL), bool_const(c, in == IN_MATH_ISFINITE || in == IN_NP_ISFINITE));
		return set(e, ty_scalar(SK_BOOL), NULL);
	case TK_FREXP:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], 0);
		t = in == IN_NP_FREXP ? ufunc_float(t) : math_type(t);
		return set(e, pair(sc, t, ty_scalar(SK_I32)), NULL);
	case TK_MODF:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], 0);
		t = in == IN_NP_MODF ? ufunc_float(t) : math_type(t);
		return set(e, pair(sc, t, t), NULL);
	case TK_LDEXP:
		arity(sc, e, in, 2, 2);
		t = number(sc, in, a[0], 0);
		u = number(sc, in, a[1], 0);
		if (!is_intlike(u))
			err_at(c, a[1]->span, "the exponent is an integer", "%s() needs an integer exponent, not %s",
			       fname(in), tstr(sc, u));
		return set(e, in == IN_NP_LDEXP ? ufunc_float(t) : math_type(t), NULL);
	case TK_U1:
		arity(sc, e, in, 1, 1);
		return set(e, ufunc_float(number(sc, in, a[0], 0)), NULL);
	case TK_U1C:
		arity(sc, e, in, 1, 1);
		return set(e, ufunc_float(number(sc, in, a[0], 1)), NULL);
	case TK_U2:
		arity(sc, e, in, 2, 2);
		t = number(sc, in, a[0], 0);
		t = ty_promote(t, number(sc, in, a[1], 0));
		if (in == IN_NP_FLOAT_POWER)
			return set(e, ty_scalar(SK_F64), NULL);
		return set(e, ufunc_float(t), NULL);
	case TK_SAME1:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], in == IN_NP_NEGATIVE || in == IN_NP_POSITIVE || in == IN_NP_SQUARE ||
		                        in == IN_NP_CONJUGATE || in == IN_NP_RECIPROCAL);
		if (t->sk == SK_F16)
			t = ty_scalar(SK_F32);
		if (is_bool(t) && in != IN_NP_CONJUGATE && in != IN_NP_POSITIVE)
			t = ty_scalar(in == IN_NP_SIGN || in == IN_NP_NEGATIVE ? SK_I64 : SK_BOOL);
		return set(e, t, NULL);
	case TK_SAME2:
		arity(sc, e, in, 2, 2);
		t = number(sc, in, a[0], 0);
		t = ty_promote(t, number(sc, in, a[1], 0));
		if (is_bool(a[0]->ty) && is_bool(a[1]->ty))
			t = ty_scalar(SK_BOOL);
		return set(e, t, NULL);
	case TK_BOOL2:
		arity(sc, e, in, 2, 2);
		number(sc, in, a[0], 1);
		number(sc, in, a[1], 1);
		if (sema_math_ufunc_op(in) != NOP)
			binop(sc, e, in, sema_math_ufunc_op(in));
		return set(e, ty_scalar(SK_BOOL), NULL);
	case TK_BOOL1:
		arity(sc, e, in, 1, 1);
		number(sc, in, a[0], in == IN_NP_LOGICAL_NOT);
		return set(e, ty_scalar(SK_BOOL), NULL);
	case TK_BIT1:
	case TK_BIT2: {
		int n = kind_of(in) == TK_BIT1 ? 1 : 2;
		arity(sc, e, in, n, n);
		for (int i = 0; i < n; i++)
			if (!is_intlike(number(sc, in, a[i], 0)))
				err_at(c, a[i]->span, "pass integers", "%s() takes integers, not %s", fname(in),
				       tstr(sc, a[i]->ty));
		if (n == 1)
			return set(e, a[0]->ty, NULL);
		if (in == IN_NP_GCD || in == IN_NP_LCM)
			return set(e, ty_promote(a[0]->ty, a[1]->ty), NULL);
		return set(e, binop(sc, e, in, sema_math_ufunc_op(in)), NULL);
	}
	case TK_ARITH:
		arity(sc, e, in, 2, 2);
		number(sc, in, a[0], in != IN_NP_FMOD && in != IN_NP_FLOOR_DIVIDE && in != IN_NP_REMAINDER);
		number(sc, in, a[1], in != IN_NP_FMOD && in != IN_NP_FLOOR_DIVIDE && in != IN_NP_REMAINDER);
		t = binop(sc, e, in, sema_math_ufunc_op(in));
		if (t->sk == SK_BOOL && in != IN_NP_ADD && in != IN_NP_MULTIPLY)
			t = ty_scalar(SK_I64);
		return set(e, t, NULL);
	case TK_DIVMOD:
		arity(sc, e, in, 2, 2);
		number(sc, in, a[0], 0);
		number(sc, in, a[1], 0);
		t = binop(sc, e, in, OP_FLOORDIV);
		return set(e, pair(sc, t, t), NULL);
	case TK_C1:
		arity(sc, e, in, 1, 1);
		return set(e, complex_of(number(sc, in, a[0], 1)), NULL);
	case TK_CLOG:
		arity(sc, e, in, 1, 2);
		t = complex_of(number(sc, in, a[0], 1));
		if (e->call.nargs == 2 && complex_of(number(sc, in, a[1], 1))->sk != SK_C64)
			t = ty_scalar(SK_C128);
		return set(e, t, NULL);
	case TK_CPRED:
		arity(sc, e, in, 1, 1);
		t = number(sc, in, a[0], 1);
		if (is_intlike(t))
			return set(e, ty_scalar(SK_BOOL), bool_const(c, in == IN_CMATH_ISFINITE));
		return set(e, ty_scalar(SK_BOOL), NULL);
	case TK_CPHASE:
		arity(sc, e, in, 1, 1);
		t = complex_of(number(sc, in, a[0], 1));
		return set(e, ty_scalar(t->sk == SK_C64 ? SK_F32 : SK_F64), NULL);
	case TK_CPOLAR:
		arity(sc, e, in, 1, 1);
		t = complex_of(number(sc, in, a[0], 1));
		t = ty_scalar(t->sk == SK_C64 ? SK_F32 : SK_F64);
		return set(e, pair(sc, t, t), NULL);
	case TK_CRECT:
		arity(sc, e, in, 2, 2);
		t = math_type(number(sc, in, a[0], 0));
		u = math_type(number(sc, in, a[1], 0));
		return set(e, ty_scalar(t->sk == SK_F32 && u->sk == SK_F32 ? SK_C64 : SK_C128), NULL);
	default:
		ICE(c, "math intrinsic %s has no typing", fname(in));
	}
}

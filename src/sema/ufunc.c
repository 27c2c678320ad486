/*
 * ufunc.c - the loops of NumPy's ufuncs and Numba's choice among them for
 * scalar arguments: the one home of the types that np.f(x[, y]) computes
 * in and returns (sema_math.c types a call with it, lower_math.c converts
 * the arguments to the loop's types).
 *
 * NumPy implements a ufunc by a list of typed loops ("bb:b" adds two
 * int8s into an int8) and runs the first loop to which every argument
 * casts safely.  Numba types a ufunc called on scalars the same way
 * (numba.np.numpy_support.ufunc_find_matching_loop), with two changes:
 * when the arguments mix integers (not bool) with floats or complex
 * numbers, any integer casts to any float or complex loop type, and the
 * float16 loops are never chosen.  So
 *
 *   np.add(uint8, uint8)    uint8, wrapping (200 + 100 : 44)
 *   np.add(int8, uint8)     int16          np.add(int64, uint64)  float64
 *   np.add(int64, float32)  float32        np.add(float16, int8)  float32
 *   np.sqrt(int8)           float32        np.sqrt(int32)         float64
 *   np.floor(int16)         int16          np.subtract(bool, bool) int8
 *
 * while the operators (+, -, ...) keep Numba's own rule of computing
 * integers in 64 bits (ty_promote).
 *
 * The lists are NumPy's own (numpy.<name>.types, NumPy 2) without the
 * float16, long double and object loops; 'q' is int64 (NumPy's 'l' on
 * LP64).  The complex loop of sign is left out: Numba's is NumPy 1's
 * (the sign of the real part), NumPy 2's is z / |z|, so np.sign of a
 * complex number is refused rather than given either meaning.
 */
#include <string.h>

#include "../core.h"

/* loops: the inputs, ":", the outputs, in NumPy's type letters (NumPy
 * writes "bb->b") */
static const char FLOAT1C[] = "f:f d:d F:F D:D";
static const char FLOAT1[] = "f:f d:d";
static const char FLOAT2[] = "ff:f dd:d";
static const char NUMBER1[] = "b:b B:B h:h H:H i:i I:I q:q Q:Q f:f d:d F:F D:D";
static const char REAL1[] = "b:b B:B h:h H:H i:i I:I q:q Q:Q f:f d:d";
static const char ROUND1[] = "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q f:f d:d";
static const char ABS1[] = "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q f:f d:d F:f D:d";
static const char TEST1[] = "?:? b:? B:? h:? H:? i:? I:? q:? Q:? f:? d:? F:? D:?";
static const char INVERT1[] = "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q";
static const char SIGNBIT1[] = "f:? d:?";
static const char FREXP1[] = "f:fi d:di";
static const char MODF1[] = "f:ff d:dd";
static const char LDEXP2[] = "fi:f fq:f di:d dq:d";
static const char INT2[] = "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q";
static const char BIT2[] = "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q";
static const char REAL2[] = "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ff:f dd:d";
static const char NUMBER2[] = "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ff:f dd:d FF:F DD:D";
static const char BOOLNUM2[] = "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ff:f dd:d "
                               "FF:F DD:D";
static const char DIVIDE2[] = "ff:f dd:d FF:F DD:D";
static const char FLOAT_POWER2[] = "dd:d DD:D";
static const char COMPARE2[] = "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? qQ:? Qq:? ff:? dd:? "
                               "FF:? DD:?";
static const char LOGIC2[] = "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? ff:? dd:? FF:? DD:?";
static const char DIVMOD2[] = "bb:bb BB:BB hh:hh HH:HH ii:ii II:II qq:qq QQ:QQ ff:ff dd:dd";

const char *ufunc_loops(int in)
{
	switch (in) {
	case IN_NP_SIN: case IN_NP_COS: case IN_NP_TAN: case IN_NP_ARCSIN: case IN_NP_ARCCOS:
	case IN_NP_ARCTAN: case IN_NP_SINH: case IN_NP_COSH: case IN_NP_TANH: case IN_NP_ARCSINH:
	case IN_NP_ARCCOSH: case IN_NP_ARCTANH: case IN_NP_LOG: case IN_NP_LOG2: case IN_NP_LOG10:
	case IN_NP_EXP: case IN_NP_EXP2: case IN_NP_EXPM1: case IN_NP_LOG1P: case IN_NP_RINT:
	case IN_NP_SQRT:
		return FLOAT1C;
	case IN_NP_DEG2RAD: case IN_NP_RADIANS: case IN_NP_RAD2DEG: case IN_NP_DEGREES: case IN_NP_CBRT:
	case IN_NP_FABS: case IN_NP_SPACING:
		return FLOAT1;
	case IN_NP_ARCTAN2: case IN_NP_HYPOT: case IN_NP_COPYSIGN: case IN_NP_NEXTAFTER:
	case IN_NP_LOGADDEXP: case IN_NP_LOGADDEXP2:
		return FLOAT2;
	case IN_NP_SQUARE: case IN_NP_RECIPROCAL: case IN_NP_NEGATIVE: case IN_NP_POSITIVE:
	case IN_NP_CONJUGATE:
		return NUMBER1;
	case IN_NP_SIGN: return REAL1;
	case IN_NP_FLOOR: case IN_NP_CEIL: case IN_NP_TRUNC: return ROUND1;
	case IN_NP_ABS: return ABS1;
	case IN_NP_ISNAN: case IN_NP_ISINF: case IN_NP_ISFINITE: case IN_NP_LOGICAL_NOT: return TEST1;
	case IN_NP_INVERT: return INVERT1;
	case IN_NP_SIGNBIT: return SIGNBIT1;
	case IN_NP_FREXP: return FREXP1;
	case IN_NP_MODF: return MODF1;
	case IN_NP_LDEXP: return LDEXP2;
	case IN_NP_LEFT_SHIFT: case IN_NP_RIGHT_SHIFT: case IN_NP_GCD: case IN_NP_LCM: return INT2;
	case IN_NP_BITWISE_AND: case IN_NP_BITWISE_OR: case IN_NP_BITWISE_XOR: return BIT2;
	case IN_NP_FMOD: case IN_NP_REMAINDER: case IN_NP_FLOOR_DIVIDE: return REAL2;
	case IN_NP_POWER: case IN_NP_SUBTRACT: return NUMBER2;
	case IN_NP_ADD: case IN_NP_MULTIPLY: case IN_NP_MAXIMUM: case IN_NP_MINIMUM: case IN_NP_FMAX:
	case IN_NP_FMIN:
		return BOOLNUM2;
	case IN_NP_DIVIDE: return DIVIDE2;
	case IN_NP_FLOAT_POWER: return FLOAT_POWER2;
	case IN_NP_EQUAL: case IN_NP_NOT_EQUAL: case IN_NP_GREATER: case IN_NP_GREATER_EQUAL: case IN_NP_LESS:
	case IN_NP_LESS_EQUAL:
		return COMPARE2;
	case IN_NP_LOGICAL_AND: case IN_NP_LOGICAL_OR: case IN_NP_LOGICAL_XOR: return LOGIC2;
	case IN_NP_DIVMOD: return DIVMOD2;
	default: return NULL;
	}
}

static int kind_of_letter(char l)
{
	static const char letters[] = "?bBhHiIqQfdFD";
	static const ScalarKind kinds[] = {SK_BOOL, SK_I8, SK_U8, SK_I16, SK_U16, SK_I32, SK_U32, SK_I64,
	                                   SK_U64, SK_F32, SK_F64, SK_C64, SK_C128};
	const char *p = strchr(letters, l);
	return p && l ? (int)kinds[p - letters] : -1;
}

int ufunc_nin(int in)
{
	const char *s = ufunc_loops(in);
	return s ? (int)(strchr(s, ':') - s) : 0;
}

static int is_intk(ScalarKind k)
{
	return scalar_info[k].is_int;
}

static int is_inexact(ScalarKind k)
{
	return scalar_info[k].is_float || scalar_info[k].is_complex;
}

/* NumPy's order of kinds for casting="same_kind": a cast that is safe,
 * or to a kind at least as wide (float64 -> float32, uint8 -> int8, not
 * int64 -> uint8) */
static int kind_rank(ScalarKind k)
{
	const ScalarInfo *s = &scalar_info[k];
	return k == SK_BOOL ? 0 : s->is_complex ? 4 : s->is_float ? 3 : s->is_signed ? 2 : 1;
}

static int same_kind(ScalarKind from, ScalarKind to)
{
	return ty_can_cast(from, to) || kind_rank(from) <= kind_rank(to);
}

int ufunc_loop(int in, int nargs, const ScalarKind *args, UfuncLoop *loop)
{
	return ufunc_loop_out(in, nargs, args, 0, NULL, loop);
}

int ufunc_nout(int in)
{
	const char *s = ufunc_loops(in);
	if (!s)
		return 0;
	const char *colon = strchr(s, ':'), *end = colon + 1;
	while (*end && *end != ' ')
		end++;
	return (int)(end - colon - 1);
}

int ufunc_loop_out(int in, int nargs, const ScalarKind *args, int nouts, const ScalarKind *outs,
                   UfuncLoop *loop)
{
	const char *s = ufunc_loops(in);
	if (!s || nargs != ufunc_nin(in))
		return 0;
	int ints = 0, inexact = 0;
	for (int i = 0; i < nargs; i++) {
		ints |= is_intk(args[i]);
		inexact |= is_inexact(args[i]);
	}
	int mixed = ints && inexact;
	while (*s) {
		const char *colon = strchr(s, ':');
		const char *end = colon + 1;
		while (*end && *end != ' ')
			end++;
		int fits = 1;
		for (int i = 0; i < nargs; i++) {
			ScalarKind to = (ScalarKind)kind_of_letter(s[i]);
			if (!(mixed && is_intk(args[i]) && is_inexact(to)) && !ty_can_cast(args[i], to))
				fits = 0;
		}
		/* explicit outputs: the loop's results cast to them "same_kind" */
		for (int i = 0; i < nouts && i < (int)(end - colon - 1); i++) {
			ScalarKind from = (ScalarKind)kind_of_letter(colon[1 + i]);
			if (!(mixed && is_intk(from) && is_inexact(outs[i])) && !same_kind(from, outs[i]))
				fits = 0;
		}
		if (fits) {
			loop->nin = nargs;
			loop->nout = (int)(end - colon - 1);
			for (int i = 0; i < nargs; i++)
				loop->in[i] = (ScalarKind)kind_of_letter(s[i]);
			for (int i = 0; i < loop->nout; i++)
				loop->out[i] = (ScalarKind)kind_of_letter(colon[1 + i]);
			return 1;
		}
		s = *end ? end + 1 : end;
	}
	return 0;
}

/* What argument i of the ufunc may be: what casts to one of its loops */
const char *ufunc_takes(int in, int i)
{
	const char *s = ufunc_loops(in);
	int b = 0, n = 0, f = 0, z = 0;
	for (const char *p = s; p && *p; p = strchr(p, ' ') ? strchr(p, ' ') + 1 : "") {
		ScalarKind k = (ScalarKind)kind_of_letter(p[i]);
		b |= k == SK_BOOL;
		n |= is_intk(k);
		f |= scalar_info[k].is_float;
		z |= scalar_info[k].is_complex;
	}
	if (z)
		return "numbers";
	if (f)
		return "real numbers";
	if (n)
		return b ? "bool or integers" : "integers";
	return "bool";
}

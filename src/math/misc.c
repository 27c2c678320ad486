/*
 * misc.c - the exact functions: frexp, ldexp, modf, remainder, nextafter,
 * NumPy's spacing, sign, maximum/minimum and fmax/fmin.  Each result is
 * exact (0 ulp), with C99 Annex F's special values.
 *
 * frexp reads the exponent from the bits (a subnormal is scaled by 2^54
 * first); ldexp is mb_scale (build.c), which rounds once even when the
 * result is subnormal.  remainder is fdlibm's: fmod(x, 2|y|) (exact, the
 * lowering's lower_fmod) and at most two exact subtractions of |y|, ties
 * to the even quotient; float32 computes in float64, where every step is
 * exact too.
 */
#include <math.h>

#include "mathlib.h"

Ref math_frexp(MB *b, Ref x, Ref *e)
{
	int d = mb_is64(b);
	Cls ik = b->ik;
	int mbits = d ? 52 : 23, bias = d ? 1022 : 126, emask = d ? 0x7ff : 0xff;
	Ref sub = mb_lt(b, mb_abs(b, x), mb_f(b, d ? 0x1p-1022 : 0x1p-126));
	Ref xs = mb_sel(b, sub, mb_mul(b, x, mb_f(b, d ? 0x1p54 : 0x1p25)), x);
	Ref ix = mb_bits(b, xs);
	Ref ef = mb_uop(b, O_AND, ik, mb_uop(b, O_SHR, ik, ix, mb_i(b, ik, mbits)), mb_i(b, ik, emask));
	if (d)
		ef = mb_cvt(b, ef, SK_U64, SK_I32);
	Ref ex = mb_iop(b, O_SUB, KW, ef, mb_i(b, KW, bias));
	ex = mb_isel(b, KW, sub, mb_iop(b, O_SUB, KW, ex, mb_i(b, KW, d ? 54 : 25)), ex);
	Ref keep = mb_i(b, ik, d ? (int64_t)0x800fffffffffffffull : (int64_t)0x807fffffu);
	Ref mb = mb_uop(b, O_OR, ik, mb_uop(b, O_AND, ik, ix, keep), mb_i(b, ik, (int64_t)bias << mbits));
	Ref m = mb_float(b, mb);
	Ref zero = mb_eq(b, x, mb_f(b, 0));
	Ref special = mb_or(b, zero, mb_not(b, mb_isfinite(b, x)));
	*e = mb_isel(b, KW, special, mb_i(b, KW, 0), ex);
	return mb_sel(b, special, x, m);
}

Ref math_ldexp(MB *b, Ref x, Ref n)
{
	return mb_scale(b, x, n);
}

Ref math_modf(MB *b, Ref x, Ref *ipart)
{
	Ref t = mb_trunc(b, x);
	*ipart = t;
	Ref xinf = mb_isinf(b, x);
	Ref f = mb_sel(b, xinf, mb_f(b, 0), mb_sub(b, x, t));
	return mb_copysign(b, f, x);
}

static Ref remainder64(MB *b, Ref x, Ref y)
{
	Ref p = mb_abs(b, y);
	Ref p2 = mb_add(b, p, p);
	Ref r = lower_fmod(b->L, SK_F64, x, mb_sel(b, mb_lt(b, p2, mb_f(b, HUGE_VAL)), p2, p));
	r = mb_sel(b, mb_lt(b, p2, mb_f(b, HUGE_VAL)), r, x);
	Ref a = mb_abs(b, r);
	/* tiny p: compare 2a with p; else a with p/2 */
	Ref tiny = mb_lt(b, p, mb_f(b, 0x1p-1021));
	Ref h = mb_mul(b, mb_f(b, 0.5), p);
	Ref c1tiny = mb_gt(b, mb_add(b, a, a), p);
	Ref c1 = mb_isel(b, KB, tiny, c1tiny, mb_gt(b, a, h));
	Ref a1 = mb_sel(b, c1, mb_sub(b, a, p), a);
	Ref c2tiny = mb_ge(b, mb_add(b, a1, a1), p);
	Ref c2 = mb_and(b, c1, mb_isel(b, KB, tiny, c2tiny, mb_ge(b, a1, h)));
	Ref a2 = mb_sel(b, c2, mb_sub(b, a1, p), a1);
	Ref res = mb_xorsign(b, a2, mb_signbit(b, x));
	/* y == 0, x infinite, NaN: NaN; y infinite: x */
	Ref yzero = mb_eq(b, p, mb_f(b, 0));
	Ref bad = mb_or(b, yzero, mb_isinf(b, x));
	bad = mb_or(b, bad, mb_anynan(b, x, y));
	Ref yinf = mb_isinf(b, y);
	res = mb_sel(b, mb_and(b, yinf, mb_isfinite(b, x)), x, res);
	return mb_sel(b, bad, mb_f(b, NAN), res);
}

Ref math_remainder(MB *b, Ref x, Ref y)
{
	return mb_via_f64_2(b, remainder64, x, y);
}

Ref math_nextafter(MB *b, Ref x, Ref y)
{
	Cls ik = b->ik;
	Ref ix = mb_bits(b, x);
	/* |x| grows when y is beyond x on x's side of zero */
	Ref ybig = mb_lt(b, x, y);
	Ref xpos = mb_gt(b, x, mb_f(b, 0));
	Ref up = mb_not(b, mb_iop(b, O_XOR, KB, ybig, xpos));
	Ref step = mb_isel(b, ik, up, mb_i(b, ik, 1), mb_i(b, ik, -1));
	Ref r = mb_float(b, mb_iop(b, O_ADD, ik, ix, step));
	Ref tiny = mb_float(b, mb_i(b, ik, 1));
	Ref xzero = mb_eq(b, x, mb_f(b, 0));
	r = mb_sel(b, xzero, mb_copysign(b, tiny, y), r);
	r = mb_sel(b, mb_eq(b, x, y), y, r);
	Ref nan = mb_anynan(b, x, y);
	return mb_sel(b, nan, mb_add(b, x, y), r);
}

/* NumPy's spacing: nextafter(x, copysign(inf, x)) - x; both zeros give
 * the smallest positive subnormal, inf gives NaN */
Ref math_spacing(MB *b, Ref x)
{
	Ref n = math_nextafter(b, x, mb_copysign(b, mb_f(b, HUGE_VAL), x));
	Ref r = mb_sub(b, n, x);
	Ref xzero = mb_eq(b, x, mb_f(b, 0));
	r = mb_sel(b, xzero, mb_float(b, mb_i(b, b->ik, 1)), r);
	return mb_sel(b, mb_isinf(b, x), mb_f(b, NAN), r);
}

/* NumPy's sign for floats: 1, -1, 0 (for both zeros), NaN */
Ref math_sign(MB *b, Ref x)
{
	Ref pos = mb_gt(b, x, mb_f(b, 0));
	Ref rneg = mb_sel(b, mb_lt(b, x, mb_f(b, 0)), mb_f(b, -1), mb_f(b, 0));
	Ref r = mb_sel(b, pos, mb_f(b, 1), rneg);
	return mb_sel(b, mb_isnan(b, x), x, r);
}

/* NumPy's loops: maximum/minimum return a NaN operand (the first one);
 * fmax/fmin return the other operand */
Ref math_maximum(MB *b, Ref x, Ref y)
{
	Ref ge = mb_ge(b, x, y);
	return mb_sel(b, mb_or(b, ge, mb_isnan(b, x)), x, y);
}

Ref math_minimum(MB *b, Ref x, Ref y)
{
	Ref le = mb_le(b, x, y);
	return mb_sel(b, mb_or(b, le, mb_isnan(b, x)), x, y);
}

Ref math_fmax(MB *b, Ref x, Ref y)
{
	Ref ge = mb_ge(b, x, y);
	return mb_sel(b, mb_or(b, ge, mb_isnan(b, y)), x, y);
}

Ref math_fmin(MB *b, Ref x, Ref y)
{
	Ref le = mb_le(b, x, y);
	return mb_sel(b, mb_or(b, le, mb_isnan(b, y)), x, y);
}

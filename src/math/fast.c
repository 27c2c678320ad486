/*
 * fast.c - the fastmath variants: with fastmath=True, the float32
 * functions that Numba maps to libdevice's __nv_fast_* functions (or to a
 * PTX approximation) use the GPU's approximate instructions (O_APPROX):
 *
 *   sin, cos       sin.approx, cos.approx
 *   tan            sin.approx / cos.approx, div.approx   (__nv_fast_tanf)
 *   exp            ex2.approx(x * log2(e))                (__nv_fast_expf)
 *   exp2           ex2.approx(x)
 *   log, log2,     lg2.approx(x) * ln(2), 1, log10(2)     (__nv_fast_logf ...)
 *   log10
 *   pow            ex2.approx(y * lg2.approx(x))          (__nv_fast_powf)
 *   tanh           tanh.approx (Numba: CC >= 7.5)
 *
 * All flush subnormals to zero.  Everything else, and all of float64,
 * keeps the accurate library.  The simulator computes these as the exact
 * function, so it matches the GPU only to the approximations' errors
 * (docs/fastmath.md).
 */
#include "mathlib.h"

Ref math_fast(MB *b, int in, Ref x, Ref y)
{
	if (b->sk != SK_F32 || !b->fast)
		return REF_NONE;
	switch (in) {
	case IN_MATH_SIN: case IN_NP_SIN:
		return mb_approx(b, AP_SIN, x);
	case IN_MATH_COS: case IN_NP_COS:
		return mb_approx(b, AP_COS, x);
	case IN_MATH_TAN: case IN_NP_TAN: {
		Ref s = mb_approx(b, AP_SIN, x);
		return mb_div_fast(b, s, mb_approx(b, AP_COS, x));
	}
	case IN_MATH_EXP: case IN_NP_EXP:
		return mb_approx(b, AP_EX2, mb_mul(b, x, mb_f(b, 1.4426950408889634)));
	case IN_MATH_EXP2: case IN_NP_EXP2:
		return mb_approx(b, AP_EX2, x);
	case IN_MATH_LOG: case IN_NP_LOG:
		return mb_mul(b, mb_approx(b, AP_LG2, x), mb_f(b, 0.6931471805599453));
	case IN_MATH_LOG2: case IN_NP_LOG2:
		return mb_approx(b, AP_LG2, x);
	case IN_MATH_LOG10: case IN_NP_LOG10:
		return mb_mul(b, mb_approx(b, AP_LG2, x), mb_f(b, 0.30102999566398120));
	case IN_MATH_POW:
		return mb_approx(b, AP_EX2, mb_mul(b, y, mb_approx(b, AP_LG2, x)));
	case IN_MATH_TANH: case IN_NP_TANH:
		return mb_approx(b, AP_TANH, x);
	default:
		return REF_NONE;
	}
}

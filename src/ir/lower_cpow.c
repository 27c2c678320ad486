/*
 * lower_cpow.c - z ** w for complex z and an exponent known only at run
 * time (complex, float or integer, converted to complex first).
 *
 * The rules are CPython's complex_pow, which Numba's CUDA target follows
 * for every exponent that is not a constant integer:
 *
 *   w == 0                  1 + 0j (0 ** 0 included)
 *   z == 0                  0 + 0j (Python raises ZeroDivisionError when
 *                           Re(w) < 0 or Im(w) != 0; a kernel cannot, and
 *                           Numba gives 0 as well)
 *   w an integer, |w|<=100  c_powi: square and multiply, in Python's order
 *                           (r = 1, then r = r * p for each set bit), and
 *                           1 / r for a negative w (Smith's division)
 *   otherwise               the polar form: |z| ** Re(w) / e^(arg(z) Im(w))
 *                           at the angle arg(z) Re(w) + Im(w) log|z|
 *
 * complex128 computes in float64 exactly as CPython does (the products
 * of c_powi are not contracted into fmas), so results differ from
 * Python's only by the last bits of the math library's functions.
 * complex64 computes the same in float64 and rounds the parts once, so
 * its results are within an ulp or two of the exact ones (Numba's own
 * float32 evaluation of the polar form loses more for large angles).
 * The integer and the polar paths are two arms of a branch: a constant
 * exponent folds one of them away.
 */
#include <math.h>

#include "../math/mathlib.h"

/* CPython's _Py_c_prod, without fma */
static Cx cprod(MB *b, Cx x, Cx y)
{
	Cx r;
	Ref ac = mb_mul(b, x.re, y.re), bd = mb_mul(b, x.im, y.im);
	r.re = mb_sub(b, ac, bd);
	Ref ad = mb_mul(b, x.re, y.im), bc = mb_mul(b, x.im, y.re);
	r.im = mb_add(b, ad, bc);
	return r;
}

/* z ** n for |n| <= 100 (n the integral float e): c_powi with the bits
 * of |n| tested at run time */
static Cx powi(MB *b, Cx z, Ref e)
{
	Lower *L = b->L;
	Ref m = lower_cvt(L, mb_abs(b, e), SK_F64, SK_I64);
	Cx r = {mb_f(b, 1), mb_f(b, 0)}, p = z;
	for (int bit = 0; bit < 7; bit++) {
		Ref set = mb_icmp(b, CC_NE, KL, mb_iop(b, O_AND, KL, m, mb_i(b, KL, (int64_t)1 << bit)), mb_i(b, KL, 0));
		Cx rp = cprod(b, r, p);
		r.re = mb_sel(b, set, rp.re, r.re);
		r.im = mb_sel(b, set, rp.im, r.im);
		if (bit < 6)
			p = cprod(b, p, p);
	}
	Cx q = math_cdiv(b, (Cx){mb_f(b, 1), mb_f(b, 0)}, r);
	Ref neg = mb_lt(b, e, mb_f(b, 0));
	r.re = mb_sel(b, neg, q.re, r.re);
	r.im = mb_sel(b, neg, q.im, r.im);
	return r;
}

/* CPython's _Py_c_pow for z != 0 */
static Cx polar(MB *b, Cx z, Cx w)
{
	Ref vabs = math_hypot(b, z.re, z.im);
	Ref len = math_pow(b, vabs, w.re);
	Ref at = math_atan2(b, z.im, z.re);
	Ref phase = mb_mul(b, at, w.re);
	Ref cplx = mb_not(b, mb_eq(b, w.im, mb_f(b, 0)));
	len = mb_sel(b, cplx, mb_div(b, len, math_exp(b, mb_mul(b, at, w.im))), len);
	phase = mb_sel(b, cplx, mb_add(b, phase, mb_mul(b, w.im, math_log(b, vabs))), phase);
	Ref re = mb_mul(b, len, math_cos(b, phase));
	Ref im = mb_mul(b, len, math_sin(b, phase));
	Cx r = {re, im};
	return r;
}

Value lower_complex_pow(Lower *L, Value z, Value w, Type *ty)
{
	ScalarKind p = lower_part_sk(ty->sk);
	MB b = mb_new(L, SK_F64);
	Ref xre = lower_cvt(L, z.r, p, SK_F64), xim = lower_cvt(L, z.im, p, SK_F64);
	Cx x = {xre, xim};
	Ref yre = lower_cvt(L, w.r, p, SK_F64), yim = lower_cvt(L, w.im, p, SK_F64);
	Cx y = {yre, yim};
	Ref zero = mb_f(&b, 0);
	/* w an integer, |w| <= 100 */
	Ref real = mb_eq(&b, y.im, zero), integral = mb_eq(&b, mb_floor(&b, y.re), y.re);
	Ref wint = mb_and(&b, real, integral);
	wint = mb_and(&b, wint, mb_le(&b, mb_abs(&b, y.re), mb_f(&b, 100)));
	int vre = mb_var(&b, KD, "cpow_re"), vim = mb_var(&b, KD, "cpow_im");
	MIf s;
	mb_if(&b, &s, wint);
	Cx r = powi(&b, x, y.re);
	mb_set(&b, vre, r.re);
	mb_set(&b, vim, r.im);
	mb_else(&b, &s);
	r = polar(&b, x, y);
	mb_set(&b, vre, r.re);
	mb_set(&b, vim, r.im);
	mb_endif(&b, &s);
	r.re = mb_get(&b, vre);
	r.im = mb_get(&b, vim);
	Ref zre0 = mb_eq(&b, x.re, zero), zim0 = mb_eq(&b, x.im, zero);
	Ref z0 = mb_and(&b, zre0, zim0);
	Ref wre0 = mb_eq(&b, y.re, zero), wim0 = mb_eq(&b, y.im, zero);
	Ref w0 = mb_and(&b, wre0, wim0);
	r.re = mb_sel(&b, w0, mb_f(&b, 1), mb_sel(&b, z0, zero, r.re));
	r.im = mb_sel(&b, w0, zero, mb_sel(&b, z0, zero, r.im));
	Value v = {.ty = ty};
	v.r = lower_cvt(L, r.re, SK_F64, p);
	v.im = lower_cvt(L, r.im, SK_F64, p);
	return v;
}

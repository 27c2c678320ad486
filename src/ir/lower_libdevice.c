/*
 * lower_libdevice.c - calls of numba.cuda.libdevice's functions
 * (IN_LD_*), built from ptxjit's own math library (src/math/), not from
 * libdevice's bitcode: the same instructions on the GPU and in the
 * simulator.
 *
 * Sema (sema_libdevice.c) has typed each call with numba-cuda's
 * signature; here each argument is converted to its declared type and
 * the function is built:
 *
 *   the functions of math (sinf, sin, expm1f, lgamma, ...)   math library
 *   erfinv erfcinv normcdf normcdfinv rsqrt rcbrt            inverse.c
 *   j0 j1 y0 y1 jn yn                                        bessel.c
 *   _rn _rz _rd _ru arithmetic and conversions               rounding.c
 *   fast_*                                                   the fastmath
 *                                                            approximations
 *   integer functions (popc, mulhi, sad, byte_perm, ...)     integer ops
 *
 * The "unsigned" functions take and return int32/int64 as Numba declares
 * them and work on the bits as unsigned.  The Bessel functions (j0, y1,
 * jn, ...) are bessel.c's.
 */
#include <math.h>
#include <string.h>

#include "../math/mathlib.h"
#include "lower.h"

enum { LD_MAX_ARGS = 3 };

typedef Ref (*Fn1)(MB *, Ref);
typedef Ref (*Fn2)(MB *, Ref, Ref);

static Ref exp10_64(MB *b, Ref x)
{
	DD p = mb_two_prod(b, x, mb_f(b, 2.302585092994046));
	return math_exp_dd(b, mb_fast_two_sum(b, p.hi, mb_fma(b, x, mb_f(b, -2.1707562233822494e-16), p.lo)));
}

static Ref exp10_1(MB *b, Ref x) { return mb_via_f64(b, exp10_64, x); }
static Ref fabs1(MB *b, Ref x) { return mb_abs(b, x); }
static Ref floor1(MB *b, Ref x) { return mb_floor(b, x); }
static Ref ceil1(MB *b, Ref x) { return mb_ceil(b, x); }
static Ref trunc1(MB *b, Ref x) { return mb_trunc(b, x); }
static Ref rint1(MB *b, Ref x) { return mb_rint(b, x); }
static Ref sqrt1(MB *b, Ref x) { return mb_sqrt(b, x); }
static Ref copysign2(MB *b, Ref x, Ref y) { return mb_copysign(b, x, y); }
static Ref fmod2(MB *b, Ref x, Ref y) { return lower_fmod(b->L, b->sk, x, y); }

/* round half away from zero */
static Ref round1(MB *b, Ref x)
{
	Ref t = mb_trunc(b, x);
	Ref half = mb_ge(b, mb_abs(b, mb_sub(b, x, t)), mb_f(b, 0.5));
	return mb_sel(b, half, mb_add(b, t, mb_copysign(b, mb_f(b, 1), x)), t);
}

/* cos(pi x) = sin(pi (1/2 - r)), r = |x| mod 2 (exact, and so is 1/2 - r
 * but for r < 1/4, where sinpi is flat) */
static Ref cospi1(MB *b, Ref x)
{
	Ref r = lower_fmod(b->L, b->sk, mb_abs(b, x), mb_f(b, 2));
	return math_sinpi(b, mb_sub(b, mb_f(b, 0.5), r));
}

static Ref fdim2(MB *b, Ref x, Ref y)
{
	Ref d = mb_sel(b, mb_gt(b, x, y), mb_sub(b, x, y), mb_f(b, 0));
	return mb_sel(b, mb_anynan(b, x, y), mb_add(b, x, y), d);
}

static Ref logb1(MB *b, Ref x)
{
	Ref e;
	math_frexp(b, x, &e);
	Ref r = mb_fromint(b, mb_iop(b, O_SUB, KW, e, mb_i(b, KW, 1)));
	r = mb_sel(b, mb_eq(b, x, mb_f(b, 0)), mb_f(b, -INFINITY), r);
	return mb_sel(b, mb_isfinite(b, x), r, mb_abs(b, x));
}

static Fn1 unary(int in)
{
	switch (in) {
	case IN_LD_acos: case IN_LD_acosf: return math_acos;
	case IN_LD_asin: case IN_LD_asinf: return math_asin;
	case IN_LD_atan: case IN_LD_atanf: return math_atan;
	case IN_LD_acosh: case IN_LD_acoshf: return math_acosh;
	case IN_LD_asinh: case IN_LD_asinhf: return math_asinh;
	case IN_LD_atanh: case IN_LD_atanhf: return math_atanh;
	case IN_LD_sin: case IN_LD_sinf: return math_sin;
	case IN_LD_cos: case IN_LD_cosf: return math_cos;
	case IN_LD_tan: case IN_LD_tanf: return math_tan;
	case IN_LD_sinh: case IN_LD_sinhf: return math_sinh;
	case IN_LD_cosh: case IN_LD_coshf: return math_cosh;
	case IN_LD_tanh: case IN_LD_tanhf: return math_tanh;
	case IN_LD_sinpi: case IN_LD_sinpif: return math_sinpi;
	case IN_LD_cospi: case IN_LD_cospif: return cospi1;
	case IN_LD_exp: case IN_LD_expf: return math_exp;
	case IN_LD_exp2: case IN_LD_exp2f: return math_exp2_cuda;
	case IN_LD_exp10: case IN_LD_exp10f: return exp10_1;
	case IN_LD_expm1: case IN_LD_expm1f: return math_expm1;
	case IN_LD_log: case IN_LD_logf: return math_log;
	case IN_LD_log2: case IN_LD_log2f: return math_log2;
	case IN_LD_log10: case IN_LD_log10f: return math_log10;
	case IN_LD_log1p: case IN_LD_log1pf: return math_log1p;
	case IN_LD_logb: case IN_LD_logbf: return logb1;
	case IN_LD_erf: case IN_LD_erff: return math_erf;
	case IN_LD_erfc: case IN_LD_erfcf: return math_erfc;
	case IN_LD_erfinv: case IN_LD_erfinvf: return math_erfinv;
	case IN_LD_erfcinv: case IN_LD_erfcinvf: return math_erfcinv;
	case IN_LD_erfcx: case IN_LD_erfcxf: return math_erfcx;
	case IN_LD_normcdf: case IN_LD_normcdff: return math_normcdf;
	case IN_LD_normcdfinv: case IN_LD_normcdfinvf: return math_normcdfinv;
	case IN_LD_tgamma: case IN_LD_tgammaf: return math_tgamma;
	case IN_LD_lgamma: case IN_LD_lgammaf: return math_lgamma;
	case IN_LD_j0: case IN_LD_j0f: return math_j0;
	case IN_LD_j1: case IN_LD_j1f: return math_j1;
	case IN_LD_y0: case IN_LD_y0f: return math_y0;
	case IN_LD_y1: case IN_LD_y1f: return math_y1;
	case IN_LD_cbrt: case IN_LD_cbrtf: return math_cbrt;
	case IN_LD_rcbrt: case IN_LD_rcbrtf: return math_rcbrt;
	case IN_LD_rsqrt: case IN_LD_rsqrtf: return math_rsqrt;
	case IN_LD_sqrt: case IN_LD_sqrtf: return sqrt1;
	case IN_LD_fabs: case IN_LD_fabsf: return fabs1;
	case IN_LD_floor: case IN_LD_floorf: return floor1;
	case IN_LD_ceil: case IN_LD_ceilf: return ceil1;
	case IN_LD_trunc: case IN_LD_truncf: return trunc1;
	case IN_LD_rint: case IN_LD_rintf: case IN_LD_nearbyint: case IN_LD_nearbyintf: return rint1;
	case IN_LD_round: case IN_LD_roundf: return round1;
	default: return NULL;
	}
}

/* the functions of an int32 order n and x: jn, yn */
static Ref (*of_order(int in))(MB *, Ref, Ref)
{
	switch (in) {
	case IN_LD_jn: case IN_LD_jnf: return math_jn;
	case IN_LD_yn: case IN_LD_ynf: return math_yn;
	default: return NULL;
	}
}

static Fn2 binary(int in)
{
	switch (in) {
	case IN_LD_atan2: case IN_LD_atan2f: return math_atan2;
	case IN_LD_hypot: case IN_LD_hypotf: return math_hypot;
	case IN_LD_pow: case IN_LD_powf: return math_pow;
	case IN_LD_copysign: case IN_LD_copysignf: return copysign2;
	case IN_LD_fmod: case IN_LD_fmodf: return fmod2;
	case IN_LD_remainder: case IN_LD_remainderf: return math_remainder;
	case IN_LD_nextafter: case IN_LD_nextafterf: return math_nextafter;
	case IN_LD_fmax: case IN_LD_fmaxf: return math_fmax;
	case IN_LD_fmin: case IN_LD_fminf: return math_fmin;
	case IN_LD_fdim: case IN_LD_fdimf: return fdim2;
	default: return NULL;
	}
}

/* ------------------------------------------------------------- helpers */

static Value pair(Lower *L, Type *ty, Ref a, Ref b)
{
	Value v = {.ty = ty, .n = 2};
	v.elts = arena_alloc(L->c->arena, sizeof(Value) * 2);
	v.elts[0] = lower_scalar(ty->elts[0], a);
	v.elts[1] = lower_scalar(ty->elts[1], b);
	return v;
}

static Ref icon(Lower *L, Cls k, int64_t v)
{
	return ir_con_int(L->f, k, v);
}

static Ref iop(Lower *L, Opcode op, ScalarKind sk, Ref a, Ref b)
{
	return lower_emit(L, op, lower_cls(sk), sk, a, b, REF_NONE, 0);
}

static int rounding_mode(const char *name)
{
	const char *u = strrchr(name, '_');
	if (!u)
		return -1;
	if (!strcmp(u, "_rn"))
		return RND_NEAR;
	if (!strcmp(u, "_rz"))
		return RND_ZERO;
	if (!strcmp(u, "_rd"))
		return RND_DOWN;
	if (!strcmp(u, "_ru"))
		return RND_UP;
	return -1;
}

/* a float rounded to an integral value by mode */
static Ref to_integral(MB *b, Ref x, int mode)
{
	switch (mode) {
	case RND_NEAR: return mb_rint(b, x);
	case RND_ZERO: return mb_trunc(b, x);
	case RND_DOWN: return mb_floor(b, x);
	default: return mb_ceil(b, x);
	}
}

/* the integer kind a conversion's name says ("int", "uint", "ll", "ull") */
static ScalarKind int_kind(const char *s, size_t n)
{
	if (n == 3 && !strncmp(s, "int", 3))
		return SK_I32;
	if (n == 4 && !strncmp(s, "uint", 4))
		return SK_U32;
	if (n == 2 && !strncmp(s, "ll", 2))
		return SK_I64;
	if (n == 3 && !strncmp(s, "ull", 3))
		return SK_U64;
	return SK_BOOL;   /* none */
}

/* <from>2<to>_<mode>: double2int_rd, ll2float_ru, double2float_rz, ... */
static int conversion(Lower *L, int in, const char *name, const Ref *x, Ref *out)
{
	int mode = rounding_mode(name);
	const char *two = strchr(name, '2'), *u = strrchr(name, '_');
	if (mode < 0 || !two || !u || u < two)
		return 0;
	size_t nf = (size_t)(two - name), nt = (size_t)(u - two - 1);
	const char *to = two + 1;
	ScalarKind res = libdevice_result(L->c, in)->sk;
	int from_float = (nf == 5 && !strncmp(name, "float", 5)) || (nf == 6 && !strncmp(name, "double", 6));
	if (from_float) {
		ScalarKind fsk = libdevice_arg(in, 0)->sk;
		MB b = mb_new(L, fsk);
		if ((nt == 5 && !strncmp(to, "float", 5))) {
			MB f = mb_new(L, SK_F32);
			*out = math_narrow_rnd(&f, x[0], mode);
			return 1;
		}
		ScalarKind isk = int_kind(to, nt);
		if (isk == SK_BOOL)
			return 0;
		Ref r = lower_cvt(L, to_integral(&b, x[0], mode), fsk, isk);
		*out = lower_cvt(L, r, isk, res);
		return 1;
	}
	ScalarKind isk = int_kind(name, nf);
	if (isk == SK_BOOL)
		return 0;
	int is_unsigned = isk == SK_U32 || isk == SK_U64;
	Ref v = lower_cvt(L, x[0], libdevice_arg(in, 0)->sk, isk);   /* the bits, as the kind named */
	if (mode == RND_NEAR) {
		*out = lower_cvt(L, v, isk, res);
		return 1;
	}
	MB b = mb_new(L, res);
	Ref w = lower_cvt(L, v, isk, is_unsigned ? SK_U64 : SK_I64);
	*out = math_int_rnd(&b, w, is_unsigned, mode);
	return 1;
}

/* fadd_rz, dmul_ru, fsqrt_rd, drcp_rn, fdiv_rn, fmaf_rn, ... */
static int arith(Lower *L, int in, const char *name, const Ref *x, Ref *out)
{
	int mode = rounding_mode(name);
	if (mode < 0 || (name[0] != 'f' && name[0] != 'd'))
		return 0;
	ScalarKind sk = libdevice_arg(in, 0)->sk;
	MB b = mb_new(L, sk);
	const char *op = name + 1;
	if (!strncmp(op, "add_", 4))
		*out = math_add_rnd(&b, x[0], x[1], mode);
	else if (!strncmp(op, "sub_", 4))
		*out = math_add_rnd(&b, x[0], mb_neg(&b, x[1]), mode);
	else if (!strncmp(op, "mul_", 4))
		*out = math_mul_rnd(&b, x[0], x[1], mode);
	else if (!strncmp(op, "div_", 4))
		*out = math_div_rnd(&b, x[0], x[1], mode);
	else if (!strncmp(op, "rcp_", 4))
		*out = math_div_rnd(&b, mb_f(&b, 1), x[0], mode);
	else if (!strncmp(op, "sqrt_", 5))
		*out = math_sqrt_rnd(&b, x[0], mode);
	else if (!strcmp(name, "frsqrt_rn"))
		*out = math_rsqrt(&b, x[0]);
	else if (!strncmp(name, "fma_", 4) || !strncmp(name, "fmaf_", 5))
		*out = math_fma_rnd(&b, x[0], x[1], x[2], mode);
	else
		return 0;
	return 1;
}

/* ------------------------------------------------------------ integers */

/* the high 64 bits of the 128-bit product of two uint64s, in 32-bit limbs */
static Ref umul64hi(Lower *L, Ref a, Ref b)
{
	Ref m = icon(L, KL, 0xffffffff), s = icon(L, KL, 32);
	Ref al = iop(L, O_AND, SK_U64, a, m), ah = iop(L, O_SHR, SK_U64, a, s);
	Ref bl = iop(L, O_AND, SK_U64, b, m), bh = iop(L, O_SHR, SK_U64, b, s);
	Ref ll = iop(L, O_MUL, SK_U64, al, bl), hl = iop(L, O_MUL, SK_U64, ah, bl);
	Ref lh = iop(L, O_MUL, SK_U64, al, bh), hh = iop(L, O_MUL, SK_U64, ah, bh);
	Ref mid = iop(L, O_ADD, SK_U64, iop(L, O_SHR, SK_U64, ll, s), iop(L, O_AND, SK_U64, hl, m));
	mid = iop(L, O_ADD, SK_U64, mid, iop(L, O_AND, SK_U64, lh, m));
	Ref hi = iop(L, O_ADD, SK_U64, hh, iop(L, O_SHR, SK_U64, hl, s));
	hi = iop(L, O_ADD, SK_U64, hi, iop(L, O_SHR, SK_U64, lh, s));
	return iop(L, O_ADD, SK_U64, hi, iop(L, O_SHR, SK_U64, mid, s));
}

/* signed: the unsigned product's high half less b for a < 0, a for b < 0 */
static Ref mul64hi(Lower *L, Ref a, Ref b)
{
	Ref hi = umul64hi(L, a, b), zero = icon(L, KL, 0);
	Ref fa = lower_sel(L, KL, lower_cmp(L, CC_LT, SK_I64, a, zero), b, zero);
	Ref fb = lower_sel(L, KL, lower_cmp(L, CC_LT, SK_I64, b, zero), a, zero);
	return iop(L, O_SUB, SK_I64, iop(L, O_SUB, SK_I64, hi, fa), fb);
}

/* the 32-bit x and y widened (sk: SK_I64 signed, SK_U64 unsigned) */
static void widen2(Lower *L, const Ref *x, ScalarKind sk, Ref *a, Ref *b)
{
	ScalarKind from = sk == SK_I64 ? SK_I32 : SK_U32;
	*a = lower_cvt(L, x[0], from, sk);
	*b = lower_cvt(L, x[1], from, sk);
}

static Ref narrow(Lower *L, Ref r, ScalarKind from)
{
	return lower_cvt(L, r, from, SK_I32);
}

/* (x + y [+ 1]) >> 1 without overflow */
static Ref halving_add(Lower *L, const Ref *x, ScalarKind wide, int round)
{
	Ref a, b;
	widen2(L, x, wide, &a, &b);
	Ref s = iop(L, O_ADD, wide, a, b);
	if (round)
		s = iop(L, O_ADD, wide, s, icon(L, KL, 1));
	return narrow(L, iop(L, O_SHR, wide, s, icon(L, KL, 1)), wide);
}

/* |x - y| + z, x and y signed or unsigned 32-bit */
static Ref sad(Lower *L, const Ref *x, ScalarKind wide)
{
	Ref a, b;
	widen2(L, x, wide, &a, &b);
	Ref d = iop(L, O_SUB, SK_I64, a, b);
	Ref ad = lower_emit(L, O_ABS, KL, SK_I64, d, REF_NONE, REF_NONE, 0);
	return iop(L, O_ADD, SK_U32, narrow(L, ad, SK_I64), x[2]);
}

/* the low 32 bits of the product of x's and y's low 24 bits */
static Ref mul24(Lower *L, const Ref *x, int is_signed)
{
	Ref a = x[0], b = x[1];
	if (is_signed) {
		a = iop(L, O_SHR, SK_I32, iop(L, O_SHL, SK_I32, a, icon(L, KW, 8)), icon(L, KW, 8));
		b = iop(L, O_SHR, SK_I32, iop(L, O_SHL, SK_I32, b, icon(L, KW, 8)), icon(L, KW, 8));
	} else {
		a = iop(L, O_AND, SK_U32, a, icon(L, KW, 0xffffff));
		b = iop(L, O_AND, SK_U32, b, icon(L, KW, 0xffffff));
	}
	return iop(L, O_MUL, SK_I32, a, b);
}

/* byte n of the result is byte (s >> 4n) & 7 of the 8 bytes y:x */
static Ref byte_perm(Lower *L, const Ref *x)
{
	Ref lo = lower_cvt(L, x[0], SK_U32, SK_U64), hi = lower_cvt(L, x[1], SK_U32, SK_U64);
	Ref both = iop(L, O_OR, SK_U64, lo, iop(L, O_SHL, SK_U64, hi, icon(L, KL, 32)));
	Ref r = icon(L, KW, 0);
	for (int n = 0; n < 4; n++) {
		Ref sel = iop(L, O_AND, SK_U32, iop(L, O_SHR, SK_U32, x[2], icon(L, KW, 4 * n)), icon(L, KW, 7));
		Ref sh = lower_cvt(L, iop(L, O_SHL, SK_U32, sel, icon(L, KW, 3)), SK_U32, SK_U64);
		Ref byte = lower_cvt(L, iop(L, O_AND, SK_U64, iop(L, O_SHR, SK_U64, both, sh), icon(L, KL, 0xff)),
		                     SK_U64, SK_U32);
		r = iop(L, O_OR, SK_U32, r, iop(L, O_SHL, SK_U32, byte, icon(L, KW, 8 * n)));
	}
	return r;
}

/* ffs: the position of the lowest set bit, from 1; 0 for 0 */
static Ref ffs_(Lower *L, Ref x, ScalarKind u)
{
	Cls k = lower_cls(u);
	Ref low = iop(L, O_XOR, u, x, iop(L, O_SUB, u, x, icon(L, k, 1)));
	Ref n = lower_cvt(L, lower_emit(L, O_POPC, k, u, low, REF_NONE, REF_NONE, 0), u, SK_I32);
	return lower_sel(L, KW, lower_cmp(L, CC_EQ, u, x, icon(L, k, 0)), icon(L, KW, 0), n);
}

static Ref integer(Lower *L, int in, const Ref *x, int *ok)
{
	Ref a, b;
	*ok = 1;
	switch (in) {
	case IN_LD_abs: return lower_emit(L, O_ABS, KW, SK_I32, x[0], REF_NONE, REF_NONE, 0);
	case IN_LD_llabs: return lower_emit(L, O_ABS, KL, SK_I64, x[0], REF_NONE, REF_NONE, 0);
	case IN_LD_min: return iop(L, O_MIN, SK_I32, x[0], x[1]);
	case IN_LD_max: return iop(L, O_MAX, SK_I32, x[0], x[1]);
	case IN_LD_umin: return iop(L, O_MIN, SK_U32, x[0], x[1]);
	case IN_LD_umax: return iop(L, O_MAX, SK_U32, x[0], x[1]);
	case IN_LD_llmin: return iop(L, O_MIN, SK_I64, x[0], x[1]);
	case IN_LD_llmax: return iop(L, O_MAX, SK_I64, x[0], x[1]);
	case IN_LD_ullmin: return iop(L, O_MIN, SK_U64, x[0], x[1]);
	case IN_LD_ullmax: return iop(L, O_MAX, SK_U64, x[0], x[1]);
	case IN_LD_popc: return lower_emit(L, O_POPC, KW, SK_U32, x[0], REF_NONE, REF_NONE, 0);
	case IN_LD_popcll:
		return narrow(L, lower_emit(L, O_POPC, KL, SK_U64, x[0], REF_NONE, REF_NONE, 0), SK_U64);
	case IN_LD_clz: return lower_emit(L, O_CLZ, KW, SK_U32, x[0], REF_NONE, REF_NONE, 0);
	case IN_LD_clzll:
		return narrow(L, lower_emit(L, O_CLZ, KL, SK_U64, x[0], REF_NONE, REF_NONE, 0), SK_U64);
	case IN_LD_brev: return lower_emit(L, O_BREV, KW, SK_U32, x[0], REF_NONE, REF_NONE, 0);
	case IN_LD_brevll: return lower_emit(L, O_BREV, KL, SK_U64, x[0], REF_NONE, REF_NONE, 0);
	case IN_LD_ffs: return ffs_(L, x[0], SK_U32);
	case IN_LD_ffsll: return ffs_(L, x[0], SK_U64);
	case IN_LD_mulhi: case IN_LD_umulhi: {
		ScalarKind w = in == IN_LD_mulhi ? SK_I64 : SK_U64;
		widen2(L, x, w, &a, &b);
		return narrow(L, iop(L, O_SHR, w, iop(L, O_MUL, w, a, b), icon(L, KL, 32)), w);
	}
	case IN_LD_mul64hi: return mul64hi(L, x[0], x[1]);
	case IN_LD_umul64hi: return umul64hi(L, x[0], x[1]);
	case IN_LD_mul24: return mul24(L, x, 1);
	case IN_LD_umul24: return mul24(L, x, 0);
	case IN_LD_hadd: return halving_add(L, x, SK_I64, 0);
	case IN_LD_rhadd: return halving_add(L, x, SK_I64, 1);
	case IN_LD_uhadd: return halving_add(L, x, SK_U64, 0);
	case IN_LD_urhadd: return halving_add(L, x, SK_U64, 1);
	case IN_LD_sad: return sad(L, x, SK_I64);
	case IN_LD_usad: return sad(L, x, SK_U64);
	case IN_LD_byte_perm: return byte_perm(L, x);
	default:
		*ok = 0;
		return REF_NONE;
	}
}

/* ---------------------------------------------------------- float misc */

static Ref ilogb1(MB *b, Ref x)
{
	Ref e;
	math_frexp(b, x, &e);
	Ref r = mb_iop(b, O_SUB, KW, e, mb_i(b, KW, 1));
	r = mb_isel(b, KW, mb_isinf(b, x), mb_i(b, KW, INT32_MAX), r);
	Ref bad = mb_or(b, mb_isnan(b, x), mb_eq(b, x, mb_f(b, 0)));
	return mb_isel(b, KW, bad, mb_i(b, KW, INT32_MIN), r);
}

/* remainder(x, y) and the low three bits of the quotient it rounds,
 * signed as x / y: from |x| mod 8|y|, exact */
static Value remquo2(Lower *L, MB *b, Type *ty, Ref x, Ref y)
{
	Ref r = math_remainder(b, x, y);
	Ref ax = mb_abs(b, x), ay = mb_abs(b, y);
	Ref y8 = mb_mul(b, ay, mb_f(b, 8));
	Ref m = mb_sel(b, mb_isfinite(b, y8), lower_fmod(L, b->sk, ax, y8), ax);
	Ref k = mb_rint(b, mb_div(b, mb_sub(b, m, math_remainder(b, m, ay)), ay));
	Ref q = mb_iop(b, O_AND, KW, mb_toint(b, mb_sel(b, mb_isfinite(b, k), k, mb_f(b, 0))), mb_i(b, KW, 7));
	Ref neg = mb_iop(b, O_XOR, KB, mb_signbit(b, x), mb_signbit(b, y));
	q = mb_isel(b, KW, neg, mb_iop(b, O_NEG, KW, q, REF_NONE), q);
	return pair(L, ty, r, q);
}

/* float32 to the bits of the nearest float16 */
static Ref float2half(Lower *L, MB *b, Ref x)
{
	Ref h = lower_cvt(L, lower_cvt(L, x, SK_F32, SK_F16), SK_F16, SK_F32);
	Ref a = mb_abs(b, h);
	Ref bits = mb_bits(b, a);
	Ref e = mb_uop(b, O_SHR, KW, bits, mb_i(b, KW, 23));
	Ref normal = mb_iop(b, O_OR, KW, mb_iop(b, O_SHL, KW, mb_iop(b, O_SUB, KW, e, mb_i(b, KW, 112)), mb_i(b, KW, 10)),
	                    mb_iop(b, O_AND, KW, mb_uop(b, O_SHR, KW, bits, mb_i(b, KW, 13)), mb_i(b, KW, 0x3ff)));
	Ref sub = mb_toint(b, mb_mul(b, a, mb_f(b, 0x1p24)));
	Ref r = mb_isel(b, KW, mb_lt(b, a, mb_f(b, 0x1p-14)), sub, normal);
	r = mb_isel(b, KW, mb_isinf(b, a), mb_i(b, KW, 0x7c00), r);
	r = mb_isel(b, KW, mb_isnan(b, a), mb_i(b, KW, 0x7fff), r);
	r = mb_isel(b, KW, mb_signbit(b, h), mb_iop(b, O_OR, KW, r, mb_i(b, KW, 0x8000)), r);
	return lower_cvt(L, r, SK_I32, SK_I16);
}

/* the bits of a float16 (the low 16 of an int16) to its float32 value */
static Ref half2float(Lower *L, MB *b, Ref h)
{
	Ref bits = mb_iop(b, O_AND, KW, lower_cvt(L, h, SK_I16, SK_I32), mb_i(b, KW, 0xffff));
	Ref e = mb_iop(b, O_AND, KW, mb_uop(b, O_SHR, KW, bits, mb_i(b, KW, 10)), mb_i(b, KW, 31));
	Ref m = mb_iop(b, O_AND, KW, bits, mb_i(b, KW, 0x3ff));
	Ref normal = mb_float(b, mb_iop(b, O_OR, KW, mb_iop(b, O_SHL, KW, mb_iop(b, O_ADD, KW, e, mb_i(b, KW, 112)),
	                                                    mb_i(b, KW, 23)),
	                                  mb_iop(b, O_SHL, KW, m, mb_i(b, KW, 13))));
	Ref sub = mb_mul(b, mb_fromint(b, m), mb_f(b, 0x1p-24));
	Ref r = mb_sel(b, mb_icmp(b, CC_EQ, KW, e, mb_i(b, KW, 0)), sub, normal);
	Ref special = mb_sel(b, mb_icmp(b, CC_EQ, KW, m, mb_i(b, KW, 0)), mb_f(b, INFINITY), mb_f(b, NAN));
	r = mb_sel(b, mb_icmp(b, CC_EQ, KW, e, mb_i(b, KW, 31)), special, r);
	Ref neg = mb_icmp(b, CC_NE, KW, mb_iop(b, O_AND, KW, bits, mb_i(b, KW, 0x8000)), mb_i(b, KW, 0));
	return mb_xorsign(b, r, neg);
}

/* the fast_* functions: the fastmath approximations, whatever the
 * kernel's fastmath setting */
static int fast(MB *b, int in, const Ref *x, Ref *out)
{
	int save = b->fast, fn;
	b->fast = 1;
	switch (in) {
	case IN_LD_fast_sinf: fn = IN_MATH_SIN; break;
	case IN_LD_fast_cosf: fn = IN_MATH_COS; break;
	case IN_LD_fast_tanf: fn = IN_MATH_TAN; break;
	case IN_LD_fast_expf: fn = IN_MATH_EXP; break;
	case IN_LD_fast_logf: fn = IN_MATH_LOG; break;
	case IN_LD_fast_log2f: fn = IN_MATH_LOG2; break;
	case IN_LD_fast_log10f: fn = IN_MATH_LOG10; break;
	case IN_LD_fast_powf: fn = IN_MATH_POW; break;
	case IN_LD_fast_exp10f:
		*out = mb_approx(b, AP_EX2, mb_mul(b, x[0], mb_f(b, 3.3219280948873622)));
		b->fast = save;
		return 1;
	case IN_LD_fast_fdividef:
		*out = mb_div_fast(b, x[0], x[1]);
		b->fast = save;
		return 1;
	default:
		b->fast = save;
		return 0;
	}
	*out = math_fast(b, fn, x[0], x[1]);
	b->fast = save;
	return 1;
}

static Value misc(Lower *L, Expr *e, int in, const Ref *x, int *ok)
{
	Type *ty = e->ty;
	ScalarKind sk = libdevice_arg(in, 0)->sk;
	MB b = mb_new(L, lower_is_floatsk(sk) ? sk : SK_F64);
	Ref r = REF_NONE;
	*ok = 1;
	switch (in) {
	case IN_LD_double_as_longlong: r = lower_emit(L, O_BITS, KL, SK_I64, x[0], REF_NONE, REF_NONE, 0); break;
	case IN_LD_longlong_as_double: r = lower_emit(L, O_BITS, KD, SK_F64, x[0], REF_NONE, REF_NONE, 0); break;
	case IN_LD_float_as_int: r = lower_emit(L, O_BITS, KW, SK_I32, x[0], REF_NONE, REF_NONE, 0); break;
	case IN_LD_int_as_float: r = lower_emit(L, O_BITS, KS, SK_F32, x[0], REF_NONE, REF_NONE, 0); break;
	case IN_LD_double2hiint: r = mb_hiword(&b, x[0]); break;
	case IN_LD_double2loint: r = mb_loword(&b, x[0]); break;
	case IN_LD_hiloint2double: r = mb_from_words(&b, x[0], x[1]); break;
	case IN_LD_isnand: case IN_LD_isnanf: r = lower_cvt(L, mb_isnan(&b, x[0]), SK_BOOL, SK_I32); break;
	case IN_LD_isinfd: case IN_LD_isinff: r = lower_cvt(L, mb_isinf(&b, x[0]), SK_BOOL, SK_I32); break;
	case IN_LD_isfinited: case IN_LD_finitef: r = lower_cvt(L, mb_isfinite(&b, x[0]), SK_BOOL, SK_I32); break;
	case IN_LD_signbitd: case IN_LD_signbitf: r = lower_cvt(L, mb_signbit(&b, x[0]), SK_BOOL, SK_I32); break;
	case IN_LD_ilogb: case IN_LD_ilogbf: r = ilogb1(&b, x[0]); break;
	case IN_LD_ldexp: case IN_LD_ldexpf: case IN_LD_scalbn: case IN_LD_scalbnf:
		r = math_ldexp(&b, x[0], x[1]);
		break;
	case IN_LD_powi: case IN_LD_powif: {
		MB d = mb_new(L, SK_F64);
		Ref xd = lower_cvt(L, x[0], sk, SK_F64), nd = lower_cvt(L, x[1], SK_I32, SK_F64);
		r = lower_cvt(L, math_pow(&d, xd, nd), SK_F64, sk);
		break;
	}
	case IN_LD_frexp: case IN_LD_frexpf: {
		Ref ex;
		Ref m = math_frexp(&b, x[0], &ex);
		return pair(L, ty, m, ex);
	}
	case IN_LD_modf: case IN_LD_modff: {
		Ref ip;
		Ref f = math_modf(&b, x[0], &ip);
		return pair(L, ty, f, ip);
	}
	case IN_LD_remquo: case IN_LD_remquof:
		return remquo2(L, &b, ty, x[0], x[1]);
	case IN_LD_sincos: case IN_LD_sincosf: {
		Ref s = math_sin(&b, x[0]);
		Ref c = math_cos(&b, x[0]);
		return pair(L, ty, s, c);
	}
	case IN_LD_sincospi: case IN_LD_sincospif: {
		Ref s = math_sinpi(&b, x[0]);
		Ref c = cospi1(&b, x[0]);
		return pair(L, ty, s, c);
	}
	case IN_LD_fast_sincosf: {
		Ref s, c;
		Ref y[2] = {x[0], REF_NONE};
		fast(&b, IN_LD_fast_sinf, y, &s);
		fast(&b, IN_LD_fast_cosf, y, &c);
		return pair(L, ty, s, c);
	}
	case IN_LD_llrint: case IN_LD_llrintf: r = lower_cvt(L, mb_rint(&b, x[0]), sk, SK_I64); break;
	case IN_LD_llround: case IN_LD_llroundf: r = lower_cvt(L, round1(&b, x[0]), sk, SK_I64); break;
	case IN_LD_saturatef: r = mb_fma_mode(&b, x[0], mb_f(&b, 1), mb_f(&b, 0), FMA_SAT); break;
	case IN_LD_fma: case IN_LD_fmaf: r = mb_fma(&b, x[0], x[1], x[2]); break;
	case IN_LD_float2half_rn: r = float2half(L, &b, x[0]); break;
	case IN_LD_half2float: {
		MB f = mb_new(L, SK_F32);
		r = half2float(L, &f, x[0]);
		break;
	}
	default:
		if (fast(&b, in, x, &r))
			break;
		*ok = 0;
		return lower_none(ty);
	}
	return lower_scalar(ty, r);
}

/* ---------------------------------------------------------------- entry */

/* Every argument is lowered once, left to right, and converted to its
 * declared type. */
Value lower_libdevice(Lower *L, Expr *e, int in)
{
	Ref x[LD_MAX_ARGS] = {REF_NONE, REF_NONE, REF_NONE};
	if (e->call.nargs > LD_MAX_ARGS)
		ICE(L->c, "%s() lowered with %d arguments", intrin_name[in], e->call.nargs);
	for (int i = 0; i < e->call.nargs; i++) {
		Value v = lower_expr(L, e->call.args[i]);
		x[i] = lower_convert(L, v, libdevice_arg(in, i), e->call.args[i]->span).r;
	}
	const char *name = intrin_name[in] + strlen("cuda.libdevice.");
	Type *ty = e->ty;
	Fn1 f1 = unary(in);
	Fn2 f2 = binary(in), fn = of_order(in);
	if (f1 || f2 || fn) {
		MB b = mb_new(L, ty->sk);
		return lower_scalar(ty, f1 ? f1(&b, x[0]) : f2 ? f2(&b, x[0], x[1]) : fn(&b, x[0], x[1]));
	}
	int ok;
	Ref r = integer(L, in, x, &ok);
	if (ok)
		return lower_scalar(ty, r);
	Value v = misc(L, e, in, x, &ok);
	if (ok)
		return v;
	if (arith(L, in, name, x, &r) || conversion(L, in, name, x, &r))
		return lower_scalar(ty, r);
	ICE(L->c, "%s() has no lowering", intrin_name[in]);
}

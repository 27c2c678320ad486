/*
 * mathlib.h - ptxjit's math library: the private interface of src/math/
 * and of its one user, src/ir/lower_math.c.
 *
 * Every function of the library is an IR builder: a C function that
 * emits, into the function being lowered, the instructions that compute
 * it from the IR's primitive operations (add, mul, fma, div, sqrt, rint,
 * bit casts, integer operations, compares, selects and, for the rare
 * slow paths, branches).  The same IR runs on the GPU (as PTX) and in the
 * simulator, so both give the same bits; nothing here calls the host's
 * libm at run time.  The polynomial coefficients come from
 * tools/math_coeffs.py (minimax fits made with mpmath) and live in
 * coeffs.h.
 *
 * An MB ("math builder") carries the Lower being filled and the precision
 * being built: sk is SK_F32 or SK_F64, k its value class (KS, KD), and ik
 * the integer class of the same width (KW, KL), so most algorithms are
 * written once for both precisions with a coefficient table per
 * precision.  Where an algorithm needs more range or precision than
 * float32 has, the float32 function evaluates the float64 one and rounds
 * (mb_via_f64).
 *
 * Conventions: every Ref an mb_* function takes or returns is of the
 * class its name says (floats of b->k unless the name says int or bool);
 * integer helpers take the class explicitly.  Control flow (mb_if) uses
 * the lowering's SSA slots (mb_var), so a value set on both arms of an
 * if is read after it as one value.
 */
#ifndef PTXJIT_MATHLIB_H
#define PTXJIT_MATHLIB_H

#include "../ir/lower.h"

typedef struct MB {
	Lower *L;
	ScalarKind sk;     /* SK_F32 or SK_F64 */
	Cls k;             /* KS or KD */
	Cls ik;            /* KW or KL */
	ScalarKind isk;    /* SK_I32 or SK_I64 */
	int fast;          /* fastmath: hardware approximations allowed */
} MB;

/* An if/else under construction. */
typedef struct MIf {
	Blk *then, *els, *join;
} MIf;

/* A while loop under construction. */
typedef struct MLoop {
	Blk *head, *exit;
} MLoop;

/* A double-double (or float-float) value hi + lo, |lo| <= ulp(hi)/2. */
typedef struct DD {
	Ref hi, lo;
} DD;

/* build.c: the builder */
MB mb_new(Lower *L, ScalarKind sk);
int mb_is64(const MB *b);
Ref mb_f(MB *b, double v);                 /* a constant of b's precision */
Ref mb_i(MB *b, Cls k, int64_t v);         /* an integer constant of class k */
Ref mb_true(MB *b);
Ref mb_add(MB *b, Ref x, Ref y);
Ref mb_sub(MB *b, Ref x, Ref y);
Ref mb_mul(MB *b, Ref x, Ref y);
Ref mb_div(MB *b, Ref x, Ref y);           /* IEEE division, even under fastmath */
/* float32 only: x / y approximated: div.approx.ftz.f32 (the '/' of a
 * fastmath kernel), or x * rcp.approx(y) in a kernel without fastmath */
Ref mb_div_fast(MB *b, Ref x, Ref y);
Ref mb_fma(MB *b, Ref x, Ref y, Ref z);    /* x*y + z rounded once */
/* float32 only: x*y + z with the modes FMA_RM, FMA_SAT */
Ref mb_fma_mode(MB *b, Ref x, Ref y, Ref z, int mode);
Ref mb_neg(MB *b, Ref x);
Ref mb_abs(MB *b, Ref x);
Ref mb_sqrt(MB *b, Ref x);
Ref mb_floor(MB *b, Ref x);
Ref mb_ceil(MB *b, Ref x);
Ref mb_trunc(MB *b, Ref x);
Ref mb_rint(MB *b, Ref x);
Ref mb_min(MB *b, Ref x, Ref y);           /* IEEE minNum */
Ref mb_max(MB *b, Ref x, Ref y);
Ref mb_cmp(MB *b, CondCode cc, Ref x, Ref y);
Ref mb_lt(MB *b, Ref x, Ref y);
Ref mb_le(MB *b, Ref x, Ref y);
Ref mb_gt(MB *b, Ref x, Ref y);
Ref mb_ge(MB *b, Ref x, Ref y);
Ref mb_eq(MB *b, Ref x, Ref y);
Ref mb_isnan(MB *b, Ref x);
Ref mb_anynan(MB *b, Ref x, Ref y);        /* x or y is a NaN */
Ref mb_isinf(MB *b, Ref x);
Ref mb_isfinite(MB *b, Ref x);
Ref mb_sel(MB *b, Ref c, Ref x, Ref y);    /* c ? x : y, floats */
Ref mb_and(MB *b, Ref p, Ref q);           /* bools */
Ref mb_or(MB *b, Ref p, Ref q);
Ref mb_not(MB *b, Ref p);
/* integers of class k (KW or KL), signed unless said */
Ref mb_iop(MB *b, Opcode op, Cls k, Ref x, Ref y);
Ref mb_uop(MB *b, Opcode op, Cls k, Ref x, Ref y);   /* unsigned: div, rem, shr, min, max */
Ref mb_icmp(MB *b, CondCode cc, Cls k, Ref x, Ref y);
Ref mb_ucmp(MB *b, CondCode cc, Cls k, Ref x, Ref y);
Ref mb_isel(MB *b, Cls k, Ref c, Ref x, Ref y);
Ref mb_cvt(MB *b, Ref x, ScalarKind from, ScalarKind to);
Ref mb_bits(MB *b, Ref x);                 /* float -> its bits (b->ik) */
Ref mb_float(MB *b, Ref i);                /* bits (b->ik) -> float */
Ref mb_from_words(MB *b, Ref hi, Ref lo);  /* two KW words -> float64 */
Ref mb_hiword(MB *b, Ref x);               /* float64 -> its high 32 bits (KW) */
Ref mb_loword(MB *b, Ref x);               /* float64 -> its low 32 bits (KW) */
Ref mb_round_magic(MB *b, Ref x, Ref y, Ref *kf, Ref *kraw); /* kf = rint(x*y), one rounding; kraw: int32 bits holding it */
Ref mb_toint(MB *b, Ref x);                /* float (integral value) -> int32 (KW), saturating */
Ref mb_approx(MB *b, ApproxFn fn, Ref x);  /* the GPU's float32 approximation of fn (O_APPROX) */
Ref mb_fromint(MB *b, Ref i);              /* int32 (KW) -> float */
Ref mb_pow2(MB *b, Ref e);                 /* 2^e for an int32 e in the normal range, as a float */
Ref mb_signbit(MB *b, Ref x);              /* bool: the sign bit is set */
Ref mb_copysign(MB *b, Ref x, Ref y);
Ref mb_xorsign(MB *b, Ref x, Ref s);       /* x with its sign flipped when the bool s */
Ref mb_scale(MB *b, Ref x, Ref e);         /* x * 2^e (e int32), one rounding, any range */
Ref mb_horner(MB *b, Ref x, const double *c, int n);  /* c[0] + x*(c[1] + ... x*c[n-1]) */
Ref mb_horner_sel(MB *b, Ref x, Ref pick, const double *c1, const double *c0, int n); /* pick ? c1 : c0 */
/* exact arithmetic on pairs */
DD mb_two_sum(MB *b, Ref x, Ref y);        /* x + y = hi + lo exactly */
DD mb_fast_two_sum(MB *b, Ref x, Ref y);   /* needs |x| >= |y| (or x == 0) */
DD mb_two_prod(MB *b, Ref x, Ref y);       /* x * y = hi + lo exactly (fma) */
DD mb_dd(Ref hi, Ref lo);
DD mb_dd_add(MB *b, DD x, DD y);
DD mb_dd_mul(MB *b, DD x, DD y);
DD mb_dd_mul_d(MB *b, DD x, Ref y);
/* control flow and variables */
int mb_var(MB *b, Cls k, const char *name);
void mb_set(MB *b, int var, Ref v);
Ref mb_get(MB *b, int var);
void mb_if(MB *b, MIf *s, Ref cond);
void mb_else(MB *b, MIf *s);
void mb_endif(MB *b, MIf *s);
void mb_while(MB *b, MLoop *lp);
void mb_do(MB *b, MLoop *lp, Ref cond);
void mb_endwhile(MB *b, MLoop *lp);
/* float32 functions computed by their float64 version, rounded once */
Ref mb_via_f64(MB *b, Ref (*fn)(MB *, Ref), Ref x);
Ref mb_via_f64_2(MB *b, Ref (*fn)(MB *, Ref, Ref), Ref x, Ref y);
/* a static table in constant memory (made once per kernel), as an address */
Ref mb_table(MB *b, const char *name, const void *data, int bytes);
/* the same in global memory, for tables read at thread-dependent indices;
 * read it with mb_gload */
Ref mb_gtable(MB *b, const char *name, const void *data, int bytes);
Ref mb_gload(MB *b, Ref addr, ScalarKind sk);
Ref mb_load(MB *b, Ref addr, ScalarKind sk);

/* exp_log.c */
/* exp_log.c: the table reduction of float64 log, shared with pow: for a
 * finite x > 0 (other arguments give values the callers select away;
 * subnormals are scaled by 2^54 when asked), z = x 2^-k in [0.6855,
 * 1.3711), k as a float64, and the table row of z's interval: invc ~ 1/c
 * and log(c) = chi + clo (logtab.h). */
typedef struct LogRow { Ref xs, hs, z, kd, invc, chi, clo; } LogRow;
LogRow math_log_row(MB *b, Ref x, int subnormals);
Ref math_exp(MB *b, Ref x);
Ref math_exp2(MB *b, Ref x);
Ref math_exp2_cuda(MB *b, Ref x);                   /* float32: ex2.approx.f32, as CUDA's exp2f */
Ref math_expm1(MB *b, Ref x);
Ref math_exp_scaled(MB *b, Ref x, int scale);      /* exp(x) * 2^scale, no spurious overflow */
Ref math_exp_dd(MB *b, DD x);                       /* exp(hi + lo), float64 */
Ref math_exp_dd_mul(MB *b, DD x, Ref f);            /* exp(hi + lo) * f, float64 */
DD math_exp_pair(MB *b, Ref x);                     /* exp(x) as a pair, moderate x */
Ref math_one_minus_exp(MB *b, DD x);                /* 1 - exp(hi + lo), hi in [-40, 0] */
Ref math_log(MB *b, Ref x);
Ref math_log2(MB *b, Ref x);
Ref math_log10(MB *b, Ref x);
Ref math_log1p(MB *b, Ref x);
DD math_log_dd(MB *b, Ref x);                       /* log(x) for x > 0 finite as a pair */
DD math_log_ext(MB *b, Ref x);                      /* the same to about 2^-100 (float64) */
Ref math_log_or_log1p(MB *b, Ref t, Ref use_log1p); /* log1p(t) when the bool, else log(t) */
Ref math_logaddexp(MB *b, Ref x, Ref y);
Ref math_logaddexp2(MB *b, Ref x, Ref y);

/* pow.c */
Ref math_pow(MB *b, Ref x, Ref y);
Ref math_cbrt(MB *b, Ref x);
Ref math_hypot(MB *b, Ref x, Ref y);

/* trig.c */
Ref math_sin(MB *b, Ref x);
Ref math_cos(MB *b, Ref x);
Ref math_tan(MB *b, Ref x);
Ref math_asin(MB *b, Ref x);
Ref math_acos(MB *b, Ref x);
Ref math_atan(MB *b, Ref x);
Ref math_atan2(MB *b, Ref y, Ref x);
Ref math_sinpi(MB *b, Ref x);                       /* sin(pi x) */
Ref math_sinh(MB *b, Ref x);
Ref math_cosh(MB *b, Ref x);
Ref math_tanh(MB *b, Ref x);
Ref math_asinh(MB *b, Ref x);
Ref math_acosh(MB *b, Ref x);
Ref math_atanh(MB *b, Ref x);

/* erf_gamma.c */
Ref math_erf(MB *b, Ref x);
Ref math_erfc(MB *b, Ref x);
Ref math_tgamma(MB *b, Ref x);
Ref math_lgamma(MB *b, Ref x);

/* bessel.c: Bessel functions of the first and second kind; jn and yn
 * take the order n as an int32 (KW) */
Ref math_j0(MB *b, Ref x);
Ref math_j1(MB *b, Ref x);
Ref math_y0(MB *b, Ref x);
Ref math_y1(MB *b, Ref x);
Ref math_jn(MB *b, Ref n, Ref x);
Ref math_yn(MB *b, Ref n, Ref x);

/* misc.c */
Ref math_fmod(MB *b, Ref x, Ref y);
Ref math_remainder(MB *b, Ref x, Ref y);
Ref math_nextafter(MB *b, Ref x, Ref y);
Ref math_ldexp(MB *b, Ref x, Ref n);                /* n: int32 (KW) */
Ref math_frexp(MB *b, Ref x, Ref *exp);             /* exp: int32 (KW) */
Ref math_modf(MB *b, Ref x, Ref *ipart);
Ref math_spacing(MB *b, Ref x);
Ref math_sign(MB *b, Ref x);
Ref math_fmax(MB *b, Ref x, Ref y);                 /* NaN-ignoring */
Ref math_fmin(MB *b, Ref x, Ref y);
Ref math_maximum(MB *b, Ref x, Ref y);              /* NaN-propagating */
Ref math_minimum(MB *b, Ref x, Ref y);

/* cmath.c: complex functions on (re, im) pairs of b's precision */
typedef struct Cx {
	Ref re, im;
} Cx;
Cx math_cexp(MB *b, Cx z);
Cx math_clog(MB *b, Cx z);
Cx math_clog10(MB *b, Cx z);
Cx math_csqrt(MB *b, Cx z);
Cx math_csin(MB *b, Cx z);
Cx math_ccos(MB *b, Cx z);
Cx math_ctan(MB *b, Cx z);
Cx math_csinh(MB *b, Cx z);
Cx math_ccosh(MB *b, Cx z);
Cx math_ctanh(MB *b, Cx z);
Cx math_casin(MB *b, Cx z);
Cx math_cacos(MB *b, Cx z);
Cx math_catan(MB *b, Cx z);
Cx math_casinh(MB *b, Cx z);
Cx math_cacosh(MB *b, Cx z);
Cx math_catanh(MB *b, Cx z);
Cx math_crect(MB *b, Ref r, Ref phi);
Ref math_cabs(MB *b, Cx z);
Ref math_cphase(MB *b, Cx z);
Cx math_cmul(MB *b, Cx x, Cx y);
Cx math_cdiv(MB *b, Cx x, Cx y);

/* rounding.c: results rounded by a mode (RND_NEAR: to nearest even,
 * RND_ZERO, RND_DOWN, RND_UP), as libdevice's _rn, _rz, _rd, _ru */
enum { RND_NEAR, RND_ZERO, RND_DOWN, RND_UP };
Ref math_add_rnd(MB *b, Ref x, Ref y, int mode);
Ref math_fma_rnd(MB *b, Ref x, Ref y, Ref z, int mode);   /* x*y + z rounded once in the mode */
Ref math_mul_rnd(MB *b, Ref x, Ref y, int mode);
Ref math_div_rnd(MB *b, Ref x, Ref y, int mode);
Ref math_sqrt_rnd(MB *b, Ref x, int mode);
Ref math_narrow_rnd(MB *b, Ref d, int mode);        /* float64 -> float32; b: float32 */
Ref math_int_rnd(MB *b, Ref x, int is_unsigned, int mode);   /* int64 or uint64 -> float */

/* inverse.c: inverses of erf and the normal distribution (float64; the
 * float32 versions through mb_via_f64) */
Ref math_erfinv(MB *b, Ref y);
Ref math_erfcinv(MB *b, Ref t);
Ref math_normcdf(MB *b, Ref x);
Ref math_normcdfinv(MB *b, Ref p);
Ref math_erfcx(MB *b, Ref x);
Ref math_rsqrt(MB *b, Ref x);
Ref math_rcbrt(MB *b, Ref x);

/* fast.c: fastmath variants (hardware approximations, float32) */
Ref math_fast(MB *b, int intrin, Ref x, Ref y);     /* REF_NONE when intrin has none */

#endif

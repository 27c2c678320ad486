/*
 * idiv.c - 64-bit integer division and remainder written out in PTX.
 *
 * ptxas turns div/rem.s64/u64 into a call of a routine of its own
 * (__cuda_sm20_div_s64 and the like), even when the divisor is a
 * constant.  Such a call costs an ABI call in every thread, and on an
 * H100 (driver 580, sm_90) a call of it right after a warp-divergent
 * compare-and-swap loop made the loop's address read as 0x18, a fault
 * (tests/difftest/regress/007_gpu_o0_cas_then_rem64.py).  So the back
 * end writes the division itself:
 *
 * - an unsigned constant d (Granlund and Montgomery, "Division by
 *   invariant integers using multiplication", 1994): a power of two is a
 *   shift; else the smallest s < ceil(log2 d) for which m = ceil(2^(64+s)
 *   / d) is off by at most 2^s (m d - 2^(64+s) <= 2^s) gives n / d =
 *   mulhi(n, m) >> s for every n < 2^64; where there is none, the round-up
 *   method with l = ceil(log2 d), m = floor(2^64 (2^l - d) / d) + 1,
 *   t = mulhi(n, m) and n / d = (t + ((n - t) >> 1)) >> (l - 1);
 * - a signed constant (Hacker's Delight, 2nd ed., 10-1 and 10-3, for 64
 *   bits): q = mulhi.s64(n, M), plus n when d > 0 > M, minus n when
 *   d < 0 < M, shifted right arithmetically by s, plus 1 when negative;
 *   +-2^k adds 2^k - 1 to a negative n before the shift;
 * - a divisor in a register: a reciprocal from the float unit,
 *   x ~ 2^64 / d from rcp.approx of d rounded up, scaled by 2^64 (1 - 2^-20)
 *   so that d x < 2^64 even when rcp is a few ulp high; two Newton steps
 *   x += mulhi(x, -d x) (each squares the relative error and keeps x below
 *   2^64 / d), then q = mulhi(n, x), r = n - q d and at most two
 *   corrections (r >= d: q + 1, r - d).  Signed operands go through their
 *   magnitudes (abs of INT64_MIN is 2^63 as an unsigned number) and take
 *   C's signs: the quotient's is the operands' xor, the remainder's the
 *   dividend's.
 *
 * A remainder is n - q d.  The caller keeps the divisors 0 and -1 (signed)
 * away, as it does for the PTX instructions.
 */
#include "ptx.h"

/* floor(hi * 2^64 / d) for hi < d, and the remainder: long division */
static uint64_t div128(uint64_t hi, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0;
	for (int i = 0; i < 64; i++) {
		int carry = (int)(hi >> 63);
		hi <<= 1;
		q <<= 1;
		if (carry || hi >= d) {
			hi -= d;
			q |= 1;
		}
	}
	*rem = hi;
	return q;
}

static int log2_ceil(uint64_t d)
{
	int l = 0;
	while (l < 64 && ((uint64_t)1 << l) < d)
		l++;
	return l;
}

static const char *hex(Emit *e, uint64_t v)
{
	const char *r = ptx_tmp(e, KL);
	ptx_line(e, "mov.b64 %s, 0x%016llX;", r, (unsigned long long)v);
	return r;
}

/* q = n / d for unsigned n in a register and a constant d >= 1 */
static void udiv_con(Emit *e, const char *q, const char *n, uint64_t d)
{
	int l = log2_ceil(d);
	if ((d & (d - 1)) == 0) {
		ptx_line(e, "shr.u64 %s, %s, %d;", q, n, l);
		return;
	}
	uint64_t r;
	for (int s = 0; s < l; s++) {
		uint64_t m = div128((uint64_t)1 << s, d, &r);
		if (r == 0 || d - r <= (uint64_t)1 << s) {
			ptx_line(e, "mul.hi.u64 %s, %s, %s;", q, n, hex(e, m + (r != 0)));
			ptx_line(e, "shr.u64 %s, %s, %d;", q, q, s);
			return;
		}
	}
	uint64_t m = div128((l == 64 ? 0 : (uint64_t)1 << l) - d, d, &r) + 1;
	const char *t = ptx_tmp(e, KL), *u = ptx_tmp(e, KL);
	ptx_line(e, "mul.hi.u64 %s, %s, %s;", t, n, hex(e, m));
	ptx_line(e, "sub.s64 %s, %s, %s;", u, n, t);
	ptx_line(e, "shr.u64 %s, %s, 1;", u, u);
	ptx_line(e, "add.s64 %s, %s, %s;", u, u, t);
	ptx_line(e, "shr.u64 %s, %s, %d;", q, u, l - 1);
}

/* The magic number M and shift s of a signed divisor d, 2 <= |d| < 2^63
 * and not a power of two. */
static int64_t smagic(int64_t d, int *shift)
{
	const uint64_t two63 = (uint64_t)1 << 63;
	uint64_t ad = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
	uint64_t t = two63 + ((uint64_t)d >> 63);
	uint64_t anc = t - 1 - t % ad;   /* |nc| */
	uint64_t q1 = two63 / anc, r1 = two63 - q1 * anc;
	uint64_t q2 = two63 / ad, r2 = two63 - q2 * ad, delta;
	int p = 63;
	do {
		p++;
		q1 *= 2;
		r1 *= 2;
		if (r1 >= anc) {
			q1++;
			r1 -= anc;
		}
		q2 *= 2;
		r2 *= 2;
		if (r2 >= ad) {
			q2++;
			r2 -= ad;
		}
		delta = ad - r2;
	} while (q1 < delta || (q1 == delta && r1 == 0));
	*shift = p - 64;
	uint64_t m = q2 + 1;
	return (int64_t)(d < 0 ? (uint64_t)0 - m : m);
}

/* q = n / d (C's truncation) for signed n in a register and a constant d,
 * not 0 nor -1 */
static void sdiv_con(Emit *e, const char *q, const char *n, int64_t d)
{
	uint64_t ad = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
	if (ad == 1) {
		ptx_line(e, "mov.b64 %s, %s;", q, n);
		return;
	}
	const char *t = ptx_tmp(e, KL);
	if ((ad & (ad - 1)) == 0) {
		int k = log2_ceil(ad);
		ptx_line(e, "shr.s64 %s, %s, %d;", t, n, k - 1);
		ptx_line(e, "shr.u64 %s, %s, %d;", t, t, 64 - k);
		ptx_line(e, "add.s64 %s, %s, %s;", t, t, n);
		ptx_line(e, "shr.s64 %s, %s, %d;", q, t, k);
		if (d < 0)
			ptx_line(e, "neg.s64 %s, %s;", q, q);
		return;
	}
	int s;
	int64_t m = smagic(d, &s);
	ptx_line(e, "mul.hi.s64 %s, %s, %s;", q, n, hex(e, (uint64_t)m));
	if (d > 0 && m < 0)
		ptx_line(e, "add.s64 %s, %s, %s;", q, q, n);
	else if (d < 0 && m > 0)
		ptx_line(e, "sub.s64 %s, %s, %s;", q, q, n);
	if (s)
		ptx_line(e, "shr.s64 %s, %s, %d;", q, q, s);
	ptx_line(e, "shr.u64 %s, %s, 63;", t, q);
	ptx_line(e, "add.s64 %s, %s, %s;", q, q, t);
}

/* q = n / d and r = n % d (either may be NULL) for unsigned registers, d != 0 */
static void udiv_reg(Emit *e, const char *q, const char *r, const char *n, const char *d)
{
	const char *f = ptx_tmp(e, KS), *x = ptx_tmp(e, KL), *nd = ptx_tmp(e, KL), *t = ptx_tmp(e, KL);
	ptx_line(e, "cvt.rp.f32.u64 %s, %s;", f, d);
	ptx_line(e, "rcp.approx.ftz.f32 %s, %s;", f, f);
	ptx_line(e, "mul.rn.f32 %s, %s, 0f5F7FFFF0;", f, f);
	ptx_line(e, "cvt.rzi.u64.f32 %s, %s;", x, f);
	ptx_line(e, "neg.s64 %s, %s;", nd, d);
	for (int step = 0; step < 2; step++) {
		ptx_line(e, "mul.lo.u64 %s, %s, %s;", t, nd, x);
		ptx_line(e, "mul.hi.u64 %s, %s, %s;", t, x, t);
		ptx_line(e, "add.s64 %s, %s, %s;", x, x, t);
	}
	const char *qq = q ? q : ptx_tmp(e, KL), *rr = r ? r : ptx_tmp(e, KL);
	const char *p = ptx_tmp(e, KB);
	ptx_line(e, "mul.hi.u64 %s, %s, %s;", qq, n, x);
	ptx_line(e, "mul.lo.u64 %s, %s, %s;", t, qq, d);
	ptx_line(e, "sub.s64 %s, %s, %s;", rr, n, t);
	for (int step = 0; step < 2; step++) {
		ptx_line(e, "setp.ge.u64 %s, %s, %s;", p, rr, d);
		if (q)
			ptx_line(e, "@%s add.s64 %s, %s, 1;", p, qq, qq);
		ptx_line(e, "@%s sub.s64 %s, %s, %s;", p, rr, rr, d);
	}
}

void ptx_idiv64_con(Emit *e, const char *d, const char *a, int64_t v, int sgn, int rem)
{
	if (!sgn && rem && ((uint64_t)v & ((uint64_t)v - 1)) == 0) {
		ptx_line(e, "and.b64 %s, %s, 0x%016llX;", d, a, (unsigned long long)((uint64_t)v - 1));
		return;
	}
	const char *q = rem ? ptx_tmp(e, KL) : d;
	if (sgn)
		sdiv_con(e, q, a, v);
	else
		udiv_con(e, q, a, (uint64_t)v);
	if (rem) {
		const char *t = ptx_tmp(e, KL);
		ptx_line(e, "mul.lo.s64 %s, %s, %s;", t, q, hex(e, (uint64_t)v));
		ptx_line(e, "sub.s64 %s, %s, %s;", d, a, t);
	}
}

/* x with the sign of s (s = 0 or -1): (x ^ s) - s */
static void apply_sign(Emit *e, const char *d, const char *x, const char *s)
{
	ptx_line(e, "xor.b64 %s, %s, %s;", d, x, s);
	ptx_line(e, "sub.s64 %s, %s, %s;", d, d, s);
}

void ptx_idiv64(Emit *e, const char *d, const char *a, const char *b, int sgn, int rem)
{
	if (!sgn) {
		udiv_reg(e, rem ? NULL : d, rem ? d : NULL, a, b);
		return;
	}
	const char *ua = ptx_tmp(e, KL), *ub = ptx_tmp(e, KL), *u = ptx_tmp(e, KL), *s = ptx_tmp(e, KL);
	ptx_line(e, "abs.s64 %s, %s;", ua, a);
	ptx_line(e, "abs.s64 %s, %s;", ub, b);
	udiv_reg(e, rem ? NULL : u, rem ? u : NULL, ua, ub);
	if (rem)
		ptx_line(e, "shr.s64 %s, %s, 63;", s, a);
	else {
		ptx_line(e, "xor.b64 %s, %s, %s;", s, a, b);
		ptx_line(e, "shr.s64 %s, %s, 63;", s, s);
	}
	apply_sign(e, d, u, s);
}

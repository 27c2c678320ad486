/*
 * interp.c - the simulator's interpreter: runs one thread's frame over
 * the compact program (sim.h) until the thread returns, reaches a
 * barrier, or fails a check.
 *
 * Arithmetic follows the semantics comment of OPCODES in core.h, which
 * the PTX back end follows too, so that both give the same bits:
 *   - integers wrap at 32 or 64 bits; the math is done on uint32_t or
 *     uint64_t so C has no undefined behaviour; division by zero gives 0
 *     and x rem 0 = x; INT_MIN / -1 wraps to INT_MIN (rem 0);
 *   - shift counts >= the width give 0, or -1 for a negative value
 *     shifted right arithmetically;
 *   - float32 is computed in float, never in double; a multiply and an
 *     add are never fused unless the IR says fma (each opcode is its own
 *     statement, and the file asks for FP_CONTRACT OFF where the compiler
 *     honours it; GCC in ISO C mode does not contract);
 *   - min/max of floats are IEEE minNum/maxNum (a NaN operand is ignored;
 *     both NaN gives NaN) and order -0.0 below +0.0 like the hardware;
 *   - float to int conversions truncate and saturate, NaN gives 0;
 *   - rint rounds half to even (the default rounding mode is assumed).
 * Every load, store and atomic first checks its address against the
 * launch's memory regions (GUARD: one cached region per instruction, a
 * lookup in guard.c on a miss), so a wrong address is reported, never
 * dereferenced.  Atomics are plain read-modify-writes: threads only interleave at
 * barriers, so each one is atomic by construction.  Their float max/min
 * follow Numba's NaN rules (see atom_f32 below).
 *
 * Dispatch is a computed goto under GCC and Clang, a switch elsewhere.
 */
#include <math.h>
#include <string.h>

#include "sim.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ------------------------------------------------------ conversions */

static int is_signed_sk(int sk)
{
	return sk == SK_I8 || sk == SK_I16 || sk == SK_I32 || sk == SK_I64;
}

/* An integer's bits as a register of kind `to`. */
static Reg int_to(uint64_t u, int to)
{
	Reg r;
	r.u = 0;
	switch (to) {
	case SK_BOOL: r.u = u != 0; break;
	case SK_I8: r.u = (uint32_t)(int32_t)(int8_t)(uint8_t)u; break;
	case SK_U8: r.u = (uint8_t)u; break;
	case SK_I16: r.u = (uint32_t)(int32_t)(int16_t)(uint16_t)u; break;
	case SK_U16: r.u = (uint16_t)u; break;
	case SK_I32: case SK_U32: r.u = (uint32_t)u; break;
	default: r.u = u; break;
	}
	return r;
}

static Reg cvt(Reg x, int aux)
{
	int from = aux & 255, to = aux >> 8;
	Reg r;
	r.u = 0;
	if (from == SK_F16 || from == SK_F32 || from == SK_F64 || from == SK_BF16) {
		double v = from == SK_F64 ? x.d : (double)x.s;
		switch (to) {
		case SK_F64: r.d = v; break;
		case SK_F32: r.s = from == SK_F64 ? (float)x.d : x.s; break;
		case SK_F16: r.s = ir_round_f16(v); break;
		case SK_BF16: r.s = ir_round_bf16(v); break;
		case SK_BOOL: r.u = v != 0; break;
		default: r = int_to((uint64_t)ir_float_to_int(v, (ScalarKind)from, (ScalarKind)to), to); break;
		}
		return r;
	}
	uint64_t u;
	int sg = is_signed_sk(from);
	switch (from) {
	case SK_BOOL: u = x.u != 0; break;
	case SK_I64: case SK_U64: u = x.u; break;
	default: u = sg ? (uint64_t)(int64_t)x.sw : x.w; break;
	}
	switch (to) {
	case SK_F64: r.d = sg ? (double)(int64_t)u : (double)u; break;
	case SK_F32: r.s = sg ? (float)(int64_t)u : (float)u; break;
	case SK_F16: r.s = ir_round_f16(sg ? (double)(int64_t)u : (double)u); break;
	case SK_BF16: r.s = ir_int_to_bf16(u, sg); break;
	default: r = int_to(u, to); break;
	}
	return r;
}

/* ----------------------------------------------------- float min/max */

static float min_s(float a, float b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static float max_s(float a, float b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static double min_d(double a, double b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static double max_d(double a, double b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

/* ---------------------------------------------------------- atomics */

static uint32_t atom_u32(int at, int sg, uint32_t o, uint32_t x, uint32_t cmp)
{
	switch (at) {
	case AT_ADD: return o + x;
	case AT_SUB: return o - x;
	case AT_AND: return o & x;
	case AT_OR: return o | x;
	case AT_XOR: return o ^ x;
	case AT_EXCH: return x;
	case AT_MIN: case AT_NANMIN:
		return sg ? ((int32_t)x < (int32_t)o ? x : o) : (x < o ? x : o);
	case AT_MAX: case AT_NANMAX:
		return sg ? ((int32_t)x > (int32_t)o ? x : o) : (x > o ? x : o);
	case AT_INC: return o >= x ? 0 : o + 1;
	case AT_DEC: return o == 0 || o > x ? x : o - 1;
	case AT_CAS: return o == cmp ? x : o;
	default: return o;
	}
}

static uint64_t atom_u64(int at, int sg, uint64_t o, uint64_t x, uint64_t cmp)
{
	switch (at) {
	case AT_ADD: return o + x;
	case AT_SUB: return o - x;
	case AT_AND: return o & x;
	case AT_OR: return o | x;
	case AT_XOR: return o ^ x;
	case AT_EXCH: return x;
	case AT_MIN: case AT_NANMIN:
		return sg ? ((int64_t)x < (int64_t)o ? x : o) : (x < o ? x : o);
	case AT_MAX: case AT_NANMAX:
		return sg ? ((int64_t)x > (int64_t)o ? x : o) : (x > o ? x : o);
	case AT_INC: return o >= x ? 0 : o + 1;
	case AT_DEC: return o == 0 || o > x ? x : o - 1;
	case AT_CAS: return o == cmp ? x : o;
	default: return o;
	}
}

/* PTX's atom.add.f32 flushes subnormal inputs and results to zero,
 * keeping the sign; the f64 add does not. */
static float ftz_s(float x)
{
	return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

/* Numba's float atomics (cudadrv/nvvm.py): max/min leave memory alone
 * when either the stored value or the operand is NaN, and store the
 * operand when it is strictly greater (smaller); nanmax/nanmin ignore a
 * NaN operand and replace a NaN in memory. */
#define ATOM_FLOAT(name, T, FTZ) \
	static T name(int at, T o, T x, int *bitwise) \
	{ \
		*bitwise = 0; \
		switch (at) { \
		case AT_ADD: return FTZ(FTZ(o) + FTZ(x)); \
		case AT_SUB: return FTZ(FTZ(o) - FTZ(x)); \
		case AT_EXCH: return x; \
		case AT_MAX: return o != o || x != x ? o : o < x ? x : o; \
		case AT_MIN: return o != o || x != x ? o : o > x ? x : o; \
		case AT_NANMAX: return x != x ? o : o != o || o < x ? x : o; \
		case AT_NANMIN: return x != x ? o : o != o || o > x ? x : o; \
		default: *bitwise = 1; return o; \
		} \
	}
ATOM_FLOAT(atom_f32, float, ftz_s)

/* O_APPROX: the function the GPU approximates, with its flushing of
 * subnormals (none for AP_EX2S); the hardware's own error (2^-21 or so; tanh 2^-11) is not
 * modelled, so fastmath results agree with the GPU only to that error. */
static float approx_s(int fn, float a)
{
	if (fn == AP_EX2S)
		return (float)exp2((double)a);
	double x = ftz_s(a), r;
	switch (fn) {
	case AP_SIN: r = sin(x); break;
	case AP_COS: r = cos(x); break;
	case AP_EX2: r = exp2(x); break;
	case AP_LG2: r = log2(x); break;
	case AP_RSQRT: r = 1.0 / sqrt(x); break;
	case AP_RCP: r = 1.0 / x; break;
	default: r = tanh(x); break;
	}
	return ftz_s((float)r);
}
ATOM_FLOAT(atom_f64, double, (double))

static Reg atom(void *p, int aux, Reg v, Reg cmp)
{
	int at = aux & 255, ty = aux >> 8, bitwise;
	Reg old;
	old.u = 0;
	switch (ty) {
	case SK_F32: {
		float o, n;
		memcpy(&o, p, 4);
		n = atom_f32(at, o, v.s, &bitwise);
		if (!bitwise) {
			memcpy(p, &n, 4);
			old.s = o;
			return old;
		}
		goto bits32;   /* cas and bitwise operations work on the bits */
	}
	case SK_I32: case SK_U32:
	bits32: {
		uint32_t o, n;
		memcpy(&o, p, 4);
		n = atom_u32(at, ty == SK_I32, o, v.w, cmp.w);
		memcpy(p, &n, 4);
		old.u = o;
		return old;
	}
	case SK_F64: {
		double o, n;
		memcpy(&o, p, 8);
		n = atom_f64(at, o, v.d, &bitwise);
		if (!bitwise) {
			memcpy(p, &n, 8);
			old.d = o;
			return old;
		}
		goto bits64;
	}
	default:
	bits64: {
		uint64_t o, n;
		memcpy(&o, p, 8);
		n = atom_u64(at, ty == SK_I64, o, v.u, cmp.u);
		memcpy(p, &n, 8);
		old.u = o;
		return old;
	}
	}
}

static uint64_t popc64(uint64_t x)
{
	x = x - (x >> 1 & 0x5555555555555555u);
	x = (x & 0x3333333333333333u) + (x >> 2 & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return x * 0x0101010101010101u >> 56;
}

static uint64_t clz64(uint64_t x)
{
	uint64_t n = 0;
	if (!x)
		return 64;
	for (int s = 32; s; s >>= 1)
		if (!(x >> (64 - s))) {
			n += (uint64_t)s;
			x <<= s;
		}
	return n;
}

static uint32_t brev32(uint32_t x)
{
	x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
	x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
	x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
	x = (x >> 8 & 0x00ff00ffu) | (x & 0x00ff00ffu) << 8;
	return x >> 16 | x << 16;
}

/* ------------------------------------------------------ interpreter */

#define PTR(reg) ((void *)(uintptr_t)(reg).u)

#if defined(__GNUC__)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define UNLIKELY(x) (x)
#endif

static int atom_size(int aux)
{
	int ty = aux >> 8;
	return ty == SK_I32 || ty == SK_U32 || ty == SK_F32 ? 4 : 8;
}

int sim_exec(Launch *L, Frame *fr)
{
	const SIns *const code = L->p->code;
	const SIns *ip = code + fr->pc;
	Reg *const r = fr->r;
	const SimHit *const gc = L->guard.cache;
	uint64_t budget = L->loop_budget;
	uint64_t calls = 0;

#define D r[ip->d]
#define A r[ip->a]
#define B r[ip->b]
#define C r[ip->c]
/* The memory guard (guard.c): the access's bytes [A, A + size) against
 * the region its instruction's last access fell in, then the table. */
#define GUARD(size, what) \
	do { \
		const SimHit *g_ = &gc[ip->g]; \
		if (UNLIKELY(A.u - g_->lo >= g_->n) && \
		    sim_guard_miss(L, fr, ip, A.u, (uint64_t)(size), (what))) { \
			fr->pc = (int32_t)(ip - code); \
			return RUN_ERR; \
		} \
	} while (0)

#if defined(__GNUC__) && !defined(SIM_SWITCH)
	static const void *const label[NSOPS] = {
#define X(name) &&L_##name,
		SIM_OPS(X)
#undef X
	};
#define OP(name) L_##name:
#define NEXT do { ip++; goto *label[ip->op]; } while (0)
#define GOTO(pc) do { ip = code + (pc); goto *label[ip->op]; } while (0)
#define DISPATCH goto *label[ip->op];
#define DEFAULT
#else
#define OP(name) case S_##name:
#define NEXT do { ip++; goto next; } while (0)
#define GOTO(pc) do { ip = code + (pc); goto next; } while (0)
#define DISPATCH switch (ip->op)
#define DEFAULT default: fr->pc = (int32_t)(ip - code); return sim_fail_internal(L, fr, ip);
#endif

	for (;;) {
		DISPATCH {
		OP(NOP) NEXT;
		OP(MOV) D = A; NEXT;
		OP(RET) fr->pc = (int32_t)(ip - code); return RUN_RET;
		OP(JMP) GOTO(ip->a);
		OP(JNZ) GOTO(A.u ? ip->b : ip->c);
		OP(JMPB)
			if (UNLIKELY(!(--budget & SIM_POLL_MASK)) && (!budget || sim_stop_requested()))
				goto stop;
			GOTO(ip->a);
		OP(JNZB)
			if (UNLIKELY(!(--budget & SIM_POLL_MASK)) && (!budget || sim_stop_requested()))
				goto stop;
			GOTO(A.u ? ip->b : ip->c);
		OP(BAR) fr->pc = (int32_t)(ip + 1 - code); return RUN_BAR;
		OP(CHECK)
			if ((uint64_t)A.i >= (uint64_t)B.i) {
				fr->pc = (int32_t)(ip - code);
				return sim_fail_check(L, fr, ip, A.i);
			}
			NEXT;
		OP(TRAP) fr->pc = (int32_t)(ip - code); return sim_fail_trap(L, fr, ip);

		OP(ADDW) D.u = (uint32_t)(A.w + B.w); NEXT;
		OP(ADDL) D.u = A.u + B.u; NEXT;
		OP(ADDS) D.s = A.s + B.s; NEXT;
		OP(ADDD) D.d = A.d + B.d; NEXT;
		OP(SUBW) D.u = (uint32_t)(A.w - B.w); NEXT;
		OP(SUBL) D.u = A.u - B.u; NEXT;
		OP(SUBS) D.s = A.s - B.s; NEXT;
		OP(SUBD) D.d = A.d - B.d; NEXT;
		OP(MULW) D.u = (uint32_t)(A.w * B.w); NEXT;
		OP(MULL) D.u = A.u * B.u; NEXT;
		OP(MULS) D.s = A.s * B.s; NEXT;
		OP(MULD) D.d = A.d * B.d; NEXT;

		OP(DIVWS) {
			int32_t a = A.sw, b = B.sw;
			D.u = b == 0 ? 0 : b == -1 ? 0u - (uint32_t)a : (uint32_t)(a / b);
			NEXT;
		}
		OP(DIVWU) D.u = B.w == 0 ? 0 : A.w / B.w; NEXT;
		OP(DIVLS) {
			int64_t a = A.i, b = B.i;
			D.u = b == 0 ? 0 : b == -1 ? 0 - (uint64_t)a : (uint64_t)(a / b);
			NEXT;
		}
		OP(DIVLU) D.u = B.u == 0 ? 0 : A.u / B.u; NEXT;
		OP(DIVS) D.s = A.s / B.s; NEXT;
		OP(DIVD) D.d = A.d / B.d; NEXT;
		OP(REMWS) {
			int32_t a = A.sw, b = B.sw;
			D.u = b == 0 ? (uint32_t)a : b == -1 ? 0 : (uint32_t)(a % b);
			NEXT;
		}
		OP(REMWU) D.u = B.w == 0 ? A.w : A.w % B.w; NEXT;
		OP(REMLS) {
			int64_t a = A.i, b = B.i;
			D.u = b == 0 ? (uint64_t)a : b == -1 ? 0 : (uint64_t)(a % b);
			NEXT;
		}
		OP(REMLU) D.u = B.u == 0 ? A.u : A.u % B.u; NEXT;

		OP(NEGW) D.u = (uint32_t)(0u - A.w); NEXT;
		OP(NEGL) D.u = 0 - A.u; NEXT;
		OP(NEGS) D.s = -A.s; NEXT;
		OP(NEGD) D.d = -A.d; NEXT;
		OP(NOTW) D.u = (uint32_t)~A.w; NEXT;
		OP(NOTL) D.u = ~A.u; NEXT;
		OP(NOTB) D.u = A.u == 0; NEXT;
		OP(ANDW) D.u = A.w & B.w; NEXT;
		OP(ANDL) D.u = A.u & B.u; NEXT;
		OP(ORW) D.u = A.w | B.w; NEXT;
		OP(ORL) D.u = A.u | B.u; NEXT;
		OP(XORW) D.u = A.w ^ B.w; NEXT;
		OP(XORL) D.u = A.u ^ B.u; NEXT;

		OP(SHLW) D.u = B.w >= 32 ? 0 : (uint32_t)(A.w << B.w); NEXT;
		OP(SHLL) D.u = B.u >= 64 ? 0 : A.u << B.u; NEXT;
		OP(SHRWU) D.u = B.w >= 32 ? 0 : A.w >> B.w; NEXT;
		OP(SHRLU) D.u = B.u >= 64 ? 0 : A.u >> B.u; NEXT;
		OP(SHRWS) {
			uint32_t a = A.w, c = B.w >= 32 ? 31 : B.w;
			D.u = A.sw < 0 ? ~(~a >> c) : a >> c;
			NEXT;
		}
		OP(SHRLS) {
			uint64_t a = A.u, c = B.u >= 64 ? 63 : B.u;
			D.u = A.i < 0 ? ~(~a >> c) : a >> c;
			NEXT;
		}

		OP(MINWS) D.u = (uint32_t)(A.sw < B.sw ? A.sw : B.sw); NEXT;
		OP(MINWU) D.u = A.w < B.w ? A.w : B.w; NEXT;
		OP(MINLS) D.i = A.i < B.i ? A.i : B.i; NEXT;
		OP(MINLU) D.u = A.u < B.u ? A.u : B.u; NEXT;
		OP(MINS) D.s = min_s(A.s, B.s); NEXT;
		OP(MIND) D.d = min_d(A.d, B.d); NEXT;
		OP(MAXWS) D.u = (uint32_t)(A.sw > B.sw ? A.sw : B.sw); NEXT;
		OP(MAXWU) D.u = A.w > B.w ? A.w : B.w; NEXT;
		OP(MAXLS) D.i = A.i > B.i ? A.i : B.i; NEXT;
		OP(MAXLU) D.u = A.u > B.u ? A.u : B.u; NEXT;
		OP(MAXS) D.s = max_s(A.s, B.s); NEXT;
		OP(MAXD) D.d = max_d(A.d, B.d); NEXT;
		OP(ABSW) D.u = A.sw < 0 ? 0u - A.w : A.w; NEXT;
		OP(ABSL) D.u = A.i < 0 ? 0 - A.u : A.u; NEXT;
		OP(ABSS) D.u = A.w & 0x7fffffffu; NEXT;
		OP(ABSD) D.u = A.u & 0x7fffffffffffffffu; NEXT;

		OP(FMAW) D.u = (uint32_t)(A.w * B.w + C.w); NEXT;
		OP(FMAL) D.u = A.u * B.u + C.u; NEXT;
		OP(FMAS) D.s = fmaf(A.s, B.s, C.s); NEXT;
		OP(FMASM) D.s = ir_fmaf_mode(A.s, B.s, C.s, ip->aux); NEXT;
		OP(FMAH) D.s = ir_round_f16(fma(A.s, B.s, C.s)); NEXT;   /* float16: exact in double but for one rounding */
		OP(FMAD) D.d = fma(A.d, B.d, C.d); NEXT;
		OP(SQRTS) D.s = sqrtf(A.s); NEXT;
		OP(SQRTD) D.d = sqrt(A.d); NEXT;
		OP(FLOORS) D.s = floorf(A.s); NEXT;
		OP(FLOORD) D.d = floor(A.d); NEXT;
		OP(CEILS) D.s = ceilf(A.s); NEXT;
		OP(CEILD) D.d = ceil(A.d); NEXT;
		OP(TRUNCS) D.s = truncf(A.s); NEXT;
		OP(TRUNCD) D.d = trunc(A.d); NEXT;
		OP(RINTS) D.s = nearbyintf(A.s); NEXT;
		OP(RINTD) D.d = nearbyint(A.d); NEXT;

		OP(EQW) D.u = A.w == B.w; NEXT;
		OP(NEW) D.u = A.w != B.w; NEXT;
		OP(LTWS) D.u = A.sw < B.sw; NEXT;
		OP(LEWS) D.u = A.sw <= B.sw; NEXT;
		OP(LTWU) D.u = A.w < B.w; NEXT;
		OP(LEWU) D.u = A.w <= B.w; NEXT;
		OP(EQL) D.u = A.u == B.u; NEXT;
		OP(NEL) D.u = A.u != B.u; NEXT;
		OP(LTLS) D.u = A.i < B.i; NEXT;
		OP(LELS) D.u = A.i <= B.i; NEXT;
		OP(LTLU) D.u = A.u < B.u; NEXT;
		OP(LELU) D.u = A.u <= B.u; NEXT;
		OP(EQS) D.u = A.s == B.s; NEXT;
		OP(NES) D.u = A.s != B.s; NEXT;
		OP(LTS) D.u = A.s < B.s; NEXT;
		OP(LES) D.u = A.s <= B.s; NEXT;
		OP(LTUS) D.u = !(A.s >= B.s); NEXT;
		OP(LEUS) D.u = !(A.s > B.s); NEXT;
		OP(EQD) D.u = A.d == B.d; NEXT;
		OP(NED) D.u = A.d != B.d; NEXT;
		OP(LTD) D.u = A.d < B.d; NEXT;
		OP(LED) D.u = A.d <= B.d; NEXT;
		OP(LTUD) D.u = !(A.d >= B.d); NEXT;
		OP(LEUD) D.u = !(A.d > B.d); NEXT;

		OP(SEL) D = A.u ? B : C; NEXT;
		OP(SEXT) D.i = A.sw; NEXT;
		OP(ZEXT) D.u = A.w; NEXT;
		OP(TRUNCW) D.u = (uint32_t)A.u; NEXT;
		OP(SATW) D.u = A.u > UINT32_MAX ? UINT32_MAX : A.u; NEXT;
		OP(CVT) D = cvt(A, ip->aux); NEXT;

		OP(LDI8) { int8_t v; GUARD(1, HOOK_READ); memcpy(&v, PTR(A), 1); D.u = (uint32_t)(int32_t)v; NEXT; }
		OP(LDU8) { uint8_t v; GUARD(1, HOOK_READ); memcpy(&v, PTR(A), 1); D.u = v; NEXT; }
		OP(LDI16) { int16_t v; GUARD(2, HOOK_READ); memcpy(&v, PTR(A), 2); D.u = (uint32_t)(int32_t)v; NEXT; }
		OP(LDU16) { uint16_t v; GUARD(2, HOOK_READ); memcpy(&v, PTR(A), 2); D.u = v; NEXT; }
		OP(LD32) { uint32_t v; GUARD(4, HOOK_READ); memcpy(&v, PTR(A), 4); D.u = v; NEXT; }
		OP(LD64) { uint64_t v; GUARD(8, HOOK_READ); memcpy(&v, PTR(A), 8); D.u = v; NEXT; }
		OP(LDF16) {
			uint16_t v;
			GUARD(2, HOOK_READ);
			memcpy(&v, PTR(A), 2);
			D.u = 0;
			D.s = ir_f16_to_f32(v);
			NEXT;
		}
		OP(LDB) { uint8_t v; GUARD(1, HOOK_READ); memcpy(&v, PTR(A), 1); D.u = v != 0; NEXT; }
		OP(ST8) { uint8_t v = (uint8_t)B.u; GUARD(1, HOOK_WRITE); memcpy(PTR(A), &v, 1); NEXT; }
		OP(ST16) { uint16_t v = (uint16_t)B.u; GUARD(2, HOOK_WRITE); memcpy(PTR(A), &v, 2); NEXT; }
		OP(ST32) { uint32_t v = B.w; GUARD(4, HOOK_WRITE); memcpy(PTR(A), &v, 4); NEXT; }
		OP(ST64) { uint64_t v = B.u; GUARD(8, HOOK_WRITE); memcpy(PTR(A), &v, 8); NEXT; }
		OP(STF16) { uint16_t v = ir_f64_to_f16(B.s); GUARD(2, HOOK_WRITE); memcpy(PTR(A), &v, 2); NEXT; }
		OP(ATOM) GUARD(atom_size(ip->aux), HOOK_ATOM); D = atom(PTR(A), ip->aux, B, C); NEXT;
		OP(POPCW) D.u = popc64(A.w); NEXT;
		OP(POPCL) D.u = popc64(A.u); NEXT;
		OP(CLZW) D.u = clz64(A.w) - 32; NEXT;
		OP(CLZL) D.u = clz64(A.u); NEXT;
		OP(BREVW) D.u = brev32(A.w); NEXT;
		OP(BREVL) D.u = (uint64_t)brev32((uint32_t)A.u) << 32 | brev32((uint32_t)(A.u >> 32)); NEXT;
		OP(WARP) fr->pc = (int32_t)(ip - code); return RUN_WARP;
		OP(CALL) {
			if (UNLIKELY(!(++calls & SIM_POLL_MASK)) && sim_stop_requested())
				goto stop;
			int32_t to = sim_call(L, fr, ip);
			if (to < 0)
				return RUN_ERR;
			GOTO(to);
		}
		OP(RETV) sim_retv(fr, ip); NEXT;
		OP(RETF) {
			int32_t to = sim_return(L, fr, ip);
			if (to < 0)
				return RUN_ERR;
			GOTO(to);
		}
		OP(PRINT)
			if (sim_print(L, fr, ip)) {
				fr->pc = (int32_t)(ip - code);
				return RUN_ERR;
			}
			NEXT;
		OP(APPROX) D.u = 0; D.s = approx_s(ip->aux, A.s); NEXT;
		OP(ALLOC)
			if (sim_alloc(L, fr, ip))
				return RUN_ERR;
			NEXT;
		OP(SHOOK) {
			uint64_t off = A.u - (uint64_t)(uintptr_t)L->smem, size = (uint64_t)L->smem_size;
			if ((L->check || (ip->c && (off >= size || size - off < (uint64_t)ip->b))) &&
			    sim_shared_hook(L, fr, ip, A.u)) {
				fr->pc = (int32_t)(ip - code);
				return RUN_ERR;
			}
			NEXT;
		}
		DEFAULT
		}
#if !(defined(__GNUC__) && !defined(SIM_SWITCH))
	next:;
#endif
	}
stop:
	fr->pc = (int32_t)(ip - code);
	return budget ? sim_fail_stopped(L, fr, ip) : sim_fail_endless(L, fr, ip);
#undef D
#undef A
#undef B
#undef C
#undef GUARD
}

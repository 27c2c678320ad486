/*
 * atom.c - atomic read-modify-write operations (O_ATOM) in PTX.
 *
 * Every operation defines the value the memory held just before it took
 * effect.  Operations PTX has are one atom instruction: add (u32, u64,
 * f32, f64), and/or/xor/exch/cas (.b32/.b64), integer min/max, and
 * inc/dec on 32 bits.  sub is an add of the negated operand (for floats
 * x - v and x + (-v) are the same IEEE operation).  The others are
 * compare-and-swap loops written out as PTX with their own labels:
 *
 *   float max/min (Numba): memory is left alone when it or the operand
 *     is NaN; otherwise the operand is stored when it is greater (max) or
 *     smaller (min) than the memory, compared as ordered floats (so
 *     -0.0 and +0.0 do not replace each other).
 *   float nanmax/nanmin: a NaN operand leaves memory alone; a NaN in
 *     memory is replaced; otherwise as max/min.
 *   64-bit inc: old >= v ? 0 : old + 1; dec: old == 0 || old > v ? v : old - 1
 *     (unsigned), the same as atom.inc/dec.u32 do on 32 bits.
 *
 * The loop reads the memory once, then retries atom.cas with the value
 * cas returned until cas finds what it expected or the condition says to
 * stop; the value defined is the last value seen, which is the memory's
 * value at the moment the operation took effect.
 *
 * Note: PTX's atom.add.f32 flushes subnormal inputs and results to zero
 * (sign kept); the f64 add does not.
 */
#include "ptx.h"

static const char *bty(int k) { return k == KW || k == KS ? "b32" : "b64"; }
static const char *fty(int k) { return k == KS ? "f32" : "f64"; }

static void float_minmax(Emit *e, int op, const char *sp, const char *d, const char *a, Ref v, int k)
{
	static const char *const cmp[] = {
		[AT_MAX] = "lt", [AT_MIN] = "gt", [AT_NANMAX] = "ltu", [AT_NANMIN] = "gtu",
	};
	int bk = k == KS ? KW : KL;
	const char *val = ptx_reg(e, v);
	const char *old = ptx_tmp(e, k), *p = ptx_tmp(e, KB), *q = ptx_tmp(e, KB);
	const char *oi = ptx_tmp(e, bk), *vi = ptx_tmp(e, bk), *ci = ptx_tmp(e, bk);
	const char *loop = ptx_new_label(e), *done = ptx_new_label(e);
	ptx_line(e, "ld.volatile%s.%s %s, [%s];", sp, fty(k), old, a);
	if (op == AT_MAX || op == AT_MIN)
		ptx_line(e, "setp.nan.%s %s, %s, %s;", fty(k), p, old, val);
	else
		ptx_line(e, "setp.nan.%s %s, %s, %s;", fty(k), p, val, val);
	ptx_line(e, "@%s bra %s;", p, done);
	ptx_label_line(e, loop);
	ptx_line(e, "setp.%s.%s %s, %s, %s;", cmp[op], fty(k), p, old, val);
	ptx_line(e, "@!%s bra %s;", p, done);
	ptx_line(e, "mov.%s %s, %s;", bty(k), oi, old);
	ptx_line(e, "mov.%s %s, %s;", bty(k), vi, val);
	ptx_line(e, "atom%s.cas.%s %s, [%s], %s, %s;", sp, bty(k), ci, a, oi, vi);
	ptx_line(e, "setp.ne.%s %s, %s, %s;", bty(k), q, ci, oi);
	ptx_line(e, "mov.%s %s, %s;", bty(k), old, ci);
	ptx_line(e, "@%s bra %s;", q, loop);
	ptx_label_line(e, done);
	ptx_line(e, "mov.%s %s, %s;", fty(k), d, old);
}

static void incdec64(Emit *e, int op, const char *sp, const char *d, const char *a, Ref v)
{
	const char *val = ptx_opnd(e, v);
	const char *old = ptx_tmp(e, KL), *t = ptx_tmp(e, KL), *nw = ptx_tmp(e, KL), *ci = ptx_tmp(e, KL);
	const char *p = ptx_tmp(e, KB), *q = ptx_tmp(e, KB);
	const char *loop = ptx_new_label(e);
	ptx_line(e, "ld.volatile%s.u64 %s, [%s];", sp, old, a);
	ptx_label_line(e, loop);
	if (op == AT_INC) {
		ptx_line(e, "setp.ge.u64 %s, %s, %s;", p, old, val);
		ptx_line(e, "add.u64 %s, %s, 1;", t, old);
		ptx_line(e, "selp.b64 %s, 0, %s, %s;", nw, t, p);
	} else {
		const char *z = ptx_tmp(e, KB);
		ptx_line(e, "setp.eq.u64 %s, %s, 0;", z, old);
		ptx_line(e, "setp.gt.u64 %s, %s, %s;", p, old, val);
		ptx_line(e, "or.pred %s, %s, %s;", p, p, z);
		ptx_line(e, "sub.u64 %s, %s, 1;", t, old);
		ptx_line(e, "selp.b64 %s, %s, %s, %s;", nw, val, t, p);
	}
	ptx_line(e, "atom%s.cas.b64 %s, [%s], %s, %s;", sp, ci, a, old, nw);
	ptx_line(e, "setp.ne.b64 %s, %s, %s;", q, ci, old);
	ptx_line(e, "mov.b64 %s, %s;", old, ci);
	ptx_line(e, "@%s bra %s;", q, loop);
	ptx_line(e, "mov.b64 %s, %s;", d, old);
}

void ptx_atom(Emit *e, const Ins *i)
{
	static const char *const name[NAT] = {
		"add", "sub", "and", "or", "xor", "exch", "min", "max",
		"inc", "dec", "cas", "nanmin", "nanmax",
	};
	int op = i->aux & 255, space = i->aux >> 8, sk = i->ty, k = i->cls;
	if (op >= NAT)
		ICE(e->c, "atomic operation %d", op);
	if (space != SP_GLOBAL && space != SP_SHARED && space != SP_GENERIC)
		ICE(e->c, "atomic %s in address space %d", name[op], space);
	if (!(sk == SK_I32 || sk == SK_U32 || sk == SK_I64 || sk == SK_U64 || sk == SK_F32 || sk == SK_F64) ||
	    (int)ir_cls_of_sk(sk) != k)
		ICE(e->c, "atomic %s on scalar kind %d (class %s)", name[op], sk, cls_name[k < NK ? k : 0]);
	int flt = k == KS || k == KD, sgn = sk == SK_I32 || sk == SK_I64, w64 = k == KL || k == KD;
	if ((int)ptx_cls(e, i->arg[1]) != k || (op == AT_CAS && (int)ptx_cls(e, i->arg[2]) != k))
		ICE(e->c, "atomic %s operand of the wrong class", name[op]);
	const char *sp = ptx_space(e, space), *a = ptx_reg(e, i->arg[0]);
	const char *d = i->to >= 0 ? ptx_def(e, i) : ptx_tmp(e, k);
	const char *ut = w64 ? "u64" : "u32";
	switch (op) {
	case AT_ADD:
		ptx_line(e, "atom%s.add.%s %s, [%s], %s;", sp, flt ? fty(k) : ut, d, a, ptx_opnd(e, i->arg[1]));
		return;
	case AT_SUB: {
		const char *t = ptx_tmp(e, k);
		ptx_line(e, "neg.%s %s, %s;", flt ? fty(k) : w64 ? "s64" : "s32", t, ptx_opnd(e, i->arg[1]));
		ptx_line(e, "atom%s.add.%s %s, [%s], %s;", sp, flt ? fty(k) : ut, d, a, t);
		return;
	}
	case AT_AND: case AT_OR: case AT_XOR:
		if (flt)
			break;
		/* fall through */
	case AT_EXCH:
		ptx_line(e, "atom%s.%s.%s %s, [%s], %s;", sp, name[op], bty(k), d, a, ptx_opnd(e, i->arg[1]));
		return;
	case AT_MIN: case AT_MAX: case AT_NANMIN: case AT_NANMAX:
		if (flt) {
			float_minmax(e, op, sp, d, a, i->arg[1], k);
			return;
		}
		ptx_line(e, "atom%s.%s.%s%d %s, [%s], %s;", sp, op == AT_MIN || op == AT_NANMIN ? "min" : "max",
		         sgn ? "s" : "u", w64 ? 64 : 32, d, a, ptx_opnd(e, i->arg[1]));
		return;
	case AT_INC: case AT_DEC:
		if (flt)
			break;
		if (w64)
			incdec64(e, op, sp, d, a, i->arg[1]);
		else
			ptx_line(e, "atom%s.%s.u32 %s, [%s], %s;", sp, name[op], d, a, ptx_opnd(e, i->arg[1]));
		return;
	case AT_CAS: {
		const char *cmp = ptx_opnd(e, i->arg[2]), *nw = ptx_opnd(e, i->arg[1]);
		ptx_line(e, "atom%s.cas.%s %s, [%s], %s, %s;", sp, bty(k), d, a, cmp, nw);
		return;
	}
	}
	ICE(e->c, "atomic %s on a float", name[op]);
}

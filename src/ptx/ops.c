/*
 * ops.c - one IR instruction to PTX, with the IR's exact semantics.
 *
 * Floats: add, sub, mul, div, sqrt and fma carry .rn, which also stops
 * ptxas from contracting a multiply and an add into an fma on its own;
 * the only fma is the one the IR asks for.  fastmath (PjOptions) turns
 * f32 division and square root into the approximate instructions and
 * adds .ftz to f32 add/sub/mul/fma.  float16 values live in .f32
 * registers holding a number that float16 represents exactly; results of
 * arithmetic of kind f16 are rounded to float16 (cvt.rn.f16.f32 and back),
 * and loads, stores and parameters go through a .b16 register, which
 * conversions to integers and float64 then read (cvt.rzi.s32.f16,
 * cvt.f64.f16: Numba's casts, with the float32 route's results).
 *
 * Integers: int8/int16/uint8/uint16 live in .b32 registers sign- or
 * zero-extended from their width; results that can leave that range
 * (add, sub, mul, neg, not, shl, div, rem, abs) are re-extended from the
 * width of Ins.ty.  Division by zero gives 0 and x rem 0 gives x; signed
 * INT_MIN / -1 gives INT_MIN and x rem -1 gives 0, which PTX leaves
 * undefined: such divisors are replaced by 1 and the result selected.
 * 64-bit division and remainder are written out (idiv.c), not left to the
 * call ptxas makes of them.  Shift counts are
 * unsigned; a 64-bit count is saturated to 32 bits, and PTX clamps counts
 * at or above the width (shl gives 0, shr.s gives the sign).
 *
 * Conversions follow cvt: float to int truncates and saturates to the
 * destination kind (NaN gives 0), int to float rounds to nearest, and
 * anything to bool is "!= 0" (true for NaN).
 */
#include "ptx.h"

static int is_int(int k) { return k == KW || k == KL; }
static int is_flt(int k) { return k == KS || k == KD; }
static const char *ity(int k, int sgn) { return k == KW ? (sgn ? "s32" : "u32") : (sgn ? "s64" : "u64"); }
static const char *bty(int k) { return k == KW || k == KS ? "b32" : "b64"; }
static const char *fty(int k) { return k == KS ? "f32" : "f64"; }

static const char *ftz(Emit *e, int k)
{
	return e->fast && k == KS ? ".ftz" : "";
}

static _Noreturn void bad_cls(Emit *e, const Ins *i)
{
	ICE(e->c, "%s of class %s", ptx_opname(i->op), cls_name[i->cls < NK ? i->cls : 0]);
}

/* Rounds the f32 register d to float16 when the operation's kind is f16. */
static void round_f16(Emit *e, const char *d, int sk)
{
	if (sk != SK_F16)
		return;
	const char *h = ptx_tmp(e, RK_H);
	ptx_line(e, "cvt.rn.f16.f32 %s, %s;", h, d);
	ptx_line(e, "cvt.f32.f16 %s, %s;", d, h);
}

/* ---------------------------------------------------- address forms */

int ptx_base_disp(Emit *e, Ref r, Ref *q, int64_t *imm)
{
	if (r.kind != R_VAL || (int)r.idx >= e->f->nval)
		return 0;
	const Ins *i = e->def[r.idx];
	if (!i || i->op != O_ADD || i->cls != KL || i->arg[0].kind != R_VAL)
		return 0;
	if (!ptx_is_con(e, i->arg[1], imm) || *imm < INT32_MIN || *imm > INT32_MAX)
		return 0;
	*q = i->arg[0];
	return 1;
}

const char *ptx_addr(Emit *e, Ref r)
{
	Ref q;
	int64_t imm;
	if (r.kind == R_VAL && e->folded[r.idx] && ptx_base_disp(e, r, &q, &imm))
		return arena_printf(e->c->arena, "[%s+%lld]", ptx_reg(e, q), (long long)imm);
	return arena_printf(e->c->arena, "[%s]", ptx_reg(e, r));
}

/* A 32-bit register widened by cvt to 64 bits: the register, and whether
 * the widening is signed. */
static int widened(Emit *e, Ref r, Ref *w, int *sgn)
{
	if (r.kind != R_VAL || (int)r.idx >= e->f->nval)
		return 0;
	const Ins *i = e->def[r.idx];
	if (!i || i->op != O_CVT || i->aux != SK_I64 || (i->ty != SK_I32 && i->ty != SK_U32) ||
	    i->arg[0].kind != R_VAL)
		return 0;
	*w = i->arg[0];
	*sgn = i->ty == SK_I32;
	return 1;
}

/* The operands of a 64-bit product that mul.wide computes: a widened
 * 32-bit value times a constant that fits its kind, or times another
 * value widened the same way.  *x is the 32-bit register, *y the other
 * 32-bit operand as text. */
static int wide_operands(Emit *e, const Ins *i, const char **x, const char **y, int *sgn)
{
	Ref w, w2;
	int64_t v;
	int s2;
	if (!i || i->op != O_MUL || i->cls != KL || (i->ty != SK_I64 && i->ty != SK_U64))
		return 0;
	for (int n = 0; n < 2; n++) {
		if (!widened(e, i->arg[n], &w, sgn))
			continue;
		if (ptx_is_con(e, i->arg[1 - n], &v)) {
			if (*sgn ? v < INT32_MIN || v > INT32_MAX : v < 0 || v > UINT32_MAX)
				continue;
			*x = ptx_vreg(e, (int)w.idx);
			*y = arena_printf(e->c->arena, "%lld", (long long)v);
			return 1;
		}
		if (widened(e, i->arg[1 - n], &w2, &s2) && s2 == *sgn) {
			*x = ptx_vreg(e, (int)w.idx);
			*y = ptx_vreg(e, (int)w2.idx);
			return 1;
		}
	}
	return 0;
}

/* mul.wide for such a product: the same number, in one IMAD.WIDE. */
static int mul_wide(Emit *e, const Ins *i)
{
	const char *x, *y;
	int sgn;
	if (!wide_operands(e, i, &x, &y, &sgn))
		return 0;
	ptx_line(e, "mul.wide.%s %s, %s, %s;", sgn ? "s32" : "u32", ptx_def(e, i), x, y);
	return 1;
}

/*
 * A product that mul.wide computes, read by 64-bit adds in other blocks
 * (a loop's pointer stepped by a 32-bit extent times the element size,
 * the product hoisted out of the loop): those adds read a second copy
 * of it.  With that copy ptxas computes each step as one IMAD.WIDE from
 * the 32-bit extent, as for CUDA C's int indices; with the one register
 * that other instructions read too it keeps the 64-bit product and adds
 * it in two instructions (measured with ptxas 12.x on sm_90, matmul:
 * 72 instead of 90 per 16 FMAs).
 */
static int wide_twin_wanted(Emit *e, int v)
{
	const char *x, *y;
	int sgn;
	return e->twin && e->twin[v] == 1 && wide_operands(e, e->def[v], &x, &y, &sgn);
}

static const char *add_operand(Emit *e, Ref r)
{
	if (r.kind == R_VAL && e->twin && e->twin_reg[r.idx] && e->defblk[r.idx] != e->cur)
		return e->twin_reg[r.idx];
	return ptx_opnd(e, r);
}

static void arith(Emit *e, const Ins *i)
{
	static const char *const iname[] = {[O_ADD] = "add", [O_SUB] = "sub", [O_MUL] = "mul.lo"};
	static const char *const fname[] = {[O_ADD] = "add", [O_SUB] = "sub", [O_MUL] = "mul"};
	int k = i->cls;
	if (k == KL && i->to >= 0 && i->to < e->f->nval && e->folded[i->to])
		return;   /* q + imm written inside the addresses that use it */
	if (k == KL && i->op == O_MUL && (i->ty == SK_I64 || i->ty == SK_U64) && mul_wide(e, i)) {
		if (wide_twin_wanted(e, i->to)) {
			const char *x, *y;
			int sgn;
			wide_operands(e, i, &x, &y, &sgn);
			if (!e->twin_reg[i->to])   /* a back edge may write i again (emit.c) */
				e->twin_reg[i->to] = ptx_tmp(e, KL);
			ptx_line(e, "mul.wide.%s %s, %s, %s;", sgn ? "s32" : "u32", e->twin_reg[i->to], x, y);
		}
		return;
	}
	int add64 = k == KL && i->op == O_ADD;
	const char *a = add64 ? add_operand(e, i->arg[0]) : ptx_opnd(e, i->arg[0]);
	const char *b = add64 ? add_operand(e, i->arg[1]) : ptx_opnd(e, i->arg[1]);
	const char *d = ptx_def(e, i);
	if (is_int(k)) {
		ptx_line(e, "%s.%s %s, %s, %s;", iname[i->op], ity(k, 1), d, a, b);
		ptx_narrow(e, d, i->ty);
	} else if (is_flt(k)) {
		ptx_line(e, "%s.rn%s.%s %s, %s, %s;", fname[i->op], ftz(e, k), fty(k), d, a, b);
		round_f16(e, d, i->ty);
	} else
		bad_cls(e, i);
}

/* r is the float64 constant 1 */
static int is_one64(Emit *e, Ref r)
{
	return r.kind == R_CON && e->f->con[r.idx].cls == KD && e->f->con[r.idx].d == 1.0;
}

/* d = a div/rem b for a divisor b that is neither 0 nor (signed) -1 */
static void int_div(Emit *e, int k, int sgn, int rem, const char *d, const char *a, const char *b)
{
	if (k == KL)
		ptx_idiv64(e, d, a, b, sgn, rem);
	else
		ptx_line(e, "%s.%s %s, %s, %s;", rem ? "rem" : "div", ity(k, sgn), d, a, b);
}

static void divide(Emit *e, const Ins *i)
{
	int k = i->cls, rem = i->op == O_REM;
	/* idiv.c's 64-bit division reads its dividend from a register */
	const char *a = k == KL ? ptx_reg(e, i->arg[0]) : ptx_opnd(e, i->arg[0]), *b = ptx_opnd(e, i->arg[1]);
	const char *d = ptx_def(e, i);
	if (is_flt(k)) {
		if (rem)
			bad_cls(e, i);
		if (e->fast && k == KS)
			ptx_line(e, "div.approx.ftz.f32 %s, %s, %s;", d, a, b);
		else if (k == KD && is_one64(e, i->arg[0]))
			/* the same IEEE result in fewer instructions (1.42x faster
			 * on an H100).  float32 keeps div.rn: rcp.rn.f32 was faster
			 * alone but slower in n-body's inner loop (1.004x against
			 * 0.956x CUDA C's time) */
			ptx_line(e, "rcp.rn.f64 %s, %s;", d, b);
		else
			ptx_line(e, "div.rn.%s %s, %s, %s;", fty(k), d, a, b);
		round_f16(e, d, i->ty);
		return;
	}
	if (!is_int(k))
		bad_cls(e, i);
	int sgn = ptx_sk_signed(i->ty);
	const char *op = rem ? "rem" : "div", *t = ity(k, sgn);
	int64_t v;
	if (ptx_is_con(e, i->arg[1], &v)) {
		if (v == 0)
			ptx_line(e, "mov.%s %s, %s;", bty(k), d, rem ? a : "0");
		else if (v == -1 && sgn && rem)
			ptx_line(e, "mov.%s %s, 0;", bty(k), d);
		else if (v == -1 && sgn)
			ptx_line(e, "neg.%s %s, %s;", t, d, a);
		else if (k == KL)
			ptx_idiv64_con(e, d, a, v, sgn, rem);
		else
			ptx_line(e, "%s.%s %s, %s, %s;", op, t, d, a, b);
	} else if (!sgn) {
		const char *z = ptx_tmp(e, KB), *one = ptx_tmp(e, k), *q = ptx_tmp(e, k);
		ptx_line(e, "setp.eq.%s %s, %s, 0;", bty(k), z, b);
		ptx_line(e, "selp.%s %s, 1, %s, %s;", bty(k), one, b, z);
		int_div(e, k, sgn, rem, q, a, one);
		ptx_line(e, "selp.%s %s, %s, %s, %s;", bty(k), d, rem ? a : "0", q, z);
	} else {
		/* signed: a divisor of -1 is replaced too, since PTX leaves
		 * INT_MIN / -1 undefined; x / -1 = -x (wrapping), x rem -1 = 0 */
		const char *z = ptx_tmp(e, KB), *m = ptx_tmp(e, KB), *zm = ptx_tmp(e, KB);
		const char *one = ptx_tmp(e, k), *q = ptx_tmp(e, k);
		ptx_line(e, "setp.eq.%s %s, %s, 0;", bty(k), z, b);
		ptx_line(e, "setp.eq.%s %s, %s, -1;", bty(k), m, b);
		ptx_line(e, "or.pred %s, %s, %s;", zm, z, m);
		ptx_line(e, "selp.%s %s, 1, %s, %s;", bty(k), one, b, zm);
		int_div(e, k, sgn, rem, q, a, one);
		if (rem)
			ptx_line(e, "selp.%s %s, %s, %s, %s;", bty(k), d, a, q, z);
		else {
			const char *n = ptx_tmp(e, k), *r = ptx_tmp(e, k);
			ptx_line(e, "neg.%s %s, %s;", t, n, a);
			ptx_line(e, "selp.%s %s, %s, %s, %s;", bty(k), r, n, q, m);
			ptx_line(e, "selp.%s %s, 0, %s, %s;", bty(k), d, r, z);
		}
	}
	ptx_narrow(e, d, i->ty);
}

static void unary(Emit *e, const Ins *i)
{
	int k = i->cls;
	const char *a = ptx_opnd(e, i->arg[0]);
	const char *d = ptx_def(e, i);
	switch (i->op) {
	case O_NEG:
		if (is_int(k)) {
			ptx_line(e, "neg.%s %s, %s;", ity(k, 1), d, a);
			ptx_narrow(e, d, i->ty);
		} else if (is_flt(k))
			ptx_line(e, "neg.%s %s, %s;", fty(k), d, a);
		else
			bad_cls(e, i);
		return;
	case O_NOT:
		if (k == KB)
			ptx_line(e, "not.pred %s, %s;", d, a);
		else if (is_int(k)) {
			/* xor with all ones, not `not`: ptxas (12.x-13.0, sm_90)
			 * folds not(not(x)) under a branch on x == 0 to -1 */
			ptx_line(e, "xor.%s %s, %s, -1;", bty(k), d, a);
			ptx_narrow(e, d, i->ty);
		} else
			bad_cls(e, i);
		return;
	case O_ABS:
		if (k == KB || (is_int(k) && !ptx_sk_signed(i->ty)))
			ptx_line(e, "mov.%s %s, %s;", ptx_movty(k), d, a);
		else if (is_int(k)) {
			ptx_line(e, "abs.%s %s, %s;", ity(k, 1), d, a);
			ptx_narrow(e, d, i->ty);
		} else
			ptx_line(e, "abs.%s %s, %s;", fty(k), d, a);
		return;
	case O_SQRT:
		if (!is_flt(k))
			bad_cls(e, i);
		if (e->fast && k == KS)
			ptx_line(e, "sqrt.approx.ftz.f32 %s, %s;", d, a);
		else
			ptx_line(e, "sqrt.rn.%s %s, %s;", fty(k), d, a);
		round_f16(e, d, i->ty);
		return;
	default: {
		static const char *const rnd[] = {
			[O_FLOOR] = "rmi", [O_CEIL] = "rpi", [O_TRUNC] = "rzi", [O_RINT] = "rni",
		};
		if (is_flt(k))
			ptx_line(e, "cvt.%s.%s.%s %s, %s;", rnd[i->op], fty(k), fty(k), d, a);
		else
			ptx_line(e, "mov.%s %s, %s;", ptx_movty(k), d, a);
		return;
	}
	}
}

/* A shift of a 32- or 64-bit kind by a constant count in (0, width): the
 * value shifted and the count. */
static int shift_by(Emit *e, Ref r, int op, Ref *x, int64_t *n)
{
	if (r.kind != R_VAL || (int)r.idx >= e->f->nval)
		return 0;
	const Ins *i = e->def[r.idx];
	if (!i || i->op != op || (i->cls != KW && i->cls != KL) || ptx_sk_small(i->ty) ||
	    (op == O_SHR && ptx_sk_signed(i->ty)) || !ptx_is_con(e, i->arg[1], n))
		return 0;
	*x = i->arg[0];
	return *n > 0 && *n < (i->cls == KL ? 64 : 32);
}

/* x << n | x >> (width - n), the right shift logical: a rotation, which
 * ptxas makes two funnel shifts of only when they are written (an or of
 * the two shifts it merges into the logic around them instead, keeping
 * the four shifts of a 64-bit rotation).  Returns 0 for anything else. */
static int rotate(Emit *e, const Ins *i)
{
	Ref x, y;
	int64_t n, m;
	int w = i->cls == KL ? 64 : 32;
	if (i->op != O_OR || (i->cls != KW && i->cls != KL))
		return 0;
	for (int s = 0; s < 2; s++) {
		if (!shift_by(e, i->arg[s], O_SHL, &x, &n) || !shift_by(e, i->arg[!s], O_SHR, &y, &m) ||
		    !ref_eq(x, y) || n + m != w || ptx_cls(e, x) != i->cls)
			continue;
		const char *d = ptx_def(e, i), *a = ptx_reg(e, x);
		if (w == 32) {
			ptx_line(e, "shf.l.wrap.b32 %s, %s, %s, %d;", d, a, a, (int)n);
			return 1;
		}
		const char *lo = ptx_tmp(e, KW), *hi = ptx_tmp(e, KW), *nlo = ptx_tmp(e, KW), *nhi = ptx_tmp(e, KW);
		ptx_line(e, "mov.b64 {%s, %s}, %s;", lo, hi, a);
		if (n >= 32) {           /* the halves swap places, then turn by n - 32 */
			const char *t = lo;
			lo = hi;
			hi = t;
			n -= 32;
		}
		if (n == 0) {
			ptx_line(e, "mov.b64 %s, {%s, %s};", d, lo, hi);
			return 1;
		}
		ptx_line(e, "shf.l.wrap.b32 %s, %s, %s, %d;", nhi, lo, hi, (int)n);
		ptx_line(e, "shf.l.wrap.b32 %s, %s, %s, %d;", nlo, hi, lo, (int)n);
		ptx_line(e, "mov.b64 %s, {%s, %s};", d, nlo, nhi);
		return 1;
	}
	return 0;
}

/* The 32-bit value whose zero extension r is (cvt.u64 from u32). */
static int zext32(Emit *e, Ref r, Ref *x)
{
	if (r.kind != R_VAL || (int)r.idx >= e->f->nval)
		return 0;
	const Ins *i = e->def[r.idx];
	if (!i || i->op != O_CVT || i->ty != SK_U32 || (i->aux != SK_U64 && i->aux != SK_I64))
		return 0;
	*x = i->arg[0];
	return 1;
}

/* A cvt to 32 bits of z << n | z >> (32 - n), z a 32-bit x zero-extended
 * to 64 (Numba's typing widens uint32 operands of << and >>): the low
 * half is x rotated by n, one funnel shift. */
static int rotate32_narrowed(Emit *e, const Ins *i)
{
	Ref x, z, w;
	int64_t n, m;
	if (i->cls != KW || (i->aux != SK_U32 && i->aux != SK_I32) || (i->ty != SK_U64 && i->ty != SK_I64) ||
	    i->arg[0].kind != R_VAL || (int)i->arg[0].idx >= e->f->nval)
		return 0;
	const Ins *o = e->def[i->arg[0].idx];
	if (!o || o->op != O_OR || o->cls != KL)
		return 0;
	for (int s = 0; s < 2; s++) {
		if (!shift_by(e, o->arg[s], O_SHL, &z, &n) || !shift_by(e, o->arg[!s], O_SHR, &w, &m) ||
		    !ref_eq(z, w) || n >= 32 || n + m != 32 || !zext32(e, z, &x) || ptx_cls(e, x) != KW)
			continue;
		const char *a = ptx_reg(e, x);
		ptx_line(e, "shf.l.wrap.b32 %s, %s, %s, %d;", ptx_def(e, i), a, a, (int)n);
		return 1;
	}
	return 0;
}

static void logic(Emit *e, const Ins *i)
{
	static const char *const name[] = {[O_AND] = "and", [O_OR] = "or", [O_XOR] = "xor"};
	int k = i->cls;
	if (k != KB && !is_int(k))
		bad_cls(e, i);
	if (rotate(e, i))
		return;
	const char *a = ptx_opnd(e, i->arg[0]), *b = ptx_opnd(e, i->arg[1]);
	ptx_line(e, "%s.%s %s, %s, %s;", name[i->op], k == KB ? "pred" : bty(k), ptx_def(e, i), a, b);
}

/* A shift count as an unsigned 32-bit operand. */
static const char *count(Emit *e, Ref r)
{
	int64_t v;
	Cls k = ptx_cls(e, r);
	if (ptx_is_con(e, r, &v)) {
		uint64_t u = k == KW ? (uint32_t)v : (uint64_t)v;
		return arena_printf(e->c->arena, "%u", u > 255 ? 255u : (unsigned)u);
	}
	if (k == KW)
		return ptx_opnd(e, r);
	if (k != KL)
		ICE(e->c, "shift count of class %s", cls_name[k]);
	const char *t = ptx_tmp(e, KW);
	ptx_line(e, "cvt.sat.u32.u64 %s, %s;", t, ptx_opnd(e, r));
	return t;
}

static void shift(Emit *e, const Ins *i)
{
	int k = i->cls;
	if (!is_int(k))
		bad_cls(e, i);
	const char *a = ptx_opnd(e, i->arg[0]), *n = count(e, i->arg[1]);
	const char *d = ptx_def(e, i);
	if (i->op == O_SHL) {
		ptx_line(e, "shl.%s %s, %s, %s;", bty(k), d, a, n);
		ptx_narrow(e, d, i->ty);
	} else
		ptx_line(e, "shr.%s %s, %s, %s;", ity(k, ptx_sk_signed(i->ty)), d, a, n);
}

static void minmax(Emit *e, const Ins *i)
{
	int k = i->cls, max = i->op == O_MAX;
	const char *a = ptx_opnd(e, i->arg[0]), *b = ptx_opnd(e, i->arg[1]);
	const char *d = ptx_def(e, i);
	const char *op = max ? "max" : "min";
	if (k == KB)
		ptx_line(e, "%s.pred %s, %s, %s;", max ? "or" : "and", d, a, b);
	else if (is_int(k))
		ptx_line(e, "%s.%s %s, %s, %s;", op, ity(k, ptx_sk_signed(i->ty)), d, a, b);
	else if (is_flt(k))
		ptx_line(e, "%s%s.%s %s, %s, %s;", op, ftz(e, k), fty(k), d, a, b);
	else
		bad_cls(e, i);
}

static void fused(Emit *e, const Ins *i)
{
	int k = i->cls;
	if (!is_flt(k))
		bad_cls(e, i);
	if (i->ty == SK_F16) {
		/* rounded once to float16: the half instruction on the operands,
		 * which float16 holds exactly */
		const char *h[4];
		for (int n = 0; n < 3; n++) {
			h[n] = ptx_tmp(e, RK_H);
			ptx_line(e, "cvt.rn.f16.f32 %s, %s;", h[n], ptx_reg(e, i->arg[n]));
		}
		h[3] = ptx_tmp(e, RK_H);
		ptx_line(e, "fma.rn.f16 %s, %s, %s, %s;", h[3], h[0], h[1], h[2]);
		ptx_line(e, "cvt.f32.f16 %s, %s;", ptx_def(e, i), h[3]);
		return;
	}
	const char *a = ptx_opnd(e, i->arg[0]), *b = ptx_opnd(e, i->arg[1]), *c = ptx_opnd(e, i->arg[2]);
	const char *d = ptx_def(e, i);
	ptx_line(e, "fma.%s%s%s.%s %s, %s, %s, %s;", i->aux & FMA_RM ? "rm" : "rn", ftz(e, k),
	         i->aux & FMA_SAT ? ".sat" : "", fty(k), d, a, b, c);
	round_f16(e, d, i->ty);
}

static void compare(Emit *e, const Ins *i)
{
	int cc = i->aux;
	if (cc < 0 || cc >= NCC)
		ICE(e->c, "condition code %d", cc);
	Cls k = ptx_cls(e, i->arg[0]);
	if (ptx_cls(e, i->arg[1]) != k)
		ICE(e->c, "cmp of a %s and a %s", cls_name[k], cls_name[ptx_cls(e, i->arg[1])]);
	if (i->cls != KB)
		bad_cls(e, i);
	const char *a = ptx_opnd(e, i->arg[0]), *b = ptx_opnd(e, i->arg[1]);
	const char *d = ptx_def(e, i);
	if (k == KB) {
		/* false < true */
		const char *t = ptx_tmp(e, KB);
		switch (cc) {
		case CC_EQ:
			ptx_line(e, "xor.pred %s, %s, %s;", t, a, b);
			ptx_line(e, "not.pred %s, %s;", d, t);
			return;
		case CC_NE:
			ptx_line(e, "xor.pred %s, %s, %s;", d, a, b);
			return;
		case CC_LT: case CC_LTU: case CC_LE: case CC_LEU:
			ptx_line(e, "not.pred %s, %s;", t, a);
			ptx_line(e, "%s.pred %s, %s, %s;", cc == CC_LT || cc == CC_LTU ? "and" : "or", d, t, b);
			return;
		default:
			ptx_line(e, "not.pred %s, %s;", t, b);
			ptx_line(e, "%s.pred %s, %s, %s;", cc == CC_GT || cc == CC_GTU ? "and" : "or", d, a, t);
			return;
		}
	}
	if (is_int(k)) {
		static const char *const sname[NCC] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
		static const char *const uname[NCC] = {"eq", "ne", "lo", "ls", "hi", "hs", "lo", "ls", "hi", "hs"};
		int sgn = ptx_sk_signed(i->ty) && cc < CC_LTU;
		const char *t = cc <= CC_NE ? bty(k) : ity(k, sgn);
		ptx_line(e, "setp.%s.%s %s, %s, %s;", sgn ? sname[cc] : uname[cc], t, d, a, b);
		return;
	}
	if (!is_flt(k))
		bad_cls(e, i);
	static const char *const fname[NCC] = {"eq", "neu", "lt", "le", "gt", "ge", "ltu", "leu", "gtu", "geu"};
	ptx_line(e, "setp.%s.%s %s, %s, %s;", fname[cc], fty(k), d, a, b);
}

static void choose(Emit *e, const Ins *i)
{
	int k = i->cls;
	int64_t v;
	if (ptx_is_con(e, i->arg[0], &v)) {
		const char *a = ptx_opnd(e, i->arg[v ? 1 : 2]);
		ptx_line(e, "mov.%s %s, %s;", ptx_movty(k), ptx_def(e, i), a);
		return;
	}
	const char *p = ptx_pred(e, i->arg[0]);
	const char *a = ptx_opnd(e, i->arg[1]), *b = ptx_opnd(e, i->arg[2]);
	const char *d = ptx_def(e, i);
	if (k == KB) {
		const char *t = ptx_tmp(e, KB), *u = ptx_tmp(e, KB), *w = ptx_tmp(e, KB);
		ptx_line(e, "and.pred %s, %s, %s;", t, p, a);
		ptx_line(e, "not.pred %s, %s;", u, p);
		ptx_line(e, "and.pred %s, %s, %s;", w, u, b);
		ptx_line(e, "or.pred %s, %s, %s;", d, t, w);
	} else if (is_int(k) || is_flt(k))
		ptx_line(e, "selp.%s %s, %s, %s, %s;", ptx_movty(k), d, a, b, p);
	else
		bad_cls(e, i);
}

/* ------------------------------------------------------ conversions */

static int is_int_sk(int sk)
{
	return sk >= SK_I8 && sk <= SK_U64;
}

static int is_flt_sk(int sk)
{
	return sk == SK_F16 || sk == SK_F32 || sk == SK_F64 || sk == SK_BF16;
}

/* d (f32) = the f32 register f rounded to bfloat16, to nearest even
 * (sm_80's cvt, through the pair form, which writes a 32-bit register:
 * the high half is the value's bfloat16, the low half is cleared). */
static void bf16_of_f32(Emit *e, const char *d, const char *f)
{
	const char *r = ptx_tmp(e, KW);
	ptx_line(e, "cvt.rn.bf16x2.f32 %s, %s, %s;", r, f, f);
	ptx_line(e, "and.b32 %s, %s, -65536;", r, r);
	ptx_line(e, "mov.b32 %s, %s;", d, r);
}

/* An f32 register holding x (an f64 or a 32- or 64-bit integer of kind
 * from) rounded toward zero, with its lowest bit set when that lost
 * anything: rounding it to bfloat16 then rounds x itself, once. */
static const char *f32_round_to_odd(Emit *e, int from, const char *x)
{
	const char *t = ptx_tmp(e, KS), *p = ptx_tmp(e, KB), *r = ptx_tmp(e, KW), *r1 = ptx_tmp(e, KW);
	if (from == SK_F64) {
		const char *back = ptx_tmp(e, KD);
		ptx_line(e, "cvt.rz.f32.f64 %s, %s;", t, x);
		ptx_line(e, "cvt.f64.f32 %s, %s;", back, t);
		ptx_line(e, "setp.neu.f64 %s, %s, %s;", p, back, x);
	} else {
		int wide = from == SK_I64 || from == SK_U64;
		const char *ity = wide ? (ptx_sk_signed(from) ? "s64" : "u64") : (ptx_sk_signed(from) ? "s32" : "u32");
		const char *back = ptx_tmp(e, wide ? KL : KW);
		ptx_line(e, "cvt.rz.f32.%s %s, %s;", ity, t, x);
		ptx_line(e, "cvt.rzi.%s.f32 %s, %s;", ity, back, t);
		ptx_line(e, "setp.ne.%s %s, %s, %s;", wide ? "b64" : "b32", p, back, x);
	}
	ptx_line(e, "mov.b32 %s, %s;", r, t);
	ptx_line(e, "or.b32 %s, %s, 1;", r1, r);
	ptx_line(e, "selp.b32 %s, %s, %s, %s;", r, r1, r, p);
	ptx_line(e, "mov.b32 %s, %s;", t, r);
	return t;
}

/* The .b32/.b64 container type an integer kind is read as. */
static const char *int_src(int sk)
{
	int wide = sk == SK_I64 || sk == SK_U64;
	return wide ? (ptx_sk_signed(sk) ? "s64" : "u64") : (ptx_sk_signed(sk) ? "s32" : "u32");
}

/* Float src (class fk) truncated and saturated to 16 bits, signed as
 * the 8- or 16-bit kind sk: a fresh 16-bit register. */
static const char *rzi16(Emit *e, int sk, const char *fty, const char *src)
{
	const char *h = ptx_tmp(e, RK_H);
	ptx_line(e, "cvt.rzi.%s16.%s %s, %s;", ptx_sk_signed(sk) ? "s" : "u", fty, h, src);
	return h;
}

/* the .b16 bits of float16 value r: the register its load went through,
 * or its .f32 register narrowed (exactly: it holds a float16) */
static const char *half_reg(Emit *e, Ref r)
{
	if (r.kind == R_VAL && (int)r.idx < e->f->nval && e->half[r.idx])
		return e->half[r.idx];
	const char *h = ptx_tmp(e, RK_H);
	ptx_line(e, "cvt.rn.f16.f32 %s, %s;", h, ptx_reg(e, r));
	return h;
}

/* float16 to an integer or float64 straight from its bits (cvt reads .f16
 * for every destination), with the f32 route's results: truncation,
 * saturated to the kind, or for 8-bit kinds to 16 bits and the low byte
 * kept (ir_float_to_int) */
static void convert_half(Emit *e, const char *d, int to, Ref a)
{
	const char *h = half_reg(e, a);
	if (to == SK_F64)
		ptx_line(e, "cvt.f64.f16 %s, %s;", d, h);
	else if (ptx_sk_small(to))
		ptx_line(e, "cvt.%s32.%s %s, %s;", ptx_sk_signed(to) ? "s" : "u", ptx_sk_mem(to), d, rzi16(e, to, "f16", h));
	else
		ptx_line(e, "cvt.rzi.%s.f16 %s, %s;", ptx_sk_mem(to), d, h);
}

void ptx_convert(Emit *e, const char *d, int to, Ref a, int from)
{
	if (!(from == SK_BOOL || is_int_sk(from) || is_flt_sk(from)) ||
	    !(to == SK_BOOL || is_int_sk(to) || is_flt_sk(to)))
		ICE(e->c, "conversion from scalar kind %d to %d", from, to);
	Cls fk = ir_cls_of_sk(from), tk = ir_cls_of_sk(to);
	if (ptx_cls(e, a) != fk)
		ICE(e->c, "cvt from kind %d reads a %s", from, cls_name[ptx_cls(e, a)]);
	if (from == SK_BF16 && to != SK_BF16)
		from = SK_F32;             /* the register holds the value as a float32 */
	if (to == SK_BF16 && from != SK_BF16 && from != SK_BOOL) {
		const char *s = ptx_opnd(e, a);
		if (from == SK_F32)
			bf16_of_f32(e, d, s);
		else if (from == SK_F64 || scalar_info[from].size >= 4)
			bf16_of_f32(e, d, f32_round_to_odd(e, from, s));
		else {
			const char *t = ptx_tmp(e, KS);
			if (from == SK_F16)
				ptx_line(e, "mov.f32 %s, %s;", t, s);
			else
				ptx_line(e, "cvt.rn.f32.%s %s, %s;", int_src(from), t, s);
			bf16_of_f32(e, d, t);
		}
		return;
	}
	if (from == to || (from == SK_F16 && to == SK_F32)) {
		ptx_line(e, "mov.%s %s, %s;", ptx_movty(tk), d, ptx_opnd(e, a));
		return;
	}
	if (from == SK_BOOL) {
		const char *p = ptx_pred(e, a);
		if (is_int_sk(to))
			ptx_line(e, "selp.%s %s, 1, 0, %s;", bty(tk), d, p);
		else if (tk == KS)
			ptx_line(e, "selp.f32 %s, 0f3F800000, 0f00000000, %s;", d, p);
		else
			ptx_line(e, "selp.f64 %s, 0d3FF0000000000000, 0d0000000000000000, %s;", d, p);
		return;
	}
	if (from == SK_F16 && (is_int_sk(to) || to == SK_F64)) {
		convert_half(e, d, to, a);
		return;
	}
	const char *s = ptx_opnd(e, a);
	if (to == SK_BOOL) {
		if (is_int_sk(from))
			ptx_line(e, "setp.ne.%s %s, %s, 0;", bty(fk), d, s);
		else if (fk == KS)
			ptx_line(e, "setp.neu.f32 %s, %s, 0f00000000;", d, s);
		else
			ptx_line(e, "setp.neu.f64 %s, %s, 0d0000000000000000;", d, s);
		return;
	}
	if (is_int_sk(from) && is_int_sk(to)) {
		if (tk == KL) {
			if (fk == KL)
				ptx_line(e, "mov.b64 %s, %s;", d, s);
			else
				ptx_line(e, "cvt.%s.%s %s, %s;", ptx_sk_signed(from) ? "s64" : "u64", int_src(from), d, s);
		} else if (ptx_sk_small(to)) {
			if (fk == KL) {
				const char *t = ptx_tmp(e, KW);
				ptx_line(e, "cvt.u32.u64 %s, %s;", t, s);
				s = t;
			}
			ptx_line(e, "cvt.%s.%s %s, %s;", ptx_sk_signed(to) ? "s32" : "u32", ptx_sk_mem(to), d, s);
		}
		else if (fk == KL)
			ptx_line(e, "cvt.u32.u64 %s, %s;", d, s);
		else
			ptx_line(e, "mov.b32 %s, %s;", d, s);
		return;
	}
	if (is_int_sk(from)) {
		if (to == SK_F16) {
			/* an 8- or 16-bit kind is held extended in its register, whose
			 * low bits cvt reads (PTX's wider source register): the
			 * same value, named as Numba's cast names it */
			const char *h = ptx_tmp(e, RK_H);
			int narrow = from == SK_I8 || from == SK_I16 || from == SK_U8 || from == SK_U16;
			ptx_line(e, "cvt.rn.f16.%s %s, %s;", narrow ? ptx_sk_mem(from) : int_src(from), h, s);
			ptx_line(e, "cvt.f32.f16 %s, %s;", d, h);
		} else
			ptx_line(e, "cvt.rn.%s.%s %s, %s;", fty(tk), int_src(from), d, s);
		return;
	}
	if (is_int_sk(to) && ptx_sk_small(to)) {
		/* saturated to 16 bits, then extended from the kind's width: the
		 * 8-bit kinds keep the low byte (ir_float_to_int) */
		const char *h = rzi16(e, to, fty(fk), s);
		ptx_line(e, "cvt.%s32.%s %s, %s;", ptx_sk_signed(to) ? "s" : "u", ptx_sk_mem(to), d, h);
		return;
	}
	if (is_int_sk(to)) {
		ptx_line(e, "cvt.rzi.%s.%s %s, %s;", ptx_sk_mem(to), fty(fk), d, s);
		return;
	}
	/* float to float; f16 -> f32 and equal kinds were moves */
	if (to == SK_F64)
		ptx_line(e, "cvt.f64.f32 %s, %s;", d, s);
	else if (to == SK_F32)
		ptx_line(e, "cvt.rn.f32.f64 %s, %s;", d, s);
	else {
		const char *h = ptx_tmp(e, RK_H);
		ptx_line(e, "cvt.rn.f16.%s %s, %s;", fty(fk), h, s);
		ptx_line(e, "cvt.f32.f16 %s, %s;", d, h);
	}
}

/* ---------------------------------------------------------- memory */

static void param(Emit *e, const Ins *i)
{
	int k = ptx_param_index(e, i->aux);
	KParam *p = &e->f->param[k];
	if (ir_cls_of_sk(p->ty) != i->cls)
		ICE(e->c, "parameter %d of kind %d read as a %s", k, p->ty, cls_name[i->cls < NK ? i->cls : 0]);
	const char *d = ptx_def(e, i), *name = e->pname[k];
	if (p->ty == SK_BOOL) {
		const char *t = ptx_tmp(e, KW);
		ptx_line(e, "ld.param.u8 %s, [%s];", t, name);
		ptx_line(e, "setp.ne.b32 %s, %s, 0;", d, t);
	} else if (p->ty == SK_F16) {
		const char *h = ptx_tmp(e, RK_H);
		ptx_line(e, "ld.param.b16 %s, [%s];", h, name);
		ptx_line(e, "cvt.f32.f16 %s, %s;", d, h);
		e->half[i->to] = h;
	} else {
		ptx_line(e, "ld.param.%s %s, [%s];", ptx_sk_mem(p->ty), d, name);
		if (p->role == KP_DATA)
			ptx_line(e, "cvta.to.global.u64 %s, %s;", d, d);
	}
}

static void mem_kind(Emit *e, const Ins *i, Cls k)
{
	const char *m = ptx_sk_mem(i->ty);
	if (!m || ir_cls_of_sk(i->ty) != k)
		ICE(e->c, "%s of kind %d with class %s", ptx_opname(i->op), i->ty, cls_name[k < NK ? k : 0]);
}

/* The space of a load or store with its cache operator (".global.cs"),
 * and the type it moves: with an operator, the bits (.b8 ... .b64), as
 * the operator's users write it (an 8- or 16-bit integer is extended
 * afterwards); else the kind's own (.s8, .f32). */
static const char *mem_space(Emit *e, const Ins *i)
{
	int co = ir_cache_op(i);
	if (co)
		return arena_printf(e->c->arena, "%s.%s", ptx_space(e, ir_mem_space(i)), ir_cache_op_name[co]);
	return ir_load_nc(e->f, i) ? ".global.nc" : ptx_space(e, ir_mem_space(i));
}

static const char *mem_type(const Ins *i)
{
	static const char *const b[] = {"b8", "b16", "b32", "b64"};
	if (!ir_cache_op(i) || i->ty == SK_BOOL || i->ty == SK_F16)
		return ptx_sk_mem(i->ty);
	int size = scalar_info[i->ty].size;
	return b[size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
}

static void load(Emit *e, const Ins *i)
{
	if (ir_mem_space(i) == SP_PARAM)
		ICE(e->c, "load from the parameter space");
	mem_kind(e, i, i->cls);
	const char *sp = mem_space(e, i), *a = ptx_addr(e, i->arg[0]);
	const char *d = ptx_def(e, i);
	if (i->ty == SK_BOOL) {
		const char *t = ptx_tmp(e, KW);
		ptx_line(e, "ld%s.u8 %s, %s;", sp, t, a);
		ptx_line(e, "setp.ne.b32 %s, %s, 0;", d, t);
	} else if (i->ty == SK_F16) {
		const char *h = ptx_tmp(e, RK_H);
		ptx_line(e, "ld%s.b16 %s, %s;", sp, h, a);
		ptx_line(e, "cvt.f32.f16 %s, %s;", d, h);
		e->half[i->to] = h;
	} else {
		ptx_line(e, "ld%s.%s %s, %s;", sp, mem_type(i), d, a);
		if (ir_cache_op(i) && ptx_sk_small(i->ty))
			ptx_narrow(e, d, i->ty);
	}
}

/* Is r a float converted to the 8- or 16-bit kind sk in this block (so
 * that the float's register still holds what was converted)? */
static int small_float_cvt(Emit *e, Ref r, int sk)
{
	if (!ptx_sk_small(sk) || r.kind != R_VAL || (int)r.idx >= e->f->nval || e->defblk[r.idx] != e->cur)
		return 0;
	const Ins *c = e->def[r.idx];
	return c && c->op == O_CVT && c->aux == sk && (c->ty == SK_F32 || c->ty == SK_F64);
}

static void store(Emit *e, const Ins *i)
{
	if (ir_mem_space(i) == SP_PARAM || ir_mem_space(i) == SP_CONST)
		ICE(e->c, "store to space %d", i->aux);
	mem_kind(e, i, ptx_cls(e, i->arg[1]));
	const char *sp = mem_space(e, i), *a = ptx_addr(e, i->arg[0]);
	int64_t v;
	if (i->ty == SK_BOOL) {
		const char *t;
		if (ptx_is_con(e, i->arg[1], &v))
			t = v ? "1" : "0";
		else {
			t = ptx_tmp(e, KW);
			ptx_line(e, "selp.u32 %s, 1, 0, %s;", t, ptx_pred(e, i->arg[1]));
		}
		ptx_line(e, "st%s.u8 %s, %s;", sp, a, t);
	} else if (i->ty == SK_F16) {
		const char *h = ptx_tmp(e, RK_H);
		ptx_line(e, "cvt.rn.f16.f32 %s, %s;", h, ptx_opnd(e, i->arg[1]));
		ptx_line(e, "st%s.b16 %s, %s;", sp, a, h);
	} else if (small_float_cvt(e, i->arg[1], i->ty)) {
		/* the low bits of the 16-bit conversion are the value: the store
		 * takes them from a copy of that conversion (ptxas merges the two),
		 * and the extension to 32 bits dies unless something else reads it */
		const Ins *c = e->def[i->arg[1].idx];
		const char *h = rzi16(e, i->ty, fty(ir_cls_of_sk(c->ty)), ptx_opnd(e, c->arg[0]));
		ptx_line(e, "st%s.%s %s, %s;", sp, mem_type(i), a, h);
	} else
		ptx_line(e, "st%s.%s %s, %s;", sp, mem_type(i), a, ptx_opnd(e, i->arg[1]));
}

static void check(Emit *e, const Ins *i)
{
	const char *a = ptx_opnd(e, i->arg[0]), *b = ptx_opnd(e, i->arg[1]);
	if (ptx_cls(e, i->arg[0]) != KL || ptx_cls(e, i->arg[1]) != KL)
		ICE(e->c, "bounds check of non-64-bit operands");
	const char *p = ptx_tmp(e, KB);
	ptx_line(e, "setp.ge.u64 %s, %s, %s;", p, a, b);
	ptx_trap_word(e, p, i->aux, a, b);   /* IndexError after the launch (kexc.c) */
}

/* ------------------------------------------------------- dispatch */

void ptx_ins(Emit *e, const Ins *i)
{
	switch (i->op) {
	case O_NOP_:
		return;
	case O_ADD: case O_SUB: case O_MUL:
		arith(e, i);
		return;
	case O_DIV: case O_REM:
		divide(e, i);
		return;
	case O_NEG: case O_NOT: case O_ABS: case O_SQRT:
	case O_FLOOR: case O_CEIL: case O_TRUNC: case O_RINT:
		unary(e, i);
		return;
	case O_AND: case O_OR: case O_XOR:
		logic(e, i);
		return;
	case O_SHL: case O_SHR:
		shift(e, i);
		return;
	case O_MIN: case O_MAX:
		minmax(e, i);
		return;
	case O_FMA:
		fused(e, i);
		return;
	case O_CMP:
		compare(e, i);
		return;
	case O_SEL:
		choose(e, i);
		return;
	case O_CVT:
		if (i->aux < 0 || i->aux >= NSK || ir_cls_of_sk(i->aux) != i->cls)
			ICE(e->c, "cvt to kind %d defines a %s", i->aux, cls_name[i->cls < NK ? i->cls : 0]);
		if (rotate32_narrowed(e, i))
			return;
		ptx_convert(e, ptx_def(e, i), i->aux, i->arg[0], i->ty);
		return;
	case O_BITS: {
		Cls k = ptx_cls(e, i->arg[0]);
		if ((k == KW || k == KS) != (i->cls == KW || i->cls == KS) || k == KB || i->cls == KB)
			ICE(e->c, "bits from %s to %s", cls_name[k], cls_name[i->cls < NK ? i->cls : 0]);
		const char *a = ptx_opnd(e, i->arg[0]);
		ptx_line(e, "mov.%s %s, %s;", bty(i->cls), ptx_def(e, i), a);
		return;
	}
	case O_COPY: {
		if (ptx_cls(e, i->arg[0]) != i->cls)
			bad_cls(e, i);
		const char *a = ptx_opnd(e, i->arg[0]);
		ptx_line(e, "mov.%s %s, %s;", ptx_movty(i->cls), ptx_def(e, i), a);
		return;
	}
	case O_PARAM:
		param(e, i);
		return;
	case O_SREG: {
		static const char *const name[NSR] = {
			"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
			"%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
			"%laneid", "WARP_SZ", "%dynamic_smem_size",
		};
		if (i->aux < 0 || i->aux >= NSR || i->cls != KW)
			ICE(e->c, "special register %d of class %s", i->aux, cls_name[i->cls < NK ? i->cls : 0]);
		ptx_line(e, "mov.u32 %s, %s;", ptx_def(e, i), name[i->aux]);
		return;
	}
	case O_LOAD:
		load(e, i);
		return;
	case O_STORE:
		store(e, i);
		return;
	case O_ATOM:
		ptx_atom(e, i);
		return;
	case O_ADDR:
		if (i->cls != KL)
			bad_cls(e, i);
		ptx_line(e, "mov.u64 %s, %s;", ptx_def(e, i), ptx_array_sym(e, i->aux));
		return;
	case O_BAR:
		if (i->aux == 1)
			ptx_grid_sync(e);   /* warp.c */
		else
			ptx_line(e, "bar.sync 0;");
		return;
	case O_MEMBAR: {
		static const char *const lvl[] = {"cta", "gl", "sys"};
		if (i->aux < 0 || i->aux > 2)
			ICE(e->c, "membar level %d", i->aux);
		ptx_line(e, "membar.%s;", lvl[i->aux]);
		return;
	}
	case O_CHECK:
		check(e, i);
		return;
	case O_TRAP:
	case O_FARG: case O_CARG: case O_CALLF: case O_CRES: case O_RETV: case O_PRINT:
		ptx_call(e, i);   /* call.c */
		return;
	case O_POPC: case O_CLZ: case O_BREV: case O_SHFL: case O_VOTE: case O_MATCH:
	case O_BARRED: case O_SYNCWARP: case O_ACTIVEMASK: case O_NANOSLEEP:
		ptx_warp(e, i);
		return;
	case O_APPROX:
		ptx_approx(e, i);
		return;
	default:
		ICE(e->c, "opcode %d has no PTX lowering", i->op);
	}
}

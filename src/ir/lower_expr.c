/*
 * lower_expr.c - expressions: arithmetic with Python's semantics built
 * from the IR's primitive operations, comparisons, short-circuit logic,
 * conditional expressions, and branches on conditions.
 *
 * Types come from sema (Expr.ty): the operands of arithmetic are
 * converted to the expression's type, those of a comparison to
 * ty_promote of the two; any expression with a compile-time value
 * (Expr.cval) lowers to that constant.
 *
 * Python semantics kept here:
 *   int // and %: floor division, the remainder has the divisor's sign;
 *     division by zero gives 0 for both (NumPy's error model, as Numba).
 *   float // and %: CPython's float_divmod on an exact fmod
 *     (lower_pymath.c); complex division is CPython's too.
 *   `**`: a constant integer exponent is a multiplication chain
 *     (exponentiation by squaring; a negative one divides 1 by it for
 *     floats), x ** 0.5 a square root, an integer exponent known only at
 *     run time a square-and-multiply loop (an int base to a negative power
 *     is 0 unless the base is 1 or -1, as in Numba); any other float
 *     exponent pow() of the math library (lower_math.c).
 *   comparisons chain and evaluate each operand once; `and`/`or` return
 *     an operand (converted to the expression's type) and evaluate the
 *     right one only when needed.
 *
 * Fused multiply-add (DESIGN.md "Floating point"): x*y + z, z + x*y,
 * x*y - z and z - x*y become one O_FMA when the multiply is a direct
 * operand of the add or subtract and has its float type; `acc += x*y`
 * and `acc -= x*y` likewise (lower_try_fma_aug); a complex product fuses
 * one product of each part, as Numba's does (complex_binop).  Nothing
 * else contracts, so the PTX and the simulator round the same way; the
 * CPU back end contracts nothing, as Numba's CPU target does not.
 * float16 contracts too: Numba's half multiply and add carry no rounding
 * mode, and ptxas fuses them into one fma.
 */
#include <math.h>
#include <string.h>

#include "lower.h"

static Value lower_tuple(Lower *L, Expr *e);
static Value lower_chain(Lower *L, Expr *e);
/* The role of operand i of chain e (sema_boolop_operand).  A dropped one
 * is never the chain's value, but one that is no constant, (x or 3),
 * still runs for what x does: it is lowered here and its value left. */
static int boolop_role(Lower *L, Expr *e, int i)
{
	int role = sema_boolop_operand(e, i);
	if (role == BOOL_DROPPED && !e->boolop.args[i]->cval)
		lower_expr(L, e->boolop.args[i]);
	return role;
}

static Value lower_boolop(Lower *L, Expr *e);
static Value lower_ifexp(Lower *L, Expr *e);

static ScalarKind sk_of(Lower *L, Type *t, Span sp)
{
	if (!t || t->kind != TY_SCALAR)
		err_at(L->c, sp, NULL, "a number was expected here, not %s",
		       t ? ty_str_of(L->c, t) : "an untyped value");
	return t->sk;
}

/* ----------------------------------------------------------- arithmetic */

Type *lower_arith_type(AstOp op, Type *a, Type *b)
{
	if (!a || !b || a->kind != TY_SCALAR || b->kind != TY_SCALAR)
		return NULL;
	int bools = a->sk == SK_BOOL && b->sk == SK_BOOL;
	Type *t = ty_promote(a, b);
	if (!t)
		return NULL;
	switch (op) {
	case OP_BITAND: case OP_BITOR: case OP_BITXOR:
		return bools ? ty_scalar(SK_BOOL) : t;
	case OP_DIV:
		if (scalar_info[t->sk].is_int)
			return ty_scalar(SK_F64);
		return t;
	default:
		if (t->sk == SK_BOOL)
			return ty_scalar(SK_I64);
		return t;
	}
}

static Ref arith(Lower *L, Opcode op, ScalarKind sk, Ref a, Ref b)
{
	return lower_emit(L, op, lower_cls(sk), sk, a, b, REF_NONE, 0);
}

static Ref fma3(Lower *L, ScalarKind sk, Ref x, Ref y, Ref z)
{
	return lower_emit(L, O_FMA, lower_cls(sk), sk, x, y, z, 0);
}

static Ref neg(Lower *L, ScalarKind sk, Ref x)
{
	return lower_emit(L, O_NEG, lower_cls(sk), sk, x, REF_NONE, REF_NONE, 0);
}

static int con_value(Lower *L, Ref r, int64_t *v)
{
	if (r.kind != R_CON)
		return 0;
	*v = L->f->con[r.idx].i;
	return 1;
}

/* Floor division of signed a by a constant b > 0, and the remainder:
 * b = 2^k is a >> k and a & (b - 1); otherwise, with s = a >> (bits - 1)
 * (0 or -1), a // b = ((a ^ s) / b) ^ s, an unsigned division of a number
 * below 2^(bits-1), and a % b = a - (a // b) b. */
static void floor_divmod_pos(Lower *L, ScalarKind sk, Ref a, Ref b, int64_t bc, Ref *q, Ref *r)
{
	Cls k = ir_cls_of_sk(sk);
	if ((bc & (bc - 1)) == 0) {
		int sh = __builtin_ctzll((unsigned long long)bc);
		if (q)
			*q = lower_norm(L, arith(L, O_SHR, sk, a, ir_con_int(L->f, k, sh)), sk);
		if (r)
			*r = lower_norm(L, arith(L, O_AND, sk, a, ir_con_int(L->f, k, bc - 1)), sk);
		return;
	}
	Ref s = arith(L, O_SHR, sk, a, ir_con_int(L->f, k, scalar_info[sk].size * 8 - 1));
	Ref u = arith(L, O_XOR, sk, a, s);
	Ref qq = arith(L, O_XOR, sk, arith(L, O_DIV, sk_unsigned(sk), u, b), s);
	if (q)
		*q = lower_norm(L, qq, sk);
	if (r)
		*r = lower_norm(L, arith(L, O_SUB, sk, a, arith(L, O_MUL, sk, qq, b)), sk);
}

/* Python's divmod on integers of kind sk; fills *q and/or *r. */
static void int_divmod(Lower *L, ScalarKind sk, Ref a, Ref b, Ref *q, Ref *r)
{
	Cls k = ir_cls_of_sk(sk);
	int64_t bc = 0;
	int bconst = con_value(L, b, &bc);
	Ref zero = ir_con_int(L->f, k, 0), one = ir_con_int(L->f, k, 1);
	Ref qq = REF_NONE, rr = REF_NONE;
	if (bconst && bc > 0 && lower_is_signed(sk)) {
		floor_divmod_pos(L, sk, a, b, bc, q, r);
		return;
	}
	/* with the quotient, the remainder is a - q b (exact, wrapping, for
	 * every b: 0 and -1 too): a second division costs far more */
	if (q) {
		qq = arith(L, O_DIV, sk, a, b);
		if (r || lower_is_signed(sk))
			rr = arith(L, O_SUB, sk, a, arith(L, O_MUL, sk, qq, b));
	} else
		rr = arith(L, O_REM, sk, a, b);
	if (lower_is_signed(sk)) {
		Ref fix;
		if (bconst && bc > 0)
			fix = lower_cmp(L, CC_LT, sk, rr, zero);
		else if (bconst && bc < 0)
			fix = lower_cmp(L, CC_GT, sk, rr, zero);
		else {
			Ref nz = lower_cmp(L, CC_NE, sk, rr, zero);
			Ref x = arith(L, O_XOR, sk, rr, b);
			Ref neg = lower_cmp(L, CC_LT, sk, x, zero);
			fix = lower_emit(L, O_AND, KB, SK_BOOL, nz, neg, REF_NONE, 0);
		}
		if (q)
			qq = lower_sel(L, k, fix, arith(L, O_SUB, sk, qq, one), qq);
		if (r)
			rr = lower_sel(L, k, fix, arith(L, O_ADD, sk, rr, b), rr);
	}
	if (!bconst || bc == 0) {
		Ref z = lower_cmp(L, CC_EQ, sk, b, zero);
		if (q)
			qq = lower_sel(L, k, z, zero, qq);
		if (r)
			rr = lower_sel(L, k, z, zero, rr);
	}
	if (q)
		*q = lower_norm(L, qq, sk);
	if (r)
		*r = lower_norm(L, rr, sk);
}

/* Python's error model (Lower.zerodiv): stops with ZeroDivisionError
 * ("integer division by zero") where divisor b of kind sk is zero; no
 * test for a non-zero constant. */
void lower_zerodiv(Lower *L, ScalarKind sk, Ref b, const char *what)
{
	int isf = lower_is_floatsk(sk);
	if (!L->zerodiv || !L->cur)
		return;
	if (b.kind == R_CON) {
		const Con *k = &L->f->con[b.idx];
		if (k->cls == KS ? k->s != 0 : k->cls == KD ? k->d != 0 : k->i != 0)
			return;
	}
	Ref zero = isf ? lower_con_float(L, sk, 0.0) : lower_con_int(L, sk, 0);
	lower_guard(L, lower_cmp(L, CC_NE, sk, b, zero),
	            arena_printf(L->c->arena, "ZeroDivisionError: %s%s by zero", isf ? "" : "integer ", what));
}

static Value complex_binop(Lower *L, AstOp op, Value a, Value b, Type *ty, Span sp)
{
	ScalarKind p = lower_part_sk(ty->sk);
	a = lower_convert(L, a, ty, sp);
	b = lower_convert(L, b, ty, sp);
	Value r = {.ty = ty};
	switch (op) {
	case OP_ADD:
		r.r = arith(L, O_ADD, p, a.r, b.r);
		r.im = arith(L, O_ADD, p, a.im, b.im);
		return r;
	case OP_SUB:
		r.r = arith(L, O_SUB, p, a.r, b.r);
		r.im = arith(L, O_SUB, p, a.im, b.im);
		return r;
	case OP_MUL: {
		Ref bd = arith(L, O_MUL, p, a.im, b.im), ad = arith(L, O_MUL, p, a.r, b.im);
		if (!L->cpu) {
			/* ac - bd with ac fused and ad + bc with bc fused: the bits of
			 * Numba's complex product on the GPU (NVVM fuses the one, ptxas
			 * the other) */
			r.r = fma3(L, p, a.r, b.r, neg(L, p, bd));
			r.im = fma3(L, p, a.im, b.r, ad);
			return r;
		}
		r.r = arith(L, O_SUB, p, arith(L, O_MUL, p, a.r, b.r), bd);
		r.im = arith(L, O_ADD, p, ad, arith(L, O_MUL, p, a.im, b.r));
		return r;
	}
	case OP_DIV:
		return lower_complex_div(L, a, b, ty);   /* CPython's algorithm */
	default:
		lower_unsupported(L, sp, "this operator on complex numbers");
	}
}

Value lower_binop(Lower *L, AstOp op, Value a, Value b, Type *ty, Span sp)
{
	if (op == OP_POW)
		return lower_pow(L, a, NULL, b, ty, sp);
	if (op == OP_MATMUL)
		lower_unsupported(L, sp, "the @ operator");
	ScalarKind sk = sk_of(L, ty, sp);
	if (scalar_info[sk].is_complex)
		return complex_binop(L, op, a, b, ty, sp);
	int isbit = op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR;
	if (sk == SK_BOOL && !isbit) {
		Value r = lower_binop(L, op, a, b, ty_scalar(SK_I64), sp);
		return lower_convert(L, r, ty, sp);
	}
	a = lower_convert(L, a, ty, sp);
	b = lower_convert(L, b, ty, sp);
	int isf = lower_is_floatsk(sk);
	/* a fastmath float32 '/' is the approximate division, unchecked (Numba's too) */
	int fastdiv = op == OP_DIV && sk == SK_F32 && L->c->opt && L->c->opt->fastmath;
	if ((op == OP_DIV && !fastdiv) || op == OP_FLOORDIV || op == OP_MOD)
		lower_zerodiv(L, sk, b.r, op == OP_MOD ? "modulo" : "division");
	Ref r;
	switch (op) {
	case OP_ADD:
		r = arith(L, O_ADD, sk, a.r, b.r);
		break;
	case OP_SUB:
		r = arith(L, O_SUB, sk, a.r, b.r);
		break;
	case OP_MUL:
		r = arith(L, O_MUL, sk, a.r, b.r);
		break;
	case OP_DIV:
		if (!isf)
			ICE(L->c, "true division typed as %s", ty_str_of(L->c, ty));
		r = arith(L, O_DIV, sk, a.r, b.r);
		break;
	case OP_FLOORDIV:
		if (isf)
			lower_float_divmod(L, sk, a.r, b.r, &r, NULL);
		else
			int_divmod(L, sk, a.r, b.r, &r, NULL);
		return lower_scalar(ty, r);
	case OP_MOD:
		if (isf)
			lower_float_divmod(L, sk, a.r, b.r, NULL, &r);
		else
			int_divmod(L, sk, a.r, b.r, NULL, &r);
		return lower_scalar(ty, r);
	case OP_LSHIFT:
	case OP_RSHIFT:
		if (isf)
			err_at(L->c, sp, "shift integers", "cannot shift a float");
		r = arith(L, op == OP_LSHIFT ? O_SHL : O_SHR, sk, a.r, b.r);
		break;
	case OP_BITAND:
	case OP_BITOR:
	case OP_BITXOR:
		if (isf)
			err_at(L->c, sp, "use &, |, ^ on integers or bools",
			       "bitwise operators do not apply to floats");
		r = arith(L, op == OP_BITAND ? O_AND : op == OP_BITOR ? O_OR : O_XOR, sk, a.r, b.r);
		break;
	default:
		ICE(L->c, "binary operator %d", (int)op);
	}
	return lower_scalar(ty, lower_norm(L, r, sk));
}

/* ----------------------------------------------------------------- power */

static Ref pow_chain(Lower *L, ScalarKind sk, Ref base, uint64_t n)
{
	Ref result = REF_NONE, p = base;
	while (n) {
		if (n & 1)
			result = result.kind == R_NONE ? p : arith(L, O_MUL, sk, result, p);
		n >>= 1;
		if (n)
			p = arith(L, O_MUL, sk, p, p);
	}
	return result.kind == R_NONE ? lower_con_int(L, sk, 1) : result;
}

/* base ** e for an int64 exponent known at run time: square and multiply. */
static Ref pow_loop(Lower *L, ScalarKind sk, Ref base, Ref e)
{
	Cls k = lower_cls(sk);
	Type *t = ty_scalar(sk), *i64 = ty_scalar(SK_I64);
	Ref neg = lower_cmp(L, CC_LT, SK_I64, e, ir_con_int(L->f, KL, 0));
	Ref ea = lower_emit(L, O_ABS, KL, SK_I64, e, REF_NONE, REF_NONE, 0);
	int rs = lower_new_slots(L, t, "pow"), ps = lower_new_slots(L, t, "pow");
	int es = lower_new_slots(L, i64, "pow");
	lower_write(L, rs, t, lower_scalar(t, lower_con_int(L, sk, 1)));
	lower_write(L, ps, t, lower_scalar(t, base));
	lower_write(L, es, i64, lower_scalar(i64, ea));
	Blk *head = lower_new_blk(L), *body = lower_new_blk(L), *done = lower_new_blk(L);
	lower_jump(L, head);
	lower_enter(L, head);
	Ref e1 = lower_read(L, es, i64).r;
	lower_branch(L, lower_cmp(L, CC_GT, SK_I64, e1, ir_con_int(L->f, KL, 0)), body, done);
	lower_seal(L, body);
	lower_enter(L, body);
	Ref r1 = lower_read(L, rs, t).r, p1 = lower_read(L, ps, t).r;
	Ref odd = lower_cmp(L, CC_NE, SK_I64, arith(L, O_AND, SK_I64, e1, ir_con_int(L->f, KL, 1)),
	                    ir_con_int(L->f, KL, 0));
	lower_write(L, rs, t, lower_scalar(t, lower_sel(L, k, odd, arith(L, O_MUL, sk, r1, p1), r1)));
	lower_write(L, ps, t, lower_scalar(t, arith(L, O_MUL, sk, p1, p1)));
	lower_write(L, es, i64, lower_scalar(i64, arith(L, O_SHR, SK_I64, e1, ir_con_int(L->f, KL, 1))));
	lower_jump(L, head);
	lower_seal(L, head);
	lower_seal(L, done);
	lower_enter(L, done);
	Ref r = lower_read(L, rs, t).r;
	if (lower_is_floatsk(sk))
		return lower_sel(L, k, neg, arith(L, O_DIV, sk, lower_con_int(L, sk, 1), r), r);
	Ref one = lower_cmp(L, CC_EQ, sk, base, lower_con_int(L, sk, 1));
	Ref mone = lower_cmp(L, CC_EQ, sk, base, lower_con_int(L, sk, -1));
	Ref unit = lower_emit(L, O_OR, KB, SK_BOOL, one, mone, REF_NONE, 0);
	return lower_sel(L, k, neg, lower_sel(L, k, unit, r, lower_con_int(L, sk, 0)), r);
}

Value lower_pow(Lower *L, Value a, Expr *be, Value b, Type *ty, Span sp)
{
	ScalarKind sk = sk_of(L, ty, sp);
	if (scalar_info[sk].is_complex) {
		/* CPython's c_powi for an integral constant exponent below 100, else lower_cpow.c */
		const Const *ec = be ? be->cval : NULL;
		double ce = ec && (ec->kind == PJ_V_INT || ec->kind == PJ_V_BOOL) ? (double)ec->i
		          : ec && (ec->kind == PJ_V_FLOAT || (ec->kind == PJ_V_COMPLEX && ec->im == 0)) ? ec->f : NAN;
		Value x = lower_convert(L, a, ty, sp);
		if (ce == floor(ce) && fabs(ce) < 100)
			return lower_complex_powi(L, x, (int64_t)ce, ty);
		return lower_complex_pow(L, x, lower_convert(L, b, ty, sp), ty);
	}
	if (sk == SK_BOOL)
		ty = ty_scalar(sk = SK_I64);
	Value base = lower_convert(L, a, ty, sp);
	int64_t n = 0;
	int nconst = lower_const_int(be, &n);
	double fe = 0;
	int fconst = be && be->cval && be->cval->kind == PJ_V_FLOAT;
	if (fconst) {
		fe = be->cval->f;
		if (fe == floor(fe) && fabs(fe) <= 1048576.0) {
			n = (int64_t)fe;
			nconst = 1;
		}
	}
	int bint = b.ty && b.ty->kind == TY_SCALAR && scalar_info[b.ty->sk].is_int;
	const char *hint = "x ** n with an integer n, and x ** 0.5, are supported";
	if (lower_is_floatsk(sk)) {
		if (nconst) {
			uint64_t m = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
			Ref r = pow_chain(L, sk, base.r, m);
			if (n < 0)
				r = arith(L, O_DIV, sk, lower_con_int(L, sk, 1), r);
			return lower_scalar(ty, r);
		}
		if (fconst && (fe == 0.5 || fe == -0.5)) {
			/* differs from pow() only for -0.0 and -inf */
			Ref r = lower_emit(L, O_SQRT, lower_cls(sk), sk, base.r, REF_NONE, REF_NONE, 0);
			if (fe < 0)
				r = arith(L, O_DIV, sk, lower_con_int(L, sk, 1), r);
			return lower_scalar(ty, r);
		}
		if (bint) {
			Ref e = lower_cvt(L, b.r, b.ty->sk, SK_I64);
			return lower_scalar(ty, pow_loop(L, sk, base.r, e));
		}
		/* any other exponent: pow() of the math library (lower_math.c) */
		return lower_scalar(ty, lower_math_pow(L, sk, base.r, lower_convert(L, b, ty, sp).r));
	}
	if (nconst && n >= 0)
		return lower_scalar(ty, lower_norm(L, pow_chain(L, sk, base.r, (uint64_t)n), sk));
	if (nconst || bint) {
		Ref e = nconst ? ir_con_int(L->f, KL, n) : lower_cvt(L, b.r, b.ty->sk, SK_I64);
		return lower_scalar(ty, lower_norm(L, pow_loop(L, sk, base.r, e), sk));
	}
	err_at(L->c, sp, hint, "this power is not supported yet");
}

/* ------------------------------------------------------------- fused ops */

/* A pure call (intrin_pure) with a scalar result. */
static int pure_call(const Expr *e)
{
	return !e->call.spec && !e->call.nkw && intrin_pure(e->call.intrin) && e->ty &&
	       e->ty->kind == TY_SCALAR;
}

/* A constant that is a value (const_is_value, or a global array, host or device), not
 * the module, function or intrinsic that some expressions carry as their
 * cval (a variable assigned cuda.laneid carries the intrinsic, though its
 * value is the lane's). */
static int is_value_const(const Const *cv)
{
	return const_is_value(cv) || cv->kind == PJ_V_ARRAY || cv->kind == PJ_V_DEVARRAY;
}

/* Is e computed from constants only (a constant, or arithmetic and pure
 * calls of such)?  Sema does not fold everything (float ** int is a
 * chain of multiplies that the IR's fold computes; max() and copysign()
 * of constants LLVM folds). */
static int all_constant(const Expr *e, int depth)
{
	if (e->cval && is_value_const(e->cval))
		return 1;
	if (depth > 16)
		return 0;
	switch (e->kind) {
	case E_BINARY:
		return all_constant(e->bin.a, depth + 1) && all_constant(e->bin.b, depth + 1);
	case E_UNARY:
		return all_constant(e->bin.a, depth + 1);
	case E_CALL:
		if (!pure_call(e))
			return 0;
		for (int k = 0; k < e->call.nargs; k++)
			if (!all_constant(e->call.args[k], depth + 1))
				return 0;
		return 1;
	default:
		return 0;
	}
}

/* Does `m + z` contract into an fma?  A product of constants is rounded
 * on its own, as LLVM (Numba, NVRTC) folds it before forming fmas. */
static int contractible(Expr *m, Type *ty)
{
	return m && m->kind == E_BINARY && m->bin.op == OP_MUL && !all_constant(m, 0) && m->ty && ty &&
	       m->ty->kind == TY_SCALAR && ty->kind == TY_SCALAR && m->ty->sk == ty->sk &&
	       (ty->sk == SK_F32 || ty->sk == SK_F64 || ty->sk == SK_F16);
}

/* The new value of `target op= value`, where cur is the target's value
 * and target its type: an error at sp when the types do not combine, a
 * contracted fma where lower_try_fma_aug allows one, else the operation. */
Value lower_aug_value(Lower *L, AstOp op, Value cur, Type *target, Expr *value, Span sp)
{
	Type *ty = lower_arith_type(op, target, value->ty);
	if (!ty)
		err_at(L->c, sp, NULL, "unsupported operand types for %s=: %s and %s", ast_op_name[op],
		       ty_str_of(L->c, target), ty_str_of(L->c, value->ty));
	Value r;
	if (!lower_try_fma_aug(L, op, cur, value, ty, &r)) {
		Value v = lower_expr(L, value);
		r = op == OP_POW ? lower_pow(L, cur, value, v, ty, sp) : lower_binop(L, op, cur, v, ty, sp);
	}
	return r;
}

int lower_try_fma_aug(Lower *L, AstOp op, Value z, Expr *mul, Type *ty, Value *out)
{
	if ((op != OP_ADD && op != OP_SUB) || !contractible(mul, ty) || L->cpu)
		return 0;
	ScalarKind sk = ty->sk;
	Ref zr = lower_convert(L, z, ty, mul->span).r;
	Ref x = lower_convert(L, lower_expr(L, mul->bin.a), ty, mul->bin.a->span).r;
	Ref y = lower_convert(L, lower_expr(L, mul->bin.b), ty, mul->bin.b->span).r;
	if (op == OP_SUB)
		x = neg(L, sk, x);
	*out = lower_scalar(ty, fma3(L, sk, x, y, zr));
	return 1;
}

/* e is an add or subtract of float type with a contractible operand. */
static Value lower_fma_binary(Lower *L, Expr *e)
{
	Type *ty = e->ty;
	ScalarKind sk = ty->sk;
	Expr *a = e->bin.a, *b = e->bin.b;
	Ref x, y, z;
	if (contractible(a, ty)) {
		x = lower_convert(L, lower_expr(L, a->bin.a), ty, a->bin.a->span).r;
		y = lower_convert(L, lower_expr(L, a->bin.b), ty, a->bin.b->span).r;
		z = lower_convert(L, lower_expr(L, b), ty, b->span).r;
		if (e->bin.op == OP_SUB)
			z = neg(L, sk, z);
	} else {
		z = lower_convert(L, lower_expr(L, a), ty, a->span).r;
		x = lower_convert(L, lower_expr(L, b->bin.a), ty, b->bin.a->span).r;
		y = lower_convert(L, lower_expr(L, b->bin.b), ty, b->bin.b->span).r;
		if (e->bin.op == OP_SUB)
			x = neg(L, sk, x);
	}
	return lower_scalar(ty, fma3(L, sk, x, y, z));
}

/* --------------------------------------------------------------- unary ops */

static Value lower_unary(Lower *L, Expr *e)
{
	AstOp op = e->bin.op;
	Type *ty = e->ty;
	if (op == OP_NOT) {
		Value a = lower_expr(L, e->bin.a);
		Ref t = lower_truth(L, a, e->bin.a->span);
		return lower_convert(L, lower_scalar(ty_scalar(SK_BOOL), lower_not(L, t)), ty, e->span);
	}
	Value a = lower_expr(L, e->bin.a);
	ScalarKind sk = sk_of(L, ty, e->span);
	if (op == OP_POS)
		return lower_convert(L, a, ty, e->span);
	if (op == OP_INVERT && sk == SK_BOOL) {
		Ref t = lower_truth(L, a, e->bin.a->span);
		return lower_scalar(ty, lower_not(L, t));
	}
	if (sk == SK_BOOL)
		ty = ty_scalar(sk = SK_I64);
	a = lower_convert(L, a, ty, e->span);
	Value r = {.ty = ty};
	if (op == OP_NEG) {
		if (scalar_info[sk].is_complex) {
			ScalarKind p = lower_part_sk(sk);
			r.r = neg(L, p, a.r);
			r.im = neg(L, p, a.im);
			return lower_convert(L, r, e->ty, e->span);
		}
		r.r = lower_norm(L, neg(L, sk, a.r), sk);
		return lower_convert(L, r, e->ty, e->span);
	}
	if (op == OP_INVERT) {
		if (!lower_is_intsk(sk))
			err_at(L->c, e->span, "use ~ on integers or bools", "~ does not apply to %s",
			       ty_str_of(L->c, ty));
		r.r = lower_norm(L, lower_emit(L, O_NOT, lower_cls(sk), sk, a.r, REF_NONE, REF_NONE, 0), sk);
		return lower_convert(L, r, e->ty, e->span);
	}
	ICE(L->c, "unary operator %d", (int)op);
}

/* ------------------------------------------------------------ comparisons */

static CondCode cc_of(AstOp op)
{
	switch (op) {
	case OP_LT: return CC_LT;
	case OP_LE: return CC_LE;
	case OP_GT: return CC_GT;
	case OP_GE: return CC_GE;
	case OP_EQ: case OP_IS: return CC_EQ;
	default: return CC_NE;
	}
}

Ref lower_compare(Lower *L, AstOp op, Value a, Value b, Span sp)
{
	Fn *f = L->f;
	if (op == OP_IN || op == OP_NOTIN) {
		if (b.ty->kind != TY_TUPLE)
			lower_unsupported(L, sp, "`in` on anything but a tuple");
		Ref r = ir_con_bool(f, 0);
		for (int i = 0; i < b.n; i++) {
			Ref eq = lower_compare(L, OP_EQ, a, b.elts[i], sp);
			r = i ? lower_emit(L, O_OR, KB, SK_BOOL, r, eq, REF_NONE, 0) : eq;
		}
		return op == OP_NOTIN ? lower_not(L, r) : r;
	}
	int an = a.ty->kind == TY_NONE, bn = b.ty->kind == TY_NONE;
	if ((op == OP_IS || op == OP_ISNOT) && !an && !bn) {   /* sema_expr.c's compare_pair says why */
		if (!ty_equal(a.ty, b.ty))
			return ir_con_bool(f, op == OP_ISNOT);
		if (a.ty->kind != TY_SCALAR && a.ty->kind != TY_TUPLE)
			return ir_con_bool(f, op == OP_IS);
		op = op == OP_IS ? OP_EQ : OP_NE;
	}
	if (an || bn) {
		int same = an && bn;
		int eq = op == OP_IS || op == OP_EQ;
		if (op != OP_IS && op != OP_ISNOT && op != OP_EQ && op != OP_NE)
			err_at(L->c, sp, NULL, "None cannot be ordered");
		return ir_con_bool(f, eq ? same : !same);
	}
	if (a.ty->kind == TY_TUPLE && b.ty->kind == TY_TUPLE) {
		if (op != OP_EQ && op != OP_NE)
			lower_unsupported(L, sp, "ordering tuples");
		Ref r = ir_con_bool(f, a.n == b.n);
		if (a.n == b.n)
			for (int i = 0; i < a.n; i++) {
				Ref eq = lower_compare(L, OP_EQ, a.elts[i], b.elts[i], sp);
				r = i ? lower_emit(L, O_AND, KB, SK_BOOL, r, eq, REF_NONE, 0) : eq;
			}
		return op == OP_NE ? lower_not(L, r) : r;
	}
	if (a.ty->kind != TY_SCALAR || b.ty->kind != TY_SCALAR)
		err_at(L->c, sp, "compare numbers", "cannot compare %s with %s", ty_str_of(L->c, a.ty),
		       ty_str_of(L->c, b.ty));
	if (a.ty->cls)   /* Enum members compare by their int values */
		a.ty = ty_scalar(a.ty->sk);
	if (b.ty->cls)
		b.ty = ty_scalar(b.ty->sk);
	Type *t = NULL;
	sema_binop_type(L->c, op, a.ty, b.ty, &t);
	if (!t || t->kind != TY_SCALAR)
		t = ty_promote(a.ty, b.ty);
	if (!t)
		ICE(L->c, "no common type of %s and %s", ty_str_of(L->c, a.ty), ty_str_of(L->c, b.ty));
	if (t->sk == SK_BOOL)
		t = ty_scalar(SK_I32);
	a = lower_convert(L, a, t, sp);
	b = lower_convert(L, b, t, sp);
	if (scalar_info[t->sk].is_complex) {
		if (op != OP_EQ && op != OP_NE && op != OP_IS && op != OP_ISNOT)
			err_at(L->c, sp, NULL, "complex numbers cannot be ordered");
		ScalarKind p = lower_part_sk(t->sk);
		Ref re = lower_cmp(L, CC_EQ, p, a.r, b.r), im = lower_cmp(L, CC_EQ, p, a.im, b.im);
		Ref r = lower_emit(L, O_AND, KB, SK_BOOL, re, im, REF_NONE, 0);
		return op == OP_EQ || op == OP_IS ? r : lower_not(L, r);
	}
	return lower_cmp(L, cc_of(op), t->sk, a.r, b.r);
}

static Value lower_chain(Lower *L, Expr *e)
{
	int n = e->cmp.n;
	Type *bt = ty_scalar(SK_BOOL);
	Value prev = lower_expr(L, e->cmp.args[0]);
	if (n == 1) {
		Value b = lower_expr(L, e->cmp.args[1]);
		Ref r = lower_compare(L, e->cmp.ops[0], prev, b, e->span);
		return lower_convert(L, lower_scalar(bt, r), e->ty, e->span);
	}
	int slot = lower_new_slots(L, bt, "cmp");
	Blk *join = lower_new_blk(L);
	for (int k = 0; k < n; k++) {
		Value next = lower_expr(L, e->cmp.args[k + 1]);
		Ref c = lower_compare(L, e->cmp.ops[k], prev, next, e->span);
		lower_write(L, slot, bt, lower_scalar(bt, c));
		if (k == n - 1) {
			lower_jump(L, join);
		} else {
			Blk *mid = lower_new_blk(L);
			lower_branch(L, c, mid, join);
			lower_seal(L, mid);
			lower_enter(L, mid);
		}
		prev = next;
	}
	lower_seal(L, join);
	lower_enter(L, join);
	return lower_convert(L, lower_read(L, slot, bt), e->ty, e->span);
}

static Value lower_boolop(Lower *L, Expr *e)
{
	Type *ty = e->ty;
	int slot = lower_new_slots(L, ty, e->boolop.op == OP_AND ? "and" : "or");
	Blk *join = lower_new_blk(L);
	for (int i = 0; i < e->boolop.n; i++) {
		Expr *x = e->boolop.args[i];
		int role = boolop_role(L, e, i);
		if (role == BOOL_DROPPED)
			continue;
		Value v = lower_expr(L, x);
		if (role == BOOL_LAST) {
			lower_write(L, slot, ty, lower_convert(L, v, ty, x->span));
			lower_jump(L, join);
			break;
		}
		Ref t = lower_truth(L, v, x->span);
		lower_write(L, slot, ty, lower_convert(L, v, ty, x->span));
		Blk *next = lower_new_blk(L);
		if (e->boolop.op == OP_AND)
			lower_branch(L, t, next, join);
		else
			lower_branch(L, t, join, next);
		lower_seal(L, next);
		lower_enter(L, next);
	}
	lower_seal(L, join);
	lower_enter(L, join);
	return lower_read(L, slot, ty);
}

static Value lower_ifexp(Lower *L, Expr *e)
{
	Type *ty = e->ty;
	Expr *c = e->ifexp.cond;
	int truth;
	if (const_truth(c->cval, &truth)) {
		Expr *x = truth ? e->ifexp.a : e->ifexp.b;
		return lower_convert(L, lower_expr(L, x), ty, x->span);
	}
	int slot = lower_new_slots(L, ty, "ifexp");
	Blk *t = lower_new_blk(L), *f = lower_new_blk(L), *join = lower_new_blk(L);
	lower_cond(L, c, t, f);
	lower_seal(L, t);
	lower_seal(L, f);
	lower_enter(L, t);
	lower_write(L, slot, ty, lower_convert(L, lower_expr(L, e->ifexp.a), ty, e->ifexp.a->span));
	lower_jump(L, join);
	lower_enter(L, f);
	lower_write(L, slot, ty, lower_convert(L, lower_expr(L, e->ifexp.b), ty, e->ifexp.b->span));
	lower_jump(L, join);
	lower_seal(L, join);
	lower_enter(L, join);
	return lower_read(L, slot, ty);
}

void lower_cond(Lower *L, Expr *e, Blk *t, Blk *f)
{
	int truth;
	if (const_truth(e->cval, &truth)) {   /* sema refuses the truth of an array */
		lower_jump(L, truth ? t : f);
		return;
	}
	switch (e->kind) {
	case E_UNARY:
		if (e->bin.op == OP_NOT) {
			lower_cond(L, e->bin.a, f, t);
			return;
		}
		break;
	case E_BOOLOP:
		for (int i = 0; i < e->boolop.n; i++) {
			int role = boolop_role(L, e, i);
			if (role == BOOL_DROPPED)
				continue;
			if (role == BOOL_LAST) {
				lower_cond(L, e->boolop.args[i], t, f);
				return;
			}
			Blk *mid = lower_new_blk(L);
			if (e->boolop.op == OP_AND)
				lower_cond(L, e->boolop.args[i], mid, f);
			else
				lower_cond(L, e->boolop.args[i], t, mid);
			lower_seal(L, mid);
			lower_enter(L, mid);
		}
		return;
	case E_COMPARE: {
		Value prev = lower_expr(L, e->cmp.args[0]);
		for (int k = 0; k < e->cmp.n; k++) {
			Value next = lower_expr(L, e->cmp.args[k + 1]);
			Ref c = lower_compare(L, e->cmp.ops[k], prev, next, e->span);
			if (k == e->cmp.n - 1) {
				lower_branch(L, c, t, f);
			} else {
				Blk *mid = lower_new_blk(L);
				lower_branch(L, c, mid, f);
				lower_seal(L, mid);
				lower_enter(L, mid);
			}
			prev = next;
		}
		return;
	}
	default:
		break;
	}
	Value v = lower_expr(L, e);
	lower_branch(L, lower_truth(L, v, e->span), t, f);
}

/* ----------------------------------------------------------- expressions */

static Value lower_tuple(Lower *L, Expr *e)
{
	Type *ty = e->ty;
	if (ty->kind != TY_TUPLE || ty->n != e->tuple.n)
		ICE(L->c, "tuple expression typed %s", ty_str_of(L->c, ty));
	Value v = {.ty = ty, .n = ty->n};
	v.elts = arena_alloc(L->c->arena, sizeof(Value) * (size_t)(ty->n + 1));
	for (int i = 0; i < ty->n; i++) {
		Expr *x = e->tuple.elts[i];
		v.elts[i] = lower_convert(L, lower_expr(L, x), ty->elts[i], x->span);
	}
	return v;
}

static Value lower_literal(Lower *L, Expr *e)
{
	Const k;
	memset(&k, 0, sizeof k);
	k.ty = e->ty;
	switch (e->kind) {
	case E_INT:
		k.kind = PJ_V_INT;
		k.i = e->ival;
		break;
	case E_BOOL:
		k.kind = PJ_V_BOOL;
		k.i = e->ival;
		break;
	case E_FLOAT:
		k.kind = PJ_V_FLOAT;
		k.f = e->fval;
		break;
	case E_IMAG:
		k.kind = PJ_V_COMPLEX;
		k.im = e->fval;
		break;
	default:
		return lower_none(e->ty);
	}
	return lower_const(L, &k, e->ty, e->span);
}

Value lower_expr(Lower *L, Expr *e)
{
	if (!e->ty)
		ICE(L->c, "expression without a type at line %d", span_loc(e->span).line);
	if (e->cval && is_value_const(e->cval))
		return lower_const(L, e->cval, e->ty, e->span);
	switch (e->kind) {
	case E_INT:
	case E_FLOAT:
	case E_IMAG:
	case E_BOOL:
		return lower_literal(L, e);
	case E_NONE:
	case E_STR:
		return lower_none(e->ty);
	case E_NAME:
		if (e->name.var)
			return lower_read_var(L, e->name.var);
		if (lower_ncomp(e->ty) == 0)
			return lower_none(e->ty);
		if (e->cval && e->cval->kind == PJ_V_INTRIN && e->cval->s) {
			int in = intrin_lookup(e->cval->s);
			if (in == IN_LANEID)
				return lower_convert(L, lower_sreg(L, SR_LANEID), e->ty, e->span);
			if (in == IN_WARPSIZE)
				return lower_convert(L, lower_sreg(L, SR_WARPSIZE), e->ty, e->span);
		}
		ICE(L->c, "name %s has neither a variable nor a value", e->name.id);
	case E_UNARY:
		return lower_unary(L, e);
	case E_BINARY: {
		AstOp op = e->bin.op;
		if ((op == OP_ADD || op == OP_SUB) && !L->cpu &&
		    (contractible(e->bin.a, e->ty) || contractible(e->bin.b, e->ty)))
			return lower_fma_binary(L, e);
		Value a = lower_expr(L, e->bin.a);
		Value b = lower_expr(L, e->bin.b);
		if (op == OP_POW)
			return lower_pow(L, a, e->bin.b, b, e->ty, e->span);
		return lower_binop(L, op, a, b, e->ty, e->span);
	}
	case E_COMPARE:
		return lower_chain(L, e);
	case E_BOOLOP:
		return lower_boolop(L, e);
	case E_IFEXP:
		return lower_ifexp(L, e);
	case E_CALL:
		if (e->call.spec)
			return e->call.spec->func->external ? lower_call_extern(L, e) : lower_inline_call(L, e);
		return lower_call_intrin(L, e);
	case E_ATTR:
		return lower_attr(L, e);
	case E_SUBSCRIPT:
		return lower_subscript(L, e);
	case E_TUPLE:
		return lower_tuple(L, e);
	case E_SLICE:
		err_at(L->c, e->span, "slices are supported inside array subscripts: a[1:n]",
		       "a slice cannot be used here");
	case E_LAMBDA:
		lower_unsupported(L, e->span, "lambda");
	default:
		lower_unsupported(L, e->span, "this expression");
	}
}

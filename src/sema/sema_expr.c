/*
 * sema_expr.c - the types of expressions, and the constants they fold to.
 *
 * type_expr sets Expr.ty (and Expr.cval for a compile-time constant) of
 * an expression and of the subexpressions that run.  It returns the type,
 * or NULL while an operand's type is still unknown in an early pass of
 * inference (see sema.h); errors are reported only once the operands are
 * known.  Operators follow Numba's typing (sema_binop_type); literals are
 * int64, float64, complex128 and bool; a literal above 2**63-1 is uint64.
 *
 * Folding.  An expression whose value is known at compile time gets a
 * cval of its own type: literals, global constants, local variables
 * assigned exactly once with a constant, and arithmetic, comparisons and
 * conversions of those.  Integer arithmetic wraps as on the GPU; what the
 * run time defines differently from C (division or modulo by zero,
 * oversized shifts, float powers) is left to run time, not folded.
 *
 * Lowering contract: an expression whose cval is a value (const_is_value:
 * a number, None, str or tuple) is that constant; lowering emits it and
 * does not lower its subexpressions, which may be untyped when they were
 * cut short ("y is not None and y > 0" with y None stops after the first
 * operand, as Python does).  A name or module attribute that stands for
 * something else (a module, intrinsic, dtype, function, exception class)
 * has a cval of that kind (PJ_V_MODULE, PJ_V_INTRIN with the qualified
 * name in s, ...), which is no value to emit.
 */
#include <math.h>
#include <string.h>

#include "sema.h"

static const char *arith_hint =
	"arithmetic works on numbers (bool, integers, floats, complex); index an array to get its elements";

Const *new_const(Ctx *c, int kind, Type *ty)
{
	Const *v = arena_alloc(c->arena, sizeof *v);
	v->kind = kind;
	v->ty = ty;
	return v;
}

static int is_unsigned(const Type *t)
{
	return ty_is_int(t) && !scalar_info[t->sk].is_signed;
}

static int is_bool(const Type *t)
{
	return t && t->kind == TY_SCALAR && t->sk == SK_BOOL;
}

static int is_intlike(const Type *t)
{
	return ty_is_int(t) || is_bool(t);
}

static const char *tstr(Scope *sc, const Type *t)
{
	return ty_str_of(sc->c, t);
}

/* -------------------------------------------------------------- constants */

int const_is_value(const Const *v)
{
	switch (v->kind) {
	case PJ_V_INT: case PJ_V_FLOAT: case PJ_V_BOOL: case PJ_V_COMPLEX:
	case PJ_V_NONE: case PJ_V_STR: case PJ_V_TUPLE:
		return 1;
	}
	return 0;
}

static double num_f(const Const *v)
{
	switch (v->kind) {
	case PJ_V_INT:
		return is_unsigned(v->ty) ? (double)(uint64_t)v->i : (double)v->i;
	case PJ_V_BOOL:
		return (double)v->i;
	default:
		return v->f;
	}
}

/* The integer bits of v wrapped to kind sk (sign- or zero-extended). */
static int64_t wrap_int(uint64_t u, ScalarKind sk)
{
	switch (sk) {
	case SK_I8: return (int8_t)u;
	case SK_I16: return (int16_t)u;
	case SK_I32: return (int32_t)u;
	case SK_U8: return (uint8_t)u;
	case SK_U16: return (uint16_t)u;
	case SK_U32: return (uint32_t)u;
	default: return (int64_t)u;
	}
}

/* v converted to type `to` as the run time converts it, or NULL where the
 * result is not defined here (float to int out of range). */
Const *const_of_type(Ctx *c, const Const *v, Type *to)
{
	if (!v || !to)
		return NULL;
	if (to->kind != TY_SCALAR) {
		if (v->ty && ty_equal(v->ty, to)) {
			Const *r = new_const(c, v->kind, to);
			*r = *v;
			r->ty = to;
			return r;
		}
		return NULL;
	}
	if (v->kind != PJ_V_INT && v->kind != PJ_V_BOOL && v->kind != PJ_V_FLOAT && v->kind != PJ_V_COMPLEX)
		return NULL;
	if (SK_IS_FP8(to->sk))
		return NULL;          /* lowered as the conversion (lower_fp8.c), which folds */
	const ScalarInfo *ti = &scalar_info[to->sk];
	Const *r;
	if (to->sk == SK_BOOL) {
		r = new_const(c, PJ_V_BOOL, to);
		r->i = v->kind == PJ_V_COMPLEX ? (v->f != 0 || v->im != 0)
		     : v->kind == PJ_V_FLOAT ? v->f != 0 : v->i != 0;
		return r;
	}
	if (ti->is_int) {
		uint64_t bits;
		if (v->kind == PJ_V_COMPLEX)
			return NULL;
		if (v->kind == PJ_V_FLOAT) {
			double t = trunc(v->f);
			if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0)) {
				if (!(to->sk == SK_U64 && t >= 0 && t < 18446744073709551616.0))
					return NULL;
				bits = (uint64_t)t;
			} else {
				bits = (uint64_t)(int64_t)t;
			}
			/* out of the target's range: the hardware saturates, C does not */
			if (ti->size < 8 && wrap_int(bits, to->sk) != (int64_t)bits)
				return NULL;
			if (to->sk == SK_U64 && t < 0)
				return NULL;
		} else {
			bits = (uint64_t)v->i;
		}
		r = new_const(c, PJ_V_INT, to);
		r->i = wrap_int(bits, to->sk);
		return r;
	}
	if (ti->is_complex) {
		r = new_const(c, PJ_V_COMPLEX, to);
		r->f = num_f(v);
		r->im = v->kind == PJ_V_COMPLEX ? v->im : 0;
		if (to->sk == SK_C64) {
			r->f = (float)r->f;
			r->im = (float)r->im;
		}
		return r;
	}
	if (v->kind == PJ_V_COMPLEX)
		return NULL;
	r = new_const(c, PJ_V_FLOAT, to);
	r->f = sema_round_float(to->sk, num_f(v));
	return r;
}

double sema_round_float(ScalarKind sk, double x)
{
	return sk == SK_F32 ? (double)(float)x : sk == SK_F16 ? (double)ir_round_f16(x)
	     : sk == SK_BF16 ? (double)ir_round_bf16(x) : x;
}

int const_truth(const Const *v, int *truth)
{
	if (!v)
		return 0;
	switch (v->kind) {
	case PJ_V_INT: case PJ_V_BOOL: *truth = v->i != 0; return 1;
	case PJ_V_FLOAT: *truth = v->f != 0; return 1;
	case PJ_V_COMPLEX: *truth = v->f != 0 || v->im != 0; return 1;
	case PJ_V_NONE: *truth = 0; return 1;
	case PJ_V_TUPLE: *truth = v->n > 0; return 1;
	case PJ_V_STR: *truth = v->s && v->s[0]; return 1;
	}
	return 0;
}

int const_int_value(const Expr *e, int64_t *out)
{
	if (!e || !e->cval || !is_intlike(e->ty) || (e->cval->kind != PJ_V_INT && e->cval->kind != PJ_V_BOOL))
		return 0;
	*out = e->cval->i;
	return 1;
}

static Const *bool_const(Ctx *c, int b)
{
	Const *v = new_const(c, PJ_V_BOOL, ty_scalar(SK_BOOL));
	v->i = b != 0;
	return v;
}

/* ------------------------------------------------------------- operators */

/* Numba's float16 arithmetic (+ - * /): float16 when one operand is a
 * float16 and the other a float16, an int8 or a bool; any other partner
 * promotes as float32 would. */
static int half_pair(const Type *a, const Type *b)
{
	int ha = a->sk == SK_F16, hb = b->sk == SK_F16;
	return (ha || hb) && (ha || a->sk == SK_I8 || a->sk == SK_BOOL) && (hb || b->sk == SK_I8 || b->sk == SK_BOOL);
}

/* Numba's divmod() and the types of // % for a mixed pair of integers. */
static Type *int_pair(const Type *a, const Type *b)
{
	return ty_promote(a, b);
}

Type *sema_binop_type(Ctx *c, AstOp op, Type *a, Type *b, Type **opty)
{
	Type *t = NULL, *ot = NULL;
	if (opty)
		*opty = NULL;
	if (!ty_is_number(a) || !ty_is_number(b))
		return NULL;
	int ca = ty_is_complex(a) || ty_is_complex(b);
	switch (op) {
	case OP_ADD: case OP_SUB: case OP_MUL:
		t = ot = half_pair(a, b) ? ty_scalar(SK_F16) : ty_promote(a, b);
		if (a->sk == SK_BF16 && b->sk == SK_BF16)
			t = ot = a;        /* bfloat16 with another number computes as a float32 would */
		break;
	case OP_DIV:
		if (a->sk == SK_BF16 && b->sk == SK_BF16)
			t = ot = a;
		else if (half_pair(a, b))
			t = ot = ty_scalar(SK_F16);
		else if (is_intlike(a) && is_intlike(b))
			t = ot = ty_scalar(SK_F64);
		else
			t = ot = ty_promote(a, b);
		break;
	case OP_FLOORDIV: case OP_MOD:
		if (ca)
			return NULL;
		t = ot = int_pair(a, b);
		break;
	case OP_POW:
		if (!ca && ty_is_float(a) && is_intlike(b)) {
			/* float ** int keeps the float's width; the exponent stays an integer */
			t = ot = ty_scalar(a->sk == SK_F64 ? SK_F64 : SK_F32);
		} else {
			t = ot = ty_promote(a, b);
		}
		break;
	case OP_LSHIFT: case OP_RSHIFT:
		if (!is_intlike(a) || !is_intlike(b))
			return NULL;
		t = ot = ty_scalar(is_unsigned(a) ? SK_U64 : SK_I64);
		break;
	case OP_BITAND: case OP_BITOR: case OP_BITXOR:
		if (is_bool(a) && is_bool(b)) {
			t = ot = ty_scalar(SK_BOOL);
			break;
		}
		if (!is_intlike(a) || !is_intlike(b))
			return NULL;
		t = ot = ty_promote(a, b);
		break;
	case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		if (ca)
			return NULL;
		/* fall through */
	case OP_EQ: case OP_NE:
		ot = ty_unify(c, a, b);
		if (ot && ot->sk == SK_F16)
			ot = ty_scalar(SK_F32);
		t = ty_scalar(SK_BOOL);
		break;
	default:
		return NULL;
	}
	if (opty)
		*opty = ot;
	return t;
}

static int int_floordiv(int64_t a, int64_t b, int64_t *q, int64_t *r)
{
	if (b == 0 || (a == INT64_MIN && b == -1))
		return 0;
	int64_t qq = a / b, rr = a % b;
	if (rr != 0 && ((rr < 0) != (b < 0))) {
		qq--;
		rr += b;
	}
	*q = qq;
	*r = rr;
	return 1;
}

static Const *fold_int(Ctx *c, AstOp op, Type *ot, const Const *x, const Const *y)
{
	int u = is_unsigned(ot);
	uint64_t a = (uint64_t)x->i, b = (uint64_t)y->i, r;
	int64_t sa = x->i, sb = y->i;
	switch (op) {
	case OP_ADD: r = a + b; break;
	case OP_SUB: r = a - b; break;
	case OP_MUL: r = a * b; break;
	case OP_FLOORDIV:
	case OP_MOD:
		if (u) {
			if (b == 0)
				return NULL;
			r = op == OP_FLOORDIV ? a / b : a % b;
		} else {
			int64_t q, m;
			if (!int_floordiv(sa, sb, &q, &m))
				return NULL;
			r = (uint64_t)(op == OP_FLOORDIV ? q : m);
		}
		break;
	case OP_POW:
		if (!u && sb < 0)
			return NULL;
		r = 1;
		for (uint64_t e = b, base = a; e; e >>= 1, base *= base)
			if (e & 1)
				r *= base;
		break;
	case OP_LSHIFT:
		if (b >= 64)
			return NULL;
		r = a << b;
		break;
	case OP_RSHIFT:
		if (b >= 64)
			return NULL;
		r = u ? a >> b : (uint64_t)(sa < 0 ? ~(~sa >> b) : sa >> b);
		break;
	case OP_BITAND: r = a & b; break;
	case OP_BITOR: r = a | b; break;
	case OP_BITXOR: r = a ^ b; break;
	default: return NULL;
	}
	Const *v = new_const(c, PJ_V_INT, ot);
	v->i = (int64_t)r;
	return v;
}

static Const *fold_float(Ctx *c, AstOp op, Type *ot, double a, double b)
{
	double r;
	switch (op) {
	case OP_ADD: r = a + b; break;
	case OP_SUB: r = a - b; break;
	case OP_MUL: r = a * b; break;
	case OP_DIV:
		if (b == 0)
			return NULL;
		r = a / b;
		break;
	case OP_FLOORDIV:
	case OP_MOD: {
		if (b == 0 || ot->sk != SK_F64 || isnan(a) || isnan(b) || isinf(a) || isinf(b))
			return NULL;
		double mod = fmod(a, b);
		double div = (a - mod) / b;
		if (mod != 0) {
			if ((b < 0) != (mod < 0)) {
				mod += b;
				div -= 1.0;
			}
		} else {
			mod = copysign(0.0, b);
		}
		double fd;
		if (div != 0) {
			fd = floor(div);
			if (div - fd > 0.5)
				fd += 1.0;
		} else {
			fd = copysign(0.0, a / b);
		}
		r = op == OP_MOD ? mod : fd;
		break;
	}
	default:
		return NULL;
	}
	Const *v = new_const(c, PJ_V_FLOAT, ot);
	v->f = sema_round_float(ot->sk, r);
	return v;
}

static Const *fold_binary(Ctx *c, AstOp op, Type *ot, Type *res, const Const *a, const Const *b)
{
	if (!a || !b || !ot || !res)
		return NULL;
	Const *x = const_of_type(c, a, ot), *y = const_of_type(c, b, ot);
	if (!x || !y)
		return NULL;
	Const *r = NULL;
	if (ot->sk == SK_BOOL) {
		int p = x->i != 0, q = y->i != 0;
		switch (op) {
		case OP_BITAND: r = bool_const(c, p & q); break;
		case OP_BITOR: r = bool_const(c, p | q); break;
		case OP_BITXOR: r = bool_const(c, p ^ q); break;
		default: return NULL;
		}
	} else if (ty_is_int(ot)) {
		r = fold_int(c, op, ot, x, y);
	} else if (ty_is_float(ot)) {
		r = fold_float(c, op, ot, x->f, y->f);
	} else if (ty_is_complex(ot) && (op == OP_ADD || op == OP_SUB)) {
		/* exactly what the run time computes: one rounding per part */
		r = new_const(c, PJ_V_COMPLEX, ot);
		r->f = op == OP_ADD ? x->f + y->f : x->f - y->f;
		r->im = op == OP_ADD ? x->im + y->im : x->im - y->im;
	}
	return r ? const_of_type(c, r, res) : NULL;
}

static Const *fold_compare(Ctx *c, AstOp op, Type *ot, const Const *a, const Const *b)
{
	Const *x = const_of_type(c, a, ot), *y = const_of_type(c, b, ot);
	if (!x || !y)
		return NULL;
	int lt, eq;
	if (ot->sk == SK_C64 || ot->sk == SK_C128) {
		if (op != OP_EQ && op != OP_NE)
			return NULL;
		eq = x->f == y->f && x->im == y->im;
		return bool_const(c, op == OP_EQ ? eq : !eq);
	}
	if (ty_is_float(ot)) {
		double p = x->f, q = y->f;
		switch (op) {
		case OP_LT: return bool_const(c, p < q);
		case OP_LE: return bool_const(c, p <= q);
		case OP_GT: return bool_const(c, p > q);
		case OP_GE: return bool_const(c, p >= q);
		case OP_EQ: return bool_const(c, p == q);
		case OP_NE: return bool_const(c, p != q);
		default: return NULL;
		}
	}
	if (is_unsigned(ot)) {
		uint64_t p = (uint64_t)x->i, q = (uint64_t)y->i;
		lt = p < q;
		eq = p == q;
	} else {
		lt = x->i < y->i;
		eq = x->i == y->i;
	}
	switch (op) {
	case OP_LT: return bool_const(c, lt);
	case OP_LE: return bool_const(c, lt || eq);
	case OP_GT: return bool_const(c, !lt && !eq);
	case OP_GE: return bool_const(c, !lt);
	case OP_EQ: return bool_const(c, eq);
	case OP_NE: return bool_const(c, !eq);
	default: return NULL;
	}
}

/* ----------------------------------------------------------- expressions */

static Type *set(Expr *e, Type *t, Const *cv)
{
	e->ty = t;
	e->cval = cv;
	return t;
}

Type *unknown_or_error(Scope *sc, Expr *e)
{
	if (sc->final)
		ICE(sc->c, "expression with unknown type in the final pass");
	return NULL;
}

static int is_fp8(const Type *t)
{
	return t && t->kind == TY_SCALAR && SK_IS_FP8(t->sk);
}

static const char *const fp8_hint = "an fp8 value only converts: compute in float32 (float32(x)) and convert "
                                    "the result back (fp8_e4m3(y))";

static void binop_error(Scope *sc, Expr *e, AstOp op, Type *a, Type *b)
{
	if (is_fp8(a) || is_fp8(b))
		err_at(sc->c, e->span, fp8_hint, "unsupported operand types for %s: %s and %s", ast_op_name[op],
		       tstr(sc, a), tstr(sc, b));
	if (a->kind == TY_STR || b->kind == TY_STR)
		err_at(sc->c, e->span, "strings can only be printed in kernels",
		       "string operations are not supported in kernels");
	if (op == OP_MATMUL)
		err_at(sc->c, e->span, "write the product as loops over array elements",
		       "the matrix product '@' is not supported in kernels");
	if ((op == OP_FLOORDIV || op == OP_MOD) && (ty_is_complex(a) || ty_is_complex(b)))
		err_at(sc->c, e->span, "use / for complex division", "unsupported operand types for %s: %s and %s",
		       ast_op_name[op], tstr(sc, a), tstr(sc, b));
	if ((op == OP_LSHIFT || op == OP_RSHIFT || op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR) &&
	    ty_is_number(a) && ty_is_number(b))
		err_at(sc->c, e->span, "bitwise operators work on integers and bools; convert floats with int(x)",
		       "unsupported operand types for %s: %s and %s", ast_op_name[op], tstr(sc, a), tstr(sc, b));
	err_at(sc->c, e->span, arith_hint, "unsupported operand types for %s: %s and %s", ast_op_name[op],
	       tstr(sc, a), tstr(sc, b));
}

/* A type whose values lowering keeps in slots: numbers and tuples of them. */
static int holds_values(const Type *t)
{
	if (t->kind == TY_TUPLE) {
		for (int i = 0; i < t->n; i++)
			if (!holds_values(t->elts[i]))
				return 0;
		return 1;
	}
	return t->kind == TY_SCALAR;
}

static Type *type_name(Scope *sc, Expr *e)
{
	const char *id = e->name.id;
	if (id && id[0] == '<') {        /* a default argument filled in by a call: preset */
		e->name.early = 1;
		return e->ty;
	}
	Var *v = sc->in_default ? NULL : e->name.var ? e->name.var : scope_find_var(sc, id);
	if (v) {
		e->name.var = v;
		if (!v->ty || (sc->final && !sc->seen[v->index] && sc->loop_depth == 0)) {
			if (sc->final)
				err_at(sc->c, e->span, "assign a value to the variable before its first use",
				       "local variable '%s' is used before a value is assigned to it", sema_user_name(sc->c, id));
			return set(e, NULL, NULL);
		}
		Const *cv = sc->vconst[v->index];
		if (cv && !sc->defd[v->index] && holds_values(v->ty))
			cv = NULL;   /* maybe not assigned here: read as a variable */
		e->name.early = cv && sc->vearly[v->index];
		if (!cv && v->ty->kind == TY_NONE) {     /* an argument left None: Numba prunes on its type */
			cv = new_const(sc->c, PJ_V_NONE, v->ty);
			e->name.early = 1;
		}
		if (v->ty->kind == TY_STR && !cv && sc->final)
			err_at(sc->c, e->span, "use string literals directly in print() and messages",
			       "string variables assigned more than once are not supported in kernels");
		return set(e, v->ty, cv);
	}
	e->name.var = NULL;
	e->name.early = 1;
	Const *cv = scope_global(sc, id, e->span);
	if (!cv->ty) {
		const char *hint;
		const char *msg = unusable_message(sc->c, id, cv, &hint);
		err_at(sc->c, e->span, hint, "%s", msg);
	}
	return set(e, cv->ty, cv);
}

static Type *type_unary(Scope *sc, Expr *e)
{
	AstOp op = e->bin.op;
	Type *a;
	if (op == OP_NOT)
		a = type_truth(sc, e->bin.a);
	else
		a = type_expr(sc, e->bin.a);
	if (!a)
		return set(e, NULL, NULL);
	Const *x = e->bin.a->cval;
	Ctx *c = sc->c;
	if (op == OP_NOT) {
		int t;
		return set(e, ty_scalar(SK_BOOL), const_truth(x, &t) ? bool_const(c, !t) : NULL);
	}
	if (!ty_is_number(a))
		err_at(c, e->span, is_fp8(a) ? fp8_hint : arith_hint, "unsupported operand type for unary %s: %s", ast_op_name[op],
		       tstr(sc, a));
	Type *t;
	Const *r = NULL;
	if (op == OP_INVERT) {
		if (is_bool(a))
			return set(e, a, x ? bool_const(c, !x->i) : NULL);
		if (!ty_is_int(a))
			err_at(c, e->span, "~ works on integers and bools; convert floats with int(x)",
			       "unsupported operand type for unary ~: %s", tstr(sc, a));
		t = ty_scalar(is_unsigned(a) ? SK_U64 : SK_I64);
		if (x && (r = const_of_type(c, x, t)))
			r->i = ~r->i;
		return set(e, t, r);
	}
	/* - and +: integers widen to 64 bits, bool to int64; Numba negates a
	 * float16 as a float16 but takes +x of one as a float32 */
	if (is_intlike(a))
		t = ty_scalar(is_unsigned(a) ? SK_U64 : SK_I64);
	else if (a->sk == SK_F16 && op == OP_POS)
		t = ty_scalar(SK_F32);
	else
		t = a;
	if (x && (r = const_of_type(c, x, t)) && op == OP_NEG) {
		if (r->kind == PJ_V_INT)
			r->i = (int64_t)(0 - (uint64_t)r->i);
		else {
			r->f = -r->f;
			r->im = -r->im;
		}
	}
	return set(e, t, r);
}

static Type *type_binary(Scope *sc, Expr *e)
{
	Type *a = type_expr(sc, e->bin.a);
	Type *b = type_expr(sc, e->bin.b);
	if (!a || !b)
		return set(e, NULL, NULL);
	Type *ot;
	Type *t = sema_binop_type(sc->c, e->bin.op, a, b, &ot);
	if (!t)
		binop_error(sc, e, e->bin.op, a, b);
	return set(e, t, fold_binary(sc->c, e->bin.op, ot, t, e->bin.a->cval, e->bin.b->cval));
}

/* x in t, x not in t: a number among a tuple of numbers, compared with ==
 * one element at a time (lower_compare); folded when all are constants. */
static Const *contains(Scope *sc, Expr *e, AstOp op, Expr *l, Expr *r)
{
	Ctx *c = sc->c;
	Type *a = l->ty, *b = r->ty;
	if (b->kind != TY_TUPLE)
		err_at(c, e->span, "'in' tests membership in a tuple, such as x in (1, 2, 3); compare with == otherwise",
		       "the '%s' operator is not supported in kernels", ast_op_name[op]);
	int found = 0, known = l->cval && r->cval && r->cval->kind == PJ_V_TUPLE && r->cval->n == b->n;
	for (int i = 0; i < b->n; i++) {
		Type *ot = NULL;
		if (!ty_is_number(a) || !ty_is_number(b->elts[i]) || !sema_binop_type(c, OP_EQ, a, b->elts[i], &ot))
			err_at(c, e->span, "'in' compares a number with the numbers of a tuple",
			       "cannot compare %s with %s", tstr(sc, a), tstr(sc, b->elts[i]));
		Const *eq = known ? fold_compare(c, OP_EQ, ot, l->cval, &r->cval->elts[i]) : NULL;
		if (!eq)
			known = 0;
		else
			found |= eq->i != 0;
	}
	return known ? bool_const(c, found == (op == OP_IN)) : NULL;
}

/* One link of a comparison chain; returns the folded result or NULL. */
static Const *compare_pair(Scope *sc, Expr *e, AstOp op, Expr *l, Expr *r)
{
	Ctx *c = sc->c;
	Type *a = l->ty, *b = r->ty;
	int an = a->kind == TY_NONE, bn = b->kind == TY_NONE;
	if (op == OP_IS || op == OP_ISNOT) {
		/* Numba's rule: values of one immutable type are the same object when
		 * they are equal; values of different types never are */
		if (an || bn || !ty_equal(a, b))
			return bool_const(c, (an && bn) == (op == OP_IS));
		if (a->kind == TY_ARRAY || a->kind == TY_RECORD)
			err_at(c, e->span, "compare the elements with ==, or test 'is None'",
			       "'is' between arrays or records is not supported in kernels");
		if (a->kind != TY_SCALAR && a->kind != TY_TUPLE)
			return bool_const(c, op == OP_IS);   /* one static value per type: the same one */
		return compare_pair(sc, e, op == OP_IS ? OP_EQ : OP_NE, l, r);
	}
	if (op == OP_IN || op == OP_NOTIN)
		return contains(sc, e, op, l, r);
	if ((a->kind == TY_SCALAR && a->cls) || (b->kind == TY_SCALAR && b->cls)) {
		if (!ty_equal(a, b) || (op != OP_EQ && op != OP_NE))
			err_at(c, e->span, "compare a member of an Enum with == or != to members of its class, or compare "
			       "their .value",
			       "unsupported operand types for %s: %s and %s", ast_op_name[op], tstr(sc, a), tstr(sc, b));
		Type *ot;
		sema_binop_type(c, op, ty_scalar(SK_I64), ty_scalar(SK_I64), &ot);
		return l->cval && r->cval ? fold_compare(c, op, ot, l->cval, r->cval) : NULL;
	}
	if (a->kind == TY_STR && b->kind == TY_STR && (op == OP_EQ || op == OP_NE) && l->cval && r->cval &&
	    l->cval->kind == PJ_V_STR && r->cval->kind == PJ_V_STR && l->cval->s && r->cval->s)
		return bool_const(c, (strcmp(l->cval->s, r->cval->s) == 0) == (op == OP_EQ));
	if ((an || bn) && (op == OP_EQ || op == OP_NE))
		return bool_const(c, (an && bn) == (op == OP_EQ));
	if (a->kind == TY_TUPLE && b->kind == TY_TUPLE && (op == OP_EQ || op == OP_NE)) {
		if (a->n != b->n)
			return bool_const(c, op == OP_NE);
		for (int i = 0; i < a->n; i++)
			if (!ty_is_number(a->elts[i]) || !ty_is_number(b->elts[i]))
				err_at(c, e->span, "compare tuples of numbers", "cannot compare %s with %s", tstr(sc, a), tstr(sc, b));
		return NULL;
	}
	Type *ot;
	Type *t = sema_binop_type(c, op, a, b, &ot);
	if (!t) {
		if ((op != OP_EQ && op != OP_NE) && (ty_is_complex(a) || ty_is_complex(b)))
			err_at(c, e->span, "complex numbers can only be compared with == and !=",
			       "unsupported operand types for %s: %s and %s", ast_op_name[op], tstr(sc, a), tstr(sc, b));
		binop_error(sc, e, op, a, b);
	}
	return l->cval && r->cval ? fold_compare(c, op, ot, l->cval, r->cval) : NULL;
}

static Type *type_compare(Scope *sc, Expr *e)
{
	int known = 1;
	for (int i = 0; i <= e->cmp.n; i++)
		if (!type_expr(sc, e->cmp.args[i]))
			known = 0;
	if (!known)
		return set(e, NULL, NULL);
	int all = 1, value = 1;
	for (int i = 0; i < e->cmp.n; i++) {
		Const *r = compare_pair(sc, e, e->cmp.ops[i], e->cmp.args[i], e->cmp.args[i + 1]);
		if (!r)
			all = 0;
		else if (!r->i)
			value = 0;
	}
	Type *t = ty_scalar(SK_BOOL);
	/* a false link decides the chain only if every link before it is known */
	return set(e, t, all ? bool_const(sc->c, value) : NULL);
}

Type *type_truth(Scope *sc, Expr *e)
{
	Type *t = type_expr(sc, e);
	if (!t)
		return NULL;
	switch (t->kind) {
	case TY_SCALAR:
	case TY_NONE:
		return t;
	case TY_ARRAY:
		err_at(sc->c, e->span, "compare explicitly, e.g. a[i] > 0, or test len(a) > 0",
		       "the truth value of an array is ambiguous in a kernel");
	case TY_TUPLE:
		err_at(sc->c, e->span, "compare explicitly, e.g. len(t) > 0",
		       "the truth value of a tuple cannot be used in a kernel");
	default:
		err_at(sc->c, e->span, "a condition is a number or a bool, e.g. i < n",
		       "a %s cannot be used as a condition", tstr(sc, t));
	}
}

/* An expression of literals that CPython's compiler folds into one
 * constant (unary operators and arithmetic on literals). */
static int folded_literal(const Expr *e)
{
	switch (e->kind) {
	case E_INT: case E_FLOAT: case E_IMAG: case E_BOOL: case E_NONE: case E_STR:
		return 1;
	case E_UNARY:
		return folded_literal(e->bin.a);
	case E_BINARY:
		return folded_literal(e->bin.a) && folded_literal(e->bin.b);
	default:
		return 0;
	}
}

static int is_param(const Expr *e, TypeKind kind)
{
	return e->kind == E_NAME && e->name.var && e->name.var->is_param && e->ty && e->ty->kind == kind;
}

/* Is typed e a value Numba knows before it types the function: a folded
 * literal, a name bound to a constant (a global, a closure variable, a
 * local whose one assignment is itself such a value: not one that only
 * folds here, as np.isinf(n) of an int n does), the ndim of an array
 * argument, the len() of a tuple argument (Numba's rewrite of semantic
 * constants)? */
int sema_known_early(const Expr *e)
{
	switch (e->kind) {
	case E_NAME:
		return e->cval != NULL && e->name.early;
	case E_ATTR:
		return !strcmp(e->attr.name, "ndim") && is_param(e->attr.obj, TY_ARRAY);
	case E_CALL:
		return e->call.intrin == IN_LEN && e->call.nargs == 1 && is_param(e->call.args[0], TY_TUPLE);
	default:
		return folded_literal(e);
	}
}

int sema_prunes(const Expr *cond)
{
	if (sema_known_early(cond))
		return 1;
	switch (cond->kind) {
	case E_UNARY:
		return cond->bin.op == OP_NOT && sema_prunes(cond->bin.a);
	case E_COMPARE:
		for (int i = 0; i <= cond->cmp.n; i++)
			if (!sema_known_early(cond->cmp.args[i]))
				return 0;
		return 1;
	case E_BOOLOP:
		/* up to the operand that decides the chain (the rest is dead) */
		for (int i = 0; i < cond->boolop.n; i++) {
			const Expr *a = cond->boolop.args[i];
			int truth;
			if (!sema_prunes(a))
				return 0;
			if (const_truth(a->cval, &truth) && (cond->boolop.op == OP_AND ? !truth : truth))
				return 1;
		}
		return 1;
	default:
		return 0;
	}
}

/* Is the truth of operand e of a chain known before typing: a constant
 * Numba prunes on, or a chain whose every value has one truth (an `or`
 * ending in a true constant, an `and` in a false one: in (x or 3) or y,
 * the inner chain is true whatever x is, and y is never typed)? */
static int operand_truth(const Expr *e, int *truth)
{
	if (const_truth(e->cval, truth) && sema_prunes(e))
		return 1;
	if (e->kind != E_BOOLOP || !operand_truth(e->boolop.args[e->boolop.n - 1], truth))
		return 0;
	return e->boolop.op == OP_OR ? *truth : !*truth;
}

int sema_boolop_operand(const Expr *e, int i)
{
	for (int k = 0; k <= i && k < e->boolop.n; k++) {
		int truth, c = operand_truth(e->boolop.args[k], &truth);
		int ends = c && (e->boolop.op == OP_AND ? !truth : truth);
		if (k == i)
			return ends || k == e->boolop.n - 1 ? BOOL_LAST : c ? BOOL_DROPPED : BOOL_MAYBE;
		if (ends)
			return BOOL_DROPPED;
	}
	return BOOL_DROPPED;
}

/* Numba types what CPython's bytecode keeps of the chain (sema_boolop_operand):
 * `1.0 and x` is x, of x's type; `x and 0.0 and y` is x or 0.0 */
static Type *type_boolop(Scope *sc, Expr *e)
{
	Type *t = NULL;
	int known = 1, nvalues = 0, runs = 0;
	Const *value = NULL;
	for (int i = 0; i < e->boolop.n; i++) {
		Expr *a = e->boolop.args[i];
		Type *at = type_truth(sc, a);
		if (!at) {
			known = 0;
			continue;
		}
		int role = sema_boolop_operand(e, i);
		if (role == BOOL_DROPPED) {
			runs |= !a->cval;    /* (x or 3) is never the value but runs */
			continue;
		}
		if (known) {
			Type *u = t ? ty_unify(sc->c, t, at) : at;
			if (!u)
				err_at(sc->c, e->span, "give both operands the same type, e.g. compare them: (a > 0) and (b > 0)",
				       "the operands of '%s' have types %s and %s, which have no common type",
				       ast_op_name[e->boolop.op], tstr(sc, t), tstr(sc, at));
			t = u;
		}
		nvalues++;
		value = a->cval;
		if (role == BOOL_LAST)
			break;
	}
	if (!known)
		return set(e, NULL, NULL);
	return set(e, t, nvalues == 1 && value && !runs ? const_of_type(sc->c, value, t) : NULL);
}

/* A condition Numba prunes on (sema_prunes) types the taken branch
 * alone; any other, even one whose value is known here, types both, as
 * Numba does: `1 if abs(x) > 0 else 2.5` is a float64. */
static Type *type_ifexp(Scope *sc, Expr *e)
{
	Type *ct = type_truth(sc, e->ifexp.cond);
	int truth, known = ct && const_truth(e->ifexp.cond->cval, &truth);
	if (known && sema_prunes(e->ifexp.cond)) {
		Expr *taken = truth ? e->ifexp.a : e->ifexp.b;
		Type *t = type_expr(sc, taken);
		return set(e, t, taken->cval);
	}
	Type *a = type_expr(sc, e->ifexp.a);
	Type *b = type_expr(sc, e->ifexp.b);
	if (!ct || !a || !b)
		return set(e, NULL, NULL);
	Type *t = ty_unify(sc->c, a, b);
	if (!t)
		err_at(sc->c, e->span, "give both branches the same kind of value",
		       "the branches of the conditional expression have types %s and %s, which have no common type",
		       tstr(sc, a), tstr(sc, b));
	Const *taken = known ? (truth ? e->ifexp.a : e->ifexp.b)->cval : NULL;
	return set(e, t, taken ? const_of_type(sc->c, taken, t) : NULL);
}

static Type *type_tuple(Scope *sc, Expr *e)
{
	int n = e->tuple.n, known = 1, all_const = 1;
	Type **elts = arena_alloc(sc->c->arena, sizeof(Type *) * (n ? n : 1));
	for (int i = 0; i < n; i++) {
		Expr *x = e->tuple.elts[i];
		if (x->kind == E_SLICE)
			err_at(sc->c, x->span, "index arrays with integers, one per dimension",
			       "slicing is not supported here");
		if (!(elts[i] = type_expr(sc, x)))
			known = 0;
		else if (!x->cval || !const_is_value(x->cval))
			all_const = 0;
	}
	if (!known)
		return set(e, NULL, NULL);
	for (int i = 0; i < n; i++)
		if (elts[i]->kind == TY_RANGE || elts[i]->kind == TY_MODULE)
			err_at(sc->c, e->tuple.elts[i]->span, "tuples in kernels hold numbers, arrays and tuples",
			       "a tuple cannot hold a %s", tstr(sc, elts[i]));
	Type *t = ty_tuple(sc->c, n, elts);
	Const *cv = NULL;
	if (all_const) {
		cv = new_const(sc->c, PJ_V_TUPLE, t);
		cv->n = n;
		cv->elts = arena_alloc(sc->c->arena, sizeof(Const) * (n ? n : 1));
		for (int i = 0; i < n; i++)
			cv->elts[i] = *e->tuple.elts[i]->cval;
	}
	return set(e, t, cv);
}

/* ------------------------------------------------------------ subscripts */

enum { IX_INT, IX_SLICE, IX_STEP };   /* an integer, a slice, a slice with a step */

/* lo:hi:step inside [ ]: bounds are integers or None, the step a nonzero
 * constant.  Returns IX_SLICE or IX_STEP, or -1 while a bound is unknown.
 * The E_SLICE node itself is typed none: it is no value. */
static int type_slice(Scope *sc, Expr *sl)
{
	Ctx *c = sc->c;
	Expr *part[3] = {sl->slice.lo, sl->slice.hi, sl->slice.step};
	int known = 1;
	for (int i = 0; i < 3; i++) {
		Expr *x = part[i];
		if (!x)
			continue;
		Type *t = type_expr(sc, x);
		if (!t) {
			known = 0;
			continue;
		}
		if (t->kind != TY_NONE && !ty_is_int(t))
			err_at(c, x->span, ty_is_float(t) ? "convert it with int(...)" : "slice with integers, as in a[1:n]",
			       "slice %s must be an integer or None, not %s", i == 2 ? "steps" : "bounds", tstr(sc, t));
	}
	set(sl, ty_none(), NULL);
	if (!known)
		return -1;
	Expr *st = sl->slice.step;
	if (!st || st->ty->kind == TY_NONE)
		return IX_SLICE;
	int64_t k;
	if (!const_int_value(st, &k))
		err_at(c, st->span, "use a constant step such as a[::2]", "the step of a slice must be a constant");
	if (k == 0)
		err_at(c, st->span, "use a positive or negative step", "slice step cannot be zero");
	return IX_STEP;
}

/* An integer index: an integer, or a 0-d array of integers (its element,
 * as NumPy and Numba take it). */
static void int_index_check(Scope *sc, Type *t, Span sp)
{
	if (t->kind == TY_ARRAY && t->ndim == 0 && ty_is_int(t->elem))
		return;
	if (!ty_is_int(t))
		err_at(sc->c, sp, ty_is_float(t) ? "convert it with int(...), or use // for integer division"
		                                 : "index arrays with integers (or slices), one per dimension",
		       "array index must be an integer, not %s", tstr(sc, t));
}

/* Numba's layout of a view: integers on the left keep C contiguity, and
 * so does a last given index that is a slice without step; F mirrors it
 * from the right when every axis is indexed. */
static char view_layout(Type *arr, int *kind, int n)
{
	int keeps = 1;
	if (arr->layout == LAYOUT_C) {
		for (int i = 0; i < n; i++)
			if (!(kind[i] == IX_INT || (i == n - 1 && kind[i] == IX_SLICE)))
				keeps = 0;
		return keeps ? LAYOUT_C : LAYOUT_A;
	}
	if (arr->layout == LAYOUT_F && n == arr->ndim) {
		for (int i = n - 1; i >= 0; i--)
			if (!(kind[i] == IX_INT || (i == 0 && kind[i] == IX_SLICE)))
				keeps = 0;
		return keeps ? LAYOUT_F : LAYOUT_A;
	}
	return LAYOUT_A;
}

/* arr[index]: the element type when every axis has an integer, else the
 * type of the view (an array of the axes sliced or not indexed).  Types
 * the index.  `elem_for` (not NULL) names an operation that needs one
 * element: then a view is an error.  NULL while something is unknown. */
Type *subscript_array(Scope *sc, Expr *at, Type *arr, Expr *index, const char *elem_for)
{
	Ctx *c = sc->c;
	int kind[64], n = 0, known = 1;
	Type *itys[64];
	if (index->kind == E_TUPLE || index->kind == E_SLICE) {
		int m = index->kind == E_TUPLE ? index->tuple.n : 1;
		if (m > 64)
			err_at(c, index->span, "index each dimension once", "too many indices");
		for (int i = 0; i < m; i++) {
			Expr *x = index->kind == E_TUPLE ? index->tuple.elts[i] : index;
			if (x->kind == E_SLICE) {
				kind[n] = type_slice(sc, x);
				if (kind[n] < 0)
					known = 0;
				itys[n++] = ty_none();
				continue;
			}
			Type *t = type_expr(sc, x);
			if (!t) {
				known = 0;
				itys[n++] = NULL;
				continue;
			}
			int_index_check(sc, t, x->span);
			kind[n] = IX_INT;
			itys[n++] = t;
		}
		if (index->kind == E_TUPLE)
			set(index, known ? ty_tuple(c, n, itys) : NULL, NULL);
	} else {
		Type *t = type_expr(sc, index);
		if (!t)
			return NULL;
		if (t->kind == TY_TUPLE) {
			if (t->n > 64)
				err_at(c, index->span, "index each dimension once", "too many indices");
			for (int i = 0; i < t->n; i++) {
				int_index_check(sc, t->elts[i], index->span);
				kind[n++] = IX_INT;
			}
		} else {
			int_index_check(sc, t, index->span);
			kind[n++] = IX_INT;
		}
	}
	if (!known)
		return NULL;
	if (n > arr->ndim)
		err_at(c, at->span, "index each dimension once",
		       "too many indices for %s: %d given, it has %d dimension%s", tstr(sc, arr), n, arr->ndim,
		       arr->ndim == 1 ? "" : "s");
	int nint = 0;
	for (int i = 0; i < n; i++)
		nint += kind[i] == IX_INT;
	if (nint == arr->ndim)
		return arr->elem->kind == TY_RECORD ? ty_record_in(c, arr->elem, arr->space, arr->readonly) : arr->elem;
	if (elem_for)
		err_at(c, index->span, "index every dimension of the array with an integer",
		       "%s needs one element: %d of the %d dimensions of %s are indexed with integers", elem_for, nint,
		       arr->ndim, tstr(sc, arr));
	return ty_array_of(c, arr->elem, arr->ndim - nint, view_layout(arr, kind, n), arr->space, arr->readonly);
}

static Type *tuple_subscript(Scope *sc, Expr *e, Type *ot, Expr *index)
{
	Ctx *c = sc->c;
	if (index->kind == E_SLICE) {
		int k = type_slice(sc, index);
		if (k < 0)
			return set(e, NULL, NULL);
		int64_t lo = 0, hi = ot->n;
		Expr *l = index->slice.lo, *h = index->slice.hi;
		const char *hint = "slice tuples with constant bounds, as in t[1:]";
		if (k == IX_STEP)
			err_at(c, index->span, hint, "slicing a tuple with a step is not supported");
		if ((l && l->ty->kind != TY_NONE && !const_int_value(l, &lo)) ||
		    (h && h->ty->kind != TY_NONE && !const_int_value(h, &hi)))
			err_at(c, index->span, hint, "the bounds of a tuple slice must be constants");
		int64_t n = ot->n;
		lo = lo < 0 ? lo + n : lo;
		hi = hi < 0 ? hi + n : hi;
		lo = lo < 0 ? 0 : lo > n ? n : lo;
		hi = hi < lo ? lo : hi > n ? n : hi;
		Type *t = ty_tuple(c, (int)(hi - lo), ot->elts + lo);
		Const *cv = NULL, *ov = e->sub.obj->cval;
		if (ov && ov->kind == PJ_V_TUPLE) {
			cv = new_const(c, PJ_V_TUPLE, t);
			cv->n = t->n;
			cv->elts = ov->elts + lo;
		}
		return set(e, t, cv);
	}
	if (index->kind == E_TUPLE)
		err_at(c, index->span, "index a tuple with one integer", "a tuple takes one index");
	Type *it = type_expr(sc, index);
	if (!it)
		return set(e, NULL, NULL);
	int64_t k;
	if (!ty_is_int(it))
		err_at(c, index->span, "index tuples with integers, as in t[0]",
		       "tuple index must be an integer, not %s", tstr(sc, it));
	if (!const_int_value(index, &k)) {
		/* a run-time index: a tuple of equal numbers only, as Numba */
		int uni = ot->n > 0 && ty_is_number(ot->elts[0]);
		for (int i = 1; uni && i < ot->n; i++)
			uni = ty_equal(ot->elts[i], ot->elts[0]);
		if (!uni)
			err_at(c, index->span,
			       "index tuples of arrays or of mixed types with constants, as in t[0]; unpack them "
			       "(a, b = t) or use an array (cuda.local.array) to index by a variable",
			       "a %s can only be indexed with a constant", tstr(sc, ot));
		return set(e, ot->elts[0], NULL);
	}
	int64_t j = k < 0 ? k + ot->n : k;
	if (j < 0 || j >= ot->n)
		err_at(c, index->span, "index a tuple of n elements with 0..n-1 or -n..-1",
		       "tuple index %lld is out of range for %s", (long long)k, tstr(sc, ot));
	Const *cv = e->sub.obj->cval && e->sub.obj->cval->kind == PJ_V_TUPLE ? &e->sub.obj->cval->elts[j] : NULL;
	return set(e, ot->elts[j], cv);
}

static Type *type_subscript(Scope *sc, Expr *e)
{
	Type *ot = type_expr(sc, e->sub.obj);
	Expr *index = e->sub.index;
	if (!ot)
		return set(e, NULL, NULL);
	if (ot->kind == TY_ARRAY)
		return set(e, subscript_array(sc, e, ot, index, NULL), NULL);
	if (ot->kind == TY_TUPLE)
		return tuple_subscript(sc, e, ot, index);
	if (ot->kind == TY_RECORD)
		return sema_record_index(sc, e, ot);
	if (ot->kind == TY_POINTER)
		return sema_pointer_index(sc, e, ot);
	if (ot->kind == TY_MODULE && ot->name[0] == '@') {   /* Color["red"]: an Enum member by name */
		Type *it = type_expr(sc, index);
		if (!it || !index->cval || index->cval->kind != PJ_V_STR)
			err_at(sc->c, index->span, "name the member with a constant string: Color[\"red\"]",
			       "%s[...] needs a constant string", ot->name + 1);
		Const *m = sema_namespace_member(sc->c, sc->func, ot->name + 1, NULL, index->cval->s, e->span);
		return set(e, m->ty, m);
	}
	err_at(sc->c, e->span, "index arrays, tuples and pointers", "a value of type %s cannot be indexed", tstr(sc, ot));
}

/* ------------------------------------------------------------- literals */

static Type *type_literal(Scope *sc, Expr *e)
{
	Ctx *c = sc->c;
	Const *v;
	switch (e->kind) {
	case E_INT:
		v = new_const(c, PJ_V_INT, ty_scalar(e->big ? SK_U64 : SK_I64));
		v->i = e->ival;
		break;
	case E_FLOAT:
		v = new_const(c, PJ_V_FLOAT, ty_scalar(SK_F64));
		v->f = e->fval;
		break;
	case E_IMAG:
		v = new_const(c, PJ_V_COMPLEX, ty_scalar(SK_C128));
		v->im = e->fval;
		break;
	case E_BOOL:
		v = new_const(c, PJ_V_BOOL, ty_scalar(SK_BOOL));
		v->i = e->ival != 0;
		break;
	case E_NONE:
		v = new_const(c, PJ_V_NONE, ty_none());
		break;
	default: /* E_STR */
		if (e->str.bytes == 1)
			err_at(c, e->span, "assign a bytes literal to an element of a bytes array (dtype |S) or to a "
			       "bytes field of a record: a[i] = b'abc'", "bytes literals are supported only as values "
			       "stored into fixed-length bytes");
		v = new_const(c, PJ_V_STR, ty_str());
		v->s = e->str.s;
		break;
	}
	return set(e, v->ty, v);
}

Type *type_expr(Scope *sc, Expr *e)
{
	Ctx *c = sc->c;
	if (++c->depth > 400)
		err_at(c, e->span, "split the expression into several statements", "expression nested too deeply");
	Type *t;
	switch (e->kind) {
	case E_INT: case E_FLOAT: case E_IMAG: case E_BOOL: case E_NONE: case E_STR:
		t = type_literal(sc, e);
		break;
	case E_NAME: t = type_name(sc, e); break;
	case E_UNARY: t = type_unary(sc, e); break;
	case E_BINARY: t = type_binary(sc, e); break;
	case E_COMPARE: t = type_compare(sc, e); break;
	case E_BOOLOP: t = type_boolop(sc, e); break;
	case E_IFEXP: t = type_ifexp(sc, e); break;
	case E_CALL: t = type_call(sc, e); break;
	case E_ATTR: t = type_attr(sc, e); break;
	case E_SUBSCRIPT: t = type_subscript(sc, e); break;
	case E_TUPLE: t = type_tuple(sc, e); break;
	case E_SLICE:
		err_at(c, e->span, "slices only appear inside [ ]", "a slice cannot be used as a value");
	case E_LAMBDA:
		err_at(c, e->span, "define a @cuda.jit(device=True) function and call it instead",
		       "lambda functions are not supported in kernels");
	case E_STARRED:
		ICE(c, "*x outside a call's arguments (the parser makes it only there; type_call spreads it)");
	default: /* E_UNSUPPORTED */
		err_at(c, e->span,
		       "kernels work on arrays passed as arguments, numbers and tuples; for a per-thread "
		       "array use cuda.local.array(shape, dtype)",
		       "%s is not supported in kernels", e->str.s ? e->str.s : "this expression");
	}
	c->depth--;
	return t;
}

/* The element type `elem` of an array receives a value of type vt (at
 * span sp): a number of any kind converts (complex only into complex). */
Type *storable_type(Scope *sc, Type *elem, Type *vt, Span sp, const char *what)
{
	if (ty_is_number(vt) && (!ty_is_complex(vt) || ty_is_complex(elem)))
		return elem;
	if (is_fp8(vt))
		err_at(sc->c, sp, "convert it first, e.g. float32(x); cvt_float_to_fp8 gives the storage bits (uint8)",
		       "cannot store a %s value into %s", tstr(sc, vt), what);
	if (ty_is_complex(vt))
		err_at(sc->c, sp, "store the real part (x.real) or use a complex array",
		       "cannot store a %s value into %s", tstr(sc, vt), what);
	err_at(sc->c, sp, "an array element holds one number",
	       "cannot store a %s value into %s", tstr(sc, vt), what);
}

/* The same for the value of expression `value`. */
Type *storable(Scope *sc, Type *elem, Expr *value, const char *what)
{
	return storable_type(sc, elem, value->ty, value->span, what);
}

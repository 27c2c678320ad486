/*
 * fold.c - constant folding and exact algebraic identities.
 *
 * Precondition: a verified function (preds consistent with the jumps).
 * Postcondition: the same, possibly with blocks that became unreachable
 * (DCE removes them).
 *
 * An instruction whose operands are all constants is replaced by its
 * value, computed with exactly the semantics that core.h gives the
 * opcode, so the simulator and the GPU would have computed the same:
 * integer arithmetic wraps at the width of the class (32 bits for KW, 64
 * for KL) and takes its signedness from Ins.ty; division by zero gives 0,
 * x rem 0 gives x, INT_MIN / -1 gives INT_MIN and INT_MIN rem -1 gives 0;
 * shift counts are read as unsigned and counts of at least the width give
 * 0 (-1 for a negative arithmetic shift right); the results of add, sub,
 * mul, div, rem, neg, not, shl and abs of an 8- or 16-bit kind are
 * re-extended from that width (as the simulator and the PTX back end
 * do); the int compares ltu..geu are unsigned; KS arithmetic is done in
 * float, never in double; float to int conversion truncates, saturates
 * and turns NaN into 0.  A float operation whose result is a NaN is not
 * folded (the host and the GPU give NaNs different payloads), nor
 * anything on f16 or complex kinds, nor min/max of two NaNs or of +0.0
 * and -0.0.
 *
 * Identities are applied only where they hold for every input: x+0, x-0,
 * x*1, x/1, x|0, x^0, x&-1, x<<0 for ints, x*0, x&0, x-x, x^x, x rem 1
 * for ints, x/0 and x rem 0 by our definitions, cmp of a value with
 * itself for ints, sel with a constant condition or equal arms, double
 * neg and not, copy, cvt to the same kind.  For floats only x*1.0, x/1.0,
 * x-(+0.0) and x+(-0.0): x+0.0 is not x when x is -0.0.  A compare of
 * float32 values widened to double, or of one and a double constant that
 * a float holds exactly, compares the floats (widening is exact).
 *
 * A jnz on a constant becomes a jmp, and the phis of the block no longer
 * jumped to lose that argument (ir_fill_preds).  Phis whose arguments
 * are all the same constant become that constant.  Everything repeats
 * until nothing changes, so folds travel through loops.
 */
#include <math.h>
#include <string.h>

#include "../core.h"

typedef struct F {
	Fn *f;
	Ref *rep;     /* rep[v]: what value v is replaced by, R_NONE if kept */
	Ins **def;    /* defining instruction of each value, NULL for phis */
} F;

static Ref resolve(F *s, Ref r)
{
	for (int n = 0; r.kind == R_VAL && (int)r.idx < s->f->nval && s->rep[r.idx].kind != R_NONE; n++) {
		if (n > s->f->nval)
			ICE(s->f->ctx, "fold: replacement cycle at %%%u", (unsigned)r.idx);
		r = s->rep[r.idx];
	}
	return r;
}

static int is_signed_sk(int ty)
{
	return ty == SK_I8 || ty == SK_I16 || ty == SK_I32 || ty == SK_I64;
}

static int is_int_sk(int ty)
{
	return ty >= SK_I8 && ty <= SK_U64;
}

static int sk_bits(int ty)
{
	switch (ty) {
	case SK_BOOL: return 1;
	case SK_I8: case SK_U8: return 8;
	case SK_I16: case SK_U16: return 16;
	case SK_I32: case SK_U32: return 32;
	default: return 64;
	}
}

static Con *con_of(Fn *f, Ref r)
{
	return r.kind == R_CON && (int)r.idx < f->ncon ? &f->con[r.idx] : NULL;
}

/* The constant's value as an integer of kind ty (sign or zero extended). */
static int64_t int_as(int64_t v, int ty)
{
	int w = sk_bits(ty);
	if (w == 1)
		return v != 0;
	if (w == 64)
		return v;
	uint64_t m = ((uint64_t)1 << w) - 1, u = (uint64_t)v & m;
	if (is_signed_sk(ty) && (u >> (w - 1)))
		u |= ~m;
	return (int64_t)u;
}

static int64_t con_int(const Con *c)
{
	return c->i;
}

/* the operand as an unsigned number of its class's width */
static uint64_t uval(const Con *c)
{
	return c->cls == KW ? (uint32_t)c->i : c->cls == KB ? (uint64_t)(c->i != 0) : (uint64_t)c->i;
}

/* ops whose KW result of an 8- or 16-bit kind is re-extended */
static int narrows(int op)
{
	switch (op) {
	case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_REM: case O_NEG: case O_NOT:
	case O_SHL: case O_ABS:
		return 1;
	default:
		return 0;
	}
}

/* popc, clz or brev of the w low bits of u */
static uint64_t bit_op(int op, uint64_t u, int w)
{
	uint64_t r = 0;
	for (int b = 0; b < w; b++) {
		int bit = (int)(u >> b & 1);
		if (op == O_POPC)
			r += (uint64_t)bit;
		else if (op == O_BREV)
			r |= (uint64_t)bit << (w - 1 - b);
		else if (bit)
			r = (uint64_t)(w - 1 - b);
	}
	if (op == O_CLZ && u == 0)
		r = (uint64_t)w;
	return r;
}

static Ref fold_int(Fn *f, Ins *i, Con *a, Con *b)
{
	Cls k = (Cls)i->cls;
	int w = k == KW ? 32 : k == KB ? 1 : 64;
	int sg = is_signed_sk(i->ty);
	uint64_t ua = a ? uval(a) : 0, ub = b ? uval(b) : 0;
	int64_t sa = k == KW ? (int32_t)ua : (int64_t)ua, sb = k == KW ? (int32_t)ub : (int64_t)ub;
	int64_t min = k == KW ? INT32_MIN : INT64_MIN;
	uint64_t r;
	switch (i->op) {
	case O_ADD: r = ua + ub; break;
	case O_SUB: r = ua - ub; break;
	case O_MUL: r = ua * ub; break;
	case O_DIV:
		if (ub == 0)
			r = 0;
		else if (sg)
			r = sa == min && sb == -1 ? (uint64_t)min : (uint64_t)(sa / sb);
		else
			r = ua / ub;
		break;
	case O_REM:
		if (ub == 0)
			r = ua;
		else if (sg)
			r = sb == -1 ? 0 : (uint64_t)(sa % sb);
		else
			r = ua % ub;
		break;
	case O_NEG: r = 0 - ua; break;
	case O_NOT: r = k == KB ? !ua : ~ua; break;
	case O_AND: r = ua & ub; break;
	case O_OR: r = ua | ub; break;
	case O_XOR: r = ua ^ ub; break;
	case O_SHL: r = ub >= (uint64_t)w ? 0 : ua << ub; break;
	case O_SHR:
		if (sg)
			r = ub >= (uint64_t)w ? (sa < 0 ? (uint64_t)-1 : 0)
			  : sa < 0 ? ~(~(uint64_t)sa >> ub) : (uint64_t)sa >> ub;
		else
			r = ub >= (uint64_t)w ? 0 : ua >> ub;
		break;
	case O_MIN: r = sg ? (uint64_t)(sa < sb ? sa : sb) : ua < ub ? ua : ub; break;
	case O_MAX: r = sg ? (uint64_t)(sa > sb ? sa : sb) : ua > ub ? ua : ub; break;
	case O_ABS: r = sg && sa < 0 ? 0 - ua : ua; break;
	case O_POPC: case O_CLZ: case O_BREV:
		if (k == KB)
			return REF_NONE;
		r = bit_op(i->op, ua, w);
		break;
	default:
		return REF_NONE;
	}
	if (k == KW && sk_bits(i->ty) < 32 && narrows(i->op))
		r = (uint64_t)int_as((int64_t)r, i->ty);
	return ir_con_int(f, k, (int64_t)r);
}

static Ref fold_float(Fn *f, Ins *i, Con *a, Con *b, Con *c)
{
	Cls k = (Cls)i->cls;
	if (k == KS) {
		float x = a->s, y = b ? b->s : 0, z = c ? c->s : 0, r;
		uint32_t bits;
		memcpy(&bits, &x, sizeof bits);
		switch (i->op) {
		case O_ADD: r = x + y; break;
		case O_SUB: r = x - y; break;
		case O_MUL: r = x * y; break;
		case O_DIV: r = x / y; break;
		case O_FMA: r = ir_fmaf_mode(x, y, z, i->aux); break;
		case O_SQRT: r = sqrtf(x); break;
		case O_FLOOR: r = floorf(x); break;
		case O_CEIL: r = ceilf(x); break;
		case O_TRUNC: r = truncf(x); break;
		case O_RINT: r = rintf(x); break;
		case O_NEG:
			bits ^= 0x80000000u;
			return ir_con_int(f, KS, (int32_t)bits);
		case O_ABS:
			bits &= 0x7fffffffu;
			return ir_con_int(f, KS, (int32_t)bits);
		case O_MIN: case O_MAX:
			if (isnan(x) && isnan(y))
				return REF_NONE;
			if (x == 0 && y == 0 && signbit(x) != signbit(y))
				return REF_NONE;
			r = isnan(x) ? y : isnan(y) ? x : i->op == O_MIN ? (x < y ? x : y) : (x > y ? x : y);
			break;
		default:
			return REF_NONE;
		}
		if (isnan(r))
			return REF_NONE;
		return ir_con_f32(f, r);
	}
	double x = a->d, y = b ? b->d : 0, z = c ? c->d : 0, r;
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	switch (i->op) {
	case O_ADD: r = x + y; break;
	case O_SUB: r = x - y; break;
	case O_MUL: r = x * y; break;
	case O_DIV: r = x / y; break;
	case O_FMA: r = fma(x, y, z); break;
	case O_SQRT: r = sqrt(x); break;
	case O_FLOOR: r = floor(x); break;
	case O_CEIL: r = ceil(x); break;
	case O_TRUNC: r = trunc(x); break;
	case O_RINT: r = rint(x); break;
	case O_NEG:
		bits ^= (uint64_t)1 << 63;
		return ir_con_int(f, KD, (int64_t)bits);
	case O_ABS:
		bits &= ~((uint64_t)1 << 63);
		return ir_con_int(f, KD, (int64_t)bits);
	case O_MIN: case O_MAX:
		if (isnan(x) && isnan(y))
			return REF_NONE;
		if (x == 0 && y == 0 && signbit(x) != signbit(y))
			return REF_NONE;
		r = isnan(x) ? y : isnan(y) ? x : i->op == O_MIN ? (x < y ? x : y) : (x > y ? x : y);
		break;
	default:
		return REF_NONE;
	}
	if (isnan(r))
		return REF_NONE;
	return ir_con_f64(f, r);
}

static int cmp_result(int cc, int lt, int eq, int gt, int unord)
{
	switch (cc) {
	case CC_EQ: return eq;
	case CC_NE: return !eq;
	case CC_LT: return lt;
	case CC_LE: return lt || eq;
	case CC_GT: return gt;
	case CC_GE: return gt || eq;
	case CC_LTU: return lt || unord;
	case CC_LEU: return lt || eq || unord;
	case CC_GTU: return gt || unord;
	case CC_GEU: return gt || eq || unord;
	default: return -1;
	}
}

static Ref fold_cmp(Fn *f, Ins *i, Con *a, Con *b)
{
	int lt, eq, gt, un = 0;
	Cls k = ir_cls_of_sk((ScalarKind)i->ty);
	if (a->cls != k || b->cls != k || i->ty == SK_F16)
		return REF_NONE;
	if (k == KS || k == KD) {
		double x = k == KS ? a->s : a->d, y = k == KS ? b->s : b->d;
		un = isnan(x) || isnan(y);
		lt = !un && x < y;
		eq = !un && x == y;
		gt = !un && x > y;
	} else if (is_signed_sk(i->ty) && i->aux < CC_LTU) {
		int64_t x = k == KW ? (int32_t)a->i : a->i, y = k == KW ? (int32_t)b->i : b->i;
		lt = x < y, eq = x == y, gt = x > y;
	} else {
		uint64_t x = uval(a), y = uval(b);
		lt = x < y, eq = x == y, gt = x > y;
	}
	int r = cmp_result(i->aux, lt, eq, gt, un);
	return r < 0 ? REF_NONE : ir_con_bool(f, r);
}

/* a value of kind `to` from an int64 or uint64 (unsig) */
static Ref int_to_kind(Fn *f, int64_t v, int unsig, int to)
{
	if (to == SK_BOOL)
		return ir_con_bool(f, v != 0);
	if (is_int_sk(to))
		return ir_con_int(f, ir_cls_of_sk((ScalarKind)to), int_as(v, to));
	if (to == SK_F32)
		return ir_con_f32(f, unsig ? (float)(uint64_t)v : (float)v);
	if (to == SK_F64)
		return ir_con_f64(f, unsig ? (double)(uint64_t)v : (double)v);
	if (to == SK_BF16)
		return ir_con_f32(f, ir_int_to_bf16((uint64_t)v, !unsig));
	return REF_NONE;
}

static Ref fold_cvt(Fn *f, Ins *i, Con *a)
{
	int from = i->ty, to = i->aux;
	if (from >= NSK || to < 0 || to >= NSK || a->cls != ir_cls_of_sk((ScalarKind)from))
		return REF_NONE;
	if (from == SK_BOOL || is_int_sk(from)) {
		int64_t v = int_as(con_int(a), from);
		return int_to_kind(f, v, from == SK_U64, to);
	}
	if (from != SK_F32 && from != SK_F64 && from != SK_BF16)
		return REF_NONE;
	double x = from == SK_F64 ? a->d : a->s;
	if (to == SK_BOOL)
		return ir_con_bool(f, x != 0);
	if (to == SK_BF16)
		return ir_con_f32(f, ir_round_bf16(x));
	if (to == SK_F32 || to == SK_F64) {
		if (isnan(x))
			return REF_NONE;
		return to == SK_F32 ? ir_con_f32(f, from != SK_F64 ? a->s : (float)a->d) : ir_con_f64(f, x);
	}
	if (!is_int_sk(to))
		return REF_NONE;
	return int_to_kind(f, ir_float_to_int(x, (ScalarKind)from, (ScalarKind)to), 0, to);
}

static Ref fold_bits(Fn *f, Ins *i, Con *a)
{
	Cls k = (Cls)i->cls;
	int64_t bits;
	if (a->cls == KS) {
		int32_t w;
		memcpy(&w, &a->s, sizeof w);
		bits = w;
	} else if (a->cls == KD)
		memcpy(&bits, &a->d, sizeof bits);
	else
		bits = a->i;
	if (k == KD || k == KL || k == KS || k == KW)
		return ir_con_int(f, k, bits);
	return REF_NONE;
}

/* all operands constant */
static Ref fold_const(Fn *f, Ins *i, Con *c[3])
{
	Cls k = (Cls)i->cls;
	switch (i->op) {
	case O_CMP:
		return fold_cmp(f, i, c[0], c[1]);
	case O_CVT:
		return fold_cvt(f, i, c[0]);
	case O_BITS:
		return fold_bits(f, i, c[0]);
	case O_SEL:
		return REF_NONE;
	default:
		break;
	}
	if (!op_info[i->op].fold)
		return REF_NONE;
	for (int n = 0; n < ir_nargs(i); n++)
		if (c[n]->cls != ir_arg_cls(i, n)
		    && !((i->op == O_SHL || i->op == O_SHR) && n == 1 && (c[n]->cls == KW || c[n]->cls == KL)))
			return REF_NONE;
	if (k == KS || k == KD) {
		if (i->op == O_REM || i->ty == SK_F16)
			return REF_NONE;
		return fold_float(f, i, c[0], c[1], c[2]);
	}
	if (k == KB || k == KW || k == KL) {
		if (k == KB && i->op != O_NOT && i->op != O_AND && i->op != O_OR && i->op != O_XOR)
			return REF_NONE;
		return fold_int(f, i, c[0], c[1]);
	}
	return REF_NONE;
}

static int is_int_con(Con *c, int64_t v)
{
	return c && (c->cls == KW || c->cls == KL || c->cls == KB) && c->i == (c->cls == KB ? v != 0 : v);
}

static int is_all_ones(Con *c)
{
	return c && (c->cls == KB ? c->i == 1 : (c->cls == KW || c->cls == KL) && c->i == -1);
}

static int is_float_bits(Con *c, double v)
{
	if (!c)
		return 0;
	if (c->cls == KS) {
		float x = (float)v;
		return memcmp(&c->s, &x, sizeof x) == 0;
	}
	if (c->cls == KD)
		return memcmp(&c->d, &v, sizeof v) == 0;
	return 0;
}

/* identities with some operands unknown */
/* The bool p when r is `p ? 1 : 0` (a sel) or the constant 0 or 1;
 * REF_NONE otherwise. */
static Ref bool_of(F *s, Ref r)
{
	Fn *f = s->f;
	Con *c = con_of(f, r);
	if (c)
		return (c->cls == KW || c->cls == KL) && (c->i == 0 || c->i == 1) ? ir_con_bool(f, (int)c->i) : REF_NONE;
	Ins *d = r.kind == R_VAL ? s->def[r.idx] : NULL;
	if (d && d->op == O_SEL && ir_cls_of(f, d->arg[0]) == KB && is_int_con(con_of(f, d->arg[1]), 1) &&
	    is_int_con(con_of(f, d->arg[2]), 0))
		return d->arg[0];
	return REF_NONE;
}

/* The float32 whose widening r is: the operand of a cvt from f32 to f64,
 * or a double constant that a float holds exactly; REF_NONE otherwise. */
static Ref narrowed_f32(F *s, Ref r)
{
	Fn *f = s->f;
	Con *c = con_of(f, r);
	if (c)
		return c->cls == KD && (double)(float)c->d == c->d ? ir_con_f32(f, (float)c->d) : REF_NONE;
	Ins *d = r.kind == R_VAL ? s->def[r.idx] : NULL;
	if (d && d->op == O_CVT && d->ty == SK_F32 && d->aux == SK_F64)
		return d->arg[0];
	return REF_NONE;
}

static Ref simplify(F *s, Ins *i, Con *c[3])
{
	Fn *f = s->f;
	Cls k = (Cls)i->cls;
	Ref a = i->arg[0], b = i->arg[1];
	int isint = k == KW || k == KL || k == KB, isflt = k == KS || k == KD;
	Ins *da = a.kind == R_VAL ? s->def[a.idx] : NULL;
	if (k == KW && sk_bits(i->ty) < 32 && narrows(i->op)) {
		/* the result is re-extended from the kind's width: x+0 is that,
		 * not x, when x is outside the kind's range */
		switch (i->op) {
		case O_MUL:
			if (is_int_con(c[0], 0) || is_int_con(c[1], 0))
				return ir_con_int(f, k, 0);
			break;
		case O_SUB:
			if (ref_eq(a, b))
				return ir_con_int(f, k, 0);
			break;
		case O_DIV:
			if (is_int_con(c[1], 0))
				return ir_con_int(f, k, 0);
			break;
		case O_REM:
			if (is_int_con(c[1], 1))
				return ir_con_int(f, k, 0);
			break;
		case O_SHL:
			if (is_int_con(c[0], 0))
				return ir_con_int(f, k, 0);
			break;
		default:
			break;
		}
		return REF_NONE;
	}
	switch (i->op) {
	case O_COPY:
		return a;
	case O_ADD:
		if (isint && is_int_con(c[1], 0))
			return a;
		if (isint && is_int_con(c[0], 0))
			return b;
		if (isflt && is_float_bits(c[1], -0.0))
			return a;
		if (isflt && is_float_bits(c[0], -0.0))
			return b;
		break;
	case O_SUB:
		if (isint && is_int_con(c[1], 0))
			return a;
		if (isint && ref_eq(a, b))
			return ir_con_int(f, k, 0);
		if (isflt && is_float_bits(c[1], 0.0))
			return a;
		break;
	case O_MUL:
		if (isint && is_int_con(c[1], 1))
			return a;
		if (isint && is_int_con(c[0], 1))
			return b;
		if (isint && (is_int_con(c[0], 0) || is_int_con(c[1], 0)))
			return ir_con_int(f, k, 0);
		if (isflt && is_float_bits(c[1], 1.0))
			return a;
		if (isflt && is_float_bits(c[0], 1.0))
			return b;
		break;
	case O_DIV:
		if (isint && is_int_con(c[1], 1))
			return a;
		if (isint && is_int_con(c[1], 0))
			return ir_con_int(f, k, 0);
		if (isflt && is_float_bits(c[1], 1.0))
			return a;
		break;
	case O_REM:
		if (isint && is_int_con(c[1], 1))
			return ir_con_int(f, k, 0);
		if (isint && is_int_con(c[1], 0))
			return a;
		break;
	case O_AND:
		if (is_int_con(c[0], 0) || is_int_con(c[1], 0))
			return ir_con_int(f, k, 0);
		if (is_all_ones(c[1]) || ref_eq(a, b))
			return a;
		if (is_all_ones(c[0]))
			return b;
		break;
	case O_OR:
		if (is_int_con(c[1], 0) || ref_eq(a, b))
			return a;
		if (is_int_con(c[0], 0))
			return b;
		if (is_all_ones(c[0]) || is_all_ones(c[1]))
			return ir_con_int(f, k, -1);
		break;
	case O_XOR:
		if (is_int_con(c[1], 0))
			return a;
		if (is_int_con(c[0], 0))
			return b;
		if (ref_eq(a, b))
			return ir_con_int(f, k, 0);
		break;
	case O_SHL:
	case O_SHR:
		if (is_int_con(c[1], 0))
			return a;
		if (is_int_con(c[0], 0))
			return ir_con_int(f, k, 0);
		break;
	case O_MIN:
	case O_MAX:
		if (ref_eq(a, b))
			return a;
		break;
	case O_NEG:
	case O_NOT:
		if (da && da->op == i->op && da->cls == i->cls)
			return da->arg[0];
		break;
	case O_CMP: {
		Cls ak = ir_cls_of_sk((ScalarKind)i->ty);
		if ((ak == KW || ak == KL || ak == KB) && ref_eq(a, b)) {
			int r = cmp_result(i->aux, 0, 1, 0, 0);
			if (r >= 0)
				return ir_con_bool(f, r);
		}
		/* float32 values compared as doubles (x * x + y * y <= 1.0):
		 * widening is exact and keeps the order and the NaNs, so the
		 * floats compare themselves, against a constant that is a float */
		Ref na = narrowed_f32(s, a), nb = narrowed_f32(s, b);
		if (ak == KD && na.kind != R_NONE && nb.kind != R_NONE && (na.kind != R_CON || nb.kind != R_CON)) {
			i->arg[0] = na;
			i->arg[1] = nb;
			i->ty = SK_F32;
			break;
		}
		/* (p ? 1 : 0) == (q ? 1 : 0), and the other orders: the bools
		 * compare themselves (false < true, as 0 < 1 signed or not) */
		Ref pa = bool_of(s, a), pb = bool_of(s, b);
		if ((ak == KW || ak == KL) && pa.kind != R_NONE && pb.kind != R_NONE &&
		    (pa.kind != R_CON || pb.kind != R_CON)) {
			i->arg[0] = pa;
			i->arg[1] = pb;
			i->ty = SK_BOOL;
		}
		break;
	}
	case O_SEL:
		if (c[0] && c[0]->cls == KB)
			return c[0]->i ? i->arg[1] : i->arg[2];
		if (ref_eq(i->arg[1], i->arg[2]))
			return i->arg[1];
		if (k == KB && is_int_con(c[1], 1) && is_int_con(c[2], 0))
			return a;
		break;
	case O_CVT:
		if (i->aux == i->ty)
			return a;
		break;
	case O_BITS:
		if (ir_cls_of(f, a) == k)
			return a;
		break;
	default:
		break;
	}
	return REF_NONE;
}

static Ref fold_ins(F *s, Ins *i)
{
	Fn *f = s->f;
	if (i->op >= NOPS || !op_info[i->op].def || op_info[i->op].effect)
		return REF_NONE;
	Con *c[3] = {0};
	int n = ir_nargs(i), all = n > 0;
	for (int k = 0; k < n; k++) {
		c[k] = con_of(f, i->arg[k]);
		if (!c[k])
			all = 0;
	}
	if (all && op_info[i->op].fold) {
		Ref r = i->op == O_COPY ? i->arg[0] : fold_const(f, i, c);
		if (r.kind != R_NONE)
			return r;
	}
	return simplify(s, i, c);
}

static void subst(F *s, Ref *r)
{
	*r = resolve(s, *r);
}

/* Folds until nothing changes; sets *jumps if a jnz became a jmp (then
 * the preds and phis have been updated and another round may fold more). */
static void fold_round(F *sp, int *jumps)
{
	F s = *sp;
	Fn *f = s.f;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int bi = 0; bi < f->nblk; bi++) {
			Blk *b = f->blk[bi];
			for (int k = 0; k < b->nins; k++)
				if (b->ins[k].to >= 0 && b->ins[k].to < f->nval)
					s.def[b->ins[k].to] = &b->ins[k];
		}
		for (int bi = 0; bi < f->nblk; bi++) {
			Blk *b = f->blk[bi];
			for (int k = 0; k < b->nphi; k++) {
				Phi *p = &b->phi[k];
				if (p->to < 0)
					continue;
				Ref same = REF_NONE;
				int ok = p->n > 0;
				for (int j = 0; j < p->n; j++) {
					subst(&s, &p->arg[j]);
					if (p->arg[j].kind != R_CON || (same.kind != R_NONE && !ref_eq(same, p->arg[j])))
						ok = 0;
					same = p->arg[j];
				}
				if (ok) {
					s.rep[p->to] = same;
					p->to = -1;
					changed = 1;
				}
			}
			for (int k = 0; k < b->nins; k++) {
				Ins *i = &b->ins[k];
				for (int j = 0; j < 3; j++)
					subst(&s, &i->arg[j]);
				if (i->to < 0)
					continue;
				Ref r = fold_ins(&s, i);
				if (r.kind == R_NONE || (r.kind == R_VAL && (int)r.idx == i->to))
					continue;
				s.rep[i->to] = r;
				s.def[i->to] = NULL;
				*i = (Ins){.op = O_NOP_, .to = -1, .loc = i->loc};
				changed = 1;
			}
			if (b->jmp == J_JNZ) {
				subst(&s, &b->cond);
				Con *c = con_of(f, b->cond);
				if (c) {
					ir_jmp(b, c->i ? b->s1 : b->s2);
					*jumps = changed = 1;
				}
			}
		}
	}
	for (int i = 0; i < f->nchecks; i++)
		for (int d = 0; d < 8; d++)
			subst(&s, &f->checks[i].ext[d]);
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		int n = 0;
		for (int k = 0; k < b->nphi; k++)
			if (b->phi[k].to >= 0)
				b->phi[n++] = b->phi[k];
		b->nphi = n;
		n = 0;
		for (int k = 0; k < b->nins; k++)
			if (b->ins[k].op != O_NOP_)
				b->ins[n++] = b->ins[k];
		b->nins = n;
	}
	if (*jumps)
		ir_fill_preds(f);
}

void opt_fold(Fn *f)
{
	Arena *a = f->ctx->arena;
	F s = {.f = f};
	s.rep = arena_alloc(a, sizeof *s.rep * (size_t)(f->nval + 1));
	s.def = arena_alloc(a, sizeof *s.def * (size_t)(f->nval + 1));
	for (int jumps = 1; jumps;) {
		jumps = 0;
		fold_round(&s, &jumps);
	}
}

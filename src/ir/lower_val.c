/*
 * lower_val.c - values of the lowering: constants, conversions between
 * scalar kinds and between types, truthiness, and the small instruction
 * builders the other lower_*.c files share.
 *
 * Conversions follow NumPy's casts as Numba does them: int->int
 * truncates or extends, float->int truncates toward zero (O_CVT), any
 * number->bool is "!= 0" (a NaN is true, as in Python), bool->number is
 * 0 or 1.  int8/int16/uint8/uint16 values live in KW registers
 * sign- or zero-extended from their width, so a widening to 32 bits costs
 * nothing and an arithmetic result of such a kind is re-extended
 * (lower_norm).  Array values convert between layouts only towards A
 * (the byte strides are computed from the extents); tuples convert
 * element by element.
 */
#include <string.h>

#include "lower.h"

/* An operation of kind bfloat16 (other than cvt and the memory
 * operations) is the float32 operation: + - * / and sqrt of values
 * bfloat16 holds exactly, rounded once more to bfloat16, are rounded
 * once (float32 has more than twice bfloat16's 8 bits, and 2 more); the
 * others (neg, abs, min, max, floor, ..., compares) are exact. */
static int bf16_rounds(Opcode op)
{
	return op == O_ADD || op == O_SUB || op == O_MUL || op == O_DIV || op == O_SQRT;
}

Ref lower_emit(Lower *L, Opcode op, Cls k, ScalarKind ty, Ref a0, Ref a1, Ref a2, int32_t aux)
{
	if (!L->cur)
		ICE(L->c, "instruction %s emitted in dead code", op_info[op].name);
	if (SK_IS_FP8(ty))
		ty = SK_U8;           /* the encoding, zero-extended (core.h) */
	if (ty == SK_BF16 && op != O_CVT && op != O_LOAD && op != O_STORE && op != O_ATOM && op != O_PARAM &&
	    op != O_FARG && op != O_CRES) {
		Ref r = ir_ins(L->f, L->cur, op, k, SK_F32, a0, a1, a2, aux);
		return bf16_rounds(op) ? ir_ins(L->f, L->cur, O_CVT, KS, SK_F32, r, REF_NONE, REF_NONE, SK_BF16) : r;
	}
	return ir_ins(L->f, L->cur, op, k, ty, a0, a1, a2, aux);
}

Value lower_scalar(Type *t, Ref r)
{
	Value v = {.ty = t, .r = r};
	return v;
}

Value lower_none(Type *t)
{
	Value v = {.ty = t ? t : ty_none()};
	return v;
}

_Noreturn void lower_unsupported(Lower *L, Span sp, const char *what)
{
	err_at(L->c, sp, "kernels support scalar arithmetic, arrays, tuples, cuda.* intrinsics and "
	       "device functions", "%s is not supported yet", what);
}

ScalarKind lower_part_sk(ScalarKind sk)
{
	if (sk == SK_C64)
		return SK_F32;
	if (sk == SK_C128)
		return SK_F64;
	return sk;
}

Cls lower_cls(ScalarKind sk)
{
	return ir_cls_of_sk(lower_part_sk(sk));
}

int lower_is_signed(ScalarKind sk)
{
	return scalar_info[sk].is_signed;
}

int lower_is_intsk(ScalarKind sk)
{
	return scalar_info[sk].is_int && sk != SK_BOOL;
}

int lower_is_floatsk(ScalarKind sk)
{
	return scalar_info[sk].is_float;
}

/* ------------------------------------------------------------- constants */

static int64_t wrap_int(ScalarKind sk, int64_t v)
{
	switch (sk) {
	case SK_BOOL: return v != 0;
	case SK_I8: return (int8_t)v;
	case SK_I16: return (int16_t)v;
	case SK_I32: return (int32_t)v;
	case SK_U8: return (uint8_t)v;
	case SK_U16: return (uint16_t)v;
	case SK_U32: return (int32_t)(uint32_t)v;
	default: return v;
	}
}

Ref lower_con_int(Lower *L, ScalarKind sk, int64_t v)
{
	sk = lower_part_sk(sk);
	if (SK_IS_FP8(sk))
		return lower_fp8_cvt(L, ir_con_int(L->f, KL, v), SK_I64, sk);
	if (sk == SK_BOOL)
		return ir_con_bool(L->f, v != 0);
	if (sk == SK_F16)
		return ir_con_f32(L->f, ir_round_f16((double)v));
	if (sk == SK_BF16)
		return ir_con_f32(L->f, ir_int_to_bf16((uint64_t)v, 1));
	if (sk == SK_F32)
		return ir_con_f32(L->f, (float)v);
	if (sk == SK_F64)
		return ir_con_f64(L->f, (double)v);
	return ir_con_int(L->f, ir_cls_of_sk(sk), wrap_int(sk, v));
}

Ref lower_con_float(Lower *L, ScalarKind sk, double d)
{
	sk = lower_part_sk(sk);
	if (SK_IS_FP8(sk))
		return lower_fp8_cvt(L, ir_con_f64(L->f, d), SK_F64, sk);
	if (sk == SK_BOOL)
		return ir_con_bool(L->f, d != 0);
	if (sk == SK_F16)
		return ir_con_f32(L->f, ir_round_f16(d));
	if (sk == SK_BF16)
		return ir_con_f32(L->f, ir_round_bf16(d));
	if (sk == SK_F32)
		return ir_con_f32(L->f, (float)d);
	if (sk == SK_F64)
		return ir_con_f64(L->f, d);
	return ir_con_int(L->f, ir_cls_of_sk(sk), wrap_int(sk, ir_float_to_int(d, SK_F64, sk)));
}

Ref lower_zero(Lower *L, Cls k)
{
	switch (k) {
	case KB: return ir_con_bool(L->f, 0);
	case KS: return ir_con_f32(L->f, 0);
	case KD: return ir_con_f64(L->f, 0);
	default: return ir_con_int(L->f, k, 0);
	}
}

static int const_is_unsigned(const Const *cv)
{
	return cv->ty && cv->ty->kind == TY_SCALAR && cv->ty->sk == SK_U64;
}

static Ref con_scalar(Lower *L, const Const *cv, ScalarKind sk, Span sp)
{
	switch (cv->kind) {
	case PJ_V_INT:
	case PJ_V_BOOL:
		if (lower_is_floatsk(lower_part_sk(sk)) && const_is_unsigned(cv))
			return lower_con_float(L, sk, (double)(uint64_t)cv->i);
		return lower_con_int(L, sk, cv->i);
	case PJ_V_FLOAT:
	case PJ_V_COMPLEX:
		return lower_con_float(L, sk, cv->f);
	default:
		err_at(L->c, sp, NULL, "this constant cannot be used as a number");
	}
}

Value lower_const(Lower *L, const Const *cv, Type *t, Span sp)
{
	Value v = {.ty = t};
	if (!t)
		ICE(L->c, "constant without a type");
	switch (t->kind) {
	case TY_SCALAR:
		v.r = con_scalar(L, cv, t->sk, sp);
		if (scalar_info[t->sk].is_complex)
			v.im = lower_con_float(L, t->sk, cv->kind == PJ_V_COMPLEX ? cv->im : 0.0);
		return v;
	case TY_TUPLE:
		if (cv->kind != PJ_V_TUPLE || cv->n != t->n)
			ICE(L->c, "tuple constant does not match %s", ty_str_of(L->c, t));
		v.n = t->n;
		v.elts = arena_alloc(L->c->arena, sizeof(Value) * (size_t)(t->n + 1));
		for (int i = 0; i < t->n; i++)
			v.elts[i] = lower_const(L, &cv->elts[i], t->elts[i], sp);
		return v;
	case TY_ARRAY:
		if (cv->kind == PJ_V_DEVARRAY)
			return lower_device_array(L, cv, t);
		if (cv->kind != PJ_V_ARRAY)
			ICE(L->c, "array constant of kind %d", cv->kind);
		return lower_const_array(L, cv, sp);
	case TY_RECORD:
		/* a string literal stored into a string (sema_record.c): its bytes */
		if (cv->kind == PJ_V_ARRAY)
			v.data = lower_const_array(L, cv, sp).data;
		return v;
	default:
		return v;
	}
}

int lower_const_int(const Expr *e, int64_t *out)
{
	if (!e)
		return 0;
	if (e->cval && (e->cval->kind == PJ_V_INT || e->cval->kind == PJ_V_BOOL)) {
		*out = e->cval->i;
		return 1;
	}
	if (!e->cval && (e->kind == E_INT || e->kind == E_BOOL) && !e->big) {
		*out = e->ival;
		return 1;
	}
	return 0;
}

const char *lower_span_text(Lower *L, Span sp)
{
	if (!sp.src || sp.off < 0 || sp.len <= 0 || sp.off + sp.len > sp.src->len)
		return "array";
	return arena_strndup(L->c->arena, sp.src->text + sp.off, (size_t)sp.len);
}

/* ----------------------------------------------------------- small builders */

Ref lower_cmp(Lower *L, CondCode cc, ScalarKind sk, Ref a, Ref b)
{
	return lower_emit(L, O_CMP, KB, sk, a, b, REF_NONE, cc);
}

static ScalarKind sk_of_cls(Cls k)
{
	switch (k) {
	case KB: return SK_BOOL;
	case KW: return SK_I32;
	case KS: return SK_F32;
	case KD: return SK_F64;
	default: return SK_I64;
	}
}

Ref lower_sel(Lower *L, Cls k, Ref c, Ref a, Ref b)
{
	if (ref_eq(a, b))
		return a;
	if (c.kind == R_CON)
		return L->f->con[c.idx].i ? a : b;
	return lower_emit(L, O_SEL, k, sk_of_cls(k), c, a, b, 0);
}

Ref lower_not(Lower *L, Ref b)
{
	return lower_emit(L, O_NOT, KB, SK_BOOL, b, REF_NONE, REF_NONE, 0);
}

Ref lower_norm(Lower *L, Ref r, ScalarKind sk)
{
	if (scalar_info[sk].size >= 4 || !lower_is_intsk(sk))
		return r;
	ScalarKind wide = lower_is_signed(sk) ? SK_I32 : SK_U32;
	return lower_emit(L, O_CVT, KW, wide, r, REF_NONE, REF_NONE, sk);
}

/* ------------------------------------------------------------ conversions */

static int cvt_is_noop(ScalarKind from, ScalarKind to)
{
	if (!lower_is_intsk(from) || !lower_is_intsk(to))
		return 0;
	int fs = scalar_info[from].size, ts = scalar_info[to].size;
	if (ir_cls_of_sk(from) != ir_cls_of_sk(to))
		return 0;
	if (ts == 4 || ts == 8)
		return 1;          /* i64<->u64; KW values are already extended to 32 bits */
	if (ts > fs && (lower_is_signed(from) == lower_is_signed(to) || !lower_is_signed(from)))
		return 1;
	return 0;
}

Ref lower_cvt(Lower *L, Ref r, ScalarKind from, ScalarKind to)
{
	if (from == to || (from == SK_BF16 && to == SK_F32))
		return r;
	if (SK_IS_FP8(from) || SK_IS_FP8(to))
		return lower_fp8_cvt(L, r, from, to);
	if (to == SK_BOOL) {
		Cls k = ir_cls_of_sk(from);
		if (r.kind == R_CON) {
			Con *kc = &L->f->con[r.idx];
			double d = k == KS ? kc->s : kc->d;
			return ir_con_bool(L->f, k == KS || k == KD ? d != 0 || d != d : kc->i != 0);
		}
		return lower_cmp(L, CC_NE, from, r, lower_zero(L, k));
	}
	Cls k = ir_cls_of_sk(to);
	if (from == SK_BOOL)
		return lower_sel(L, k, r, lower_con_int(L, to, 1), lower_con_int(L, to, 0));
	if (cvt_is_noop(from, to))
		return r;
	if (r.kind == R_CON) {
		Con *kc = &L->f->con[r.idx];
		if (lower_is_floatsk(from))
			return lower_con_float(L, to, kc->cls == KS ? (double)kc->s : kc->d);
		if (lower_is_floatsk(to) && !lower_is_signed(from)) {
			uint64_t u = scalar_info[from].size == 8 ? (uint64_t)kc->i : (uint32_t)kc->i;
			if (to == SK_BF16)
				return ir_con_f32(L->f, ir_int_to_bf16(u, 0));
			return lower_con_float(L, to, (double)u);
		}
		if (!lower_is_signed(from) && scalar_info[from].size == 4)
			return lower_con_int(L, to, (int64_t)(uint32_t)kc->i);
		return lower_con_int(L, to, kc->i);
	}
	return lower_emit(L, O_CVT, k, from, r, REF_NONE, REF_NONE, to);
}

Value lower_convert(Lower *L, Value v, Type *to, Span sp)
{
	Type *from = v.ty;
	if (!to || !from || from == to)
		return v;
	if (to->kind == TY_SCALAR && from->kind == TY_SCALAR) {
		Value r = {.ty = to};
		int fc = scalar_info[from->sk].is_complex, tc = scalar_info[to->sk].is_complex;
		if (fc && !tc)
			err_at(L->c, sp, "take .real or abs() of a complex number first",
			       "cannot convert %s to %s", ty_str_of(L->c, from), ty_str_of(L->c, to));
		if (tc) {
			ScalarKind p = lower_part_sk(to->sk);
			r.r = lower_cvt(L, v.r, lower_part_sk(from->sk), p);
			r.im = fc ? lower_cvt(L, v.im, lower_part_sk(from->sk), p) : lower_con_int(L, p, 0);
			return r;
		}
		r.r = lower_cvt(L, v.r, from->sk, to->sk);
		return r;
	}
	if (to->kind == TY_ARRAY && from->kind == TY_ARRAY) {
		if (from->ndim != to->ndim || !ty_equal(from->elem, to->elem) || from->space != to->space)
			ICE(L->c, "array conversion %s -> %s", ty_str_of(L->c, from), ty_str_of(L->c, to));
		Value r = v;
		r.ty = to;
		if (to->layout == from->layout)
			return r;
		if (to->layout != LAYOUT_A)
			ICE(L->c, "array conversion %s -> %s", ty_str_of(L->c, from), ty_str_of(L->c, to));
		r.stride = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(to->ndim + 1));
		for (int i = 0; i < to->ndim; i++)
			r.stride[i] = lower_byte_stride(L, v, i);
		return r;
	}
	if (to->kind == TY_RECORD && from->kind == TY_RECORD) {
		if (!ty_record_same(from, to) || from->space != to->space)
			ICE(L->c, "record conversion %s -> %s", ty_str_of(L->c, from), ty_str_of(L->c, to));
		Value r = v;
		r.ty = to;
		return r;
	}
	if (to->kind == TY_POINTER && from->kind == TY_SCALAR && scalar_info[from->sk].is_int) {
		/* an int passed for a pointer parameter: an address with no bounds known */
		Ref addr = lower_cvt(L, v.r, from->sk, SK_U64), zero = ir_con_int(L->f, KL, 0);
		return lower_pointer_value(L, to, addr, zero, ir_con_int(L->f, KL, INT64_MAX));
	}
	if (to->kind == TY_POINTER && from->kind == TY_POINTER) {
		if (!ty_equal(from, to))
			ICE(L->c, "pointer conversion %s -> %s", ty_str_of(L->c, from), ty_str_of(L->c, to));
		return v;
	}
	if (to->kind == TY_TUPLE && from->kind == TY_TUPLE) {
		if (to->n != from->n || v.n != from->n)
			ICE(L->c, "tuple conversion %s -> %s", ty_str_of(L->c, from), ty_str_of(L->c, to));
		Value r = {.ty = to, .n = to->n};
		r.elts = arena_alloc(L->c->arena, sizeof(Value) * (size_t)(to->n + 1));
		for (int i = 0; i < to->n; i++)
			r.elts[i] = lower_convert(L, v.elts[i], to->elts[i], sp);
		return r;
	}
	if (lower_ncomp(to) == 0 && lower_ncomp(from) == 0) {
		Value r = v;
		r.ty = to;
		return r;
	}
	if (from->kind == TY_NONE && to->kind == TY_SCALAR)
		err_at(L->c, sp, NULL, "None cannot be used as %s", ty_str_of(L->c, to));
	ICE(L->c, "cannot convert %s to %s", ty_str_of(L->c, from), ty_str_of(L->c, to));
}

Ref lower_byte_stride(Lower *L, Value v, int axis)
{
	Type *t = v.ty;
	if (t->layout == LAYOUT_A && v.stride)
		return v.stride[axis];
	Ref s = ir_con_int(L->f, KL, ty_elem_size(t->elem));
	if (t->layout == LAYOUT_F) {
		for (int i = 0; i < axis; i++)
			s = lower_emit(L, O_MUL, KL, SK_I64, s, v.shape[i], REF_NONE, 0);
	} else {
		for (int i = t->ndim - 1; i > axis; i--)
			s = lower_emit(L, O_MUL, KL, SK_I64, s, v.shape[i], REF_NONE, 0);
	}
	return s;
}

Ref lower_truth(Lower *L, Value v, Span sp)
{
	Type *t = v.ty;
	switch (t->kind) {
	case TY_SCALAR:
		if (t->sk == SK_BOOL)
			return v.r;
		if (scalar_info[t->sk].is_complex) {
			ScalarKind p = lower_part_sk(t->sk);
			Ref a = lower_cvt(L, v.r, p, SK_BOOL);
			Ref b = lower_cvt(L, v.im, p, SK_BOOL);
			return lower_emit(L, O_OR, KB, SK_BOOL, a, b, REF_NONE, 0);
		}
		return lower_cvt(L, v.r, t->sk, SK_BOOL);
	case TY_NONE:
		return ir_con_bool(L->f, 0);
	case TY_TUPLE:
		return ir_con_bool(L->f, t->n > 0);
	case TY_STR:
		return ir_con_bool(L->f, 1);
	case TY_ARRAY:
		err_at(L->c, sp, "compare a size: `if a.size > 0:`",
		       "the truth value of an array is ambiguous");
	default:
		return ir_con_bool(L->f, 1);
	}
}

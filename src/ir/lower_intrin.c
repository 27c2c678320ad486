/*
 * lower_intrin.c - calls of intrinsics (builtins, math, NumPy scalar
 * constructors, cuda.*) and attribute reads (cuda.threadIdx.x, a.shape,
 * z.real).
 *
 * Sema has typed each call (Expr.ty) and named its intrinsic
 * (call.intrin); lowering converts the arguments to what the operation
 * works in and the result to the call's type, so rules such as "math.floor
 * of a float is an int64" live in sema alone.
 *
 *   min/max        Python's: min(a, b) is b if b < a else a, so a NaN
 *                  as first argument wins and one as second is dropped;
 *                  integers use O_MIN/O_MAX.
 *   round(x)       round half to even (O_RINT), then to the call's type;
 *                  round(x, n) as CPython (lower_pymath.c).
 *   int(x)         truncation toward zero; np.int32(x) etc. are C casts.
 *   cuda.grid(n)   tid + ctaid * ntid per axis, in 64 bits.
 *   cuda.gridsize  ntid * nctaid per axis, in 64 bits.
 *   print()        lower_print.c.
 */
#include <math.h>
#include <string.h>

#include "lower.h"

static Expr *arg_of(Expr *e, int i, const char *kw)
{
	if (i >= 0 && i < e->call.nargs)
		return e->call.args[i];
	for (int k = 0; kw && k < e->call.nkw; k++)
		if (e->call.kwnames[k] && strcmp(e->call.kwnames[k], kw) == 0)
			return e->call.kwargs[k];
	return NULL;
}

static Expr *need_arg(Lower *L, Expr *e, int i, const char *kw)
{
	Expr *a = arg_of(e, i, kw);
	if (!a)
		err_at(L->c, e->span, NULL, "%s() is missing an argument",
		       e->call.intrin ? intrin_name[e->call.intrin] : "this call");
	return a;
}

Value lower_sreg(Lower *L, SReg r)
{
	Ref v = lower_emit(L, O_SREG, KW, SK_I32, REF_NONE, REF_NONE, REF_NONE, r);
	return lower_scalar(ty_scalar(SK_I32), v);
}

static Ref sreg64(Lower *L, SReg r)
{
	return lower_cvt(L, lower_sreg(L, r).r, SK_I32, SK_I64);
}

static Value grid(Lower *L, Expr *e, int size)
{
	int64_t n = 0;
	Expr *a = need_arg(L, e, 0, "ndim");
	const char *fn = size ? "cuda.gridsize" : "cuda.grid";
	if (!lower_const_int(a, &n) || n < 1 || n > 3)
		err_at(L->c, a->span, "pass a literal 1, 2 or 3", "%s() takes the number of dimensions 1, 2 or 3",
		       fn);
	Type *i64 = ty_scalar(SK_I64);
	Value axes[3];
	for (int k = 0; k < n; k++) {
		Ref r;
		if (size) {
			Ref ntid = sreg64(L, (SReg)(SR_NTID_X + k));
			Ref nctaid = sreg64(L, (SReg)(SR_NCTAID_X + k));
			r = mul64(L, ntid, nctaid);
		} else {
			Ref tid = sreg64(L, (SReg)(SR_TID_X + k));
			Ref ctaid = sreg64(L, (SReg)(SR_CTAID_X + k));
			Ref ntid = sreg64(L, (SReg)(SR_NTID_X + k));
			r = lower_emit(L, O_ADD, KL, SK_I64, tid, mul64(L, ctaid, ntid), REF_NONE, 0);
		}
		axes[k] = lower_scalar(i64, r);
	}
	if (n == 1)
		return lower_convert(L, axes[0], e->ty, e->span);
	Value t = {.ty = ty_unituple(L->c, i64, (int)n), .n = (int)n};
	t.elts = arena_alloc(L->c->arena, sizeof(Value) * 3);
	memcpy(t.elts, axes, sizeof(Value) * (size_t)n);
	return lower_convert(L, t, e->ty, e->span);
}

/* The arguments of min/max: several, or the elements of one tuple. */
static Value *minmax_args(Lower *L, Expr *e, int *n)
{
	if (e->call.nargs == 1) {
		Value t = lower_expr(L, e->call.args[0]);
		if (t.ty->kind != TY_TUPLE || t.n == 0)
			err_at(L->c, e->span, "min(a, b, ...) or min of a non-empty tuple",
			       "%s() of one argument needs a tuple", intrin_name[e->call.intrin]);
		*n = t.n;
		return t.elts;
	}
	if (e->call.nargs < 1)
		err_at(L->c, e->span, NULL, "%s() needs arguments", intrin_name[e->call.intrin]);
	Value *v = arena_alloc(L->c->arena, sizeof(Value) * (size_t)e->call.nargs);
	for (int i = 0; i < e->call.nargs; i++)
		v[i] = lower_expr(L, e->call.args[i]);
	*n = e->call.nargs;
	return v;
}

static int is_f32_f64(const Type *t)
{
	return t->kind == TY_SCALAR && (t->sk == SK_F32 || t->sk == SK_F64);
}

/* min/max as Python computes them: each argument in turn replaces the
 * result when it compares below (above) it, so a NaN first stays and a
 * NaN later is passed over.  Numba's CUDA target makes one exception,
 * kept here: two float32/float64 arguments (min(a, b), not min(t) of a
 * tuple or three arguments) go to fmin/fmax, where a NaN loses to a
 * number and -0.0 orders below +0.0 (docs/semantics.md). */
static Value minmax(Lower *L, Expr *e, int ismax)
{
	int n;
	Value *v = minmax_args(L, e, &n);
	Type *ty = e->ty;
	if (ty->kind != TY_SCALAR || scalar_info[ty->sk].is_complex)
		lower_unsupported(L, e->span, "min/max of these values");
	ScalarKind sk = ty->sk;
	Cls k = lower_cls(sk);
	Ref cur = lower_convert(L, v[0], ty, e->span).r;
	if (!L->cpu && e->call.nargs == 2 && is_f32_f64(v[0].ty) && is_f32_f64(v[1].ty)) {
		Ref x = lower_convert(L, v[1], ty, e->span).r;
		return lower_scalar(ty, lower_emit(L, ismax ? O_MAX : O_MIN, k, sk, cur, x, REF_NONE, 0));
	}
	for (int i = 1; i < n; i++) {
		Ref x = lower_convert(L, v[i], ty, e->span).r;
		if (sk == SK_BOOL)
			cur = lower_emit(L, ismax ? O_OR : O_AND, KB, SK_BOOL, cur, x, REF_NONE, 0);
		else if (lower_is_floatsk(sk)) {
			Ref c = lower_cmp(L, ismax ? CC_GT : CC_LT, sk, x, cur);
			cur = lower_sel(L, k, c, x, cur);
		} else
			cur = lower_emit(L, ismax ? O_MAX : O_MIN, k, sk, cur, x, REF_NONE, 0);
	}
	return lower_scalar(ty, cur);
}

static Value absval(Lower *L, Expr *e, Value a)
{
	Type *ty = e->ty;
	if (a.ty->kind == TY_SCALAR && scalar_info[a.ty->sk].is_complex) {
		ScalarKind p = lower_part_sk(a.ty->sk);
		Ref r = lower_hypot(L, p, a.r, a.im);
		return lower_convert(L, lower_scalar(ty_scalar(p), r), ty, e->span);
	}
	ScalarKind sk = ty->sk;
	if (sk == SK_BOOL)
		return lower_convert(L, a, ty, e->span);
	a = lower_convert(L, a, ty, e->span);
	Ref r = lower_emit(L, O_ABS, lower_cls(sk), sk, a.r, REF_NONE, REF_NONE, 0);
	return lower_scalar(ty, lower_norm(L, r, sk));
}

/* floor/ceil/trunc/rint of a float argument in its own type, then to
 * the call's type; an integer argument is only converted. */
static Value rounding(Lower *L, Expr *e, Opcode op)
{
	Value a = lower_expr(L, need_arg(L, e, 0, "x"));
	if (a.ty->kind != TY_SCALAR || scalar_info[a.ty->sk].is_complex)
		err_at(L->c, e->span, NULL, "%s() needs a real number", intrin_name[e->call.intrin]);
	ScalarKind sk = a.ty->sk;
	if (!lower_is_floatsk(sk))
		return lower_convert(L, a, e->ty, e->span);
	Ref r = lower_emit(L, op, lower_cls(sk), sk, a.r, REF_NONE, REF_NONE, 0);
	return lower_convert(L, lower_scalar(a.ty, r), e->ty, e->span);
}

static Value sqrtval(Lower *L, Expr *e)
{
	Value a = lower_expr(L, need_arg(L, e, 0, "x"));
	Type *ty = e->ty;
	if (ty->kind != TY_SCALAR || !lower_is_floatsk(ty->sk))
		lower_unsupported(L, e->span, "the square root of this type");
	a = lower_convert(L, a, ty, e->span);
	Ref r = lower_emit(L, O_SQRT, lower_cls(ty->sk), ty->sk, a.r, REF_NONE, REF_NONE, 0);
	return lower_scalar(ty, r);
}

static Value construct(Lower *L, Expr *e, Type *ty)
{
	Expr *a = arg_of(e, 0, NULL);
	if (!a)
		return lower_const(L, &(Const){.kind = PJ_V_INT, .i = 0}, ty, e->span);
	Value v = lower_expr(L, a);
	if (ty->kind == TY_SCALAR && ty->sk == SK_BOOL)
		return lower_scalar(ty, lower_truth(L, v, a->span));
	if (e->call.nargs > 1 && !scalar_info[ty->sk].is_complex)
		err_at(L->c, e->span, NULL, "%s() takes one argument", ty_str_of(L->c, ty));
	return lower_convert(L, v, ty, e->span);
}

static Value complex_ctor(Lower *L, Expr *e)
{
	Type *ty = e->ty;
	ScalarKind p = lower_part_sk(ty->sk);
	Type *pt = ty_scalar(p);
	Expr *re = arg_of(e, 0, "real"), *im = arg_of(e, 1, "imag");
	Value v = {.ty = ty};
	Value r = re ? lower_expr(L, re) : lower_scalar(pt, lower_con_int(L, p, 0));
	if (r.ty->kind == TY_SCALAR && scalar_info[r.ty->sk].is_complex && !im)
		return lower_convert(L, r, ty, e->span);
	v.r = lower_convert(L, r, pt, e->span).r;
	v.im = im ? lower_convert(L, lower_expr(L, im), pt, im->span).r : lower_con_int(L, p, 0);
	return v;
}

static Value lenval(Lower *L, Expr *e)
{
	Expr *a = need_arg(L, e, 0, "obj");
	Value v = lower_expr(L, a);
	if (v.ty->kind == TY_ARRAY) {
		if (v.ty->ndim < 1)
			err_at(L->c, a->span, "a 0-d array holds one value and has no length; use len() on arrays of 1 or more dimensions",
			       "len() of a 0-d array");
		return lower_convert(L, lower_scalar(ty_scalar(SK_I64), v.shape[0]), e->ty, e->span);
	}
	if (v.ty->kind == TY_TUPLE)
		return lower_convert(L, lower_scalar(ty_scalar(SK_I64), ir_con_int(L->f, KL, v.n)), e->ty,
		                     e->span);
	lower_unsupported(L, e->span, "len() of this value");
}

static Value divmodval(Lower *L, Expr *e)
{
	Expr *ae = need_arg(L, e, 0, NULL), *be = need_arg(L, e, 1, NULL);
	Value a = lower_expr(L, ae), b = lower_expr(L, be);
	Type *ty = e->ty;
	if (ty->kind != TY_TUPLE || ty->n != 2)
		ICE(L->c, "divmod typed %s", ty_str_of(L->c, ty));
	Value r = {.ty = ty, .n = 2};
	r.elts = arena_alloc(L->c->arena, sizeof(Value) * 2);
	Type *t = ty->elts[0];
	if (t->kind == TY_SCALAR && lower_is_floatsk(t->sk) && ty_equal(t, ty->elts[1])) {
		Ref q, m;   /* one fmod for both */
		Ref x = lower_convert(L, a, t, e->span).r;
		Ref y = lower_convert(L, b, t, e->span).r;
		lower_zerodiv(L, t->sk, y, "modulo");
		lower_float_divmod(L, t->sk, x, y, &q, &m);
		r.elts[0] = lower_scalar(t, q);
		r.elts[1] = lower_scalar(t, m);
		return r;
	}
	/* one test, with divmod's message, before both operators */
	int zd = L->zerodiv;
	if (t->kind == TY_SCALAR && lower_is_intsk(t->sk))
		lower_zerodiv(L, t->sk, lower_convert(L, b, t, e->span).r, "divmod");
	L->zerodiv = 0;
	r.elts[0] = lower_binop(L, OP_FLOORDIV, a, b, ty->elts[0], e->span);
	r.elts[1] = lower_binop(L, OP_MOD, a, b, ty->elts[1], e->span);
	L->zerodiv = zd;
	return r;
}

static Value roundval(Lower *L, Expr *e)
{
	Expr *nd = arg_of(e, 1, "ndigits");
	if (nd) {
		Expr *x = need_arg(L, e, 0, "number");
		Value xv = lower_expr(L, x), nv = lower_expr(L, nd);
		return lower_round_ndigits(L, xv, nv, nd, e->ty, e->span);
	}
	return rounding(L, e, O_RINT);
}

static Value call_method(Lower *L, Expr *e)
{
	Expr *fn = e->call.fn;
	if (fn->kind == E_ATTR && fn->attr.obj->ty && fn->attr.obj->ty->kind == TY_SCALAR) {
		Value o = lower_expr(L, fn->attr.obj);
		if (strcmp(fn->attr.name, "conjugate") == 0) {
			if (scalar_info[o.ty->sk].is_complex) {
				ScalarKind p = lower_part_sk(o.ty->sk);
				o.im = lower_emit(L, O_NEG, lower_cls(p), p, o.im, REF_NONE, REF_NONE, 0);
			}
			return lower_convert(L, o, e->ty, e->span);
		}
	}
	lower_unsupported(L, e->span, "calling this");
}

/* cuda.float32x3(...): the scalars converted to the base type and the
 * vectors' elements, in order (sema_vector.c) */
static Value vector_ctor(Lower *L, Expr *e)
{
	Type *vt = e->ty;
	Value r = {.ty = vt, .n = vt->n};
	r.elts = arena_alloc(L->c->arena, sizeof(Value) * (size_t)vt->n);
	int k = 0;
	for (int i = 0; i < e->call.nargs; i++) {
		Value a = lower_expr(L, e->call.args[i]);
		if (a.ty->kind == TY_TUPLE)
			for (int j = 0; j < a.n && k < vt->n; j++)
				r.elts[k++] = a.elts[j];
		else if (k < vt->n)
			r.elts[k++] = lower_convert(L, a, vt->elts[0], e->call.args[i]->span);
	}
	if (k != vt->n)
		ICE(L->c, "%s built from %d elements", vt->name, k);
	return r;
}

Value lower_call_intrin(Lower *L, Expr *e)
{
	int in = e->call.intrin;
	Expr *fn = e->call.fn;
	if (!in && fn->ty && fn->ty->kind == TY_INTRIN)
		in = fn->ty->intrin;
	if (!in) {
		if (fn->ty && fn->ty->kind == TY_DTYPE)
			return construct(L, e, e->ty);
		if (fn->ty && fn->ty->kind == TY_EXC)
			return lower_none(e->ty);
		return call_method(L, e);
	}
	if (intrin_dtype(in) >= 0) {
		if (e->ty->kind == TY_SCALAR && scalar_info[e->ty->sk].is_complex)
			return complex_ctor(L, e);
		return construct(L, e, e->ty);
	}
	if (ufunc_loops(in) && e->call.nargs > ufunc_nin(in))
		return lower_math_intrin(L, e, in);   /* into output arrays */
	switch (in) {
	case IN_NP_EMPTY: case IN_NP_ZEROS: case IN_NP_ONES: case IN_NP_EMPTY_LIKE: case IN_NP_ZEROS_LIKE:
	case IN_NP_ONES_LIKE: case IN_NP_COPY: case IN_NP_ARANGE: case IN_ARRAY_COPY:
		return lower_cpu_intrin(L, e, in);
	case IN_ARRAY_VIEW: case IN_ARRAY_RESHAPE: case IN_ARRAY_TRANSPOSE:
		return lower_array_method(L, e, in);
	case IN_CARRAY: case IN_FARRAY: case IN_FFI_FROM_BUFFER:
		return lower_pointer_call(L, e, in);
	case IN_NP_SUM: case IN_NP_PROD: case IN_NP_AMIN: case IN_NP_AMAX: case IN_NP_ALL: case IN_NP_ANY:
	case IN_NP_MEAN: case IN_NP_NANSUM: case IN_NP_NANPROD: case IN_NP_NANMIN: case IN_NP_NANMAX:
	case IN_NP_NANMEAN: case IN_NP_VAR: case IN_NP_STD: case IN_NP_COUNT_NONZERO:
		return lower_reduce(L, e, in);
	case IN_RANGE:
		err_at(L->c, e->span, "use range() as the iterable of a for loop: for i in range(n):",
		       "range() is only supported in a for loop");
	case IN_LEN:
		return lenval(L, e);
	case IN_MIN:
		return minmax(L, e, 0);
	case IN_MAX:
		return minmax(L, e, 1);
	case IN_ABS:
	case IN_NP_ABS:
	case IN_MATH_FABS:
		return absval(L, e, lower_expr(L, need_arg(L, e, 0, "x")));
	case IN_INT:
	case IN_FLOAT:
	case IN_BOOL:
		return construct(L, e, e->ty);
	case IN_COMPLEX:
		return complex_ctor(L, e);
	case IN_ROUND:
		return roundval(L, e);
	case IN_PRINT:
		return lower_print(L, e);
	case IN_DIVMOD:
		return divmodval(L, e);
	case IN_TUPLE:
		return lower_expr(L, need_arg(L, e, 0, "iterable"));
	case IN_POW: {
		if (e->call.nargs > 2)
			lower_unsupported(L, e->span, "pow() with a modulus");
		Expr *ae = need_arg(L, e, 0, "base"), *be = need_arg(L, e, 1, "exp");
		Value a = lower_expr(L, ae), b = lower_expr(L, be);
		return lower_pow(L, a, be, b, e->ty, e->span);
	}
	case IN_GRID:
		return grid(L, e, 0);
	case IN_GRIDSIZE:
		return grid(L, e, 1);
	case IN_SYNCTHREADS:
	case IN_CG_GRID_SYNC:
		lower_emit(L, O_BAR, KX, SK_I32, REF_NONE, REF_NONE, REF_NONE, in == IN_CG_GRID_SYNC);
		return lower_none(e->ty);
	case IN_CG_THIS_GRID:
		L->f->this_grid = 1;
		return lower_none(e->ty);
	case IN_SHARED_ARRAY:
		return lower_static_array(L, e, SP_SHARED);
	case IN_LOCAL_ARRAY:
		return lower_static_array(L, e, SP_LOCAL);
	case IN_CONST_ARRAY_LIKE:
		if (!e->cval || e->cval->kind != PJ_V_ARRAY)
			ICE(L->c, "cuda.const.array_like() without a constant array");
		return lower_const_array(L, e->cval, e->span);
	case IN_ATOMIC_ADD: case IN_ATOMIC_SUB: case IN_ATOMIC_MAX: case IN_ATOMIC_MIN:
	case IN_ATOMIC_AND: case IN_ATOMIC_OR: case IN_ATOMIC_XOR: case IN_ATOMIC_EXCH:
	case IN_ATOMIC_INC: case IN_ATOMIC_DEC: case IN_ATOMIC_CAS: case IN_ATOMIC_CAS2:
	case IN_ATOMIC_NANMAX: case IN_ATOMIC_NANMIN:
		return lower_atomic(L, e, in);
	case IN_LDCA: case IN_LDCG: case IN_LDCS: case IN_LDLU: case IN_LDCV:
	case IN_STCG: case IN_STCS: case IN_STWB: case IN_STWT:
		return lower_cache_hint(L, e, in);
	case IN_NP_SQRT:
		if (scalar_info[e->ty->sk].is_complex)
			return lower_math_intrin(L, e, in);
		return sqrtval(L, e);
	case IN_MATH_SQRT:
		return sqrtval(L, e);
	case IN_MATH_FLOOR:
	case IN_NP_FLOOR:
		return rounding(L, e, O_FLOOR);
	case IN_MATH_CEIL:
	case IN_NP_CEIL:
		return rounding(L, e, O_CEIL);
	case IN_MATH_TRUNC:
		return rounding(L, e, O_TRUNC);
	default:
		if (in >= IN_SYNCTHREADS_COUNT && in <= IN_NANOSLEEP)
			return lower_warp_intrin(L, e, in);
		if (in >= IN_FP16_HADD && in <= IN_FP16_HMIN_NAN)
			return lower_fp16_intrin(L, e, in);
		if (in > IN_BF16_BEGIN && in < IN_BF16_END)
			return lower_bf16_intrin(L, e, in);
		if (in > IN_FP8_BEGIN && in < IN_FP8_END)
			return lower_fp8_intrin(L, e, in);
		if (in >= IN_MATH_ACOS && in <= IN_NP_LCM)
			return lower_math_intrin(L, e, in);
		if (in > IN_LD_BEGIN && in < IN_LD_END)
			return lower_libdevice(L, e, in);
		if (in > IN_VEC_BEGIN && in < IN_VEC_END)
			return vector_ctor(L, e);
		err_at(L->c, e->span, "see the supported functions in the documentation",
		       "%s() is not supported in kernels yet", intrin_name[in]);
	}
}

/* ------------------------------------------------------------- attributes */

static Value math_const(Lower *L, int in, Type *ty, Span sp)
{
	static const double pi = 3.141592653589793, ee = 2.718281828459045;
	double d;
	switch (in) {
	case IN_MATH_PI: case IN_NP_PI: d = pi; break;
	case IN_MATH_E: case IN_NP_E: d = ee; break;
	case IN_MATH_INF: case IN_NP_INF: d = HUGE_VAL; break;
	case IN_MATH_NAN: case IN_NP_NAN: d = NAN; break;
	default: return lower_none(ty);
	}
	Const k = {.kind = PJ_V_FLOAT, .f = d};
	if (ty->kind != TY_SCALAR)
		ty = ty_scalar(SK_F64);
	return lower_const(L, &k, ty, sp);
}

static Value array_attr(Lower *L, Expr *e)
{
	const char *name = e->attr.name;
	Value a = lower_expr(L, e->attr.obj);
	Type *t = a.ty, *i64 = ty_scalar(SK_I64);
	int isz = ty_elem_size(t->elem);
	if (strcmp(name, "shape") == 0 || strcmp(name, "strides") == 0) {
		int strides = name[1] == 't';
		Value v = {.ty = ty_unituple(L->c, i64, t->ndim), .n = t->ndim};
		v.elts = arena_alloc(L->c->arena, sizeof(Value) * (size_t)(t->ndim + 1));
		for (int i = 0; i < t->ndim; i++)
			v.elts[i] = lower_scalar(i64, strides ? lower_byte_stride(L, a, i) : a.shape[i]);
		return lower_convert(L, v, e->ty, e->span);
	}
	if (strcmp(name, "size") == 0)
		return lower_convert(L, lower_scalar(i64, lower_array_size(L, a)), e->ty, e->span);
	if (strcmp(name, "ndim") == 0)
		return lower_convert(L, lower_scalar(i64, ir_con_int(L->f, KL, t->ndim)), e->ty, e->span);
	if (strcmp(name, "itemsize") == 0)
		return lower_convert(L, lower_scalar(i64, ir_con_int(L->f, KL, isz)), e->ty, e->span);
	if (strcmp(name, "nbytes") == 0) {
		Ref n = lower_emit(L, O_MUL, KL, SK_I64, lower_array_size(L, a), ir_con_int(L->f, KL, isz),
		                   REF_NONE, 0);
		return lower_convert(L, lower_scalar(i64, n), e->ty, e->span);
	}
	if (e->ty->kind == TY_ARRAY)
		return lower_array_view_attr(L, e, a);   /* T, real, imag */
	if (lower_ncomp(e->ty) == 0)
		return lower_none(e->ty);
	lower_unsupported(L, e->attr.name_span, "this array attribute");
}

Value lower_attr(Lower *L, Expr *e)
{
	Expr *o = e->attr.obj;
	Type *ot = o->ty;
	const char *name = e->attr.name;
	if (!ot)
		ICE(L->c, "attribute of an untyped expression");
	if (ot->kind == TY_TUPLE && ot->name) {     /* a vector's .x .y .z .w */
		Value v = lower_expr(L, o);
		int k = name[0] == 'w' ? 3 : name[0] - 'x';
		if (k < 0 || k >= v.n)
			ICE(L->c, "vector attribute %s", name);
		return v.elts[k];
	}
	if (ot->kind == TY_SCALAR && ot->cls) {   /* an Enum member's .value: the same int */
		Value v = lower_expr(L, o);
		v.ty = e->ty;
		return v;
	}
	if (ot->kind == TY_TUPLE && ot->names && ty_field_index(ot, name) >= 0)   /* a namedtuple's field */
		return lower_expr(L, o).elts[ty_field_index(ot, name)];
	switch (ot->kind) {
	case TY_RECORD:
		return lower_record_attr(L, e);
	case TY_DIM3: {
		int k = name[0] - 'x';
		if (name[0] == 0 || name[1] != 0 || k < 0 || k > 2)
			err_at(L->c, e->attr.name_span, "use .x, .y or .z", "%s has no attribute %s",
			       intrin_name[ot->intrin], name);
		SReg base;
		switch (ot->intrin) {
		case IN_THREADIDX: base = SR_TID_X; break;
		case IN_BLOCKIDX: base = SR_CTAID_X; break;
		case IN_BLOCKDIM: base = SR_NTID_X; break;
		case IN_GRIDDIM: base = SR_NCTAID_X; break;
		default: ICE(L->c, "dim3 object %d", ot->intrin);
		}
		return lower_convert(L, lower_sreg(L, (SReg)(base + k)), e->ty, e->span);
	}
	case TY_MODULE: {
		int in = intrin_lookup(arena_printf(L->c->arena, "%s.%s", ot->name ? ot->name : "", name));
		if (in == IN_LANEID)
			return lower_convert(L, lower_sreg(L, SR_LANEID), e->ty, e->span);
		if (in == IN_WARPSIZE)
			return lower_convert(L, lower_sreg(L, SR_WARPSIZE), e->ty, e->span);
		if (e->ty->kind == TY_SCALAR)
			return math_const(L, in, e->ty, e->span);
		return lower_none(e->ty);
	}
	case TY_ARRAY:
		return array_attr(L, e);
	case TY_SCALAR: {
		Value v = lower_expr(L, o);
		int cx = scalar_info[ot->sk].is_complex;
		ScalarKind p = lower_part_sk(ot->sk);
		if (strcmp(name, "real") == 0)
			return lower_convert(L, lower_scalar(ty_scalar(p), v.r), e->ty, e->span);
		if (strcmp(name, "imag") == 0)
			return lower_convert(L, lower_scalar(ty_scalar(p), cx ? v.im : lower_con_int(L, p, 0)),
			                     e->ty, e->span);
		break;
	}
	default:
		if (lower_ncomp(e->ty) == 0)
			return lower_none(e->ty);
		break;
	}
	lower_unsupported(L, e->attr.name_span, "this attribute");
}

/*
 * sema_call.c - attributes and calls: module members, array and thread
 * object attributes, the intrinsics (builtins, cuda.*, math.*, numpy.*),
 * NumPy scalar constructors and calls of device functions (and, through
 * sema_ext.c, of overloaded functions, methods and attributes).
 *
 * What lowering finds after a call is typed:
 *   call.intrin   the IN_* called (a dtype called as a function, such as
 *                 numba.float32(x), is the matching IN_NP_* constructor)
 *   call.spec     the specialisation of a device function; its arguments
 *                 are then exactly its parameters, in order: keyword
 *                 arguments are moved into place and missing ones are
 *                 filled with E_NAME nodes named "<default NAME>" that
 *                 carry the default's type and constant.  Each argument
 *                 converts to spec->argtypes[i] (they differ only when the
 *                 function has a declared signature).
 *   shared/local arrays  args are [shape, dtype] (plus alignment when
 *                 given), keywords moved into place; shape has a cval.
 *   atomics       args as written; the value converts to the element type.
 * An attribute of a module that is a run-time value (cuda.laneid,
 * cuda.warpsize: int32) has no cval; its intrinsic is
 * intrin_lookup("<module>.<attr>").  cuda.threadIdx and friends are TY_DIM3
 * and their .x/.y/.z are int32.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sema.h"

static Type *set(Expr *e, Type *t, Const *cv)
{
	e->ty = t;
	e->cval = cv;
	return t;
}

static const char *tstr(Scope *sc, const Type *t)
{
	return ty_str_of(sc->c, t);
}

static int is_bool(const Type *t)
{
	return t && t->kind == TY_SCALAR && t->sk == SK_BOOL;
}

static int is_intlike(const Type *t)
{
	return ty_is_int(t) || is_bool(t);
}

static int is_unsigned(const Type *t)
{
	return ty_is_int(t) && !scalar_info[t->sk].is_signed;
}

/* float16 values compute as float32 */
static Type *computed(Type *t)
{
	return t && t->kind == TY_SCALAR && t->sk == SK_F16 ? ty_scalar(SK_F32) : t;
}

/* "sqrt, fabs, floor, ..." : the members of a module in the intrinsics table */
static const char *members_of(Ctx *c, const char *module)
{
	size_t n = strlen(module);
	const char *s = "";
	for (int i = IN_NONE + 1; i < NINTRIN; i++) {
		const char *q = intrin_name[i];
		if ((i > IN_VEC_BEGIN && i < IN_VEC_END) || i == IN_CG_GRID || i == IN_CG_GRID_SYNC)
			continue;   /* named once, below; a grid group's names are no module's members */
		if (strncmp(q, module, n) == 0 && q[n] == '.' && strncmp(q + n + 1, "fp16.", 5) != 0 &&
		    strncmp(q + n + 1, "bf16.", 5) != 0 && strncmp(q + n + 1, "fp8.", 4) != 0 &&
		    strncmp(q + n + 1, "libdevice.", 10) != 0)
			s = arena_printf(c->arena, "%s%s%s", s, *s ? ", " : "", q + n + 1);
	}
	return s;
}

/* ------------------------------------------------------------ attributes */

static Type *module_attr(Scope *sc, Expr *e, Type *mt)
{
	Ctx *c = sc->c;
	const char *name = e->attr.name;
	if (mt->name[0] == '@') {   /* an Enum class: its member */
		Const *m = sema_namespace_member(c, sc->func, mt->name + 1, name, NULL,
		                                 e->attr.name_span.src ? e->attr.name_span : e->span);
		return set(e, m->ty, m);
	}
	Const *cv = resolve_member(c, mt->name, name);
	const PjFunc *ovl = !cv || !cv->ty
	                  ? sema_resolve_member_overload(c, sc->func, 'q', arena_printf(c->arena, "%s.%s", mt->name, name))
	                  : NULL;
	if (ovl) {                 /* np.clip, overloaded by the user where kernels have none */
		cv = new_const(c, PJ_V_FUNC, ty_func(c, ovl));
		cv->s = ovl->name;
	}
	if (!cv || !cv->ty) {
		const char *list = strcmp(mt->name, "cuda.libdevice") == 0 ? "" : members_of(c, mt->name);
		const char *hint = *list ? arena_printf(c->arena, "kernels can use %s.%s", mt->name,
		                                        strcmp(mt->name, "cuda") == 0
		                                            ? arena_printf(c->arena, "{%s}, the vector types (cuda.float32x3, cuda.float3, ...) and the cuda.shared, cuda.local, cuda.atomic, cuda.fp16, cuda.bf16 and cuda.libdevice functions", list)
		                                            : arena_printf(c->arena, "{%s}", list))
		                  : strcmp(mt->name, "cuda.libdevice") == 0
		                         ? "kernels can use the functions that numba.cuda.libdevice declares (docs/libdevice.md)"
		                         : "kernels can use the modules math, numpy and cuda";
		Span sp = e->attr.name_span.src ? e->attr.name_span : e->span;
		err_at(c, sp, hint, "module '%s' has no attribute '%s' that kernels can use", mt->name, name);
	}
	return set(e, cv->ty, cv);
}

Type *type_attr(Scope *sc, Expr *e)
{
	Ctx *c = sc->c;
	Type *ot = type_expr(sc, e->attr.obj);
	const char *name = e->attr.name;
	Span nsp = e->attr.name_span.src ? e->attr.name_span : e->span;
	if (!ot)
		return set(e, NULL, NULL);
	if (ot->kind == TY_TUPLE && ot->name)
		return type_vector_attr(sc, e, ot);
	if (ot->kind == TY_SCALAR && ot->cls && strcmp(name, "value") == 0) {   /* an Enum member's int */
		Const *v = NULL;
		if (e->attr.obj->cval && e->attr.obj->cval->kind == PJ_V_INT) {
			v = new_const(c, PJ_V_INT, ty_scalar(SK_I64));
			v->i = e->attr.obj->cval->i;
		}
		return set(e, ty_scalar(SK_I64), v);
	}
	if (ot->kind == TY_TUPLE && ot->names) {
		int k = ty_field_index(ot, name);
		if (k >= 0)
			return set(e, ot->elts[k], NULL);
	}
	switch (ot->kind) {
	case TY_MODULE:
		return module_attr(sc, e, ot);
	case TY_ARRAY:
		if (strcmp(name, "shape") == 0)
			return set(e, ty_unituple(c, ty_scalar(SK_I64), ot->ndim), NULL);
		if (strcmp(name, "size") == 0)
			return set(e, ty_scalar(SK_I64), NULL);
		if (strcmp(name, "ndim") == 0 || strcmp(name, "itemsize") == 0) {
			Const *v = new_const(c, PJ_V_INT, ty_scalar(SK_I64));
			v->i = name[0] == 'n' ? ot->ndim : ty_elem_size(ot->elem);
			return set(e, v->ty, v);
		}
		if (strcmp(name, "dtype") == 0)
			return set(e, ot->elem->kind == TY_RECORD ? ty_dtype_record(c, ot->elem) : ty_dtype(c, ot->elem->sk),
			           NULL);
		if (strcmp(name, "copy") == 0)
			return set(e, ty_intrin(c, IN_ARRAY_COPY), NULL);   /* a.copy(): sema_cpu.c */
		if (sema_attr_overload(sc, e, ot))
			return type_call(sc, e);
		return sema_array_attr(sc, e, ot, nsp);   /* strides, nbytes, T, real, imag, views */
	case TY_RECORD:
		return sema_record_attr(sc, e, ot);
	case TY_DIM3:
		sema_cpu_refuse(sc, e, ot->intrin);
		if (ot->intrin == IN_CG_GRID) {
			if (strcmp(name, "sync") == 0)
				return set(e, ty_intrin(c, IN_CG_GRID_SYNC), NULL);
			err_at(c, nsp, "a grid group has the method sync()", "a grid group has no attribute '%s'", name);
		}
		if ((name[0] == 'x' || name[0] == 'y' || name[0] == 'z') && !name[1])
			return set(e, ty_scalar(SK_I32), NULL);
		err_at(c, nsp, "use .x, .y or .z", "%s has no attribute '%s'", intrin_name[ot->intrin], name);
	case TY_SCALAR:
		if (ty_is_complex(ot) && (strcmp(name, "real") == 0 || strcmp(name, "imag") == 0)) {
			Type *t = ty_scalar(ot->sk == SK_C64 ? SK_F32 : SK_F64);
			Const *v = NULL, *x = e->attr.obj->cval;
			if (x && x->kind == PJ_V_COMPLEX) {
				v = new_const(c, PJ_V_FLOAT, t);
				v->f = name[0] == 'r' ? x->f : x->im;
			}
			return set(e, t, v);
		}
		if (sema_attr_overload(sc, e, ot))
			return type_call(sc, e);
		err_at(c, nsp, ty_is_complex(ot) ? "complex numbers have .real and .imag" : "numbers have no attributes in kernels",
		       "%s has no attribute '%s' that kernels can use", tstr(sc, ot), name);
	default:
		if (sema_attr_overload(sc, e, ot))
			return type_call(sc, e);
		err_at(c, nsp, "kernels use attributes of arrays (shape, size, ndim), of cuda.threadIdx and "
		               "friends (x, y, z) and of the modules math, numpy and cuda",
		       "%s has no attribute '%s' that kernels can use", tstr(sc, ot), name);
	}
}

/* ------------------------------------------------------------- arguments */

static int type_args(Scope *sc, Expr *e)
{
	int known = 1;
	for (int i = 0; i < e->call.nargs; i++) {
		Expr *a = e->call.args[i];
		if (!type_expr(sc, a->kind == E_STARRED ? a->bin.a : a))
			known = 0;
	}
	for (int i = 0; i < e->call.nkw; i++)
		if (!type_expr(sc, e->call.kwargs[i]))
			known = 0;
	return known;
}

int sema_type_args(Scope *sc, Expr *e)
{
	return type_args(sc, e);
}

static const char *fname(int in)
{
	return intrin_name[in];
}

/* How a call of intrinsic `in` is written, for hints. */
static const char *usage(Ctx *c, int in)
{
	switch (in) {
	case IN_RANGE: return "range(stop), range(start, stop) or range(start, stop, step)";
	case IN_LEN: return "len(array) or len(tuple)";
	case IN_MIN: return "min(a, b, ...) or min(tuple)";
	case IN_MAX: return "max(a, b, ...) or max(tuple)";
	case IN_COMPLEX: return "complex(real) or complex(real, imag)";
	case IN_ROUND: return "round(x) or round(x, ndigits)";
	case IN_DIVMOD: return "divmod(a, b)";
	case IN_POW: return "pow(base, exponent)";
	case IN_ISINSTANCE: return "isinstance(x, int), isinstance(x, numpy.float32) or isinstance(x, (int, float))";
	case IN_TUPLE: return "tuple() or tuple(a_tuple)";
	case IN_GRID: return "cuda.grid(1), cuda.grid(2) or cuda.grid(3)";
	case IN_GRIDSIZE: return "cuda.gridsize(1), cuda.gridsize(2) or cuda.gridsize(3)";
	case IN_SYNCTHREADS: return "cuda.syncthreads()";
	case IN_CG_THIS_GRID: return "cuda.cg.this_grid()";
	case IN_CG_GRID_SYNC: return "g.sync(), g = cuda.cg.this_grid()";
	case IN_SHARED_ARRAY: return "cuda.shared.array(shape, dtype)";
	case IN_LOCAL_ARRAY: return "cuda.local.array(shape, dtype)";
	case IN_ATOMIC_CAS: return "cuda.atomic.cas(array, index, old, value)";
	case IN_ATOMIC_CAS2: return "cuda.atomic.compare_and_swap(array, old, value)";
	case IN_PRINT: return "print(a, b, ...)";
	}
	if (in >= IN_ATOMIC_ADD && in <= IN_ATOMIC_NANMIN)
		return arena_printf(c->arena, "%s(array, index, value)", intrin_name[in]);
	return arena_printf(c->arena, "%s(x)", intrin_name[in]);
}

static const char *call_hint(Scope *sc, int in)
{
	return arena_printf(sc->c->arena, "call it as %s", usage(sc->c, in));
}

static void no_keywords(Scope *sc, Expr *e, int in)
{
	if (e->call.nkw)
		err_at(sc->c, e->call.kwargs[0]->span, "pass the arguments by position",
		       "%s() does not take keyword arguments in kernels", fname(in));
}

static void arity(Scope *sc, Expr *e, int in, int lo, int hi)
{
	int n = e->call.nargs;
	no_keywords(sc, e, in);
	if (n >= lo && n <= hi)
		return;
	if (lo == hi)
		err_at(sc->c, e->span, call_hint(sc, in), "%s() takes %d argument%s (%d given)", fname(in), lo,
		       lo == 1 ? "" : "s", n);
	err_at(sc->c, e->span, call_hint(sc, in), "%s() takes %d to %d arguments (%d given)", fname(in), lo, hi, n);
}

static Type *number_arg(Scope *sc, Expr *a, int in, int complex_ok)
{
	Type *t = a->ty;
	if (!ty_is_number(t) || (!complex_ok && ty_is_complex(t)))
		err_at(sc->c, a->span, complex_ok ? "pass a number" : "pass an integer or float",
		       "%s() does not accept a %s argument", fname(in), tstr(sc, t));
	return t;
}

/* Does NumPy take string s as a dtype (one kernels cannot have, or one in
 * another spelling: '<f4', 'U8', 'object', 'datetime64[ns]')?  Close to
 * numpy.dtype(s) for the names people write; a string it does not take
 * is what Numba calls an invalid NumPy dtype. */
static int numpy_dtype_name(const char *s)
{
	static const char *const other[] = {
		"O", "object", "str", "bytes", "void", "U", "S", "a", "V", "M", "m", "M8", "m8", "datetime64",
		"timedelta64", "g", "G", "longdouble", "clongdouble", "float128", "complex256", "longlong", "ulonglong",
		"intc", "uintc", "short", "ushort", "byte", "ubyte", "single", "double", "half", "csingle", "cdouble",
		"b1", "?", "bool", "f16", "c32",
	};
	if (*s == '<' || *s == '>' || *s == '=' || *s == '|')
		s++;
	if ((int)ty_sk_from_name(s) >= 0)
		return 1;
	size_t n = strlen(s);
	const char *unit = strchr(s, '[');
	if (unit && s[n - 1] == ']')
		n = (size_t)(unit - s);   /* datetime64[ns], M8[s] */
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		if (strlen(other[i]) == n && strncmp(s, other[i], n) == 0)
			return 1;
	/* strings and raw bytes of a length: 'U8', 'S3', 'V16' */
	return n > 1 && !unit && strchr("USaV", s[0]) && strspn(s + 1, "0123456789") == n - 1;
}

/* The type whose values are instances of the class that a type names:
 * int, float, bool and complex are int64, float64, bool and complex128
 * (Numba's as_numba_type), a NumPy scalar type or a Numba type is its
 * own; `tuple` stands for itself (any tuple is one); NULL for anything
 * else. */
static Type *class_instance_type(const Type *t)
{
	if (t->kind == TY_DTYPE)
		return t->elem && t->elem->kind == TY_RECORD ? t->elem : ty_scalar(t->sk);
	if (t->kind != TY_INTRIN)
		return NULL;
	if (t->intrin == IN_TUPLE)
		return (Type *)t;
	int sk = intrin_dtype(t->intrin);
	if (sk >= 0)
		return ty_scalar((ScalarKind)sk);
	switch (t->intrin) {
	case IN_INT: return ty_scalar(SK_I64);
	case IN_FLOAT: return ty_scalar(SK_F64);
	case IN_BOOL: return ty_scalar(SK_BOOL);
	case IN_COMPLEX: return ty_scalar(SK_C128);
	}
	return NULL;
}

/* The element type a dtype argument names: a scalar or a record. */
static Type *dtype_of(Scope *sc, Expr *a)
{
	Type *t = a->ty, *it = class_instance_type(t);
	if (it && it != t)
		return it;
	if (t->kind == TY_STR && a->cval && a->cval->s) {
		const char *s = a->cval->s;
		int sk = (int)ty_sk_from_name(s);
		if (strcmp(s, "float") == 0)
			sk = SK_F64;
		else if (strcmp(s, "int") == 0)
			sk = SK_I64;
		else if (strcmp(s, "complex") == 0)
			sk = SK_C128;
		if (sk >= 0)
			return ty_scalar((ScalarKind)sk);
	}
	if (t->kind == TY_STR && a->cval && a->cval->s && !numpy_dtype_name(a->cval->s))
		err_at(sc->c, a->span, "give a dtype such as numpy.float32, numba.int32 or the string 'float32'",
		       "Invalid NumPy dtype specified: '%.200s' is not a dtype NumPy knows", a->cval->s);
	err_at(sc->c, a->span, "give a dtype such as numpy.float32, numba.int32 or the string 'float32'",
	       "%s is not a dtype that arrays in kernels can have", t->kind == TY_STR ? "this string" : tstr(sc, t));
}

/* ------------------------------------------------------------ intrinsics */

static Type *type_range(Scope *sc, Expr *e)
{
	arity(sc, e, IN_RANGE, 1, 3);
	int u = 0;
	for (int i = 0; i < e->call.nargs; i++) {
		Type *t = e->call.args[i]->ty;
		if (!is_intlike(t))
			err_at(sc->c, e->call.args[i]->span,
			       ty_is_float(t) ? "convert it with int(...)" : "range() counts with integers",
			       "range() arguments must be integers, not %s", tstr(sc, t));
		if (t->sk == SK_U64)
			u = 1;
	}
	int64_t step;
	if (e->call.nargs == 3 && const_int_value(e->call.args[2], &step) && step == 0)
		err_at(sc->c, e->call.args[2]->span, "use a positive or negative step", "range() arg 3 must not be zero");
	return set(e, ty_range(sc->c, ty_scalar(u ? SK_U64 : SK_I64)), NULL);
}

static Type *type_len(Scope *sc, Expr *e)
{
	arity(sc, e, IN_LEN, 1, 1);
	Expr *a = e->call.args[0];
	Type *t = a->ty;
	Const *v;
	switch (t->kind) {
	case TY_ARRAY:
		return set(e, ty_scalar(SK_I64), NULL);
	case TY_TUPLE:
		v = new_const(sc->c, PJ_V_INT, ty_scalar(SK_I64));
		v->i = t->n;
		return set(e, v->ty, v);
	case TY_RANGE:
		return set(e, t->elem, NULL);
	case TY_STR:
		if (a->cval && a->cval->s) {
			v = new_const(sc->c, PJ_V_INT, ty_scalar(SK_I64));
			v->i = (int64_t)strlen(a->cval->s);
			return set(e, v->ty, v);
		}
		/* fall through */
	default:
		err_at(sc->c, a->span, "len() takes an array or a tuple", "len() of a %s is not supported", tstr(sc, t));
	}
}

static Type *type_minmax(Scope *sc, Expr *e, int in)
{
	no_keywords(sc, e, in);
	int n = e->call.nargs;
	if (n == 0)
		err_at(sc->c, e->span, call_hint(sc, in), "%s() takes at least 1 argument (0 given)", fname(in));
	Type *t = NULL;
	Const *best = NULL;
	int folding = 1;
	if (n == 1) {
		Expr *a = e->call.args[0];
		if (a->ty->kind != TY_TUPLE)
			err_at(sc->c, a->span, "pass two or more numbers, or one tuple of numbers",
			       "%s() of one %s is not supported", fname(in), tstr(sc, a->ty));
		if (a->ty->n == 0)
			err_at(sc->c, a->span, call_hint(sc, in), "%s() arg is an empty tuple", fname(in));
		for (int i = 0; i < a->ty->n; i++) {
			Type *x = a->ty->elts[i];
			if (!ty_is_number(x) || ty_is_complex(x))
				err_at(sc->c, a->span, "min() and max() compare integers and floats",
				       "%s() of a tuple holding %s is not supported", fname(in), tstr(sc, x));
			t = t ? ty_unify(sc->c, t, x) : x;
		}
		folding = 0;
	} else {
		for (int i = 0; i < n; i++) {
			Expr *a = e->call.args[i];
			Type *x = number_arg(sc, a, in, 0);
			t = t ? ty_unify(sc->c, t, x) : x;
		}
	}
	for (int i = 0; folding && i < n; i++) {
		Const *v = const_of_type(sc->c, e->call.args[i]->cval, t);
		if (!v || (v->kind == PJ_V_FLOAT && (isnan(v->f) || (v->f == 0 && best && signbit(v->f) != signbit(best->f))))) {
			best = NULL;   /* the target decides: NaNs and signed zeros (lower_intrin.c, minmax) */
			break;
		}
		if (!best) {
			best = v;
			continue;
		}
		int less = v->kind == PJ_V_FLOAT ? v->f < best->f
		         : is_unsigned(t) ? (uint64_t)v->i < (uint64_t)best->i : v->i < best->i;
		int more = v->kind == PJ_V_FLOAT ? v->f > best->f
		         : is_unsigned(t) ? (uint64_t)v->i > (uint64_t)best->i : v->i > best->i;
		if (in == IN_MIN ? less : more)
			best = v;
	}
	return set(e, t, best);
}

static Type *type_abs(Scope *sc, Expr *e, int in)
{
	arity(sc, e, in, 1, 1);
	Expr *a = e->call.args[0];
	Type *t = number_arg(sc, a, in, 1);
	Type *r = is_bool(t) ? ty_scalar(SK_I64)
	        : ty_is_complex(t) ? ty_scalar(t->sk == SK_C64 ? SK_F32 : SK_F64)
	        : t->sk == SK_BF16 ? ty_scalar(SK_F32) : t;     /* as Numba types abs of a bfloat16 */
	Const *v = NULL;
	if (a->cval && !ty_is_complex(t) && (v = const_of_type(sc->c, a->cval, r))) {
		if (v->kind == PJ_V_INT && !is_unsigned(r) && v->i < 0) {
			v->i = (int64_t)(0 - (uint64_t)v->i);
			v = const_of_type(sc->c, v, r);   /* abs(int8(-128)) wraps to -128 */
		} else if (v->kind == PJ_V_FLOAT)
			v->f = fabs(v->f);
	}
	return set(e, r, v);
}

/* float("nan"), float("-inf"), float("1.5"): the constant, as Python
 * reads the string (spaces around it allowed; not hexadecimal). */
static Const *float_of_str(Scope *sc, Expr *a)
{
	const char *s = a->cval->s, *p = s;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	char *end;
	double v = strtod(p, &end);
	const char *q = p + (*p == '+' || *p == '-');
	int hex = q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
	while (end != p && (*end == ' ' || *end == '\t' || *end == '\n'))
		end++;
	if (end == p || *end || hex)
		err_at(sc->c, a->span, "float() reads a decimal number, inf or nan",
		       "could not convert string to float: '%s'", s);
	Const *r = new_const(sc->c, PJ_V_FLOAT, ty_scalar(SK_F64));
	r->f = v;
	return r;
}

static Type *type_conversion(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	if (in == IN_BOOL || in == IN_FLOAT || in == IN_INT || in == IN_COMPLEX ||
	    intrin_dtype(in) >= 0) {
		no_keywords(sc, e, in);
	}
	int n = e->call.nargs;
	int sk = intrin_dtype(in);
	Type *r;
	if (n == 0 && in != IN_COMPLEX) {
		r = in == IN_BOOL ? ty_scalar(SK_BOOL) : in == IN_INT ? ty_scalar(SK_I64)
		  : in == IN_FLOAT ? ty_scalar(SK_F64) : ty_scalar((ScalarKind)sk);
		Const *zero = new_const(c, PJ_V_INT, ty_scalar(SK_I64));
		return set(e, r, const_of_type(c, zero, r));
	}
	if (in == IN_COMPLEX) {
		arity(sc, e, in, 1, 2);
		int all32 = 1;
		for (int i = 0; i < n; i++) {
			Type *t = number_arg(sc, e->call.args[i], in, 1);
			if (t->sk != SK_F32)
				all32 = 0;
		}
		r = ty_scalar(all32 ? SK_C64 : SK_C128);
		Const *v = NULL;
		if (n == 1)
			v = const_of_type(c, e->call.args[0]->cval, r);
		else if (e->call.args[0]->cval && e->call.args[1]->cval && !ty_is_complex(e->call.args[0]->ty) &&
		         !ty_is_complex(e->call.args[1]->ty)) {
			Const *re = const_of_type(c, e->call.args[0]->cval, ty_scalar(SK_F64));
			Const *im = const_of_type(c, e->call.args[1]->cval, ty_scalar(SK_F64));
			if (re && im) {
				v = new_const(c, PJ_V_COMPLEX, r);
				v->f = all32 ? (float)re->f : re->f;
				v->im = all32 ? (float)im->f : im->f;
			}
		}
		return set(e, r, v);
	}
	arity(sc, e, in, 1, 1);
	Expr *a = e->call.args[0];
	Type *t = a->ty;
	if ((t->kind == TY_SCALAR && SK_IS_FP8(t->sk)) || (sk >= 0 && SK_IS_FP8(sk)))
		return set(e, type_fp8_conversion(sc, e, in), NULL);
	if (in == IN_BOOL) {
		if (!ty_is_number(t) && t->kind != TY_NONE)
			err_at(c, a->span, "bool() takes a number", "bool() of a %s is not supported", tstr(sc, t));
		int truth;
		Const *v = NULL;
		if (const_truth(a->cval, &truth)) {
			v = new_const(c, PJ_V_BOOL, ty_scalar(SK_BOOL));
			v->i = truth;
		}
		return set(e, ty_scalar(SK_BOOL), v);
	}
	if (in == IN_FLOAT && t->kind == TY_STR && a->cval && a->cval->kind == PJ_V_STR)
		return set(e, ty_scalar(SK_F64), float_of_str(sc, a));
	if (!ty_is_number(t))
		err_at(c, a->span, "convert numbers", "%s() of a %s is not supported", fname(in), tstr(sc, t));
	if (ty_is_complex(t) && !(sk == SK_C64 || sk == SK_C128))
		err_at(c, a->span, "take the real part with x.real, or the magnitude with abs(x)",
		       "%s() cannot convert a complex number", fname(in));
	if (in == IN_INT)
		r = ty_is_int(t) ? t : ty_scalar(SK_I64);
	else if (in == IN_FLOAT)
		r = ty_is_float(t) ? t : ty_scalar(SK_F64);   /* float(float16) stays, as in Numba */
	else
		r = ty_scalar((ScalarKind)sk);
	if (sk == SK_BF16)
		sema_check_bf16_target(sc, e->span);
	return set(e, r, const_of_type(c, a->cval, r));
}

static Type *type_round(Scope *sc, Expr *e)
{
	arity(sc, e, IN_ROUND, 1, 2);
	Expr *a = e->call.args[0];
	Type *t = number_arg(sc, a, IN_ROUND, 0);
	if (e->call.nargs == 2) {
		Expr *nd = e->call.args[1];
		if (!is_intlike(nd->ty))
			err_at(sc->c, nd->span, "the number of digits is an integer",
			       "round() ndigits must be an integer, not %s", tstr(sc, nd->ty));
		return set(e, ty_is_float(t) ? computed(t) : ty_scalar(SK_F64), NULL);
	}
	Type *r = ty_scalar(SK_I64);
	Const *v = NULL;
	if (a->cval) {
		Const *x = const_of_type(sc->c, a->cval, ty_scalar(SK_F64));
		if (x && ty_is_float(t)) {
			Const *y = new_const(sc->c, PJ_V_FLOAT, ty_scalar(SK_F64));
			y->f = nearbyint(x->f);
			v = const_of_type(sc->c, y, r);
		} else if (is_intlike(t)) {
			v = const_of_type(sc->c, a->cval, r);
		}
	}
	return set(e, r, v);
}

static void check_printable(Scope *sc, Expr *a, Type *t)
{
	if (ty_is_number(t) || t->kind == TY_STR || t->kind == TY_NONE || t->kind == TY_DIM3)
		return;
	if (t->kind == TY_TUPLE) {
		for (int i = 0; i < t->n; i++)
			check_printable(sc, a, t->elts[i]);
		return;
	}
	err_at(sc->c, a->span, "print() in kernels prints numbers, strings and tuples of them",
	       "print() of a %s is not supported in kernels", tstr(sc, t));
}

static Type *type_print(Scope *sc, Expr *e)
{
	if (e->call.nkw)
		err_at(sc->c, e->call.kwargs[0]->span, "print the values with spaces between them",
		       "print() keyword arguments (sep, end, file) are not supported in kernels");
	for (int i = 0; i < e->call.nargs; i++)
		check_printable(sc, e->call.args[i], e->call.args[i]->ty);
	return set(e, ty_none(), NULL);
}

/* isinstance(x, cls) or isinstance(x, (cls, ...)): a constant, true when
 * x's type is the one a class names, as Numba decides it when it types
 * the kernel (isinstance(int32 value, int) is False: int is int64). */
static Type *type_isinstance(Scope *sc, Expr *e)
{
	arity(sc, e, IN_ISINSTANCE, 2, 2);
	Expr *x = e->call.args[0], *cls = e->call.args[1];
	Type *vt = x->ty;
	if (vt->kind != TY_SCALAR && vt->kind != TY_ARRAY && vt->kind != TY_TUPLE && vt->kind != TY_NONE &&
	    vt->kind != TY_RECORD)
		err_at(sc->c, x->span, "isinstance() tells numbers, arrays, records and tuples apart",
		       "isinstance() does not support variables of type %s", tstr(sc, vt));
	Type *one = cls->ty;
	int n = one->kind == TY_TUPLE ? one->n : 1, found = 0;
	for (int i = 0; i < n; i++) {
		Type *ct = one->kind == TY_TUPLE ? one->elts[i] : one;
		Type *it = class_instance_type(ct);
		if (!it)
			err_at(sc->c, cls->span, "give a class such as int, float, bool, complex, numpy.float32 or a numba type",
			       "isinstance() takes a number type or a tuple of them as its second argument, not %s",
			       tstr(sc, ct));
		if (it == ct ? vt->kind == TY_TUPLE : ty_equal(vt, it))
			found = 1;
	}
	Const *v = new_const(sc->c, PJ_V_BOOL, ty_scalar(SK_BOOL));
	v->i = found;
	return set(e, ty_scalar(SK_BOOL), v);
}

/* tuple() is the empty tuple and tuple(t) of a tuple is t, as in Numba,
 * which takes no other iterable there. */
static Type *type_tuple_call(Scope *sc, Expr *e)
{
	arity(sc, e, IN_TUPLE, 0, 1);
	if (e->call.nargs == 0) {
		Const *v = new_const(sc->c, PJ_V_TUPLE, ty_tuple(sc->c, 0, NULL));
		return set(e, v->ty, v);
	}
	Expr *a = e->call.args[0];
	if (a->ty->kind != TY_TUPLE)
		err_at(sc->c, a->span, "tuple() copies a tuple; build one with (a, b, ...)",
		       "tuple() of a %s is not supported in kernels", tstr(sc, a->ty));
	return set(e, a->ty, a->cval);
}

static Type *type_divmod(Scope *sc, Expr *e)
{
	arity(sc, e, IN_DIVMOD, 2, 2);
	Type *a = number_arg(sc, e->call.args[0], IN_DIVMOD, 0);
	Type *b = number_arg(sc, e->call.args[1], IN_DIVMOD, 0);
	Type *t;
	if (is_intlike(a) && is_intlike(b)) {
		int ua = is_unsigned(a), ub = is_unsigned(b);
		if (ua && ub)
			t = ty_scalar(SK_U64);
		else if ((ua && a->sk == SK_U64) || (ub && b->sk == SK_U64))
			t = ty_scalar(SK_F64);
		else
			t = ty_scalar(SK_I64);
	} else {
		t = ty_promote(a, b);
	}
	Type *r = ty_unituple(sc->c, t, 2);
	Expr *x = e->call.args[0], *y = e->call.args[1];
	Const *q = NULL, *m = NULL, *v = NULL;
	if (x->cval && y->cval) {
		Const *cx = const_of_type(sc->c, x->cval, t), *cy = const_of_type(sc->c, y->cval, t);
		if (cx && cy && ty_is_int(t) && cy->i != 0 && !(cx->i == INT64_MIN && cy->i == -1)) {
			int64_t qq, mm;
			if (is_unsigned(t)) {
				qq = (int64_t)((uint64_t)cx->i / (uint64_t)cy->i);
				mm = (int64_t)((uint64_t)cx->i % (uint64_t)cy->i);
			} else {
				qq = cx->i / cy->i;
				mm = cx->i % cy->i;
				if (mm != 0 && ((mm < 0) != (cy->i < 0))) {
					qq--;
					mm += cy->i;
				}
			}
			q = new_const(sc->c, PJ_V_INT, t);
			q->i = qq;
			m = new_const(sc->c, PJ_V_INT, t);
			m->i = mm;
		}
	}
	if (q && m) {
		v = new_const(sc->c, PJ_V_TUPLE, r);
		v->n = 2;
		v->elts = arena_alloc(sc->c->arena, 2 * sizeof(Const));
		v->elts[0] = *q;
		v->elts[1] = *m;
	}
	return set(e, r, v);
}

static Type *type_pow(Scope *sc, Expr *e)
{
	no_keywords(sc, e, IN_POW);
	if (e->call.nargs == 3)
		err_at(sc->c, e->span, "compute (a ** b) % m instead", "pow() with a modulus is not supported in kernels");
	arity(sc, e, IN_POW, 2, 2);
	Type *a = e->call.args[0]->ty, *b = e->call.args[1]->ty;
	Type *t = sema_binop_type(sc->c, OP_POW, a, b, NULL);
	if (!t)
		err_at(sc->c, e->span, "pow() works on numbers", "unsupported operand types for pow(): %s and %s",
		       tstr(sc, a), tstr(sc, b));
	return set(e, t, NULL);
}

static Type *type_grid(Scope *sc, Expr *e, int in)
{
	arity(sc, e, in, 1, 1);
	Expr *a = e->call.args[0];
	int64_t n;
	if (!const_int_value(a, &n) || n < 1 || n > 3) {
		if (!a->cval && !sc->final)
			return set(e, NULL, NULL);
		if (!a->cval)
			err_at(sc->c, a->span, "cuda.grid(1) gives an int; cuda.grid(2) and cuda.grid(3) give tuples: write "
			                       "the number itself, or a global constant",
			       "%s() takes a constant 1, 2 or 3, not a variable (RequireLiteralValue: the number of "
			       "dimensions must be known when the kernel is compiled)", fname(in));
		err_at(sc->c, a->span, "cuda.grid(1) gives an int; cuda.grid(2) and cuda.grid(3) give tuples",
		       "%s() takes a constant 1, 2 or 3", fname(in));
	}
	Type *i64 = ty_scalar(SK_I64);
	return set(e, n == 1 ? i64 : ty_unituple(sc->c, i64, (int)n), NULL);
}

static const char *keywords_hint(Scope *sc, int in, const char *const *names, int n)
{
	const char *s = "";
	for (int i = 0; i < n; i++)
		s = arena_printf(sc->c->arena, "%s%s%s", s, i ? ", " : "", names[i]);
	return arena_printf(sc->c->arena, "the keyword arguments of %s() are %s", fname(in), s);
}

/* Moves the keyword arguments of a call into positional places. */
static void place_keywords(Scope *sc, Expr *e, int in, const char *const *names, int nnames, int required)
{
	Expr **args = arena_alloc(sc->c->arena, sizeof(Expr *) * (size_t)nnames);
	int n = e->call.nargs;
	if (n > nnames)
		err_at(sc->c, e->span, call_hint(sc, in), "%s() takes at most %d arguments (%d given)", fname(in), nnames, n);
	for (int i = 0; i < n; i++)
		args[i] = e->call.args[i];
	for (int k = 0; k < e->call.nkw; k++) {
		int j = -1;
		for (int i = 0; i < nnames; i++)
			if (strcmp(names[i], e->call.kwnames[k]) == 0)
				j = i;
		if (j < 0)
			err_at(sc->c, e->call.kwargs[k]->span, keywords_hint(sc, in, names, nnames),
			       "%s() got an unexpected keyword argument '%s'", fname(in), e->call.kwnames[k]);
		if (args[j])
			err_at(sc->c, e->call.kwargs[k]->span, call_hint(sc, in),
			       "%s() got multiple values for argument '%s'", fname(in), names[j]);
		args[j] = e->call.kwargs[k];
	}
	int last = 0;
	for (int i = 0; i < nnames; i++) {
		if (!args[i] && i < required)
			err_at(sc->c, e->span, call_hint(sc, in), "%s() missing required argument '%s'", fname(in), names[i]);
		if (args[i])
			last = i + 1;
	}
	for (int i = 0; i < last; i++)
		if (!args[i])
			err_at(sc->c, e->span, call_hint(sc, in), "%s() missing argument '%s'", fname(in), names[i]);
	e->call.args = args;
	e->call.nargs = last;
	e->call.nkw = 0;
}

static Type *type_static_array(Scope *sc, Expr *e, int in)
{
	static const char *const names[] = {"shape", "dtype", "alignment"};
	Ctx *c = sc->c;
	int shared = in == IN_SHARED_ARRAY;
	place_keywords(sc, e, in, names, 3, 2);
	Expr *shape = e->call.args[0];
	Type *elem = dtype_of(sc, e->call.args[1]);
	if (elem->kind == TY_SCALAR && SK_IS_FP8(elem->sk))
		err_at(c, e->call.args[1]->span, "keep the storage bits in a uint8 array (cvt_float_to_fp8 makes "
		                                 "them) or the values in a float32 array",
		       "arrays of %s are not supported", scalar_info[elem->sk].name);
	if (elem->kind == TY_SCALAR && elem->sk == SK_BF16)
		err_at(c, e->call.args[1]->span, "keep bfloat16 values in float32 arrays (float32(x) converts exactly) "
		                                 "and make bfloat16s from them",
		       "arrays of bfloat16 are not supported yet");
	if (e->call.nargs == 3) {
		/* Numba's rules and words: None is no alignment; an int must be a
		 * power of two and a multiple of a pointer's size (ValueError);
		 * anything else must have been a constant int */
		Expr *a = e->call.args[2];
		const char *hint = "give a constant power of two that is a multiple of 8, such as 16, or None";
		int64_t al;
		if (!a->cval && !sc->final)
			return set(e, NULL, NULL);
		if (a->cval && a->cval->kind == PJ_V_NONE)
			e->call.nargs = 2;
		else if (!ty_is_int(a->ty) || !const_int_value(a, &al))
			err_at(c, a->span, hint, "RequireLiteralValue: alignment must be a constant integer, not %s",
			       a->cval && a->cval->kind == PJ_V_STR ? "a string" : a->ty ? tstr(sc, a->ty) : "a value known at run time");
		else if (al <= 0)
			err_value_at(c, a->span, hint, "Alignment must be positive, not %lld", (long long)al);
		else if (al & (al - 1))
			err_value_at(c, a->span, hint, "Alignment must be a power of 2, not %lld", (long long)al);
		else if (al % 8)
			err_value_at(c, a->span, hint, "Alignment must be a multiple of 8 (a pointer's size), not %lld",
			             (long long)al);
		else if (al > 4096)
			err_at(c, a->span, "give an alignment of at most 4096 bytes",
			       "an alignment of %lld bytes is more than ptxjit supports", (long long)al);
	}
	const char *what = shared ? "shared" : "local";
	const char *shape_hint = "use a literal, a global constant, or a local variable assigned once with a constant; "
	                         "for a shared array sized at launch use cuda.shared.array(0, dtype) and pass the "
	                         "size in bytes as the 4th launch argument";
	Const *cv = shape->cval;
	int ndim;
	if (!cv || (cv->kind != PJ_V_INT && cv->kind != PJ_V_TUPLE)) {
		if (!cv && !sc->final)
			return set(e, NULL, NULL);
		if (cv && cv->kind != PJ_V_UNKNOWN && shape->ty)
			err_at(c, shape->span, "give the shape as an int such as 128, or a tuple of ints such as (16, 16)",
			       "the shape of a %s array must be an int or a tuple of ints, not %s", what, tstr(sc, shape->ty));
		if (shape->kind == E_NAME && shape->name.var && shape->name.var->is_param && !sc->spec->is_kernel) {
			Loc at = span_loc(sc->call_at);
			err_at(c, shape->span, "pass an int or a tuple of ints, such as 32 or (16, 16), for it at every call",
			       "the shape of a %s array must be a constant: parameter '%s' of %s() is not one at the call at %s:%d",
			       what, shape->name.id, sc->func->name, at.file, at.line);
		}
		err_at(c, shape->span, shape_hint,
		       "the shape of a %s array must be a constant: an int or a tuple of ints known when the kernel is compiled",
		       what);
	}
	if (cv->kind == PJ_V_INT) {
		if (!ty_is_int(shape->ty))
			err_at(c, shape->span, shape_hint, "the shape of a %s array must be an int or a tuple of ints, not %s", what,
			       tstr(sc, shape->ty));
		ndim = 1;
		if (cv->i < 0 || (cv->i == 0 && !shared))
			err_at(c, shape->span, "shared and local arrays have a constant shape: an int such as 128, or a tuple such as (16, 16)", "the size of a %s array must be positive, not %lld", what,
			       (long long)cv->i);
		if (cv->i > (int64_t)1 << 40)
			err_at(c, shape->span, "use an array argument for large data", "a %s array of %lld elements is too large",
			       what, (long long)cv->i);
	} else {
		ndim = cv->n;
		if (ndim < 1 || ndim > 8)
			err_at(c, shape->span, "shared and local arrays have a constant shape: an int such as 128, or a tuple such as (16, 16)", "a %s array has 1 to 8 dimensions, not %d", what, ndim);
		double total = 1;
		for (int i = 0; i < ndim; i++) {
			Const *d = &cv->elts[i];
			if (d->kind != PJ_V_INT || !ty_is_int(d->ty))
				err_at(c, shape->span, shape_hint, "the shape of a %s array must be a tuple of ints", what);
			if (d->i <= 0)
				err_at(c, shape->span, "shared and local arrays have a constant shape: an int such as 128, or a tuple such as (16, 16)", "the dimensions of a %s array must be positive, not %lld", what,
				       (long long)d->i);
			total *= (double)d->i;
		}
		if (total > (double)((int64_t)1 << 40))
			err_at(c, shape->span, "use an array argument for large data", "a %s array of %.0f elements is too large",
			       what, total);
	}
	return set(e, ty_array_of(c, elem, ndim, LAYOUT_C, shared ? SP_SHARED : SP_LOCAL, 0), NULL);
}

static Type *type_atomic(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	int cas = in == IN_ATOMIC_CAS, cas2 = in == IN_ATOMIC_CAS2;
	int n = cas ? 4 : 3;
	arity(sc, e, in, n, n);
	Expr *ary = e->call.args[0];
	Type *at = ary->ty;
	if (at->kind != TY_ARRAY)
		err_at(c, ary->span, "the first argument of an atomic operation is an array",
		       "%s() needs an array, not %s", fname(in), tstr(sc, at));
	if (at->readonly)
		err_at(c, ary->span, "atomic operations need a writable array", "%s() cannot change a read-only array",
		       fname(in));
	if (at->space == SP_LOCAL)
		err_at(c, ary->span, "atomics work on global arrays (kernel arguments) and cuda.shared.array arrays; a "
		                     "cuda.local.array belongs to one thread, so update it with a plain assignment",
		       "%s() on a local array is not supported", fname(in));
	if (at->space == SP_CONST)
		err_at(c, ary->span, "atomics work on global arrays (kernel arguments) and cuda.shared.array arrays",
		       "%s() cannot change a constant array", fname(in));
	if (at->elem->kind == TY_RECORD)
		err_at(c, ary->span, "use an array of numbers, or a field of a record through its own array",
		       "%s() does not work on an array of records", fname(in));
	ScalarKind k = at->elem->sk;
	const char *ok;
	int good;
	switch (in) {
	case IN_ATOMIC_ADD: case IN_ATOMIC_SUB: case IN_ATOMIC_MAX: case IN_ATOMIC_MIN:
	case IN_ATOMIC_NANMAX: case IN_ATOMIC_NANMIN:
		ok = "int32, uint32, int64, uint64, float32 and float64";
		good = k == SK_I32 || k == SK_U32 || k == SK_I64 || k == SK_U64 || k == SK_F32 || k == SK_F64;
		break;
	case IN_ATOMIC_INC: case IN_ATOMIC_DEC:
		ok = "uint32 and uint64";
		good = k == SK_U32 || k == SK_U64;
		break;
	default:
		ok = "int32, uint32, int64 and uint64";
		good = k == SK_I32 || k == SK_U32 || k == SK_I64 || k == SK_U64;
		break;
	}
	if (!good)
		err_at(c, ary->span, arena_printf(c->arena, "%s() works on arrays of %s", fname(in), ok),
		       "%s() does not support arrays of %s", fname(in), scalar_info[k].name);
	int first_val = 2;
	if (cas2) {
		if (at->ndim != 1)
			err_at(c, ary->span, "pass a 1d array; the operation works on its first element",
			       "%s() needs a 1d array, not %s", fname(in), tstr(sc, at));
		first_val = 1;
	} else {
		subscript_array(sc, e, at, e->call.args[1], arena_printf(c->arena, "%s()", fname(in)));
	}
	for (int i = first_val; i < n; i++)
		storable(sc, at->elem, e->call.args[i], arena_printf(c->arena, "an array of %s", scalar_info[k].name));
	return set(e, at->elem, NULL);
}

static Type *type_math1(Scope *sc, Expr *e, int in);

/* math.floor, math.ceil and math.trunc: on the CPU target an int, as in
 * Python 3 and Numba's CPU target: int64 (uint64 for a uint64), the value
 * of an integer argument itself.  In kernels a float of the argument's
 * type (float64 for an int), as numba-cuda types them (libdevice's
 * floor); a float16 stays a float16 on both. */
static Type *type_math_to_int(Scope *sc, Expr *e, int in)
{
	arity(sc, e, in, 1, 1);
	Expr *a = e->call.args[0];
	Type *t = number_arg(sc, a, in, 0);
	if (!(sc->c->opt && sc->c->opt->target_cpu) || (t->kind == TY_SCALAR && t->sk == SK_F16))
		return type_math1(sc, e, in);
	Type *r = ty_scalar(t->kind == TY_SCALAR && t->sk == SK_U64 ? SK_U64 : SK_I64);
	Const *v = NULL;
	if (is_intlike(t))
		v = const_of_type(sc->c, a->cval, r);
	else if (a->cval && (a->cval->kind == PJ_V_FLOAT || a->cval->kind == PJ_V_INT || a->cval->kind == PJ_V_BOOL)) {
		double x = a->cval->kind == PJ_V_FLOAT ? a->cval->f : (double)a->cval->i;
		x = in == IN_MATH_FLOOR ? floor(x) : in == IN_MATH_CEIL ? ceil(x) : trunc(x);
		if (x >= -9223372036854775808.0 && x < 9223372036854775808.0) {   /* else OverflowError in Python */
			v = new_const(sc->c, PJ_V_INT, r);
			v->i = (int64_t)x;
		}
	}
	return set(e, r, v);
}

static Type *type_math1(Scope *sc, Expr *e, int in)
{
	arity(sc, e, in, 1, 1);
	Expr *a = e->call.args[0];
	Type *t = number_arg(sc, a, in, 0);
	Type *r = is_intlike(t) ? ty_scalar(SK_F64) : t;
	Const *v = ty_is_complex(r) ? NULL : const_of_type(sc->c, a->cval, r);
	if (v) {
		switch (in) {
		case IN_MATH_SQRT:
			v->f = sema_round_float(r->sk, sqrt(v->f));   /* rounding the double root is exact rounding */
			break;
		case IN_MATH_FABS: v->f = fabs(v->f); break;
		case IN_MATH_FLOOR: v->f = floor(v->f); break;
		case IN_MATH_CEIL: v->f = ceil(v->f); break;
		case IN_MATH_TRUNC: v->f = trunc(v->f); break;
		}
	}
	return set(e, r, v);
}

/* operator.add(a, b) and the module's other functions: the call becomes
 * the expression it stands for (a + b, -a, b in a, a[i], abs(a),
 * bool(a)), typed and lowered as that expression.  The in-place forms
 * (operator.iadd) compute the value, as they do on numbers. */
static Type *type_intrinsic(Scope *sc, Expr *e, int in);

static const struct { int form; AstOp op; } operator_funcs[] = {
#define O(X, name, form, op) {form, op},
	OPERATOR_FUNCS(O, _)
#undef O
};

static Type *type_operator(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	int form = operator_funcs[in - IN_OPF_BEGIN - 1].form;
	AstOp op = operator_funcs[in - IN_OPF_BEGIN - 1].op;
	no_keywords(sc, e, in);
	int n = form == OPF_UNARY || form == OPF_ABS || form == OPF_TRUTH ? 1 : 2;
	arity(sc, e, in, n, n);
	Expr **args = e->call.args;
	switch (form) {
	case OPF_BINARY:
		e->kind = E_BINARY;
		e->bin.op = op;
		e->bin.a = args[0];
		e->bin.b = args[1];
		break;
	case OPF_UNARY:
		e->kind = E_UNARY;
		e->bin.op = op;
		e->bin.a = args[0];
		e->bin.b = NULL;
		break;
	case OPF_COMPARE: case OPF_CONTAINS: {
		AstOp *ops = arena_alloc(c->arena, sizeof *ops);
		Expr **cargs = arena_alloc(c->arena, 2 * sizeof *cargs);
		int swap = form == OPF_CONTAINS;    /* contains(a, b) is b in a */
		*ops = op;
		cargs[0] = args[swap];
		cargs[1] = args[!swap];
		e->kind = E_COMPARE;
		e->cmp.n = 1;
		e->cmp.ops = ops;
		e->cmp.args = cargs;
		break;
	}
	case OPF_GETITEM:
		e->kind = E_SUBSCRIPT;
		e->sub.obj = args[0];
		e->sub.index = args[1];
		break;
	default:
		/* abs(a), bool(a): the builtin's call */
		return type_intrinsic(sc, e, form == OPF_ABS ? IN_ABS : IN_BOOL);
	}
	return type_expr(sc, e);
}

static Type *type_intrinsic(Scope *sc, Expr *e, int in)
{
	Ctx *c = sc->c;
	if (in > IN_OPF_BEGIN && in < IN_OPF_END)
		return type_operator(sc, e, in);
	e->call.intrin = in;
	sema_cpu_refuse(sc, e, in);
	if (!type_args(sc, e))
		return set(e, NULL, NULL);
	switch (in) {
	case IN_NP_EMPTY: case IN_NP_ZEROS: case IN_NP_ONES: case IN_NP_EMPTY_LIKE: case IN_NP_ZEROS_LIKE:
	case IN_NP_ONES_LIKE: case IN_NP_COPY: case IN_NP_ARANGE: case IN_ARRAY_COPY:
		return type_cpu_call(sc, e, in);
	case IN_ARRAY_VIEW: case IN_ARRAY_RESHAPE: case IN_ARRAY_TRANSPOSE:
		return sema_array_method(sc, e, in);
	case IN_CARRAY: case IN_FARRAY: case IN_FFI_FROM_BUFFER:
		return sema_pointer_call(sc, e, in);
	case IN_NP_SUM: case IN_NP_PROD: case IN_NP_AMIN: case IN_NP_AMAX: case IN_NP_ALL: case IN_NP_ANY:
	case IN_NP_MEAN: case IN_NP_NANSUM: case IN_NP_NANPROD: case IN_NP_NANMIN: case IN_NP_NANMAX:
	case IN_NP_NANMEAN: case IN_NP_VAR: case IN_NP_STD: case IN_NP_COUNT_NONZERO:
		return sema_reduce(sc, e, in);
	case IN_RANGE: return type_range(sc, e);
	case IN_LEN: return type_len(sc, e);
	case IN_MIN: case IN_MAX: return type_minmax(sc, e, in);
	case IN_ABS: return type_abs(sc, e, in);
	case IN_NP_ABS: case IN_NP_SQRT: case IN_NP_FLOOR: case IN_NP_CEIL:
		return type_ufunc(sc, e, in);
	case IN_INT: case IN_FLOAT: case IN_BOOL: case IN_COMPLEX:
		return type_conversion(sc, e, in);
	case IN_ROUND: return type_round(sc, e);
	case IN_PRINT: return type_print(sc, e);
	case IN_DIVMOD: return type_divmod(sc, e);
	case IN_POW: return type_pow(sc, e);
	case IN_ISINSTANCE: return type_isinstance(sc, e);
	case IN_TUPLE: return type_tuple_call(sc, e);
	case IN_GRID: case IN_GRIDSIZE: return type_grid(sc, e, in);
	case IN_SYNCTHREADS: case IN_CG_GRID_SYNC:
		arity(sc, e, in, 0, 0);
		return set(e, ty_none(), NULL);
	case IN_CG_THIS_GRID:
		arity(sc, e, in, 0, 0);
		return set(e, ty_dim3(sc->c, IN_CG_GRID), NULL);
	case IN_SHARED_ARRAY: case IN_LOCAL_ARRAY:
		return type_static_array(sc, e, in);
	case IN_CONST_ARRAY_LIKE:
		return sema_const_array_like(sc, e);
	case IN_ATOMIC_ADD: case IN_ATOMIC_SUB: case IN_ATOMIC_MAX: case IN_ATOMIC_MIN:
	case IN_ATOMIC_AND: case IN_ATOMIC_OR: case IN_ATOMIC_XOR: case IN_ATOMIC_EXCH:
	case IN_ATOMIC_INC: case IN_ATOMIC_DEC: case IN_ATOMIC_CAS: case IN_ATOMIC_CAS2:
	case IN_ATOMIC_NANMAX: case IN_ATOMIC_NANMIN:
		return type_atomic(sc, e, in);
	case IN_MATH_FLOOR: case IN_MATH_CEIL: case IN_MATH_TRUNC:
		return type_math_to_int(sc, e, in);
	case IN_MATH_SQRT: case IN_MATH_FABS:
		return type_math1(sc, e, in);
	case IN_LITERAL_UNROLL:   /* the iterable of a for loop is rewritten before typing (sema_unroll.c) */
		err_at(c, e->span, "write for x in literal_unroll(t): ...",
		       "literal_unroll() is supported only as the iterable of a for loop");
	default:
		if (in >= IN_SYNCTHREADS_COUNT && in <= IN_NANOSLEEP)
			return type_warp_intrin(sc, e, in);
		if (in >= IN_LDCA && in <= IN_STWT)
			return type_cache_hint(sc, e, in);
		if (in >= IN_FP16_HADD && in <= IN_FP16_HMIN_NAN)
			return type_fp16_intrin(sc, e, in);
		if (in > IN_BF16_BEGIN && in < IN_BF16_END)
			return type_bf16_intrin(sc, e, in);
		if (in > IN_FP8_BEGIN && in < IN_FP8_END)
			return type_fp8_intrin(sc, e, in);
		if (in >= IN_MATH_ACOS && in <= IN_NP_LCM)
			return type_math_intrin(sc, e, in);
		if (in > IN_LD_BEGIN && in < IN_LD_END)
			return type_libdevice(sc, e, in);
		if (in > IN_VEC_BEGIN && in < IN_VEC_END)
			return type_vector_ctor(sc, e, in);
		if (intrin_dtype(in) >= 0)
			return type_conversion(sc, e, in);
		err_at(c, e->span, "kernels call builtins such as min and range, functions of math, numpy and cuda, "
		                   "and other @cuda.jit functions", "%s is not callable", fname(in));
	}
}

/* ------------------------------------------------------ device functions */

static int passable(const Type *t)
{
	switch (t->kind) {
	case TY_SCALAR: case TY_ARRAY: case TY_NONE: case TY_DTYPE: case TY_FUNC: case TY_INTRIN:
	case TY_RECORD: case TY_STR: case TY_POINTER:
		return 1;
	case TY_TUPLE:
		for (int i = 0; i < t->n; i++)
			if (!passable(t->elts[i]))
				return 0;
		return 1;
	default:
		return 0;
	}
}

/* Is v a value Numba would type as a literal when a call needs one: an
 * int, a bool, or a tuple of them? */
static int literal_value(const Const *v);

int sema_literal_arg(const Expr *a)
{
	return a->cval && a->ty && literal_value(a->cval) && ty_equal(a->cval->ty, a->ty);
}

static int literal_value(const Const *v)
{
	if (!v || !v->ty)
		return 0;
	if (v->kind == PJ_V_INT || v->kind == PJ_V_BOOL)
		return v->ty->kind == TY_SCALAR;
	if (v->kind == PJ_V_STR)
		return v->ty->kind == TY_STR && v->s;
	if (v->kind != PJ_V_TUPLE || v->ty->kind != TY_TUPLE || v->n == 0)
		return 0;
	for (int i = 0; i < v->n; i++)
		if (!literal_value(&v->elts[i]))
			return 0;
	return 1;
}

static Expr *default_arg(Scope *sc, Expr *call, const PjFunc *f, Param *p)
{
	Const *cv = sema_default(sc, f, p);
	Expr *d = arena_alloc(sc->c->arena, sizeof *d);
	d->kind = E_NAME;
	d->span = call->span;
	d->name.id = arena_printf(sc->c->arena, "<default %s>", p->name);
	d->ty = cv->ty;
	d->cval = cv;
	return d;
}

/* "the function is defined as blend(a, b, t=...)" */
static const char *def_hint(Scope *sc, const PjFunc *f, FuncDef *def)
{
	const char *s = "";
	for (int i = 0; i < def->nparams; i++)
		s = arena_printf(sc->c->arena, "%s%s%s%s", s, i ? ", " : "", def->params[i].name,
		                 def->params[i].defval ? "=..." : "");
	return arena_printf(sc->c->arena, "the function is defined as %s(%s)", def->name, s);
}

/* A call of a function whose last parameter (of np) is *args: the
 * positional arguments from that one on become one tuple argument (an
 * empty one when there are none), once: typing passes see the call again. */
static void pack_star(Scope *sc, Expr *e, const PjFunc *f, FuncDef *def)
{
	Ctx *c = sc->c;
	int np = def->nparams, fixed = np - 1, n = e->call.nargs;
	const char *star = def->params[fixed].name;
	for (int k = 0; k < e->call.nkw; k++)
		if (strcmp(e->call.kwnames[k], star) == 0)
			err_at(c, e->call.kwargs[k]->span, def_hint(sc, f, def), "%s() got an unexpected keyword argument '%s'",
			       def->name, star);
	int extra = n > fixed ? n - fixed : 0;
	Expr *t = arena_alloc(c->arena, sizeof *t);
	t->kind = E_TUPLE;
	t->span = extra ? e->call.args[fixed]->span : e->span;
	t->tuple.n = extra;
	t->tuple.elts = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(extra ? extra : 1));
	for (int i = 0; i < extra; i++)
		t->tuple.elts[i] = e->call.args[fixed + i];
	if (n >= fixed) {
		e->call.args[fixed] = t;   /* the array holds n >= fixed + 1 entries when extra > 0 */
		if (!extra) {
			Expr **args = arena_alloc(c->arena, sizeof(Expr *) * (size_t)np);
			for (int i = 0; i < fixed; i++)
				args[i] = e->call.args[i];
			args[fixed] = t;
			e->call.args = args;
		}
		e->call.nargs = np;
	} else {
		int m = e->call.nkw + 1;
		const char **names = arena_alloc(c->arena, sizeof(char *) * (size_t)m);
		Expr **vals = arena_alloc(c->arena, sizeof(Expr *) * (size_t)m);
		for (int k = 0; k < e->call.nkw; k++) {
			names[k] = e->call.kwnames[k];
			vals[k] = e->call.kwargs[k];
		}
		names[m - 1] = star;
		vals[m - 1] = t;
		e->call.kwnames = names;
		e->call.kwargs = vals;
		e->call.nkw = m;
	}
	e->call.star_packed = 1;
}

/* Puts the arguments of a call of f in the order of f's parameters. */
static void order_args(Scope *sc, Expr *e, const PjFunc *f, FuncDef *def)
{
	Ctx *c = sc->c;
	int np = def->nparams;
	const char *name = def->name;   /* a closure's PjFunc name carries its place (sema_closure.c) */
	if (def->has_varargs)
		err_at(c, def->span, "give the device function a fixed list of parameters",
		       "device functions with *args or **kwargs are not supported");
	if (def->star && !e->call.star_packed)
		pack_star(sc, e, f, def);
	if (e->call.nargs == np && e->call.nkw == 0)
		return;
	const char *hint = def_hint(sc, f, def);
	if (e->call.nargs > np)
		err_at(c, e->span, hint, "%s() takes %d argument%s but %d were given", name, np, np == 1 ? "" : "s",
		       e->call.nargs);
	Expr **args = arena_alloc(c->arena, sizeof(Expr *) * (size_t)(np ? np : 1));
	for (int i = 0; i < e->call.nargs; i++)
		args[i] = e->call.args[i];
	for (int k = 0; k < e->call.nkw; k++) {
		int j = -1;
		for (int i = 0; i < np; i++)
			if (strcmp(def->params[i].name, e->call.kwnames[k]) == 0)
				j = i;
		if (j < 0)
			err_at(c, e->call.kwargs[k]->span, hint, "%s() got an unexpected keyword argument '%s'", name,
			       e->call.kwnames[k]);
		if (args[j])
			err_at(c, e->call.kwargs[k]->span, hint, "%s() got multiple values for argument '%s'", name,
			       e->call.kwnames[k]);
		args[j] = e->call.kwargs[k];
	}
	for (int i = 0; i < np; i++)
		if (!args[i]) {
			if (!def->params[i].defval)
				err_at(c, e->span, hint, "%s() missing required argument '%s'", name, def->params[i].name);
			args[i] = default_arg(sc, e, f, &def->params[i]);
		}
	e->call.args = args;
	e->call.nargs = np;
	e->call.nkw = 0;
}

/* A call of a cuda.declare_device function: the arguments convert to the
 * declared parameter types (numbers only: Numba's ABI passes scalars by
 * value), the result is the declared return type.  Its Spec has no def;
 * lower_call_extern makes the call. */
static Type *type_extern_call(Scope *sc, Expr *e, const PjFunc *f)
{
	Ctx *c = sc->c;
	if (e->call.nkw)
		err_at(c, e->call.kwargs[0]->span, "pass the arguments by position",
		       "external function '%s' (cuda.declare_device) takes no keyword arguments", f->external);
	if (!type_args(sc, e))
		return set(e, NULL, NULL);
	int np = 0;
	Type **pt = NULL;
	Type *ret = ty_parse_sig(c, f->sigs[0], &np, &pt);
	if (e->call.nargs != np)
		err_at(c, e->span, arena_printf(c->arena, "its declaration is %s", f->sigs[0]),
		       "external function '%s' takes %d argument%s but %d %s given", f->external, np,
		       np == 1 ? "" : "s", e->call.nargs, e->call.nargs == 1 ? "was" : "were");
	for (int i = 0; i < np; i++) {
		Expr *a = e->call.args[i];
		if (pt[i]->kind == TY_POINTER) {
			if (!a->ty || !ty_equal(a->ty, pt[i]))
				err_at(c, a->span, "pass a pointer of the declared type: ffi.from_buffer(a) of an array of its "
				       "numbers, or a pointer parameter", "external function '%s' takes a %s here, not %s",
				       f->external, tstr(sc, pt[i]), tstr(sc, a->ty));
			continue;
		}
		if (pt[i]->kind != TY_SCALAR || ty_is_complex(pt[i]))
			err_at(c, a->span, "declare the function with integer, float, bool or pointer (int32*) parameters",
			       "external function '%s': parameters of type %s are not supported (ptxjit passes "
			       "numbers and pointers to external functions)", f->external, tstr(sc, pt[i]));
		if (!a->ty || a->ty->kind != TY_SCALAR || ty_is_complex(a->ty))
			err_at(c, a->span, arena_printf(c->arena, "pass a %s", tstr(sc, pt[i])),
			       "external function '%s' takes a %s here, not %s", f->external, tstr(sc, pt[i]),
			       tstr(sc, a->ty));
	}
	if (ret && ret->kind != TY_NONE && (ret->kind != TY_SCALAR || ty_is_complex(ret)) && ret->kind != TY_POINTER)
		err_at(c, e->span, "declare the function returning an integer, a float, a bool, a pointer or void",
		       "external function '%s': results of type %s are not supported", f->external, tstr(sc, ret));
	Spec *sp = arena_alloc(c->arena, sizeof *sp);
	sp->func = f;
	sp->nargs = np;
	sp->argtypes = pt;
	sp->ret = ret ? ret : ty_none();
	sp->id = -1;
	e->call.spec = sp;
	return set(e, sp->ret, NULL);
}

Type *sema_device_call(Scope *sc, Expr *e, const PjFunc *f)
{
	Ctx *c = sc->c;
	if (f->external)
		return type_extern_call(sc, e, f);
	FuncDef *def = sema_template(sc->S, f);
	order_args(sc, e, f, def);
	if (!type_args(sc, e))
		return set(e, NULL, NULL);
	int n = e->call.nargs;
	Type **argtypes = arena_alloc(c->arena, sizeof(Type *) * (size_t)(n ? n : 1));
	Const **argconsts = arena_alloc(c->arena, sizeof(Const *) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		Expr *a = e->call.args[i];
		if (!passable(a->ty))
			err_at(c, a->span, "device functions take numbers, arrays, tuples, constant strings, dtypes and "
			                   "functions",
			       "a %s cannot be passed to a device function", tstr(sc, a->ty));
		if (a->ty->kind == TY_STR && !literal_value(a->cval))
			err_at(c, a->span, "pass a string literal or a global string constant",
			       "a string passed to a device function must be a constant known when the kernel is "
			       "compiled");
		argtypes[i] = a->ty;
		argconsts[i] = literal_value(a->cval) && ty_equal(a->cval->ty, a->ty) ? a->cval : NULL;
	}
	Spec *sp = sema_specialise(sc, f, n, argtypes, argconsts, e->span);
	e->call.spec = sp;
	if (sc->final)
		VEC_PUSH(c, sc->callees, sc->ncallees, sc->capcallees, sp);
	return set(e, sp->ret, NULL);
}

/* x.conjugate() of a number: the same type (complex: the imaginary part negated). */
static Type *type_conjugate(Scope *sc, Expr *e, Type *ot)
{
	if (e->call.nargs || e->call.nkw)
		err_at(sc->c, e->span, "call it as x.conjugate()", "conjugate() takes no arguments");
	if (!ty_is_number(ot))
		err_at(sc->c, e->call.fn->span, "conjugate() is a method of numbers",
		       "%s has no method conjugate()", tstr(sc, ot));
	set(e->call.fn, ot, NULL);
	Type *t = ot->sk == SK_BOOL ? ty_scalar(SK_I64) : computed(ot);
	Const *v = NULL, *x = e->call.fn->attr.obj->cval;
	if (x && (v = const_of_type(sc->c, x, t)) && v->kind == PJ_V_COMPLEX)
		v->im = -v->im;
	return set(e, t, v);
}

Type *type_call(Scope *sc, Expr *e)
{
	Ctx *c = sc->c;
	e->call.intrin = 0;
	e->call.spec = NULL;
	if (!sema_spread_stars(sc, e)) {
		type_expr(sc, e->call.fn);
		type_args(sc, e);
		return set(e, NULL, NULL);
	}
	if (e->call.fn->kind == E_ATTR && strcmp(e->call.fn->attr.name, "conjugate") == 0) {
		Type *ot = type_expr(sc, e->call.fn->attr.obj);
		if (!ot)
			return set(e, NULL, NULL);
		if (ot->kind == TY_SCALAR)
			return type_conjugate(sc, e, ot);
	}
	if (e->call.fn->kind == E_ATTR && strcmp(e->call.fn->attr.name, "bit_count") == 0) {
		Type *ot = type_expr(sc, e->call.fn->attr.obj);
		if (!ot)
			return set(e, NULL, NULL);
		if (ty_is_int(ot))
			return type_bit_count(sc, e);
	}
	if (e->call.fn->kind == E_ATTR) {
		Type *ot = type_expr(sc, e->call.fn->attr.obj);
		if (!ot) {
			type_args(sc, e);
			return set(e, NULL, NULL);
		}
		sema_method_overload(sc, e, ot);
	}
	Type *ft = type_expr(sc, e->call.fn);
	for (int i = 0; i < e->call.nargs; i++)
		if (e->call.args[i]->kind == E_UNSUPPORTED)
			type_expr(sc, e->call.args[i]);   /* *args: refused with its own message */
	if (!ft) {
		type_args(sc, e);
		return set(e, NULL, NULL);
	}
	switch (ft->kind) {
	case TY_INTRIN:
		return type_intrinsic(sc, e, ft->intrin);
	case TY_DTYPE:
		for (int in = IN_NONE + 1; in < NINTRIN; in++)
			if (intrin_dtype(in) == (int)ft->sk)
				return type_intrinsic(sc, e, in);
		ICE(c, "no constructor for dtype %s", scalar_info[ft->sk].name);
	case TY_FUNC:
		if (ft->func->choose)
			return sema_overload_call(sc, e, ft->func);
		return sema_device_call(sc, e, ft->func);
	case TY_EXC:
		if (e->call.nkw)
			err_at(c, e->call.kwargs[0]->span, "pass the message by position: raise ValueError(\"...\")",
			       "exceptions take no keyword arguments");
		if (!type_args(sc, e))
			return set(e, NULL, NULL);
		return set(e, ft, NULL);
	case TY_MODULE:
		err_at(c, e->call.fn->span, "call a function of the module, such as math.sqrt(x)", "a module is not callable");
	default:
		err_at(c, e->call.fn->span,
		       "kernels call builtins such as min and range, functions of math, numpy and cuda, and other "
		       "@cuda.jit functions",
		       "this %s value is not callable", tstr(sc, ft));
	}
}

/*
 * resolve.c - global names: what a name that a function uses but does not
 * assign stands for, as a compile-time constant (Const).
 *
 * The function's resolver (PjFunc.resolve, from the glue or the CLI)
 * answers from the function's globals and closure; what it does not
 * define may be a builtin (range, len, min, ..., ValueError).  Its answer
 * becomes a Const whose `ty` says how kernels may use it:
 *
 *   int, float, bool, complex   int64, float64, bool, complex128 values
 *   tuple                       a tuple value of constants
 *   module                      TY_MODULE; numba and ptxjit are "numba",
 *                               numba.cuda and ptxjit.cuda are "cuda"
 *   intrinsic                   TY_INTRIN (math.sqrt, numpy.float32,
 *                               cuda.grid), TY_DIM3 (cuda.threadIdx),
 *                               int32 for cuda.laneid/warpsize, and a
 *                               float64 value for math.pi and friends
 *   dtype                       TY_DTYPE (numba.float32, np.dtype('f4'))
 *   function                    TY_FUNC: another @cuda.jit function, or an
 *                               overloaded one (PjFunc.choose, @overload)
 *   exception class             TY_EXC
 * Anything else keeps ty == NULL; sema reports it only where it is used
 * (unusable_message says what to tell the user).
 *
 * resolve_member does the same for `module.attr`, and the qualified names
 * a resolver gives for intrinsics ("numba.cuda.grid", "np.float32") go
 * through it too, so an alias reaches the same Const.
 */
#include <math.h>
#include <string.h>

#include "sema.h"

static const char *const builtin_exceptions[] = {
	"Exception", "ValueError", "IndexError", "AssertionError", "RuntimeError",
	"ZeroDivisionError", "TypeError", "ArithmeticError", "OverflowError",
	"KeyError", "NotImplementedError", "LookupError",
};

/* Builtins of Python that kernels cannot use (yet): named so that the
 * message says so instead of "not defined". */
static const char *const unsupported_builtins[] = {
	"sum", "zip", "enumerate", "list", "dict", "set", "frozenset", "str", "bytes",
	"bytearray", "map", "filter", "sorted", "reversed", "any", "all", "issubclass",
	"type", "iter", "next", "hash", "id", "repr", "input", "open", "getattr", "setattr",
	"hasattr", "delattr", "ord", "chr", "hex", "oct", "bin", "slice", "object", "super", "vars",
	"dir", "format", "callable", "memoryview", "property", "classmethod", "staticmethod", "exec",
	"eval", "compile", "globals", "locals", "exit", "quit", "help", "breakpoint", "ascii",
};

static const int builtin_functions[] = {
	IN_RANGE, IN_LEN, IN_MIN, IN_MAX, IN_ABS, IN_INT, IN_FLOAT, IN_BOOL,
	IN_COMPLEX, IN_ROUND, IN_PRINT, IN_DIVMOD, IN_POW, IN_ISINSTANCE, IN_TUPLE,
};

static Const *mk(Ctx *c, int kind, Type *ty)
{
	Const *v = arena_alloc(c->arena, sizeof *v);
	v->kind = kind;
	v->ty = ty;
	return v;
}

static Const *float_const(Ctx *c, double f)
{
	Const *v = mk(c, PJ_V_FLOAT, ty_scalar(SK_F64));
	v->f = f;
	return v;
}

Const *resolve_builtin(Ctx *c, const char *name)
{
	for (size_t i = 0; i < sizeof builtin_functions / sizeof builtin_functions[0]; i++)
		if (strcmp(intrin_name[builtin_functions[i]], name) == 0) {
			Const *v = mk(c, PJ_V_INTRIN, ty_intrin(c, builtin_functions[i]));
			v->s = intrin_name[builtin_functions[i]];
			return v;
		}
	for (size_t i = 0; i < sizeof builtin_exceptions / sizeof builtin_exceptions[0]; i++)
		if (strcmp(builtin_exceptions[i], name) == 0) {
			Const *v = mk(c, PJ_V_EXC, ty_exc(c, name));
			v->s = builtin_exceptions[i];
			return v;
		}
	for (size_t i = 0; i < sizeof unsupported_builtins / sizeof unsupported_builtins[0]; i++)
		if (strcmp(unsupported_builtins[i], name) == 0) {
			Const *v = mk(c, PJ_V_INTRIN, NULL);
			v->s = arena_printf(c->arena, "the builtin %s()", name);
			return v;
		}
	if (strcmp(name, "True") == 0 || strcmp(name, "False") == 0) {
		Const *v = mk(c, PJ_V_BOOL, ty_scalar(SK_BOOL));
		v->i = name[0] == 'T';
		return v;
	}
	if (strcmp(name, "None") == 0)
		return mk(c, PJ_V_NONE, ty_none());
	return NULL;
}

/* "numba.cuda" -> "cuda", "ptxjit" -> "numba", "np" -> "numpy", ... */
static const char *norm_module(Ctx *c, const char *m)
{
	if (strcmp(m, "np") == 0)
		return "numpy";
	if (strcmp(m, "ptxjit") == 0)
		return "numba";
	if (strncmp(m, "numba.", 6) == 0 && strncmp(m + 6, "cuda", 4) == 0 && (!m[10] || m[10] == '.'))
		return arena_strdup(c->arena, m + 6);
	if (strncmp(m, "ptxjit.", 7) == 0)
		return norm_module(c, arena_printf(c->arena, "numba.%s", m + 7));
	if (strncmp(m, "np.", 3) == 0)
		return arena_printf(c->arena, "numpy.%s", m + 3);
	if (strcmp(m, "numba.core.types") == 0 || strcmp(m, "numba.cuda.types") == 0)
		return "numba.types";
	return m;
}

static Const *module_const(Ctx *c, const char *name)
{
	Const *v = mk(c, PJ_V_MODULE, ty_module(c, name));
	v->s = v->ty->name;
	return v;
}

static int is_namespace(const char *m)
{
	static const char *const ns[] = {
		"math", "numpy", "cuda", "cuda.shared", "cuda.local", "cuda.const", "cuda.atomic",
		"cuda.fp16", "cuda.bf16", "cuda.libdevice", "cuda.cg", "numba", "numba.types", "cmath", "operator",
	};
	for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
		if (strcmp(ns[i], m) == 0)
			return 1;
	return 0;
}

Const *resolve_member(Ctx *c, const char *module, const char *attr)
{
	module = norm_module(c, module);
	if (strcmp(module, "numba") == 0 || strcmp(module, "numba.types") == 0) {
		if (strcmp(module, "numba") == 0 && strcmp(attr, "cuda") == 0)
			return module_const(c, "cuda");
		if (strcmp(module, "numba") == 0 && strcmp(attr, "types") == 0)
			return module_const(c, "numba.types");
		if (strcmp(module, "numba") == 0 && strcmp(attr, "literal_unroll") == 0)
			return resolve_member(c, "cuda", attr);
		int sk = ty_sk_from_name(attr);
		if (sk < 0)
			return NULL;
		Const *v = mk(c, PJ_V_DTYPE, ty_dtype(c, sk));
		v->s = scalar_info[sk].name;
		return v;
	}
	if (strcmp(module, "cuda.bf16") == 0) {
		static const char *const alias[][2] = {
#define A(a, name) {#a, #name},
			BF16_ALIASES(A)
#undef A
		};
		for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
			if (strcmp(attr, alias[i][0]) == 0)
				attr = alias[i][1];
	}
	if (strcmp(module, "cuda") == 0 && strcmp(attr, "types") == 0)   /* numba.cuda.types */
		return module_const(c, "numba.types");
	if (strcmp(module, "cuda") == 0 && (int)ty_sk_from_name(attr) >= 0 && !intrin_lookup(
	        arena_printf(c->arena, "cuda.%s", attr)))   /* cuda.float32: numba.cuda exports the types */
		return resolve_member(c, "numba.types", attr);
	const char *q = arena_printf(c->arena, "%s.%s", module, attr);
	if (is_namespace(q) && strcmp(module, "numba") != 0)
		return module_const(c, q);
	int in = intrin_lookup(q);
	switch (in) {
	case IN_NONE:
		return NULL;
	case IN_MATH_PI:
	case IN_NP_PI:
		return float_const(c, 3.141592653589793);
	case IN_MATH_E:
	case IN_NP_E:
		return float_const(c, 2.718281828459045);
	case IN_MATH_INF:
	case IN_NP_INF:
		return float_const(c, INFINITY);
	case IN_MATH_NAN:
	case IN_NP_NAN:
		return float_const(c, NAN);
	case IN_THREADIDX:
	case IN_BLOCKIDX:
	case IN_BLOCKDIM:
	case IN_GRIDDIM: {
		Const *v = mk(c, PJ_V_INTRIN, ty_dim3(c, in));
		v->s = intrin_name[in];
		return v;
	}
	case IN_LANEID:
	case IN_WARPSIZE: {
		Const *v = mk(c, PJ_V_INTRIN, ty_scalar(SK_I32));
		v->s = intrin_name[in];
		return v;
	}
	default: {
		Const *v = mk(c, PJ_V_INTRIN, ty_intrin(c, in));
		v->s = intrin_name[in];
		return v;
	}
	}
}

/* A qualified name from the resolver: "numba.cuda.grid", "np.float32", "len". */
static Const *qualified(Ctx *c, const char *q)
{
	const char *dot = strrchr(q, '.');
	if (!dot)
		return resolve_builtin(c, q);
	const char *module = arena_strndup(c->arena, q, (size_t)(dot - q));
	Const *v = resolve_member(c, module, dot + 1);
	if (!v && is_namespace(norm_module(c, q)))
		v = module_const(c, norm_module(c, q));
	return v;
}

static Const *convert_value(Ctx *c, const PjValue *pv, int depth);

/* A device array captured by its address (Numba's global device arrays):
 * i the address, elts its n extents then its n byte strides, typed as a
 * global array of its layout.  CPU functions cannot read device memory. */
static Const *device_array(Ctx *c, const PjValue *pv)
{
	int sk = pv->s ? (int)ty_sk_from_name(pv->s) : -1;
	if (sk < 0 || pv->ndim < 0 || pv->ndim > 8 || (c->opt && c->opt->target_cpu)) {
		Const *v = mk(c, PJ_V_UNKNOWN, NULL);
		v->s = sk < 0 || pv->ndim < 0 || pv->ndim > 8 ? "device array of a dtype kernels do not support"
		                                               : "device array (GPU memory, which @njit functions cannot read)";
		return v;
	}
	int n = pv->ndim;
	Const *v = mk(c, PJ_V_DEVARRAY, NULL);
	v->i = pv->i;
	v->n = n;
	v->elts = arena_alloc(c->arena, sizeof(Const) * (size_t)(2 * n + 1));
	int64_t cstep = scalar_info[sk].size, fstep = cstep;
	int is_c = 1, is_f = 1;
	for (int d = 0; d < n; d++) {
		int k = n - 1 - d;
		v->elts[d] = (Const){.kind = PJ_V_INT, .i = pv->shape[d], .ty = ty_scalar(SK_I64)};
		v->elts[n + d] = (Const){.kind = PJ_V_INT, .i = pv->strides[d], .ty = ty_scalar(SK_I64)};
		is_c &= pv->shape[k] <= 1 || pv->strides[k] == cstep;
		cstep *= pv->shape[k];
		is_f &= pv->shape[d] <= 1 || pv->strides[d] == fstep;
		fstep *= pv->shape[d];
	}
	char layout = is_c ? LAYOUT_C : is_f ? LAYOUT_F : LAYOUT_A;
	v->ty = ty_array_of(c, ty_scalar((ScalarKind)sk), n, layout, SP_GLOBAL, pv->readonly != 0);
	return v;
}

/* A number with a dtype name (a NumPy scalar) has that type. */
static Const *convert(Ctx *c, const PjValue *pv, int depth)
{
	Const *v = convert_value(c, pv, depth);
	int number = pv->kind == PJ_V_INT || pv->kind == PJ_V_FLOAT || pv->kind == PJ_V_BOOL || pv->kind == PJ_V_COMPLEX;
	if (!number || !pv->s)
		return v;
	int sk = (int)ty_sk_from_name(pv->s);
	Const *t = sk >= 0 ? const_of_type(c, v, ty_scalar((ScalarKind)sk)) : NULL;
	return t ? t : v;
}

static Const *convert_value(Ctx *c, const PjValue *pv, int depth)
{
	Const *v;
	switch (pv->kind) {
	case PJ_V_NONE:
		return mk(c, PJ_V_NONE, ty_none());
	case PJ_V_INT:
		v = mk(c, PJ_V_INT, pv->s ? ty_enum_member(c, arena_strdup(c->arena, pv->s)) : ty_scalar(SK_I64));
		v->i = pv->i;
		return v;
	case PJ_V_FLOAT:
		return float_const(c, pv->f);
	case PJ_V_BOOL:
		v = mk(c, PJ_V_BOOL, ty_scalar(SK_BOOL));
		v->i = pv->i != 0;
		return v;
	case PJ_V_COMPLEX:
		v = mk(c, PJ_V_COMPLEX, ty_scalar(SK_C128));
		v->f = pv->f;
		v->im = pv->im;
		return v;
	case PJ_V_STR:
		v = mk(c, PJ_V_STR, ty_str());
		v->s = arena_strdup(c->arena, pv->s ? pv->s : "");
		return v;
	case PJ_V_TUPLE: {
		if (depth > 16 || pv->n < 0 || pv->n > 1024)
			break;
		v = mk(c, PJ_V_TUPLE, NULL);
		v->n = pv->n;
		v->elts = arena_alloc(c->arena, sizeof(Const) * (pv->n ? pv->n : 1));
		Type **tys = arena_alloc(c->arena, sizeof(Type *) * (pv->n ? pv->n : 1));
		for (int i = 0; i < pv->n; i++) {
			Const *e = convert(c, &pv->elts[i], depth + 1);
			if (!e->ty) {
				Const *u = mk(c, PJ_V_UNKNOWN, NULL);
				u->s = arena_printf(c->arena, "tuple holding a %s",
				                    e->kind == PJ_V_UNKNOWN && e->s ? e->s : "value that");
				return u;
			}
			v->elts[i] = *e;
			tys[i] = e->ty;
		}
		v->ty = ty_tuple(c, pv->n, tys);
		return v;
	}
	case PJ_V_MODULE: {
		const char *m = norm_module(c, pv->s ? pv->s : "?");
		return module_const(c, m);
	}
	case PJ_V_INTRIN: {
		v = pv->s ? qualified(c, pv->s) : NULL;
		if (v)
			return v;
		if (pv->func && pv->func->choose) {   /* one kernels lack, overloaded by the user */
			v = mk(c, PJ_V_FUNC, ty_func(c, pv->func));
			v->s = pv->func->name;
			return v;
		}
		v = mk(c, PJ_V_INTRIN, NULL);
		v->s = arena_strdup(c->arena, pv->s ? pv->s : "?");
		return v;
	}
	case PJ_V_DTYPE: {
		int sk = pv->s ? (int)ty_sk_from_name(pv->s) : -1;
		v = mk(c, PJ_V_DTYPE, sk >= 0 ? ty_dtype(c, (ScalarKind)sk) : NULL);
		if (sk < 0 && pv->s && strncmp(pv->s, "Record(", 7) == 0)
			v->ty = ty_dtype_record(c, ty_parse_one(c, pv->s));
		v->s = arena_strdup(c->arena, pv->s ? pv->s : "?");
		return v;
	}
	case PJ_V_FUNC:
		if (!pv->func || (!pv->func->source && !pv->func->choose && !(pv->func->external && pv->func->nsigs == 1)))
			break;
		v = mk(c, PJ_V_FUNC, ty_func(c, pv->func));
		v->s = pv->func->name;
		return v;
	case PJ_V_EXC:
		v = mk(c, PJ_V_EXC, ty_exc(c, pv->s ? pv->s : "Exception"));
		v->s = v->ty->name;
		return v;
	case PJ_V_ARRAY:
		v = mk(c, PJ_V_ARRAY, NULL);
		v->s = arena_strdup(c->arena, pv->s ? pv->s : "?");
		v->data = pv->data;
		v->n = pv->ndim;
		if (pv->ndim < 0 || pv->ndim > 8 || !pv->data) {
			v->kind = PJ_V_UNKNOWN;
			v->s = "NumPy array";
			return v;
		}
		v->elts = arena_alloc(c->arena, sizeof(Const) * (size_t)(pv->ndim + 1));
		for (int i = 0; i < pv->ndim; i++) {
			v->elts[i].kind = PJ_V_INT;
			v->elts[i].i = pv->shape[i];
			v->elts[i].ty = ty_scalar(SK_I64);
		}
		v->ty = sema_const_array_type(c, v);
		if (!v->ty) {
			v->kind = PJ_V_UNKNOWN;
			v->s = "NumPy array of a dtype kernels do not support";
		}
		return v;
	case PJ_V_DEVARRAY:
		return device_array(c, pv);
	case PJ_V_NAMESPACE:
		/* its members resolve as "NAME.attr" (sema_namespace_member) */
		return mk(c, PJ_V_MODULE, ty_module(c, arena_printf(c->arena, "@%s", pv->s ? pv->s : "?")));
	default:
		break;
	}
	v = mk(c, PJ_V_UNKNOWN, NULL);
	v->s = pv->kind == PJ_V_UNKNOWN && pv->s ? arena_strdup(c->arena, pv->s) : "Python";
	return v;
}

/* The overloaded function a resolver gives for a method (kind 'm') or an
 * attribute ('a') of values, or for a module's function that kernels do
 * not have ('q', "numpy.clip"), or NULL: see PjFunc.resolve. */
const PjFunc *sema_resolve_member_overload(Ctx *c, const PjFunc *f, char kind, const char *name)
{
	if (!f || !f->resolve)
		return NULL;
	PjValue pv;
	memset(&pv, 0, sizeof pv);
	const char *key = arena_printf(c->arena, ".%c.%s", kind, name);
	if (!f->resolve(f->data, key, &pv, (PjArena *)c->arena))
		return NULL;
	return pv.kind == PJ_V_FUNC && pv.func && pv.func->choose ? pv.func : NULL;
}

Const *sema_resolve_global(Ctx *c, const PjFunc *f, const char *name, Span sp)
{
	if (f && f->resolve) {
		PjValue pv;
		memset(&pv, 0, sizeof pv);
		if (f->resolve(f->data, name, &pv, (PjArena *)c->arena)) {
			Const *v = convert(c, &pv, 0);
			if (v->kind == PJ_V_DEVARRAY)
				v->s = arena_strdup(c->arena, name);   /* for the simulator's messages */
			return v;
		}
	}
	Const *v = resolve_builtin(c, name);
	if (v)
		return v;
	err_at(c, sp,
	       "kernels can use their arguments, local variables, and global names that refer to "
	       "ints, floats, bools, tuples, NumPy dtypes, the modules math, numpy and cuda, and other "
	       "@cuda.jit functions",
	       "name '%s' is not defined", name);
}

/* NAME.attr (key NULL) or NAME[key] of a namespace global (an Enum
 * class): its member as a constant, through the resolver */
Const *sema_namespace_member(Ctx *c, const PjFunc *f, const char *ns, const char *attr, const char *key,
                             Span sp)
{
	const char *q = key ? arena_printf(c->arena, "%s[%s]", ns, key) : arena_printf(c->arena, "%s.%s", ns, attr);
	PjValue pv;
	memset(&pv, 0, sizeof pv);
	if (!f || !f->resolve || !f->resolve(f->data, q, &pv, (PjArena *)c->arena))
		err_at(c, sp, arena_printf(c->arena, "kernels can use the members of %s that exist", ns),
		       key ? "%s has no member '%s'" : "%s has no attribute '%s'", ns, key ? key : attr);
	Const *v = convert(c, &pv, 0);
	if (v->kind == PJ_V_UNKNOWN || !v->ty)
		err_at(c, sp, "kernels can use the members of an IntEnum (ints), and Python ints, floats and bools",
		       "%s is %s, which kernels cannot use", q, v->s ? v->s : "a Python object");
	return v;
}

const char *unusable_message(Ctx *c, const char *name, const Const *v, const char **hint)
{
	*hint = "kernels can use ints, floats, bools, tuples of them, NumPy dtypes, the modules "
	        "math, numpy, cuda, and other @cuda.jit functions";
	switch (v->kind) {
	case PJ_V_INTRIN:
		*hint = strncmp(v->s, "the builtin ", 12) == 0
		      ? (strcmp(name, "sum") == 0 ? "add the values up in a loop: s = 0; for i in range(n): s += a[i]"
		                                  : "kernels can use the builtins range, len, min, max, abs, int, float, "
		                                    "bool, complex, round, print, divmod and pow")
		      : strncmp(v->s, "cuda.fp8.", 9) == 0
		      ? "cuda_fp8.h's vector forms (fp8x2_e4m3, cvt_float2_to_fp8x2, ...) are not supported; convert "
		        "each element with the scalar form (fp8_e4m3(x), cvt_float_to_fp8)"
		      : "see the documentation for the functions of math, numpy and cuda that kernels can use";
		return arena_printf(c->arena, "name '%s' refers to %s, which kernels cannot use yet", name, v->s);
	case PJ_V_DTYPE:
		*hint = "the dtypes kernels can use are bool, int8..int64, uint8..uint64, float16, "
		        "float32, float64, complex64 and complex128";
		return arena_printf(c->arena, "name '%s' refers to the dtype %s, which kernels cannot use", name, v->s);
	case PJ_V_ARRAY:
		*hint = "pass the array to the kernel as an argument";
		return arena_printf(c->arena, "name '%s' refers to a global NumPy array, which kernels cannot use yet", name);
	default:
		if (v->s && v->s[0] == '!') {   /* the resolver's own reason, as Numba words it */
			*hint = "call a @cuda.jit(device=True) function, or a @jit function without explicit signatures";
			return arena_printf(c->arena, "Untyped global name '%s': %s", name, v->s + 1);
		}
		return arena_printf(c->arena,
		                    "name '%s' refers to a %s object, which kernels cannot use; kernels "
		                    "can use ints, floats, bools, tuples of them, NumPy dtypes, the modules "
		                    "math, numpy, cuda, and other @cuda.jit functions",
		                    name, v->s ? v->s : "Python");
	}
}

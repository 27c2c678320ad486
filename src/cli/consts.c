/*
 * consts.c - the values of module-level names, for ptxjitc.
 *
 * Without Python there is nobody to run the module, so ptxjitc evaluates
 * the module-level assignments it can: literals, tuples, names bound
 * earlier in the file, the members of imported modules, and arithmetic
 * on them with Python's rules (int / int is a float, // and % floor,
 * ** of a negative int exponent is a float, ints that leave 64 bits are
 * not constants), and the NumPy arrays numpy.array(TUPLE, dtype) and
 * numpy.arange(N, dtype) (constant arrays).  Anything else (other calls
 * to NumPy, lists, comprehensions) is "not a compile-time constant": the
 * name is defined, but a kernel cannot use it.
 *
 * Imports become the values the glue would report for the same objects:
 * modules by their qualified name, dtypes of numba by name, every other
 * member as a qualified name that sema looks up among its intrinsics.
 * Defs, and `NAME = cuda.jit(device=True)(lambda ...)`, become functions
 * whose source is the file's text (from the lambda's line for a lambda),
 * so that messages show the file's own lines and columns.
 */
#include <math.h>
#include <string.h>

#include "cli.h"

static int is_num(const PjValue *v)
{
	return v->kind == PJ_V_INT || v->kind == PJ_V_BOOL || v->kind == PJ_V_FLOAT;
}

static int is_int(const PjValue *v)
{
	return v->kind == PJ_V_INT || v->kind == PJ_V_BOOL;
}

static double as_float(const PjValue *v)
{
	return v->kind == PJ_V_FLOAT ? v->f : (double)v->i;
}

static PjValue int_value(int64_t i)
{
	PjValue v = {.kind = PJ_V_INT, .i = i};
	return v;
}

static PjValue float_value(double f)
{
	PjValue v = {.kind = PJ_V_FLOAT, .f = f};
	return v;
}

/* The named float constants of math and numpy. */
static int named_float(const char *module, const char *attr, double *f)
{
	if (strcmp(module, "math") && strcmp(module, "numpy") && strcmp(module, "np"))
		return 0;
	if (!strcmp(attr, "pi"))
		*f = 3.141592653589793;
	else if (!strcmp(attr, "e"))
		*f = 2.718281828459045;
	else if (!strcmp(attr, "inf"))
		*f = INFINITY;
	else if (!strcmp(attr, "nan"))
		*f = NAN;
	else if (!strcmp(attr, "tau") && !strcmp(module, "math"))
		*f = 6.283185307179586;
	else
		return 0;
	return 1;
}

/* module.attr, as the glue would report the object. */
static PjValue member_value(Module *m, const char *module, const char *attr)
{
	PjValue v = {0};
	double f;
	const char *q = arena_printf(m->arena, "%s.%s", module, attr);
	if (named_float(module, attr, &f))
		return float_value(f);
	if (!strcmp(q, "numba.cuda") || !strcmp(q, "ptxjit.cuda")) {
		v.kind = PJ_V_MODULE;
		v.s = "cuda";
		return v;
	}
	int is_numba = !strcmp(module, "numba") || !strcmp(module, "ptxjit") ||
	               !strcmp(module, "numba.types") || !strcmp(module, "numba.core.types");
	if (is_numba && (int)ty_sk_from_name(attr) >= 0) {
		v.kind = PJ_V_DTYPE;
		v.s = arena_strdup(m->arena, attr);
		return v;
	}
	v.kind = PJ_V_INTRIN;
	v.s = q;
	return v;
}

PjValue cli_import_value(Module *m, const ModuleItem *it)
{
	if (!it->attr) {
		PjValue v = {.kind = PJ_V_MODULE, .s = it->module};
		return v;
	}
	return member_value(m, it->module, it->attr);
}

static int lookup(Module *m, int upto, const char *name, PjValue *out)
{
	for (int j = upto - 1; j >= 0; j--)
		if (m->items[j].name && !strcmp(m->items[j].name, name)) {
			if (!m->ok[j])
				return 0;
			*out = m->vals[j];
			return 1;
		}
	return 0;
}

/* Python's divmod for floats (CPython's float_divmod). */
static void float_divmod(double a, double b, double *div, double *mod)
{
	double md = fmod(a, b);
	double dv = (a - md) / b;
	if (md != 0) {
		if ((b < 0) != (md < 0)) {
			md += b;
			dv -= 1.0;
		}
	} else {
		md = copysign(0.0, b);
	}
	double fl;
	if (dv != 0) {
		fl = floor(dv);
		if (dv - fl > 0.5)
			fl += 1.0;
	} else {
		fl = copysign(0.0, a / b);
	}
	*div = fl;
	*mod = md;
}

static int int_pow(int64_t a, int64_t b, int64_t *r)
{
	int64_t acc = 1;
	while (b > 0) {
		if (b & 1 && __builtin_mul_overflow(acc, a, &acc))
			return 0;
		b >>= 1;
		if (b && __builtin_mul_overflow(a, a, &a))
			return 0;
	}
	*r = acc;
	return 1;
}

static int binary(Module *m, AstOp op, const PjValue *a, const PjValue *b, PjValue *out)
{
	if (a->kind == PJ_V_TUPLE && b->kind == PJ_V_TUPLE && op == OP_ADD) {
		if (a->n + (int64_t)b->n > 1024)
			return 0;
		int n = a->n + b->n;
		PjValue *elts = arena_alloc(m->arena, sizeof *elts * (size_t)(n ? n : 1));
		memcpy(elts, a->elts, sizeof *elts * (size_t)a->n);
		memcpy(elts + a->n, b->elts, sizeof *elts * (size_t)b->n);
		*out = (PjValue){.kind = PJ_V_TUPLE, .n = n, .elts = elts};
		return 1;
	}
	if (a->kind == PJ_V_TUPLE && is_int(b) && op == OP_MUL) {
		if (b->i < 0 || (int64_t)a->n * b->i > 1024)
			return 0;
		int n = a->n * (int)b->i;
		PjValue *elts = arena_alloc(m->arena, sizeof *elts * (size_t)(n ? n : 1));
		for (int i = 0; i < n; i++)
			elts[i] = a->elts[i % a->n];
		*out = (PjValue){.kind = PJ_V_TUPLE, .n = n, .elts = elts};
		return 1;
	}
	if (!is_num(a) || !is_num(b))
		return 0;
	if (is_int(a) && is_int(b)) {
		int64_t x = a->i, y = b->i, r;
		switch (op) {
		case OP_ADD: if (__builtin_add_overflow(x, y, &r)) return 0; break;
		case OP_SUB: if (__builtin_sub_overflow(x, y, &r)) return 0; break;
		case OP_MUL: if (__builtin_mul_overflow(x, y, &r)) return 0; break;
		case OP_DIV:
			if (y == 0)
				return 0;
			*out = float_value((double)x / (double)y);
			return 1;
		case OP_FLOORDIV:
		case OP_MOD:
			if (y == 0 || (x == INT64_MIN && y == -1))
				return 0;
			if (op == OP_MOD) {
				r = x % y;   /* the sign of y, as Python's */
				if (r != 0 && (r < 0) != (y < 0))
					r += y;
			} else {
				r = x / y;
				if ((x % y != 0) && ((x < 0) != (y < 0)))
					r--;
			}
			break;
		case OP_POW:
			if (y < 0) {
				if (x == 0)
					return 0;
				*out = float_value(pow((double)x, (double)y));
				return 1;
			}
			if (!int_pow(x, y, &r))
				return 0;
			break;
		case OP_LSHIFT:
			if (y < 0 || y > 63 || (x != 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y))))
				return 0;
			r = (int64_t)((uint64_t)x << y);
			break;
		case OP_RSHIFT:
			if (y < 0)
				return 0;
			r = y > 63 ? (x < 0 ? -1 : 0) : x >> y;
			break;
		case OP_BITAND: r = x & y; break;
		case OP_BITOR: r = x | y; break;
		case OP_BITXOR: r = x ^ y; break;
		default: return 0;
		}
		*out = int_value(r);
		return 1;
	}
	double x = as_float(a), y = as_float(b), d, md;
	switch (op) {
	case OP_ADD: *out = float_value(x + y); return 1;
	case OP_SUB: *out = float_value(x - y); return 1;
	case OP_MUL: *out = float_value(x * y); return 1;
	case OP_DIV:
		if (y == 0)
			return 0;
		*out = float_value(x / y);
		return 1;
	case OP_FLOORDIV:
	case OP_MOD:
		if (y == 0)
			return 0;
		float_divmod(x, y, &d, &md);
		*out = float_value(op == OP_MOD ? md : d);
		return 1;
	case OP_POW:
		if (x == 0 && y < 0)
			return 0;
		if (x < 0 && y != floor(y))
			return 0;   /* a complex result */
		*out = float_value(pow(x, y));
		return 1;
	default:
		return 0;
	}
}

/* The scalar kind a dtype argument names (numpy.float32, numba.int32, a
 * dtype string), or -1. */
static int dtype_kind(Module *m, int upto, const Expr *e)
{
	PjValue v;
	if (!cli_eval(m, upto, e, &v))
		return -1;
	if (v.kind == PJ_V_DTYPE || v.kind == PJ_V_STR)
		return (int)ty_sk_from_name(v.s);
	if (v.kind == PJ_V_INTRIN && !strncmp(v.s, "numpy.", 6))
		return intrin_dtype(intrin_lookup(v.s));
	return -1;
}

/* v as integer kind sk, as NumPy 2 converts it: a float is truncated;
 * NaN, infinities and values out of the kind's range are refused (0). */
static int int_elem(int sk, const PjValue *v, int64_t *out)
{
	int bits = scalar_info[sk].size * 8, sg = scalar_info[sk].is_signed;
	if (is_int(v)) {
		*out = v->i;
		if (bits == 64)
			return sg || v->i >= 0;
		int64_t lo = sg ? -((int64_t)1 << (bits - 1)) : 0;
		int64_t hi = sg ? ((int64_t)1 << (bits - 1)) : ((int64_t)1 << bits);   /* one past the top */
		return v->i >= lo && v->i < hi;
	}
	double t = trunc(v->f);
	double lo = sg ? -ldexp(1, bits - 1) : 0, hi = ldexp(1, sg ? bits - 1 : bits);
	if (!(t >= lo && t < hi))
		return 0;
	*out = t >= 0x1p63 ? (int64_t)(uint64_t)t : (int64_t)t;
	return 1;
}

/* Stores v at p as kind sk; 0 where NumPy would refuse the value. */
static int put_elem(unsigned char *p, int sk, const PjValue *v)
{
	double f = as_float(v);
	int64_t i = 0;
	if (scalar_info[sk].is_int && !int_elem(sk, v, &i))
		return 0;
	switch (sk) {
	case SK_BOOL: *p = f != 0; break;
	case SK_I8: case SK_U8: { uint8_t x = (uint8_t)i; memcpy(p, &x, 1); break; }
	case SK_I16: case SK_U16: { uint16_t x = (uint16_t)i; memcpy(p, &x, 2); break; }
	case SK_I32: case SK_U32: { uint32_t x = (uint32_t)i; memcpy(p, &x, 4); break; }
	case SK_F32: { float x = (float)f; memcpy(p, &x, 4); break; }
	case SK_F64: memcpy(p, &f, 8); break;
	default: memcpy(p, &i, 8); break;
	}
	return 1;
}

/* numpy.array(TUPLE[, dtype]) of numbers or of equal tuples of numbers,
 * and numpy.arange(N[, dtype]): a constant array, as the glue reports a
 * NumPy array bound at module level (dtype also as dtype=). */
static int np_array(Module *m, int upto, const Expr *e, PjValue *out)
{
	PjValue f, v;
	if (!cli_eval(m, upto, e->call.fn, &f) || f.kind != PJ_V_INTRIN)
		return 0;
	int arange = !strcmp(f.s, "numpy.arange");
	if ((!arange && strcmp(f.s, "numpy.array")) || e->call.nargs < 1 || e->call.nargs > 2)
		return 0;
	const Expr *dt = e->call.nargs == 2 ? e->call.args[1] : NULL;
	for (int k = 0; k < e->call.nkw; k++) {
		if (strcmp(e->call.kwnames[k], "dtype") || dt)
			return 0;
		dt = e->call.kwargs[k];
	}
	if (!cli_eval(m, upto, e->call.args[0], &v))
		return 0;
	int64_t shape[2] = {0, 1}, n;
	int ndim = 1, floats = 0;
	const PjValue *items;
	PjValue *seq = NULL;
	if (arange) {
		if (!is_int(&v) || v.i < 0 || v.i > 1 << 16)
			return 0;
		seq = arena_alloc(m->arena, sizeof *seq * (size_t)(v.i + 1));
		for (int64_t k = 0; k < v.i; k++)
			seq[k] = int_value(k);
		items = seq;
		shape[0] = n = v.i;
	} else {
		if (v.kind != PJ_V_TUPLE || v.n < 1)
			return 0;
		shape[0] = v.n;
		if (v.elts[0].kind == PJ_V_TUPLE) {
			ndim = 2;
			shape[1] = v.elts[0].n;
		}
		n = shape[0] * shape[1];
		seq = arena_alloc(m->arena, sizeof *seq * (size_t)(n + 1));
		for (int64_t r = 0; r < shape[0]; r++) {
			const PjValue *row = ndim == 2 ? &v.elts[r] : NULL;
			if (row && (row->kind != PJ_V_TUPLE || row->n != shape[1]))
				return 0;
			for (int64_t c = 0; c < shape[1]; c++) {
				const PjValue *x = row ? &row->elts[c] : &v.elts[r];
				if (!is_num(x))
					return 0;
				floats |= x->kind == PJ_V_FLOAT;
				seq[r * shape[1] + c] = *x;
			}
		}
		items = seq;
	}
	int sk = dt ? dtype_kind(m, upto, dt) : floats ? SK_F64 : SK_I64;
	if (sk < 0 || sk == SK_F16 || scalar_info[sk].is_complex)
		return 0;
	int size = scalar_info[sk].size;
	unsigned char *data = arena_alloc(m->arena, (size_t)(n * size + 1));
	for (int64_t k = 0; k < n; k++)
		if (!put_elem(data + k * size, sk, &items[k]))
			return 0;
	*out = (PjValue){.kind = PJ_V_ARRAY, .s = scalar_info[sk].name, .data = data, .ndim = ndim};
	out->shape[0] = shape[0];
	out->shape[1] = shape[1];
	return 1;
}

/* NumPy's scalar constructor `ctor` (numpy.float16 ... numpy.uint64)
 * of the number v, as NumPy 2 makes it: floats rounded to the dtype, an
 * integer dtype refusing what does not fit (0). */
static int np_scalar(const char *ctor, const PjValue *v, PjValue *out)
{
	int sk = intrin_dtype(intrin_lookup(ctor));
	int64_t i;
	if (sk < 0 || sk == SK_BOOL || scalar_info[sk].is_complex)
		return 0;
	if (scalar_info[sk].is_float)
		*out = float_value(sema_round_float((ScalarKind)sk, as_float(v)));
	else if (int_elem(sk, v, &i))
		*out = int_value(i);
	else
		return 0;
	if (sk != SK_F64)
		out->s = scalar_info[sk].name;
	return 1;
}

/* cuda.declare_device("name", "sig"[, link=...][, abi="c"]): an external
 * function (the CLI links nothing; its PTX declares the function). */
static int declare_device(Module *m, int upto, const Expr *e, PjValue *out)
{
	const Expr *fn = e->call.fn;
	if (!((fn->kind == E_ATTR && !strcmp(fn->attr.name, "declare_device")) ||
	      (fn->kind == E_NAME && !strcmp(fn->name.id, "declare_device"))))
		return 0;
	PjValue name, sig, abi;
	if (e->call.nargs != 2 || !cli_eval(m, upto, e->call.args[0], &name) || name.kind != PJ_V_STR ||
	    !cli_eval(m, upto, e->call.args[1], &sig) || sig.kind != PJ_V_STR)
		return 0;
	PjFunc *f = arena_alloc(m->arena, sizeof *f);
	const char **sigs = arena_alloc(m->arena, sizeof *sigs);
	sigs[0] = sig.s;
	f->name = f->external = name.s;
	f->sigs = sigs;
	f->nsigs = 1;
	f->is_device = 1;
	for (int k = 0; k < e->call.nkw; k++)
		if (!strcmp(e->call.kwnames[k], "abi") && cli_eval(m, upto, e->call.kwargs[k], &abi) &&
		    abi.kind == PJ_V_STR)
			f->abi_c = !strcmp(abi.s, "c");
	*out = (PjValue){.kind = PJ_V_FUNC, .func = f};
	return 1;
}

static int call(Module *m, int upto, const Expr *e, PjValue *out)
{
	const Expr *fn = e->call.fn;
	PjValue bound, arg;
	if (np_array(m, upto, e, out) || declare_device(m, upto, e, out))
		return 1;
	/* np.float32(x), np.int8(x), ...: a number of that dtype, as the glue
	 * passes a NumPy scalar (np.float64(x) is a float to Python too) */
	if (e->call.nargs == 1 && !e->call.nkw && cli_eval(m, upto, fn, &bound) && bound.kind == PJ_V_INTRIN &&
	    cli_eval(m, upto, e->call.args[0], &arg) && is_num(&arg))
		return np_scalar(bound.s, &arg, out);
	if (fn->kind != E_NAME || e->call.nkw || lookup(m, upto, fn->name.id, &bound))
		return 0;
	const char *name = fn->name.id;
	int n = e->call.nargs;
	PjValue args[8];
	if (n < 1 || n > 8)
		return 0;
	for (int i = 0; i < n; i++)
		if (!cli_eval(m, upto, e->call.args[i], &args[i]))
			return 0;
	if (n == 1 && !strcmp(name, "len") && args[0].kind == PJ_V_TUPLE) {
		*out = int_value(args[0].n);
		return 1;
	}
	if (n == 1 && args[0].kind == PJ_V_TUPLE && (!strcmp(name, "min") || !strcmp(name, "max"))) {
		if (args[0].n < 1 || args[0].n > 8)
			return 0;
		n = args[0].n;
		memcpy(args, args[0].elts, sizeof args[0] * (size_t)n);
	}
	for (int i = 0; i < n; i++)
		if (!is_num(&args[i]))
			return 0;
	if (n == 1 && !strcmp(name, "int")) {
		if (is_int(&args[0])) {
			*out = int_value(args[0].i);
			return 1;
		}
		double t = trunc(args[0].f);
		if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0))
			return 0;
		*out = int_value((int64_t)t);
		return 1;
	}
	if (n == 1 && !strcmp(name, "float")) {
		*out = float_value(as_float(&args[0]));
		return 1;
	}
	if (n == 1 && !strcmp(name, "abs")) {
		if (is_int(&args[0])) {
			if (args[0].i == INT64_MIN)
				return 0;
			*out = int_value(args[0].i < 0 ? -args[0].i : args[0].i);
		} else {
			*out = float_value(fabs(args[0].f));
		}
		return 1;
	}
	if (!strcmp(name, "min") || !strcmp(name, "max")) {
		int best = 0, want_max = name[1] == 'a';
		for (int i = 1; i < n; i++) {
			double x = as_float(&args[i]), y = as_float(&args[best]);
			if (want_max ? x > y : x < y)
				best = i;
		}
		*out = args[best];
		if (out->kind == PJ_V_BOOL)
			out->kind = PJ_V_INT;
		return 1;
	}
	return 0;
}

int cli_eval(Module *m, int upto, const Expr *e, PjValue *out)
{
	memset(out, 0, sizeof *out);
	PjValue a, b;
	switch (e->kind) {
	case E_INT:
		if (e->big)
			return 0;
		*out = int_value(e->ival);
		return 1;
	case E_FLOAT:
		*out = float_value(e->fval);
		return 1;
	case E_IMAG:
		*out = (PjValue){.kind = PJ_V_COMPLEX, .im = e->fval};
		return 1;
	case E_BOOL:
		*out = (PjValue){.kind = PJ_V_BOOL, .i = e->ival};
		return 1;
	case E_NONE:
		out->kind = PJ_V_NONE;
		return 1;
	case E_STR:
		out->kind = PJ_V_STR;
		out->s = arena_strndup(m->arena, e->str.s, (size_t)e->str.len);
		return 1;
	case E_NAME:
		return lookup(m, upto, e->name.id, out);
	case E_ATTR:
		if (!cli_eval(m, upto, e->attr.obj, &a) || a.kind != PJ_V_MODULE)
			return 0;
		*out = member_value(m, a.s, e->attr.name);
		return 1;
	case E_UNARY:
		if (!cli_eval(m, upto, e->bin.a, &a))
			return 0;
		if (e->bin.op == OP_NOT) {
			if (!is_num(&a))
				return 0;
			*out = (PjValue){.kind = PJ_V_BOOL, .i = as_float(&a) == 0};
			return 1;
		}
		if (a.kind == PJ_V_COMPLEX && e->bin.op != OP_INVERT) {
			*out = a;
			if (e->bin.op == OP_NEG)
				out->f = -a.f, out->im = -a.im;
			return 1;
		}
		if (!is_num(&a))
			return 0;
		if (is_int(&a)) {
			if (e->bin.op == OP_NEG && a.i == INT64_MIN)
				return 0;
			*out = int_value(e->bin.op == OP_NEG ? -a.i : e->bin.op == OP_INVERT ? ~a.i : a.i);
			return 1;
		}
		if (e->bin.op == OP_INVERT)
			return 0;
		*out = float_value(e->bin.op == OP_NEG ? -a.f : a.f);
		return 1;
	case E_BINARY:
		if (!cli_eval(m, upto, e->bin.a, &a) || !cli_eval(m, upto, e->bin.b, &b))
			return 0;
		return binary(m, e->bin.op, &a, &b, out);
	case E_TUPLE: {
		PjValue *elts = arena_alloc(m->arena, sizeof *elts * (size_t)(e->tuple.n ? e->tuple.n : 1));
		for (int i = 0; i < e->tuple.n; i++)
			if (!cli_eval(m, upto, e->tuple.elts[i], &elts[i]))
				return 0;
		*out = (PjValue){.kind = PJ_V_TUPLE, .n = e->tuple.n, .elts = elts};
		return 1;
	}
	case E_SUBSCRIPT:
		if (!cli_eval(m, upto, e->sub.obj, &a) || a.kind != PJ_V_TUPLE ||
		    !cli_eval(m, upto, e->sub.index, &b) || !is_int(&b))
			return 0;
		if (b.i < -(int64_t)a.n || b.i >= a.n)
			return 0;
		*out = a.elts[b.i < 0 ? b.i + a.n : b.i];
		return 1;
	case E_CALL:
		return call(m, upto, e, out);
	default:
		return 0;
	}
}

/* ---------------------------------------------------------- binding */

static int find_item(const Module *m, const char *name)
{
	for (int j = m->nitems - 1; j >= 0; j--)
		if (m->items[j].name && !strcmp(m->items[j].name, name))
			return j;
	return -1;
}

/* Answers a global name of a function of the module: see the top. */
int cli_resolve(void *data, const char *name, PjValue *out, PjArena *arena)
{
	Module *m = data;
	int j = find_item(m, name);
	if (j < 0) {
		if (m->star_from) {
			const char *q = arena_printf(m->arena, "%s.%s", m->star_from, name);
			if (intrin_lookup(q) != IN_NONE) {
				*out = (PjValue){.kind = PJ_V_INTRIN, .s = q};
				return 1;
			}
		}
		return 0;
	}
	if (m->ok[j]) {
		*out = m->vals[j];
		return 1;
	}
	*out = (PjValue){.kind = PJ_V_UNKNOWN, .s = m->why[j] ? m->why[j] : "non-constant"};
	return 1;
}

/* NAME = cuda.jit(device=True)(lambda a, b: ...): a function whose source
 * starts at the lambda's line, which parse_function reads as a lambda. */
static int jitted_lambda(Module *m, const ModuleItem *it, PjFunc *f)
{
	const Expr *v = it->value;
	if (v->kind != E_CALL || v->call.nargs != 1 || v->call.args[0]->kind != E_LAMBDA ||
	    v->call.fn->kind != E_CALL)
		return 0;
	const Expr *jit = v->call.fn, *fn = jit->call.fn;
	if (!((fn->kind == E_ATTR && !strcmp(fn->attr.name, "jit")) || (fn->kind == E_NAME && !strcmp(fn->name.id, "jit"))))
		return 0;
	int bol = v->call.args[0]->span.off;
	while (bol > 0 && m->text[bol - 1] != '\n')
		bol--;
	f->name = "<lambda>";
	f->source = m->text + bol;
	f->file = m->file;
	f->first_line = span_loc((Span){v->span.src, bol, 0}).line;
	f->resolve = cli_resolve;
	f->data = m;
	for (int k = 0; k < jit->call.nkw; k++)
		if (!strcmp(jit->call.kwnames[k], "device") && jit->call.kwargs[k]->kind == E_BOOL)
			f->is_device = jit->call.kwargs[k]->ival != 0;
	for (int k = 0; k < jit->call.nargs; k++)
		if (jit->call.args[k]->kind == E_STR) {
			f->sigs = &jit->call.args[k]->str.s;
			f->nsigs = 1;
		}
	return 1;
}

/* Evaluates what each item binds, in file order, and makes a PjFunc for
 * each def. */
void cli_bind(Module *m)
{
	int n = m->nitems;
	m->vals = arena_alloc(m->arena, sizeof *m->vals * (size_t)(n ? n : 1));
	m->ok = arena_alloc(m->arena, sizeof *m->ok * (size_t)(n ? n : 1));
	m->why = arena_alloc(m->arena, sizeof *m->why * (size_t)(n ? n : 1));
	m->funcs = arena_alloc(m->arena, sizeof *m->funcs * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		ModuleItem *it = &m->items[i];
		switch (it->kind) {
		case MI_IMPORT:
			if (it->attr && !strcmp(it->attr, "*")) {
				if (!strcmp(it->module, "math") || !strcmp(it->module, "numpy") ||
				    !strcmp(it->module, "numba.cuda") || !strcmp(it->module, "ptxjit.cuda"))
					m->star_from = it->module;
				it->name = NULL;
				break;
			}
			m->vals[i] = cli_import_value(m, it);
			m->ok[i] = 1;
			break;
		case MI_DEF: {
			PjFunc *f = &m->funcs[i];
			f->name = it->name;
			f->source = m->text;
			f->file = m->file;
			f->first_line = 1;
			f->col_shift = 0;
			f->resolve = cli_resolve;
			f->data = m;
			f->is_device = it->is_device;
			if (it->is_device && it->sig) {
				f->sigs = &it->sig;
				f->nsigs = 1;
			} else if (it->is_device && it->nsigs) {
				f->sigs = it->sigs;
				f->nsigs = it->nsigs;
			}
			m->vals[i] = (PjValue){.kind = PJ_V_FUNC, .func = f};
			m->ok[i] = 1;
			break;
		}
		case MI_ASSIGN:
			if (jitted_lambda(m, it, &m->funcs[i])) {
				m->vals[i] = (PjValue){.kind = PJ_V_FUNC, .func = &m->funcs[i]};
				m->ok[i] = 1;
				break;
			}
			m->ok[i] = cli_eval(m, i, it->value, &m->vals[i]);
			if (!m->ok[i])
				m->why[i] = it->value->kind == E_UNSUPPORTED && strstr(it->value->str.s, "list") ? "list"
				          : it->value->kind == E_UNSUPPORTED && strstr(it->value->str.s, "dict") ? "dict"
				          : it->value->kind == E_UNSUPPORTED && strstr(it->value->str.s, "set") ? "set"
				          : it->value->kind == E_CALL ? "call result" : "non-constant";
			break;
		}
	}
}

/*
 * test_sema.c - semantic analysis: type promotion and unification, type
 * names, Numba signature strings, intrinsic lookup, and the inference
 * and error messages of small kernels parsed from source.
 *
 *   make build/test_sema && build/test_sema
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "check.h"

/* Defined by the front end; a fallback while it is missing. */
__attribute__((weak)) const char *const ast_op_name[NOP] = {
	"+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^",
	"-", "+", "~", "not", "<", "<=", ">", ">=", "==", "!=", "is", "is not", "in", "not in",
	"and", "or",
};

static Ctx ctx;
static char errbuf[4096];

static Ctx *new_ctx(void)
{
	if (ctx.arena)
		arena_free(ctx.arena);
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = arena_new();
	ctx.dumpf = stderr;
	errbuf[0] = 0;
	return &ctx;
}

static Type *S(ScalarKind k) { return ty_scalar(k); }

static const char *str(const Type *t) { return t ? ty_str_of(&ctx, t) : "NULL"; }

/* ------------------------------------------------------------ promotion */

#define PROMOTE(a, b, r) CHECK_STR_CONTAINS(str(ty_promote(S(a), S(b))), r)
#define UNIFY(a, b, r) CHECK_STR_CONTAINS(str(ty_unify(&ctx, S(a), S(b))), r)

TEST(promote_table)
{
	new_ctx();
	PROMOTE(SK_I32, SK_I32, "int64");
	PROMOTE(SK_I8, SK_I16, "int64");
	PROMOTE(SK_U32, SK_U32, "uint64");
	PROMOTE(SK_U8, SK_U16, "uint64");
	PROMOTE(SK_U32, SK_I64, "int64");
	PROMOTE(SK_I64, SK_U64, "int64");   /* Numba: mixed signedness is signed */
	PROMOTE(SK_U8, SK_I8, "int64");
	PROMOTE(SK_BOOL, SK_BOOL, "int64");
	PROMOTE(SK_BOOL, SK_I32, "int64");
	PROMOTE(SK_F32, SK_F32, "float32");
	PROMOTE(SK_F32, SK_I64, "float64");
	PROMOTE(SK_F32, SK_I32, "float64");
	PROMOTE(SK_F32, SK_I16, "float32");
	PROMOTE(SK_F32, SK_U8, "float32");
	PROMOTE(SK_F32, SK_U16, "float64");
	PROMOTE(SK_F32, SK_BOOL, "float32");
	PROMOTE(SK_F32, SK_F64, "float64");
	PROMOTE(SK_F16, SK_F16, "float32");
	PROMOTE(SK_I64, SK_F64, "float64");
	PROMOTE(SK_C64, SK_F32, "complex64");
	PROMOTE(SK_C64, SK_F64, "complex128");
	PROMOTE(SK_C64, SK_I32, "complex128");
	PROMOTE(SK_C64, SK_I16, "complex64");
	PROMOTE(SK_C128, SK_F32, "complex128");
	CHECK(ty_promote(S(SK_I32), ty_none()) == NULL);
}

TEST(unify_table)
{
	new_ctx();
	UNIFY(SK_I32, SK_I64, "int64");
	UNIFY(SK_I32, SK_I32, "int32");
	UNIFY(SK_I64, SK_U64, "float64");
	UNIFY(SK_U32, SK_I32, "int64");
	UNIFY(SK_U8, SK_I8, "int16");
	UNIFY(SK_U16, SK_I32, "int32");
	UNIFY(SK_I64, SK_F64, "float64");
	UNIFY(SK_I16, SK_F32, "float32");
	UNIFY(SK_I32, SK_F32, "float64");
	UNIFY(SK_BOOL, SK_I64, "int64");
	UNIFY(SK_BOOL, SK_I8, "int8");
	UNIFY(SK_F16, SK_I8, "float16");
	UNIFY(SK_F16, SK_F32, "float32");
	UNIFY(SK_C64, SK_F64, "complex128");
	UNIFY(SK_C64, SK_I16, "complex64");
	Type *c1 = ty_array(&ctx, SK_F32, 1, LAYOUT_C, SP_GLOBAL, 0);
	Type *a1 = ty_array(&ctx, SK_F32, 1, LAYOUT_A, SP_GLOBAL, 0);
	Type *c2 = ty_array(&ctx, SK_F32, 2, LAYOUT_C, SP_GLOBAL, 0);
	CHECK_STR_CONTAINS(str(ty_unify(&ctx, c1, a1)), "array(float32, 1d, A)");
	CHECK(ty_unify(&ctx, c1, c2) == NULL);
	CHECK(ty_unify(&ctx, c1, S(SK_I64)) == NULL);
	CHECK(ty_unify(&ctx, ty_none(), S(SK_I64)) == NULL);
	Type *t1[2] = {S(SK_I32), S(SK_F32)}, *t2[2] = {S(SK_I64), S(SK_F64)};
	CHECK_STR_CONTAINS(str(ty_unify(&ctx, ty_tuple(&ctx, 2, t1), ty_tuple(&ctx, 2, t2))), "Tuple(int64, float64)");
	CHECK(ty_unify(&ctx, ty_tuple(&ctx, 2, t1), ty_tuple(&ctx, 1, t1)) == NULL);
	CHECK(ty_unify(&ctx, NULL, S(SK_I8)) == S(SK_I8));
}

TEST(type_names)
{
	new_ctx();
	CHECK(strcmp(str(S(SK_F32)), "float32") == 0);
	CHECK(strcmp(str(S(SK_BOOL)), "bool") == 0);
	CHECK(strcmp(str(ty_array(&ctx, SK_F32, 1, LAYOUT_C, SP_GLOBAL, 0)), "array(float32, 1d, C)") == 0);
	CHECK(strcmp(str(ty_array(&ctx, SK_I64, 3, LAYOUT_A, SP_GLOBAL, 1)), "readonly array(int64, 3d, A)") == 0);
	CHECK(strcmp(str(ty_unituple(&ctx, S(SK_I64), 2)), "UniTuple(int64 x 2)") == 0);
	Type *t[2] = {S(SK_I64), S(SK_F32)};
	CHECK(strcmp(str(ty_tuple(&ctx, 2, t)), "Tuple(int64, float32)") == 0);
	CHECK(strcmp(str(ty_none()), "none") == 0);
	CHECK(ty_equal(ty_array(&ctx, SK_F32, 2, LAYOUT_F, SP_GLOBAL, 0), ty_array(&ctx, SK_F32, 2, LAYOUT_F, SP_GLOBAL, 0)));
	CHECK(!ty_equal(ty_array(&ctx, SK_F32, 2, LAYOUT_F, SP_GLOBAL, 0), ty_array(&ctx, SK_F32, 2, LAYOUT_C, SP_GLOBAL, 0)));
	CHECK(!ty_equal(ty_array(&ctx, SK_F32, 1, LAYOUT_C, SP_SHARED, 0), ty_array(&ctx, SK_F32, 1, LAYOUT_C, SP_GLOBAL, 0)));
	CHECK(ty_is_int(S(SK_U8)) && !ty_is_int(S(SK_BOOL)) && ty_is_float(S(SK_F16)) && !ty_is_float(S(SK_C64)));
	CHECK(ty_is_complex(S(SK_C64)) && ty_is_number(S(SK_BOOL)) && !ty_is_number(ty_none()));
	CHECK_EQ_INT(scalar_info[SK_C128].size, 16);
	CHECK(strcmp(scalar_info[SK_F16].numpy, "f2") == 0);
}

/* ------------------------------------------------------------ signatures */

/* The signature's types joined by ";" ("ret|a;b"), or "ERR:" + message. */
static const char *sig(const char *s)
{
	static char out[4096];
	jmp_buf jb;
	new_ctx();
	ctx.jmp = &jb;
	if (setjmp(jb)) {
		snprintf(out, sizeof out, "ERR:%s", ctx.diag.msg);
		return out;
	}
	int n;
	Type **args;
	Type *ret = ty_parse_sig(&ctx, s, &n, &args);
	int k = snprintf(out, sizeof out, "%s|", ret ? str(ret) : "-");
	for (int i = 0; i < n; i++)
		k += snprintf(out + k, sizeof out - k, "%s%s", i ? ";" : "", str(args[i]));
	return out;
}

TEST(signatures_good)
{
	CHECK_STR_CONTAINS(sig("void(float32[::1], float32[::1], float32)"),
	                   "none|array(float32, 1d, C);array(float32, 1d, C);float32");
	CHECK_STR_CONTAINS(sig("(float32[:], int32)"), "-|array(float32, 1d, A);int32");
	CHECK_STR_CONTAINS(sig("float32[::1], int64"), "-|array(float32, 1d, C);int64");
	CHECK_STR_CONTAINS(sig("f4, i8, u1, b1, c8, c16, f8, i4, u8, f2"),
	                   "-|float32;int64;uint8;bool;complex64;complex128;float64;int32;uint64;float16");
	CHECK_STR_CONTAINS(sig("boolean, intp, uintp, double, float_, int_"), "-|bool;int64;uint64;float64;float32;int64");
	CHECK_STR_CONTAINS(sig("float32[:, ::1]"), "-|array(float32, 2d, C)");
	CHECK_STR_CONTAINS(sig("float32[::1, :]"), "-|array(float32, 2d, F)");
	CHECK_STR_CONTAINS(sig("float64[:,:,:]"), "-|array(float64, 3d, A)");
	CHECK_STR_CONTAINS(sig("uint8[:, :, ::1]"), "-|array(uint8, 3d, C)");
	CHECK_STR_CONTAINS(sig("UniTuple(int64, 2), UniTuple(float32 x 3)"), "-|UniTuple(int64 x 2);UniTuple(float32 x 3)");
	CHECK_STR_CONTAINS(sig("Tuple(int64, float32)"), "-|Tuple(int64, float32)");
	CHECK_STR_CONTAINS(sig("void(array(float32, 2d, C), array(int32, 1d, A))"),
	                   "none|array(float32, 2d, C);array(int32, 1d, A)");
	CHECK_STR_CONTAINS(sig("float32(float32, float32)"), "float32|float32;float32");
	CHECK_STR_CONTAINS(sig("UniTuple(int64, 2)(int64)"), "UniTuple(int64 x 2)|int64");
	CHECK_STR_CONTAINS(sig("types.float32[::1], nb.int32"), "-|array(float32, 1d, C);int32");
	CHECK(strcmp(sig(""), "-|") == 0);
	CHECK(strcmp(sig("void()"), "none|") == 0);
	CHECK(strcmp(sig("  int64 ,  "), "-|int64") == 0);
	new_ctx();
	CHECK_EQ_INT(ty_sk_from_name("f8"), SK_F64);
	CHECK_EQ_INT((int)ty_sk_from_name("float128"), -1);
}

TEST(signatures_bad)
{
	const char *e = sig("void(flaot32[::1], int64)");
	CHECK_STR_CONTAINS(e, "<signature>:1:6: error: unknown type 'flaot32' in signature");
	CHECK_STR_CONTAINS(e, "hint: signature types are spelled like");
	CHECK_STR_CONTAINS(e, "void(flaot32[::1], int64)\n         ^~~~~~");
	CHECK_STR_CONTAINS(sig("float32[:, ::1, :]"), "'::1' may mark only the first axis");
	CHECK_STR_CONTAINS(sig("float32[::2]"), "<signature>:1:11: error: expected '::1'");
	CHECK_STR_CONTAINS(sig("void(float32"), "expected ')'");
	CHECK_STR_CONTAINS(sig("float32 int64"), "<signature>:1:9: error: unexpected 'int64' after the signature");
	CHECK_STR_CONTAINS(sig("void(void)"), "an argument cannot have type 'void'");
	CHECK_STR_CONTAINS(sig("UniTuple(int64)"), "UniTuple(type, count)");
	CHECK_STR_CONTAINS(sig("float32[:]]"), "unexpected ']'");
	CHECK_STR_CONTAINS(sig("float32 $"), "unexpected character '$'");
	CHECK_STR_CONTAINS(sig("array(float32, 2, C)"), "expected 'd'");
	CHECK_STR_CONTAINS(sig("array(float32, 2d, Q)"), "layout C, F or A");
}

TEST(intrinsics)
{
	CHECK_EQ_INT(intrin_lookup("cuda.grid"), IN_GRID);
	CHECK_EQ_INT(intrin_lookup("numba.cuda.grid"), IN_GRID);
	CHECK_EQ_INT(intrin_lookup("ptxjit.cuda.threadIdx"), IN_THREADIDX);
	CHECK_EQ_INT(intrin_lookup("np.float32"), IN_NP_FLOAT32);
	CHECK_EQ_INT(intrin_lookup("numpy.double"), IN_NP_FLOAT64);
	CHECK_EQ_INT(intrin_lookup("np.float_"), IN_NP_FLOAT64);
	CHECK_EQ_INT(intrin_lookup("numpy.bool"), IN_NP_BOOL);
	CHECK_EQ_INT(intrin_lookup("numpy.absolute"), IN_NP_ABS);
	CHECK_EQ_INT(intrin_lookup("math.sqrt"), IN_MATH_SQRT);
	CHECK_EQ_INT(intrin_lookup("cuda.atomic.add"), IN_ATOMIC_ADD);
	CHECK_EQ_INT(intrin_lookup("range"), IN_RANGE);
	CHECK_EQ_INT(intrin_lookup("math.foo"), IN_NONE);
	CHECK_EQ_INT(intrin_lookup(""), IN_NONE);
	CHECK_EQ_INT(intrin_dtype(IN_NP_UINT16), SK_U16);
	CHECK_EQ_INT(intrin_dtype(IN_MATH_SQRT), -1);
	CHECK(strcmp(intrin_name[IN_SHARED_ARRAY], "cuda.shared.array") == 0);
}

/* --------------------------------------------------------------- kernels */

typedef struct Global {
	const char *name;
	PjValue v;
} Global;

static Global *globals;
static int nglobals;

static int resolve(void *data, const char *name, PjValue *out, PjArena *arena)
{
	(void)data;
	(void)arena;
	for (int i = 0; i < nglobals; i++)
		if (strcmp(globals[i].name, name) == 0) {
			*out = globals[i].v;
			return 1;
		}
	return 0;
}

static PjFunc device_fns[8];
static int ndevice;
static PjValue tuple_elts[2];

static void set_globals(void)
{
	static Global g[32];
	int n = 0;
	g[n++] = (Global){"cuda", {.kind = PJ_V_MODULE, .s = "numba.cuda"}};
	g[n++] = (Global){"numba", {.kind = PJ_V_MODULE, .s = "numba"}};
	g[n++] = (Global){"np", {.kind = PJ_V_MODULE, .s = "numpy"}};
	g[n++] = (Global){"math", {.kind = PJ_V_MODULE, .s = "math"}};
	g[n++] = (Global){"TPB", {.kind = PJ_V_INT, .i = 16}};
	g[n++] = (Global){"SCALE", {.kind = PJ_V_FLOAT, .f = 0.5}};
	g[n++] = (Global){"float32", {.kind = PJ_V_DTYPE, .s = "float32"}};
	g[n++] = (Global){"sqrt", {.kind = PJ_V_INTRIN, .s = "math.sqrt"}};
	g[n++] = (Global){"grid", {.kind = PJ_V_INTRIN, .s = "numba.cuda.grid"}};
	g[n++] = (Global){"lst", {.kind = PJ_V_UNKNOWN, .s = "list"}};
	tuple_elts[0] = (PjValue){.kind = PJ_V_INT, .i = 4};
	tuple_elts[1] = (PjValue){.kind = PJ_V_INT, .i = 8};
	g[n++] = (Global){"SHAPE", {.kind = PJ_V_TUPLE, .n = 2, .elts = tuple_elts}};
	for (int i = 0; i < ndevice; i++)
		g[n++] = (Global){device_fns[i].name, {.kind = PJ_V_FUNC, .func = &device_fns[i]}};
	globals = g;
	nglobals = n;
}

static const char *device_sigs[16];

static void add_device(const char *name, const char *source, const char *sigstr)
{
	device_sigs[ndevice] = sigstr;
	device_fns[ndevice] = (PjFunc){.name = name, .source = source, .file = "dev.py", .first_line = 1,
	                               .resolve = resolve, .sigs = &device_sigs[ndevice], .nsigs = sigstr != NULL,
	                               .is_device = 1};
	ndevice++;
}

static void clear_devices(void)
{
	ndevice = 0;
}

/* Types `source` as kernel `name` with the signature; NULL and errbuf on error. */
static Spec *kernel(const char *source, const char *name, const char *sigstr)
{
	static PjFunc f;
	jmp_buf jb;
	new_ctx();
	set_globals();
	ctx.jmp = &jb;
	if (setjmp(jb)) {
		snprintf(errbuf, sizeof errbuf, "%s", ctx.diag.msg);
		return NULL;
	}
	f = (PjFunc){.name = name, .source = source, .file = "k.py", .first_line = 10, .col_shift = 4,
	             .resolve = resolve};
	int n;
	Type **args;
	ty_parse_sig(&ctx, sigstr, &n, &args);
	return sema_kernel(&ctx, &f, n, args);
}

static const char *var_type(Spec *sp, const char *name)
{
	if (!sp)
		return "(no spec)";
	for (int i = 0; i < sp->nvars; i++)
		if (strcmp(sp->vars[i]->name, name) == 0)
			return str(sp->vars[i]->ty);
	return "(no var)";
}

/* the types of every Var of the name (one per web, sema_webs.c), in order */
static const char *var_types(Spec *sp, const char *name)
{
	static char buf[256];
	buf[0] = 0;
	for (int i = 0; sp && i < sp->nvars; i++)
		if (strcmp(sp->vars[i]->name, name) == 0)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? ", " : "", str(sp->vars[i]->ty));
	return buf;
}

#define VARS(sp, name, t) do { const char *vt_ = var_types(sp, name); if (strcmp(vt_, t) != 0) { \
	printf("%s:%d: variable %s has types %s, expected %s\n", __FILE__, __LINE__, name, vt_, t); \
	check_failed_now = 1; } } while (0)

#define VAR(sp, name, t) do { const char *vt_ = var_type(sp, name); if (strcmp(vt_, t) != 0) { \
	printf("%s:%d: variable %s has type %s, expected %s\n", __FILE__, __LINE__, name, vt_, t); \
	if (!sp) { printf("  error: %s\n", errbuf); } check_failed_now = 1; } } while (0)

static const char *err_of(const char *source, const char *name, const char *sigstr)
{
	Spec *sp = kernel(source, name, sigstr);
	return sp ? "(no error)" : errbuf;
}

TEST(infer_vector_add)
{
	Spec *sp = kernel("@cuda.jit\n"
	                  "def add(x, y, out):\n"
	                  "    idx = cuda.grid(1)\n"
	                  "    if idx < out.size:\n"
	                  "        out[idx] = x[idx] + y[idx]\n",
	                  "add", "float32[::1], float32[::1], float32[::1]");
	VAR(sp, "idx", "int64");
	VAR(sp, "x", "array(float32, 1d, C)");
	CHECK(sp && sp->is_kernel && ctx.nspec == 1 && ctx.specs[0] == sp && ctx.kernel == sp);
	CHECK(sp && sp->ret->kind == TY_NONE);
	if (!sp)
		return;
	Stmt *s = sp->def->body.s[1];
	Stmt *st = s->cond.body.s[0];
	CHECK_STR_CONTAINS(str(st->assign.targets[0]->ty), "float32");
	CHECK_STR_CONTAINS(str(st->assign.value->ty), "float32");
	CHECK(st->assign.value->bin.a->sub.obj->name.var == sp->vars[0]);
	Expr *call = sp->def->body.s[0]->assign.value;
	CHECK_EQ_INT(call->call.intrin, IN_GRID);
	CHECK_STR_CONTAINS(str(s->cond.cond->ty), "bool");
}

TEST(infer_unify_and_loops)
{
	Spec *sp = kernel("def k(a, n, out):\n"
	                  "    i = cuda.threadIdx.x\n"
	                  "    j = i\n"
	                  "    i = i + 1\n"
	                  "    s = 0\n"
	                  "    for k in range(n):\n"
	                  "        s += a[k]\n"
	                  "    t = 0\n"
	                  "    t = t + cuda.blockDim.x\n"
	                  "    q = n / 2\n"
	                  "    h = n // 2\n"
	                  "    c = True\n"
	                  "    c = c + 1\n"
	                  "    out[0] = s\n",
	                  "k", "float32[:], int32, float64[::1]");
	/* each assignment is its own variable where their values never meet */
	VARS(sp, "i", "int32, int64");
	VAR(sp, "j", "int32");
	VAR(sp, "s", "float64");
	VAR(sp, "k", "int64");
	VAR(sp, "t", "int64");
	VAR(sp, "q", "float64");
	VAR(sp, "h", "int64");
	VARS(sp, "c", "bool, int64");
	VAR(sp, "n", "int32");
}

TEST(infer_webs)
{
	/* values that meet (after an if, around a loop) unify; others do not */
	Spec *sp = kernel("def k(a, n, out):\n"
	                  "    x = 1\n"
	                  "    out[0] = x\n"
	                  "    x = a\n"
	                  "    out[1] = x[0]\n"
	                  "    y = 1\n"
	                  "    if n > 0:\n"
	                  "        y = 2.5\n"
	                  "    out[2] = y\n"
	                  "    s = 0\n"
	                  "    for i in range(n):\n"
	                  "        s += a[i]\n"
	                  "    n = a\n"
	                  "    out[3] = s + n[0]\n"
	                  "    for t in range(n.size):\n"
	                  "        t = a\n"
	                  "        out[4] = t[0]\n",
	                  "k", "float32[:], int32, float64[::1]");
	VARS(sp, "x", "int64, array(float32, 1d, A)");
	VAR(sp, "y", "float64");
	VAR(sp, "s", "float64");
	VARS(sp, "n", "int32, array(float32, 1d, A)");
	VARS(sp, "t", "int64, array(float32, 1d, A)");
	const char *e = err_of("def k(a, n):\n    x = 1\n    if n > 0:\n        x = a\n    a[0] = x\n", "k",
	                       "float32[::1], int64");
	CHECK_STR_CONTAINS(e, "k.py:13:17: error: cannot assign array(float32, 1d, C) to variable 'x', which holds int64");
	e = err_of("def k(a, n):\n    for i in range(n):\n        a = a[1:]\n        a = a.reshape(1, a.size)\n", "k",
	           "float32[::1], int64");
	CHECK_STR_CONTAINS(e, "cannot assign array(float32, 2d, C) to parameter 'a', which holds array(float32, 1d, C)");
}

TEST(infer_operators)
{
	Spec *sp = kernel("def k(a, f, u, b, cx):\n"
	                  "    x1 = f * 2.0\n"
	                  "    x2 = f * 2\n"
	                  "    x3 = f + f\n"
	                  "    x4 = u + u\n"
	                  "    x5 = u + 1\n"
	                  "    x6 = 2 ** 3\n"
	                  "    x7 = f ** 2\n"
	                  "    x8 = -u\n"
	                  "    x9 = ~b\n"
	                  "    y1 = b & b\n"
	                  "    y2 = u << 2\n"
	                  "    y3 = 1 < f <= 3\n"
	                  "    y4 = f if b else 1\n"
	                  "    y5 = f > 0 and u > 0\n"
	                  "    y6 = cx * f\n"
	                  "    y7 = abs(cx)\n"
	                  "    y8 = not f\n"
	                  "    y9 = 7 // 2\n",
	                  "k", "float32[:], float32, uint32, boolean, complex64");
	VAR(sp, "x1", "float64");
	VAR(sp, "x2", "float64");
	VAR(sp, "x3", "float32");
	VAR(sp, "x4", "uint64");
	VAR(sp, "x5", "int64");
	VAR(sp, "x6", "int64");
	VAR(sp, "x7", "float32");
	VAR(sp, "x8", "uint64");
	VAR(sp, "x9", "bool");
	VAR(sp, "y1", "bool");
	VAR(sp, "y2", "uint64");
	VAR(sp, "y3", "bool");
	VAR(sp, "y4", "float64");
	VAR(sp, "y5", "bool");
	VAR(sp, "y6", "complex64");
	VAR(sp, "y7", "float32");
	VAR(sp, "y8", "bool");
	VAR(sp, "y9", "int64");
}

TEST(infer_builtins_math)
{
	Spec *sp = kernel("def k(a, f, i, d):\n"
	                  "    m1 = math.sqrt(f)\n"
	                  "    m2 = math.sqrt(i)\n"
	                  "    m3 = math.floor(d)\n"
	                  "    m4 = math.fabs(f)\n"
	                  "    m5 = np.float32(d)\n"
	                  "    m6 = float32(i)\n"
	                  "    m7 = min(i, 3)\n"
	                  "    m8 = max(f, d)\n"
	                  "    m9 = abs(i)\n"
	                  "    n1 = int(f)\n"
	                  "    n2 = float(i)\n"
	                  "    n3 = round(d)\n"
	                  "    n4 = len(a)\n"
	                  "    n5 = a.shape\n"
	                  "    n6 = a.shape[1]\n"
	                  "    n7 = math.pi * f\n"
	                  "    n8 = sqrt(d)\n"
	                  "    n9 = divmod(i, 2)\n"
	                  "    p1 = np.sqrt(f)\n"
	                  "    p2 = pow(f, 2)\n"
	                  "    p3 = bool(i)\n"
	                  "    p4 = complex(f, f)\n"
	                  "    p5 = numba.float64(i)\n"
	                  "    p6 = cuda.gridsize(2)\n"
	                  "    p7 = a.ndim\n"
	                  "    print(f, 'x', (i, d))\n",
	                  "k", "float32[:, ::1], float32, int32, float64");
	VAR(sp, "m1", "float32");
	VAR(sp, "m2", "float64");
	VAR(sp, "m3", "float64");
	VAR(sp, "m4", "float32");
	VAR(sp, "m5", "float32");
	VAR(sp, "m6", "float32");
	VAR(sp, "m7", "int64");
	VAR(sp, "m8", "float64");
	VAR(sp, "m9", "int32");
	VAR(sp, "n1", "int64");
	VAR(sp, "n2", "float64");
	VAR(sp, "n3", "int64");
	VAR(sp, "n4", "int64");
	VAR(sp, "n5", "UniTuple(int64 x 2)");
	VAR(sp, "n6", "int64");
	VAR(sp, "n7", "float64");
	VAR(sp, "n8", "float64");
	VAR(sp, "n9", "UniTuple(int64 x 2)");
	VAR(sp, "p1", "float32");
	VAR(sp, "p2", "float32");
	VAR(sp, "p3", "bool");
	VAR(sp, "p4", "complex64");
	VAR(sp, "p5", "float64");
	VAR(sp, "p6", "UniTuple(int64 x 2)");
	VAR(sp, "p7", "int64");
}

static Expr *value_of(Spec *sp, int stmt)
{
	return sp->def->body.s[stmt]->assign.value;
}

TEST(constants_and_shared)
{
	Spec *sp = kernel("def k(a):\n"
	                  "    sm = cuda.shared.array(TPB, dtype=np.float32)\n"
	                  "    tile = cuda.shared.array((TPB, TPB), float32)\n"
	                  "    n = 4\n"
	                  "    loc = cuda.local.array(n * 2, np.int32)\n"
	                  "    h = TPB // 2\n"
	                  "    g = SHAPE\n"
	                  "    dyn = cuda.shared.array(0, 'float64')\n"
	                  "    l3 = cuda.local.array(shape=SHAPE, dtype=a.dtype)\n"
	                  "    w = 2 ** 10 + 3 * -2\n"
	                  "    fl = 7.0 // 2\n"
	                  "    m = -7 % 3\n"
	                  "    z = math.floor(2.5)\n",
	                  "k", "float32[:]");
	VAR(sp, "sm", "array(float32, 1d, C)");
	VAR(sp, "tile", "array(float32, 2d, C)");
	VAR(sp, "loc", "array(int32, 1d, C)");
	VAR(sp, "h", "int64");
	VAR(sp, "g", "UniTuple(int64 x 2)");
	VAR(sp, "dyn", "array(float64, 1d, C)");
	VAR(sp, "l3", "array(float32, 2d, C)");
	if (!sp)
		return;
	CHECK_EQ_INT(value_of(sp, 0)->ty->space, SP_SHARED);
	CHECK_EQ_INT(value_of(sp, 3)->ty->space, SP_LOCAL);
	CHECK_EQ_INT(value_of(sp, 0)->call.intrin, IN_SHARED_ARRAY);
	CHECK_EQ_INT(value_of(sp, 0)->call.nargs, 2);     /* dtype= moved into place */
	CHECK_EQ_INT(value_of(sp, 0)->call.nkw, 0);
	CHECK(value_of(sp, 1)->call.args[0]->cval && value_of(sp, 1)->call.args[0]->cval->kind == PJ_V_TUPLE);
	CHECK_EQ_INT(value_of(sp, 3)->call.args[0]->cval->i, 8);
	CHECK_EQ_INT(value_of(sp, 4)->cval->i, 8);
	CHECK_EQ_INT(value_of(sp, 8)->cval->i, 1018);
	CHECK(value_of(sp, 9)->cval && value_of(sp, 9)->cval->f == 3.0);
	CHECK_EQ_INT(value_of(sp, 10)->cval->i, 2);
	CHECK(value_of(sp, 11)->cval && value_of(sp, 11)->cval->f == 2.0);
	CHECK(value_of(sp, 11)->ty->sk == SK_F64);
}

TEST(reduce_seed)
{
	Spec *sp = kernel("def reduce_kernel(in_array, out_array):\n"
	                  "    shared = cuda.shared.array(TPB, dtype=np.float32)\n"
	                  "    idx = cuda.grid(1)\n"
	                  "    tx = cuda.threadIdx.x\n"
	                  "\n"
	                  "    shared[tx] = in_array[idx]\n"
	                  "    cuda.syncthreads()\n"
	                  "\n"
	                  "    i = TPB // 2\n"
	                  "    while i > 0:\n"
	                  "        if tx < i:\n"
	                  "            shared[tx] += shared[tx + i]\n"
	                  "        cuda.syncthreads()\n"
	                  "        i //= 2\n"
	                  "\n"
	                  "    if tx == 0:\n"
	                  "        out_array[cuda.blockIdx.x] = shared[0]\n",
	                  "reduce_kernel", "float32[::1], float32[::1]");
	VAR(sp, "tx", "int32");
	VAR(sp, "i", "int64");
	VAR(sp, "shared", "array(float32, 1d, C)");
}

TEST(grid_stride_and_matmul_seeds)
{
	Spec *sp = kernel("def gpu_reduce(in_array, out_array):\n"
	                  "    thread_id = cuda.grid(1)\n"
	                  "    stride = cuda.gridsize(1)\n"
	                  "    temp_sum = 0.0\n"
	                  "    for i in range(thread_id, in_array.shape[0], stride):\n"
	                  "        temp_sum += in_array[i]\n"
	                  "    cuda.atomic.add(out_array, 0, temp_sum)\n",
	                  "gpu_reduce", "float32[::1], float32[::1]");
	VAR(sp, "temp_sum", "float64");
	VAR(sp, "i", "int64");
	sp = kernel("def gpu_matrix_mult(A, B, C):\n"
	            "    i, j = cuda.grid(2)\n"
	            "    if i < C.shape[0] and j < C.shape[1]:\n"
	            "        for k in range(A.shape[1]):\n"
	            "            C[i, j] += A[i, k] * B[k, j]\n",
	            "gpu_matrix_mult", "float64[:, ::1], float64[:, ::1], float64[:, ::1]");
	VAR(sp, "i", "int64");
	VAR(sp, "j", "int64");
	VAR(sp, "k", "int64");
}

TEST(device_functions)
{
	clear_devices();
	add_device("mul", "@cuda.jit(device=True)\ndef mul(a, b):\n    return a * b\n", NULL);
	add_device("pick", "def pick(a, b=None, scale=2):\n"
	                   "    if b is None:\n"
	                   "        return a * scale\n"
	                   "    return a + b\n", NULL);
	add_device("typed", "def typed(a, b):\n    return a + b\n", "float32(float32, float32)");
	add_device("nothing", "def nothing(a):\n    a[0] = 1\n", NULL);
	add_device("opt", "def opt(a, b=None):\n"
	                  "    if b is not None and b > 0:\n"
	                  "        return a + b\n"
	                  "    return a\n", NULL);
	Spec *sp = kernel("def k(out, f, i):\n"
	                  "    r1 = mul(f, i)\n"
	                  "    r2 = mul(f, f)\n"
	                  "    r3 = mul(f, 2.0)\n"
	                  "    r4 = mul(i, i)\n"
	                  "    r5 = pick(f)\n"
	                  "    r6 = pick(i, b=f)\n"
	                  "    r7 = typed(i, 2)\n"
	                  "    r8 = nothing(out)\n"
	                  "    r9 = mul(f, f)\n"
	                  "    s1 = opt(f)\n"
	                  "    s2 = opt(f, 2)\n",
	                  "k", "float32[:], float32, int32");
	clear_devices();
	VAR(sp, "r1", "float64");
	VAR(sp, "r2", "float32");
	VAR(sp, "r3", "float64");
	VAR(sp, "r4", "int64");
	VAR(sp, "r5", "float64");
	VAR(sp, "r6", "float64");
	VAR(sp, "r7", "float32");
	VAR(sp, "r8", "none");
	VAR(sp, "s1", "float32");
	VAR(sp, "s2", "float64");
	if (!sp)
		return;
	/* mul x3 (f4*i4, f4*f4, f4*f8 == f4*i4? no: int32 vs float64 differ), mul(i,i), pick x2, typed, nothing */
	CHECK_EQ_INT(ctx.nspec, 1 + 4 + 2 + 1 + 1 + 2);
	for (int i = 0; i < ctx.nspec; i++)
		CHECK_EQ_INT(ctx.specs[i]->id, i);
	Expr *c2 = value_of(sp, 1), *c9 = value_of(sp, 8);
	CHECK(c2->call.spec && c2->call.spec == c9->call.spec);
	CHECK(c2->call.spec->def != sp->def);
	Expr *c5 = value_of(sp, 4);
	CHECK_EQ_INT(c5->call.nargs, 3);
	CHECK_STR_CONTAINS(c5->call.args[1]->name.id, "<default b>");
	CHECK_EQ_INT(c5->call.args[2]->cval->i, 2);
	Expr *c7 = value_of(sp, 6);
	CHECK_STR_CONTAINS(str(c7->call.spec->argtypes[0]), "float32");
	/* the None branch of pick(f) is dead: `a + b` is untyped there */
	Spec *pk = c5->call.spec;
	CHECK(pk->def->body.s[1]->ret.value->ty == NULL);
	CHECK(pk->def->body.s[0]->cond.cond->cval && pk->def->body.s[0]->cond.cond->cval->i == 1);
}

TEST(recursion_typed_or_refused)
{
	clear_devices();
	add_device("fact", "def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n", NULL);
	CHECK_STR_CONTAINS(err_of("def k(out):\n    out[0] = fact(5)\n", "k", "int64[:]"), "(no error)");
	clear_devices();
	add_device("fact", "def fact(n):\n    return n * fact(n - 1)\n", NULL);
	const char *e = err_of("def k(out):\n    out[0] = fact(5)\n", "k", "int64[:]");
	clear_devices();
	CHECK_STR_CONTAINS(e, "dev.py:2:16: error: recursion without a way to type it");
}

TEST(errors_names_and_statements)
{
	const char *e = err_of("def k(a):\n    a[0] = foo + 1\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "k.py:11:16: error: name 'foo' is not defined");
	CHECK_STR_CONTAINS(e, "            a[0] = foo + 1\n                   ^~~");
	CHECK_STR_CONTAINS(e, "hint: kernels can use");
	e = err_of("def k(a):\n    with a:\n        pass\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "k.py:11:9: error: 'with' statements are not supported in kernels");
	e = err_of("def k(a):\n    @cuda.jit\n    def inner():\n        pass\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "a decorated function inside a kernel is not supported");
	e = err_of("def k(a):\n    f = lambda x: x\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "lambda functions are not supported in kernels");
	e = err_of("def k(a):\n    x = [1, 2]\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "list display is not supported in kernels");
	e = err_of("def k(a):\n    a[0] = lst\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "name 'lst' refers to a list object, which kernels cannot use");
	e = err_of("def k(a):\n    a[0] = cuda.foo\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "k.py:11:21: error: module 'cuda' has no attribute 'foo' that kernels can use");
	CHECK_STR_CONTAINS(e, "cuda.{threadIdx, blockIdx");
	e = err_of("def k(a):\n    return 1\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "a kernel cannot return a value");
	e = err_of("def k(a, b, c):\n    pass\n", "k", "float32[:], int64");
	CHECK_STR_CONTAINS(e, "kernel 'k' takes 3 arguments, but 2 were given");
	e = err_of("def k(a):\n    x = y\n    y = 1\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "local variable 'y' is used before a value is assigned to it");
	e = err_of("def k(a):\n    break\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "'break' outside loop");
	e = err_of("def k(a):\n    a[0] = sum(a[j] for j in range(4))\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "k.py:11:16: error: name 'sum' refers to the builtin sum(), which kernels cannot use yet");
	CHECK_STR_CONTAINS(e, "hint: add the values up in a loop");
	e = err_of("def k(a):\n    a[0] = max(*a)\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "*array(float32, 1d, A): kernels unpack only tuples into a call's arguments");
	e = err_of("def k(a):\n    raise\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "a bare 'raise' is not supported");
	CHECK_STR_CONTAINS(err_of("def k(a, n=3):\n    a[0] = n\n", "k", "float32[:]"), "(no error)");
}

TEST(errors_types)
{
	const char *e = err_of("def k(a):\n    x = a + cuda.grid(2)\n", "k", "float32[::1]");
	CHECK_STR_CONTAINS(e, "k.py:11:13: error: unsupported operand types for +: array(float32, 1d, C) and UniTuple(int64 x 2)");
	e = err_of("def k(a, n):\n    x = 1\n    if n > 0:\n        x = a\n    a[0] = x\n", "k", "float32[::1], int64");
	CHECK_STR_CONTAINS(e, "k.py:13:17: error: cannot assign array(float32, 1d, C) to variable 'x', which holds int64");
	e = err_of("def k(a, n):\n    a[n / 2] = 0\n", "k", "float32[::1], int64");
	CHECK_STR_CONTAINS(e, "k.py:11:11: error: array index must be an integer, not float64");
	CHECK_STR_CONTAINS(e, "hint: convert it with int(...)");
	e = err_of("def k(a):\n    x = a[1:2.5]\n", "k", "float32[::1]");
	CHECK_STR_CONTAINS(e, "slice bounds must be an integer or None, not float64");
	e = err_of("def k(a, n):\n    x = a[::n]\n", "k", "float32[::1], int64");
	CHECK_STR_CONTAINS(e, "the step of a slice must be a constant");
	e = err_of("def k(a):\n    a[0] = (1.0, 2.0)\n", "k", "float32[:, :, :]");
	CHECK_STR_CONTAINS(e, "to a 2d part of an array is not supported yet");
	e = err_of("def k(a):\n    cuda.atomic.add(a, 0, 1.0)\n", "k", "float32[:, :]");
	CHECK_STR_CONTAINS(e, "cuda.atomic.add() needs one element: 1 of the 2 dimensions");
	e = err_of("def k(a):\n    a[0] += 1.0\n", "k", "float32[:, :]");
	CHECK_STR_CONTAINS(e, "an augmented assignment needs one element");
	e = err_of("def k(a):\n    x, y = a\n", "k", "float32[:, :]");
	CHECK_STR_CONTAINS(e, "only 1d arrays can be unpacked");
	e = err_of("def k(a):\n    x = a[0, 1]\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "too many indices for array(float32, 1d, A): 2 given");
	e = err_of("def k(a, n):\n    x = cuda.grid(n)\n", "k", "float32[:], int64");
	CHECK_STR_CONTAINS(e, "k.py:11:23: error: cuda.grid() takes a constant 1, 2 or 3");
	e = err_of("def k(a):\n    x = cuda.grid(0)\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "cuda.grid() takes a constant 1, 2 or 3");
	e = err_of("def k(a, n):\n    s = cuda.shared.array(n, np.float32)\n", "k", "float32[:], int64");
	CHECK_STR_CONTAINS(e, "k.py:11:31: error: the shape of a shared array must be a constant");
	e = err_of("def k(a):\n    s = cuda.local.array(4, 'float31')\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "Invalid NumPy dtype specified: 'float31' is not a dtype NumPy knows");
	e = err_of("def k(a):\n    s = cuda.local.array(4, 'U8')\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "this string is not a dtype that arrays in kernels can have");
	e = err_of("def k(a):\n    t = (1, 2)\n    t[0] = 3\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "tuples cannot be changed");
	e = err_of("def k(a):\n    cuda.atomic.add(a, 0, 1)\n", "k", "int8[:]");
	CHECK_STR_CONTAINS(e, "cuda.atomic.add() does not support arrays of int8");
	CHECK_STR_CONTAINS(e, "int32, uint32, int64, uint64, float32 and float64");
	e = err_of("def k(a):\n    x = 'ab' + 'c'\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "string operations are not supported in kernels");
	e = err_of("def k(a):\n    for x in a:\n        pass\n", "k", "float32[:, :]");
	CHECK_STR_CONTAINS(e, "iterating over an array that is not 1-D is not supported yet");
	e = err_of("def k(a):\n    for x in range(0, 10, 0):\n        pass\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "range() arg 3 must not be zero");
	e = err_of("def k(a):\n    for x in (1, a):\n        pass\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "cannot iterate over Tuple(int64, array(float32, 1d, A)): its elements have no common type");
	e = err_of("def k(a):\n    x = a.foo\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "arrays have no attribute 'foo'");
	e = err_of("def k(a):\n    x = a(1)\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "value is not callable");
	e = err_of("def k(a):\n    x = min()\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "min() takes at least 1 argument");
	e = err_of("def k(a):\n    x = math.sqrt(1, 2)\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "math.sqrt() takes 1 argument (2 given)");
	e = err_of("def k(a, i):\n    t = (1, 2.0)\n    a[0] = t[i]\n", "k", "float32[:], int64");
	CHECK_STR_CONTAINS(e, "can only be indexed with a constant");
	e = err_of("def k(a):\n    if a:\n        pass\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "the truth value of an array is ambiguous");
	e = err_of("def k(a):\n    x = 1 if a[0] > 0 else a\n", "k", "float32[:]");
	CHECK_STR_CONTAINS(e, "have types int64 and array(float32, 1d, A)");
}


TEST(params_loops_and_tuples)
{
	Spec *sp = kernel("def k(a, n, m=3, dt=np.float32):\n"
	                  "    n -= 1\n"
	                  "    for i in range(4):\n"
	                  "        if i > 0:\n"
	                  "            a[i] = prev\n"
	                  "        prev = a[i]\n"
	                  "    t = (1, 2)\n"
	                  "    e = t == (1, 2)\n"
	                  "    x, y = cuda.grid(2)\n"
	                  "    w = cuda.shared.array((2, 3), dt)\n"
	                  "    cuda.atomic.max(w, (x, 1), y)\n"
	                  "    z = cuda.laneid + m\n",
	                  "k", "float32[:], int32");
	VAR(sp, "n", "int64");
	VAR(sp, "prev", "float32");
	VAR(sp, "e", "bool");
	VAR(sp, "w", "array(float32, 2d, C)");
	VAR(sp, "z", "int64");
	VAR(sp, "m", "int64");
	if (!sp)
		return;
	CHECK_EQ_INT(sp->nargs, 2);
	CHECK_STR_CONTAINS(str(sp->argtypes[2]), "int64");
	CHECK_EQ_INT(sp->def->params[2].defval->cval->i, 3);
	CHECK_EQ_INT(sp->argtypes[3]->kind, TY_INTRIN);
	CHECK(sp->vars[1]->is_param && sp->def->params[1].var == sp->vars[1]);
	Expr *lane = value_of(sp, 7)->bin.a;
	CHECK(lane->cval && lane->cval->kind == PJ_V_INTRIN && strcmp(lane->cval->s, "cuda.laneid") == 0);
	CHECK_EQ_INT(intrin_lookup(lane->cval->s), IN_LANEID);
	Type *ot;
	CHECK_STR_CONTAINS(str(sema_binop_type(&ctx, OP_LT, S(SK_I64), S(SK_U64), &ot)), "bool");
	CHECK_STR_CONTAINS(str(ot), "float64");
	CHECK_STR_CONTAINS(str(sema_binop_type(&ctx, OP_POW, S(SK_F32), S(SK_I64), &ot)), "float32");
	CHECK(sema_binop_type(&ctx, OP_BITAND, S(SK_F32), S(SK_I64), &ot) == NULL);
	CHECK_STR_CONTAINS(str(sema_binop_type(&ctx, OP_DIV, S(SK_I32), S(SK_I32), &ot)), "float64");
	CHECK_STR_CONTAINS(str(sema_binop_type(&ctx, OP_RSHIFT, S(SK_U8), S(SK_I64), &ot)), "uint64");
}

TEST(views_and_tuple_slices)
{
	Spec *sp = kernel("def gpu_grayscale(image_data, result):\n"
	                  "    i, j = cuda.grid(2)\n"
	                  "    if i < image_data.shape[0] and j < image_data.shape[1]:\n"
	                  "        r, g, b = image_data[i, j]\n"
	                  "        gray = int(0.2989 * r + 0.5870 * g + 0.1140 * b)\n"
	                  "        result[i, j] = (gray, gray, gray)\n",
	                  "gpu_grayscale", "uint8[:, :, ::1], uint8[:, :, ::1]");
	VAR(sp, "r", "uint8");
	VAR(sp, "gray", "int64");
	if (sp) {
		Stmt *st = sp->def->body.s[1]->cond.body.s[0];
		CHECK_STR_CONTAINS(str(st->assign.value->ty), "array(uint8, 1d, C)");
		st = sp->def->body.s[1]->cond.body.s[2];
		CHECK_STR_CONTAINS(str(st->assign.targets[0]->ty), "array(uint8, 1d, C)");
	}
	sp = kernel("def k(a, f, v, k):\n"
	            "    r0 = a[1]\n"
	            "    r1 = a[1, 2:]\n"
	            "    r2 = a[:, 0]\n"
	            "    r3 = a[1:3]\n"
	            "    r4 = v[::2]\n"
	            "    r5 = v[1:]\n"
	            "    r6 = f[:, 1]\n"
	            "    r7 = f[1]\n"
	            "    t = (1, 2.5, 3)\n"
	            "    r8 = t[1:]\n"
	            "    r9 = a.shape[k]\n"
	            "    a[0] = v\n"
	            "    a[1] = 0\n"
	            "    v[:] = 1\n",
	            "k", "float32[:, ::1], float64[::1, :], int32[::1], int64");
	VAR(sp, "r0", "array(float32, 1d, C)");
	VAR(sp, "r1", "array(float32, 1d, C)");
	VAR(sp, "r2", "array(float32, 1d, A)");
	VAR(sp, "r3", "array(float32, 2d, C)");
	VAR(sp, "r4", "array(int32, 1d, A)");
	VAR(sp, "r5", "array(int32, 1d, C)");
	VAR(sp, "r6", "array(float64, 1d, F)");
	VAR(sp, "r7", "array(float64, 1d, A)");
	VAR(sp, "r8", "Tuple(float64, int64)");
	VAR(sp, "r9", "int64");
	if (sp)
		CHECK(value_of(sp, 9)->cval && value_of(sp, 9)->cval->n == 2);
}

TEST(types_dump)
{
	Spec *sp = kernel("def k(a):\n    i = cuda.grid(1)\n    a[i] = 1\n", "k", "float32[::1]");
	CHECK(sp != NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	sema_dump(m, &ctx);
	fclose(m);
	CHECK_STR_CONTAINS(buf, "k (array(float32, 1d, C)) -> none\n");
	CHECK_STR_CONTAINS(buf, "    i: int64\n");
	CHECK_STR_CONTAINS(buf, "     11 |         i = cuda.grid(1)\n");
	free(buf);
}

int main(void)
{
	RUN(promote_table);
	RUN(unify_table);
	RUN(type_names);
	RUN(signatures_good);
	RUN(signatures_bad);
	RUN(intrinsics);
	RUN(infer_vector_add);
	RUN(infer_unify_and_loops);
	RUN(infer_webs);
	RUN(infer_operators);
	RUN(infer_builtins_math);
	RUN(constants_and_shared);
	RUN(reduce_seed);
	RUN(grid_stride_and_matmul_seeds);
	RUN(device_functions);
	RUN(recursion_typed_or_refused);
	RUN(errors_names_and_statements);
	RUN(errors_types);
	RUN(params_loops_and_tuples);
	RUN(views_and_tuple_slices);
	RUN(types_dump);
	if (ctx.arena)
		arena_free(ctx.arena);
	return check_summary("sema");
}

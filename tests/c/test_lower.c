/*
 * test_lower.c - the lowering (typed AST -> SSA IR): small kernels are
 * compiled from Python source through pj_compile, their IR text is
 * checked for what the lowering must produce (parameters, fused
 * multiply-adds, checks, atomics, phis), and each is run on the
 * simulator against answers computed here with Python's semantics.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core.h"

/* --------------------------------------------------------------- helpers */

typedef struct Global {
	const char *name;
	PjValue v;
} Global;

static Global globals[32] = {
	{"cuda", {.kind = PJ_V_MODULE, .s = "cuda"}},
	{"np", {.kind = PJ_V_MODULE, .s = "numpy"}},
	{"numpy", {.kind = PJ_V_MODULE, .s = "numpy"}},
	{"math", {.kind = PJ_V_MODULE, .s = "math"}},
	{"numba", {.kind = PJ_V_MODULE, .s = "numba"}},
	{"TPB", {.kind = PJ_V_INT, .i = 32}},
};

static int resolve(void *data, const char *name, PjValue *out, PjArena *arena)
{
	(void)arena;
	for (Global *g = data; g->name; g++)
		if (strcmp(g->name, name) == 0) {
			*out = g->v;
			return 1;
		}
	return 0;
}

static const char *cur_src;

/* A device function named `name` in the current source, as a global. */
static void add_device(const char *name)
{
	static PjFunc fns[16];
	static int nfns;
	int i = 0;
	while (globals[i].name && strcmp(globals[i].name, name) != 0)
		i++;
	PjFunc *f = &fns[nfns++ % 16];
	*f = (PjFunc){name, cur_src, "test.py", 1, 0, resolve, globals, NULL, 0, 0, 1, NULL, NULL, 0, 0};
	globals[i] = (Global){name, {.kind = PJ_V_FUNC, .func = f}};
}

static PjKernel *compile_opt(const char *src, const char *name, const char *sig, int opt_level,
                             int debug, PjError *e)
{
	static PjFunc f;
	f = (PjFunc){name, src, "test.py", 1, 0, resolve, globals, NULL, 0, 0, 0, NULL, NULL, 0, 0};
	PjOptions o = {.arch = 90, .opt_level = opt_level, .sim = 1, .debug = debug};
	PjKernel *k = NULL;
	memset(e, 0, sizeof *e);
	if (pj_compile(&f, sig, &o, &k, e) != PJ_OK)
		return NULL;
	return k;
}

/* Compiles without IR passes and with bounds checks (debug), so the IR
 * is the lowering's, and again with the passes; returns the latter, and
 * the former's IR in *ir. */
static PjKernel *compile(const char *src, const char *name, const char *sig, char **ir)
{
	PjError e;
	cur_src = src;
	PjKernel *k0 = compile_opt(src, name, sig, 0, 1, &e);
	if (!k0) {
		printf("compile %s (no passes) failed:\n%s\n", name, e.msg);
		return NULL;
	}
	if (ir)
		*ir = strdup(k0->ir ? k0->ir : "");
	pj_kernel_free(k0);
	PjKernel *k = compile_opt(src, name, sig, 1, 0, &e);
	if (!k)
		printf("compile %s failed:\n%s\n", name, e.msg);
	return k;
}

/* One kernel argument for the simulator. */
typedef struct Arg {
	void *data;           /* array: host buffer; NULL for a scalar */
	int64_t shape[4];
	int64_t strides[4];   /* bytes, for layouts other than C */
	double f;             /* scalar value (floats) */
	int64_t i;            /* scalar value (ints, bools) */
} Arg;

static Arg arr1(void *p, int64_t n) { return (Arg){.data = p, .shape = {n}}; }
static Arg arr2(void *p, int64_t n0, int64_t n1) { return (Arg){.data = p, .shape = {n0, n1}}; }

static unsigned char params[512];

static void fill_params(const PjKernel *k, Arg *args)
{
	memset(params, 0, sizeof params);
	for (int i = 0; i < k->nparams; i++) {
		const PjParam *p = &k->params[i];
		Arg *a = &args[p->arg];
		unsigned char *at = params + p->off;
		int64_t v64;
		switch (p->role) {
		case 0:
			v64 = (int64_t)(uintptr_t)a->data;
			memcpy(at, &v64, 8);
			break;
		case 1:
			memcpy(at, &a->shape[p->dim], 8);
			break;
		case 2:
			memcpy(at, &a->strides[p->dim], 8);
			break;
		default: {
			ScalarKind sk = (ScalarKind)p->ty;
			if (sk == SK_F32) {
				float x = (float)a->f;
				memcpy(at, &x, 4);
			} else if (sk == SK_F64)
				memcpy(at, &a->f, 8);
			else
				memcpy(at, &a->i, (size_t)scalar_info[sk].size);
		}
		}
	}
}

static int launch(const PjKernel *k, unsigned gx, unsigned gy, unsigned bx, unsigned by, Arg *args,
                  PjError *e)
{
	unsigned g[3] = {gx, gy, 1}, b[3] = {bx, by, 1};
	fill_params(k, args);
	int rc = pj_sim_launch(k, g, b, 0, params, 0, e);
	if (rc != PJ_SIM_OK)
		printf("launch of %s: %d %s\n", k->entry, rc, e->msg);
	return rc;
}

static int count(const char *s, const char *sub)
{
	int n = 0;
	for (const char *p = s; p && (p = strstr(p, sub)); p += strlen(sub))
		n++;
	return n;
}

/* ----------------------------------------------------------------- tests */

static const char *vadd_src =
	"@cuda.jit\n"
	"def add_arrays(x, y, out):\n"
	"    idx = cuda.grid(1)\n"
	"    if idx < out.size:\n"
	"        out[idx] = x[idx] + y[idx]\n";

TEST(vector_add)
{
	char *ir = NULL;
	PjKernel *k = compile(vadd_src, "add_arrays", "void(float32[::1], float32[::1], float32[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	/* three arrays of layout C: data pointer + extent each, no strides */
	CHECK_EQ_INT(k->nparams, 6);
	CHECK_EQ_INT(k->param_bytes, 48);
	CHECK_EQ_INT(k->params[0].role, 0);
	CHECK_EQ_INT(k->params[1].role, 1);
	CHECK_EQ_INT(k->params[2].off, 16);
	CHECK_STR_CONTAINS(k->entry, "add_arrays_");
	CHECK_STR_CONTAINS(ir, "sreg tid.x");
	CHECK_STR_CONTAINS(ir, "sreg ctaid.x");
	CHECK_STR_CONTAINS(ir, "load.global f32");
	CHECK_STR_CONTAINS(ir, "store.global f32");
	CHECK_STR_CONTAINS(ir, "check 0 array \"x\"");
	CHECK_STR_CONTAINS(ir, "cvt.i64 i32");
	enum { N = 1000 };
	float x[N], y[N], out[N + 8];
	for (int i = 0; i < N; i++) {
		x[i] = (float)i;
		y[i] = 2.0f * i;
	}
	for (int i = 0; i < N + 8; i++)
		out[i] = -1;
	Arg args[] = {arr1(x, N), arr1(y, N), arr1(out, N)};
	PjError e;
	CHECK_EQ_INT(launch(k, 8, 1, 128, 1, args, &e), PJ_SIM_OK);
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += out[i] != 3.0f * i;
	CHECK_EQ_INT(bad, 0);
	CHECK(out[N] == -1);
	pj_kernel_free(k);
	free(ir);
}


static int64_t py_floordiv(int64_t a, int64_t b)
{
	if (b == 0)
		return 0;
	int64_t q = a / b, r = a % b;
	if (r != 0 && ((r < 0) != (b < 0)))
		q--;
	return q;
}

static int64_t py_mod(int64_t a, int64_t b)
{
	if (b == 0)
		return 0;
	int64_t r = a % b;
	if (r != 0 && ((r < 0) != (b < 0)))
		r += b;
	return r;
}

static const char *divmod_src =
	"@cuda.jit\n"
	"def divmod_k(a, b, q, r, fq, fr):\n"
	"    i = cuda.grid(1)\n"
	"    if i < a.size:\n"
	"        q[i] = a[i] // b[i]\n"
	"        r[i] = a[i] % b[i]\n"
	"        x = float(a[i])\n"
	"        y = float(b[i])\n"
	"        if b[i] != 0:\n"
	"            fq[i] = x // y\n"
	"            fr[i] = x % y\n"
	"        q[i + a.size] = a[i] // 4\n"
	"        r[i + a.size] = a[i] % -3\n";

TEST(python_divmod)
{
	char *ir = NULL;
	PjKernel *k = compile(divmod_src, "divmod_k",
	                      "void(int64[::1], int64[::1], int64[::1], int64[::1], float64[::1], float64[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "div i64");
	CHECK_STR_CONTAINS(ir, "rem i64");
	CHECK_STR_CONTAINS(ir, "floor f64");
	enum { N = 12 };
	int64_t a[N] = {7, -7, 7, -7, 0, 5, -5, 9, INT64_MIN, 13, -1, 6};
	int64_t b[N] = {2, 2, -2, -2, 3, 0, 0, 3, -1, 5, 7, -4};
	int64_t q[2 * N], r[2 * N];
	double fq[N], fr[N];
	for (int i = 0; i < N; i++)
		fq[i] = fr[i] = -99;
	Arg args[] = {arr1(a, N), arr1(b, N), arr1(q, 2 * N), arr1(r, 2 * N), arr1(fq, N), arr1(fr, N)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 32, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		if (a[i] == INT64_MIN && b[i] == -1) {
			CHECK_EQ_INT(r[i], 0);
		} else {
			CHECK_EQ_INT(q[i], py_floordiv(a[i], b[i]));
			CHECK_EQ_INT(r[i], py_mod(a[i], b[i]));
		}
		CHECK_EQ_INT(q[i + N], py_floordiv(a[i], 4));
		CHECK_EQ_INT(r[i + N], py_mod(a[i], -3));
		if (b[i] != 0) {
			double x = (double)a[i], y = (double)b[i];
			CHECK(fq[i] == floor(x / y));
			CHECK(fr[i] == x - floor(x / y) * y);
		} else
			CHECK(fq[i] == -99);
	}
	pj_kernel_free(k);
	free(ir);
}

static const char *pow_src =
	"@cuda.jit\n"
	"def pow_k(x, n, out, iout):\n"
	"    i = cuda.grid(1)\n"
	"    if i < x.size:\n"
	"        v = x[i]\n"
	"        out[i, 0] = v ** 2\n"
	"        out[i, 1] = v ** 3\n"
	"        out[i, 2] = v ** -2\n"
	"        out[i, 3] = v ** 0.5\n"
	"        out[i, 4] = v ** n[i]\n"
	"        out[i, 5] = v ** 0\n"
	"        iout[i, 0] = n[i] ** 3\n"
	"        iout[i, 1] = n[i] ** n[i]\n"
	"        iout[i, 2] = 2 ** n[i]\n"
	"        iout[i, 3] = (-1) ** n[i]\n"
	"        m = n[i]\n"
	"        m **= 2\n"
	"        iout[i, 4] = m\n";

static int64_t ipow(int64_t b, int64_t e)
{
	if (e < 0)
		return b == 1 ? 1 : b == -1 ? (e % 2 ? -1 : 1) : 0;
	int64_t r = 1;
	while (e--)
		r *= b;
	return r;
}

TEST(power)
{
	char *ir = NULL;
	PjKernel *k = compile(pow_src, "pow_k", "void(float64[::1], int64[::1], float64[:, ::1], int64[:, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "sqrt f64");
	enum { N = 8 };
	double x[N] = {1.5, -2.0, 3.0, 0.25, 10.0, 7.0, 1.0, 2.0};
	int64_t n[N] = {0, 1, 2, 3, -1, -2, 5, 10};
	double out[N][6];
	int64_t iout[N][5];
	Arg args[] = {arr1(x, N), arr1(n, N), arr2(out, N, 6), arr2(iout, N, 5)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 32, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		double v = x[i];
		CHECK(out[i][0] == v * v);
		CHECK(out[i][1] == v * v * v);
		CHECK(out[i][2] == 1.0 / (v * v));
		if (v >= 0)
			CHECK(out[i][3] == sqrt(v));
		CHECK(fabs(out[i][4] - pow(v, (double)n[i])) <= 1e-12 * fabs(pow(v, (double)n[i])));
		CHECK(out[i][5] == 1.0);
		CHECK_EQ_INT(iout[i][0], n[i] * n[i] * n[i]);
		CHECK_EQ_INT(iout[i][1], ipow(n[i], n[i]));
		CHECK_EQ_INT(iout[i][2], ipow(2, n[i]));
		CHECK_EQ_INT(iout[i][3], ipow(-1, n[i]));
		CHECK_EQ_INT(iout[i][4], n[i] * n[i]);
	}
	pj_kernel_free(k);
	free(ir);
}

TEST(power_complex_runtime)
{
	/* a complex power that is not a constant integer: the polar form */
	const char *src =
		"@cuda.jit\n"
		"def p(x):\n"
		"    z = complex(x[1], 1.0) ** 1.7\n"
		"    x[0] = z.real\n";
	PjKernel *k = compile(src, "p", "void(float64[::1])", NULL);
	CHECK(k != NULL);
	if (!k)
		return;
	double x[2] = {0, 0.75};
	Arg args[] = {arr1(x, 2)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 1, 1, args, &e), PJ_SIM_OK);
	/* Python's formula; the error is measured against |z ** w| (the real
	 * part alone cancels: its angle is near pi/2) */
	double len = pow(hypot(0.75, 1.0), 1.7), want = len * cos(atan2(1.0, 0.75) * 1.7);
	CHECK(fabs(x[0] - want) <= 1e-15 * len);
	CHECK(x[0] < -0.0081 && x[0] > -0.0083);
	pj_kernel_free(k);
}

static const char *logic_src =
	"@cuda.jit\n"
	"def logic_k(a, out):\n"
	"    i = cuda.grid(1)\n"
	"    if i < a.size:\n"
	"        x = a[i]\n"
	"        out[i, 0] = 1 if 0 < x < 10 else 0\n"
	"        out[i, 1] = x > 3 and x < 7\n"
	"        out[i, 2] = (x and 5) or 9\n"
	"        out[i, 3] = not x\n"
	"        out[i, 4] = -x if x % 2 == 0 else x * 10\n"
	"        out[i, 5] = (x & 3) | (x ^ 1) << 2 >> 1\n"
	"        out[i, 6] = 3 <= x != 5 > 2\n"
	"        out[i, 7] = x > 2 or x < -2\n"
	"        out[i, 8] = ~x\n";

TEST(logic)
{
	char *ir = NULL;
	PjKernel *k = compile(logic_src, "logic_k", "void(int64[::1], int64[:, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "phi");
	enum { N = 14, M = 9 };
	int64_t a[N] = {-5, -3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12};
	int64_t out[N][M];
	Arg args[] = {arr1(a, N), arr2(out, N, M)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 32, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		int64_t x = a[i];
		CHECK_EQ_INT(out[i][0], 0 < x && x < 10);
		CHECK_EQ_INT(out[i][1], x > 3 && x < 7);
		CHECK_EQ_INT(out[i][2], x ? 5 : 9);
		CHECK_EQ_INT(out[i][3], !x);
		CHECK_EQ_INT(out[i][4], py_mod(x, 2) == 0 ? -x : x * 10);
		CHECK_EQ_INT(out[i][5], (x & 3) | (int64_t)(((uint64_t)(x ^ 1) << 2)) >> 1);
		CHECK_EQ_INT(out[i][6], 3 <= x && x != 5 && 5 > 2);
		CHECK_EQ_INT(out[i][7], x > 2 || x < -2);
		CHECK_EQ_INT(out[i][8], ~x);
	}
	pj_kernel_free(k);
	free(ir);
}

static const char *minmax_src =
	"@cuda.jit\n"
	"def mm_k(a, b, out, iout):\n"
	"    i = cuda.grid(1)\n"
	"    if i < a.size:\n"
	"        out[i, 0] = min(a[i], b[i])\n"
	"        out[i, 1] = max(a[i], b[i])\n"
	"        out[i, 2] = abs(a[i])\n"
	"        out[i, 3] = math.floor(a[i])\n"
	"        out[i, 4] = math.sqrt(abs(b[i]))\n"
	"        if a[i] == a[i]:\n"
	"            iout[i, 0] = round(a[i])\n"
	"            iout[i, 1] = int(a[i])\n"
	"            iout[i, 2] = math.ceil(a[i])\n"
	"            iout[i, 3] = min(3, iout[i, 0], -2 if a[i] < 0 else 7)\n"
	"            iout[i, 4] = max(np.int32(a[i]), -1)\n";

/* min/max of two floats in a kernel: fmin/fmax, as Numba's CUDA target
 * (a NaN loses, -0.0 below +0.0) */
static double kernel_min(double x, double y)
{
	if (isnan(x) || isnan(y))
		return isnan(x) ? y : x;
	return x == y ? (signbit(x) ? x : y) : x < y ? x : y;
}

static double kernel_max(double x, double y)
{
	if (isnan(x) || isnan(y))
		return isnan(x) ? y : x;
	return x == y ? (signbit(x) ? y : x) : x > y ? x : y;
}

TEST(builtins)
{
	char *ir = NULL;
	PjKernel *k = compile(minmax_src, "mm_k", "void(float64[::1], float64[::1], float64[:, ::1], int64[:, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "rint f64");
	CHECK_STR_CONTAINS(ir, "floor f64");
	CHECK_STR_CONTAINS(ir, "ceil f64");
	enum { N = 10 };
	double a[N] = {2.5, -0.5, 3.5, NAN, 1.0, -7.25, 0.0, 1e3, -2.5, 4.75};
	double b[N] = {1.0, NAN, 4.0, 2.0, 1.0, -7.5, -0.0, 2.0, 9.0, -16.0};
	double out[N][5];
	int64_t iout[N][5];
	memset(iout, 0, sizeof iout);
	Arg args[] = {arr1(a, N), arr1(b, N), arr2(out, N, 5), arr2(iout, N, 5)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 32, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		double x = a[i], y = b[i];
		double mn = kernel_min(x, y), mx = kernel_max(x, y);
		CHECK(memcmp(&out[i][0], &mn, 8) == 0 || (isnan(mn) && isnan(out[i][0])));
		CHECK(memcmp(&out[i][1], &mx, 8) == 0 || (isnan(mx) && isnan(out[i][1])));
		if (!isnan(x)) {
			CHECK(out[i][2] == fabs(x));
			CHECK(out[i][3] == floor(x));
			CHECK_EQ_INT(iout[i][0], (int64_t)nearbyint(x));
			CHECK_EQ_INT(iout[i][1], (int64_t)x);
			CHECK_EQ_INT(iout[i][2], (int64_t)ceil(x));
			int64_t t = (int64_t)nearbyint(x), c = x < 0 ? -2 : 7;
			int64_t m = 3 < t ? 3 : t;
			CHECK_EQ_INT(iout[i][3], c < m ? c : m);
			CHECK_EQ_INT(iout[i][4], (int32_t)x > -1 ? (int32_t)x : -1);
		}
		CHECK(out[i][4] == sqrt(fabs(y)) || isnan(y));
	}
	/* a NaN loses in either place; -0.0 is the smaller zero */
	CHECK(out[1][0] == -0.5);
	CHECK(out[3][0] == 2.0);
	CHECK(signbit(out[6][0]) && !signbit(out[6][1]));
	pj_kernel_free(k);
	free(ir);
}

static const char *loops_src =
	"@cuda.jit\n"
	"def loops_k(n, out):\n"
	"    i = cuda.grid(1)\n"
	"    if i < out.shape[0]:\n"
	"        s = 0\n"
	"        for j in range(10, 0, -3):\n"
	"            s += j\n"
	"        out[i, 0] = s\n"
	"        t = 0\n"
	"        for j in range(n[i]):\n"
	"            if j % 2 == 0:\n"
	"                continue\n"
	"            if j > 7:\n"
	"                break\n"
	"            t += j\n"
	"        else:\n"
	"            t += 1000\n"
	"        out[i, 1] = t\n"
	"        k = 0\n"
	"        while k < n[i]:\n"
	"            k += 3\n"
	"        else:\n"
	"            k += 100\n"
	"        out[i, 2] = k\n"
	"        st = n[i] - 5\n"
	"        u = 0\n"
	"        j = -1\n"
	"        for j in range(0, 20 * st, st):\n"
	"            u += 1\n"
	"            j = 1000\n"
	"        out[i, 3] = u\n"
	"        out[i, 4] = j\n"
	"        w = 0\n"
	"        while True:\n"
	"            w += 1\n"
	"            if w * w > n[i]:\n"
	"                break\n"
	"        out[i, 5] = w\n";

TEST(loops)
{
	char *ir = NULL;
	PjKernel *k = compile(loops_src, "loops_k", "void(int64[::1], int64[:, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	enum { N = 7 };
	int64_t n[N] = {0, 1, 4, 8, 9, 12, 20};
	int64_t out[N][6];
	Arg args[] = {arr1(n, N), arr2(out, N, 6)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 8, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		CHECK_EQ_INT(out[i][0], 22);
		int64_t t = 0, j, brk = 0;
		for (j = 0; j < n[i]; j++) {
			if (j % 2 == 0)
				continue;
			if (j > 7) {
				brk = 1;
				break;
			}
			t += j;
		}
		if (!brk)
			t += 1000;
		CHECK_EQ_INT(out[i][1], t);
		int64_t kk = 0;
		while (kk < n[i])
			kk += 3;
		CHECK_EQ_INT(out[i][2], kk + 100);
		int64_t st = n[i] - 5, u = 0, last = -1;
		for (j = 0; st > 0 ? j < 20 * st : j > 20 * st; j += st) {
			u++;
			last = 1000;
		}
		CHECK_EQ_INT(out[i][3], u);
		CHECK_EQ_INT(out[i][4], last);
		int64_t w = 0;
		for (;;) {
			w++;
			if (w * w > n[i])
				break;
		}
		CHECK_EQ_INT(out[i][5], w);
	}
	pj_kernel_free(k);
	free(ir);
}

static const char *matmul_src =
	"@cuda.jit\n"
	"def matmul(A, B, C):\n"
	"    i, j = cuda.grid(2)\n"
	"    if i < C.shape[0] and j < C.shape[1]:\n"
	"        for k in range(A.shape[1]):\n"
	"            C[i, j] += A[i, k] * B[k, j]\n"
	"\n"
	"@cuda.jit\n"
	"def matmul2(A, B, C):\n"
	"    row, col = cuda.grid(2)\n"
	"    if row < C.shape[0] and col < C.shape[1]:\n"
	"        tmp = 0.0\n"
	"        for k in range(A.shape[1]):\n"
	"            tmp += A[row, k] * B[k, col]\n"
	"        C[row, col] = tmp\n";

TEST(matmul)
{
	for (int which = 0; which < 2; which++) {
		char *ir = NULL;
		PjKernel *k = compile(matmul_src, which ? "matmul2" : "matmul",
		                      "void(float64[:, ::1], float64[:, ::1], float64[:, ::1])", &ir);
		CHECK(k != NULL);
		if (!k)
			return;
		CHECK_STR_CONTAINS(ir, "fma f64");
		CHECK_STR_CONTAINS(ir, "sreg tid.y");
		enum { R = 5, K = 7, S = 6 };
		double A[R][K], B[K][S], C[R][S], want[R][S];
		for (int r = 0; r < R; r++)
			for (int q = 0; q < K; q++)
				A[r][q] = r * 0.5 + q * 0.25 + 0.1;
		for (int q = 0; q < K; q++)
			for (int s = 0; s < S; s++)
				B[q][s] = q - s * 0.75;
		for (int r = 0; r < R; r++)
			for (int s = 0; s < S; s++) {
				double acc = 0;
				for (int q = 0; q < K; q++)
					acc = fma(A[r][q], B[q][s], acc);
				want[r][s] = acc;
				C[r][s] = 0;
			}
		Arg args[] = {arr2(A, R, K), arr2(B, K, S), arr2(C, R, S)};
		PjError e;
		CHECK_EQ_INT(launch(k, 2, 2, 4, 4, args, &e), PJ_SIM_OK);
		int bad = 0;
		for (int r = 0; r < R; r++)
			for (int s = 0; s < S; s++)
				bad += C[r][s] != want[r][s];
		CHECK_EQ_INT(bad, 0);
		pj_kernel_free(k);
		free(ir);
	}
}

static const char *reduce_src =
	"@cuda.jit\n"
	"def reduce_kernel(in_array, out_array):\n"
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
	"        out_array[cuda.blockIdx.x] = shared[0]\n";

TEST(shared_reduction)
{
	char *ir = NULL;
	PjKernel *k = compile(reduce_src, "reduce_kernel", "void(float32[::1], float32[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "array 0 shared 128 align 4");
	CHECK_STR_CONTAINS(ir, "addr 0");
	CHECK_STR_CONTAINS(ir, "bar");
	CHECK_STR_CONTAINS(ir, "load.shared f32");
	CHECK_EQ_INT(k->static_smem, 128);
	enum { N = 1024 };
	float in[N], out[N / 32];
	for (int i = 0; i < N; i++)
		in[i] = (float)i;
	Arg args[] = {arr1(in, N), arr1(out, N / 32)};
	PjError e;
	CHECK_EQ_INT(launch(k, N / 32, 1, 32, 1, args, &e), PJ_SIM_OK);
	float total = 0;
	for (int b = 0; b < N / 32; b++) {
		float want = 0;
		for (int t = 0; t < 32; t++)
			want += (float)(b * 32 + t);
		CHECK(out[b] == want);
		total += out[b];
	}
	CHECK(total == 523776.0f);
	pj_kernel_free(k);
	free(ir);
}


static const char *atomic_src =
	"@cuda.jit\n"
	"def gpu_reduce(in_array, out_array):\n"
	"    thread_id = cuda.grid(1)\n"
	"    stride = cuda.gridsize(1)\n"
	"    temp_sum = 0.0\n"
	"    for i in range(thread_id, in_array.shape[0], stride):\n"
	"        temp_sum += in_array[i]\n"
	"    cuda.atomic.add(out_array, 0, temp_sum)\n"
	"\n"
	"@cuda.jit\n"
	"def atom_k(x, mx, cnt, lock, old):\n"
	"    i = cuda.grid(1)\n"
	"    if i < x.size:\n"
	"        cuda.atomic.max(mx, 0, x[i])\n"
	"        cuda.atomic.min(mx, 1, x[i])\n"
	"        old[i] = cuda.atomic.add(cnt, (1, -1), 1)\n"
	"        cuda.atomic.sub(cnt, (0, 0), 2)\n"
	"        cuda.atomic.or_(cnt, (0, 1), 1 << (i % 8))\n"
	"        while True:\n"
	"            o = lock[0]\n"
	"            if cuda.atomic.cas(lock, 0, o, o + 3) == o:\n"
	"                break\n"
	"        cuda.atomic.compare_and_swap(lock, 0, 7)\n";

TEST(atomics)
{
	char *ir = NULL;
	PjKernel *k = compile(atomic_src, "gpu_reduce", "void(float32[::1], float32[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "atom.add.global f32");
	CHECK_STR_CONTAINS(ir, "sreg nctaid.x");
	enum { N = 1024 };
	float in[N], out[1] = {0};
	for (int i = 0; i < N; i++)
		in[i] = (float)(i % 17);
	Arg args[] = {arr1(in, N), arr1(out, 1)};
	PjError e;
	CHECK_EQ_INT(launch(k, 2, 1, 64, 1, args, &e), PJ_SIM_OK);
	float want = 0;
	for (int i = 0; i < N; i++)
		want += (float)(i % 17);
	CHECK(out[0] == want);
	pj_kernel_free(k);
	free(ir);

	k = compile(atomic_src, "atom_k", "void(int32[::1], int32[::1], int64[:, ::1], int64[::1], int64[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "atom.max.global i32");
	CHECK_STR_CONTAINS(ir, "atom.cas.global i64");
	CHECK_STR_CONTAINS(ir, "atom.or.global i64");
	enum { M = 40 };
	int32_t x[M], mx[2] = {-1000, 1000};
	int64_t cnt[2][3] = {{0, 0, 0}, {0, 0, 0}}, lock[2] = {0, 0}, old[M];
	for (int i = 0; i < M; i++)
		x[i] = (i * 37) % 101 - 50;
	Arg args2[] = {arr1(x, M), arr1(mx, 2), arr2(cnt, 2, 3), arr1(lock, 2), arr1(old, M)};
	CHECK_EQ_INT(launch(k, 2, 1, 32, 1, args2, &e), PJ_SIM_OK);
	int32_t hi = -1000, lo = 1000;
	for (int i = 0; i < M; i++) {
		hi = x[i] > hi ? x[i] : hi;
		lo = x[i] < lo ? x[i] : lo;
	}
	CHECK_EQ_INT(mx[0], hi);
	CHECK_EQ_INT(mx[1], lo);
	CHECK_EQ_INT(cnt[1][2], M);
	CHECK_EQ_INT(cnt[0][0], -2 * M);
	CHECK_EQ_INT(cnt[0][1], 255);
	CHECK_EQ_INT(lock[0], 3 * M);
	int seen = 0;
	for (int i = 0; i < M; i++)
		seen |= old[i] >= 0 && old[i] < M ? 0 : 1;
	CHECK_EQ_INT(seen, 0);
	pj_kernel_free(k);
	free(ir);
}

static const char *device_src =
	"@cuda.jit(device=True)\n"
	"def clamp(v, lo, hi):\n"
	"    if v < lo:\n"
	"        return lo\n"
	"    if v > hi:\n"
	"        return hi\n"
	"    return v\n"
	"\n"
	"@cuda.jit(device=True)\n"
	"def two(v, scale=2):\n"
	"    return v * scale, v + 1\n"
	"\n"
	"@cuda.jit(device=True)\n"
	"def first_neg(a):\n"
	"    for j in range(a.size):\n"
	"        if a[j] < 0:\n"
	"            return j\n"
	"    return -1\n"
	"\n"
	"@cuda.jit\n"
	"def dev_k(a, out, idx, b):\n"
	"    i = cuda.grid(1)\n"
	"    if i < a.size:\n"
	"        p, q = two(a[i])\n"
	"        out[i] = clamp(p + q, 0.0, 10.0)\n"
	"        r, s = two(v=a[i], scale=3)\n"
	"        out[i + a.size] = r - s\n"
	"    if i == 0:\n"
	"        idx[0] = first_neg(a)\n"
	"        idx[1] = first_neg(b)\n";

TEST(device_functions)
{
	cur_src = device_src;
	add_device("clamp");
	add_device("two");
	add_device("first_neg");
	char *ir = NULL;
	PjKernel *k = compile(device_src, "dev_k", "void(float64[::1], float64[::1], int64[::1], int32[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	enum { N = 6 };
	double a[N] = {-3.0, 0.5, 1.0, 2.0, 3.5, -0.25}, out[2 * N];
	int64_t idx[2] = {99, 99};
	int32_t b[3] = {1, 2, 3};
	Arg args[] = {arr1(a, N), arr1(out, 2 * N), arr1(idx, 2), arr1(b, 3)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 8, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		double v = a[i] * 2 + (a[i] + 1);
		CHECK(out[i] == (v < 0 ? 0.0 : v > 10 ? 10.0 : v));
		CHECK(out[i + N] == a[i] * 3 - (a[i] + 1));
	}
	CHECK_EQ_INT(idx[0], 0);
	CHECK_EQ_INT(idx[1], -1);
	pj_kernel_free(k);
	free(ir);
}

static const char *gray_src =
	"@cuda.jit\n"
	"def gpu_grayscale(image_data, result):\n"
	"    i, j = cuda.grid(2)\n"
	"    if i < image_data.shape[0] and j < image_data.shape[1]:\n"
	"        r, g, b = image_data[i, j]\n"
	"        gray = int(0.2989 * r + 0.5870 * g + 0.1140 * b)\n"
	"        result[i, j] = (gray, gray, gray)\n";

TEST(grayscale)
{
	char *ir = NULL;
	PjError e;
	PjKernel *k = compile(gray_src, "gpu_grayscale", "void(uint8[:, :, ::1], uint8[:, :, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "load.global u8");
	CHECK_STR_CONTAINS(ir, "store.global u8");
	enum { H = 5, W = 7 };
	uint8_t img[H][W][3], res[H][W][3];
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++)
			for (int c = 0; c < 3; c++)
				img[i][j][c] = (uint8_t)(i * 50 + j * 30 + c * 70);
	memset(res, 0, sizeof res);
	Arg args[] = {{.data = img, .shape = {H, W, 3}}, {.data = res, .shape = {H, W, 3}}};
	CHECK_EQ_INT(launch(k, 2, 2, 4, 4, args, &e), PJ_SIM_OK);
	int bad = 0;
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++) {
			double g = fma(0.1140, img[i][j][2], fma(0.5870, img[i][j][1], 0.2989 * img[i][j][0]));
			uint8_t w = (uint8_t)(int64_t)g;
			for (int c = 0; c < 3; c++)
				bad += res[i][j][c] != w;
		}
	CHECK_EQ_INT(bad, 0);
	pj_kernel_free(k);
	free(ir);
}

static const char *wrap_src =
	"@cuda.jit\n"
	"def wrap_k(a, out):\n"
	"    i = cuda.grid(1)\n"
	"    out[i] = a[-1 - i] + a[i - 2]\n";

TEST(negative_index_and_bounds)
{
	char *ir = NULL;
	PjKernel *k = compile(wrap_src, "wrap_k", "void(int32[::1], int32[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "check 0 array \"a\" axis 0 ndim 1 ext %1");
	CHECK_STR_CONTAINS(ir, "sel i64");
	int32_t a[4] = {10, 20, 30, 40}, out[4] = {0};
	Arg args[] = {arr1(a, 4), arr1(out, 4)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 4, 1, args, &e), PJ_SIM_OK);
	CHECK_EQ_INT(out[0], 40 + 30);
	CHECK_EQ_INT(out[1], 30 + 40);
	CHECK_EQ_INT(out[2], 20 + 10);
	CHECK_EQ_INT(out[3], 10 + 20);
	/* a fifth thread reads a[-5]: out of bounds, reported with the line */
	fill_params(k, args);
	unsigned g[3] = {1, 1, 1}, b[3] = {5, 1, 1};
	int rc = pj_sim_launch(k, g, b, 0, params, 0, &e);
	CHECK_EQ_INT(rc, PJ_SIM_INDEX);
	CHECK_STR_CONTAINS(e.msg, "test.py:4");
	pj_kernel_free(k);
	free(ir);
}

static const char *layout_src =
	"@cuda.jit\n"
	"def lay_k(a, f, out):\n"
	"    i, j = cuda.grid(2)\n"
	"    if i < a.shape[0] and j < a.shape[1]:\n"
	"        out[i, j] = a[i, j] * 100 + f[i, j] + a.shape[0] * 1000000\n";

TEST(layouts)
{
	char *ir = NULL;
	PjKernel *k = compile(layout_src, "lay_k", "void(int64[:, :], int64[::1, :], int64[:, :])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "arg0 stride 1");
	CHECK_STR_CONTAINS(ir, "arg1 stride 0");
	enum { R = 3, C = 4 };
	/* a: the transpose of a C-contiguous 4x3 buffer; f: Fortran order */
	int64_t buf[C][R], fbuf[C][R], out[R][C];
	for (int i = 0; i < R; i++)
		for (int j = 0; j < C; j++) {
			buf[j][i] = i * 10 + j;
			fbuf[j][i] = -(i * 10 + j);
			out[i][j] = 0;
		}
	Arg args[] = {{.data = buf, .shape = {R, C}, .strides = {8, 8 * R}},
	              {.data = fbuf, .shape = {R, C}, .strides = {8, 8 * R}},
	              {.data = out, .shape = {R, C}, .strides = {8 * C, 8}}};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 4, 4, args, &e), PJ_SIM_OK);
	int bad = 0;
	for (int i = 0; i < R; i++)
		for (int j = 0; j < C; j++)
			bad += out[i][j] != (i * 10 + j) * 100 - (i * 10 + j) + 3000000;
	CHECK_EQ_INT(bad, 0);
	pj_kernel_free(k);
	free(ir);
}

static const char *small_src =
	"@cuda.jit\n"
	"def small_k(a, flags, out8, outu):\n"
	"    i = cuda.grid(1)\n"
	"    if i < a.size:\n"
	"        flags[i] = a[i] > 0\n"
	"        if flags[i]:\n"
	"            out8[i] = a[i] * 3\n"
	"        else:\n"
	"            out8[i] = -a[i]\n"
	"        outu[i] = a[i]\n"
	"        outu[i] += np.uint8(200)\n";

TEST(small_types)
{
	char *ir = NULL;
	PjKernel *k = compile(small_src, "small_k", "void(int8[::1], boolean[::1], int8[::1], uint8[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "load.global i8");
	enum { N = 8 };
	int8_t a[N] = {1, -1, 50, -128, 127, 0, 100, -100}, out8[N];
	uint8_t flags[N], outu[N];
	Arg args[] = {arr1(a, N), arr1(flags, N), arr1(out8, N), arr1(outu, N)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 8, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		CHECK_EQ_INT(flags[i], a[i] > 0);
		CHECK_EQ_INT(out8[i], (int8_t)(a[i] > 0 ? a[i] * 3 : -a[i]));
		CHECK_EQ_INT(outu[i], (uint8_t)((uint8_t)a[i] + 200));
	}
	pj_kernel_free(k);
	free(ir);
}

static const char *assert_src =
	"@cuda.jit\n"
	"def assert_k(a):\n"
	"    i = cuda.grid(1)\n"
	"    assert a[i] >= 0, \"negative value\"\n"
	"    a[i] = a[i] + 1\n";

TEST(assert_trap)
{
	PjError e;
	cur_src = assert_src;
	PjKernel *k = compile_opt(assert_src, "assert_k", "void(int32[::1])", 1, 1, &e);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(k->ir, "trap");
	CHECK_STR_CONTAINS(k->ir, "AssertionError: negative value");
	int32_t a[4] = {1, 2, -3, 4};
	Arg args[] = {arr1(a, 4)};
	fill_params(k, args);
	unsigned g[3] = {1, 1, 1}, b[3] = {4, 1, 1};
	CHECK_EQ_INT(pj_sim_launch(k, g, b, 0, params, 0, &e), PJ_SIM_TRAP);
	CHECK_STR_CONTAINS(e.msg, "negative value");
	pj_kernel_free(k);
	/* without debug, assert is not compiled */
	k = compile_opt(assert_src, "assert_k", "void(int32[::1])", 1, 0, &e);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK(!strstr(k->ir, "trap"));
	CHECK_EQ_INT(pj_sim_launch(k, g, b, 0, params, 0, &e), PJ_SIM_OK);
	CHECK_EQ_INT(a[2], -2);
	pj_kernel_free(k);
}

static const char *fma_src =
	"@cuda.jit\n"
	"def fma_k(x, y, z, o32, o64):\n"
	"    i = cuda.grid(1)\n"
	"    if i < x.size:\n"
	"        a = x[i]\n"
	"        b = y[i]\n"
	"        c = z[i]\n"
	"        o32[i, 0] = a * b + c\n"
	"        o32[i, 1] = c + a * b\n"
	"        o32[i, 2] = a * b - c\n"
	"        o32[i, 3] = c - a * b\n"
	"        o32[i, 4] = (a * b) * c\n"
	"        o64[i, 0] = a * b + 1.0\n"
	"        d = a * b\n"
	"        o32[i, 5] = d + c\n";

TEST(fma_contraction)
{
	char *ir = NULL;
	PjKernel *k = compile(fma_src, "fma_k", "void(float32[::1], float32[::1], float32[::1], float32[:, ::1], float64[:, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	/* four contractions in f32; a*b + 1.0 is float64 (the multiply is f32): none */
	CHECK_EQ_INT(count(ir, "fma f32"), 4);
	CHECK_EQ_INT(count(ir, "fma f64"), 0);
	enum { N = 4 };
	float x[N] = {1.1f, 3.3f, -2.7f, 1e-3f}, y[N] = {0.7f, 9.1f, 4.4f, 3e3f}, z[N] = {0.3f, -30.0f, 1.5f, 7.0f};
	float o32[N][6];
	double o64[N][1];
	Arg args[] = {arr1(x, N), arr1(y, N), arr1(z, N), arr2(o32, N, 6), arr2(o64, N, 1)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 4, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		float a = x[i], b = y[i], c = z[i];
		CHECK(o32[i][0] == fmaf(a, b, c));
		CHECK(o32[i][1] == fmaf(a, b, c));
		CHECK(o32[i][2] == fmaf(a, b, -c));
		CHECK(o32[i][3] == fmaf(-a, b, c));
		volatile float ab = a * b;
		CHECK(o32[i][4] == ab * c);
		CHECK(o64[i][0] == (double)ab + 1.0);
		CHECK(o32[i][5] == ab + c);
	}
	pj_kernel_free(k);
	free(ir);
}

static const char *static_src =
	"@cuda.jit\n"
	"def tile_k(a, out):\n"
	"    tile = cuda.shared.array((4, 8), dtype=np.float64)\n"
	"    loc = cuda.local.array(3, np.int32)\n"
	"    tx = cuda.threadIdx.x\n"
	"    ty = cuda.threadIdx.y\n"
	"    tile[ty, tx] = a[ty, tx]\n"
	"    cuda.syncthreads()\n"
	"    for q in range(3):\n"
	"        loc[q] = q * tx\n"
	"    out[ty, tx] = tile[3 - ty, 7 - tx] + loc[2] + loc[-2]\n";

TEST(static_arrays)
{
	char *ir = NULL;
	PjKernel *k = compile(static_src, "tile_k", "void(float64[:, ::1], float64[:, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "array 0 shared 256 align 8");
	CHECK_STR_CONTAINS(ir, "array 1 local 12 align 4");
	CHECK_STR_CONTAINS(ir, "store.local i32");
	double a[4][8], out[4][8];
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 8; j++)
			a[i][j] = i * 8 + j;
	Arg args[] = {arr2(a, 4, 8), arr2(out, 4, 8)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 8, 4, args, &e), PJ_SIM_OK);
	int bad = 0;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 8; j++)
			bad += out[i][j] != a[3 - i][7 - j] + 2 * j + j;
	CHECK_EQ_INT(bad, 0);
	pj_kernel_free(k);
	free(ir);
}

static const char *tuple_src =
	"@cuda.jit\n"
	"def tup_k(a, out):\n"
	"    i = cuda.grid(1)\n"
	"    if i < a.size:\n"
	"        x = a[i]\n"
	"        y = x * 2\n"
	"        x, y = y, x\n"
	"        t = (x, y, x + y)\n"
	"        out[i, 0] = t[1]\n"
	"        out[i, 1] = t[-1]\n"
	"        p, q, r = t\n"
	"        out[i, 2] = (p * 10 + q) * 10 + r\n"
	"        out[i, 3] = len(t) + a.ndim + out.shape[1]\n";

TEST(tuples)
{
	char *ir = NULL;
	PjKernel *k = compile(tuple_src, "tup_k", "void(int64[::1], int64[:, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	enum { N = 6 };
	int64_t a[N] = {1, 2, 3, -4, 5, 0}, out[N][4];
	Arg args[] = {arr1(a, N), arr2(out, N, 4)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 8, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		int64_t x = a[i] * 2, y = a[i], t[3] = {x, y, x + y};
		CHECK_EQ_INT(out[i][0], t[1]);
		CHECK_EQ_INT(out[i][1], x + y);
		CHECK_EQ_INT(out[i][2], (t[0] * 10 + t[1]) * 10 + t[2]);
		CHECK_EQ_INT(out[i][3], 3 + 1 + 4);
	}
	pj_kernel_free(k);
	free(ir);
}


static const char *scalars_src =
	"@cuda.jit\n"
	"def sc_k(out, a, f, b, u, d, s):\n"
	"    if b:\n"
	"        out[0] = a + f\n"
	"        out[1] = u + d\n"
	"        out[2] = s * 3\n"
	"    else:\n"
	"        print(a, f)\n"
	"        raise ValueError(\"b is false\")\n"
	"    out[3] = 7\n";

TEST(scalar_params_and_raise)
{
	char *ir = NULL;
	PjKernel *k = compile(scalars_src, "sc_k", "void(float64[::1], int32, float32, boolean, uint64, float64, int16)", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	/* each parameter aligned to its size; the buffer ends where the last
	 * parameter does (the driver checks the size exactly) */
	CHECK_EQ_INT(k->nparams, 8);
	CHECK_EQ_INT(k->params[2].off, 16);
	CHECK_EQ_INT(k->params[3].off, 20);
	CHECK_EQ_INT(k->params[4].off, 24);
	CHECK_EQ_INT(k->params[4].ty, SK_BOOL);
	CHECK_EQ_INT(k->params[5].off, 32);
	CHECK_EQ_INT(k->params[7].off, 48);
	CHECK_EQ_INT(k->param_bytes, 50);
	CHECK_STR_CONTAINS(ir, "param 24 bool");
	CHECK_STR_CONTAINS(ir, "ValueError: b is false");
	double out[4] = {0, 0, 0, 0};
	Arg args[] = {arr1(out, 4), {.i = -5}, {.f = 0.25}, {.i = 1}, {.i = 40}, {.f = 1.5}, {.i = -300}};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 1, 1, args, &e), PJ_SIM_OK);
	CHECK(out[0] == -4.75);
	CHECK(out[1] == 41.5);
	CHECK(out[2] == -900);
	CHECK(out[3] == 7);
	/* without debug, raise ends the thread: out[3] stays */
	out[3] = 0;
	args[3].i = 0;
	CHECK_EQ_INT(launch(k, 1, 1, 1, 1, args, &e), PJ_SIM_OK);
	CHECK(out[3] == 0);
	pj_kernel_free(k);
	free(ir);
}

static const char *grid3_src =
	"@cuda.jit\n"
	"def g3(out):\n"
	"    x, y, z = cuda.grid(3)\n"
	"    sx, sy, sz = cuda.gridsize(3)\n"
	"    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:\n"
	"        out[x, y, z] = x * 10000 + y * 100 + z + (sx + sy + sz) * 1000000 + cuda.blockIdx.z * 0\n";

TEST(grid_3d)
{
	char *ir = NULL;
	PjKernel *k = compile(grid3_src, "g3", "void(int64[:, :, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(ir, "sreg tid.z");
	CHECK_STR_CONTAINS(ir, "sreg nctaid.z");
	enum { X = 5, Y = 3, Z = 2 };
	int64_t out[X][Y][Z];
	memset(out, 0, sizeof out);
	Arg args[] = {{.data = out, .shape = {X, Y, Z}}};
	PjError e;
	fill_params(k, args);
	unsigned g[3] = {2, 2, 1}, b[3] = {4, 2, 2};
	CHECK_EQ_INT(pj_sim_launch(k, g, b, 0, params, 0, &e), PJ_SIM_OK);
	int bad = 0;
	for (int x = 0; x < X; x++)
		for (int y = 0; y < Y; y++)
			for (int z = 0; z < Z; z++)
				bad += out[x][y][z] != x * 10000 + y * 100 + z + (8 + 4 + 2) * 1000000;
	CHECK_EQ_INT(bad, 0);
	pj_kernel_free(k);
	free(ir);
}

static const char *elif_src =
	"@cuda.jit\n"
	"def classify(a, out):\n"
	"    i = cuda.grid(1)\n"
	"    if i >= a.size:\n"
	"        return\n"
	"    x = a[i]\n"
	"    if x < 0:\n"
	"        r = -1\n"
	"    elif x == 0:\n"
	"        r = 0\n"
	"    elif x < 10:\n"
	"        r = 1\n"
	"    else:\n"
	"        r = 2\n"
	"    n = 0\n"
	"    while x > 1:\n"
	"        if x % 2:\n"
	"            x = 3 * x + 1\n"
	"        else:\n"
	"            x //= 2\n"
	"        n += 1\n"
	"        if n > 100:\n"
	"            break\n"
	"    else:\n"
	"        n = -n\n"
	"    out[i] = r * 1000 + n\n";

TEST(elif_while_else)
{
	char *ir = NULL;
	PjKernel *k = compile(elif_src, "classify", "void(int64[::1], int64[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	enum { N = 7 };
	int64_t a[N] = {-4, 0, 1, 6, 27, 97, 12}, out[N];
	Arg args[] = {arr1(a, N), arr1(out, N)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 32, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < N; i++) {
		int64_t x = a[i], r = x < 0 ? -1 : x == 0 ? 0 : x < 10 ? 1 : 2, n = 0;
		int brk = 0;
		while (x > 1) {
			x = x % 2 ? 3 * x + 1 : x / 2;
			if (++n > 100) {
				brk = 1;
				break;
			}
		}
		if (!brk)
			n = -n;
		CHECK_EQ_INT(out[i], r * 1000 + n);
	}
	pj_kernel_free(k);
	free(ir);
}


static const char *slice_src =
	"@cuda.jit\n"
	"def slices(m, x, out):\n"
	"    i = cuda.grid(1)\n"
	"    if i < m.shape[0]:\n"
	"        row = m[i]\n"
	"        head = x[1:3]\n"
	"        evens = x[::2]\n"
	"        rev = x[::-1]\n"
	"        tail = x[-3:]\n"
	"        odd = x[7:1:-2]\n"
	"        col = m[:, 1]\n"
	"        out[i, 0] = row[0] + row[-1]\n"
	"        out[i, 1] = head[0] * 10 + head.shape[0] * 100\n"
	"        out[i, 2] = evens[1] + evens.shape[0] * 1000\n"
	"        out[i, 3] = rev[0] + rev[i] * 100\n"
	"        out[i, 4] = tail[0] + tail.size * 1000\n"
	"        out[i, 5] = odd[0] + odd[1] * 100 + odd.shape[0] * 10000\n"
	"        out[i, 6] = col[i] + col.shape[0] * 1000\n"
	"        sub = x[i:i + 2]\n"
	"        out[i, 7] = sub[1] + x[100:].size * 1000 + x[-100:2].size * 10000\n";

TEST(slices)
{
	char *ir = NULL;
	PjError e;
	PjKernel *k = compile(slice_src, "slices", "void(float64[:, ::1], float64[::1], float64[:, ::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	enum { R = 4, C = 3, N = 10 };
	double m[R][C], x[N], out[R][8];
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++)
			m[r][c] = r * 10 + c;
	for (int j = 0; j < N; j++)
		x[j] = j + 0.5;
	Arg args[] = {arr2(m, R, C), arr1(x, N), arr2(out, R, 8)};
	CHECK_EQ_INT(launch(k, 1, 1, 8, 1, args, &e), PJ_SIM_OK);
	for (int i = 0; i < R; i++) {
		CHECK(out[i][0] == m[i][0] + m[i][C - 1]);
		CHECK(out[i][1] == x[1] * 10 + 200);
		CHECK(out[i][2] == x[2] + 5000);
		CHECK(out[i][3] == x[N - 1] + x[N - 1 - i] * 100);
		CHECK(out[i][4] == x[N - 3] + 3000);
		CHECK(out[i][5] == x[7] + x[5] * 100 + 30000);
		CHECK(out[i][6] == m[i][1] + R * 1000);
		CHECK(out[i][7] == x[i + 1] + 0 + 20000);
	}
	pj_kernel_free(k);
	free(ir);
}


static const char *viewstore_src =
	"@cuda.jit\n"
	"def vstore(a, out):\n"
	"    i = cuda.threadIdx.x\n"
	"    if i == 0:\n"
	"        m = a[1:]\n"
	"        m[0] = 3\n"
	"        a[4:6] = 7\n"
	"        a[6:8] = (1.5, 2.5)\n"
	"        out[2:5] = a[0:3]\n"
	"    t = (10, 20, 30)\n"
	"    out[5 + i] = t[i] + t[-1 - i] * 100\n";

TEST(view_stores)
{
	char *ir = NULL;
	PjKernel *k = compile(viewstore_src, "vstore", "void(float64[::1], float64[::1])", &ir);
	CHECK(k != NULL);
	if (!k)
		return;
	double a[10], out[8];
	for (int j = 0; j < 10; j++)
		a[j] = j;
	for (int j = 0; j < 8; j++)
		out[j] = -1;
	Arg args[] = {arr1(a, 10), arr1(out, 8)};
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 1, 3, 1, args, &e), PJ_SIM_OK);
	double wa[10] = {0, 3, 2, 3, 7, 7, 1.5, 2.5, 8, 9};
	for (int j = 0; j < 10; j++)
		CHECK(a[j] == wa[j]);
	CHECK(out[0] == -1 && out[1] == -1);
	CHECK(out[2] == 0 && out[3] == 3 && out[4] == 2);
	CHECK(out[5] == 10 + 3000);
	CHECK(out[6] == 20 + 2000);
	CHECK(out[7] == 30 + 1000);
	pj_kernel_free(k);
	free(ir);
}

int main(void)
{
	RUN(vector_add);
	RUN(python_divmod);
	RUN(power);
	RUN(power_complex_runtime);
	RUN(logic);
	RUN(builtins);
	RUN(loops);
	RUN(matmul);
	RUN(shared_reduction);
	RUN(atomics);
	RUN(device_functions);
	RUN(grayscale);
	RUN(negative_index_and_bounds);
	RUN(layouts);
	RUN(small_types);
	RUN(assert_trap);
	RUN(fma_contraction);
	RUN(static_arrays);
	RUN(tuples);
	RUN(scalar_params_and_raise);
	RUN(grid_3d);
	RUN(elif_while_else);
	RUN(slices);
	RUN(view_stores);
	return check_summary("lower");
}

/*
 * test_math.c - the math library through the C API: kernels calling
 * math.* compiled with pj_compile and run by the simulator, against the
 * host's libm (within a few ulps: the library's bounds are measured by
 * bench/math_accuracy.py against mpmath); constant arguments folded by
 * the IR passes give the same bits as the simulator computing them; and
 * fastmath turns float32 sin into the approx opcode.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core.h"

typedef struct Global {
	const char *name;
	PjValue v;
} Global;

static Global globals[] = {
	{"cuda", {.kind = PJ_V_MODULE, .s = "cuda"}},
	{"np", {.kind = PJ_V_MODULE, .s = "numpy"}},
	{"math", {.kind = PJ_V_MODULE, .s = "math"}},
	{NULL, {0}},
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

static PjKernel *compile(const char *src, const char *name, const char *sig, int opt_level, int fastmath)
{
	static PjFunc f;
	f = (PjFunc){name, src, "test.py", 1, 0, resolve, globals, NULL, 0, 0, 0, NULL, NULL, 0, 0};
	PjOptions o = {.arch = 90, .opt_level = opt_level, .sim = 1, .fastmath = fastmath};
	PjKernel *k = NULL;
	PjError e;
	memset(&e, 0, sizeof e);
	if (pj_compile(&f, sig, &o, &k, &e) != PJ_OK) {
		printf("compile %s failed:\n%s\n", name, e.msg);
		return NULL;
	}
	return k;
}

/* Runs a kernel whose parameters are 1-D arrays only (data, extent). */
static int run(const PjKernel *k, unsigned blocks, unsigned threads, void **arrays, const int64_t *n)
{
	unsigned char params[512];
	memset(params, 0, sizeof params);
	for (int i = 0; i < k->nparams; i++) {
		const PjParam *p = &k->params[i];
		int64_t v = p->role == 0 ? (int64_t)(uintptr_t)arrays[p->arg] : n[p->arg];
		memcpy(params + p->off, &v, 8);
	}
	unsigned g[3] = {blocks, 1, 1}, b[3] = {threads, 1, 1};
	PjError e;
	int rc = pj_sim_launch(k, g, b, 0, params, 0, &e);
	if (rc != PJ_SIM_OK)
		printf("launch: %d %s\n", rc, e.msg);
	return rc;
}

/* |a - b| in ulps of b; 0 when both are the same NaN/infinity */
static double ulps(double a, double b, int f32)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b) ? 0 : 1e30;
	if (isinf(a) || isinf(b))
		return a == b ? 0 : 1e30;
	int e;
	frexp(b, &e);
	int emin = f32 ? -125 : -1021, p = f32 ? 24 : 53;
	if (e < emin)
		e = emin;
	return fabs(a - b) / ldexp(1.0, e - p);
}

#define NF 24
static const char *unary_src =
	"@cuda.jit\n"
	"def un(x, out):\n"
	"    i = cuda.grid(1)\n"
	"    if i < x.size:\n"
	"        a = x[i]\n"
	"        o = i * 24\n"
	"        out[o + 0] = math.sin(a)\n"
	"        out[o + 1] = math.cos(a)\n"
	"        out[o + 2] = math.tan(a)\n"
	"        out[o + 3] = math.asin(a)\n"
	"        out[o + 4] = math.acos(a)\n"
	"        out[o + 5] = math.atan(a)\n"
	"        out[o + 6] = math.sinh(a)\n"
	"        out[o + 7] = math.cosh(a)\n"
	"        out[o + 8] = math.tanh(a)\n"
	"        out[o + 9] = math.asinh(a)\n"
	"        out[o + 10] = math.acosh(a)\n"
	"        out[o + 11] = math.atanh(a)\n"
	"        out[o + 12] = math.exp(a)\n"
	"        out[o + 13] = math.exp2(a)\n"
	"        out[o + 14] = math.expm1(a)\n"
	"        out[o + 15] = math.log(a)\n"
	"        out[o + 16] = math.log2(a)\n"
	"        out[o + 17] = math.log10(a)\n"
	"        out[o + 18] = math.log1p(a)\n"
	"        out[o + 19] = math.erf(a)\n"
	"        out[o + 20] = math.erfc(a)\n"
	"        out[o + 21] = math.gamma(a)\n"
	"        out[o + 22] = math.lgamma(a)\n"
	"        out[o + 23] = np.cbrt(a)\n";

static double (*const ref64[NF])(double) = {
	sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh,
	exp, exp2, expm1, log, log2, log10, log1p, erf, erfc, tgamma, lgamma, cbrt,
};
static float (*const ref32[NF])(float) = {
	sinf, cosf, tanf, asinf, acosf, atanf, sinhf, coshf, tanhf, asinhf, acoshf, atanhf,
	expf, exp2f, expm1f, logf, log2f, log10f, log1pf, erff, erfcf, tgammaf, lgammaf, cbrtf,
};
static const char *const fnames[NF] = {
	"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
	"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "erf", "erfc", "gamma", "lgamma", "cbrt",
};

static const double inputs[] = {
	0.0, -0.0, 1.0, -1.0, 0.5, -0.75, 2.0, 3.5, -2.5, 10.0, -30.0, 100.0, 1e-8, -1e-300, 1e300,
	700.0, -740.0, 1e22, 0.999, 1.0001, 5.5, -5.5, 0.1, 27.0, 1.5e-310, INFINITY, -INFINITY, NAN,
	0.7853981633974483, 1.5707963267948966, 3.141592653589793, 1e6 + 0.3, 2e8 + 0.7, 12345.678,
};
#define NIN ((int)(sizeof inputs / sizeof inputs[0]))

TEST(unary_float64)
{
	PjKernel *k = compile(unary_src, "un", "void(float64[::1], float64[::1])", 1, 0);
	CHECK(k != NULL);
	if (!k)
		return;
	double x[NIN], *out = calloc((size_t)NIN * NF, sizeof(double));
	memcpy(x, inputs, sizeof x);
	void *arrays[2] = {x, out};
	int64_t n[2] = {NIN, (int64_t)NIN * NF};
	CHECK_EQ_INT(run(k, 1, 64, arrays, n), PJ_SIM_OK);
	for (int i = 0; i < NIN; i++)
		for (int f = 0; f < NF; f++) {
			double want = ref64[f](x[i]), got = out[i * NF + f];
			/* libm is itself off by up to an ulp or so; gamma's bound is 10 */
			double tol = f == 21 ? 12 : f == 20 ? 6 : 3;
			if (ulps(got, want, 0) > tol) {
				printf("%s(%.17g) = %.17g, libm %.17g\n", fnames[f], x[i], got, want);
				CHECK(0);
			}
			if (want == 0 && got == 0 && signbit(want) != signbit(got)) {
				printf("%s(%.17g): the sign of zero\n", fnames[f], x[i]);
				CHECK(0);
			}
		}
	free(out);
	pj_kernel_free(k);
}

TEST(unary_float32)
{
	PjKernel *k = compile(unary_src, "un", "void(float32[::1], float32[::1])", 1, 0);
	CHECK(k != NULL);
	if (!k)
		return;
	float x[NIN], *out = calloc((size_t)NIN * NF, sizeof(float));
	for (int i = 0; i < NIN; i++)
		x[i] = (float)inputs[i];
	void *arrays[2] = {x, out};
	int64_t n[2] = {NIN, (int64_t)NIN * NF};
	CHECK_EQ_INT(run(k, 1, 64, arrays, n), PJ_SIM_OK);
	for (int i = 0; i < NIN; i++)
		for (int f = 0; f < NF; f++) {
			float want = ref32[f](x[i]), got = out[i * NF + f];
			double tol = f == 21 ? 8 : f == 22 ? 8 : 4;
			if (ulps(got, want, 1) > tol) {
				printf("%sf(%.9g) = %.9g, libm %.9g\n", fnames[f], x[i], got, want);
				CHECK(0);
			}
		}
	free(out);
	pj_kernel_free(k);
}

/* The same functions of constants: the IR passes fold the whole inlined
 * library (fold.c), and the folded bits must be the simulator's. */
static const char *const_src =
	"@cuda.jit\n"
	"def cst(x, out):\n"
	"    out[0] = math.sin(1e22)\n"
	"    out[1] = math.exp(-700.5)\n"
	"    out[2] = math.log(0.3)\n"
	"    out[3] = math.erf(0.7)\n"
	"    out[4] = math.pow(1.7, 33.3)\n"
	"    out[5] = math.lgamma(-2.5)\n"
	"    out[6] = math.atan2(-1.0, -3.0)\n"
	"    out[7] = math.cbrt(-27.5)\n"
	"    out[8] = math.tan(1.5)\n"
	"    out[9] = math.expm1(1e-5)\n";

static const char *var_src =
	"@cuda.jit\n"
	"def var(x, out):\n"
	"    out[0] = math.sin(x[0])\n"
	"    out[1] = math.exp(x[1])\n"
	"    out[2] = math.log(x[2])\n"
	"    out[3] = math.erf(x[3])\n"
	"    out[4] = math.pow(x[4], x[10])\n"
	"    out[5] = math.lgamma(x[5])\n"
	"    out[6] = math.atan2(x[6], x[11])\n"
	"    out[7] = math.cbrt(x[7])\n"
	"    out[8] = math.tan(x[8])\n"
	"    out[9] = math.expm1(x[9])\n";

TEST(folding_matches_simulator)
{
	PjKernel *kc = compile(const_src, "cst", "void(float64[::1], float64[::1])", 1, 0);
	PjKernel *kv = compile(var_src, "var", "void(float64[::1], float64[::1])", 1, 0);
	CHECK(kc && kv);
	if (!kc || !kv)
		return;
	double x[12] = {1e22, -700.5, 0.3, 0.7, 1.7, -2.5, -1.0, -27.5, 1.5, 1e-5, 33.3, -3.0};
	double oc[10] = {0}, ov[10] = {0};
	void *ac[2] = {x, oc}, *av[2] = {x, ov};
	int64_t n[2] = {12, 10};
	CHECK_EQ_INT(run(kc, 1, 1, ac, n), PJ_SIM_OK);
	CHECK_EQ_INT(run(kv, 1, 1, av, n), PJ_SIM_OK);
	for (int i = 0; i < 10; i++)
		if (memcmp(&oc[i], &ov[i], 8) != 0) {
			printf("folded %.17g, computed %.17g (output %d)\n", oc[i], ov[i], i);
			CHECK(0);
		}
	pj_kernel_free(kc);
	pj_kernel_free(kv);
}

TEST(fastmath_approximations)
{
	const char *src =
		"@cuda.jit\n"
		"def fm(x, out):\n"
		"    i = cuda.grid(1)\n"
		"    if i < x.size:\n"
		"        out[i] = math.sin(x[i]) + math.exp(x[i])\n";
	PjKernel *k = compile(src, "fm", "void(float32[::1], float32[::1])", 1, 1);
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(k->ir, "approx.sin");
	CHECK_STR_CONTAINS(k->ir, "approx.ex2");
	CHECK_STR_CONTAINS(k->ptx, "sin.approx.ftz.f32");
	CHECK_STR_CONTAINS(k->ptx, "ex2.approx.ftz.f32");
	float x[4] = {0.5f, -1.25f, 2.0f, 0.0f}, out[4];
	void *arrays[2] = {x, out};
	int64_t n[2] = {4, 4};
	CHECK_EQ_INT(run(k, 1, 4, arrays, n), PJ_SIM_OK);
	for (int i = 0; i < 4; i++)
		CHECK(fabs(out[i] - (sin(x[i]) + exp(x[i]))) < 1e-5);
	pj_kernel_free(k);
}

int main(void)
{
	RUN(unary_float64);
	RUN(unary_float32);
	RUN(folding_matches_simulator);
	RUN(fastmath_approximations);
	return check_summary("math");
}

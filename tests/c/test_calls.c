/*
 * test_calls.c - device functions called for real (recursion), print(),
 * debug traps and Python's float arithmetic, compiled from Python source
 * with pj_compile and run in the simulator on real buffers, compared with
 * references computed here in C.
 *
 * Covers: the exact fmod and CPython's float // and % on random and
 * special operands (bit for bit), round(x, n) against the correctly
 * rounded decimal conversion of the C library, self and mutual recursion
 * with tuples and arrays through the calls, the PTX of calls (.func,
 * prototypes, one byte-array result), print's formats in the simulator
 * (stdout captured) and in PTX (vprintf), the error word of debug traps,
 * the trap table of PjKernel, and the refusals (recursion that cannot be
 * typed, a shared array in a recursive function).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core.h"

/* ------------------------------------------------------------ helpers */

static const char *cur_src;

/* math/np/cuda are modules; a name that a `def` of the source defines is
 * a device function of that source. */
static int resolve(void *data, const char *name, PjValue *out, PjArena *a)
{
	(void)data;
	if (!strcmp(name, "cuda") || !strcmp(name, "np") || !strcmp(name, "math")) {
		out->kind = PJ_V_MODULE;
		out->s = !strcmp(name, "np") ? "numpy" : name;
		return 1;
	}
	if (!strcmp(name, "ValueError")) {
		out->kind = PJ_V_EXC;
		out->s = "ValueError";
		return 1;
	}
	char pat[128];
	snprintf(pat, sizeof pat, "def %s(", name);
	if (!strstr(cur_src, pat))
		return 0;
	PjFunc *f = pj_alloc(a, sizeof *f);
	memset(f, 0, sizeof *f);
	f->name = name;
	f->source = cur_src;
	f->file = "calls.py";
	f->first_line = 1;
	f->resolve = resolve;
	f->is_device = 1;
	out->kind = PJ_V_FUNC;
	out->func = f;
	return 1;
}

static PjKernel *compile_opts(const char *src, const char *name, const char *sig, int debug, PjError *e)
{
	cur_src = src;
	PjFunc f = {.name = name, .source = src, .file = "calls.py", .first_line = 1, .resolve = resolve};
	PjOptions o = {.arch = 90, .opt_level = 1, .sim = 1, .debug = debug};
	PjKernel *k = NULL;
	if (pj_compile(&f, sig, &o, &k, e) != PJ_OK)
		return NULL;
	return k;
}

static PjKernel *compile(const char *src, const char *name, const char *sig)
{
	PjError e;
	PjKernel *k = compile_opts(src, name, sig, 0, &e);
	if (!k)
		printf("compile error: %s\n", e.msg);
	return k;
}

/* The parameter buffer of 1-D C arrays: arrays[leaf], n[leaf] elements. */
static void fill(const PjKernel *k, unsigned char *buf, void *const *arrays, const int64_t *n)
{
	memset(buf, 0, (size_t)k->param_bytes);
	for (int i = 0; i < k->nparams; i++) {
		const PjParam *p = &k->params[i];
		if (p->role == KP_DATA)
			memcpy(buf + p->off, &arrays[p->arg], 8);
		else if (p->role == KP_SHAPE)
			memcpy(buf + p->off, &n[p->arg], 8);
	}
}

static int launch(PjKernel *k, unsigned blocks, unsigned threads, const void *params, PjError *e)
{
	unsigned g[3] = {blocks, 1, 1}, b[3] = {threads, 1, 1};
	return pj_sim_launch(k, g, b, 0, params, 0, e);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_u64(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A double with a random sign, mantissa and exponent in [-60, 60], or
 * now and then a special value. */
static double random_double(void)
{
	static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, -7.0, 1e300, -1e-300, 5e-324,
	                                 INFINITY, -INFINITY, NAN, 0x1p52, 0x1p-1060, 1e16 + 2};
	uint64_t r = next_u64();
	if (r % 9 == 0)
		return special[(r >> 8) % (sizeof special / sizeof special[0])];
	double m = (double)(r >> 11) * 0x1p-53 + 0.5;
	int ex = (int)((r >> 3) % 121) - 60;
	return ((r >> 2) & 1 ? -1 : 1) * ldexp(m, ex);
}

static int same_bits(double a, double b)
{
	if (a != a && b != b)
		return 1;
	uint64_t x, y;
	memcpy(&x, &a, 8);
	memcpy(&y, &b, 8);
	return x == y;
}

/* CPython's float_divmod, with Numba's answers for a zero divisor. */
static void py_divmod(double x, double y, double *q, double *r)
{
	if (y == 0) {
		*q = x / y;
		*r = NAN;
		return;
	}
	double mod = fmod(x, y), div = (x - mod) / y;
	if (mod) {
		if ((y < 0) != (mod < 0)) {
			mod += y;
			div -= 1.0;
		}
	} else {
		mod = copysign(0.0, y);
	}
	double fd;
	if (div) {
		fd = floor(div);
		if (div - fd > 0.5)
			fd += 1.0;
	} else {
		fd = copysign(0.0, x / y);
	}
	*q = fd;
	*r = mod;
}

/* --------------------------------------------------- float // and % */

static const char *py_divmod_src =
	"@cuda.jit\n"
	"def k(a, b, q, r):\n"
	"    i = cuda.grid(1)\n"
	"    if i < a.size:\n"
	"        q[i] = a[i] // b[i]\n"
	"        r[i] = a[i] % b[i]\n";

TEST(float_floordiv_mod_bit_exact)
{
	PjKernel *k = compile(py_divmod_src, "k", "float64[::1], float64[::1], float64[::1], float64[::1]");
	if (!k) {
		CHECK(0);
		return;
	}
	enum { N = 20000 };
	double *a = malloc(N * 8), *b = malloc(N * 8), *q = malloc(N * 8), *r = malloc(N * 8);
	for (int i = 0; i < N; i++) {
		a[i] = random_double();
		b[i] = random_double();
	}
	unsigned char p[256];
	void *arr[4] = {a, b, q, r};
	int64_t n[4] = {N, N, N, N};
	fill(k, p, arr, n);
	PjError e;
	CHECK_EQ_INT(launch(k, N / 128 + 1, 128, p, &e), PJ_SIM_OK);
	int bad = 0;
	for (int i = 0; i < N && bad < 5; i++) {
		double wq, wr;
		py_divmod(a[i], b[i], &wq, &wr);
		if (!same_bits(q[i], wq) || !same_bits(r[i], wr)) {
			printf("  %a // %a: got %a, %a; want %a, %a\n", a[i], b[i], q[i], r[i], wq, wr);
			bad++;
		}
	}
	CHECK_EQ_INT(bad, 0);
	free(a), free(b), free(q), free(r);
	pj_kernel_free(k);
}

/* --------------------------------------------------------- round(x, n) */

static const char *round_src =
	"@cuda.jit\n"
	"def k(x, o2, o5, o0):\n"
	"    i = cuda.grid(1)\n"
	"    if i < x.size:\n"
	"        o2[i] = round(x[i], 2)\n"
	"        o5[i] = round(x[i], 5)\n"
	"        o0[i] = round(x[i], 0)\n";

/* CPython's round(x, nd) for nd >= 0: the correctly rounded decimal
 * (round half to even on the exact binary value), read back. */
static double c_round(double x, int nd)
{
	if (!isfinite(x) || x == 0)
		return x;
	char buf[512];
	snprintf(buf, sizeof buf, "%.*f", nd, x);
	return copysign(strtod(buf, NULL), x);
}

TEST(round_ndigits_correctly_rounded)
{
	PjKernel *k = compile(round_src, "k", "float64[::1], float64[::1], float64[::1], float64[::1]");
	if (!k) {
		CHECK(0);
		return;
	}
	enum { N = 20000 };
	double *x = malloc(N * 8), *o2 = malloc(N * 8), *o5 = malloc(N * 8), *o0 = malloc(N * 8);
	for (int i = 0; i < N; i++) {
		/* many values at or next to a half: k / 200 and k / 2e5 */
		uint64_t r = next_u64();
		x[i] = i % 3 == 0 ? (double)((int64_t)(r % 2000001) - 1000000) / 200.0
		     : i % 3 == 1 ? (double)((int64_t)(r % 2000001) - 1000000) / 2e5 : random_double();
	}
	unsigned char p[256];
	void *arr[4] = {x, o2, o5, o0};
	int64_t n[4] = {N, N, N, N};
	fill(k, p, arr, n);
	PjError e;
	CHECK_EQ_INT(launch(k, N / 128 + 1, 128, p, &e), PJ_SIM_OK);
	int bad = 0;
	for (int i = 0; i < N && bad < 5; i++)
		if (!same_bits(o2[i], c_round(x[i], 2)) || !same_bits(o5[i], c_round(x[i], 5)) ||
		    !same_bits(o0[i], c_round(x[i], 0))) {
			printf("  round(%.17g): got %.17g %.17g %.17g\n", x[i], o2[i], o5[i], o0[i]);
			bad++;
		}
	CHECK_EQ_INT(bad, 0);
	free(x), free(o2), free(o5), free(o0);
	pj_kernel_free(k);
}

/* ------------------------------------------------------------ recursion */

static const char *rec_src =
	"@cuda.jit(device=True)\n"
	"def fib(n):\n"
	"    if n < 2:\n"
	"        return n\n"
	"    return fib(n - 1) + fib(n - 2)\n"
	"\n"
	"@cuda.jit(device=True)\n"
	"def even(n):\n"
	"    if n == 0:\n"
	"        return True\n"
	"    return odd(n - 1)\n"
	"\n"
	"@cuda.jit(device=True)\n"
	"def odd(n):\n"
	"    if n == 0:\n"
	"        return False\n"
	"    return even(n - 1)\n"
	"\n"
	"@cuda.jit(device=True)\n"
	"def sum_to(a, n):\n"
	"    if n == 0:\n"
	"        return (0.0, 0)\n"
	"    s, c = sum_to(a, n - 1)\n"
	"    return (s + a[n - 1], c + 1)\n"
	"\n"
	"@cuda.jit(device=True)\n"
	"def down(n):\n"
	"    return down(n - 1)\n"
	"\n"
	"@cuda.jit\n"
	"def k(a, out, par, mean):\n"
	"    i = cuda.grid(1)\n"
	"    if i < out.size:\n"
	"        out[i] = fib(i)\n"
	"        par[i] = even(i)\n"
	"        s, c = sum_to(a, i + 1)\n"
	"        mean[i] = s / c\n"
	"\n"
	"@cuda.jit\n"
	"def bad(out):\n"
	"    out[0] = down(3)\n";

TEST(recursion_in_the_simulator)
{
	PjKernel *k = compile(rec_src, "k", "float64[::1], int64[::1], int64[::1], float64[::1]");
	if (!k) {
		CHECK(0);
		return;
	}
	enum { N = 25 };
	double a[N], mean[N];
	int64_t out[N], par[N], fibs[N];
	for (int i = 0; i < N; i++) {
		a[i] = (double)(next_u64() % 1000) / 8.0;
		fibs[i] = i < 2 ? i : fibs[i - 1] + fibs[i - 2];
	}
	unsigned char p[256];
	void *arr[4] = {a, out, par, mean};
	int64_t n[4] = {N, N, N, N};
	fill(k, p, arr, n);
	PjError e;
	CHECK_EQ_INT(launch(k, 1, 32, p, &e), PJ_SIM_OK);
	double s = 0;
	for (int i = 0; i < N; i++) {
		s += a[i];
		CHECK_EQ_INT(out[i], fibs[i]);
		CHECK_EQ_INT(par[i], i % 2 == 0);
		CHECK(mean[i] == s / (i + 1));
	}
	/* the PTX: functions declared before the entry, calls with .param */
	CHECK_STR_CONTAINS(k->ptx, ".func (.param .align 8 .b8 __pj_r[8]) fib_f0(.param .b64 __pj_a0);");
	CHECK_STR_CONTAINS(k->ptx, "call (__pj_cr), fib_f0, (__pj_ca0);");
	CHECK_STR_CONTAINS(k->ptx, "(.param .align 8 .b8 __pj_r[16]) sum_to_f");
	CHECK_STR_CONTAINS(k->ir, "callf");
	CHECK_STR_CONTAINS(k->ir, "func fib_f0");
	pj_kernel_free(k);

	PjError ce;
	cur_src = rec_src;
	CHECK(!compile_opts(rec_src, "bad", "int64[::1]", 0, &ce));
	CHECK_STR_CONTAINS(ce.msg, "calls.py:28:12: error: recursion without a way to type it");
}

/* ---------------------------------------------------------------- print */

static const char *print_src =
	"@cuda.jit\n"
	"def k(x, n):\n"
	"    i = cuda.grid(1)\n"
	"    if i < x.size:\n"
	"        print('v', i, x[i], n[i] > 0, (n[i], np.uint8(250)), '50%', None)\n";

TEST(print_formats)
{
	PjKernel *k = compile(print_src, "k", "float32[::1], int64[::1]");
	if (!k) {
		CHECK(0);
		return;
	}
	float x[2] = {1.5f, -2.0f};
	int64_t v[2] = {-7, 8};
	unsigned char p[256];
	void *arr[2] = {x, v};
	int64_t n[2] = {2, 2};
	fill(k, p, arr, n);
	char path[] = "/tmp/ptxjit_print_XXXXXX";
	int fd = mkstemp(path);
	fflush(stdout);
	int saved = dup(1);
	dup2(fd, 1);
	PjError e;
	int rc = launch(k, 1, 2, p, &e);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	char text[512] = "";
	lseek(fd, 0, SEEK_SET);
	ssize_t got = read(fd, text, sizeof text - 1);
	text[got > 0 ? got : 0] = 0;
	close(fd);
	unlink(path);
	CHECK_EQ_INT(rc, PJ_SIM_OK);
	CHECK_STR_CONTAINS(text, "v 0 1.500000 False (-7, 250) 50% None\n");
	CHECK_STR_CONTAINS(text, "v 1 -2.000000 True (8, 250) 50% None\n");
	CHECK_STR_CONTAINS(k->ptx, ".extern .func (.param .b32 func_retval0) vprintf(");
	CHECK_STR_CONTAINS(k->ptx, "call (__pj_pr), vprintf, (__pj_pa0, __pj_pa1);");
	CHECK_STR_CONTAINS(k->ptx, "__pj_true");
	pj_kernel_free(k);
}

/* ---------------------------------------------------------------- traps */

static const char *trap_src =
	"@cuda.jit\n"
	"def k(x):\n"
	"    i = cuda.grid(1)\n"
	"    assert i < 3, 'small'\n"
	"    if x[i] > 1:\n"
	"        raise ValueError('big')\n"
	"    x[i] = 1\n";

TEST(debug_traps)
{
	PjError e;
	PjKernel *k = compile_opts(trap_src, "k", "int64[::1]", 1, &e);
	if (!k) {
		printf("compile error: %s\n", e.msg);
		CHECK(0);
		return;
	}
	int64_t x[8] = {0, 0, 5, 0, 0, 0, 0, 0};
	unsigned char p[64];
	void *arr[1] = {x};
	int64_t n[1] = {8};
	fill(k, p, arr, n);
	CHECK_EQ_INT(launch(k, 1, 8, p, &e), PJ_SIM_TRAP);
	CHECK_STR_CONTAINS(e.msg, "ValueError: big\n  at calls.py:6, in kernel 'k', thread (2, 0, 0)");
	x[2] = 0;
	CHECK_EQ_INT(launch(k, 1, 8, p, &e), PJ_SIM_TRAP);
	CHECK_STR_CONTAINS(e.msg, "AssertionError: small\n  at calls.py:4, in kernel 'k', thread (3, 0, 0)");
	/* the GPU's error word and the table the runtime reads it with */
	CHECK_STR_CONTAINS(k->ptx, ".visible .global .align 8 .u32 __pj_err[12];");
	CHECK_STR_CONTAINS(k->ptx, "atom.global.cas.b32");
	CHECK(k->ntraps >= 2);
	int seen = 0, bounds = 0;
	for (int i = 0; i < k->ntraps; i++)
		if (k->traps[i].msg && k->traps[i].axis) {
			bounds++;   /* x[i] and x[i] = 1: IndexError with the index and extent */
			CHECK_STR_CONTAINS(k->traps[i].msg, "IndexError: x");
		} else if (k->traps[i].msg) {
			seen++;
			CHECK(k->traps[i].line == 4 || k->traps[i].line == 6);
			CHECK_STR_CONTAINS(k->traps[i].file, "calls.py");
		}
	CHECK_EQ_INT(seen, 2);
	CHECK_EQ_INT(bounds, 2);
	pj_kernel_free(k);
	/* without debug there is neither */
	k = compile(trap_src, "k", "int64[::1]");
	CHECK(k && k->ntraps == 0 && !strstr(k->ptx, "__pj_err"));
	pj_kernel_free(k);
}

/* -------------------------------------------------------- tuple arguments */

static const char *tuple_src =
	"@cuda.jit\n"
	"def k(t, out, z=None):\n"
	"    a, (b, arr) = t\n"
	"    out[0] = a + b + arr[1] + (0 if z is None else z)\n";

TEST(tuple_arguments_are_flattened)
{
	PjKernel *k = compile(tuple_src, "k", "Tuple(int64, Tuple(float64, float64[::1])), float64[::1]");
	if (!k) {
		CHECK(0);
		return;
	}
	/* leaves: 0 a, 1 b, 2 arr, 3 out */
	int seen[4] = {0};
	for (int i = 0; i < k->nparams; i++)
		if (k->params[i].arg >= 0 && k->params[i].arg < 4)
			seen[k->params[i].arg] |= 1 << k->params[i].role;
	CHECK_EQ_INT(seen[0], 1 << KP_SCALAR);
	CHECK_EQ_INT(seen[1], 1 << KP_SCALAR);
	CHECK_EQ_INT(seen[2], 1 << KP_DATA | 1 << KP_SHAPE);
	CHECK_EQ_INT(seen[3], 1 << KP_DATA | 1 << KP_SHAPE);
	pj_kernel_free(k);
	PjError e;
	k = compile_opts(tuple_src, "k", "UniTuple(float64, 2), float64[::1], none", 0, &e);
	CHECK(k == NULL);   /* a UniTuple of floats does not unpack into (b, arr) */
	k = compile("@cuda.jit\ndef k(t, out, z=None):\n    out[0] = t[0] + (1 if z is None else z)\n", "k",
	            "UniTuple(float64, 2), float64[::1], none");
	CHECK(k != NULL);
	pj_kernel_free(k);
}

int main(void)
{
	RUN(float_floordiv_mod_bit_exact);
	RUN(round_ndigits_correctly_rounded);
	RUN(recursion_in_the_simulator);
	RUN(print_formats);
	RUN(debug_traps);
	RUN(tuple_arguments_are_flattened);
	return check_summary("calls");
}

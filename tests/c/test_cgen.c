/*
 * test_cgen.c - the CPU back end: Python functions compiled with
 * PjOptions.target_cpu to C, built with the system C compiler into a
 * shared object, loaded and run; the results are checked against values
 * computed here.  Also checks that the generated text's PjCpuCtx is the
 * one of src/cgen/cpurt.h (its size is asserted in the generated file).
 *
 * Skips (and says so) when no C compiler is on PATH.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core.h"
#include "cgen/cpurt.h"

typedef struct Global {
	const char *name;
	PjValue v;
} Global;

static Global globals[] = {
	{"np", {.kind = PJ_V_MODULE, .s = "numpy"}},
	{"math", {.kind = PJ_V_MODULE, .s = "math"}},
	{NULL, {0}},    /* the function being built, by its name (recursion) */
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

static int have_cc;
static int nbuilt;

/* Compiles `name` in src for sig to a loaded entry point, or NULL. */
static PjCpuFn build(const char *src, const char *name, const char *sig, int boundscheck, PjKernel **kout)
{
	static PjFunc f;
	f = (PjFunc){name, src, "test.py", 1, 0, resolve, globals, NULL, 0, 0, 0, NULL, NULL, 0, 0};
	globals[2] = (Global){name, {.kind = PJ_V_FUNC, .func = &f}};
	PjOptions o = {.arch = 90, .opt_level = 1, .target_cpu = 1, .boundscheck = boundscheck};
	PjKernel *k = NULL;
	PjError e;
	if (pj_compile(&f, sig, &o, &k, &e) != PJ_OK) {
		printf("compile error: %s\n", e.msg);
		return NULL;
	}
	char cpath[256], sopath[256], cmd[1024];
	snprintf(cpath, sizeof cpath, "/tmp/ptxjit_test_cgen_%d_%d.c", (int)getpid(), nbuilt);
	snprintf(sopath, sizeof sopath, "/tmp/ptxjit_test_cgen_%d_%d.so", (int)getpid(), nbuilt++);
	FILE *fp = fopen(cpath, "w");
	if (!fp)
		return NULL;
	fputs(k->csrc, fp);
	/* the generated context must be the header's: same size and offsets */
	fputs("\n_Static_assert(sizeof(PjCpuCtx) == 48, \"PjCpuCtx layout\");\n", fp);
	fclose(fp);
	snprintf(cmd, sizeof cmd, "cc -std=c99 -O2 -shared -fPIC -ffp-contract=off -Wall -Werror -Wno-misleading-indentation -Wno-unused-label "
	         "-Wno-unused-variable -Wno-unused-but-set-variable -o %s %s -lm", sopath, cpath);
	if (system(cmd) != 0) {
		printf("cc failed on %s\n", cpath);
		return NULL;
	}
	void *h = dlopen(sopath, RTLD_NOW | RTLD_LOCAL);
	remove(cpath);
	remove(sopath);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return NULL;
	}
	PjCpuFn fn = (PjCpuFn)(uintptr_t)dlsym(h, k->entry);
	*kout = k;
	return fn;
}

static void *test_alloc(PjCpuCtx *ctx, uint64_t n, int zero)
{
	(void)ctx;
	return zero ? calloc(1, n ? n : 1) : malloc(n ? n : 1);
}

static int ret_off(PjKernel *k)
{
	for (int i = 0; i < k->nparams; i++)
		if (k->params[i].role == KP_RET)
			return k->params[i].off;
	return -1;
}

TEST(test_ctx_layout)
{
	CHECK_EQ_INT(sizeof(PjCpuCtx), 48);
}

TEST(test_scalar_return)
{
	PjKernel *k;
	PjCpuFn fn = build("def f(a, b):\n    x = a * b + 1\n    if x > 10:\n        return x // 3\n    return -x % 7\n",
	                   "f", "int64, int64", 0, &k);
	CHECK(fn != NULL);
	if (!fn)
		return;
	CHECK_EQ_INT(k->nrets, 1);
	CHECK_EQ_INT(k->rets[0].kind, PJ_RET_SCALAR);
	int64_t cases[][2] = {{3, 4}, {1, 2}, {-5, 3}, {0, 0}, {100, -7}};
	for (int t = 0; t < 5; t++) {
		unsigned char params[64] = {0};
		int64_t out = 0, a = cases[t][0], b = cases[t][1];
		uint64_t op = (uint64_t)(uintptr_t)&out;
		memcpy(params + k->params[0].off, &a, 8);
		memcpy(params + k->params[1].off, &b, 8);
		memcpy(params + ret_off(k), &op, 8);
		PjCpuCtx ctx = {.alloc = test_alloc};
		CHECK_EQ_INT(fn(params, &ctx), 0);
		int64_t x = a * b + 1, want;
		if (x > 10)
			want = x / 3;
		else
			want = ((-x % 7) + 7) % 7;
		CHECK_EQ_INT(out, want);
	}
	pj_kernel_free(k);
}

TEST(test_matmul_alloc)
{
	PjKernel *k;
	PjCpuFn fn = build("def mm(A, B):\n"
	                   "    C = np.zeros_like(A)\n"
	                   "    for i in range(A.shape[0]):\n"
	                   "        for j in range(B.shape[1]):\n"
	                   "            for k in range(A.shape[1]):\n"
	                   "                C[i, j] += A[i, k] * B[k, j]\n"
	                   "    return C\n",
	                   "mm", "float64[:, ::1], float64[:, ::1]", 0, &k);
	CHECK(fn != NULL);
	if (!fn)
		return;
	CHECK_EQ_INT(k->rets[0].kind, PJ_RET_ARRAY);
	CHECK_EQ_INT(k->rets[0].ndim, 2);
	double A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {7, 8, 9, 10, 11, 12};   /* 2x3 @ 3x2 */
	unsigned char params[128] = {0}, out[64] = {0};
	int64_t ext[2][2] = {{2, 3}, {3, 2}};
	void *ptrs[2] = {A, B};
	for (int i = 0; i < k->nparams; i++) {
		PjParam *p = &k->params[i];
		if (p->role == 0)
			memcpy(params + p->off, &ptrs[p->arg], 8);
		else if (p->role == 1)
			memcpy(params + p->off, &ext[p->arg][p->dim], 8);
		else if (p->role == KP_RET) {
			uint64_t op = (uint64_t)(uintptr_t)out;
			memcpy(params + p->off, &op, 8);
		}
	}
	PjCpuCtx ctx = {.alloc = test_alloc};
	CHECK_EQ_INT(fn(params, &ctx), 0);
	double *C;
	int64_t shape[2], strides[2];
	memcpy(&C, out, 8);
	memcpy(shape, out + 8, 16);
	memcpy(strides, out + 24, 16);
	CHECK_EQ_INT(shape[0], 2);
	CHECK_EQ_INT(shape[1], 3);   /* zeros_like(A): A's shape */
	CHECK_EQ_INT(strides[0], 24);
	CHECK_EQ_INT(strides[1], 8);
	CHECK(C[0] == 1 * 7 + 2 * 9 + 3 * 11);
	CHECK(C[1] == 1 * 8 + 2 * 10 + 3 * 12);
	CHECK(C[2] == 0);
	free(C);
	pj_kernel_free(k);
}

TEST(test_boundscheck)
{
	PjKernel *k;
	PjCpuFn fn = build("def g(a, i):\n    return a[i]\n", "g", "int32[::1], int64", 1, &k);
	CHECK(fn != NULL);
	if (!fn)
		return;
	int32_t a[3] = {5, 6, 7};
	unsigned char params[64] = {0};
	int64_t out = 0, n = 3, idx = 3;
	uint64_t ap = (uint64_t)(uintptr_t)a, op = (uint64_t)(uintptr_t)&out;
	for (int i = 0; i < k->nparams; i++) {
		PjParam *p = &k->params[i];
		if (p->role == 0)
			memcpy(params + p->off, &ap, 8);
		else if (p->role == 1)
			memcpy(params + p->off, &n, 8);
		else if (p->role == 3)
			memcpy(params + p->off, &idx, 8);
		else if (p->role == KP_RET)
			memcpy(params + p->off, &op, 8);
	}
	PjCpuCtx ctx = {.alloc = test_alloc};
	CHECK_EQ_INT(fn(params, &ctx), 1);
	CHECK_EQ_INT(ctx.code, PJ_CPU_INDEX);
	CHECK_EQ_INT(ctx.index, 3);
	CHECK_EQ_INT(ctx.extent, 3);
	CHECK_STR_CONTAINS(ctx.msg, "test.py:2");
	idx = -1;   /* wraps around: a[-1] */
	for (int i = 0; i < k->nparams; i++)
		if (k->params[i].role == 3)
			memcpy(params + k->params[i].off, &idx, 8);
	ctx = (PjCpuCtx){.alloc = test_alloc};
	CHECK_EQ_INT(fn(params, &ctx), 0);
	CHECK_EQ_INT(out, 7);
	pj_kernel_free(k);
}

TEST(test_recursion)
{
	PjKernel *k;
	PjCpuFn fn = build("def fib(n):\n    if n <= 1:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
	                   "fib", "int64", 0, &k);
	CHECK(fn != NULL);
	if (!fn)
		return;
	int64_t want[] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55};
	for (int64_t n = 0; n <= 10; n++) {
		unsigned char params[64] = {0};
		int64_t out = -1;
		uint64_t op = (uint64_t)(uintptr_t)&out;
		memcpy(params + k->params[0].off, &n, 8);
		memcpy(params + ret_off(k), &op, 8);
		PjCpuCtx ctx = {.alloc = test_alloc};
		CHECK_EQ_INT(fn(params, &ctx), 0);
		CHECK_EQ_INT(out, want[n]);
	}
	pj_kernel_free(k);
}

int main(void)
{
	have_cc = system("cc --version > /dev/null 2>&1") == 0;
	RUN(test_ctx_layout);
	if (!have_cc) {
		printf("cgen: no C compiler on PATH; the build-and-run tests are skipped\n");
		return check_summary("cgen");
	}
	RUN(test_scalar_return);
	RUN(test_matmul_alloc);
	RUN(test_boundscheck);
	RUN(test_recursion);
	return check_summary("cgen");
}

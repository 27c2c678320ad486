/*
 * test_simcpu.c - CPU functions (@njit) on the interpreter, the fallback
 * without a C compiler (src/sim/cpu.c): functions compiled with
 * PjOptions.target_cpu and sim, run by pj_sim_cpu_call with the same
 * parameter buffer and allocator that compiled code gets.  Checks arrays
 * made inside (through the caller's allocator, which counts them),
 * recursion and mutual recursion, index errors and traps with their
 * lines, an allocator that fails, and endless recursion.  Needs no C
 * compiler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core.h"
#include "cgen/cpurt.h"

typedef struct Global {
	const char *name;
	PjValue v;
} Global;

static PjFunc funcs[4];
static Global globals[8] = {
	{"np", {.kind = PJ_V_MODULE, .s = "numpy"}},
	{"math", {.kind = PJ_V_MODULE, .s = "math"}},
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

/* Compiles function `name` (one of the `names` defined in src) for sig. */
static PjKernel *build(const char *src, const char *name, const char *const *names, const char *sig,
                       int boundscheck)
{
	int n = 0, me = 0;
	for (; names[n]; n++) {
		funcs[n] = (PjFunc){names[n], src, "test.py", 1, 0, resolve, globals, NULL, 0, 0, 0, NULL, NULL, 0, 0};
		globals[2 + n] = (Global){names[n], {.kind = PJ_V_FUNC, .func = &funcs[n]}};
		if (strcmp(names[n], name) == 0)
			me = n;
	}
	globals[2 + n] = (Global){NULL, {0}};
	PjOptions o = {.arch = 90, .opt_level = 1, .target_cpu = 1, .sim = 1, .boundscheck = boundscheck};
	PjKernel *k = NULL;
	PjError e;
	if (pj_compile(&funcs[me], sig, &o, &k, &e) != PJ_OK) {
		printf("compile error: %s\n", e.msg);
		return NULL;
	}
	return k;
}

typedef struct Pool {
	PjCpuCtx ctx;       /* first: the interpreter sees only this */
	void *blk[16];
	uint64_t size[16];
	int n, fail;
} Pool;

static void *pool_alloc(PjCpuCtx *ctx, uint64_t n, int zero)
{
	Pool *p = (Pool *)ctx;
	if (p->fail || p->n == 16)
		return NULL;
	void *b = malloc(n ? n : 1);
	if (b && zero)
		memset(b, 0, n);
	else if (b)
		memset(b, 0xAB, n);   /* np.empty: garbage */
	p->blk[p->n] = b;
	p->size[p->n++] = n;
	return b;
}

static void pool_free(Pool *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->blk[i]);
	p->n = 0;
}

static int ret_off(PjKernel *k)
{
	for (int i = 0; i < k->nparams; i++)
		if (k->params[i].role == KP_RET)
			return k->params[i].off;
	return -1;
}

static void put_ret(PjKernel *k, unsigned char *params, void *out)
{
	uint64_t op = (uint64_t)(uintptr_t)out;
	memcpy(params + ret_off(k), &op, 8);
}

TEST(test_alloc_and_return)
{
	static const char *const names[] = {"grid", NULL};
	PjKernel *k = build("def grid(n, m):\n"
	                    "    a = np.empty((n, m), np.int32)\n"
	                    "    z = np.zeros(m)\n"
	                    "    for i in range(n):\n"
	                    "        for j in range(m):\n"
	                    "            a[i, j] = i * 10 + j\n"
	                    "            z[j] += 0.5\n"
	                    "    return a, z\n",
	                    "grid", names, "int64, int64", 0);
	CHECK(k != NULL && k->sim != NULL);
	if (!k)
		return;
	CHECK_EQ_INT(k->nrets, 3);
	CHECK_EQ_INT(k->rets[1].kind, PJ_RET_ARRAY);
	unsigned char params[64] = {0}, out[128] = {0};
	int64_t n = 3, m = 4;
	memcpy(params + k->params[0].off, &n, 8);
	memcpy(params + k->params[1].off, &m, 8);
	put_ret(k, params, out);
	Pool p = {.ctx = {.alloc = pool_alloc}};
	PjError e;
	CHECK_EQ_INT(pj_sim_cpu_call(k, params, &p.ctx, &e), PJ_SIM_OK);
	CHECK_EQ_INT(p.n, 2);
	int32_t *a;
	double *z;
	int64_t shape[2], strides[2];
	memcpy(&a, out + k->rets[1].off, 8);
	memcpy(shape, out + k->rets[1].off + 8, 16);
	memcpy(strides, out + k->rets[1].off + 24, 16);
	memcpy(&z, out + k->rets[2].off, 8);
	CHECK(p.n == 2 && (void *)a == p.blk[0] && (void *)z == p.blk[1]);   /* no copy: the caller's blocks */
	CHECK_EQ_INT(p.size[0], 3 * 4 * 4);
	CHECK_EQ_INT(shape[0], 3);
	CHECK_EQ_INT(shape[1], 4);
	CHECK_EQ_INT(strides[0], 16);
	CHECK_EQ_INT(strides[1], 4);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 4; j++)
			CHECK_EQ_INT(a[i * 4 + j], i * 10 + j);
	for (int j = 0; j < 4; j++)
		CHECK(z[j] == 1.5);
	pool_free(&p);

	/* an allocator that fails: MemoryError at the line */
	p = (Pool){.ctx = {.alloc = pool_alloc}, .fail = 1};
	CHECK_EQ_INT(pj_sim_cpu_call(k, params, &p.ctx, &e), PJ_SIM_TRAP);
	CHECK_STR_CONTAINS(e.msg, "MemoryError");
	CHECK_STR_CONTAINS(e.msg, "test.py:2, in function 'grid'");

	/* a negative extent is NumPy's ValueError, before any allocation */
	n = -2;
	memcpy(params + k->params[0].off, &n, 8);
	p = (Pool){.ctx = {.alloc = pool_alloc}};
	CHECK_EQ_INT(pj_sim_cpu_call(k, params, &p.ctx, &e), PJ_SIM_TRAP);
	CHECK_STR_CONTAINS(e.msg, "ValueError: negative dimensions");
	CHECK_EQ_INT(p.n, 0);
	pj_kernel_free(k);
}

TEST(test_copy_of_strided_argument)
{
	static const char *const names[] = {"cp", NULL};
	PjKernel *k = build("def cp(x):\n    c = x.copy()\n    c[0, 0] = -1.0\n    return c\n",
	                    "cp", names, "float64[:, :]", 0);
	CHECK(k != NULL);
	if (!k)
		return;
	double src[12];
	for (int i = 0; i < 12; i++)
		src[i] = i;
	/* the transpose of a 3x4 C array: shape (4, 3), strides (8, 32) */
	int64_t shape[2] = {4, 3}, strides[2] = {8, 32};
	void *ptr = src;
	unsigned char params[128] = {0}, out[64] = {0};
	for (int i = 0; i < k->nparams; i++) {
		PjParam *p = &k->params[i];
		if (p->role == 0)
			memcpy(params + p->off, &ptr, 8);
		else if (p->role == 1)
			memcpy(params + p->off, &shape[p->dim], 8);
		else if (p->role == 2)
			memcpy(params + p->off, &strides[p->dim], 8);
	}
	put_ret(k, params, out);
	Pool p = {.ctx = {.alloc = pool_alloc}};
	PjError e;
	CHECK_EQ_INT(pj_sim_cpu_call(k, params, &p.ctx, &e), PJ_SIM_OK);
	double *c;
	memcpy(&c, out, 8);
	CHECK(c[0] == -1.0);
	for (int i = 1; i < 12; i++)
		CHECK(c[i] == src[(i % 3) * 4 + i / 3]);
	CHECK(src[0] == 0.0);
	pool_free(&p);
	pj_kernel_free(k);
}

static int64_t run_int(PjKernel *k, int64_t arg, int *rc, PjError *e)
{
	unsigned char params[64] = {0};
	int64_t out = -12345;
	memcpy(params + k->params[0].off, &arg, 8);
	put_ret(k, params, &out);
	Pool p = {.ctx = {.alloc = pool_alloc}};
	*rc = pj_sim_cpu_call(k, params, &p.ctx, e);
	pool_free(&p);
	return out;
}

TEST(test_recursion)
{
	static const char *const names[] = {"fib", NULL};
	PjKernel *k = build("def fib(n):\n    if n <= 1:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
	                    "fib", names, "int64", 0);
	CHECK(k != NULL && k->sim != NULL);
	if (!k)
		return;
	int64_t want[] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987};
	PjError e;
	int rc;
	for (int64_t n = 0; n <= 16; n++) {
		CHECK_EQ_INT(run_int(k, n, &rc, &e), want[n]);
		CHECK_EQ_INT(rc, PJ_SIM_OK);
	}
	CHECK_EQ_INT(run_int(k, 25, &rc, &e), 75025);
	pj_kernel_free(k);
}

TEST(test_mutual_recursion_and_depth)
{
	static const char *const names[] = {"even", "odd", NULL};
	const char *src = "def even(n):\n    if n == 0:\n        return 1\n    return odd(n - 1)\n"
	                  "def odd(n):\n    if n == 0:\n        return 0\n    return even(n - 1)\n";
	PjKernel *k = build(src, "even", names, "int64", 0);
	CHECK(k != NULL);
	if (!k)
		return;
	PjError e;
	int rc;
	for (int64_t n = 0; n < 40; n++) {
		CHECK_EQ_INT(run_int(k, n, &rc, &e), n % 2 == 0);
		CHECK_EQ_INT(rc, PJ_SIM_OK);
	}
	run_int(k, 1000000, &rc, &e);
	CHECK_EQ_INT(rc, PJ_SIM_TRAP);
	CHECK_STR_CONTAINS(e.msg, "RecursionError");
	CHECK_STR_CONTAINS(e.msg, "in function 'even'");
	pj_kernel_free(k);
}

TEST(test_index_error_and_trap)
{
	static const char *const names[] = {"g", NULL};
	PjKernel *k = build("def g(a, i):\n    assert i != 7, 'seven'\n    return a[i]\n", "g", names,
	                    "int32[::1], int64", 1);
	CHECK(k != NULL);
	if (!k)
		return;
	int32_t a[3] = {5, 6, 7};
	int64_t n = 3, out = 0;
	void *ap = a;
	int64_t idx[] = {2, -1, 3, 7};
	int want_rc[] = {PJ_SIM_OK, PJ_SIM_OK, PJ_SIM_INDEX, PJ_SIM_TRAP};
	for (int t = 0; t < 4; t++) {
		unsigned char params[64] = {0};
		for (int i = 0; i < k->nparams; i++) {
			PjParam *p = &k->params[i];
			if (p->role == 0)
				memcpy(params + p->off, &ap, 8);
			else if (p->role == 1)
				memcpy(params + p->off, &n, 8);
			else if (p->role == 3)
				memcpy(params + p->off, &idx[t], 8);
		}
		put_ret(k, params, &out);
		Pool p = {.ctx = {.alloc = pool_alloc}};
		PjError e;
		int rc = pj_sim_cpu_call(k, params, &p.ctx, &e);
		CHECK_EQ_INT(rc, want_rc[t]);
		if (t < 2)
			CHECK_EQ_INT(out, 7);   /* a[2], and a[-1] wrapped */
		if (rc == PJ_SIM_INDEX) {
			CHECK_STR_CONTAINS(e.msg, "index 3 is out of bounds for axis 0 with size 3");
			CHECK_STR_CONTAINS(e.msg, "at test.py:3, in function 'g'");
		}
		if (rc == PJ_SIM_TRAP)
			CHECK_STR_CONTAINS(e.msg, "AssertionError: seven");
	}
	pj_kernel_free(k);
}

TEST(test_kernel_launch_has_no_allocator)
{
	/* a kernel program never holds ALLOC; a CPU function launched as a
	 * kernel (no allocator) fails cleanly instead of crashing */
	static const char *const names[] = {"mk", NULL};
	PjKernel *k = build("def mk(n):\n    return np.zeros(n)\n", "mk", names, "int64", 0);
	CHECK(k != NULL);
	if (!k)
		return;
	unsigned char params[64] = {0}, out[64];
	int64_t n = 4;
	memcpy(params + k->params[0].off, &n, 8);
	put_ret(k, params, out);
	static const unsigned one[3] = {1, 1, 1};
	PjError e;
	CHECK_EQ_INT(pj_sim_launch(k, one, one, 0, params, 0, &e), PJ_SIM_BAD);
	CHECK_STR_CONTAINS(e.msg, "allocates memory");
	pj_kernel_free(k);
}

int main(void)
{
	RUN(test_alloc_and_return);
	RUN(test_copy_of_strided_argument);
	RUN(test_recursion);
	RUN(test_mutual_recursion_and_depth);
	RUN(test_index_error_and_trap);
	RUN(test_kernel_launch_has_no_allocator);
	return check_summary("simcpu");
}

/*
 * test_records.c - records (structured dtypes) in signatures, 0-d arrays,
 * constant arrays from the resolver and the extent of dynamic shared
 * memory, through pj_compile and the simulator.
 *
 *   make build/test_records && build/test_records
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "check.h"

static Ctx ctx;

static const char *sig(const char *s)
{
	static char out[4096];
	jmp_buf jb;
	if (ctx.arena)
		arena_free(ctx.arena);
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = arena_new();
	ctx.jmp = &jb;
	if (setjmp(jb)) {
		snprintf(out, sizeof out, "ERR:%s", ctx.diag.msg);
		return out;
	}
	int n;
	Type **args;
	ty_parse_sig(&ctx, s, &n, &args);
	int k = 0;
	out[0] = 0;
	for (int i = 0; i < n; i++)
		k += snprintf(out + k, sizeof out - (size_t)k, "%s%s", i ? ";" : "", ty_str_of(&ctx, args[i]));
	return out;
}

#define REC "Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)"

TEST(record_signatures)
{
	CHECK_STR_CONTAINS(sig(REC "[::1], " REC), "array(" REC ", 1d, C);" REC);
	CHECK_STR_CONTAINS(sig("array(" REC ", 2d, F)"), "array(" REC ", 2d, F)");
	CHECK_STR_CONTAINS(sig(REC "[:, :]"), "array(" REC ", 2d, A)");
	/* the text form reads back to an equal type */
	const Type *t = ty_parse_one(&ctx, REC);
	CHECK(t->kind == TY_RECORD && t->nfields == 2 && t->size == 8 && t->align == 4);
	CHECK(ty_field(t, "y") && ty_field(t, "y")->off == 4 && !ty_field(t, "z"));
	CHECK(ty_record_same(t, ty_parse_one(&ctx, ty_record_str(&ctx, t))));
	CHECK(!ty_record_same(t, ty_parse_one(&ctx, "Record(x[type=float32;offset=0],y[type=int32;offset=4];12;True)")));
	CHECK_EQ_INT(ty_elem_size(t), 8);
	CHECK_STR_CONTAINS(sig("array(float64, 0d, C), array(int8, 0d, C)"), "array(float64, 0d, C);array(int8, 0d, C)");
}

TEST(record_signature_errors)
{
	CHECK_STR_CONTAINS(sig("Record(x[type=float32;offset=0],x[type=int32;offset=4];8;False)"),
	                   "two fields named 'x'");
	CHECK_STR_CONTAINS(sig("Record(x[type=float64;offset=4];8;False)"), "field 'x' lies outside the record");
	CHECK_STR_CONTAINS(sig("Record(x[type=float32[::1];offset=0];8;False)"), "record fields hold numbers");
	CHECK_STR_CONTAINS(sig("Record(x[tipe=float32;offset=0];8;False)"), "expected 'type='");
	CHECK_STR_CONTAINS(sig("array(float32, 9d, C)"), "0 to 8 dimensions");
}

/* ------------------------------------------------ compiled and simulated */

static float table[6] = {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f};

static int resolve(void *data, const char *name, PjValue *out, PjArena *arena)
{
	if (strcmp(name, "cuda") == 0) {
		out->kind = PJ_V_MODULE;
		out->s = "cuda";
		return 1;
	}
	if (strcmp(name, "np") == 0) {
		out->kind = PJ_V_MODULE;
		out->s = "numpy";
		return 1;
	}
	if (strcmp(name, "TABLE") == 0) {
		out->kind = PJ_V_ARRAY;
		out->s = "float32";
		out->data = table;
		out->ndim = 2;
		out->shape[0] = 2;
		out->shape[1] = 3;
		return 1;
	}
	return 0;
}

static PjKernel *compile(const char *src, const char *sigstr)
{
	PjFunc f = {.name = "k", .source = src, .file = "k.py", .first_line = 1, .resolve = resolve};
	PjOptions o = {.arch = 90, .sim = 1, .opt_level = 1};
	PjKernel *k = NULL;
	PjError e;
	if (pj_compile(&f, sigstr, &o, &k, &e) != PJ_OK) {
		printf("compile error: %s\n", e.msg);
		return NULL;
	}
	return k;
}

/* Fills the parameter buffer: each array argument's pointer and extents. */
static void put(PjKernel *k, unsigned char *buf, int arg, void *p, int64_t n)
{
	for (int i = 0; i < k->nparams; i++) {
		PjParam *q = &k->params[i];
		if (q->arg != arg)
			continue;
		if (q->role == 0)
			memcpy(buf + q->off, &p, 8);
		else if (q->role == 1 || q->role == 3)
			memcpy(buf + q->off, &n, 8);
	}
}

struct rec { float x; int32_t y; };

TEST(record_kernel_runs)
{
	PjKernel *k = compile("def k(a, out):\n"
	                      "    i = cuda.grid(1)\n"
	                      "    r = a[i]\n"
	                      "    out[i] = r.x * r['y'] + TABLE[i % 2, i % 3] + cuda.const.array_like(TABLE)[1, 2]\n"
	                      "    a[i].y = i\n"
	                      "    r.x += 1\n",
	                      REC "[::1], float64[::1]");
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(k->ptx, ".const .align 8 .b8 __pj_cmem");
	struct rec a[8];
	double out[8];
	for (int i = 0; i < 8; i++)
		a[i] = (struct rec){0.5f * (float)i, 3 - i};
	unsigned char buf[256] = {0};
	put(k, buf, 0, a, 8);
	put(k, buf, 1, out, 8);
	unsigned g[3] = {1, 1, 1}, b[3] = {8, 1, 1};
	PjError e;
	CHECK_EQ_INT(pj_sim_launch(k, g, b, 0, buf, 0, &e), PJ_SIM_OK);
	for (int i = 0; i < 8; i++) {
		double want = 0.5 * i * (3 - i) + table[(i % 2) * 3 + i % 3] + table[5];
		CHECK(out[i] == want);
		CHECK_EQ_INT(a[i].y, i);
		CHECK(a[i].x == 0.5f * (float)i + 1.0f);
	}
	pj_kernel_free(k);
}

TEST(dynamic_shared_extent)
{
	PjKernel *k = compile("def k(out):\n"
	                      "    s = cuda.shared.array(0, np.float64)\n"
	                      "    t = cuda.shared.array(0, np.int16)\n"
	                      "    s[cuda.threadIdx.x] = 1.0\n"
	                      "    out[0] = s.shape[0]\n"
	                      "    out[1] = t.size\n",
	                      "int64[::1]");
	CHECK(k != NULL);
	if (!k)
		return;
	CHECK_STR_CONTAINS(k->ptx, "%dynamic_smem_size");
	CHECK(k->dynamic_smem);
	int64_t out[2] = {0, 0};
	unsigned char buf[64] = {0};
	put(k, buf, 0, out, 2);
	unsigned g[3] = {1, 1, 1}, b[3] = {3, 1, 1};
	PjError e;
	CHECK_EQ_INT(pj_sim_launch(k, g, b, 40, buf, 0, &e), PJ_SIM_OK);
	CHECK_EQ_INT(out[0], 5);
	CHECK_EQ_INT(out[1], 20);
	/* 6 threads write past the 5 float64 of 40 bytes */
	b[0] = 6;
	CHECK_EQ_INT(pj_sim_launch(k, g, b, 40, buf, 0, &e), PJ_SIM_INDEX);
	CHECK_STR_CONTAINS(e.msg, "index 5 is out of bounds");
	pj_kernel_free(k);
}

int main(void)
{
	RUN(record_signatures);
	RUN(record_signature_errors);
	RUN(record_kernel_runs);
	RUN(dynamic_shared_extent);
	if (ctx.arena)
		arena_free(ctx.arena);
	return check_summary("records");
}

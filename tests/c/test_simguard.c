/*
 * test_simguard.c - the simulator's memory guard (src/sim/guard.c):
 * kernels written in the IR's text form whose loads, stores and atomics
 * go through an address made from a pointer argument plus an offset the
 * test chooses, so that one kernel reaches every byte it likes: inside an
 * array, one past its end, before its start, straddling its end, a wild
 * address, a block that was freed, a block that was never passed.  Each
 * bad access must come back as PJ_SIM_BAD with the internal-error text
 * (address, kernel, file:line), and must not have touched memory.
 *
 * Also: element sizes and layouts from the argument descriptions
 * (SimArg), aliased arguments, negative strides, constant, local and
 * shared memory (another thread's local memory included), a CPU
 * function's allocations and out buffer, print's buffer, the allocation
 * table under many blocks, and a few integer faults that must give the
 * IR's defined values.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core.h"
#include "sim/sim.h"
#include "cgen/cpurt.h"

/* ------------------------------------------------------------ helpers */

static const char *fmt0;   /* a print format to give the function, or NULL */

static int build(const char *text, PjKernel *k)
{
	static Ctx c;
	jmp_buf jb;
	memset(&c, 0, sizeof c);
	memset(k, 0, sizeof *k);
	c.arena = arena_new();
	c.jmp = &jb;
	if (setjmp(jb)) {
		printf("build failed: %s\n", c.diag.msg);
		arena_free(c.arena);
		return 0;
	}
	Fn *f = ir_parse(&c, text);
	if (fmt0) {          /* the text form has no formats, and gives print no class */
		VEC_PUSH(&c, f->fmts, f->nfmts, f->capfmts, fmt0);
		for (int b = 0; b < f->nblk; b++)
			for (int j = 0; j < f->blk[b]->nins; j++)
				if (f->blk[b]->ins[j].op == O_PRINT)
					f->blk[b]->ins[j].cls = KL;
	}
	ir_verify(f, "test");
	k->sim = sim_prepare(&c, f);
	k->param_bytes = f->param_bytes;
	snprintf(k->entry, sizeof k->entry, "%s", f->name);
	arena_free(c.arena);
	return 1;
}

static void fail_build(void)
{
	CHECK(!"the IR text builds");
}

static void drop(PjKernel *k)
{
	sim_free_program(k->sim);
	k->sim = NULL;
}

/* The element size of pointer argument i, as the argument types would say. */
static void describe(PjKernel *k, int i, int64_t esize, int strided)
{
	k->sim->args[i].esize = esize;
	k->sim->args[i].strided = strided;
}

static int run(PjKernel *k, unsigned threads, const void *params, PjError *e)
{
	unsigned g[3] = {1, 1, 1}, b[3] = {threads, 1, 1};
	memset(e, 0, sizeof *e);
	return pj_sim_launch(k, g, b, 0, params, 0, e);
}

static void put64(unsigned char *buf, int off, uint64_t v) { memcpy(buf + off, &v, 8); }
static void putptr(unsigned char *buf, int off, const void *p) { put64(buf, off, (uint64_t)(uintptr_t)p); }

/* The report of a bad access: an internal error that names it. */
static void check_report(int rc, const PjError *e, const char *what, uint64_t addr, const char *kernel,
                         const char *at)
{
	char hex[64], head[200];
	CHECK_EQ_INT(rc, PJ_SIM_BAD);
	CHECK_EQ_INT(e->kind, PJ_ERR_INTERNAL);
	snprintf(head, sizeof head, "ptxjit internal error: the simulator caught a %s from address", what);
	CHECK_STR_CONTAINS(e->msg, head);
	snprintf(hex, sizeof hex, "0x%llx outside every array of", (unsigned long long)addr);
	CHECK_STR_CONTAINS(e->msg, hex);
	CHECK_STR_CONTAINS(e->msg, kernel);
	CHECK_STR_CONTAINS(e->msg, at);
	CHECK_STR_CONTAINS(e->msg, "please report");
}

/* ------------------------------------------------ loads and stores */

/* out[0] = *(i64 *)(a + off); a has n elements, out one. */
static const char *peek_ir =
	"kernel peek\n"
	"parambytes 40\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"param 16 i64 arg1 scalar\n"
	"param 24 u64 arg2 data\n"
	"param 32 i64 arg2 shape 0\n"
	"loc 0 \"guard.py\" 7 5\n"
	"loc 1 \"guard.py\" 8 5\n"
	"@b0\n"
	"  %p =l param 0 u64\n"
	"  %o =l param 16 i64\n"
	"  %q =l param 24 u64\n"
	"  %a =l add i64 %p, %o !0\n"
	"  %v =l load.global i64 %a !0\n"
	"  store.global i64 %q, %v !1\n"
	"  ret\n";

static int peek(PjKernel *k, const void *a, int64_t n, int64_t off, int64_t *out, PjError *e)
{
	unsigned char p[40];
	putptr(p, 0, a);
	put64(p, 8, (uint64_t)n);
	put64(p, 16, (uint64_t)off);
	putptr(p, 24, out);
	put64(p, 32, 1);
	return run(k, 1, p, e);
}

TEST(loads_inside_and_outside)
{
	PjKernel k;
	PjError e;
	if (!build(peek_ir, &k))
		{ fail_build(); return; }
	CHECK_EQ_INT(k.sim->nargs, 2);
	describe(&k, 0, 8, 0);
	describe(&k, 1, 8, 0);
	int64_t *a = malloc(8 * sizeof *a), out = -1;
	for (int i = 0; i < 8; i++)
		a[i] = 100 + i;
	uint64_t base = (uint64_t)(uintptr_t)a;

	/* every element, the first and the last byte */
	for (int i = 0; i < 8; i++) {
		CHECK_EQ_INT(peek(&k, a, 8, 8 * i, &out, &e), PJ_SIM_OK);
		CHECK_EQ_INT(out, 100 + i);
	}
	/* one past the end: the nearest array is named */
	out = -1;
	int rc = peek(&k, a, 8, 64, &out, &e);
	check_report(rc, &e, "load", base + 64, "kernel 'peek'", "guard.py:7");
	CHECK_STR_CONTAINS(e.msg, "(8 bytes right after the end of argument 0 (64 bytes at");
	CHECK_STR_CONTAINS(e.msg, "thread (0, 0, 0) of block (0, 0, 0)");
	CHECK_EQ_INT(e.line, 7);
	CHECK_EQ_INT(out, -1);               /* the store after it never ran */
	/* straddling the end, and before the start */
	rc = peek(&k, a, 8, 60, &out, &e);
	check_report(rc, &e, "load", base + 60, "kernel 'peek'", "guard.py:7");
	CHECK_STR_CONTAINS(e.msg, "(8 bytes from byte 60 of argument 0, running past its end");
	rc = peek(&k, a, 8, -8, &out, &e);
	check_report(rc, &e, "load", base - 8, "kernel 'peek'", "guard.py:7");
	CHECK_STR_CONTAINS(e.msg, "(8 bytes, 8 bytes before argument 0");
	/* the extent the launch gives counts, not the allocation */
	rc = peek(&k, a, 4, 32, &out, &e);
	check_report(rc, &e, "load", base + 32, "kernel 'peek'", "guard.py:7");
	CHECK_EQ_INT(peek(&k, a, 4, 24, &out, &e), PJ_SIM_OK);
	CHECK_EQ_INT(out, 103);
	/* wild addresses: near zero, and at the top of the address space */
	rc = peek(&k, a, 8, (int64_t)(16 - base), &out, &e);
	check_report(rc, &e, "load", 16, "kernel 'peek'", "guard.py:7");
	rc = peek(&k, a, 8, (int64_t)(0xfffffffffffffffcull - base), &out, &e);
	check_report(rc, &e, "load", 0xfffffffffffffffcull, "kernel 'peek'", "guard.py:7");
	/* a block never passed, and a block already freed */
	int64_t *foreign = malloc(64), *freed = malloc(64);
	foreign[0] = 5;
	uint64_t fa = (uint64_t)(uintptr_t)foreign, fb = (uint64_t)(uintptr_t)freed;
	free(freed);
	rc = peek(&k, a, 8, (int64_t)(fa - base), &out, &e);
	check_report(rc, &e, "load", fa, "kernel 'peek'", "guard.py:7");
	rc = peek(&k, a, 8, (int64_t)(fb - base), &out, &e);
	check_report(rc, &e, "load", fb, "kernel 'peek'", "guard.py:7");
	/* an empty array has no byte at all */
	rc = peek(&k, a, 0, 0, &out, &e);
	check_report(rc, &e, "load", base, "kernel 'peek'", "guard.py:7");
	/* and the launch after all of these works */
	CHECK_EQ_INT(peek(&k, a, 8, 16, &out, &e), PJ_SIM_OK);
	CHECK_EQ_INT(out, 102);
	free(foreign);
	free(a);
	drop(&k);
}

/* a[off] = v (store) or atomic add at a + off, with a of n i64. */
static const char *poke_ir =
	"kernel poke\n"
	"parambytes 32\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"param 16 i64 arg1 scalar\n"
	"param 24 i64 arg2 scalar\n"
	"loc 0 \"guard.py\" 11 5\n"
	"loc 1 \"guard.py\" 12 5\n"
	"@b0\n"
	"  %p =l param 0 u64\n"
	"  %o =l param 16 i64\n"
	"  %w =l param 24 i64\n"
	"  %a =l add i64 %p, %o\n"
	"  %z =b cmp.eq i64 %w, 0\n"
	"  jnz %z @st @at\n"
	"@st\n"
	"  store.global i64 %a, 42 !0\n"
	"  ret\n"
	"@at\n"
	"  %old =l atom.add.global i64 %a, 42 !1\n"
	"  ret\n";

TEST(stores_and_atomics_touch_nothing)
{
	PjKernel k;
	PjError e;
	if (!build(poke_ir, &k))
		{ fail_build(); return; }
	describe(&k, 0, 8, 0);
	int64_t buf[8] = {0};
	unsigned char p[32];
	uint64_t base = (uint64_t)(uintptr_t)buf;
	for (int atomic = 0; atomic < 2; atomic++) {
		memset(buf, 0, sizeof buf);
		putptr(p, 0, buf);
		put64(p, 8, 4);            /* the argument is buf[0:4]; buf[4:] is someone else's */
		put64(p, 24, (uint64_t)atomic);
		put64(p, 16, 24);
		CHECK_EQ_INT(run(&k, 1, p, &e), PJ_SIM_OK);
		CHECK_EQ_INT(buf[3], 42);
		put64(p, 16, 32);
		int rc = run(&k, 1, p, &e);
		check_report(rc, &e, atomic ? "atomic operation" : "store", base + 32, "kernel 'poke'",
		             atomic ? "guard.py:12" : "guard.py:11");
		CHECK_EQ_INT(buf[4], 0);
		put64(p, 16, (uint64_t)-8);
		rc = run(&k, 1, p, &e);
		check_report(rc, &e, atomic ? "atomic operation" : "store", base - 8, "kernel 'poke'", "guard.py");
		for (int i = 4; i < 8; i++)
			CHECK_EQ_INT(buf[i], 0);
	}
	drop(&k);
}

/* ------------------------------------------- what the types describe */

TEST(element_sizes_strides_aliases)
{
	PjKernel k;
	PjError e;
	if (!build(peek_ir, &k))
		{ fail_build(); return; }
	int64_t buf[8], out;
	for (int i = 0; i < 8; i++)
		buf[i] = i;
	uint64_t base = (uint64_t)(uintptr_t)buf;

	/* without types a pointer with extents gets 8 bytes per element */
	CHECK_EQ_INT(k.sim->args[0].esize, 0);
	CHECK_EQ_INT(peek(&k, buf, 4, 24, &out, &e), PJ_SIM_OK);
	check_report(peek(&k, buf, 4, 32, &out, &e), &e, "load", base + 32, "kernel 'peek'", "guard.py:7");
	/* an array of 2-byte elements: 4 of them are 8 bytes */
	describe(&k, 0, 2, 0);
	describe(&k, 1, 8, 0);
	CHECK_EQ_INT(peek(&k, buf, 4, 0, &out, &e), PJ_SIM_OK);
	check_report(peek(&k, buf, 4, 8, &out, &e), &e, "load", base + 8, "kernel 'peek'", "guard.py:7");
	check_report(peek(&k, buf, 4, 4, &out, &e), &e, "load", base + 4, "kernel 'peek'", "guard.py:7");
	drop(&k);

	/* layout A: a view with a negative stride spans the bytes below its
	 * data pointer; the second argument aliases the first */
	static const char *strided_ir =
		"kernel strided\n"
		"parambytes 56\n"
		"param 0 u64 arg0 data\n"
		"param 8 i64 arg0 shape 0\n"
		"param 16 i64 arg0 stride 0\n"
		"param 24 i64 arg1 scalar\n"
		"param 32 u64 arg2 data\n"
		"param 40 i64 arg2 shape 0\n"
		"param 48 i64 arg2 stride 0\n"
		"loc 0 \"guard.py\" 20 5\n"
		"@b0\n"
		"  %p =l param 0 u64\n"
		"  %o =l param 24 i64\n"
		"  %q =l param 32 u64\n"
		"  %a =l add i64 %p, %o !0\n"
		"  %v =l load.global i64 %a !0\n"
		"  store.global i64 %q, %v !0\n"
		"  ret\n";
	if (!build(strided_ir, &k))
		{ fail_build(); return; }
	describe(&k, 0, 8, 1);
	describe(&k, 1, 8, 1);
	unsigned char p[56];
	putptr(p, 0, buf + 3);       /* buf[3::-1]: buf[3], buf[2], buf[1], buf[0] */
	put64(p, 8, 4);
	put64(p, 16, (uint64_t)-8);
	putptr(p, 32, buf + 6);      /* out: buf[6] */
	put64(p, 40, 1);
	put64(p, 48, 8);
	for (int64_t off = -24; off <= 0; off += 8) {
		put64(p, 24, (uint64_t)off);
		CHECK_EQ_INT(run(&k, 1, p, &e), PJ_SIM_OK);
		CHECK_EQ_INT(buf[6], 3 + off / 8);
	}
	put64(p, 24, (uint64_t)-32);
	check_report(run(&k, 1, p, &e), &e, "load", base - 8, "kernel 'strided'", "guard.py:20");
	put64(p, 24, 8);
	check_report(run(&k, 1, p, &e), &e, "load", base + 32, "kernel 'strided'", "guard.py:20");
	/* the out argument aliases buf[4:8]: bytes of either count */
	putptr(p, 32, buf + 4);
	put64(p, 40, 4);
	put64(p, 24, 8);
	CHECK_EQ_INT(run(&k, 1, p, &e), PJ_SIM_OK);
	CHECK_EQ_INT(buf[4], 4);
	drop(&k);
}

/* ----------------------------------------- constant, local, shared */

TEST(constant_local_shared)
{
	PjKernel k;
	PjError e;
	int64_t out[2];
	unsigned char p[24];
	/* mode 0: the constant array, 1: the local one, 2: shared memory
	 * through a generic address, each at byte off */
	static const char *mem_ir =
		"kernel mem\n"
		"parambytes 24\n"
		"param 0 u64 arg0 data\n"
		"param 8 i64 arg1 scalar\n"
		"param 16 i64 arg2 scalar\n"
		"array 0 const 8 align 8 name \"tab\" init 0700000000000000\n"
		"array 1 local 8 align 8 name \"loc\"\n"
		"array 2 shared 16 align 8 name \"sh\"\n"
		"loc 0 \"guard.py\" 30 5\n"
		"@b0\n"
		"  %q =l param 0 u64\n"
		"  %m =l param 8 i64\n"
		"  %o =l param 16 i64\n"
		"  %c =l addr 0\n"
		"  %l =l addr 1\n"
		"  %s =l addr 2\n"
		"  store.local i64 %l, 8\n"
		"  store.shared i64 %s, 9\n"
		"  %is0 =b cmp.eq i64 %m, 0\n"
		"  %is1 =b cmp.eq i64 %m, 1\n"
		"  %b1 =l sel i64 %is1, %l, %s\n"
		"  %b =l sel i64 %is0, %c, %b1\n"
		"  %a =l add i64 %b, %o\n"
		"  %v =l load.generic i64 %a !0\n"
		"  store.global i64 %q, %v\n"
		"  ret\n";
	if (!build(mem_ir, &k))
		{ fail_build(); return; }
	describe(&k, 0, 8, 0);
	static const int64_t want[3] = {7, 8, 9};
	static const char *name[3] = {"constant array 'tab'", "the thread's local memory", "the block's shared memory"};
	for (int mode = 0; mode < 3; mode++) {
		putptr(p, 0, out);
		put64(p, 8, (uint64_t)mode);
		put64(p, 16, 0);
		out[0] = -1;
		CHECK_EQ_INT(run(&k, 1, p, &e), PJ_SIM_OK);
		CHECK_EQ_INT(out[0], want[mode]);
		/* local memory is padded to 16 bytes, shared memory has 16 */
		put64(p, 16, mode == 0 ? 8 : 16);
		CHECK_EQ_INT(run(&k, 1, p, &e), PJ_SIM_BAD);
		CHECK_STR_CONTAINS(e.msg, "caught a load from address");
		CHECK_STR_CONTAINS(e.msg, "guard.py:30");
		CHECK_STR_CONTAINS(e.msg, name[mode]);
	}
	drop(&k);

	/* another thread's local memory is not this thread's: each thread
	 * publishes the address of its local array, then reads through the
	 * address the other one published */
	static const char *other_ir =
		"kernel other\n"
		"parambytes 16\n"
		"param 0 u64 arg0 data\n"
		"param 8 i64 arg0 shape 0\n"
		"array 0 local 8 align 8 name \"loc\"\n"
		"loc 0 \"guard.py\" 40 5\n"
		"@b0\n"
		"  %q =l param 0 u64\n"
		"  %t =w sreg tid.x\n"
		"  %l =l addr 0\n"
		"  store.local i64 %l, 5\n"
		"  %t64 =l cvt.i64 i32 %t\n"
		"  %mine =l mul i64 %t64, 8\n"
		"  %pm =l add i64 %q, %mine\n"
		"  store.global i64 %pm, %l\n"
		"  bar\n"
		"  %theirs =l sub i64 8, %mine\n"
		"  %pt =l add i64 %q, %theirs\n"
		"  %la =l load.global i64 %pt\n"
		"  %v =l load.generic i64 %la !0\n"
		"  store.global i64 %pm, %v\n"
		"  ret\n";
	if (!build(other_ir, &k))
		{ fail_build(); return; }
	describe(&k, 0, 8, 0);
	putptr(p, 0, out);
	put64(p, 8, 2);
	CHECK_EQ_INT(run(&k, 2, p, &e), PJ_SIM_BAD);
	CHECK_STR_CONTAINS(e.msg, "caught a load from address");
	CHECK_STR_CONTAINS(e.msg, "guard.py:40");
	drop(&k);
}

/* ------------------------------------------------------ CPU functions */

typedef struct Pool {
	PjCpuCtx ctx;
	void *blk[8];
	int n;
} Pool;

static void *pool_alloc(PjCpuCtx *ctx, uint64_t n, int zero)
{
	Pool *p = (Pool *)ctx;
	if (p->n == 8)
		return NULL;
	void *b = calloc(1, n ? n : 1);
	(void)zero;
	p->blk[p->n++] = b;
	return b;
}

TEST(cpu_allocations_and_out_buffer)
{
	static const char *cpu_ir =
		"kernel cpu_alloc\n"
		"parambytes 24\n"
		"param 0 i64 arg0 scalar\n"
		"param 8 i64 arg1 scalar\n"
		"param 16 u64 arg2 ret\n"
		"loc 0 \"f.py\" 3 5\n"
		"loc 1 \"f.py\" 4 5\n"
		"@b0\n"
		"  %o =l param 0 i64\n"
		"  %ro =l param 8 i64\n"
		"  %r =l param 16 u64\n"
		"  %b =l alloc u64 64\n"
		"  store.global i64 %b, 5\n"
		"  %a =l add i64 %b, %o\n"
		"  %v =l load.global i64 %a !0\n"
		"  %ra =l add i64 %r, %ro\n"
		"  store.global i64 %ra, %v !1\n"
		"  ret\n";
	PjKernel k;
	if (!build(cpu_ir, &k))
		{ fail_build(); return; }
	k.ret_bytes = 8;
	int64_t out[2] = {-1, -1};
	unsigned char p[24];
	PjError e;
	for (int c = 0; c < 4; c++) {
		static const int64_t off[4] = {0, 64, 0, 0}, roff[4] = {0, 0, 8, -8};
		Pool pool = {.ctx = {.alloc = pool_alloc}};
		put64(p, 0, (uint64_t)off[c]);
		put64(p, 8, (uint64_t)roff[c]);
		putptr(p, 16, out);
		memset(&e, 0, sizeof e);
		int rc = pj_sim_cpu_call(&k, p, &pool.ctx, &e);
		if (c == 0) {
			CHECK_EQ_INT(rc, PJ_SIM_OK);
			CHECK_EQ_INT(out[0], 5);
		} else if (c == 1) {
			check_report(rc, &e, "load", (uint64_t)(uintptr_t)pool.blk[0] + 64, "function 'cpu_alloc'", "f.py:3");
			CHECK_STR_CONTAINS(e.msg, "right after the end of a block the function allocated");
		} else {
			check_report(rc, &e, "store", (uint64_t)(uintptr_t)out + (uint64_t)roff[c],
			             "function 'cpu_alloc'", "f.py:4");
			CHECK_STR_CONTAINS(e.msg, "the function's return buffer");
		}
		CHECK_EQ_INT(out[1], -1);
		for (int i = 0; i < pool.n; i++)
			free(pool.blk[i]);
	}
	drop(&k);
}

/* The allocation table holds thousands of blocks given in any order. */
TEST(many_allocations)
{
	static const char *tiny_ir =
		"kernel tiny\n"
		"parambytes 0\n"
		"@b0\n"
		"  ret\n";
	PjKernel k;
	if (!build(tiny_ir, &k))
		{ fail_build(); return; }
	Launch L;
	Frame fr;
	PjError e;
	memset(&L, 0, sizeof L);
	memset(&fr, 0, sizeof fr);
	L.p = k.sim;
	L.err = &e;
	L.cpu = NULL;
	CHECK_EQ_INT(sim_guard_init(&L, 1, 0, NULL, 0), 0);
	enum { N = 5000 };
	/* block i is [0x10000 + 64 * i, + 32): inserted in a scrambled order */
	for (int j = 0; j < N; j++) {
		int i = (int)((uint64_t)j * 2654435761u % N);
		CHECK_EQ_INT(sim_guard_alloc(&L, 0x10000 + 64 * (uint64_t)i, 32), 0);
	}
	int bad = 0;
	const SIns *ip = k.sim->code;
	for (int i = 0; i < N; i++) {
		uint64_t lo = 0x10000 + 64 * (uint64_t)i;
		bad += sim_guard_range(&L, &fr, ip, lo, 8, HOOK_READ) != 0;
		bad += sim_guard_range(&L, &fr, ip, lo + 24, 8, HOOK_READ) != 0;
		bad += sim_guard_range(&L, &fr, ip, lo + 25, 8, HOOK_READ) == 0;
		bad += sim_guard_range(&L, &fr, ip, lo + 32, 1, HOOK_READ) == 0;
		bad += sim_guard_range(&L, &fr, ip, lo - 1, 1, HOOK_READ) == 0;
	}
	CHECK_EQ_INT(bad, 0);
	sim_guard_free(&L);
	drop(&k);
}

/* -------------------------------------------------------------- print */

TEST(print_buffer)
{
	static const char *print_ir =
		"kernel printer\n"
		"parambytes 8\n"
		"param 0 i64 arg0 scalar\n"
		"array 0 local 16 align 8 name \"print\"\n"
		"loc 0 \"guard.py\" 50 5\n"
		"@b0\n"
		"  %o =l param 0 i64\n"
		"  %l =l addr 0\n"
		"  store.local i64 %l, 11\n"
		"  %a =l add i64 %l, %o\n"
		"  print i64 %a !0\n"   /* the parser leaves aux (the format) 0 */

		"  ret\n";
	PjKernel k;
	PjError e;
	fmt0 = "guard %lld\n";
	int ok = build(print_ir, &k);
	fmt0 = NULL;
	if (!ok)
		{ fail_build(); return; }
	unsigned char p[8];
	put64(p, 0, 0);
	CHECK_EQ_INT(run(&k, 1, p, &e), PJ_SIM_OK);
	put64(p, 0, 1 << 20);
	CHECK_EQ_INT(run(&k, 1, p, &e), PJ_SIM_BAD);
	CHECK_STR_CONTAINS(e.msg, "caught a read of print()'s arguments from address");
	CHECK_STR_CONTAINS(e.msg, "guard.py:50");
	drop(&k);
}

/* ------------------------------------------------- arithmetic faults */

/* r = a OP b on class l or w, through memory. */
static int64_t bin(const char *op, const char *ty, int64_t a, int64_t b)
{
	char ir[800];
	int w = ty[1] == '3';
	snprintf(ir, sizeof ir,
	         "kernel bin\n"
	         "parambytes 24\n"
	         "param 0 u64 arg0 data\n"
	         "param 8 %s arg1 scalar\n"
	         "param 16 i64 arg2 scalar\n"
	         "@b0\n"
	         "  %%q =l param 0 u64\n"
	         "  %%a =%c param 8 %s\n"
	         "  %%b =l param 16 i64\n"
	         "%s"
	         "  %%r =%c %s %s %%a, %%%s\n"
	         "  store.global %s %%q, %%r\n"
	         "  ret\n",
	         ty, w ? 'w' : 'l', ty, w && strcmp(op, "shl") && strcmp(op, "shr") ? "  %bw =w cvt.i32 i64 %b\n" : "",
	         w ? 'w' : 'l', op, ty, w && strcmp(op, "shl") && strcmp(op, "shr") ? "bw" : "b", ty);
	PjKernel k;
	if (!build(ir, &k))
		return -12345;
	describe(&k, 0, 8, 0);
	int64_t out = 0;
	unsigned char p[24];
	PjError e;
	putptr(p, 0, &out);
	put64(p, 8, (uint64_t)a);
	put64(p, 16, (uint64_t)b);
	int rc = run(&k, 1, p, &e);
	drop(&k);
	if (rc != PJ_SIM_OK)
		return -12345;
	return w ? (int64_t)(int32_t)out : out;
}

TEST(integer_faults_are_defined)
{
	CHECK_EQ_INT(bin("div", "i64", INT64_MIN, -1), INT64_MIN);
	CHECK_EQ_INT(bin("rem", "i64", INT64_MIN, -1), 0);
	CHECK_EQ_INT(bin("rem", "i64", INT64_MIN, 0), INT64_MIN);
	CHECK_EQ_INT(bin("div", "u64", 5, 0), 0);
	CHECK_EQ_INT(bin("div", "i32", INT32_MIN, -1), INT32_MIN);
	CHECK_EQ_INT(bin("rem", "i32", INT32_MIN, -1), 0);
	CHECK_EQ_INT(bin("rem", "u32", 7, 0), 7);
	/* shift counts of any size: a 32-bit shift by a 64-bit count is not
	 * taken modulo 2^32 (2^32 + 1 is not 1) */
	CHECK_EQ_INT(bin("shl", "i32", 1, (1LL << 32) + 1), 0);
	CHECK_EQ_INT(bin("shr", "i32", -5, (1LL << 32) + 1), -1);
	CHECK_EQ_INT(bin("shl", "i64", 1, -1), 0);
	CHECK_EQ_INT(bin("shr", "i64", -5, INT64_MIN), -1);
	CHECK_EQ_INT(bin("shr", "u64", -5, 64), 0);
	CHECK_EQ_INT(bin("shl", "i64", 3, 63), INT64_MIN);
}

int main(void)
{
	RUN(loads_inside_and_outside);
	RUN(stores_and_atomics_touch_nothing);
	RUN(element_sizes_strides_aliases);
	RUN(constant_local_shared);
	RUN(cpu_allocations_and_out_buffer);
	RUN(many_allocations);
	RUN(print_buffer);
	RUN(integer_faults_are_defined);
	return check_summary("simguard");
}

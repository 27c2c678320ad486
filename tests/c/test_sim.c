/*
 * test_sim.c - the simulator: kernels written in the IR's text form
 * (docs/ir.md), prepared with sim_prepare and run with pj_sim_launch on
 * real buffers, compared with C references computed here.
 *
 * Covers vector add (and its timing), a shared-memory tree reduction with
 * barriers, every atomic operation (with Numba's NaN rules), integer and
 * float semantics (wrapping, division by zero, shifts, saturating
 * conversions, no fused multiply-add unless asked), phi moves that form
 * a cycle, local, constant and dynamic shared arrays, special registers
 * over a 3-D grid, and the reports: out-of-bounds reads and writes, a
 * trap, a deadlock at a barrier, an uninitialised shared read and races.
 */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "core.h"

/* ------------------------------------------------------------ helpers */

/* Parses and verifies the IR text, prepares its simulator program. */
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
	ir_verify(f, "test");
	k->sim = sim_prepare(&c, f);
	k->param_bytes = f->param_bytes;
	snprintf(k->entry, sizeof k->entry, "%s", f->name);
	arena_free(c.arena);
	return 1;
}

static int run(PjKernel *k, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
               unsigned bz, unsigned dyn, const void *params, int check, PjError *e)
{
	unsigned g[3] = {gx, gy, gz}, b[3] = {bx, by, bz};
	return pj_sim_launch(k, g, b, dyn, params, check, e);
}

static void drop(PjKernel *k)
{
	sim_free_program(k->sim);
	k->sim = NULL;
}

static void put64(unsigned char *buf, int off, uint64_t v) { memcpy(buf + off, &v, 8); }
static void putptr(unsigned char *buf, int off, const void *p) { put64(buf, off, (uint64_t)(uintptr_t)p); }

static uint32_t f32bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t f64bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------- vector add */

static const char *vadd_ir =
	"kernel add_kernel\n"
	"checked\n"
	"parambytes 56\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"param 16 u64 arg1 data\n"
	"param 24 i64 arg1 shape 0\n"
	"param 32 u64 arg2 data\n"
	"param 40 i64 arg2 shape 0\n"
	"param 48 i64 arg3 scalar\n"
	"loc 0 \"kernel.py\" 10 5\n"
	"loc 1 \"kernel.py\" 11 5\n"
	"loc 2 \"kernel.py\" 12 9\n"
	"check 0 array \"a\" axis 0 ndim 1 ext %na loc 2\n"
	"check 1 array \"b\" axis 0 ndim 1 ext %nb loc 2\n"
	"check 2 array \"out\" axis 0 ndim 1 ext %no loc 2\n"
	"@b0\n"
	"  %tx =w sreg tid.x !0\n"
	"  %bx =w sreg ctaid.x !0\n"
	"  %bd =w sreg ntid.x !0\n"
	"  %t =l cvt.i64 i32 %tx !0\n"
	"  %b =l cvt.i64 i32 %bx !0\n"
	"  %d =l cvt.i64 i32 %bd !0\n"
	"  %m =l mul i64 %b, %d !0\n"
	"  %i =l add i64 %t, %m !0\n"
	"  %na =l param 8 i64\n"
	"  %nb =l param 24 i64\n"
	"  %no =l param 40 i64\n"
	"  %n =l param 48 i64\n"
	"  %c =b cmp.lt i64 %i, %n !1\n"
	"  jnz %c @b1 @b2\n"
	"@b1\n"
	"  check 0 %i, %na !2\n"
	"  %pa =l param 0 u64\n"
	"  %off =l mul i64 %i, 4 !2\n"
	"  %aa =l add i64 %pa, %off !2\n"
	"  %va =s load.global f32 %aa !2\n"
	"  check 1 %i, %nb !2\n"
	"  %pb =l param 16 u64\n"
	"  %ab =l add i64 %pb, %off !2\n"
	"  %vb =s load.global f32 %ab !2\n"
	"  %s =s add f32 %va, %vb !2\n"
	"  check 2 %i, %no !2\n"
	"  %po =l param 32 u64\n"
	"  %ao =l add i64 %po, %off !2\n"
	"  store.global f32 %ao, %s !2\n"
	"  jmp @b2\n"
	"@b2\n"
	"  ret\n";

static void vadd_params(unsigned char *p, float *a, int64_t na, float *b, int64_t nb, float *o,
                        int64_t no, int64_t n)
{
	putptr(p, 0, a);
	put64(p, 8, (uint64_t)na);
	putptr(p, 16, b);
	put64(p, 24, (uint64_t)nb);
	putptr(p, 32, o);
	put64(p, 40, (uint64_t)no);
	put64(p, 48, (uint64_t)n);
}

TEST(vector_add)
{
	PjKernel k;
	if (!build(vadd_ir, &k)) {
		CHECK(0);
		return;
	}
	int n = 1 << 20;
	float *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n), *o = malloc(sizeof *o * n);
	for (int i = 0; i < n; i++) {
		a[i] = (float)i * 0.5f + 0.1f;
		b[i] = 1.0f / (float)(i + 1);
		o[i] = -1;
	}
	unsigned char p[56];
	vadd_params(p, a, n, b, n, o, n, n);
	PjError e;
	double t0 = now();
	int rc = run(&k, (unsigned)n / 256, 1, 1, 256, 1, 1, 0, p, 0, &e);
	double t1 = now();
	CHECK_EQ_INT(rc, PJ_SIM_OK);
	int bad = 0;
	for (int i = 0; i < n; i++)
		if (f32bits(o[i]) != f32bits(a[i] + b[i]))
			bad++;
	CHECK_EQ_INT(bad, 0);
	printf("  vector add of 2^20 float32 (4096 x 256 threads): %.1f ms\n", (t1 - t0) * 1e3);

	/* a partial last block: n = 1000, threads past it do nothing */
	for (int i = 0; i < 1024; i++)
		o[i] = -1;
	vadd_params(p, a, 1000, b, 1000, o, 1000, 1000);
	rc = run(&k, 4, 1, 1, 256, 1, 1, 0, p, 0, &e);
	CHECK_EQ_INT(rc, PJ_SIM_OK);
	CHECK(o[999] == a[999] + b[999]);
	CHECK(o[1000] == -1);
	drop(&k);
	free(a);
	free(b);
	free(o);
}

TEST(out_of_bounds)
{
	PjKernel k;
	if (!build(vadd_ir, &k)) {
		CHECK(0);
		return;
	}
	float *a = calloc(1024, 4), *b = calloc(1024, 4), *o = calloc(1024, 4);
	unsigned char p[56];
	PjError e;
	/* the write: out has 1000 elements, n says 1024 */
	vadd_params(p, a, 1024, b, 1024, o, 1000, 1024);
	int rc = run(&k, 4, 1, 1, 256, 1, 1, 0, p, 0, &e);
	CHECK_EQ_INT(rc, PJ_SIM_INDEX);
	CHECK_STR_CONTAINS(e.msg, "index 1000 is out of bounds for axis 0 with size 1000 in array 'out' "
	                          "of shape (1000,)\n  at kernel.py:12, in kernel 'add_kernel', "
	                          "thread (232, 0, 0) of block (3, 0, 0)");
	CHECK_EQ_INT(e.line, 12);
	CHECK(strcmp(e.file, "kernel.py") == 0);
	CHECK(o[999] == 0 && o[0] == 0);
	/* the read: a has 700 elements */
	vadd_params(p, a, 700, b, 1024, o, 1024, 1024);
	rc = run(&k, 4, 1, 1, 256, 1, 1, 0, p, 0, &e);
	CHECK_EQ_INT(rc, PJ_SIM_INDEX);
	CHECK_STR_CONTAINS(e.msg, "index 700 is out of bounds for axis 0 with size 700 in array 'a' "
	                          "of shape (700,)");
	CHECK_STR_CONTAINS(e.msg, "thread (188, 0, 0) of block (2, 0, 0)");
	drop(&k);
	free(a);
	free(b);
	free(o);
}

/* m[tid.y, tid.x] = 1 for a (4, 5) array launched with (6, 4) threads */
TEST(out_of_bounds_2d)
{
	static const char *ir =
		"kernel fill2d\n"
		"checked\n"
		"parambytes 24\n"
		"param 0 u64 arg0 data\n"
		"param 8 i64 arg0 shape 0\n"
		"param 16 i64 arg0 shape 1\n"
		"loc 0 \"two.py\" 7 5\n"
		"check 0 array \"m\" axis 0 ndim 2 ext %n0, %n1 loc 0\n"
		"check 1 array \"m\" axis 1 ndim 2 ext %n0, %n1 loc 0\n"
		"@b0\n"
		"  %x =w sreg tid.x\n"
		"  %y =w sreg tid.y\n"
		"  %xl =l cvt.i64 i32 %x\n"
		"  %yl =l cvt.i64 i32 %y\n"
		"  %n0 =l param 8 i64\n"
		"  %n1 =l param 16 i64\n"
		"  check 0 %yl, %n0 !0\n"
		"  check 1 %xl, %n1 !0\n"
		"  %r =l mul i64 %yl, %n1\n"
		"  %e =l add i64 %r, %xl\n"
		"  %o =l mul i64 %e, 8\n"
		"  %p =l param 0 u64\n"
		"  %q =l add i64 %p, %o\n"
		"  store.global f64 %q, 1.0 !0\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	double m[20] = {0};
	unsigned char p[24];
	putptr(p, 0, m);
	put64(p, 8, 4);
	put64(p, 16, 5);
	PjError e;
	int rc = run(&k, 1, 1, 1, 6, 4, 1, 0, p, 0, &e);
	CHECK_EQ_INT(rc, PJ_SIM_INDEX);
	CHECK_STR_CONTAINS(e.msg, "index 5 is out of bounds for axis 1 with size 5 in array 'm' of shape "
	                          "(4, 5)\n  at two.py:7, in kernel 'fill2d', thread (5, 0, 0) of block (0, 0, 0)");
	CHECK(m[4] == 1.0 && m[5] == 0.0);
	rc = run(&k, 1, 1, 1, 5, 4, 1, 0, p, 0, &e);
	CHECK_EQ_INT(rc, PJ_SIM_OK);
	CHECK(m[19] == 1.0);
	drop(&k);
}

/* -------------------------------------------------------- reduction */

static const char *reduce_ir =
	"kernel reduce\n"
	"checked\n"
	"parambytes 32\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"param 16 u64 arg1 data\n"
	"param 24 i64 arg1 shape 0\n"
	"array 0 shared 1024 align 4 name \"sm\"\n"
	"loc 0 \"kernel.py\" 20 5\n"
	"loc 1 \"kernel.py\" 21 5\n"
	"loc 2 \"kernel.py\" 22 5\n"
	"loc 3 \"kernel.py\" 25 9\n"
	"loc 4 \"kernel.py\" 26 9\n"
	"loc 5 \"kernel.py\" 29 9\n"
	"check 0 array \"a\" axis 0 ndim 1 ext %na loc 1\n"
	"check 1 array \"sm\" axis 0 ndim 1 ext 256 loc 3\n"
	"check 2 array \"out\" axis 0 ndim 1 ext %nout loc 5\n"
	"@b0\n"
	"  %tx =w sreg tid.x\n"
	"  %bx =w sreg ctaid.x\n"
	"  %bd =w sreg ntid.x\n"
	"  %t =l cvt.i64 i32 %tx\n"
	"  %b =l cvt.i64 i32 %bx\n"
	"  %d =l cvt.i64 i32 %bd\n"
	"  %m =l mul i64 %b, %d\n"
	"  %i =l add i64 %t, %m\n"
	"  %na =l param 8 i64\n"
	"  %nout =l param 24 i64\n"
	"  %c =b cmp.lt i64 %i, %na\n"
	"  jnz %c @b1 @b2\n"
	"@b1\n"
	"  check 0 %i, %na !1\n"
	"  %pa =l param 0 u64\n"
	"  %off =l mul i64 %i, 4\n"
	"  %aa =l add i64 %pa, %off\n"
	"  %va =s load.global f32 %aa !1\n"
	"  jmp @b2\n"
	"@b2\n"
	"  %v =s phi @b0 0.0, @b1 %va\n"
	"  check 1 %t, 256 !1\n"
	"  %sm =l addr 0\n"
	"  %toff =l mul i64 %t, 4\n"
	"  %ps =l add i64 %sm, %toff\n"
	"  store.shared f32 %ps, %v !1\n"
	"  bar !2\n"
	"  jmp @b3\n"
	"@b3\n"
	"  %s =l phi @b2 128, @b6 %s2\n"
	"  %c2 =b cmp.gt i64 %s, 0\n"
	"  jnz %c2 @b4 @b7\n"
	"@b4\n"
	"  %c3 =b cmp.lt i64 %t, %s\n"
	"  jnz %c3 @b5 @b6\n"
	"@b5\n"
	"  %x =s load.shared f32 %ps !3\n"
	"  %j =l add i64 %t, %s\n"
	"  check 1 %j, 256 !3\n"
	"  %joff =l mul i64 %j, 4\n"
	"  %pj =l add i64 %sm, %joff\n"
	"  %y =s load.shared f32 %pj !3\n"
	"  %z =s add f32 %x, %y !3\n"
	"  store.shared f32 %ps, %z !3\n"
	"  jmp @b6\n"
	"@b6\n"
	"  bar !4\n"
	"  %s2 =l shr i64 %s, 1\n"
	"  jmp @b3\n"
	"@b7\n"
	"  %c4 =b cmp.eq i64 %t, 0\n"
	"  jnz %c4 @b8 @b9\n"
	"@b8\n"
	"  %r =s load.shared f32 %sm !5\n"
	"  check 2 %b, %nout !5\n"
	"  %po =l param 16 u64\n"
	"  %boff =l mul i64 %b, 4\n"
	"  %pob =l add i64 %po, %boff\n"
	"  store.global f32 %pob, %r !5\n"
	"  jmp @b9\n"
	"@b9\n"
	"  ret\n";

TEST(reduction)
{
	PjKernel k;
	if (!build(reduce_ir, &k)) {
		CHECK(0);
		return;
	}
	int n = (1 << 20) - 100, nb = (n + 255) / 256;
	float *a = malloc(sizeof *a * n), *o = malloc(sizeof *o * nb), *ref = malloc(sizeof *ref * nb);
	for (int i = 0; i < n; i++)
		a[i] = (float)((i * 7919) % 1000) * 0.001f - 0.3f;
	for (int blk = 0; blk < nb; blk++) {
		float s[256];
		for (int t = 0; t < 256; t++)
			s[t] = blk * 256 + t < n ? a[blk * 256 + t] : 0.0f;
		for (int w = 128; w > 0; w >>= 1)
			for (int t = 0; t < w; t++)
				s[t] = s[t] + s[t + w];
		ref[blk] = s[0];
	}
	unsigned char p[32];
	putptr(p, 0, a);
	put64(p, 8, (uint64_t)n);
	putptr(p, 16, o);
	put64(p, 24, (uint64_t)nb);
	PjError e;
	for (int check = 0; check <= PJ_SIM_UNINIT + PJ_SIM_RACE; check += PJ_SIM_UNINIT + PJ_SIM_RACE) {
		memset(o, 0, sizeof *o * nb);
		double t0 = now();
		int rc = run(&k, (unsigned)nb, 1, 1, 256, 1, 1, 0, p, check, &e);
		double t1 = now();
		CHECK_EQ_INT(rc, PJ_SIM_OK);
		if (rc)
			printf("%s\n", e.msg);
		int bad = 0;
		for (int i = 0; i < nb; i++)
			if (f32bits(o[i]) != f32bits(ref[i]))
				bad++;
		CHECK_EQ_INT(bad, 0);
		printf("  shared-memory reduction of 2^20 float32 (%d x 256 threads%s): %.1f ms\n", nb,
		       check ? ", race and uninit checks" : "", (t1 - t0) * 1e3);
	}
	drop(&k);
	free(a);
	free(o);
	free(ref);
}

/* ---------------------------------------------------------- atomics */

/* One thread: old = atom.<op> (mem[0], v [, cmp]); out[0] = old. */
static int atom1(const char *op, const char *ty, const void *mem_in, void *mem_out, const void *v,
                 const void *cmp, void *old)
{
	char ir[1024];
	char k = !strcmp(ty, "f32") ? 's' : !strcmp(ty, "f64") ? 'd' : ty[1] == '3' ? 'w' : 'l';
	int size = k == 'w' || k == 's' ? 4 : 8;
	snprintf(ir, sizeof ir,
	         "kernel atom_%s\n"
	         "parambytes 32\n"
	         "param 0 u64 arg0 data\n"
	         "param 8 u64 arg1 data\n"
	         "param 16 %s arg2 scalar\n"
	         "param 24 %s arg3 scalar\n"
	         "@b0\n"
	         "  %%p =l param 0 u64\n"
	         "  %%q =l param 8 u64\n"
	         "  %%v =%c param 16 %s\n"
	         "  %%c =%c param 24 %s\n"
	         "  %%o =%c atom.%s.global %s %%p, %%v%s\n"
	         "  store.global %s %%q, %%o\n"
	         "  ret\n",
	         op, ty, ty, k, ty, k, ty, k, op, ty, strcmp(op, "cas") ? "" : ", %c", ty);
	PjKernel kk;
	if (!build(ir, &kk))
		return -1;
	unsigned char mem[8], out[8], p[32] = {0};
	memcpy(mem, mem_in, (size_t)size);
	putptr(p, 0, mem);
	putptr(p, 8, out);
	memcpy(p + 16, v, (size_t)size);
	if (cmp)
		memcpy(p + 24, cmp, (size_t)size);
	PjError e;
	int rc = run(&kk, 1, 1, 1, 1, 1, 1, 0, p, 0, &e);
	memcpy(mem_out, mem, (size_t)size);
	memcpy(old, out, (size_t)size);
	drop(&kk);
	return rc;
}

static int atom_f32(const char *op, float mem, float v, float *after, float *old)
{
	return atom1(op, "f32", &mem, after, &v, NULL, old);
}

static int same_f32(float a, float b) { return f32bits(a) == f32bits(b) || (a != a && b != b); }

TEST(atomics_float)
{
	float nan = NAN, after, old;
	struct { const char *op; float mem, v, after; } t[] = {
		{"add", 1.5f, 2.25f, 3.75f}, {"sub", 1.5f, 2.25f, -0.75f}, {"exch", 1.5f, -7.0f, -7.0f},
		{"add", 1e-45f, 0.0f, 0.0f},            /* atom.add.f32 flushes subnormals */
		{"max", 1.0f, 2.0f, 2.0f}, {"max", 2.0f, 1.0f, 2.0f},
		{"max", nan, 1.0f, nan}, {"max", 1.0f, nan, 1.0f},
		{"min", 1.0f, 2.0f, 1.0f}, {"min", 2.0f, 1.0f, 1.0f},
		{"min", nan, 1.0f, nan}, {"min", 1.0f, nan, 1.0f},
		{"nanmax", nan, 1.0f, 1.0f}, {"nanmax", 1.0f, nan, 1.0f}, {"nanmax", 1.0f, 3.0f, 3.0f},
		{"nanmin", nan, 1.0f, 1.0f}, {"nanmin", 1.0f, nan, 1.0f}, {"nanmin", 3.0f, 1.0f, 1.0f},
		{"max", -0.0f, 0.0f, -0.0f},            /* ordered compare: zeros do not replace each other */
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		int rc = atom_f32(t[i].op, t[i].mem, t[i].v, &after, &old);
		CHECK_EQ_INT(rc, PJ_SIM_OK);
		if (!same_f32(after, t[i].after) || !same_f32(old, t[i].mem))
			printf("atomic %s(%g, %g): memory %g (want %g), old %g\n", t[i].op, t[i].mem, t[i].v,
			       after, t[i].after, old);
		CHECK(same_f32(after, t[i].after));
		CHECK(same_f32(old, t[i].mem));
	}
	double m = 0.1, v = 0.2, a, o;
	CHECK_EQ_INT(atom1("add", "f64", &m, &a, &v, NULL, &o), PJ_SIM_OK);
	CHECK(a == 0.1 + 0.2 && o == 0.1);
	m = NAN;
	v = 5;
	CHECK_EQ_INT(atom1("nanmin", "f64", &m, &a, &v, NULL, &o), PJ_SIM_OK);
	CHECK(a == 5 && o != o);
	m = 4e-320;   /* a double subnormal is kept */
	v = 0;
	CHECK_EQ_INT(atom1("add", "f64", &m, &a, &v, NULL, &o), PJ_SIM_OK);
	CHECK(a == 4e-320);
}

TEST(atomics_int)
{
	struct { const char *op, *ty; int64_t mem, v, cmp, after; } t[] = {
		{"add", "i32", 2147483647, 1, 0, -2147483648LL},
		{"sub", "u32", 0, 1, 0, 4294967295LL},
		{"and", "u32", 0xF0F0, 0x0FF0, 0, 0x00F0},
		{"or", "i64", 0xF000000000LL, 1, 0, 0xF000000001LL},
		{"xor", "u64", 0xFF, 0x0F, 0, 0xF0},
		{"exch", "i32", 5, -9, 0, -9},
		{"min", "i32", -5, 3, 0, -5},
		{"min", "u32", 4294967295LL, 3, 0, 3},
		{"max", "i32", -5, 3, 0, 3},
		{"max", "u32", 4294967295LL, 3, 0, 4294967295LL},
		{"max", "i64", -5, -7, 0, -5},
		{"max", "u64", -5, 7, 0, -5},
		{"nanmax", "i32", 1, 9, 0, 9},
		{"nanmin", "u64", 1, 9, 0, 1},
		{"inc", "u32", 5, 10, 0, 6},
		{"inc", "u32", 10, 10, 0, 0},
		{"inc", "u32", 11, 10, 0, 0},
		{"inc", "u64", 3, 10, 0, 4},
		{"inc", "u64", 10, 10, 0, 0},
		{"dec", "u32", 5, 10, 0, 4},
		{"dec", "u32", 0, 10, 0, 10},
		{"dec", "u32", 11, 10, 0, 10},
		{"dec", "u64", 0, 7, 0, 7},
		{"dec", "u64", 1, 7, 0, 0},
		{"cas", "i32", 5, 8, 5, 8},
		{"cas", "i32", 5, 8, 6, 5},
		{"cas", "u64", 1ULL << 40, 3, 1ULL << 40, 3},
		{"cas", "i64", -1, 3, 1, -1},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		int w = t[i].ty[1] == '3';
		unsigned char mem[8], v[8], cmp[8], after[8], old[8];
		if (w) {
			uint32_t m = (uint32_t)t[i].mem, vv = (uint32_t)t[i].v, c = (uint32_t)t[i].cmp;
			memcpy(mem, &m, 4);
			memcpy(v, &vv, 4);
			memcpy(cmp, &c, 4);
		} else {
			memcpy(mem, &t[i].mem, 8);
			memcpy(v, &t[i].v, 8);
			memcpy(cmp, &t[i].cmp, 8);
		}
		int rc = atom1(t[i].op, t[i].ty, mem, after, v, cmp, old);
		CHECK_EQ_INT(rc, PJ_SIM_OK);
		int64_t a, o;
		if (w) {
			uint32_t x, y;
			memcpy(&x, after, 4);
			memcpy(&y, old, 4);
			a = x;
			o = y;
			CHECK_EQ_INT(a, (uint32_t)t[i].after);
			CHECK_EQ_INT(o, (uint32_t)t[i].mem);
		} else {
			memcpy(&a, after, 8);
			memcpy(&o, old, 8);
			CHECK_EQ_INT(a, t[i].after);
			CHECK_EQ_INT(o, t[i].mem);
		}
		if (check_failed_now) {
			printf("  in atomic %s.%s\n", t[i].op, t[i].ty);
			break;
		}
	}
}

/* 8 blocks of 128 threads: counter += 1, wrap counter (inc 99), float sum */
TEST(atomics_many_threads)
{
	static const char *ir =
		"kernel count\n"
		"parambytes 8\n"
		"param 0 u64 arg0 data\n"
		"@b0\n"
		"  %p =l param 0 u64\n"
		"  %o0 =w atom.add.global u32 %p, 1\n"
		"  %p1 =l add i64 %p, 4\n"
		"  %o1 =w atom.inc.global u32 %p1, 99\n"
		"  %p2 =l add i64 %p, 8\n"
		"  %o2 =s atom.add.global f32 %p2, 0.5\n"
		"  %p3 =l add i64 %p, 12\n"
		"  %tx =w sreg tid.x\n"
		"  %o3 =w atom.max.global i32 %p3, %tx\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	uint32_t mem[4] = {0, 0, 0, 0};
	unsigned char p[8];
	putptr(p, 0, mem);
	PjError e;
	CHECK_EQ_INT(run(&k, 8, 1, 1, 128, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
	float f;
	memcpy(&f, &mem[2], 4);
	CHECK_EQ_INT(mem[0], 1024);
	CHECK_EQ_INT(mem[1], 1024 % 100);
	CHECK(f == 512.0f);
	CHECK_EQ_INT(mem[3], 127);
	drop(&k);
}

/* -------------------------------------------- arithmetic semantics */

/* One thread: out[0] = <op> a, b (or a unary op, or a cvt) */
static int op1(const char *line, const char *ta, const char *tout, const void *a, const void *b,
               void *out)
{
	char ir[1024];
	snprintf(ir, sizeof ir,
	         "kernel op\n"
	         "parambytes 24\n"
	         "param 0 u64 arg0 data\n"
	         "param 8 %s arg1 scalar\n"
	         "param 16 %s arg2 scalar\n"
	         "@b0\n"
	         "  %%p =l param 0 u64\n"
	         "  %%a =%c param 8 %s\n"
	         "  %%b =%c param 16 %s\n"
	         "  %s\n"
	         "  store.global %s %%p, %%r\n"
	         "  ret\n",
	         ta, ta, "bwwwlwwwlssd"[ty_sk_from_name_test(ta)], ta,
	         "bwwwlwwwlssd"[ty_sk_from_name_test(ta)], ta, line, tout);
	PjKernel k;
	if (!build(ir, &k))
		return -1;
	unsigned char p[24] = {0};
	uint64_t o = 0xDEADBEEFDEADBEEFull;
	putptr(p, 0, &o);
	memcpy(p + 8, a, 8);
	memcpy(p + 16, b, 8);
	PjError e;
	int rc = run(&k, 1, 1, 1, 1, 1, 1, 0, p, 0, &e);
	memcpy(out, &o, 8);
	drop(&k);
	return rc;
}

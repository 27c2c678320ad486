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

/* a[-2000] on 1024 elements: the lowering wrapped it to -976 */
TEST(negative_index)
{
	static const char *ir =
		"kernel neg\n"
		"checked\n"
		"parambytes 0\n"
		"loc 0 \"neg.py\" 3 5\n"
		"check 0 array \"a\" axis 0 ndim 1 ext 1024 loc 0\n"
		"@b0\n"
		"  check 0 -976, 1024 !0\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	PjError e;
	CHECK_EQ_INT(run(&k, 1, 1, 1, 1, 1, 1, 0, NULL, 0, &e), PJ_SIM_INDEX);
	CHECK_STR_CONTAINS(e.msg, "index -2000 is out of bounds for axis 0 with size 1024 in array 'a' "
	                          "of shape (1024,)\n  at neg.py:3");
	drop(&k);
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
		a[i] = (float)(((int64_t)i * 7919) % 1000) * 0.001f - 0.3f;
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

static int sk_of(const char *name)
{
	static const char *const names[] = {"bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
	                                    "f16", "f32", "f64"};
	for (int i = 0; i < 12; i++)
		if (!strcmp(names[i], name))
			return i;
	return 0;
}

static char cls_of(const char *ty) { return "bwwwlwwwlssd"[sk_of(ty)]; }

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
	         ta, ta, cls_of(ta), ta, cls_of(ta), ta, line, tout);
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

static int64_t ibin(const char *op, const char *ty, int64_t a, int64_t b)
{
	char line[128];
	char k = cls_of(ty);
	uint64_t out;
	snprintf(line, sizeof line, "%%r =%c %s %s %%a, %%b", k, op, ty);
	if (op1(line, ty, k == 'w' ? "i32" : "i64", &a, &b, &out) != PJ_SIM_OK)
		return 0x5EEDBAD;
	return k == 'w' ? (int64_t)(int32_t)(uint32_t)out : (int64_t)out;
}

static int icmp(const char *cc, const char *ty, int64_t a, int64_t b)
{
	char line[128];
	uint64_t out;
	snprintf(line, sizeof line, "%%r =b cmp.%s %s %%a, %%b", cc, ty);
	if (op1(line, ty, "bool", &a, &b, &out) != PJ_SIM_OK)
		return -1;
	return (int)(out & 0xFF);
}

static int fcmp(const char *cc, float a, float b)
{
	uint64_t x = f32bits(a), y = f32bits(b), out;
	char line[128];
	snprintf(line, sizeof line, "%%r =b cmp.%s f32 %%a, %%b", cc);
	if (op1(line, "f32", "bool", &x, &y, &out) != PJ_SIM_OK)
		return -1;
	return (int)(out & 0xFF);
}

static float fbin(const char *op, float a, float b)
{
	uint64_t x = f32bits(a), y = f32bits(b), out;
	char line[128];
	snprintf(line, sizeof line, "%%r =s %s f32 %%a, %%b", op);
	if (op1(line, "f32", "f32", &x, &y, &out) != PJ_SIM_OK)
		return -12345.0f;
	float f;
	uint32_t u = (uint32_t)out;
	memcpy(&f, &u, 4);
	return f;
}

/* cvt from `from` to `to`, the result stored as `store` */
static uint64_t cvt(const char *to, const char *from, const char *store, uint64_t bits)
{
	char line[128];
	uint64_t out, zero = 0;
	snprintf(line, sizeof line, "%%r =%c cvt.%s %s %%a", cls_of(to), to, from);
	if (op1(line, from, store, &bits, &zero, &out) != PJ_SIM_OK)
		return 0x5EEDBAD;
	return out;
}

static float cvt_f32(const char *to, float x)
{
	uint64_t o = cvt(to, "f32", "f32", f32bits(x));
	uint32_t u = (uint32_t)o;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

TEST(integer_semantics)
{
	const int64_t I32MIN = -2147483648LL;
	CHECK_EQ_INT(ibin("add", "i32", 2147483647, 1), I32MIN);
	CHECK_EQ_INT(ibin("add", "i64", INT64_MAX, 1), INT64_MIN);
	CHECK_EQ_INT(ibin("sub", "u32", 0, 1), -1);
	CHECK_EQ_INT(ibin("mul", "i32", 65536, 65536), 0);
	CHECK_EQ_INT(ibin("mul", "i64", 1LL << 40, 1LL << 30), 0);
	/* division: truncating, by zero gives 0, x rem 0 is x */
	CHECK_EQ_INT(ibin("div", "i32", -7, 2), -3);
	CHECK_EQ_INT(ibin("rem", "i32", -7, 2), -1);
	CHECK_EQ_INT(ibin("div", "i32", 7, 0), 0);
	CHECK_EQ_INT(ibin("rem", "i32", 7, 0), 7);
	CHECK_EQ_INT(ibin("div", "i32", I32MIN, -1), I32MIN);
	CHECK_EQ_INT(ibin("rem", "i32", I32MIN, -1), 0);
	CHECK_EQ_INT(ibin("div", "u32", -1, 2), 0x7fffffff);
	CHECK_EQ_INT(ibin("rem", "u32", -1, 10), 4294967295LL % 10);
	CHECK_EQ_INT(ibin("div", "i64", -9, 0), 0);
	CHECK_EQ_INT(ibin("rem", "u64", -9, 0), -9);
	CHECK_EQ_INT(ibin("div", "i64", INT64_MIN, -1), INT64_MIN);
	CHECK_EQ_INT(ibin("div", "u64", -1, 3), (int64_t)(UINT64_MAX / 3));
	/* shifts: counts >= width give 0, or -1 for a negative shr */
	CHECK_EQ_INT(ibin("shl", "i32", 1, 31), I32MIN);
	CHECK_EQ_INT(ibin("shl", "i32", 1, 32), 0);
	CHECK_EQ_INT(ibin("shl", "u32", 3, 1000), 0);
	CHECK_EQ_INT(ibin("shr", "i32", -8, 1), -4);
	CHECK_EQ_INT(ibin("shr", "i32", -8, 40), -1);
	CHECK_EQ_INT(ibin("shr", "i32", 8, 40), 0);
	CHECK_EQ_INT(ibin("shr", "u32", I32MIN, 31), 1);
	CHECK_EQ_INT(ibin("shr", "u32", -1, 32), 0);
	CHECK_EQ_INT(ibin("shl", "i64", 1, 63), INT64_MIN);
	CHECK_EQ_INT(ibin("shl", "i64", 1, 64), 0);
	CHECK_EQ_INT(ibin("shr", "i64", -1, 100), -1);
	CHECK_EQ_INT(ibin("shr", "u64", -1, 63), 1);
	CHECK_EQ_INT(ibin("shr", "i64", INT64_MIN, 62), -2);
	{
		/* a 64-bit count of a 32-bit shift saturates: 2^32 + 1 is not 1 */
		uint64_t out, a = 1, z = 0;
		CHECK_EQ_INT(op1("%c =l add i64 4294967296, 1\n  %r =w shl i32 %a, %c", "i32", "i32", &a, &z, &out),
		             PJ_SIM_OK);
		CHECK_EQ_INT((uint32_t)out, 0);
		CHECK_EQ_INT(op1("%c =l add i64 0, 3\n  %r =w shl i32 %a, %c", "i32", "i32", &a, &z, &out),
		             PJ_SIM_OK);
		CHECK_EQ_INT((uint32_t)out, 8);
	}
	/* narrow kinds are re-extended from their width */
	CHECK_EQ_INT(ibin("add", "i8", 127, 1), -128);
	CHECK_EQ_INT(ibin("mul", "u8", 200, 2), 144);
	CHECK_EQ_INT(ibin("sub", "u16", 0, 1), 65535);
	CHECK_EQ_INT(ibin("shl", "i16", 1, 15), -32768);
	/* min, max, bitwise */
	CHECK_EQ_INT(ibin("min", "i32", -1, 1), -1);
	CHECK_EQ_INT(ibin("min", "u32", -1, 1), 1);
	CHECK_EQ_INT(ibin("max", "u64", -1, 1), -1);
	CHECK_EQ_INT(ibin("max", "i64", -1, 1), 1);
	CHECK_EQ_INT(ibin("xor", "i32", 0xFF00, 0x0FF0), 0xF0F0);
	CHECK_EQ_INT(ibin("and", "i64", -1, 0x123456789LL), 0x123456789LL);
	CHECK_EQ_INT(ibin("or", "u32", 0x80000000LL, 1), (int32_t)0x80000001u);
	/* comparisons: signedness from the kind; ltu etc. are unsigned */
	CHECK_EQ_INT(icmp("lt", "i32", -1, 1), 1);
	CHECK_EQ_INT(icmp("lt", "u32", -1, 1), 0);
	CHECK_EQ_INT(icmp("ltu", "i32", -1, 1), 0);
	CHECK_EQ_INT(icmp("ge", "i64", 5, 5), 1);
	CHECK_EQ_INT(icmp("gt", "i64", 4, 5), 0);
	CHECK_EQ_INT(icmp("gtu", "i64", -1, 5), 1);
	CHECK_EQ_INT(icmp("ne", "u64", 3, 3), 0);
	CHECK_EQ_INT(icmp("le", "u64", 3, -3), 1);
	/* unary: wrapping abs, not, neg */
	{
		uint64_t out, a = (uint64_t)I32MIN, z = 0;
		CHECK_EQ_INT(op1("%r =w abs i32 %a", "i32", "i32", &a, &z, &out), PJ_SIM_OK);
		CHECK_EQ_INT((int32_t)(uint32_t)out, I32MIN);
		CHECK_EQ_INT(op1("%r =w abs u32 %a", "u32", "u32", &a, &z, &out), PJ_SIM_OK);
		CHECK_EQ_INT((uint32_t)out, 0x80000000u);
		a = 5;
		CHECK_EQ_INT(op1("%r =l neg i64 %a", "i64", "i64", &a, &z, &out), PJ_SIM_OK);
		CHECK_EQ_INT((int64_t)out, -5);
		CHECK_EQ_INT(op1("%r =w not i32 %a", "i32", "i32", &a, &z, &out), PJ_SIM_OK);
		CHECK_EQ_INT((int32_t)(uint32_t)out, -6);
		a = 0;
		CHECK_EQ_INT(op1("%r =w not u8 %a", "u8", "i32", &a, &z, &out), PJ_SIM_OK);
		CHECK_EQ_INT((int32_t)(uint32_t)out, 255);
	}
}

TEST(float_semantics)
{
	float nan = NAN, inf = INFINITY;
	CHECK(fbin("div", 1.0f, 0.0f) == inf);
	CHECK(fbin("div", 1.0f, 3.0f) == 1.0f / 3.0f);
	CHECK(fbin("add", 16777216.0f, 1.0f) == 16777216.0f);   /* float32, not double */
	CHECK(fbin("min", nan, 1.0f) == 1.0f);
	CHECK(fbin("min", 1.0f, nan) == 1.0f);
	CHECK(fbin("max", nan, -1.0f) == -1.0f);
	CHECK(isnan(fbin("max", nan, nan)));
	CHECK(signbit(fbin("min", 0.0f, -0.0f)) && signbit(fbin("min", -0.0f, 0.0f)));
	CHECK(!signbit(fbin("max", 0.0f, -0.0f)) && !signbit(fbin("max", -0.0f, 0.0f)));
	/* comparisons: ordered, except ne (Python's !=) and the u forms */
	CHECK_EQ_INT(fcmp("eq", nan, nan), 0);
	CHECK_EQ_INT(fcmp("ne", nan, 1.0f), 1);
	CHECK_EQ_INT(fcmp("lt", nan, 1.0f), 0);
	CHECK_EQ_INT(fcmp("ge", nan, 1.0f), 0);
	CHECK_EQ_INT(fcmp("ltu", nan, 1.0f), 1);
	CHECK_EQ_INT(fcmp("geu", 1.0f, nan), 1);
	CHECK_EQ_INT(fcmp("gt", 2.0f, 1.0f), 1);
	CHECK_EQ_INT(fcmp("le", 2.0f, 1.0f), 0);
	CHECK_EQ_INT(fcmp("eq", 0.0f, -0.0f), 1);
	/* rounding */
	{
		uint64_t out, a, z = 0;
		float r;
		static const float in[] = {2.5f, 3.5f, -2.5f, -0.5f, 1.5f};
		static const float want[] = {2.0f, 4.0f, -2.0f, -0.0f, 2.0f};
		for (int i = 0; i < 5; i++) {
			a = f32bits(in[i]);
			CHECK_EQ_INT(op1("%r =s rint f32 %a", "f32", "f32", &a, &z, &out), PJ_SIM_OK);
			uint32_t u = (uint32_t)out;
			memcpy(&r, &u, 4);
			CHECK(f32bits(r) == f32bits(want[i]));
		}
		a = f32bits(-2.5f);
		op1("%r =s floor f32 %a", "f32", "f32", &a, &z, &out);
		CHECK((uint32_t)out == f32bits(-3.0f));
		op1("%r =s ceil f32 %a", "f32", "f32", &a, &z, &out);
		CHECK((uint32_t)out == f32bits(-2.0f));
		op1("%r =s trunc f32 %a", "f32", "f32", &a, &z, &out);
		CHECK((uint32_t)out == f32bits(-2.0f));
		a = f32bits(2.0f);
		op1("%r =s sqrt f32 %a", "f32", "f32", &a, &z, &out);
		CHECK((uint32_t)out == f32bits(sqrtf(2.0f)));
		a = f64bits(2.0);
		op1("%r =d sqrt f64 %a", "f64", "f64", &a, &z, &out);
		CHECK(out == f64bits(sqrt(2.0)));
		a = f32bits(-3.0f);
		op1("%r =s abs f32 %a", "f32", "f32", &a, &z, &out);
		CHECK((uint32_t)out == f32bits(3.0f));
	}
}

/* a*b + c as mul then add, and as fma: only fma rounds once */
TEST(no_contraction)
{
	static const char *ir =
		"kernel fmatest\n"
		"parambytes 24\n"
		"param 0 u64 arg0 data\n"
		"param 8 f32 arg1 scalar\n"
		"param 12 f32 arg2 scalar\n"
		"param 16 f32 arg3 scalar\n"
		"@b0\n"
		"  %p =l param 0 u64\n"
		"  %a =s param 8 f32\n"
		"  %b =s param 12 f32\n"
		"  %c =s param 16 f32\n"
		"  %m =s mul f32 %a, %b\n"
		"  %s =s add f32 %m, %c\n"
		"  store.global f32 %p, %s\n"
		"  %f =s fma f32 %a, %b, %c\n"
		"  %p4 =l add i64 %p, 4\n"
		"  store.global f32 %p4, %f\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	volatile float a = 1.0f + 0x1p-23f, c = -1.0f;
	float out[2], abc[3] = {a, a, c};
	unsigned char p[24];
	putptr(p, 0, out);
	memcpy(p + 8, abc, 12);
	PjError e;
	CHECK_EQ_INT(run(&k, 1, 1, 1, 1, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
	CHECK(out[0] == 0x1p-22f);
	CHECK(out[1] == 0x1p-22f + 0x1p-46f);
	drop(&k);
}

TEST(conversions)
{
	CHECK_EQ_INT((int32_t)cvt("i32", "f32", "i32", f32bits(3.9f)), 3);
	CHECK_EQ_INT((int32_t)cvt("i32", "f32", "i32", f32bits(-3.9f)), -3);
	CHECK_EQ_INT((int32_t)cvt("i32", "f32", "i32", f32bits(1e10f)), 2147483647);
	CHECK_EQ_INT((int32_t)cvt("i32", "f32", "i32", f32bits(-1e10f)), -2147483647 - 1);
	CHECK_EQ_INT((int32_t)cvt("i32", "f32", "i32", f32bits(NAN)), 0);
	CHECK_EQ_INT((uint32_t)cvt("u32", "f64", "u32", f64bits(-5.0)), 0);
	CHECK_EQ_INT((uint32_t)cvt("u32", "f64", "u32", f64bits(5e9)), 4294967295LL);
	CHECK_EQ_INT((int64_t)cvt("i64", "f64", "i64", f64bits(1e300)), INT64_MAX);
	CHECK_EQ_INT((int64_t)cvt("i64", "f64", "i64", f64bits(-1e300)), INT64_MIN);
	CHECK_EQ_INT((int64_t)cvt("i64", "f64", "i64", f64bits(-2.5)), -2);
	CHECK(cvt("u64", "f64", "u64", f64bits(1e30)) == UINT64_MAX);
	CHECK(cvt("u64", "f32", "u64", f32bits(-0.5f)) == 0);
	CHECK_EQ_INT((int32_t)cvt("u8", "f32", "i32", f32bits(300.0f)), 44);
	CHECK_EQ_INT((int32_t)cvt("i8", "f32", "i32", f32bits(-300.0f)), -44);
	CHECK_EQ_INT((int32_t)cvt("i8", "i32", "i32", 200), -56);
	CHECK_EQ_INT((int32_t)cvt("u8", "i32", "i32", (uint32_t)-1), 255);
	CHECK_EQ_INT((int64_t)cvt("i64", "i32", "i64", (uint32_t)-7), -7);
	CHECK_EQ_INT((int64_t)cvt("u64", "u32", "i64", (uint32_t)-7), 4294967289LL);
	CHECK_EQ_INT((int32_t)cvt("i32", "i64", "i32", 0x100000005ULL), 5);
	CHECK_EQ_INT((int64_t)cvt("i64", "i8", "i64", (uint32_t)-3), -3);
	CHECK_EQ_INT(cvt("bool", "f32", "bool", f32bits(NAN)) & 0xFF, 1);
	CHECK_EQ_INT(cvt("bool", "f32", "bool", f32bits(-0.0f)) & 0xFF, 0);
	CHECK_EQ_INT(cvt("bool", "i64", "bool", 1ULL << 40) & 0xFF, 1);
	CHECK_EQ_INT((int32_t)cvt("i32", "bool", "i32", 1), 1);
	{
		uint64_t o = cvt("f32", "i64", "f32", 16777217);
		CHECK((uint32_t)o == f32bits(16777216.0f));
		o = cvt("f64", "u64", "f64", UINT64_MAX);
		CHECK(o == f64bits(18446744073709551616.0));
		o = cvt("f32", "f64", "f32", f64bits(0.1));
		CHECK((uint32_t)o == f32bits(0.1f));
		o = cvt("f64", "i32", "f64", (uint32_t)-3);
		CHECK(o == f64bits(-3.0));
	}
	/* float16 values live in f32 registers, rounded to float16 */
	CHECK(cvt_f32("f16", 65520.0f) == INFINITY);
	CHECK(cvt_f32("f16", 65519.0f) == 65504.0f);
	CHECK(cvt_f32("f16", 1.0f / 3.0f) == 0.333251953125f);
	CHECK(cvt_f32("f16", 1e-8f) == 0.0f);
	CHECK(cvt_f32("f16", 3e-8f) == 0x1p-24f);
	CHECK(cvt_f32("f16", 1.0f + 0x1p-11f) == 1.0f);                    /* tie to even */
	CHECK(cvt_f32("f16", 1.0f + 3 * 0x1p-11f) == 1.0f + 0x1p-9f);
}

/* ------------------------------------------------------ control flow */

/* phis that swap two values: the parallel copy needs a scratch slot */
TEST(phi_swap)
{
	static const char *ir =
		"kernel swap\n"
		"parambytes 8\n"
		"param 0 u64 arg0 data\n"
		"@b0\n"
		"  jmp @b1\n"
		"@b1\n"
		"  %x =w phi @b0 1, @b2 %y\n"
		"  %y =w phi @b0 2, @b2 %x\n"
		"  %k =w phi @b0 0, @b2 %k2\n"
		"  %c =b cmp.lt i32 %k, 3\n"
		"  jnz %c @b2 @b3\n"
		"@b2\n"
		"  %k2 =w add i32 %k, 1\n"
		"  jmp @b1\n"
		"@b3\n"
		"  %p =l param 0 u64\n"
		"  store.global i32 %p, %x\n"
		"  %p4 =l add i64 %p, 4\n"
		"  store.global i32 %p4, %y\n"
		"  %p8 =l add i64 %p, 8\n"
		"  store.global i32 %p8, %k\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	int32_t out[3] = {0};
	unsigned char p[8];
	putptr(p, 0, out);
	PjError e;
	CHECK_EQ_INT(run(&k, 1, 1, 1, 1, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
	CHECK_EQ_INT(out[0], 2);
	CHECK_EQ_INT(out[1], 1);
	CHECK_EQ_INT(out[2], 3);
	drop(&k);
}

/* every special register over a 3-D grid, with and without a barrier */
TEST(special_registers)
{
	static const char *head =
		"kernel ids\n"
		"parambytes 8\n"
		"param 0 u64 arg0 data\n"
		"@b0\n"
		"  %tx =w sreg tid.x\n"
		"  %ty =w sreg tid.y\n"
		"  %tz =w sreg tid.z\n"
		"  %nx =w sreg ntid.x\n"
		"  %ny =w sreg ntid.y\n"
		"  %nz =w sreg ntid.z\n"
		"  %bx =w sreg ctaid.x\n"
		"  %by =w sreg ctaid.y\n"
		"  %bz =w sreg ctaid.z\n"
		"  %gx =w sreg nctaid.x\n"
		"  %gy =w sreg nctaid.y\n"
		"  %ln =w sreg laneid\n"
		"  %ws =w sreg warpsize\n";
	/* block linear id, thread linear id, global slot */
	static const char *tail =
		"  %b1 =w mul i32 %bz, %gy\n"
		"  %b2 =w add i32 %b1, %by\n"
		"  %b3 =w mul i32 %b2, %gx\n"
		"  %bl =w add i32 %b3, %bx\n"
		"  %t1 =w mul i32 %tz, %ny\n"
		"  %t2 =w add i32 %t1, %ty\n"
		"  %t3 =w mul i32 %t2, %nx\n"
		"  %tl =w add i32 %t3, %tx\n"
		"  %nt1 =w mul i32 %nx, %ny\n"
		"  %nt =w mul i32 %nt1, %nz\n"
		"  %g1 =w mul i32 %bl, %nt\n"
		"  %g =w add i32 %g1, %tl\n"
		"  %gl =l cvt.i64 i32 %g\n"
		"  %off =l mul i64 %gl, 16\n"
		"  %p =l param 0 u64\n"
		"  %q =l add i64 %p, %off\n"
		"  store.global i32 %q, %tl\n"
		"  %q4 =l add i64 %q, 4\n"
		"  store.global i32 %q4, %bl\n"
		"  %q8 =l add i64 %q, 8\n"
		"  store.global i32 %q8, %ln\n"
		"  %q12 =l add i64 %q, 12\n"
		"  store.global i32 %q12, %ws\n"
		"  ret\n";
	for (int withbar = 0; withbar < 2; withbar++) {
		char ir[4096];
		snprintf(ir, sizeof ir, "%s%s%s", head, withbar ? "  bar\n" : "", tail);
		PjKernel k;
		if (!build(ir, &k)) {
			CHECK(0);
			return;
		}
		unsigned g[3] = {3, 2, 2}, b[3] = {5, 3, 4};
		int nb = 12, nt = 60;
		int32_t *out = calloc((size_t)(nb * nt), 16);
		unsigned char p[8];
		putptr(p, 0, out);
		PjError e;
		CHECK_EQ_INT(run(&k, g[0], g[1], g[2], b[0], b[1], b[2], 0, p, 0, &e), PJ_SIM_OK);
		int bad = 0;
		for (int i = 0; i < nb * nt; i++) {
			int t = i % nt, bl = i / nt;
			if (out[4 * i] != t || out[4 * i + 1] != bl || out[4 * i + 2] != (t & 31) || out[4 * i + 3] != 32)
				bad++;
		}
		CHECK_EQ_INT(bad, 0);
		free(out);
		drop(&k);
	}
}

/* ----------------------------------------------------- memory kinds */

/* local array per thread (kept across a barrier), constant array, and
 * the dynamic shared array sized at launch */
TEST(local_const_dynamic)
{
	static const char *ir =
		"kernel mem\n"
		"checked\n"
		"parambytes 8\n"
		"param 0 u64 arg0 data\n"
		"array 0 local 8 align 4 name \"loc\"\n"
		"array 1 const 8 align 4 name \"tab\" init 0000803f00000040\n"
		"array 2 shared 0 align 4 dynamic name \"dyn\"\n"
		"@b0\n"
		"  %tx =w sreg tid.x\n"
		"  %nx =w sreg ntid.x\n"
		"  %t =l cvt.i64 i32 %tx\n"
		"  %n =l cvt.i64 i32 %nx\n"
		"  %lo =l addr 0\n"
		"  %lo4 =l add i64 %lo, 4\n"
		"  store.local i32 %lo4, %tx\n"
		"  %dy =l addr 2\n"
		"  %o =l mul i64 %t, 4\n"
		"  %dp =l add i64 %dy, %o\n"
		"  store.shared i32 %dp, %tx\n"
		"  bar\n"
		"  %r1 =l sub i64 %n, 1\n"
		"  %r2 =l sub i64 %r1, %t\n"
		"  %ro =l mul i64 %r2, 4\n"
		"  %rp =l add i64 %dy, %ro\n"
		"  %v =w load.shared i32 %rp\n"
		"  %w =w load.local i32 %lo4\n"
		"  %ct =l addr 1\n"
		"  %ct4 =l add i64 %ct, 4\n"
		"  %cv =s load.const f32 %ct4\n"
		"  %ci =w cvt.i32 f32 %cv\n"
		"  %s1 =w mul i32 %w, 1000\n"
		"  %s2 =w add i32 %s1, %v\n"
		"  %s3 =w mul i32 %s2, %ci\n"
		"  %p =l param 0 u64\n"
		"  %po =l add i64 %p, %o\n"
		"  store.global i32 %po, %s3\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	int32_t out[64];
	unsigned char p[8];
	putptr(p, 0, out);
	PjError e;
	int rc = run(&k, 2, 1, 1, 64, 1, 1, 64 * 4, p, PJ_SIM_UNINIT | PJ_SIM_RACE, &e);
	CHECK_EQ_INT(rc, PJ_SIM_OK);
	if (rc)
		printf("%s\n", e.msg);
	int bad = 0;
	for (int t = 0; t < 64; t++)
		if (out[t] != (t * 1000 + 63 - t) * 2)
			bad++;
	CHECK_EQ_INT(bad, 0);
	/* too little dynamic shared memory for 64 threads: thread 32 writes past it */
	rc = run(&k, 2, 1, 1, 64, 1, 1, 32 * 4, p, 0, &e);
	CHECK_EQ_INT(rc, PJ_SIM_INDEX);
	CHECK_STR_CONTAINS(e.msg, "access of 4 bytes at byte 128 of the dynamic shared array 'dyn', which "
	                          "has 128 bytes");
	CHECK_STR_CONTAINS(e.msg, "thread (32, 0, 0) of block (0, 0, 0)");
	drop(&k);
}

/* narrow integer, bool and float16 loads and stores; float16 arithmetic
 * rounds to float16 */
TEST(memory_kinds)
{
	static const char *ir =
		"kernel kinds\n"
		"parambytes 16\n"
		"param 0 u64 arg0 data\n"
		"param 8 u64 arg1 data\n"
		"@b0\n"
		"  %p =l param 0 u64\n"
		"  %q =l param 8 u64\n"
		"  %a =w load.global i8 %p\n"
		"  store.global i32 %q, %a\n"
		"  %q4 =l add i64 %q, 4\n"
		"  %b =w load.global u8 %p\n"
		"  store.global i32 %q4, %b\n"
		"  %p2 =l add i64 %p, 2\n"
		"  %q8 =l add i64 %q, 8\n"
		"  %c =w load.global i16 %p2\n"
		"  store.global i32 %q8, %c\n"
		"  %q12 =l add i64 %q, 12\n"
		"  %d =w load.global u16 %p2\n"
		"  store.global i32 %q12, %d\n"
		"  %p4 =l add i64 %p, 4\n"
		"  %e =b load.global bool %p4\n"
		"  %q16 =l add i64 %q, 16\n"
		"  store.global bool %q16, %e\n"
		"  %p6 =l add i64 %p, 6\n"
		"  %h =s load.global f16 %p6\n"
		"  %p8 =l add i64 %p, 8\n"
		"  %g =s load.global f16 %p8\n"
		"  %s =s add f16 %h, %g\n"
		"  %q18 =l add i64 %q, 18\n"
		"  store.global f16 %q18, %s\n"
		"  %s32 =s add f32 %h, %g\n"
		"  %q20 =l add i64 %q, 20\n"
		"  store.global f32 %q20, %s32\n"
		"  %q24 =l add i64 %q, 24\n"
		"  store.global i8 %q24, %c\n"
		"  %q26 =l add i64 %q, 26\n"
		"  store.global i16 %q26, %a\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	/* bytes: i8/u8 0xFF, pad, i16/u16 0xFFFE, bool 2, pad, f16 1.0, f16 2^-11 */
	unsigned char in[10] = {0xFF, 0, 0xFE, 0xFF, 2, 0, 0x00, 0x3C, 0x00, 0x10};
	unsigned char out[28];
	memset(out, 0xAA, sizeof out);
	unsigned char p[16];
	putptr(p, 0, in);
	putptr(p, 8, out);
	PjError e;
	CHECK_EQ_INT(run(&k, 1, 1, 1, 1, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
	int32_t w[4];
	memcpy(w, out, 16);
	CHECK_EQ_INT(w[0], -1);
	CHECK_EQ_INT(w[1], 255);
	CHECK_EQ_INT(w[2], -2);
	CHECK_EQ_INT(w[3], 65534);
	CHECK_EQ_INT(out[16], 1);
	CHECK_EQ_INT(out[17], 0xAA);
	CHECK_EQ_INT(out[18] | out[19] << 8, 0x3C00);          /* 1 + 2^-11 rounds to even: 1.0 */
	float f;
	memcpy(&f, out + 20, 4);
	CHECK(f == 1.0f + 0x1p-11f);
	CHECK_EQ_INT(out[24], 0xFE);
	CHECK_EQ_INT(out[25], 0xAA);
	CHECK_EQ_INT(out[26] | out[27] << 8, 0xFFFF);
	drop(&k);
}

/* ----------------------------------------------------------- reports */

TEST(trap)
{
	static const char *ir =
		"kernel asserts\n"
		"checked\n"
		"parambytes 0\n"
		"loc 0 \"k.py\" 3 5\n"
		"check 0 loc 0 msg \"AssertionError: x must be positive\"\n"
		"@b0\n"
		"  %tx =w sreg tid.x\n"
		"  %c =b cmp.eq i32 %tx, 7\n"
		"  jnz %c @b1 @b2\n"
		"@b1\n"
		"  trap 0 !0\n"
		"  ret\n"
		"@b2\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	PjError e;
	CHECK_EQ_INT(run(&k, 2, 1, 1, 32, 1, 1, 0, NULL, 0, &e), PJ_SIM_TRAP);
	CHECK_STR_CONTAINS(e.msg, "AssertionError: x must be positive\n  at k.py:3, in kernel 'asserts', "
	                          "thread (7, 0, 0) of block (0, 0, 0)");
	drop(&k);
}

TEST(deadlock)
{
	static const char *ir =
		"kernel half_sync\n"
		"parambytes 0\n"
		"loc 0 \"kernel.py\" 14 9\n"
		"@b0\n"
		"  %tx =w sreg tid.x\n"
		"  %c =b cmp.lt i32 %tx, 32\n"
		"  jnz %c @b1 @b2\n"
		"@b1\n"
		"  bar !0\n"
		"  jmp @b2\n"
		"@b2\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	PjError e;
	CHECK_EQ_INT(run(&k, 1, 1, 1, 64, 1, 1, 0, NULL, 0, &e), PJ_SIM_DEADLOCK);
	CHECK_STR_CONTAINS(e.msg, "barrier at kernel.py:14 reached by 32 of 64 threads of block (0, 0, 0); "
	                          "the others returned");
	CHECK_STR_CONTAINS(e.msg, "half_sync");
	CHECK_EQ_INT(e.line, 14);
	/* with 32 threads every thread reaches it */
	CHECK_EQ_INT(run(&k, 2, 1, 1, 32, 1, 1, 0, NULL, 0, &e), PJ_SIM_OK);
	drop(&k);
}

/* sm[tid] = 1 for tid < limit; bar; out[tid] = sm[(tid + shift) % n] */
static const char *uninit_ir =
	"kernel partial\n"
	"parambytes 24\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg1 scalar\n"
	"param 16 i64 arg2 scalar\n"
	"array 0 shared 1024 align 4 name \"sm\"\n"
	"loc 0 \"kernel.py\" 5 9\n"
	"loc 1 \"kernel.py\" 7 5\n"
	"@b0\n"
	"  %tx =w sreg tid.x\n"
	"  %t =l cvt.i64 i32 %tx\n"
	"  %lim =l param 8 i64\n"
	"  %sh =l param 16 i64\n"
	"  %sm =l addr 0\n"
	"  %o =l mul i64 %t, 4\n"
	"  %ps =l add i64 %sm, %o\n"
	"  %c =b cmp.lt i64 %t, %lim\n"
	"  jnz %c @b1 @b2\n"
	"@b1\n"
	"  store.shared f32 %ps, 1.0 !0\n"
	"  jmp @b2\n"
	"@b2\n"
	"  bar\n"
	"  %j1 =l add i64 %t, %sh\n"
	"  %j =l rem i64 %j1, 256\n"
	"  %jo =l mul i64 %j, 4\n"
	"  %pj =l add i64 %sm, %jo\n"
	"  %v =s load.shared f32 %pj !1\n"
	"  %p =l param 0 u64\n"
	"  %q =l add i64 %p, %o\n"
	"  store.global f32 %q, %v\n"
	"  ret\n";

TEST(uninitialised_shared)
{
	PjKernel k;
	if (!build(uninit_ir, &k)) {
		CHECK(0);
		return;
	}
	float out[256];
	unsigned char p[24];
	putptr(p, 0, out);
	put64(p, 8, 255);
	put64(p, 16, 0);
	PjError e;
	/* unchecked: thread 255 reads the poison (all bits set: a NaN) */
	CHECK_EQ_INT(run(&k, 1, 1, 1, 256, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
	CHECK(out[0] == 1.0f && f32bits(out[255]) == 0xFFFFFFFFu);
	CHECK_EQ_INT(run(&k, 2, 1, 1, 256, 1, 1, 0, p, PJ_SIM_UNINIT, &e), PJ_SIM_UNINIT_READ);
	CHECK_STR_CONTAINS(e.msg, "byte 1020 of shared array 'sm' was not written by any thread of "
	                          "block (0, 0, 0) before this read\n  at kernel.py:7, in kernel 'partial', "
	                          "thread (255, 0, 0) of block (0, 0, 0)");
	/* all written: no report, in the second block either */
	put64(p, 8, 256);
	CHECK_EQ_INT(run(&k, 2, 1, 1, 256, 1, 1, 0, p, PJ_SIM_UNINIT, &e), PJ_SIM_OK);
	drop(&k);
}

TEST(races)
{
	static const char *ww =
		"kernel last_wins\n"
		"parambytes 8\n"
		"param 0 u64 arg0 data\n"
		"array 0 shared 4 align 4 name \"flag\"\n"
		"loc 0 \"race.py\" 6 5\n"
		"@b0\n"
		"  %tx =w sreg tid.x\n"
		"  %sm =l addr 0\n"
		"  store.shared i32 %sm, %tx !0\n"
		"  bar\n"
		"  %v =w load.shared i32 %sm\n"
		"  %p =l param 0 u64\n"
		"  store.global i32 %p, %v\n"
		"  ret\n";
	PjKernel k;
	if (!build(ww, &k)) {
		CHECK(0);
		return;
	}
	int32_t out = -1;
	unsigned char p[8];
	putptr(p, 0, &out);
	PjError e;
	CHECK_EQ_INT(run(&k, 1, 1, 1, 64, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
	CHECK_EQ_INT(out, 63);
	CHECK_EQ_INT(run(&k, 1, 1, 1, 64, 1, 1, 0, p, PJ_SIM_RACE, &e), PJ_SIM_RACE_FOUND);
	CHECK_STR_CONTAINS(e.msg, "this thread writes byte 0 of shared array 'flag' that thread (0, 0, 0) "
	                          "wrote at race.py:6");
	CHECK_STR_CONTAINS(e.msg, "at race.py:6, in kernel 'last_wins', thread (1, 0, 0) of block (0, 0, 0)");
	drop(&k);

	/* a read of a neighbour's slot with no barrier: thread 0 reads sm[1]
	 * (in the unchecked run it sees thread 1's value from no barrier) and
	 * thread 1 then writes it */
	if (!build(uninit_ir, &k)) {
		CHECK(0);
		return;
	}
	/* write sm[t] for all, bar, read sm[t+1]: correct */
	float o[256];
	unsigned char q[24];
	putptr(q, 0, o);
	put64(q, 8, 256);
	put64(q, 16, 1);
	CHECK_EQ_INT(run(&k, 1, 1, 1, 256, 1, 1, 0, q, PJ_SIM_RACE | PJ_SIM_UNINIT, &e), PJ_SIM_OK);
	drop(&k);

	static const char *war =
		"kernel neighbour\n"
		"parambytes 0\n"
		"array 0 shared 256 align 4 name \"sm\"\n"
		"loc 0 \"n.py\" 4 5\n"
		"loc 1 \"n.py\" 5 5\n"
		"@b0\n"
		"  %tx =w sreg tid.x\n"
		"  %t =l cvt.i64 i32 %tx\n"
		"  %sm =l addr 0\n"
		"  %o =l mul i64 %t, 4\n"
		"  %ps =l add i64 %sm, %o\n"
		"  %pn =l add i64 %ps, 4\n"
		"  %v =w load.shared i32 %pn !0\n"
		"  store.shared i32 %ps, %tx !1\n"
		"  ret\n";
	if (!build(war, &k)) {
		CHECK(0);
		return;
	}
	CHECK_EQ_INT(run(&k, 1, 1, 1, 8, 1, 1, 0, NULL, PJ_SIM_RACE, &e), PJ_SIM_RACE_FOUND);
	CHECK_STR_CONTAINS(e.msg, "this thread writes byte 4 of shared array 'sm' that thread (0, 0, 0) "
	                          "read at n.py:4");
	CHECK_STR_CONTAINS(e.msg, "thread (1, 0, 0) of block (0, 0, 0)");
	drop(&k);
}

/* thread 0 waits for a flag that thread 1 sets: endless, one at a time */
TEST(endless_loop)
{
	static const char *ir =
		"kernel spin\n"
		"parambytes 8\n"
		"param 0 u64 arg0 data\n"
		"loc 0 \"spin.py\" 9 9\n"
		"@b0\n"
		"  %tx =w sreg tid.x\n"
		"  %p =l param 0 u64\n"
		"  %c =b cmp.eq i32 %tx, 1\n"
		"  jnz %c @set @wait\n"
		"@set\n"
		"  store.global i32 %p, 1\n"
		"  ret\n"
		"@wait\n"
		"  %v =w load.global i32 %p !0\n"
		"  %z =b cmp.eq i32 %v, 0 !0\n"
		"  jnz %z @wait @done\n"
		"@done\n"
		"  ret\n";
	PjKernel k;
	if (!build(ir, &k)) {
		CHECK(0);
		return;
	}
	int32_t flag = 0;
	unsigned char p[8];
	putptr(p, 0, &flag);
	PjError e;
	setenv("PTXJIT_SIM_LOOP_LIMIT", "100000", 1);
	CHECK_EQ_INT(run(&k, 1, 1, 1, 2, 1, 1, 0, p, 0, &e), PJ_SIM_DEADLOCK);
	CHECK_STR_CONTAINS(e.msg, "a loop ran 100000 times without reaching a barrier or returning");
	CHECK_STR_CONTAINS(e.msg, "at spin.py:9, in kernel 'spin', thread (0, 0, 0) of block (0, 0, 0)");
	unsetenv("PTXJIT_SIM_LOOP_LIMIT");
	flag = 1;
	CHECK_EQ_INT(run(&k, 1, 1, 1, 2, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
	drop(&k);
}

TEST(bad_launches)
{
	PjKernel k;
	memset(&k, 0, sizeof k);
	PjError e;
	CHECK_EQ_INT(run(&k, 1, 1, 1, 1, 1, 1, 0, NULL, 0, &e), PJ_SIM_BAD);
	CHECK_STR_CONTAINS(e.msg, "without its simulator program");
	if (!build(vadd_ir, &k)) {
		CHECK(0);
		return;
	}
	unsigned char p[56] = {0};
	CHECK_EQ_INT(run(&k, 1, 1, 1, 2048, 1, 1, 0, p, 0, &e), PJ_SIM_BAD);
	CHECK_STR_CONTAINS(e.msg, "invalid block dimensions (2048, 1, 1)");
	CHECK_EQ_INT(run(&k, 0, 1, 1, 32, 1, 1, 0, p, 0, &e), PJ_SIM_BAD);
	CHECK_EQ_INT(run(&k, 1, 1, 1, 32, 1, 1, 1 << 20, p, 0, &e), PJ_SIM_BAD);
	CHECK_STR_CONTAINS(e.msg, "shared memory");
	CHECK_EQ_INT(run(&k, 1, 1, 1, 32, 1, 1, 0, NULL, 0, &e), PJ_SIM_BAD);
	drop(&k);
}

/* ------------------------------------------- compiled from Python */

static int resolve(void *data, const char *name, PjValue *out, PjArena *a)
{
	(void)data;
	(void)a;
	if (!strcmp(name, "cuda") || !strcmp(name, "np") || !strcmp(name, "math")) {
		out->kind = PJ_V_MODULE;
		out->s = !strcmp(name, "np") ? "numpy" : name;
		return 1;
	}
	if (!strcmp(name, "TPB")) {
		out->kind = PJ_V_INT;
		out->i = 256;
		return 1;
	}
	return 0;
}

/* The source starts at line 1 of "kernel.py". */
static PjKernel *compile_py(const char *src, const char *name, const char *sig)
{
	PjFunc f = {.name = name, .source = src, .file = "kernel.py", .first_line = 1, .resolve = resolve};
	PjOptions o = {.arch = 90, .opt_level = 1, .sim = 1};
	PjKernel *k;
	PjError e;
	if (pj_compile(&f, sig, &o, &k, &e) != PJ_OK) {
		printf("compile error: %s\n", e.msg);
		return NULL;
	}
	return k;
}

/* Fills the parameter buffer for 1-D C-contiguous arrays and scalars:
 * arrays[arg] (NULL for a scalar: scalars[arg]), n[arg] elements. */
static void fill_params(const PjKernel *k, unsigned char *buf, void *const *arrays, const int64_t *n,
                        const double *scalars)
{
	memset(buf, 0, (size_t)k->param_bytes);
	for (int i = 0; i < k->nparams; i++) {
		const PjParam *p = &k->params[i];
		if (p->role == KP_DATA)
			putptr(buf, p->off, arrays[p->arg]);
		else if (p->role == KP_SHAPE)
			put64(buf, p->off, (uint64_t)n[p->arg]);
		else if (p->role == KP_SCALAR && p->ty == SK_I64)
			put64(buf, p->off, (uint64_t)(int64_t)scalars[p->arg]);
		else if (p->role == KP_SCALAR && p->ty == SK_F64)
			put64(buf, p->off, f64bits(scalars[p->arg]));
	}
}

static const char *py_add =
	"@cuda.jit\n"
	"def add_kernel(a, b, out):\n"
	"    i = cuda.grid(1)\n"
	"    if i < out.size:\n"
	"        out[i] = a[i] + b[i]\n"
	"\n"
	"@cuda.jit\n"
	"def add_unguarded(a, b, out):\n"
	"    i = cuda.grid(1)\n"
	"    out[i] = a[i] + b[i]\n";

TEST(python_vector_add)
{
	PjKernel *k = compile_py(py_add, "add_kernel", "float32[::1], float32[::1], float32[::1]");
	if (!k) {
		CHECK(0);
		return;
	}
	int n = 1 << 20;
	float *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n), *o = malloc(sizeof *o * n);
	for (int i = 0; i < n; i++) {
		a[i] = (float)i * 0.25f;
		b[i] = 3.0f - (float)i;
		o[i] = 0;
	}
	unsigned char p[256];
	void *arr[3] = {a, b, o};
	int64_t ns[3] = {n, n, n};
	fill_params(k, p, arr, ns, NULL);
	PjError e;
	double t0 = now();
	int rc = run(k, (unsigned)n / 256, 1, 1, 256, 1, 1, 0, p, 0, &e);
	double t1 = now();
	CHECK_EQ_INT(rc, PJ_SIM_OK);
	int bad = 0;
	for (int i = 0; i < n; i++)
		if (o[i] != a[i] + b[i])
			bad++;
	CHECK_EQ_INT(bad, 0);
	printf("  compiled vector add of 2^20 float32 (4096 x 256 threads): %.1f ms\n", (t1 - t0) * 1e3);
	pj_kernel_free(k);

	/* without the guard, the threads past the end fail at a[i] (line 10) */
	k = compile_py(py_add, "add_unguarded", "float32[::1], float32[::1], float32[::1]");
	if (!k) {
		CHECK(0);
		return;
	}
	ns[0] = ns[1] = ns[2] = 1000;
	fill_params(k, p, arr, ns, NULL);
	rc = run(k, 4, 1, 1, 256, 1, 1, 0, p, 0, &e);
	CHECK_EQ_INT(rc, PJ_SIM_INDEX);
	CHECK_STR_CONTAINS(e.msg, "index 1000 is out of bounds for axis 0 with size 1000 in array 'a' of "
	                          "shape (1000,)\n  at kernel.py:10, in kernel 'add_unguarded', "
	                          "thread (232, 0, 0) of block (3, 0, 0)");
	CHECK_EQ_INT(e.line, 10);
	pj_kernel_free(k);
	free(a);
	free(b);
	free(o);
}

static const char *py_reduce =
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
	"        out_array[cuda.blockIdx.x] = shared[0]\n"
	"\n"
	"@cuda.jit\n"
	"def half_sync(out):\n"
	"    if cuda.threadIdx.x < 16:\n"
	"        cuda.syncthreads()\n"
	"    out[0] = 1\n"
	"\n"
	"@cuda.jit\n"
	"def racy(out):\n"
	"    s = cuda.shared.array(1, np.int32)\n"
	"    s[0] = cuda.threadIdx.x\n"
	"    cuda.syncthreads()\n"
	"    out[0] = s[0]\n"
	"\n"
	"@cuda.jit\n"
	"def gpu_reduce(in_array, out_array):\n"
	"    thread_id = cuda.grid(1)\n"
	"    stride = cuda.gridsize(1)\n"
	"    temp_sum = 0.0\n"
	"    for i in range(thread_id, in_array.shape[0], stride):\n"
	"        temp_sum += in_array[i]\n"
	"    cuda.atomic.add(out_array, 0, temp_sum)\n";

TEST(python_reduction)
{
	PjKernel *k = compile_py(py_reduce, "reduce_kernel", "float32[::1], float32[::1]");
	if (!k) {
		CHECK(0);
		return;
	}
	int n = 1 << 20, nb = n / 256;
	float *a = malloc(sizeof *a * n), *o = calloc((size_t)nb, sizeof *o), *ref = malloc(sizeof *ref * nb);
	for (int i = 0; i < n; i++)
		a[i] = (float)(i % 1013) * 0.01f;
	for (int blk = 0; blk < nb; blk++) {
		float s[256];
		memcpy(s, a + blk * 256, sizeof s);
		for (int w = 128; w > 0; w /= 2)
			for (int t = 0; t < w; t++)
				s[t] = s[t] + s[t + w];
		ref[blk] = s[0];
	}
	unsigned char p[256];
	void *arr[2] = {a, o};
	int64_t ns[2] = {n, nb};
	fill_params(k, p, arr, ns, NULL);
	PjError e;
	for (int check = 0; check <= 3; check += 3) {
		double t0 = now();
		int rc = run(k, (unsigned)nb, 1, 1, 256, 1, 1, 0, p, check, &e);
		double t1 = now();
		CHECK_EQ_INT(rc, PJ_SIM_OK);
		if (rc)
			printf("%s\n", e.msg);
		int bad = 0;
		for (int i = 0; i < nb; i++)
			if (f32bits(o[i]) != f32bits(ref[i]))
				bad++;
		CHECK_EQ_INT(bad, 0);
		printf("  compiled shared-memory reduction of 2^20 float32%s: %.1f ms\n",
		       check ? " (race and uninit checks)" : "", (t1 - t0) * 1e3);
	}
	/* 128 threads of 256 per block: shared[tx + i] reads slots nobody wrote */
	int rc = run(k, 2, 1, 1, 128, 1, 1, 0, p, PJ_SIM_UNINIT, &e);
	CHECK_EQ_INT(rc, PJ_SIM_UNINIT_READ);
	CHECK_STR_CONTAINS(e.msg, "read of uninitialised shared memory: byte 512 of shared array '");
	CHECK_STR_CONTAINS(e.msg, "' was not written by any thread of block (0, 0, 0) before this read");
	CHECK_STR_CONTAINS(e.msg, "at kernel.py:13, in kernel 'reduce_kernel', thread (0, 0, 0)");
	pj_kernel_free(k);

	int32_t out[1] = {0};
	void *arr1[1] = {out};
	int64_t n1[1] = {1};
	k = compile_py(py_reduce, "half_sync", "int32[::1]");
	if (k) {
		fill_params(k, p, arr1, n1, NULL);
		CHECK_EQ_INT(run(k, 1, 1, 1, 32, 1, 1, 0, p, 0, &e), PJ_SIM_DEADLOCK);
		CHECK_STR_CONTAINS(e.msg, "barrier at kernel.py:23 reached by 16 of 32 threads of block "
		                          "(0, 0, 0); the others returned");
		pj_kernel_free(k);
	} else
		CHECK(0);

	k = compile_py(py_reduce, "racy", "int32[::1]");
	if (k) {
		fill_params(k, p, arr1, n1, NULL);
		CHECK_EQ_INT(run(k, 1, 1, 1, 32, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
		CHECK_EQ_INT(out[0], 31);
		CHECK_EQ_INT(run(k, 1, 1, 1, 32, 1, 1, 0, p, PJ_SIM_RACE, &e), PJ_SIM_RACE_FOUND);
		CHECK_STR_CONTAINS(e.msg, "race on shared memory: this thread writes byte 0 of shared array '");
		CHECK_STR_CONTAINS(e.msg, "' that thread (0, 0, 0) wrote at kernel.py:29 with no "
		                          "cuda.syncthreads() between them\n  at kernel.py:29, in kernel 'racy', "
		                          "thread (1, 0, 0) of block (0, 0, 0)");
		pj_kernel_free(k);
	} else
		CHECK(0);

	/* grid-stride sums added atomically, in the simulator's thread order */
	k = compile_py(py_reduce, "gpu_reduce", "float32[::1], float32[::1]");
	if (k) {
		float sum[1] = {0};
		void *arr2[2] = {a, sum};
		int64_t n2[2] = {4096, 1};
		fill_params(k, p, arr2, n2, NULL);
		CHECK_EQ_INT(run(k, 4, 1, 1, 256, 1, 1, 0, p, 0, &e), PJ_SIM_OK);
		float want = 0;
		for (int t = 0; t < 1024; t++) {
			double s = 0.0;
			for (int i = t; i < 4096; i += 1024)
				s += a[i];
			want = want + (float)s;
		}
		CHECK(f32bits(sum[0]) == f32bits(want));
		pj_kernel_free(k);
	} else
		CHECK(0);
	free(a);
	free(o);
	free(ref);
}

int main(void)
{
	RUN(vector_add);
	RUN(out_of_bounds);
	RUN(out_of_bounds_2d);
	RUN(negative_index);
	RUN(reduction);
	RUN(atomics_float);
	RUN(atomics_int);
	RUN(atomics_many_threads);
	RUN(integer_semantics);
	RUN(float_semantics);
	RUN(no_contraction);
	RUN(conversions);
	RUN(phi_swap);
	RUN(special_registers);
	RUN(local_const_dynamic);
	RUN(memory_kinds);
	RUN(trap);
	RUN(deadlock);
	RUN(uninitialised_shared);
	RUN(races);
	RUN(endless_loop);
	RUN(bad_launches);
	RUN(python_vector_add);
	RUN(python_reduction);
	return check_summary("sim");
}

/*
 * test_opt.c - the loop and range passes: range, unroll, licm, sr, nc,
 * sched.
 *
 * Each test parses a function in the IR's text form (docs/ir.md), runs a
 * pass followed by the cleanup passes and the verifier, and checks the
 * text that results: what must have gone and what must have stayed.  The
 * passes' results being the same numbers as before is checked on real
 * kernels by tests/test_opt.py.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "check.h"

static Ctx ctx;
static PjOptions opts;

static Ctx *new_ctx(void)
{
	if (ctx.arena)
		arena_free(ctx.arena);
	memset(&ctx, 0, sizeof ctx);
	memset(&opts, 0, sizeof opts);
	ctx.arena = arena_new();
	ctx.opt = &opts;
	return &ctx;
}

static char *text_of(const Fn *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	ir_print(m, f);
	fclose(m);
	char *s = arena_strdup(ctx.arena, buf);
	free(buf);
	return s;
}

static int count(const char *s, const char *sub)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, sub)); p += strlen(sub))
		n++;
	return n;
}

static void clean(Fn *f)
{
	opt_fold(f);
	opt_copy(f);
	opt_dce(f);
}

/* Parses text, runs the passes (NULL-terminated) each followed by fold,
 * copy and dce, and returns the printed result (an error text when
 * something failed, which the checks then do not find what they want in). */
static const char *after(const char *text, void (*p1)(Fn *), void (*p2)(Fn *))
{
	jmp_buf jb;
	ctx.jmp = &jb;
	if (setjmp(jb))
		return arena_printf(ctx.arena, "ERROR %s", ctx.diag.msg);
	Fn *f = ir_parse(&ctx, text);
	ir_verify(f, "parse");
	if (p1) {
		p1(f);
		ir_verify(f, "pass 1");
		clean(f);
	}
	if (p2) {
		p2(f);
		ir_verify(f, "pass 2");
		clean(f);
	}
	ir_verify(f, "clean");
	return text_of(f);
}

/* ---------------------------------------------------------------- range */

static const char grid_index[] =
	"kernel k\n"
	"parambytes 16\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"@b0\n"
	"  %0 =l param 0 u64\n"
	"  %1 =l param 8 i64\n"
	"  %2 =w sreg tid.x\n"
	"  %3 =l cvt.i64 i32 %2\n"
	"  %20 =w sreg ctaid.x\n"
	"  %21 =l cvt.i64 i32 %20\n"
	"  %22 =w sreg ntid.x\n"
	"  %23 =l cvt.i64 i32 %22\n"
	"  %24 =l mul i64 %21, %23\n"
	"  %25 =l add i64 %3, %24\n"
	"  %4 =b cmp.lt i64 %25, %1\n"
	"  jnz %4 @b1 @b2\n"
	"@b1\n"
	"  %5 =b cmp.lt i64 %25, 0\n"
	"  %6 =l add i64 %25, %1\n"
	"  %7 =l sel i64 %5, %6, %25\n"
	"  %8 =l mul i64 %7, 4\n"
	"  %9 =l add i64 %0, %8\n"
	"  %10 =s load.global f32 %9\n"
	"  store.global f32 %9, %10\n"
	"  jmp @b2\n"
	"@b2\n"
	"  ret\n";

TEST(range_drops_the_wrap_of_a_grid_index)
{
	new_ctx();
	const char *s = after(grid_index, opt_range, NULL);
	CHECK(!strstr(s, "sel"));
	CHECK_EQ_INT(count(s, "cvt.i64 u32"), 3);
	CHECK_STR_CONTAINS(s, "cmp.lt i64 %25, %1");    /* the user's test stays */
}

static const char loop_index[] =
	"kernel k\n"
	"parambytes 24\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"param 16 i64 arg1 scalar\n"
	"@b0\n"
	"  %0 =l param 0 u64\n"
	"  %1 =l param 8 i64\n"
	"  %20 =l param 16 i64\n"
	"  jmp @b1\n"
	"@b1\n"
	"  %2 =l phi @b0 0, @b2 %8\n"
	"  %3 =b cmp.lt i64 %2, %1\n"
	"  jnz %3 @b2 @b3\n"
	"@b2\n"
	"  %4 =b cmp.lt i64 %2, 0\n"
	"  %5 =l add i64 %2, %1\n"
	"  %6 =l sel i64 %4, %5, %2\n"
	"  %7 =l mul i64 %6, 4\n"
	"  %9 =l add i64 %0, %7\n"
	"  store.global f32 %9, 1\n"
	"  %10 =b cmp.lt i64 %20, 0\n"          /* a scalar argument: may be negative */
	"  %11 =l add i64 %20, %1\n"
	"  %12 =l sel i64 %10, %11, %20\n"
	"  %13 =l mul i64 %12, 4\n"
	"  %14 =l add i64 %0, %13\n"
	"  store.global f32 %14, 2\n"
	"  %8 =l add i64 %2, 1\n"
	"  jmp @b1\n"
	"@b3\n"
	"  ret\n";

TEST(range_knows_a_counting_loop_and_not_a_scalar)
{
	new_ctx();
	const char *s = after(loop_index, opt_range, NULL);
	CHECK_EQ_INT(count(s, " sel "), 1);
	CHECK_STR_CONTAINS(s, "cmp.lt i64 %20, 0");
}

static const char dominated[] =
	"kernel k\n"
	"parambytes 24\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"param 16 i64 arg1 scalar\n"
	"@b0\n"
	"  %0 =l param 0 u64\n"
	"  %1 =l param 8 i64\n"
	"  %2 =l param 16 i64\n"
	"  %3 =b cmp.gt i64 %2, 0\n"
	"  jnz %3 @b1 @b2\n"
	"@b1\n"
	"  %4 =l sub i64 %2, 1\n"
	"  %5 =b cmp.lt i64 %4, 0\n"
	"  %6 =l add i64 %4, %1\n"
	"  %7 =l sel i64 %5, %6, %4\n"
	"  %8 =l div i64 %4, 2\n"
	"  %9 =l add i64 %7, %8\n"
	"  %10 =l mul i64 %9, 4\n"
	"  %11 =l add i64 %0, %10\n"
	"  store.global f32 %11, 1\n"
	"  jmp @b2\n"
	"@b2\n"
	"  ret\n";

TEST(range_uses_a_dominating_test)
{
	new_ctx();
	const char *s = after(dominated, opt_range, NULL);
	CHECK(!strstr(s, "sel"));
	CHECK_STR_CONTAINS(s, "div u64 %4, 2");   /* non-negative: unsigned, a shift in PTX */
}

static const char extent_test[] =
	"kernel k\n"
	"parambytes 16\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"@b0\n"
	"  %0 =l param 0 u64\n"
	"  %1 =l param 8 i64\n"
	"  %2 =b cmp.lt i64 %1, 2147483648\n"
	"  jnz %2 @b1 @b2\n"
	"@b1\n"
	"  store.global f32 %0, 1\n"
	"  jmp @b2\n"
	"@b2\n"
	"  ret\n";

TEST(range_small_extents_only_when_the_launch_says)
{
	new_ctx();
	const char *s = after(extent_test, opt_range, NULL);
	CHECK_STR_CONTAINS(s, "cmp.lt i64 %1, 2147483648");
	new_ctx();
	opts.small_extents = 1;
	s = after(extent_test, opt_range, NULL);
	CHECK(!strstr(s, "cmp"));
	CHECK(!strstr(s, "jnz"));
	CHECK_STR_CONTAINS(s, "store.global");
}

/* --------------------------------------------------------------- unroll */

static const char sum8[] =
	"kernel k\n"
	"parambytes 8\n"
	"param 0 u64 arg0 data\n"
	"@b0\n"
	"  %0 =l param 0 u64\n"
	"  jmp @b1\n"
	"@b1\n"
	"  %1 =l phi @b0 0, @b2 %5\n"
	"  %2 =s phi @b0 0, @b2 %6\n"
	"  %3 =b cmp.lt i64 %1, 8\n"
	"  jnz %3 @b2 @b3\n"
	"@b2\n"
	"  %4 =l mul i64 %1, 4\n"
	"  %7 =l add i64 %0, %4\n"
	"  %8 =s load.global f32 %7\n"
	"  %6 =s add f32 %2, %8\n"
	"  %5 =l add i64 %1, 1\n"
	"  jmp @b1\n"
	"@b3\n"
	"  store.global f32 %0, %2\n"
	"  ret\n";

TEST(unroll_constant_trip_count_fully)
{
	new_ctx();
	const char *s = after(sum8, opt_unroll, NULL);
	CHECK(!strstr(s, "phi"));
	CHECK(!strstr(s, "jnz"));
	CHECK_EQ_INT(count(s, "load.global"), 8);
	CHECK_EQ_INT(count(s, " add f32"), 8);
	CHECK_STR_CONTAINS(s, "add i64 %0, 28");       /* the last element's address, folded */
}

static const char halving[] =
	"kernel k\n"
	"parambytes 8\n"
	"param 0 u64 arg0 data\n"
	"@b0\n"
	"  %0 =l param 0 u64\n"
	"  jmp @b1\n"
	"@b1\n"
	"  %1 =l phi @b0 128, @b2 %5\n"
	"  %3 =b cmp.gt i64 %1, 0\n"
	"  jnz %3 @b2 @b3\n"
	"@b2\n"
	"  %4 =l mul i64 %1, 4\n"
	"  %7 =l add i64 %0, %4\n"
	"  store.global f32 %7, 1\n"
	"  bar\n"
	"  %5 =l div i64 %1, 2\n"
	"  jmp @b1\n"
	"@b3\n"
	"  ret\n";

TEST(unroll_a_halving_loop)
{
	new_ctx();
	const char *s = after(halving, opt_unroll, NULL);
	CHECK(!strstr(s, "phi"));
	CHECK_EQ_INT(count(s, "store.global"), 8);
	CHECK_EQ_INT(count(s, "bar"), 8);
	CHECK_STR_CONTAINS(s, "add i64 %0, 512");
	CHECK_STR_CONTAINS(s, "add i64 %0, 4\n");
}

/* 128 trips of a body too big to unroll fully: by 4, one test per 4 */
static const char sum128[] =
	"kernel k\n"
	"parambytes 8\n"
	"param 0 u64 arg0 data\n"
	"@b0\n"
	"  %0 =l param 0 u64\n"
	"  jmp @b1\n"
	"@b1\n"
	"  %1 =l phi @b0 0, @b2 %5\n"
	"  %2 =s phi @b0 0, @b2 %16\n"
	"  %3 =b cmp.lt i64 %1, 128\n"
	"  jnz %3 @b2 @b3\n"
	"@b2\n"
	"  %4 =l mul i64 %1, 4\n"
	"  %7 =l add i64 %0, %4\n"
	"  %8 =s load.global f32 %7\n"
	"  %9 =s mul f32 %8, %8\n"
	"  %10 =s mul f32 %9, %8\n"
	"  %11 =s mul f32 %10, %8\n"
	"  %12 =s sqrt f32 %11\n"
	"  %13 =s mul f32 %12, %9\n"
	"  %14 =s add f32 %13, %10\n"
	"  %15 =s add f32 %14, %11\n"
	"  %16 =s add f32 %2, %15\n"
	"  %5 =l add i64 %1, 1\n"
	"  jmp @b1\n"
	"@b3\n"
	"  store.global f32 %0, %2\n"
	"  ret\n";

TEST(unroll_partially_when_big)
{
	new_ctx();
	const char *s = after(sum128, opt_unroll, NULL);
	CHECK_EQ_INT(count(s, "load.global"), 4);
	CHECK_EQ_INT(count(s, "sqrt"), 4);
	CHECK_EQ_INT(count(s, "cmp.lt i64"), 1);
	CHECK_STR_CONTAINS(s, "cmp.lt i64 %1, 128");
	CHECK_EQ_INT(count(s, " phi "), 2);
}

TEST(unroll_leaves_a_runtime_count)
{
	new_ctx();
	/* a run-time count: four bodies per test of k < lim in a new loop
	 * (lim = the count rounded down to a multiple of 4), then the old
	 * loop, untouched, for the rest */
	const char *s = after(loop_index, opt_unroll, NULL);
	CHECK_EQ_INT(count(s, " phi "), 2);
	CHECK_EQ_INT(count(s, "store.global"), 2 * 5);
	CHECK(strstr(s, "and i64") && strstr(s, ", -4"));
}

/* ------------------------------------------------------------- licm, sr */

static const char matvec[] =
	"kernel k\n"
	"parambytes 32\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"param 16 i64 arg0 shape 1\n"
	"param 24 u64 arg1 data\n"
	"@b0\n"
	"  %0 =l param 0 u64\n"
	"  %1 =l param 8 i64\n"
	"  %2 =l param 16 i64\n"
	"  %3 =l param 24 u64\n"
	"  %4 =w sreg tid.x\n"
	"  %5 =l cvt.i64 u32 %4\n"
	"  jmp @b1\n"
	"@b1\n"
	"  %6 =l phi @b0 0, @b2 %14\n"
	"  %7 =s phi @b0 0, @b2 %13\n"
	"  %8 =b cmp.lt i64 %6, %1\n"
	"  jnz %8 @b2 @b3\n"
	"@b2\n"
	"  %9 =l mul i64 %6, %2\n"
	"  %10 =l add i64 %9, %5\n"
	"  %11 =l mul i64 %10, 4\n"
	"  %15 =l add i64 %0, %11\n"
	"  %12 =s load.global f32 %15\n"
	"  %20 =l mul i64 %2, %1\n"
	"  %13 =s add f32 %7, %12\n"
	"  %14 =l add i64 %6, 1\n"
	"  store.global i64 %3, %20\n"
	"  jmp @b1\n"
	"@b3\n"
	"  store.global f32 %3, %7\n"
	"  ret\n";

static const char *block_with(const char *s, const char *what)
{
	const char *p = strstr(s, what);
	if (!p)
		return "";
	const char *start = p;
	while (start > s && !(start[-1] == '\n' && start[0] == '@'))
		start--;
	const char *end = strstr(p, "\n@");
	return arena_strndup(ctx.arena, start, end ? (size_t)(end - start) : strlen(start));
}

TEST(licm_moves_invariants_to_the_preheader)
{
	new_ctx();
	const char *s = after(matvec, opt_licm, NULL);
	const char *entry = block_with(s, "sreg tid.x");
	CHECK_STR_CONTAINS(entry, "mul i64 %2, %1");
	CHECK(!strstr(block_with(s, "load.global"), "mul i64 %2, %1"));
	CHECK_STR_CONTAINS(block_with(s, "load.global"), "mul i64 %6, %2");
}

TEST(sr_takes_the_multiplications_out_of_the_loop)
{
	new_ctx();
	const char *s = after(matvec, opt_licm, opt_sr);
	const char *body = block_with(s, "load.global");
	CHECK(!strstr(body, " mul "));
	CHECK_EQ_INT(count(s, " phi "), 3);          /* the counter, the sum, the address */
	CHECK_STR_CONTAINS(body, "load.global f32 %");
}

/* ------------------------------------------------------------------- nc */

/* a kernel of two array arguments, up to its thread index %2 */
#define TWO_ARRAYS \
	"kernel k\n" \
	"parambytes 16\n" \
	"param 0 u64 arg0 data\n" \
	"param 8 u64 arg1 data\n" \
	"@b0\n" \
	"  %0 =l param 0 u64\n" \
	"  %1 =l param 8 u64\n" \
	"  %2 =w sreg tid.x\n"

static const char copy_kernel[] =
	TWO_ARRAYS
	"  %3 =l cvt.i64 u32 %2\n"
	"  %4 =l mul i64 %3, 4\n"
	"  %5 =l add i64 %0, %4\n"
	"  %6 =l add i64 %1, %4\n"
	"  %7 =s load.global f32 %5\n"
	"  %8 =s load.global f32 %6\n"
	"  %9 =s add f32 %7, %8\n"
	"  store.global f32 %6, %9\n"
	"  ret\n";

TEST(nc_marks_loads_of_read_only_arrays)
{
	new_ctx();
	const char *s = after(copy_kernel, opt_nc, NULL);
	CHECK(!strstr(s, ".nc"));                    /* the launch did not say noalias */
	new_ctx();
	opts.noalias = 1;
	s = after(copy_kernel, opt_nc, NULL);
	CHECK_STR_CONTAINS(s, "%7 =s load.global.nc f32 %5");
	CHECK_STR_CONTAINS(s, "%8 =s load.global f32 %6");
	/* the text form reads back */
	jmp_buf jb;
	ctx.jmp = &jb;
	if (setjmp(jb)) {
		CHECK(!"parse failed");
		return;
	}
	Fn *g = ir_parse(&ctx, s);
	CHECK(strcmp(text_of(g), s) == 0);
	char *ptx = ptx_emit(&ctx, g, 90, ptx_version_for(0, 90, 0));
	CHECK_EQ_INT(count(ptx, "ld.global.nc.f32"), 1);
	CHECK_EQ_INT(count(ptx, "ld.global.f32"), 1);
}

/* ---------------------------------------------------------------- sched */

static const char sqrt_then_load[] =
	TWO_ARRAYS
	"  %3 =w sreg ctaid.x\n"
	"  %4 =w sreg ntid.x\n"
	"  %5 =w mul i32 %3, %4\n"
	"  %6 =w add i32 %2, %5\n"
	"  %7 =l cvt.i64 u32 %6\n"
	"  %8 =l mul i64 %7, 8\n"
	"  %9 =l add i64 %0, %8\n"
	"  %10 =d load.global f64 %9\n"
	"  %11 =d sqrt f64 %10\n"
	"  %12 =l add i64 %1, %8\n"
	"  %13 =d load.global f64 %12\n"
	"  %14 =d add f64 %11, %13\n"
	"  store.global f64 %12, %14\n"
	"  %15 =d load.global f64 %12\n"
	"  store.global f64 %9, %15\n"
	"  ret\n";

static void with_checks(Fn *f)   /* a build with bounds checks */
{
	f->checked = 1;
}

static int at(const char *s, const char *what)
{
	const char *p = strstr(s, what);
	return p ? (int)(p - s) : -1;
}

TEST(sched_special_registers_then_loads_first)
{
	new_ctx();
	const char *s = after(sqrt_then_load, opt_sched, NULL);
	int ntid = at(s, "sreg ntid.x"), ctaid = at(s, "sreg ctaid.x"), tid = at(s, "sreg tid.x");
	CHECK(ntid >= 0 && ntid < ctaid && ctaid < tid);
	/* the second load passes the square root (only pure instructions
	 * lie between), the third stays after the store before it */
	int sq = at(s, "sqrt f64"), ld2 = at(s, "%13 =d load.global"), ld3 = at(s, "%15 =d load.global");
	int st = at(s, "store.global f64 %12");
	CHECK(tid < ld2 && ld2 < sq);
	CHECK(st >= 0 && st < ld3);
	/* with bounds checks (the simulator's build) nothing moves */
	new_ctx();
	const char *checked = after(sqrt_then_load, with_checks, NULL);
	CHECK(strcmp(after(sqrt_then_load, with_checks, opt_sched), checked) == 0);
}

int main(void)
{
	RUN(range_drops_the_wrap_of_a_grid_index);
	RUN(range_knows_a_counting_loop_and_not_a_scalar);
	RUN(range_uses_a_dominating_test);
	RUN(range_small_extents_only_when_the_launch_says);
	RUN(unroll_constant_trip_count_fully);
	RUN(unroll_a_halving_loop);
	RUN(unroll_partially_when_big);
	RUN(unroll_leaves_a_runtime_count);
	RUN(licm_moves_invariants_to_the_preheader);
	RUN(sr_takes_the_multiplications_out_of_the_loop);
	RUN(nc_marks_loads_of_read_only_arrays);
	RUN(sched_special_registers_then_loads_first);
	return check_summary("opt");
}

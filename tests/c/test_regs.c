/*
 * test_regs.c - ir_reg_estimate, the simulator's registers per thread: the
 * most 32-bit registers the values live at one point need (KW and KS one,
 * KL and KD two, KB none), on kernels written in the IR's text form
 * (docs/ir.md), with the counts worked out by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "check.h"

static Ctx ctx;

static int estimate(const char *text)
{
	jmp_buf jb;
	if (ctx.arena)
		arena_free(ctx.arena);
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = arena_new();
	ctx.jmp = &jb;
	if (setjmp(jb)) {
		printf("parse error: %s\n", ctx.diag.msg);
		return -1;
	}
	return ir_reg_estimate(ir_parse(&ctx, text));
}

#define HEAD "kernel k\nparambytes 16\nparam 0 u64 arg0 data\nparam 8 i64 arg1 scalar\n"

/* x[0] = a + b + c: the pointer (2), two loaded float32 values and the
 * third address (2) live together before the third load: 6 */
TEST(straight_line)
{
	CHECK_EQ_INT(estimate(HEAD "@b0\n"
	                      "  %0 =l param 0 u64\n"
	                      "  %1 =s load.global f32 %0\n  %2 =l add i64 %0, 4\n"
	                      "  %3 =s load.global f32 %2\n  %4 =l add i64 %0, 8\n"
	                      "  %5 =s load.global f32 %4\n"
	                      "  %6 =s add f32 %1, %3\n  %7 =s add f32 %6, %5\n"
	                      "  store.global f32 %0, %7\n  ret\n"), 6);
}

/* the same with float64: the pointer, two loaded values and the third
 * address live together (2 + 2 + 2 + 2) */
TEST(doubles_take_two)
{
	CHECK_EQ_INT(estimate(HEAD "@b0\n"
	                      "  %0 =l param 0 u64\n"
	                      "  %1 =d load.global f64 %0\n  %2 =l add i64 %0, 8\n"
	                      "  %3 =d load.global f64 %2\n  %4 =l add i64 %0, 16\n"
	                      "  %5 =d load.global f64 %4\n"
	                      "  %6 =d add f64 %1, %3\n  %7 =d add f64 %6, %5\n"
	                      "  store.global f64 %0, %7\n  ret\n"), 8);
}

/* a loop: the counter, the bound and the pointer stay live around the
 * back edge (2 + 2 + 2), the sum's phi (1) and the loaded value (1) */
TEST(loop_carried_values)
{
	CHECK_EQ_INT(estimate(HEAD "@b0\n"
	                      "  %0 =l param 0 u64\n  %1 =l param 8 i64\n  jmp @b1\n"
	                      "@b1\n"
	                      "  %2 =l phi @b0 0, @b2 %6\n  %3 =s phi @b0 0.0, @b2 %5\n"
	                      "  %8 =b cmp.lt i64 %2, %1\n  jnz %8 @b2 @b3\n"
	                      "@b2\n"
	                      "  %4 =s load.global f32 %0\n  %5 =s add f32 %3, %4\n"
	                      "  %6 =l add i64 %2, 1\n  jmp @b1\n"
	                      "@b3\n  store.global f32 %0, %3\n  ret\n"), 8);
}

/* nothing live still needs a register */
TEST(at_least_one)
{
	CHECK_EQ_INT(estimate(HEAD "@b0\n  ret\n"), 1);
}

int main(void)
{
	RUN(straight_line);
	RUN(doubles_take_two);
	RUN(loop_carried_values);
	RUN(at_least_one);
	return check_summary("regs");
}

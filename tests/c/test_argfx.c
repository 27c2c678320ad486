/*
 * test_argfx.c - ir_arg_effects: which array arguments a kernel reads and
 * writes, on kernels written in the IR's text form (docs/ir.md).  The
 * runtime copies a NumPy argument back only when its bit is set in the
 * written mask, so a missed store is a wrong answer: every case where the
 * walk cannot tell must come out as "everything".
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "check.h"

static Ctx ctx;

static Fn *parse(const char *text)
{
	jmp_buf jb;
	if (ctx.arena)
		arena_free(ctx.arena);
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = arena_new();
	ctx.jmp = &jb;
	if (setjmp(jb)) {
		printf("parse error: %s\n", ctx.diag.msg);
		return NULL;
	}
	return ir_parse(&ctx, text);
}

static int effects(const char *text, uint64_t *rd, uint64_t *wr)
{
	Fn *f = parse(text);
	if (!f)
		return -1;
	ir_arg_effects(f, rd, wr);
	return 0;
}

/* out[i] = x[i] + y[i] through a view of out (out[1:]), atomics on y */
TEST(vector_add_view_and_atomic)
{
	uint64_t rd, wr;
	CHECK(effects("kernel k\nparambytes 56\n"
	              "param 0 u64 arg0 data\nparam 8 i64 arg0 shape 0\n"
	              "param 16 u64 arg1 data\nparam 24 i64 arg1 shape 0\n"
	              "param 32 u64 arg2 data\nparam 40 i64 arg2 shape 0\n"
	              "param 48 i64 arg3 scalar\n"
	              "@b0\n"
	              "  %0 =l param 0 u64\n  %1 =l param 16 u64\n  %2 =l param 32 u64\n"
	              "  %3 =w sreg tid.x\n  %4 =l cvt.i64 i32 %3\n  %5 =l mul i64 %4, 4\n"
	              "  %6 =l add i64 %0, %5\n  %7 =s load.global f32 %6\n"
	              "  %8 =l add i64 %1, %5\n  %9 =s load.global f32 %8\n"
	              "  %10 =s add f32 %7, %9\n  %11 =l add i64 %2, 4\n  %12 =l add i64 %11, %5\n"
	              "  store.global f32 %12, %10\n"
	              "  %13 =s atom.add.global f32 %1, 1.0\n"
	              "  ret\n", &rd, &wr) == 0);
	CHECK_EQ_INT(rd, 0x3);
	CHECK_EQ_INT(wr, 0x6);
}

/* a store through a phi of two arrays may write either; a store into
 * shared memory writes no argument */
TEST(phi_of_arrays_and_shared_memory)
{
	uint64_t rd, wr;
	CHECK(effects("kernel k\nparambytes 32\n"
	              "param 0 u64 arg0 data\nparam 8 u64 arg1 data\n"
	              "param 16 u64 arg2 data\nparam 24 i64 arg3 scalar\n"
	              "array 0 shared 128 align 4\n"
	              "@b0\n"
	              "  %0 =l param 0 u64\n  %1 =l param 8 u64\n  %2 =l param 16 u64\n"
	              "  %3 =l param 24 i64\n  %4 =b cmp.gt i64 %3, 0\n"
	              "  %5 =l addr 0\n  %6 =s load.global f32 %2\n  store.shared f32 %5, %6\n"
	              "  jnz %4 @b1 @b2\n"
	              "@b1\n  jmp @b3\n@b2\n  jmp @b3\n"
	              "@b3\n  %7 =l phi @b1 %0, @b2 %1\n  %8 =s load.shared f32 %5\n"
	              "  store.global f32 %7, %8\n  ret\n", &rd, &wr) == 0);
	CHECK_EQ_INT(rd, 0x4);
	CHECK_EQ_INT(wr, 0x3);
}

/* an address that comes from no pointer the walk knows (here a loaded
 * integer) could be any array: all of them count as written */
TEST(unknown_address_means_everything)
{
	uint64_t rd, wr;
	CHECK(effects("kernel k\nparambytes 24\n"
	              "param 0 u64 arg0 data\nparam 8 u64 arg1 data\nparam 16 u64 arg2 data\n"
	              "@b0\n"
	              "  %0 =l param 0 u64\n  %1 =l load.global i64 %0\n"
	              "  store.global f32 %1, 1.0\n  ret\n", &rd, &wr) == 0);
	CHECK_EQ_INT(rd, 0x1);
	CHECK_EQ_INT(wr, 0x7);
}

/* a pointer handed to a called function may be read and written there;
 * an integer handed over (an extent) is not a pointer.  (The text form
 * has no called functions, so the two cargs are added by hand.) */
TEST(call_arguments)
{
	uint64_t rd, wr;
	Fn *f = parse("kernel k\nparambytes 24\n"
	              "param 0 u64 arg0 data\nparam 8 i64 arg0 shape 0\nparam 16 u64 arg1 data\n"
	              "@b0\n  %0 =l param 0 u64\n  %1 =l param 8 i64\n  ret\n");
	CHECK(f != NULL);
	if (!f)
		return;
	Blk *b = f->blk[0];
	Ins *ins = arena_alloc(ctx.arena, (size_t)(b->nins + 2) * sizeof *ins);
	memcpy(ins, b->ins, (size_t)b->nins * sizeof *ins);
	for (int k = 0; k < 2; k++) {
		Ins *c = &ins[b->nins + k];
		memset(c, 0, sizeof *c);
		c->op = O_CARG;
		c->cls = KL;
		c->ty = SK_I64;
		c->to = -1;
		c->loc = -1;
		c->arg[0] = REF_VAL(k);
		c->aux = k;
	}
	b->ins = ins;
	b->nins += 2;
	ir_arg_effects(f, &rd, &wr);
	CHECK_EQ_INT(rd, 0x1);
	CHECK_EQ_INT(wr, 0x1);
}

/* a kernel without arrays: nothing */
TEST(no_arrays)
{
	uint64_t rd = 1, wr = 1;
	CHECK(effects("kernel k\nparambytes 8\nparam 0 i64 arg0 scalar\n@b0\n  ret\n", &rd, &wr) == 0);
	CHECK_EQ_INT(rd, 0);
	CHECK_EQ_INT(wr, 0);
}

int main(void)
{
	RUN(vector_add_view_and_atomic);
	RUN(phi_of_arrays_and_shared_memory);
	RUN(unknown_address_means_everything);
	RUN(call_arguments);
	RUN(no_arrays);
	return check_summary("argfx");
}

/*
 * test_ir.c - the IR: builder, printer, parser, verifier and the passes
 * fold, copy, dce, split_edges and cse.
 *
 * Until the whole library links, build it alone:
 *   cc -std=c11 -D_GNU_SOURCE -g -Wall -Wextra -Wno-unused-parameter -Isrc \
 *     tests/c/test_ir.c src/base/arena.c src/base/err.c src/ir/ir.c src/ir/print.c \
 *     src/ir/irparse.c src/ir/verify.c src/opt/fold.c src/opt/copy.c src/opt/dce.c \
 *     src/opt/edges.c src/opt/cse.c -lm -o build/test_ir && build/test_ir
 * (`make build/test_ir` once libptxjit.a links.)
 */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "check.h"

static Ctx ctx;
static jmp_buf *cur_jb;

static Ctx *new_ctx(void)
{
	if (ctx.arena)
		arena_free(ctx.arena);
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = arena_new();
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

/* Parses text; NULL on an internal error (message in ctx.diag.msg). */
static Fn *parse(const char *text)
{
	jmp_buf jb;
	ctx.jmp = &jb;
	cur_jb = &jb;
	if (setjmp(jb))
		return NULL;
	return ir_parse(&ctx, text);
}

/* Runs pass (may be NULL) then the verifier; returns NULL if all went
 * well, else the error text. */
static const char *run(Fn *f, void (*pass)(Fn *), const char *name)
{
	jmp_buf jb;
	ctx.jmp = &jb;
	if (setjmp(jb))
		return ctx.diag.msg;
	if (pass)
		pass(f);
	ir_verify(f, name);
	return NULL;
}

static const char *verify_text(const char *text)
{
	Fn *f = parse(text);
	if (!f)
		return "parse failed";
	return run(f, NULL, "test");
}

/* print(parse(print(f))) == print(f) */
static int round_trips(const Fn *f)
{
	char *t1 = text_of(f);
	Fn *g = parse(t1);
	if (!g) {
		printf("reparse failed: %s\n%s", ctx.diag.msg, t1);
		return 0;
	}
	char *t2 = text_of(g);
	if (strcmp(t1, t2)) {
		printf("round trip differs:\n%s---\n%s", t1, t2);
		return 0;
	}
	return 1;
}

/* ------------------------------------------------------------- builder */

TEST(builder_constants_dedup)
{
	new_ctx();
	Fn *f = ir_new_fn(&ctx, "k");
	Ref a = ir_con_int(f, KW, 5), b = ir_con_int(f, KW, 5), c = ir_con_int(f, KL, 5);
	CHECK(ref_eq(a, b));
	CHECK(!ref_eq(a, c));
	/* KW keeps 32 bits, sign-extended: 0xffffffff and -1 are one constant */
	CHECK(ref_eq(ir_con_int(f, KW, 0xffffffffLL), ir_con_int(f, KW, -1)));
	CHECK_EQ_INT(f->con[ir_con_int(f, KW, 0xffffffffLL).idx].i, -1);
	CHECK(ref_eq(ir_con_bool(f, 7), ir_con_bool(f, 1)));
	/* floats by bits: -0.0 and 0.0 differ, equal NaNs are one */
	CHECK(!ref_eq(ir_con_f64(f, 0.0), ir_con_f64(f, -0.0)));
	CHECK(ref_eq(ir_con_f32(f, 1.5f), ir_con_f32(f, 1.5f)));
	CHECK(!ref_eq(ir_con_f32(f, 1.5f), ir_con_f64(f, 1.5)));
	CHECK_EQ_INT(ir_cls_of(f, ir_con_f32(f, 2)), KS);
	CHECK_EQ_INT(ir_cls_of_sk(SK_I8), KW);
	CHECK_EQ_INT(ir_cls_of_sk(SK_U64), KL);
	CHECK_EQ_INT(ir_cls_of_sk(SK_BOOL), KB);
	CHECK_EQ_INT(ir_cls_of_sk(SK_F64), KD);
}

/* A loop built with the builder: sum of a[i] for i < n. */
static Fn *build_loop(void)
{
	Fn *f = ir_new_fn(&ctx, "sum_kernel");
	Blk *b0 = ir_new_blk(f), *b1 = ir_new_blk(f), *b2 = ir_new_blk(f), *b3 = ir_new_blk(f);
	Span sp = {0};
	f->cur_loc = ir_add_loc(f, sp);
	Ref p = ir_ins(f, b0, O_PARAM, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, 0);
	Ref n = ir_ins(f, b0, O_PARAM, KL, SK_I64, REF_NONE, REF_NONE, REF_NONE, 8);
	f->val[n.idx].name = "n";
	ir_jmp(b0, b1->id);
	int iv = ir_add_phi(f, b1, KL, 2)->to;
	int sv = ir_add_phi(f, b1, KS, 2)->to;
	Ref c = ir_ins(f, b1, O_CMP, KB, SK_I64, REF_VAL(iv), n, REF_NONE, CC_LT);
	ir_jnz(b1, c, b2->id, b3->id);
	Ref o = ir_ins(f, b2, O_SHL, KL, SK_I64, REF_VAL(iv), ir_con_int(f, KW, 2), REF_NONE, 0);
	Ref ad = ir_ins(f, b2, O_ADD, KL, SK_U64, p, o, REF_NONE, 0);
	Ref x = ir_ins(f, b2, O_LOAD, KS, SK_F32, ad, REF_NONE, REF_NONE, SP_GLOBAL);
	Ref s2 = ir_ins(f, b2, O_ADD, KS, SK_F32, REF_VAL(sv), x, REF_NONE, 0);
	Ref i2 = ir_ins(f, b2, O_ADD, KL, SK_I64, REF_VAL(iv), ir_con_int(f, KL, 1), REF_NONE, 0);
	ir_jmp(b2, b1->id);
	ir_ins(f, b3, O_STORE, KS, SK_F32, p, REF_VAL(sv), REF_NONE, SP_GLOBAL);
	ir_ret(b3);
	/* phi arguments in the order of the preds as the builder adds them */
	ir_add_pred(f, b1, b2->id);
	ir_add_pred(f, b1, b0->id);
	b1->phi[0].arg[0] = i2;
	b1->phi[0].arg[1] = ir_con_int(f, KL, 0);
	b1->phi[1].arg[0] = s2;
	b1->phi[1].arg[1] = ir_con_f32(f, 0);
	ir_fill_preds(f);
	return f;
}

TEST(builder_loop_prints_and_verifies)
{
	new_ctx();
	Fn *f = build_loop();
	const char *err = run(f, NULL, "build");
	CHECK(err == NULL);
	if (err)
		printf("%s", err);
	char *t = text_of(f);
	CHECK_STR_CONTAINS(t, "kernel sum_kernel\n");
	CHECK_STR_CONTAINS(t, "  %1.n =l param 8 i64 !0\n");
	/* ir_fill_preds put @b0 first and moved the phi arguments along */
	CHECK_STR_CONTAINS(t, "  %2 =l phi @b0 0, @b2 %9\n");
	CHECK_STR_CONTAINS(t, "  %3 =s phi @b0 0.0, @b2 %8\n");
	CHECK_STR_CONTAINS(t, "  %4 =b cmp.lt i64 %2, %1 !0\n");
	CHECK_STR_CONTAINS(t, "  jnz %4 @b2 @b3\n");
	CHECK_STR_CONTAINS(t, "  %5 =l shl i64 %2, w_2 !0\n");
	CHECK_STR_CONTAINS(t, "  %7 =s load.global f32 %6 !0\n");
	CHECK_STR_CONTAINS(t, "  store.global f32 %0, %3 !0\n");
	CHECK(round_trips(f));
}

TEST(rpo_drops_unreachable_and_keeps_phi_pairs)
{
	new_ctx();
	Fn *f = parse(
		"kernel k\n"
		"@b0\n"
		"  %0 =l param 0 i64\n"
		"  %1 =b cmp.eq i64 %0, 3\n"
		"  jnz %1 @b3 @b1\n"
		"@b1\n"
		"  jmp @b3\n"
		"@dead\n"
		"  jmp @b3\n"
		"@b3\n"
		"  %2 =l phi @b0 10, @b1 20, @dead 30\n"
		"  store.global i64 %0, %2\n"
		"  ret\n");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(f->nblk, 4);
	ir_fill_rpo(f);
	CHECK_EQ_INT(f->nblk, 3);
	CHECK(run(f, NULL, "rpo") == NULL);
	char *t = text_of(f);
	/* entry, then the s1-side successor is visited last and comes next */
	CHECK_STR_CONTAINS(t, "@b0\n  %0 =l param 0 i64\n  %1 =b cmp.eq i64 %0, 3\n  jnz %1 @b2 @b1\n"
	                      "@b1\n  jmp @b2\n@b2\n  %2 =l phi @b0 10, @b1 20\n");
	CHECK_EQ_INT(f->val[2].blk, 2);
}

/* -------------------------------------------------------- text form */

static const char *full_text =
	"kernel add_kernel   # a comment\n"
	"checked\n"
	"parambytes 24\n"
	"param 0 u64 arg0 data\n"
	"param 8 i64 arg0 shape 0\n"
	"param 16 f32 arg1 scalar\n"
	"array 0 shared 16 align 8 name \"sA\"\n"
	"array 1 const 4 align 4 name \"c\\n\\\"x\" init 0000c03f\n"
	"array 2 shared 0 align 16 dynamic\n"
	"loc 0 \"k.py\" 3 5\n"
	"check 0 array \"a\" axis 0 ndim 1 ext %n loc 0\n"
	"check 1 axis 0 ndim 0 loc -1 msg \"AssertionError: boom\"\n"
	"@start\n"
	"  %base =l param 0 u64\n"
	"  %n =l param 8 i64\n"
	"  %x =w sreg tid.x\n"
	"  %xl =l cvt.i64 i32 %x\n"
	"  %sa =l addr 0\n"
	"  jmp @loop\n"
	"@loop\n"
	"  %i =l phi @body %i2, @start 0\n"
	"  %c =b cmp.lt i64 %i, %n\n"
	"  jnz %c, @body, @done\n"
	"@body\n"
	"  check 0 %i, %n !0\n"
	"  %o =l shl i64 %i, w_2\n"
	"  %ad =l add u64 %base, %o\n"
	"  %v =s load.global f32 %ad\n"
	"  %v2 =s fma f32 %v, 1.5, -0.0\n"
	"  %v3 =s add f32 %v2, 0.1\n"
	"  %v4 =d cvt.f64 f32 %v3\n"
	"  %v5 =d add f64 %v4, 0x7ff8000000000001\n"
	"  %v6 =s add f32 %v3, s_nan\n"
	"  %v7 =s add f32 %v6, -inf\n"
	"  %q =l bits f64 %v5\n"
	"  %r =w atom.cas.shared i32 %ad, 1, 2\n"
	"  %r2 =w atom.add.global i32 %ad, w_1\n"
	"  membar.gl\n"
	"  bar\n"
	"  store.global f32 %ad, %v7\n"
	"  %i2 =l add i64 %i, 1\n"
	"  %s =w sel i32 %c, 1, 2\n"
	"  jmp @loop\n"
	"@done\n"
	"  trap 1\n"
	"  ret\n";

TEST(text_round_trip_full)
{
	new_ctx();
	Fn *f = parse(full_text);
	CHECK(f != NULL);
	if (!f) {
		printf("%s", ctx.diag.msg);
		return;
	}
	CHECK(run(f, NULL, "parse") == NULL);
	CHECK(round_trips(f));
	char *t = text_of(f);
	CHECK_STR_CONTAINS(t, "array 1 const 4 align 4 name \"c\\n\\\"x\" init 0000c03f\n");
	CHECK_STR_CONTAINS(t, "check 0 array \"a\" axis 0 ndim 1 ext %0 loc 0\n");
	CHECK_STR_CONTAINS(t, "%11.v2 =s fma f32 %10, 1.5, -0.0\n");
	CHECK_STR_CONTAINS(t, "0x7ff8000000000001\n");
	CHECK_STR_CONTAINS(t, "add f32 %12, 0x7fc00000\n");
	CHECK_STR_CONTAINS(t, "-inf\n");
	CHECK_STR_CONTAINS(t, "atom.cas.shared i32 %9, 1, 2\n");
	CHECK_STR_CONTAINS(t, "atom.add.global i32 %9, 1\n");
	CHECK_STR_CONTAINS(t, "  %5.i =l phi @b0 0, @b2 %6\n");
	CHECK_EQ_INT(f->narrays, 3);
	CHECK_EQ_INT(f->arrays[2].dynamic, 1);
	CHECK_EQ_INT(((const unsigned char *)f->arrays[1].init)[3], 0x3f);
	CHECK_EQ_INT(f->param[1].role, KP_SHAPE);
	CHECK_EQ_INT(f->param[2].off, 16);
	CHECK(f->checked);
	CHECK(strcmp(f->checks[1].msg, "AssertionError: boom") == 0);
	CHECK(strcmp(f->arrays[1].name, "c\n\"x") == 0);
}

/* a constant table in global memory (math tables read at many indices):
 * the flag survives the text form, loads from it are global, and only
 * constant arrays may carry it */
TEST(text_global_table)
{
	new_ctx();
	Fn *f = parse("kernel k\nparambytes 0\n"
	              "array 0 const 8 align 16 global name \"__pj_t\" init 000000000000f03f\n"
	              "@b0\n  %a =l addr 0\n  %v =d load.global f64 %a\n  ret\n");
	CHECK(f != NULL);
	if (!f) {
		printf("%s", ctx.diag.msg);
		return;
	}
	CHECK_EQ_INT(f->arrays[0].global, 1);
	CHECK(round_trips(f));
	CHECK_STR_CONTAINS(text_of(f), "array 0 const 8 align 16 global name \"__pj_t\" init");
	new_ctx();
	CHECK(parse("kernel k\nparambytes 0\narray 0 shared 8 align 8 global\n@b0\n  ret\n") == NULL);
	CHECK_STR_CONTAINS(ctx.diag.msg, "only constant arrays can be global");
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

TEST(text_floats_round_trip_bit_exactly)
{
	new_ctx();
	Fn *f = ir_new_fn(&ctx, "k");
	Blk *b = ir_new_blk(f);
	Ref p = ir_ins(f, b, O_PARAM, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, 0);
	static uint64_t bits[2000];
	int n = 0;
	double specials[] = {0.0, -0.0, 1.0, 0.1, 1e-310, 5e-324, 1.7976931348623157e308, INFINITY, -INFINITY, NAN};
	for (int k = 0; k < 10; k++)
		memcpy(&bits[n++], &specials[k], 8);
	while (n < 1000)
		bits[n++] = next_rand();
	for (int k = 0; k < n; k++) {
		double d;
		float s;
		uint32_t w = (uint32_t)bits[k];
		memcpy(&d, &bits[k], 8);
		memcpy(&s, &w, 4);
		ir_ins(f, b, O_STORE, KD, SK_F64, p, ir_con_f64(f, d), REF_NONE, SP_GLOBAL);
		ir_ins(f, b, O_STORE, KS, SK_F32, p, ir_con_f32(f, s), REF_NONE, SP_GLOBAL);
	}
	ir_ret(b);
	Fn *g = parse(text_of(f));
	CHECK(g != NULL);
	if (!g)
		return;
	int bad = 0;
	for (int k = 0; k < b->nins; k++) {
		Con *x = &f->con[b->ins[k].arg[1].idx], *y = &g->con[g->blk[0]->ins[k].arg[1].idx];
		if (x->cls != y->cls || (x->cls == KS ? memcmp(&x->s, &y->s, 4) : memcmp(&x->d, &y->d, 8)))
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	CHECK(round_trips(f));
}

TEST(text_numeric_spaces_and_plain_labels)
{
	new_ctx();
	Fn *f = parse("kernel k\n@entry\n  %3 =l param 8 u64\n  %4 =l add u64 %3, 4\n"
	              "  %5 =s load.1 f32 %4\n  store.3 f32 %3, %5\n  %7 =b cmp.lt i64 %3, 100\n"
	              "  jnz %7 @body @out\n@body\n  jmp @out\n@out\n  %9 =l phi @entry %3, @body %4\n"
	              "  store.global i64 %3, %9\n  ret\n");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(run(f, NULL, "parse") == NULL);
	char *t = text_of(f);
	CHECK_STR_CONTAINS(t, "  %5 =s load.global f32 %4\n  store.shared f32 %3, %5\n");
	CHECK_STR_CONTAINS(t, "  %9 =l phi @b0 %3, @b1 %4\n");
	CHECK_EQ_INT(f->nval, 10);
}

TEST(text_errors_are_reported_not_crashes)
{
	const char *bad[] = {
		"kernel k\n@b0\n  %0 =l frob i64 1, 2\n  ret\n",
		"kernel k\n@b0\n  jmp @nowhere\n",
		"kernel k\n@b0\n  %0 =l add i64 1\n  ret\n",
		"kernel k\n@b0\n  %0 =l add i64 1, 2, 3\n  ret\n",
		"kernel k\n@b0\n  %0 =l add i64 1, 2\n  ret\n  ret\n",
		"kernel k\nloc 0 \"unterminated\n@b0\n  ret\n",
		"kernel k\n@b0\n  %0 =l param 0 i64\n  %1 =l phi @b0 %0\n  ret\n",
		"kernel k\n@b0\n  %99999999999 =l param 0 i64\n  ret\n",
		"kernel k\n@b0\n  %0 =q param 0 i64\n  ret\n",
		"kernel k\n@b0\n  store.global f32 %0, 1.5x\n  ret\n",
		"kernel k\n@b0\n  %0 =l add i64 x_, 1\n  ret\n",
		"kernel k\nbogus line\n@b0\n  ret\n",
		"",
		"@",
		"kernel k\n@b0\n@b0\n",
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		new_ctx();
		Fn *f = parse(bad[k]);
		CHECK(f == NULL);
		if (!f)
			CHECK_STR_CONTAINS(ctx.diag.msg, "internal compiler error");
		else
			printf("accepted: %s\n", bad[k]);
	}
}

/* ---------------------------------------------------------- verifier */

static void expect_reject(const char *text, const char *sub)
{
	new_ctx();
	const char *e = verify_text(text);
	CHECK(e != NULL);
	if (e) {
		CHECK_STR_CONTAINS(e, "IR verification failed after test");
		CHECK_STR_CONTAINS(e, sub);
	}
}

TEST(verify_accepts_good_ir)
{
	new_ctx();
	CHECK(verify_text(full_text) == NULL);
}

TEST(verify_rejects_broken_ir)
{
	expect_reject("kernel k\n@b0\n  %0 =l add i64 %1, 1\n  ret\n", "never defined");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  %0 =l param 8 i64\n  ret\n", "defined twice");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n", "@b0, jump: block does not end with a jump");
	expect_reject("kernel k\n@b0\n  %1 =l add i64 %0, 1\n  %0 =l param 0 i64\n  ret\n",
	              "@b0, instruction 0 (%1 = add): uses %0 before its definition");
	/* a use in a block its definition does not dominate */
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  %1 =b cmp.eq i64 %0, 0\n  jnz %1 @b1 @b2\n"
	              "@b1\n  %2 =l add i64 %0, 1\n  jmp @b2\n@b2\n  store.global i64 %0, %2\n  ret\n",
	              "does not dominate");
	/* a phi argument must be available at the end of its predecessor */
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  %1 =b cmp.eq i64 %0, 0\n  jnz %1 @b1 @b2\n"
	              "@b1\n  %2 =l add i64 %0, 1\n  jmp @b3\n@b2\n  jmp @b3\n"
	              "@b3\n  %3 =l phi @b1 %0, @b2 %2\n  ret\n",
	              "does not dominate");
	/* classes */
	expect_reject("kernel k\n@b0\n  %0 =w param 0 i32\n  %1 =l add i64 %0, 1\n  ret\n",
	              "operand 0 has class w, expected l");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  %1 =l cmp.lt i64 %0, 1\n  ret\n", "defines class b");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =s load.shared.cs f32 %0\n  ret\n",
	              "has a cache operator outside the global space");
	expect_reject("kernel k\n@b0\n  %0 =w param 0 i32\n  %1 =s load.global f32 %0\n  ret\n",
	              "operand 0 has class w, expected l");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  jnz %0 @b1 @b1\n@b1\n  ret\n",
	              "jnz condition of class l");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  %1 =l sqrt f64 %0\n  ret\n", "needs class s or d");
	expect_reject("kernel k\n@b0\n  %0 =d param 0 f64\n  %1 =d fma.rm f64 %0, %0, %0\n  ret\n",
	              "takes modes (.rm, .sat) for float32 only");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  %1 =w cvt.i64 i64 %0\n  ret\n",
	              "class differs from the class of its target kind");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  %1 =s bits i64 %0\n  ret\n", "changes the width");
	expect_reject("kernel k\n@b0\n  %0 =l addr 3\n  ret\n", "names a nonexistent array");
	expect_reject("kernel k\n@b0\n  %0 =l param 0 i64\n  jmp @b1\n@b1\n  %1 =l phi @b0 %0\n  jmp @b1\n",
	              "phi %1 has 1 arguments for 2 predecessors");
	expect_reject("kernel k\n@b0\n  jmp @b0\n", "the entry block has predecessors");
}

TEST(verify_rejects_broken_builder_ir)
{
	new_ctx();
	Fn *f = build_loop();
	f->blk[1]->npred = 1;   /* Blk.pred no longer matches the jumps */
	const char *e = run(f, NULL, "test");
	CHECK(e != NULL);
	if (e)
		CHECK_STR_CONTAINS(e, "Blk.pred lists");
	new_ctx();
	f = build_loop();
	f->blk[2]->ins[0].arg[2] = ir_con_int(f, KL, 1);   /* an extra operand */
	e = run(f, NULL, "test");
	CHECK(e != NULL);
	if (e)
		CHECK_STR_CONTAINS(e, "@b2, instruction 0 (%5 = shl): operand 2 is extra");
	new_ctx();
	f = build_loop();
	f->blk[3]->s1 = 7;
	f->blk[3]->jmp = J_JMP;
	e = run(f, NULL, "test");
	CHECK(e != NULL);
	if (e)
		CHECK_STR_CONTAINS(e, "nonexistent block 7");
}

/* -------------------------------------------------------------- fold */

/* Folds "%r = <line>" stored with kind sk; returns the stored constant,
 * or NULL if it did not fold to one. */
static Con *fold_one(const char *line, const char *sk)
{
	new_ctx();
	char *text = arena_printf(ctx.arena,
		"kernel k\n@b0\n  %%p =l param 0 u64\n  %%x =l param 8 i64\n  %%y =d param 16 f64\n"
		"  %%z =s param 24 f32\n  %%r %s\n  store.global %s %%p, %%r\n  ret\n", line, sk);
	Fn *f = parse(text);
	if (!f) {
		printf("parse: %s", ctx.diag.msg);
		return NULL;
	}
	const char *e = run(f, opt_fold, "fold");
	if (e) {
		printf("%s\n%s", line, e);
		return NULL;
	}
	Blk *b = f->blk[0];
	Ref r = b->ins[b->nins - 1].arg[1];
	return r.kind == R_CON ? &f->con[r.idx] : NULL;
}

static int folds_int(const char *line, const char *sk, int64_t want)
{
	Con *c = fold_one(line, sk);
	if (!c || c->i != want) {
		printf("  %s -> %lld, expected %lld\n", line, c ? (long long)c->i : -12345LL, (long long)want);
		return 0;
	}
	return 1;
}

static int folds_f64(const char *line, double want)
{
	Con *c = fold_one(line, "f64");
	if (!c || c->cls != KD || memcmp(&c->d, &want, 8)) {
		printf("  %s -> %a, expected %a\n", line, c ? c->d : -1.0, want);
		return 0;
	}
	return 1;
}

static int folds_f32(const char *line, float want)
{
	Con *c = fold_one(line, "f32");
	if (!c || c->cls != KS || memcmp(&c->s, &want, 4)) {
		printf("  %s -> %a, expected %a\n", line, c ? (double)c->s : -1.0, (double)want);
		return 0;
	}
	return 1;
}

/* the store's operand after fold, as text */
static const char *fold_result(const char *line, const char *sk)
{
	new_ctx();
	char *text = arena_printf(ctx.arena,
		"kernel k\n@b0\n  %%p =l param 0 u64\n  %%x =l param 8 i64\n  %%y =d param 16 f64\n"
		"  %%z =s param 24 f32\n  %%r %s\n  store.global %s %%p, %%r\n  ret\n", line, sk);
	Fn *f = parse(text);
	if (!f || run(f, opt_fold, "fold"))
		return "error";
	char *t = text_of(f);
	char *s = strstr(t, "store.global");
	s = strchr(s, ',') + 2;
	*strchr(s, '\n') = 0;
	return s;
}

TEST(fold_integers_wrap_by_class)
{
	CHECK(folds_int("=w add i32 2147483647, 1", "i32", INT32_MIN));
	CHECK(folds_int("=l add i64 9223372036854775807, 1", "i64", INT64_MIN));
	CHECK(folds_int("=w mul u32 65536, 65536", "u32", 0));
	CHECK(folds_int("=l mul i64 65536, 65536", "i64", 4294967296LL));
	CHECK(folds_int("=w sub i32 -2147483648, 1", "i32", INT32_MAX));
	CHECK(folds_int("=w neg i32 -2147483648", "i32", INT32_MIN));
	CHECK(folds_int("=w abs i32 -2147483648", "i32", INT32_MIN));
	CHECK(folds_int("=w abs i32 -5", "i32", 5));
	CHECK(folds_int("=l not i64 0", "i64", -1));
	CHECK(folds_int("=b not bool 1", "bool", 0));
	CHECK(folds_int("=b xor bool 1, 1", "bool", 0));
	CHECK(folds_int("=w and i32 12, 10", "i32", 8));
	CHECK(folds_int("=w or i32 12, 10", "i32", 14));
	CHECK(folds_int("=w xor i32 12, 10", "i32", 6));
}

TEST(fold_division_rules)
{
	CHECK(folds_int("=w div i32 -7, 2", "i32", -3));
	CHECK(folds_int("=w rem i32 -7, 2", "i32", -1));
	CHECK(folds_int("=w div u32 -7, 2", "u32", 2147483644));
	CHECK(folds_int("=w rem u32 -7, 2", "u32", 1));
	CHECK(folds_int("=w div i32 5, 0", "i32", 0));
	CHECK(folds_int("=w rem i32 5, 0", "i32", 5));
	CHECK(folds_int("=l div u64 -1, 0", "u64", 0));
	CHECK(folds_int("=l rem u64 -1, 0", "u64", -1));
	CHECK(folds_int("=w div i32 -2147483648, -1", "i32", INT32_MIN));
	CHECK(folds_int("=w rem i32 -2147483648, -1", "i32", 0));
	CHECK(folds_int("=l div i64 -9223372036854775808, -1", "i64", INT64_MIN));
	CHECK(folds_int("=l rem i64 -9223372036854775808, -1", "i64", 0));
	CHECK(folds_int("=l div u64 -2, 3", "u64", 6148914691236517204LL));
	/* identities that hold by our definitions */
	CHECK(strcmp(fold_result("=l div i64 %x, 0", "i64"), "0") == 0);
	CHECK(strcmp(fold_result("=l rem i64 %x, 0", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l rem i64 %x, 1", "i64"), "0") == 0);
	CHECK(strcmp(fold_result("=l div i64 %x, 1", "i64"), "%1") == 0);
}

TEST(fold_shifts)
{
	CHECK(folds_int("=w shl i32 1, 31", "i32", INT32_MIN));
	CHECK(folds_int("=w shl i32 1, 32", "i32", 0));
	CHECK(folds_int("=w shr i32 -8, 1", "i32", -4));
	CHECK(folds_int("=w shr u32 -8, 1", "u32", 2147483644));
	CHECK(folds_int("=w shr i32 -8, 40", "i32", -1));
	CHECK(folds_int("=w shr i32 8, 40", "i32", 0));
	CHECK(folds_int("=w shr u32 -8, 40", "u32", 0));
	CHECK(folds_int("=l shl i64 1, w_63", "i64", INT64_MIN));
	CHECK(folds_int("=l shl i64 1, w_64", "i64", 0));
	CHECK(folds_int("=l shr i64 -1, w_-1", "i64", -1));   /* count read as unsigned: huge */
	CHECK(folds_int("=l shr u64 -1, 60", "u64", 15));
	CHECK(folds_int("=w shr i8 -128, 3", "i8", -16));
	/* 8- and 16-bit kinds are re-extended from their width */
	CHECK(folds_int("=w shl i8 64, 1", "i8", -128));
	CHECK(folds_int("=w add u8 255, 1", "u8", 0));
	CHECK(folds_int("=w add i16 32767, 1", "i16", -32768));
	CHECK(folds_int("=w div i8 -128, -1", "i8", -128));
	CHECK(folds_int("=w neg u16 1", "u16", 65535));
	CHECK(folds_int("=w not u8 0", "u8", 255));
	CHECK(folds_int("=w and i8 -1, 255", "i8", 255));   /* bitwise ops do not narrow */
}

TEST(fold_min_max_cmp)
{
	CHECK(folds_int("=w min i32 -1, 1", "i32", -1));
	CHECK(folds_int("=w min u32 -1, 1", "u32", 1));
	CHECK(folds_int("=l max u64 -1, 1", "u64", -1));
	CHECK(folds_int("=l max i64 -1, 1", "i64", 1));
	CHECK(folds_int("=b cmp.lt i32 w_-1, w_1", "bool", 1));
	CHECK(folds_int("=b cmp.lt u32 w_-1, w_1", "bool", 0));
	CHECK(folds_int("=b cmp.ge u64 -1, 0", "bool", 1));
	CHECK(folds_int("=b cmp.ltu i32 w_-1, w_1", "bool", 0));   /* ltu on ints: unsigned */
	CHECK(folds_int("=b cmp.gtu i64 -1, 1", "bool", 1));
	CHECK(folds_int("=b cmp.lt f64 d_nan, d_1.0", "bool", 0));
	CHECK(folds_int("=b cmp.ge f64 d_nan, d_1.0", "bool", 0));
	CHECK(folds_int("=b cmp.eq f64 d_nan, d_nan", "bool", 0));
	CHECK(folds_int("=b cmp.ne f64 d_nan, d_nan", "bool", 1));
	CHECK(folds_int("=b cmp.ltu f64 d_nan, d_1.0", "bool", 1));
	CHECK(folds_int("=b cmp.geu f32 s_1.0, s_nan", "bool", 1));
	CHECK(folds_int("=b cmp.eq f64 d_-0.0, d_0.0", "bool", 1));
	CHECK(folds_int("=b cmp.le i64 %x, %x", "bool", 1));
	CHECK(folds_int("=b cmp.ne i64 %x, %x", "bool", 0));
	/* a float compared with itself may be NaN */
	CHECK(strcmp(fold_result("=b cmp.eq f64 %y, %y", "bool"), "%4") == 0);
	CHECK(folds_f32("=s min f32 nan, 1.0", 1.0f));
	CHECK(folds_f64("=d max f64 2.0, nan", 2.0));
	CHECK(strcmp(fold_result("=d max f64 nan, 0x7ff8000000000001", "f64"), "%4") == 0);
	CHECK(strcmp(fold_result("=d max f64 -0.0, 0.0", "f64"), "%4") == 0);
}

TEST(fold_floats)
{
	/* f32 is computed in float: fma rounds once */
	float x = 1.0f + 0x1p-12f;
	char *line = arena_printf(new_ctx()->arena, "=s fma f32 %a, %a, %a", (double)x, (double)x,
	                          -(double)(1.0f + 0x1p-11f));
	line = strdup(line);
	CHECK(folds_f32(line, 0x1p-24f));
	free(line);
	CHECK(folds_f32("=s mul f32 16777216.0, 1.0", 16777216.0f));
	CHECK(folds_f32("=s add f32 16777216.0, 1.0", 16777216.0f));
	CHECK(folds_f64("=d add f64 16777216.0, 1.0", 16777217.0));
	CHECK(folds_f32("=s add f32 0.1, 0.2", 0.1f + 0.2f));
	CHECK(folds_f64("=d add f64 0.1, 0.2", 0.1 + 0.2));
	CHECK(folds_f64("=d div f64 1.0, 0.0", INFINITY));
	CHECK(folds_f64("=d div f64 -1.0, 0.0", -INFINITY));
	CHECK(folds_f64("=d sqrt f64 2.0", sqrt(2.0)));
	CHECK(folds_f32("=s sqrt f32 2.0", sqrtf(2.0f)));
	CHECK(folds_f64("=d rint f64 2.5", 2.0));
	CHECK(folds_f64("=d rint f64 -3.5", -4.0));
	CHECK(folds_f64("=d floor f64 -0.5", -1.0));
	CHECK(folds_f64("=d ceil f64 -0.5", -0.0));
	CHECK(folds_f64("=d trunc f64 -2.7", -2.0));
	CHECK(folds_f64("=d neg f64 0.0", -0.0));
	CHECK(folds_f64("=d abs f64 -0.0", 0.0));
	CHECK(folds_f64("=d add f64 -0.0, -0.0", -0.0));
	CHECK(folds_f64("=d add f64 -0.0, 0.0", 0.0));
	CHECK(folds_f32("=s bits f32 w_1065353216", 1.0f));
	CHECK(folds_int("=l bits f64 d_1.0", "i64", 0x3ff0000000000000LL));
	/* NaN-producing arithmetic is left alone */
	CHECK(strcmp(fold_result("=d div f64 0.0, 0.0", "f64"), "%4") == 0);
	CHECK(strcmp(fold_result("=d sqrt f64 -1.0", "f64"), "%4") == 0);
	/* f16 results would need rounding to half precision: left alone */
	CHECK(strcmp(fold_result("=s add f16 0.1, 0.2", "f32"), "%4") == 0);
	/* fma modes: 1 + 1.5 2^-24 rounds up to nearest, down with .rm */
	CHECK(folds_f32("=s fma f32 1.0, 1.0, 0x1.8p-24", 1.0f + 0x1p-23f));
	CHECK(folds_f32("=s fma.rm f32 1.0, 1.0, 0x1.8p-24", 1.0f));
	CHECK(folds_f32("=s fma.rm f32 -1.0, 1.0, -0x1.8p-24", -1.0f - 0x1p-23f));
	CHECK(folds_f32("=s fma.sat f32 2.0, 1.0, 0.0", 1.0f));
	CHECK(folds_f32("=s fma.sat f32 -2.0, 1.0, 0.0", 0.0f));
	CHECK(folds_f32("=s fma.rm.sat f32 0.5, 0.5, 0.25", 0.5f));
}

/* fma's modes in the text form, in the order .rm .sat */
TEST(text_fma_modes)
{
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =s param 0 f32\n  %1 =s fma.rm.sat f32 %0, %0, %0\n"
	              "  %2 =s fma.sat f32 %1, %0, %0\n  %3 =s fma.rm f32 %2, %0, %0\n  ret\n");
	CHECK(f && run(f, NULL, "parse") == NULL && round_trips(f));
	if (f) {
		char *t = text_of(f);
		CHECK_STR_CONTAINS(t, "fma.rm.sat f32 %0, %0, %0");
		CHECK_STR_CONTAINS(t, "fma.sat f32 %1");
		CHECK_STR_CONTAINS(t, "fma.rm f32 %2");
	}
	new_ctx();
	CHECK(parse("kernel k\n@b0\n  %0 =s param 0 f32\n  %1 =s fma.sat.rm f32 %0, %0, %0\n  ret\n") == NULL);
	CHECK_STR_CONTAINS(ctx.diag.msg, "fma takes the modes .rm and .sat, in that order");
}

/* loads and stores with a cache operator print and parse back; the
 * verifier takes the operators of each kind of access, in global space */
TEST(text_cache_operators)
{
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =s load.global.cs f32 %0\n"
	              "  %2 =w load.global.lu i8 %0\n  store.global.wt f32 %0, %1\n  store.global.cg i8 %0, %2\n"
	              "  %3 =s load.global f32 %0\n  ret\n");
	CHECK(f && run(f, NULL, "parse") == NULL && round_trips(f));
	if (f) {
		char *t = text_of(f);
		CHECK_STR_CONTAINS(t, "load.global.cs f32 %0");
		CHECK_STR_CONTAINS(t, "load.global.lu i8 %0");
		CHECK_STR_CONTAINS(t, "store.global.wt f32 %0, %1");
		CHECK_STR_CONTAINS(t, "store.global.cg i8 %0, %2");
		CHECK_STR_CONTAINS(t, "%3 =s load.global f32 %0");
	}
	new_ctx();
	CHECK(parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =s load.global.wt f32 %0\n  ret\n") == NULL);
	CHECK_STR_CONTAINS(ctx.diag.msg, "a load's cache operator is ca, cg, cs, lu or cv");
	new_ctx();
	CHECK(parse("kernel k\n@b0\n  %0 =l param 0 u64\n  store.global.lu f32 %0, 1.0\n  ret\n") == NULL);
	CHECK_STR_CONTAINS(ctx.diag.msg, "a store's cache operator is cg, cs, wb or wt");
	new_ctx();
	CHECK(parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =s load.global.frob f32 %0\n  ret\n") == NULL);
	/* a store's operator on a load, as a pass could write it */
	new_ctx();
	f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =s load.global.cs f32 %0\n  ret\n");
	CHECK(f != NULL);
	if (f) {
		f->blk[0]->ins[1].aux = SP_GLOBAL | CO_WB << 8;
		const char *e = run(f, NULL, "test");
		CHECK(e && strstr(e, "has a cache operator its kind of access cannot have"));
	}
}

/* ir_fmaf_mode against the C library's fmaf under fesetround, on random
 * floats of every magnitude (volatile keeps the call between the mode
 * switches), and exact zeros, which take the sign of the rounding mode */
TEST(fma_modes_match_the_rounding_mode)
{
	uint64_t st = 0x9e3779b97f4a7c15u;
	int bad = 0;
	for (int n = 0; n < 200000 && bad < 5; n++) {
		float v[3];
		for (int k = 0; k < 3; k++) {
			st = st * 6364136223846793005u + 1442695040888963407u;
			uint32_t u = (uint32_t)(st >> 32);
			if (n % 4 == 0)   /* nearby magnitudes, so the sum cancels */
				u = (u & 0x807fffffu) | (k == 2 ? 0x3f800000u : 0x3f000000u + (u & 0x00800000u));
			memcpy(&v[k], &u, 4);
		}
		if (n % 8 == 1)
			v[2] = -v[0] * v[1];
		volatile float vx = v[0], vy = v[1], vz = v[2];
		fesetround(FE_DOWNWARD);
		volatile float want = fmaf(vx, vy, vz);
		fesetround(FE_TONEAREST);
		float got = ir_fmaf_mode(v[0], v[1], v[2], FMA_RM);
		float ws = want > 0 ? (want < 1 ? want : 1) : 0;
		float gs = ir_fmaf_mode(v[0], v[1], v[2], FMA_RM | FMA_SAT);
		if ((memcmp(&got, (const void *)&want, 4) && !(isnan(got) && isnan(want))) || memcmp(&gs, &ws, 4)) {
			printf("  fma.rm(%a, %a, %a) = %a, expected %a\n", (double)v[0], (double)v[1], (double)v[2],
			       (double)got, (double)want);
			bad++;
		}
	}
	CHECK_EQ_INT(bad, 0);
	CHECK(signbit(ir_fmaf_mode(1.0f, 1.0f, -1.0f, FMA_RM)));
	CHECK(!signbit(ir_fmaf_mode(0.0f, 1.0f, 0.0f, FMA_RM)));
	CHECK(signbit(ir_fmaf_mode(-0.0f, 1.0f, 0.0f, FMA_RM)));
	CHECK(!signbit(ir_fmaf_mode(1.0f, 1.0f, -1.0f, 0)));
	CHECK(ir_fmaf_mode(0x1p127f, 4.0f, 0.0f, FMA_RM) == 0x1.fffffep127f);
	CHECK(ir_fmaf_mode(NAN, 1.0f, 0.0f, FMA_SAT) == 0 && !signbit(ir_fmaf_mode(-1.0f, 1.0f, 0.0f, FMA_SAT)));
}

TEST(fold_float_identities_respect_signed_zero)
{
	CHECK(strcmp(fold_result("=d add f64 %y, 0.0", "f64"), "%4") == 0);   /* -0.0 + 0.0 is 0.0 */
	CHECK(strcmp(fold_result("=d add f64 %y, -0.0", "f64"), "%2") == 0);
	CHECK(strcmp(fold_result("=d add f64 -0.0, %y", "f64"), "%2") == 0);
	CHECK(strcmp(fold_result("=d sub f64 %y, 0.0", "f64"), "%2") == 0);
	CHECK(strcmp(fold_result("=d sub f64 %y, -0.0", "f64"), "%4") == 0);
	CHECK(strcmp(fold_result("=d mul f64 %y, 1.0", "f64"), "%2") == 0);
	CHECK(strcmp(fold_result("=s mul f32 1.0, %z", "f32"), "%3") == 0);
	CHECK(strcmp(fold_result("=d mul f64 %y, 0.0", "f64"), "%4") == 0);   /* NaN, -0.0 */
	CHECK(strcmp(fold_result("=d div f64 %y, 1.0", "f64"), "%2") == 0);
	CHECK(strcmp(fold_result("=d sub f64 %y, %y", "f64"), "%4") == 0);
}

TEST(fold_int_identities)
{
	CHECK(strcmp(fold_result("=l add i64 %x, 0", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l add i64 0, %x", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l mul i64 %x, 1", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l mul i64 %x, 0", "i64"), "0") == 0);
	CHECK(strcmp(fold_result("=l sub i64 %x, %x", "i64"), "0") == 0);
	CHECK(strcmp(fold_result("=l xor i64 %x, %x", "i64"), "0") == 0);
	CHECK(strcmp(fold_result("=l and i64 %x, 0", "i64"), "0") == 0);
	CHECK(strcmp(fold_result("=l and i64 %x, -1", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l or i64 %x, 0", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l or i64 %x, -1", "i64"), "-1") == 0);
	CHECK(strcmp(fold_result("=l shl i64 %x, 0", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l sel i64 b_1, %x, 5", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l sel i64 b_0, %x, 5", "i64"), "5") == 0);
	CHECK(strcmp(fold_result("=l copy i64 %x", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l cvt.i64 i64 %x", "i64"), "%1") == 0);
	CHECK(strcmp(fold_result("=l mul i64 %x, 2", "i64"), "%4") == 0);
}

TEST(fold_double_negation_and_sel)
{
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =d param 8 f64\n  %2 =d neg f64 %1\n"
	              "  %3 =d neg f64 %2\n  %4 =b cmp.lt f64 %1, 0.0\n  %5 =d sel f64 %4, %3, %1\n"
	              "  store.global f64 %0, %5\n  ret\n");
	CHECK(f && run(f, opt_fold, "fold") == NULL);
	if (f)
		CHECK_STR_CONTAINS(text_of(f), "store.global f64 %0, %1\n");
}

TEST(fold_conversions)
{
	CHECK(folds_int("=w cvt.i32 f64 1e10", "i32", INT32_MAX));
	CHECK(folds_int("=w cvt.i32 f64 -1e10", "i32", INT32_MIN));
	/* a NaN as the GPU's cvt.rzi gives it: 2^(bits-1) from a float64 */
	CHECK(folds_int("=w cvt.i32 f64 nan", "i32", INT32_MIN));
	CHECK(folds_int("=w cvt.i8 f64 nan", "i8", 0));
	CHECK(folds_int("=l cvt.i64 f32 nan", "i64", INT64_MIN));
	CHECK(folds_int("=w cvt.i32 f64 -2.9", "i32", -2));
	/* the 8-bit kinds saturate to 16 bits and keep the low byte */
	CHECK(folds_int("=w cvt.u8 f64 300.0", "u8", 44));
	CHECK(folds_int("=w cvt.u8 f64 70000.0", "u8", 255));
	CHECK(folds_int("=w cvt.u8 f64 -5.0", "u8", 0));
	CHECK(folds_int("=w cvt.i8 f32 -1000.0", "i8", 24));
	CHECK(folds_int("=w cvt.i8 f32 200.0", "i8", -56));
	CHECK(folds_int("=w cvt.i8 f32 -1e9", "i8", 0));
	CHECK(folds_int("=w cvt.u16 f32 70000.0", "u16", 65535));
	CHECK(folds_int("=w cvt.i16 f64 -40000.0", "i16", -32768));
	CHECK(folds_int("=l cvt.i64 f32 inf", "i64", INT64_MAX));
	CHECK(folds_int("=l cvt.i64 f64 -inf", "i64", INT64_MIN));
	CHECK(folds_int("=l cvt.i64 f64 9.3e18", "i64", INT64_MAX));
	CHECK(folds_int("=l cvt.u64 f64 1e20", "u64", -1));
	CHECK(folds_int("=l cvt.u64 f64 1.8446744073709550e19", "u64", (int64_t)18446744073709549568ULL));
	CHECK(folds_int("=w cvt.u32 i64 -1", "u32", -1));
	CHECK(folds_int("=w cvt.i8 i64 200", "i8", -56));
	CHECK(folds_int("=w cvt.u8 i32 -1", "u8", 255));
	CHECK(folds_int("=l cvt.i64 u32 w_-1", "i64", 4294967295LL));
	CHECK(folds_int("=l cvt.i64 i32 w_-1", "i64", -1));
	CHECK(folds_int("=l cvt.i64 u8 w_-1", "i64", 255));
	CHECK(folds_int("=b cvt.bool f64 nan", "bool", 1));
	CHECK(folds_int("=b cvt.bool f64 -0.0", "bool", 0));
	CHECK(folds_int("=b cvt.bool i64 256", "bool", 1));
	CHECK(folds_int("=w cvt.i32 bool b_1", "i32", 1));
	CHECK(folds_f32("=s cvt.f32 f64 0.1", 0.1f));
	CHECK(folds_f64("=d cvt.f64 f32 s_0.1", (double)0.1f));
	CHECK(folds_f64("=d cvt.f64 u64 -1", 18446744073709551616.0));
	CHECK(folds_f64("=d cvt.f64 i64 -1", -1.0));
	CHECK(folds_f32("=s cvt.f32 i64 16777217", 16777216.0f));
}

TEST(fold_jnz_on_constant)
{
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =b cmp.lt i64 3, 4\n  jnz %1 @b1 @b2\n"
	              "@b1\n  jmp @b2\n@b2\n  %2 =l phi @b0 7, @b1 8\n  store.global i64 %0, %2\n  ret\n");
	CHECK(f && run(f, opt_fold, "fold") == NULL);
	if (!f)
		return;
	char *t = text_of(f);
	CHECK_STR_CONTAINS(t, "@b0\n  %0 =l param 0 u64\n  jmp @b1\n");
	/* the edge from @b0 is gone; the phi's one argument is a constant: folded */
	CHECK_STR_CONTAINS(t, "store.global i64 %0, 8\n");
	CHECK(run(f, opt_dce, "dce") == NULL);
	CHECK_EQ_INT(f->nblk, 3);
}

TEST(fold_through_loop)
{
	/* i = 0; while i < 0: ... ; the loop never runs: everything folds */
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  jmp @b1\n"
	              "@b1\n  %1 =l phi @b0 0, @b2 %1\n  %2 =b cmp.lt i64 %1, 0\n  jnz %2 @b2 @b3\n"
	              "@b2\n  jmp @b1\n@b3\n  store.global i64 %0, %1\n  ret\n");
	CHECK(f && run(f, opt_fold, "fold") == NULL);
	CHECK(f && run(f, opt_copy, "copy") == NULL);
	CHECK(f && run(f, opt_fold, "fold") == NULL);
	CHECK(f && run(f, opt_dce, "dce") == NULL);
	if (!f)
		return;
	char *t = text_of(f);
	CHECK_STR_CONTAINS(t, "store.global i64 %0, 0\n");
	CHECK_EQ_INT(f->nblk, 3);
}

/* -------------------------------------------------------------- copy */

TEST(copy_propagates_and_removes_trivial_phis)
{
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =l param 8 i64\n  %2 =l copy i64 %1\n"
	              "  %3 =l copy i64 %2\n  jmp @b1\n"
	              "@b1\n  %4 =l phi @b0 %3, @b2 %5\n  %5 =l phi @b0 %2, @b2 %4\n"
	              "  %6 =b cmp.lt i64 %4, 10\n  jnz %6 @b2 @b3\n"
	              "@b2\n  jmp @b1\n@b3\n  store.global i64 %0, %5\n  ret\n");
	CHECK(f && run(f, opt_copy, "copy") == NULL);
	if (!f)
		return;
	char *t = text_of(f);
	CHECK(!strstr(t, "copy"));
	CHECK(!strstr(t, "phi"));
	CHECK_STR_CONTAINS(t, "%6 =b cmp.lt i64 %1, 10\n");
	CHECK_STR_CONTAINS(t, "store.global i64 %0, %1\n");
}

TEST(copy_keeps_real_phis)
{
	new_ctx();
	Fn *f = build_loop();
	char *before = text_of(f);
	CHECK(run(f, opt_copy, "copy") == NULL);
	CHECK(strcmp(before, text_of(f)) == 0);
}

TEST(copy_rewrites_check_extents)
{
	new_ctx();
	Fn *f = parse("kernel k\ncheck 0 array \"a\" axis 0 ndim 1 ext %2 loc -1\n"
	              "@b0\n  %0 =l param 0 i64\n  %1 =l param 8 i64\n  %2 =l copy i64 %1\n"
	              "  check 0 %0, %2\n  ret\n");
	CHECK(f && run(f, opt_copy, "copy") == NULL);
	if (f) {
		CHECK_STR_CONTAINS(text_of(f), "ext %1 loc -1\n");
		CHECK_STR_CONTAINS(text_of(f), "  check 0 %0, %1\n");
	}
}

/* --------------------------------------------------------------- dce */

TEST(dce_removes_dead_code_and_phi_cycles)
{
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =l param 8 i64\n  %9 =l mul i64 %1, %1\n"
	              "  %10 =s load.global f32 %0\n  jmp @b1\n"
	              "@b1\n  %2 =l phi @b0 0, @b2 %3\n  %4 =l phi @b0 0, @b2 %5\n"
	              "  %6 =b cmp.lt i64 %2, %1\n  jnz %6 @b2 @b3\n"
	              "@b2\n  %3 =l add i64 %2, 1\n  %5 =l add i64 %4, %2\n  %7 =w atom.add.global i32 %0, w_1\n"
	              "  jmp @b1\n"
	              "@b3\n  ret\n"
	              "@b4\n  store.global i64 %0, %1\n  jmp @b3\n");
	CHECK(f && run(f, opt_dce, "dce") == NULL);
	if (!f)
		return;
	char *t = text_of(f);
	CHECK(!strstr(t, "%4"));      /* the phi cycle %4 <-> %5 */
	CHECK(!strstr(t, "%5"));
	CHECK(!strstr(t, "mul"));
	CHECK(!strstr(t, "load"));
	CHECK(!strstr(t, "store"));   /* its block was unreachable */
	CHECK_STR_CONTAINS(t, "atom.add.global");   /* an effect, though unused */
	CHECK_STR_CONTAINS(t, "%2 =l phi @b0 0, @b2 %3\n");
	CHECK_EQ_INT(f->nblk, 4);
}

TEST(dce_keeps_values_checks_print)
{
	new_ctx();
	Fn *f = parse("kernel k\ncheck 0 array \"a\" axis 1 ndim 2 ext %1, %2 loc -1\n"
	              "@b0\n  %0 =l param 0 i64\n  %1 =l param 8 i64\n  %2 =l param 16 i64\n"
	              "  %3 =l param 24 i64\n  check 0 %0, %2\n  ret\n");
	CHECK(f && run(f, opt_dce, "dce") == NULL);
	if (!f)
		return;
	char *t = text_of(f);
	CHECK_STR_CONTAINS(t, "%1 =l param 8 i64\n");
	CHECK(!strstr(t, "param 24"));
}

/* ------------------------------------------------------------- edges */

/* The argument each phi of block b takes from predecessor block p. */
static Ref phi_arg_from(Fn *f, int b, int k, int p)
{
	Blk *x = f->blk[b];
	for (int j = 0; j < x->npred; j++) {
		int q = x->pred[j];
		while (f->blk[q]->nins == 0 && f->blk[q]->nphi == 0 && f->blk[q]->npred == 1
		       && q != p && f->blk[q]->jmp == J_JMP)
			q = f->blk[q]->pred[0];
		if (q == p)
			return x->phi[k].arg[j];
	}
	return REF_NONE;
}

TEST(edges_split_critical_edges)
{
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =l param 8 i64\n"
	              "  %2 =b cmp.lt i64 %1, 5\n  jnz %2 @b1 @b2\n"
	              "@b1\n  %3 =b cmp.lt i64 %1, 2\n  jnz %3 @b2 @b2\n"
	              "@b2\n  %4 =l phi @b0 10, @b1 20, @b1 30\n  store.global i64 %0, %4\n  ret\n");
	CHECK(f && run(f, NULL, "parse") == NULL);
	if (!f)
		return;
	CHECK_EQ_INT(f->blk[2]->npred, 3);
	CHECK(run(f, opt_split_edges, "split_edges") == NULL);
	/* three critical edges: b0->b2, b1->b2 twice */
	CHECK_EQ_INT(f->nblk, 6);
	int target = -1;
	for (int i = 0; i < f->nblk; i++)
		if (f->blk[i]->nphi)
			target = i;
	CHECK(target >= 0);
	if (target < 0)
		return;
	Blk *t = f->blk[target];
	CHECK_EQ_INT(t->npred, 3);
	for (int j = 0; j < t->npred; j++) {
		Blk *p = f->blk[t->pred[j]];
		CHECK(p->jmp == J_JMP && p->nins == 0 && p->npred == 1);
	}
	/* each argument still belongs to its edge: s1 of b1 gave 20, s2 30 */
	Blk *b1 = NULL;
	for (int i = 0; i < f->nblk; i++)
		if (f->blk[i]->nins == 1 && f->blk[i]->ins[0].op == O_CMP && i != 0)
			b1 = f->blk[i];
	CHECK(b1 != NULL);
	if (!b1)
		return;
	int e1 = b1->s1, e2 = b1->s2;
	CHECK(e1 != e2);
	for (int j = 0; j < t->npred; j++) {
		Con *c = &f->con[t->phi[0].arg[j].idx];
		if (t->pred[j] == e1)
			CHECK_EQ_INT(c->i, 20);
		else if (t->pred[j] == e2)
			CHECK_EQ_INT(c->i, 30);
		else
			CHECK_EQ_INT(c->i, 10);
	}
	CHECK(round_trips(f));
}

TEST(edges_leave_other_edges_alone)
{
	new_ctx();
	Fn *f = build_loop();
	CHECK(run(f, opt_split_edges, "split_edges") == NULL);
	/* b1 -> b2 (one pred) and b1 -> b3 (one pred) are not critical */
	CHECK_EQ_INT(f->nblk, 4);
	(void)phi_arg_from;
}

/* --------------------------------------------------------------- cse */

TEST(cse_merges_dominated_duplicates)
{
	new_ctx();
	Fn *f = parse("kernel k\n@b0\n  %0 =l param 0 u64\n  %1 =l param 8 i64\n  %20 =l param 8 i64\n"
	              "  %2 =l add i64 %1, 1\n  %3 =l add i64 1, %20\n"
	              "  %4 =b cmp.lt i64 %2, 10\n  jnz %4 @b1 @b2\n"
	              "@b1\n  %5 =l add i64 %1, 1\n  %6 =l mul i64 %5, %3\n  store.global i64 %0, %6\n"
	              "  %7 =l load.global i64 %0\n  %8 =l load.global i64 %0\n  %9 =l add i64 %7, %8\n"
	              "  store.global i64 %0, %9\n  %10 =s sqrt f32 s_2.0\n  jmp @b3\n"
	              "@b2\n  %11 =l mul i64 %2, %2\n  %12 =s sqrt f32 s_2.0\n  store.global i64 %0, %11\n  jmp @b3\n"
	              "@b3\n  %13 =l mul i64 %2, %2\n  %14 =l add i64 %1, 1\n  store.global i64 %0, %14\n"
	              "  store.global i64 %0, %13\n  ret\n");
	CHECK(f && run(f, opt_cse, "cse") == NULL);
	if (!f)
		return;
	char *t = text_of(f);
	CHECK(!strstr(t, "%20 ="));                       /* the same parameter twice */
	CHECK(!strstr(t, "%3 ="));                        /* 1 + %1 is %1 + 1 */
	CHECK(!strstr(t, "%5 ="));
	CHECK_STR_CONTAINS(t, "%6 =l mul i64 %2, %2\n");
	CHECK_STR_CONTAINS(t, "%7 =l load.global");       /* loads stay */
	CHECK_STR_CONTAINS(t, "%8 =l load.global");
	CHECK_STR_CONTAINS(t, "%11 =l mul i64 %2, %2\n"); /* b2 does not dominate b3 */
	CHECK_STR_CONTAINS(t, "%13 =l mul i64 %2, %2\n");
	CHECK_STR_CONTAINS(t, "%12 =s sqrt");             /* b1 does not dominate b2 */
	CHECK_STR_CONTAINS(t, "store.global i64 %0, %2\n");
}

/* ------------------------------------------------- a pipeline on text */

TEST(pipeline_folds_constant_loop_bounds)
{
	new_ctx();
	Fn *f = parse("kernel k\nparambytes 8\n@b0\n  %0 =l param 0 u64\n  %1 =l copy i64 4\n"
	              "  %2 =l div i64 %1, 2\n  jmp @b1\n"
	              "@b1\n  %3 =l phi @b0 %2, @b2 %4\n  %5 =b cmp.gt i64 %3, 0\n  jnz %5 @b2 @b3\n"
	              "@b2\n  %6 =l shl i64 %3, w_3\n  %7 =l add u64 %0, %6\n  store.global i64 %7, %3\n"
	              "  %4 =l div i64 %3, 2\n  jmp @b1\n"
	              "@b3\n  ret\n");
	CHECK(f != NULL);
	if (!f)
		return;
	for (int k = 0; k < 3; k++) {
		CHECK(run(f, opt_fold, "fold") == NULL);
		CHECK(run(f, opt_copy, "copy") == NULL);
		CHECK(run(f, opt_dce, "dce") == NULL);
	}
	CHECK(run(f, opt_split_edges, "split_edges") == NULL);
	char *t = text_of(f);
	CHECK_STR_CONTAINS(t, "%3 =l phi @b0 2, @b2 %4\n");
	CHECK(!strstr(t, "copy"));
	CHECK(round_trips(f));
}

int main(void)
{
	RUN(builder_constants_dedup);
	RUN(builder_loop_prints_and_verifies);
	RUN(rpo_drops_unreachable_and_keeps_phi_pairs);
	RUN(text_round_trip_full);
	RUN(text_global_table);
	RUN(text_floats_round_trip_bit_exactly);
	RUN(text_numeric_spaces_and_plain_labels);
	RUN(text_errors_are_reported_not_crashes);
	RUN(verify_accepts_good_ir);
	RUN(verify_rejects_broken_ir);
	RUN(verify_rejects_broken_builder_ir);
	RUN(fold_integers_wrap_by_class);
	RUN(fold_division_rules);
	RUN(fold_shifts);
	RUN(fold_min_max_cmp);
	RUN(fold_floats);
	RUN(text_fma_modes);
	RUN(text_cache_operators);
	RUN(fma_modes_match_the_rounding_mode);
	RUN(fold_float_identities_respect_signed_zero);
	RUN(fold_int_identities);
	RUN(fold_double_negation_and_sel);
	RUN(fold_conversions);
	RUN(fold_jnz_on_constant);
	RUN(fold_through_loop);
	RUN(copy_propagates_and_removes_trivial_phis);
	RUN(copy_keeps_real_phis);
	RUN(copy_rewrites_check_extents);
	RUN(dce_removes_dead_code_and_phi_cycles);
	RUN(dce_keeps_values_checks_print);
	RUN(edges_split_critical_edges);
	RUN(edges_leave_other_edges_alone);
	RUN(cse_merges_dominated_duplicates);
	RUN(pipeline_folds_constant_loop_bounds);
	if (ctx.arena)
		arena_free(ctx.arena);
	return check_summary("ir");
}

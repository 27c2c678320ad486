/*
 * test_warp.c - the IR's bit and warp operations (popc clz brev shfl vote
 * match barred syncwarp activemask nanosleep) below the Python layer: their
 * text form reads back to the same text, constants fold, the PTX back
 * end writes the instructions ptxas expects, and the simulator follows
 * PTX's shfl.sync rules for every mode and c operand (clamp and segment
 * mask, including the segments Numba itself never asks for), combines
 * predicates at bar.red, and lets a syncwarp order shared-memory accesses
 * for the race check.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core.h"

static Ctx ctx;
static jmp_buf jb;

static void ctx_new(void)
{
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = arena_new();
	ctx.jmp = &jb;
}

static char *print_fn(Fn *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	ir_print(m, f);
	fclose(m);
	return buf;
}

/* A kernel: out[tid] = <op> of in[tid] (u32 arrays), 64 threads. */
static const char *kernel_head =
	"kernel k\n"
	"parambytes 16\n"
	"param 0 u64 arg0 data\n"
	"param 8 u64 arg1 data\n"
	"@b0\n"
	"  %t =w sreg tid.x\n"
	"  %tl =l cvt.u64 u32 %t\n"
	"  %off =l mul i64 %tl, 4\n"
	"  %pi =l param 0 u64\n"
	"  %po =l param 8 u64\n"
	"  %ai =l add i64 %pi, %off\n"
	"  %ao =l add i64 %po, %off\n"
	"  %x =w load.global u32 %ai\n";

static char *kernel_text(const char *body)
{
	static char buf[4096];
	snprintf(buf, sizeof buf, "%s%s  store.global u32 %%ao, %%r\n  ret\n", kernel_head, body);
	return buf;
}

TEST(text_round_trip)
{
	ctx_new();
	if (setjmp(jb)) {
		printf("%s\n", ctx.diag.msg);
		CHECK(0);
		arena_free(ctx.arena);
		return;
	}
	const char *body =
		"  %p =w popc u32 %x\n"
		"  %c =w clz u32 %p\n"
		"  %b =w brev u32 %c\n"
		"  %xl =l cvt.u64 u32 %x\n"
		"  %pl =l popc u64 %xl\n"
		"  %s =w shfl.down 31 u32 %b, 1, -1\n"
		"  %s2 =w shfl.idx 6175 u32 %s, %t, -1\n"
		"  %q =b cmp.ne u32 %s2, 0\n"
		"  %v =w vote.ballot bool %q, -1\n"
		"  %va =b vote.all bool %q, -1\n"
		"  %m =w match.any u64 %pl, -1\n"
		"  %ma =w match.all u32 %v, %m\n"
		"  %n =w barred.popc bool %va\n"
		"  %a =w activemask u32\n"
		"  syncwarp u32 %a\n"
		"  nanosleep u32 100\n"
		"  %r0 =w add u32 %n, %ma\n"
		"  %r =w add u32 %r0, %a\n";
	Fn *f = ir_parse(&ctx, kernel_text(body));
	ir_verify(f, "parse");
	char *one = print_fn(f);
	Fn *g = ir_parse(&ctx, one);
	ir_verify(g, "parse again");
	char *two = print_fn(g);
	CHECK(strcmp(one, two) == 0);
	CHECK_STR_CONTAINS(one, "shfl.idx 6175 u32");
	CHECK_STR_CONTAINS(one, "vote.ballot bool");
	CHECK_STR_CONTAINS(one, "match.any u64");
	CHECK_STR_CONTAINS(one, "barred.popc bool");
	CHECK_STR_CONTAINS(one, "syncwarp u32");

	char *ptx = ptx_emit(&ctx, f, 75, ptx_version_for(0, 75, 0));
	CHECK_STR_CONTAINS(ptx, "popc.b32");
	CHECK_STR_CONTAINS(ptx, "clz.b32");
	CHECK_STR_CONTAINS(ptx, "brev.b32");
	CHECK_STR_CONTAINS(ptx, "popc.b64");
	CHECK_STR_CONTAINS(ptx, "shfl.sync.down.b32");
	CHECK_STR_CONTAINS(ptx, ", 1, 0x1F, 0xFFFFFFFF;");
	CHECK_STR_CONTAINS(ptx, "shfl.sync.idx.b32");
	CHECK_STR_CONTAINS(ptx, "0x181F, 0xFFFFFFFF;");
	CHECK_STR_CONTAINS(ptx, "vote.sync.ballot.b32");
	CHECK_STR_CONTAINS(ptx, "vote.sync.all.pred");
	CHECK_STR_CONTAINS(ptx, "match.any.sync.b64");
	CHECK_STR_CONTAINS(ptx, "match.all.sync.b32");
	CHECK_STR_CONTAINS(ptx, "bar.red.popc.u32");
	CHECK_STR_CONTAINS(ptx, "activemask.b32");
	CHECK_STR_CONTAINS(ptx, "bar.warp.sync");
	CHECK_STR_CONTAINS(ptx, "nanosleep.u32 100;");
	free(one);
	free(two);
	arena_free(ctx.arena);
}

TEST(verifier_refuses)
{
	static const char *bad[] = {
		"  %r =w shfl.bfly 31 u32 %x, 1\n",          /* a missing operand */
		"  %q =b cmp.ne u32 %x, 0\n  %r =w vote.all bool %q, -1\n",  /* all defines b */
		"  %xs =s bits f32 %x\n  %r =w popc f32 %xs\n",               /* popc of a float */
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		ctx_new();
		int failed = 0;
		if (setjmp(jb))
			failed = 1;
		else {
			Fn *f = ir_parse(&ctx, kernel_text(bad[k]));
			ir_verify(f, "test");
		}
		CHECK(failed);
		arena_free(ctx.arena);
	}
}

TEST(constants_fold)
{
	ctx_new();
	if (setjmp(jb)) {
		printf("%s\n", ctx.diag.msg);
		CHECK(0);
		arena_free(ctx.arena);
		return;
	}
	const char *body =
		"  %p =w popc u32 0xF0F0\n"
		"  %c =w clz u32 0x10000\n"
		"  %z =w clz u32 0\n"
		"  %b =w brev u32 1\n"
		"  %bl =l brev u64 1\n"
		"  %cl =l clz u64 0\n"
		"  %pl =l popc u64 -1\n"
		"  %e =w cvt.u32 u64 %bl\n"
		"  %f =w cvt.u32 u64 %cl\n"
		"  %g =w cvt.u32 u64 %pl\n"
		"  %r1 =w add u32 %p, %c\n"
		"  %r2 =w add u32 %r1, %z\n"
		"  %r3 =w add u32 %r2, %b\n"
		"  %r4 =w add u32 %r3, %e\n"
		"  %r5 =w add u32 %r4, %f\n"
		"  %r =w add u32 %r5, %g\n";
	Fn *f = ir_parse(&ctx, kernel_text(body));
	opt_fold(f);
	opt_dce(f);
	ir_verify(f, "fold");
	char *s = print_fn(f);
	/* popc 8, clz 15, clz 0 = 32, brev 1 = 2^31, brev64 1 = 2^63 (low half 0), clz64 0 = 64, popc64 -1 = 64 */
	uint32_t want = 8u + 15u + 32u + 0x80000000u + 0u + 64u + 64u;
	char w[64];
	CHECK(strstr(s, "popc") == NULL && strstr(s, "clz") == NULL && strstr(s, "brev") == NULL);
	snprintf(w, sizeof w, ", %d", (int32_t)want);
	CHECK_STR_CONTAINS(s, w);
	free(s);
	arena_free(ctx.arena);
}

/* ----------------------------------------------------------- simulator */

static int build(const char *text, PjKernel *k)
{
	ctx_new();
	memset(k, 0, sizeof *k);
	if (setjmp(jb)) {
		printf("build failed: %s\n", ctx.diag.msg);
		arena_free(ctx.arena);
		return 0;
	}
	Fn *f = ir_parse(&ctx, text);
	ir_verify(f, "test");
	k->sim = sim_prepare(&ctx, f);
	k->param_bytes = f->param_bytes;
	snprintf(k->entry, sizeof k->entry, "%s", f->name);
	arena_free(ctx.arena);
	return 1;
}

static int run64(PjKernel *k, uint32_t *in, uint32_t *out, PjError *e)
{
	unsigned char p[16];
	uint64_t a = (uint64_t)(uintptr_t)in, b = (uint64_t)(uintptr_t)out;
	memcpy(p, &a, 8);
	memcpy(p + 8, &b, 8);
	unsigned g[3] = {1, 1, 1}, bl[3] = {64, 1, 1};
	return pj_sim_launch(k, g, bl, 0, p, 0, e);
}

/* PTX's shfl.sync for lane l: the source lane, or l itself */
static int src_lane(int mode, int l, int b, int c)
{
	int clamp = c & 31, seg = c >> 8 & 31, max = (l & seg) | (clamp & ~seg), min = l & seg, j, ok;
	b &= 31;
	switch (mode) {
	case 0: j = min | (b & ~seg); ok = j <= max; break;
	case 1: j = l - b; ok = j >= max; break;
	case 2: j = l + b; ok = j <= max; break;
	default: j = l ^ b; ok = j <= max; break;
	}
	return ok ? j : l;
}

TEST(shuffle_rules)
{
	static const char *const mode[4] = {"idx", "up", "down", "bfly"};
	/* c: Numba's 0x1f and 0; widths 16 and 8 (segment masks) with clamps */
	static const int cs[] = {0x1f, 0, 0x101f, 0x180f, 0x1800, 0x181f};
	static const int bs[] = {0, 1, 3, 7, 13, 31, 35};
	uint32_t in[64], out[64];
	for (int i = 0; i < 64; i++)
		in[i] = 1000u + (uint32_t)i * 7u;
	for (int m = 0; m < 4; m++)
		for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++)
			for (size_t bi = 0; bi < sizeof bs / sizeof bs[0]; bi++) {
				char body[200];
				snprintf(body, sizeof body, "  %%r =w shfl.%s %d u32 %%x, %d, -1\n", mode[m], cs[ci], bs[bi]);
				PjKernel k;
				if (!build(kernel_text(body), &k)) {
					CHECK(0);
					return;
				}
				PjError e;
				CHECK_EQ_INT(run64(&k, in, out, &e), PJ_SIM_OK);
				int bad = 0;
				for (int t = 0; t < 64; t++)
					if (out[t] != in[(t & ~31) + src_lane(m, t & 31, bs[bi], cs[ci])])
						bad++;
				if (bad)
					printf("  shfl.%s c=0x%x b=%d: %d lanes wrong\n", mode[m], cs[ci], bs[bi], bad);
				CHECK_EQ_INT(bad, 0);
				sim_free_program(k.sim);
			}
}

TEST(lane_operand_per_lane)
{
	/* each lane reads the lane its own operand names: a rotation by 5 */
	const char *body =
		"  %l =w sreg laneid\n"
		"  %l5 =w add i32 %l, 5\n"
		"  %r =w shfl.idx 31 u32 %x, %l5, -1\n";
	PjKernel k;
	if (!build(kernel_text(body), &k)) {
		CHECK(0);
		return;
	}
	uint32_t in[64], out[64];
	for (int i = 0; i < 64; i++)
		in[i] = (uint32_t)i * 3u;
	PjError e;
	CHECK_EQ_INT(run64(&k, in, out, &e), PJ_SIM_OK);
	for (int t = 0; t < 64; t++)
		CHECK_EQ_INT(out[t], in[(t & ~31) + ((t + 5) & 31)]);
	sim_free_program(k.sim);
}

TEST(reducing_barriers)
{
	static const char *const op[3] = {"popc", "and", "or"};
	for (int o = 0; o < 3; o++) {
		char body[200];
		snprintf(body, sizeof body, "  %%q =b cmp.ne u32 %%x, 0\n  %%r =w barred.%s bool %%q\n", op[o]);
		PjKernel k;
		if (!build(kernel_text(body), &k)) {
			CHECK(0);
			return;
		}
		uint32_t in[64], out[64];
		for (int fill = 0; fill < 3; fill++) {
			int count = 0;
			for (int i = 0; i < 64; i++) {
				in[i] = fill == 0 ? (uint32_t)(i % 3 == 0) : fill == 1 ? 1u : 0u;
				count += in[i] != 0;
			}
			PjError e;
			CHECK_EQ_INT(run64(&k, in, out, &e), PJ_SIM_OK);
			uint32_t want = o == 0 ? (uint32_t)count : o == 1 ? count == 64 : count > 0;
			for (int t = 0; t < 64; t++)
				CHECK_EQ_INT(out[t], want);
		}
		sim_free_program(k.sim);
	}
}

TEST(bit_ops_in_sim)
{
	const char *body =
		"  %p =w popc u32 %x\n"
		"  %c =w clz u32 %x\n"
		"  %b =w brev u32 %x\n"
		"  %pc =w shl u32 %p, 8\n"
		"  %r0 =w or u32 %pc, %c\n"
		"  %r =w xor u32 %r0, %b\n";
	PjKernel k;
	if (!build(kernel_text(body), &k)) {
		CHECK(0);
		return;
	}
	uint32_t in[64], out[64];
	uint32_t s = 12345;
	for (int i = 0; i < 64; i++) {
		s = s * 1103515245u + 12345u;
		in[i] = i < 2 ? (uint32_t)-i : s >> (i % 32);
	}
	PjError e;
	CHECK_EQ_INT(run64(&k, in, out, &e), PJ_SIM_OK);
	for (int t = 0; t < 64; t++) {
		uint32_t x = in[t], p = 0, c = 32, b = 0;
		for (int i = 0; i < 32; i++) {
			if (x >> i & 1) {
				p++;
				c = 31u - (uint32_t)i;
				b |= 1u << (31 - i);
			}
		}
		CHECK_EQ_INT(out[t], ((p << 8) | c) ^ b);
	}
	sim_free_program(k.sim);
}

/* out[t] = shared[t ^ 1] after every thread wrote shared[t]: ordered by
 * a syncwarp (no race), or by nothing (a race the check reports). */
static const char *neighbour_ir =
	"kernel nb\n"
	"parambytes 16\n"
	"param 0 u64 arg0 data\n"
	"param 8 u64 arg1 data\n"
	"array 0 shared 256 align 16 name \"buf\"\n"
	"loc 0 \"nb.py\" 7 5\n"
	"@b0\n"
	"  %t =w sreg tid.x\n"
	"  %tl =l cvt.u64 u32 %t\n"
	"  %off =l mul i64 %tl, 4\n"
	"  %pi =l param 0 u64\n"
	"  %po =l param 8 u64\n"
	"  %ai =l add i64 %pi, %off\n"
	"  %ao =l add i64 %po, %off\n"
	"  %x =w load.global u32 %ai\n"
	"  %sb =l addr 0\n"
	"  %as =l add i64 %sb, %off\n"
	"  store.shared u32 %as, %x\n"
	"#SYNC\n"
	"  %n =w xor u32 %t, 1\n"
	"  %nl =l cvt.u64 u32 %n\n"
	"  %noff =l mul i64 %nl, 4\n"
	"  %an =l add i64 %sb, %noff\n"
	"  %r =w load.shared u32 %an !0\n"
	"  store.global u32 %ao, %r\n"
	"  ret\n";

TEST(syncwarp_orders_shared_memory)
{
	for (int sync = 0; sync < 2; sync++) {
		char text[2048];
		const char *cut = strstr(neighbour_ir, "#SYNC\n");
		snprintf(text, sizeof text, "%.*s%s%s", (int)(cut - neighbour_ir), neighbour_ir,
		         sync ? "  syncwarp u32 -1\n" : "", cut + 6);
		PjKernel k;
		if (!build(text, &k)) {
			CHECK(0);
			return;
		}
		uint32_t in[64], out[64];
		for (int i = 0; i < 64; i++)
			in[i] = (uint32_t)i * 11u;
		unsigned char p[16];
		uint64_t a = (uint64_t)(uintptr_t)in, b = (uint64_t)(uintptr_t)out;
		memcpy(p, &a, 8);
		memcpy(p + 8, &b, 8);
		unsigned g[3] = {1, 1, 1}, bl[3] = {64, 1, 1};
		PjError e;
		int rc = pj_sim_launch(&k, g, bl, 0, p, PJ_SIM_RACE, &e);
		if (sync) {
			CHECK_EQ_INT(rc, PJ_SIM_OK);
			for (int t = 0; t < 64; t++)
				CHECK_EQ_INT(out[t], in[t ^ 1]);
		} else {
			CHECK_EQ_INT(rc, PJ_SIM_RACE_FOUND);
			CHECK_STR_CONTAINS(e.msg, "race on shared memory");
		}
		sim_free_program(k.sim);
	}
}

int main(void)
{
	RUN(text_round_trip);
	RUN(verifier_refuses);
	RUN(constants_fold);
	RUN(shuffle_rules);
	RUN(lane_operand_per_lane);
	RUN(reducing_barriers);
	RUN(bit_ops_in_sim);
	RUN(syncwarp_orders_shared_memory);
	return check_summary("warp");
}

/*
 * test_ptx.c - the PTX back end: IR built by hand with the ir.c builders,
 * emitted as PTX, checked for the instructions the IR's semantics need,
 * and assembled with ptxas for sm_75 and sm_90 (and the newer targets
 * once) when ptxas is installed (/usr/local/cuda/bin/ptxas, $PTXAS, or on
 * PATH); without it the assembly step is skipped with a note.
 *
 * Every opcode is emitted for every class it accepts, with registers and
 * with constants in each operand position; every pair of scalar kinds is
 * converted both ways; every atomic operation on every kind in global,
 * shared and generic memory.  Phi moves are checked by replaying the
 * emitted movs of an edge and looking at what each phi register holds.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "check.h"

static const char *ptxas;          /* NULL: not installed */
static PjOptions options = {.arch = 90, .opt_level = 1};
static Ctx ctx;
static jmp_buf ctx_jmp;

static Ctx *new_ctx(int fastmath)
{
	if (ctx.arena)
		arena_free(ctx.arena);
	memset(&ctx, 0, sizeof ctx);
	options.fastmath = fastmath;
	ctx.arena = arena_new();
	ctx.jmp = &ctx_jmp;
	ctx.opt = &options;
	return &ctx;
}

/* ----------------------------------------------------- ptxas runs */

static void find_ptxas(void)
{
	const char *env = getenv("PTXAS");
	if (env && access(env, X_OK) == 0)
		ptxas = env;
	else if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
		ptxas = "/usr/local/cuda/bin/ptxas";
	else if (system("command -v ptxas >/dev/null 2>&1") == 0)
		ptxas = "ptxas";
	if (!ptxas)
		printf("note: ptxas not found; PTX is checked as text only\n");
}

static void print_numbered(const char *s)
{
	int line = 1;
	printf("%5d  ", line);
	for (; *s; s++) {
		putchar(*s);
		if (*s == '\n' && s[1])
			printf("%5d  ", ++line);
	}
}

/* 1 if ptxas accepts the text for sm_<arch> (or is not installed). */
static int assembles(const char *ptx, int arch)
{
	if (!ptxas)
		return 1;
	char path[] = "/tmp/pjptxXXXXXX.ptx";
	int fd = mkstemps(path, 4);
	if (fd < 0)
		return 0;
	FILE *f = fdopen(fd, "w");
	fputs(ptx, f);
	fclose(f);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s -arch=sm_%d %s -o /dev/null 2>%s.err", ptxas, arch, path, path);
	int rc = system(cmd);
	if (rc != 0) {
		printf("ptxas -arch=sm_%d failed on:\n", arch);
		print_numbered(ptx);
		snprintf(cmd, sizeof cmd, "cat %s.err", path);
		if (system(cmd) != 0)
			printf("(no ptxas output)\n");
	}
	snprintf(cmd, sizeof cmd, "%s.err", path);
	unlink(cmd);
	unlink(path);
	return rc == 0;
}

/* Emits f for arch; NULL (and the message printed) on an error. */
static char *emit(Fn *f, int arch)
{
	if (setjmp(ctx_jmp)) {
		printf("unexpected error: %s", ctx.diag.msg);
		return NULL;
	}
	char *s = ptx_emit(&ctx, f, arch, ptx_version_for(0, arch, 0));
	if (getenv("PTX_TEST_DUMP"))
		fputs(s, stdout);
	return s;
}

/* Emits f expecting an internal error whose message contains `what`. */
static int emit_fails(Fn *f, const char *what)
{
	if (setjmp(ctx_jmp))
		return ctx.diag.kind == PJ_ERR_INTERNAL && strstr(ctx.diag.msg, what) != NULL;
	char *s = ptx_emit(&ctx, f, 90, 78);
	printf("expected an error containing \"%s\", got PTX:\n%s", what, s);
	return 0;
}

/* Emits for sm_75 and sm_90 and assembles both. */
static char *emit_both(Fn *f)
{
	char *s75 = emit(f, 75);
	if (!s75 || !assembles(s75, 75))
		return NULL;
	char *s90 = emit(f, 90);
	if (!s90 || !assembles(s90, 90))
		return NULL;
	return s90;
}

/* 1 if some line of s that starts with "\t<op>" contains sub. */
static int line_has(const char *s, const char *op, const char *sub)
{
	for (const char *p = s; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *eol = strchr(p, '\n');
		int len = eol ? (int)(eol - p) : (int)strlen(p);
		if (p[0] != '\t' || strncmp(p + 1, op, strlen(op)) != 0)
			continue;
		char line[256];
		snprintf(line, sizeof line, "%.*s", len, p);
		if (strstr(line, sub))
			return 1;
	}
	return 0;
}

static int count_of(const char *s, const char *sub)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, sub)); p += strlen(sub))
		n++;
	return n;
}

/* ------------------------------------------------------ IR helpers */

typedef struct K {
	Fn *f;
	Blk *b;
	Ref base;      /* the global array every test reads and writes */
	int off;       /* next free byte in it */
} K;

static void add_param(Fn *f, ScalarKind sk, int off, int role)
{
	KParam p = {.ty = (uint8_t)sk, .off = off, .arg = f->nparam, .role = role};
	VEC_PUSH(f->ctx, f->param, f->nparam, f->capparam, p);
	int end = off + (sk == SK_BOOL || sk == SK_I8 || sk == SK_U8 ? 1 :
	                 sk == SK_I16 || sk == SK_U16 || sk == SK_F16 ? 2 :
	                 sk == SK_I32 || sk == SK_U32 || sk == SK_F32 ? 4 : 8);
	if (end > f->param_bytes)
		f->param_bytes = end;
}

static K kbegin(const char *name)
{
	K k;
	k.f = ir_new_fn(&ctx, name);
	k.b = ir_new_blk(k.f);
	add_param(k.f, SK_U64, 0, KP_DATA);
	k.base = ir_ins(k.f, k.b, O_PARAM, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, 0);
	k.off = 0;
	return k;
}

static Ref addr(K *k)
{
	Ref a = ir_ins(k->f, k->b, O_ADD, KL, SK_I64, k->base, ir_con_int(k->f, KL, k->off), REF_NONE, 0);
	k->off += 8;
	return a;
}

static Ref ld(K *k, ScalarKind sk)
{
	return ir_ins(k->f, k->b, O_LOAD, ir_cls_of_sk(sk), sk, addr(k), REF_NONE, REF_NONE, SP_GLOBAL);
}

static void st(K *k, ScalarKind sk, Ref v)
{
	ir_ins(k->f, k->b, O_STORE, ir_cls_of_sk(sk), sk, addr(k), v, REF_NONE, SP_GLOBAL);
}

/* A value of kind sk: loaded (reg) or one of three constants in turn. */
static Ref operand(K *k, ScalarKind sk, int con, int unused)
{
	static int n;
	Fn *f = k->f;
	(void)unused;
	if (!con)
		return ld(k, sk);
	n++;
	switch (ir_cls_of_sk(sk)) {
	case KB: return ir_con_bool(f, n & 1);
	case KW: return ir_con_int(f, KW, n % 3 == 0 ? -7 : n % 3 == 1 ? INT32_MIN : 255);
	case KL: return ir_con_int(f, KL, n % 3 == 0 ? -7 : n % 3 == 1 ? INT64_MIN : (int64_t)1 << 40);
	case KS: return ir_con_f32(f, n % 3 == 0 ? -1.5f : n % 3 == 1 ? -0.0f : 1e-40f);
	case KD: return ir_con_f64(f, n % 3 == 0 ? 0.1 : n % 3 == 1 ? -0.0 : 1e300);
	default: return REF_NONE;
	}
}

static const ScalarKind kinds[] = {
	SK_BOOL, SK_I8, SK_I16, SK_I32, SK_I64, SK_U8, SK_U16, SK_U32, SK_U64, SK_F16, SK_F32, SK_F64,
};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

/* ------------------------------------------------------------ tests */

TEST(version_map)
{
	CHECK_EQ_INT(ptx_version_for(11000, 75, 0), 70);
	CHECK_EQ_INT(ptx_version_for(11010, 75, 0), 71);
	CHECK_EQ_INT(ptx_version_for(11080, 75, 0), 78);
	CHECK_EQ_INT(ptx_version_for(11040, 80, 0), 74);
	CHECK_EQ_INT(ptx_version_for(12000, 80, 0), 80);
	CHECK_EQ_INT(ptx_version_for(12030, 90, 0), 83);
	CHECK_EQ_INT(ptx_version_for(12050, 90, 0), 85);
	CHECK_EQ_INT(ptx_version_for(12060, 90, 0), 85);
	CHECK_EQ_INT(ptx_version_for(12080, 90, 0), 87);
	CHECK_EQ_INT(ptx_version_for(12090, 90, 0), 88);
	CHECK_EQ_INT(ptx_version_for(13000, 90, 0), 90);
	CHECK_EQ_INT(ptx_version_for(13020, 90, 0), 90);
	CHECK_EQ_INT(ptx_version_for(0, 75, 0), 90);
	/* never below what the target needs */
	CHECK_EQ_INT(ptx_version_for(11000, 90, 0), 78);
	CHECK_EQ_INT(ptx_version_for(11000, 89, 0), 78);
	CHECK_EQ_INT(ptx_version_for(11000, 86, 0), 71);
	CHECK_EQ_INT(ptx_version_for(10000, 80, 0), 70);
	CHECK_EQ_INT(ptx_version_for(10000, 75, 0), 63);
	CHECK_EQ_INT(ptx_version_for(12060, 100, 0), 86);
	CHECK_EQ_INT(ptx_version_for(12080, 100, 0), 87);
	CHECK_EQ_INT(ptx_version_for(12060, 120, 0), 87);
	CHECK_EQ_INT(ptx_version_for(12090, 120, 0), 88);
	/* sm_90a needs 8.0, the family targets 8.8 */
	CHECK_EQ_INT(ptx_version_for(11080, 90, 'a'), 80);
	CHECK_EQ_INT(ptx_version_for(12030, 90, 'a'), 83);
	CHECK_EQ_INT(ptx_version_for(12060, 100, 'a'), 86);
	CHECK_EQ_INT(ptx_version_for(12080, 100, 'f'), 88);
	CHECK_EQ_INT(ptx_version_for(0, 120, 'f'), 90);
}

TEST(module_header)
{
	new_ctx(0);
	K k = kbegin("vec_add");
	ir_ret(k.b);
	char *s = emit(k.f, 75);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, ".version 9.0\n.target sm_75\n.address_size 64\n");
	CHECK_STR_CONTAINS(s, ".visible .entry vec_add(\n\t.param .u64 vec_add_param_0\n)\n{");
	CHECK_STR_CONTAINS(s, "ld.param.u64 %rd0, [vec_add_param_0];");
	CHECK_STR_CONTAINS(s, "cvta.to.global.u64 %rd0, %rd0;");
	CHECK_STR_CONTAINS(s, "\tret;\n}\n");
	s = ptx_emit(&ctx, k.f, 86, ptx_version_for(11040, 86, 0));
	CHECK_STR_CONTAINS(s, ".version 7.4\n.target sm_86\n");
	CHECK(assembles(s, 86));
	s = ptx_emit(&ctx, k.f, 100, ptx_version_for(0, 100, 0));
	CHECK(assembles(s, 100));
	s = ptx_emit(&ctx, k.f, 120, ptx_version_for(12080, 120, 0));
	CHECK_STR_CONTAINS(s, ".version 8.7\n.target sm_120\n");
	CHECK(assembles(s, 120));
}

/* One parameter of every kind at natural offsets; each read and stored. */
TEST(params_every_kind)
{
	new_ctx(0);
	K k = kbegin("params");
	int off = 8;
	Ref v[NKINDS];
	for (int i = 0; i < NKINDS; i++) {
		int size = kinds[i] == SK_BOOL || kinds[i] == SK_I8 || kinds[i] == SK_U8 ? 1 :
		           kinds[i] == SK_I16 || kinds[i] == SK_U16 || kinds[i] == SK_F16 ? 2 :
		           kinds[i] == SK_I32 || kinds[i] == SK_U32 || kinds[i] == SK_F32 ? 4 : 8;
		off = (off + size - 1) / size * size;
		add_param(k.f, kinds[i], off, KP_SCALAR);
		v[i] = ir_ins(k.f, k.b, O_PARAM, ir_cls_of_sk(kinds[i]), kinds[i], REF_NONE, REF_NONE, REF_NONE, off);
		off += size;
	}
	for (int i = 0; i < NKINDS; i++)
		st(&k, kinds[i], v[i]);
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, ".param .u8 params_param_1,\n");
	CHECK_STR_CONTAINS(s, ".param .s8 params_param_2,\n");
	CHECK_STR_CONTAINS(s, ".param .s16 params_param_3,\n");
	CHECK_STR_CONTAINS(s, ".param .s64 params_param_5,\n");
	CHECK_STR_CONTAINS(s, ".param .b16 params_param_10,\n");
	CHECK_STR_CONTAINS(s, ".param .f64 params_param_12\n)");
	CHECK_STR_CONTAINS(s, "ld.param.s8 %r");
	CHECK_STR_CONTAINS(s, "ld.param.u16 %r");
	CHECK_STR_CONTAINS(s, "ld.param.f32 %f");
	CHECK_STR_CONTAINS(s, "ld.param.b16 %h");
	CHECK_STR_CONTAINS(s, "cvt.f32.f16 %f");
	CHECK_STR_CONTAINS(s, "st.global.u8 [");
	CHECK_STR_CONTAINS(s, "st.global.b16 [");
	/* only the data pointer is converted to a global address */
	CHECK_EQ_INT(count_of(s, "cvta.to.global.u64"), 1);
}

TEST(params_layout_mismatch)
{
	new_ctx(0);
	K k = kbegin("bad_layout");
	add_param(k.f, SK_I32, 8, KP_SCALAR);
	add_param(k.f, SK_I64, 12, KP_SCALAR);   /* PTX puts an s64 at 16 */
	ir_ret(k.b);
	CHECK(emit_fails(k.f, "offset 12, PTX lays it at 16"));
}

/* Binary operations: every op, class and kind it accepts, with a register
 * or a constant in each position. */
TEST(binary_ops)
{
	static const Opcode ops[] = {O_ADD, O_SUB, O_MUL, O_DIV, O_REM, O_AND, O_OR, O_XOR,
	                             O_SHL, O_SHR, O_MIN, O_MAX};
	static const ScalarKind sks[] = {SK_BOOL, SK_I8, SK_U16, SK_I32, SK_U32, SK_I64, SK_U64,
	                                 SK_F16, SK_F32, SK_F64};
	new_ctx(0);
	K k = kbegin("binops");
	int n = 0;
	for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
		for (size_t t = 0; t < sizeof sks / sizeof *sks; t++) {
			Opcode op = ops[o];
			ScalarKind sk = sks[t];
			Cls cl = ir_cls_of_sk(sk);
			int flt = cl == KS || cl == KD;
			if (cl == KB && !(op == O_AND || op == O_OR || op == O_XOR || op == O_MIN || op == O_MAX))
				continue;
			if (flt && (op == O_REM || op == O_AND || op == O_OR || op == O_XOR || op == O_SHL || op == O_SHR))
				continue;
			for (int form = 0; form < 3; form++) {
				Ref a = operand(&k, sk, form == 1, n++), b = operand(&k, sk, form == 2, n++);
				if (op == O_SHL || op == O_SHR) {
					if (form == 0 && cl == KL)   /* a 32-bit count on a 64-bit shift */
						b = ld(&k, SK_U32);
					else if (form == 2)
						b = ir_con_int(k.f, cl, n % 2 ? 3 : 1000);
				}
				if ((op == O_DIV || op == O_REM) && form == 2 && !flt && n % 2)
					b = ir_con_int(k.f, cl, 0);
				st(&k, sk, ir_ins(k.f, k.b, op, cl, sk, a, b, REF_NONE, 0));
			}
		}
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, "add.s32 %r");
	CHECK_STR_CONTAINS(s, "mul.lo.s64 %rd");
	CHECK_STR_CONTAINS(s, "add.rn.f32 %f");
	CHECK_STR_CONTAINS(s, "sub.rn.f64 %fd");
	CHECK_STR_CONTAINS(s, "mul.rn.f32 %f");
	CHECK_STR_CONTAINS(s, "div.rn.f32 %f");
	CHECK_STR_CONTAINS(s, "div.rn.f64 %fd");
	CHECK_STR_CONTAINS(s, "div.u32 %r");
	/* 64-bit division is written out (idiv.c): ptxas would call a routine */
	CHECK(!strstr(s, "div.s64") && !strstr(s, "div.u64") && !strstr(s, "rem.s64") && !strstr(s, "rem.u64"));
	CHECK_STR_CONTAINS(s, "rcp.approx.ftz.f32 %f");
	CHECK_STR_CONTAINS(s, "mul.hi.u64 %rd");
	CHECK_STR_CONTAINS(s, "shr.s64 %rd");
	CHECK_STR_CONTAINS(s, "shr.u32 %r");
	CHECK_STR_CONTAINS(s, "cvt.sat.u32.u64 %r");
	CHECK_STR_CONTAINS(s, "min.u64 %rd");
	CHECK_STR_CONTAINS(s, "max.s32 %r");
	CHECK_STR_CONTAINS(s, "min.f32 %f");
	CHECK_STR_CONTAINS(s, "max.f64 %fd");
	CHECK_STR_CONTAINS(s, "and.pred %p");
	CHECK_STR_CONTAINS(s, "or.pred %p");
	CHECK_STR_CONTAINS(s, "xor.b64 %rd");
	/* int8 and uint16 results are re-extended from their width */
	CHECK_STR_CONTAINS(s, "cvt.s32.s8 %r");
	CHECK_STR_CONTAINS(s, "cvt.u32.u16 %r");
	/* float16 arithmetic is rounded to float16 */
	CHECK_STR_CONTAINS(s, "cvt.rn.f16.f32 %h");
	/* integer division guards a zero divisor */
	CHECK_STR_CONTAINS(s, "setp.eq.b64 %p");
	CHECK_STR_CONTAINS(s, "selp.b64 %rd");
	/* a constant too large for a shift is clamped, not wrapped */
	CHECK(!line_has(s, "sh", ", 1000;"));
	CHECK(line_has(s, "shl.b32", ", 255;"));
	/* constants are written bit-exactly */
	CHECK_STR_CONTAINS(s, "0fBFC00000");            /* -1.5f */
	CHECK_STR_CONTAINS(s, "0f80000000");            /* -0.0f */
	CHECK_STR_CONTAINS(s, "0f000116C2");            /* 1e-40f, subnormal */
	CHECK_STR_CONTAINS(s, "0d3FB999999999999A");    /* 0.1 */
	CHECK_STR_CONTAINS(s, "0x8000000000000000");    /* INT64_MIN */
	CHECK_STR_CONTAINS(s, "-2147483648");           /* INT32_MIN */
	/* every float add/sub/mul rounds explicitly, so ptxas never contracts */
	CHECK(!line_has(s, "add.f", "") && !line_has(s, "sub.f", "") && !line_has(s, "mul.f", ""));
}

/* Division by a variable zero is selected away: the replayed sequence
 * has the shape setp.eq / selp 1 / div / selp 0. */
TEST(int_division_guard)
{
	new_ctx(0);
	K k = kbegin("divguard");
	Ref a = ld(&k, SK_I32), b = ld(&k, SK_I32), u = ld(&k, SK_U64), w = ld(&k, SK_U64);
	st(&k, SK_I32, ir_ins(k.f, k.b, O_DIV, KW, SK_I32, a, b, REF_NONE, 0));
	st(&k, SK_I32, ir_ins(k.f, k.b, O_REM, KW, SK_I32, a, b, REF_NONE, 0));
	st(&k, SK_I32, ir_ins(k.f, k.b, O_DIV, KW, SK_I32, a, ir_con_int(k.f, KW, 0), REF_NONE, 0));
	st(&k, SK_I32, ir_ins(k.f, k.b, O_REM, KW, SK_I32, a, ir_con_int(k.f, KW, 0), REF_NONE, 0));
	st(&k, SK_I32, ir_ins(k.f, k.b, O_DIV, KW, SK_I32, a, ir_con_int(k.f, KW, -1), REF_NONE, 0));
	st(&k, SK_I32, ir_ins(k.f, k.b, O_REM, KW, SK_I32, a, ir_con_int(k.f, KW, -1), REF_NONE, 0));
	st(&k, SK_U64, ir_ins(k.f, k.b, O_DIV, KL, SK_U64, u, w, REF_NONE, 0));
	st(&k, SK_U64, ir_ins(k.f, k.b, O_DIV, KL, SK_U64, u, ir_con_int(k.f, KL, -1), REF_NONE, 0));
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	/* values: a %r0, b %r1, div %r2, rem %r3, div0 %r4, rem0 %r5, div-1 %r6,
	 * rem-1 %r7; u %rd?, w %rd?; temporaries follow */
	CHECK_STR_CONTAINS(s, "setp.eq.b32 %p0, %r1, 0;\n"
	                      "\tsetp.eq.b32 %p1, %r1, -1;\n"
	                      "\tor.pred %p2, %p0, %p1;\n"
	                      "\tselp.b32 %r8, 1, %r1, %p2;\n"
	                      "\tdiv.s32 %r9, %r0, %r8;\n"
	                      "\tneg.s32 %r10, %r0;\n"
	                      "\tselp.b32 %r11, %r10, %r9, %p1;\n"
	                      "\tselp.b32 %r2, 0, %r11, %p0;\n");
	CHECK_STR_CONTAINS(s, "rem.s32 %r13, %r0, %r12;\n\tselp.b32 %r3, %r0, %r13, %p3;\n");
	CHECK_STR_CONTAINS(s, "mov.b32 %r4, 0;\n");
	CHECK_STR_CONTAINS(s, "mov.b32 %r5, %r0;\n");
	CHECK_STR_CONTAINS(s, "neg.s32 %r6, %r0;\n");
	CHECK_STR_CONTAINS(s, "mov.b32 %r7, 0;\n");
	/* unsigned: only zero is special; all-ones is an ordinary divisor */
	CHECK(line_has(s, "selp.b64", ", 1, "));
	CHECK(line_has(s, "mov.b64", ", 0x8000000000000001;"));   /* the magic number of 2^64 - 1 */
	CHECK(!line_has(s, "setp.eq.b64", ", -1;"));
}

TEST(unary_ops)
{
	static const Opcode ops[] = {O_NEG, O_NOT, O_ABS, O_SQRT, O_FLOOR, O_CEIL, O_TRUNC, O_RINT};
	static const ScalarKind sks[] = {SK_BOOL, SK_I8, SK_U8, SK_I32, SK_U32, SK_I64, SK_U64,
	                                 SK_F16, SK_F32, SK_F64};
	new_ctx(0);
	K k = kbegin("unops");
	int n = 0;
	for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
		for (size_t t = 0; t < sizeof sks / sizeof *sks; t++) {
			Opcode op = ops[o];
			ScalarKind sk = sks[t];
			Cls cl = ir_cls_of_sk(sk);
			int flt = cl == KS || cl == KD;
			if (cl == KB && op != O_NOT && op != O_ABS)
				continue;
			if (flt && op == O_NOT)
				continue;
			if (!flt && op == O_SQRT)
				continue;
			if (cl == KB && op == O_NEG)
				continue;
			for (int form = 0; form < 2; form++) {
				Ref a = operand(&k, sk, form, n++);
				st(&k, sk, ir_ins(k.f, k.b, op, cl, sk, a, REF_NONE, REF_NONE, 0));
			}
		}
	/* fma */
	for (int t = 0; t < 3; t++) {
		ScalarKind sk = t == 0 ? SK_F32 : t == 1 ? SK_F64 : SK_F16;
		Cls cl = ir_cls_of_sk(sk);
		for (int form = 0; form < 4; form++) {
			Ref a = operand(&k, sk, form == 1, n++), b = operand(&k, sk, form == 2, n++),
			    c = operand(&k, sk, form == 3, n++);
			st(&k, sk, ir_ins(k.f, k.b, O_FMA, cl, sk, a, b, c, 0));
		}
	}
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, "neg.s64 %rd");
	CHECK_STR_CONTAINS(s, "neg.f32 %f");
	CHECK_STR_CONTAINS(s, "not.pred %p");
	CHECK_STR_CONTAINS(s, "xor.b32 %r");
	CHECK_STR_CONTAINS(s, "abs.s32 %r");
	CHECK_STR_CONTAINS(s, "abs.f64 %fd");
	CHECK_STR_CONTAINS(s, "sqrt.rn.f32 %f");
	CHECK_STR_CONTAINS(s, "sqrt.rn.f64 %fd");
	CHECK_STR_CONTAINS(s, "cvt.rmi.f32.f32 %f");
	CHECK_STR_CONTAINS(s, "cvt.rpi.f64.f64 %fd");
	CHECK_STR_CONTAINS(s, "cvt.rzi.f32.f32 %f");
	CHECK_STR_CONTAINS(s, "cvt.rni.f64.f64 %fd");
	CHECK_STR_CONTAINS(s, "fma.rn.f32 %f");
	CHECK_STR_CONTAINS(s, "fma.rn.f64 %fd");
	CHECK(!strstr(s, "abs.s64") || strstr(s, "abs.s64 %rd"));
	CHECK(!strstr(s, "abs.u"));        /* |x| of an unsigned value is x */
	CHECK(!strstr(s, "approx"));
}

TEST(fastmath)
{
	new_ctx(1);
	K k = kbegin("fast");
	Ref a = ld(&k, SK_F32), b = ld(&k, SK_F32), x = ld(&k, SK_F64), y = ld(&k, SK_F64);
	st(&k, SK_F32, ir_ins(k.f, k.b, O_DIV, KS, SK_F32, a, b, REF_NONE, 0));
	st(&k, SK_F32, ir_ins(k.f, k.b, O_SQRT, KS, SK_F32, a, REF_NONE, REF_NONE, 0));
	st(&k, SK_F32, ir_ins(k.f, k.b, O_ADD, KS, SK_F32, a, b, REF_NONE, 0));
	st(&k, SK_F32, ir_ins(k.f, k.b, O_MUL, KS, SK_F32, a, b, REF_NONE, 0));
	st(&k, SK_F32, ir_ins(k.f, k.b, O_FMA, KS, SK_F32, a, b, a, 0));
	st(&k, SK_F64, ir_ins(k.f, k.b, O_DIV, KD, SK_F64, x, y, REF_NONE, 0));
	st(&k, SK_F64, ir_ins(k.f, k.b, O_SQRT, KD, SK_F64, x, REF_NONE, REF_NONE, 0));
	st(&k, SK_F64, ir_ins(k.f, k.b, O_ADD, KD, SK_F64, x, y, REF_NONE, 0));
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, "div.approx.ftz.f32 %f");
	CHECK_STR_CONTAINS(s, "sqrt.approx.ftz.f32 %f");
	CHECK_STR_CONTAINS(s, "add.rn.ftz.f32 %f");
	CHECK_STR_CONTAINS(s, "mul.rn.ftz.f32 %f");
	CHECK_STR_CONTAINS(s, "fma.rn.ftz.f32 %f");
	CHECK_STR_CONTAINS(s, "div.rn.f64 %fd");
	CHECK_STR_CONTAINS(s, "sqrt.rn.f64 %fd");
	CHECK_STR_CONTAINS(s, "add.rn.f64 %fd");
	CHECK(!strstr(s, "ftz.f64"));
	new_ctx(0);
}

TEST(compare_select)
{
	static const ScalarKind sks[] = {SK_BOOL, SK_I32, SK_U32, SK_I64, SK_U64, SK_F32, SK_F64, SK_I8};
	new_ctx(0);
	K k = kbegin("cmpsel");
	int n = 0;
	for (size_t t = 0; t < sizeof sks / sizeof *sks; t++)
		for (int cc = 0; cc < NCC; cc++)
			for (int form = 0; form < 3; form++) {
				ScalarKind sk = sks[t];
				Ref a = operand(&k, sk, form == 1, n++), b = operand(&k, sk, form == 2, n++);
				st(&k, SK_BOOL, ir_ins(k.f, k.b, O_CMP, KB, sk, a, b, REF_NONE, cc));
			}
	for (size_t t = 0; t < sizeof sks / sizeof *sks; t++)
		for (int form = 0; form < 4; form++) {
			ScalarKind sk = sks[t];
			Cls cl = ir_cls_of_sk(sk);
			Ref c = operand(&k, SK_BOOL, form == 3, n++);
			Ref a = operand(&k, sk, form == 1, n++), b = operand(&k, sk, form == 2, n++);
			st(&k, sk, ir_ins(k.f, k.b, O_SEL, cl, sk, c, a, b, 0));
		}
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, "setp.lt.s32 %p");
	CHECK_STR_CONTAINS(s, "setp.lo.u32 %p");
	CHECK_STR_CONTAINS(s, "setp.hs.u64 %p");
	CHECK_STR_CONTAINS(s, "setp.ge.s64 %p");
	CHECK_STR_CONTAINS(s, "setp.eq.b64 %p");
	CHECK_STR_CONTAINS(s, "setp.neu.f32 %p");    /* != is true for NaN */
	CHECK_STR_CONTAINS(s, "setp.lt.f64 %p");     /* ordered */
	CHECK_STR_CONTAINS(s, "setp.gtu.f32 %p");
	CHECK(!strstr(s, "setp.ne.f32") && !strstr(s, "setp.ne.f64"));
	CHECK_STR_CONTAINS(s, "xor.pred %p");
	CHECK_STR_CONTAINS(s, "selp.b32 %r");
	CHECK_STR_CONTAINS(s, "selp.f64 %fd");
	CHECK_STR_CONTAINS(s, "selp.u32 %r");        /* bools stored as bytes */
}

/* Every pair of scalar kinds, from a register and from a constant. */
TEST(conversions)
{
	new_ctx(0);
	K k = kbegin("cvts");
	int n = 0;
	for (int i = 0; i < NKINDS; i++)
		for (int j = 0; j < NKINDS; j++)
			for (int form = 0; form < 2; form++) {
				ScalarKind from = kinds[i], to = kinds[j];
				Ref a = operand(&k, from, form, n++);
				st(&k, to, ir_ins(k.f, k.b, O_CVT, ir_cls_of_sk(to), from, a, REF_NONE, REF_NONE, to));
			}
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, "cvt.s64.s32 %rd");
	CHECK_STR_CONTAINS(s, "cvt.u64.u32 %rd");
	CHECK_STR_CONTAINS(s, "cvt.u32.u64 %r");
	CHECK_STR_CONTAINS(s, "cvt.s32.s8 %r");
	CHECK_STR_CONTAINS(s, "cvt.u32.u16 %r");
	CHECK_STR_CONTAINS(s, "cvt.rn.f32.s64 %f");
	CHECK_STR_CONTAINS(s, "cvt.rn.f64.u64 %fd");
	CHECK_STR_CONTAINS(s, "cvt.rzi.s64.f64 %rd");
	CHECK_STR_CONTAINS(s, "cvt.rzi.u32.f32 %r");
	/* float -> 8/16 bits: saturated to 16 bits, extended from the kind */
	CHECK_STR_CONTAINS(s, "cvt.rzi.u16.f32 %h");
	CHECK_STR_CONTAINS(s, "cvt.rzi.s16.f64 %h");
	CHECK_STR_CONTAINS(s, "cvt.u32.u8 %r");
	CHECK_STR_CONTAINS(s, "cvt.s32.s16 %r");
	CHECK(!strstr(s, "min.u32") && !strstr(s, "max.s32"));
	CHECK_STR_CONTAINS(s, "cvt.f64.f32 %fd");
	CHECK_STR_CONTAINS(s, "cvt.rn.f32.f64 %f");
	CHECK_STR_CONTAINS(s, "cvt.rn.f16.f64 %h");   /* one rounding, not two */
	CHECK_STR_CONTAINS(s, "cvt.rn.f16.s64 %h");
	CHECK_STR_CONTAINS(s, "setp.neu.f64 %p");     /* bool(nan) is True */
	CHECK_STR_CONTAINS(s, "setp.ne.b32 %p");
	CHECK_STR_CONTAINS(s, "selp.b64 %rd");
	CHECK_STR_CONTAINS(s, "selp.f32 %f");
	CHECK_STR_CONTAINS(s, "0f3F800000, 0f00000000");
}

TEST(bits_copy_sreg)
{
	new_ctx(0);
	K k = kbegin("misc");
	Ref w = ld(&k, SK_I32), x = ld(&k, SK_F32), l = ld(&k, SK_I64), d = ld(&k, SK_F64);
	st(&k, SK_F32, ir_ins(k.f, k.b, O_BITS, KS, SK_F32, w, REF_NONE, REF_NONE, 0));
	st(&k, SK_I32, ir_ins(k.f, k.b, O_BITS, KW, SK_I32, x, REF_NONE, REF_NONE, 0));
	st(&k, SK_F64, ir_ins(k.f, k.b, O_BITS, KD, SK_F64, l, REF_NONE, REF_NONE, 0));
	st(&k, SK_I64, ir_ins(k.f, k.b, O_BITS, KL, SK_I64, d, REF_NONE, REF_NONE, 0));
	st(&k, SK_I32, ir_ins(k.f, k.b, O_BITS, KW, SK_I32, ir_con_f32(k.f, 1.0f), REF_NONE, REF_NONE, 0));
	st(&k, SK_F64, ir_ins(k.f, k.b, O_BITS, KD, SK_F64, ir_con_int(k.f, KL, -1), REF_NONE, REF_NONE, 0));
	for (int i = 0; i < NKINDS; i++) {
		Cls cl = ir_cls_of_sk(kinds[i]);
		st(&k, kinds[i], ir_ins(k.f, k.b, O_COPY, cl, kinds[i], operand(&k, kinds[i], 0, i), REF_NONE, REF_NONE, 0));
		st(&k, kinds[i], ir_ins(k.f, k.b, O_COPY, cl, kinds[i], operand(&k, kinds[i], 1, i), REF_NONE, REF_NONE, 0));
	}
	for (int r = 0; r < NSR; r++)
		st(&k, SK_I32, ir_ins(k.f, k.b, O_SREG, KW, SK_I32, REF_NONE, REF_NONE, REF_NONE, r));
	ir_ins(k.f, k.b, O_BAR, KX, SK_BOOL, REF_NONE, REF_NONE, REF_NONE, 0);
	for (int m = 0; m < 3; m++)
		ir_ins(k.f, k.b, O_MEMBAR, KX, SK_BOOL, REF_NONE, REF_NONE, REF_NONE, m);
	ir_ins(k.f, k.b, O_NOP_, KX, SK_BOOL, REF_NONE, REF_NONE, REF_NONE, 0);
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, "mov.b32 %f");
	CHECK_STR_CONTAINS(s, "mov.b64 %rd");
	CHECK_STR_CONTAINS(s, ", 0f3F800000;");
	CHECK_STR_CONTAINS(s, "mov.u32 %r");
	CHECK_STR_CONTAINS(s, ", %tid.x;");
	CHECK_STR_CONTAINS(s, ", %nctaid.z;");
	CHECK_STR_CONTAINS(s, ", %laneid;");
	CHECK_STR_CONTAINS(s, ", WARP_SZ;");
	CHECK_STR_CONTAINS(s, "bar.sync 0;");
	CHECK_STR_CONTAINS(s, "membar.cta;");
	CHECK_STR_CONTAINS(s, "membar.gl;");
	CHECK_STR_CONTAINS(s, "membar.sys;");
}

/* Loads and stores of every kind in every space, through static arrays. */
TEST(memory_spaces)
{
	new_ctx(0);
	K k = kbegin("mem");
	static const unsigned char init[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255};
	SArray arrs[] = {
		{.space = SP_SHARED, .size = 1024, .align = 4, .name = "sm"},
		{.space = SP_SHARED, .dynamic = 1, .align = 16, .name = "dyn"},
		{.space = SP_LOCAL, .size = 96, .align = 8, .name = "loc"},
		{.space = SP_CONST, .size = 12, .align = 8, .init = init, .name = "tab"},
	};
	for (int i = 0; i < 4; i++)
		VEC_PUSH(&ctx, k.f->arrays, k.f->narrays, k.f->caparrays, arrs[i]);
	Ref base[4];
	for (int i = 0; i < 4; i++)
		base[i] = ir_ins(k.f, k.b, O_ADDR, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, i);
	static const int space[4] = {SP_SHARED, SP_SHARED, SP_LOCAL, SP_CONST};
	int n = 0;
	for (int a = 0; a < 4; a++)
		for (int i = 0; i < NKINDS; i++) {
			ScalarKind sk = kinds[i];
			Cls cl = ir_cls_of_sk(sk);
			Ref p = ir_ins(k.f, k.b, O_ADD, KL, SK_I64, base[a], ir_con_int(k.f, KL, 8 * i), REF_NONE, 0);
			Ref v = ir_ins(k.f, k.b, O_LOAD, cl, sk, p, REF_NONE, REF_NONE, space[a]);
			st(&k, sk, v);
			if (space[a] != SP_CONST) {
				ir_ins(k.f, k.b, O_STORE, cl, sk, p, ld(&k, sk), REF_NONE, space[a]);
				ir_ins(k.f, k.b, O_STORE, cl, sk, p, operand(&k, sk, 1, n++), REF_NONE, space[a]);
			}
		}
	/* generic space: a global pointer used as a generic one */
	Ref g = ld(&k, SK_U64);
	for (int i = 0; i < NKINDS; i++) {
		ScalarKind sk = kinds[i];
		Ref v = ir_ins(k.f, k.b, O_LOAD, ir_cls_of_sk(sk), sk, g, REF_NONE, REF_NONE, SP_GENERIC);
		ir_ins(k.f, k.b, O_STORE, ir_cls_of_sk(sk), sk, g, v, REF_NONE, SP_GENERIC);
	}
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, ".extern .shared .align 16 .b8 __pj_dsmem[];\n");
	CHECK_STR_CONTAINS(s, ".shared .align 4 .b8 __pj_smem0[1024];\n");
	CHECK_STR_CONTAINS(s, "\t.local .align 8 .b8 __pj_lmem2[96];\n");
	CHECK_STR_CONTAINS(s, ".const .align 8 .b8 __pj_cmem3[12] = {\n\t1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255\n};\n");
	CHECK_STR_CONTAINS(s, "mov.u64 %rd");
	CHECK_STR_CONTAINS(s, ", __pj_smem0;");
	CHECK_STR_CONTAINS(s, ", __pj_dsmem;");
	CHECK_STR_CONTAINS(s, "ld.shared.s8 %r");
	CHECK_STR_CONTAINS(s, "ld.shared.u16 %r");
	CHECK_STR_CONTAINS(s, "ld.local.f64 %fd");
	CHECK_STR_CONTAINS(s, "ld.const.u64 %rd");
	CHECK_STR_CONTAINS(s, "ld.const.b16 %h");
	CHECK_STR_CONTAINS(s, "st.shared.u8 [");
	CHECK_STR_CONTAINS(s, "st.local.b16 [");
	CHECK_STR_CONTAINS(s, "ld.f32 %f");          /* generic */
	CHECK_STR_CONTAINS(s, "st.s64 [");
	CHECK(!strstr(s, "st.const"));
}

TEST(atomics)
{
	static const ScalarKind sks[] = {SK_I32, SK_U32, SK_I64, SK_U64, SK_F32, SK_F64};
	static const int spaces[] = {SP_GLOBAL, SP_SHARED, SP_GENERIC};
	new_ctx(0);
	K k = kbegin("atoms");
	SArray sm = {.space = SP_SHARED, .size = 64, .align = 8, .name = "sm"};
	VEC_PUSH(&ctx, k.f->arrays, k.f->narrays, k.f->caparrays, sm);
	Ref smem = ir_ins(k.f, k.b, O_ADDR, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, 0);
	int n = 0;
	for (size_t s = 0; s < 3; s++)
		for (int op = 0; op < NAT; op++)
			for (size_t t = 0; t < sizeof sks / sizeof *sks; t++) {
				ScalarKind sk = sks[t];
				Cls cl = ir_cls_of_sk(sk);
				int flt = cl == KS || cl == KD;
				if (flt && (op == AT_AND || op == AT_OR || op == AT_XOR || op == AT_INC ||
				            op == AT_DEC || op == AT_CAS))
					continue;
				for (int form = 0; form < 2; form++) {
					Ref p = spaces[s] == SP_SHARED ? smem : ld(&k, SK_U64);
					Ref v = operand(&k, sk, form, n++);
					Ref c = op == AT_CAS ? operand(&k, sk, !form, n++) : REF_NONE;
					st(&k, sk, ir_ins(k.f, k.b, O_ATOM, cl, sk, p, v, c, op | spaces[s] << 8));
				}
			}
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, "atom.global.add.f32 %f");
	CHECK_STR_CONTAINS(s, "atom.shared.add.f64 %fd");
	CHECK_STR_CONTAINS(s, "atom.shared.add.u64 %rd");
	CHECK_STR_CONTAINS(s, "atom.add.u32 %r");           /* generic */
	CHECK_STR_CONTAINS(s, "atom.global.cas.b32 %r");
	CHECK_STR_CONTAINS(s, "atom.global.exch.b64 %rd");
	CHECK_STR_CONTAINS(s, "atom.global.inc.u32 %r");
	CHECK_STR_CONTAINS(s, "atom.global.dec.u32 %r");
	CHECK_STR_CONTAINS(s, "atom.global.min.s32 %r");
	CHECK_STR_CONTAINS(s, "atom.global.max.u64 %rd");
	CHECK_STR_CONTAINS(s, "atom.shared.and.b32 %r");
	CHECK_STR_CONTAINS(s, "atom.global.xor.b64 %rd");
	CHECK_STR_CONTAINS(s, "neg.f32 %f");                /* float sub */
	CHECK_STR_CONTAINS(s, "neg.s64 %rd");               /* int sub */
	/* CAS loops: float min/max, 64-bit inc/dec */
	CHECK_STR_CONTAINS(s, "setp.nan.f32 %p");
	CHECK_STR_CONTAINS(s, "setp.ltu.f64 %p");           /* nanmax */
	CHECK_STR_CONTAINS(s, "setp.gt.f32 %p");            /* min */
	CHECK_STR_CONTAINS(s, "atom.shared.cas.b64 %rd");
	CHECK_STR_CONTAINS(s, "$L_x");
	CHECK(!strstr(s, "atom.global.max.f") && !strstr(s, "atom.global.inc.u64"));
}

/* The float max CAS loop, exactly: its control flow is what Numba does. */
TEST(atomic_max_loop)
{
	new_ctx(0);
	K k = kbegin("amax");
	Ref v = ld(&k, SK_F32);
	st(&k, SK_F32, ir_ins(k.f, k.b, O_ATOM, KS, SK_F32, k.base, v, REF_NONE, AT_MAX | SP_GLOBAL << 8));
	ir_ret(k.b);
	char *s = emit_both(k.f);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s,
	        "\tld.volatile.global.f32 %f2, [%rd0];\n"
	        "\tsetp.nan.f32 %p0, %f2, %f0;\n"
	        "\t@%p0 bra $L_x1;\n"
	        "$L_x0:\n"
	        "\tsetp.lt.f32 %p0, %f2, %f0;\n"
	        "\t@!%p0 bra $L_x1;\n"
	        "\tmov.b32 %r0, %f2;\n"
	        "\tmov.b32 %r1, %f0;\n"
	        "\tatom.global.cas.b32 %r2, [%rd0], %r0, %r1;\n"
	        "\tsetp.ne.b32 %p1, %r2, %r0;\n"
	        "\tmov.b32 %f2, %r2;\n"
	        "\t@%p1 bra $L_x0;\n"
	        "$L_x1:\n"
	        "\tmov.f32 %f1, %f2;\n");
}

/* Replays the movs between label `from` and the next jump or label,
 * starting with every register holding its own name, and returns what
 * register `reg` holds at the end. */
static const char *replay(const char *s, const char *from, const char *reg)
{
	static char env[64][2][16];
	int n = 0;
	const char *p = strstr(s, from);
	if (!p)
		return "(no block)";
	for (p = strchr(p, '\n') + 1; *p == '\t'; p = strchr(p, '\n') + 1) {
		char dst[16], src[16];
		if (strncmp(p, "\tbra", 4) == 0 || strncmp(p, "\t@", 2) == 0)
			break;
		if (strncmp(p, "\tmov.", 5) != 0)
			continue;
		if (sscanf(strchr(p, ' ') + 1, "%15[^,], %15[^;]", dst, src) != 2)
			break;
		const char *val = src;
		for (int i = 0; i < n; i++)
			if (strcmp(env[i][0], src) == 0)
				val = env[i][1];
		char tmp[16];
		snprintf(tmp, sizeof tmp, "%s", val);
		int i;
		for (i = 0; i < n; i++)
			if (strcmp(env[i][0], dst) == 0)
				break;
		if (i == n && n < 64)
			n++;
		snprintf(env[i][0], 16, "%s", dst);
		snprintf(env[i][1], 16, "%s", tmp);
	}
	for (int i = 0; i < n; i++)
		if (strcmp(env[i][0], reg) == 0)
			return env[i][1];
	return reg;
}

/* The register ptx_emit gives value v: values are numbered per class. */
static const char *regname(Fn *f, int v)
{
	static char buf[8][16];
	static int slot;
	static const char *const prefix[NK] = {"%x", "%p", "%r", "%rd", "%f", "%fd"};
	int n = 0;
	for (int i = 0; i < v; i++)
		n += f->val[i].cls == f->val[v].cls;
	char *b = buf[slot++ % 8];
	snprintf(b, 16, "%s%d", prefix[f->val[v].cls], n);
	return b;
}

/*
 * A loop that swaps two values each trip (a, b = b, a), which needs the
 * phi moves to be one parallel copy:
 *
 *   0: jmp 1
 *   1: a = phi(x, b) b = phi(y, a) i = phi(0, i1); c = i < n; jnz c, 2, 3
 *   2: i1 = i + 1; jmp 1
 *   3: store a, b; ret
 */
TEST(phi_swap_loop)
{
	new_ctx(0);
	K k = kbegin("swap");
	Fn *f = k.f;
	Blk *b0 = k.b, *b1 = ir_new_blk(f), *b2 = ir_new_blk(f), *b3 = ir_new_blk(f);
	Ref x = ld(&k, SK_I32), y = ld(&k, SK_I32), n = ld(&k, SK_I64);
	ir_jmp(b0, 1);
	ir_jnz(b1, REF_NONE, 2, 3);
	ir_jmp(b2, 1);
	ir_ret(b3);
	ir_fill_preds(f);
	CHECK_EQ_INT(b1->npred, 2);
	if (b1->npred != 2 || b1->pred[0] != 0 || b1->pred[1] != 2)
		return;
	int va = ir_add_phi(f, b1, KW, 2)->to;
	int vb = ir_add_phi(f, b1, KW, 2)->to;
	int vi = ir_add_phi(f, b1, KL, 2)->to;
	Ref i1 = ir_ins(f, b2, O_ADD, KL, SK_I64, REF_VAL(vi), ir_con_int(f, KL, 1), REF_NONE, 0);
	b1->phi[0].arg[0] = x;
	b1->phi[0].arg[1] = REF_VAL(vb);
	b1->phi[1].arg[0] = y;
	b1->phi[1].arg[1] = REF_VAL(va);
	b1->phi[2].arg[0] = ir_con_int(f, KL, 0);
	b1->phi[2].arg[1] = i1;
	b1->cond = ir_ins(f, b1, O_CMP, KB, SK_I64, REF_VAL(vi), n, REF_NONE, CC_LT);
	k.b = b3;
	st(&k, SK_I32, REF_VAL(va));
	st(&k, SK_I32, REF_VAL(vb));
	char *s = emit_both(f);
	CHECK(s != NULL);
	if (!s)
		return;
	const char *ra = regname(f, va), *rb = regname(f, vb), *ri = regname(f, vi);
	/* edge 2 -> 1: a gets b's old value and b gets a's */
	CHECK(strcmp(replay(s, "$L_2:", ra), rb) == 0);
	CHECK(strcmp(replay(s, "$L_2:", rb), ra) == 0);
	CHECK(strcmp(replay(s, "$L_2:", ri), regname(f, (int)i1.idx)) == 0);
	/* edge 0 -> 1: the loads and the constant; no temporaries needed */
	char want[64];
	snprintf(want, sizeof want, "mov.b32 %s, %s;\n", ra, regname(f, (int)x.idx));
	CHECK_STR_CONTAINS(s, want);
	snprintf(want, sizeof want, "mov.b64 %s, 0;\n", ri);
	CHECK_STR_CONTAINS(s, want);
	/* block 1 falls through to 2 and branches out to 3 when c is false */
	snprintf(want, sizeof want, "@!%s bra $L_3;\n$L_2:\n", regname(f, (int)b1->cond.idx));
	CHECK_STR_CONTAINS(s, want);
	/* the back edge 2 -> 1 repeats block 1's test and branches to the
	 * body: a bottom-tested loop (no bra.uni back to the test) */
	snprintf(want, sizeof want, "@%s bra $L_2;\n$L_3:\n", regname(f, (int)b1->cond.idx));
	CHECK_STR_CONTAINS(s, want);
	CHECK(!strstr(s, "bra.uni $L_1"));
	CHECK(!strstr(s, "bra.uni $L_2"));
}

/* A phi in a block with one predecessor is resolved at the block's top. */
TEST(phi_single_pred_and_jumps)
{
	new_ctx(0);
	K k = kbegin("jumps");
	Fn *f = k.f;
	Blk *b0 = k.b, *b1 = ir_new_blk(f), *b2 = ir_new_blk(f), *b3 = ir_new_blk(f), *b4 = ir_new_blk(f);
	Ref v = ld(&k, SK_F64);
	Ref c = ir_ins(f, b0, O_CMP, KB, SK_F64, v, ir_con_f64(f, 0.0), REF_NONE, CC_GT);
	ir_jnz(b0, c, 2, 1);                      /* s2 is next: @p bra $L_2 */
	ir_jnz(b1, ir_con_bool(f, 1), 4, 3);     /* constant: no branch to 3 */
	ir_jnz(b2, c, 4, 4);                      /* both the same: bra $L_4 */
	ir_jmp(b3, 4);
	ir_ret(b4);
	ir_fill_preds(f);
	Phi *p = ir_add_phi(f, b2, KD, 1);
	p->arg[0] = v;
	int vp = p->to;
	k.b = b2;
	st(&k, SK_F64, REF_VAL(vp));
	char *s = emit_both(f);
	CHECK(s != NULL);
	if (!s)
		return;
	char want[96];
	snprintf(want, sizeof want, "\t@%s bra $L_2;\n$L_1:\n\tbra.uni $L_4;\n$L_2:\n\tmov.f64 %s, %s;\n",
	         regname(f, (int)c.idx), regname(f, vp), regname(f, (int)v.idx));
	CHECK_STR_CONTAINS(s, want);
	CHECK_STR_CONTAINS(s, "bra.uni $L_4;\n$L_3:\n$L_4:\n\tret;\n");
	CHECK(!strstr(s, "bra $L_3") && !strstr(s, "bra.uni $L_3"));
}

TEST(critical_edge_refused)
{
	new_ctx(0);
	K k = kbegin("crit");
	Fn *f = k.f;
	Blk *b0 = k.b, *b1 = ir_new_blk(f), *b2 = ir_new_blk(f);
	Ref c = ld(&k, SK_BOOL);
	ir_jnz(b0, c, 1, 2);
	ir_jmp(b1, 2);
	ir_ret(b2);
	ir_fill_preds(f);
	Phi *p = ir_add_phi(f, b2, KW, 2);
	p->arg[0] = ir_con_int(f, KW, 1);
	p->arg[1] = ir_con_int(f, KW, 2);
	CHECK(emit_fails(f, "critical edge from block 0 to block 2"));
}

TEST(checks_and_traps)
{
	new_ctx(0);
	K k = kbegin("checked");
	Fn *f = k.f;
	Blk *b0 = k.b, *b1 = ir_new_blk(f), *b2 = ir_new_blk(f);
	Ref i = ld(&k, SK_I64), n = ld(&k, SK_I64);
	ir_ins(f, b0, O_CHECK, KL, SK_I64, i, n, REF_NONE, 0);
	ir_ins(f, b0, O_CHECK, KL, SK_I64, ir_con_int(f, KL, -1), n, REF_NONE, 0);
	ir_jnz(b0, ir_ins(f, b0, O_CMP, KB, SK_I64, i, n, REF_NONE, CC_EQ), 1, 2);
	ir_ins(f, b1, O_TRAP, KX, SK_BOOL, REF_NONE, REF_NONE, REF_NONE, 0);
	ir_ret(b1);
	ir_ret(b2);
	ir_fill_preds(f);
	char *s = emit_both(f);
	CHECK(s != NULL);
	if (!s)
		return;
	char want[96];
	/* %p0 is the compare's value; temporaries follow the values.  A failed
	 * check fills the error word under its predicate, with the index and
	 * the extent, and ends the thread (IndexError after the launch) */
	snprintf(want, sizeof want, "setp.ge.u64 %%p1, %s, %s;\n\tmov.u32 %%r",
	         regname(f, (int)i.idx), regname(f, (int)n.idx));
	CHECK_STR_CONTAINS(s, want);
	CHECK_STR_CONTAINS(s, "@%p1 atom.global.cas.b32 %r");
	CHECK_STR_CONTAINS(s, "setp.eq.and.u32 %p2, %r");
	snprintf(want, sizeof want, "@%%p2 st.global.u64 [__pj_err+32], %s;\n", regname(f, (int)i.idx));
	CHECK_STR_CONTAINS(s, want);
	CHECK_STR_CONTAINS(s, "@%p1 exit;\n");
	CHECK(!strstr(s, "trap;"));
	snprintf(want, sizeof want, "setp.ge.u64 %%p3, -1, %s;\n", regname(f, (int)n.idx));
	CHECK_STR_CONTAINS(s, want);
	/* a trap (assert, raise) fills the error word and ends the thread */
	CHECK_STR_CONTAINS(s, ".visible .global .align 8 .u32 __pj_err[12];");
	CHECK_STR_CONTAINS(s, "$L_1:\n\tatom.global.cas.b32 %r");
	CHECK_STR_CONTAINS(s, "[__pj_err], 0, 1;");
	CHECK_STR_CONTAINS(s, "st.global.u32 [__pj_err+24], %r");
	CHECK_STR_CONTAINS(s, "exit;\n\tret;\n");
}

TEST(line_info)
{
	new_ctx(0);
	options.lineinfo = 1;
	K k = kbegin("lines");
	Loc l1 = {"/src/my \"kernels\".py", 12, 5}, l2 = {"/src/my \"kernels\".py", 13, 9};
	Loc l3 = {"/src/\xc3\xa9t\xc3\xa9.py", 2, 1};
	VEC_PUSH(&ctx, k.f->locs, k.f->nlocs, k.f->caplocs, l1);
	VEC_PUSH(&ctx, k.f->locs, k.f->nlocs, k.f->caplocs, l2);
	VEC_PUSH(&ctx, k.f->locs, k.f->nlocs, k.f->caplocs, l3);
	k.f->cur_loc = 2;
	ld(&k, SK_I32);
	k.f->cur_loc = 0;
	Ref a = ld(&k, SK_F32);
	k.f->cur_loc = 1;
	st(&k, SK_F32, ir_ins(k.f, k.b, O_MUL, KS, SK_F32, a, a, REF_NONE, 0));
	ir_ret(k.b);
	char *s = emit_both(k.f);
	options.lineinfo = 0;
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR_CONTAINS(s, ".address_size 64\n\n.file 1 \"/src/__t__.py\"\n"
	                      ".file 2 \"/src/my _kernels_.py\"\n");
	CHECK_EQ_INT(count_of(s, ".loc 1 2 1\n"), 1);
	CHECK_EQ_INT(count_of(s, ".loc 2 12 5\n"), 1);
	CHECK_EQ_INT(count_of(s, ".loc 2 13 9\n"), 1);
	CHECK_STR_CONTAINS(s, ".loc 2 13 9\n\tmul.rn.f32");
}

/* Shapes the back end cannot lower are internal errors, never crashes. */
TEST(refused_shapes)
{
	new_ctx(0);
	K k = kbegin("bad");
	Ref a = ld(&k, SK_F32);
	ir_ins(k.f, k.b, O_REM, KS, SK_F32, a, a, REF_NONE, 0);
	ir_ret(k.b);
	CHECK(emit_fails(k.f, "REM of class s"));

	new_ctx(0);
	k = kbegin("bad");
	ir_ins(k.f, k.b, O_ATOM, KW, SK_I32, k.base, ir_con_int(k.f, KW, 1), REF_NONE, AT_ADD | SP_LOCAL << 8);
	ir_ret(k.b);
	CHECK(emit_fails(k.f, "address space 5"));

	new_ctx(0);
	k = kbegin("bad");
	ir_ins(k.f, k.b, O_ATOM, KW, SK_I8, k.base, ir_con_int(k.f, KW, 1), REF_NONE, AT_ADD | SP_GLOBAL << 8);
	ir_ret(k.b);
	CHECK(emit_fails(k.f, "atomic add on scalar kind"));

	new_ctx(0);
	k = kbegin("bad");
	ir_ins(k.f, k.b, O_CVT, KL, SK_C64, ld(&k, SK_F32), REF_NONE, REF_NONE, SK_I64);
	ir_ret(k.b);
	CHECK(emit_fails(k.f, "conversion from scalar kind"));

	new_ctx(0);
	k = kbegin("bad");
	ir_ins(k.f, k.b, O_PARAM, KW, SK_I32, REF_NONE, REF_NONE, REF_NONE, 4);
	ir_ret(k.b);
	CHECK(emit_fails(k.f, "no kernel parameter at offset 4"));

	new_ctx(0);
	k = kbegin("bad");
	ir_ins(k.f, k.b, O_ADD, KW, SK_I32, ir_con_int(k.f, KW, 1), ir_con_int(k.f, KW, 2), REF_NONE, 0);
	CHECK(emit_fails(k.f, "block 0 has no jump"));

	new_ctx(0);
	k = kbegin("bad-name");
	ir_ret(k.b);
	CHECK(emit_fails(k.f, "not a PTX identifier"));
}

int main(void)
{
	find_ptxas();
	RUN(version_map);
	RUN(module_header);
	RUN(params_every_kind);
	RUN(params_layout_mismatch);
	RUN(binary_ops);
	RUN(int_division_guard);
	RUN(unary_ops);
	RUN(fastmath);
	RUN(compare_select);
	RUN(conversions);
	RUN(bits_copy_sreg);
	RUN(memory_spaces);
	RUN(atomics);
	RUN(atomic_max_loop);
	RUN(phi_swap_loop);
	RUN(phi_single_pred_and_jumps);
	RUN(critical_edge_refused);
	RUN(checks_and_traps);
	RUN(line_info);
	RUN(refused_shapes);
	if (ctx.arena)
		arena_free(ctx.arena);
	return check_summary("ptx");
}

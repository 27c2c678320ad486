/*
 * print.c - the IR's text form (docs/ir.md has the grammar).
 *
 * One line per header item (kernel, parameters, static arrays, source
 * locations, check messages), then each block: its label, its phis, its
 * instructions, its jump.  The text is complete: irparse.c reads it back
 * into an equal function, and printing that gives the same text again.
 *
 * Constants are written inline.  A constant whose class is the one the
 * operand position expects (ir_arg_cls) is written bare: "100", "1.5",
 * "-0.0", "inf"; a NaN is written as its bits in hex ("0x7fc00000").
 * Any other constant carries its class: "w_5", "s_1.5".  Floats are
 * written with the fewest decimal digits that read back to the same bits.
 *
 * The printer accepts broken IR (it is how one looks at it) and never
 * reads outside the function's tables.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "irtext.h"

const char *const irt_sk[NSK] = {
	"bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
	"f16", "f32", "f64", "c64", "c128", "bf16", "e5m2", "e4m3", "e8m0",
};
const char *const irt_cc[NCC] = {"eq", "ne", "lt", "le", "gt", "ge", "ltu", "leu", "gtu", "geu"};
const char *const irt_atom[NAT] = {
	"add", "sub", "and", "or", "xor", "exch", "min", "max",
	"inc", "dec", "cas", "nanmin", "nanmax",
};
const char *const irt_sreg[NSR] = {
	"tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z",
	"ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z",
	"laneid", "warpsize", "dynsmem",
};
const char *const irt_space[7] = {"generic", "global", NULL, "shared", "const", "local", "param"};
const char *const irt_membar[3] = {"cta", "gl", "sys"};
const char *const irt_shfl[4] = {"idx", "up", "down", "bfly"};
const char *const irt_vote[4] = {"all", "any", "uni", "ballot"};
const char *const irt_match[2] = {"any", "all"};
const char *const irt_barred[3] = {"popc", "and", "or"};
const char *const irt_approx[NAP] = {"sin", "cos", "ex2", "lg2", "rsqrt", "rcp", "tanh", "ex2s"};
const char *const irt_role[9] = {"data", "shape", "stride", "scalar", "real", "imag", "ret", "pbase", "pbytes"};

static const char *const opnames[] = {"nop", "add", "sub", "mul", "div", "rem", "neg",
	"not", "and", "or", "xor", "shl", "shr", "min", "max", "abs", "fma", "sqrt", "floor",
	"ceil", "trunc", "rint", "cmp", "sel", "cvt", "bits", "copy", "param", "sreg", "load",
	"store", "atom", "addr", "bar", "membar", "check", "trap", "alloc",
	"popc", "clz", "brev", "shfl", "vote", "match", "barred", "syncwarp", "activemask",
	"nanosleep", "farg", "carg", "callf", "cres", "retv", "print", "approx"};
_Static_assert(sizeof opnames / sizeof *opnames == NOPS, "opnames follows OPCODES");

const char *irt_opname(int op)
{
	return op >= 0 && op < NOPS ? opnames[op] : "?";
}

static const char *name_of(const char *const *tab, int n, int i, char *buf)
{
	if (i >= 0 && i < n && tab[i])
		return tab[i];
	snprintf(buf, 16, "%d", i);
	return buf;
}

static void put_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", out);
		else if (ch == '\t')
			fputs("\\t", out);
		else if (ch < 32 || ch >= 127)
			fprintf(out, "\\x%02x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static int is_ident(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return 0;
	return 1;
}

static void put_float(FILE *out, double v, int single)
{
	char buf[64];
	if (isinf(v)) {
		fputs(v < 0 ? "-inf" : "inf", out);
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof buf, "%.*g", p, v);
		if (single ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v)
			break;
	}
	if (v == 0)
		snprintf(buf, sizeof buf, "%s", signbit(v) ? "-0" : "0");
	fputs(buf, out);
	if (!strpbrk(buf, ".en"))
		fputs(".0", out);
}

static void put_con(FILE *out, const Con *k, Cls want)
{
	if (k->cls != want || k->cls == KX)
		fprintf(out, "%s_", k->cls < NK ? cls_name[k->cls] : "x");
	switch (k->cls) {
	case KS:
		if (isnan(k->s)) {
			uint32_t u;
			memcpy(&u, &k->s, sizeof u);
			fprintf(out, "0x%08x", u);
		} else
			put_float(out, k->s, 1);
		break;
	case KD:
		if (isnan(k->d)) {
			uint64_t u;
			memcpy(&u, &k->d, sizeof u);
			fprintf(out, "0x%016llx", (unsigned long long)u);
		} else
			put_float(out, k->d, 0);
		break;
	default:
		fprintf(out, "%lld", (long long)k->i);
	}
}

static void put_ref(FILE *out, const Fn *f, Ref r, Cls want)
{
	switch (r.kind) {
	case R_VAL:
		fprintf(out, "%%%u", (unsigned)r.idx);
		break;
	case R_CON:
		if ((int)r.idx < f->ncon)
			put_con(out, &f->con[r.idx], want);
		else
			fprintf(out, "?con%u", (unsigned)r.idx);
		break;
	default:
		fputs("_", out);
	}
}

static void put_def(FILE *out, const Fn *f, int to, int cls)
{
	fprintf(out, "%%%d", to);
	if (to >= 0 && to < f->nval && is_ident(f->val[to].name))
		fprintf(out, ".%s", f->val[to].name);
	fprintf(out, " =%s ", cls >= 0 && cls < NK ? cls_name[cls] : "x");
}

static void put_label(FILE *out, int id)
{
	fprintf(out, "@b%d", id);
}

static void put_args(FILE *out, const Fn *f, const Ins *i, int from)
{
	int n = ir_nargs(i);
	for (int k = from; k < n; k++) {
		fputs(k > from ? ", " : " ", out);
		put_ref(out, f, i->arg[k], ir_arg_cls(i, k));
	}
}

static void print_ins(FILE *out, const Fn *f, const Ins *i)
{
	char b1[16], b2[16], b3[16];
	const char *sk = name_of(irt_sk, NSK, i->ty, b1);
	fputs("  ", out);
	if (i->op < NOPS && op_info[i->op].def)
		put_def(out, f, i->to, i->cls);
	fputs(irt_opname(i->op), out);
	switch (i->op) {
	case O_CMP:
		fprintf(out, ".%s %s", name_of(irt_cc, NCC, i->aux, b2), sk);
		break;
	case O_CVT:
		fprintf(out, ".%s %s", name_of(irt_sk, NSK, i->aux, b2), sk);
		break;
	case O_PARAM:
		fprintf(out, " %d %s", i->aux, sk);
		break;
	case O_SREG:
		fprintf(out, " %s", name_of(irt_sreg, NSR, i->aux, b2));
		break;
	case O_LOAD:
	case O_STORE:
		fprintf(out, ".%s%s%s%s %s", name_of(irt_space, 7, ir_mem_space(i), b2), ir_load_nc(f, i) ? ".nc" : "",
		        ir_cache_op(i) ? "." : "", ir_cache_op(i) ? name_of(ir_cache_op_name, NCO, ir_cache_op(i), b3) : "", sk);
		break;
	case O_ATOM:
		fprintf(out, ".%s", name_of(irt_atom, NAT, i->aux & 255, b2));
		fprintf(out, ".%s %s", name_of(irt_space, 7, i->aux >> 8, b2), sk);
		break;
	case O_ADDR:
	case O_CHECK:
	case O_TRAP:
		fprintf(out, " %d", i->aux);
		break;
	case O_MEMBAR:
		fprintf(out, ".%s", name_of(irt_membar, 3, i->aux, b2));
		break;
	case O_SHFL:
		fprintf(out, ".%s %d %s", name_of(irt_shfl, 4, i->aux & 255, b2), i->aux >> 8, sk);
		break;
	case O_VOTE:
		fprintf(out, ".%s %s", name_of(irt_vote, 4, i->aux, b2), sk);
		break;
	case O_MATCH:
		fprintf(out, ".%s %s", name_of(irt_match, 2, i->aux, b2), sk);
		break;
	case O_BARRED:
		fprintf(out, ".%s %s", name_of(irt_barred, 3, i->aux, b2), sk);
		break;
	case O_APPROX:
		fprintf(out, ".%s %s", name_of(irt_approx, NAP, i->aux, b2), sk);
		break;
	case O_FMA:
		fprintf(out, "%s%s %s", i->aux & FMA_RM ? ".rm" : "", i->aux & FMA_SAT ? ".sat" : "", sk);
		break;
	case O_FARG: case O_CARG: case O_CALLF: case O_CRES: case O_RETV: case O_PRINT:
		fprintf(out, " %d %s", i->aux, sk);
		break;
	case O_BAR:
		if (i->aux == 1)
			fputs(".grid", out);
		break;
	case O_NOP_:
		break;
	default:
		fprintf(out, " %s", sk);
	}
	put_args(out, f, i, 0);
	if (i->loc >= 0)
		fprintf(out, " !%d", i->loc);
	fputc('\n', out);
}

static void print_header(FILE *out, const Fn *f)
{
	char b1[16], b2[16];
	fprintf(out, "%s %s\n", f->is_func ? "func" : "kernel", f->name ? f->name : "kernel");
	if (f->checked)
		fputs("checked\n", out);
	fprintf(out, "parambytes %d\n", f->param_bytes);
	for (int i = 0; i < f->nparam; i++) {
		const KParam *p = &f->param[i];
		fprintf(out, "param %d %s arg%d %s", p->off, name_of(irt_sk, NSK, p->ty, b1), p->arg,
		        name_of(irt_role, 9, p->role, b2));
		if (p->role == KP_SHAPE || p->role == KP_STRIDE)
			fprintf(out, " %d", p->dim);
		fputc('\n', out);
	}
	for (int i = 0; i < f->narrays; i++) {
		const SArray *a = &f->arrays[i];
		fprintf(out, "array %d %s %lld align %d", i, name_of(irt_space, 7, a->space, b1),
		        (long long)a->size, a->align);
		if (a->dynamic)
			fputs(" dynamic", out);
		if (a->global)
			fputs(" global", out);
		if (a->name) {
			fputs(" name ", out);
			put_str(out, a->name);
		}
		if (a->init && a->size > 0) {
			fputs(" init ", out);
			for (int64_t k = 0; k < a->size; k++)
				fprintf(out, "%02x", ((const unsigned char *)a->init)[k]);
		}
		fputc('\n', out);
	}
	for (int i = 0; i < f->nlocs; i++) {
		const Loc *l = &f->locs[i];
		fprintf(out, "loc %d ", i);
		put_str(out, l->file ? l->file : "");
		fprintf(out, " %d %d\n", l->line, l->col);
	}
	for (int i = 0; i < f->nchecks; i++) {
		const CheckInfo *k = &f->checks[i];
		fprintf(out, "check %d", i);
		if (k->array) {
			fputs(" array ", out);
			put_str(out, k->array);
		}
		fprintf(out, " axis %d ndim %d", k->axis, k->ndim);
		if (k->ndim > 0 && k->ndim <= 8) {
			fputs(" ext", out);
			for (int d = 0; d < k->ndim; d++) {
				fputs(d ? ", " : " ", out);
				put_ref(out, f, k->ext[d], KL);
			}
		}
		if (k->ptr_size)
			fprintf(out, " ptr %d", k->ptr_size);
		fprintf(out, " loc %d", k->loc);
		if (k->msg) {
			fputs(" msg ", out);
			put_str(out, k->msg);
		}
		fputc('\n', out);
	}
}

void ir_print(FILE *out, const Fn *f)
{
	print_header(out, f);
	for (int bi = 0; bi < f->nblk; bi++) {
		const Blk *b = f->blk[bi];
		put_label(out, b->id);
		fputc('\n', out);
		for (int k = 0; k < b->nphi; k++) {
			const Phi *p = &b->phi[k];
			fputs("  ", out);
			put_def(out, f, p->to, p->cls);
			fputs("phi", out);
			for (int j = 0; j < p->n; j++) {
				fputs(j ? ", " : " ", out);
				put_label(out, j < b->npred ? b->pred[j] : -1);
				fputc(' ', out);
				put_ref(out, f, p->arg[j], (Cls)p->cls);
			}
			fputc('\n', out);
		}
		for (int k = 0; k < b->nins; k++)
			print_ins(out, f, &b->ins[k]);
		switch (b->jmp) {
		case J_RET:
			fputs("  ret\n", out);
			break;
		case J_JMP:
			fputs("  jmp ", out);
			put_label(out, b->s1);
			fputc('\n', out);
			break;
		case J_JNZ:
			fputs("  jnz ", out);
			put_ref(out, f, b->cond, KB);
			fputc(' ', out);
			put_label(out, b->s1);
			fputc(' ', out);
			put_label(out, b->s2);
			fputc('\n', out);
			break;
		default:
			break;
		}
	}
}

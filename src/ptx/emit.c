/*
 * emit.c - the PTX back end's driver: one IR function to one PTX module.
 *
 * The module holds the .version/.target header, the static arrays
 * (.shared and .const at module scope, .local inside the entry), and one
 * .visible .entry whose .param list follows Fn.param in order.  The runtime
 * fills a parameter buffer at the offsets of Fn.param and launches with
 * CU_LAUNCH_PARAM_BUFFER_POINTER, so the natural-alignment layout PTX gives
 * the list must equal those offsets; a difference is an internal error.
 * The device functions the kernel calls (Fn.funcs), print's formats and
 * the error word of debug traps are call.c's; their bodies are written
 * with the same ptx_fn_text.
 *
 * Every SSA value gets one virtual register of its class; ptxas allocates
 * the real ones.  Blocks become labels $L_<id> in Fn.blk order, so a jump
 * to the next block is left out.  A back edge to a loop header with a
 * short test repeats that test and branches to the body: loops are
 * bottom-tested, the form ptxas unrolls (rotated_jump); a loop counting
 * down is marked not to be unrolled (mark_nounroll).  Phis are resolved by moves: for a block
 * with one predecessor at its top, otherwise at the end of each
 * predecessor, which must then have that block as its only successor
 * (opt_split_edges splits critical edges before we run).  Moves go
 * through fresh temporaries when a phi argument is another phi of the
 * same block, so the copies behave as one parallel copy.
 *
 * Pointers read from parameters are generic; each data pointer is turned
 * into a global-space address once, at its ld.param, and IR loads and
 * stores in SP_GLOBAL use ld.global/st.global with it.
 *
 * With lineinfo (or debug) each instruction that starts a new source line
 * is preceded by a .loc naming the Python file and line, so profilers and
 * the driver's error reports point into the kernel's source.
 *
 * The instructions themselves are in ops.c and atom.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

static const char *const rk_prefix[NRK] = {"%x", "%p", "%r", "%rd", "%f", "%fd", "%h"};
static const char *const rk_decl[NRK] = {"", ".pred", ".b32", ".b64", ".f32", ".f64", ".b16"};

/* ------------------------------------------------------------ text */

static void vbprintf(Emit *e, PtxBuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0)
		ICE(e->c, "bad format in the PTX writer");
	if (b->n + n + 1 > b->cap) {
		int cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *p = arena_alloc(e->c->arena, (size_t)cap);
		if (b->n)
			memcpy(p, b->p, (size_t)b->n);
		b->p = p;
		b->cap = cap;
	}
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	b->n += n;
}

void ptx_bprintf(Emit *e, PtxBuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vbprintf(e, b, fmt, ap);
	va_end(ap);
}

void ptx_line(Emit *e, const char *fmt, ...)
{
	va_list ap;
	ptx_bprintf(e, &e->body, "\t");
	va_start(ap, fmt);
	vbprintf(e, &e->body, fmt, ap);
	va_end(ap);
	ptx_bprintf(e, &e->body, "\n");
}

void ptx_label_line(Emit *e, const char *label)
{
	ptx_bprintf(e, &e->body, "%s:\n", label);
}

const char *ptx_new_label(Emit *e)
{
	return arena_printf(e->c->arena, "$L_x%d", e->nlabel++);
}

/* ------------------------------------------------------- registers */

const char *ptx_tmp(Emit *e, int rk)
{
	if (rk <= KX || rk >= NRK)
		ICE(e->c, "temporary of register kind %d", rk);
	return arena_printf(e->c->arena, "%s%d", rk_prefix[rk], e->nreg[rk]++);
}

const char *ptx_vreg(Emit *e, int val)
{
	if (val < 0 || val >= e->f->nval || e->reg[val] < 0)
		ICE(e->c, "value %%%d has no register", val);
	return arena_printf(e->c->arena, "%s%d", rk_prefix[e->f->val[val].cls], e->reg[val]);
}

const char *ptx_opname(int op)
{
	return op >= 0 && op < NOPS ? op_info[op].name : "?";
}

const char *ptx_def(Emit *e, const Ins *i)
{
	if (i->to < 0 || i->to >= e->f->nval)
		ICE(e->c, "%s defines no value", ptx_opname(i->op));
	if (e->f->val[i->to].cls != i->cls)
		ICE(e->c, "%s: value %%%d has class %s, instruction %s", ptx_opname(i->op), i->to,
		    cls_name[e->f->val[i->to].cls < NK ? e->f->val[i->to].cls : 0], cls_name[i->cls < NK ? i->cls : 0]);
	return ptx_vreg(e, i->to);
}

const char *ptx_movty(int k)
{
	static const char *const t[NRK] = {"?", "pred", "b32", "b64", "f32", "f64", "b16"};
	return k >= 0 && k < NRK ? t[k] : "?";
}

Cls ptx_cls(Emit *e, Ref r)
{
	Cls k = ir_cls_of(e->f, r);
	if (k == KX)
		ICE(e->c, "operand without a class (kind %d, index %d)", (int)r.kind, (int)r.idx);
	return k;
}

int ptx_is_con(Emit *e, Ref r, int64_t *v)
{
	if (r.kind != R_CON || (int)r.idx >= e->f->ncon)
		return 0;
	Con *k = &e->f->con[r.idx];
	if (k->cls != KB && k->cls != KW && k->cls != KL)
		return 0;
	*v = k->i;
	return 1;
}

static const char *imm(Emit *e, const Con *k)
{
	Arena *a = e->c->arena;
	switch (k->cls) {
	case KW:
		return arena_printf(a, "%d", (int32_t)k->i);
	case KL:
		if (k->i >= INT32_MIN && k->i <= INT32_MAX)
			return arena_printf(a, "%lld", (long long)k->i);
		return arena_printf(a, "0x%016llX", (unsigned long long)k->i);
	case KS: {
		uint32_t w;
		memcpy(&w, &k->s, sizeof w);
		return arena_printf(a, "0f%08X", w);
	}
	case KD: {
		uint64_t w;
		memcpy(&w, &k->d, sizeof w);
		return arena_printf(a, "0d%016llX", (unsigned long long)w);
	}
	default:
		ICE(e->c, "immediate of class %d", k->cls);
	}
}

const char *ptx_opnd(Emit *e, Ref r)
{
	if (r.kind == R_VAL)
		return ptx_vreg(e, (int)r.idx);
	if (r.kind != R_CON || (int)r.idx >= e->f->ncon)
		ICE(e->c, "missing operand");
	Con *k = &e->f->con[r.idx];
	if (k->cls == KB) {
		const char *p = ptx_tmp(e, KB);
		ptx_line(e, "setp.ne.u32 %s, %d, 0;", p, k->i != 0);
		return p;
	}
	return imm(e, k);
}

const char *ptx_reg(Emit *e, Ref r)
{
	if (r.kind == R_VAL)
		return ptx_vreg(e, (int)r.idx);
	Cls k = ptx_cls(e, r);
	const char *s = ptx_opnd(e, r);
	if (k == KB)
		return s;
	const char *t = ptx_tmp(e, k);
	ptx_line(e, "mov.%s %s, %s;", ptx_movty(k), t, s);
	return t;
}

const char *ptx_pred(Emit *e, Ref r)
{
	if (ptx_cls(e, r) != KB)
		ICE(e->c, "predicate operand of class %s", cls_name[ptx_cls(e, r)]);
	return ptx_opnd(e, r);
}

/* ----------------------------------------------------- scalar kinds */

int ptx_sk_signed(int sk)
{
	return !(sk == SK_U8 || sk == SK_U16 || sk == SK_U32 || sk == SK_U64 || sk == SK_BOOL);
}

int ptx_sk_small(int sk)
{
	return sk == SK_I8 || sk == SK_I16 || sk == SK_U8 || sk == SK_U16;
}

const char *ptx_sk_mem(int sk)
{
	static const char *const t[NSK] = {
		[SK_BOOL] = "u8", [SK_I8] = "s8", [SK_I16] = "s16", [SK_I32] = "s32", [SK_I64] = "s64",
		[SK_U8] = "u8", [SK_U16] = "u16", [SK_U32] = "u32", [SK_U64] = "u64",
		[SK_F16] = "b16", [SK_F32] = "f32", [SK_F64] = "f64",
	};
	return sk >= 0 && sk < NSK ? t[sk] : NULL;
}

const char *ptx_space(Emit *e, int sp)
{
	switch (sp) {
	case SP_GENERIC: return "";
	case SP_GLOBAL: return ".global";
	case SP_SHARED: return ".shared";
	case SP_CONST: return ".const";
	case SP_LOCAL: return ".local";
	case SP_PARAM: return ".param";
	default: ICE(e->c, "unknown address space %d", sp);
	}
}

void ptx_narrow(Emit *e, const char *d, int sk)
{
	switch (sk) {
	case SK_I8: ptx_line(e, "cvt.s32.s8 %s, %s;", d, d); break;
	case SK_I16: ptx_line(e, "cvt.s32.s16 %s, %s;", d, d); break;
	case SK_U8: ptx_line(e, "cvt.u32.u8 %s, %s;", d, d); break;
	case SK_U16: ptx_line(e, "cvt.u32.u16 %s, %s;", d, d); break;
	default: break;
	}
}

/* ---------------------------------------------------------- arrays */

const char *ptx_array_sym(Emit *e, int idx)
{
	if (idx < 0 || idx >= e->f->narrays)
		ICE(e->c, "static array %d of %d", idx, e->f->narrays);
	SArray *a = &e->f->arrays[idx];
	switch (a->space) {
	case SP_SHARED:
		return a->dynamic ? "__pj_dsmem" : arena_printf(e->c->arena, "__pj_smem%d", idx);
	case SP_LOCAL:
		return arena_printf(e->c->arena, "__pj_lmem%d", idx);
	case SP_CONST:
		if (e->f->is_func)   /* module scope: one name per function */
			return arena_printf(e->c->arena, "__pj_%s_cmem%d", e->f->name, idx);
		return arena_printf(e->c->arena, "__pj_cmem%d", idx);
	default:
		ICE(e->c, "static array %d in space %d", idx, a->space);
	}
}

static int array_align(Emit *e, const SArray *a)
{
	int al = a->align > 0 ? a->align : 8;
	if (al & (al - 1))
		ICE(e->c, "static array alignment %d is not a power of two", al);
	return al;
}

static void decl_array(Emit *e, PtxBuf *b, int idx, const char *indent)
{
	SArray *a = &e->f->arrays[idx];
	const char *sym = ptx_array_sym(e, idx);
	if (a->space == SP_SHARED && a->dynamic)
		return;
	int64_t size = a->size > 0 ? a->size : 1;
	const char *sp = a->space == SP_SHARED ? ".shared" : a->space == SP_LOCAL ? ".local"
	               : a->global ? ".global" : ".const";
	ptx_bprintf(e, b, "%s%s .align %d .b8 %s[%lld]", indent, sp, array_align(e, a), sym, (long long)size);
	if (a->space == SP_CONST && a->init && a->size > 0) {
		const unsigned char *p = a->init;
		ptx_bprintf(e, b, " = {");
		for (int64_t k = 0; k < a->size; k++)
			ptx_bprintf(e, b, "%s%s%u", k ? "," : "", k % 24 == 0 ? "\n\t" : " ", p[k]);
		ptx_bprintf(e, b, "\n}");
	}
	ptx_bprintf(e, b, ";\n");
}

void ptx_decl_array(Emit *e, PtxBuf *b, int idx, const char *indent)
{
	decl_array(e, b, idx, indent);
}

/* ------------------------------------------------------ parameters */

static int is_ident(const char *s)
{
	if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return 0;
	for (s++; *s; s++)
		if (!(*s == '_' || *s == '$' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int sk_size(int sk)
{
	static const int t[NSK] = {
		[SK_BOOL] = 1, [SK_I8] = 1, [SK_I16] = 2, [SK_I32] = 4, [SK_I64] = 8,
		[SK_U8] = 1, [SK_U16] = 2, [SK_U32] = 4, [SK_U64] = 8,
		[SK_F16] = 2, [SK_F32] = 4, [SK_F64] = 8,
	};
	return sk >= 0 && sk < NSK ? t[sk] : 0;
}

static void decl_params(Emit *e, PtxBuf *b)
{
	Fn *f = e->f;
	e->pname = arena_alloc(e->c->arena, sizeof *e->pname * (size_t)(f->nparam + 1));
	int off = 0;
	for (int k = 0; k < f->nparam; k++) {
		KParam *p = &f->param[k];
		int size = sk_size(p->ty);
		if (!size)
			ICE(e->c, "kernel parameter %d has scalar kind %d", k, p->ty);
		off = (off + size - 1) / size * size;
		if (p->off != off)
			ICE(e->c, "kernel parameter %d is at offset %d, PTX lays it at %d", k, p->off, off);
		off += size;
		e->pname[k] = arena_printf(e->c->arena, "%s_param_%d", f->name, k);
		const char *ty = p->ty == SK_BOOL ? "u8" : ptx_sk_mem(p->ty);
		ptx_bprintf(e, b, "\t.param .%s %s%s\n", ty, e->pname[k], k + 1 < f->nparam ? "," : "");
	}
	if (f->param_bytes < off)
		ICE(e->c, "parameter buffer of %d bytes holds %d", f->param_bytes, off);
}

int ptx_param_index(Emit *e, int off)
{
	for (int k = 0; k < e->f->nparam; k++)
		if (e->f->param[k].off == off)
			return k;
	ICE(e->c, "no kernel parameter at offset %d", off);
}

/* ------------------------------------------------- phis and jumps */

static int pred_index(Blk *s, int b)
{
	for (int j = 0; j < s->npred; j++)
		if (s->pred[j] == b)
			return j;
	return -1;
}

/* The moves into s's phis of the values coming along edge j. */
static void phi_moves(Emit *e, Blk *s, int j)
{
	int conflict = 0;
	for (int k = 0; k < s->nphi; k++) {
		Phi *p = &s->phi[k];
		if (j >= p->n || p->arg[j].kind == R_NONE)
			ICE(e->c, "phi %%%d in block %d lacks the argument of edge %d", p->to, s->id, j);
		if (p->arg[j].kind == R_VAL)
			for (int m = 0; m < s->nphi; m++)
				if (m != k && s->phi[m].to == (int)p->arg[j].idx)
					conflict = 1;
	}
	const char **tmp = NULL;
	if (conflict) {
		tmp = arena_alloc(e->c->arena, sizeof *tmp * (size_t)s->nphi);
		for (int k = 0; k < s->nphi; k++) {
			Phi *p = &s->phi[k];
			tmp[k] = ptx_tmp(e, p->cls);
			ptx_line(e, "mov.%s %s, %s;", ptx_movty(p->cls), tmp[k], ptx_opnd(e, p->arg[j]));
		}
	}
	for (int k = 0; k < s->nphi; k++) {
		Phi *p = &s->phi[k];
		if (p->arg[j].kind == R_VAL && (int)p->arg[j].idx == p->to)
			continue;
		if (p->cls != ptx_cls(e, p->arg[j]))
			ICE(e->c, "phi %%%d of class %s gets a %s", p->to, cls_name[p->cls],
			    cls_name[ptx_cls(e, p->arg[j])]);
		ptx_line(e, "mov.%s %s, %s;", ptx_movty(p->cls), ptx_vreg(e, p->to),
		         tmp ? tmp[k] : ptx_opnd(e, p->arg[j]));
	}
}

static Blk *succ(Emit *e, Blk *b, int s)
{
	if (s < 0 || s >= e->f->nblk)
		ICE(e->c, "block %d jumps to block %d of %d", b->id, s, e->f->nblk);
	return e->f->blk[s];
}

/* Moves for the successors of b that have several predecessors. */
static void edge_moves(Emit *e, Blk *b)
{
	if (b->jmp != J_JMP && b->jmp != J_JNZ)
		return;
	int two = b->jmp == J_JNZ && b->s1 != b->s2;
	for (int k = 0; k < 1 + two; k++) {
		Blk *s = succ(e, b, k ? b->s2 : b->s1);
		if (!s->nphi || s->npred == 1)
			continue;
		if (two)
			ICE(e->c, "critical edge from block %d to block %d with phis (split edges first)",
			    b->id, s->id);
		int j = pred_index(s, b->id);
		if (j < 0)
			ICE(e->c, "block %d is not listed as a predecessor of block %d", b->id, s->id);
		phi_moves(e, s, j);
	}
}

static void source_line(Emit *e, const Ins *i);

/* Instructions a back edge may repeat: no effect, no call, no label of
 * their own (warp operations and CAS loops have them). */
static int repeatable(const Ins *i)
{
	if (i->op >= NOPS || op_info[i->op].effect)
		return 0;
	switch (i->op) {
	case O_PARAM: case O_ATOM: case O_FARG: case O_CARG: case O_CALLF: case O_CRES:
	case O_RETV: case O_PRINT: case O_TRAP: case O_CHECK: case O_POPC: case O_CLZ: case O_BREV:
	case O_SHFL: case O_VOTE: case O_MATCH: case O_BARRED: case O_SYNCWARP: case O_ACTIVEMASK:
	case O_NANOSLEEP: case O_APPROX:
		return 0;
	default:
		return 1;
	}
}

/* A loop header whose test a back edge from b can repeat: b jumps back to
 * h, h has no instruction that cannot be repeated (and few), and ends in
 * a two-way test. */
static int rotatable(Emit *e, Blk *b, Blk *h)
{
	int64_t v;
	if (h->id > b->id || h->jmp != J_JNZ || h->s1 == h->s2 || ptx_is_con(e, h->cond, &v) ||
	    h->nins > 8 || e->f->blk[0] == h)
		return 0;
	for (int k = 0; k < h->nins; k++)
		if (!repeatable(&h->ins[k]))
			return 0;
	return 1;
}

/*
 * The back edge b -> h written as a bottom test: after b's moves into
 * h's phis, h's own instructions and its two-way branch, so the loop
 * ends in `@p bra body` (the form ptxas unrolls and software-pipelines)
 * instead of `bra.uni head` and a test at the top.  The instructions
 * write the registers h writes, so both ways into h's successors carry
 * the same values.  h's successors have no moves of their own on these
 * edges: critical edges were split, and a successor with one
 * predecessor moves into its phis at its top.
 */
static void rotated_jump(Emit *e, Blk *b, Blk *h)
{
	int next = b->id + 1;
	for (int k = 0; k < h->nins; k++) {
		source_line(e, &h->ins[k]);
		ptx_ins(e, &h->ins[k]);
	}
	succ(e, h, h->s1);
	succ(e, h, h->s2);
	const char *p = ptx_pred(e, h->cond);
	if (h->s1 == next) {
		ptx_line(e, "@!%s bra $L_%d;", p, h->s2);
		return;
	}
	ptx_line(e, "@%s bra $L_%d;", p, h->s1);
	if (h->s2 != next)
		ptx_line(e, "bra.uni $L_%d;", h->s2);
}

static void jump(Emit *e, Blk *b)
{
	int next = b->id + 1;
	switch (b->jmp) {
	case J_RET:
		if (e->f->visible_abi == PJ_ABI_NUMBA)
			ptx_line(e, "st.param.b32 [func_retval0], 0;");   /* Numba's status: no exception */
		ptx_line(e, "ret;");
		return;
	case J_JMP:
		succ(e, b, b->s1);
		if (b->s1 != next && rotatable(e, b, e->f->blk[b->s1])) {
			rotated_jump(e, b, e->f->blk[b->s1]);
			return;
		}
		if (b->s1 != next)
			ptx_line(e, "bra.uni $L_%d;", b->s1);
		return;
	case J_JNZ: {
		succ(e, b, b->s1);
		succ(e, b, b->s2);
		int64_t v;
		int s = b->s1 == b->s2 ? b->s1 : -1;
		if (s < 0 && ptx_is_con(e, b->cond, &v))
			s = v ? b->s1 : b->s2;
		if (s >= 0) {
			if (s != next)
				ptx_line(e, "bra.uni $L_%d;", s);
			return;
		}
		const char *p = ptx_pred(e, b->cond);
		if (b->s1 == next) {
			ptx_line(e, "@!%s bra $L_%d;", p, b->s2);
			return;
		}
		ptx_line(e, "@%s bra $L_%d;", p, b->s1);
		if (b->s2 != next)
			ptx_line(e, "bra.uni $L_%d;", b->s2);
		return;
	}
	default:
		ICE(e->c, "block %d has no jump", b->id);
	}
}

/* ------------------------------------------------------ line info */

int ptx_file_index(Emit *e, const char *file)
{
	for (int k = 0; k < e->nfiles; k++)
		if (strcmp(e->files[k], file) == 0)
			return k + 1;
	VEC_PUSH(e->c, e->files, e->nfiles, e->capfiles, file);
	return e->nfiles;
}

/* A .loc directive when the instruction at source position loc (an
 * index of Fn.locs) starts a new one. */
static void source_loc(Emit *e, int loc)
{
	if (!e->lineinfo || loc < 0 || loc >= e->f->nlocs)
		return;
	Loc *l = &e->f->locs[loc];
	if (!l->file || l->line <= 0)
		return;
	int file = ptx_file_index(e, l->file);
	if (file == e->last_file && l->line == e->last_line)
		return;
	e->last_file = file;
	e->last_line = l->line;
	ptx_bprintf(e, &e->body, "\t.loc %d %d %d\n", file, l->line, l->col > 0 ? l->col : 0);
}

static void source_line(Emit *e, const Ins *i)
{
	source_loc(e, i->loc);
}

/* PTX strings have no escapes and ptxas refuses non-ASCII bytes: quotes,
 * backslashes, control characters and bytes above 126 in a file name
 * become '_'. */
static void decl_files(Emit *e, PtxBuf *b)
{
	for (int k = 0; k < e->nfiles; k++) {
		ptx_bprintf(e, b, ".file %d \"", k + 1);
		for (const char *p = e->files[k]; *p; p++) {
			unsigned char ch = (unsigned char)*p;
			if (ch == '"' || ch == '\\' || ch < 32 || ch >= 127)
				ptx_bprintf(e, b, "_");
			else
				ptx_bprintf(e, b, "%c", ch);
		}
		ptx_bprintf(e, b, "\"\n");
	}
	if (e->nfiles)
		ptx_bprintf(e, b, "\n");
}

/* A loop that counts down: its header tests `iv > bound` (or >=). */
static int counts_down(Emit *e, Blk *h)
{
	if (h->jmp != J_JNZ || h->cond.kind != R_VAL || (int)h->cond.idx >= e->f->nval)
		return 0;
	const Ins *c = e->def[h->cond.idx];
	return c && c->op == O_CMP && (c->aux == CC_GT || c->aux == CC_GE || c->aux == CC_GTU || c->aux == CC_GEU);
}

/*
 * Loops ptxas must not unroll: ptxas (CUDA 13.0, sm_90) unrolled a loop
 * counting down to a negated bound by four and lost the negation in the
 * unrolled trip checks, leaving after one pass
 * (tests/difftest/regress/008_gpu_ptxas_unrolled_down_loop.py).  So every
 * loop counting down gets `.pragma "nounroll"` in the block its back edge
 * enters: the header, or the body when the test is repeated at the bottom.
 * The optimiser unrolls loops itself (opt/unroll.c).
 */
static void mark_nounroll(Emit *e)
{
	Fn *f = e->f;
	e->nounroll = arena_alloc(e->c->arena, (size_t)f->nblk + 1);
	memset(e->nounroll, 0, (size_t)f->nblk + 1);
	for (int k = 0; k < f->nblk; k++) {
		Blk *b = f->blk[k];
		if (b->jmp != J_JMP || b->s1 > b->id || !counts_down(e, f->blk[b->s1]))
			continue;
		Blk *h = f->blk[b->s1];
		if (!rotatable(e, b, h))
			e->nounroll[h->id] = 1;
		else if (h->s1 <= b->id)
			e->nounroll[h->s1] = 1;
		else if (h->s2 <= b->id)
			e->nounroll[h->s2] = 1;
	}
}

static void block(Emit *e, Blk *b)
{
	e->cur = b->id;
	ptx_bprintf(e, &e->body, "$L_%d:\n", b->id);
	if (e->nounroll[b->id])
		ptx_line(e, ".pragma \"nounroll\";");
	if (b->nphi && b->npred == 1)
		phi_moves(e, b, 0);
	for (int k = 0; k < b->nins; k++) {
		source_line(e, &b->ins[k]);
		ptx_ins(e, &b->ins[k]);
	}
	edge_moves(e, b);
	jump(e, b);
}

/* ---------------------------------------------------- address forms */

static void use(Emit *e, Ref r)
{
	if (r.kind == R_VAL && (int)r.idx < e->f->nval)
		e->folded[r.idx] = 0;
}

/* The definitions of the values, and which `q + imm` values are used
 * only as addresses of loads and stores: those are not computed, their
 * accesses read [q+imm] (ptxas folds the displacement into the
 * instruction). */
static void fill_defs(Emit *e)
{
	Fn *f = e->f;
	Arena *a = e->c->arena;
	e->def = arena_alloc(a, sizeof *e->def * (size_t)(f->nval + 1));
	e->folded = arena_alloc(a, (size_t)f->nval + 1);
	e->defblk = arena_alloc(a, sizeof *e->defblk * (size_t)(f->nval + 1));
	memset(e->def, 0, sizeof *e->def * (size_t)(f->nval + 1));
	memset(e->folded, 0, (size_t)f->nval + 1);
	e->half = arena_alloc(a, sizeof *e->half * (size_t)(f->nval + 1));
	memset(e->half, 0, sizeof *e->half * (size_t)(f->nval + 1));
	for (int v = 0; v <= f->nval; v++)
		e->defblk[v] = -1;
	for (int b = 0; b < f->nblk; b++)
		for (int k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			if (i->to >= 0 && i->to < f->nval) {
				e->def[i->to] = i;
				e->defblk[i->to] = b;
			}
		}
	for (int v = 0; v < f->nval; v++) {
		Ref q;
		int64_t imm;
		e->folded[v] = ptx_base_disp(e, REF_VAL(v), &q, &imm);
	}
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int k = 0; k < bk->nphi; k++)
			for (int j = 0; j < bk->phi[k].n; j++)
				use(e, bk->phi[k].arg[j]);
		for (int k = 0; k < bk->nins; k++) {
			const Ins *i = &bk->ins[k];
			int addr = (i->op == O_LOAD || i->op == O_STORE) && ir_mem_space(i) != SP_PARAM;
			for (int j = addr ? 1 : 0; j < 3; j++)
				use(e, i->arg[j]);
		}
		if (bk->jmp == J_JNZ)
			use(e, bk->cond);
	}
	e->twin = arena_alloc(a, (size_t)f->nval + 1);
	e->twin_reg = arena_alloc(a, sizeof *e->twin_reg * (size_t)(f->nval + 1));
	memset(e->twin, 0, (size_t)f->nval + 1);
	memset(e->twin_reg, 0, sizeof *e->twin_reg * (size_t)(f->nval + 1));
	for (int b = 0; b < f->nblk; b++)
		for (int k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			if (i->op != O_ADD || i->cls != KL)
				continue;
			for (int j = 0; j < 2; j++) {
				Ref r = i->arg[j];
				if (r.kind == R_VAL && (int)r.idx < f->nval && e->def[r.idx] &&
				    e->def[r.idx]->op == O_MUL && e->defblk[r.idx] != b)
					e->twin[r.idx] = 1;
			}
		}
}

/* ---------------------------------------------------------- module */

/* The body of e->f: its registers numbered, its blocks written, then
 * "{ registers, local arrays, code }" into out (entries and functions). */
void ptx_fn_text(Emit *e, PtxBuf *out)
{
	Ctx *c = e->c;
	Fn *f = e->f;
	if (f->nblk < 1)
		ICE(c, "function %s has no blocks", f->name);
	if (f->blk[0]->nphi)
		ICE(c, "the entry block has phis");
	for (int k = 0; k < f->nblk; k++)
		if (f->blk[k]->id != k)
			ICE(c, "block %d has id %d", k, f->blk[k]->id);

	fill_defs(e);
	mark_nounroll(e);
	e->reg = arena_alloc(c->arena, sizeof *e->reg * (size_t)(f->nval + 1));
	for (int k = 0; k < f->nval; k++) {
		int cls = f->val[k].cls;
		e->reg[k] = cls > KX && cls < NK ? e->nreg[cls]++ : -1;
	}
	source_loc(e, f->def_loc);     /* the function's file and def line, even when it is empty */
	if (e->debuginfo)
		ptx_label_line(e, arena_printf(c->arena, "$L__begin_%s", f->name));
	for (int k = 0; k < f->nblk; k++)
		block(e, f->blk[k]);
	if (e->debuginfo)
		ptx_label_line(e, arena_printf(c->arena, "$L__end_%s", f->name));

	ptx_bprintf(e, out, "{\n");
	for (int k = KB; k < NRK; k++)
		if (e->nreg[k])
			ptx_bprintf(e, out, "\t.reg %s %s<%d>;\n", rk_decl[k], rk_prefix[k], e->nreg[k]);
	for (int k = 0; k < f->narrays; k++)
		if (f->arrays[k].space == SP_LOCAL)
			decl_array(e, out, k, "\t");
	ptx_bprintf(e, out, "\n");
	if (e->body.n)
		ptx_bprintf(e, out, "%s", e->body.p);
	ptx_bprintf(e, out, "}\n");
}

char *ptx_emit(Ctx *c, Fn *f, int arch, int ptx_version)
{
	Emit E = {.c = c, .f = f, .arch = arch, .fast = c->opt && c->opt->fastmath,
	          .lineinfo = c->opt && (c->opt->lineinfo || c->opt->debug), .debuginfo = c->opt && c->opt->debug};
	Emit *e = &E;
	if (!is_ident(f->name))
		ICE(c, "kernel name \"%s\" is not a PTX identifier", f->name ? f->name : "");

	PtxBuf params = {0}, kbody = {0}, funcs = {0};
	decl_params(e, &params);
	ptx_fn_text(e, &kbody);
	ptx_funcs(e, &funcs);      /* the device functions it calls (call.c) */
	PtxBuf dwarf = {0};
	if (e->debuginfo)
		ptx_debug_sections(e, &dwarf);

	PtxBuf out = {0};
	ptx_bprintf(e, &out, "//\n// ptxjit %s: %s %s\n//\n\n", PJ_VERSION, f->visible_abi ? "device function" : "kernel",
	            f->name);
	int variant = c->opt ? c->opt->arch_variant : 0;
	ptx_bprintf(e, &out, ".version %d.%d\n.target sm_%d%s\n.address_size 64\n\n",
	            ptx_version / 10, ptx_version % 10, arch, variant == 'a' ? "a" : variant == 'f' ? "f" : "");
	decl_files(e, &out);
	int dyn = 0, nmod = 0;
	for (int k = 0; k < f->narrays; k++) {
		SArray *a = &f->arrays[k];
		if (a->space == SP_SHARED && a->dynamic && !dyn++)
			ptx_bprintf(e, &out, ".extern .shared .align %d .b8 __pj_dsmem[];\n",
			            array_align(e, a) > 16 ? array_align(e, a) : 16);
		if (a->space == SP_SHARED || a->space == SP_CONST) {
			decl_array(e, &out, k, "");
			nmod++;
		} else if (a->space != SP_LOCAL)
			ICE(c, "static array %d in space %d", k, a->space);
	}
	if (nmod)
		ptx_bprintf(e, &out, "\n");
	ptx_module_decls(e, &out);  /* printf, formats, the error word, prototypes (call.c) */
	if (f->visible_abi)
		ptx_visible_prototype(e, &out);
	else
		ptx_bprintf(e, &out, ".visible .entry %s(\n%s)\n", f->name, params.n ? params.p : "");
	const PjOptions *o = c->opt;
	if (o && o->maxntid > 0)    /* launch_bounds */
		ptx_bprintf(e, &out, ".maxntid %d, 1, 1\n", o->maxntid);
	if (o && o->minnctapersm > 0)
		ptx_bprintf(e, &out, ".minnctapersm %d\n", o->minnctapersm);
	if (o && o->maxclusterrank > 0)
		ptx_bprintf(e, &out, ".maxclusterrank %d\n", o->maxclusterrank);
	ptx_bprintf(e, &out, "%s", kbody.p);
	if (funcs.n)
		ptx_bprintf(e, &out, "%s", funcs.p);
	if (dwarf.n)
		ptx_bprintf(e, &out, "%s", dwarf.p);
	return out.p;
}

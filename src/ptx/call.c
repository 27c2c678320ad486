/*
 * call.c - the parts of a PTX module beyond one entry: device functions
 * called for real (.func with .param arguments and results), print()
 * through vprintf, and the error word that debug traps fill.
 *
 * Functions.  Every Fn in the kernel's funcs becomes
 *
 *     .func (.param .align 8 .b8 __pj_r[8 * n]) NAME(.param .b64 __pj_a0, ...)
 *
 * declared before the entry (calls may go either way, and recursion
 * calls a function from itself) and defined after it.  The results are
 * one byte array (PTX allows one .param result), 8 bytes per component.
 * A component of class b travels as a .b32 0 or 1; the others in their
 * own type.  farg
 * loads an argument, retv stores a result before the function's ret; a
 * call opens a scope with one .param per argument and result:
 *
 *     { .param .b64 __pj_ca0; st.param.b64 [__pj_ca0], %rd4;
 *       .param .align 8 .b8 __pj_cr[8];
 *       call (__pj_cr), NAME, (__pj_ca0);
 *       ld.param.b64 %rd5, [__pj_cr+0]; }
 *
 * The cargs just before a callf and the cres just after it (lower_call.c
 * keeps them together) are written by the callf.  Calls are not .uni:
 * recursion is divergent by nature.
 *
 * print.  Each format of Fn.fmts is a .const byte string (as in CUDA C
 * compilers' PTX: the function's constant memory counts it); the argument
 * buffer is a local array, passed to vprintf as a generic address.  A
 * %s conversion is a bool stored as 0 or 1: it is replaced in the buffer
 * by the generic address of "True" or "False" first.
 *
 * Traps (asserts and raise under debug, a zero range() step always).
 * `trap` would kill the context,
 * so a failing thread instead writes the trap's code (1 + its check index,
 * counted over the kernel and then each function) into the module's
 * __pj_err word with a compare-and-swap, and if it was first, its
 * threadIdx and blockIdx after it (and a failed bounds check of debug=True,
 * under its predicate, the index and the extent: ptx_trap_word); then it
 * exits.  The runtime reads the
 * word after the launch and raises the exception (PjKernel.traps).  A trap
 * without message only ends the thread (a raise without debug).
 */
#include <string.h>

#include "ptx.h"

static const char *pty(int k)
{
	switch (k) {
	case KL: return "b64";
	case KS: return "f32";
	case KD: return "f64";
	default: return "b32";      /* KW, and KB as 0 or 1 */
	}
}

static int func_pos(const Fn *f)
{
	for (int i = 0; f->mod && i < f->mod->nfuncs; i++)
		if (f->mod->funcs[i] == f)
			return i;
	return -1;
}

/* A .b32 register (or immediate) holding predicate operand r as 0 or 1. */
static const char *pred_word(Emit *e, Ref r)
{
	int64_t v;
	if (ptx_is_con(e, r, &v))
		return v ? "1" : "0";
	const char *t = ptx_tmp(e, KW);
	ptx_line(e, "selp.u32 %s, 1, 0, %s;", t, ptx_pred(e, r));
	return t;
}

static void store_param(Emit *e, const char *name, Ref r, int k)
{
	if (k == KB)
		ptx_line(e, "st.param.b32 [%s], %s;", name, pred_word(e, r));
	else
		ptx_line(e, "st.param.%s [%s], %s;", pty(k), name, ptx_opnd(e, r));
}

static void load_param(Emit *e, const char *d, const char *name, int k)
{
	if (k == KB) {
		const char *t = ptx_tmp(e, KW);
		ptx_line(e, "ld.param.b32 %s, [%s];", t, name);
		ptx_line(e, "setp.ne.b32 %s, %s, 0;", d, t);
	} else
		ptx_line(e, "ld.param.%s %s, [%s];", pty(k), d, name);
}

/* The ABI of visible and external functions passes a float16 as its 16
 * bits (.b16), as Numba's does; ptxjit holds it exactly in an f32
 * register. */
static int is_half_arg(const Fn *f, int k)
{
	return f->fargsk && f->fargsk[k] == SK_F16;
}

static const char *arg_pty(const Fn *f, int k)
{
	return is_half_arg(f, k) ? "b16" : pty(f->fargcls[k]);
}

static const char *ret_pty(const Fn *f)
{
	return f->ext_retsk == SK_F16 ? "b16" : pty(f->fretcls[0]);
}

static const char *half_bits(Emit *e, Ref r)
{
	const char *h = ptx_tmp(e, RK_H);
	ptx_line(e, "cvt.rn.f16.f32 %s, %s;", h, ptx_reg(e, r));
	return h;
}

static void store_abi(Emit *e, const char *name, Ref r, int k, int half)
{
	if (half)
		ptx_line(e, "st.param.b16 [%s], %s;", name, half_bits(e, r));
	else
		store_param(e, name, r, k);
}

/* value v (register d) = the float16 whose bits `ld` (ld.param, ld.local)
 * reads at addr; the .b16 register it went through is e->half[v] */
static void load_half(Emit *e, int v, const char *d, const char *ld, const char *addr)
{
	const char *h = ptx_tmp(e, RK_H);
	ptx_line(e, "%s.b16 %s, [%s];", ld, h, addr);
	ptx_line(e, "cvt.f32.f16 %s, %s;", d, h);
	e->half[v] = h;
}

static void load_abi(Emit *e, const Ins *i, const char *name, int k, int half)
{
	const char *d = ptx_def(e, i);
	if (half)
		load_half(e, i->to, d, "ld.param", name);
	else
		load_param(e, d, name, k);
}

/* An external function (cuda.declare_device) in its ABI: Numba's,
 *     .extern .func (.param .b32 __pj_st) NAME(.param .b64 __pj_rp, .param .b32 __pj_a0)
 * (a status returned, the result stored through the generic pointer
 * __pj_rp), or the C ABI's, the result returned:
 *     .extern .func (.param .b32 __pj_r) NAME(.param .b32 __pj_a0)       */
static void extern_prototype(Emit *e, PtxBuf *b, const Fn *f)
{
	ptx_bprintf(e, b, ".extern .func ");
	if (!f->abi_c)
		ptx_bprintf(e, b, "(.param .b32 __pj_st) %s(.param .b64 __pj_rp%s", f->name, f->nfargs ? ", " : "");
	else if (f->nfrets)
		ptx_bprintf(e, b, "(.param .%s __pj_r) %s(", ret_pty(f), f->name);
	else
		ptx_bprintf(e, b, "%s(", f->name);
	for (int k = 0; k < f->nfargs; k++)
		ptx_bprintf(e, b, "%s.param .%s __pj_a%d", k ? ", " : "", arg_pty(f, k), k);
	ptx_bprintf(e, b, ")");
}

/* ".func (.param .align 8 .b8 __pj_r[8]) NAME(.param .b64 __pj_a0)" */
static void prototype(Emit *e, PtxBuf *b, const Fn *f)
{
	if (f->external) {
		extern_prototype(e, b, f);
		return;
	}
	ptx_bprintf(e, b, ".func ");
	if (f->nfrets)
		ptx_bprintf(e, b, "(.param .align 8 .b8 __pj_r[%d]) ", 8 * f->nfrets);
	ptx_bprintf(e, b, "%s(", f->name);
	for (int k = 0; k < f->nfargs; k++)
		ptx_bprintf(e, b, "%s.param .%s __pj_a%d", k ? ", " : "", pty(f->fargcls[k]), k);
	ptx_bprintf(e, b, ")");
}

/* The module as one .visible .func (compile_ptx(device=True)), in
 * Numba's ABI
 *     .visible .func (.param .b32 func_retval0) NAME(.param .b64 NAME_param_0, .param .b32 NAME_param_1)
 * (the result stored through the pointer NAME_param_0, 0 returned) or
 * the C ABI
 *     .visible .func (.param .b32 func_retval0) NAME(.param .b32 NAME_param_0)          */
void ptx_visible_prototype(Emit *e, PtxBuf *b)
{
	const Fn *f = e->f;
	int numba = f->visible_abi == PJ_ABI_NUMBA, first = 0;
	ptx_bprintf(e, b, ".visible .func ");
	if (numba)
		ptx_bprintf(e, b, "(.param .b32 func_retval0) ");
	else if (f->nfrets)
		ptx_bprintf(e, b, "(.param .%s func_retval0) ", ret_pty(f));
	ptx_bprintf(e, b, "%s(", f->name);
	if (numba)
		ptx_bprintf(e, b, ".param .b64 %s_param_0", f->name), first = 1;
	for (int k = 0; k < f->nfargs; k++)
		ptx_bprintf(e, b, "%s.param .%s %s_param_%d", k + first ? ", " : "", arg_pty(f, k), f->name, k + first);
	ptx_bprintf(e, b, ")\n");
}

/* retv of the module's .visible .func: the result stored in its ABI. */
static void visible_retv(Emit *e, const Ins *i)
{
	const Fn *f = e->f;
	int k = f->fretcls[i->aux];
	int sk = f->ext_retsk;
	if (f->visible_abi != PJ_ABI_NUMBA) {
		store_abi(e, "func_retval0", i->arg[0], k, sk == SK_F16);
		return;
	}
	static const char *const st[NSK] = {
		[SK_BOOL] = "u8", [SK_I8] = "u8", [SK_I16] = "u16", [SK_I32] = "u32", [SK_I64] = "u64",
		[SK_U8] = "u8", [SK_U16] = "u16", [SK_U32] = "u32", [SK_U64] = "u64",
		[SK_F16] = "b16", [SK_F32] = "f32", [SK_F64] = "f64",
	};
	if (sk < 0 || sk >= NSK || !st[sk])
		ICE(e->c, "result of kind %d", sk);
	const char *p = ptx_tmp(e, KL);
	ptx_line(e, "ld.param.u64 %s, [%s_param_0];", p, f->name);
	if (k == KB)
		ptx_line(e, "st.u8 [%s], %s;", p, pred_word(e, i->arg[0]));
	else if (sk == SK_F16)
		ptx_line(e, "st.b16 [%s], %s;", p, half_bits(e, i->arg[0]));
	else
		ptx_line(e, "st.%s [%s], %s;", st[sk], p, ptx_opnd(e, i->arg[0]));
}

/* ------------------------------------------------------------ calls */

/* The load of an external function's result of kind sk from the local
 * slot its Numba-ABI call stored it in. */
static void load_result(Emit *e, const Ins *res, int sk, int k)
{
	const char *d = ptx_def(e, res);
	static const char *const ld[NSK] = {
		[SK_BOOL] = "u8", [SK_I8] = "s8", [SK_I16] = "s16", [SK_I32] = "s32", [SK_I64] = "s64",
		[SK_U8] = "u8", [SK_U16] = "u16", [SK_U32] = "u32", [SK_U64] = "u64",
		[SK_F16] = "b16", [SK_F32] = "f32", [SK_F64] = "f64",
	};
	const char *t = sk >= 0 && sk < NSK && ld[sk] ? ld[sk] : NULL;
	if (!t)
		ICE(e->c, "external function result of kind %d", sk);
	if (k == KB) {
		const char *w = ptx_tmp(e, KW);
		ptx_line(e, "ld.local.u8 %s, [__pj_xr];", w);
		ptx_line(e, "setp.ne.b32 %s, %s, 0;", d, w);
	} else if (sk == SK_F16) {
		load_half(e, res->to, d, "ld.local", "__pj_xr");
	} else
		ptx_line(e, "ld.local.%s %s, [__pj_xr];", t, d);
}

/* The body of a call scope for external function g (see extern_prototype). */
static void call_extern(Emit *e, const Fn *g, const Ins *args, const Ins *res)
{
	const char *al = "";
	for (int k = 0; k < g->nfargs; k++) {
		const char *name = arena_printf(e->c->arena, "__pj_ca%d", k);
		ptx_line(e, ".param .%s %s;", arg_pty(g, k), name);
		store_abi(e, name, args[k].arg[0], g->fargcls[k], is_half_arg(g, k));
		al = arena_printf(e->c->arena, "%s, %s", al, name);
	}
	if (g->abi_c) {
		if (g->nfrets) {
			ptx_line(e, ".param .%s __pj_cr;", ret_pty(g));
			ptx_line(e, "call (__pj_cr), %s, (%s);", g->name, *al ? al + 2 : "");
			load_abi(e, &res[0], "__pj_cr", g->fretcls[0], g->ext_retsk == SK_F16);
		} else
			ptx_line(e, "call %s, (%s);", g->name, *al ? al + 2 : "");
		return;
	}
	const char *p = ptx_tmp(e, KL);
	ptx_line(e, ".local .align 8 .b8 __pj_xr[8];");
	ptx_line(e, "mov.u64 %s, __pj_xr;", p);
	ptx_line(e, "cvta.local.u64 %s, %s;", p, p);
	ptx_line(e, ".param .b64 __pj_crp;");
	ptx_line(e, "st.param.b64 [__pj_crp], %s;", p);
	ptx_line(e, ".param .b32 __pj_cst;");
	ptx_line(e, "call (__pj_cst), %s, (__pj_crp%s);", g->name, al);
	if (g->nfrets)
		load_result(e, &res[0], g->ext_retsk, g->fretcls[0]);
}

static void callf(Emit *e, const Ins *i)
{
	Fn *f = e->f;
	if (!f->mod || i->aux < 0 || i->aux >= f->mod->nfuncs)
		ICE(e->c, "callf of function %d", i->aux);
	const Fn *g = f->mod->funcs[i->aux];
	const Ins *args = i - g->nfargs, *res = i + 1;
	for (int k = 0; k < g->nfargs; k++)
		if (args[k].op != O_CARG || args[k].aux != k)
			ICE(e->c, "callf %s: argument %d is not the carg before it", g->name, k);
	for (int k = 0; k < g->nfrets; k++)
		if (res[k].op != O_CRES || res[k].aux != k)
			ICE(e->c, "callf %s: result %d is not the cres after it", g->name, k);
	ptx_line(e, "{");
	if (g->external) {
		call_extern(e, g, args, res);
		ptx_line(e, "}");
		return;
	}
	for (int k = 0; k < g->nfargs; k++) {
		const char *name = arena_printf(e->c->arena, "__pj_ca%d", k);
		ptx_line(e, ".param .%s %s;", pty(g->fargcls[k]), name);
		store_param(e, name, args[k].arg[0], g->fargcls[k]);
	}
	const char *al = "";
	for (int k = 0; k < g->nfargs; k++)
		al = arena_printf(e->c->arena, "%s%s__pj_ca%d", al, k ? ", " : "", k);
	if (g->nfrets) {
		ptx_line(e, ".param .align 8 .b8 __pj_cr[%d];", 8 * g->nfrets);
		ptx_line(e, "call (__pj_cr), %s, (%s);", g->name, al);
	} else
		ptx_line(e, "call %s, (%s);", g->name, al);
	for (int k = 0; k < g->nfrets; k++)
		load_param(e, ptx_def(e, &res[k]), arena_printf(e->c->arena, "__pj_cr+%d", 8 * k), g->fretcls[k]);
	ptx_line(e, "}");
}

/* ------------------------------------------------------------ print */

static const char *fmt_sym(Emit *e, const Fn *f, int j)
{
	if (f->is_func)
		return arena_printf(e->c->arena, "__pj_f%d_fmt%d", func_pos(f), j);
	return arena_printf(e->c->arena, "__pj_fmt%d", j);
}

static void print(Emit *e, const Ins *i)
{
	Fn *f = e->f;
	if (i->aux < 0 || i->aux >= f->nfmts)
		ICE(e->c, "print of format %d", i->aux);
	const char *fmt = f->fmts[i->aux];
	int is_s[64];
	int n = ir_fmt_conversions(fmt, is_s, 64);
	int64_t v;
	int nobuf = ptx_is_con(e, i->arg[0], &v) && v == 0;
	const char *p = ptx_tmp(e, KL), *a = nobuf ? "0" : ptx_tmp(e, KL);
	ptx_line(e, "{");
	ptx_line(e, ".param .b64 __pj_pa0;");
	ptx_line(e, ".param .b64 __pj_pa1;");
	ptx_line(e, ".param .b32 __pj_pr;");
	ptx_line(e, "cvta.const.u64 %s, %s;", p, fmt_sym(e, f, i->aux));
	ptx_line(e, "st.param.b64 [__pj_pa0], %s;", p);
	if (!nobuf) {
		const char *buf = ptx_reg(e, i->arg[0]);
		for (int k = 0; k < n && k < 64; k++) {
			if (!is_s[k])
				continue;
			const char *t = ptx_tmp(e, KL), *q = ptx_tmp(e, KB);
			const char *yes = ptx_tmp(e, KL), *no = ptx_tmp(e, KL);
			ptx_line(e, "ld.local.u64 %s, [%s+%d];", t, buf, 8 * k);
			ptx_line(e, "setp.ne.u64 %s, %s, 0;", q, t);
			ptx_line(e, "cvta.const.u64 %s, __pj_true;", yes);
			ptx_line(e, "cvta.const.u64 %s, __pj_false;", no);
			ptx_line(e, "selp.b64 %s, %s, %s, %s;", t, yes, no, q);
			ptx_line(e, "st.local.u64 [%s+%d], %s;", buf, 8 * k, t);
		}
		ptx_line(e, "cvta.local.u64 %s, %s;", a, buf);
	}
	ptx_line(e, "st.param.b64 [__pj_pa1], %s;", a);
	ptx_line(e, "call (__pj_pr), vprintf, (__pj_pa0, __pj_pa1);");
	ptx_line(e, "}");
}

static void const_string(Emit *e, PtxBuf *b, const char *sym, const char *s)
{
	size_t n = strlen(s);
	ptx_bprintf(e, b, ".const .align 1 .b8 %s[%zu] = {", sym, n + 1);
	for (size_t k = 0; k <= n; k++)
		ptx_bprintf(e, b, "%s%u", k ? ", " : "", (unsigned char)s[k]);
	ptx_bprintf(e, b, "};\n");
}

/* ------------------------------------------------------------ traps */

/* The error code of check `idx` of f: 1 + its index among the checks of
 * the kernel, then of each function in order. */
static int trap_code(const Fn *f, int idx)
{
	const Fn *m = f->mod ? f->mod : f;
	int base = 0;
	if (f != m) {
		base = m->nchecks;
		for (int i = 0; i < m->nfuncs && m->funcs[i] != f; i++)
			base += m->funcs[i]->nchecks;
	}
	return base + idx + 1;
}

void ptx_trap_word(Emit *e, const char *p, int idx, const char *index, const char *extent)
{
	static const char *const sreg[6] = {"%tid.x", "%tid.y", "%tid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z"};
	const char *old = ptx_tmp(e, KW), *first = ptx_tmp(e, KB), *t = ptx_tmp(e, KW);
	const char *g = p ? arena_printf(e->c->arena, "@%s ", p) : "";
	if (p)
		ptx_line(e, "mov.u32 %s, 1;", old);
	ptx_line(e, "%satom.global.cas.b32 %s, [__pj_err], 0, %d;", g, old, trap_code(e->f, idx));
	if (p)
		ptx_line(e, "setp.eq.and.u32 %s, %s, 0, %s;", first, old, p);
	else
		ptx_line(e, "setp.eq.u32 %s, %s, 0;", first, old);
	for (int k = 0; k < 6; k++) {
		ptx_line(e, "mov.u32 %s, %s;", t, sreg[k]);
		ptx_line(e, "@%s st.global.u32 [__pj_err+%d], %s;", first, 4 * (k + 1), t);
	}
	if (index) {
		ptx_line(e, "@%s st.global.u64 [__pj_err+32], %s;", first, index);
		ptx_line(e, "@%s st.global.u64 [__pj_err+40], %s;", first, extent);
	}
	ptx_line(e, "%smembar.gl;", g);
	ptx_line(e, "%sexit;", g);
}

static void trap(Emit *e, const Ins *i)
{
	if (i->aux >= 0 && i->aux < e->f->nchecks && !e->f->checks[i->aux].msg) {
		ptx_line(e, "exit;");   /* no message: the thread just ends */
		return;
	}
	ptx_trap_word(e, NULL, i->aux, NULL, NULL);
}

/* --------------------------------------------------------- dispatch */

void ptx_call(Emit *e, const Ins *i)
{
	Fn *f = e->f;
	switch (i->op) {
	case O_FARG:
		if (!f->is_func || i->aux < 0 || i->aux >= f->nfargs)
			ICE(e->c, "farg %d outside a function's arguments", i->aux);
		load_abi(e, i, f->visible_abi ?
		         arena_printf(e->c->arena, "%s_param_%d", f->name, i->aux + (f->visible_abi == PJ_ABI_NUMBA)) :
		         arena_printf(e->c->arena, "__pj_a%d", i->aux), f->fargcls[i->aux],
		         f->visible_abi && is_half_arg(f, i->aux));
		return;
	case O_RETV:
		if (!f->is_func || i->aux < 0 || i->aux >= f->nfrets)
			ICE(e->c, "retv %d outside a function's results", i->aux);
		if (f->visible_abi) {
			visible_retv(e, i);
			return;
		}
		store_param(e, arena_printf(e->c->arena, "__pj_r+%d", 8 * i->aux), i->arg[0], f->fretcls[i->aux]);
		return;
	case O_CARG: case O_CRES:
		return;      /* written by the callf */
	case O_CALLF:
		callf(e, i);
		return;
	case O_PRINT:
		print(e, i);
		return;
	case O_TRAP:
		trap(e, i);
		return;
	default:
		ICE(e->c, "%s is not a call", ptx_opname(i->op));
	}
}

/* ------------------------------------------------------------ module */

static int uses(const Fn *f, int op)
{
	for (int b = 0; b < f->nblk; b++)
		for (int k = 0; k < f->blk[b]->nins; k++)
			if (f->blk[b]->ins[k].op == op)
				return 1;
	return 0;
}

static int module_uses(const Fn *m, int op)
{
	if (uses(m, op))
		return 1;
	for (int i = 0; i < m->nfuncs; i++)
		if (uses(m->funcs[i], op))
			return 1;
	return 0;
}

/* An Emit for function fn of the module, sharing e's file list. */
static Emit sub_emit(Emit *e, Fn *fn)
{
	Emit s = *e;
	s.f = fn;
	memset(&s.body, 0, sizeof s.body);
	memset(s.nreg, 0, sizeof s.nreg);
	s.reg = NULL;
	s.nlabel = 0;
	s.pname = NULL;
	s.last_file = s.last_line = 0;
	return s;
}

static void take_files(Emit *e, const Emit *s)
{
	e->files = s->files;
	e->nfiles = s->nfiles;
	e->capfiles = s->capfiles;
}

void ptx_funcs(Emit *e, PtxBuf *out)
{
	Fn *m = e->f;
	for (int i = 0; i < m->nfuncs; i++) {
		Fn *fn = m->funcs[i];
		if (fn->external)
			continue;
		for (int k = 0; k < fn->narrays; k++)
			if (fn->arrays[k].space == SP_SHARED)
				ICE(e->c, "shared array in device function %s", fn->name);
		Emit s = sub_emit(e, fn);
		ptx_bprintf(&s, out, "\n");
		prototype(&s, out, fn);
		ptx_bprintf(&s, out, "\n");
		ptx_fn_text(&s, out);
		take_files(e, &s);
	}
}

/* The bytes of .const data the module holds: the constant arrays of the
 * kernel and its functions that stay in constant memory, and print's
 * strings as ptx_module_decls declares them. */
int64_t ptx_const_bytes(const Fn *m)
{
	int64_t n = 0;
	for (int i = -1; i < m->nfuncs; i++) {
		const Fn *g = i < 0 ? m : m->funcs[i];
		for (int k = 0; k < g->narrays; k++)
			if (g->arrays[k].space == SP_CONST && !g->arrays[k].global)
				n += g->arrays[k].size;
	}
	if (module_uses(m, O_PRINT)) {
		n += (int64_t)sizeof "True" + (int64_t)sizeof "False";
		for (int i = -1; i < m->nfuncs; i++) {
			const Fn *g = i < 0 ? m : m->funcs[i];
			for (int j = 0; j < g->nfmts; j++)
				n += (int64_t)strlen(g->fmts[j]) + 1;
		}
	}
	return n;
}

void ptx_module_decls(Emit *e, PtxBuf *out)
{
	Fn *m = e->f;
	int n = 0;
	for (int i = 0; i < m->nfuncs; i++) {
		Emit s = sub_emit(e, m->funcs[i]);
		for (int k = 0; k < m->funcs[i]->narrays; k++)
			if (m->funcs[i]->arrays[k].space == SP_CONST) {
				ptx_decl_array(&s, out, k, "");
				n++;
			}
	}
	if (module_uses(m, O_PRINT)) {
		ptx_bprintf(e, out, ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, "
		                    ".param .b64 vprintf_param_1);\n");
		const_string(e, out, "__pj_true", "True");
		const_string(e, out, "__pj_false", "False");
		for (int j = 0; j < m->nfmts; j++)
			const_string(e, out, fmt_sym(e, m, j), m->fmts[j]);
		for (int i = 0; i < m->nfuncs; i++)
			for (int j = 0; j < m->funcs[i]->nfmts; j++)
				const_string(e, out, fmt_sym(e, m->funcs[i], j), m->funcs[i]->fmts[j]);
		n++;
	}
	if (ir_grid_sync(m, 0)) {   /* the grid's barrier word (warp.c) */
		ptx_bprintf(e, out, ".visible .global .align 4 .u32 __pj_gbar;\n");
		n++;
	}
	if (module_uses(m, O_TRAP) || module_uses(m, O_CHECK)) {
		ptx_bprintf(e, out, ".visible .global .align 8 .u32 __pj_err[%d];\n", PJ_TRAP_WORDS);
		n++;
	}
	for (int i = 0; i < m->nfuncs; i++) {
		prototype(e, out, m->funcs[i]);
		ptx_bprintf(e, out, ";\n");
		n++;
	}
	if (n)
		ptx_bprintf(e, out, "\n");
}

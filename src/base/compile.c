/*
 * compile.c - the pipeline, in order, and the public entry point.
 *
 *   parse the argument signature
 *   sema      resolve names, infer types of the kernel and device functions
 *   lower     typed AST -> IR (SSA)
 *   passes    fold, copy, cse, reused loads, dce and value ranges, three rounds, with
 *             loop unrolling after the first and loop-invariant code motion,
 *             scalar replacement of the memory a loop owns,
 *             strength reduction, 32-bit loop counters and the unrolling of
 *             loops stepped by other than 1 (grid strides) after the second;
 *             then ld.global.nc marks, addresses rebuilt (constant displacements, 32-bit
 *             offsets), cse, reused loads, copy and dce once more, special registers and loads
 *             first in their blocks, and critical edges split
 *   ptx       PTX text
 *   sim       the same lowering with bounds checks, for the simulator
 *
 * No pass decides what runs after it.  Every allocation of the request
 * lives in one arena; what the caller keeps (PTX, parameters, the
 * simulator program) is copied to the heap into the PjKernel.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core.h"

static unsigned parse_dump(const char *s)
{
	unsigned d = 0;
	if (!s)
		return 0;
	if (strstr(s, "ast"))
		d |= DUMP_AST;
	if (strstr(s, "types"))
		d |= DUMP_TYPES;
	if (strstr(s, "ir"))
		d |= DUMP_IR;
	if (strstr(s, "opt"))
		d |= DUMP_OPT;
	if (strstr(s, "ptx"))
		d |= DUMP_PTX;
	return d;
}

static void verify(Fn *f, const char *after)
{
#ifndef NDEBUG
	ir_verify(f, after);
#else
	(void)f;
	(void)after;
#endif
}

static void optimise(Ctx *c, Fn *f)
{
	if (c->opt->opt_level > 0) {
		for (int round = 0; round < 3; round++) {
			opt_fold(f);
			verify(f, "fold");
			opt_copy(f);
			verify(f, "copy");
			opt_cse(f);
			verify(f, "cse");
			opt_reload(f);
			verify(f, "reload");
			opt_dce(f);
			verify(f, "dce");
			opt_range(f);
			verify(f, "range");
			if (round == 0) {
				opt_unroll(f);
				verify(f, "unroll");
			}
			if (round == 1) {
				opt_licm(f);
				verify(f, "licm");
				opt_promote(f);
				verify(f, "promote");
				opt_sr(f);
				verify(f, "sr");
				opt_narrow(f);
				verify(f, "narrow");
				opt_unroll_stride(f);
				verify(f, "unroll_stride");
			}
		}
		opt_merge_cond(f);
		verify(f, "merge_cond");
		opt_fold(f);
		verify(f, "fold");
		opt_copy(f);
		verify(f, "copy");
		opt_dce(f);
		verify(f, "dce");
		opt_nc(f);
		opt_addr(f);
		verify(f, "addr");
		opt_cse(f);
		verify(f, "cse");
		opt_reload(f);
		verify(f, "reload");
		opt_copy(f);
		verify(f, "copy");
		opt_dce(f);
		verify(f, "dce");
		opt_sched(f);
		verify(f, "sched");
	}
	opt_split_edges(f);
	verify(f, "split_edges");
}

static char *heap_strdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s);
	char *p = malloc(n + 1);
	if (p)
		memcpy(p, s, n + 1);
	return p;
}

/* The IR of f and of the device functions it calls (Fn.funcs). */
static void print_module(FILE *out, Fn *f)
{
	ir_print(out, f);
	for (int i = 0; i < f->nfuncs; i++) {
		fputc('\n', out);
		if (f->funcs[i]->external) {
			fprintf(out, "extern %s\n", f->funcs[i]->name);
			continue;
		}
		ir_print(out, f->funcs[i]);
	}
}

static char *ir_text(Fn *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	print_module(m, f);
	fclose(m);
	return buf;
}

/* The passes on a kernel and on each device function it calls. */
static void optimise_module(Ctx *c, Fn *f)
{
	for (int i = -1; i < f->nfuncs; i++) {
		Fn *g = i < 0 ? f : f->funcs[i];
		if (g->external)
			continue;
		if (i >= 0)
			verify(g, "lower");
		optimise(c, g);
	}
}

/* The messages of the traps of f and of its functions, by code - 1 (the
 * order ptx/call.c numbers them in). */
static void fill_traps(PjKernel *k, Fn *f)
{
	int n = 0;
	for (int i = -1; i < f->nfuncs; i++)
		n += (i < 0 ? f : f->funcs[i])->nchecks;
	int any = 0;   /* a trap with a message left after the optimiser */
	for (int i = -1; i < f->nfuncs && !any; i++) {
		Fn *g = i < 0 ? f : f->funcs[i];
		for (int b = 0; b < g->nblk && !any; b++)
			for (int j = 0; j < g->blk[b]->nins && !any; j++) {
				const Ins *in = &g->blk[b]->ins[j];
				any = (in->op == O_TRAP && in->aux >= 0 && in->aux < g->nchecks && g->checks[in->aux].msg) ||
				      in->op == O_CHECK;
			}
	}
	if (!any || !(k->traps = calloc((size_t)n, sizeof *k->traps)))
		return;
	k->ntraps = n;
	n = 0;
	for (int i = -1; i < f->nfuncs; i++) {
		Fn *g = i < 0 ? f : f->funcs[i];
		for (int j = 0; j < g->nchecks; j++, n++) {
			CheckInfo *ci = &g->checks[j];
			if (!ci->msg && ci->axis >= 0) {   /* a bounds check (debug=True) */
				k->traps[n].axis = ci->axis + 1;
				k->traps[n].msg = heap_strdup(arena_printf(g->ctx->arena, "IndexError: %s", ci->array ? ci->array : "?"));
			} else if (ci->msg)
				k->traps[n].msg = heap_strdup(ci->msg);
			else
				continue;
			if (ci->loc >= 0 && ci->loc < g->nlocs) {
				k->traps[n].file = heap_strdup(g->locs[ci->loc].file);
				k->traps[n].line = g->locs[ci->loc].line;
			}
		}
	}
}

static void fill_externs(PjKernel *k, Fn *f)
{
	for (int i = 0; i < f->nfuncs; i++)
		k->nexterns += f->funcs[i]->external;
	if (!k->nexterns || !(k->externs = calloc((size_t)k->nexterns, sizeof *k->externs))) {
		k->nexterns = 0;
		return;
	}
	for (int i = 0, n = 0; i < f->nfuncs; i++)
		if (f->funcs[i]->external)
			k->externs[n++] = heap_strdup(f->funcs[i]->name);
}

/* The parameter buffer the launch packs: the kernel's, or the
 * simulator's program's where that takes more (pointer bounds). */
static void fill_params(PjKernel *k, Fn *f)
{
	free(k->params);
	k->nparams = f->nparam;
	k->params = calloc((size_t)(f->nparam ? f->nparam : 1), sizeof(PjParam));
	for (int i = 0; i < f->nparam; i++) {
		KParam *p = &f->param[i];
		k->params[i] = (PjParam){p->ty, p->off, p->arg, p->role, p->dim};
	}
	k->param_bytes = f->param_bytes;
}

static void fill_kernel(PjKernel *k, Fn *f)
{
	snprintf(k->entry, sizeof k->entry, "%s", f->name);
	fill_params(k, f);
	k->devmem = f->ndevmem > 0;
	k->cooperative = ir_grid_sync(f, 1);
	ir_arg_effects(f, &k->read_args, &k->written_args);
	for (int i = 0; i < f->narrays; i++) {
		SArray *a = &f->arrays[i];
		if (a->space != SP_SHARED)
			continue;
		if (a->dynamic)
			k->dynamic_smem = 1;
		else
			k->static_smem += a->size;
	}
	for (int i = -1; i < f->nfuncs; i++) {
		const Fn *g = i < 0 ? f : f->funcs[i];
		for (int j = 0; j < g->narrays; j++)
			if (g->arrays[j].space == SP_LOCAL)
				k->local_bytes += g->arrays[j].size;
	}
	k->const_bytes = ptx_const_bytes(f);
	k->regs_estimate = ir_reg_estimate(f);
}

static const PjOptions defaults = {.arch = 90, .opt_level = 1};

/* The error a compilation stopped with (err_at's diagnostic), for the caller. */
static void diag_to_err(const Ctx *c, PjError *err)
{
	err->kind = c->diag.kind;
	err->py_exc = c->diag.py_exc;
	snprintf(err->msg, sizeof err->msg, "%s", c->diag.msg);
	snprintf(err->file, sizeof err->file, "%s", c->diag.file ? c->diag.file : "");
	err->line = c->diag.line;
	err->col = c->diag.col;
}

static int out_of_memory(PjError *err)
{
	err->kind = PJ_ERR_INTERNAL;
	snprintf(err->msg, sizeof err->msg, "out of host memory");
	return PJ_ERR_INTERNAL;
}

static void compile_cpu(Ctx *c, PjKernel *k, Spec *spec);

static void compile_device(Ctx *c, PjKernel *k, const PjFunc *f, int nargs, Type **argtypes);

int pj_compile(const PjFunc *kernel, const char *argsig, const PjOptions *opt,
               PjKernel **out, PjError *err)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	const PjOptions *const volatile o = opt ? opt : &defaults;
	memset(err, 0, sizeof *err);
	*out = NULL;

	Arena *arena = arena_new();
	PjKernel *k = calloc(1, sizeof *k);
	if (!arena || !k) {
		free(k);
		arena_free(arena);
		return out_of_memory(err);
	}
	jmp_buf jb;
	Ctx ctx = {.arena = arena, .jmp = &jb, .opt = o, .dumpf = stderr};
	Ctx *volatile c = &ctx;
	const char *dump = o->dump ? o->dump : getenv("PTXJIT_DUMP");
	c->dump = parse_dump(dump);

	if (setjmp(jb)) {
		diag_to_err(c, err);
		pj_kernel_free(k);
		arena_free(arena);
		return err->kind;
	}

	int nargs = 0;
	Type **argtypes = NULL;
	Type *ret = ty_parse_sig(c, argsig ? argsig : "", &nargs, &argtypes);
	if (ret && ret->kind != TY_NONE && !o->target_cpu) {
		Src *sigsrc = arena_alloc(c->arena, sizeof *sigsrc);
		*sigsrc = (Src){.file = "<signature>", .text = argsig, .len = (int)strlen(argsig), .first_line = 1};
		Span sp = {sigsrc, 0, (int32_t)strcspn(argsig, "(")};
		err_type_at(c, sp, "a kernel signature returns void: \"void(float32[::1], int64)\"",
		       "CUDA kernel must have void return type, not %s", ty_str_of(c, ret));
	}
	if (o->device_abi) {
		compile_device(c, k, kernel, nargs, argtypes);   /* compile_ptx(device=True) (end of file) */
		goto finished;
	}
	Spec *spec = sema_kernel(c, kernel, nargs, argtypes);
	if (c->dump & DUMP_TYPES)
		sema_dump(c->dumpf, c);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (m) {
			sema_dump(m, c);
			fclose(m);
			k->types = buf;
		}
	}

	if (o->target_cpu) {
		compile_cpu(c, k, spec);   /* the CPU target: C text instead of PTX (end of file) */
		goto finished;
	}
	Fn *f = lower_kernel(c, spec, o->debug);
	verify(f, "lower");
	if (c->dump & DUMP_IR)
		print_module(c->dumpf, f);
	optimise_module(c, f);
	if (c->dump & DUMP_OPT)
		print_module(c->dumpf, f);
	char *ptx = ptx_emit(c, f, o->arch ? o->arch : 90,
	                     ptx_version_for(o->driver_version, o->arch ? o->arch : 90, o->arch_variant));
	if (c->dump & DUMP_PTX)
		fputs(ptx, c->dumpf);
	k->ptx = heap_strdup(ptx);
	k->ptx_len = strlen(ptx);
	k->ir = ir_text(f);
	fill_kernel(k, f);
	k->max_threads = o->maxntid > 0 ? o->maxntid : 1024;
	fill_traps(k, f);   /* debug's asserts and raises, and a range's zero step in every build */

	fill_externs(k, f);

	if (o->sim) {
		c->for_sim = 1;
		Fn *fs = lower_kernel(c, spec, 1);
		verify(fs, "lower");
		optimise_module(c, fs);
		k->sim = sim_prepare(c, fs);
		if (fs->nparam != f->nparam)   /* pointers' bounds, after the parameters both share */
			fill_params(k, fs);
	}
finished:
	arena_free(arena);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	k->compile_us = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
	*out = k;
	return PJ_OK;
}

void pj_kernel_free(PjKernel *k)
{
	if (!k)
		return;
	free(k->ptx);
	free(k->params);
	free(k->types);
	free(k->ir);
	for (int i = 0; i < k->nexterns; i++)
		free(k->externs[i]);
	free(k->externs);
	for (int i = 0; i < k->ntraps; i++) {
		free(k->traps[i].msg);
		free(k->traps[i].file);
	}
	free(k->traps);
	free(k->csrc);
	free(k->rets);
	sim_free_program(k->sim);
	free(k);
}

/* A type as pj_infer_return spells it: tuples of scalars in parentheses. */
static const char *ret_text(Ctx *c, const Type *t)
{
	if (!t || t->kind != TY_TUPLE)
		return ty_str_of(c, t);
	const char *s = "(";
	for (int i = 0; i < t->n; i++)
		s = arena_printf(c->arena, "%s%s%s", s, i ? ", " : "", ret_text(c, t->elts[i]));
	return arena_printf(c->arena, "%s%s)", s, t->n == 1 ? "," : "");
}

int pj_infer_return(const PjFunc *f, const char *argsig, char *out, size_t outsz, PjError *err)
{
	memset(err, 0, sizeof *err);
	if (outsz)
		out[0] = 0;
	Arena *arena = arena_new();
	if (!arena) {
		return out_of_memory(err);
	}
	jmp_buf jb;
	Ctx ctx = {.arena = arena, .jmp = &jb, .opt = &defaults, .dumpf = stderr};
	Ctx *volatile c = &ctx;
	if (setjmp(jb)) {
		diag_to_err(c, err);
		arena_free(arena);
		return err->kind;
	}
	int nargs = 0;
	Type **argtypes = NULL;
	ty_parse_sig(c, argsig ? argsig : "", &nargs, &argtypes);
	Type *ret = sema_return_type(c, f, nargs, argtypes);
	snprintf(out, outsz, "%s", ret_text(c, ret));
	arena_free(arena);
	return PJ_OK;
}

int pj_pick_signature(const char *argsig, const char *const *sigs, int nsigs, int *best, int *nbest,
                      PjError *err)
{
	memset(err, 0, sizeof *err);
	*nbest = 0;
	Arena *arena = arena_new();
	if (!arena) {
		return out_of_memory(err);
	}
	jmp_buf jb;
	Ctx ctx = {.arena = arena, .jmp = &jb, .opt = &defaults, .dumpf = stderr};
	Ctx *volatile c = &ctx;
	if (setjmp(jb)) {
		diag_to_err(c, err);
		arena_free(arena);
		return err->kind;
	}
	int nargs = 0;
	Type **argtypes = NULL;
	ty_parse_sig(c, argsig, &nargs, &argtypes);
	int *np = arena_alloc(arena, sizeof(int) * (size_t)(nsigs + 1));
	Type ***params = arena_alloc(arena, sizeof(Type **) * (size_t)(nsigs + 1));
	for (int i = 0; i < nsigs; i++)
		ty_parse_sig(c, sigs[i], &np[i], &params[i]);
	*nbest = sema_pick_signature(nsigs, np, params, nargs, argtypes, best);
	arena_free(arena);
	return PJ_OK;
}

/* ------------------------------------------------- the CPU target (@njit)
 *
 *   lower     the function as a CPU function (recursive callees: f->funcs)
 *   passes    the same as for kernels, on each Fn
 *   C         one C text for the module (src/cgen); the glue builds it
 *   sim       the IR interpreter's program, the fallback without a C
 *             compiler (src/sim/cpu.c: allocations and recursion too)
 */

static void compile_cpu(Ctx *c, PjKernel *k, Spec *spec)
{
	Fn *f = lower_cpu(c, spec, c->opt->boundscheck);
	for (int i = -1; i < f->nfuncs; i++) {
		Fn *g = i < 0 ? f : f->funcs[i];
		verify(g, "lower");
		if (c->dump & DUMP_IR)
			ir_print(c->dumpf, g);
		optimise(c, g);
		if (c->dump & DUMP_OPT)
			ir_print(c->dumpf, g);
	}
	char *src = cgen_emit(c, f);
	if (c->dump & DUMP_PTX)
		fputs(src, c->dumpf);
	k->csrc = heap_strdup(src);
	k->ir = ir_text(f);
	fill_kernel(k, f);
	PjRet *r;
	int bytes;
	k->nrets = lower_cpu_rets(c, spec->ret, &r, &bytes);
	k->rets = malloc(sizeof *r * (size_t)k->nrets);
	if (k->rets)
		memcpy(k->rets, r, sizeof *r * (size_t)k->nrets);
	k->ret_bytes = bytes;
	if (c->opt->sim)
		k->sim = sim_prepare(c, f);
}

/* compile_ptx(device=True): the device function alone, as a .visible .func
 * in the ABI asked for (PjOptions.device_abi), named abi_name or after
 * the function.
 *
 *   sema      the function's specialisation for the argument types
 *   lower     the function as the module (Fn.visible_abi; recursive callees: f->funcs)
 *   passes    the same as for kernels
 *   ptx       PTX text (no parameter buffer, no simulator program)
 */
static void compile_device(Ctx *c, PjKernel *k, const PjFunc *f, int nargs, Type **argtypes)
{
	const PjOptions *o = c->opt;
	Spec *sp = sema_device(c, f, nargs, argtypes);
	const char *name = o->abi_name && o->abi_name[0] ? o->abi_name : sp->def->name;
	char *id = arena_strdup(c->arena, name);
	for (char *p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		      *p == '$'))
			*p = '_';
	if (id[0] >= '0' && id[0] <= '9')
		id = arena_printf(c->arena, "_%s", id);
	Fn *fn = lower_device(c, sp, o->debug, id, o->device_abi);
	verify(fn, "lower");
	if (c->dump & DUMP_IR)
		print_module(c->dumpf, fn);
	optimise_module(c, fn);
	if (c->dump & DUMP_OPT)
		print_module(c->dumpf, fn);
	char *ptx = ptx_emit(c, fn, o->arch ? o->arch : 90,
	                     ptx_version_for(o->driver_version, o->arch ? o->arch : 90, o->arch_variant));
	if (c->dump & DUMP_PTX)
		fputs(ptx, c->dumpf);
	k->ptx = heap_strdup(ptx);
	k->ptx_len = strlen(ptx);
	k->ir = ir_text(fn);
	snprintf(k->entry, sizeof k->entry, "%s", fn->name);
	fill_externs(k, fn);
}

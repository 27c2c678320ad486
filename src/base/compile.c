/*
 * compile.c - the pipeline, in order, and the public entry point.
 *
 *   parse the argument signature
 *   sema      resolve names, infer types of the kernel and device functions
 *   lower     typed AST -> IR (SSA)
 *   passes    fold, copy, dce (to a fixed point), split critical edges
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
			opt_dce(f);
			verify(f, "dce");
		}
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

static char *ir_text(Fn *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	ir_print(m, f);
	fclose(m);
	return buf;
}

static void fill_kernel(PjKernel *k, Fn *f)
{
	snprintf(k->entry, sizeof k->entry, "%s", f->name);
	k->nparams = f->nparam;
	k->params = calloc((size_t)(f->nparam ? f->nparam : 1), sizeof(PjParam));
	for (int i = 0; i < f->nparam; i++) {
		KParam *p = &f->param[i];
		k->params[i] = (PjParam){p->ty, p->off, p->arg, p->role, p->dim};
	}
	k->param_bytes = f->param_bytes;
	for (int i = 0; i < f->narrays; i++) {
		SArray *a = &f->arrays[i];
		if (a->space != SP_SHARED)
			continue;
		if (a->dynamic)
			k->dynamic_smem = 1;
		else
			k->static_smem += a->size;
	}
}

int pj_compile(const PjFunc *kernel, const char *argsig, const PjOptions *opt,
               PjKernel **out, PjError *err)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	static const PjOptions defaults = {.arch = 90, .opt_level = 1};
	const PjOptions *const volatile o = opt ? opt : &defaults;
	memset(err, 0, sizeof *err);
	*out = NULL;

	Arena *arena = arena_new();
	PjKernel *k = calloc(1, sizeof *k);
	if (!arena || !k) {
		free(k);
		arena_free(arena);
		err->kind = PJ_ERR_INTERNAL;
		snprintf(err->msg, sizeof err->msg, "out of host memory");
		return PJ_ERR_INTERNAL;
	}
	jmp_buf jb;
	Ctx ctx = {.arena = arena, .jmp = &jb, .opt = o, .dumpf = stderr};
	Ctx *volatile c = &ctx;
	const char *dump = o->dump ? o->dump : getenv("PTXJIT_DUMP");
	c->dump = parse_dump(dump);

	if (setjmp(jb)) {
		err->kind = c->diag.kind;
		snprintf(err->msg, sizeof err->msg, "%s", c->diag.msg);
		snprintf(err->file, sizeof err->file, "%s", c->diag.file ? c->diag.file : "");
		err->line = c->diag.line;
		err->col = c->diag.col;
		pj_kernel_free(k);
		arena_free(arena);
		return err->kind;
	}

	int nargs = 0;
	Type **argtypes = NULL;
	Type *ret = ty_parse_sig(c, argsig ? argsig : "", &nargs, &argtypes);
	if (ret && ret->kind != TY_NONE) {
		Src *sigsrc = arena_alloc(c->arena, sizeof *sigsrc);
		*sigsrc = (Src){"<signature>", argsig, (int)strlen(argsig), 1, 0};
		Span sp = {sigsrc, 0, (int32_t)strcspn(argsig, "(")};
		err_at(c, sp, "a kernel signature returns void: \"void(float32[::1], int64)\"",
		       "CUDA kernel must have void return type, not %s", ty_str_of(c, ret));
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

	Fn *f = lower_kernel(c, spec, o->debug);
	verify(f, "lower");
	if (c->dump & DUMP_IR)
		ir_print(c->dumpf, f);
	optimise(c, f);
	if (c->dump & DUMP_OPT)
		ir_print(c->dumpf, f);
	char *ptx = ptx_emit(c, f, o->arch ? o->arch : 90,
	                     ptx_version_for(o->driver_version, o->arch ? o->arch : 90));
	if (c->dump & DUMP_PTX)
		fputs(ptx, c->dumpf);
	k->ptx = heap_strdup(ptx);
	k->ptx_len = strlen(ptx);
	k->ir = ir_text(f);
	fill_kernel(k, f);

	if (o->sim) {
		Fn *fs = lower_kernel(c, spec, 1);
		verify(fs, "lower");
		optimise(c, fs);
		k->sim = sim_prepare(c, fs);
	}
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
	sim_free_program(k->sim);
	free(k);
}

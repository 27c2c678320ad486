/*
 * call.c - device functions called for real (recursion) and print() in
 * the simulator.
 *
 * The program stays one flat code with one register file per thread:
 * sim_merge appends the blocks, values, constants, arrays, checks,
 * source positions and print formats of every function the kernel calls
 * (Fn.funcs) to a copy of the kernel's Fn, renumbering what refers to
 * them, and prepare.c translates the result as it translates a kernel.
 * A function's slots are the contiguous range of its values.
 *
 * A call (S_CALL) reads the argument values, saves the callee's slots
 * and local arrays on the thread's stack, writes the arguments into the
 * callee's argument slots and jumps to its entry; S_RETV stores a result
 * component in the stack's result buffer, and S_RETF restores what the
 * call saved (so a recursive call never sees its caller's values
 * clobbered), writes the results into the call site's slots and jumps
 * back.  A stack deeper than SIM_MAX_DEPTH is a RecursionError.
 *
 * print() writes, at once, into the process's stdout: the format is the
 * one the GPU's vprintf gets, with 8 bytes of argument buffer per
 * conversion; %s takes a bool stored as 0 or 1 and prints True or False.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define SIM_MAX_DEPTH 10000

/* ------------------------------------------------------------- merge */

static Ref moved(Ref r, int vo, int co)
{
	if (r.kind == R_VAL)
		return REF_VAL(r.idx + (uint32_t)vo);
	if (r.kind == R_CON)
		return REF_CON(r.idx + (uint32_t)co);
	return r;
}

#define APPEND(c, dst, n, cap, src, m) \
	do { for (int q_ = 0; q_ < (m); q_++) VEC_PUSH((c), (dst), (n), (cap), (src)[q_]); } while (0)

Fn *sim_merge(Ctx *c, Fn *k, SimMerge *m)
{
	Arena *a = c->arena;
	Fn *f = arena_alloc(a, sizeof *f);
	*f = *k;
	f->mod = f;
	f->funcs = NULL;
	f->nfuncs = f->capfuncs = 0;
	f->blk = NULL;
	f->val = NULL;
	f->con = NULL;
	f->arrays = NULL;
	f->checks = NULL;
	f->locs = NULL;
	f->fmts = NULL;
	f->nblk = f->capblk = f->nval = f->capval = f->ncon = f->capcon = 0;
	f->narrays = f->caparrays = f->nchecks = f->capchecks = f->nlocs = f->caplocs = 0;
	f->nfmts = f->capfmts = 0;
	APPEND(c, f->blk, f->nblk, f->capblk, k->blk, k->nblk);
	APPEND(c, f->val, f->nval, f->capval, k->val, k->nval);
	APPEND(c, f->con, f->ncon, f->capcon, k->con, k->ncon);
	APPEND(c, f->arrays, f->narrays, f->caparrays, k->arrays, k->narrays);
	APPEND(c, f->checks, f->nchecks, f->capchecks, k->checks, k->nchecks);
	APPEND(c, f->locs, f->nlocs, f->caplocs, k->locs, k->nlocs);
	APPEND(c, f->fmts, f->nfmts, f->capfmts, k->fmts, k->nfmts);

	int n = k->nfuncs;
	m->nfuncs = n;
	int **tabs[] = {&m->blk0, &m->nblk, &m->val0, &m->nval, &m->arr0, &m->narr, &m->nargs, &m->nrets};
	for (size_t t = 0; t < sizeof tabs / sizeof tabs[0]; t++)
		*tabs[t] = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	for (int j = 0; j < n; j++) {
		Fn *g = k->funcs[j];
		int bo = f->nblk, vo = f->nval, co = f->ncon, ao = f->narrays, ko = f->nchecks, lo = f->nlocs;
		int fo = f->nfmts;
		m->blk0[j] = bo;
		m->nblk[j] = g->nblk;
		m->val0[j] = vo;
		m->nval[j] = g->nval;
		m->arr0[j] = ao;
		m->narr[j] = g->narrays;
		m->nargs[j] = g->nfargs;
		m->nrets[j] = g->nfrets;
		for (int i = 0; i < g->nval; i++) {
			Val v = g->val[i];
			if (v.blk >= 0)
				v.blk += bo;
			VEC_PUSH(c, f->val, f->nval, f->capval, v);
		}
		APPEND(c, f->con, f->ncon, f->capcon, g->con, g->ncon);
		APPEND(c, f->arrays, f->narrays, f->caparrays, g->arrays, g->narrays);
		APPEND(c, f->locs, f->nlocs, f->caplocs, g->locs, g->nlocs);
		APPEND(c, f->fmts, f->nfmts, f->capfmts, g->fmts, g->nfmts);
		for (int i = 0; i < g->nchecks; i++) {
			CheckInfo ci = g->checks[i];
			for (int d = 0; d < 8; d++)
				ci.ext[d] = moved(ci.ext[d], vo, co);
			if (ci.loc >= 0)
				ci.loc += lo;
			VEC_PUSH(c, f->checks, f->nchecks, f->capchecks, ci);
		}
		for (int b = 0; b < g->nblk; b++) {
			Blk *gb = g->blk[b], *nb = arena_alloc(a, sizeof *nb);
			*nb = *gb;
			nb->id = gb->id + bo;
			if (gb->jmp == J_JMP || gb->jmp == J_JNZ) {
				nb->s1 = gb->s1 + bo;
				nb->s2 = gb->s2 + bo;
			}
			nb->cond = moved(gb->cond, vo, co);
			nb->pred = arena_alloc(a, sizeof(int) * (size_t)(gb->npred + 1));
			nb->cappred = gb->npred + 1;
			for (int p = 0; p < gb->npred; p++)
				nb->pred[p] = gb->pred[p] + bo;
			nb->phi = arena_alloc(a, sizeof(Phi) * (size_t)(gb->nphi + 1));
			nb->capphi = gb->nphi + 1;
			for (int p = 0; p < gb->nphi; p++) {
				Phi ph = gb->phi[p];
				ph.to += vo;
				ph.arg = arena_alloc(a, sizeof(Ref) * (size_t)(ph.n + 1));
				for (int q = 0; q < ph.n; q++)
					ph.arg[q] = moved(gb->phi[p].arg[q], vo, co);
				nb->phi[p] = ph;
			}
			nb->ins = arena_alloc(a, sizeof(Ins) * (size_t)(gb->nins + 1));
			nb->capins = gb->nins + 1;
			for (int q = 0; q < gb->nins; q++) {
				Ins in = gb->ins[q];
				if (in.to >= 0)
					in.to += vo;
				for (int r = 0; r < 3; r++)
					in.arg[r] = moved(in.arg[r], vo, co);
				if (in.loc >= 0)
					in.loc += lo;
				switch (in.op) {
				case O_ADDR: in.aux += ao; break;
				case O_CHECK: case O_TRAP: in.aux += ko; break;
				case O_PRINT: in.aux += fo; break;
				default: break;
				}
				nb->ins[q] = in;
			}
			VEC_PUSH(c, f->blk, f->nblk, f->capblk, nb);
		}
	}
	return f;
}

/* ----------------------------------------------------- program tables */

static void *xmalloc(Ctx *c, size_t n)
{
	void *p = calloc(n ? n : 1, 1);
	if (!p)
		ICE(c, "out of host memory preparing the simulator program");
	return p;
}

int sim_prep_call(Ctx *c, SimProgram *p, int func, int nargs, const int32_t *args, int nrets,
                  const int32_t *rets)
{
	SimCall *calls = realloc(p->calls, sizeof *calls * (size_t)(p->ncalls + 1));
	if (!calls)
		ICE(c, "out of host memory preparing the simulator program");
	p->calls = calls;
	SimCall *cs = &calls[p->ncalls];
	memset(cs, 0, sizeof *cs);
	cs->func = func;
	cs->nargs = nargs;
	cs->nrets = nrets;
	cs->args = xmalloc(c, sizeof(int32_t) * (size_t)nargs);
	cs->rets = xmalloc(c, sizeof(int32_t) * (size_t)nrets);
	if (nargs)
		memcpy(cs->args, args, sizeof(int32_t) * (size_t)nargs);
	if (nrets)
		memcpy(cs->rets, rets, sizeof(int32_t) * (size_t)nrets);
	return p->ncalls++;
}

void sim_prep_funcs(Ctx *c, SimProgram *p, Fn *f, const SimMerge *m, const int32_t *blkstart)
{
	p->funcs = xmalloc(c, sizeof *p->funcs * (size_t)m->nfuncs);
	p->nfuncs = m->nfuncs;
	for (int j = 0; j < m->nfuncs; j++) {
		SimFunc *fn = &p->funcs[j];
		fn->entry = blkstart[m->blk0[j]];
		fn->lo = m->val0[j];
		fn->hi = m->val0[j] + m->nval[j];
		fn->nargs = m->nargs[j];
		fn->args = xmalloc(c, sizeof(int32_t) * (size_t)fn->nargs);
		for (int k = 0; k < fn->nargs; k++)
			fn->args[k] = -1;
		for (int b = m->blk0[j]; b < m->blk0[j] + m->nblk[j]; b++)
			for (int q = 0; q < f->blk[b]->nins; q++) {
				Ins *i = &f->blk[b]->ins[q];
				if (i->op == O_FARG && i->aux >= 0 && i->aux < fn->nargs && i->to >= 0)
					fn->args[i->aux] = i->to;
			}
		int64_t lo = -1, hi = -1;
		for (int k = m->arr0[j]; k < m->arr0[j] + m->narr[j]; k++) {
			SimArray *sa = &p->arrays[k];
			if (sa->space != SP_LOCAL)
				continue;
			if (lo < 0 || sa->off < lo)
				lo = sa->off;
			if (sa->off + sa->size > hi)
				hi = sa->off + sa->size;
		}
		fn->loff = lo < 0 ? 0 : lo;
		fn->lsize = lo < 0 ? 0 : hi - lo;
		if (m->nrets[j] > p->maxrets)
			p->maxrets = m->nrets[j];
	}
}

/* ------------------------------------------------------------ run time */

typedef struct SimFrame {
	int32_t pc, call;
	size_t save;         /* where its saved slots start in the save area */
} SimFrame;

typedef struct SimStack {
	SimFrame *fr;
	int n, cap;
	uint8_t *save;
	size_t nsave, capsave;
	Reg *tmp;            /* argument values in flight */
	int captmp;
	Reg *ret;            /* result components on their way back */
} SimStack;

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static int stack_fail(Launch *L, Frame *fr, const SIns *ip, const char *what)
{
	const SimProgram *p = L->p;
	int32_t pc = (int32_t)(ip - p->code);
	int32_t l = pc >= 0 && pc < p->ncode ? p->code_loc[pc] : -1;
	const SimLoc *loc = l >= 0 && l < p->nlocs ? &p->locs[l] : NULL;
	PjError *e = L->err;
	char at[300] = "";
	if (loc)
		snprintf(at, sizeof at, "at %s:%d, ", loc->file, loc->line);
	if (L->cpu)
		snprintf(e->msg, sizeof e->msg, "%s\n  %sin function '%s'", what, at, p->name);
	else
		snprintf(e->msg, sizeof e->msg, "%s\n  %sin kernel '%s', thread (%u, %u, %u) of block (%u, %u, %u)", what,
		         at, p->name, fr->tid[0], fr->tid[1], fr->tid[2], L->ctaid[0], L->ctaid[1], L->ctaid[2]);
	e->kind = PJ_ERR_USER;
	snprintf(e->file, sizeof e->file, "%s", loc ? loc->file : "");
	e->line = loc ? loc->line : 0;
	e->col = loc ? loc->col : 0;
	L->code = PJ_SIM_TRAP;
	fr->pc = pc;
	return -1;
}

int32_t sim_call(Launch *L, Frame *fr, const SIns *ip)
{
	const SimProgram *p = L->p;
	const SimCall *cs = &p->calls[ip->aux];
	const SimFunc *fn = &p->funcs[cs->func];
	SimStack *st = fr->stack;
	if (!st) {
		st = fr->stack = calloc(1, sizeof *st);
		if (st)
			st->ret = calloc((size_t)p->maxrets + 1, sizeof(Reg));
		if (!st || !st->ret)
			return stack_fail(L, fr, ip, "MemoryError: out of host memory for the call stack");
	}
	if (st->n >= SIM_MAX_DEPTH && L->cpu)
		return stack_fail(L, fr, ip, "RecursionError: maximum recursion depth exceeded (10000 nested calls on "
		                  "the interpreter)");
	if (st->n >= SIM_MAX_DEPTH)
		return stack_fail(L, fr, ip, "RecursionError: maximum recursion depth exceeded (10000 nested calls of "
		                  "device functions; on a GPU the stack overflows much earlier)");
	size_t nregs = (size_t)(fn->hi - fn->lo), bytes = nregs * sizeof(Reg) + (size_t)fn->lsize;
	size_t captmp = (size_t)st->captmp, capfr = (size_t)st->cap;
	if (grow((void **)&st->tmp, &captmp, (size_t)cs->nargs + 1, sizeof(Reg)) ||
	    grow((void **)&st->fr, &capfr, (size_t)st->n + 1, sizeof(SimFrame)) ||
	    grow((void **)&st->save, &st->capsave, st->nsave + bytes + 1, 1))
		return stack_fail(L, fr, ip, "MemoryError: out of host memory for the call stack");
	st->captmp = (int)captmp;
	st->cap = (int)capfr;
	Reg *r = fr->r;
	for (int k = 0; k < cs->nargs; k++)
		st->tmp[k] = r[cs->args[k]];
	SimFrame *sf = &st->fr[st->n++];
	sf->pc = (int32_t)(ip - p->code) + 1;
	sf->call = ip->aux;
	sf->save = st->nsave;
	memcpy(st->save + st->nsave, r + fn->lo, nregs * sizeof(Reg));
	if (fn->lsize)
		memcpy(st->save + st->nsave + nregs * sizeof(Reg), fr->local + fn->loff, (size_t)fn->lsize);
	st->nsave += bytes;
	for (int k = 0; k < cs->nargs && k < fn->nargs; k++)
		if (fn->args[k] >= 0)
			r[fn->args[k]] = st->tmp[k];
	return fn->entry;
}

void sim_retv(Frame *fr, const SIns *ip)
{
	if (fr->stack)
		fr->stack->ret[ip->aux] = fr->r[ip->a];
}

int32_t sim_return(Launch *L, Frame *fr, const SIns *ip)
{
	const SimProgram *p = L->p;
	SimStack *st = fr->stack;
	if (!st || !st->n)
		return stack_fail(L, fr, ip, "internal error in the simulator: a return without a call");
	SimFrame *sf = &st->fr[--st->n];
	const SimCall *cs = &p->calls[sf->call];
	const SimFunc *fn = &p->funcs[cs->func];
	size_t nregs = (size_t)(fn->hi - fn->lo);
	memcpy(fr->r + fn->lo, st->save + sf->save, nregs * sizeof(Reg));
	if (fn->lsize)
		memcpy(fr->local + fn->loff, st->save + sf->save + nregs * sizeof(Reg), (size_t)fn->lsize);
	st->nsave = sf->save;
	for (int k = 0; k < cs->nrets; k++)
		fr->r[cs->rets[k]] = st->ret[k];
	return sf->pc;
}

void sim_reset_stack(Frame *fr)
{
	if (fr->stack) {
		fr->stack->n = 0;
		fr->stack->nsave = 0;
	}
}

void sim_free_stack(Frame *fr)
{
	SimStack *st = fr->stack;
	if (!st)
		return;
	free(st->fr);
	free(st->save);
	free(st->tmp);
	free(st->ret);
	free(st);
	fr->stack = NULL;
}

/* -------------------------------------------------------------- print */

typedef struct Out {
	char *p;
	size_t n, cap;
} Out;

static void out_put(Out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 256;
		while (cap < o->n + n + 1)
			cap *= 2;
		char *q = realloc(o->p, cap);
		if (!q)
			return;
		o->p = q;
		o->cap = cap;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
}

int sim_print(Launch *L, Frame *fr, const SIns *ip)
{
	const char *fmt = L->p->fmts[ip->aux];
	const uint8_t *buf = (const uint8_t *)(uintptr_t)fr->r[ip->a].u;
	if (buf && sim_guard_range(L, fr, ip, fr->r[ip->a].u, 8 * (uint64_t)ir_fmt_conversions(fmt, NULL, 0), GUARD_PRINT))
		return RUN_ERR;   /* guard.c */
	Out o = {0};
	int k = 0;
	for (const char *s = fmt; *s;) {
		if (*s != '%') {
			const char *t = strchr(s, '%');
			size_t n = t ? (size_t)(t - s) : strlen(s);
			out_put(&o, s, n);
			s += n;
			continue;
		}
		if (s[1] == '%') {
			out_put(&o, "%", 1);
			s += 2;
			continue;
		}
		const char *start = s++;
		while (*s && !strchr("diouxXfFeEgGcsp", *s))
			s++;
		if (!*s)
			break;
		char spec[32], tmp[512];
		size_t len = (size_t)(s - start) + 1;
		if (len >= sizeof spec)
			len = sizeof spec - 1;
		memcpy(spec, start, len);
		spec[len] = 0;
		uint64_t v = 0;
		if (buf)
			memcpy(&v, buf + 8 * k, 8);
		k++;
		double d;
		switch (*s) {
		case 's':
			snprintf(tmp, sizeof tmp, spec, v ? "True" : "False");
			break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
			memcpy(&d, &v, 8);
			snprintf(tmp, sizeof tmp, spec, d);
			break;
		case 'd': case 'i':
			snprintf(tmp, sizeof tmp, spec, (long long)v);
			break;
		default:
			snprintf(tmp, sizeof tmp, spec, (unsigned long long)v);
			break;
		}
		out_put(&o, tmp, strlen(tmp));
		s++;
	}
	if (o.p) {
		fwrite(o.p, 1, o.n, stdout);
		fflush(stdout);
		free(o.p);
	}
	return 0;
}

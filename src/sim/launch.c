/*
 * launch.c - pj_sim_launch: runs a kernel's simulator program over a grid
 * on the CPU, and reports what went wrong in the user's terms.
 *
 * Blocks run one after another, blockIdx.x fastest.  Within a block each
 * thread is a frame (register file, local memory, pc): thread 0 runs until
 * it reaches a barrier or returns, then thread 1, and so on; when every
 * thread waits at a barrier they are all released (one "epoch" ends).  A
 * barrier that some threads reach while the others have returned is a
 * deadlock on the GPU (undefined behaviour), and an error here.  A
 * program without barriers or warp operations runs every thread to
 * completion in one frame.  A thread that reaches a warp operation
 * (shuffle, vote, syncwarp, ...) stops there too; when no thread can run,
 * warp.c lets the lanes of each warp meet, and only when no warp can meet
 * does the barrier open.
 *
 * Every load, store and atomic is checked against the memory the
 * kernel may touch (guard.c), whose table the launch builds first.
 *
 * Memory: one shared-memory buffer, reused by every block and filled with
 * 0xFF bytes (a NaN for floats, -1 for ints) before each, because the GPU
 * does not clear it either; local arrays likewise per thread.  Frames and
 * buffers are allocated once per launch.  Everything the launch uses is
 * its own, so several launches may run at once on one program.
 *
 * Checks on request (check flags): PJ_SIM_UNINIT reports a read of a
 * shared byte that no thread of the block has written; PJ_SIM_RACE
 * reports two threads touching one shared byte between the same two
 * barriers when at least one of them writes (write/write, read then
 * write, write then read).  Atomics are not races.  Both keep a shadow
 * record per shared byte, stamped with a block generation and a barrier
 * epoch that only ever grow, so nothing is cleared between blocks.
 */
#include <fenv.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define POISON 0xFF
#define MAX_SMEM (227 * 1024)

/* ----------------------------------------------------------- reports */

static void thread_of(const Launch *L, uint32_t t, unsigned xyz[3])
{
	xyz[0] = t % L->block[0];
	xyz[1] = t / L->block[0] % L->block[1];
	xyz[2] = t / (L->block[0] * L->block[1]);
}

static const SimLoc *loc_at(const Launch *L, const SIns *ip)
{
	const SimProgram *p = L->p;
	int32_t pc = (int32_t)(ip - p->code);
	int32_t l = pc >= 0 && pc < p->ncode ? p->code_loc[pc] : -1;
	return l >= 0 && l < p->nlocs ? &p->locs[l] : NULL;
}

static int fail(Launch *L, int code, const SimLoc *loc, const char *fmt, ...)
{
	PjError *e = L->err;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	e->kind = code == PJ_SIM_BAD ? PJ_ERR_INTERNAL : PJ_ERR_USER;
	snprintf(e->file, sizeof e->file, "%s", loc ? loc->file : "");
	e->line = loc ? loc->line : 0;
	e->col = loc ? loc->col : 0;
	L->code = code;
	return RUN_ERR;
}

/* "at kernel.py:12, in kernel 'k', thread (0, 0, 0) of block (4, 0, 0)" */
static void where(const Launch *L, const SimLoc *loc, const Frame *fr, char *buf, size_t n)
{
	char at[300];
	if (loc)
		snprintf(at, sizeof at, "at %s:%d, ", loc->file, loc->line);
	else
		at[0] = 0;
	if (L->cpu)
		snprintf(buf, n, "%sin function '%s'", at, L->p->name);
	else
		snprintf(buf, n, "%sin kernel '%s', thread (%u, %u, %u) of block (%u, %u, %u)", at, L->p->name,
		         fr->tid[0], fr->tid[1], fr->tid[2], L->ctaid[0], L->ctaid[1], L->ctaid[2]);
}

int sim_fail_check(Launch *L, Frame *fr, const SIns *ip, int64_t index)
{
	const SimProgram *p = L->p;
	const SimCheck *ck = &p->checks[ip->aux];
	const SimLoc *loc = ck->loc >= 0 ? &p->locs[ck->loc] : loc_at(L, ip);
	char shape[200] = "", w[600];
	int n = 0;
	if (ck->ndim > 0) {
		n += snprintf(shape + n, sizeof shape - (size_t)n, " of shape (");
		for (int k = 0; k < ck->ndim && n < (int)sizeof shape - 24; k++) {
			if (ck->ext[k] >= 0)
				n += snprintf(shape + n, sizeof shape - (size_t)n, "%lld", (long long)fr->r[ck->ext[k]].i);
			else
				n += snprintf(shape + n, sizeof shape - (size_t)n, "?");
			if (ck->ndim == 1)
				n += snprintf(shape + n, sizeof shape - (size_t)n, ",");
			else if (k + 1 < ck->ndim)
				n += snprintf(shape + n, sizeof shape - (size_t)n, ", ");
		}
		snprintf(shape + n, sizeof shape - (size_t)n, ")");
	}
	where(L, loc, fr, w, sizeof w);
	if (ck->ptr_size > 0) {   /* a pointer's: a byte offset into its allocation (lower_pointer.c) */
		int64_t room = fr->r[ip->b].i, es = ck->ptr_size, bytes = room > 0 ? room + es - 1 : 0;
		return fail(L, PJ_SIM_INDEX, loc,
		            "pointer '%s' reaches outside the memory it points into: an element of %lld bytes at "
		            "byte %lld of an allocation of %lld bytes (%lld elements)\n  %s",
		            ck->array ? ck->array : "?", (long long)es, (long long)index, (long long)bytes,
		            (long long)(bytes / es), w);
	}
	/* lowering adds the extent to a negative index before the check, so
	 * one still negative was index - extent in the source */
	int64_t ext = fr->r[ip->b].i;
	if (index < 0)
		index = (int64_t)((uint64_t)index - (uint64_t)ext);
	return fail(L, PJ_SIM_INDEX, loc,
	            "index %lld is out of bounds for axis %d with size %lld in array '%s'%s\n  %s",
	            (long long)index, ck->axis, (long long)ext, ck->array ? ck->array : "?", shape, w);
}

int sim_fail_trap(Launch *L, Frame *fr, const SIns *ip)
{
	const SimProgram *p = L->p;
	const SimCheck *ck = &p->checks[ip->aux];
	const SimLoc *loc = ck->loc >= 0 ? &p->locs[ck->loc] : loc_at(L, ip);
	char w[600];
	where(L, loc, fr, w, sizeof w);
	return fail(L, PJ_SIM_TRAP, loc, "%s\n  %s", ck->msg ? ck->msg : "the kernel stopped (trap)", w);
}

int sim_fail_internal(Launch *L, Frame *fr, const SIns *ip)
{
	char w[600];
	where(L, loc_at(L, ip), fr, w, sizeof w);
	return fail(L, PJ_SIM_BAD, NULL, "internal error in the simulator: unknown instruction %d\n  %s",
	            ip->op, w);
}

/* The loop's line: that of its head, where the jump back goes (the jump
 * itself carries the line of the body's last statement). */
static const SimLoc *loop_loc(const Launch *L, const SIns *ip)
{
	int32_t pc = (int32_t)(ip - L->p->code), head = -1;
	if (ip->op == S_JMPB)
		head = ip->a;
	else if (ip->op == S_JNZB)
		head = ip->b <= pc ? ip->b : ip->c;
	const SimLoc *loc = head >= 0 && head <= pc ? loc_at(L, L->p->code + head) : NULL;
	return loc ? loc : loc_at(L, ip);
}

int sim_fail_endless(Launch *L, Frame *fr, const SIns *ip)
{
	char w[600];
	const SimLoc *loc = loop_loc(L, ip);
	where(L, loc, fr, w, sizeof w);
	if (L->cpu)
		return fail(L, PJ_SIM_DEADLOCK, loc,
		            "a loop ran %llu times in one call: an endless loop?\n  %s\n"
		            "  (the interpreter stops a loop after PTXJIT_SIM_LOOP_LIMIT turns; set it higher "
		            "for a longer computation, or press Ctrl-C to stop a run)",
		            (unsigned long long)L->loop_budget, w);
	return fail(L, PJ_SIM_DEADLOCK, loc,
	            "a loop ran %llu times without reaching a barrier or returning: an endless loop?\n  %s\n"
	            "  (the simulator runs the threads of a block one at a time from one cuda.syncthreads() "
	            "to the next, so a thread that waits for another thread to set a flag waits forever)",
	            (unsigned long long)L->loop_budget, w);
}

int sim_fail_stopped(Launch *L, Frame *fr, const SIns *ip)
{
	char w[600];
	const SimLoc *loc = ip ? loc_at(L, ip) : NULL;
	if (fr)
		where(L, loc, fr, w, sizeof w);
	else
		snprintf(w, sizeof w, "in kernel '%s', block (%u, %u, %u)", L->p->name, L->ctaid[0], L->ctaid[1],
		         L->ctaid[2]);
	return fail(L, PJ_SIM_STOPPED, loc, "stopped from outside (pj_sim_stop)\n  %s", w);
}

/* The shared array that holds byte `off`, for messages. */
static const char *shared_name(const Launch *L, int64_t off, int64_t *rel)
{
	const SimProgram *p = L->p;
	const SimArray *best = NULL;
	for (int i = 0; i < p->narrays; i++) {
		const SimArray *a = &p->arrays[i];
		if (a->space != SP_SHARED)
			continue;
		int64_t end = a->dynamic ? L->smem_size : a->off + a->size;
		if (off >= a->off && off < end && (!best || a->off >= best->off))
			best = a;
	}
	*rel = best ? off - best->off : off;
	return best && best->name ? best->name : "?";
}

static const SimLoc *loc_pc(const Launch *L, int32_t pc)
{
	return pc >= 0 && pc < L->p->ncode ? loc_at(L, L->p->code + pc) : NULL;
}

static int race(Launch *L, Frame *fr, const SIns *ip, int64_t off, int other, int32_t other_pc,
                const char *mine, const char *theirs)
{
	const SimLoc *loc = loc_at(L, ip), *oloc = loc_pc(L, other_pc);
	int64_t rel;
	const char *name = shared_name(L, off, &rel);
	unsigned o[3];
	char w[600], oat[300] = "", ot[64];
	if (other == 0xFFFF)
		snprintf(ot, sizeof ot, "other threads");
	else {
		thread_of(L, (uint32_t)other, o);
		snprintf(ot, sizeof ot, "thread (%u, %u, %u)", o[0], o[1], o[2]);
	}
	if (oloc)
		snprintf(oat, sizeof oat, " at %s:%d", oloc->file, oloc->line);
	where(L, loc, fr, w, sizeof w);
	return fail(L, PJ_SIM_RACE_FOUND, loc,
	            "race on shared memory: this thread %s byte %lld of shared array '%s' that %s %s%s "
	            "with no cuda.syncthreads() between them\n  %s",
	            mine, (long long)rel, name, ot, theirs, oat, w);
}

/* A shared-space access outside the block's shared memory: only the
 * dynamic array can get there, as its extent is not known to the IR. */
static int outside_shared(Launch *L, Frame *fr, const SIns *ip, uint64_t addr)
{
	const SimProgram *p = L->p;
	const SimLoc *loc = loc_at(L, ip);
	const char *dyn = NULL;
	for (int i = 0; i < p->narrays; i++)
		if (p->arrays[i].space == SP_SHARED && p->arrays[i].dynamic)
			dyn = p->arrays[i].name;
	int64_t off = (int64_t)(addr - (uint64_t)(uintptr_t)L->smem) - p->smem_static;
	char w[600];
	where(L, loc, fr, w, sizeof w);
	if (dyn)
		fail(L, PJ_SIM_INDEX, loc,
		     "access of %d bytes at byte %lld of the dynamic shared array '%s', which has %lld bytes "
		     "(the launch's fourth element, kernel[blocks, threads, stream, bytes], sizes it)\n  %s",
		     ip->b, (long long)off, dyn, (long long)(L->smem_size - p->smem_static), w);
	else
		fail(L, PJ_SIM_INDEX, loc, "access outside the block's %lld bytes of shared memory\n  %s",
		     (long long)L->smem_size, w);
	return 1;
}

/* Called before a load, store or atomic in shared or generic space while
 * a check is on, or when a shared-space address falls outside the block's
 * shared memory.  Returns nonzero (and fills the error) to stop. */
int sim_shared_hook(Launch *L, Frame *fr, const SIns *ip, uint64_t addr)
{
	uint64_t base = (uint64_t)(uintptr_t)L->smem, off = addr - base;
	if (off >= (uint64_t)L->smem_size || (uint64_t)L->smem_size - off < (uint64_t)ip->b) {
		if (!ip->c)
			return 0;    /* a generic address elsewhere */
		return outside_shared(L, fr, ip, addr);
	}
	if (!L->shadow)
		return 0;
	int64_t end = (int64_t)off + ip->b;
	int32_t pc = (int32_t)(ip - L->p->code);
	uint16_t t = (uint16_t)fr->t;
	int uninit = L->check & PJ_SIM_UNINIT, races = L->check & PJ_SIM_RACE;
	for (int64_t i = (int64_t)off; i < end; i++) {
		Shadow *s = &L->shadow[i];
		if (ip->aux != HOOK_WRITE && uninit && s->written != L->gen) {
			int64_t rel;
			const char *name = shared_name(L, i, &rel);
			char w[600];
			const SimLoc *loc = loc_at(L, ip);
			where(L, loc, fr, w, sizeof w);
			fail(L, PJ_SIM_UNINIT_READ, loc,
			     "read of uninitialised shared memory: byte %lld of shared array '%s' was not written "
			     "by any thread of block (%u, %u, %u) before this %s\n  %s",
			     (long long)rel, name, L->ctaid[0], L->ctaid[1], L->ctaid[2],
			     ip->aux == HOOK_ATOM ? "atomic operation" : "read", w);
			return 1;
		}
		if (races && ip->aux == HOOK_READ) {
			if (s->w_epoch == L->epoch && s->w_tid != t) {
				race(L, fr, ip, i, s->w_tid, s->w_pc, "reads", "wrote");
				return 1;
			}
			if (s->r_epoch != L->epoch) {
				s->r_epoch = L->epoch;
				s->r_tid = t;
				s->r_pc = pc;
			} else if (s->r_tid != t) {
				s->r_tid = 0xFFFF;
			}
		}
		if (races && ip->aux == HOOK_WRITE) {
			if (s->w_epoch == L->epoch && s->w_tid != t) {
				race(L, fr, ip, i, s->w_tid, s->w_pc, "writes", "wrote");
				return 1;
			}
			if (s->r_epoch == L->epoch && s->r_tid != t) {
				race(L, fr, ip, i, s->r_tid, s->r_pc, "writes", "read");
				return 1;
			}
			s->w_epoch = L->epoch;
			s->w_tid = t;
			s->w_pc = pc;
		}
		if (ip->aux != HOOK_READ)
			s->written = L->gen;
	}
	return 0;
}

/* ------------------------------------------------------------ frames */

static Reg load_param(const uint8_t *p, int ty)
{
	Reg r;
	r.u = 0;
	switch (ty) {
	case SK_BOOL: r.u = p[0] != 0; break;
	case SK_I8: r.u = (uint32_t)(int32_t)(int8_t)p[0]; break;
	case SK_U8: r.u = p[0]; break;
	case SK_I16: { int16_t v; memcpy(&v, p, 2); r.u = (uint32_t)(int32_t)v; break; }
	case SK_U16: { uint16_t v; memcpy(&v, p, 2); r.u = v; break; }
	case SK_F16: { uint16_t v; memcpy(&v, p, 2); r.s = ir_f16_to_f32(v); break; }
	case SK_I32: case SK_U32: case SK_F32: { uint32_t v; memcpy(&v, p, 4); r.u = v; break; }
	default: memcpy(&r.u, p, 8); break;
	}
	return r;
}

void sim_init_frame(Launch *L, Frame *fr, Reg *regs, uint8_t *local)
{
	const SimProgram *p = L->p;
	fr->r = regs;
	fr->local = local;
	memcpy(regs, p->init, sizeof *regs * (size_t)p->nslots);
	for (int i = 0; i < p->ninits; i++) {
		const SimInit *in = &p->inits[i];
		Reg *r = &regs[in->slot];
		switch (in->kind) {
		case LI_PARAM: *r = load_param(L->params + in->off, in->ty); break;
		case LI_SHARED: r->u = (uint64_t)(uintptr_t)(L->smem + in->off); break;
		default: r->u = (uint64_t)(uintptr_t)(local + in->off); break;
		}
	}
	Reg *sr = regs + p->sreg_slot;
	sr[SR_NTID_X].u = L->block[0];
	sr[SR_NTID_Y].u = L->block[1];
	sr[SR_NTID_Z].u = L->block[2];
	sr[SR_NCTAID_X].u = L->grid[0];
	sr[SR_NCTAID_Y].u = L->grid[1];
	sr[SR_NCTAID_Z].u = L->grid[2];
	sr[SR_WARPSIZE].u = 32;
	sr[SR_DYNSMEM].u = (uint64_t)(L->smem_size - p->smem_static);
}

/* ------------------------------------------------ stopping from outside */

/* The one piece of process state the simulator has: a signal handler,
 * which has no context to reach, sets it (pj_sim_stop), and every run in
 * every thread looks at it. */
static volatile sig_atomic_t stop_flag;

void pj_sim_stop(int on)
{
	stop_flag = on != 0;
}

int sim_stop_requested(void)
{
	return stop_flag;
}

uint64_t sim_loop_budget(void)
{
	const char *limit = getenv("PTXJIT_SIM_LOOP_LIMIT");
	uint64_t n = limit ? strtoull(limit, NULL, 10) : 0;
	return n ? n : SIM_LOOP_BUDGET;
}

static void start_thread(Launch *L, Frame *fr, uint32_t t, unsigned x, unsigned y, unsigned z)
{
	Reg *sr = fr->r + L->p->sreg_slot;
	sr[SR_TID_X].u = x;
	sr[SR_TID_Y].u = y;
	sr[SR_TID_Z].u = z;
	sr[SR_LANEID].u = t & 31;
	fr->tid[0] = x;
	fr->tid[1] = y;
	fr->tid[2] = z;
	fr->t = t;
	fr->pc = 0;
	fr->state = -1;
	sim_reset_stack(fr);   /* a thread may have ended inside a call (call.c) */
	if (L->p->local_size)
		memset(fr->local, POISON, (size_t)L->p->local_size);
}

/* ---------------------------------------------------------- blocks */

static int run_block_plain(Launch *L, Frame *fr)
{
	uint32_t t = 0;
	for (unsigned z = 0; z < L->block[2]; z++)
		for (unsigned y = 0; y < L->block[1]; y++)
			for (unsigned x = 0; x < L->block[0]; x++, t++) {
				start_thread(L, fr, t, x, y, z);
				int rc = sim_exec(L, fr);
				if (rc == RUN_ERR)
					return RUN_ERR;
				if (rc != RUN_RET)
					return fail(L, PJ_SIM_BAD, NULL,
					            "internal error in the simulator: a thread of kernel '%s' stopped "
					            "at a barrier the program does not have", L->p->name);
			}
	return RUN_RET;
}

static void start_block(Launch *L, Frame *fr)
{
	uint32_t t = 0;
	for (unsigned z = 0; z < L->block[2]; z++)
		for (unsigned y = 0; y < L->block[1]; y++)
			for (unsigned x = 0; x < L->block[0]; x++, t++)
				start_thread(L, &fr[t], t, x, y, z);
}

/* Every thread of the block waits at a block barrier: do the lanes of
 * each warp wait at the same one?  A bar.sync is aligned (PTX ISA: every
 * thread of a warp executes the same barrier instruction), so a
 * cuda.syncthreads() in code that only some lanes of a warp run is
 * undefined on a GPU, where the lanes that arrive first can pass before
 * the others have written. */
static int warp_aligned(Launch *L, Frame *fr, uint32_t n)
{
	for (uint32_t w = 0; w < n; w += 32) {
		uint32_t end = w + 32 < n ? w + 32 : n;
		for (uint32_t t = w + 1; t < end; t++) {
			if (fr[t].pc == fr[w].pc)
				continue;
			const SimLoc *a = loc_at(L, L->p->code + fr[w].pc - 1), *b = loc_at(L, L->p->code + fr[t].pc - 1);
			char at[300] = "two different barriers";
			if (a && b)
				snprintf(at, sizeof at, "the barriers at %s:%d and %s:%d", a->file, a->line, b->file, b->line);
			return fail(L, PJ_SIM_DEADLOCK, b ? b : a,
			            "threads %u and %u of block (%u, %u, %u), lanes of one warp, wait at %s\n"
			            "  in kernel '%s': every lane of a warp must reach the same cuda.syncthreads() "
			            "(a barrier in a branch that splits a warp is undefined behaviour on a GPU, "
			            "where some lanes pass it before the others have written)",
			            w, t, L->ctaid[0], L->ctaid[1], L->ctaid[2], at, L->p->name);
		}
	}
	return 0;
}

/* Every waiting thread of the block is at a barrier; are they at the
 * grid's?  RUN_GBAR when all are, RUN_BAR when none is, RUN_ERR when the
 * kinds differ or some threads returned. */
static int grid_wait(Launch *L, Frame *fr, uint32_t first, uint32_t nbar, uint32_t nret)
{
	const SIns *code = L->p->code;
	int grid = code[fr[first].pc - 1].aux == SIM_BAR_GRID;
	for (uint32_t t = 0; t < L->nthreads; t++)
		if (fr[t].state == RUN_BAR && (code[fr[t].pc - 1].aux == SIM_BAR_GRID) != grid) {
			const SIns *g = grid ? code + fr[first].pc - 1 : code + fr[t].pc - 1;
			const SimLoc *loc = loc_at(L, g);
			return fail(L, PJ_SIM_DEADLOCK, loc,
			            "the threads of block (%u, %u, %u) meet at the grid's barrier (g.sync()%s%s) and at a "
			            "block's barrier at once\n  in kernel '%s' (on a GPU this is undefined behaviour, often a hang)",
			            L->ctaid[0], L->ctaid[1], L->ctaid[2], loc ? " at " : "", loc ? loc->file : "", L->p->name);
		}
	if (!grid)
		return RUN_BAR;
	if (nret) {
		const SimLoc *loc = loc_at(L, code + fr[first].pc - 1);
		return fail(L, PJ_SIM_DEADLOCK, loc,
		            "the grid's barrier (g.sync()) at %s:%d reached by %u of %u threads of block (%u, %u, %u); "
		            "the others returned\n  in kernel '%s': every thread of the grid must reach each "
		            "g.sync() (on a GPU this is undefined behaviour, often a hang)",
		            loc ? loc->file : "?", loc ? loc->line : 0, nbar, L->nthreads, L->ctaid[0], L->ctaid[1],
		            L->ctaid[2], L->p->name);
	}
	return RUN_GBAR;
}

/* Runs the block's threads until all have returned (RUN_RET) or, in a
 * program with the grid's barrier, all wait there (RUN_GBAR). */
static int run_block_sync(Launch *L, Frame *fr)
{
	uint32_t n = L->nthreads, t = 0;
	for (;;) {
		uint32_t nbar = 0, nret = 0, first = 0;
		if (sim_stop_requested())   /* a loop around a barrier has no jump back in sim_exec */
			return sim_fail_stopped(L, NULL, NULL);
		for (t = 0; t < n; t++) {
			if (fr[t].state >= 0)
				continue;
			int rc = sim_exec(L, &fr[t]);
			if (rc == RUN_ERR)
				return RUN_ERR;
			fr[t].state = rc;
		}
		if (L->p->has_warp) {
			int met = sim_warp_meet(L, fr, n);
			if (met < 0)
				return RUN_ERR;
			if (met > 0)
				continue;
		}
		for (t = 0; t < n; t++) {
			if (fr[t].state == RUN_BAR) {
				if (!nbar++)
					first = t;
			} else {
				nret++;
			}
		}
		if (!nbar)
			return RUN_RET;
		if (L->p->has_gbar) {
			int g = grid_wait(L, fr, first, nbar, nret);
			if (g != RUN_BAR)
				return g;
		}
		if (nret) {
			const SIns *bar = L->p->code + fr[first].pc - 1;
			const SimLoc *loc = loc_at(L, bar);
			char at[300] = "a barrier";
			if (loc)
				snprintf(at, sizeof at, "barrier at %s:%d", loc->file, loc->line);
			return fail(L, PJ_SIM_DEADLOCK, loc,
			            "%s reached by %u of %u threads of block (%u, %u, %u); the others returned\n"
			            "  in kernel '%s': every thread of a block must reach each cuda.syncthreads() "
			            "(on a GPU this is undefined behaviour, often a hang)",
			            at, nbar, n, L->ctaid[0], L->ctaid[1], L->ctaid[2], L->p->name);
		}
		if (L->p->has_warp && sim_bar_release(L, fr, n) < 0)   /* barriers of different kinds first */
			return RUN_ERR;
		if (warp_aligned(L, fr, n))
			return RUN_ERR;
		L->epoch++;
		for (t = 0; t < n; t++)
			fr[t].state = -1;
	}
}

/* ---------------------------------------------------------- launch */

static int bad_launch(PjError *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	err->kind = PJ_ERR_USER;
	return PJ_SIM_BAD;
}

/* A cooperative launch (a program with the grid's barrier): every block
 * has its frames and its shared memory, and the blocks take turns, each
 * running until its threads wait at the grid's barrier or return; when
 * all wait there, the barrier opens for all.  The checks of shared memory
 * keep a shadow per block.  The runtime has already refused a grid larger
 * than the simulated device holds at once (rt_kernel_active_blocks). */
static int launch_coop(const PjKernel *k, const unsigned grid[3], const unsigned block[3],
                       unsigned dyn_smem, const void *params, int check, PjError *err)
{
	const SimProgram *p = k->sim;
	uint64_t nthreads = (uint64_t)block[0] * block[1] * block[2];
	uint64_t nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
	if (nblocks * nthreads > ((uint64_t)1 << 20))
		return bad_launch(err, "a cooperative launch of kernel '%s' with %llu blocks of %llu threads: the "
		                  "simulator runs at most 1048576 threads of a grid at once", p->name,
		                  (unsigned long long)nblocks, (unsigned long long)nthreads);
	int64_t smem = p->smem_static + dyn_smem;
	size_t stride = ((size_t)smem + 16 + 15) & ~(size_t)15;
	Launch L = {.p = p, .params = params, .nthreads = (uint32_t)nthreads, .err = err,
	            .smem_size = smem, .code = PJ_SIM_OK};
	memcpy(L.grid, grid, sizeof L.grid);
	memcpy(L.block, block, sizeof L.block);
	L.loop_budget = sim_loop_budget();
	size_t nframes = (size_t)(nblocks * nthreads);
	Frame *frames = calloc(nframes, sizeof *frames);
	Reg *regs = malloc(sizeof *regs * (size_t)p->nslots * nframes);
	uint8_t *local = p->local_size ? malloc((size_t)p->local_size * nframes) : NULL;
	uint8_t *smem_all = malloc(stride * (size_t)nblocks);
	int *bstate = malloc(sizeof *bstate * (size_t)nblocks);
	L.check = smem > 0 ? check & (PJ_SIM_UNINIT | PJ_SIM_RACE) : 0;
	Shadow *shadow_all = L.check ? calloc((size_t)smem * (size_t)nblocks, sizeof *shadow_all) : NULL;
	int rc = PJ_SIM_OK;
	L.smem = smem_all;
	L.smem_size = (int64_t)(stride * (size_t)nblocks);   /* the guard admits every block's */
	if (!frames || !regs || (p->local_size && !local) || !smem_all || !bstate || (L.check && !shadow_all) ||
	    sim_guard_init(&L, (int)nframes, 0, NULL, 0)) {
		rc = bad_launch(err, "out of host memory for the simulator (kernel '%s')", p->name);
		goto done;
	}
	L.smem_size = smem;
	if (smem)
		memset(smem_all, POISON, stride * (size_t)nblocks);
	for (uint64_t b = 0; b < nblocks; b++) {
		Frame *fb = frames + b * nthreads;
		L.smem = smem_all + b * stride;
		for (uint64_t i = 0; i < nthreads; i++) {
			size_t f = (size_t)(b * nthreads + i);
			sim_init_frame(&L, &fb[i], regs + f * (size_t)p->nslots,
			               local ? local + f * (size_t)p->local_size : NULL);
			Reg *sr = fb[i].r + p->sreg_slot;
			sr[SR_CTAID_X].u = (unsigned)(b % grid[0]);
			sr[SR_CTAID_Y].u = (unsigned)(b / grid[0] % grid[1]);
			sr[SR_CTAID_Z].u = (unsigned)(b / ((uint64_t)grid[0] * grid[1]));
		}
		start_block(&L, fb);
		bstate[b] = -1;
	}
	for (;;) {
		uint64_t nwait = 0, nret = 0;
		for (uint64_t b = 0; b < nblocks; b++) {
			if (bstate[b] >= 0)
				continue;
			if (sim_stop_requested()) {
				sim_fail_stopped(&L, NULL, NULL);
				rc = L.code;
				goto done;
			}
			L.ctaid[0] = (unsigned)(b % grid[0]);
			L.ctaid[1] = (unsigned)(b / grid[0] % grid[1]);
			L.ctaid[2] = (unsigned)(b / ((uint64_t)grid[0] * grid[1]));
			L.smem = smem_all + b * stride;
			L.shadow = shadow_all ? shadow_all + b * (size_t)smem : NULL;
			L.gen++;
			int r = run_block_sync(&L, frames + b * nthreads);
			if (r == RUN_ERR) {
				rc = L.code;
				goto done;
			}
			bstate[b] = r;
		}
		for (uint64_t b = 0; b < nblocks; b++)
			bstate[b] == RUN_GBAR ? nwait++ : nret++;
		if (!nwait)
			break;
		if (nret) {
			uint64_t b = 0;
			while (bstate[b] != RUN_GBAR)
				b++;
			const SimLoc *loc = loc_at(&L, p->code + frames[b * nthreads].pc - 1);
			fail(&L, PJ_SIM_DEADLOCK, loc,
			     "the grid's barrier (g.sync()) at %s:%d reached by %llu of %llu blocks; the others returned\n"
			     "  in kernel '%s': every thread of the grid must reach each g.sync() (on a GPU this is "
			     "undefined behaviour, often a hang)", loc ? loc->file : "?", loc ? loc->line : 0,
			     (unsigned long long)nwait, (unsigned long long)nblocks, p->name);
			rc = L.code;
			goto done;
		}
		L.epoch++;
		for (size_t f = 0; f < nframes; f++)
			frames[f].state = -1;
		for (uint64_t b = 0; b < nblocks; b++)
			bstate[b] = -1;
	}
done:
	for (size_t i = 0; frames && i < nframes; i++)
		sim_free_stack(&frames[i]);
	free(frames);
	free(regs);
	free(local);
	free(smem_all);
	free(bstate);
	free(shadow_all);
	L.shadow = NULL;
	sim_guard_free(&L);
	return rc;
}

static int launch_grid(const PjKernel *k, const unsigned grid[3], const unsigned block[3],
                       unsigned dyn_smem, const void *params, int check, PjError *err)
{
	PjError scratch;
	if (!err)
		err = &scratch;
	memset(err, 0, sizeof *err);
	if (!k || !k->sim)
		return bad_launch(err, "the kernel was compiled without its simulator program (PjOptions.sim)");
	const SimProgram *p = k->sim;
	if (!grid || !block)
		return bad_launch(err, "launch of kernel '%s' without grid or block dimensions", p->name);
	uint64_t nthreads = (uint64_t)block[0] * block[1] * block[2];
	if (!block[0] || !block[1] || !block[2] || block[0] > 1024 || block[1] > 1024 || block[2] > 64 ||
	    nthreads > 1024)
		return bad_launch(err, "invalid block dimensions (%u, %u, %u) for kernel '%s': each must be at "
		                  "least 1, z at most 64, and at most 1024 threads in all",
		                  block[0], block[1], block[2], p->name);
	if (!grid[0] || !grid[1] || !grid[2] || grid[0] > 2147483647u || grid[1] > 65535 || grid[2] > 65535)
		return bad_launch(err, "invalid grid dimensions (%u, %u, %u) for kernel '%s': x from 1 to "
		                  "2147483647, y and z from 1 to 65535", grid[0], grid[1], grid[2], p->name);
	int64_t smem = p->smem_static + dyn_smem;
	if (smem > MAX_SMEM)
		return bad_launch(err, "kernel '%s' needs %lld bytes of shared memory per block (%lld static, "
		                  "%u dynamic); a block has at most %d", p->name, (long long)smem,
		                  (long long)p->smem_static, dyn_smem, MAX_SMEM);
	if (!params && p->param_bytes > 0)
		return bad_launch(err, "launch of kernel '%s' without its parameter buffer", p->name);

	if (p->has_gbar)
		return launch_coop(k, grid, block, dyn_smem, params, check, err);
	Launch L = {.p = p, .params = params, .nthreads = (uint32_t)nthreads, .err = err,
	            .smem_size = smem, .code = PJ_SIM_OK};
	memcpy(L.grid, grid, sizeof L.grid);
	L.loop_budget = sim_loop_budget();
	memcpy(L.block, block, sizeof L.block);
	uint32_t nframes = p->has_bar || p->has_warp ? L.nthreads : 1;
	Frame *frames = calloc(nframes, sizeof *frames);
	Reg *regs = malloc(sizeof *regs * (size_t)p->nslots * nframes);
	uint8_t *local = p->local_size ? malloc((size_t)p->local_size * nframes) : NULL;
	L.smem = malloc((size_t)smem + 16);
	L.check = smem > 0 ? check & (PJ_SIM_UNINIT | PJ_SIM_RACE) : 0;
	if (L.check)
		L.shadow = calloc((size_t)smem, sizeof *L.shadow);
	int rc = PJ_SIM_OK;
	if (!frames || !regs || (p->local_size && !local) || !L.smem || (L.check && !L.shadow) ||
	    sim_guard_init(&L, (int)nframes, 0, NULL, 0)) {
		rc = bad_launch(err, "out of host memory for the simulator (kernel '%s')", p->name);
		goto done;
	}
	for (uint32_t i = 0; i < nframes; i++)
		sim_init_frame(&L, &frames[i], regs + (size_t)i * p->nslots,
		               local ? local + (size_t)i * p->local_size : NULL);

	for (unsigned z = 0; z < grid[2]; z++)
		for (unsigned y = 0; y < grid[1]; y++)
			for (unsigned x = 0; x < grid[0]; x++) {
				L.ctaid[0] = x;
				L.ctaid[1] = y;
				L.ctaid[2] = z;
				for (uint32_t i = 0; i < nframes; i++) {
					Reg *sr = frames[i].r + p->sreg_slot;
					sr[SR_CTAID_X].u = x;
					sr[SR_CTAID_Y].u = y;
					sr[SR_CTAID_Z].u = z;
				}
				if (sim_stop_requested()) {
					sim_fail_stopped(&L, NULL, NULL);
					rc = L.code;
					goto done;
				}
				if (smem)
					memset(L.smem, POISON, (size_t)smem);
				L.gen++;
				L.epoch++;
				int r = RUN_RET;
				if (p->has_bar || p->has_warp) {
					start_block(&L, frames);
					r = run_block_sync(&L, frames);
				} else {
					r = run_block_plain(&L, frames);
				}
				if (r == RUN_ERR) {
					rc = L.code;
					goto done;
				}
			}
done:
	for (uint32_t i = 0; frames && i < nframes; i++)
		sim_free_stack(&frames[i]);   /* call.c */
	free(frames);
	free(regs);
	free(local);
	free(L.smem);
	free(L.shadow);
	sim_guard_free(&L);
	return rc;
}

/* The launch variant rule (PjOptions.small_grid), shared by every launch
 * path so that the simulator runs the variant the GPU would. */
int pj_grid_small(const unsigned grid[3], const unsigned block[3])
{
	for (int d = 0; d < 3; d++)
		if ((uint64_t)grid[d] * block[d] >= ((uint64_t)1 << 31))
			return 0;
	return 1;
}

/* The kernel computes in the default floating-point environment (round to
 * nearest, subnormals kept), as the GPU does, whatever the calling thread
 * set (code built with -ffast-math flushes subnormals to zero). */
int pj_sim_launch(const PjKernel *k, const unsigned grid[3], const unsigned block[3],
                  unsigned dyn_smem, const void *params, int check, PjError *err)
{
	fenv_t saved;
	int restore = fegetenv(&saved) == 0 && fesetenv(FE_DFL_ENV) == 0;
	int rc = launch_grid(k, grid, block, dyn_smem, params, check, err);
	if (restore)
		fesetenv(&saved);
	return rc;
}

/*
 * cpu.c - CPU functions (@njit) on the interpreter: the fallback when
 * there is no C compiler to build the C text of src/cgen.
 *
 * A CPU function's program is a kernel of one thread: the same compact
 * program (prepare.c, with recursive callees merged in by call.c), run
 * by sim_exec in one frame.  What the CPU target adds:
 *
 *   ALLOC     np.empty and friends: the block comes from the caller's
 *             allocator (PjCpuCtx.alloc, the one compiled code is given),
 *             so the caller owns it exactly as after a native call: the
 *             blocks a returned array points into become that array's
 *             memory, the others are freed.  No copy either way.
 *   messages  "at file:line, in function 'f'" instead of a thread and a
 *             block (launch.c's where() asks Launch.cpu).
 *   memory    the guard (guard.c) knows the out buffer and every block
 *             ALLOC hands out, besides the arguments and constants;
 *   loops     counted as a kernel thread's are, over the whole call:
 *             PTXJIT_SIM_LOOP_LIMIT jumps back end it with an error at
 *             the loop's line, and pj_sim_stop (Ctrl-C) ends it at once.
 *
 * The call itself is kept light (no heap for small register files, no
 * floating-point environment switch: compiled code runs in the caller's
 * environment too), since it is paid on every call from Python.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "../cgen/cpurt.h"

int sim_alloc(Launch *L, Frame *fr, const SIns *ip)
{
	PjCpuCtx *ctx = L->cpu;
	uint64_t n = fr->r[ip->a].u;
	void *p = ctx && ctx->alloc ? ctx->alloc(ctx, n, ip->aux) : NULL;
	if (p && sim_guard_alloc(L, (uint64_t)(uintptr_t)p, n) == 0) {
		fr->r[ip->d].u = (uint64_t)(uintptr_t)p;
		return 0;
	}
	const SimProgram *pr = L->p;
	int32_t pc = (int32_t)(ip - pr->code);
	int32_t l = pc >= 0 && pc < pr->ncode ? pr->code_loc[pc] : -1;
	const SimLoc *loc = l >= 0 && l < pr->nlocs ? &pr->locs[l] : NULL;
	PjError *e = L->err;
	if (!ctx)
		snprintf(e->msg, sizeof e->msg, "internal error in the simulator: kernel '%s' allocates memory, "
		         "which only CPU functions can", pr->name);
	else if (loc)
		snprintf(e->msg, sizeof e->msg, "MemoryError: cannot allocate %llu bytes\n  at %s:%d, in function '%s'",
		         (unsigned long long)n, loc->file, loc->line, pr->name);
	else
		snprintf(e->msg, sizeof e->msg, "MemoryError: cannot allocate %llu bytes\n  in function '%s'",
		         (unsigned long long)n, pr->name);
	e->kind = ctx ? PJ_ERR_USER : PJ_ERR_INTERNAL;
	snprintf(e->file, sizeof e->file, "%s", loc ? loc->file : "");
	e->line = loc ? loc->line : 0;
	e->col = loc ? loc->col : 0;
	L->code = ctx ? PJ_SIM_TRAP : PJ_SIM_BAD;
	fr->pc = pc;
	return -1;
}

int pj_sim_cpu_call(const struct PjKernel *k, const void *params, PjCpuCtx *ctx, struct PjError *err)
{
	if (!k || !k->sim) {
		snprintf(err->msg, sizeof err->msg, "the function was compiled without its interpreter program");
		err->kind = PJ_ERR_INTERNAL;
		err->file[0] = 0;
		err->line = err->col = 0;
		return PJ_SIM_BAD;
	}
	const SimProgram *p = k->sim;
	if (!params && p->param_bytes > 0) {
		snprintf(err->msg, sizeof err->msg, "internal error in the simulator: function '%s' called without "
		         "its parameter buffer", p->name);
		err->kind = PJ_ERR_INTERNAL;
		err->file[0] = 0;
		err->line = err->col = 0;
		return PJ_SIM_BAD;
	}
	Launch L;
	memset(&L, 0, sizeof L);
	L.p = p;
	L.params = params;
	L.nthreads = 1;
	L.err = err;
	L.code = PJ_SIM_OK;
	L.cpu = ctx;
	L.loop_budget = sim_loop_budget();
	for (int d = 0; d < 3; d++)
		L.grid[d] = L.block[d] = 1;
	Reg small[128];
	Reg *regs = p->nslots <= 128 ? small : malloc(sizeof *regs * (size_t)p->nslots);
	uint8_t *local = p->local_size ? malloc((size_t)p->local_size) : NULL;
	/* a kernel's shared memory has no place in a CPU function; a program
	 * that has some gets an empty block, and its hook reports the access */
	uint8_t smem[16];
	L.smem = smem;
	L.smem_size = 0;
	int rc = PJ_SIM_OK;
	Frame fr;
	memset(&fr, 0, sizeof fr);
	uint64_t guard[256];     /* the memory guard's tables (guard.c), when they fit */
	if (!regs || (p->local_size && !local) || sim_guard_init(&L, 1, k->ret_bytes, guard, sizeof guard)) {
		snprintf(err->msg, sizeof err->msg, "MemoryError: out of host memory for the interpreter (function '%s')",
		         p->name);
		err->kind = PJ_ERR_USER;
		err->file[0] = 0;
		err->line = err->col = 0;
		rc = PJ_SIM_TRAP;
		goto done;
	}
	sim_init_frame(&L, &fr, regs, local);
	fr.pc = 0;
	fr.state = -1;
	int r = sim_exec(&L, &fr);
	if (r == RUN_ERR) {
		rc = L.code;
	} else if (r != RUN_RET) {
		snprintf(err->msg, sizeof err->msg, "internal error in the simulator: function '%s' stopped at a "
		         "barrier or a warp operation", p->name);
		err->kind = PJ_ERR_INTERNAL;
		err->file[0] = 0;
		err->line = err->col = 0;
		rc = PJ_SIM_BAD;
	}
done:
	sim_guard_free(&L);
	sim_free_stack(&fr);
	if (regs != small)
		free(regs);
	free(local);
	return rc;
}

/*
 * cpurt.h - the contract between C code that cgen_emit generates for a CPU
 * function (@njit) and whoever calls it (src/py/cpu.c).  The generated
 * text carries its own copy of PjCpuCtx (the prelude in emit_c.c); the
 * two must stay identical, which tests/c/test_cgen.c checks (the size, in
 * the generated file, and every field through calls).
 *
 * A CPU function is `int NAME(const unsigned char *params, PjCpuCtx *ctx)`:
 * params is the kernel ABI's parameter buffer (PjKernel.params), whose
 * last entry (role KP_RET) holds the address of the out buffer where the
 * return value is written (PjKernel.rets).  It returns 0, or 1 after
 * filling ctx->code and ctx->msg.  Memory comes from ctx->alloc, which the
 * caller owns: arrays that are returned are handed to Python, the rest
 * are freed after the call.
 */
#ifndef PTXJIT_CPURT_H
#define PTXJIT_CPURT_H

#include <stdint.h>

enum { PJ_CPU_OK, PJ_CPU_INDEX, PJ_CPU_TRAP, PJ_CPU_NOMEM };

typedef struct PjCpuCtx {
	void *(*alloc)(struct PjCpuCtx *ctx, uint64_t bytes, int zero);
	int code;            /* PJ_CPU_* */
	const char *msg;     /* INDEX: printf format taking the index and the extent (long long);
	                        TRAP: "ExceptionName: text (at file:line)" */
	int64_t index, extent;
	void *owner;         /* the caller's allocation list */
} PjCpuCtx;

typedef int (*PjCpuFn)(const unsigned char *params, PjCpuCtx *ctx);

/* Without a C compiler: the same call on the function's interpreter
 * program (PjKernel.sim, src/sim/cpu.c), with the same params and ctx;
 * ctx->alloc serves np.empty and friends.  Returns 0 (PJ_SIM_OK) or a
 * PJ_SIM_* code with err filled: PJ_SIM_INDEX, PJ_SIM_TRAP (err->msg
 * "ExceptionName: text\n  at file:line, in function 'f'"), PJ_SIM_BAD. */
struct PjKernel;
struct PjError;
int pj_sim_cpu_call(const struct PjKernel *k, const void *params, PjCpuCtx *ctx, struct PjError *err);

#endif

/*
 * stream.c - streams, events, modules and launches.
 *
 * On the GPU these are thin wrappers of the driver calls, each result
 * checked.  A module is loaded from the kernel's PTX the first time the
 * kernel is launched in a context generation, with the driver's JIT
 * error log attached so a PTX the driver rejects shows why.  Parameters
 * go to cuLaunchKernel as one buffer (CU_LAUNCH_PARAM_BUFFER_POINTER).
 *
 * In the simulator all work runs at once on the calling thread, so every
 * stream is trivially an ordered queue: a stream is a token, an event
 * records the host clock, and a launch runs pj_sim_launch over the
 * parameter buffer (whose pointers are host addresses).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt.h"

#define CHECK(call, ...) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) return rt_fail(rt, e, r_, __VA_ARGS__); } while (0)

enum {
	CU_EVENT_DISABLE_TIMING = 2,
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
	CU_JIT_MAX_REGISTERS = 0,
	CU_JIT_INFO_LOG_BUFFER = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ------------------------------------------------------------ streams */

int rt_stream_new(Rt *rt, CUstream *s, RtErr *e)
{
	if (rt->sim) {
		*s = (CUstream)(uintptr_t)(0x100 + ++rt->next_token);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuStreamCreate(s, 0), "cuStreamCreate (cuda.stream())");
	return 0;
}

int rt_stream_sync(Rt *rt, CUstream s, RtErr *e)
{
	if (rt_graph_no_sync(rt, s, "stream.synchronize()", e))
		return -1;
	if (rt->sim)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuStreamSynchronize(s), "cuStreamSynchronize (waiting for a stream's work)");
	return 0;
}

int rt_stream_query(Rt *rt, CUstream s, int *done, RtErr *e)
{
	*done = 1;
	if (rt->sim)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	CUresult r = rt->d.cuStreamQuery(s);
	if (r == CUDA_ERROR_NOT_READY) {
		*done = 0;
		return 0;
	}
	CHECK(r, "cuStreamQuery (stream.query())");
	return 0;
}

int rt_stream_order(Rt *rt, CUstream first, CUstream later, RtErr *e)
{
	if (rt->sim || first == later)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	if (!rt->order_ev)
		CHECK(rt->d.cuEventCreate(&rt->order_ev, CU_EVENT_DISABLE_TIMING),
		      "cuEventCreate (for the stream of an array's producer)");
	CHECK(rt->d.cuEventRecord(rt->order_ev, first), "cuEventRecord (on the stream of an array's producer)");
	CHECK(rt->d.cuStreamWaitEvent(later, rt->order_ev, 0),
	      "cuStreamWaitEvent (a launch after the stream of an array's producer)");
	return 0;
}

void rt_stream_free(Rt *rt, CUstream s, unsigned gen)
{
	RtErr ignored;
	if (rt->sim || !s || gen != rt->gen || rt->state != RT_READY || rt->sticky)
		return;
	if (rt_enter(rt, &ignored) == 0)
		rt->d.cuStreamDestroy_v2(s);
}

int rt_stream_host_func(Rt *rt, CUstream s, void (*fn)(void *), void *arg, RtErr *e)
{
	if (rt->sim) {
		fn(arg);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuLaunchHostFunc(s, fn, arg), "cuLaunchHostFunc (stream.add_callback())");
	return 0;
}

/* ------------------------------------------------------------- events */

static int stale(Rt *rt, unsigned gen, const char *what, RtErr *e)
{
	if (rt->sim || gen == rt->gen)
		return 0;
	return rt_fail_rt(e, RT_E_STALE, "stale handle",
	                  "this %s was made before cuda.close() and cannot be used any more", what);
}

int rt_event_new(Rt *rt, RtEvent *ev, int timing, RtErr *e)
{
	memset(ev, 0, sizeof *ev);
	ev->timing = timing;
	ev->gen = rt->gen;
	if (rt->sim)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	ev->gen = rt->gen;
	CHECK(rt->d.cuEventCreate(&ev->ev, timing ? 0 : CU_EVENT_DISABLE_TIMING),
	      "cuEventCreate (cuda.event())");
	return 0;
}

int rt_event_record(Rt *rt, RtEvent *ev, CUstream s, RtErr *e)
{
	if (stale(rt, ev->gen, "event", e))
		return -1;
	ev->recorded = 1;
	if (rt->sim) {
		ev->t_ms = now_ms();
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuEventRecord(ev->ev, s), "cuEventRecord (event.record())");
	return 0;
}

int rt_event_sync(Rt *rt, RtEvent *ev, RtErr *e)
{
	if (stale(rt, ev->gen, "event", e))
		return -1;
	if (rt->sim)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuEventSynchronize(ev->ev), "cuEventSynchronize (event.synchronize())");
	return 0;
}

int rt_event_query(Rt *rt, RtEvent *ev, int *done, RtErr *e)
{
	*done = 1;
	if (stale(rt, ev->gen, "event", e))
		return -1;
	if (rt->sim)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	CUresult r = rt->d.cuEventQuery(ev->ev);
	if (r == CUDA_ERROR_NOT_READY) {
		*done = 0;
		return 0;
	}
	CHECK(r, "cuEventQuery (event.query())");
	return 0;
}

int rt_event_wait(Rt *rt, RtEvent *ev, CUstream s, RtErr *e)
{
	if (stale(rt, ev->gen, "event", e))
		return -1;
	if (rt->sim)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuStreamWaitEvent(s, ev->ev, 0), "cuStreamWaitEvent (event.wait())");
	return 0;
}

int rt_event_elapsed(Rt *rt, RtEvent *a, RtEvent *b, float *ms, RtErr *e)
{
	if (stale(rt, a->gen, "event", e) || stale(rt, b->gen, "event", e))
		return -1;
	if (!a->timing || !b->timing)
		return rt_fail_rt(e, RT_E_ARG, "no timing",
		                  "elapsed time needs events made with timing=True");
	if (!a->recorded || !b->recorded)
		return rt_fail_rt(e, RT_E_ARG, "not recorded",
		                  "elapsed time needs both events recorded (event.record())");
	if (rt->sim) {
		*ms = (float)(b->t_ms - a->t_ms);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuEventElapsedTime(ms, a->ev, b->ev), "cuEventElapsedTime (cuda.event_elapsed_time())");
	return 0;
}

void rt_event_free(Rt *rt, RtEvent *ev)
{
	RtErr ignored;
	if (rt->sim || !ev->ev || ev->gen != rt->gen || rt->state != RT_READY || rt->sticky)
		return;
	if (rt_enter(rt, &ignored) == 0)
		rt->d.cuEventDestroy_v2(ev->ev);
	ev->ev = NULL;
}

/* ------------------------------------------------- modules, launches */

int rt_kernel_load(Rt *rt, RtKernel *k, RtErr *e)
{
	if (rt->sim) {
		if (!k->pk->sim)
			return rt_fail_rt(e, RT_E_ARG, "no simulator program",
			                  "kernel '%s' was compiled without a simulator program", k->pk->entry);
		k->loaded = 1;
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	if (k->loaded && k->gen == rt->gen)
		return 0;
	if (!k->pk->ptx)
		return rt_fail_rt(e, RT_E_ARG, "no PTX", "kernel '%s' has no PTX", k->pk->entry);
	if (k->nlinks)
		return rt_link_load(rt, k, e);
	char errlog[8192];
	errlog[0] = 0;
	k->log[0] = 0;
	int opts[5];
	void *vals[5];
	unsigned n = 0;
	opts[n] = CU_JIT_ERROR_LOG_BUFFER;
	vals[n++] = errlog;
	opts[n] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
	vals[n++] = (void *)(uintptr_t)sizeof errlog;
	opts[n] = CU_JIT_INFO_LOG_BUFFER;
	vals[n++] = k->log;
	opts[n] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
	vals[n++] = (void *)(uintptr_t)sizeof k->log;
	if (k->max_registers > 0) {
		opts[n] = CU_JIT_MAX_REGISTERS;
		vals[n++] = (void *)(uintptr_t)k->max_registers;
	}
	CUmodule mod = NULL;
	CUresult r = rt->d.cuModuleLoadDataEx(&mod, k->pk->ptx, n, opts, vals);
	if (r != CUDA_SUCCESS) {
		errlog[sizeof errlog - 1] = 0;
		rt_fail(rt, e, r, "cuModuleLoadDataEx (loading the PTX of kernel '%s')", k->pk->entry);
		size_t len = strlen(e->msg);
		if (errlog[0])
			snprintf(e->msg + len, sizeof e->msg - len, "\nThe driver's JIT log:\n%s", errlog);
		return -1;
	}
	k->log[sizeof k->log - 1] = 0;
	CUfunction fn = NULL;
	r = rt->d.cuModuleGetFunction(&fn, mod, k->pk->entry);
	if (r != CUDA_SUCCESS) {
		rt->d.cuModuleUnload(mod);
		return rt_fail(rt, e, r, "cuModuleGetFunction('%s')", k->pk->entry);
	}
	k->mod = mod;
	k->fn = fn;
	k->gen = rt->gen;
	k->loaded = 1;
	k->dyn_smem_set = 0;
	return rt_kernel_set_attrs(rt, k, e);
}

int rt_kernel_set_attrs(Rt *rt, RtKernel *k, RtErr *e)
{
	enum { CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9 };
	if (!k->carveout)
		return 0;
	CUresult r = rt->d.cuFuncSetAttribute(k->fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, k->carveout - 1);
	if (r != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuFuncSetAttribute (a shared memory carveout of %d for kernel '%s')",
		               k->carveout - 1, k->pk->entry);
	return 0;
}

void rt_kernel_unload(Rt *rt, RtKernel *k)
{
	RtErr ignored;
	if (!rt->sim && k->loaded && k->gen == rt->gen && rt->state == RT_READY && !rt->sticky &&
	    rt_enter(rt, &ignored) == 0)
		rt->d.cuModuleUnload(k->mod);
	if (!rt->sim && k->coop_done && k->coop_gen == rt->gen && rt->state == RT_READY && !rt->sticky &&
	    rt_enter(rt, &ignored) == 0)
		rt->d.cuEventDestroy_v2(k->coop_done);
	k->coop_done = NULL;
	k->loaded = 0;
	k->mod = NULL;
	k->fn = NULL;
}

/* The simulator's answer for a CUfunction_attribute: what the compiled
 * code fixes (PjKernel's resources), the registers an estimate. */
static int sim_kernel_attr(const PjKernel *pk, int a, int *out, RtErr *e)
{
	enum { MAX_THREADS, SHARED, CONST, LOCAL, REGS };
	int64_t v;
	switch (a) {
	case MAX_THREADS: v = pk->max_threads; break;
	case SHARED: v = pk->static_smem; break;
	case CONST: v = pk->const_bytes; break;
	case LOCAL: v = pk->local_bytes; break;
	case REGS: v = pk->regs_estimate; break;
	default:
		return rt_fail_rt(e, RT_E_ARG, "not simulated",
		                  "kernel attribute %d comes from the driver; the simulator knows 0-4 "
		                  "(max threads, shared, constant and local memory, registers)", a);
	}
	*out = v > INT32_MAX ? INT32_MAX : (int)v;
	return 0;
}

int rt_kernel_attr(Rt *rt, RtKernel *k, int a, int *out, RtErr *e)
{
	if (rt->sim)
		return sim_kernel_attr(k->pk, a, out, e);
	if (rt_kernel_load(rt, k, e))
		return -1;
	CHECK(rt->d.cuFuncGetAttribute(out, a, k->fn), "cuFuncGetAttribute(%d) of kernel '%s'", a, k->pk->entry);
	return 0;
}

int rt_kernel_max_block(Rt *rt, RtKernel *k, size_t smem, int *tpb, RtErr *e)
{
	int min_grid = 0;
	if (rt->sim)
		return rt_fail_rt(e, RT_E_ARG, "not simulated",
		                  "the occupancy calculator is the driver's; the simulator has none");
	if (rt_kernel_load(rt, k, e))
		return -1;
	CHECK(rt->d.cuOccupancyMaxPotentialBlockSize(&min_grid, tpb, k->fn, NULL, smem, 1024),
	      "cuOccupancyMaxPotentialBlockSize (a block size for kernel '%s')", k->pk->entry);
	return 0;
}

int rt_sim_active_blocks(int block, int64_t smem)
{
	int warps = (block + 31) / 32, n = 32;
	if (warps < 1)
		return 0;
	if (2048 / (warps * 32) < n)
		n = 2048 / (warps * 32);
	if (smem > 0 && (int64_t)(228 * 1024) / smem < n)
		n = (int)((int64_t)(228 * 1024) / smem);
	return n;
}

int rt_kernel_active_blocks(Rt *rt, RtKernel *k, int block, size_t smem, int *n, RtErr *e)
{
	if (rt->sim) {
		*n = rt_sim_active_blocks(block, (int64_t)smem + k->pk->static_smem);
		return 0;
	}
	if (rt_kernel_load(rt, k, e))
		return -1;
	CHECK(rt->d.cuOccupancyMaxActiveBlocksPerMultiprocessor(n, k->fn, block, smem),
	      "cuOccupancyMaxActiveBlocksPerMultiprocessor (blocks of %d threads of kernel '%s')", block, k->pk->entry);
	return 0;
}

/* A cooperative launch's grid must be resident at once, or its blocks
 * would wait at the grid's barrier for blocks that never start: refused
 * here, before the driver says "too many blocks in cooperative launch". */
static int coop_fits(Rt *rt, RtKernel *k, const unsigned grid[3], const unsigned block[3], unsigned smem,
                     RtErr *e)
{
	int per_sm = 0, threads = (int)(block[0] * block[1] * block[2]);
	if (rt_kernel_active_blocks(rt, k, threads, smem, &per_sm, e))
		return -1;
	uint64_t most = (uint64_t)per_sm * (uint64_t)(rt->sm_count > 0 ? rt->sm_count : 1);
	uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
	if (blocks <= most)
		return 0;
	return rt_fail_rt(e, RT_E_ARG, "cooperative launch",
	                  "kernel '%s' waits at the grid's barrier (g.sync()), so all its blocks must be resident "
	                  "at once, but its grid (%u, %u, %u) has %llu blocks and %s holds at most %llu blocks of "
	                  "(%u, %u, %u) threads; launch at most "
	                  "kernel.overloads[sig].max_cooperative_grid_blocks(blockdim) blocks and loop over the work",
	                  k->pk->entry, grid[0], grid[1], grid[2], (unsigned long long)blocks,
	                  rt->sim ? "the simulated device" : "the device", (unsigned long long)most,
	                  block[0], block[1], block[2]);
}

typedef CUresult (*LaunchCoop)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, CUstream, void **);

/* cuLaunchCooperativeKernel takes no parameter buffer: an array of the
 * parameters' addresses in it instead.  Launches of the kernel on
 * different streams follow one another (RtKernel.coop_done). */
static int coop_launch(Rt *rt, RtKernel *k, const unsigned grid[3], const unsigned block[3], unsigned smem,
                       CUstream s, void *params, RtErr *e)
{
	void *sym = dlsym(rt->lib, "cuLaunchCooperativeKernel");
	if (!sym)
		return rt_fail_rt(e, RT_E_ARG, "cooperative launch",
		                  "kernel '%s' needs a cooperative launch (it waits at the grid's barrier), and this "
		                  "CUDA driver has no cuLaunchCooperativeKernel", k->pk->entry);
	LaunchCoop launch;
	memcpy(&launch, &sym, sizeof launch);
	const PjKernel *pk = k->pk;
	void *stack[64], **args = pk->nparams <= 64 ? stack : malloc(sizeof *args * (size_t)pk->nparams);
	if (!args)
		return rt_fail_rt(e, RT_E_ARG, "out of memory", "out of host memory for a launch of kernel '%s'",
		                  pk->entry);
	for (int i = 0; i < pk->nparams; i++)
		args[i] = (char *)params + pk->params[i].off;
	CUresult r = CUDA_SUCCESS;
	if (k->coop_done && k->coop_gen == rt->gen && k->coop_stream != s)
		r = rt->d.cuStreamWaitEvent(s, k->coop_done, 0);
	if (r == CUDA_SUCCESS)
		r = launch(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, s, args);
	if (args != stack)
		free(args);
	if (r != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuLaunchCooperativeKernel of kernel '%s' (grid (%u, %u, %u), block (%u, %u, "
		               "%u), %u bytes of dynamic shared memory)", pk->entry, grid[0], grid[1], grid[2], block[0],
		               block[1], block[2], smem);
	if (!k->coop_done || k->coop_gen != rt->gen) {
		k->coop_done = NULL;
		CHECK(rt->d.cuEventCreate(&k->coop_done, CU_EVENT_DISABLE_TIMING),
		      "cuEventCreate (after a cooperative launch of kernel '%s')", pk->entry);
		k->coop_gen = rt->gen;
	}
	CHECK(rt->d.cuEventRecord(k->coop_done, s), "cuEventRecord (after a cooperative launch of kernel '%s')",
	      pk->entry);
	k->coop_stream = s;
	return 0;
}

static int sim_launch(Rt *rt, RtKernel *k, const unsigned grid[3], const unsigned block[3],
                      unsigned smem, const void *params, RtErr *e)
{
	PjError pe;
	memset(&pe, 0, sizeof pe);
	if (!k->pk->sim)
		return rt_fail_rt(e, RT_E_ARG, "no simulator program",
		                  "kernel '%s' was compiled without a simulator program", k->pk->entry);
	int rc = pj_sim_launch(k->pk, grid, block, smem, params, rt->sim_check, &pe);
	if (rc == PJ_SIM_OK)
		return 0;
	rt_fail_rt(e, RT_E_SIM, "simulator", "%s", pe.msg[0] ? pe.msg : "the simulator stopped the kernel");
	e->sim = rc;
	return -1;
}

int rt_launch(Rt *rt, RtKernel *k, const unsigned grid[3], const unsigned block[3],
              unsigned smem, CUstream s, void *params, size_t nbytes, RtErr *e)
{
	if (rt->sim && rt->capture && rt->capture->s == s)
		return rt_graph_record_launch(rt, k, grid, block, smem, params, nbytes, e);
	if (k->pk->cooperative && coop_fits(rt, k, grid, block, smem, e))
		return -1;
	if (rt->sim)
		return sim_launch(rt, k, grid, block, smem, params, e);
	/* before the driver's ptxas says it in hex, or cuFuncSetAttribute
	 * says "invalid argument" */
	if (rt->max_smem_optin > 0 && (int64_t)smem + k->pk->static_smem > (int64_t)rt->max_smem_optin)
		return rt_fail_rt(e, RT_E_ARG, "shared memory",
		                  "kernel '%s' needs %lld bytes of shared memory per block (%lld static, "
		                  "%u dynamic); a block of this device has at most %d",
		                  k->pk->entry, (long long)smem + (long long)k->pk->static_smem,
		                  (long long)k->pk->static_smem, smem, rt->max_smem_optin);
	if (!k->loaded || k->gen != rt->gen) {
		if (rt_kernel_load(rt, k, e))
			return -1;
	} else if (rt_enter(rt, e))
		return -1;
	if (smem > 0 && (int)smem > k->dyn_smem_set &&
	    (int64_t)smem + k->pk->static_smem > (int64_t)rt->max_smem_block) {
		CHECK(rt->d.cuFuncSetAttribute(k->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem),
		      "cuFuncSetAttribute (%u bytes of dynamic shared memory for kernel '%s')", smem, k->pk->entry);
		k->dyn_smem_set = (int)smem;
	}
	if (k->pk->cooperative)
		return coop_launch(rt, k, grid, block, smem, s, params, e);
	size_t size = nbytes;
	void *extra[] = {(void *)(uintptr_t)1, params, (void *)(uintptr_t)2, &size, (void *)(uintptr_t)0};
	CHECK(rt->d.cuLaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
	                           smem, s, NULL, nbytes ? extra : NULL),
	      "cuLaunchKernel of kernel '%s' (grid (%u, %u, %u), block (%u, %u, %u), %u bytes of dynamic shared memory)",
	      k->pk->entry, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem);
	return 0;
}

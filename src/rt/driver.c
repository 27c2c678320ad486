/*
 * driver.c - the CUDA driver opened with dlopen, a device and its
 * primary context, peer access between devices, and the runtime's
 * error messages.
 *
 * Nothing is loaded until a call needs the device: rt_new only records
 * the backend.  The first rt_enter opens libcuda.so.1 (or the file named
 * by PTXJIT_LIBCUDA), resolves every entry point of RtDriver by name,
 * initialises the driver, retains the primary context of the Rt's device
 * (rt->devnum) and
 * reads the attributes the launch checks need.  If any step fails, the
 * runtime stays failed and every later call reports the same error, so
 * importing works everywhere and the first GPU use says what is missing.
 *
 * A context is current per thread: rt_enter makes ours current in the
 * calling thread when the driver says another (or none) is.  With
 * several devices each has its own Rt, and each Rt call enters its own
 * context first, whichever device the thread used last.
 *
 * Errors name the driver's code ("CUDA_ERROR_ILLEGAL_ADDRESS"), its
 * number, the operation and the driver's own text.  Errors that leave
 * the context unusable (a kernel that faulted) mark the runtime sticky
 * and say how to recover: rt_close resets the context.  Until then every
 * call fails at rt_enter with that first error (rt->lost), so nothing
 * more is queued into a dead context and no copy brings garbage back;
 * with PTXJIT_RESET_ON_FAULT=1 the first call after the error resets the
 * context itself instead, as rt_close would.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define SYM(name) {#name, offsetof(RtDriver, name)}
static const struct {
	const char *name;
	size_t off;
} driver_syms[] = {
	SYM(cuInit), SYM(cuDriverGetVersion), SYM(cuGetErrorName), SYM(cuGetErrorString),
	SYM(cuDeviceGetCount), SYM(cuDeviceGet), SYM(cuDeviceGetName), SYM(cuDeviceGetAttribute),
	SYM(cuDeviceTotalMem_v2), SYM(cuDevicePrimaryCtxRetain), SYM(cuDevicePrimaryCtxRelease_v2),
	SYM(cuDevicePrimaryCtxReset_v2), SYM(cuCtxSetCurrent), SYM(cuCtxGetCurrent),
	SYM(cuCtxSynchronize), SYM(cuMemGetInfo_v2), SYM(cuMemAlloc_v2), SYM(cuMemFree_v2),
	SYM(cuMemcpyHtoD_v2), SYM(cuMemcpyDtoH_v2), SYM(cuMemcpyDtoD_v2),
	SYM(cuMemcpyHtoDAsync_v2), SYM(cuMemcpyDtoHAsync_v2), SYM(cuMemcpyDtoDAsync_v2),
	SYM(cuMemsetD8_v2), SYM(cuMemHostAlloc), SYM(cuMemFreeHost), SYM(cuMemHostRegister_v2),
	SYM(cuMemHostUnregister), SYM(cuPointerGetAttribute), SYM(cuModuleLoadDataEx),
	SYM(cuModuleUnload), SYM(cuModuleGetFunction), SYM(cuFuncSetAttribute),
	SYM(cuFuncGetAttribute), SYM(cuLaunchKernel), SYM(cuStreamCreate),
	SYM(cuStreamSynchronize), SYM(cuStreamQuery), SYM(cuStreamWaitEvent),
	SYM(cuStreamDestroy_v2), SYM(cuEventCreate), SYM(cuEventRecord),
	SYM(cuEventSynchronize), SYM(cuEventQuery), SYM(cuEventElapsedTime),
	SYM(cuEventDestroy_v2), SYM(cuOccupancyMaxPotentialBlockSize), SYM(cuLaunchHostFunc),
	SYM(cuOccupancyMaxActiveBlocksPerMultiprocessor),
	SYM(cuDeviceCanAccessPeer), SYM(cuCtxEnablePeerAccess), SYM(cuMemcpyPeer), SYM(cuMemcpyPeerAsync),
};
#undef SYM

static const char no_driver_hint[] =
	"to run kernels on the CPU simulator instead, set PTXJIT_SIM=1 or NUMBA_ENABLE_CUDASIM=1 "
	"before importing ptxjit.cuda, or call ptxjit.cuda.use_simulator() before the first kernel";

/* The simulated device's properties: those of an H100 with one SM. */
static void set_sim(Rt *rt)
{
	rt->sim = 1;
	rt->state = RT_READY;
	snprintf(rt->devname, sizeof rt->devname, "ptxjit simulator");
	rt->cc_major = 9;
	rt->cc_minor = 0;
	rt->sm_count = 1;
	rt->max_threads = 1024;
	rt->max_block[0] = rt->max_block[1] = 1024;
	rt->max_block[2] = 64;
	rt->max_grid[0] = 0x7fffffff;
	rt->max_grid[1] = rt->max_grid[2] = 65535;
	rt->max_smem_block = 48 * 1024;
	rt->max_smem_optin = 227 * 1024;
	rt->total_mem = (size_t)16 << 30;
}

static int env_on(const char *name)
{
	const char *s = getenv(name);
	return s && *s && strcmp(s, "0") != 0 && strcmp(s, "false") != 0 && strcmp(s, "no") != 0;
}

Rt *rt_new(int sim, int sim_check, int devnum)
{
	Rt *rt = calloc(1, sizeof *rt);
	if (!rt)
		return NULL;
	rt->devnum = devnum;
	rt->sim_check = sim_check;
	rt->state = RT_UNINIT;
	rt->gen = 1;
	rt->auto_reset = env_on("PTXJIT_RESET_ON_FAULT");
	pthread_mutex_init(&rt->lock, NULL);
	pthread_mutex_init(&rt->sim_lock, NULL);
	rt_xfer_init(rt);
	if (sim) {
		set_sim(rt);
	} else if (env_on("NUMBA_DISABLE_CUDA")) {
		rt->state = RT_FAILED;
		rt_fail_rt(&rt->init_err, RT_E_NODRIVER, "CUDA disabled",
		           "CUDA is disabled due to setting NUMBA_DISABLE_CUDA=1 in the environment; %s", no_driver_hint);
	}
	return rt;
}

int rt_use_sim(Rt *rt)
{
	if (rt->sim)
		return 0;
	if (rt->state == RT_READY)
		return -1;
	set_sim(rt);
	return 0;
}

const char *rt_libcuda_name(void)
{
	const char *s = getenv("PTXJIT_LIBCUDA");
	return s && *s ? s : "libcuda.so.1";
}

int rt_fail_rt(RtErr *e, int code, const char *name, const char *fmt, ...)
{
	va_list ap;
	memset(e, 0, offsetof(RtErr, msg));
	e->code = code;
	snprintf(e->name, sizeof e->name, "%s", name);
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_sticky(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_ILLEGAL_ADDRESS:
	case CUDA_ERROR_LAUNCH_TIMEOUT:
	case CUDA_ERROR_ASSERT:
	case CUDA_ERROR_HARDWARE_STACK_ERROR:
	case CUDA_ERROR_ILLEGAL_INSTRUCTION:
	case CUDA_ERROR_MISALIGNED_ADDRESS:
	case CUDA_ERROR_INVALID_ADDRESS_SPACE:
	case CUDA_ERROR_INVALID_PC:
	case CUDA_ERROR_LAUNCH_FAILED:
		return 1;
	}
	return 0;
}

int rt_fail(Rt *rt, RtErr *e, CUresult r, const char *fmt, ...)
{
	const char *name = NULL, *text = NULL;
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (rt->d.cuGetErrorName && rt->d.cuGetErrorName(r, &name) != CUDA_SUCCESS)
		name = NULL;
	if (rt->d.cuGetErrorString && rt->d.cuGetErrorString(r, &text) != CUDA_SUCCESS)
		text = NULL;
	memset(e, 0, offsetof(RtErr, msg));
	e->code = r;
	if (name)
		snprintf(e->name, sizeof e->name, "%s", name);
	else
		snprintf(e->name, sizeof e->name, "CUDA_ERROR_%d", r);
	int n = snprintf(e->msg, sizeof e->msg, "%s (%d) in %s%s%s", e->name, r, what,
	                 text ? ": " : "", text ? text : "");
	if (is_sticky(r)) {
		e->sticky = 1;
		if (n > 0 && (size_t)n < sizeof e->msg)
			snprintf(e->msg + n, sizeof e->msg - n,
			         "\nThe CUDA context cannot be used after this error (a kernel faulted); "
			         "call cuda.close() to reset it. Device arrays made before are lost.");
		if (!rt->sticky)
			rt->lost = *e;
		rt->sticky = 1;
	}
	return -1;
}

int rt_lost(Rt *rt)
{
	return !rt->sim && rt->state == RT_READY && rt->sticky;
}

/* The error of a call made after the context was lost. */
static int lost_error(Rt *rt, RtErr *e)
{
	memset(e, 0, offsetof(RtErr, msg));
	e->code = rt->lost.code;
	e->sticky = 1;
	snprintf(e->name, sizeof e->name, "%s", rt->lost.name);
	snprintf(e->msg, sizeof e->msg,
	         "the CUDA context was lost to an earlier error and cannot be used until cuda.close() "
	         "resets it (device arrays, streams and events made before it are gone); the error was: %.2800s",
	         rt->lost.msg);
	return -1;
}

#define CHECK(call, ...) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) return rt_fail(rt, e, r_, __VA_ARGS__); } while (0)

static int load_driver(Rt *rt, RtErr *e)
{
	const char *name = rt_libcuda_name();
	rt->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!rt->lib) {
		const char *why = dlerror();
		return rt_fail_rt(e, RT_E_NODRIVER, "no CUDA driver",
		                  "no CUDA driver was found (%s could not be loaded: %s); %s",
		                  name, why ? why : "unknown reason", no_driver_hint);
	}
	for (size_t i = 0; i < sizeof driver_syms / sizeof driver_syms[0]; i++) {
		void *f = dlsym(rt->lib, driver_syms[i].name);
		if (!f) {
			dlclose(rt->lib);
			rt->lib = NULL;
			memset(&rt->d, 0, sizeof rt->d);
			return rt_fail_rt(e, RT_E_SYMBOL, "CUDA driver too old",
			                  "the CUDA driver %s has no entry point %s (it is too old; "
			                  "ptxjit needs CUDA 11.0 or newer); %s",
			                  name, driver_syms[i].name, no_driver_hint);
		}
		memcpy((char *)&rt->d + driver_syms[i].off, &f, sizeof f);
	}
	return 0;
}

static int attr(Rt *rt, int a, int *out, RtErr *e)
{
	CHECK(rt->d.cuDeviceGetAttribute(out, a, rt->dev), "cuDeviceGetAttribute(%d)", a);
	return 0;
}

/* A child of fork() cannot use the CUDA context its parent made, nor make
 * one of its own (the driver's state was copied mid-flight): once a
 * context exists, a fork marks the child, and every entry refuses there. */
static atomic_int forked_after_init;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void mark_forked_child(void)
{
	atomic_store(&forked_after_init, 1);
}

static void watch_forks(void)
{
	pthread_atfork(NULL, NULL, mark_forked_child);
}

static int forked_error(RtErr *e)
{
	return rt_fail_rt(e, RT_E_FORKED, "CUDA initialized before forking",
	                  "CUDA initialized before forking: this process is a fork() of one that had "
	                  "already used the GPU, and the driver cannot be used in it; start child "
	                  "processes with multiprocessing's 'spawn' or 'forkserver' method, or use the "
	                  "GPU only after forking");
}

/* Opens the driver and initialises it (cuInit may be called again). */
static int init_driver(Rt *rt, RtErr *e)
{
	if (atomic_load_explicit(&forked_after_init, memory_order_relaxed))
		return forked_error(e);
	if (!rt->lib && load_driver(rt, e))
		return -1;
	CUresult r = rt->d.cuInit(0);
	if (r == CUDA_ERROR_NO_DEVICE) {
		rt_fail(rt, e, r, "cuInit");
		e->code = RT_E_NODEVICE;
		size_t len = strlen(e->msg);
		snprintf(e->msg + len, sizeof e->msg - len, "; no CUDA GPU is visible; %s", no_driver_hint);
		return -1;
	}
	CHECK(r, "cuInit");
	CHECK(rt->d.cuDriverGetVersion(&rt->driver_version), "cuDriverGetVersion");
	return 0;
}

int rt_device_count(Rt *rt, int *n, RtErr *e)
{
	*n = 0;
	if (rt->sim) {
		*n = 1;
		return 0;
	}
	if (rt->state == RT_FAILED) {
		*e = rt->init_err;
		return -1;
	}
	if (init_driver(rt, e))
		return -1;
	CHECK(rt->d.cuDeviceGetCount(n), "cuDeviceGetCount");
	return 0;
}

static int init_device(Rt *rt, RtErr *e)
{
	int n = 0;
	if (init_driver(rt, e))
		return -1;
	CHECK(rt->d.cuDeviceGetCount(&n), "cuDeviceGetCount");
	if (n < 1)
		return rt_fail_rt(e, RT_E_NODEVICE, "no CUDA device",
		                  "the CUDA driver found no GPU; %s", no_driver_hint);
	if (rt->devnum >= n)
		return rt_fail_rt(e, RT_E_NODEVICE, "no such CUDA device",
		                  "there is no CUDA device %d: the driver sees %d device%s (0 to %d)",
		                  rt->devnum, n, n == 1 ? "" : "s", n - 1);
	CHECK(rt->d.cuDeviceGet(&rt->dev, rt->devnum), "cuDeviceGet(%d)", rt->devnum);
	CHECK(rt->d.cuDeviceGetName(rt->devname, (int)sizeof rt->devname - 1, rt->dev), "cuDeviceGetName");
	CHECK(rt->d.cuDeviceTotalMem_v2(&rt->total_mem, rt->dev), "cuDeviceTotalMem");
	if (attr(rt, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &rt->cc_major, e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &rt->cc_minor, e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &rt->sm_count, e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &rt->max_threads, e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &rt->max_block[0], e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &rt->max_block[1], e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &rt->max_block[2], e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &rt->max_grid[0], e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &rt->max_grid[1], e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, &rt->max_grid[2], e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &rt->max_smem_block, e) ||
	    attr(rt, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &rt->max_smem_optin, e))
		return -1;
	CUresult r = rt->d.cuDevicePrimaryCtxRetain(&rt->ctx, rt->dev);
	if (r != CUDA_SUCCESS) {
		rt_fail(rt, e, r, "cuDevicePrimaryCtxRetain");
		if (rt->resets > 0 && is_sticky(r))
			/* drivers that keep a process off the GPU after a fault */
			snprintf(e->msg, sizeof e->msg,
			         "%s (%d) in cuDevicePrimaryCtxRetain: after the kernel fault and "
			         "cuda.close(), the driver gives this process no new context. CUDA does "
			         "not always recover from a kernel fault inside a process (its "
			         "documentation: the process must be terminated and relaunched); "
			         "restart Python to use the GPU again.", e->name, (int)r);
		return -1;
	}
	r = rt->d.cuCtxSetCurrent(rt->ctx);
	if (r != CUDA_SUCCESS) {
		rt->d.cuDevicePrimaryCtxRelease_v2(rt->dev);
		rt->ctx = NULL;
		return rt_fail(rt, e, r, "cuCtxSetCurrent");
	}
	rt->sticky = 0;
	pthread_once(&fork_once, watch_forks);
	return 0;
}

int rt_enter(Rt *rt, RtErr *e)
{
	if (rt->sim)
		return 0;
	if (atomic_load_explicit(&forked_after_init, memory_order_relaxed))
		return forked_error(e);
	if (rt->state == RT_READY && rt->sticky) {
		if (!rt->auto_reset)
			return lost_error(rt, e);
		RtErr ignored;
		rt_close(rt, &ignored);
	}
	if (rt->state != RT_READY) {
		if (rt->state == RT_FAILED) {
			*e = rt->init_err;
			return -1;
		}
		if (init_device(rt, e)) {
			rt->init_err = *e;
			rt->state = RT_FAILED;
			return -1;
		}
		rt->state = RT_READY;
		return 0;
	}
	CUcontext cur = NULL;
	CHECK(rt->d.cuCtxGetCurrent(&cur), "cuCtxGetCurrent (finding this thread's context)");
	if (cur != rt->ctx)
		CHECK(rt->d.cuCtxSetCurrent(rt->ctx), "cuCtxSetCurrent (making ptxjit's context this thread's)");
	return 0;
}

int rt_enable_peer(Rt *rt, Rt *peer, int *on, RtErr *e)
{
	int can = 0;
	*on = 0;
	if (rt->sim || peer->sim || rt == peer)
		return 0;
	if (rt_enter(peer, e) || rt_enter(rt, e))
		return -1;
	unsigned *g = &rt->peer_gen[peer->devnum];
	if (*g == peer->gen + 1) {
		*on = 1;
		return 0;
	}
	CHECK(rt->d.cuDeviceCanAccessPeer(&can, rt->dev, peer->dev), "cuDeviceCanAccessPeer(%d, %d)",
	      rt->devnum, peer->devnum);
	if (!can)
		return 0;
	CUresult r = rt->d.cuCtxEnablePeerAccess(peer->ctx, 0);
	if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
		return rt_fail(rt, e, r, "cuCtxEnablePeerAccess (device %d reaching device %d's memory)",
		               rt->devnum, peer->devnum);
	*g = peer->gen + 1;
	*on = 1;
	return 0;
}

int rt_peer_copy(Rt *to, CUdeviceptr dst, Rt *from, CUdeviceptr src, size_t n, CUstream s, int async, RtErr *e)
{
	int on;
	Rt *rt = to;
	if (n == 0)
		return 0;
	if (to->sim) {
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
		return 0;
	}
	if (rt_enable_peer(from, to, &on, e) || rt_enable_peer(to, from, &on, e) || rt_enter(to, e))
		return -1;
	if (async)
		CHECK(rt->d.cuMemcpyPeerAsync(dst, to->ctx, src, from->ctx, n, s),
		      "cuMemcpyPeerAsync(%zu bytes from device %d to device %d)", n, from->devnum, to->devnum);
	else
		CHECK(rt->d.cuMemcpyPeer(dst, to->ctx, src, from->ctx, n),
		      "cuMemcpyPeer(%zu bytes from device %d to device %d)", n, from->devnum, to->devnum);
	return 0;
}

int rt_available(Rt *rt)
{
	RtErr e;
	return rt_lost(rt) || rt_enter(rt, &e) == 0;   /* a lost context: the device is there */
}

int rt_device_attr(Rt *rt, int a, int *out, RtErr *e)
{
	if (rt->sim) {
		switch (a) {
		case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *out = rt->max_threads; return 0;
		case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: *out = rt->max_block[0]; return 0;
		case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *out = rt->max_block[1]; return 0;
		case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *out = rt->max_block[2]; return 0;
		case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *out = rt->max_grid[0]; return 0;
		case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: *out = rt->max_grid[1]; return 0;
		case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *out = rt->max_grid[2]; return 0;
		case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *out = rt->max_smem_block; return 0;
		case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *out = rt->max_smem_optin; return 0;
		case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *out = 32; return 0;
		case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *out = rt->sm_count; return 0;
		case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *out = rt->cc_major; return 0;
		case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *out = rt->cc_minor; return 0;
		}
		return rt_fail_rt(e, RT_E_ARG, "not simulated",
		                  "device attribute %d has no value on the simulator", a);
	}
	if (rt_enter(rt, e))
		return -1;
	return attr(rt, a, out, e);
}

int rt_mem_info(Rt *rt, size_t *free_b, size_t *total_b, RtErr *e)
{
	if (rt->sim) {
		RtMemStats s;
		rt_mem_stats(rt, &s);
		*total_b = rt->total_mem;
		*free_b = rt->total_mem > s.live_bytes + s.cached_bytes
		          ? rt->total_mem - s.live_bytes - s.cached_bytes : 0;
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuMemGetInfo_v2(free_b, total_b), "cuMemGetInfo (the device's free memory)");
	return 0;
}

int rt_sync(Rt *rt, RtErr *e)
{
	if (rt->sim)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuCtxSynchronize(), "cuCtxSynchronize (cuda.synchronize())");
	return 0;
}

void rt_settle(Rt *rt)
{
	RtErr ignored;
	if (!rt->sim && rt->state == RT_READY && !rt->sticky &&
	    !atomic_load_explicit(&forked_after_init, memory_order_relaxed) && rt_enter(rt, &ignored) == 0)
		rt->d.cuCtxSynchronize();
}

int rt_close(Rt *rt, RtErr *e)
{
	if (rt->sim) {
		rt_trim(rt);
		return 0;
	}
	if (atomic_load_explicit(&forked_after_init, memory_order_relaxed))
		return 0;         /* the context is the parent's */
	if (rt->state == RT_FAILED) {
		/* let the next use try again (a driver may have appeared) */
		rt->state = RT_UNINIT;
		return 0;
	}
	if (rt->state != RT_READY)
		return 0;
	RtErr ignored;
	int rc = 0;
	if (!rt->sticky && rt_enter(rt, &ignored) == 0 &&
	    rt->d.cuCtxSynchronize() != CUDA_SUCCESS)
		rt->sticky = 1;
	rt_trim(rt);
	rt_free_ring(rt);
	if (rt->order_ev)
		rt->d.cuEventDestroy_v2(rt->order_ev);
	rt->order_ev = NULL;
	rt_free_stages(rt);
	pthread_mutex_lock(&rt->lock);
	rt->npinned = 0;  /* registrations end with the context; the memory stays */
	pthread_mutex_unlock(&rt->lock);
	CUresult r;
	rt->d.cuCtxSetCurrent(NULL);
	if (rt->sticky) {
		/* a faulted context: destroy it; release our reference whatever
		 * the reset said, so that the next use retains a fresh one */
		rt->d.cuDevicePrimaryCtxReset_v2(rt->dev);
		r = rt->d.cuDevicePrimaryCtxRelease_v2(rt->dev);
		if (r == CUDA_ERROR_INVALID_CONTEXT || r == CUDA_ERROR_ILLEGAL_ADDRESS)
			r = CUDA_SUCCESS;
	} else {
		r = rt->d.cuDevicePrimaryCtxRelease_v2(rt->dev);
	}
	if (r != CUDA_SUCCESS)
		rc = rt_fail(rt, e, r, "cuDevicePrimaryCtxRelease");
	if (rt->sticky)
		rt->resets++;
	rt->ctx = NULL;
	rt->sticky = 0;
	memset(rt->peer_gen, 0, sizeof rt->peer_gen);
	/* the blocks handed out are gone with the context: their owners'
	 * releases (older generation) are dropped, so stop counting them */
	pthread_mutex_lock(&rt->lock);
	rt->cache.live_bytes = 0;
	pthread_mutex_unlock(&rt->lock);
	rt->gen++;
	rt->state = RT_UNINIT;
	return rc;
}

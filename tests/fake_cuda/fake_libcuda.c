/*
 * fake_libcuda.c - a stand-in for libcuda.so.1, for testing ptxjit's GPU
 * path on machines without a GPU.
 *
 * It implements the driver entry points the runtime resolves (src/rt/rt.h)
 * over host memory: "device" pointers are host addresses, copies are
 * memcpy, streams and events are small structs, a module keeps its PTX.
 * A launch runs nothing; it records its configuration and parameter
 * buffer, which the tests read back through fake_* functions (ctypes), and
 * can write a marker through its first parameter so that copies back to
 * the host can be observed.
 *
 * Faults are injected with fake_set():
 *   "mem_limit"      bytes cuMemAlloc may hand out in all (0: no limit)
 *   "reject_ptx"     cuModuleLoadDataEx fails with CUDA_ERROR_INVALID_PTX
 *   "fault_on_sync"  the next synchronisation reports CUDA_ERROR_ILLEGAL_ADDRESS,
 *                    and every call after it too, until the primary context is reset
 *   "fault_on_launch" the next launch faults, as a kernel with a wild address
 *                    does: it scribbles 0xA5 over the first 4 bytes its first
 *                    parameter points to, then the work queued behind it is
 *                    dropped (copies do nothing, host functions are not called,
 *                    launches run nothing) until a synchronisation or query
 *                    notices: that one and every call after it fail with
 *                    CUDA_ERROR_ILLEGAL_ADDRESS until the primary context is reset.
 *                    A reset destroys the context's memory, modules, streams
 *                    and events: using one of them afterwards fails with
 *                    CUDA_ERROR_INVALID_HANDLE (or CUDA_ERROR_INVALID_VALUE for memory).
 *   "launch_write"   a launch stores this int32 at its first parameter's address
 *   "no_device"      cuInit fails with CUDA_ERROR_NO_DEVICE
 *   "no_gpus"        cuDeviceGetCount finds no device
 *   "launch_xor32"   a launch XORs this value into every int32 of its first
 *                    argument (a C-contiguous 1-d array: data, then extent)
 *   "reject_cubin"   cuModuleLoadDataEx refuses machine code with CUDA_ERROR_INVALID_IMAGE
 *   "trap_code"      a launch of a kernel whose module has the error word __pj_err
 *                    (debug=True kernels, src/rt/trapword.c; cuModuleGetGlobal_v2
 *                    finds it in the PTX) writes this trap code there, with
 *                    threadIdx (3, 0, 0) and blockIdx (1, 0, 0), as a failed
 *                    assert or a raise on the GPU does
 *   "dma_mbps"       copies and launches become asynchronous, as on a GPU: a
 *                    thread runs them in order, each copy taking n / rate
 *                    (MB/s); copies from or to pinned memory (cuMemHostAlloc,
 *                    cuMemHostRegister) touch the host memory only when they
 *                    run, so code that reuses a buffer too early reads or
 *                    writes the wrong bytes; pageable memory is copied when
 *                    the call is made.  0 (the default): everything at once.
 * Any entry point can be made to fail with a given CUresult: fake_fail() and
 * FAKE_CUDA_FAIL (below, "failing entry points").  Counters are read with
 * fake_get(): "allocs", "frees", "launches",
 * "module_loads", "live_bytes", "max_registers", "ctx_resets", "htod",
 * "dtoh", "syncs", "host_allocs" (cuMemHostAlloc calls), "pinned_copies"
 * and "pageable_copies" (asynchronous copies by the kind of host memory),
 * "host_registers" (cuMemHostRegister calls), "stream_waits" (cuStreamWaitEvent),
 * "host_funcs" (cuLaunchHostFunc), "host_maps" (cuMemHostRegister with
 * DEVICEMAP; the device address of mapped memory is its host address),
 * "managed_allocs" (cuMemAllocManaged), "ipc_gets", "ipc_opens" and
 * "ipc_closes" (cuIpc*: a handle holds the allocation's address, and opening
 * it in the same process gives that address, where a driver refuses), "faults" (faulting launches), "stale_uses" (handles
 * of a context that was reset, refused), "ctx_gen" (contexts made), "links"
 * (cuLinkComplete calls), "ptx_loads" and "cubin_loads" (modules loaded from PTX,
 * which a driver compiles, and from machine code), "injected" (failures of
 * fake_fail's rules returned), "graph_nodes" (work recorded by stream
 * captures), "graph_instantiates", "graph_updates" (cuGraphExecUpdate_v2
 * calls that succeeded), "graph_launches", "coop_launches" (cuLaunchCooperativeKernel
 * calls; they record the grid, block and entry, but neither the parameters nor any
 * effect).
 *
 * Stream capture (cuStreamBeginCapture_v2 .. cuStreamEndCapture) records
 * the launches, copies and memsets issued on the stream as nodes, running
 * nothing; cuGraphLaunch issues them again on its stream.  As the driver
 * does, a capture is invalidated (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
 * then CUDA_ERROR_STREAM_CAPTURE_INVALIDATED at its end) by synchronising
 * the stream or by a copy from or to pageable host memory, and the
 * default streams cannot be captured.  cuGraphExecUpdate_v2 takes a graph
 * of the same kinds of nodes (a kernel node: the same function).
 *
 * The linker (cuLinkCreate_v2, cuLinkAddData_v2, cuLinkComplete, cuLinkDestroy)
 * makes "machine code" that is the PTX behind a header: "\177ELF" and
 * "fake-cubin\n".  cuModuleLoadDataEx takes either; other bytes that start as
 * an ELF file are refused (CUDA_ERROR_INVALID_IMAGE).  Built with
 * -DFAKE_NO_LINKER the library has no cuLink* entry points.  "carveout" is
 * 1 + the last shared memory carveout cuFuncSetAttribute set (0: none).  After the
 * kernel's PTX the linker takes more inputs (counted in "link_inputs"):
 * PTX, whose text is appended to the image, and cubin, fatbin, object and
 * library bytes, ignored; cuLinkComplete fails (CUDA_ERROR_INVALID_PTX, the
 * name in the log) for an `.extern .func NAME` of the kernel's PTX that no
 * PTX input defines (`.func ... NAME(`) when only PTX was added.
 *
 * Built with -DFAKE_OLD_DRIVER it lacks cuLaunchHostFunc, as a driver older
 * than CUDA 10 does.
 *
 * Host functions (cuLaunchHostFunc) always run late, on the fake's own
 * thread, after the work queued before them, as the driver runs them on a
 * thread of its own: a stream callback of ptxjit takes the GIL there.  While
 * one is queued, work issued asynchronously (launches, cuMemcpy*Async,
 * cuMemsetD8Async, event records, graph launches) queues behind it, and every
 * call that the driver documents as waiting for the device or implicitly
 * synchronising waits until the queue, host functions included, is done:
 * cuCtxSynchronize, cuStreamSynchronize, cuEventSynchronize, the
 * synchronous copies and memsets, an asynchronous copy to pageable host
 * memory, cuMemFree, cuMemFreeHost, cuMemHostUnregister, cuModuleUnload,
 * cuStreamDestroy, cuIpcCloseMemHandle and the primary context's release
 * and reset.  So a caller that holds the GIL through such a call while a
 * callback is queued deadlocks here as it does on a GPU.  The fake has one
 * queue for all streams and devices: a wait on one stream waits for all
 * (a superset of the driver's waits).  "queue_limit" (fake_set) bounds the
 * queue as the driver's command buffer does: work issued when it is full
 * waits for room.  Counters: "module_unloads", "queued" (ops in the
 * queue now), "host_waits" (waits that found a host
 * function queued), "host_fn_calls" (driver calls made from inside a
 * host function, which the driver forbids: it may deadlock or fail with
 * CUDA_ERROR_NOT_PERMITTED; here they do not wait).
 *
 * Several devices: FAKE_CUDA_DEVICES=n in the environment (read at cuInit;
 * 1 to 8, default 1), or fake_set("devices", n) before cuInit, and each
 * device has its own primary context.  Memory, modules and streams belong
 * to the context current when they were made, and the fake checks that
 * the right one is current when they are used: an allocation freed, a
 * copy to or from device memory (cuMemcpyDtoD between two contexts
 * included: that is cuMemcpyPeer's work), a launch (the function's module
 * and the stream) and a cuMemcpyPeer whose pointers are not of the
 * contexts named each count in "wrong_ctx" and fail with
 * CUDA_ERROR_INVALID_CONTEXT.  "cc<i>" (fake_set) is device i's compute
 * capability times 10 (default 90); "no_peer" makes cuDeviceCanAccessPeer
 * say no.  Counters: "peer_copies" (cuMemcpyPeer and its Async),
 * "peer_enables" (cuCtxEnablePeerAccess), "launch_device" (the device of
 * the last launch), "allocs<i>" and "live<i>" (allocations made in device
 * i's context, and those not freed yet).
 *
 * Build: cc -shared -fPIC -o libcuda_fake.so fake_libcuda.c
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum {
	OK = 0, E_INVALID_VALUE = 1, E_OOM = 2, E_NOT_INITIALIZED = 3, E_NO_DEVICE = 100,
	E_INVALID_IMAGE = 200, E_INVALID_CONTEXT = 201, E_INVALID_PTX = 218, E_INVALID_HANDLE = 400, E_NOT_FOUND = 500,
	E_NOT_READY = 600, E_ILLEGAL_ADDRESS = 700, E_INVALID_DEVICE = 101, E_LAUNCH_OUT_OF_RESOURCES = 701,
	E_LAUNCH_FAILED = 719, E_NOT_SUPPORTED = 801, E_UNKNOWN = 999,
	E_CAPTURE_UNSUPPORTED = 900, E_CAPTURE_INVALIDATED = 901, E_GRAPH_UPDATE = 910,
};

static struct {
	int inited, sticky, ctx_retained;
	long mem_limit, reject_ptx, fault_on_sync, launch_write, no_device, launch_xor32, dma_mbps;
	long allocs, frees, launches, module_loads, live_bytes, max_registers, ctx_resets;
	long htod, dtoh, syncs, host_allocs, pinned_copies, pageable_copies, host_registers, stream_waits;
	long host_funcs, host_maps, managed_allocs, ipc_gets, ipc_opens, ipc_closes;
	long graph_nodes, graph_instantiates, graph_updates, graph_launches, coop_launches;
	long fault_on_launch, faults, stale_uses;
	long reject_cubin, links, link_inputs, carveout, ptx_loads, cubin_loads, injected, trap_code, no_gpus;
	long queue_limit, host_waits, host_fn_calls, module_unloads;
	volatile int fault_pending;  /* a launch faulted; nobody has noticed yet */
	unsigned ctx_gen;            /* bumps at each reset: older handles are dead */
	unsigned grid[3], block[3], smem;
	void *stream;
	unsigned char params[4096];
	size_t nparams;
	char entry[256];
	long ndev, no_peer, wrong_ctx, peer_copies, peer_enables, launch_device;
	long cc[8], dev_allocs[8], dev_live[8];
	int peer_on[8][8];          /* peer_on[a][b]: context a reaches b's memory */
} F;

#define MAXDEV 8
static int ctx_token[MAXDEV];    /* the primary context of each device */
static __thread void *current;

/* The device of a context, or -1. */
static int dev_of_ctx(const void *c)
{
	for (int i = 0; i < MAXDEV; i++)
		if (c == &ctx_token[i])
			return i;
	return -1;
}

struct alloc { void *p; size_t n; void *ctx; struct alloc *next; };
static struct alloc *allocs;

struct module { char *ptx; unsigned gen; void *ctx; uint32_t err[12]; };   /* err: the module's __pj_err (PJ_TRAP_WORDS) */
struct function { char name[256]; unsigned gen; struct module *mod; };
struct event { double t; int recorded; volatile int pending; unsigned gen; };
struct graph;
struct stream { unsigned gen; void *ctx; struct graph *cap; int invalid; };
/* A stream of ours (0, 1 and 2 are the driver's default streams). */
#define OURS(s) ((uintptr_t)(s) > 2)
static pthread_mutex_t am = PTHREAD_MUTEX_INITIALIZER;   /* allocs */

/* The context of the allocation that holds p, or NULL (host memory, or
 * memory of no context). */
static void *ctx_of_ptr(uintptr_t p)
{
	void *c = NULL;
	pthread_mutex_lock(&am);
	for (struct alloc *a = allocs; a; a = a->next)
		if ((uintptr_t)a->p <= p && p < (uintptr_t)a->p + (a->n ? a->n : 1)) {
			c = a->ctx;
			break;
		}
	pthread_mutex_unlock(&am);
	return c;
}

/* Device memory used while another context is current: counted, refused. */
#define OWNED(p) do { \
		void *c_ = ctx_of_ptr((uintptr_t)(p)); \
		if (c_ && c_ != current) { F.wrong_ctx++; return E_INVALID_CONTEXT; } \
	} while (0)

/* A handle of a context that was reset since it was made. */
static int dead(unsigned gen)
{
	if (gen == F.ctx_gen)
		return 0;
	F.stale_uses++;
	return 1;
}

/* ------------------------------------------- asynchronous work (dma_mbps) */

enum { OP_COPY, OP_EVENT, OP_KERNEL, OP_HOST, OP_SET };
struct op {
	int kind;
	void *dst;
	const void *src;
	size_t n;
	int byte;                    /* OP_SET: dst[0..n) = byte */
	void *owned;                 /* freed when the op is done */
	struct event *ev;
	void (*fn)(void *);          /* OP_HOST: cuLaunchHostFunc's function and argument */
	void *arg;
	unsigned char params[64];    /* OP_KERNEL: the first parameters */
	size_t nparams;
	int fault;                   /* OP_KERNEL: this launch faults */
	struct op *next;
};

static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qwork = PTHREAD_COND_INITIALIZER, qdone = PTHREAD_COND_INITIALIZER;
static struct op *qhead, *qtail;
static int qthread, qlen, qhosts;   /* ops queued, host functions among them */
static __thread int in_host_fn;     /* this thread is running a host function */

struct range { const char *p; size_t n; struct range *next; };
static struct range *pinned;
static pthread_mutex_t pm = PTHREAD_MUTEX_INITIALIZER;

static void add_pinned(uintptr_t p, size_t n)
{
	struct range *r = malloc(sizeof *r);
	r->p = (const char *)p;
	r->n = n;
	pthread_mutex_lock(&pm);
	r->next = pinned;
	pinned = r;
	pthread_mutex_unlock(&pm);
}

static void drop_pinned(const void *p)
{
	pthread_mutex_lock(&pm);
	for (struct range **r = &pinned; *r; r = &(*r)->next)
		if ((*r)->p == p) {
			struct range *x = *r;
			*r = x->next;
			free(x);
			break;
		}
	pthread_mutex_unlock(&pm);
}

static int is_pinned(const void *p, size_t n)
{
	int yes = 0;
	pthread_mutex_lock(&pm);
	for (struct range *r = pinned; r && !yes; r = r->next)
		yes = (const char *)p >= r->p && (const char *)p + n <= r->p + r->n;
	pthread_mutex_unlock(&pm);
	return yes;
}

/* What a launch does to memory (launch_write, launch_xor32; a faulting
 * launch scribbles and stops the queue). */
static void run_kernel(const unsigned char *params, size_t n, int fault)
{
	CUdeviceptr p = 0;
	if (F.fault_pending)
		return;
	if (n >= 8)
		memcpy(&p, params, 8);
	if (fault) {
		if (p)
			memset((void *)(uintptr_t)p, 0xA5, 4);
		F.fault_pending = 1;
		return;
	}
	if (!p)
		return;
	if (F.launch_write) {
		int32_t v = (int32_t)F.launch_write;
		memcpy((void *)(uintptr_t)p, &v, 4);
	}
	if (F.launch_xor32 && n >= 16) {
		int64_t ext;
		memcpy(&ext, params + 8, 8);
		int32_t *a = (int32_t *)(uintptr_t)p;
		for (int64_t i = 0; i < ext; i++)
			a[i] ^= (int32_t)F.launch_xor32;
	}
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static double now_ms(void);

static void *dma_main(void *unused)
{
	for (;;) {
		pthread_mutex_lock(&qm);
		while (!qhead)
			pthread_cond_wait(&qwork, &qm);
		struct op *o = qhead;
		pthread_mutex_unlock(&qm);
		if (o->kind == OP_COPY && !F.fault_pending) {
			double until = F.dma_mbps ? now_s() + (double)o->n / ((double)F.dma_mbps * 1e6) : 0;
			while (now_s() < until)
				;
			memmove(o->dst, o->src, o->n);
		} else if (o->kind == OP_SET && !F.fault_pending) {
			memset(o->dst, o->byte, o->n);
		} else if (o->kind == OP_KERNEL) {
			run_kernel(o->params, o->nparams, o->fault);
		} else if (o->kind == OP_HOST) {
			if (!F.fault_pending) {  /* the driver calls no host function after an error */
				in_host_fn = 1;
				o->fn(o->arg);
				in_host_fn = 0;
			}
		} else if (o->ev) {
			o->ev->t = now_ms();
		}
		pthread_mutex_lock(&qm);
		qhead = o->next;
		if (!qhead)
			qtail = NULL;
		qlen--;
		if (o->kind == OP_HOST)
			qhosts--;
		if (o->ev)
			o->ev->pending = 0;
		pthread_cond_broadcast(&qdone);
		pthread_mutex_unlock(&qm);
		free(o->owned);
		free(o);
	}
	return NULL;
}

static void enqueue(struct op *o)
{
	pthread_mutex_lock(&qm);
	if (!qthread) {
		pthread_t th;
		pthread_create(&th, NULL, dma_main, NULL);
		pthread_detach(th);
		qthread = 1;
	}
	if (F.queue_limit && qlen >= F.queue_limit && qhosts)
		F.host_waits++;
	while (F.queue_limit && qlen >= F.queue_limit && !in_host_fn)
		pthread_cond_wait(&qdone, &qm);
	qlen++;
	if (o->kind == OP_HOST)
		qhosts++;
	o->next = NULL;
	if (qtail)
		qtail->next = o;
	else
		qhead = o;
	qtail = o;
	pthread_cond_signal(&qwork);
	pthread_mutex_unlock(&qm);
}

/* Waits until the queued work is done (not in a host function: the
 * driver forbids that call there, and it would wait for itself). */
static void drain(void)
{
	pthread_mutex_lock(&qm);
	if (qhosts)
		F.host_waits++;
	while (qhead && !in_host_fn)
		pthread_cond_wait(&qdone, &qm);
	pthread_mutex_unlock(&qm);
}

/* Is work queued?  Asynchronous work issued now must queue behind it. */
static int busy(void)
{
	pthread_mutex_lock(&qm);
	int b = qhead != NULL;
	pthread_mutex_unlock(&qm);
	return b;
}

static void queue_set(void *dst, int byte, size_t n)
{
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_SET;
	o->dst = dst;
	o->byte = byte;
	o->n = n;
	enqueue(o);
}

static void queue_copy(void *dst, const void *src, size_t n, void *owned)
{
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_COPY;
	o->dst = dst;
	o->src = src;
	o->n = n;
	o->owned = owned;
	enqueue(o);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#define GUARD() do { if (!F.inited) return E_NOT_INITIALIZED; if (F.sticky) return E_ILLEGAL_ADDRESS; } while (0)

/* ----------------------------------------------- failing entry points
 *
 * fake_fail("cuStreamCreate", 999, skip, times): the entry point (the name
 * as the runtime spells it, with or without its _v2) returns the code
 * after `skip` calls that go through, `times` times (0: every call after),
 * then works again.  fake_fail(NULL, 0, 0, 0) clears every rule.  The
 * environment variable FAKE_CUDA_FAIL="name:code[:skip[:times]],..." sets
 * rules at the first driver call, for a process that cannot reach
 * fake_fail before ptxjit starts the driver. */
static struct fail { char name[64]; int code; long skip, times; } fails[16];
static int nfails, fails_read;

void fake_fail(const char *name, int code, long skip, long times)
{
	if (!name) {
		nfails = 0;
		return;
	}
	if (nfails == (int)(sizeof fails / sizeof fails[0]))
		return;
	struct fail *f = &fails[nfails++];
	snprintf(f->name, sizeof f->name, "%s", name);
	f->code = code;
	f->skip = skip;
	f->times = times;
}

static void read_fail_env(void)
{
	const char *s = getenv("FAKE_CUDA_FAIL");
	fails_read = 1;
	while (s && *s) {
		char name[64];
		int code = 0, n = 0;
		long skip = 0, times = 1;
		if (sscanf(s, "%63[^:,]:%d%n", name, &code, &n) < 2)
			return;
		s += n;
		if (*s == ':' && sscanf(s, ":%ld%n", &skip, &n) >= 1) {
			s += n;
			if (*s == ':' && sscanf(s, ":%ld%n", &times, &n) >= 1)
				s += n;
		}
		fake_fail(name, code, skip, times);
		while (*s == ',' || *s == ' ')
			s++;
	}
}

/* The code the entry point fn must return now, or OK. */
static CUresult injected(const char *fn)
{
	if (!fails_read)
		read_fail_env();
	for (int i = 0; i < nfails; i++) {
		struct fail *f = &fails[i];
		size_t n = strlen(f->name);
		if (strncmp(fn, f->name, n) || (fn[n] && strcmp(fn + n, "_v2")))
			continue;
		if (f->skip > 0) {
			f->skip--;
			return OK;
		}
		if (f->times < 0)
			return OK;
		if (f->times > 0 && --f->times == 0)
			f->times = -1;          /* spent */
		F.injected++;
		return f->code;
	}
	return OK;
}

#define INJECT() do { \
		if (in_host_fn) F.host_fn_calls++; \
		CUresult inj_ = injected(__func__); \
		if (inj_) return inj_; \
	} while (0)

/* ------------------------------------------------------- test control */

void fake_set(const char *key, long v)
{
	if (!strcmp(key, "mem_limit")) F.mem_limit = v;
	else if (!strcmp(key, "reject_ptx")) F.reject_ptx = v;
	else if (!strcmp(key, "fault_on_sync")) F.fault_on_sync = v;
	else if (!strcmp(key, "launch_write")) F.launch_write = v;
	else if (!strcmp(key, "no_device")) F.no_device = v;
	else if (!strcmp(key, "launch_xor32")) F.launch_xor32 = v;
	else if (!strcmp(key, "dma_mbps")) { drain(); F.dma_mbps = v; }
	else if (!strcmp(key, "fault_on_launch")) F.fault_on_launch = v;
	else if (!strcmp(key, "reject_cubin")) F.reject_cubin = v;
	else if (!strcmp(key, "trap_code")) F.trap_code = v;
	else if (!strcmp(key, "no_gpus")) F.no_gpus = v;
	else if (!strcmp(key, "devices")) F.ndev = v;
	else if (!strcmp(key, "no_peer")) F.no_peer = v;
	else if (!strcmp(key, "queue_limit")) F.queue_limit = v;
	else if (!strncmp(key, "cc", 2) && key[2] >= '0' && key[2] < '0' + MAXDEV) F.cc[key[2] - '0'] = v;
}

long fake_get(const char *key)
{
	if (!strcmp(key, "allocs")) return F.allocs;
	if (!strcmp(key, "frees")) return F.frees;
	if (!strcmp(key, "launches")) return F.launches;
	if (!strcmp(key, "module_loads")) return F.module_loads;
	if (!strcmp(key, "live_bytes")) return F.live_bytes;
	if (!strcmp(key, "max_registers")) return F.max_registers;
	if (!strcmp(key, "ctx_resets")) return F.ctx_resets;
	if (!strcmp(key, "htod")) return F.htod;
	if (!strcmp(key, "dtoh")) return F.dtoh;
	if (!strcmp(key, "syncs")) return F.syncs;
	if (!strcmp(key, "smem")) return F.smem;
	if (!strcmp(key, "host_allocs")) return F.host_allocs;
	if (!strcmp(key, "pinned_copies")) return F.pinned_copies;
	if (!strcmp(key, "pageable_copies")) return F.pageable_copies;
	if (!strcmp(key, "host_registers")) return F.host_registers;
	if (!strcmp(key, "stream_waits")) return F.stream_waits;
	if (!strcmp(key, "host_funcs")) return F.host_funcs;
	if (!strcmp(key, "host_maps")) return F.host_maps;
	if (!strcmp(key, "managed_allocs")) return F.managed_allocs;
	if (!strcmp(key, "ipc_gets")) return F.ipc_gets;
	if (!strcmp(key, "ipc_opens")) return F.ipc_opens;
	if (!strcmp(key, "ipc_closes")) return F.ipc_closes;
	if (!strcmp(key, "faults")) return F.faults;
	if (!strcmp(key, "stale_uses")) return F.stale_uses;
	if (!strcmp(key, "ctx_gen")) return F.ctx_gen;
	if (!strcmp(key, "fault_pending")) return F.fault_pending;
	if (!strcmp(key, "sticky")) return F.sticky;
	if (!strcmp(key, "links")) return F.links;
	if (!strcmp(key, "link_inputs")) return F.link_inputs;
	if (!strcmp(key, "carveout")) return F.carveout;
	if (!strcmp(key, "ptx_loads")) return F.ptx_loads;
	if (!strcmp(key, "cubin_loads")) return F.cubin_loads;
	if (!strcmp(key, "injected")) return F.injected;
	if (!strcmp(key, "wrong_ctx")) return F.wrong_ctx;
	if (!strcmp(key, "peer_copies")) return F.peer_copies;
	if (!strcmp(key, "peer_enables")) return F.peer_enables;
	if (!strcmp(key, "launch_device")) return F.launch_device;
	if (!strncmp(key, "allocs", 6) && key[6] >= '0' && key[6] < '0' + MAXDEV) return F.dev_allocs[key[6] - '0'];
	if (!strncmp(key, "live", 4) && key[4] >= '0' && key[4] < '0' + MAXDEV) return F.dev_live[key[4] - '0'];
	if (!strcmp(key, "graph_nodes")) return F.graph_nodes;
	if (!strcmp(key, "graph_instantiates")) return F.graph_instantiates;
	if (!strcmp(key, "graph_updates")) return F.graph_updates;
	if (!strcmp(key, "graph_launches")) return F.graph_launches;
	if (!strcmp(key, "coop_launches")) return F.coop_launches;
	if (!strcmp(key, "host_waits")) return F.host_waits;
	if (!strcmp(key, "host_fn_calls")) return F.host_fn_calls;
	if (!strcmp(key, "module_unloads")) return F.module_unloads;
	if (!strcmp(key, "queued")) { pthread_mutex_lock(&qm); long n = qlen; pthread_mutex_unlock(&qm); return n; }
	return -1;
}

/* The last launch: grid, block, and its parameter bytes. */
size_t fake_last_launch(unsigned *grid, unsigned *block, unsigned char *params, size_t cap, char *entry)
{
	memcpy(grid, F.grid, sizeof F.grid);
	memcpy(block, F.block, sizeof F.block);
	size_t n = F.nparams < cap ? F.nparams : cap;
	memcpy(params, F.params, n);
	strcpy(entry, F.entry);
	return F.nparams;
}

void *fake_last_stream(void) { return F.stream; }

/* --------------------------------------------------- the driver API */

CUresult cuInit(unsigned flags)
{
	INJECT();
	if (F.no_device)
		return E_NO_DEVICE;
	const char *nd = getenv("FAKE_CUDA_DEVICES");
	if (!F.ndev)
		F.ndev = nd && *nd ? atol(nd) : 1;
	if (F.ndev < 1 || F.ndev > MAXDEV)
		F.ndev = 1;
	F.inited = 1;
	return OK;
}

CUresult cuDriverGetVersion(int *v) { INJECT(); *v = 12080; return OK; }

static const char *err_name(CUresult r)
{
	switch (r) {
	case OK: return "CUDA_SUCCESS";
	case E_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
	case E_OOM: return "CUDA_ERROR_OUT_OF_MEMORY";
	case E_NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
	case E_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
	case E_INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
	case E_INVALID_CONTEXT: return "CUDA_ERROR_INVALID_CONTEXT";
	case E_INVALID_PTX: return "CUDA_ERROR_INVALID_PTX";
	case E_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
	case E_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
	case E_NOT_READY: return "CUDA_ERROR_NOT_READY";
	case E_ILLEGAL_ADDRESS: return "CUDA_ERROR_ILLEGAL_ADDRESS";
	case E_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
	case E_LAUNCH_OUT_OF_RESOURCES: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
	case E_LAUNCH_FAILED: return "CUDA_ERROR_LAUNCH_FAILED";
	case E_NOT_SUPPORTED: return "CUDA_ERROR_NOT_SUPPORTED";
	case E_UNKNOWN: return "CUDA_ERROR_UNKNOWN";
	case E_CAPTURE_UNSUPPORTED: return "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED";
	case E_CAPTURE_INVALIDATED: return "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED";
	case E_GRAPH_UPDATE: return "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE";
	}
	return NULL;   /* cuGetErrorName fails: the runtime names the code itself */
}

CUresult cuGetErrorName(CUresult r, const char **s)
{
	*s = err_name(r);
	return *s ? OK : E_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult r, const char **s)
{
	switch (r) {
	case E_ILLEGAL_ADDRESS: *s = "an illegal memory access was encountered"; return OK;
	case E_OOM: *s = "out of memory"; return OK;
	case E_INVALID_PTX: *s = "a PTX JIT compilation failed"; return OK;
	case E_UNKNOWN: *s = "unknown error"; return OK;
	}
	*s = err_name(r);
	return *s ? OK : E_INVALID_VALUE;
}

CUresult cuDeviceGetCount(int *n)
{
	INJECT();
	if (!F.inited) return E_NOT_INITIALIZED;
	*n = F.no_gpus ? 0 : (int)F.ndev;
	return OK;
}

CUresult cuDeviceGet(int *d, int ordinal)
{
	INJECT();
	if (!F.inited) return E_NOT_INITIALIZED;
	*d = ordinal;
	return ordinal >= 0 && ordinal < F.ndev ? OK : E_INVALID_DEVICE;
}

CUresult cuDeviceGetName(char *name, int len, int dev)
{
	INJECT();
	snprintf(name, (size_t)len, dev ? "Fake GPU %d (tests/fake_cuda)" : "Fake GPU (tests/fake_cuda)", dev);
	return OK;
}

CUresult cuDeviceGetAttribute(int *v, int attr, int dev)
{
	INJECT();
	switch (attr) {
	case 1: *v = 1024; break;
	case 2: case 3: *v = 1024; break;
	case 4: *v = 64; break;
	case 5: *v = 0x7fffffff; break;
	case 6: case 7: *v = 65535; break;
	case 8: *v = 48 * 1024; break;
	case 10: *v = 32; break;
	case 16: *v = 132; break;
	case 75: *v = (int)((dev >= 0 && dev < MAXDEV && F.cc[dev] ? F.cc[dev] : 90) / 10); break;
	case 76: *v = (int)((dev >= 0 && dev < MAXDEV && F.cc[dev] ? F.cc[dev] : 90) % 10); break;
	case 97: *v = 227 * 1024; break;
	default: *v = 0; break;
	}
	return OK;
}

CUresult cuDeviceTotalMem_v2(size_t *b, int dev) { INJECT(); *b = (size_t)80 << 30; return OK; }

CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
	INJECT();
	if (!F.inited) return E_NOT_INITIALIZED;
	if (dev < 0 || dev >= F.ndev) return E_INVALID_DEVICE;
	F.ctx_retained++;
	*ctx = &ctx_token[dev];
	return OK;
}

/* The context goes with its last reference, once its work is done. */
CUresult cuDevicePrimaryCtxRelease_v2(int dev) { INJECT(); drain(); F.ctx_retained--; return OK; }

/* Destroys the context: its memory, and (through ctx_gen) its modules,
 * streams and events. */
CUresult cuDevicePrimaryCtxReset_v2(int dev)
{
	INJECT();
	drain();
	F.ctx_resets++;
	F.sticky = 0;
	F.fault_pending = 0;
	F.ctx_retained = 0;
	F.ctx_gen++;
	pthread_mutex_lock(&am);
	for (struct alloc **a = &allocs; *a;) {
		struct alloc *x = *a;
		if (x->ctx != &ctx_token[dev]) {
			a = &x->next;
			continue;
		}
		*a = x->next;
		F.live_bytes -= (long)x->n;
		F.dev_live[dev]--;
		free(x->p);
		free(x);
	}
	memset(F.peer_on[dev], 0, sizeof F.peer_on[dev]);
	pthread_mutex_unlock(&am);
	return OK;
}

CUresult cuCtxSetCurrent(void *ctx) { INJECT(); current = ctx; return OK; }
CUresult cuCtxGetCurrent(void **ctx) { INJECT(); *ctx = current; return OK; }

static CUresult sync_point(void)
{
	GUARD();
	drain();
	F.syncs++;
	if (F.fault_pending) {
		F.fault_pending = 0;
		F.sticky = 1;
		return E_ILLEGAL_ADDRESS;
	}
	if (F.fault_on_sync) {
		F.fault_on_sync = 0;
		F.sticky = 1;
		return E_ILLEGAL_ADDRESS;
	}
	return OK;
}

CUresult cuCtxSynchronize(void) { INJECT(); return sync_point(); }

CUresult cuMemGetInfo_v2(size_t *f, size_t *t)
{
	INJECT();
	GUARD();
	*t = (size_t)80 << 30;
	*f = *t - (size_t)F.live_bytes;
	return OK;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	INJECT();
	GUARD();
	int dev = dev_of_ctx(current);
	if (dev < 0) return E_INVALID_CONTEXT;
	if (F.mem_limit && F.live_bytes + (long)n > F.mem_limit)
		return E_OOM;
	struct alloc *a = malloc(sizeof *a);
	a->p = malloc(n);
	a->n = n;
	a->ctx = current;
	pthread_mutex_lock(&am);
	a->next = allocs;
	allocs = a;
	F.allocs++;
	F.dev_allocs[dev]++;
	F.dev_live[dev]++;
	F.live_bytes += (long)n;
	pthread_mutex_unlock(&am);
	*p = (CUdeviceptr)(uintptr_t)a->p;
	return OK;
}

CUresult cuMemFree_v2(CUdeviceptr p)
{
	INJECT();
	if (!F.inited) return E_NOT_INITIALIZED;
	drain();             /* the driver frees once the device is done with the memory */
	pthread_mutex_lock(&am);
	for (struct alloc **a = &allocs; *a; a = &(*a)->next)
		if ((*a)->p == (void *)(uintptr_t)p) {
			struct alloc *x = *a;
			if (x->ctx != current) {
				F.wrong_ctx++;
				pthread_mutex_unlock(&am);
				return E_INVALID_CONTEXT;
			}
			F.dev_live[dev_of_ctx(x->ctx)]--;
			*a = x->next;
			F.live_bytes -= (long)x->n;
			F.frees++;
			pthread_mutex_unlock(&am);
			free(x->p);
			free(x);
			return OK;
		}
	pthread_mutex_unlock(&am);
	F.stale_uses++;      /* not memory of this context */
	return E_INVALID_VALUE;
}

/* ------------------------------------------------------ stream capture */

enum { N_KERNEL, N_COPY, N_MEMSET };
struct node {
	int kind;
	void *fn;
	unsigned grid[3], block[3], smem;
	unsigned char *params;
	size_t nparams;
	void *dst;
	const void *src;
	size_t n;
	int byte;
};
struct graph { struct node *nodes; int n, cap; };

/* The graph a stream is capturing into, or NULL. */
static struct graph *capturing(void *s)
{
	return OURS(s) ? ((struct stream *)s)->cap : NULL;
}

static struct node *add_node(struct graph *g, int kind)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 8;
		g->nodes = realloc(g->nodes, (size_t)g->cap * sizeof *g->nodes);
	}
	struct node *nd = &g->nodes[g->n++];
	memset(nd, 0, sizeof *nd);
	nd->kind = kind;
	F.graph_nodes++;
	return nd;
}

/* A copy issued on a capturing stream: host memory must be pinned. */
static CUresult capture_copy(void *s, void *dst, const void *src, size_t n, const void *host)
{
	if (host && !is_pinned(host, n)) {
		((struct stream *)s)->invalid = 1;
		return E_CAPTURE_UNSUPPORTED;
	}
	struct node *nd = add_node(capturing(s), N_COPY);
	nd->dst = dst;
	nd->src = src;
	nd->n = n;
	return OK;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { INJECT(); GUARD(); OWNED(d); if (F.fault_pending) return sync_point(); drain(); F.htod++; memcpy((void *)(uintptr_t)d, s, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { INJECT(); OWNED(s); CUresult r = sync_point(); if (r) return r; F.dtoh++; memcpy(d, (void *)(uintptr_t)s, n); return OK; }
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { INJECT(); GUARD(); OWNED(d); OWNED(s); if (F.fault_pending) return sync_point(); drain(); memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return OK; }

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, void *st)
{
	INJECT();
	GUARD();
	OWNED(d);
	if (capturing(st))
		return capture_copy(st, (void *)(uintptr_t)d, s, n, s);
	if (F.fault_pending)
		return OK;          /* queued behind a faulted kernel: never runs */
	if (!F.dma_mbps && !busy())
		return cuMemcpyHtoD_v2(d, s, n);
	F.htod++;
	if (is_pinned(s, n)) {
		F.pinned_copies++;
		queue_copy((void *)(uintptr_t)d, s, n, NULL);
	} else {
		/* the driver stages pageable memory before it returns */
		F.pageable_copies++;
		void *tmp = malloc(n ? n : 1);
		memcpy(tmp, s, n);
		queue_copy((void *)(uintptr_t)d, tmp, n, tmp);
	}
	return OK;
}

CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, void *st)
{
	INJECT();
	GUARD();
	OWNED(s);
	if (capturing(st))
		return capture_copy(st, d, (void *)(uintptr_t)s, n, d);
	F.dtoh++;
	if (F.fault_pending)
		return OK;          /* queued behind a faulted kernel: never runs */
	if ((F.dma_mbps || busy()) && is_pinned(d, n)) {
		F.pinned_copies++;
		queue_copy(d, (void *)(uintptr_t)s, n, NULL);
		return OK;
	}
	/* to pageable memory the copy is synchronous: it waits for the queue */
	if (F.dma_mbps)
		F.pageable_copies++;
	drain();
	memcpy(d, (void *)(uintptr_t)s, n);
	return OK;
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, void *st)
{
	INJECT();
	if (capturing(st))
		return capture_copy(st, (void *)(uintptr_t)d, (void *)(uintptr_t)s, n, NULL);
	if (!busy())
		return cuMemcpyDtoD_v2(d, s, n);
	GUARD();
	OWNED(d);
	OWNED(s);
	if (!F.fault_pending)
		queue_copy((void *)(uintptr_t)d, (void *)(uintptr_t)s, n, NULL);
	return OK;
}
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char c, size_t n) { INJECT(); GUARD(); OWNED(d); if (F.fault_pending) return sync_point(); drain(); memset((void *)(uintptr_t)d, c, n); return OK; }
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char c, size_t n, void *st)
{
	INJECT();
	GUARD();
	OWNED(d);
	if (capturing(st)) {
		struct node *nd = add_node(capturing(st), N_MEMSET);
		nd->dst = (void *)(uintptr_t)d;
		nd->byte = c;
		nd->n = n;
		return OK;
	}
	if (F.fault_pending)
		return OK;
	if (F.dma_mbps || busy())
		queue_set((void *)(uintptr_t)d, c, n);
	else
		memset((void *)(uintptr_t)d, c, n);
	return OK;
}

CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags)
{
	INJECT();
	GUARD();
	F.host_allocs++;
	*p = malloc(n ? n : 1);
	add_pinned((uintptr_t)*p, n);
	return OK;
}
CUresult cuMemFreeHost(void *p) { INJECT(); drain(); drop_pinned(p); free(p); return OK; }
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned flags)
{
	INJECT();
	GUARD();
	F.host_registers++;
	if (flags & 2 /* CU_MEMHOSTREGISTER_DEVICEMAP */)
		F.host_maps++;
	add_pinned((uintptr_t)p, n);
	return OK;
}
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned flags)
{
	INJECT();
	GUARD();
	if (!is_pinned(p, 1)) return E_INVALID_VALUE;
	*d = (CUdeviceptr)(uintptr_t)p;
	return OK;
}
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags)
{
	INJECT();
	if (flags != 1 && flags != 2) return E_INVALID_VALUE;
	CUresult r = cuMemAlloc_v2(p, n);
	if (r == OK) F.managed_allocs++;
	return r;
}
CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p)
{
	INJECT();
	GUARD();
	pthread_mutex_lock(&am);
	for (struct alloc *a = allocs; a; a = a->next)
		if ((uintptr_t)a->p <= p && p < (uintptr_t)a->p + a->n) {
			*base = (CUdeviceptr)(uintptr_t)a->p;
			*size = a->n;
			pthread_mutex_unlock(&am);
			return OK;
		}
	pthread_mutex_unlock(&am);
	return E_NOT_FOUND;
}
typedef struct { char reserved[64]; } CUipcMemHandle;
CUresult cuIpcGetMemHandle(CUipcMemHandle *h, CUdeviceptr p)
{
	INJECT();
	GUARD();
	memset(h, 0, sizeof *h);
	memcpy(h->reserved, "fake-ipc", 8);
	memcpy(h->reserved + 8, &p, sizeof p);
	F.ipc_gets++;
	return OK;
}
CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *p, CUipcMemHandle h, unsigned flags)
{
	INJECT();
	GUARD();
	if (memcmp(h.reserved, "fake-ipc", 8)) return E_INVALID_VALUE;
	memcpy(p, h.reserved + 8, sizeof *p);
	F.ipc_opens++;
	return OK;
}
CUresult cuIpcCloseMemHandle(CUdeviceptr p) { INJECT(); GUARD(); drain(); F.ipc_closes++; return OK; }
CUresult cuMemHostUnregister(void *p) { INJECT(); drain(); drop_pinned(p); return OK; }
CUresult cuPointerGetAttribute(void *data, int attr, CUdeviceptr p) { INJECT(); return E_INVALID_VALUE; }

enum { JIT_MAX_REGISTERS = 0, JIT_ERROR_LOG_BUFFER = 5, JIT_ERROR_LOG_BUFFER_SIZE = 6 };
#define FAKE_CUBIN "fake-cubin\n"

CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned n, int *opts, void **vals)
{
	INJECT();
	GUARD();
	char *log = NULL;
	size_t logsize = 0;
	F.max_registers = 0;
	for (unsigned i = 0; i < n; i++) {
		if (opts[i] == JIT_ERROR_LOG_BUFFER) log = vals[i];
		if (opts[i] == JIT_ERROR_LOG_BUFFER_SIZE) logsize = (size_t)(uintptr_t)vals[i];
		if (opts[i] == JIT_MAX_REGISTERS) F.max_registers = (long)(uintptr_t)vals[i];
	}
	if (!memcmp(image, "\177ELF", 4)) {         /* machine code: no compile */
		if (F.reject_cubin || memcmp((const char *)image + 4, FAKE_CUBIN, strlen(FAKE_CUBIN)))
			return E_INVALID_IMAGE;
		image = (const char *)image + 4 + strlen(FAKE_CUBIN);
		F.cubin_loads++;
	} else if (F.reject_ptx || !strstr(image, ".entry")) {
		if (log && logsize)
			strncpy(log, "ptxas fatal   : fake driver rejected this PTX (tests/fake_cuda)", logsize - 1);
		return E_INVALID_PTX;
	} else {
		F.ptx_loads++;
	}
	struct module *m = calloc(1, sizeof *m);
	m->ptx = strdup(image);
	m->gen = F.ctx_gen;
	m->ctx = current;
	*mod = m;
	F.module_loads++;
	return OK;
}

CUresult cuModuleUnload(void *mod)
{
	INJECT();
	struct module *m = mod;
	if (m && dead(m->gen))
		return E_INVALID_HANDLE;    /* went with its context (the fake leaks it) */
	drain();                        /* the driver waits for the module's kernels */
	F.module_unloads++;
	if (m) {
		free(m->ptx);
		free(m);
	}
	return OK;
}

CUresult cuModuleGetFunction(void **fn, void *mod, const char *name)
{
	INJECT();
	GUARD();
	struct module *m = mod;
	if (dead(m->gen))
		return E_INVALID_HANDLE;
	char pat[300];
	snprintf(pat, sizeof pat, ".entry %s(", name);
	if (!strstr(m->ptx, pat))
		return E_NOT_FOUND;
	struct function *f = malloc(sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	f->gen = F.ctx_gen;
	f->mod = m;
	*fn = f;
	return OK;
}

/* The error word of debug kernels: found when the PTX declares it. */
CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *n, void *mod, const char *name)
{
	INJECT();
	GUARD();
	struct module *m = mod;
	if (dead(m->gen))
		return E_INVALID_HANDLE;
	if (strcmp(name, "__pj_err") || !strstr(m->ptx, "__pj_err"))
		return E_NOT_FOUND;
	*p = (CUdeviceptr)(uintptr_t)m->err;
	*n = sizeof m->err;
	return OK;
}

#ifndef FAKE_NO_LINKER
/* The linker: its "machine code" is FAKE_CUBIN's header and the PTX. */
struct link { char *image; size_t n, first; char *log; size_t logsize; int others; };

CUresult cuLinkCreate_v2(unsigned n, int *opts, void **vals, void **state)
{
	INJECT();
	GUARD();
	struct link *l = calloc(1, sizeof *l);
	F.max_registers = 0;
	for (unsigned i = 0; i < n; i++) {
		if (opts[i] == JIT_MAX_REGISTERS) F.max_registers = (long)(uintptr_t)vals[i];
		if (opts[i] == JIT_ERROR_LOG_BUFFER) l->log = vals[i];
		if (opts[i] == JIT_ERROR_LOG_BUFFER_SIZE) l->logsize = (size_t)(uintptr_t)vals[i];
	}
	*state = l;
	return OK;
}

CUresult cuLinkAddData_v2(void *state, int type, void *data, size_t size, const char *name, unsigned n,
                          int *opts, void **vals)
{
	INJECT();
	GUARD();
	struct link *l = state;
	if (l->image) {                     /* an input after the kernel's PTX */
		if (type < 0 || type > 4 || !size)
			return E_INVALID_VALUE;
		F.link_inputs++;
		if (type != 1) {
			l->others++;
			return OK;
		}
		size_t m = strnlen(data, size);
		char *p = realloc(l->image, l->n + m + 1);
		if (!p)
			return E_INVALID_VALUE;
		memcpy(p + l->n - 1, data, m);
		p[l->n - 1 + m] = 0;
		l->image = p;
		l->n += m;
		return OK;
	}
	if (type != 1)                      /* CU_JIT_INPUT_PTX first */
		return E_INVALID_VALUE;
	if (F.reject_ptx || !strstr(data, ".entry")) {
		if (l->log && l->logsize)
			strncpy(l->log, "ptxas fatal   : fake linker rejected this PTX (tests/fake_cuda)", l->logsize - 1);
		return E_INVALID_PTX;
	}
	size_t h = 4 + strlen(FAKE_CUBIN), m = strlen(data) + 1;
	l->image = malloc(h + m);
	memcpy(l->image, "\177ELF", 4);
	memcpy(l->image + 4, FAKE_CUBIN, h - 4);
	memcpy(l->image + h, data, m);
	l->n = h + m;
	l->first = h + m - 1;
	return OK;
}

/* Is every `.extern .func ... NAME(` of the kernel's PTX defined by a
 * later PTX input?  The first one missing goes to the log. */
static int externs_resolved(struct link *l)
{
	const char *end = l->image + l->first;
	for (const char *p = strstr(l->image, ".extern .func "); p && p < end; p = strstr(p + 1, ".extern .func ")) {
		const char *q = p + 14;
		if (*q == '(' && (q = strchr(q, ')')))   /* the result: (.param .b32 r) NAME( */
			q++;
		while (q && *q == ' ')
			q++;
		size_t len = q ? strcspn(q, "( \n") : 0;
		char want[140];
		if (!len || len > 120)
			continue;
		snprintf(want, sizeof want, " %.*s(", (int)len, q);
		int found = 0;
		for (const char *d = strstr(end, ".func"); d && !found; d = strstr(d + 1, ".func")) {
			const char *nl = strchr(d, '\n'), *w = strstr(d, want);
			found = w && (!nl || w < nl) && (d - 8 < end || strncmp(d - 8, ".extern ", 8));
		}
		if (!found) {
			if (l->log && l->logsize)
				snprintf(l->log, l->logsize, "nvlink error   : Undefined reference to '%.*s' (tests/fake_cuda)",
				         (int)len, q);
			return 0;
		}
	}
	return 1;
}

CUresult cuLinkComplete(void *state, void **cubin, size_t *size)
{
	INJECT();
	GUARD();
	struct link *l = state;
	if (!l->image)
		return E_INVALID_VALUE;
	if (!l->others && !externs_resolved(l))
		return E_INVALID_PTX;
	F.links++;
	*cubin = l->image;
	*size = l->n;
	return OK;
}

CUresult cuLinkDestroy(void *state)
{
	INJECT();
	struct link *l = state;
	free(l->image);
	free(l);
	return OK;
}
#endif

CUresult cuFuncSetAttribute(void *fn, int attr, int v)
{
	INJECT();
	GUARD();
	if (attr == 9)                   /* CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT */
		F.carveout = v + 1;
	return OK;
}
/* max threads per block 1024, 256 bytes of static shared memory, 8 of
 * constant memory, 16 of local memory a thread, 32 registers a thread */
CUresult cuFuncGetAttribute(int *v, int attr, void *fn)
{
	static const int values[] = {1024, 256, 8, 16, 32};
	INJECT();
	GUARD();
	*v = attr >= 0 && attr < 5 ? values[attr] : 0;
	return OK;
}
/* as an SM of 2048 threads and 32 blocks, with the shared memory ignored */
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *fn, int block, size_t smem)
{
	INJECT();
	GUARD();
	*n = block <= 0 || block > 1024 ? 0 : 2048 / block < 32 ? 2048 / block : 32;
	return OK;
}
CUresult cuOccupancyMaxPotentialBlockSize(int *grid, int *block, void *fn, void *b2d, size_t smem, int limit)
{
	INJECT();
	GUARD();
	*grid = 132;
	*block = 768;
	return OK;
}

CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned smem, void *stream, void **params, void **extra)
{
	INJECT();
	GUARD();
	if (dev_of_ctx(current) < 0) return E_INVALID_CONTEXT;
	if (dead(((struct function *)fn)->gen) || (OURS(stream) && dead(((struct stream *)stream)->gen)))
		return E_INVALID_HANDLE;
	if (((struct function *)fn)->mod->ctx != current || (OURS(stream) && ((struct stream *)stream)->ctx != current)) {
		F.wrong_ctx++;
		return E_INVALID_CONTEXT;
	}
	F.launch_device = dev_of_ctx(current);
	if (capturing(stream)) {
		struct node *nd = add_node(capturing(stream), N_KERNEL);
		nd->fn = fn;
		nd->grid[0] = gx; nd->grid[1] = gy; nd->grid[2] = gz;
		nd->block[0] = bx; nd->block[1] = by; nd->block[2] = bz;
		nd->smem = smem;
		for (int i = 0; extra && extra[i] != (void *)0; i += 2) {
			if (extra[i] == (void *)1) nd->params = extra[i + 1];
			else if (extra[i] == (void *)2) nd->nparams = *(size_t *)extra[i + 1];
		}
		if (nd->params) {   /* the driver copies the parameters at the capture */
			unsigned char *p = malloc(nd->nparams ? nd->nparams : 1);
			memcpy(p, nd->params, nd->nparams);
			nd->params = p;
		}
		return OK;
	}
	F.launches++;
	int fault = 0;
	if (F.fault_on_launch) {
		F.fault_on_launch = 0;
		F.faults++;
		fault = 1;
	}
	F.grid[0] = gx; F.grid[1] = gy; F.grid[2] = gz;
	F.block[0] = bx; F.block[1] = by; F.block[2] = bz;
	F.smem = smem;
	F.stream = stream;
	snprintf(F.entry, sizeof F.entry, "%s", ((struct function *)fn)->name);
	struct module *m = ((struct function *)fn)->mod;
	if (F.trap_code && m && strstr(m->ptx, "__pj_err") && !m->err[0]) {
		uint32_t w[12] = {(uint32_t)F.trap_code, 3, 0, 0, 1, 0, 0, 0};
		memcpy(m->err, w, sizeof w);
	}
	F.nparams = 0;
	if (extra) {
		void *buf = NULL;
		size_t size = 0;
		for (int i = 0; extra[i] != (void *)0; i += 2) {
			if (extra[i] == (void *)1) buf = extra[i + 1];
			else if (extra[i] == (void *)2) size = *(size_t *)extra[i + 1];
			else return E_INVALID_VALUE;
		}
		if (!buf || size > sizeof F.params)
			return E_INVALID_VALUE;
		memcpy(F.params, buf, size);
		F.nparams = size;
		if (F.dma_mbps || busy()) {
			struct op *o = calloc(1, sizeof *o);
			o->kind = OP_KERNEL;
			o->nparams = size < sizeof o->params ? size : sizeof o->params;
			memcpy(o->params, buf, o->nparams);
			o->fault = fault;
			enqueue(o);
		} else {
			run_kernel(buf, size, fault);
		}
	} else if (fault) {
		F.fault_pending = 1;
	}
	return OK;
}

/* A driver refuses a cooperative grid larger than the device holds at once
 * (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE): here 132 SMs of 32 blocks. */
CUresult cuLaunchCooperativeKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned smem, void *stream, void **params)
{
	INJECT();
	GUARD();
	if (dev_of_ctx(current) < 0) return E_INVALID_CONTEXT;
	if (dead(((struct function *)fn)->gen) || (OURS(stream) && dead(((struct stream *)stream)->gen)))
		return E_INVALID_HANDLE;
	int per_sm = 0;
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)(bx * by * bz), smem);
	if ((unsigned long long)gx * gy * gz > (unsigned long long)per_sm * 132)
		return 720;
	if (!params)
		return E_INVALID_VALUE;
	F.launches++;
	F.coop_launches++;
	F.grid[0] = gx; F.grid[1] = gy; F.grid[2] = gz;
	F.block[0] = bx; F.block[1] = by; F.block[2] = bz;
	F.smem = smem;
	F.stream = stream;
	F.nparams = 0;
	snprintf(F.entry, sizeof F.entry, "%s", ((struct function *)fn)->name);
	return OK;
}

#ifndef FAKE_OLD_DRIVER
CUresult cuLaunchHostFunc(void *stream, void (*fn)(void *), void *arg)
{
	INJECT();
	GUARD();
	F.host_funcs++;
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_HOST;
	o->fn = fn;
	o->arg = arg;
	enqueue(o);
	return OK;
}
#endif

CUresult cuStreamCreate(void **s, unsigned flags)
{
	INJECT();
	GUARD();
	struct stream *st = calloc(1, sizeof *st);
	st->gen = F.ctx_gen;
	st->ctx = current;
	*s = st;
	return OK;
}
CUresult cuStreamSynchronize(void *s)
{
	INJECT();
	if (capturing(s)) {
		((struct stream *)s)->invalid = 1;
		return E_CAPTURE_UNSUPPORTED;
	}
	if (OURS(s) && dead(((struct stream *)s)->gen))
		return E_INVALID_HANDLE;
	return sync_point();
}
CUresult cuStreamQuery(void *s)
{
	INJECT();
	GUARD();
	if (F.fault_pending)
		return sync_point();
	return qhead ? E_NOT_READY : OK;
}
CUresult cuStreamWaitEvent(void *s, void *e, unsigned flags) { INJECT(); GUARD(); F.stream_waits++; return OK; }
CUresult cuStreamDestroy_v2(void *s)
{
	INJECT();
	if (OURS(s) && dead(((struct stream *)s)->gen))
		return E_INVALID_HANDLE;   /* went with its context (the fake leaks it) */
	if (OURS(s))
		drain();   /* the driver returns at once and frees it later; waiting is the stricter model */
	free(s);
	return OK;
}

CUresult cuEventCreate(void **e, unsigned flags)
{
	INJECT();
	GUARD();
	struct event *ev = calloc(1, sizeof *ev);
	ev->gen = F.ctx_gen;
	*e = ev;
	return OK;
}
CUresult cuEventRecord(void *e, void *s)
{
	INJECT();
	GUARD();
	struct event *ev = e;
	if (dead(ev->gen))
		return E_INVALID_HANDLE;
	ev->recorded = 1;
	if (!F.dma_mbps && !busy()) {
		ev->t = now_ms();
		return OK;
	}
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_EVENT;
	o->ev = ev;
	pthread_mutex_lock(&qm);
	ev->pending = 1;
	pthread_mutex_unlock(&qm);
	enqueue(o);
	return OK;
}

CUresult cuEventSynchronize(void *e)
{
	INJECT();
	struct event *ev = e;
	GUARD();
	if (dead(ev->gen))
		return E_INVALID_HANDLE;
	if (!F.dma_mbps)
		return sync_point();
	F.syncs++;
	pthread_mutex_lock(&qm);
	if (ev->pending && qhosts)
		F.host_waits++;
	while (ev->pending)
		pthread_cond_wait(&qdone, &qm);
	pthread_mutex_unlock(&qm);
	if (F.fault_pending) {
		F.fault_pending = 0;
		F.sticky = 1;
		return E_ILLEGAL_ADDRESS;
	}
	return OK;
}

/* an unrecorded event is "done" */
CUresult cuEventQuery(void *e)
{
	INJECT();
	GUARD();
	if (F.fault_pending)
		return sync_point();
	return ((struct event *)e)->pending ? E_NOT_READY : OK;
}

CUresult cuEventElapsedTime(float *ms, void *a, void *b)
{
	INJECT();
	GUARD();
	struct event *x = a, *y = b;
	if (!x->recorded || !y->recorded)
		return E_INVALID_VALUE;
	*ms = (float)(y->t - x->t);
	return OK;
}

CUresult cuEventDestroy_v2(void *e)
{
	INJECT();
	if (e && dead(((struct event *)e)->gen))
		return E_INVALID_HANDLE;   /* went with its context (the fake leaks it) */
	free(e);
	return OK;
}

/* ------------------------------------------------- several devices */

CUresult cuDeviceCanAccessPeer(int *can, int dev, int peer)
{
	INJECT();
	if (!F.inited) return E_NOT_INITIALIZED;
	if (dev < 0 || dev >= F.ndev || peer < 0 || peer >= F.ndev) return E_INVALID_DEVICE;
	*can = dev != peer && !F.no_peer;
	return OK;
}

CUresult cuCtxEnablePeerAccess(void *peer, unsigned flags)
{
	INJECT();
	GUARD();
	int a = dev_of_ctx(current), b = dev_of_ctx(peer);
	if (a < 0 || b < 0 || a == b || F.no_peer) return E_INVALID_VALUE;
	if (F.peer_on[a][b]) return 704;   /* CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED */
	F.peer_on[a][b] = 1;
	F.peer_enables++;
	return OK;
}

CUresult cuMemcpyPeer(CUdeviceptr d, void *dctx, CUdeviceptr s, void *sctx, size_t n)
{
	INJECT();
	GUARD();
	if (ctx_of_ptr((uintptr_t)d) != dctx || ctx_of_ptr((uintptr_t)s) != sctx || dev_of_ctx(dctx) < 0 ||
	    dev_of_ctx(sctx) < 0) {
		F.wrong_ctx++;
		return E_INVALID_CONTEXT;
	}
	if (F.fault_pending) return sync_point();
	drain();
	F.peer_copies++;
	memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n);
	return OK;
}

CUresult cuMemcpyPeerAsync(CUdeviceptr d, void *dctx, CUdeviceptr s, void *sctx, size_t n, void *st)
{
	INJECT();
	if (!busy())
		return cuMemcpyPeer(d, dctx, s, sctx, n);
	GUARD();
	if (ctx_of_ptr((uintptr_t)d) != dctx || ctx_of_ptr((uintptr_t)s) != sctx || dev_of_ctx(dctx) < 0 ||
	    dev_of_ctx(sctx) < 0) {
		F.wrong_ctx++;
		return E_INVALID_CONTEXT;
	}
	F.peer_copies++;
	if (!F.fault_pending)
		queue_copy((void *)(uintptr_t)d, (void *)(uintptr_t)s, n, NULL);
	return OK;
}

/* ------------------------------------------------------------- graphs */

CUresult cuStreamBeginCapture_v2(void *s, int mode)
{
	INJECT();
	GUARD();
	if (!OURS(s))
		return E_CAPTURE_UNSUPPORTED;
	struct stream *st = s;
	if (st->cap)
		return E_INVALID_VALUE;
	st->cap = calloc(1, sizeof *st->cap);
	st->invalid = 0;
	return OK;
}

static void free_graph(struct graph *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->n; i++)
		free(g->nodes[i].params);
	free(g->nodes);
	free(g);
}

CUresult cuStreamEndCapture(void *s, void **graph)
{
	INJECT();
	*graph = NULL;
	if (!capturing(s))
		return E_INVALID_VALUE;
	struct stream *st = s;
	struct graph *g = st->cap;
	st->cap = NULL;
	if (st->invalid) {
		free_graph(g);
		return E_CAPTURE_INVALIDATED;
	}
	*graph = g;
	return OK;
}

CUresult cuStreamIsCapturing(void *s, int *status)
{
	INJECT();
	*status = capturing(s) ? (((struct stream *)s)->invalid ? 2 : 1) : 0;
	return OK;
}

CUresult cuGraphGetNodes(void *graph, void **nodes, size_t *n)
{
	INJECT();
	*n = (size_t)((struct graph *)graph)->n;
	return OK;
}

/* A copy of graph's nodes (the parameter buffers too) into exec. */
static void copy_graph(struct graph *exec, const struct graph *graph)
{
	for (int i = 0; i < exec->n; i++)
		free(exec->nodes[i].params);
	exec->n = 0;
	for (int i = 0; i < graph->n; i++) {
		struct node *nd = add_node(exec, graph->nodes[i].kind);
		F.graph_nodes--;
		*nd = graph->nodes[i];
		if (nd->params) {
			nd->params = malloc(nd->nparams ? nd->nparams : 1);
			memcpy(nd->params, graph->nodes[i].params, nd->nparams);
		}
	}
}

CUresult cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags)
{
	INJECT();
	GUARD();
	struct graph *x = calloc(1, sizeof *x);
	copy_graph(x, graph);
	F.graph_instantiates++;
	*exec = x;
	return OK;
}

CUresult cuGraphExecUpdate_v2(void *exec, void *graph, void *info)
{
	INJECT();
	struct graph *x = exec, *g = graph;
	int same = x->n == g->n;
	for (int i = 0; i < x->n && same; i++)
		same = x->nodes[i].kind == g->nodes[i].kind && x->nodes[i].fn == g->nodes[i].fn;
	if (!same) {
		if (info)
			*(int *)info = 2;   /* CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED */
		return E_GRAPH_UPDATE;
	}
	copy_graph(x, g);
	F.graph_updates++;
	return OK;
}

CUresult cuGraphLaunch(void *exec, void *stream)
{
	INJECT();
	GUARD();
	struct graph *x = exec;
	F.graph_launches++;
	for (int i = 0; i < x->n; i++) {
		struct node *nd = &x->nodes[i];
		CUresult r = OK;
		if (nd->kind == N_KERNEL) {
			size_t size = nd->nparams;
			void *extra[] = {(void *)1, nd->params, (void *)2, &size, (void *)0};
			r = cuLaunchKernel(nd->fn, nd->grid[0], nd->grid[1], nd->grid[2], nd->block[0], nd->block[1],
			                   nd->block[2], nd->smem, stream, NULL, nd->params ? extra : NULL);
		} else if (nd->kind == N_MEMSET) {
			r = cuMemsetD8Async((CUdeviceptr)(uintptr_t)nd->dst, (unsigned char)nd->byte, nd->n, stream);
		} else if (capturing(stream)) {
			r = capture_copy(stream, nd->dst, nd->src, nd->n, NULL);
		} else {
			if (F.fault_pending)
				continue;
			if (F.dma_mbps || busy())
				queue_copy(nd->dst, nd->src, nd->n, NULL);
			else
				memmove(nd->dst, nd->src, nd->n);
		}
		if (r)
			return r;
	}
	return OK;
}

CUresult cuGraphDestroy(void *graph) { INJECT(); free_graph(graph); return OK; }
CUresult cuGraphExecDestroy(void *exec) { INJECT(); free_graph(exec); return OK; }

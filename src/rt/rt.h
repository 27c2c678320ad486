/*
 * rt.h - the runtime: the CUDA driver opened with dlopen, or the simulator.
 *
 * The runtime owns everything that touches a device: the driver's entry
 * points, the primary context of one device, a caching allocator for
 * device memory, pinned host memory, streams, events, loaded modules,
 * launches, and the copies of a launch's NumPy arguments (xfer.c).  It
 * is plain C (no Python, no CUDA headers): the few driver types and
 * prototypes it needs are declared here.
 *
 * One Rt serves one device of the process (the Python module holds one
 * per device it uses; each Rt's objects belong to its context, and every
 * call makes that context current before it touches the driver, so the
 * thread's current device does not matter to them).  It has two backends
 * chosen when it is made:
 *
 *   GPU   libcuda.so.1 is opened at the first call that needs it (never
 *         before), the primary context is retained and made current in
 *         each thread that calls in.  Every CUresult is checked; an error
 *         carries the driver's name for it and the operation.
 *   SIM   "device" memory is host memory, copies are memcpy, streams and
 *         events are tokens (work runs at once, so every queue is in
 *         order), launches run the kernel's simulator program.
 *
 * Device pointers are CUdeviceptr in both (host addresses in SIM).
 * Functions return 0 on success and -1 with *e filled on failure.  The
 * caller serialises calls (the Python layer holds the GIL, except around
 * the calls that may wait for the device (src/py/py.h, NOGIL, lists
 * them), simulator runs and the launch copies of xfer.c, which take
 * their own locks).  rt->lock is never held across a driver call that
 * waits for the device: a stream callback, which holds the GIL, may be
 * what the driver waits for, and may want the lock (an array it drops).
 */
#ifndef PTXJIT_RT_H
#define PTXJIT_RT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../ptxjit.h"

/* ------------------------------------------------ driver types we need */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_DEINITIALIZED = 4,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_CONTEXT = 201,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_NOT_READY = 600,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
	CUDA_ERROR_LAUNCH_TIMEOUT = 702,
	CUDA_ERROR_ASSERT = 710,
	CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
	CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
	CUDA_ERROR_MISALIGNED_ADDRESS = 716,
	CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
	CUDA_ERROR_INVALID_PC = 718,
	CUDA_ERROR_LAUNCH_FAILED = 719,
};

/* CUdevice_attribute values used by name in the runtime. */
enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
	CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

/* The entry points, resolved by name with dlsym. */
typedef struct RtDriver {
	CUresult (*cuInit)(unsigned);
	CUresult (*cuDriverGetVersion)(int *);
	CUresult (*cuGetErrorName)(CUresult, const char **);
	CUresult (*cuGetErrorString)(CUresult, const char **);
	CUresult (*cuDeviceGetCount)(int *);
	CUresult (*cuDeviceGet)(CUdevice *, int);
	CUresult (*cuDeviceGetName)(char *, int, CUdevice);
	CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
	CUresult (*cuDeviceTotalMem_v2)(size_t *, CUdevice);
	CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
	CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice);
	CUresult (*cuDevicePrimaryCtxReset_v2)(CUdevice);
	CUresult (*cuCtxSetCurrent)(CUcontext);
	CUresult (*cuCtxGetCurrent)(CUcontext *);
	CUresult (*cuCtxSynchronize)(void);
	CUresult (*cuMemGetInfo_v2)(size_t *, size_t *);
	CUresult (*cuMemAlloc_v2)(CUdeviceptr *, size_t);
	CUresult (*cuMemFree_v2)(CUdeviceptr);
	CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr, const void *, size_t);
	CUresult (*cuMemcpyDtoH_v2)(void *, CUdeviceptr, size_t);
	CUresult (*cuMemcpyDtoD_v2)(CUdeviceptr, CUdeviceptr, size_t);
	CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr, const void *, size_t, CUstream);
	CUresult (*cuMemcpyDtoHAsync_v2)(void *, CUdeviceptr, size_t, CUstream);
	CUresult (*cuMemcpyDtoDAsync_v2)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
	CUresult (*cuMemsetD8_v2)(CUdeviceptr, unsigned char, size_t);
	CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
	CUresult (*cuMemFreeHost)(void *);
	CUresult (*cuMemHostRegister_v2)(void *, size_t, unsigned);
	CUresult (*cuMemHostUnregister)(void *);
	CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
	CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
	CUresult (*cuModuleUnload)(CUmodule);
	CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
	CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
	CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
	CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
	                           unsigned, unsigned, CUstream, void **, void **);
	CUresult (*cuStreamCreate)(CUstream *, unsigned);
	CUresult (*cuStreamSynchronize)(CUstream);
	CUresult (*cuStreamQuery)(CUstream);
	CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
	CUresult (*cuStreamDestroy_v2)(CUstream);
	CUresult (*cuEventCreate)(CUevent *, unsigned);
	CUresult (*cuEventRecord)(CUevent, CUstream);
	CUresult (*cuEventSynchronize)(CUevent);
	CUresult (*cuEventQuery)(CUevent);
	CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
	CUresult (*cuEventDestroy_v2)(CUevent);
	CUresult (*cuLaunchHostFunc)(CUstream, void (*)(void *), void *);
	CUresult (*cuOccupancyMaxPotentialBlockSize)(int *, int *, CUfunction, size_t (*)(int), size_t, int);
	CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
	CUresult (*cuDeviceCanAccessPeer)(int *, CUdevice, CUdevice);
	CUresult (*cuCtxEnablePeerAccess)(CUcontext, unsigned);
	CUresult (*cuMemcpyPeer)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t);
	CUresult (*cuMemcpyPeerAsync)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t, CUstream);
} RtDriver;

/* ------------------------------------------------------------- errors */

enum {
	RT_E_NODRIVER = -1,   /* libcuda.so.1 could not be opened */
	RT_E_SYMBOL = -2,     /* an entry point is missing from the driver */
	RT_E_NODEVICE = -3,   /* the driver sees no device */
	RT_E_HOSTMEM = -4,    /* out of host memory */
	RT_E_STALE = -5,      /* an object from before cuda.close() */
	RT_E_SIM = -6,        /* the simulator stopped the kernel: sim holds PJ_SIM_* */
	RT_E_ARG = -7,        /* a bad argument reached the runtime */
	RT_E_FORKED = -8,     /* this process is a fork() child of one that used the driver */
};

typedef struct RtErr {
	int code;             /* CUresult (> 0) or RT_E_* (< 0) */
	int sim;              /* PJ_SIM_* when code is RT_E_SIM */
	int sticky;           /* the context cannot be used any more */
	char name[64];        /* "CUDA_ERROR_ILLEGAL_ADDRESS", "no driver", ... */
	char msg[3072];       /* the whole message */
} RtErr;

/* ---------------------------------------------------------- the state */

#define RT_NBINS 200

typedef struct RtBlock {
	CUdeviceptr ptr;
	struct RtBlock *next;
} RtBlock;

/* Freed device blocks kept for reuse, one list per size class. */
typedef struct RtCache {
	RtBlock *bin[RT_NBINS];
	RtBlock *spare;            /* unused list nodes */
	size_t cached_bytes;       /* in the bins */
	size_t live_bytes;         /* handed out and not released */
	size_t driver_allocs;      /* cuMemAlloc calls (or host allocations in SIM) */
	size_t hits;               /* allocations served from the cache */
} RtCache;

typedef struct RtPinned {
	void *p;
	size_t n;
} RtPinned;

/* A pinned staging buffer for asynchronous copies from pageable memory. */
typedef struct RtStage {
	void *p;
	size_t cap;
	CUevent done;              /* recorded after the copy that reads p */
} RtStage;

#define RT_NSTAGE 8

/* One buffer of the ring that carries the copies of a launch's NumPy
 * arguments (xfer.c): pinned memory and the event that says when the
 * DMA that last used it is over. */
typedef struct RtSlot {
	unsigned char *p;
	CUevent done;
	int busy;                  /* done was recorded and not waited for yet */
} RtSlot;

#define RT_RING 4
#define RT_MAXCOPY 16          /* memcpy threads, the caller included */

typedef struct RtPool RtPool;

/* How launches move NumPy arguments (rt_set_transfer). */
enum {
	RT_XFER_STAGED,            /* chunks through the pinned ring, DMA and memcpy overlapped */
	RT_XFER_DRIVER,            /* cuMemcpy*Async straight from pageable memory */
	RT_XFER_REGISTER,          /* big arrays page-locked for the launch, small ones staged */
};

enum { RT_UNINIT, RT_READY, RT_FAILED };

#define RT_MAXDEV 16           /* devices one process uses */

typedef struct Rt {
	int sim;                   /* SIM backend */
	int sim_check;             /* PJ_SIM_UNINIT | PJ_SIM_RACE */
	int state;                 /* RT_UNINIT, RT_READY, RT_FAILED */
	RtErr init_err;            /* why initialisation failed (RT_FAILED) */
	unsigned gen;              /* bumps at rt_close: older handles are stale */
	int sticky;                /* a sticky error was seen in this context */
	RtErr lost;                /* that error (sticky): what later calls report */
	int auto_reset;            /* PTXJIT_RESET_ON_FAULT: the next call after a
	                              sticky error resets the context itself */
	unsigned resets;           /* contexts reset after a sticky error */
	void *lib;                 /* dlopen handle */
	RtDriver d;
	int devnum;                /* the device's ordinal (cuDeviceGet) */
	CUdevice dev;
	CUcontext ctx;
	unsigned peer_gen[RT_MAXDEV]; /* peer access to device j's context of
	                              generation peer_gen[j] - 1 is on (0: not tried) */
	int driver_version;        /* 12080 for 12.8; 0 in SIM */
	int cc_major, cc_minor;
	int sm_count;
	int max_threads, max_block[3], max_grid[3];
	int max_smem_block, max_smem_optin;
	size_t total_mem;
	char devname[256];
	pthread_mutex_t lock;      /* the allocator cache and pinned list */
	RtCache cache;
	RtPinned *pinned;
	int npinned, cappinned;
	uintptr_t next_token;      /* SIM: stream handles */
	/* SIM: the host blocks the allocator holds, live or cached, sorted
	 * by address (rt_sim_holds); sim_lock guards them */
	pthread_mutex_t sim_lock;
	struct RtSimBlock {
		uintptr_t lo;
		size_t len;
		size_t used;       /* the bytes the last rt_alloc of it asked for (its array's) */
		int fd;            /* the memfd it is shared through (rt_sim_share), or -1 */
	} *simblk;
	int nsim, capsim;
	RtStage stage[RT_NSTAGE];
	int nstage;
	size_t staged_copies;      /* copies that went through a staging buffer */
	/* launch transfers (xfer.c) */
	pthread_mutex_t xfer_lock; /* the ring */
	RtSlot ring[RT_RING];
	int nring;                 /* slots made (0 until the first transfer) */
	int ring_next;             /* the slot to use next */
	size_t chunk;              /* bytes of a slot */
	int xfer_mode;             /* RT_XFER_* */
	int copy_threads;          /* memcpy threads for big pieces, the caller included */
	RtPool *pool;
	size_t xfer_bytes[2];      /* bytes moved to / from the device by rt_put / rt_get */
	size_t xfer_dmas;          /* cuMemcpy*Async calls they made */
	CUevent order_ev;          /* rt_stream_order's event */
	struct RtGraph *capture;   /* the graph being captured (graph.c), or NULL */
	struct RtGraphDriver *gd;  /* graph.c: its entry points, resolved at first use */
} Rt;

typedef struct RtMemStats {
	size_t cached_bytes, live_bytes, driver_allocs, hits;
	size_t cached_blocks;   /* blocks freed by their arrays, kept for reuse, not yet given back to the driver */
} RtMemStats;

/* driver.c: loading, the device and its context, errors */
/* The runtime of device `devnum` (nothing is loaded yet). */
Rt *rt_new(int sim, int sim_check, int devnum);
/* The devices the driver sees (1 in SIM); loads and initialises the
 * driver, retains no context. */
int rt_device_count(Rt *rt, int *n, RtErr *e);
/* Lets kernels and copies of rt's context reach peer's memory directly,
 * where cuDeviceCanAccessPeer says the hardware can (*on says whether
 * it is on); once per pair of contexts. */
int rt_enable_peer(Rt *rt, Rt *peer, int *on, RtErr *e);
/* Turns a runtime that has not used the driver yet into the simulator's;
 * -1 when the driver is in use (a context is held). */
int rt_use_sim(Rt *rt);
/* Makes the runtime usable from the calling thread: loads the driver and
 * retains the context the first time.  Every other call does this itself. */
int rt_enter(Rt *rt, RtErr *e);
/* 1 if a device can be used (tries to initialise; no error). */
int rt_available(Rt *rt);
int rt_device_attr(Rt *rt, int attr, int *out, RtErr *e);
int rt_mem_info(Rt *rt, size_t *free_b, size_t *total_b, RtErr *e);
int rt_sync(Rt *rt, RtErr *e);
/* Waits for the context's work when the runtime holds a working context
 * (it makes none, reports nothing): what rt_close is about to wait for,
 * done first without the GIL so that stream callbacks can run. */
void rt_settle(Rt *rt);
/* Frees the cached memory and releases the context (resets it after a
 * sticky error); the next call starts afresh.  Arrays, streams, events
 * and modules made before become stale.  After a sticky error every call
 * but rt_close fails with rt->lost, without calling the driver (or, with
 * rt->auto_reset, rt_enter resets the context and goes on). */
int rt_close(Rt *rt, RtErr *e);
/* 1 when the context is lost to a sticky error and not reset yet. */
int rt_lost(Rt *rt);
/* Fills *e from a CUresult: "NAME (code) in <op>: <driver's text>". */
int rt_fail(Rt *rt, RtErr *e, CUresult r, const char *fmt, ...);
int rt_fail_rt(RtErr *e, int code, const char *name, const char *fmt, ...);
/* The library path tried (PTXJIT_LIBCUDA overrides libcuda.so.1). */
const char *rt_libcuda_name(void);

/* mem.c: the caching allocator, copies, pinned host memory */
/* Rounds n up to its size class (what rt_alloc really reserves). */
size_t rt_size_class(size_t n, int *bin);
int rt_alloc(Rt *rt, size_t n, CUdeviceptr *p, RtErr *e);
/* SIM: do the len bytes at lo lie inside one block of simulated device
 * memory (so that memory another library describes may be read)? */
int rt_sim_holds(Rt *rt, uint64_t lo, uint64_t len);
/* SIM: the allocation that address a points into (or just past): its
 * first byte and the bytes its rt_alloc asked for; 0 if a lies in none. */
int rt_sim_block(Rt *rt, uint64_t a, uint64_t *lo, uint64_t *len);
/* Returns a block to the cache: n is the size asked for at rt_alloc; gen
 * the generation the block came from (stale blocks are dropped). */
void rt_release(Rt *rt, CUdeviceptr p, size_t n, unsigned gen);
void rt_trim(Rt *rt);         /* frees every cached block */
void rt_free_stages(Rt *rt);  /* frees the staging buffers (the context is about to go; takes rt->lock) */
void rt_mem_stats(Rt *rt, RtMemStats *s);
/* Copies: async 0 waits for the copy; 1 queues it on stream s (from
 * pageable memory through a staging buffer, so the call returns at once);
 * 2 queues it on s without staging (the call may wait, the source may be
 * reused when it returns). */
int rt_htod(Rt *rt, CUdeviceptr dst, const void *src, size_t n, CUstream s, int async, RtErr *e);
int rt_dtoh(Rt *rt, void *dst, CUdeviceptr src, size_t n, CUstream s, int async, RtErr *e);
int rt_dtod(Rt *rt, CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s, int async, RtErr *e);
/* A copy from src of device `from` to dst of device `to` (cuMemcpyPeer),
 * queued on stream s of `to`'s context when async; peer access is
 * enabled both ways first where the hardware has it. */
int rt_peer_copy(Rt *to, CUdeviceptr dst, Rt *from, CUdeviceptr src, size_t n, CUstream s, int async, RtErr *e);
int rt_memset(Rt *rt, CUdeviceptr dst, int byte, size_t n, RtErr *e);
/* A copy to pageable host memory that completes on its stream: a DMA
 * into a staging buffer, then a host function (run by the driver when
 * the stream gets there) copies the bytes to dst and sets done. */
typedef struct RtHostCopy {
	void *dst;
	const void *src;
	size_t n;
	atomic_int done;
} RtHostCopy;
/* Queues a device-to-host copy on stream s and returns at once.  When
 * *job comes back non-NULL, dst must stay valid until job->done is 1;
 * then the caller frees the job.  (Pinned destinations and small copies
 * go to cuMemcpyDtoHAsync as they are, *job NULL.) */
int rt_dtoh_async(Rt *rt, void *dst, CUdeviceptr src, size_t n, CUstream s, RtHostCopy **job, RtErr *e);
/* Page-aligned pinned host memory; mapped into the device too when dev
 * is not NULL (*dev: where kernels reach it). */
int rt_host_alloc(Rt *rt, size_t n, void **p, CUdeviceptr *dev, RtErr *e);
void rt_host_free(Rt *rt, void *p);
int rt_host_register(Rt *rt, void *p, size_t n, RtErr *e);
int rt_host_unregister(Rt *rt, void *p, RtErr *e);
int rt_is_pinned(Rt *rt, const void *p, size_t n);
enum { RT_HOSTREG_PORTABLE = 1, RT_HOSTREG_DEVICEMAP = 2 };
/* Registers host memory mapped into the device (pinned too); *dev is
 * where kernels reach it.  rt_host_unregister undoes it. */
int rt_host_map(Rt *rt, void *p, size_t n, CUdeviceptr *dev, RtErr *e);

/* SIM: shares the pages of the allocator's block holding [lo, lo+len)
 * through a memfd that another process maps (/proc/PID/fd/FD): *fd, the
 * block's page-aligned *base and mapped *size.  The block stays shared
 * until it is freed. */
int rt_sim_share(Rt *rt, uint64_t lo, uint64_t len, int *fd, uint64_t *base, size_t *size, RtErr *e);

/* memkind.c: managed memory and IPC handles, through driver entry points
 * looked up when first used. */
/* A driver entry point by name; NULL (and *e says so) in SIM or when missing. */
void *rt_driver_sym(Rt *rt, const char *name, RtErr *e);
/* Managed (unified) memory, zeroed in SIM; global: CU_MEM_ATTACH_GLOBAL,
 * else CU_MEM_ATTACH_HOST.  *gen is the context generation to free it in. */
int rt_managed_alloc(Rt *rt, size_t n, int global, CUdeviceptr *p, unsigned *gen, RtErr *e);
void rt_managed_free(Rt *rt, CUdeviceptr p, unsigned gen);
#define RT_IPC_HANDLE 64
/* The IPC handle of the allocation holding p, its base and size. */
int rt_ipc_get(Rt *rt, CUdeviceptr p, unsigned char h[RT_IPC_HANDLE], CUdeviceptr *base, size_t *size, RtErr *e);
/* Opens another process's allocation; rt_ipc_close lets go of it. */
int rt_ipc_open(Rt *rt, const unsigned char h[RT_IPC_HANDLE], CUdeviceptr *p, unsigned *gen, RtErr *e);
void rt_ipc_close(Rt *rt, CUdeviceptr p, unsigned gen);

/* xfer.c: the copies of a launch's host (NumPy) arguments.  A piece of
 * host memory and the device memory it goes to or comes from. */
typedef struct RtXfer {
	void *host;
	CUdeviceptr dev;
	size_t n;
	int reg;                  /* set to 1 by rt_put, 2 by rt_get, when it registered host */
} RtXfer;
/* Queues the copies of x[0..n) to the device on stream s.  Pageable
 * memory goes in chunks through the pinned ring: the memcpy of one
 * chunk overlaps the DMA of the one before.  Returns when every pageable
 * source has been read; pinned sources are read by the DMA itself, so
 * they must not change before the stream gets there. */
int rt_put(Rt *rt, RtXfer *x, int n, CUstream s, RtErr *e);
/* Copies x[0..n) back from the device after the work queued on s (the
 * ring again, DMA and memcpy overlapped), then waits for the stream:
 * when it returns the data is in host memory and s is idle. */
int rt_get(Rt *rt, RtXfer *x, int n, CUstream s, RtErr *e);
/* In RT_XFER_REGISTER mode rt_put and rt_get page-lock big host arrays
 * (cuMemHostRegister) and copy them without staging; this undoes the
 * registrations marked `which` (1: rt_put's, 2: rt_get's) once the
 * stream has passed the copies. */
void rt_unregister_xfers(Rt *rt, RtXfer *x, int n, int which);
/* Settings: mode RT_XFER_*, chunk bytes per slot (64 KiB to 64 MiB),
 * threads for memcpy (1 to RT_MAXCOPY); a value < 0 keeps the setting.
 * The defaults come from PTXJIT_TRANSFER ("staged", "register", "driver"),
 * PTXJIT_STAGE_CHUNK and PTXJIT_COPY_THREADS. */
int rt_set_transfer(Rt *rt, int mode, long chunk, int threads, RtErr *e);
void rt_free_ring(Rt *rt);    /* the context is about to go */
void rt_xfer_init(Rt *rt);    /* the settings from the environment (rt_new) */

/* stream.c: streams, events, modules and launches */
int rt_stream_new(Rt *rt, CUstream *s, RtErr *e);
int rt_stream_sync(Rt *rt, CUstream s, RtErr *e);
int rt_stream_query(Rt *rt, CUstream s, int *done, RtErr *e);
/* Makes work queued on `later` from now on wait for the work queued on
 * `first` so far (an event recorded on one, waited for by the other);
 * the host does not wait. */
int rt_stream_order(Rt *rt, CUstream first, CUstream later, RtErr *e);
void rt_stream_free(Rt *rt, CUstream s, unsigned gen);
/* Queues fn(arg) on s, run by a driver thread when the stream's earlier
 * work is done (cuLaunchHostFunc); the simulator runs it now. */
int rt_stream_host_func(Rt *rt, CUstream s, void (*fn)(void *), void *arg, RtErr *e);

typedef struct RtEvent {
	CUevent ev;
	unsigned gen;
	int timing;
	int recorded;
	double t_ms;              /* SIM: host time of the record, in ms */
} RtEvent;
int rt_event_new(Rt *rt, RtEvent *ev, int timing, RtErr *e);
int rt_event_record(Rt *rt, RtEvent *ev, CUstream s, RtErr *e);
int rt_event_sync(Rt *rt, RtEvent *ev, RtErr *e);
int rt_event_query(Rt *rt, RtEvent *ev, int *done, RtErr *e);
int rt_event_wait(Rt *rt, RtEvent *ev, CUstream s, RtErr *e);
int rt_event_elapsed(Rt *rt, RtEvent *a, RtEvent *b, float *ms, RtErr *e);
void rt_event_free(Rt *rt, RtEvent *ev);

/* A compiled kernel as the runtime sees it: the compiler's output and,
 * on the GPU, the module loaded from its PTX in the current context. */
/* Code linked with a kernel's PTX by the driver's linker (link.c): an
 * external function's definition (cuda.declare_device(link=...)).  type
 * is the driver's CUjitInputType (RT_LINK_*); name is for messages. */
enum { RT_LINK_CUBIN = 0, RT_LINK_PTX = 1, RT_LINK_FATBIN = 2, RT_LINK_OBJECT = 3, RT_LINK_LIBRARY = 4 };
typedef struct RtLinkInput {
	int type;
	const void *data;
	size_t size;
	const char *name;
} RtLinkInput;

typedef struct RtKernel {
	const PjKernel *pk;
	const RtLinkInput *links; /* linked with the PTX when nlinks (the owner keeps them) */
	int nlinks;
	CUmodule mod;
	CUfunction fn;
	unsigned gen;             /* the context generation mod belongs to */
	int loaded;
	int max_registers;        /* CU_JIT_MAX_REGISTERS, 0: the driver's choice */
	int dyn_smem_set;         /* the dynamic shared memory limit set on fn */
	/* a cooperative kernel (PjKernel.cooperative): the event after its last
	 * launch, on coop_stream in context generation coop_gen; a launch on
	 * another stream waits for it, since launches share the grid's
	 * barrier word */
	CUevent coop_done;
	CUstream coop_stream;
	unsigned coop_gen;
	int carveout;             /* shared_memory_carveout: 1 + the percentage (0 .. 100); 0: the driver's default */
	char log[4096];           /* the driver's JIT log of the last load */
} RtKernel;
int rt_kernel_load(Rt *rt, RtKernel *k, RtErr *e);
/* The function attributes a load sets on k->fn (the shared memory carveout). */
int rt_kernel_set_attrs(Rt *rt, RtKernel *k, RtErr *e);
int rt_launch(Rt *rt, RtKernel *k, const unsigned grid[3], const unsigned block[3],
              unsigned smem, CUstream s, void *params, size_t nbytes, RtErr *e);
int rt_kernel_attr(Rt *rt, RtKernel *k, int attr, int *out, RtErr *e);
/* The block size that gives the kernel the most resident threads with
 * `smem` bytes of dynamic shared memory (the occupancy calculator). */
int rt_kernel_max_block(Rt *rt, RtKernel *k, size_t smem, int *tpb, RtErr *e);
/* How many blocks of `block` threads and `smem` bytes of dynamic shared
 * memory one multiprocessor holds at once (the occupancy calculator). */
int rt_kernel_active_blocks(Rt *rt, RtKernel *k, int block, size_t smem, int *n, RtErr *e);
/* On the simulator, the occupancy of an H100's SM: 32 blocks, 2048
 * threads (whole warps) and 228 KiB of shared memory at most. */
int rt_sim_active_blocks(int block, int64_t smem);
void rt_kernel_unload(Rt *rt, RtKernel *k);
/* link.c: the machine code (cubin) the driver's linker makes from the
 * kernel's PTX, in malloc'd memory (*out, *size), also loaded into k; and
 * a cubin from the disk cache loaded into k without compiling. */
int rt_link_cubin(Rt *rt, RtKernel *k, void **out, size_t *size, RtErr *e);
/* Loads a kernel with link inputs (RtKernel.links): its PTX and them
 * linked by the driver, the machine code loaded (rt_kernel_load calls it). */
int rt_link_load(Rt *rt, RtKernel *k, RtErr *e);
int rt_kernel_load_image(Rt *rt, RtKernel *k, const void *image, RtErr *e);
/* trapword.c: after a launch of a debug kernel with traps (PjKernel.traps),
 * waits for stream s and reads the module's __pj_err word into out[8]
 * (code, threadIdx, blockIdx; all zero when no thread trapped), clearing
 * it for the next launch. */
int rt_read_trap(Rt *rt, RtKernel *k, CUstream s, uint32_t out[PJ_TRAP_WORDS], RtErr *e);

/* graph.c: CUDA graphs made by stream capture.  On the GPU the capture
 * is the driver's (cuStreamBeginCapture in relaxed mode, so that memory
 * can be allocated and modules loaded while it runs); in the simulator
 * the launches, copies and memsets issued on the capture stream are
 * recorded and a replay runs them in order.  One graph is captured at a
 * time.  A new capture of a graph that was instantiated updates its
 * executable graph in place (cuGraphExecUpdate) or instantiates anew. */
typedef struct RtOp RtOp;
typedef struct RtGraph {
	CUstream s;               /* the capture stream */
	unsigned gen;             /* the context generation of exec */
	struct CUgraphExec_st *exec;
	RtOp *ops;                /* SIM: the captured work */
	int nops, capops;
	RtOp *rec;                /* SIM: the work of the capture under way */
	int nrec, caprec;
	int nodes;                /* nodes of the last capture */
} RtGraph;
int rt_graph_begin(Rt *rt, RtGraph *g, CUstream s, RtErr *e);
/* Ends the capture; keep 0 throws the captured work away (an exception
 * in the capture), the graph keeping what it had. */
int rt_graph_end(Rt *rt, RtGraph *g, int keep, RtErr *e);
int rt_graph_launch(Rt *rt, RtGraph *g, CUstream s, RtErr *e);
void rt_graph_free(Rt *rt, RtGraph *g);
/* The stream work meant for s goes to: the capture stream for the
 * default stream (0) while a graph is captured, else s. */
CUstream rt_graph_stream(Rt *rt, CUstream s);
/* 1 when work issued on s is captured by ptxjit's capture, 2 when by
 * another library's (cuStreamIsCapturing), 0 when it runs. */
int rt_capturing(Rt *rt, CUstream s);
/* -1 with an error when waiting for s (NULL, the legacy default stream
 * or the capture stream; what names the call) would wait for a capture. */
int rt_graph_no_sync(Rt *rt, CUstream s, const char *what, RtErr *e);
/* The copies and memsets of a capture: host memory must be pinned (it
 * is read or written when the graph runs). */
int rt_graph_copy(Rt *rt, void *dst, const void *src, size_t n, int host, RtErr *e);
int rt_graph_memset(Rt *rt, CUdeviceptr dst, int byte, size_t n, RtErr *e);
/* stream.c's simulator launch records into the capture through this. */
int rt_graph_record_launch(Rt *rt, RtKernel *k, const unsigned grid[3], const unsigned block[3],
                           unsigned smem, const void *params, size_t nbytes, RtErr *e);

#endif

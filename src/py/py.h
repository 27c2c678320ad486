/*
 * py.h - what the files of the CPython extension ptxjit._core share.
 *
 * The extension only translates: Python objects in, calls into the
 * compiler (ptxjit.h) and the runtime (rt.h), Python objects or
 * exceptions out.  Its state lives in the module (PEP 630): the runtime,
 * the exception classes, the types and interned names.  Every object of
 * our types keeps a pointer to that state; the object's type holds the
 * module, so the state outlives every object.
 *
 *   module.c   module state, exceptions, error mapping, module functions
 *   array.c    DeviceArray (base of DeviceNDArray), HostBuffer (pinned)
 *   stream.c   Stream, Event
 *   graph.c    Graph (stream capture, replays)
 *   jit.c      Kernel (one compiled signature), the resolver, compile()
 *   kcache.c   a Kernel's machine code as bytes and back (the disk cache)
 *   config.c, argclass.c, argpack.c, hoststage.c, launch.c
 *              the launch path: Dispatcher (base of the Python
 *              dispatcher), Launcher; classify, look up, pack, launch
 *              (their shared declarations are in launch.h)
 *   ndarg.c    NumPy arrays read as arguments (launches and @njit calls)
 *   cpu.c      @njit functions
 */
#ifndef PTXJIT_PY_H
#define PTXJIT_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "../ptxjit.h"
#include "../rt/rt.h"

#if PY_VERSION_HEX < 0x030A0000
static inline int PyModule_AddObjectRef(PyObject *m, const char *name, PyObject *v)
{
	Py_INCREF(v);
	if (PyModule_AddObject(m, name, v) < 0) {
		Py_DECREF(v);
		return -1;
	}
	return 0;
}
#endif

#define PJ_MAXDIM 8           /* array dimensions the launch path handles */
#define PJ_MAXARGS 128        /* kernel arguments */

/* Scalar kinds, the same numbering as core.h's ScalarKind (the kernel
 * ABI's PjParam.ty uses it). */
enum {
	K_BOOL, K_I8, K_I16, K_I32, K_I64, K_U8, K_U16, K_U32, K_U64,
	K_F16, K_F32, K_F64, K_C64, K_C128, K_NKINDS
};

/* scalar.c: the value of a scalar argument, shared by kernel launches and
 * CPU calls.  scalar_read reads a scalar of kind k (K_*) stored at p;
 * scalar_of_builtin classifies a Python float, bool or complex (exact
 * types) and returns 1, or returns 0 for anything else. */
typedef union ScalarVal {
	int64_t i;
	uint64_t u;
	double f;
	double c[2];
} ScalarVal;
void scalar_read(ScalarVal *v, int k, const void *p);
int scalar_of_builtin(PyObject *o, int *kind, ScalarVal *v);

extern const char *const kind_name[K_NKINDS];    /* "float32" */
extern const char *const kind_typestr[K_NKINDS]; /* "<f4" */
extern const int kind_size[K_NKINDS];

typedef struct ModState {
	Rt *rts[RT_MAXDEV];        /* the runtime of each device used (rts[0] always) */
	int ndev;                  /* devices the driver sees; 0 until counted */
	/* devices.c: the arch slot of each device (its compute capability's
	 * index in slot_cc), once slot_set */
	unsigned char dev_slot[RT_MAXDEV], slot_set[RT_MAXDEV];
	int slot_cc[16], nslots;
	int sim;
	int gpu_compiled;          /* a kernel was compiled for the GPU (use_simulator refuses) */
	PyObject *TypingError, *InternalCompilerError;
	PyObject *KernelTypeError;       /* TypingError and TypeError: what Numba raises as TypeError */
	PyObject *KernelValueError;      /* TypingError and ValueError: what Numba raises as ValueError */
	PyObject *CudaSupportError, *CudaDriverError, *CudaAPIError, *CudaLaunchError;
	PyObject *SimulatorError, *SimIndexError, *DeadlockError, *TrapError;
	PyObject *UninitializedReadError, *RaceError;
	PyObject *NumbaWarning, *NumbaPerformanceWarning, *NumbaInvalidConfigWarning;
	/* NumbaPerformanceWarnings on (set_config): a grid of fewer than
	 * LOW_OCCUPANCY_GRID blocks, host arrays copied at a launch */
	int warn_occupancy, warn_copy;
	int cai_sync;              /* launches order a __cuda_array_interface__ producer's stream */
	PyTypeObject *DeviceArray_T, *HostBuffer_T, *HostMemory_T, *Stream_T, *Event_T, *Graph_T;
	/* graph.c: while a graph is captured, the list of what it refers to */
	PyObject *capture_keep;
	PyTypeObject *Kernel_T, *Dispatcher_T, *Launcher_T;
	PyObject *resolve_table;   /* id(obj) -> (obj, kind, qualname, module); from Python */
	/* hook(launcher, args) -> restore: called by a launch before it
	 * compiles (cuda.launchconfig), restore() after; NULL: none */
	PyObject *launch_hook;
	PyObject *records;         /* [(dtype, Numba spelling)] of record dtypes seen (records.c) */
	PyObject *s_cai, *s_compile_for, *s_pj_info, *s_pj_extern, *s_shape, *s_typestr, *s_data;
	PyObject *s_strides, *s_mask, *s_stream, *s_name, *s_builtins;
	/* classification of argument types seen at launches (argclass.c);
	 * off: where a NumPy scalar of the type keeps its value (0: unknown) */
	struct TypeClass { PyTypeObject *t; int cls, sk, off; } tcache[32];
	int ntcache;
	/* __cuda_array_interface__ typestrs seen ("<f4" -> K_F32, 4) */
	struct TypestrClass { char s[8]; int len, kind, itemsize; } tscache[8];
	int ntscache;
	/* ndarg.c: numpy.ndarray (a static type, held for good), and whether
	 * its fields may be read directly: 1 yes, -1 no, 0 not checked yet */
	PyTypeObject *ndarray_T;
	int np_direct;
	/* array.c: copies to host memory still on their way (copy_to_host
	 * with a stream): the buffer each writes into is held until it is done */
	struct Pending { RtHostCopy *job; Py_buffer view; } *pending;
	int npending, cappending;
	/* stream.c: stream callbacks queued or running (counted until they
	 * return).  A callback takes the GIL on a driver thread, so while one
	 * is, the hot calls that may wait for the device let the GIL go too
	 * (NOGIL_IF, below).  ran: the callbacks that have run, whose callables
	 * are dropped on a thread of ours (a callable may hold the last
	 * reference to a stream or an array, whose release calls the driver,
	 * which a driver thread must not); ran_drop: a pending call to drop
	 * them is queued. */
	int host_funcs;
	struct HostFunc *ran;
	int ran_drop;
	struct CpuState *cpu;      /* cpu.c: @njit's types and caches */
} ModState;

/* ------------------------------------------------ waits and the GIL
 *
 * A stream callback (stream.c: stream.add_callback, stream.async_done)
 * runs Python on a thread of the driver, so it takes the GIL there, and
 * the stream's later work waits until it returns.  A thread that holds
 * the GIL while the driver waits for that callback (or for work queued
 * behind it) waits for ever, and so does the callback; neither Ctrl-C nor
 * a timeout thread can end it, as both need the GIL.  So every call into
 * the runtime that may wait for the device goes through NOGIL, which lets
 * the GIL go around it.  Where that would cost a launch or a small copy a
 * thread switch for nothing, NOGIL_IF(st->host_funcs, ...) lets it go only
 * while a callback of ours is queued or running (host_funcs counts them
 * until they return).  The objects a call uses must be held (a Py_buffer,
 * a reference) or be the caller's alone (an object being deallocated).
 *
 * What may wait, by the driver calls each runtime call makes (the calls
 * the driver documents as blocking or implicitly synchronising):
 *   rt_sync, rt_stream_sync, rt_event_sync, rt_settle     they wait
 *   rt_read_trap, rt_put, rt_get                          the stream, the ring's events
 *   rt_htod, rt_dtoh, rt_dtod, rt_peer_copy               synchronous cuMemcpy*; an
 *                                                         asynchronous one from or to
 *                                                         pageable memory may wait
 *   rt_dtoh_async                                         cuMemcpyDtoHAsync to pageable
 *                                                         memory below the staging size
 *   rt_memset                                             cuMemsetD8
 *   rt_release (a block too big to cache), rt_trim,
 *   rt_managed_free                                       cuMemFree
 *   rt_alloc                                              cuMemAlloc, and cuMemFree of
 *                                                         the cache when memory is short
 *   rt_host_free, rt_host_unregister, rt_unregister_xfers cuMemHostUnregister
 *   rt_host_alloc, rt_host_register, rt_host_map,
 *   rt_managed_alloc                                      pinning and allocation
 *                                                         synchronise implicitly
 *   rt_kernel_unload, rt_kernel_load_image, rt_link_cubin cuModuleUnload (of the module
 *                                                         replaced); loads run ptxas
 *   rt_kernel_load                                        (and, lazily, may synchronise)
 *   rt_stream_free                                        cuStreamDestroy (documented to
 *                                                         return at once; not relied on)
 *   rt_ipc_open, rt_ipc_close                             cuIpcCloseMemHandle unmaps
 *   rt_set_transfer                                       frees the ring: its events,
 *                                                         cuMemFreeHost
 *   rt_launch, rt_graph_launch, rt_stream_host_func       a full command queue waits
 *                                                         for room (hot: NOGIL_IF)
 *   rt_close                                              all of the above: py_close
 *                                                         settles the context first
 * What does not wait: rt_stream_new, rt_stream_query, rt_stream_order,
 * rt_event_new, rt_event_record, rt_event_query, rt_event_wait,
 * rt_event_elapsed, rt_event_free (cuEventDestroy returns at once),
 * rt_device_attr, rt_device_count, rt_mem_info, rt_mem_stats,
 * rt_kernel_attr, rt_kernel_max_block, rt_kernel_active_blocks (after the
 * kernel's load), rt_ipc_get, rt_graph_begin, rt_graph_end, rt_graph_copy,
 * rt_graph_memset, rt_graph_free (cuGraphExecDestroy returns at once),
 * rt_capturing, rt_graph_stream, rt_graph_no_sync, rt_sim_share,
 * rt_enter (an automatic reset after a fault runs no callback).
 */
#define NOGIL(...) do { Py_BEGIN_ALLOW_THREADS __VA_ARGS__; Py_END_ALLOW_THREADS } while (0)
#define NOGIL_IF(cond, ...) do { if (cond) NOGIL(__VA_ARGS__); else { __VA_ARGS__; } } while (0)

/* module.c */
/* This thread's current device (cuda.select_device, `with cuda.gpus[i]`):
 * an index into ModState.rts, whose entry exists; 0 in a new thread, as
 * in Numba. */
extern _Thread_local int py_cur_dev __attribute__((tls_model("initial-exec")));
static inline Rt *cur_rt(ModState *st)
{
	return st->rts[py_cur_dev];
}
ModState *state_of_type(PyTypeObject *t);
/* devices.c: the runtime of device i, made at its first use (not entered
 * yet); NULL with IndexError when there is no device i. */
Rt *device_rt(ModState *st, long i);
PyObject *py_device_count(PyObject *m, PyObject *unused);
PyObject *py_select_device(PyObject *m, PyObject *arg);
PyObject *py_current_device(PyObject *m, PyObject *unused);
/* Raises the Python exception for a runtime error; returns NULL. */
PyObject *raise_rt(ModState *st, const RtErr *e);
/* The class of a launch configuration the driver would refuse: CudaLaunchError
 * (or its subclass that is also cuda.core's CUDAError); borrowed. */
PyObject *launch_error_class(ModState *st);
/* raise_rt for an error of a launch of kernel `name`: the message names the
 * kernel (prefixed "kernel 'name': " when the runtime's text does not). */
PyObject *raise_rt_kernel(ModState *st, const RtErr *e, const char *name);
/* Raises TypingError or InternalCompilerError for a compiler error. */
PyObject *raise_pj(ModState *st, const PjError *e);
/* Makes the runtime of a device (rt: cur_rt(st), or the device of the
 * object at hand) usable from this thread (loads the driver the first
 * time); -1 with an exception set on failure. */
int enter_rt(ModState *st, Rt *rt);
int kind_of_typestr(const char *ts, int *itemsize);   /* "<f4" -> K_F32; -1 if not supported */
int kind_of_format(const char *fmt, Py_ssize_t itemsize); /* buffer format -> kind; -1 */

/* interrupt.c: Ctrl-C during a simulator or interpreter run.  Every run
 * sits between stop_begin and stop_end (either side of letting the GIL
 * go); stop_begin returns -1 with KeyboardInterrupt set when a signal
 * came just before (then the run must not start, and stop_end was
 * called).  A run that returns PJ_SIM_STOPPED raises through
 * raise_stopped (with the GIL): KeyboardInterrupt, or what Python's
 * SIGINT handler raises.  Returns NULL. */
int stop_begin(void);
void stop_end(void);
PyObject *raise_stopped(void);

/* array.c */
/* Lets go of the buffers of finished asynchronous copies to the host. */
void drain_copies(ModState *st);
/* Frees device memory of an array (rt_release) from a thread with the
 * GIL: without it when the block is too big to cache (cuMemFree waits). */
void release_mem(Rt *rt, CUdeviceptr p, size_t n, unsigned gen);
typedef struct DeviceArrayObject {
	PyObject_HEAD
	ModState *st;
	Rt *rt;                   /* its device's; outlives the module state at shutdown */
	CUdeviceptr ptr;          /* address of element 0 (host address in the simulator) */
	CUdeviceptr alloc;        /* the allocation this array owns, or 0 */
	size_t alloc_n;           /* bytes asked for at allocation */
	unsigned gen;             /* context generation of the memory */
	int ndim;
	int kind;                 /* K_*, or -1 for a dtype kernels do not take */
	int itemsize;
	char layout;              /* 'C', 'F' or 'A' */
	char foreign;             /* memory from another library (via __cuda_array_interface__) */
	Py_ssize_t shape[PJ_MAXDIM];
	Py_ssize_t strides[PJ_MAXDIM];   /* bytes */
	PyObject *dtype;          /* the NumPy dtype */
	PyObject *base;           /* owner of the memory when it is not ours */
} DeviceArrayObject;
extern PyType_Spec DeviceArray_spec, HostBuffer_spec, HostMemory_spec;
/* dlpack.c: the module functions to_dlpack and from_dlpack */
PyObject *py_to_dlpack(PyObject *m, PyObject *args);
PyObject *py_from_dlpack(PyObject *m, PyObject *cap);
char layout_of(int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides, Py_ssize_t itemsize);
/* A Stream object, 0 or None -> a stream handle; *async says whether
 * the caller named a stream.  A stream must belong to rt's device (the
 * device the work runs on), unless rt is NULL. */
int stream_arg(ModState *st, PyObject *o, Rt *rt, CUstream *s, int *async);
/* The simulator's test for another library's array (__cuda_array_interface__,
 * DLPack): 1 when the bytes the array spans lie inside one block the
 * simulator allocated (a device array of ours wrapped by another object),
 * which kernels then use in place; an array of no elements spans nothing
 * and is always 1. */
int sim_holds_span(ModState *st, CUdeviceptr ptr, Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape,
                   const Py_ssize_t *strides);
/* The error for an object of device `had` used with work on device `on`;
 * what: "stream", "array argument 'x'".  Returns -1. */
int wrong_device(ModState *st, const char *what, const Rt *had, const Rt *on);

/* stream.c */
typedef struct StreamObject {
	PyObject_HEAD
	ModState *st;
	Rt *rt;
	CUstream s;
	unsigned gen;
	int owned;
	int external;       /* cuda.external_stream(): made elsewhere, never destroyed here */
} StreamObject;
typedef struct EventObject {
	PyObject_HEAD
	ModState *st;
	Rt *rt;
	RtEvent ev;
} EventObject;
extern PyType_Spec Stream_spec, Event_spec;
/* finish_callbacks(): waits (without the GIL) for the work of every
 * device's context, so that every queued callback runs, and drops the
 * callables of those that ran; at exit, before the interpreter goes. */
PyObject *py_finish_callbacks(PyObject *m, PyObject *unused);

/* graph.c */
extern PyType_Spec Graph_spec;
/* Keeps o alive with the graph being captured (nothing when none is); -1 on error. */
int capture_keep(ModState *st, PyObject *o);

/* jit.c */
/* A kernel's module on a device other than its first. */
typedef struct KernelOn {
	Rt *rt;
	RtKernel rk;
} KernelOn;
typedef struct KernelObject {
	PyObject_HEAD
	ModState *st;
	Rt *rt;                   /* the device it was compiled on; deallocation uses
	                             this, not st: at interpreter shutdown the module
	                             state may go first */
	PjKernel *pk;
	RtKernel rk;              /* its module on rt's device */
	KernelOn *on[RT_MAXDEV];  /* on other devices, made at their first use */
	int nargs;                /* Python arguments the parameters refer to */
	PyObject *dict;
	/* code linked with the PTX (Kernel._link): the bytes objects, kept
	 * alive in links, and what rk (and on[]) point to */
	PyObject *links;
	RtLinkInput *link_inputs;
	int nlinks;
} KernelObject;
extern PyType_Spec Kernel_spec;
PyObject *py_compile(PyObject *mod, PyObject *args);
/* A Kernel owning pk (compiled here, or read from the disk cache by
 * kcache.c); on failure pk is freed and NULL returned, an error set. */
KernelObject *kernel_new(ModState *st, PjKernel *pk, int max_registers);
/* The kernel's module on rt's device (loaded or not); NULL with an
 * exception when out of memory. */
RtKernel *kernel_on_other(KernelObject *k, Rt *rt);
static inline RtKernel *kernel_on(KernelObject *k, Rt *rt)
{
	return rt == k->rt ? &k->rk : kernel_on_other(k, rt);
}
/* A 64-bit hash of n bytes, eight a step: the checksum of a disk-cache
 * file (kcache.c; part of its format) and the signature table's hash
 * (launch.c, on every launch, hence inline). */
static inline uint64_t py_hash64(const unsigned char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* kcache.c: Kernel._cubin() and Kernel._load_cubin(bytes), for the disk cache */
PyObject *kcache_cubin(KernelObject *k, PyObject *unused);
PyObject *kcache_load(KernelObject *k, PyObject *data);
PyObject *py_infer_return(PyObject *mod, PyObject *args);
PyObject *py_pick_signature(PyObject *mod, PyObject *args);
PyObject *py_nfkc(PyObject *mod, PyObject *arg);
/* command.c: _core.ptxjitc(argv), the ptxjitc command */
PyObject *py_ptxjitc(PyObject *mod, PyObject *args);

/* cpu.c: @njit functions (CpuDispatcher, CpuFunc, CpuMem, CpuView) */
int cpu_init(PyObject *m, ModState *st);
int cpu_is_dispatcher(ModState *st, PyObject *o);

/* kexc.c: the exception of a debug kernel's trap (assert, raise), from the
 * GPU's error word or the simulator's message; d is the dispatcher */
PyObject *raise_gpu_trap(ModState *st, PyObject *d, const PjKernel *pk, const uint32_t word[PJ_TRAP_WORDS]);
PyObject *raise_sim_trap(ModState *st, PyObject *d, const char *msg);

/* config.c (the launch path: launch.h) */
extern PyType_Spec Dispatcher_spec, Launcher_spec;

/* ndarg.c: an array argument read from a NumPy array or another buffer.
 * The caller points shape and strides at PJ_MAXDIM slots each and view
 * at a Py_buffer; nd_read fills the rest.  hold: take a buffer export
 * even for an ndarray whose fields could be read directly (the memory is
 * used without the GIL).  Returns ND_OK; ND_NOBUF, o exports no buffer
 * (no exception set); ND_NDIM, ndim is beyond PJ_MAXDIM.  kind is -1 for
 * an element format kernels do not take (view->format says which).
 * has_view says whether the caller must release view, whatever the
 * result. */
typedef struct NdArg {
	Py_ssize_t *shape, *strides;
	Py_buffer *view;
	int kind;
	int ndim;
	char layout;
	char readonly;
	char has_view;
	char *ptr;
	Py_ssize_t itemsize;
} NdArg;
enum { ND_OK, ND_NOBUF, ND_NDIM };
int nd_read(ModState *st, PyObject *o, int hold, NdArg *x);
/* t, or a base of t, has this tp_name ("numpy.generic") */
int nd_type_named(PyTypeObject *t, const char *name);
/* Is t a NumPy number or bool scalar type?  datetime64, timedelta64 (a
 * numpy.integer), the strings and void are NumPy scalars but not numbers:
 * their buffers are bytes, format "B", and would pass for a uint8. */
int nd_numeric_scalar_type(PyTypeObject *t);
int nd_is_ndarray_slow(ModState *st, PyTypeObject *t);
/* t is numpy.ndarray or a subclass */
static inline int nd_is_ndarray(ModState *st, PyTypeObject *t)
{
	return t == st->ndarray_T || nd_is_ndarray_slow(st, t);
}

/* records.c: structured dtypes.  A record dtype seen at a launch gets a
 * kind K_RECORD + its index in ModState.records (the launch key has one
 * byte for the kind), and its Numba spelling, "Record(x[type=float32;
 * offset=0];4;False)", is the element type of its signature. */
#define K_RECORD 0x80
#define K_MAXRECORDS 0x7f
int record_kind(ModState *st, PyObject *dtype);        /* -1 with an exception */
const char *record_name(ModState *st, int kind);      /* the Numba spelling */
PyObject *record_sig(PyObject *dtype);                 /* new str, or NULL with an exception */
int is_record_dtype(PyObject *dtype);                  /* a NumPy dtype with fields */
int is_charseq_dtype(PyObject *dtype);                 /* |S<n> or <U<n>: a record kind too */
int is_record_type(PyObject *obj);                     /* a ptxjit.types.Record; -1 with an exception */

#endif

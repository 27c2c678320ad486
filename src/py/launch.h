/*
 * launch.h - what the files of the launch path share: the Dispatcher and
 * Launcher objects and the description of one argument (ArgInfo).
 *
 *   config.c      Dispatcher (C base of the Python dispatcher) and
 *                 Launcher: `kernel[grid, block, stream, shared]`, parsed
 *                 once and kept, so a steady loop makes no new objects
 *   argclass.c    classification: a Python argument -> ArgInfo
 *   argpack.c     the parameter buffer from ArgInfos, following
 *                 PjKernel.params, and the check of that layout
 *   hoststage.c   NumPy arguments: device copies before and after a launch
 *   launch.c      the call: key of the argument types, signature table,
 *                 compile callback into Python, the launch itself
 *   ndarg.c       (shared with cpu.c) NumPy arrays read as arguments
 *
 * Everything here runs with the GIL held, except the copies and the
 * simulator's launch, which let it go.
 */
#ifndef PTXJIT_LAUNCH_H
#define PTXJIT_LAUNCH_H

#include "py.h"

enum { A_DEVICE = 1, A_HOST, A_FOREIGN, A_SCALAR };
/* cuda.In/Out/InOut (ArgInfo.dir): which copies a host array gets */
enum { DIR_INOUT = 0, DIR_IN = 1, DIR_OUT = 2 };

/* One argument (or one leaf of a tuple argument) as the launch sees it.
 * The fields up to `dims` are what classification sets; launch_args
 * clears only those. */
typedef struct ArgInfo {
	int cls;                  /* A_* */
	int kind;                 /* K_*, or K_RECORD + n */
	int ndim;
	char layout;              /* 'C', 'F', 'A'; 'R' a record scalar */
	char readonly;
	char has_view;            /* view holds a buffer to release */
	char dir;                 /* DIR_*: from a cuda.In/Out/InOut wrapper */
	char hinted;              /* it came in such a wrapper */
	char mapped;              /* mapped or managed memory (on the simulator an A_HOST, used in place as
	                             on the GPU): no copy for the performance warning to name */
	CUdeviceptr ptr;          /* element 0 (device, or host in the simulator) */
	const Py_ssize_t *shape;  /* ndim extents: the device array's own, or dims */
	const Py_ssize_t *strides;/* ndim byte strides: likewise, or dims + PJ_MAXDIM */
	ScalarVal v;              /* A_SCALAR */
	size_t nbytes;            /* A_HOST: bytes of the array */
	CUdeviceptr tmp;          /* A_HOST: its device copy */
	void *host_tmp;           /* A_HOST, simulator: copy of a read-only array, or of one whose
	                             memory another argument shares (hoststage.c) */
	Py_ssize_t dims[2 * PJ_MAXDIM];
	Py_buffer view;           /* A_HOST from a NumPy array */
} ArgInfo;

/* One compiled signature in a dispatcher's table. */
typedef struct Entry {
	uint64_t hash;
	unsigned char *key;
	int len;
	KernelObject *k;
} Entry;

typedef struct LauncherObject LauncherObject;

enum { NLAUNCHERS = 4 };      /* configurations a dispatcher keeps */

typedef struct DispatcherObject {
	PyObject_HEAD
	ModState *st;
	char name[128];
	int nparams;              /* -1 until _setup */
	int nrequired;            /* parameters without a default value */
	PyObject *argnames;       /* tuple of str */
	int sync_after;           /* debug=True: wait for each launch */
	int max_threads;          /* launch_bounds: the most threads a block (0: any up to 1024) */
	int is_device;
	Entry *tab;
	int cap, count;
	int last;                 /* index of the last hit, or -1 */
	LauncherObject *launchers[NLAUNCHERS];   /* recent configurations */
	int next_launcher;        /* the slot the next new one replaces */
} DispatcherObject;

struct LauncherObject {
	PyObject_HEAD
	vectorcallfunc vectorcall;
	DispatcherObject *d;
	PyObject *cfg;            /* the subscript it was made from (a tuple) */
	unsigned grid[3], block[3];
	unsigned smem;
	PyObject *stream_obj;     /* as given (None for the default stream) */
	CUstream stream;
	Rt *stream_rt;            /* the device of a stream of ours, NULL for the default stream */
	int async;
	int copy_warned;          /* the host-array copy warning was given */
	PyObject *callbacks;      /* pre_launch_callbacks: a list, NULL until first asked for; each is
	                             called (kernel, launcher) before every launch through L */
};

/* Numba's rule: a grid of fewer blocks than this gets a NumbaPerformanceWarning. */
enum { LOW_OCCUPANCY_GRID = 128 };

/* config.c */
extern PyType_Spec Dispatcher_spec, Launcher_spec;

/* argclass.c: fills a from argument i (o) of a launch through L (L's
 * stream orders a foreign array's producer; L may be a zeroed one);
 * -1 with an exception naming the kernel and the parameter. */
int arg_classify(DispatcherObject *d, int i, PyObject *o, ArgInfo *a, LauncherObject *L);
void arg_release(ModState *st, ArgInfo *a, int n);
const char *arg_name(DispatcherObject *d, int i);
/* The Numba spelling of an argument's type: "float32[:, ::1]", "int64". */
PyObject *arg_type_string(ModState *st, const ArgInfo *a);

/* argpack.c */
/* -1 with an exception when a pointer argument points into no simulated
 * device allocation (its bounds come from there) */
int pack_params(DispatcherObject *d, Rt *rt, const PjKernel *pk, const ArgInfo *a, unsigned char *buf);
/* Checks a new kernel's parameter layout against the argument types. */
int pack_check(DispatcherObject *d, KernelObject *k, const ArgInfo *a, int n);

/* hoststage.c: before the launch, device copies of the A_HOST arguments
 * (or, in the simulator, scratch copies of read-only ones): -1 with an
 * exception, everything queued undone.  After it, the copies back and
 * the wait: -1 with the error in *e, then the caller raises and calls
 * stage_abort.  See the file for the rules. */
typedef struct Stage {
	RtXfer in[PJ_MAXARGS], out[PJ_MAXARGS];
	int nin, nout;
} Stage;
int stage_in(LauncherObject *L, const PjKernel *pk, ArgInfo *a, int n, Stage *sg);
int stage_out(LauncherObject *L, const PjKernel *pk, ArgInfo *a, int n, Stage *sg, RtErr *e);
void sim_stage_back(const PjKernel *pk, ArgInfo *a, int n);
void stage_abort(LauncherObject *L, Stage *sg, int sticky);

/* launch.c: Launcher.__call__, and forgetting every compiled signature */
PyObject *launch_call(LauncherObject *L, PyObject *const *args, size_t nargsf, PyObject *kwnames);
void launch_table_clear(DispatcherObject *d);

#endif

/*
 * module.c - the module ptxjit._core: its state, its exceptions, the one
 * place where compiler and runtime errors become Python exceptions, and
 * the module-level functions (device queries, synchronize, close).
 *
 * The backend is chosen when the module is imported: PTXJIT_SIM set to
 * anything but "" or "0" selects the simulator, and so does Numba's
 * NUMBA_ENABLE_CUDASIM=1 when PTXJIT_SIM is unset or empty;
 * PTXJIT_SIM_CHECK ("uninit", "race", "all", comma-separated) turns on
 * the simulator's optional checks.  Importing never loads the driver.
 * use_simulator() switches to the simulator later, as long as neither
 * the driver nor a kernel compiled for the GPU has been used.
 *
 * Exceptions (all re-exported by ptxjit.errors):
 *   TypingError(Exception)            the kernel's source is not supported;
 *                                     KernelTypeError, a subclass, is also a
 *                                     TypeError (a kernel returning a value),
 *                                     KernelValueError a ValueError (an
 *                                     alignment that is no power of two)
 *   InternalCompilerError(Exception)  a bug in the compiler
 *   CudaSupportError(ImportError, RuntimeError)  no driver or no GPU
 *   CudaDriverError(RuntimeError)     the driver refused; CudaAPIError, a
 *                                     subclass, carries .code and .name
 *   CudaLaunchError(CudaAPIError, ValueError)  a launch configuration the
 *                                     driver would refuse, refused before it
 *                                     (.name CUDA_ERROR_INVALID_VALUE)
 * Where cuda.core is loaded, a CudaAPIError raised is also cuda.core's
 * CUDAError, which numba-cuda's launches raise, and where Numba is, a
 * TypingError is also numba.core.errors.TypingError, which numba-cuda's
 * compile errors are then (foreign_class, ptxjit.errors._foreign_class).
 *   SimulatorError(RuntimeError)      the simulator stopped a kernel;
 *                                     SimIndexError is also an IndexError;
 *                                     DeadlockError, TrapError,
 *                                     UninitializedReadError, RaceError
 * Warnings, with Numba's names:
 *   NumbaWarning(Warning)             their base; NumbaPerformanceWarning
 *                                     (a small grid, host arrays copied at
 *                                     a launch), NumbaInvalidConfigWarning
 */
#include "py.h"
#include "../sema/libdevice_tab.h"
#include "../sema/bf16_tab.h"

#include <stdlib.h>
#include <string.h>

const char *const kind_name[K_NKINDS] = {
	"boolean", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
	"float16", "float32", "float64", "complex64", "complex128",
};
const char *const kind_typestr[K_NKINDS] = {
	"|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8",
	"<f2", "<f4", "<f8", "<c8", "<c16",
};
const int kind_size[K_NKINDS] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16};

static PyModuleDef moduledef;

ModState *state_of_type(PyTypeObject *t)
{
	for (; t; t = t->tp_base) {
		if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE))
			continue;
		PyObject *m = PyType_GetModule(t);
		if (m && PyModule_GetDef(m) == &moduledef)
			return PyModule_GetState(m);
		PyErr_Clear();
	}
	PyErr_SetString(PyExc_TypeError, "not a ptxjit._core type");
	return NULL;
}

static int int_kind(int is_signed, Py_ssize_t size)
{
	switch (size) {
	case 1: return is_signed ? K_I8 : K_U8;
	case 2: return is_signed ? K_I16 : K_U16;
	case 4: return is_signed ? K_I32 : K_U32;
	case 8: return is_signed ? K_I64 : K_U64;
	}
	return -1;
}

int kind_of_typestr(const char *ts, int *itemsize)
{
	if (!ts || (ts[0] != '<' && ts[0] != '|' && ts[0] != '='))
		return -1;
	char c = ts[1];
	char *end;
	long n = strtol(ts + 2, &end, 10);
	if (*end || n <= 0)
		return -1;
	if (itemsize)
		*itemsize = (int)n;
	switch (c) {
	case 'b': return n == 1 ? K_BOOL : -1;
	case 'i': return int_kind(1, n);
	case 'u': return int_kind(0, n);
	case 'f': return n == 2 ? K_F16 : n == 4 ? K_F32 : n == 8 ? K_F64 : -1;
	case 'c': return n == 8 ? K_C64 : n == 16 ? K_C128 : -1;
	}
	return -1;
}

int kind_of_format(const char *f, Py_ssize_t itemsize)
{
	if (!f)
		return int_kind(0, itemsize == 1 ? 1 : 0);   /* "B" is the default format */
	if (*f == '@' || *f == '=' || *f == '<')
		f++;
	else if (*f == '>' || *f == '!')
		return -1;
	if (f[0] && f[1] && !(f[0] == 'Z' && f[2] == 0))
		return -1;
	switch (f[0]) {
	case '?': return itemsize == 1 ? K_BOOL : -1;
	case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
		return int_kind(1, itemsize);
	case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
		return int_kind(0, itemsize);
	case 'e': return itemsize == 2 ? K_F16 : -1;
	case 'f': return itemsize == 4 ? K_F32 : -1;
	case 'd': return itemsize == 8 ? K_F64 : -1;
	case 'Z':
		if (f[1] == 'f' && itemsize == 8)
			return K_C64;
		if (f[1] == 'd' && itemsize == 16)
			return K_C128;
		return -1;
	}
	return -1;
}

/* ---------------------------------------------------------- errors */

/* cls, or where a package whose code catches errors like it is loaded
 * (cuda.core, Numba) its subclass that is also that package's class
 * (ptxjit.errors._foreign_class); a new reference. */
static PyObject *foreign_class(PyObject *cls)
{
	PyObject *mods = PySys_GetObject("modules");
	if (!mods || !PyDict_Check(mods) || (!PyDict_GetItemString(mods, "cuda.core._utils.cuda_utils") &&
	                                     !PyDict_GetItemString(mods, "numba.core.errors")))
		return Py_NewRef(cls);
	PyObject *errs = PyImport_ImportModule("ptxjit.errors");
	PyObject *sub = errs ? PyObject_CallMethod(errs, "_foreign_class", "O", cls) : NULL;
	Py_XDECREF(errs);
	if (!sub) {
		PyErr_Clear();
		return Py_NewRef(cls);
	}
	return sub;
}

PyObject *launch_error_class(ModState *st)
{
	PyObject *cls = foreign_class(st->CudaLaunchError);
	Py_DECREF(cls);            /* a subclass lives in ptxjit.errors' cache */
	return cls;
}

static PyObject *raise_with(PyObject *base, const char *msg, int code, const char *name)
{
	PyObject *m = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
	if (!m)
		return NULL;
	PyObject *cls = foreign_class(base);
	PyObject *exc = PyObject_CallOneArg(cls, m);
	Py_DECREF(cls);
	Py_DECREF(m);
	if (!exc)
		return NULL;
	if (name) {
		PyObject *c = PyLong_FromLong(code), *n = PyUnicode_FromString(name);
		if (!c || !n || PyObject_SetAttrString(exc, "code", c) || PyObject_SetAttrString(exc, "name", n)) {
			Py_XDECREF(c);
			Py_XDECREF(n);
			Py_DECREF(exc);
			return NULL;
		}
		Py_DECREF(c);
		Py_DECREF(n);
	}
	PyErr_SetObject(cls, exc);
	Py_DECREF(exc);
	return NULL;
}

PyObject *raise_rt(ModState *st, const RtErr *e)
{
	switch (e->code) {
	case RT_E_NODRIVER:
	case RT_E_SYMBOL:
	case RT_E_NODEVICE:
		return raise_with(st->CudaSupportError, e->msg, 0, NULL);
	case RT_E_HOSTMEM:
		return raise_with(PyExc_MemoryError, e->msg, 0, NULL);
	case RT_E_STALE:
	case RT_E_FORKED:
		return raise_with(st->CudaDriverError, e->msg, 0, NULL);
	case RT_E_ARG:
		return raise_with(PyExc_ValueError, e->msg, 0, NULL);
	case RT_E_SIM:
		switch (e->sim) {
		case PJ_SIM_INDEX: return raise_with(st->SimIndexError, e->msg, 0, NULL);
		case PJ_SIM_DEADLOCK: return raise_with(st->DeadlockError, e->msg, 0, NULL);
		case PJ_SIM_TRAP: return raise_with(st->TrapError, e->msg, 0, NULL);
		case PJ_SIM_UNINIT_READ: return raise_with(st->UninitializedReadError, e->msg, 0, NULL);
		case PJ_SIM_RACE_FOUND: return raise_with(st->RaceError, e->msg, 0, NULL);
		}
		return raise_with(st->SimulatorError, e->msg, 0, NULL);
	}
	return raise_with(st->CudaAPIError, e->msg, e->code, e->name);
}

PyObject *raise_rt_kernel(ModState *st, const RtErr *e, const char *name)
{
	if (e->code == RT_E_SIM || !name || !*name || strstr(e->msg, name))
		return raise_rt(st, e);
	RtErr named = *e;
	int n = snprintf(named.msg, sizeof named.msg, "kernel '%.100s': ", name);
	size_t len = strlen(e->msg), room = sizeof named.msg - (size_t)n - 1;
	memcpy(named.msg + n, e->msg, len < room ? len : room);
	named.msg[n + (len < room ? len : room)] = 0;
	return raise_rt(st, &named);
}

PyObject *raise_pj(ModState *st, const PjError *e)
{
	const char *msg = e->msg[0] ? e->msg : "compilation failed";
	if (e->kind == PJ_ERR_USER)
		return raise_with(e->py_exc == PJ_EXC_TYPE    ? st->KernelTypeError
		                  : e->py_exc == PJ_EXC_VALUE ? st->KernelValueError
		                                              : st->TypingError,
		                  msg, 0, NULL);
	return raise_with(st->InternalCompilerError, msg, 0, NULL);
}

int enter_rt(ModState *st, Rt *rt)
{
	RtErr e;
	if (st->sim || (rt->state == RT_READY && rt_enter(rt, &e) == 0))
		return 0;
	if (rt_enter(rt, &e)) {
		raise_rt(st, &e);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------- module functions */

static ModState *mstate(PyObject *m)
{
	return PyModule_GetState(m);
}

static PyObject *py_set_resolve_table(PyObject *m, PyObject *table)
{
	ModState *st = mstate(m);
	if (!PyDict_Check(table))
		return PyErr_Format(PyExc_TypeError, "expected a dict");
	Py_INCREF(table);
	Py_XSETREF(st->resolve_table, table);
	Py_RETURN_NONE;
}

static PyObject *py_is_simulator(PyObject *m, PyObject *unused)
{
	return PyBool_FromLong(mstate(m)->sim);
}

/* set_launch_hook(f): f(launcher, args) is called when a launch must
 * compile, and what it returns is called after (ptxjit/cuda/launchconfig.py). */
static PyObject *py_set_launch_hook(PyObject *m, PyObject *f)
{
	ModState *st = mstate(m);
	if (f != Py_None && !PyCallable_Check(f))
		return PyErr_Format(PyExc_TypeError, "set_launch_hook takes a callable or None");
	Py_XSETREF(st->launch_hook, f == Py_None ? NULL : Py_NewRef(f));
	Py_RETURN_NONE;
}

static PyObject *py_use_simulator(PyObject *m, PyObject *unused)
{
	ModState *st = mstate(m);
	if (st->sim)
		Py_RETURN_NONE;
	if (st->gpu_compiled || rt_use_sim(st->rts[0]))
		return PyErr_Format(PyExc_RuntimeError,
		                    "cuda.use_simulator() comes too late: %s; call it before the first kernel "
		                    "is compiled or the GPU is used, or set PTXJIT_SIM=1 (or NUMBA_ENABLE_CUDASIM=1) "
		                    "in the environment",
		                    st->gpu_compiled ? "a kernel was already compiled for the GPU"
		                                     : "the CUDA driver is already in use");
	st->sim = 1;
	Py_RETURN_NONE;
}

/* set_config(low_occupancy, implicit_copy, cai_sync): which
 * NumbaPerformanceWarnings launches give, and whether they order a
 * __cuda_array_interface__ producer's stream (ptxjit/cuda/config.py). */
static PyObject *py_set_config(PyObject *m, PyObject *args)
{
	ModState *st = mstate(m);
	int occ, copy, sync;
	if (!PyArg_ParseTuple(args, "ppp", &occ, &copy, &sync))
		return NULL;
	st->warn_occupancy = occ;
	st->warn_copy = copy;
	st->cai_sync = sync;
	Py_RETURN_NONE;
}

static PyObject *py_available(PyObject *m, PyObject *unused)
{
	return PyBool_FromLong(rt_available(cur_rt(mstate(m))));
}

/* device_info(i=current): a dict describing device i. */
static PyObject *py_device_info(PyObject *m, PyObject *args)
{
	ModState *st = mstate(m);
	long i = py_cur_dev;
	if (!PyArg_ParseTuple(args, "|l", &i))
		return NULL;
	Rt *rt = device_rt(st, i);
	if (!rt || enter_rt(st, rt))
		return NULL;
	return Py_BuildValue("{s:i,s:s,s:(ii),s:i,s:i,s:n,s:i,s:(iii),s:(iii),s:i,s:i,s:O,s:s}",
	                     "id", rt->devnum, "name", rt->devname, "compute_capability", rt->cc_major, rt->cc_minor,
	                     "multiprocessor_count", rt->sm_count, "driver_version", rt->driver_version,
	                     "total_memory", (Py_ssize_t)rt->total_mem, "max_threads_per_block", rt->max_threads,
	                     "max_block_dim", rt->max_block[0], rt->max_block[1], rt->max_block[2],
	                     "max_grid_dim", rt->max_grid[0], rt->max_grid[1], rt->max_grid[2],
	                     "max_shared_memory_per_block", rt->max_smem_block,
	                     "max_shared_memory_per_block_optin", rt->max_smem_optin,
	                     "simulator", st->sim ? Py_True : Py_False,
	                     "library", st->sim ? "" : rt_libcuda_name());
}

/* device_attribute(attr, i=current): a CUdevice_attribute of device i. */
static PyObject *py_device_attribute(PyObject *m, PyObject *args)
{
	ModState *st = mstate(m);
	long a, i = py_cur_dev;
	if (!PyArg_ParseTuple(args, "l|l", &a, &i))
		return NULL;
	int v = 0;
	RtErr e;
	Rt *rt = device_rt(st, i);
	if (!rt || enter_rt(st, rt))
		return NULL;
	if (rt_device_attr(rt, (int)a, &v, &e))
		return raise_rt(st, &e);
	return PyLong_FromLong(v);
}

static PyObject *py_pending_callbacks(PyObject *m, PyObject *unused)
{
	return PyLong_FromLong(mstate(m)->host_funcs);
}

static PyObject *py_synchronize(PyObject *m, PyObject *unused)
{
	ModState *st = mstate(m);
	RtErr e;
	int rc;
	if (enter_rt(st, cur_rt(st)))
		return NULL;
	if (rt_graph_no_sync(cur_rt(st), NULL, "cuda.synchronize()", &e))
		return raise_rt(st, &e);
	NOGIL(rc = rt_sync(cur_rt(st), &e));
	drain_copies(st);
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

/* stream_synchronize(handle): waits for a stream given as an int (a
 * stream of another library, from __cuda_array_interface__). */
static PyObject *py_stream_synchronize(PyObject *m, PyObject *arg)
{
	ModState *st = mstate(m);
	unsigned long long h = PyLong_AsUnsignedLongLong(arg);
	RtErr e;
	int rc;
	if (h == (unsigned long long)-1 && PyErr_Occurred())
		return NULL;
	if (enter_rt(st, cur_rt(st)))
		return NULL;
	NOGIL(rc = rt_stream_sync(cur_rt(st), (CUstream)(uintptr_t)h, &e));
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

/* close(): frees the cached memory and releases the context of every
 * device, resetting it after a fault; device 0 is current again in the
 * calling thread, as in Numba.  Copies to host memory still pending then never
 * finish (a lost context runs no more host functions, and after a
 * successful synchronisation every one has run): their buffers are let
 * go, unwritten. */
static PyObject *py_close(PyObject *m, PyObject *args)
{
	ModState *st = mstate(m);
	RtErr e, e1;
	int rc = 0;
	long only = -1;
	if (!PyArg_ParseTuple(args, "|l", &only))
		return NULL;
	if (only >= 0) {            /* close(i): device i only (Device.reset()) */
		Rt *rt = device_rt(st, only);
		if (!rt)
			return NULL;
		NOGIL(rt_settle(rt));     /* the callbacks run before the context goes */
		rc = rt_close(rt, &e);
		drain_copies(st);
		if (rc)
			return raise_rt(st, &e);
		Py_RETURN_NONE;
	}
	for (int i = RT_MAXDEV - 1; i >= 0; i--)
		if (st->rts[i])
			NOGIL(rt_settle(st->rts[i]));
	for (int i = RT_MAXDEV - 1; i >= 0; i--)
		if (st->rts[i] && rt_close(st->rts[i], rc ? &e1 : &e))
			rc = -1;
	py_cur_dev = 0;
	drain_copies(st);
	if (!st->sim) {
		for (int i = 0; i < st->npending; i++) {
			PyBuffer_Release(&st->pending[i].view);
			free(st->pending[i].job);
		}
		st->npending = 0;
	}
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

/* context_state() -> dict: whether the context is lost to a fault, its
 * generation (bumps at each close), the resets after faults, and whether
 * PTXJIT_RESET_ON_FAULT resets it by itself. */
static PyObject *py_context_state(PyObject *m, PyObject *unused)
{
	Rt *rt = cur_rt(mstate(m));
	return Py_BuildValue("{s:O,s:I,s:I,s:O,s:s}", "lost", rt_lost(rt) ? Py_True : Py_False,
	                     "generation", rt->gen, "resets", rt->resets,
	                     "auto_reset", rt->auto_reset ? Py_True : Py_False,
	                     "error", rt_lost(rt) ? rt->lost.msg : "");
}

static PyObject *py_mem_info(PyObject *m, PyObject *unused)
{
	ModState *st = mstate(m);
	size_t f = 0, t = 0;
	RtErr e;
	if (enter_rt(st, cur_rt(st)))
		return NULL;
	if (rt_mem_info(cur_rt(st), &f, &t, &e))
		return raise_rt(st, &e);
	return Py_BuildValue("(nn)", (Py_ssize_t)f, (Py_ssize_t)t);
}

static PyObject *py_mem_stats(PyObject *m, PyObject *unused)
{
	RtMemStats s;
	rt_mem_stats(cur_rt(mstate(m)), &s);
	return Py_BuildValue("{s:n,s:n,s:n,s:n,s:n,s:n}", "cached_bytes", (Py_ssize_t)s.cached_bytes,
	                     "live_bytes", (Py_ssize_t)s.live_bytes, "driver_allocs", (Py_ssize_t)s.driver_allocs,
	                     "cache_hits", (Py_ssize_t)s.hits, "cached_blocks", (Py_ssize_t)s.cached_blocks,
	                     "staged_copies", (Py_ssize_t)cur_rt(mstate(m))->staged_copies);
}

/* transfer_stats(): what launches moved for their NumPy arguments. */
static PyObject *py_transfer_stats(PyObject *m, PyObject *unused)
{
	Rt *rt = cur_rt(mstate(m));
	return Py_BuildValue("{s:n,s:n,s:n}", "bytes_to_device", (Py_ssize_t)rt->xfer_bytes[0],
	                     "bytes_from_device", (Py_ssize_t)rt->xfer_bytes[1],
	                     "dma_calls", (Py_ssize_t)rt->xfer_dmas);
}

/* set_transfer(mode=None, chunk=None, threads=None) -> dict: how
 * launches copy NumPy arguments ("staged" through the pinned ring,
 * "register": big arrays page-locked for the launch, or "driver":
 * straight from pageable memory), the ring's chunk in bytes
 * and the memcpy threads; returns the settings now in force. */
static PyObject *py_set_transfer(PyObject *m, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"mode", "chunk", "threads", NULL};
	const char *mode = NULL;
	long chunk = -1;
	int threads = -1, imode = -1;
	Rt *rt = cur_rt(mstate(m));
	RtErr e;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|zli", kwlist, &mode, &chunk, &threads))
		return NULL;
	if (mode) {
		if (strcmp(mode, "staged") == 0)
			imode = RT_XFER_STAGED;
		else if (strcmp(mode, "driver") == 0)
			imode = RT_XFER_DRIVER;
		else if (strcmp(mode, "register") == 0)
			imode = RT_XFER_REGISTER;
		else
			return PyErr_Format(PyExc_ValueError, "transfer mode '%s': 'staged', 'register' or 'driver'", mode);
	}
	if ((chunk != -1 && chunk <= 0) || (threads != -1 && threads <= 0))
		return PyErr_Format(PyExc_ValueError, "set_transfer: chunk and threads must be positive");
	for (int i = 0; i < RT_MAXDEV; i++) {
		int rc = 0;
		if (mstate(m)->rts[i])
			NOGIL(rc = rt_set_transfer(mstate(m)->rts[i], imode, chunk, threads, &e));
		if (rc)
			return raise_rt(mstate(m), &e);
	}
	static const char *const modes[] = {"staged", "driver", "register"};
	return Py_BuildValue("{s:s,s:n,s:i}", "mode", modes[rt->xfer_mode],
	                     "chunk", (Py_ssize_t)rt->chunk, "threads", rt->copy_threads);
}

static PyObject *py_trim(PyObject *m, PyObject *unused)
{
	for (int i = 0; i < RT_MAXDEV; i++)
		if (mstate(m)->rts[i])
			NOGIL(rt_trim(mstate(m)->rts[i]));
	Py_RETURN_NONE;
}

static PyObject *py_size_class(PyObject *m, PyObject *arg)
{
	Py_ssize_t n = PyLong_AsSsize_t(arg);
	if (n < 0)
		return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "negative size");
	int bin;
	return PyLong_FromSize_t(rt_size_class((size_t)n, &bin));
}

/* register_host(obj): pins the memory of a writable contiguous buffer. */
static PyObject *py_register_host(PyObject *m, PyObject *obj)
{
	ModState *st = mstate(m);
	Py_buffer v;
	RtErr e;
	if (enter_rt(st, cur_rt(st)) || PyObject_GetBuffer(obj, &v, PyBUF_ANY_CONTIGUOUS) < 0)
		return NULL;
	int rc;
	NOGIL(rc = rt_host_register(cur_rt(st), v.buf, (size_t)v.len, &e));
	PyBuffer_Release(&v);
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

/* map_host(obj): maps the memory of a writable contiguous buffer into
 * the device (pinning it); returns the device address of its start. */
static PyObject *py_map_host(PyObject *m, PyObject *obj)
{
	ModState *st = mstate(m);
	Py_buffer v;
	RtErr e;
	CUdeviceptr dev = 0;
	if (enter_rt(st, cur_rt(st)) || PyObject_GetBuffer(obj, &v, PyBUF_ANY_CONTIGUOUS | PyBUF_WRITABLE) < 0)
		return NULL;
	int rc;
	NOGIL(rc = rt_host_map(cur_rt(st), v.buf, (size_t)v.len, &dev, &e));
	PyBuffer_Release(&v);
	if (rc)
		return raise_rt(st, &e);
	return PyLong_FromUnsignedLongLong(dev);
}

/* ipc_get(ptr) -> (handle bytes, base, size) of the allocation holding ptr. */
static PyObject *py_ipc_get(PyObject *m, PyObject *arg)
{
	ModState *st = mstate(m);
	unsigned long long p = PyLong_AsUnsignedLongLong(arg);
	if (p == (unsigned long long)-1 && PyErr_Occurred())
		return NULL;
	unsigned char h[RT_IPC_HANDLE];
	CUdeviceptr base = 0;
	size_t size = 0;
	RtErr e;
	if (enter_rt(st, cur_rt(st)))
		return NULL;
	if (rt_ipc_get(cur_rt(st), p, h, &base, &size, &e))
		return raise_rt(st, &e);
	return Py_BuildValue("y#Kn", (const char *)h, (Py_ssize_t)RT_IPC_HANDLE, (unsigned long long)base,
	                     (Py_ssize_t)size);
}

/* sim_share(ptr, nbytes) -> (fd, base, size): the simulator's block
 * holding the bytes, shared through a memfd. */
static PyObject *py_sim_share(PyObject *m, PyObject *args)
{
	ModState *st = mstate(m);
	unsigned long long p, n;
	uint64_t base = 0;
	if (!PyArg_ParseTuple(args, "KK", &p, &n))
		return NULL;
	int fd;
	size_t size = 0;
	RtErr e;
	if (rt_sim_share(cur_rt(st), p, n, &fd, &base, &size, &e))
		return raise_rt(st, &e);
	return Py_BuildValue("iKn", fd, (unsigned long long)base, (Py_ssize_t)size);
}

/* ipc_open(handle bytes) -> (ptr, gen) of another process's allocation. */
static PyObject *py_ipc_open(PyObject *m, PyObject *arg)
{
	ModState *st = mstate(m);
	char *h;
	Py_ssize_t n;
	if (PyBytes_AsStringAndSize(arg, &h, &n) < 0)
		return NULL;
	if (n != RT_IPC_HANDLE)
		return PyErr_Format(PyExc_ValueError, "an IPC handle has %d bytes, not %zd", RT_IPC_HANDLE, n);
	CUdeviceptr p = 0;
	unsigned gen = 0;
	RtErr e;
	int rc;
	if (enter_rt(st, cur_rt(st)))
		return NULL;
	NOGIL(rc = rt_ipc_open(cur_rt(st), (const unsigned char *)h, &p, &gen, &e));
	if (rc)
		return raise_rt(st, &e);
	return Py_BuildValue("KI", (unsigned long long)p, gen);
}

/* ipc_close(ptr, gen): lets go of memory ipc_open opened. */
static PyObject *py_ipc_close(PyObject *m, PyObject *args)
{
	unsigned long long p;
	unsigned gen;
	if (!PyArg_ParseTuple(args, "KI", &p, &gen))
		return NULL;
	NOGIL(rt_ipc_close(cur_rt(mstate(m)), p, gen));
	Py_RETURN_NONE;
}

static PyObject *py_unregister_host(PyObject *m, PyObject *obj)
{
	ModState *st = mstate(m);
	Py_buffer v;
	RtErr e;
	if (PyObject_GetBuffer(obj, &v, PyBUF_ANY_CONTIGUOUS) < 0)
		return NULL;
	int rc;
	NOGIL(rc = rt_host_unregister(cur_rt(st), v.buf, &e));
	PyBuffer_Release(&v);
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

static PyObject *py_is_pinned(PyObject *m, PyObject *obj)
{
	Py_buffer v;
	if (PyObject_GetBuffer(obj, &v, PyBUF_ANY_CONTIGUOUS) < 0)
		return NULL;
	int yes = rt_is_pinned(cur_rt(mstate(m)), v.buf, (size_t)v.len);
	PyBuffer_Release(&v);
	return PyBool_FromLong(yes);
}

static PyObject *py_libcuda_name(PyObject *m, PyObject *unused)
{
	return PyUnicode_FromString(rt_libcuda_name());
}

/* ((name, result letters, argument letters), ...) of libdevice_tab.h */
static PyObject *py_libdevice_functions(PyObject *m, PyObject *unused)
{
	static const char *const rows[][3] = {
#define ROW(X, name, ret, args) {#name, ret, args},
		LIBDEVICE(ROW, X)
#undef ROW
	};
	size_t n = sizeof rows / sizeof rows[0];
	PyObject *t = PyTuple_New((Py_ssize_t)n);
	for (size_t i = 0; t && i < n; i++) {
		PyObject *r = Py_BuildValue("(sss)", rows[i][0], rows[i][1], rows[i][2]);
		if (!r) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, r);
	}
	return t;
}

/* the names of cuda.bf16's functions (BF16_FUNCS in core.h) */
static PyObject *py_bf16_functions(PyObject *m, PyObject *unused)
{
	static const char *const names[] = {
#define ROW(X, name, form, a, b) #name,
		BF16_FUNCS(ROW, X)
#undef ROW
	};
	size_t n = sizeof names / sizeof names[0];
	PyObject *t = PyTuple_New((Py_ssize_t)n);
	for (size_t i = 0; t && i < n; i++) {
		PyObject *s = PyUnicode_FromString(names[i]);
		if (!s) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, s);
	}
	return t;
}

/* ((alias, name), ...): numba-cuda's other spellings of cuda.bf16's functions */
static PyObject *py_bf16_aliases(PyObject *m, PyObject *unused)
{
	static const char *const rows[][2] = {
#define A(a, name) {#a, #name},
		BF16_ALIASES(A)
#undef A
	};
	size_t n = sizeof rows / sizeof rows[0];
	PyObject *t = PyTuple_New((Py_ssize_t)n);
	for (size_t i = 0; t && i < n; i++) {
		PyObject *r = Py_BuildValue("(ss)", rows[i][0], rows[i][1]);
		if (!r) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, r);
	}
	return t;
}

static PyMethodDef module_methods[] = {
	{"bf16_aliases", py_bf16_aliases, METH_NOARGS, "numba-cuda's other names of cuda.bf16's functions"},
	{"bf16_functions", py_bf16_functions, METH_NOARGS, "the names of cuda.bf16's functions"},
	{"libdevice_functions", py_libdevice_functions, METH_NOARGS,
	 "the functions of numba.cuda.libdevice: (name, result types, argument types), one letter a type"},
	{"compile", py_compile, METH_VARARGS,
	 "compile(info, argsig, options) -> Kernel: compiles one signature of a function"},
	{"infer_return", py_infer_return, METH_VARARGS,
	 "infer_return(info, argsig) -> str: the return type of a device function for argument types"},
	{"nfkc", py_nfkc, METH_O, "nfkc(name) -> str: name in NFKC, as the lexer normalises identifiers"},
	{"pick_signature", py_pick_signature, METH_VARARGS,
	 "pick_signature(argsig, sigs) -> tuple: the indices of the declared signatures that suit the arguments best"},
	{"set_resolve_table", py_set_resolve_table, METH_O,
	 "set_resolve_table(dict): id(obj) -> (obj, kind, qualname, module) for names kernels use"},
	{"is_simulator", py_is_simulator, METH_NOARGS, "True when PTXJIT_SIM selected the simulator"},
	{"set_launch_hook", py_set_launch_hook, METH_O,
	 "set_launch_hook(f): f(launcher, args) before a launch compiles, its result called after"},
	{"use_simulator", py_use_simulator, METH_NOARGS,
	 "switches to the simulator (before the first kernel and the first use of the driver)"},
	{"to_dlpack", py_to_dlpack, METH_VARARGS,
	 "to_dlpack(array, versioned, device_type, device_id, copied) -> a DLPack capsule over the array"},
	{"from_dlpack", py_from_dlpack, METH_O,
	 "from_dlpack(capsule) -> (ptr, shape, strides, typestr, device, readonly, keeper)"},
	{"set_config", py_set_config, METH_VARARGS,
	 "set_config(low_occupancy, implicit_copy, cai_sync): warnings launches give, and their stream ordering"},
	{"available", py_available, METH_NOARGS, "True if a device can be used (loads the driver)"},
	{"device_info", py_device_info, METH_VARARGS, "device_info(i=current): a dict describing device i"},
	{"device_attribute", py_device_attribute, METH_VARARGS,
	 "device_attribute(attr, i=current): the value of a CUdevice_attribute of device i"},
	{"device_count", py_device_count, METH_NOARGS, "the devices the driver sees (1 on the simulator)"},
	{"select_device", py_select_device, METH_O, "select_device(i): makes device i this thread's current device"},
	{"current_device", py_current_device, METH_NOARGS, "this thread's current device"},
	{"synchronize", py_synchronize, METH_NOARGS, "waits for all work on the device"},
	{"pending_callbacks", py_pending_callbacks, METH_NOARGS, "stream callbacks queued and not yet run"},
	{"finish_callbacks", py_finish_callbacks, METH_NOARGS,
	 "waits for every device's work, so that the queued stream callbacks run (at exit)"},
	{"stream_synchronize", py_stream_synchronize, METH_O, "waits for a stream given by its handle"},
	{"close", py_close, METH_VARARGS,
	 "close(i=every device): frees cached memory and releases the context (resets it after a fault)"},
	{"context_state", py_context_state, METH_NOARGS,
	 "{'lost', 'generation', 'resets', 'auto_reset', 'error'}: the context's state after faults"},
	{"mem_info", py_mem_info, METH_NOARGS, "(free, total) bytes of device memory"},
	{"mem_stats", py_mem_stats, METH_NOARGS, "the caching allocator's counters"},
	{"transfer_stats", py_transfer_stats, METH_NOARGS, "bytes launches copied for NumPy arguments"},
	{"set_transfer", (PyCFunction)(void (*)(void))py_set_transfer, METH_VARARGS | METH_KEYWORDS,
	 "set_transfer(mode=None, chunk=None, threads=None) -> the settings for NumPy arguments' copies"},
	{"trim", py_trim, METH_NOARGS, "frees the allocator's cached blocks"},
	{"size_class", py_size_class, METH_O, "the bytes the allocator reserves for a request"},
	{"register_host", py_register_host, METH_O, "pins a host buffer"},
	{"unregister_host", py_unregister_host, METH_O, "unpins a host buffer"},
	{"map_host", py_map_host, METH_O, "maps a host buffer into the device; its device address"},
	{"ipc_get", py_ipc_get, METH_O, "(handle, base, size) of the allocation holding a device address"},
	{"ipc_open", py_ipc_open, METH_O, "(address, generation) of an IPC handle opened"},
	{"ipc_close", py_ipc_close, METH_VARARGS, "closes an address ipc_open gave"},
	{"sim_share", py_sim_share, METH_VARARGS, "(fd, base, size): a simulator block shared through a memfd"},
	{"is_pinned", py_is_pinned, METH_O, "True if the buffer lies in pinned memory"},
	{"libcuda_name", py_libcuda_name, METH_NOARGS, "the driver library opened at first use"},
	{"ptxjitc", py_ptxjitc, METH_O, "ptxjitc(argv) -> exit status: runs the ptxjitc command"},
	{NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------ module setup */

static int env_on(const char *name)
{
	const char *s = getenv(name);
	return s && *s && strcmp(s, "0") != 0 && strcmp(s, "false") != 0 && strcmp(s, "no") != 0;
}

static int env_checks(void)
{
	const char *s = getenv("PTXJIT_SIM_CHECK");
	int f = 0;
	if (!s)
		return 0;
	if (strstr(s, "uninit") || strstr(s, "all"))
		f |= PJ_SIM_UNINIT;
	if (strstr(s, "race") || strstr(s, "all"))
		f |= PJ_SIM_RACE;
	return f;
}

static PyObject *new_exc(PyObject *m, const char *name, PyObject *bases, const char *doc)
{
	char full[128];
	snprintf(full, sizeof full, "ptxjit.errors.%s", name);
	PyObject *e = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
	if (!e)
		return NULL;
	if (PyModule_AddObjectRef(m, name, e) < 0) {
		Py_DECREF(e);
		return NULL;
	}
	return e;
}

static PyTypeObject *new_type(PyObject *m, PyType_Spec *spec, PyObject *base, const char *name)
{
	PyObject *t = PyType_FromModuleAndSpec(m, spec, base);
	if (!t)
		return NULL;
	if (PyModule_AddObjectRef(m, name, t) < 0) {
		Py_DECREF(t);
		return NULL;
	}
	return (PyTypeObject *)t;
}

static int module_exec(PyObject *m)
{
	ModState *st = mstate(m);
	const char *sim = getenv("PTXJIT_SIM");
	st->sim = sim && *sim ? env_on("PTXJIT_SIM") : env_on("NUMBA_ENABLE_CUDASIM");
	st->rts[0] = rt_new(st->sim, env_checks(), 0);
	if (!st->rts[0]) {
		PyErr_NoMemory();
		return -1;
	}
	PyObject *b2, *b3;
	if (!(b3 = PyTuple_Pack(2, PyExc_ImportError, PyExc_RuntimeError)))
		return -1;
	st->CudaSupportError = new_exc(m, "CudaSupportError", b3, "No CUDA driver or no GPU was found "
	                               "(an ImportError, as Numba's, and a RuntimeError).");
	Py_DECREF(b3);
	if (!st->CudaSupportError ||
	    !(st->TypingError = new_exc(m, "TypingError", PyExc_Exception,
	                                "A kernel uses Python that ptxjit does not support; the message shows where.")) ||
	    !(st->InternalCompilerError = new_exc(m, "InternalCompilerError", PyExc_Exception,
	                                          "A bug in ptxjit's compiler.")) ||
	    !(st->CudaDriverError = new_exc(m, "CudaDriverError", PyExc_RuntimeError,
	                                    "The CUDA driver refused an operation.")) ||
	    !(st->CudaAPIError = new_exc(m, "CudaAPIError", st->CudaDriverError,
	                                 "A CUDA driver call failed: .code and .name give its CUresult.")) ||
	    !(st->SimulatorError = new_exc(m, "SimulatorError", PyExc_RuntimeError,
	                                   "The simulator stopped a kernel.")))
		return -1;
	if (!(b2 = PyTuple_Pack(2, st->TypingError, PyExc_TypeError)))
		return -1;
	st->KernelTypeError = new_exc(m, "KernelTypeError", b2,
	                              "A kernel's source is wrong in a way Numba reports as a TypeError (it returns a value).");
	Py_DECREF(b2);
	if (!st->KernelTypeError)
		return -1;
	if (!(b2 = PyTuple_Pack(2, st->TypingError, PyExc_ValueError)))
		return -1;
	st->KernelValueError = new_exc(m, "KernelValueError", b2,
	                               "A kernel's source is wrong in a way Numba reports as a ValueError (an alignment "
	                               "that is no power of two).");
	Py_DECREF(b2);
	if (!st->KernelValueError)
		return -1;
	if (!(b2 = PyTuple_Pack(2, st->CudaAPIError, PyExc_ValueError)))
		return -1;
	st->CudaLaunchError = new_exc(m, "CudaLaunchError", b2,
	                              "A launch configuration the driver would refuse (CUDA_ERROR_INVALID_VALUE), "
	                              "refused before the launch.");
	Py_DECREF(b2);
	PyObject *code = PyLong_FromLong(1), *cname = PyUnicode_FromString("CUDA_ERROR_INVALID_VALUE");
	int bad = !st->CudaLaunchError || !code || !cname ||
	          PyObject_SetAttrString(st->CudaLaunchError, "code", code) ||
	          PyObject_SetAttrString(st->CudaLaunchError, "name", cname);
	Py_XDECREF(code);
	Py_XDECREF(cname);
	if (bad)
		return -1;
	if (!(b2 = PyTuple_Pack(2, st->SimulatorError, PyExc_IndexError)))
		return -1;
	st->SimIndexError = new_exc(m, "SimIndexError", b2,
	                            "A kernel accessed an array out of its bounds (simulator).");
	Py_DECREF(b2);
	if (!st->SimIndexError ||
	    !(st->DeadlockError = new_exc(m, "DeadlockError", st->SimulatorError,
	                                  "Not every thread of a block reached a barrier (simulator).")) ||
	    !(st->TrapError = new_exc(m, "TrapError", st->SimulatorError,
	                              "A kernel stopped itself: a failed assert or a raise (simulator).")) ||
	    !(st->UninitializedReadError = new_exc(m, "UninitializedReadError", st->SimulatorError,
	                                           "Shared memory read before any thread wrote it (simulator).")) ||
	    !(st->RaceError = new_exc(m, "RaceError", st->SimulatorError,
	                              "Two threads wrote one shared address between barriers (simulator).")))
		return -1;
	if (!(st->NumbaWarning = new_exc(m, "NumbaWarning", PyExc_Warning,
	                                 "The base class of the warnings ptxjit gives with Numba's names.")) ||
	    !(st->NumbaPerformanceWarning = new_exc(m, "NumbaPerformanceWarning", st->NumbaWarning,
	                                            "A launch that will run slowly on the GPU: a small grid, or "
	                                            "host arrays copied at every launch.")) ||
	    !(st->NumbaInvalidConfigWarning = new_exc(m, "NumbaInvalidConfigWarning", st->NumbaWarning,
	                                              "Options that do not go together.")))
		return -1;
	st->warn_occupancy = st->warn_copy = st->cai_sync = 1;

	if (!(st->DeviceArray_T = new_type(m, &DeviceArray_spec, NULL, "DeviceArray")) ||
	    !(st->HostBuffer_T = new_type(m, &HostBuffer_spec, NULL, "HostBuffer")) ||
	    !(st->HostMemory_T = new_type(m, &HostMemory_spec, NULL, "HostMemory")) ||
	    !(st->Stream_T = new_type(m, &Stream_spec, NULL, "Stream")) ||
	    !(st->Event_T = new_type(m, &Event_spec, NULL, "Event")) ||
	    !(st->Graph_T = new_type(m, &Graph_spec, NULL, "Graph")) ||
	    !(st->Kernel_T = new_type(m, &Kernel_spec, NULL, "Kernel")) ||
	    !(st->Dispatcher_T = new_type(m, &Dispatcher_spec, NULL, "Dispatcher")) ||
	    !(st->Launcher_T = new_type(m, &Launcher_spec, NULL, "Launcher")))
		return -1;
	if (cpu_init(m, st) < 0)
		return -1;

#define INTERN(field, text) if (!(st->field = PyUnicode_InternFromString(text))) return -1
	INTERN(s_cai, "__cuda_array_interface__");
	INTERN(s_compile_for, "_compile_for");
	INTERN(s_pj_info, "_pj_info");
	INTERN(s_pj_extern, "_pj_extern");
	INTERN(s_shape, "shape");
	INTERN(s_typestr, "typestr");
	INTERN(s_data, "data");
	INTERN(s_strides, "strides");
	INTERN(s_mask, "mask");
	INTERN(s_stream, "stream");
	INTERN(s_name, "__name__");
	INTERN(s_builtins, "__builtins__");
#undef INTERN
	if (PyModule_AddStringConstant(m, "PJ_VERSION", PJ_VERSION) < 0 ||
	    PyModule_AddStringConstant(m, "NFKC_UNICODE_VERSION", pj_nfkc_unicode_version()) < 0 ||
	    PyModule_AddIntConstant(m, "SIM_CHECK", st->rts[0]->sim_check) < 0 ||
	    PyModule_AddIntConstant(m, "MAXDIM", PJ_MAXDIM) < 0 ||
	    PyModule_AddIntConstant(m, "MAXARGS", PJ_MAXARGS) < 0)
		return -1;
	return 0;
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
	ModState *st = mstate(m);
	Py_VISIT(st->TypingError);
	Py_VISIT(st->KernelTypeError);
	Py_VISIT(st->KernelValueError);
	Py_VISIT(st->launch_hook);
	Py_VISIT(st->InternalCompilerError);
	Py_VISIT(st->CudaSupportError);
	Py_VISIT(st->CudaDriverError);
	Py_VISIT(st->CudaAPIError);
	Py_VISIT(st->CudaLaunchError);
	Py_VISIT(st->SimulatorError);
	Py_VISIT(st->SimIndexError);
	Py_VISIT(st->DeadlockError);
	Py_VISIT(st->TrapError);
	Py_VISIT(st->UninitializedReadError);
	Py_VISIT(st->RaceError);
	Py_VISIT(st->NumbaWarning);
	Py_VISIT(st->NumbaPerformanceWarning);
	Py_VISIT(st->NumbaInvalidConfigWarning);
	Py_VISIT(st->DeviceArray_T);
	Py_VISIT(st->HostBuffer_T);
	Py_VISIT(st->HostMemory_T);
	Py_VISIT(st->Stream_T);
	Py_VISIT(st->Event_T);
	Py_VISIT(st->Graph_T);
	Py_VISIT(st->Kernel_T);
	Py_VISIT(st->Dispatcher_T);
	Py_VISIT(st->Launcher_T);
	Py_VISIT(st->resolve_table);
	Py_VISIT(st->records);
	for (int i = 0; i < st->ntcache; i++)
		Py_VISIT(st->tcache[i].t);
	return 0;
}

static int module_clear(PyObject *m)
{
	ModState *st = mstate(m);
	Py_CLEAR(st->TypingError);
	Py_CLEAR(st->KernelTypeError);
	Py_CLEAR(st->KernelValueError);
	Py_CLEAR(st->launch_hook);
	Py_CLEAR(st->InternalCompilerError);
	Py_CLEAR(st->CudaSupportError);
	Py_CLEAR(st->CudaDriverError);
	Py_CLEAR(st->CudaAPIError);
	Py_CLEAR(st->CudaLaunchError);
	Py_CLEAR(st->SimulatorError);
	Py_CLEAR(st->SimIndexError);
	Py_CLEAR(st->DeadlockError);
	Py_CLEAR(st->TrapError);
	Py_CLEAR(st->UninitializedReadError);
	Py_CLEAR(st->RaceError);
	Py_CLEAR(st->NumbaWarning);
	Py_CLEAR(st->NumbaPerformanceWarning);
	Py_CLEAR(st->NumbaInvalidConfigWarning);
	Py_CLEAR(st->DeviceArray_T);
	Py_CLEAR(st->HostBuffer_T);
	Py_CLEAR(st->HostMemory_T);
	Py_CLEAR(st->Stream_T);
	Py_CLEAR(st->Event_T);
	Py_CLEAR(st->Graph_T);
	Py_CLEAR(st->Kernel_T);
	Py_CLEAR(st->Dispatcher_T);
	Py_CLEAR(st->Launcher_T);
	Py_CLEAR(st->resolve_table);
	Py_CLEAR(st->records);
	for (int i = 0; i < st->ntcache; i++)
		Py_CLEAR(st->tcache[i].t);
	st->ntcache = 0;
	Py_CLEAR(st->s_cai);
	Py_CLEAR(st->s_compile_for);
	Py_CLEAR(st->s_pj_info);
	Py_CLEAR(st->s_pj_extern);
	Py_CLEAR(st->s_shape);
	Py_CLEAR(st->s_typestr);
	Py_CLEAR(st->s_data);
	Py_CLEAR(st->s_strides);
	Py_CLEAR(st->s_mask);
	Py_CLEAR(st->s_stream);
	Py_CLEAR(st->s_name);
	Py_CLEAR(st->s_builtins);
	return 0;
}

/* The runtime is not freed with the module: objects of the module's
 * types may still release memory into it while the interpreter shuts
 * down, and the driver must not be called from an exit handler. */
static void module_free(void *m)
{
	module_clear((PyObject *)m);
}

static PyModuleDef_Slot module_slots[] = {
	{Py_mod_exec, module_exec},
	{0, NULL},
};

static PyModuleDef moduledef = {
	PyModuleDef_HEAD_INIT,
	.m_name = "ptxjit._core",
	.m_doc = "ptxjit's compiler and CUDA runtime (C).",
	.m_size = sizeof(ModState),
	.m_methods = module_methods,
	.m_slots = module_slots,
	.m_traverse = module_traverse,
	.m_clear = module_clear,
	.m_free = module_free,
};

PyMODINIT_FUNC PyInit__core(void)
{
	return PyModuleDef_Init(&moduledef);
}

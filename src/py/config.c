/*
 * config.c - the objects of the launch path: Dispatcher, the C base of a
 * @cuda.jit function (python/ptxjit/cuda/dispatcher.py), and Launcher,
 * what `kernel[grid, block, stream, shared]` returns; calling a Launcher
 * launches (launch.c).
 *
 * A configuration is parsed and checked once (sizes of 1 to 2^31-1,
 * Numba's and the hardware's limits on blocks and grids, a stream of
 * ours, 0 or None).  A dispatcher keeps its last NLAUNCHERS launchers,
 * each with the subscript it came from, so that `k[blocks, threads]` in
 * a loop finds its launcher again without parsing: a subscript whose
 * items are the same ints (or tuples of ints) as a kept one, and the same
 * stream object, is the same configuration.  Anything else (lists, NumPy
 * integers, a stream made before cuda.close()) takes the full parse,
 * which also ends at a kept launcher when the values agree.
 */
#include "launch.h"

#include <string.h>

/* ------------------------------------------------------------ Launcher */

static int Launcher_traverse(LauncherObject *L, visitproc visit, void *arg)
{
	Py_VISIT(L->d);
	Py_VISIT(L->cfg);
	Py_VISIT(L->stream_obj);
	Py_VISIT(L->callbacks);
	Py_VISIT(Py_TYPE(L));
	return 0;
}

static int Launcher_clear(LauncherObject *L)
{
	Py_CLEAR(L->d);
	Py_CLEAR(L->cfg);
	Py_CLEAR(L->stream_obj);
	Py_CLEAR(L->callbacks);
	return 0;
}

static void Launcher_dealloc(LauncherObject *L)
{
	PyTypeObject *tp = Py_TYPE(L);
	PyObject_GC_UnTrack(L);
	Launcher_clear(L);
	tp->tp_free((PyObject *)L);
	Py_DECREF(tp);
}

static PyObject *dims_tuple(const unsigned *v)
{
	return Py_BuildValue("(III)", v[0], v[1], v[2]);
}
static PyObject *Launcher_griddim(LauncherObject *L, void *c) { return dims_tuple(L->grid); }
static PyObject *Launcher_blockdim(LauncherObject *L, void *c) { return dims_tuple(L->block); }
static PyObject *Launcher_sharedmem(LauncherObject *L, void *c) { return PyLong_FromUnsignedLong(L->smem); }
static PyObject *Launcher_stream(LauncherObject *L, void *c)
{
	PyObject *s = L->stream_obj ? L->stream_obj : Py_None;
	Py_INCREF(s);
	return s;
}
static PyObject *Launcher_dispatcher(LauncherObject *L, void *c)
{
	Py_INCREF(L->d);
	return (PyObject *)L->d;
}

/* The arguments of the launch compiling its kernel on this thread
 * (ptxjit.cuda.launchconfig), None at any other time, as Numba's. */
static PyObject *Launcher_args(LauncherObject *L, void *c)
{
	PyObject *m = PyImport_ImportModule("ptxjit.cuda.launchconfig");
	PyObject *cfg = m ? PyObject_CallMethod(m, "current_launch_config", NULL) : NULL;
	Py_XDECREF(m);
	if (!cfg || cfg == Py_None)
		return cfg;
	PyObject *a = PyObject_GetAttrString(cfg, "args");
	Py_DECREF(cfg);
	return a;
}

/* Numba's pre_launch_callbacks: host functions called (kernel, launcher)
 * right before each launch through this configuration.  kernel[grid,
 * block] hands back a kept launcher for a configuration seen before; one
 * whose list is asked for leaves that reuse, so the callbacks stay with
 * this object and a later kernel[grid, block] gets a launcher of its own. */
static PyObject *Launcher_callbacks(LauncherObject *L, void *c)
{
	if (!L->callbacks) {
		if (!(L->callbacks = PyList_New(0)))
			return NULL;
		for (int j = 0; L->d && j < NLAUNCHERS; j++)
			if (L->d->launchers[j] == L)
				Py_CLEAR(L->d->launchers[j]);
	}
	Py_INCREF(L->callbacks);
	return L->callbacks;
}

static PyGetSetDef Launcher_getset[] = {
	{"pre_launch_callbacks", (getter)Launcher_callbacks, NULL,
	 "functions called (kernel, launch configuration) before each launch through it", NULL},
	{"args", (getter)Launcher_args, NULL, "the arguments of the launch compiling on this thread, else None",
	 NULL},
	{"griddim", (getter)Launcher_griddim, NULL, "blocks in the grid (x, y, z)", NULL},
	{"blockdim", (getter)Launcher_blockdim, NULL, "threads in a block (x, y, z)", NULL},
	{"sharedmem", (getter)Launcher_sharedmem, NULL, "bytes of dynamic shared memory", NULL},
	{"stream", (getter)Launcher_stream, NULL, "the stream launches go to", NULL},
	{"dispatcher", (getter)Launcher_dispatcher, NULL, "the kernel", NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef Launcher_members[] = {
	{"__vectorcalloffset__", T_PYSSIZET, offsetof(LauncherObject, vectorcall), READONLY, NULL},
	{NULL, 0, 0, 0, NULL},
};

static PyObject *Launcher_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	PyErr_SetString(PyExc_TypeError, "launchers come from subscripting a kernel: kernel[grid, block]");
	return NULL;
}

static PyType_Slot Launcher_slots[] = {
	{Py_tp_new, Launcher_new},
	{Py_tp_dealloc, Launcher_dealloc},
	{Py_tp_traverse, Launcher_traverse},
	{Py_tp_clear, Launcher_clear},
	{Py_tp_call, PyVectorcall_Call},
	{Py_tp_getset, Launcher_getset},
	{Py_tp_members, Launcher_members},
	{Py_tp_doc, "A kernel with a launch configuration; call it with the kernel's arguments."},
	{0, NULL},
};

PyType_Spec Launcher_spec = {
	.name = "ptxjit._core.Launcher",
	.basicsize = sizeof(LauncherObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
	.slots = Launcher_slots,
};

/* ------------------------------------------ parsing a configuration */

/* The configuration o as a list, as Numba's messages show it ([2.0] for 2.0). */
static PyObject *dims_list(PyObject *o)
{
	if (PyTuple_Check(o) || PyList_Check(o))
		return PySequence_List(o);
	PyObject *l = PyList_New(1);
	if (l)
		PyList_SET_ITEM(l, 0, Py_NewRef(o));
	return l;
}

static int parse_dims(DispatcherObject *d, PyObject *o, const char *what, unsigned out[3])
{
	out[0] = out[1] = out[2] = 1;
	PyObject *items[3], *l;
	Py_ssize_t n;
	if (PyTuple_Check(o) || PyList_Check(o)) {
		n = PySequence_Fast_GET_SIZE(o);
		if (n < 1 || n > 3) {
			if ((l = dims_list(o)))
				PyErr_Format(PyExc_ValueError, "kernel '%s': the %s %R has %zd dimensions; it must be an int "
				             "or a tuple of 1 to 3 ints (%sdim must be a sequence of 1, 2 or 3 integers, got %R)",
				             d->name, what, o, n, what, l);
			Py_XDECREF(l);
			return -1;
		}
		for (Py_ssize_t j = 0; j < n; j++)
			items[j] = PySequence_Fast_GET_ITEM(o, j);
	} else if (PyIndex_Check(o) && !PyBool_Check(o)) {
		n = 1;
		items[0] = o;
	} else {
		if ((l = dims_list(o)))
			PyErr_Format(PyExc_TypeError, "kernel '%s': the %s must be an int or a tuple of 1 to 3 ints, "
			             "not %.100s (%sdim must be a sequence of integers, got %R)", d->name, what,
			             Py_TYPE(o)->tp_name, what, l);
		Py_XDECREF(l);
		return -1;
	}
	for (Py_ssize_t j = 0; j < n; j++) {
		if (!PyIndex_Check(items[j]) || PyBool_Check(items[j])) {
			if ((l = dims_list(o)))
				PyErr_Format(PyExc_TypeError, "kernel '%s': the %s %R holds a %.100s; it must be an int or a "
				             "tuple of 1 to 3 ints (%sdim must be a sequence of integers, got %R)", d->name,
				             what, o, Py_TYPE(items[j])->tp_name, what, l);
			Py_XDECREF(l);
			return -1;
		}
		PyObject *ix = PyNumber_Index(items[j]);
		if (!ix)
			return -1;
		long long v = PyLong_AsLongLong(ix);
		Py_DECREF(ix);
		if (v == -1 && PyErr_Occurred()) {
			PyErr_Clear();
			v = (long long)1 << 40;
		}
		if (v < 1 || v > 0x7fffffffLL) {
			PyErr_Format(PyExc_ValueError, "kernel '%s': the %s %R has a size of %lld; sizes must be at least "
			             "1 (and at most 2**31-1)", d->name, what, o, v);
			return -1;
		}
		out[j] = (unsigned)v;
	}
	return 0;
}

/* A configuration the driver would refuse with CUDA_ERROR_INVALID_VALUE is
 * refused here, with a message that says why, as a CudaLaunchError. */
static int check_config(DispatcherObject *d, const unsigned grid[3], const unsigned block[3])
{
	static const unsigned max_block[3] = {1024, 1024, 64}, max_grid[3] = {0x7fffffff, 65535, 65535};
	unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
	if (threads > 1024) {
		PyErr_Format(launch_error_class(d->st), "kernel '%s': a block of (%u, %u, %u) is %llu threads; a block "
		             "has at most 1024 threads (CUDA_ERROR_INVALID_VALUE)", d->name, block[0], block[1], block[2],
		             threads);
		return -1;
	}
	if (d->max_threads > 0 && threads > (unsigned long long)d->max_threads) {
		PyErr_Format(launch_error_class(d->st), "kernel '%s': a block of (%u, %u, %u) is %llu threads; its "
		             "launch_bounds allow at most %d (CUDA_ERROR_INVALID_VALUE)", d->name, block[0], block[1],
		             block[2], threads, d->max_threads);
		return -1;
	}
	for (int j = 0; j < 3; j++) {
		if (block[j] > max_block[j]) {
			PyErr_Format(launch_error_class(d->st), "kernel '%s': block dimension %c is %u; the most is %u "
			             "(CUDA_ERROR_INVALID_VALUE)", d->name, "xyz"[j], block[j], max_block[j]);
			return -1;
		}
		if (grid[j] > max_grid[j]) {
			PyErr_Format(launch_error_class(d->st), "kernel '%s': grid dimension %c is %u; the most is %u "
			             "(CUDA_ERROR_INVALID_VALUE)", d->name, "xyz"[j], grid[j], max_grid[j]);
			return -1;
		}
	}
	return 0;
}

/* ----------------------------------------- finding a kept launcher */

static int same_int(PyObject *x, PyObject *y)
{
	if (!PyLong_CheckExact(x) || !PyLong_CheckExact(y))
		return 0;
	if (x == y)
		return 1;
	long a = PyLong_AsLong(x), b = PyLong_AsLong(y);
	if ((a == -1 || b == -1) && PyErr_Occurred()) {
		PyErr_Clear();
		return 0;
	}
	return a == b;
}

/* x, from a new subscript, is the grid or block y was (an int, or a
 * tuple of ints). */
static int same_dims(PyObject *x, PyObject *y)
{
	if (PyLong_CheckExact(x))
		return same_int(x, y);
	if (!PyTuple_CheckExact(x) || !PyTuple_CheckExact(y) || PyTuple_GET_SIZE(x) != PyTuple_GET_SIZE(y))
		return 0;
	for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(x); j++)
		if (!same_int(PyTuple_GET_ITEM(x, j), PyTuple_GET_ITEM(y, j)))
			return 0;
	return 1;
}

static int same_stream(ModState *st, PyObject *x, PyObject *y, LauncherObject *L)
{
	if (x != y)
		return 0;
	if (x == Py_None || PyLong_CheckExact(x))
		return 1;
	if (Py_TYPE(x) != st->Stream_T)
		return 0;
	StreamObject *so = (StreamObject *)x;
	return so->s == L->stream && !(so->owned && !st->sim && so->gen != so->rt->gen);
}

static LauncherObject *kept_launcher(DispatcherObject *d, PyObject *key)
{
	ModState *st = d->st;
	Py_ssize_t n = PyTuple_GET_SIZE(key);
	for (int j = 0; j < NLAUNCHERS; j++) {
		LauncherObject *L = d->launchers[j];
		if (!L || PyTuple_GET_SIZE(L->cfg) != n)
			continue;
		PyObject *const *x = &PyTuple_GET_ITEM(key, 0), *const *y = &PyTuple_GET_ITEM(L->cfg, 0);
		if (same_dims(x[0], y[0]) && same_dims(x[1], y[1]) && (n < 3 || same_stream(st, x[2], y[2], L)) &&
		    (n < 4 || same_int(x[3], y[3])))
			return L;
	}
	return NULL;
}

/* ---------------------------------------------------------- Dispatcher */

/* The pending exception again, its message starting with the kernel's
 * name (for messages of helpers that serve more than launches). */
static PyObject *name_in_error(DispatcherObject *d)
{
	PyObject *t, *v, *tb;
	PyErr_Fetch(&t, &v, &tb);
	PyErr_NormalizeException(&t, &v, &tb);
	PyObject *msg = v ? PyObject_Str(v) : NULL;
	if (msg) {
		PyErr_Format(t, "kernel '%s': %U", d->name, msg);
		Py_DECREF(msg);
		Py_XDECREF(t);
		Py_XDECREF(v);
		Py_XDECREF(tb);
	} else {
		PyErr_Restore(t, v, tb);
	}
	return NULL;
}

static PyObject *Dispatcher_getitem(DispatcherObject *d, PyObject *key)
{
	ModState *st = d->st;
	LauncherObject *L;
	if (PyTuple_CheckExact(key) && (L = kept_launcher(d, key))) {
		Py_INCREF(L);
		return (PyObject *)L;
	}
	if (d->is_device)
		return PyErr_Format(PyExc_RuntimeError, "Cannot compile a device function as a kernel: '%s' is a "
		                    "device function (device=True); it is called from kernels, not launched", d->name);
	if (d->nparams < 0)
		return PyErr_Format(PyExc_TypeError, "kernel '%s' is not set up", d->name);
	if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) < 2 || PyTuple_GET_SIZE(key) > 4)
		return PyErr_Format(PyExc_ValueError, "kernel '%s': a launch configuration is [grid, block], "
		                    "[grid, block, stream] or [grid, block, stream, shared_bytes], not [%S]",
		                    d->name, key);
	unsigned grid[3], block[3];
	if (parse_dims(d, PyTuple_GET_ITEM(key, 0), "grid", grid) ||
	    parse_dims(d, PyTuple_GET_ITEM(key, 1), "block", block) || check_config(d, grid, block))
		return NULL;
	PyObject *so = PyTuple_GET_SIZE(key) > 2 ? PyTuple_GET_ITEM(key, 2) : Py_None;
	unsigned long long smem = 0;
	if (PyTuple_GET_SIZE(key) > 3) {
		PyObject *sm = PyTuple_GET_ITEM(key, 3);
		if (!PyIndex_Check(sm) || PyBool_Check(sm))
			return PyErr_Format(PyExc_TypeError, "kernel '%s': shared memory is a number of bytes, not %.100s",
			                    d->name, Py_TYPE(sm)->tp_name);
		long long v = PyLong_AsLongLong(sm);
		if (v == -1 && PyErr_Occurred())
			return NULL;
		if (v < 0 || v > 0x7fffffffLL)
			return PyErr_Format(PyExc_ValueError, "kernel '%s': %lld bytes of dynamic shared memory; the "
			                    "amount must be %s", d->name, v, v < 0 ? "0 or more" : "at most 2**31-1");
		smem = (unsigned long long)v;
	}
	CUstream s;
	int async;
	if (stream_arg(st, so, NULL, &s, &async))   /* its device is checked at each launch */
		return name_in_error(d);
	Rt *srt = PyObject_TypeCheck(so, st->Stream_T) && ((StreamObject *)so)->owned ? ((StreamObject *)so)->rt : NULL;
	for (int j = 0; j < NLAUNCHERS; j++) {
		L = d->launchers[j];
		if (L && memcmp(L->grid, grid, sizeof grid) == 0 && memcmp(L->block, block, sizeof block) == 0 &&
		    L->smem == smem && L->stream == s && L->async == async) {
			Py_INCREF(key);
			Py_SETREF(L->cfg, key);   /* found by this spelling from now on */
			Py_XINCREF(so == Py_None ? NULL : so);
			Py_XSETREF(L->stream_obj, so == Py_None ? NULL : so);
			Py_INCREF(L);
			return (PyObject *)L;
		}
	}
	unsigned long long blocks = (unsigned long long)grid[0] * grid[1] * grid[2];
	if (st->warn_occupancy && blocks < LOW_OCCUPANCY_GRID &&
	    PyErr_WarnFormat(st->NumbaPerformanceWarning, 1, "Grid size %llu will likely result in GPU "
	                     "under-utilization due to low occupancy.", blocks) < 0)
		return NULL;
	L = (LauncherObject *)st->Launcher_T->tp_alloc(st->Launcher_T, 0);
	if (!L)
		return NULL;
	L->vectorcall = (vectorcallfunc)launch_call;
	Py_INCREF(d);
	L->d = d;
	Py_INCREF(key);
	L->cfg = key;
	memcpy(L->grid, grid, sizeof grid);
	memcpy(L->block, block, sizeof block);
	L->smem = (unsigned)smem;
	L->stream = s;
	L->stream_rt = srt;
	L->async = async;
	if (so != Py_None) {
		Py_INCREF(so);
		L->stream_obj = so;
	}
	Py_INCREF(L);
	Py_XSETREF(d->launchers[d->next_launcher], L);
	d->next_launcher = (d->next_launcher + 1) % NLAUNCHERS;
	return (PyObject *)L;
}

static void forget_launchers(DispatcherObject *d)
{
	for (int j = 0; j < NLAUNCHERS; j++)
		Py_CLEAR(d->launchers[j]);
}

static PyObject *Dispatcher_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	ModState *st = state_of_type(type);
	if (!st)
		return NULL;
	DispatcherObject *d = (DispatcherObject *)type->tp_alloc(type, 0);
	if (!d)
		return NULL;
	d->st = st;
	d->nparams = -1;
	d->last = -1;
	snprintf(d->name, sizeof d->name, "?");
	return (PyObject *)d;
}

static int Dispatcher_traverse(DispatcherObject *d, visitproc visit, void *arg)
{
	for (int i = 0; i < d->cap; i++)
		Py_VISIT(d->tab[i].k);
	for (int j = 0; j < NLAUNCHERS; j++)
		Py_VISIT(d->launchers[j]);
	Py_VISIT(d->argnames);
	Py_VISIT(Py_TYPE(d));
	return 0;
}

static int Dispatcher_clear(DispatcherObject *d)
{
	launch_table_clear(d);
	forget_launchers(d);
	Py_CLEAR(d->argnames);
	return 0;
}

static void Dispatcher_dealloc(DispatcherObject *d)
{
	PyTypeObject *tp = Py_TYPE(d);
	PyObject_GC_UnTrack(d);
	Dispatcher_clear(d);
	tp->tp_free((PyObject *)d);
	Py_DECREF(tp);
}

/* _setup(name, argnames, nrequired, sync_after, is_device[, max_threads]) */
static PyObject *Dispatcher_setup(DispatcherObject *d, PyObject *args)
{
	const char *name;
	PyObject *argnames;
	int nrequired, sync_after, is_device, max_threads = 0;
	if (!PyArg_ParseTuple(args, "sO!ipp|i", &name, &PyTuple_Type, &argnames, &nrequired, &sync_after,
	                      &is_device, &max_threads))
		return NULL;
	d->max_threads = max_threads;
	if (PyTuple_GET_SIZE(argnames) > PJ_MAXARGS)
		return PyErr_Format(PyExc_TypeError, "kernel '%s' has %zd parameters; at most %d are supported",
		                    name, PyTuple_GET_SIZE(argnames), PJ_MAXARGS);
	snprintf(d->name, sizeof d->name, "%s", name);
	Py_INCREF(argnames);
	Py_XSETREF(d->argnames, argnames);
	d->nparams = (int)PyTuple_GET_SIZE(argnames);
	d->nrequired = nrequired < 0 ? 0 : nrequired > d->nparams ? d->nparams : nrequired;
	d->sync_after = sync_after;
	d->is_device = is_device;
	forget_launchers(d);
	Py_RETURN_NONE;
}

/* _cache_clear(): forgets every compiled signature of the launch path. */
static PyObject *Dispatcher_cache_clear(DispatcherObject *d, PyObject *unused)
{
	launch_table_clear(d);
	forget_launchers(d);
	Py_RETURN_NONE;
}

static PyObject *Dispatcher_cache_size(DispatcherObject *d, PyObject *unused)
{
	return PyLong_FromLong(d->count);
}

/* _typeof(args): the type of each argument as a launch sees it, in
 * Numba's spelling (for specialize() and forall()). */
static PyObject *Dispatcher_typeof(DispatcherObject *d, PyObject *args)
{
	if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) > PJ_MAXARGS)
		return PyErr_Format(PyExc_TypeError, "_typeof() takes a tuple of at most %d arguments", PJ_MAXARGS);
	int n = (int)PyTuple_GET_SIZE(args), i = 0;
	ArgInfo *a = PyMem_Calloc(n ? (size_t)n : 1, sizeof *a);
	PyObject *out = PyTuple_New(n);
	LauncherObject none;
	memset(&none, 0, sizeof none);
	if (!a || !out)
		goto fail;
	for (i = 0; i < n; i++) {
		PyObject *s = arg_classify(d, i, PyTuple_GET_ITEM(args, i), &a[i], &none) ? NULL
		              : arg_type_string(d->st, &a[i]);
		if (!s) {
			i++;
			goto fail;
		}
		PyTuple_SET_ITEM(out, i, s);
	}
	arg_release(d->st, a, n);
	PyMem_Free(a);
	return out;
fail:
	if (a)
		arg_release(d->st, a, i);
	PyMem_Free(a);
	Py_XDECREF(out);
	return a ? NULL : PyErr_NoMemory();
}

static PyObject *Dispatcher_call(DispatcherObject *d, PyObject *args, PyObject *kwds)
{
	if (d->is_device)
		return PyErr_Format(PyExc_TypeError, "'%s' is a device function (device=True); call it from a "
		                    "kernel, not from Python", d->name);
	return PyErr_Format(PyExc_ValueError, "kernel '%s' was called without a launch configuration (launch "
	                    "configuration was not specified); launch it as %s[blocks, threads](...)", d->name, d->name);
}

static PyMethodDef Dispatcher_methods[] = {
	{"_setup", (PyCFunction)Dispatcher_setup, METH_VARARGS,
	 "_setup(name, argnames, nrequired, sync_after, is_device[, max_threads]): max_threads, launch_bounds' "
	 "most threads a block (0: 1024)"},
	{"_cache_clear", (PyCFunction)Dispatcher_cache_clear, METH_NOARGS, "forgets the launch path's signatures"},
	{"_cache_size", (PyCFunction)Dispatcher_cache_size, METH_NOARGS, "signatures the launch path knows"},
	{"_typeof", (PyCFunction)Dispatcher_typeof, METH_O, "the argument types a launch with these arguments sees"},
	{NULL, NULL, 0, NULL},
};

static PyType_Slot Dispatcher_slots[] = {
	{Py_tp_new, Dispatcher_new},
	{Py_tp_dealloc, Dispatcher_dealloc},
	{Py_tp_traverse, Dispatcher_traverse},
	{Py_tp_clear, Dispatcher_clear},
	{Py_tp_call, Dispatcher_call},
	{Py_mp_subscript, Dispatcher_getitem},
	{Py_tp_methods, Dispatcher_methods},
	{Py_tp_doc, "The C part of a @cuda.jit function: launch configuration and launch path."},
	{0, NULL},
};

PyType_Spec Dispatcher_spec = {
	.name = "ptxjit._core.Dispatcher",
	.basicsize = sizeof(DispatcherObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
	.slots = Dispatcher_slots,
};

/*
 * launch.c - the call of a configured kernel, `kernel[grid, block](args)`,
 * from Python to cuLaunchKernel (or the simulator), all in C.
 *
 * Launcher(*args) (vectorcall) classifies each argument (argclass.c),
 * builds a compact key of their types, 4 bytes each: (array or scalar,
 * kind, ndim with bit 7 for a read-only array, layout), plus one byte of
 * facts about the arrays (below);
 * finds the compiled Kernel for the key in the dispatcher's hash table,
 * or asks Python to make one (Dispatcher._compile_for(argtypes, flags))
 * and files it; stages NumPy arguments (hoststage.c); packs the parameter
 * buffer (argpack.c) and launches.
 *
 * The same key always maps to the same Kernel, so the parameter layout is
 * checked against the argument types once, when the Kernel is filed.  A
 * steady loop launches the same signature again and again: the key is
 * first compared with the last one found, and only hashed when it
 * differs.  With device arrays and scalars only, nothing is allocated,
 * nothing is looked up by name, and the driver is entered once (by
 * rt_launch).
 *
 * The last byte of the key holds what the launch knows about its array
 * arguments: bit 0, every extent is below 2^31; bit 1, no two arrays
 * share memory (their byte spans, with 16 bytes for the last element, do
 * not meet); bit 2 (from the configuration, not the arguments), gridDim
 * times blockDim is below 2^31 in every dimension (pj_grid_small, the
 * simulator's rule as well); bits 3 to 6, the arch slot of the current
 * device (devices.c: 0 unless devices of several compute capabilities
 * are in use, each of which gets its own compiled variant).  A kernel compiled for these facts
 * (PjOptions.small_extents, .noalias, .small_grid) is a variant of the
 * signature.
 *
 * Tuple and None arguments take a slower path (launch_shaped): a tuple is
 * flattened, as Numba does, into its leaves (numbers and arrays, nested
 * tuples included), each classified like an argument of its own; None
 * has no leaf.  The kernel's parameters name leaves (PjParam.arg counts
 * the leaves of the arguments in order), the key is the leaves' keys
 * followed by the shape of the arguments ('L' a leaf, 'N' None, 'T' n a
 * tuple of n, 'P' n k h a collections.namedtuple of n, the k-th of the
 * launch, whose class name and fields hash to the 8 bytes h), and the
 * type of such an argument is "UniTuple(int64, 2)", "Tuple(float32,
 * int64)", "NamedTuple(Point, (x, y), int64, float64)" or "none".
 */
#include "launch.h"

#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------- the signature table */

/* The kernel filed under key, or NULL; *hp is the key's hash when the
 * key is not the last one found. */
static KernelObject *table_find(DispatcherObject *d, const unsigned char *key, int len, uint64_t *hp)
{
	if (d->last >= 0) {
		Entry *e = &d->tab[d->last];
		if (e->len == len && memcmp(e->key, key, (size_t)len) == 0)
			return e->k;
	}
	uint64_t h = *hp = py_hash64(key, (size_t)len);
	if (!d->cap)
		return NULL;
	for (int i = (int)(h & (uint64_t)(d->cap - 1));; i = (i + 1) & (d->cap - 1)) {
		Entry *e = &d->tab[i];
		if (!e->k)
			return NULL;
		if (e->hash == h && e->len == len && memcmp(e->key, key, (size_t)len) == 0) {
			d->last = i;
			return e->k;
		}
	}
}

static int table_insert(DispatcherObject *d, const unsigned char *key, int len, uint64_t h, KernelObject *k)
{
	if (2 * (d->count + 1) > d->cap) {
		int cap = d->cap ? d->cap * 2 : 8;
		Entry *t = calloc((size_t)cap, sizeof *t);
		if (!t) {
			PyErr_NoMemory();
			return -1;
		}
		for (int i = 0; i < d->cap; i++) {
			Entry *e = &d->tab[i];
			if (!e->k)
				continue;
			int j = (int)(e->hash & (uint64_t)(cap - 1));
			while (t[j].k)
				j = (j + 1) & (cap - 1);
			t[j] = *e;
		}
		free(d->tab);
		d->tab = t;
		d->cap = cap;
		d->last = -1;
	}
	unsigned char *kc = malloc(len ? (size_t)len : 1);
	if (!kc) {
		PyErr_NoMemory();
		return -1;
	}
	memcpy(kc, key, (size_t)len);
	int j = (int)(h & (uint64_t)(d->cap - 1));
	while (d->tab[j].k)
		j = (j + 1) & (d->cap - 1);
	Py_INCREF(k);
	d->tab[j] = (Entry){h, kc, len, k};
	d->count++;
	d->last = j;
	return 0;
}

void launch_table_clear(DispatcherObject *d)
{
	Entry *t = d->tab;
	int cap = d->cap;
	d->tab = NULL;
	d->cap = d->count = 0;
	d->last = -1;
	for (int i = 0; i < cap; i++)
		if (t[i].k) {
			free(t[i].key);
			Py_DECREF(t[i].k);
		}
	free(t);
}

static void put_key(const ArgInfo *a, unsigned char *key)
{
	int arr = a->cls != A_SCALAR;
	key[0] = arr ? 'a' : 's';
	key[1] = (unsigned char)a->kind;
	key[2] = arr ? (unsigned char)(a->ndim | (a->readonly ? 0x80 : 0)) : 0;
	key[3] = arr ? (unsigned char)a->layout : 0;
}

/* The facts byte of the key (see the top of the file). */
static unsigned char arg_flags(const ArgInfo *a, int n)
{
	int small = 1, disjoint = 1;
	uintptr_t lo[8], hi[8];
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (a[i].cls == A_SCALAR)
			continue;
		uintptr_t l = (uintptr_t)a[i].ptr, h = l + 16;
		for (int d = 0; d < a[i].ndim; d++) {
			Py_ssize_t e = a[i].shape[d], st = a[i].strides[d];
			if (e >= ((Py_ssize_t)1 << 31))
				small = 0;
			if (e <= 0)
				h = l;
			else if (st < 0)
				l -= (uintptr_t)((e - 1) * -st);
			else
				h += (uintptr_t)((e - 1) * st);
		}
		if (a[i].kind >= K_RECORD || m == 8)
			disjoint = 0;
		for (int j = 0; j < m && disjoint; j++)
			if (l < hi[j] && lo[j] < h)
				disjoint = 0;
		if (m < 8 && h > l) {
			lo[m] = l;
			hi[m++] = h;
		}
	}
	return (unsigned char)(small | disjoint << 1);
}

/* Asks the Python dispatcher for the kernel of these argument types:
 * _compile_for(types) or, with flags, _compile_for(types, flags). */
static KernelObject *ask_python(DispatcherObject *d, PyObject *types, int flags, const ArgInfo *a, int n)
{
	PyObject *fl = flags >= 0 ? PyLong_FromLong(flags) : NULL, *k;
	if (flags >= 0 && !fl)
		return NULL;
	k = fl ? PyObject_CallMethodObjArgs((PyObject *)d, d->st->s_compile_for, types, fl, NULL)
	       : PyObject_CallMethodOneArg((PyObject *)d, d->st->s_compile_for, types);
	Py_XDECREF(fl);
	if (!k)
		return NULL;
	if (!PyObject_TypeCheck(k, d->st->Kernel_T)) {
		PyErr_Format(PyExc_TypeError, "_compile_for() returned %.100s, not a Kernel", Py_TYPE(k)->tp_name);
		Py_DECREF(k);
		return NULL;
	}
	if (pack_check(d, (KernelObject *)k, a, n)) {
		Py_DECREF(k);
		return NULL;
	}
	return (KernelObject *)k;
}

static KernelObject *compile_for(DispatcherObject *d, const ArgInfo *a, int n, unsigned char flags)
{
	PyObject *types = PyTuple_New(n);
	if (!types)
		return NULL;
	for (int i = 0; i < n; i++) {
		PyObject *s = arg_type_string(d->st, &a[i]);
		if (!s) {
			Py_DECREF(types);
			return NULL;
		}
		PyTuple_SET_ITEM(types, i, s);
	}
	KernelObject *k = ask_python(d, types, flags, a, n);
	Py_DECREF(types);
	return k;
}

/* ---------------------------------------------------------- launching */

static int stream_on_other_device(LauncherObject *L, Rt *rt)
{
	char what[300];
	snprintf(what, sizeof what, "kernel '%s': the launch's stream", L->d->name);
	return wrong_device(L->d->st, what, L->stream_rt, rt);
}

/* A launch that would wait for its stream, issued while the stream is
 * captured into a graph (ptxjit's or another library's): refused. */
static int refuse_capture(DispatcherObject *d, const ArgInfo *a, int n, int nhost)
{
	int i = 0;
	while (nhost && i < n && a[i].cls != A_HOST)
		i++;
	if (nhost)
		PyErr_Format(PyExc_RuntimeError, "kernel '%s': argument %d ('%s') is a host (NumPy) array, whose "
		             "implicit copies to the device and back cannot be captured in a graph: copy it with "
		             "cuda.to_device() before the capture and pass the device array", d->name, i + 1,
		             arg_name(d, i));
	else
		PyErr_Format(PyExc_RuntimeError, "kernel '%s' waits for its end after each launch (debug=True or "
		             "a synchronising launch), which a graph capture cannot hold: compile it without "
		             "debug=True to capture it", d->name);
	return -1;
}

/* Runs the launch: stages the host arrays, packs, launches, brings the
 * host arrays back (and, for kernels that can trap, reads the trap word). */
static int launch(LauncherObject *L, KernelObject *k, ArgInfo *a, int n, int nhost)
{
	DispatcherObject *d = L->d;
	ModState *st = d->st;
	Rt *rt = cur_rt(st);
	RtKernel *rk = kernel_on(k, rt);
	const PjKernel *pk = k->pk;
	RtErr e;
	Stage sg;
	int rc;
	e.sticky = 0;
	sg.nin = sg.nout = 0;
	if (!rk)
		return -1;
	if (L->stream_rt && L->stream_rt != rt)
		return stream_on_other_device(L, rt);
	CUstream s = L->stream;
	if (rt->capture || nhost || d->sync_after || pk->ntraps) {
		s = rt_graph_stream(rt, s);
		if ((nhost || d->sync_after || pk->ntraps) && rt_capturing(rt, s))
			return refuse_capture(d, a, n, nhost);
	}
	if (nhost && stage_in(L, pk, a, n, &sg))
		return -1;
	unsigned char local[1024], *buf = local;
	if (pk->param_bytes > (int)sizeof local && !(buf = PyMem_RawMalloc((size_t)pk->param_bytes))) {
		PyErr_NoMemory();
		goto fail_raised;
	}
	if (pack_params(d, rt, pk, a, buf)) {
		if (buf != local)
			PyMem_RawFree(buf);
		goto fail_raised;
	}
	if (st->sim) {
		if (stop_begin()) {
			if (buf != local)
				PyMem_RawFree(buf);
			goto fail_raised;
		}
		Py_BEGIN_ALLOW_THREADS
		rc = rt_launch(rt, rk, L->grid, L->block, L->smem, s, buf, (size_t)pk->param_bytes, &e);
		Py_END_ALLOW_THREADS
		stop_end();
	} else {   /* a full command queue waits for a callback that needs the GIL (py.h) */
		NOGIL_IF(st->host_funcs,
		         rc = rt_launch(rt, rk, L->grid, L->block, L->smem, s, buf, (size_t)pk->param_bytes, &e));
	}
	if (buf != local)
		PyMem_RawFree(buf);
	if (rc)
		goto fail;
	if (st->sim && nhost)   /* the scratch copies of arrays that share memory (hoststage.c) */
		sim_stage_back(pk, a, n);
	/* a kernel that can trap waits for its end, to raise the exception */
	if (st->sim || !(nhost || d->sync_after || pk->ntraps))
		return 0;
	if (stage_out(L, pk, a, n, &sg, &e))
		goto fail;
	if (pk->ntraps) {   /* a thread's assert or raise under debug, a range's zero step (kexc.c) */
		uint32_t word[PJ_TRAP_WORDS];
		int trc;
		NOGIL_IF(st->host_funcs, trc = rt_read_trap(rt, rk, L->stream, word, &e));
		if (trc) {
			raise_rt_kernel(st, &e, d->name);
			return -1;
		}
		if (word[0]) {
			raise_gpu_trap(st, (PyObject *)d, pk, word);
			return -1;
		}
	}
	return 0;
fail:
	if (e.code == RT_E_SIM && e.sim == PJ_SIM_STOPPED)
		raise_stopped();                            /* Ctrl-C (interrupt.c) */
	else if (e.code == RT_E_SIM && e.sim == PJ_SIM_TRAP)
		raise_sim_trap(st, (PyObject *)d, e.msg);   /* the kernel's exception (kexc.c) */
	else
		raise_rt_kernel(st, &e, d->name);
fail_raised:
	if (nhost)
		stage_abort(L, &sg, e.sticky);
	return -1;
}

/* Numba's NumbaPerformanceWarning for a NumPy array copied to the device
 * and back at a launch (not one in a cuda.In/Out/InOut, whose copies the
 * user asked for): once per launcher, -1 if the warning raised. */
static int warn_copy(LauncherObject *L, const ArgInfo *a, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].cls == A_HOST && !a[i].hinted && !a[i].mapped && a[i].layout != 'R') {
			if (PyErr_WarnFormat(L->d->st->NumbaPerformanceWarning, 1, "Host array used in CUDA kernel will "
			                     "incur copy overhead to/from device (kernel '%s'); pass a device array "
			                     "(cuda.to_device) to keep the data on the GPU between launches",
			                     L->d->name) < 0)
				return -1;
			L->copy_warned = 1;
			break;
		}
	return 0;
}

/* Looks up (or compiles and files) the kernel of key and launches it. */
/* make(d, ctx) with the launch hook (cuda.launchconfig) told of the
 * launch around it. */
static KernelObject *compile_at_launch(LauncherObject *L, KernelObject *(*make)(DispatcherObject *, void *),
                                       void *ctx, PyObject *const *args, int nargs)
{
	DispatcherObject *d = L->d;
	PyObject *hook = d->st->launch_hook;
	if (!hook)
		return make(d, ctx);
	PyObject *t = PyTuple_New(nargs), *restore;
	if (!t)
		return NULL;
	for (int i = 0; i < nargs; i++)
		PyTuple_SET_ITEM(t, i, Py_NewRef(args[i]));
	Py_INCREF(hook);
	restore = PyObject_CallFunctionObjArgs(hook, (PyObject *)L, t, NULL);
	Py_DECREF(hook);
	Py_DECREF(t);
	if (!restore)
		return NULL;
	KernelObject *k = make(d, ctx);
	PyObject *et, *ev, *etb;
	PyErr_Fetch(&et, &ev, &etb);
	PyObject *r = PyObject_CallNoArgs(restore);
	Py_DECREF(restore);
	if (!r) {
		Py_CLEAR(k);
		Py_XDECREF(et);
		Py_XDECREF(ev);
		Py_XDECREF(etb);
		return NULL;
	}
	Py_DECREF(r);
	PyErr_Restore(et, ev, etb);
	return k;
}

/* L's pre_launch_callbacks, in order, each called (k, L); -1 when one raises. */
static int run_callbacks(LauncherObject *L, KernelObject *k)
{
	PyObject *cbs = PySequence_Tuple(L->callbacks);   /* a callback may change the list */
	if (!cbs)
		return -1;
	for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(cbs); j++) {
		PyObject *r = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(cbs, j), (PyObject *)k, (PyObject *)L, NULL);
		if (!r) {
			Py_DECREF(cbs);
			return -1;
		}
		Py_DECREF(r);
	}
	Py_DECREF(cbs);
	return 0;
}

static PyObject *find_and_launch(LauncherObject *L, const unsigned char *key, int len, ArgInfo *a, int n,
                                 int nhost, KernelObject *(*make)(DispatcherObject *, void *), void *ctx,
                                 PyObject *const *args, int nargs)
{
	DispatcherObject *d = L->d;
	if (nhost && !L->copy_warned && d->st->warn_copy && warn_copy(L, a, n))
		return NULL;
	uint64_t h = 0;
	KernelObject *k = table_find(d, key, len, &h);
	if (!k) {
		if (!(k = compile_at_launch(L, make, ctx, args, nargs)))
			return NULL;
		int rc = table_insert(d, key, len, h, k);
		Py_DECREF(k);
		if (rc)
			return NULL;
	}
	Py_INCREF(k);   /* the table may be cleared while the GIL is let go */
	if (L->callbacks && PyList_GET_SIZE(L->callbacks) && run_callbacks(L, k)) {
		Py_DECREF(k);
		return NULL;
	}
	int rc = launch(L, k, a, n, nhost);
	/* a launch captured in a graph: the graph keeps the kernel and arguments */
	if (rc == 0 && d->st->capture_keep && rt_capturing(cur_rt(d->st), rt_graph_stream(cur_rt(d->st), L->stream)) == 1) {
		rc = capture_keep(d->st, (PyObject *)k);
		for (int j = 0; j < nargs && rc == 0; j++)
			rc = capture_keep(d->st, args[j]);
	}
	Py_DECREF(k);
	if (rc)
		return NULL;
	Py_RETURN_NONE;
}

/* ------------------------------------------- tuple and None arguments */

enum { MAXSHAPE = 2 * PJ_MAXARGS };

typedef struct Shape {
	PyObject *leaf[PJ_MAXARGS];
	int argof[PJ_MAXARGS];    /* the Python argument of each leaf */
	int nleaf;
	PyObject *named[PJ_MAXARGS];   /* the classes of the namedtuples (borrowed) */
	int nnamed;
	unsigned char s[MAXSHAPE];
	int n;
} Shape;

static int walk(DispatcherObject *d, int i, PyObject *o, Shape *sh, int depth);

static int walk_elements(DispatcherObject *d, int i, PyObject *o, Shape *sh, int depth)
{
	for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(o); k++)
		if (walk(d, i, PyTuple_GET_ITEM(o, k), sh, depth + 1))
			return -1;
	return 0;
}

/* "Point(x, y)": a namedtuple class's name and fields as the key hashes them */
static PyObject *class_text(PyObject *cls, PyObject *fields)
{
	PyObject *name = PyObject_GetAttrString(cls, "__name__");
	PyObject *sep = PyUnicode_FromString(", ");
	PyObject *joined = sep ? PyUnicode_Join(sep, fields) : NULL;
	PyObject *r = name && joined && PyUnicode_Check(name) ? PyUnicode_FromFormat("%U, (%U)", name, joined) : NULL;
	Py_XDECREF(name);
	Py_XDECREF(sep);
	Py_XDECREF(joined);
	return r;
}

/* Is o an instance of a collections.namedtuple (a tuple subclass whose
 * _fields name its elements)?  Then 'P' n k h is in the shape: 1; not one:
 * 0; an error: -1. */
static int is_namedtuple(DispatcherObject *d, int i, PyObject *o, Shape *sh)
{
	PyObject *cls = (PyObject *)Py_TYPE(o);
	PyObject *fields = PyObject_GetAttrString(cls, "_fields");
	if (!fields) {
		PyErr_Clear();
		return 0;
	}
	Py_ssize_t m = PyTuple_GET_SIZE(o);
	int ok = PyTuple_Check(fields) && PyTuple_GET_SIZE(fields) == m;
	for (Py_ssize_t k = 0; ok && k < m; k++)
		ok = PyUnicode_Check(PyTuple_GET_ITEM(fields, k));
	PyObject *text = ok ? class_text(cls, fields) : NULL;
	Py_DECREF(fields);
	if (!text) {
		PyErr_Clear();
		return 0;
	}
	Py_ssize_t len;
	const char *s = PyUnicode_AsUTF8AndSize(text, &len);
	uint64_t h = 14695981039346656037ull;
	for (Py_ssize_t k = 0; s && k < len; k++)
		h = (h ^ (unsigned char)s[k]) * 1099511628211ull;
	Py_DECREF(text);
	if (!s)
		return -1;
	if (m > 255 || sh->nnamed >= PJ_MAXARGS || sh->n + 11 > MAXSHAPE) {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a namedtuple too large or among too "
		             "many", d->name, i + 1, arg_name(d, i));
		return -1;
	}
	sh->s[sh->n++] = 'P';
	sh->s[sh->n++] = (unsigned char)m;
	sh->s[sh->n++] = (unsigned char)sh->nnamed;
	memcpy(sh->s + sh->n, &h, 8);
	sh->n += 8;
	sh->named[sh->nnamed++] = cls;
	return 1;
}

static int walk(DispatcherObject *d, int i, PyObject *o, Shape *sh, int depth)
{
	if (sh->n + 2 > MAXSHAPE || depth > 32) {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a tuple nested too deeply or too large",
		             d->name, i + 1, arg_name(d, i));
		return -1;
	}
	if (o == Py_None) {
		sh->s[sh->n++] = 'N';
		return 0;
	}
	if (PyTuple_Check(o) && !PyTuple_CheckExact(o)) {
		int named = is_namedtuple(d, i, o, sh);
		if (named < 0)
			return -1;
		if (named)
			return walk_elements(d, i, o, sh, depth);
	}
	if (PyTuple_Check(o)) {
		Py_ssize_t m = PyTuple_GET_SIZE(o);
		if (m > 255) {
			PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a tuple of %zd elements; kernels "
			             "take tuples of at most 255", d->name, i + 1, arg_name(d, i), m);
			return -1;
		}
		sh->s[sh->n++] = 'T';
		sh->s[sh->n++] = (unsigned char)m;
		for (Py_ssize_t k = 0; k < m; k++)
			if (walk(d, i, PyTuple_GET_ITEM(o, k), sh, depth + 1))
				return -1;
		return 0;
	}
	if (sh->nleaf >= PJ_MAXARGS) {
		PyErr_Format(PyExc_ValueError, "kernel '%s' takes at most %d numbers and arrays in its arguments (tuples "
		             "count their elements)", d->name, PJ_MAXARGS);
		return -1;
	}
	sh->s[sh->n++] = 'L';
	sh->argof[sh->nleaf] = i;
	sh->leaf[sh->nleaf++] = o;
	return 0;
}

/* The type string of the argument whose shape starts at sh->s[*ps]. */
static PyObject *shape_type(ModState *st, const Shape *sh, int *ps, const ArgInfo *a, int *pl)
{
	unsigned char c = sh->s[(*ps)++];
	if (c == 'L')
		return arg_type_string(st, &a[(*pl)++]);
	if (c == 'N')
		return PyUnicode_FromString("none");
	int m = sh->s[(*ps)++];
	PyObject *cls = NULL;
	if (c == 'P') {
		cls = sh->named[sh->s[(*ps)++]];
		*ps += 8;
	}
	PyObject *parts = PyList_New(m), *sep = NULL, *joined = NULL, *r = NULL;
	if (!parts)
		return NULL;
	int same = m > 0;
	for (int k = 0; k < m; k++) {
		PyObject *t = shape_type(st, sh, ps, a, pl);
		if (!t)
			goto out;
		PyList_SET_ITEM(parts, k, t);
		if (k && PyUnicode_Compare(t, PyList_GET_ITEM(parts, 0)) != 0)
			same = 0;
	}
	if (same && !cls) {
		r = PyUnicode_FromFormat("UniTuple(%U, %d)", PyList_GET_ITEM(parts, 0), m);
		goto out;
	}
	if (!(sep = PyUnicode_FromString(", ")) || !(joined = PyUnicode_Join(sep, parts)))
		goto out;
	if (cls) {
		PyObject *fields = PyObject_GetAttrString(cls, "_fields");
		PyObject *text = fields ? class_text(cls, fields) : NULL;
		if (text)
			r = PyUnicode_FromFormat("NamedTuple(%U%s%U)", text, m ? ", " : "", joined);
		Py_XDECREF(fields);
		Py_XDECREF(text);
		goto out;
	}
	r = PyUnicode_FromFormat("Tuple(%U)", joined);
out:
	Py_XDECREF(sep);
	Py_XDECREF(joined);
	Py_DECREF(parts);
	return r;
}

typedef struct Shaped {
	const Shape *sh;
	int nargs;
	const ArgInfo *a;
	int slot;                 /* the arch slot of the current device */
} Shaped;

static KernelObject *compile_shaped(DispatcherObject *d, void *ctx)
{
	const Shaped *s = ctx;
	PyObject *types = PyTuple_New(s->nargs);
	if (!types)
		return NULL;
	int ps = 0, pl = 0;
	for (int i = 0; i < s->nargs; i++) {
		PyObject *t = shape_type(d->st, s->sh, &ps, s->a, &pl);
		if (!t) {
			Py_DECREF(types);
			return NULL;
		}
		PyTuple_SET_ITEM(types, i, t);
	}
	KernelObject *k = ask_python(d, types, s->slot ? s->slot << 3 : -1, s->a, s->sh->nleaf);
	Py_DECREF(types);
	return k;
}

static PyObject *launch_shaped(LauncherObject *L, PyObject *const *args, int n)
{
	DispatcherObject *d = L->d;
	Shape *sh = PyMem_Calloc(1, sizeof *sh);
	ArgInfo *a = PyMem_Calloc(PJ_MAXARGS, sizeof *a);
	unsigned char *key = PyMem_Malloc(4 * PJ_MAXARGS + MAXSHAPE + 2);
	PyObject *result = NULL;
	int i = 0, nhost = 0;
	if (!sh || !a || !key) {
		PyErr_NoMemory();
		goto done;
	}
	for (int j = 0; j < n; j++)
		if (walk(d, j, args[j], sh, 0))
			goto done;
	for (i = 0; i < sh->nleaf; i++) {
		if (arg_classify(d, sh->argof[i], sh->leaf[i], &a[i], L)) {
			i++;
			goto done;
		}
		nhost += a[i].cls == A_HOST;
		put_key(&a[i], key + 4 * i);
	}
	int len = 4 * sh->nleaf;
	memcpy(key + len, sh->s, (size_t)sh->n);
	len += sh->n;
	key[len++] = 'S';
	key[len++] = d->st->dev_slot[py_cur_dev];
	Shaped ctx = {sh, n, a, d->st->dev_slot[py_cur_dev]};
	result = find_and_launch(L, key, len, a, sh->nleaf, nhost, compile_shaped, &ctx, args, n);
done:
	if (a)
		arg_release(d->st, a, i);
	PyMem_Free(a);
	PyMem_Free(sh);
	PyMem_Free(key);
	return result;
}

/* ------------------------------------------------------- the call */

typedef struct Plain {
	const ArgInfo *a;
	int n;
	unsigned char flags;
} Plain;

static KernelObject *compile_plain(DispatcherObject *d, void *ctx)
{
	const Plain *p = ctx;
	return compile_for(d, p->a, p->n, p->flags);
}

static PyObject *wrong_count(DispatcherObject *d, Py_ssize_t n)
{
	PyObject *sep = PyUnicode_FromString(", ");
	PyObject *names = sep && d->argnames ? PyUnicode_Join(sep, d->argnames) : NULL;
	char count[64];
	Py_XDECREF(sep);
	PyErr_Clear();
	if (d->nrequired == d->nparams)
		snprintf(count, sizeof count, "%d argument%s", d->nparams, d->nparams == 1 ? "" : "s");
	else
		snprintf(count, sizeof count, "%d to %d arguments", d->nrequired, d->nparams);
	PyErr_Format(PyExc_TypeError, "kernel '%s' takes %s (%S) but %zd %s given", d->name, count,
	             names ? names : Py_None, n, n == 1 ? "was" : "were");
	Py_XDECREF(names);
	return NULL;
}

PyObject *launch_call(LauncherObject *L, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
	DispatcherObject *d = L->d;
	Py_ssize_t n = PyVectorcall_NARGS(nargsf);
	if (kwnames && PyTuple_GET_SIZE(kwnames))
		return PyErr_Format(PyExc_TypeError, "kernel '%s' takes positional arguments only", d->name);
	if (n > d->nparams || n < d->nrequired)
		return wrong_count(d, n);
	for (Py_ssize_t j = 0; j < n; j++)
		if (PyTuple_Check(args[j]) || args[j] == Py_None)
			return launch_shaped(L, args, (int)n);
	ArgInfo local[8], *a = local;
	if (n > 8 && !(a = PyMem_Malloc((size_t)n * sizeof *a)))
		return PyErr_NoMemory();
	unsigned char key[4 * PJ_MAXARGS + 1];
	PyObject *result = NULL;
	int i, nhost = 0;
	for (i = 0; i < n; i++) {
		memset(&a[i], 0, offsetof(ArgInfo, dims));
		if (arg_classify(d, i, args[i], &a[i], L)) {
			arg_release(d->st, a, i + 1);
			goto done;
		}
		nhost += a[i].cls == A_HOST;
		put_key(&a[i], key + 4 * i);
	}
	key[4 * n] = (unsigned char)(arg_flags(a, (int)n) | (pj_grid_small(L->grid, L->block) ? 4 : 0) |
	                             d->st->dev_slot[py_cur_dev] << 3);
	Plain ctx = {a, (int)n, key[4 * n]};
	result = find_and_launch(L, key, 4 * (int)n + 1, a, (int)n, nhost, compile_plain, &ctx, args, (int)n);
	if (nhost || !result)
		arg_release(d->st, a, (int)n);
done:
	if (a != local)
		PyMem_Free(a);
	return result;
}

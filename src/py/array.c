/*
 * array.c - DeviceArray, the C base of cuda.DeviceNDArray, and
 * HostBuffer, pinned host memory that NumPy arrays are built on.
 *
 * A DeviceArray is an address, a shape, byte strides and a NumPy dtype.
 * It either owns an allocation of the runtime's caching allocator
 * (returned to the cache when the array is collected) or is a view that
 * keeps its owner alive through `base` (a slice of another DeviceArray,
 * or memory of another library reached through __cuda_array_interface__).
 * The launch path reads these fields directly.  Everything array-shaped
 * that is not speed-critical (slicing, NumPy conversions, the array
 * interface) is Python, in ptxjit/cuda/devicearray.py; this file gives
 * it raw byte copies checked against the array's extent.
 *
 * In the simulator the address is a host address and copies are memcpy.
 */
#include "py.h"

#include <string.h>

char layout_of(int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides, Py_ssize_t itemsize)
{
	Py_ssize_t sz = itemsize;
	int c = 1, f = 1;
	for (int i = 0; i < ndim; i++)
		if (shape[i] == 0)
			return 'C';
	for (int i = ndim - 1; i >= 0; i--) {
		if (shape[i] != 1 && strides[i] != sz)
			c = 0;
		sz *= shape[i];
	}
	if (c)
		return 'C';
	sz = itemsize;
	for (int i = 0; i < ndim; i++) {
		if (shape[i] != 1 && strides[i] != sz)
			f = 0;
		sz *= shape[i];
	}
	return f && ndim > 1 ? 'F' : 'A';
}

/* The byte range [lo, hi) relative to element 0 that the array covers. */
static void span_of(const DeviceArrayObject *a, Py_ssize_t *lo, Py_ssize_t *hi)
{
	Py_ssize_t l = 0, h = 0;
	for (int i = 0; i < a->ndim; i++) {
		if (a->shape[i] == 0) {
			*lo = *hi = 0;
			return;
		}
		Py_ssize_t d = (a->shape[i] - 1) * a->strides[i];
		if (d < 0)
			l += d;
		else
			h += d;
	}
	*lo = l;
	*hi = h + a->itemsize;
}

int sim_holds_span(ModState *st, CUdeviceptr ptr, Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape,
                   const Py_ssize_t *strides)
{
	int64_t lo = 0, hi = itemsize;
	for (int d = 0; d < ndim; d++) {
		if (shape[d] == 0)
			return 1;
		if (strides[d] < 0)
			lo += (int64_t)(shape[d] - 1) * strides[d];
		else
			hi += (int64_t)(shape[d] - 1) * strides[d];
	}
	return rt_sim_holds(cur_rt(st), (uint64_t)ptr + (uint64_t)lo, (uint64_t)(hi - lo));
}

int wrong_device(ModState *st, const char *what, const Rt *had, const Rt *on)
{
	PyErr_Format(st->CudaDriverError,
	             "%s is on device %d, and this work runs on device %d: a stream or device array "
	             "belongs to the device that was current when it was made; copy the data over "
	             "(d_b.copy_to_device(d_a)) or make the work's device current (with cuda.gpus[%d]: ...)",
	             what, had->devnum, on->devnum, had->devnum);
	return -1;
}

int stream_arg(ModState *st, PyObject *o, Rt *rt, CUstream *s, int *async)
{
	*s = NULL;
	*async = 0;
	if (!o || o == Py_None)
		return 0;
	if (PyLong_Check(o)) {
		long v = PyLong_AsLong(o);
		if (v == 0)
			return 0;
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_TypeError,
			             "stream=%ld: a stream is a cuda.stream(), cuda.default_stream() or 0", v);
		return -1;
	}
	if (PyObject_TypeCheck(o, st->Stream_T)) {
		StreamObject *so = (StreamObject *)o;
		if (so->owned && !st->sim && so->gen != so->rt->gen) {
			PyErr_SetString(st->CudaDriverError,
			                "this stream was made before cuda.close() and cannot be used any more");
			return -1;
		}
		if (so->owned && rt && so->rt != rt)
			return wrong_device(st, "the stream", so->rt, rt);
		*s = so->s;
		*async = 1;
		return 0;
	}
	PyErr_Format(PyExc_TypeError,
	             "stream must be a cuda.stream(), cuda.default_stream() or 0, not %.100s",
	             Py_TYPE(o)->tp_name);
	return -1;
}

/* ------------------------------------------------------- DeviceArray */

static int fill_geometry(DeviceArrayObject *a, PyObject *shape, PyObject *strides, PyObject *dtype)
{
	ModState *st = a->st;
	PyObject *ts = NULL, *isz = NULL;
	if (!PyTuple_Check(shape))
		return PyErr_Format(PyExc_TypeError, "shape must be a tuple"), -1;
	Py_ssize_t nd = PyTuple_GET_SIZE(shape);
	if (nd > PJ_MAXDIM)
		return PyErr_Format(PyExc_ValueError, "device arrays have at most %d dimensions, not %zd",
		                    PJ_MAXDIM, nd), -1;
	if (strides != Py_None && (!PyTuple_Check(strides) || PyTuple_GET_SIZE(strides) != nd))
		return PyErr_Format(PyExc_ValueError, "strides must be None or a tuple of %zd ints", nd), -1;
	if (!(ts = PyObject_GetAttrString(dtype, "str")) || !(isz = PyObject_GetAttrString(dtype, "itemsize")) ||
	    !PyUnicode_Check(ts)) {
		if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_AttributeError)) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "dtype must be a numpy.dtype, not %.100s; pass numpy.dtype(dtype)",
			             Py_TYPE(dtype)->tp_name);
		}
		goto fail;
	}
	long itemsize = PyLong_AsLong(isz);
	if (itemsize <= 0) {
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_ValueError, "dtype %R has no item size", dtype);
		goto fail;
	}
	a->itemsize = (int)itemsize;
	a->kind = kind_of_typestr(PyUnicode_AsUTF8(ts), NULL);
	a->ndim = (int)nd;
	Py_ssize_t expect = itemsize;
	for (Py_ssize_t i = nd - 1; i >= 0; i--) {
		Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
		if (n < 0) {
			if (!PyErr_Occurred())
				PyErr_Format(PyExc_ValueError, "negative dimension %zd in shape %R", n, shape);
			goto fail;
		}
		a->shape[i] = n;
		if (strides == Py_None) {
			a->strides[i] = expect;
		} else {
			Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, i));
			if (s == -1 && PyErr_Occurred())
				goto fail;
			a->strides[i] = s;
		}
		expect *= n ? n : 1;
	}
	a->layout = layout_of(a->ndim, a->shape, a->strides, a->itemsize);
	Py_INCREF(dtype);
	a->dtype = dtype;
	(void)st;
	Py_DECREF(ts);
	Py_DECREF(isz);
	return 0;
fail:
	Py_XDECREF(ts);
	Py_XDECREF(isz);
	return -1;
}

/* DeviceArray(shape, strides, dtype): a new array in fresh device memory. */
static PyObject *DeviceArray_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"shape", "strides", "dtype", NULL};
	PyObject *shape, *strides, *dtype;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO", kw, &shape, &strides, &dtype))
		return NULL;
	ModState *st = state_of_type(type);
	if (!st)
		return NULL;
	DeviceArrayObject *a = (DeviceArrayObject *)type->tp_alloc(type, 0);
	if (!a)
		return NULL;
	a->st = st;
	a->rt = cur_rt(st);
	if (fill_geometry(a, shape, strides, dtype))
		goto fail;
	Py_ssize_t lo, hi;
	span_of(a, &lo, &hi);
	if (lo < 0) {
		PyErr_SetString(PyExc_ValueError, "a new device array cannot have negative strides");
		goto fail;
	}
	RtErr e;
	int rc;
	if (hi > 0 && enter_rt(st, a->rt))
		goto fail;
	NOGIL_IF(st->host_funcs, rc = rt_alloc(a->rt, (size_t)hi, &a->alloc, &e));
	if (rc) {
		raise_rt(st, &e);
		goto fail;
	}
	a->alloc_n = (size_t)hi;
	a->ptr = a->alloc;
	a->gen = a->rt->gen;
	return (PyObject *)a;
fail:
	Py_DECREF(a);
	return NULL;
}

/* _view(base, ptr, shape, strides, dtype, host=False): an array on memory
 * owned by base, a DeviceArray or another library's object (foreign
 * memory).  host: in the simulator, the memory is host memory another
 * library shares (DLPack), which kernels read as they read ours. */
static PyObject *DeviceArray_view(PyObject *cls, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"base", "ptr", "shape", "strides", "dtype", "host", NULL};
	PyObject *base, *ptr, *shape, *strides, *dtype;
	int host = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO|p", kw, &base, &ptr, &shape, &strides, &dtype, &host))
		return NULL;
	PyTypeObject *type = (PyTypeObject *)cls;
	ModState *st = state_of_type(type);
	if (!st)
		return NULL;
	unsigned long long p = PyLong_AsUnsignedLongLong(ptr);
	if (p == (unsigned long long)-1 && PyErr_Occurred())
		return NULL;
	DeviceArrayObject *a = (DeviceArrayObject *)type->tp_alloc(type, 0);
	if (!a)
		return NULL;
	a->st = st;
	a->rt = cur_rt(st);
	if (fill_geometry(a, shape, strides, dtype)) {
		Py_DECREF(a);
		return NULL;
	}
	a->ptr = (CUdeviceptr)p;
	Py_INCREF(base);
	a->base = base;
	if (PyObject_TypeCheck(base, st->DeviceArray_T)) {
		DeviceArrayObject *b = (DeviceArrayObject *)base;
		a->rt = b->rt;
		a->gen = b->gen;
		a->foreign = b->foreign;
	} else {
		a->gen = cur_rt(st)->gen;
		a->foreign = !(st->sim && (host || sim_holds_span(st, a->ptr, a->itemsize, a->ndim, a->shape,
		                                                  a->strides)));
	}
	return (PyObject *)a;
}

void release_mem(Rt *rt, CUdeviceptr p, size_t n, unsigned gen)
{
	int bin;
	rt_size_class(n, &bin);
	NOGIL_IF(bin < 0, rt_release(rt, p, n, gen));
}

static void DeviceArray_dealloc(DeviceArrayObject *a)
{
	PyTypeObject *tp = Py_TYPE(a);
	if (a->alloc)
		release_mem(a->rt, a->alloc, a->alloc_n, a->gen);
	Py_XDECREF(a->dtype);
	Py_XDECREF(a->base);
	tp->tp_free((PyObject *)a);
	Py_DECREF(tp);
}

static int check_live(DeviceArrayObject *a)
{
	ModState *st = a->st;
	if (!st->sim && !a->foreign && a->gen != a->rt->gen) {
		PyErr_SetString(st->CudaDriverError,
		                "this device array was allocated before cuda.close(); its memory is gone");
		return -1;
	}
	return 0;
}

/* Checks that [off, off + n) lies inside the array's extent. */
static int check_range(DeviceArrayObject *a, Py_ssize_t off, Py_ssize_t n)
{
	Py_ssize_t lo, hi;
	span_of(a, &lo, &hi);
	if (n < 0 || off < lo || off + n > hi) {
		PyErr_Format(PyExc_ValueError,
		             "copy of %zd bytes at offset %zd is outside the device array's %zd bytes",
		             n, off, hi - lo);
		return -1;
	}
	return 0;
}

/* A copy (or, with n < 0, a memset of -n bytes to `byte`) issued while
 * a graph is captured: the work meant for the default stream or the
 * capture stream goes into the graph (src/rt/graph.c), which keeps a and
 * the host object alive.  1: s is not captured, copy as usual; 0: done;
 * -1: an exception is set.  host: 0 none, 1 dst, 2 src is host memory
 * (for a memset: the byte). */
static int captured_copy(DeviceArrayObject *a, CUstream s, void *dst, const void *src, Py_ssize_t n,
                         int host, PyObject *other)
{
	ModState *st = a->st;
	RtErr e;
	s = rt_graph_stream(a->rt, s);
	if (!a->rt->capture || rt_capturing(a->rt, s) != 1)
		return 1;
	int rc = n < 0 ? rt_graph_memset(a->rt, (CUdeviceptr)(uintptr_t)dst, host, (size_t)-n, &e)
	               : rt_graph_copy(a->rt, dst, src, (size_t)n, host, &e);
	if (rc) {
		raise_rt(st, &e);
		return -1;
	}
	if (capture_keep(st, (PyObject *)a) || (other && capture_keep(st, other)))
		return -1;
	return 0;
}

/* _htod(src, offset=0, stream=None): copies the bytes of a contiguous
 * host buffer to the array's memory at offset. */
static PyObject *DeviceArray_htod(DeviceArrayObject *a, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"src", "offset", "stream", NULL};
	PyObject *src, *stream = Py_None;
	Py_ssize_t off = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|nO", kw, &src, &off, &stream))
		return NULL;
	ModState *st = a->st;
	CUstream s;
	int async, rc;
	Py_buffer v;
	RtErr e;
	if (check_live(a) || stream_arg(st, stream, a->rt, &s, &async))
		return NULL;
	if (PyObject_GetBuffer(src, &v, PyBUF_ANY_CONTIGUOUS) < 0)
		return NULL;
	if (check_range(a, off, v.len) || (v.len && enter_rt(st, a->rt))) {
		PyBuffer_Release(&v);
		return NULL;
	}
	rc = a->rt->capture ? captured_copy(a, s, (void *)(uintptr_t)(a->ptr + off), v.buf, v.len, 2, src) : 1;
	if (rc <= 0) {
		PyBuffer_Release(&v);
		if (rc)
			return NULL;
		Py_RETURN_NONE;
	}
	NOGIL_IF(v.len >= (1 << 20) || st->host_funcs,
	         rc = rt_htod(a->rt, a->ptr + off, v.buf, (size_t)v.len, s, async, &e));
	PyBuffer_Release(&v);
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

void drain_copies(ModState *st)
{
	int k = 0;
	for (int i = 0; i < st->npending; i++) {
		struct Pending *p = &st->pending[i];
		if (atomic_load_explicit(&p->job->done, memory_order_acquire)) {
			PyBuffer_Release(&p->view);
			free(p->job);
		} else {
			st->pending[k++] = *p;
		}
	}
	st->npending = k;
}

/* Keeps the buffer v (taken over) until job is done. */
static int keep_until_done(ModState *st, RtHostCopy *job, Py_buffer *v)
{
	if (st->npending == st->cappending) {
		int cap = st->cappending ? 2 * st->cappending : 16;
		struct Pending *p = realloc(st->pending, (size_t)cap * sizeof *p);
		if (!p) {
			/* no room to remember it: wait for the copy instead */
			Py_BEGIN_ALLOW_THREADS
			while (!atomic_load_explicit(&job->done, memory_order_acquire))
				;
			Py_END_ALLOW_THREADS
			PyBuffer_Release(v);
			free(job);
			return 0;
		}
		st->pending = p;
		st->cappending = cap;
	}
	st->pending[st->npending].job = job;
	st->pending[st->npending].view = *v;
	st->npending++;
	return 0;
}

/* _dtoh(dst, offset=0, stream=None): copies len(dst) bytes from the
 * array's memory at offset into a writable contiguous host buffer.  With
 * a stream the copy is queued and the call returns at once (pageable
 * memory through a staging buffer; dst is held until the copy is done). */
static PyObject *DeviceArray_dtoh(DeviceArrayObject *a, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"dst", "offset", "stream", NULL};
	PyObject *dst, *stream = Py_None;
	Py_ssize_t off = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|nO", kw, &dst, &off, &stream))
		return NULL;
	ModState *st = a->st;
	CUstream s;
	int async, rc;
	Py_buffer v;
	RtErr e;
	if (check_live(a) || stream_arg(st, stream, a->rt, &s, &async))
		return NULL;
	if (PyObject_GetBuffer(dst, &v, PyBUF_ANY_CONTIGUOUS | PyBUF_WRITABLE) < 0)
		return NULL;
	if (check_range(a, off, v.len) || (v.len && enter_rt(st, a->rt))) {
		PyBuffer_Release(&v);
		return NULL;
	}
	drain_copies(st);
	rc = a->rt->capture ? captured_copy(a, s, v.buf, (void *)(uintptr_t)(a->ptr + off), v.len, 1, dst) : 1;
	if (rc <= 0) {
		PyBuffer_Release(&v);
		if (rc)
			return NULL;
		Py_RETURN_NONE;
	}
	int wait = v.len >= (1 << 20) || st->host_funcs;
	if (async) {
		RtHostCopy *job = NULL;
		NOGIL_IF(wait, rc = rt_dtoh_async(a->rt, v.buf, a->ptr + off, (size_t)v.len, s, &job, &e));
		if (job) {
			keep_until_done(st, job, &v);
			if (rc)
				return raise_rt(st, &e);
			Py_RETURN_NONE;
		}
	} else {
		NOGIL_IF(wait, rc = rt_dtoh(a->rt, v.buf, a->ptr + off, (size_t)v.len, s, 0, &e));
	}
	PyBuffer_Release(&v);
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

/* _dtod(src, nbytes, dst_offset=0, src_offset=0, stream=None): device to
 * device copy of nbytes from another DeviceArray. */
static PyObject *DeviceArray_dtod(DeviceArrayObject *a, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"src", "nbytes", "dst_offset", "src_offset", "stream", NULL};
	PyObject *srco, *stream = Py_None;
	Py_ssize_t n, doff = 0, soff = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "On|nnO", kw, &srco, &n, &doff, &soff, &stream))
		return NULL;
	ModState *st = a->st;
	if (!PyObject_TypeCheck(srco, st->DeviceArray_T))
		return PyErr_Format(PyExc_TypeError, "expected a device array, not %.100s", Py_TYPE(srco)->tp_name);
	DeviceArrayObject *b = (DeviceArrayObject *)srco;
	CUstream s;
	int async;
	RtErr e;
	if (check_live(a) || check_live(b) || stream_arg(st, stream, a->rt, &s, &async) ||
	    check_range(a, doff, n) || check_range(b, soff, n) || (n && enter_rt(st, a->rt)))
		return NULL;
	int rc = a->rt->capture && a->rt == b->rt ? captured_copy(a, s, (void *)(uintptr_t)(a->ptr + doff),
	                                                          (void *)(uintptr_t)(b->ptr + soff), n, 0, srco) : 1;
	if (rc <= 0)
		return rc ? NULL : (Py_INCREF(Py_None), Py_None);
	NOGIL_IF(!async || st->host_funcs,
	         rc = a->rt == b->rt ? rt_dtod(a->rt, a->ptr + doff, b->ptr + soff, (size_t)n, s, async, &e)
	                             : rt_peer_copy(a->rt, a->ptr + doff, b->rt, b->ptr + soff, (size_t)n, s, async, &e));
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

/* _memset(byte, stream=None): sets every byte of a contiguous array. */
static PyObject *DeviceArray_memset(DeviceArrayObject *a, PyObject *args)
{
	int byte;
	if (!PyArg_ParseTuple(args, "i", &byte))
		return NULL;
	ModState *st = a->st;
	Py_ssize_t lo, hi;
	RtErr e;
	span_of(a, &lo, &hi);
	if (check_live(a) || (hi > lo && enter_rt(st, a->rt)))
		return NULL;
	int rc = a->rt->capture ? captured_copy(a, NULL, (void *)(uintptr_t)(a->ptr + lo), NULL, lo - hi, byte, NULL) : 1;
	if (rc <= 0)
		return rc ? NULL : (Py_INCREF(Py_None), Py_None);
	NOGIL(rc = rt_memset(a->rt, a->ptr + lo, byte, (size_t)(hi - lo), &e));
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

static PyObject *DeviceArray_span(DeviceArrayObject *a, PyObject *unused)
{
	Py_ssize_t lo, hi;
	span_of(a, &lo, &hi);
	return Py_BuildValue("(nn)", lo, hi);
}

static PyObject *tuple_of(const Py_ssize_t *v, int n)
{
	PyObject *t = PyTuple_New(n);
	if (!t)
		return NULL;
	for (int i = 0; i < n; i++) {
		PyObject *x = PyLong_FromSsize_t(v[i]);
		if (!x) {
			Py_DECREF(t);
			return NULL;
		}
		PyTuple_SET_ITEM(t, i, x);
	}
	return t;
}

static Py_ssize_t size_of(DeviceArrayObject *a)
{
	Py_ssize_t n = 1;
	for (int i = 0; i < a->ndim; i++)
		n *= a->shape[i];
	return n;
}

static PyObject *get_shape(DeviceArrayObject *a, void *c) { return tuple_of(a->shape, a->ndim); }
static PyObject *get_strides(DeviceArrayObject *a, void *c) { return tuple_of(a->strides, a->ndim); }
static PyObject *get_ndim(DeviceArrayObject *a, void *c) { return PyLong_FromLong(a->ndim); }
static PyObject *get_size(DeviceArrayObject *a, void *c) { return PyLong_FromSsize_t(size_of(a)); }
static PyObject *get_nbytes(DeviceArrayObject *a, void *c) { return PyLong_FromSsize_t(size_of(a) * a->itemsize); }
static PyObject *get_itemsize(DeviceArrayObject *a, void *c) { return PyLong_FromLong(a->itemsize); }
static PyObject *get_ptr(DeviceArrayObject *a, void *c) { return PyLong_FromUnsignedLongLong(a->ptr); }
static PyObject *get_layout(DeviceArrayObject *a, void *c) { return PyUnicode_FromStringAndSize(&a->layout, 1); }
static PyObject *get_foreign(DeviceArrayObject *a, void *c) { return PyBool_FromLong(a->foreign); }
static PyObject *get_alloc_size(DeviceArrayObject *a, void *c) { return PyLong_FromSize_t(a->alloc_n); }
static PyObject *get_owner(DeviceArrayObject *a, void *c)
{
	PyObject *b = a->base ? a->base : Py_None;
	Py_INCREF(b);
	return b;
}
static PyObject *get_dtype(DeviceArrayObject *a, void *c)
{
	PyObject *d = a->dtype ? a->dtype : Py_None;
	Py_INCREF(d);
	return d;
}

static Py_ssize_t DeviceArray_len(DeviceArrayObject *a)
{
	if (a->ndim == 0) {
		PyErr_SetString(PyExc_TypeError, "len() of a 0-d device array");
		return -1;
	}
	return a->shape[0];
}

static PyObject *get_device_id(DeviceArrayObject *a, void *c)
{
	return PyLong_FromLong(a->rt->devnum);
}

static PyGetSetDef DeviceArray_getset[] = {
	{"device_id", (getter)get_device_id, NULL, "the device whose memory holds the array", NULL},
	{"shape", (getter)get_shape, NULL, "the extents, as for NumPy", NULL},
	{"strides", (getter)get_strides, NULL, "the byte strides, as for NumPy", NULL},
	{"ndim", (getter)get_ndim, NULL, "the number of dimensions", NULL},
	{"size", (getter)get_size, NULL, "the number of elements", NULL},
	{"nbytes", (getter)get_nbytes, NULL, "size * itemsize", NULL},
	{"itemsize", (getter)get_itemsize, NULL, "bytes per element", NULL},
	{"dtype", (getter)get_dtype, NULL, "the NumPy dtype", NULL},
	{"_ptr", (getter)get_ptr, NULL, "address of element 0", NULL},
	{"_layout", (getter)get_layout, NULL, "'C', 'F' or 'A'", NULL},
	{"_foreign", (getter)get_foreign, NULL, "memory of another library", NULL},
	{"_alloc_size", (getter)get_alloc_size, NULL, "bytes this array allocated (0 for a view)", NULL},
	{"_owner", (getter)get_owner, NULL, "the object that owns the memory of a view", NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef DeviceArray_methods[] = {
	{"_view", (PyCFunction)(void (*)(void))DeviceArray_view, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	 "_view(base, ptr, shape, strides, dtype, host=False)"},
	{"_htod", (PyCFunction)(void (*)(void))DeviceArray_htod, METH_VARARGS | METH_KEYWORDS,
	 "_htod(src, offset=0, stream=None)"},
	{"_dtoh", (PyCFunction)(void (*)(void))DeviceArray_dtoh, METH_VARARGS | METH_KEYWORDS,
	 "_dtoh(dst, offset=0, stream=None)"},
	{"_dtod", (PyCFunction)(void (*)(void))DeviceArray_dtod, METH_VARARGS | METH_KEYWORDS,
	 "_dtod(src, nbytes, dst_offset=0, src_offset=0, stream=None)"},
	{"_memset", (PyCFunction)DeviceArray_memset, METH_VARARGS, "_memset(byte)"},
	{"_span", (PyCFunction)DeviceArray_span, METH_NOARGS, "(lo, hi): byte range covered, from element 0"},
	{NULL, NULL, 0, NULL},
};

static PyType_Slot DeviceArray_slots[] = {
	{Py_tp_new, DeviceArray_new},
	{Py_tp_dealloc, DeviceArray_dealloc},
	{Py_tp_getset, DeviceArray_getset},
	{Py_tp_methods, DeviceArray_methods},
	{Py_mp_length, DeviceArray_len},
	{Py_sq_length, DeviceArray_len},
	{Py_tp_doc, "An array in device memory (the C part of DeviceNDArray)."},
	{0, NULL},
};

PyType_Spec DeviceArray_spec = {
	.name = "ptxjit._core.DeviceArray",
	.basicsize = sizeof(DeviceArrayObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.slots = DeviceArray_slots,
};

/* -------------------------------------------------------- HostBuffer */

enum { HB_PINNED, HB_MAPPED, HB_MANAGED };

typedef struct {
	PyObject_HEAD
	ModState *st;
	Rt *rt;
	void *p;
	Py_ssize_t n;
	int kind;                 /* HB_* */
	unsigned gen;             /* HB_MANAGED: the context generation of the memory */
	CUdeviceptr dev;          /* where kernels reach the memory (HB_MAPPED, HB_MANAGED) */
} HostBufferObject;

/* HostBuffer(nbytes, kind=0, attach_global=True): host memory exporting
 * the buffer protocol; kind 0 pinned, 1 mapped into the device, 2
 * managed (cuMemAllocManaged). */
static PyObject *HostBuffer_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"nbytes", "kind", "attach_global", NULL};
	Py_ssize_t n;
	int kind = HB_PINNED, global = 1;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "n|ip", kw, &n, &kind, &global))
		return NULL;
	if (n < 0)
		return PyErr_Format(PyExc_ValueError, "negative size %zd", n);
	if (kind < HB_PINNED || kind > HB_MANAGED)
		return PyErr_Format(PyExc_ValueError, "HostBuffer: kind %d is not 0 (pinned), 1 (mapped) or 2 (managed)", kind);
	ModState *st = state_of_type(type);
	if (!st || enter_rt(st, cur_rt(st)))
		return NULL;
	HostBufferObject *b = (HostBufferObject *)type->tp_alloc(type, 0);
	if (!b)
		return NULL;
	b->st = st;
	b->rt = cur_rt(st);
	b->kind = kind;
	RtErr e;
	int rc;
	if (kind == HB_MANAGED) {
		NOGIL(rc = rt_managed_alloc(b->rt, (size_t)n, global, &b->dev, &b->gen, &e));
		b->p = (void *)(uintptr_t)b->dev;
	} else {
		NOGIL(rc = rt_host_alloc(b->rt, (size_t)n, &b->p, kind == HB_MAPPED ? &b->dev : NULL, &e));
	}
	if (rc) {
		Py_DECREF(b);
		return raise_rt(st, &e);
	}
	b->n = n;
	return (PyObject *)b;
}

static void HostBuffer_dealloc(HostBufferObject *b)
{
	PyTypeObject *tp = Py_TYPE(b);
	if (b->p && b->kind == HB_MANAGED)
		NOGIL(rt_managed_free(b->rt, b->dev, b->gen));
	else if (b->p)
		NOGIL(rt_host_free(b->rt, b->p));
	tp->tp_free((PyObject *)b);
	Py_DECREF(tp);
}

static int HostBuffer_getbuffer(HostBufferObject *b, Py_buffer *view, int flags)
{
	return PyBuffer_FillInfo(view, (PyObject *)b, b->p, b->n, 0, flags);
}

static PyObject *HostBuffer_ptr(HostBufferObject *b, void *c)
{
	return PyLong_FromVoidPtr(b->p);
}

static PyObject *HostBuffer_device_ptr(HostBufferObject *b, void *c)
{
	return PyLong_FromUnsignedLongLong(b->kind == HB_PINNED ? 0 : b->dev);
}

static PyGetSetDef HostBuffer_getset[] = {
	{"ptr", (getter)HostBuffer_ptr, NULL, "the host address", NULL},
	{"device_ptr", (getter)HostBuffer_device_ptr, NULL,
	 "where kernels reach mapped or managed memory (0 for pinned memory)", NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot HostBuffer_slots[] = {
	{Py_tp_new, HostBuffer_new},
	{Py_tp_dealloc, HostBuffer_dealloc},
	{Py_tp_getset, HostBuffer_getset},
	{Py_bf_getbuffer, HostBuffer_getbuffer},
	{Py_tp_doc, "Pinned (page-locked), mapped or managed host memory; NumPy arrays from cuda.pinned_array, "
	            "cuda.mapped_array and cuda.managed_array use it."},
	{0, NULL},
};

PyType_Spec HostBuffer_spec = {
	.name = "ptxjit._core.HostBuffer",
	.basicsize = sizeof(HostBufferObject),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = HostBuffer_slots,
};

/* ---------------------------------------------------------- HostMemory */

/* A base class whose instances export, as a writable buffer of bytes, the
 * host memory their _bufptr_ and _buflen_ attributes name: the pinned and
 * mapped memory pointers of ptxjit.cuda.emm, on which NumPy builds arrays
 * (np.ndarray(n, dtype, buffer=ctx.memhostalloc(n))), as Numba's do. */
static int HostMemory_getbuffer(PyObject *o, Py_buffer *view, int flags)
{
	PyObject *p = PyObject_GetAttrString(o, "_bufptr_");
	PyObject *n = p ? PyObject_GetAttrString(o, "_buflen_") : NULL;
	void *ptr = p ? PyLong_AsVoidPtr(p) : NULL;
	Py_ssize_t len = n ? PyLong_AsSsize_t(n) : -1;
	Py_XDECREF(p);
	Py_XDECREF(n);
	if (PyErr_Occurred())
		return -1;
	if (len < 0 || (!ptr && len)) {
		PyErr_SetString(PyExc_BufferError, "this memory has no host address to export");
		return -1;
	}
	return PyBuffer_FillInfo(view, o, ptr, len, 0, flags);
}

static PyType_Slot HostMemory_slots[] = {
	{Py_bf_getbuffer, HostMemory_getbuffer},
	{Py_tp_doc, "Base class of host memory pointers: a buffer of the bytes at _bufptr_, _buflen_ long."},
	{0, NULL},
};

PyType_Spec HostMemory_spec = {
	.name = "ptxjit._core.HostMemory",
	.basicsize = sizeof(PyObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.slots = HostMemory_slots,
};

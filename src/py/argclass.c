/*
 * argclass.c - what a launch argument is: a Python object in, an ArgInfo
 * out (launch.h), or an exception that names the kernel, the parameter
 * and what is accepted.
 *
 * Accepted: device arrays (read from their C fields, nothing looked up),
 * NumPy arrays (the buffer protocol, ndarg.c; they become A_HOST and are
 * staged by hoststage.c), objects exporting __cuda_array_interface__
 * (A_FOREIGN, used in place), Python bool/int/float/complex and NumPy
 * scalars (A_SCALAR), NumPy arrays on mapped or managed memory (their
 * class has _ptxjit_device_memory: A_FOREIGN on the GPU, used in place;
 * staged as NumPy arrays on the simulator), NumPy record scalars (a[i] of a structured array:
 * A_HOST of one element, layout 'R').  Arrays may have 0 to 8 dimensions
 * and records (records.c) as elements.  cuda.In/Out/InOut wrappers
 * (their class has _ptxjit_copy) are unwrapped and leave ArgInfo.dir.
 *
 * The class of a type that is not one of ours or a Python number is
 * looked up once and kept in ModState.tcache; for a NumPy scalar type it
 * also keeps where the object holds its value, checked once against the
 * buffer protocol, so a scalar is read without a buffer export.  A
 * __cuda_array_interface__ typestr is parsed once per spelling
 * (ModState.tscache).
 */
#include "launch.h"

#include <limits.h>
#include <string.h>

enum { TC_BAD, TC_NDARRAY, TC_NPSCALAR, TC_INT, TC_FLOAT, TC_COMPLEX, TC_CAI, TC_HINT, TC_RECORD, TC_MAPPED };

const char *arg_name(DispatcherObject *d, int i)
{
	if (d->argnames && i < PyTuple_GET_SIZE(d->argnames)) {
		const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(d->argnames, i));
		if (s)
			return s;
		PyErr_Clear();
	}
	return "?";
}

static const char accepted[] =
	"accepted: device arrays (cuda.to_device, cuda.device_array), NumPy arrays, arrays of other "
	"libraries with __cuda_array_interface__, bool, int (int64), float, complex and NumPy scalars";

static int bad_arg(DispatcherObject *d, int i, PyObject *o, const char *why)
{
	PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s') is %s (%.100s); %s",
	             d->name, i + 1, arg_name(d, i), why, Py_TYPE(o)->tp_name, accepted);
	return -1;
}

/* Where a NumPy scalar of type t keeps its value: the offset of the
 * buffer's address in the object, when it lies inside the fixed part of
 * the object; 0 when not. */
static int scalar_offset(PyTypeObject *t, PyObject *o, const Py_buffer *v)
{
	Py_ssize_t off = (const char *)v->buf - (const char *)o;
	if (off >= (Py_ssize_t)sizeof(PyObject) && off + v->itemsize <= t->tp_basicsize && t->tp_itemsize == 0)
		return (int)off;
	return 0;
}

/* The class of arguments of type t (o is an instance), cached per type
 * (in *spare when the cache is full). */
static struct TypeClass *type_class(ModState *st, PyTypeObject *t, PyObject *o, struct TypeClass *spare)
{
	for (int i = 0; i < st->ntcache; i++)
		if (st->tcache[i].t == t)
			return &st->tcache[i];
	int cls = TC_BAD, k = -1, off = 0;
	if (nd_is_ndarray(st, t)) {
		cls = t != st->ndarray_T && PyObject_HasAttrString((PyObject *)t, "_ptxjit_device_memory")
		      ? TC_MAPPED : TC_NDARRAY;
	} else if (nd_type_named(t, "numpy.void")) {
		cls = TC_RECORD;
	} else if (nd_type_named(t, "numpy.generic")) {
		Py_buffer v;
		if (!nd_numeric_scalar_type(t)) {
			k = -1;
		} else if (PyObject_GetBuffer(o, &v, PyBUF_FORMAT) == 0) {
			k = kind_of_format(v.format, v.itemsize);
			off = scalar_offset(t, o, &v);
			PyBuffer_Release(&v);
		} else {
			PyErr_Clear();
		}
		cls = k >= 0 ? TC_NPSCALAR : TC_BAD;
	} else if (PyLong_Check(o)) {
		cls = TC_INT;
	} else if (PyFloat_Check(o)) {
		cls = TC_FLOAT;
	} else if (PyComplex_Check(o)) {
		cls = TC_COMPLEX;
	} else if (PyObject_HasAttr(o, st->s_cai)) {
		cls = TC_CAI;
	} else if (PyObject_HasAttrString((PyObject *)t, "_ptxjit_copy")) {
		PyObject *d = PyObject_GetAttrString((PyObject *)t, "_ptxjit_copy");
		k = d ? (int)PyLong_AsLong(d) : -1;
		Py_XDECREF(d);
		PyErr_Clear();
		cls = k >= DIR_INOUT && k <= DIR_OUT ? TC_HINT : TC_BAD;
	}
	struct TypeClass *tc = spare;
	if (st->ntcache < (int)(sizeof st->tcache / sizeof st->tcache[0])) {
		Py_INCREF(t);
		tc = &st->tcache[st->ntcache++];
	}
	*tc = (struct TypeClass){t, cls, k, off};
	return tc;
}

static int from_int(DispatcherObject *d, int i, PyObject *o, ArgInfo *a)
{
	int overflow = 0;
	long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
	if (v == -1 && PyErr_Occurred())
		return -1;
	if (overflow) {
		PyErr_Format(PyExc_ValueError,
		             "kernel '%s': argument %d ('%s') is an int too large for int64; "
		             "pass numpy.uint64(x) for values up to 2**64-1", d->name, i + 1, arg_name(d, i));
		return -1;
	}
	a->cls = A_SCALAR;
	a->kind = K_I64;
	a->v.i = v;
	return 0;
}

/* ----------------------------------------- __cuda_array_interface__ */

static int ints_of(PyObject *t, Py_ssize_t *out, int n)
{
	for (int i = 0; i < n; i++) {
		out[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, i));
		if (out[i] == -1 && PyErr_Occurred())
			return -1;
	}
	return 0;
}

/* The kind of a typestr ("<f4"), through the cache of spellings seen. */
static int typestr_kind(ModState *st, PyObject *ts, int *itemsize)
{
	Py_ssize_t n;
	const char *s = PyUnicode_AsUTF8AndSize(ts, &n);
	if (!s)
		return -2;
	int nc = st->ntscache;
	if (n < (Py_ssize_t)sizeof st->tscache[0].s)
		for (int i = 0; i < nc; i++) {
			struct TypestrClass *c = &st->tscache[i];
			if (c->len == n && memcmp(c->s, s, (size_t)n) == 0) {
				*itemsize = c->itemsize;
				return c->kind;
			}
		}
	int k = kind_of_typestr(s, itemsize);
	if (k >= 0 && n < (Py_ssize_t)sizeof st->tscache[0].s &&
	    nc < (int)(sizeof st->tscache / sizeof st->tscache[0])) {
		struct TypestrClass *c = &st->tscache[st->ntscache++];
		memcpy(c->s, s, (size_t)n);
		c->len = (int)n;
		c->kind = k;
		c->itemsize = *itemsize;
	}
	return k;
}

static unsigned long long data_address(PyObject *p)
{
#if ULONG_MAX >= 0xffffffffffffffffULL
	return PyLong_AsUnsignedLong(p);   /* faster than the long long one for big values */
#else
	return PyLong_AsUnsignedLongLong(p);
#endif
}

static int from_cai(DispatcherObject *d, int i, PyObject *o, ArgInfo *a, LauncherObject *L)
{
	ModState *st = d->st;
	PyObject *cai = PyObject_GetAttr(o, st->s_cai);
	if (!cai)
		return -1;
	int rc = -1;
	if (!PyDict_Check(cai)) {
		bad_arg(d, i, o, "an object whose __cuda_array_interface__ is not a dict");
		goto done;
	}
	PyObject *shape = PyDict_GetItemWithError(cai, st->s_shape);
	PyObject *ts = PyDict_GetItemWithError(cai, st->s_typestr);
	PyObject *data = PyDict_GetItemWithError(cai, st->s_data);
	PyObject *strides = PyDict_GetItemWithError(cai, st->s_strides);
	PyObject *mask = PyDict_GetItemWithError(cai, st->s_mask);
	PyObject *stream = PyDict_GetItemWithError(cai, st->s_stream);
	if (PyErr_Occurred())
		goto done;
	if (mask && mask != Py_None) {
		PyErr_Format(PyExc_NotImplementedError, "kernel '%s': argument %d ('%s'): masked arrays are not supported",
		             d->name, i + 1, arg_name(d, i));
		goto done;
	}
	if (!shape || !PyTuple_Check(shape) || !ts || !PyUnicode_Check(ts) || !data ||
	    !PyTuple_Check(data) || PyTuple_GET_SIZE(data) < 1 ||
	    (strides && strides != Py_None && (!PyTuple_Check(strides) ||
	                                       PyTuple_GET_SIZE(strides) != PyTuple_GET_SIZE(shape)))) {
		bad_arg(d, i, o, "an object with a malformed __cuda_array_interface__");
		goto done;
	}
	int itemsize = 0;
	a->kind = typestr_kind(st, ts, &itemsize);
	if (a->kind == -2)
		goto done;
	if (a->kind < 0) {
		PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s') has dtype '%U', which kernels do not take",
		             d->name, i + 1, arg_name(d, i), ts);
		goto done;
	}
	Py_ssize_t nd = PyTuple_GET_SIZE(shape);
	if (nd < 1 || nd > PJ_MAXDIM) {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') has %zd dimensions; kernels take "
		             "arrays of 1 to %d dimensions", d->name, i + 1, arg_name(d, i), nd, PJ_MAXDIM);
		goto done;
	}
	a->ndim = (int)nd;
	Py_ssize_t *sh = a->dims, *sd = a->dims + PJ_MAXDIM;
	a->shape = sh;
	a->strides = sd;
	if (ints_of(shape, sh, a->ndim))
		goto done;
	if (strides && strides != Py_None) {
		if (ints_of(strides, sd, a->ndim))
			goto done;
	} else {
		Py_ssize_t s = itemsize;
		for (int j = a->ndim - 1; j >= 0; j--) {
			sd[j] = s;
			s *= sh[j];
		}
	}
	unsigned long long p = data_address(PyTuple_GET_ITEM(data, 0));
	if (p == (unsigned long long)-1 && PyErr_Occurred())
		goto done;
	a->ptr = p;
	a->cls = A_FOREIGN;
	/* the simulator uses in place the memory it allocated itself (a
	 * device array of ours that another object wraps), nothing else */
	if (st->sim && !sim_holds_span(st, (CUdeviceptr)p, itemsize, a->ndim, sh, sd)) {
		PyErr_Format(PyExc_TypeError,
		             "kernel '%s': argument %d ('%s') is a GPU array of another library (%.100s); "
		             "the simulator (PTXJIT_SIM=1) cannot read GPU memory: pass a NumPy array or a "
		             "device array from cuda.to_device", d->name, i + 1, arg_name(d, i), Py_TYPE(o)->tp_name);
		goto done;
	}
	/* the interface's read-only flag: the kernel is typed so that it
	 * cannot write the array */
	if (PyTuple_GET_SIZE(data) >= 2) {
		int ro = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1));
		if (ro < 0)
			goto done;
		a->readonly = (char)ro;
	}
	a->layout = layout_of(a->ndim, sh, sd, itemsize);
	if (stream && stream != Py_None) {
		unsigned long long sv = PyLong_Check(stream) ? PyLong_AsUnsignedLongLong(stream) : 0;
		if (!PyLong_Check(stream) || (sv == (unsigned long long)-1 && PyErr_Occurred())) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s'): the 'stream' of its "
			             "__cuda_array_interface__ is %R; it must be None or a CUstream handle (an int)",
			             d->name, i + 1, arg_name(d, i), stream);
			goto done;
		}
		/* the producer's work on the array comes first: the launch's
		 * stream waits for the producer's stream (on the GPU, not here);
		 * 1 is the legacy default stream, which a launch without a stream
		 * uses, and which every ordinary stream waits for anyway;
		 * NUMBA_CUDA_ARRAY_INTERFACE_SYNC=0 (st->cai_sync) turns it off */
		CUstream s = (CUstream)(uintptr_t)sv;
		RtErr e;
		/* no order is made on a stream being captured into a graph (the
		 * producer's work was done before the capture, or is in it) */
		if (st->cai_sync && sv != 0 && s != L->stream && !(sv == 1 && !L->stream) &&
		    !rt_capturing(cur_rt(st), rt_graph_stream(cur_rt(st), L->stream))) {
			if (enter_rt(st, cur_rt(st)))
				goto done;
			if (rt_stream_order(cur_rt(st), s, L->stream, &e)) {
				raise_rt(st, &e);
				goto done;
			}
		}
	}
	rc = 0;
done:
	Py_DECREF(cai);
	return rc;
}

/* ------------------------------------------------ NumPy arrays, records */

/* The kind of an argument whose dtype is a record (o has a .dtype). */
static int arg_record_kind(DispatcherObject *d, int i, PyObject *o)
{
	PyObject *dt = PyObject_GetAttrString(o, "dtype");
	if (!dt)
		return -1;
	int k = is_record_dtype(dt) || is_charseq_dtype(dt) ? record_kind(d->st, dt) : -2;
	Py_DECREF(dt);
	if (k == -1 && PyErr_ExceptionMatches(PyExc_TypeError)) {
		PyObject *et, *ev, *tb;
		PyErr_Fetch(&et, &ev, &tb);
		PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s'): %S", d->name, i + 1, arg_name(d, i),
		             ev ? ev : Py_None);
		Py_XDECREF(et);
		Py_XDECREF(ev);
		Py_XDECREF(tb);
	}
	return k;
}

/* A NumPy record scalar (numpy.void of a structured dtype, such as a[i]
 * of a structured array): passed by pointer to a copy on the device,
 * copied back after the launch into the memory it shares with its array,
 * as Numba does.  ArgInfo.view.buf is that memory (there is no buffer to
 * release); layout 'R' tells it from a 0-d array in the key. */
static int from_record_scalar(DispatcherObject *d, int i, PyObject *o, ArgInfo *a)
{
	int k = arg_record_kind(d, i, o);
	if (k == -2)
		return bad_arg(d, i, o, "a NumPy void scalar that is not a record");
	if (k < 0)
		return -1;
	PyObject *ai = PyObject_GetAttrString(o, "__array_interface__");
	PyObject *isz = PyObject_GetAttrString(o, "itemsize");
	PyObject *data = ai && PyDict_Check(ai) ? PyDict_GetItemString(ai, "data") : NULL;
	int rc = -1;
	if (!ai || !isz || !data || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2) {
		if (!PyErr_Occurred())
			bad_arg(d, i, o, "a record without an __array_interface__");
		goto done;
	}
	void *p = PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0));
	Py_ssize_t n = PyLong_AsSsize_t(isz);
	if (PyErr_Occurred())
		goto done;
	a->cls = A_HOST;
	a->kind = k;
	a->ndim = 0;
	a->layout = 'R';
	/* Numba copies a record scalar back into its array whatever its
	 * interface says (NumPy 2.5 marks void scalars' data read-only) */
	a->readonly = 0;
	a->nbytes = (size_t)n;
	a->view.buf = p;
	a->ptr = (CUdeviceptr)(uintptr_t)p;
	rc = 0;
done:
	Py_XDECREF(ai);
	Py_XDECREF(isz);
	return rc;
}

/* the buffer format of a fixed-length string dtype: "12s" (|S12), "12w" (<U12) */
static int is_charseq_format(const char *f)
{
	if (*f && strchr("<>=!@", *f))
		f++;
	while (*f >= '0' && *f <= '9')
		f++;
	return (f[0] == 's' || f[0] == 'w') && !f[1];
}

/* a NumPy array whose dtype kernels do not take: the error, naming it */
static int bad_numpy_dtype(DispatcherObject *d, int i, PyObject *o)
{
	PyObject *dt = PyObject_GetAttrString(o, "dtype");
	PyErr_Clear();
	PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s') is a NumPy array of dtype %S, "
	             "which kernels do not take (numbers, bools, fixed-length strings and records of those only)",
	             d->name, i + 1,
	             arg_name(d, i), dt ? dt : Py_None);
	Py_XDECREF(dt);
	return -1;
}

static int from_ndarray(DispatcherObject *d, int i, PyObject *o, ArgInfo *a)
{
	Py_ssize_t *sh = a->dims, *sd = a->dims + PJ_MAXDIM;
	NdArg x = {sh, sd, &a->view};
	int rc = nd_read(d->st, o, 1, &x);
	a->has_view = x.has_view;
	if (rc == ND_NOBUF)   /* NumPy exports no buffer for datetime and some other dtypes */
		return bad_numpy_dtype(d, i, o);
	Py_buffer *v = &a->view;
	a->kind = x.kind;
	if (a->kind < 0 && v->format && (v->format[0] == 'T' || is_charseq_format(v->format)) &&
	    (a->kind = arg_record_kind(d, i, o)) == -1)
		return -1;
	if (a->kind < 0)
		return bad_numpy_dtype(d, i, o);
	if (rc == ND_NDIM) {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a %d-dimensional array; kernels "
		             "take arrays of 0 to %d dimensions",
		             d->name, i + 1, arg_name(d, i), x.ndim, PJ_MAXDIM);
		return -1;
	}
	a->ndim = x.ndim;
	a->layout = x.layout;
	if (a->layout == 'A') {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a non-contiguous NumPy array, "
		             "which cannot be copied to the device as one block; pass numpy.ascontiguousarray(a) "
		             "or a device array", d->name, i + 1, arg_name(d, i));
		return -1;
	}
	size_t n = (size_t)x.itemsize;
	for (int j = 0; j < a->ndim; j++)
		n *= (size_t)sh[j];
	a->shape = sh;
	a->strides = sd;
	a->cls = A_HOST;
	a->readonly = x.readonly;
	a->nbytes = n;
	a->ptr = (CUdeviceptr)(uintptr_t)x.ptr;
	return 0;
}

/* ---------------------------------------------------- classification */

static int array_on_other_device(DispatcherObject *d, int i, DeviceArrayObject *x, Rt *rt)
{
	char what[300];
	snprintf(what, sizeof what, "kernel '%s': argument %d ('%s'), a device array,", d->name, i + 1, arg_name(d, i));
	return wrong_device(d->st, what, x->rt, rt);
}

static int from_device_array(DispatcherObject *d, int i, PyObject *o, ArgInfo *a, LauncherObject *L)
{
	ModState *st = d->st;
	DeviceArrayObject *x = (DeviceArrayObject *)o;
	int kind = x->kind;
	if (kind < 0 && (kind = arg_record_kind(d, i, o)) == -1)
		return -1;
	if (kind < 0) {
		PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s') is a device array of dtype %R, "
		             "which kernels do not take (numbers, bools, fixed-length strings and records of those "
		             "only)", d->name, i + 1,
		             arg_name(d, i), x->dtype);
		return -1;
	}
	Rt *rt = cur_rt(st);
	if (!st->sim && !x->foreign && (x->rt != rt || x->gen != rt->gen)) {
		if (x->rt != rt)
			return array_on_other_device(d, i, x, rt);
		PyErr_Format(st->CudaDriverError, "kernel '%s': argument %d ('%s') is a device array allocated "
		             "before cuda.close(); its memory is gone", d->name, i + 1, arg_name(d, i));
		return -1;
	}
	if (st->sim && x->foreign)
		return from_cai(d, i, o, a, L);
	a->cls = A_DEVICE;
	a->kind = kind;
	a->ndim = x->ndim;
	a->layout = x->layout;
	/* a DeviceRecord (a 0-d device array whose class says so) is a record
	 * taken by reference in place, as a NumPy record scalar is from its copy */
	if (x->ndim == 0 && kind >= K_RECORD && PyObject_HasAttrString((PyObject *)Py_TYPE(o), "_ptxjit_record"))
		a->layout = 'R';
	a->ptr = x->ptr;
	a->shape = x->shape;        /* the array outlives the launch: the caller holds it */
	a->strides = x->strides;
	return 0;
}

int arg_classify(DispatcherObject *d, int i, PyObject *o, ArgInfo *a, LauncherObject *L)
{
	ModState *st = d->st;
	PyTypeObject *t = Py_TYPE(o);
	if (PyObject_TypeCheck(o, st->DeviceArray_T))
		return from_device_array(d, i, o, a, L);
	if (t == &PyLong_Type)
		return from_int(d, i, o, a);
	if (scalar_of_builtin(o, &a->kind, &a->v)) {
		a->cls = A_SCALAR;
		return 0;
	}
	struct TypeClass spare, *tc = type_class(st, t, o, &spare);
	switch (tc->cls) {
	case TC_NDARRAY:
		return from_ndarray(d, i, o, a);
	case TC_NPSCALAR:
		a->cls = A_SCALAR;
		a->kind = tc->sk;
		if (tc->off) {
			scalar_read(&a->v, tc->sk, (const char *)o + tc->off);
		} else {
			Py_buffer v;
			if (PyObject_GetBuffer(o, &v, PyBUF_SIMPLE) < 0)
				return -1;
			scalar_read(&a->v, tc->sk, v.buf);
			PyBuffer_Release(&v);
		}
		return 0;
	case TC_INT:
		return from_int(d, i, o, a);
	case TC_FLOAT:
		a->cls = A_SCALAR;
		a->kind = K_F64;
		a->v.f = PyFloat_AsDouble(o);
		return a->v.f == -1.0 && PyErr_Occurred() ? -1 : 0;
	case TC_COMPLEX:
		a->cls = A_SCALAR;
		a->kind = K_C128;
		a->v.c[0] = PyComplex_RealAsDouble(o);
		a->v.c[1] = PyComplex_ImagAsDouble(o);
		return PyErr_Occurred() ? -1 : 0;
	case TC_CAI:
		return from_cai(d, i, o, a, L);
	case TC_MAPPED: {
		/* mapped or managed memory: used in place through its
		 * __cuda_array_interface__, unless it is a copy elsewhere */
		int on_device = st->sim ? 0 : PyObject_HasAttr(o, st->s_cai);
		if (on_device)
			return from_cai(d, i, o, a, L);
		a->mapped = st->sim && PyObject_HasAttr(o, st->s_cai);
		return from_ndarray(d, i, o, a);
	}
	case TC_RECORD:
		return from_record_scalar(d, i, o, a);
	case TC_HINT: {
		int dir = tc->sk;
		PyObject *v = PyObject_GetAttrString(o, "value");
		if (!v)
			return -1;
		int rc = PyObject_HasAttrString((PyObject *)Py_TYPE(v), "_ptxjit_copy")
		         ? bad_arg(d, i, v, "a cuda.In/Out/InOut of another one")
		         : arg_classify(d, i, v, a, L);
		Py_DECREF(v);   /* the wrapper keeps it alive for the launch */
		a->dir = (char)dir;
		a->hinted = 1;
		return rc;
	}
	}
	if (o == Py_None)
		return bad_arg(d, i, o, "None");
	if (PyUnicode_Check(o) || PyBytes_Check(o))
		return bad_arg(d, i, o, "a string");
	if (PyList_Check(o))
		return bad_arg(d, i, o, "a list (convert it with numpy.asarray, or pass a tuple)");
	if (nd_type_named(t, "numpy.generic"))
		return bad_arg(d, i, o, "a NumPy scalar of a dtype kernels do not take");
	return bad_arg(d, i, o, "of an unsupported type");
}

void arg_release(ModState *st, ArgInfo *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (a[i].tmp)
			release_mem(cur_rt(st), a[i].tmp, a[i].nbytes, cur_rt(st)->gen);
		PyMem_RawFree(a[i].host_tmp);
		if (a[i].has_view)
			PyBuffer_Release(&a[i].view);
	}
}

PyObject *arg_type_string(ModState *st, const ArgInfo *a)
{
	char buf[160];
	const char *name = a->kind >= K_RECORD ? record_name(st, a->kind) : kind_name[a->kind];
	if (a->cls == A_SCALAR || a->layout == 'R')
		return PyUnicode_FromString(name);
	const char *ro = a->readonly ? "readonly " : "";
	if (a->ndim == 0)
		return PyUnicode_FromFormat("%sarray(%s, 0d, C)", ro, name);
	int n = snprintf(buf, sizeof buf, "[");
	for (int j = 0; j < a->ndim; j++) {
		const char *dim = ":";
		if ((a->layout == 'C' && j == a->ndim - 1) || (a->layout == 'F' && j == 0))
			dim = "::1";
		n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s", j ? ", " : "", dim);
	}
	snprintf(buf + n, sizeof buf - (size_t)n, "]");
	return PyUnicode_FromFormat("%s%s%s", ro, name, buf);
}

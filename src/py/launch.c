/*
 * launch.c - the launch path: `kernel[grid, block, stream, shared](args)`
 * from Python to cuLaunchKernel (or the simulator), all in C.
 *
 *   Dispatcher[config]   checks and parses the configuration and returns
 *                        a Launcher; the last one is reused when the next
 *                        configuration is the same, so a steady loop makes
 *                        no new objects.
 *   Launcher(*args)      (vectorcall) classifies each argument, builds a
 *                        compact key of their types (4 bytes each), finds
 *                        the compiled Kernel for the key in the
 *                        dispatcher's hash table, or asks Python to make
 *                        one (Dispatcher._compile_for(argtypes)) and
 *                        files it; packs the parameter buffer following
 *                        PjKernel.params; launches.
 *
 * Arguments: device arrays (read from their C fields), NumPy arrays (the
 * buffer protocol; copied to the device before the launch and back after
 * it, then synchronised, as Numba does; the simulator uses them in
 * place), objects exporting __cuda_array_interface__ (used in place),
 * Python bool/int/float/complex and NumPy scalars.  Arrays may have 0 to
 * 8 dimensions and records (structured dtypes, records.c) as elements.
 * cuda.In/Out/InOut wrappers (their class has _ptxjit_copy) are unwrapped
 * and leave ArgInfo.dir: In skips the copy back, Out the copy in.
 * Everything else is refused before anything reaches the device, with a
 * message naming the kernel, the parameter and what is accepted.
 *
 * The key of an argument is (array or scalar, kind, ndim, layout): the
 * same key always maps to the same Kernel, so the parameter layout is
 * checked against the key once, when the Kernel is filed.
 */
#include "py.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { A_DEVICE = 1, A_HOST, A_FOREIGN, A_SCALAR };
enum { TC_BAD, TC_NDARRAY, TC_NPSCALAR, TC_INT, TC_FLOAT, TC_COMPLEX, TC_CAI, TC_HINT, TC_RECORD };
/* cuda.In/Out/InOut (ArgInfo.dir): which copies a host array gets */
enum { DIR_INOUT = 0, DIR_IN = 1, DIR_OUT = 2 };

typedef struct ArgInfo {
	int cls;                  /* A_* */
	int kind;                 /* K_* */
	int ndim;
	char layout;
	char readonly;
	char has_view;
	char dir;                 /* DIR_*: from a cuda.In/Out/InOut wrapper */
	CUdeviceptr ptr;          /* element 0 (device, or host in the simulator) */
	Py_ssize_t shape[PJ_MAXDIM], strides[PJ_MAXDIM];
	ScalarVal v;
	Py_buffer view;           /* A_HOST */
	size_t nbytes;            /* A_HOST: bytes of the array */
	CUdeviceptr tmp;          /* A_HOST: its device copy */
	void *host_tmp;           /* A_HOST, simulator: copy of a read-only array */
} ArgInfo;

typedef struct Entry {
	uint64_t hash;
	unsigned char *key;
	int len;
	KernelObject *k;
} Entry;

typedef struct LauncherObject LauncherObject;

typedef struct DispatcherObject {
	PyObject_HEAD
	ModState *st;
	char name[128];
	int nparams;              /* -1 until _setup */
	int nrequired;            /* parameters without a default value */
	PyObject *argnames;       /* tuple of str */
	int sync_after;           /* debug=True: wait for each launch */
	int is_device;
	Entry *tab;
	int cap, count;
	int last;                 /* index of the last hit, or -1 */
	LauncherObject *last_launcher;
} DispatcherObject;

struct LauncherObject {
	PyObject_HEAD
	vectorcallfunc vectorcall;
	DispatcherObject *d;
	unsigned grid[3], block[3];
	unsigned smem;
	PyObject *stream_obj;     /* as given (None for the default stream) */
	CUstream stream;
	int async;
};

/* ----------------------------------------------------------- helpers */

static uint16_t float_to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000, mant = x & 0x7fffff;
	int32_t bexp = (x >> 23) & 0xff, exp = bexp - 127 + 15;
	if (bexp == 0xff)
		return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0) {
		if (exp < -10)
			return (uint16_t)sign;
		mant |= 0x800000;
		int shift = 14 - exp;
		uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = sign | ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++;
	return (uint16_t)h;
}

static int64_t f2i(double f)
{
	if (f != f)
		return 0;
	if (f >= 9223372036854775807.0)
		return INT64_MAX;
	if (f <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)f;
}

static uint64_t f2u(double f)
{
	if (f != f)
		return 0;
	if (f < 0)
		return (uint64_t)f2i(f);
	if (f >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)f;
}

static int is_int_kind(int k) { return k >= K_BOOL && k <= K_U64; }

static void put_int(unsigned char *dst, int ty, int64_t v)
{
	switch (ty) {
	case K_BOOL: *dst = v != 0; break;
	case K_I8: case K_U8: { uint8_t x = (uint8_t)v; memcpy(dst, &x, 1); break; }
	case K_I16: case K_U16: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
	case K_I32: case K_U32: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
	case K_F16: { uint16_t x = float_to_half((float)v); memcpy(dst, &x, 2); break; }
	case K_F32: { float x = (float)v; memcpy(dst, &x, 4); break; }
	case K_F64: { double x = (double)v; memcpy(dst, &x, 8); break; }
	default: memcpy(dst, &v, 8); break;
	}
}

/* Writes scalar argument a converted to kind ty; part 1 asks for the
 * imaginary part (a complex parameter passed as two floats). */
static void put_scalar(unsigned char *dst, int ty, const ArgInfo *a, int part)
{
	int k = a->kind, isint = is_int_kind(k);
	double re = 0, im = 0;
	if (k == K_C64 || k == K_C128) {
		re = a->v.c[0];
		im = a->v.c[1];
	} else if (isint) {
		re = k == K_U64 ? (double)a->v.u : (double)a->v.i;
	} else {
		re = a->v.f;
	}
	double x = part ? im : re;
	int exact = isint && !part;
	switch (ty) {
	case K_BOOL:
		*dst = exact ? a->v.i != 0 : x != 0;
		break;
	case K_F16: {
		uint16_t h = float_to_half((float)x);
		memcpy(dst, &h, 2);
		break;
	}
	case K_F32: {
		float f = (float)x;
		memcpy(dst, &f, 4);
		break;
	}
	case K_F64:
		memcpy(dst, &x, 8);
		break;
	case K_C64: {
		float c[2] = {(float)re, (float)im};
		memcpy(dst, c, 8);
		break;
	}
	case K_C128: {
		double c[2] = {re, im};
		memcpy(dst, c, 16);
		break;
	}
	case K_U64: {
		uint64_t u = exact ? (k == K_U64 ? a->v.u : (uint64_t)a->v.i) : f2u(x);
		memcpy(dst, &u, 8);
		break;
	}
	default:
		put_int(dst, ty, exact ? (k == K_U64 ? (int64_t)a->v.u : a->v.i) : f2i(x));
		break;
	}
}

static const char *argname(DispatcherObject *d, int i)
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
	             d->name, i + 1, argname(d, i), why, Py_TYPE(o)->tp_name, accepted);
	return -1;
}

/* ---------------------------------------------------- classification */

static int type_is(PyTypeObject *t, const char *name)
{
	PyObject *mro = t->tp_mro;
	if (!mro)
		return 0;
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++)
		if (strcmp(((PyTypeObject *)PyTuple_GET_ITEM(mro, i))->tp_name, name) == 0)
			return 1;
	return 0;
}

/* The class of arguments of type t (o is an instance), cached per type. */
static int type_class(ModState *st, PyTypeObject *t, PyObject *o, int *kind)
{
	for (int i = 0; i < st->ntcache; i++)
		if (st->tcache[i].t == t) {
			*kind = st->tcache[i].sk;
			return st->tcache[i].cls;
		}
	int cls = TC_BAD, k = -1;
	if (type_is(t, "numpy.ndarray")) {
		cls = TC_NDARRAY;
	} else if (type_is(t, "numpy.void")) {
		cls = TC_RECORD;
	} else if (type_is(t, "numpy.generic")) {
		Py_buffer v;
		if (PyObject_GetBuffer(o, &v, PyBUF_FORMAT) == 0) {
			k = kind_of_format(v.format, v.itemsize);
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
	if (st->ntcache < (int)(sizeof st->tcache / sizeof st->tcache[0])) {
		Py_INCREF(t);
		st->tcache[st->ntcache++] = (struct TypeClass){t, cls, k};
	}
	*kind = k;
	return cls;
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
		             "pass numpy.uint64(x) for values up to 2**64-1", d->name, i + 1, argname(d, i));
		return -1;
	}
	a->cls = A_SCALAR;
	a->kind = K_I64;
	a->v.i = v;
	return 0;
}

static int ints_of(PyObject *t, Py_ssize_t *out, int n, int *err)
{
	for (int i = 0; i < n; i++) {
		out[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, i));
		if (out[i] == -1 && PyErr_Occurred())
			return *err = -1;
	}
	return 0;
}

static int from_cai(DispatcherObject *d, int i, PyObject *o, ArgInfo *a, LauncherObject *L)
{
	ModState *st = d->st;
	if (st->sim) {
		PyErr_Format(PyExc_TypeError,
		             "kernel '%s': argument %d ('%s') is a GPU array of another library (%.100s); "
		             "the simulator (PTXJIT_SIM=1) cannot read GPU memory: pass a NumPy array or a "
		             "device array from cuda.to_device", d->name, i + 1, argname(d, i), Py_TYPE(o)->tp_name);
		return -1;
	}
	PyObject *cai = PyObject_GetAttr(o, st->s_cai);
	if (!cai)
		return -1;
	int rc = -1, err = 0;
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
		             d->name, i + 1, argname(d, i));
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
	a->kind = kind_of_typestr(PyUnicode_AsUTF8(ts), &itemsize);
	if (a->kind < 0) {
		PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s') has dtype '%U', which kernels do not take",
		             d->name, i + 1, argname(d, i), ts);
		goto done;
	}
	Py_ssize_t nd = PyTuple_GET_SIZE(shape);
	if (nd < 1 || nd > PJ_MAXDIM) {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') has %zd dimensions; kernels take "
		             "arrays of 1 to %d dimensions", d->name, i + 1, argname(d, i), nd, PJ_MAXDIM);
		goto done;
	}
	a->ndim = (int)nd;
	if (ints_of(shape, a->shape, a->ndim, &err))
		goto done;
	if (strides && strides != Py_None) {
		if (ints_of(strides, a->strides, a->ndim, &err))
			goto done;
	} else {
		Py_ssize_t s = itemsize;
		for (int j = a->ndim - 1; j >= 0; j--) {
			a->strides[j] = s;
			s *= a->shape[j];
		}
	}
	unsigned long long p = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(data, 0));
	if (p == (unsigned long long)-1 && PyErr_Occurred())
		goto done;
	a->ptr = p;
	a->cls = A_FOREIGN;
	a->layout = layout_of(a->ndim, a->shape, a->strides, itemsize);
	if (stream && stream != Py_None) {
		unsigned long long sv = PyLong_Check(stream) ? PyLong_AsUnsignedLongLong(stream) : 0;
		if (!PyLong_Check(stream) || (sv == (unsigned long long)-1 && PyErr_Occurred())) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s'): the 'stream' of its "
			             "__cuda_array_interface__ is %R; it must be None or a CUstream handle (an int)",
			             d->name, i + 1, argname(d, i), stream);
			goto done;
		}
		/* the producer's work on the array comes first: the launch's
		 * stream waits for the producer's stream (on the GPU, not here);
		 * 1 is the legacy default stream, which a launch without a stream
		 * uses, and which every ordinary stream waits for anyway */
		CUstream s = (CUstream)(uintptr_t)sv;
		RtErr e;
		if (sv != 0 && s != L->stream && !(sv == 1 && !L->stream)) {
			if (enter_rt(st))
				goto done;
			if (rt_stream_order(st->rt, s, L->stream, &e)) {
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

/* The kind of an argument whose dtype is a record (o has a .dtype). */
static int arg_record_kind(DispatcherObject *d, int i, PyObject *o)
{
	PyObject *dt = PyObject_GetAttrString(o, "dtype");
	if (!dt)
		return -1;
	int k = is_record_dtype(dt) ? record_kind(d->st, dt) : -2;
	Py_DECREF(dt);
	if (k == -1 && PyErr_ExceptionMatches(PyExc_TypeError)) {
		PyObject *et, *ev, *tb;
		PyErr_Fetch(&et, &ev, &tb);
		PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s'): %S", d->name, i + 1, argname(d, i),
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

static int from_ndarray(DispatcherObject *d, int i, PyObject *o, ArgInfo *a)
{
	if (PyObject_GetBuffer(o, &a->view, PyBUF_RECORDS_RO) < 0) {
		/* NumPy exports no buffer for datetime and some other dtypes */
		PyObject *dt = PyObject_GetAttrString(o, "dtype");
		PyErr_Clear();
		PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s') is a NumPy array of dtype %S, "
		             "which kernels do not take (numbers and bools only)", d->name, i + 1,
		             argname(d, i), dt ? dt : Py_None);
		Py_XDECREF(dt);
		return -1;
	}
	a->has_view = 1;
	Py_buffer *v = &a->view;
	a->kind = kind_of_format(v->format, v->itemsize);
	if (a->kind < 0 && v->format && v->format[0] == 'T' && (a->kind = arg_record_kind(d, i, o)) == -1)
		return -1;
	if (a->kind < 0) {
		PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s') is a NumPy array of dtype "
		             "format '%s', which kernels do not take (numbers and bools only)",
		             d->name, i + 1, argname(d, i), v->format ? v->format : "B");
		return -1;
	}
	if (v->ndim < 0 || v->ndim > PJ_MAXDIM) {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a %d-dimensional array; kernels "
		             "take arrays of 0 to %d dimensions",
		             d->name, i + 1, argname(d, i), v->ndim, PJ_MAXDIM);
		return -1;
	}
	a->ndim = v->ndim;
	size_t n = (size_t)v->itemsize;
	for (int j = 0; j < a->ndim; j++) {
		a->shape[j] = v->shape[j];
		a->strides[j] = v->strides ? v->strides[j] : 0;
		n *= (size_t)v->shape[j];
	}
	if (!v->strides) {
		Py_ssize_t s = v->itemsize;
		for (int j = a->ndim - 1; j >= 0; j--) {
			a->strides[j] = s;
			s *= a->shape[j];
		}
	}
	a->layout = layout_of(a->ndim, a->shape, a->strides, v->itemsize);
	if (a->layout == 'A') {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a non-contiguous NumPy array, "
		             "which cannot be copied to the device as one block; pass numpy.ascontiguousarray(a) "
		             "or a device array", d->name, i + 1, argname(d, i));
		return -1;
	}
	a->cls = A_HOST;
	a->readonly = (char)v->readonly;
	a->nbytes = n;
	a->ptr = (CUdeviceptr)(uintptr_t)v->buf;
	return 0;
}

static int classify(DispatcherObject *d, int i, PyObject *o, ArgInfo *a, LauncherObject *L)
{
	ModState *st = d->st;
	PyTypeObject *t = Py_TYPE(o);
	if (PyObject_TypeCheck(o, st->DeviceArray_T)) {
		DeviceArrayObject *x = (DeviceArrayObject *)o;
		int kind = x->kind;
		if (kind < 0 && (kind = arg_record_kind(d, i, o)) == -1)
			return -1;
		if (kind < 0) {
			PyErr_Format(PyExc_TypeError, "kernel '%s': argument %d ('%s') is a device array of dtype %R, "
			             "which kernels do not take (numbers, bools and records of them only)", d->name, i + 1,
			             argname(d, i), x->dtype);
			return -1;
		}
		if (!st->sim && !x->foreign && x->gen != st->rt->gen) {
			PyErr_Format(st->CudaDriverError, "kernel '%s': argument %d ('%s') is a device array allocated "
			             "before cuda.close(); its memory is gone", d->name, i + 1, argname(d, i));
			return -1;
		}
		if (st->sim && x->foreign)
			return from_cai(d, i, o, a, L);
		a->cls = A_DEVICE;
		a->kind = kind;
		a->ndim = x->ndim;
		a->layout = x->layout;
		a->ptr = x->ptr;
		memcpy(a->shape, x->shape, sizeof(Py_ssize_t) * (size_t)x->ndim);
		memcpy(a->strides, x->strides, sizeof(Py_ssize_t) * (size_t)x->ndim);
		return 0;
	}
	if (t == &PyLong_Type)
		return from_int(d, i, o, a);
	if (scalar_of_builtin(o, &a->kind, &a->v)) {
		a->cls = A_SCALAR;
		return 0;
	}
	int kind;
	switch (type_class(st, t, o, &kind)) {
	case TC_NDARRAY:
		return from_ndarray(d, i, o, a);
	case TC_NPSCALAR: {
		Py_buffer v;
		if (PyObject_GetBuffer(o, &v, PyBUF_SIMPLE) < 0)
			return -1;
		a->cls = A_SCALAR;
		a->kind = kind;
		scalar_read(&a->v, kind, v.buf);
		PyBuffer_Release(&v);
		return 0;
	}
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
	case TC_RECORD:
		return from_record_scalar(d, i, o, a);
	case TC_HINT: {
		PyObject *v = PyObject_GetAttrString(o, "value");
		if (!v)
			return -1;
		int rc = PyObject_HasAttrString((PyObject *)Py_TYPE(v), "_ptxjit_copy")
		         ? bad_arg(d, i, v, "a cuda.In/Out/InOut of another one")
		         : classify(d, i, v, a, L);
		Py_DECREF(v);   /* the wrapper keeps it alive for the launch */
		a->dir = (char)kind;
		return rc;
	}
	}
	if (o == Py_None)
		return bad_arg(d, i, o, "None");
	if (PyUnicode_Check(o) || PyBytes_Check(o))
		return bad_arg(d, i, o, "a string");
	if (PyList_Check(o))
		return bad_arg(d, i, o, "a list (convert it with numpy.asarray, or pass a tuple)");
	if (type_is(t, "numpy.generic"))
		return bad_arg(d, i, o, "a NumPy scalar of a dtype kernels do not take");
	return bad_arg(d, i, o, "of an unsupported type");
}

static void release_args(ModState *st, ArgInfo *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (a[i].tmp)
			rt_release(st->rt, a[i].tmp, a[i].nbytes, st->rt->gen);
		free(a[i].host_tmp);
		if (a[i].has_view)
			PyBuffer_Release(&a[i].view);
	}
}

/* ----------------------------------------------- the signature table */

static uint64_t hash_key(const unsigned char *k, int n)
{
	uint64_t h = 1469598103934665603ull;
	for (int i = 0; i < n; i++)
		h = (h ^ k[i]) * 1099511628211ull;
	return h;
}

static void fill_key(const ArgInfo *a, int n, unsigned char *key)
{
	for (int i = 0; i < n; i++) {
		int arr = a[i].cls != A_SCALAR;
		key[4 * i] = arr ? 'a' : 's';
		key[4 * i + 1] = (unsigned char)a[i].kind;
		key[4 * i + 2] = arr ? (unsigned char)a[i].ndim : 0;
		key[4 * i + 3] = arr ? (unsigned char)a[i].layout : 0;
	}
}

static KernelObject *table_find(DispatcherObject *d, const unsigned char *key, int len, uint64_t h)
{
	if (d->last >= 0) {
		Entry *e = &d->tab[d->last];
		if (e->hash == h && e->len == len && memcmp(e->key, key, (size_t)len) == 0)
			return e->k;
	}
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

static void table_clear(DispatcherObject *d)
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

/* The Numba spelling of an argument's type: "float32[:, ::1]", "int64". */
static PyObject *type_string(ModState *st, const ArgInfo *a)
{
	char buf[160];
	const char *name = a->kind >= K_RECORD ? record_name(st, a->kind) : kind_name[a->kind];
	if (a->cls == A_SCALAR || a->layout == 'R')
		return PyUnicode_FromString(name);
	if (a->ndim == 0)
		return PyUnicode_FromFormat("array(%s, 0d, C)", name);
	int n = snprintf(buf, sizeof buf, "[");
	for (int j = 0; j < a->ndim; j++) {
		const char *dim = ":";
		if ((a->layout == 'C' && j == a->ndim - 1) || (a->layout == 'F' && j == 0))
			dim = "::1";
		n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s", j ? ", " : "", dim);
	}
	snprintf(buf + n, sizeof buf - (size_t)n, "]");
	return PyUnicode_FromFormat("%s%s", name, buf);
}

/* Checks the kernel's parameter layout against the argument types. */
static int check_params(DispatcherObject *d, KernelObject *k, const ArgInfo *a, int n)
{
	const PjKernel *pk = k->pk;
	if (pk->param_bytes < 0 || pk->param_bytes > 32764)
		goto bad;
	for (int i = 0; i < pk->nparams; i++) {
		const PjParam *p = &pk->params[i];
		if (p->arg < 0 || p->arg >= n || p->ty < 0 || p->ty >= K_NKINDS || p->off < 0 ||
		    p->off + kind_size[p->ty] > pk->param_bytes)
			goto bad;
		int arr = a[p->arg].cls != A_SCALAR;
		switch (p->role) {
		case 0:
			if (!arr || kind_size[p->ty] != 8)
				goto bad;
			break;
		case 1: case 2:
			if (!arr || p->dim < 0 || p->dim >= a[p->arg].ndim)
				goto bad;
			break;
		case 3: case 4: case 5:
			if (arr)
				goto bad;
			break;
		default:
			goto bad;
		}
	}
	return 0;
bad:
	PyErr_Format(d->st->InternalCompilerError,
	             "internal compiler error: the parameter layout of kernel '%s' does not match its "
	             "arguments; please report this with the kernel's source", d->name);
	return -1;
}

/* What the launch knows about its array arguments, the last byte of the
 * key: bit 0, every extent is below 2^31; bit 1, no two arrays share
 * memory (their byte spans, with 16 bytes for the last element, do not
 * meet).  A kernel compiled for these facts (PjOptions.small_extents,
 * .noalias) is a variant of the signature. */
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

static KernelObject *compile_for(DispatcherObject *d, const ArgInfo *a, int n, unsigned char flags)
{
	PyObject *types = PyTuple_New(n);
	if (!types)
		return NULL;
	for (int i = 0; i < n; i++) {
		PyObject *s = type_string(d->st, &a[i]);
		if (!s) {
			Py_DECREF(types);
			return NULL;
		}
		PyTuple_SET_ITEM(types, i, s);
	}
	PyObject *fl = PyLong_FromLong(flags);
	PyObject *k = fl ? PyObject_CallMethodObjArgs((PyObject *)d, d->st->s_compile_for, types, fl, NULL) : NULL;
	Py_XDECREF(fl);
	Py_DECREF(types);
	if (!k)
		return NULL;
	if (!PyObject_TypeCheck(k, d->st->Kernel_T)) {
		PyErr_Format(PyExc_TypeError, "_compile_for() returned %.100s, not a Kernel", Py_TYPE(k)->tp_name);
		Py_DECREF(k);
		return NULL;
	}
	if (check_params(d, (KernelObject *)k, a, n)) {
		Py_DECREF(k);
		return NULL;
	}
	return (KernelObject *)k;
}

/* ---------------------------------------------------------- launching */

static void pack(const PjKernel *pk, const ArgInfo *a, unsigned char *buf)
{
	memset(buf, 0, (size_t)pk->param_bytes);
	for (int i = 0; i < pk->nparams; i++) {
		const PjParam *p = &pk->params[i];
		const ArgInfo *x = &a[p->arg];
		unsigned char *dst = buf + p->off;
		switch (p->role) {
		case 0: memcpy(dst, &x->ptr, 8); break;
		case 1: put_int(dst, p->ty, (int64_t)x->shape[p->dim]); break;
		case 2: put_int(dst, p->ty, (int64_t)x->strides[p->dim]); break;
		case 3: put_scalar(dst, p->ty, x, 0); break;
		case 4: put_scalar(dst, p->ty, x, 0); break;
		case 5: put_scalar(dst, p->ty, x, 1); break;
		}
	}
}

static int arg_bit(uint64_t mask, int i)
{
	return (int)(mask >> (i < 63 ? i : 63) & 1);
}

/* Runs the launch.  NumPy arguments: the simulator uses their memory in
 * place (a read-only array the kernel writes gets a scratch copy); the
 * GPU gets a device copy of each, through rt_put, of the arrays the
 * kernel reads or writes, and after the kernel rt_get brings back the
 * writable ones it writes (PjKernel.written_args) and waits: the call
 * returns when the results are in host memory, as in Numba. */
static int launch(LauncherObject *L, KernelObject *k, ArgInfo *a, int n)
{
	DispatcherObject *d = L->d;
	ModState *st = d->st;
	Rt *rt = st->rt;
	const PjKernel *pk = k->pk;
	RtErr e;
	RtXfer xin[PJ_MAXARGS], xout[PJ_MAXARGS];
	int nhost = 0, nin = 0, nout = 0, rc = 0;
	e.sticky = 0;
	if (!st->sim && enter_rt(st))
		return -1;
	for (int i = 0; i < n; i++) {
		if (a[i].cls != A_HOST)
			continue;
		nhost++;
		/* a record scalar is small: always copied both ways */
		int rec = a[i].layout == 'R';
		int rd = rec || arg_bit(pk->read_args, i), wr = rec || arg_bit(pk->written_args, i);
		if (st->sim) {
			if ((a[i].readonly || a[i].dir == DIR_IN) && wr && a[i].nbytes) {
				if (!(a[i].host_tmp = malloc(a[i].nbytes))) {
					PyErr_NoMemory();
					return -1;
				}
				memcpy(a[i].host_tmp, a[i].view.buf, a[i].nbytes);
				a[i].ptr = (CUdeviceptr)(uintptr_t)a[i].host_tmp;
			}
			continue;
		}
		if (rt_alloc(rt, a[i].nbytes, &a[i].tmp, &e)) {
			raise_rt(st, &e);
			return -1;
		}
		a[i].ptr = a[i].tmp;
		if ((rd || wr) && a[i].nbytes && a[i].dir != DIR_OUT)
			xin[nin++] = (RtXfer){a[i].view.buf, a[i].tmp, a[i].nbytes, 0};
	}
	if (nin) {
		Py_BEGIN_ALLOW_THREADS
		rc = rt_put(rt, xin, nin, L->stream, &e);
		Py_END_ALLOW_THREADS
		if (rc)
			goto fail;
	}
	unsigned char local[1024], *buf = local;
	if (pk->param_bytes > (int)sizeof local && !(buf = malloc((size_t)pk->param_bytes))) {
		PyErr_NoMemory();
		goto fail_raised;
	}
	pack(pk, a, buf);
	if (st->sim) {
		Py_BEGIN_ALLOW_THREADS
		rc = rt_launch(rt, &k->rk, L->grid, L->block, L->smem, L->stream, buf, (size_t)pk->param_bytes, &e);
		Py_END_ALLOW_THREADS
	} else {
		rc = rt_launch(rt, &k->rk, L->grid, L->block, L->smem, L->stream, buf, (size_t)pk->param_bytes, &e);
	}
	if (buf != local)
		free(buf);
	if (rc)
		goto fail;
	if (st->sim || !(nhost || d->sync_after))
		return 0;
	for (int i = 0; i < n; i++)
		if (a[i].cls == A_HOST && !a[i].readonly && a[i].dir != DIR_IN && a[i].nbytes &&
		    (a[i].layout == 'R' || arg_bit(pk->written_args, i))) {
			xout[nout] = (RtXfer){a[i].view.buf, a[i].tmp, a[i].nbytes, 0};
			for (int j = 0; j < nin; j++)
				if (xin[j].dev == a[i].tmp)
					xout[nout].reg = xin[j].reg;
			nout++;
		}
	Py_BEGIN_ALLOW_THREADS
	rc = rt_get(rt, xout, nout, L->stream, &e);
	Py_END_ALLOW_THREADS
	if (rc == 0) {
		rt_unregister_xfers(rt, xin, nin, 1);
		rt_unregister_xfers(rt, xout, nout, 2);
		if (pk->ntraps) {   /* debug: a thread's assert or raise (kexc.c) */
			uint32_t word[8];
			if (rt_read_trap(rt, &k->rk, L->stream, word, &e)) {
				raise_rt(st, &e);
				return -1;
			}
			if (word[0]) {
				raise_gpu_trap(st, (PyObject *)d, pk, word);
				return -1;
			}
		}
		return 0;
	}
fail:
	if (e.code == RT_E_SIM && e.sim == PJ_SIM_TRAP)
		raise_sim_trap(st, (PyObject *)d, e.msg);   /* the kernel's exception (kexc.c) */
	else
		raise_rt(st, &e);
fail_raised:
	if (nhost && !st->sim && !e.sticky) {
		/* copies may still be queued into the scratch arrays, which are
		 * about to go back to the allocator */
		RtErr ignored;
		rt_stream_sync(rt, L->stream, &ignored);
	}
	rt_unregister_xfers(rt, xin, nin, 1);
	rt_unregister_xfers(rt, xout, nout, 2);
	return -1;
}

/* ------------------------------------------- tuple and None arguments
 *
 * A tuple argument is flattened, as Numba does, into its leaves (numbers
 * and arrays, nested tuples included), each classified like an argument
 * of its own; None has no leaf.  The kernel's parameters name leaves
 * (PjParam.arg counts the leaves of the arguments in order), the cache
 * key is the leaves' keys followed by the shape of the arguments ('L' a
 * leaf, 'N' None, 'T' n a tuple of n), and the type of such an argument
 * is "UniTuple(int64, 2)", "Tuple(float32, int64)" or "none".  This path
 * is taken only when an argument is a tuple or None. */

enum { MAXSHAPE = 2 * PJ_MAXARGS };

typedef struct Shape {
	PyObject *leaf[PJ_MAXARGS];
	int argof[PJ_MAXARGS];    /* the Python argument of each leaf */
	int nleaf;
	unsigned char s[MAXSHAPE];
	int n;
} Shape;

static int walk(DispatcherObject *d, int i, PyObject *o, Shape *sh, int depth)
{
	if (sh->n + 2 > MAXSHAPE || depth > 32) {
		PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a tuple nested too deeply or too large",
		             d->name, i + 1, argname(d, i));
		return -1;
	}
	if (o == Py_None) {
		sh->s[sh->n++] = 'N';
		return 0;
	}
	if (PyTuple_Check(o)) {
		Py_ssize_t m = PyTuple_GET_SIZE(o);
		if (m > 255) {
			PyErr_Format(PyExc_ValueError, "kernel '%s': argument %d ('%s') is a tuple of %zd elements; kernels "
			             "take tuples of at most 255", d->name, i + 1, argname(d, i), m);
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
		return type_string(st, &a[(*pl)++]);
	if (c == 'N')
		return PyUnicode_FromString("none");
	int m = sh->s[(*ps)++];
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
	if (same) {
		r = PyUnicode_FromFormat("UniTuple(%U, %d)", PyList_GET_ITEM(parts, 0), m);
		goto out;
	}
	if (!(sep = PyUnicode_FromString(", ")) || !(joined = PyUnicode_Join(sep, parts)))
		goto out;
	r = PyUnicode_FromFormat("Tuple(%U)", joined);
out:
	Py_XDECREF(sep);
	Py_XDECREF(joined);
	Py_DECREF(parts);
	return r;
}

static KernelObject *compile_shaped(DispatcherObject *d, const Shape *sh, int nargs, const ArgInfo *a)
{
	PyObject *types = PyTuple_New(nargs);
	if (!types)
		return NULL;
	int ps = 0, pl = 0;
	for (int i = 0; i < nargs; i++) {
		PyObject *t = shape_type(d->st, sh, &ps, a, &pl);
		if (!t) {
			Py_DECREF(types);
			return NULL;
		}
		PyTuple_SET_ITEM(types, i, t);
	}
	PyObject *k = PyObject_CallMethodOneArg((PyObject *)d, d->st->s_compile_for, types);
	Py_DECREF(types);
	if (!k)
		return NULL;
	if (!PyObject_TypeCheck(k, d->st->Kernel_T)) {
		PyErr_Format(PyExc_TypeError, "_compile_for() returned %.100s, not a Kernel", Py_TYPE(k)->tp_name);
		Py_DECREF(k);
		return NULL;
	}
	if (check_params(d, (KernelObject *)k, a, sh->nleaf)) {
		Py_DECREF(k);
		return NULL;
	}
	return (KernelObject *)k;
}

static PyObject *launch_shaped(LauncherObject *L, PyObject *const *args, int n)
{
	DispatcherObject *d = L->d;
	Shape *sh = PyMem_Calloc(1, sizeof *sh);
	ArgInfo *a = PyMem_Calloc(PJ_MAXARGS, sizeof *a);
	unsigned char *key = PyMem_Malloc(4 * PJ_MAXARGS + MAXSHAPE + 1);
	PyObject *result = NULL;
	int i = 0;
	if (!sh || !a || !key) {
		PyErr_NoMemory();
		goto done;
	}
	for (int j = 0; j < n; j++)
		if (walk(d, j, args[j], sh, 0))
			goto done;
	for (i = 0; i < sh->nleaf; i++)
		if (classify(d, sh->argof[i], sh->leaf[i], &a[i], L)) {
			i++;
			goto done;
		}
	fill_key(a, sh->nleaf, key);
	int len = 4 * sh->nleaf;
	memcpy(key + len, sh->s, (size_t)sh->n);
	len += sh->n;
	key[len++] = 'S';
	uint64_t h = hash_key(key, len);
	KernelObject *k = table_find(d, key, len, h);
	if (!k) {
		if (!(k = compile_shaped(d, sh, n, a)))
			goto done;
		int rc = table_insert(d, key, len, h, k);
		Py_DECREF(k);
		if (rc)
			goto done;
	}
	Py_INCREF(k);
	if (launch(L, k, a, sh->nleaf) == 0) {
		Py_INCREF(Py_None);
		result = Py_None;
	}
	Py_DECREF(k);
done:
	if (a)
		release_args(d->st, a, i);
	PyMem_Free(a);
	PyMem_Free(sh);
	PyMem_Free(key);
	return result;
}

static PyObject *Launcher_vectorcall(LauncherObject *L, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
	DispatcherObject *d = L->d;
	ModState *st = d->st;
	Py_ssize_t n = PyVectorcall_NARGS(nargsf);
	if (kwnames && PyTuple_GET_SIZE(kwnames))
		return PyErr_Format(PyExc_TypeError, "kernel '%s' takes positional arguments only", d->name);
	if (n > d->nparams || n < d->nrequired) {
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
	for (Py_ssize_t j = 0; j < n; j++)
		if (PyTuple_Check(args[j]) || args[j] == Py_None)
			return launch_shaped(L, args, (int)n);
	ArgInfo local[8], *a = local;
	if (n > 8 && !(a = PyMem_Malloc((size_t)n * sizeof *a)))
		return PyErr_NoMemory();
	unsigned char keybuf[4 * PJ_MAXARGS + 1];
	PyObject *result = NULL;
	int i;
	memset(local, 0, sizeof local[0]);   /* n may be 0: nothing is read, but compilers cannot tell */
	for (i = 0; i < n; i++) {
		memset(&a[i], 0, offsetof(ArgInfo, shape));
		a[i].tmp = 0;
		a[i].host_tmp = NULL;
		if (classify(d, i, args[i], &a[i], L)) {
			i++;
			goto done;
		}
	}
	fill_key(a, (int)n, keybuf);
	keybuf[4 * n] = arg_flags(a, (int)n);
	int len = 4 * (int)n + 1;
	uint64_t h = hash_key(keybuf, len);
	KernelObject *k = table_find(d, keybuf, len, h);
	if (!k) {
		if (!(k = compile_for(d, a, (int)n, keybuf[4 * n])))
			goto done;
		int rc = table_insert(d, keybuf, len, h, k);
		Py_DECREF(k);
		if (rc)
			goto done;
	}
	Py_INCREF(k);
	if (launch(L, k, a, (int)n) == 0) {
		Py_INCREF(Py_None);
		result = Py_None;
	}
	Py_DECREF(k);
done:
	release_args(st, a, i);
	if (a != local)
		PyMem_Free(a);
	return result;
}

static int Launcher_traverse(LauncherObject *L, visitproc visit, void *arg)
{
	Py_VISIT(L->d);
	Py_VISIT(L->stream_obj);
	Py_VISIT(Py_TYPE(L));
	return 0;
}

static int Launcher_clear(LauncherObject *L)
{
	Py_CLEAR(L->d);
	Py_CLEAR(L->stream_obj);
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

static PyGetSetDef Launcher_getset[] = {
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

/* -------------------------------------------------------- Dispatcher */

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
	Py_VISIT(d->last_launcher);
	Py_VISIT(d->argnames);
	Py_VISIT(Py_TYPE(d));
	return 0;
}

static int Dispatcher_clear(DispatcherObject *d)
{
	table_clear(d);
	Py_CLEAR(d->last_launcher);
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

/* _setup(name, argnames, nrequired, sync_after, is_device) */
static PyObject *Dispatcher_setup(DispatcherObject *d, PyObject *args)
{
	const char *name;
	PyObject *argnames;
	int nrequired, sync_after, is_device;
	if (!PyArg_ParseTuple(args, "sO!ipp", &name, &PyTuple_Type, &argnames, &nrequired, &sync_after,
	                      &is_device))
		return NULL;
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
	Py_RETURN_NONE;
}

/* _cache_clear(): forgets every compiled signature of the launch path. */
static PyObject *Dispatcher_cache_clear(DispatcherObject *d, PyObject *unused)
{
	table_clear(d);
	Py_CLEAR(d->last_launcher);
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
		PyObject *s = classify(d, i, PyTuple_GET_ITEM(args, i), &a[i], &none) ? NULL : type_string(d->st, &a[i]);
		if (!s) {
			i++;
			goto fail;
		}
		PyTuple_SET_ITEM(out, i, s);
	}
	release_args(d->st, a, n);
	PyMem_Free(a);
	return out;
fail:
	if (a)
		release_args(d->st, a, i);
	PyMem_Free(a);
	Py_XDECREF(out);
	return a ? NULL : PyErr_NoMemory();
}

static int parse_dims(DispatcherObject *d, PyObject *o, const char *what, unsigned out[3])
{
	out[0] = out[1] = out[2] = 1;
	PyObject *items[3];
	Py_ssize_t n;
	if (PyTuple_Check(o) || PyList_Check(o)) {
		n = PySequence_Fast_GET_SIZE(o);
		if (n < 1 || n > 3) {
			PyErr_Format(PyExc_ValueError, "kernel '%s': the %s %R has %zd dimensions; it must be an int "
			             "or a tuple of 1 to 3 ints", d->name, what, o, n);
			return -1;
		}
		for (Py_ssize_t j = 0; j < n; j++)
			items[j] = PySequence_Fast_GET_ITEM(o, j);
	} else if (PyIndex_Check(o) && !PyBool_Check(o)) {
		n = 1;
		items[0] = o;
	} else {
		PyErr_Format(PyExc_TypeError, "kernel '%s': the %s must be an int or a tuple of 1 to 3 ints, "
		             "not %.100s", d->name, what, Py_TYPE(o)->tp_name);
		return -1;
	}
	for (Py_ssize_t j = 0; j < n; j++) {
		if (!PyIndex_Check(items[j]) || PyBool_Check(items[j])) {
			PyErr_Format(PyExc_TypeError, "kernel '%s': the %s %R holds a %.100s; it must be an int or a "
			             "tuple of 1 to 3 ints", d->name, what, o, Py_TYPE(items[j])->tp_name);
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

static int check_config(DispatcherObject *d, const unsigned grid[3], const unsigned block[3])
{
	static const unsigned max_block[3] = {1024, 1024, 64}, max_grid[3] = {0x7fffffff, 65535, 65535};
	unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
	if (threads > 1024) {
		PyErr_Format(PyExc_ValueError, "kernel '%s': a block of (%u, %u, %u) is %llu threads; a block has at "
		             "most 1024 threads", d->name, block[0], block[1], block[2], threads);
		return -1;
	}
	for (int j = 0; j < 3; j++) {
		if (block[j] > max_block[j]) {
			PyErr_Format(PyExc_ValueError, "kernel '%s': block dimension %c is %u; the most is %u",
			             d->name, "xyz"[j], block[j], max_block[j]);
			return -1;
		}
		if (grid[j] > max_grid[j]) {
			PyErr_Format(PyExc_ValueError, "kernel '%s': grid dimension %c is %u; the most is %u",
			             d->name, "xyz"[j], grid[j], max_grid[j]);
			return -1;
		}
	}
	return 0;
}

static PyObject *Dispatcher_getitem(DispatcherObject *d, PyObject *key)
{
	ModState *st = d->st;
	if (d->is_device)
		return PyErr_Format(PyExc_TypeError, "'%s' is a device function (device=True); it cannot be "
		                    "launched, only called from a kernel", d->name);
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
			                    "amount must be 0 or more", d->name, v);
		smem = (unsigned long long)v;
	}
	CUstream s;
	int async;
	if (stream_arg(st, so, &s, &async))
		return NULL;
	LauncherObject *L = d->last_launcher;
	if (L && memcmp(L->grid, grid, sizeof grid) == 0 && memcmp(L->block, block, sizeof block) == 0 &&
	    L->smem == smem && L->stream == s && L->async == async) {
		Py_INCREF(L);
		return (PyObject *)L;
	}
	L = (LauncherObject *)st->Launcher_T->tp_alloc(st->Launcher_T, 0);
	if (!L)
		return NULL;
	L->vectorcall = (vectorcallfunc)Launcher_vectorcall;
	Py_INCREF(d);
	L->d = d;
	memcpy(L->grid, grid, sizeof grid);
	memcpy(L->block, block, sizeof block);
	L->smem = (unsigned)smem;
	L->stream = s;
	L->async = async;
	if (so != Py_None) {
		Py_INCREF(so);
		L->stream_obj = so;
	}
	Py_INCREF(L);
	Py_XSETREF(d->last_launcher, L);
	return (PyObject *)L;
}

static PyObject *Dispatcher_call(DispatcherObject *d, PyObject *args, PyObject *kwds)
{
	if (d->is_device)
		return PyErr_Format(PyExc_TypeError, "'%s' is a device function (device=True); call it from a "
		                    "kernel, not from Python", d->name);
	return PyErr_Format(PyExc_ValueError, "kernel '%s' was called without a launch configuration; launch "
	                    "it as %s[blocks, threads](...)", d->name, d->name);
}

static PyMethodDef Dispatcher_methods[] = {
	{"_setup", (PyCFunction)Dispatcher_setup, METH_VARARGS,
	 "_setup(name, argnames, nrequired, sync_after, is_device)"},
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

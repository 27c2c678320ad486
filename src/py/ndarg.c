/*
 * ndarg.c - a NumPy array (or any object with the buffer protocol) read
 * as an argument: element kind, dimensions, extents, byte strides,
 * layout, address.  The launch path (argclass.c) and @njit calls
 * (cpu.c) both read their array arguments here; each then says in its
 * own words what it does not take.
 *
 * NumPy's headers are not used.  The buffer protocol is the general way.
 * An exact numpy.ndarray can also be read from the object's fields (data,
 * nd, dimensions, strides, descr->type_num, flags: the layout NumPy has
 * kept since 1.7, in 2.x too), which is several times faster; that is
 * done only after the first ndarray seen was read both ways and agreed,
 * and only when the caller does not need the memory held (a buffer
 * export keeps NumPy from resizing or freeing the array while the GIL is
 * released, as a launch does).
 */
#include "py.h"

#include <limits.h>
#include <string.h>

/* The object layout of numpy.ndarray and the start of its dtype. */
typedef struct NpArray {
	PyObject_HEAD
	char *data;
	int nd;
	Py_ssize_t *dimensions;
	Py_ssize_t *strides;
	PyObject *base;
	PyObject *descr;
	int flags;
} NpArray;

typedef struct NpDescr {
	PyObject_HEAD
	PyTypeObject *typeobj;
	char kind, type, byteorder, flags_;
	int type_num;
} NpDescr;

enum { NPY_WRITEABLE = 0x0400, NPY_NTYPES = 24 };

#if LONG_MAX > 0x7fffffffL
#define K_LONG K_I64
#define K_ULONG K_U64
#else
#define K_LONG K_I32
#define K_ULONG K_U32
#endif

/* K_* by NumPy type number (NPY_BOOL ... NPY_HALF) */
static const int np_kind[NPY_NTYPES] = {
	K_BOOL, K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_LONG, K_ULONG, K_I64, K_U64, K_F32, K_F64,
	-1, K_C64, K_C128, -1, -1, -1, -1, -1, -1, -1, K_F16,
};

int nd_type_named(PyTypeObject *t, const char *name)
{
	PyObject *mro = t->tp_mro;
	if (!mro)
		return 0;
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); i++)
		if (strcmp(((PyTypeObject *)PyTuple_GET_ITEM(mro, i))->tp_name, name) == 0)
			return 1;
	return 0;
}

int nd_numeric_scalar_type(PyTypeObject *t)
{
	if (nd_type_named(t, "numpy.timedelta64"))
		return 0;
	return nd_type_named(t, "numpy.number") || nd_type_named(t, "numpy.bool") || nd_type_named(t, "numpy.bool_");
}

int nd_is_ndarray_slow(ModState *st, PyTypeObject *t)
{
	if (!nd_type_named(t, "numpy.ndarray"))
		return 0;
	if (!st->ndarray_T && strcmp(t->tp_name, "numpy.ndarray") == 0) {
		Py_INCREF(t);     /* a static type of NumPy's: never freed */
		st->ndarray_T = t;
	}
	return 1;
}

static void c_strides(int ndim, const Py_ssize_t *shape, Py_ssize_t itemsize, Py_ssize_t *strides)
{
	Py_ssize_t s = itemsize;
	for (int j = ndim - 1; j >= 0; j--) {
		strides[j] = s;
		s *= shape[j];
	}
}

/* Reads an exact ndarray from its fields; 1 if it cannot. */
static int from_fields(PyObject *o, NdArg *x)
{
	NpArray *p = (NpArray *)o;
	NpDescr *dt = (NpDescr *)p->descr;
	if (!dt || dt->type_num < 0 || dt->type_num >= NPY_NTYPES || dt->byteorder == '>' || p->nd < 0 ||
	    p->nd > PJ_MAXDIM)
		return 1;
	int k = np_kind[dt->type_num];
	if (k < 0)
		return 1;
	x->kind = k;
	x->ndim = p->nd;
	x->itemsize = kind_size[k];
	x->ptr = p->data;
	x->readonly = !(p->flags & NPY_WRITEABLE);
	for (int j = 0; j < p->nd; j++) {
		x->shape[j] = p->dimensions[j];
		x->strides[j] = p->strides[j];
	}
	x->layout = layout_of(x->ndim, x->shape, x->strides, x->itemsize);
	return 0;
}

static int from_buffer(PyObject *o, NdArg *x)
{
	Py_buffer *v = x->view;
	if (PyObject_GetBuffer(o, v, PyBUF_RECORDS_RO) < 0) {
		PyErr_Clear();
		return ND_NOBUF;
	}
	x->has_view = 1;
	x->kind = kind_of_format(v->format, v->itemsize);
	x->ndim = v->ndim;
	x->itemsize = v->itemsize;
	x->ptr = v->buf;
	x->readonly = (char)v->readonly;
	if (v->ndim < 0 || v->ndim > PJ_MAXDIM)
		return ND_NDIM;
	for (int j = 0; j < v->ndim; j++)
		x->shape[j] = v->shape[j];
	if (v->strides)
		memcpy(x->strides, v->strides, sizeof(Py_ssize_t) * (size_t)v->ndim);
	else
		c_strides(v->ndim, x->shape, v->itemsize, x->strides);
	x->layout = layout_of(x->ndim, x->shape, x->strides, v->itemsize);
	return ND_OK;
}

/* Decides once whether ndarray fields give what the buffer protocol gives. */
static void check_direct(ModState *st, PyObject *o)
{
	Py_ssize_t shape[PJ_MAXDIM], strides[PJ_MAXDIM], shape2[PJ_MAXDIM], strides2[PJ_MAXDIM];
	Py_buffer view;
	NdArg f = {shape, strides, NULL}, b = {shape2, strides2, &view};
	int rc = from_buffer(o, &b);
	if (rc == ND_NOBUF)
		return;   /* undecided: try the next array */
	int ok = rc == ND_OK && from_fields(o, &f) == 0 && f.ptr == b.ptr && f.ndim == b.ndim &&
	         f.kind == b.kind && f.readonly == b.readonly && f.layout == b.layout;
	for (int j = 0; ok && j < f.ndim; j++)
		ok = shape[j] == shape2[j] && strides[j] == strides2[j];
	PyBuffer_Release(&view);
	st->np_direct = ok ? 1 : -1;
}

int nd_read(ModState *st, PyObject *o, int hold, NdArg *x)
{
	x->has_view = 0;
	x->kind = -1;
	x->ndim = 0;
	if (!hold && Py_TYPE(o) == st->ndarray_T) {
		if (st->np_direct == 0)
			check_direct(st, o);
		if (st->np_direct > 0 && from_fields(o, x) == 0)
			return ND_OK;
	}
	return from_buffer(o, x);
}

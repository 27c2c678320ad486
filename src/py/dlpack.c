/*
 * dlpack.c - DLPack capsules both ways, for DeviceNDArray.__dlpack__ and
 * cuda.from_dlpack (python/ptxjit/cuda/dlpack.py decides devices and
 * streams; this file only builds and reads the C structures).
 *
 * Export: to_dlpack(array, versioned, device_type, device_id, copied)
 * makes a DLManagedTensor (a capsule named "dltensor") or, versioned, a
 * DLManagedTensorVersioned ("dltensor_versioned", DLPack 1.0, flagged
 * IS_COPIED when the array is a copy made for the consumer) over the
 * array's memory.  Its manager_ctx holds a reference to the array, which
 * the deleter drops: the memory lives until the consumer calls it.  A
 * capsule nobody consumed (its name unchanged) calls the deleter when it
 * is collected; a consumer renames it "used_..." and owns the tensor.
 *
 * Import: from_dlpack(capsule) reads a producer's capsule, renames it as
 * consumed, and returns what a view needs (address, shape, byte strides,
 * typestr, device, read-only flag) with a keeper: an object that calls
 * the producer's deleter when it is collected.  The view holds the keeper.
 *
 * The structures are declared here, as the DLPack specification lays
 * them out (dlpack.h, ABI version 1).
 */
#include "py.h"

#include <stdlib.h>
#include <string.h>

typedef struct { int32_t device_type, device_id; } DLDevice;
typedef struct { uint8_t code, bits; uint16_t lanes; } DLDataType;
typedef struct {
	void *data;
	DLDevice device;
	int32_t ndim;
	DLDataType dtype;
	int64_t *shape;
	int64_t *strides;         /* in elements; NULL: C-contiguous */
	uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
	DLTensor dl_tensor;
	void *manager_ctx;
	void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct { uint32_t major, minor; } DLPackVersion;
typedef struct DLManagedTensorVersioned {
	DLPackVersion version;
	void *manager_ctx;
	void (*deleter)(struct DLManagedTensorVersioned *self);
	uint64_t flags;
	DLTensor dl_tensor;
} DLManagedTensorVersioned;

enum { DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2, DL_COMPLEX = 5, DL_BOOL = 6 };
enum { DL_READ_ONLY = 1, DL_IS_COPIED = 2 };

static const char name_plain[] = "dltensor", name_versioned[] = "dltensor_versioned";
static const char keeper_name[] = "ptxjit.dlpack_keeper";

/* ------------------------------------------------------------ export */

static int dtype_of_kind(int kind, DLDataType *t)
{
	t->lanes = 1;
	t->bits = (uint8_t)(8 * kind_size[kind]);
	switch (kind) {
	case K_BOOL: t->code = DL_BOOL; return 0;
	case K_I8: case K_I16: case K_I32: case K_I64: t->code = DL_INT; return 0;
	case K_U8: case K_U16: case K_U32: case K_U64: t->code = DL_UINT; return 0;
	case K_F16: case K_F32: case K_F64: t->code = DL_FLOAT; return 0;
	case K_C64: case K_C128: t->code = DL_COMPLEX; return 0;
	}
	return -1;
}

/* Destructors and deleters run while a consumer may be raising (NumPy
 * frees a capsule it refused with its error set): they keep that error. */
static void release_owner(void *owner)
{
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *t, *v, *tb;
	PyErr_Fetch(&t, &v, &tb);
	Py_XDECREF((PyObject *)owner);
	PyErr_Restore(t, v, tb);
	PyGILState_Release(g);
}

static void delete_plain(DLManagedTensor *m)
{
	release_owner(m->manager_ctx);
	free(m);
}

static void delete_versioned(DLManagedTensorVersioned *m)
{
	release_owner(m->manager_ctx);
	free(m);
}

static void capsule_plain_destructor(PyObject *cap)
{
	if (PyCapsule_IsValid(cap, name_plain)) {
		DLManagedTensor *m = PyCapsule_GetPointer(cap, name_plain);
		if (m->deleter)
			m->deleter(m);
	}
}

static void capsule_versioned_destructor(PyObject *cap)
{
	if (PyCapsule_IsValid(cap, name_versioned)) {
		DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, name_versioned);
		if (m->deleter)
			m->deleter(m);
	}
}

/* to_dlpack(array, versioned, device_type, device_id, copied) -> capsule */
PyObject *py_to_dlpack(PyObject *m, PyObject *args)
{
	ModState *st = PyModule_GetState(m);
	PyObject *o;
	int versioned, devtype, devid, copied;
	if (!PyArg_ParseTuple(args, "Opiip", &o, &versioned, &devtype, &devid, &copied))
		return NULL;
	if (!PyObject_TypeCheck(o, st->DeviceArray_T))
		return PyErr_Format(PyExc_TypeError, "to_dlpack() takes a device array, not %.100s", Py_TYPE(o)->tp_name);
	DeviceArrayObject *a = (DeviceArrayObject *)o;
	DLTensor t;
	memset(&t, 0, sizeof t);
	if (a->kind < 0 || a->kind >= K_NKINDS || dtype_of_kind(a->kind, &t.dtype))
		return PyErr_Format(PyExc_BufferError, "a device array of dtype %R cannot be exported through DLPack, "
		                    "which describes arrays of numbers and bools only", a->dtype);
	size_t head = versioned ? sizeof(DLManagedTensorVersioned) : sizeof(DLManagedTensor);
	head = (head + 7) & ~(size_t)7;
	char *block = calloc(1, head + 2 * (size_t)(a->ndim ? a->ndim : 1) * sizeof(int64_t));
	if (!block)
		return PyErr_NoMemory();
	t.data = (void *)(uintptr_t)a->ptr;
	t.device.device_type = devtype;
	t.device.device_id = devid;
	t.ndim = a->ndim;
	t.shape = (int64_t *)(block + head);
	t.strides = t.shape + a->ndim;
	for (int d = 0; d < a->ndim; d++) {
		if (a->strides[d] % a->itemsize) {
			free(block);
			return PyErr_Format(PyExc_BufferError, "a device array whose stride %zd is not a multiple of its "
			                    "item size %d cannot be exported through DLPack (strides count elements)",
			                    a->strides[d], a->itemsize);
		}
		t.shape[d] = a->shape[d];
		t.strides[d] = a->strides[d] / a->itemsize;
	}
	PyObject *cap;
	Py_INCREF(o);
	if (versioned) {
		DLManagedTensorVersioned *mt = (DLManagedTensorVersioned *)block;
		mt->version.major = 1;
		mt->version.minor = 0;
		mt->manager_ctx = o;
		mt->deleter = delete_versioned;
		mt->flags = copied ? DL_IS_COPIED : 0;
		mt->dl_tensor = t;
		cap = PyCapsule_New(mt, name_versioned, capsule_versioned_destructor);
	} else {
		DLManagedTensor *mt = (DLManagedTensor *)block;
		mt->manager_ctx = o;
		mt->deleter = delete_plain;
		mt->dl_tensor = t;
		cap = PyCapsule_New(mt, name_plain, capsule_plain_destructor);
	}
	if (!cap) {
		Py_DECREF(o);
		free(block);
	}
	return cap;
}

/* ------------------------------------------------------------ import */

static void keeper_destructor(PyObject *k)
{
	void *p = PyCapsule_IsValid(k, keeper_name) ? PyCapsule_GetPointer(k, keeper_name) : NULL;
	if (!p)
		return;
	if (PyCapsule_GetContext(k)) {
		DLManagedTensorVersioned *mt = p;
		if (mt->deleter)
			mt->deleter(mt);
	} else {
		DLManagedTensor *mt = p;
		if (mt->deleter)
			mt->deleter(mt);
	}
}

static const char *typestr_of(DLDataType t)
{
	static const char *const ints[] = {"|i1", "<i2", "<i4", "<i8"}, *const uints[] = {"|u1", "<u2", "<u4", "<u8"};
	int k = t.bits == 8 ? 0 : t.bits == 16 ? 1 : t.bits == 32 ? 2 : t.bits == 64 ? 3 : -1;
	if (t.lanes != 1)
		return NULL;
	switch (t.code) {
	case DL_INT: return k >= 0 ? ints[k] : NULL;
	case DL_UINT: return k >= 0 ? uints[k] : NULL;
	case DL_FLOAT: return t.bits == 16 ? "<f2" : t.bits == 32 ? "<f4" : t.bits == 64 ? "<f8" : NULL;
	case DL_COMPLEX: return t.bits == 64 ? "<c8" : t.bits == 128 ? "<c16" : NULL;
	case DL_BOOL: return t.bits == 8 ? "|b1" : NULL;
	}
	return NULL;
}

/* from_dlpack(capsule) -> (ptr, shape, strides, typestr, (device_type, device_id), readonly, keeper) */
PyObject *py_from_dlpack(PyObject *m, PyObject *cap)
{
	int versioned;
	if (PyCapsule_IsValid(cap, name_versioned))
		versioned = 1;
	else if (PyCapsule_IsValid(cap, name_plain))
		versioned = 0;
	else
		return PyErr_Format(PyExc_TypeError, "__dlpack__() returned %.100s, not an unused DLPack capsule "
		                    "(named \"dltensor\" or \"dltensor_versioned\")", Py_TYPE(cap)->tp_name);
	void *p = PyCapsule_GetPointer(cap, versioned ? name_versioned : name_plain);
	if (!p)
		return NULL;
	const DLTensor *t;
	int readonly = 0;
	if (versioned) {
		DLManagedTensorVersioned *mt = p;
		if (mt->version.major != 1)
			return PyErr_Format(PyExc_BufferError, "the tensor is DLPack version %u.%u; ptxjit reads version 1",
			                    mt->version.major, mt->version.minor);
		t = &mt->dl_tensor;
		readonly = (mt->flags & DL_READ_ONLY) != 0;
	} else {
		t = &((DLManagedTensor *)p)->dl_tensor;
	}
	const char *ts = typestr_of(t->dtype);
	if (!ts)
		return PyErr_Format(PyExc_BufferError, "the tensor's DLPack dtype (code %u, %u bits, %u lanes) is not one "
		                    "kernels take: booleans, integers, float16/32/64 and complex64/128 only",
		                    t->dtype.code, t->dtype.bits, t->dtype.lanes);
	if (t->ndim < 0 || t->ndim > PJ_MAXDIM)
		return PyErr_Format(PyExc_BufferError, "the tensor has %d dimensions; device arrays have 0 to %d",
		                    (int)t->ndim, PJ_MAXDIM);
	int itemsize = t->dtype.bits / 8;
	PyObject *shape = PyTuple_New(t->ndim), *strides = PyTuple_New(t->ndim), *keeper = NULL, *r = NULL;
	if (!shape || !strides)
		goto out;
	int64_t c = itemsize;
	for (int d = t->ndim - 1; d >= 0; d--) {
		int64_t s = t->strides ? t->strides[d] * itemsize : c;
		PyObject *a = PyLong_FromLongLong(t->shape[d]), *b = PyLong_FromLongLong(s);
		if (!a || !b) {
			Py_XDECREF(a);
			Py_XDECREF(b);
			goto out;
		}
		PyTuple_SET_ITEM(shape, d, a);
		PyTuple_SET_ITEM(strides, d, b);
		c *= t->shape[d];
	}
	if (!(keeper = PyCapsule_New(p, keeper_name, keeper_destructor)))
		goto out;
	if (versioned && PyCapsule_SetContext(keeper, (void *)1))
		goto out;
	uintptr_t addr = (uintptr_t)t->data + (uintptr_t)t->byte_offset;
	r = Py_BuildValue("(KOOs(ii)NO)", (unsigned long long)addr, shape, strides, ts, (int)t->device.device_type,
	                  (int)t->device.device_id, PyBool_FromLong(readonly), keeper);
	if (r && PyCapsule_SetName(cap, versioned ? "used_dltensor_versioned" : "used_dltensor")) {
		Py_CLEAR(r);
	}
	if (!r) {   /* the keeper must not call the deleter of a tensor still the producer's */
		PyCapsule_SetDestructor(keeper, NULL);
	}
out:
	Py_XDECREF(shape);
	Py_XDECREF(strides);
	Py_XDECREF(keeper);
	return r;
}

/*
 * records.c - NumPy structured dtypes (records) at the boundary.
 *
 * The compiler knows a record by its Numba spelling,
 *   Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)
 * which ptxjit.cuda.records.record_sig writes from the dtype (fields,
 * offsets, itemsize; nested records spelled as records, sub-array fields
 * as nestedarray(int32, (2, 3)); it refuses byte-swapped fields, other
 * kinds of field and names that are not identifiers, with a message).  The
 * launch path keys a signature with one byte per argument kind, so each
 * record dtype seen is numbered: kind K_RECORD + its index in
 * ModState.records, a list of (dtype, spelling).  Equal dtypes (same
 * names, formats, offsets, itemsize and alignment flag) get the same number.  Arrays of
 * records are arrays whose kind is a record kind; a record scalar
 * (numpy.void) is launched like a 0-d array of layout 'R' whose type is
 * the bare record (launch.c).
 */
#include "py.h"

#include <string.h>

int is_charseq_dtype(PyObject *dtype)
{
	if (!dtype || dtype == Py_None)
		return 0;
	PyObject *k = PyObject_GetAttrString(dtype, "kind");
	if (!k) {
		PyErr_Clear();
		return 0;
	}
	const char *s = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
	int r = s && (strcmp(s, "S") == 0 || strcmp(s, "U") == 0);
	if (!s)
		PyErr_Clear();
	Py_DECREF(k);
	return r;
}

int is_record_dtype(PyObject *dtype)
{
	if (!dtype || dtype == Py_None)
		return 0;
	PyObject *f = PyObject_GetAttrString(dtype, "fields");
	if (!f) {
		PyErr_Clear();
		return 0;
	}
	int r = f != Py_None;
	Py_DECREF(f);
	return r;
}

int is_record_type(PyObject *obj)
{
	PyObject *m = PyImport_ImportModule("ptxjit.types");
	if (!m)
		return -1;
	PyObject *cls = PyObject_GetAttrString(m, "Record");
	Py_DECREF(m);
	if (!cls)
		return -1;
	int r = PyObject_IsInstance(obj, cls);
	Py_DECREF(cls);
	return r;
}

PyObject *record_sig(PyObject *dtype)
{
	PyObject *m = PyImport_ImportModule("ptxjit.cuda.records");
	if (!m)
		return NULL;
	PyObject *s = PyObject_CallMethod(m, "record_sig", "O", dtype);
	Py_DECREF(m);
	if (s && !PyUnicode_Check(s)) {
		Py_DECREF(s);
		PyErr_SetString(PyExc_TypeError, "record_sig() did not return a str");
		return NULL;
	}
	return s;
}

/* NumPy's == of dtypes leaves out whether the struct is aligned
 * (align=True), which Numba's Record type spells and keys on. */
static int same_alignment(PyObject *a, PyObject *b)
{
	PyObject *x = PyObject_GetAttrString(a, "isalignedstruct");
	PyObject *y = x ? PyObject_GetAttrString(b, "isalignedstruct") : NULL;
	int r = y ? PyObject_RichCompareBool(x, y, Py_EQ) : -1;
	Py_XDECREF(x);
	Py_XDECREF(y);
	return r;
}

int record_kind(ModState *st, PyObject *dtype)
{
	if (!st->records && !(st->records = PyList_New(0)))
		return -1;
	Py_ssize_t n = PyList_GET_SIZE(st->records);
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *ent = PyList_GET_ITEM(st->records, i);
		PyObject *dt = PyTuple_GET_ITEM(ent, 0);
		if (dt == dtype)
			return K_RECORD + (int)i;
		int eq = PyObject_RichCompareBool(dt, dtype, Py_EQ);
		if (eq > 0)
			eq = same_alignment(dt, dtype);
		if (eq < 0)
			return -1;
		if (eq)
			return K_RECORD + (int)i;
	}
	if (n >= K_MAXRECORDS) {
		PyErr_Format(PyExc_TypeError, "kernels in this process have taken %d different record dtypes, "
		             "the most ptxjit handles", K_MAXRECORDS);
		return -1;
	}
	PyObject *sig = record_sig(dtype);
	if (!sig)
		return -1;
	PyObject *ent = PyTuple_Pack(2, dtype, sig);
	Py_DECREF(sig);
	if (!ent)
		return -1;
	int rc = PyList_Append(st->records, ent);
	Py_DECREF(ent);
	return rc < 0 ? -1 : K_RECORD + (int)n;
}

const char *record_name(ModState *st, int kind)
{
	Py_ssize_t i = kind - K_RECORD;
	if (!st->records || i < 0 || i >= PyList_GET_SIZE(st->records))
		return "?";
	const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(PyList_GET_ITEM(st->records, i), 1));
	if (!s)
		PyErr_Clear();
	return s ? s : "?";
}

/*
 * scalar.c - the values of scalar arguments, for kernel launches
 * (launch.c) and CPU calls (cpu.c) alike.
 *
 * A scalar is kept as a ScalarVal with its kind (K_*): signed and small
 * unsigned integers in i, uint64 in u, floats (float16 and float32
 * widened exactly) in f, complex numbers as two doubles in c.
 */
#include "py.h"

#include <math.h>
#include <string.h>

void scalar_read(ScalarVal *v, int k, const void *p)
{
	switch (k) {
	case K_BOOL: v->i = *(const unsigned char *)p != 0; break;
	case K_I8: v->i = *(const int8_t *)p; break;
	case K_I16: v->i = *(const int16_t *)p; break;
	case K_I32: v->i = *(const int32_t *)p; break;
	case K_I64: v->i = *(const int64_t *)p; break;
	case K_U8: v->i = *(const uint8_t *)p; break;
	case K_U16: v->i = *(const uint16_t *)p; break;
	case K_U32: v->i = *(const uint32_t *)p; break;
	case K_U64: v->u = *(const uint64_t *)p; break;
	case K_F16: { uint16_t h; memcpy(&h, p, 2); v->f = pj_half_to_double(h); } break;
	case K_F32: v->f = *(const float *)p; break;
	case K_F64: v->f = *(const double *)p; break;
	case K_C64: v->c[0] = ((const float *)p)[0]; v->c[1] = ((const float *)p)[1]; break;
	case K_C128: v->c[0] = ((const double *)p)[0]; v->c[1] = ((const double *)p)[1]; break;
	}
}

int scalar_of_builtin(PyObject *o, int *kind, ScalarVal *v)
{
	PyTypeObject *t = Py_TYPE(o);
	if (t == &PyFloat_Type) {
		*kind = K_F64;
		v->f = PyFloat_AS_DOUBLE(o);
	} else if (t == &PyBool_Type) {
		*kind = K_BOOL;
		v->i = o == Py_True;
	} else if (t == &PyComplex_Type) {
		*kind = K_C128;
		v->c[0] = PyComplex_RealAsDouble(o);
		v->c[1] = PyComplex_ImagAsDouble(o);
	} else {
		return 0;
	}
	return 1;
}

/*
 * kexc.c - the exception a kernel raised under debug=True, raised on the
 * host as Numba raises it.
 *
 * A trap's message is "ValueError: text" or "AssertionError": the name of
 * the exception class, then its argument.  The class is looked up in the
 * builtins, then in the globals of the kernel's Python function (a class
 * the user defined); an unknown name, or one that is no exception class
 * (rebound since the compile), raises TrapError with the place and the text.  The text becomes
 *
 *   In function 'k', file f.py, line 8, tid=[3, 0, 0] ctaid=[0, 0, 0]: text
 *
 * (threadIdx and blockIdx in x, y, z order).  The GPU reports the trap's
 * code and the thread in the kernel's error word (rt_read_trap); the
 * simulator in the message of its PJ_SIM_TRAP, whose second line is
 * "  at FILE:LINE, in kernel 'k', thread (x, y, z) of block (x, y, z)".
 */
#include "py.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The exception class called `name` for the kernel of dispatcher d. */
static PyObject *exc_class(PyObject *d, const char *name)
{
	PyObject *builtins = PyEval_GetBuiltins();
	PyObject *cls = builtins ? PyDict_GetItemString(builtins, name) : NULL;
	if (cls && PyExceptionClass_Check(cls)) {
		Py_INCREF(cls);
		return cls;
	}
	PyObject *fn = d ? PyObject_GetAttrString(d, "py_func") : NULL;
	PyObject *g = fn ? PyObject_GetAttrString(fn, "__globals__") : NULL;
	Py_XDECREF(fn);
	cls = g && PyDict_Check(g) ? PyDict_GetItemString(g, name) : NULL;
	if (cls && PyExceptionClass_Check(cls))
		Py_INCREF(cls);
	else
		cls = NULL;
	Py_XDECREF(g);
	PyErr_Clear();
	return cls;
}

static PyObject *raise_named(ModState *st, PyObject *d, const char *kernel, const char *msg, const char *file,
                             int line, const unsigned tid[3], const unsigned ctaid[3])
{
	char name[128];
	const char *text = strstr(msg, ": ");
	size_t n = text ? (size_t)(text - msg) : strcspn(msg, "\n");
	if (n >= sizeof name)
		n = sizeof name - 1;
	memcpy(name, msg, n);
	name[n] = 0;
	char where[1200];
	int w = 0;
	if (file && *file)
		w = snprintf(where, sizeof where, "In function '%s', file %s, line %d, ", kernel, file, line);
	snprintf(where + w, sizeof where - (size_t)(w > 0 ? w : 0), "tid=[%u, %u, %u] ctaid=[%u, %u, %u]", tid[0],
	         tid[1], tid[2], ctaid[0], ctaid[1], ctaid[2]);
	PyObject *cls = exc_class(d, name);
	if (!cls) {
		/* the class was rebound or deleted since the kernel was compiled */
		char first[1024];
		snprintf(first, sizeof first, "%.*s", (int)strcspn(msg, "\n"), msg);
		PyErr_Format(st->TrapError, "%s: %s (kernel '%s' raised '%s', which is no exception class of the "
		             "builtins or of the kernel's globals now)", where, first, kernel, name);
		return NULL;
	}
	char full[2048];
	if (text)
		snprintf(full, sizeof full, "%s: %.*s", where, (int)strcspn(text + 2, "\n"), text + 2);
	else
		snprintf(full, sizeof full, "%s", where);
	PyObject *arg = PyUnicode_DecodeUTF8(full, (Py_ssize_t)strlen(full), "replace");
	if (arg) {
		PyErr_SetObject(cls, arg);
		Py_DECREF(arg);
	}
	Py_DECREF(cls);
	return NULL;
}

PyObject *raise_gpu_trap(ModState *st, PyObject *d, const PjKernel *pk, const uint32_t word[PJ_TRAP_WORDS])
{
	uint32_t code = word[0];
	const PjTrap *t = code >= 1 && (int)code <= pk->ntraps ? &pk->traps[code - 1] : NULL;
	char kernel[256];
	snprintf(kernel, sizeof kernel, "%s", pk->entry);
	PyObject *qn = d ? PyObject_GetAttrString(d, "__name__") : NULL;
	if (qn && PyUnicode_Check(qn))
		snprintf(kernel, sizeof kernel, "%s", PyUnicode_AsUTF8(qn));
	Py_XDECREF(qn);
	PyErr_Clear();
	unsigned tid[3] = {word[1], word[2], word[3]}, ctaid[3] = {word[4], word[5], word[6]};
	if (!t || !t->msg) {
		PyErr_Format(st->TrapError, "kernel '%s' stopped with the unknown error code %u", kernel, code);
		return NULL;
	}
	if (t->axis > 0) {
		/* a bounds check: lowering added the extent to a negative index
		 * before it, so one still negative was index - extent */
		int64_t index = (int64_t)((uint64_t)word[8] | (uint64_t)word[9] << 32);
		int64_t ext = (int64_t)((uint64_t)word[10] | (uint64_t)word[11] << 32);
		if (index < 0)
			index = (int64_t)((uint64_t)index - (uint64_t)ext);
		const char *name = strncmp(t->msg, "IndexError: ", 12) == 0 ? t->msg + 12 : "?";
		char msg[600];
		snprintf(msg, sizeof msg, "IndexError: index %lld is out of bounds for axis %d with size %lld in array '%s'",
		         (long long)index, t->axis - 1, (long long)ext, name);
		return raise_named(st, d, kernel, msg, t->file, t->line, tid, ctaid);
	}
	return raise_named(st, d, kernel, t->msg, t->file, t->line, tid, ctaid);
}

PyObject *raise_sim_trap(ModState *st, PyObject *d, const char *msg)
{
	unsigned tid[3] = {0, 0, 0}, ctaid[3] = {0, 0, 0};
	char file[512] = "", kernel[256] = "?";
	int line = 0;
	const char *at = strstr(msg, "\n  at ");
	if (at) {
		const char *colon = strstr(at, ", in kernel '");
		const char *l = colon ? colon : NULL;
		while (l && l > at && *l != ':')
			l--;
		if (l && l > at + 6 && (size_t)(l - (at + 6)) < sizeof file) {
			memcpy(file, at + 6, (size_t)(l - (at + 6)));
			file[l - (at + 6)] = 0;
			line = atoi(l + 1);
		}
		if (colon)
			sscanf(colon, ", in kernel '%255[^']', thread (%u, %u, %u) of block (%u, %u, %u)", kernel, &tid[0],
			       &tid[1], &tid[2], &ctaid[0], &ctaid[1], &ctaid[2]);
	} else if ((at = strstr(msg, "\n  in kernel '"))) {
		sscanf(at, "\n  in kernel '%255[^']', thread (%u, %u, %u) of block (%u, %u, %u)", kernel, &tid[0], &tid[1],
		       &tid[2], &ctaid[0], &ctaid[1], &ctaid[2]);
	}
	return raise_named(st, d, kernel, msg, file, line, tid, ctaid);
}

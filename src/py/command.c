/*
 * command.c - _core.ptxjitc: the ptxjitc command (src/cli) run inside the
 * extension, for the console script a wheel installs (ptxjit/cli.py).
 * This file includes the compiler's core.h, whose token names clash
 * with structmember.h, so it stays apart from py.h.
 */
#include <Python.h>

#include "../cli/cli.h"

/* ptxjitc(argv): cli_main on a list of bytes (os.fsencode of each
 * argument, argv[0] included); returns the exit status.  What it prints
 * goes to the process's stdout and stderr, flushed before it returns. */
PyObject *py_ptxjitc(PyObject *m, PyObject *args)
{
	PyObject *seq = PySequence_Fast(args, "ptxjitc() takes a list of bytes");
	if (!seq)
		return NULL;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	char **argv = PyMem_Calloc((size_t)n + 1, sizeof *argv);
	if (!argv) {
		Py_DECREF(seq);
		return PyErr_NoMemory();
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *s = PySequence_Fast_GET_ITEM(seq, i);
		if (!PyBytes_Check(s)) {
			PyErr_SetString(PyExc_TypeError, "ptxjitc() takes a list of bytes");
			PyMem_Free(argv);
			Py_DECREF(seq);
			return NULL;
		}
		argv[i] = PyBytes_AS_STRING(s);
	}
	fflush(stdout);
	int status = cli_main((int)n, argv);
	fflush(stdout);
	fflush(stderr);
	PyMem_Free(argv);
	Py_DECREF(seq);
	return PyLong_FromLong(status);
}

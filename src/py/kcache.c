/*
 * kcache.c - the machine code of a compiled kernel as bytes, and bytes
 * loaded back: what the disk cache of @cuda.jit(cache=True) stores
 * (python/ptxjit/cuda/cache.py keeps the files and the keys).
 *
 *   Kernel._cubin()          links the PTX with the driver (src/rt/link.c),
 *                            loads the result into the kernel and returns
 *                            it as bytes
 *   Kernel._load_cubin(b)    loads machine code made by _cubin() in an
 *                            earlier process: the driver does not compile
 *
 * Both need the GPU; on the simulator they raise (the cache keeps the PTX
 * there, which the simulator does not need either).
 */
#include <stdlib.h>

#include "py.h"

PyObject *kcache_cubin(KernelObject *k, PyObject *unused)
{
	ModState *st = k->st;
	RtErr e;
	void *buf = NULL;
	size_t n = 0;
	if (enter_rt(st))
		return NULL;
	if (rt_link_cubin(st->rt, &k->rk, &buf, &n, &e))
		return raise_rt(st, &e);
	PyObject *b = PyBytes_FromStringAndSize(buf, (Py_ssize_t)n);
	free(buf);
	return b;
}

PyObject *kcache_load(KernelObject *k, PyObject *data)
{
	ModState *st = k->st;
	RtErr e;
	Py_buffer v;
	if (PyObject_GetBuffer(data, &v, PyBUF_SIMPLE) < 0)
		return NULL;
	if (enter_rt(st)) {
		PyBuffer_Release(&v);
		return NULL;
	}
	int rc = rt_kernel_load_image(st->rt, &k->rk, v.buf, &e);
	PyBuffer_Release(&v);
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

/*
 * devices.c - several GPUs in one process: the runtime of each device,
 * and each thread's current device.
 *
 * Each device the process uses has its own Rt (ModState.rts), with its
 * primary context, allocator cache, streams and loaded modules; rts[0]
 * exists from the start, the others are made when first selected.  Each
 * thread has a current device (py_cur_dev, 0 in a new thread, as in
 * Numba), which new arrays, streams and launches use; objects keep the
 * Rt they were made in, so copies and frees go to their own context
 * whatever device is current.
 *
 * A kernel is compiled for the compute capability of the device it is
 * launched on: devices of one capability share an "arch slot"
 * (ModState.dev_slot), which is part of the launch's key (bits 3 to 6 of
 * its facts byte), so a second device of another capability compiles its
 * own variant and devices of the same one share it.
 */
#include "py.h"

_Thread_local int py_cur_dev __attribute__((tls_model("initial-exec")));

/* The devices there are: the driver's count, 1 on the simulator. */
static int device_count(ModState *st, int *n)
{
	RtErr e;
	if (st->ndev > 0) {
		*n = st->ndev;
		return 0;
	}
	if (rt_device_count(st->rts[0], n, &e)) {
		raise_rt(st, &e);
		return -1;
	}
	st->ndev = *n;
	return 0;
}

/* Files device i's compute capability among the arch slots (device 0's
 * first, so that a process with one kind of GPU has slot 0 only). */
static int assign_slot(ModState *st, int i)
{
	Rt *rt = st->rts[i];
	if (st->slot_set[i])
		return 0;
	if (i != 0 && assign_slot(st, 0))
		return -1;
	if (enter_rt(st, rt))
		return -1;
	int cc = rt->cc_major * 10 + rt->cc_minor, s = 0;
	while (s < st->nslots && st->slot_cc[s] != cc)
		s++;
	if (s == st->nslots) {
		if (st->nslots == 16)
			s = 15;          /* the key has 4 bits: more kinds of GPU share the last */
		else
			st->slot_cc[st->nslots++] = cc;
	}
	st->dev_slot[i] = (unsigned char)s;
	st->slot_set[i] = 1;
	return 0;
}

Rt *device_rt(ModState *st, long i)
{
	int n;
	if (i == 0)
		return st->rts[0];
	if (device_count(st, &n))
		return NULL;
	if (i < 0 || i >= n) {
		if (st->sim)
			PyErr_Format(PyExc_IndexError, "there is no CUDA device %ld: the simulator has one "
			             "device, device 0", i);
		else
			PyErr_Format(PyExc_IndexError, "there is no CUDA device %ld: the driver sees %d device%s "
			             "(numbered from 0)", i, n, n == 1 ? "" : "s");
		return NULL;
	}
	if (i >= RT_MAXDEV) {
		PyErr_Format(PyExc_IndexError, "CUDA device %ld: ptxjit uses devices 0 to %d", i, RT_MAXDEV - 1);
		return NULL;
	}
	if (!st->rts[i]) {
		Rt *rt = rt_new(st->sim, st->rts[0]->sim_check, (int)i), *r0 = st->rts[0];
		if (!rt) {
			PyErr_NoMemory();
			return NULL;
		}
		RtErr ignored;
		rt_set_transfer(rt, r0->xfer_mode, (long)r0->chunk, r0->copy_threads, &ignored);
		rt->auto_reset = r0->auto_reset;
		st->rts[i] = rt;
	}
	return st->rts[i];
}

/* device_count() -> int: the devices the driver sees (1 on the simulator). */
PyObject *py_device_count(PyObject *m, PyObject *unused)
{
	ModState *st = PyModule_GetState(m);
	int n;
	if (device_count(st, &n))
		return NULL;
	return PyLong_FromLong(n);
}

/* select_device(i): makes device i this thread's current device; its
 * context is made now (the first time). */
PyObject *py_select_device(PyObject *m, PyObject *arg)
{
	ModState *st = PyModule_GetState(m);
	long i = PyLong_AsLong(arg);
	if (i == -1 && PyErr_Occurred())
		return NULL;
	Rt *rt = device_rt(st, i);
	if (!rt || (!st->sim && (enter_rt(st, rt) || assign_slot(st, (int)i))))
		return NULL;
	py_cur_dev = (int)i;
	Py_RETURN_NONE;
}

/* current_device() -> int: this thread's current device. */
PyObject *py_current_device(PyObject *m, PyObject *unused)
{
	return PyLong_FromLong(py_cur_dev);
}

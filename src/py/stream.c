/*
 * stream.c - Stream and Event, the C bases of cuda.stream() and
 * cuda.event().
 *
 * A Stream owns a driver stream (destroyed when collected) unless it is
 * one of the default streams (handle 0, or the driver's legacy 1 and
 * per-thread 2) or a stream another library made (external=True).  Waits
 * release the GIL (py.h, NOGIL).  In the
 * simulator a stream is a token and an event records the host clock:
 * work runs when it is issued, so both are ordered queues already.
 */
#include "py.h"

static PyObject *Stream_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"default", "handle", "external", NULL};
	int dflt = 0, external = 0;
	PyObject *handle = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "|pO!p", kw, &dflt, &PyLong_Type, &handle, &external))
		return NULL;
	void *h = NULL;
	if (handle && !(h = PyLong_AsVoidPtr(handle)) && PyErr_Occurred())
		return NULL;
	ModState *st = state_of_type(type);
	if (!st)
		return NULL;
	StreamObject *s = (StreamObject *)type->tp_alloc(type, 0);
	if (!s)
		return NULL;
	s->st = st;
	s->rt = cur_rt(st);
	s->gen = s->rt->gen;
	s->s = h;
	s->external = external;
	if (handle && !st->sim && enter_rt(st, s->rt)) {    /* a stream of the context: open it */
		Py_DECREF(s);
		return NULL;
	}
	if (!dflt && !handle) {
		RtErr e;
		if (enter_rt(st, s->rt)) {
			Py_DECREF(s);
			return NULL;
		}
		if (rt_stream_new(s->rt, &s->s, &e)) {
			Py_DECREF(s);
			return raise_rt(st, &e);
		}
		s->gen = s->rt->gen;
		s->owned = 1;
	}
	return (PyObject *)s;
}

static void Stream_dealloc(StreamObject *s)
{
	PyTypeObject *tp = Py_TYPE(s);
	if (s->owned)
		NOGIL(rt_stream_free(s->rt, s->s, s->gen));
	tp->tp_free((PyObject *)s);
	Py_DECREF(tp);
}

static int stream_live(StreamObject *s)
{
	if (s->owned && !s->st->sim && s->gen != s->rt->gen) {
		PyErr_SetString(s->st->CudaDriverError,
		                "this stream was made before cuda.close() and cannot be used any more");
		return -1;
	}
	return 0;
}

static PyObject *Stream_synchronize(StreamObject *s, PyObject *unused)
{
	ModState *st = s->st;
	RtErr e;
	int rc;
	if (stream_live(s) || enter_rt(st, s->rt))
		return NULL;
	NOGIL(rc = rt_stream_sync(s->rt, s->s, &e));
	drain_copies(st);
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

static PyObject *Stream_query(StreamObject *s, PyObject *unused)
{
	ModState *st = s->st;
	RtErr e;
	int done;
	if (stream_live(s) || enter_rt(st, s->rt))
		return NULL;
	if (rt_stream_query(s->rt, s->s, &done, &e))
		return raise_rt(st, &e);
	return PyBool_FromLong(done);
}

static PyObject *Stream_handle(StreamObject *s, void *c)
{
	return PyLong_FromVoidPtr(s->s);
}

static PyObject *Stream_external(StreamObject *s, void *c)
{
	return PyBool_FromLong(s->external);
}

typedef struct HostFunc {
	PyObject *fn;
	ModState *st;
	struct HostFunc *next;    /* on st->ran, once it has run */
} HostFunc;

#if PY_VERSION_HEX >= 0x030D0000
#define finalizing() Py_IsFinalizing()
#else
#define finalizing() _Py_IsFinalizing()
#endif

/* Drops the callables of the callbacks that have run (with the GIL, on a
 * thread of ours). */
static int drop_ran(void *arg)
{
	ModState *st = arg;
	HostFunc *h = st->ran;
	st->ran = NULL;
	st->ran_drop = 0;
	while (h) {
		HostFunc *next = h->next;
		Py_DECREF(h->fn);
		PyMem_RawFree(h);
		h = next;
	}
	return 0;
}

/* A host function's Python callable, run by a driver thread with the GIL
 * taken; what it raises is reported as unraisable (the driver thread has
 * no caller to hand it to).  It counts as queued until it returns, and
 * its callable is dropped later by the main thread (drop_ran).  While the
 * interpreter shuts down it does not run: taking the GIL then would end
 * the driver's thread (finish_callbacks ran the queued ones at exit). */
static void call_host_func(void *arg)
{
	HostFunc *h = arg;
	if (!Py_IsInitialized() || finalizing())
		return;
	PyGILState_STATE g = PyGILState_Ensure();
	ModState *st = h->st;
	PyObject *r = PyObject_CallNoArgs(h->fn);
	if (!r)
		PyErr_WriteUnraisable(h->fn);
	Py_XDECREF(r);
	h->next = st->ran;
	st->ran = h;
	if (!st->ran_drop && Py_AddPendingCall(drop_ran, st) == 0)
		st->ran_drop = 1;
	st->host_funcs--;
	PyGILState_Release(g);
}

PyObject *py_finish_callbacks(PyObject *m, PyObject *unused)
{
	ModState *st = PyModule_GetState(m);
	for (int i = 0; i < RT_MAXDEV; i++)
		if (st->rts[i])
			NOGIL(rt_settle(st->rts[i]));
	drain_copies(st);
	drop_ran(st);
	Py_RETURN_NONE;
}

static PyObject *Stream_host_func(StreamObject *s, PyObject *fn)
{
	ModState *st = s->st;
	RtErr e;
	if (stream_live(s) || enter_rt(st, s->rt))
		return NULL;
	HostFunc *h = PyMem_RawMalloc(sizeof *h);
	if (!h)
		return PyErr_NoMemory();
	Py_INCREF(fn);
	h->fn = fn;
	h->st = st;
	h->next = NULL;
	if (st->ran)
		drop_ran(st);
	int rc, queued = st->host_funcs;   /* a full queue waits for the callbacks before */
	st->host_funcs++;
	NOGIL_IF(queued, rc = rt_stream_host_func(s->rt, s->s, call_host_func, h, &e));
	if (rc) {
		st->host_funcs--;
		Py_DECREF(fn);
		PyMem_RawFree(h);
		return raise_rt(st, &e);
	}
	Py_RETURN_NONE;
}

static PyObject *Stream_repr(StreamObject *s)
{
	uintptr_t h = (uintptr_t)s->s;
	if (h == 0 && !s->owned)
		return PyUnicode_FromString("<Default CUDA stream>");
	if (h == 1 && !s->owned && !s->external)
		return PyUnicode_FromString("<Legacy default CUDA stream>");
	if (h == 2 && !s->owned && !s->external)
		return PyUnicode_FromString("<Per-thread default CUDA stream>");
	return PyUnicode_FromFormat(s->external ? "<External CUDA stream %zu>" : "<CUDA stream %zu>", (size_t)h);
}

static PyMethodDef Stream_methods[] = {
	{"synchronize", (PyCFunction)Stream_synchronize, METH_NOARGS, "waits until the stream's work is done"},
	{"query", (PyCFunction)Stream_query, METH_NOARGS, "True if the stream's work is done"},
	{"_host_func", (PyCFunction)Stream_host_func, METH_O,
	 "_host_func(fn): fn() runs on a driver thread when the stream's earlier work is done"},
	{NULL, NULL, 0, NULL},
};

static PyGetSetDef Stream_getset[] = {
	{"handle", (getter)Stream_handle, NULL, "the CUstream as an int (0: the default stream)", NULL},
	{"external", (getter)Stream_external, NULL, "True for a stream made by another library", NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Stream_slots[] = {
	{Py_tp_new, Stream_new},
	{Py_tp_dealloc, Stream_dealloc},
	{Py_tp_methods, Stream_methods},
	{Py_tp_getset, Stream_getset},
	{Py_tp_repr, Stream_repr},
	{Py_tp_doc, "A CUDA stream: work issued on it runs in order."},
	{0, NULL},
};

PyType_Spec Stream_spec = {
	.name = "ptxjit._core.Stream",
	.basicsize = sizeof(StreamObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.slots = Stream_slots,
};

/* ------------------------------------------------------------- Event */

static PyObject *Event_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"timing", NULL};
	int timing = 1;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "|p", kw, &timing))
		return NULL;
	ModState *st = state_of_type(type);
	if (!st || enter_rt(st, cur_rt(st)))
		return NULL;
	EventObject *ev = (EventObject *)type->tp_alloc(type, 0);
	if (!ev)
		return NULL;
	ev->st = st;
	ev->rt = cur_rt(st);
	RtErr e;
	if (rt_event_new(ev->rt, &ev->ev, timing, &e)) {
		Py_DECREF(ev);
		return raise_rt(st, &e);
	}
	return (PyObject *)ev;
}

static void Event_dealloc(EventObject *ev)
{
	PyTypeObject *tp = Py_TYPE(ev);
	rt_event_free(ev->rt, &ev->ev);
	tp->tp_free((PyObject *)ev);
	Py_DECREF(tp);
}

static PyObject *Event_record(EventObject *ev, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"stream", NULL};
	PyObject *so = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O", kw, &so))
		return NULL;
	ModState *st = ev->st;
	CUstream s;
	int async;
	RtErr e;
	if (stream_arg(st, so, ev->rt, &s, &async) || enter_rt(st, ev->rt))
		return NULL;
	if (rt_event_record(ev->rt, &ev->ev, s, &e))
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

static PyObject *Event_wait(EventObject *ev, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"stream", NULL};
	PyObject *so = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O", kw, &so))
		return NULL;
	ModState *st = ev->st;
	CUstream s;
	int async;
	RtErr e;
	/* a stream of any device may wait for the event */
	Rt *on = PyObject_TypeCheck(so, st->Stream_T) && ((StreamObject *)so)->owned ? ((StreamObject *)so)->rt
	                                                                                : cur_rt(st);
	if (stream_arg(st, so, on, &s, &async) || enter_rt(st, on))
		return NULL;
	if (rt_event_wait(on, &ev->ev, s, &e))
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

static PyObject *Event_synchronize(EventObject *ev, PyObject *unused)
{
	ModState *st = ev->st;
	RtErr e;
	int rc;
	if (enter_rt(st, ev->rt))
		return NULL;
	NOGIL(rc = rt_event_sync(ev->rt, &ev->ev, &e));
	drain_copies(st);
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

static PyObject *Event_query(EventObject *ev, PyObject *unused)
{
	ModState *st = ev->st;
	RtErr e;
	int done;
	if (enter_rt(st, ev->rt))
		return NULL;
	if (rt_event_query(ev->rt, &ev->ev, &done, &e))
		return raise_rt(st, &e);
	return PyBool_FromLong(done);
}

/* elapsed_time(end): milliseconds from this event to end. */
static PyObject *Event_elapsed_time(EventObject *ev, PyObject *other)
{
	ModState *st = ev->st;
	if (!PyObject_TypeCheck(other, st->Event_T))
		return PyErr_Format(PyExc_TypeError, "elapsed_time() needs another event, not %.100s",
		                    Py_TYPE(other)->tp_name);
	float ms = 0;
	RtErr e;
	if (enter_rt(st, ev->rt))
		return NULL;
	if (rt_event_elapsed(ev->rt, &ev->ev, &((EventObject *)other)->ev, &ms, &e))
		return raise_rt(st, &e);
	return PyFloat_FromDouble(ms);
}

static PyMethodDef Event_methods[] = {
	{"record", (PyCFunction)(void (*)(void))Event_record, METH_VARARGS | METH_KEYWORDS,
	 "record(stream=0): marks the point reached in the stream's work"},
	{"wait", (PyCFunction)(void (*)(void))Event_wait, METH_VARARGS | METH_KEYWORDS,
	 "wait(stream=0): makes later work on the stream wait for the event"},
	{"synchronize", (PyCFunction)Event_synchronize, METH_NOARGS, "waits until the event has happened"},
	{"query", (PyCFunction)Event_query, METH_NOARGS, "True if the event has happened"},
	{"elapsed_time", (PyCFunction)Event_elapsed_time, METH_O,
	 "elapsed_time(end): milliseconds between this event and end"},
	{NULL, NULL, 0, NULL},
};

static PyType_Slot Event_slots[] = {
	{Py_tp_new, Event_new},
	{Py_tp_dealloc, Event_dealloc},
	{Py_tp_methods, Event_methods},
	{Py_tp_doc, "A CUDA event: a point in a stream's work, with a time stamp when timing=True."},
	{0, NULL},
};

PyType_Spec Event_spec = {
	.name = "ptxjit._core.Event",
	.basicsize = sizeof(EventObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.slots = Event_slots,
};

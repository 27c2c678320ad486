/*
 * graph.c - Graph, the C base of cuda.graph(): a capture of the work
 * issued on one stream, replayed by launch().
 *
 * The runtime (src/rt/graph.c) makes and replays the graph.  This file
 * keeps alive what the graph refers to: while a capture is under way
 * st->capture_keep is a list, and the launch path (launch.c) and the
 * copies (array.c) append the kernels, arrays and host buffers they
 * issue on the capture stream; a capture that ends well replaces the
 * graph's list with it.  So no array a replay reads or writes is freed
 * (and its memory handed to another array) while the graph lives.
 */
#include "py.h"

typedef struct GraphObject {
	PyObject_HEAD
	ModState *st;
	Rt *rt;
	RtGraph g;
	PyObject *keep;        /* what the captured graph refers to */
	PyObject *rec;         /* the same, for the capture under way */
	int captured;          /* a capture ended well */
} GraphObject;

static PyObject *Graph_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	ModState *st = state_of_type(type);
	if (!st)
		return NULL;
	GraphObject *g = (GraphObject *)type->tp_alloc(type, 0);
	if (!g)
		return NULL;
	g->st = st;
	g->rt = cur_rt(st);   /* the graph belongs to the current device */
	return (PyObject *)g;
}

static void Graph_dealloc(GraphObject *g)
{
	PyTypeObject *tp = Py_TYPE(g);
	if (g->st && g->st->capture_keep == g->rec)
		g->st->capture_keep = NULL;
	rt_graph_free(g->rt, &g->g);
	Py_CLEAR(g->keep);
	Py_CLEAR(g->rec);
	tp->tp_free((PyObject *)g);
	Py_DECREF(tp);
}

/* _begin(stream): starts capturing the work issued on stream (a Stream
 * made by ptxjit) and on the default stream. */
static PyObject *Graph_begin(GraphObject *g, PyObject *stream)
{
	ModState *st = g->st;
	CUstream s;
	int async;
	RtErr e;
	if (stream_arg(st, stream, g->rt, &s, &async) || enter_rt(st, g->rt))
		return NULL;
	PyObject *rec = PyList_New(0);
	if (!rec)
		return NULL;
	if (PyList_Append(rec, stream) < 0 || rt_graph_begin(g->rt, &g->g, s, &e)) {
		Py_DECREF(rec);
		return PyErr_Occurred() ? NULL : raise_rt(st, &e);
	}
	Py_XSETREF(g->rec, rec);
	st->capture_keep = rec;
	Py_RETURN_NONE;
}

/* _end(keep): ends the capture; keep False drops what was captured. */
static PyObject *Graph_end(GraphObject *g, PyObject *keepo)
{
	ModState *st = g->st;
	RtErr e;
	int keep = PyObject_IsTrue(keepo);
	if (keep < 0)
		return NULL;
	if (st->capture_keep == g->rec)
		st->capture_keep = NULL;
	int rc = rt_graph_end(g->rt, &g->g, keep, &e);
	PyObject *rec = g->rec;
	g->rec = NULL;
	if (rc) {
		Py_XDECREF(rec);
		return raise_rt(st, &e);
	}
	if (keep) {
		Py_XSETREF(g->keep, rec);
		g->captured = 1;
	} else {
		Py_XDECREF(rec);
	}
	Py_RETURN_NONE;
}

/* launch(stream=None): runs the captured work on stream. */
static PyObject *Graph_launch(GraphObject *g, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"stream", NULL};
	PyObject *stream = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O", kw, &stream))
		return NULL;
	ModState *st = g->st;
	CUstream s;
	int async, rc;
	RtErr e;
	if (stream_arg(st, stream, g->rt, &s, &async))
		return NULL;
	if (!g->captured && g->rt->capture != &g->g)
		return PyErr_Format(PyExc_RuntimeError,
		                    "this graph has not been captured yet: issue its work inside `with graph.capture():`");
	if (enter_rt(st, g->rt))
		return NULL;
	s = rt_graph_stream(g->rt, s);
	if (st->sim) {
		if (stop_begin())
			return NULL;
		Py_BEGIN_ALLOW_THREADS
		rc = rt_graph_launch(g->rt, &g->g, s, &e);
		Py_END_ALLOW_THREADS
		stop_end();
	} else {
		NOGIL_IF(st->host_funcs, rc = rt_graph_launch(g->rt, &g->g, s, &e));
	}
	if (rc) {
		if (e.code == RT_E_SIM && e.sim == PJ_SIM_STOPPED)
			return raise_stopped();
		return raise_rt(st, &e);
	}
	if (st->capture_keep && rt_capturing(g->rt, s) == 1 && PyList_Append(st->capture_keep, (PyObject *)g) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *Graph_nodes(GraphObject *g, void *c)
{
	return PyLong_FromLong(g->captured ? g->g.nodes : 0);
}

static PyObject *Graph_capturing(GraphObject *g, void *c)
{
	return PyBool_FromLong(g->rt->capture == &g->g);
}

static PyMethodDef Graph_methods[] = {
	{"_begin", (PyCFunction)Graph_begin, METH_O, "_begin(stream): starts the capture"},
	{"_end", (PyCFunction)Graph_end, METH_O, "_end(keep): ends the capture"},
	{"launch", (PyCFunction)(void (*)(void))Graph_launch, METH_VARARGS | METH_KEYWORDS,
	 "launch(stream=None): runs the captured work"},
	{NULL, NULL, 0, NULL},
};

static PyGetSetDef Graph_getset[] = {
	{"nodes", (getter)Graph_nodes, NULL, "the work items (kernels, copies, memsets) of the last capture", NULL},
	{"capturing", (getter)Graph_capturing, NULL, "True while the graph is being captured", NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Graph_slots[] = {
	{Py_tp_new, Graph_new},
	{Py_tp_dealloc, Graph_dealloc},
	{Py_tp_methods, Graph_methods},
	{Py_tp_getset, Graph_getset},
	{Py_tp_doc, "A CUDA graph: the work captured on a stream, replayed by launch()."},
	{0, NULL},
};

PyType_Spec Graph_spec = {
	.name = "ptxjit._core.Graph",
	.basicsize = sizeof(GraphObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.slots = Graph_slots,
};

int capture_keep(ModState *st, PyObject *o)
{
	return st->capture_keep ? PyList_Append(st->capture_keep, o) : 0;
}

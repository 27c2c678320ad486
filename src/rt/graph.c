/*
 * graph.c - CUDA graphs made by stream capture, and their replays.
 *
 * On the GPU a capture is the driver's: cuStreamBeginCapture_v2 on the
 * capture stream in relaxed mode (memory may be allocated and modules
 * loaded while it runs; ptxjit itself refuses what would synchronise),
 * cuStreamEndCapture, cuGraphInstantiateWithFlags, cuGraphLaunch.  A
 * graph captured again after it was instantiated keeps its executable
 * graph and updates it (cuGraphExecUpdate_v2, when the topology is the
 * same: new scalar arguments, new arrays), else instantiates anew.  The
 * graph entry points are resolved at the first use of a graph, so a
 * driver without them runs everything else.
 *
 * In the simulator the launches, copies and memsets issued on the
 * capture stream are recorded (a launch keeps a copy of its parameter
 * buffer, a copy its addresses) and run nowhere; a replay runs them in
 * order through rt_launch, memcpy and memset.  Host memory a copy reads
 * or writes must be pinned, on both backends: it is read or written at
 * each replay, not when the capture is made.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUgraphNode_st *CUgraphNode;

enum {
	CU_STREAM_CAPTURE_MODE_RELAXED = 2,
	CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
};

typedef struct RtGraphDriver {
	int tried, ok;
	CUresult (*cuStreamBeginCapture_v2)(CUstream, int);
	CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
	CUresult (*cuStreamIsCapturing)(CUstream, int *);
	CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph, unsigned long long);
	CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
	CUresult (*cuGraphGetNodes)(CUgraph, CUgraphNode *, size_t *);
	CUresult (*cuGraphDestroy)(CUgraph);
	CUresult (*cuGraphExecDestroy)(CUgraphExec);
	CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
	CUresult (*cuGraphExecUpdate_v2)(CUgraphExec, CUgraph, void *);   /* optional (CUDA 12) */
} RtGraphDriver;

static RtGraphDriver graph_driver;

enum { OP_LAUNCH, OP_COPY, OP_MEMSET };

struct RtOp {
	int kind;
	RtKernel *k;
	unsigned grid[3], block[3], smem;
	void *params;
	size_t nparams;
	void *dst;
	const void *src;
	size_t n;
	int byte;
};

#define CHECK(call, ...) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) return rt_fail(rt, e, r_, __VA_ARGS__); } while (0)

/* Resolves the graph entry points; -1 when the driver lacks one. */
static int graph_syms(Rt *rt, RtErr *e)
{
	RtGraphDriver *d = &graph_driver;
	if (rt_enter(rt, e))
		return -1;
	if (!d->tried) {
		d->tried = 1;
		d->ok = 1;
#define SYM(name) do { *(void **)&d->name = dlsym(rt->lib, #name); if (!d->name) d->ok = 0; } while (0)
		SYM(cuStreamBeginCapture_v2);
		SYM(cuStreamEndCapture);
		SYM(cuStreamIsCapturing);
		SYM(cuGraphInstantiateWithFlags);
		SYM(cuGraphLaunch);
		SYM(cuGraphGetNodes);
		SYM(cuGraphDestroy);
		SYM(cuGraphExecDestroy);
		SYM(cuMemsetD8Async);
#undef SYM
		*(void **)&d->cuGraphExecUpdate_v2 = dlsym(rt->lib, "cuGraphExecUpdate_v2");
	}
	rt->gd = d;
	if (!d->ok)
		return rt_fail_rt(e, RT_E_SYMBOL, "CUDA driver too old",
		                  "the CUDA driver has no CUDA graph entry points (cuda.graph() needs CUDA 11.4 or newer)");
	return 0;
}

static void free_ops(RtOp *ops, int n)
{
	for (int i = 0; i < n; i++)
		free(ops[i].params);
	free(ops);
}

/* Forgets the ops recorded so far (their parameter copies freed), keeping the array. */
static void drop_recorded(RtGraph *g)
{
	for (int i = 0; i < g->nrec; i++)
		free(g->rec[i].params);
	g->nrec = 0;
}

static RtOp *new_op(Rt *rt, RtErr *e)
{
	RtGraph *g = rt->capture;
	if (g->nrec == g->caprec) {
		int cap = g->caprec ? 2 * g->caprec : 16;
		RtOp *o = realloc(g->rec, (size_t)cap * sizeof *o);
		if (!o) {
			rt_fail_rt(e, RT_E_HOSTMEM, "out of memory", "out of host memory recording a graph");
			return NULL;
		}
		g->rec = o;
		g->caprec = cap;
	}
	RtOp *o = &g->rec[g->nrec++];
	memset(o, 0, sizeof *o);
	return o;
}

int rt_graph_begin(Rt *rt, RtGraph *g, CUstream s, RtErr *e)
{
	if (rt->capture)
		return rt_fail_rt(e, RT_E_ARG, "capturing",
		                  "a graph is being captured already: end its capture (leave its `with` block) "
		                  "before capturing another");
	if (!s)
		return rt_fail_rt(e, RT_E_ARG, "default stream",
		                  "the default stream cannot be captured; capture on a cuda.stream()");
	if (!rt->sim) {
		if (graph_syms(rt, e))
			return -1;
		CHECK(rt->gd->cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED),
		      "cuStreamBeginCapture (cuda.graph capture)");
	}
	g->s = s;
	drop_recorded(g);
	rt->capture = g;
	return 0;
}

/* Makes g->exec run graph (instantiated, or the old one updated). */
static int instantiate(Rt *rt, RtGraph *g, CUgraph graph, RtErr *e)
{
	RtGraphDriver *d = rt->gd;
	if (g->exec && g->gen == rt->gen && d->cuGraphExecUpdate_v2) {
		struct { int result; void *node, *from; } info;
		memset(&info, 0, sizeof info);
		if (d->cuGraphExecUpdate_v2(g->exec, graph, &info) == CUDA_SUCCESS)
			return 0;
	}
	if (g->exec && g->gen == rt->gen)
		d->cuGraphExecDestroy(g->exec);
	g->exec = NULL;
	CUgraphExec x = NULL;
	CHECK(d->cuGraphInstantiateWithFlags(&x, graph, 0), "cuGraphInstantiate (the captured graph)");
	g->exec = x;
	g->gen = rt->gen;
	return 0;
}

int rt_graph_end(Rt *rt, RtGraph *g, int keep, RtErr *e)
{
	if (rt->capture != g)
		return rt_fail_rt(e, RT_E_ARG, "not capturing", "this graph is not being captured");
	rt->capture = NULL;
	if (rt->sim) {
		if (!keep) {
			drop_recorded(g);
			return 0;
		}
		free_ops(g->ops, g->nops);
		g->ops = g->rec;
		g->nops = g->nrec;
		g->capops = g->caprec;
		g->rec = NULL;
		g->nrec = g->caprec = 0;
		g->nodes = g->nops;
		g->gen = rt->gen;
		return 0;
	}
	CUgraph graph = NULL;
	RtErr ignored;
	if (rt_enter(rt, keep ? e : &ignored))
		return keep ? -1 : 0;
	CUresult r = rt->gd->cuStreamEndCapture(g->s, &graph);
	if (r != CUDA_SUCCESS || !keep) {
		if (graph)
			rt->gd->cuGraphDestroy(graph);
		if (!keep)
			return 0;
		if (r == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)
			return rt_fail(rt, e, r, "cuStreamEndCapture (the capture was invalidated by an operation "
			               "a graph cannot hold, issued while it was captured)");
		return rt_fail(rt, e, r, "cuStreamEndCapture (cuda.graph capture)");
	}
	size_t nodes = 0;
	rt->gd->cuGraphGetNodes(graph, NULL, &nodes);
	int rc = instantiate(rt, g, graph, e);
	rt->gd->cuGraphDestroy(graph);
	if (rc == 0)
		g->nodes = (int)nodes;
	return rc;
}

static int replay(Rt *rt, RtGraph *g, CUstream s, RtErr *e)
{
	for (int i = 0; i < g->nops; i++) {
		RtOp *o = &g->ops[i];
		int capture = rt->capture && rt->capture->s == s;
		if (o->kind == OP_LAUNCH) {
			if (rt_launch(rt, o->k, o->grid, o->block, o->smem, s, o->params, o->nparams, e))
				return -1;
		} else if (o->kind == OP_COPY) {
			if (capture && rt_graph_copy(rt, o->dst, o->src, o->n, 0, e))
				return -1;
			if (!capture)
				memmove(o->dst, o->src, o->n);
		} else {
			if (capture && rt_graph_memset(rt, (CUdeviceptr)(uintptr_t)o->dst, o->byte, o->n, e))
				return -1;
			if (!capture)
				memset(o->dst, o->byte, o->n);
		}
	}
	return 0;
}

int rt_graph_launch(Rt *rt, RtGraph *g, CUstream s, RtErr *e)
{
	if (rt->capture == g)
		return rt_fail_rt(e, RT_E_ARG, "capturing",
		                  "this graph is still being captured: leave its `with` block before launching it");
	if (rt->sim)
		return replay(rt, g, s, e);
	if (!g->exec)
		return rt_fail_rt(e, RT_E_ARG, "not captured",
		                  "this graph has not been captured yet: issue its work inside `with graph.capture():`");
	if (g->gen != rt->gen)
		return rt_fail_rt(e, RT_E_STALE, "stale handle",
		                  "this graph was captured before cuda.close() and cannot be used any more; capture it again");
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->gd->cuGraphLaunch(g->exec, s), "cuGraphLaunch (graph.launch())");
	return 0;
}

void rt_graph_free(Rt *rt, RtGraph *g)
{
	RtErr ignored;
	if (rt->capture == g)
		rt_graph_end(rt, g, 0, &ignored);
	free_ops(g->ops, g->nops);
	free_ops(g->rec, g->nrec);
	g->ops = g->rec = NULL;
	g->nops = g->nrec = 0;
	if (!rt->sim && g->exec && g->gen == rt->gen && rt->state == RT_READY && !rt->sticky &&
	    rt_enter(rt, &ignored) == 0)
		rt->gd->cuGraphExecDestroy(g->exec);
	g->exec = NULL;
}

CUstream rt_graph_stream(Rt *rt, CUstream s)
{
	return !s && rt->capture ? rt->capture->s : s;
}

int rt_capturing(Rt *rt, CUstream s)
{
	if (rt->capture && rt->capture->s == s)
		return 1;
	if (rt->sim || rt->state != RT_READY)
		return 0;
	RtErr ignored;
	if ((!rt->gd || !rt->gd->ok) && graph_syms(rt, &ignored))
		return 0;
	int status = 0;
	if (rt->gd->cuStreamIsCapturing(s, &status) != CUDA_SUCCESS)
		return 0;
	return status != 0 ? 2 : 0;
}

int rt_graph_copy(Rt *rt, void *dst, const void *src, size_t n, int host, RtErr *e)
{
	RtGraph *g = rt->capture;
	if (n == 0)
		return 0;
	const void *h = host == 1 ? dst : src;
	if (host && !rt_is_pinned(rt, h, n))
		return rt_fail_rt(e, RT_E_ARG, "pageable memory",
		                  "a copy %s pageable host memory cannot be captured in a graph (the graph reads "
		                  "or writes host memory when it runs): use an array of cuda.pinned_array()",
		                  host == 1 ? "to" : "from");
	if (rt->sim) {
		RtOp *o = new_op(rt, e);
		if (!o)
			return -1;
		o->kind = OP_COPY;
		o->dst = dst;
		o->src = src;
		o->n = n;
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CUdeviceptr dd = (CUdeviceptr)(uintptr_t)dst, ds = (CUdeviceptr)(uintptr_t)src;
	CUresult r = host == 1 ? rt->d.cuMemcpyDtoHAsync_v2(dst, ds, n, g->s)
	           : host == 2 ? rt->d.cuMemcpyHtoDAsync_v2(dd, src, n, g->s)
	           : rt->d.cuMemcpyDtoDAsync_v2(dd, ds, n, g->s);
	CHECK(r, "cuMemcpy%sAsync (%zu bytes, in a graph capture)", host == 1 ? "DtoH" : host == 2 ? "HtoD" : "DtoD", n);
	return 0;
}

int rt_graph_memset(Rt *rt, CUdeviceptr dst, int byte, size_t n, RtErr *e)
{
	if (n == 0)
		return 0;
	if (rt->sim) {
		RtOp *o = new_op(rt, e);
		if (!o)
			return -1;
		o->kind = OP_MEMSET;
		o->dst = (void *)(uintptr_t)dst;
		o->byte = byte;
		o->n = n;
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->gd->cuMemsetD8Async(dst, (unsigned char)byte, n, rt->capture->s),
	      "cuMemsetD8Async (%zu bytes, in a graph capture)", n);
	return 0;
}

int rt_graph_record_launch(Rt *rt, RtKernel *k, const unsigned grid[3], const unsigned block[3],
                           unsigned smem, const void *params, size_t nbytes, RtErr *e)
{
	void *p = malloc(nbytes ? nbytes : 1);
	if (!p)
		return rt_fail_rt(e, RT_E_HOSTMEM, "out of memory", "out of host memory recording a graph");
	RtOp *o = new_op(rt, e);
	if (!o) {
		free(p);
		return -1;
	}
	memcpy(p, params, nbytes);
	o->kind = OP_LAUNCH;
	o->k = k;
	memcpy(o->grid, grid, sizeof o->grid);
	memcpy(o->block, block, sizeof o->block);
	o->smem = smem;
	o->params = p;
	o->nparams = nbytes;
	return 0;
}

int rt_graph_no_sync(Rt *rt, CUstream s, const char *what, RtErr *e)
{
	if (!rt->capture || (s && s != (CUstream)(uintptr_t)1 && s != rt->capture->s))
		return 0;
	return rt_fail_rt(e, RT_E_ARG, "synchronize in a capture",
	                  "%s inside a graph capture: the captured work does not run until graph.launch(), "
	                  "so waiting for it is not possible; synchronise after the capture's `with` block", what);
}

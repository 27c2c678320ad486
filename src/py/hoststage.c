/*
 * hoststage.c - NumPy arrays (A_HOST arguments) around a launch.
 *
 * The GPU gets a device copy of each host array: memory from rt_alloc,
 * filled through rt_put with the arrays the kernel reads or writes
 * (PjKernel.read_args / written_args; cuda.Out skips it).  After the
 * kernel, rt_get brings back the writable arrays the kernel writes
 * (cuda.In and read-only arrays are not copied back) and waits: the call
 * returns when the results are in host memory, as in Numba.  A record
 * scalar is small and always copied both ways.  The copies go through
 * the runtime's staging ring or page-locked registrations (src/rt); the
 * GIL is released while they run.  The scratch allocations go back to
 * the runtime's allocator in arg_release.
 *
 * The simulator uses host arrays in place, except that a read-only array
 * (or a cuda.In one) the kernel writes gets a scratch copy, so that the
 * caller's array is not changed, and that arrays whose memory meets
 * another host argument's (one array passed twice, or two views of one)
 * get a copy each, written back in argument order (sim_stage_back): on
 * the GPU, as in Numba, each argument has a device copy of its own, and
 * the simulator gives the same results.
 *
 * If anything fails after copies were queued, stage_abort waits for the
 * stream (the scratch memory is about to be reused) unless the context
 * is lost, and drops the registrations.
 */
#include "launch.h"

#include <string.h>

static int arg_bit(uint64_t mask, int i)
{
	return (int)(mask >> (i < 63 ? i : 63) & 1);
}

/* whether host argument i's bytes meet another host argument's (mapped
 * memory is shared on the GPU too) */
static int meets_another(const ArgInfo *a, int n, int i)
{
	const char *lo = a[i].view.buf, *hi = lo + a[i].nbytes;
	if (a[i].mapped || !a[i].nbytes)
		return 0;
	for (int j = 0; j < n; j++) {
		const char *l2 = a[j].view.buf;
		if (j != i && a[j].cls == A_HOST && !a[j].mapped && a[j].nbytes && l2 < hi && lo < l2 + a[j].nbytes)
			return 1;
	}
	return 0;
}

/* whether argument i comes back to the caller after the kernel: a
 * writable host array the kernel writes, or a record scalar */
static int written_back(const PjKernel *pk, const ArgInfo *x, int i)
{
	return x->cls == A_HOST && !x->readonly && x->dir != DIR_IN && x->nbytes &&
	       (x->layout == 'R' || arg_bit(pk->written_args, i));
}

int stage_in(LauncherObject *L, const PjKernel *pk, ArgInfo *a, int n, Stage *sg)
{
	ModState *st = L->d->st;
	Rt *rt = cur_rt(st);
	RtErr e;
	int rc;
	sg->nin = sg->nout = 0;
	if (!st->sim && enter_rt(st, rt))
		return -1;
	for (int i = 0; i < n; i++) {
		if (a[i].cls != A_HOST)
			continue;
		int rec = a[i].layout == 'R';
		int rd = rec || arg_bit(pk->read_args, i), wr = rec || arg_bit(pk->written_args, i);
		if (st->sim) {
			if (((a[i].readonly || a[i].dir == DIR_IN) && wr && a[i].nbytes) || meets_another(a, n, i)) {
				if (!(a[i].host_tmp = PyMem_RawMalloc(a[i].nbytes))) {
					PyErr_NoMemory();
					return -1;
				}
				memcpy(a[i].host_tmp, a[i].view.buf, a[i].nbytes);
				a[i].ptr = (CUdeviceptr)(uintptr_t)a[i].host_tmp;
			}
			continue;
		}
		NOGIL_IF(st->host_funcs, rc = rt_alloc(rt, a[i].nbytes, &a[i].tmp, &e));
		if (rc) {
			raise_rt_kernel(st, &e, L->d->name);
			return -1;
		}
		a[i].ptr = a[i].tmp;
		if ((rd || wr) && a[i].nbytes && a[i].dir != DIR_OUT)
			sg->in[sg->nin++] = (RtXfer){a[i].view.buf, a[i].tmp, a[i].nbytes, 0};
	}
	if (!sg->nin)
		return 0;
	NOGIL(rc = rt_put(rt, sg->in, sg->nin, L->stream, &e));
	if (rc) {
		raise_rt_kernel(st, &e, L->d->name);
		stage_abort(L, sg, e.sticky);
		return -1;
	}
	return 0;
}

int stage_out(LauncherObject *L, const PjKernel *pk, ArgInfo *a, int n, Stage *sg, RtErr *e)
{
	Rt *rt = cur_rt(L->d->st);
	int rc;
	for (int i = 0; i < n; i++)
		if (written_back(pk, &a[i], i)) {
			RtXfer *x = &sg->out[sg->nout++];
			*x = (RtXfer){a[i].view.buf, a[i].tmp, a[i].nbytes, 0};
			for (int j = 0; j < sg->nin; j++)
				if (sg->in[j].dev == a[i].tmp)
					x->reg = sg->in[j].reg;
		}
	NOGIL(rc = rt_get(rt, sg->out, sg->nout, L->stream, e);
	      if (!rc) {
		      rt_unregister_xfers(rt, sg->in, sg->nin, 1);
		      rt_unregister_xfers(rt, sg->out, sg->nout, 2);
	      });
	return rc ? -1 : 0;
}

void sim_stage_back(const PjKernel *pk, ArgInfo *a, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].host_tmp && written_back(pk, &a[i], i))
			memcpy(a[i].view.buf, a[i].host_tmp, a[i].nbytes);
}

void stage_abort(LauncherObject *L, Stage *sg, int sticky)
{
	ModState *st = L->d->st;
	if (st->sim)
		return;
	Rt *rt = cur_rt(st);
	RtErr ignored;
	/* copies may still be queued into the scratch arrays, which are
	 * about to go back to the allocator */
	NOGIL(if (!sticky)
		      rt_stream_sync(rt, L->stream, &ignored);
	      rt_unregister_xfers(rt, sg->in, sg->nin, 1);
	      rt_unregister_xfers(rt, sg->out, sg->nout, 2));
}

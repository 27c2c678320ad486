/*
 * xfer.c - the copies of a launch's NumPy arguments, to the device before
 * the kernel and back after it.
 *
 * NumPy memory is pageable.  The driver copies pageable memory through
 * its own pinned buffers, one call at a time, and each call returns only
 * when its data has been staged; so a launch with three arrays used to
 * pay for six such copies in a row.  Here the copies of a launch share a
 * ring of RT_RING pinned buffers ("slots", rt->chunk bytes each):
 *
 *   to the device   for each chunk: wait until the slot's last DMA is
 *                   over (its event), memcpy the chunk into it, queue
 *                   the DMA (cuMemcpyHtoDAsync) and record the slot's
 *                   event.  The memcpy of a chunk overlaps the DMA of
 *                   the chunk before; small arrays share a slot.
 *   back            queue the DMAs of up to RT_RING chunks behind the
 *                   kernel, then take the oldest: wait for its event,
 *                   memcpy it out, queue the next chunk into the slot.
 *                   One stream synchronisation ends the launch.
 *
 * The first slots of a call hold less (RT_RAMP, then twice as much, up
 * to a chunk), so the first DMA starts early.  Memory that is already
 * pinned (cuda.pinned_array, cuda.pinned) goes straight to the DMA.
 *
 * Two other modes exist to measure against (rt_set_transfer):
 * RT_XFER_DRIVER hands pageable memory to cuMemcpy*Async as it is, and
 * RT_XFER_REGISTER page-locks each array of RT_REG_MIN bytes or more
 * for the launch (cuMemHostRegister; rt_unregister_xfers undoes it) so
 * the DMA reads and writes it in place; smaller ones are staged.
 *
 * Host memcpy is the slower side on many machines, so big pieces are
 * split among copy threads (rt->copy_threads, the caller included).  The
 * workers are plain pthreads that never call the driver: they watch a
 * job ticket, spin for a short while after a job (chunks come every few
 * tens of microseconds while a transfer runs), then sleep on a condition
 * variable.  The caller copies parts too, and takes the parts no worker
 * has claimed, so a worker that is not running costs nothing.
 *
 * The ring belongs to the context (cuMemHostAlloc): rt_close frees it.
 * rt->xfer_lock serialises transfers, which run without the GIL.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt.h"

#define CHECK(call, ...) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) return rt_fail(rt, e, r_, __VA_ARGS__); } while (0)

#define RT_RAMP ((size_t)128 << 10)       /* the first slot of a call holds this much */
#define RT_PAR_MIN ((size_t)256 << 10)    /* smaller pieces are copied by the caller alone */
#define RT_PIECES 32                      /* copies sharing one slot on the way back */
#define RT_REG_MIN ((size_t)1 << 20)      /* RT_XFER_REGISTER: smaller arrays are staged */
#define SPIN_NS 300000                    /* how long an idle worker spins before it sleeps */

enum { CU_EVENT_DISABLE_TIMING_ = 2, CU_MEMHOSTALLOC_PORTABLE_ = 1 };

/* ---------------------------------------------------- copy threads */

/* A job is a memcpy cut into nparts parts.  Parts are claimed from one
 * 64-bit ticket, generation << 40 | nparts << 32 | next part, so a
 * worker that comes late (or a caller whose worker is descheduled) never
 * waits: whoever is there takes the next part, and a claim made after
 * the job's last part was taken gets nothing.  A job's fields cannot
 * change while a part of it is being copied: the next job is posted
 * only when all of its parts are done. */
struct RtPool {
	int started;                  /* worker threads running */
	pthread_mutex_t m;
	pthread_cond_t cv;
	atomic_ullong ticket;
	atomic_int done[2];           /* parts finished, by generation parity */
	atomic_int sleepers;
	unsigned gen;
	struct { unsigned char *dst; const unsigned char *src; size_t n; } job[2];
};

static RtPool *the_pool;          /* for the fork handler */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The bytes [lo, hi) of part k of a copy split into np parts; parts
 * start on 64-byte boundaries. */
static void part_of(size_t n, int np, int k, size_t *lo, size_t *hi)
{
	size_t step = (n / (size_t)np + 63) & ~(size_t)63;
	*lo = step * (size_t)k < n ? step * (size_t)k : n;
	*hi = k == np - 1 ? n : (*lo + step < n ? *lo + step : n);
}

/* Copies parts of the job the ticket is on until none is left. */
static void take_parts(RtPool *p)
{
	for (;;) {
		unsigned long long t = atomic_fetch_add_explicit(&p->ticket, 1, memory_order_acq_rel);
		unsigned idx = (unsigned)t, np = (unsigned)(t >> 32) & 0xff, g = (unsigned)(t >> 40);
		if (idx >= np)
			return;
		size_t lo, hi;
		part_of(p->job[g & 1].n, (int)np, (int)idx, &lo, &hi);
		if (hi > lo)
			memcpy(p->job[g & 1].dst + lo, p->job[g & 1].src + lo, hi - lo);
		atomic_fetch_add_explicit(&p->done[g & 1], 1, memory_order_release);
	}
}

static void *worker_main(void *arg)
{
	RtPool *p = arg;
	unsigned last = (unsigned)(atomic_load(&p->ticket) >> 40);
	for (;;) {
		unsigned g;
		long long t0 = 0;
		int spins = 0;
		while ((g = (unsigned)(atomic_load_explicit(&p->ticket, memory_order_acquire) >> 40)) == last) {
			if (++spins < 256) {
				cpu_relax();
				continue;
			}
			spins = 0;
			if (!t0) {
				t0 = now_ns();
			} else if (now_ns() - t0 > SPIN_NS) {
				pthread_mutex_lock(&p->m);
				atomic_fetch_add(&p->sleepers, 1);
				while ((unsigned)(atomic_load(&p->ticket) >> 40) == last)
					pthread_cond_wait(&p->cv, &p->m);
				atomic_fetch_sub(&p->sleepers, 1);
				pthread_mutex_unlock(&p->m);
				t0 = 0;
			}
		}
		last = g;
		take_parts(p);
	}
	return NULL;
}

/* In a child of fork() the workers are gone: start afresh. */
static void after_fork_in_child(void)
{
	RtPool *p = the_pool;
	if (!p)
		return;
	p->started = 0;
	atomic_store(&p->sleepers, 0);
	pthread_mutex_init(&p->m, NULL);
	pthread_cond_init(&p->cv, NULL);
}

static void register_fork_handler(void)
{
	pthread_atfork(NULL, NULL, after_fork_in_child);
}

/* Makes sure `want - 1` workers run (fewer if threads cannot be made). */
static RtPool *pool_start(Rt *rt, int want)
{
	if (!rt->pool) {
		RtPool *p = calloc(1, sizeof *p);
		if (!p)
			return NULL;
		pthread_mutex_init(&p->m, NULL);
		pthread_cond_init(&p->cv, NULL);
		atomic_init(&p->ticket, 0);
		atomic_init(&p->done[0], 0);
		atomic_init(&p->done[1], 0);
		atomic_init(&p->sleepers, 0);
		rt->pool = p;
		the_pool = p;
		pthread_once(&fork_once, register_fork_handler);
	}
	RtPool *p = rt->pool;
	while (p->started < want - 1) {
		pthread_t th;
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		int rc = pthread_create(&th, &at, worker_main, p);
		pthread_attr_destroy(&at);
		if (rc != 0)
			break;
		p->started++;
	}
	return p->started ? p : NULL;
}

/* memcpy, split among the copy threads when n is large. */
static void pcopy(Rt *rt, void *dst, const void *src, size_t n)
{
	int np = rt->copy_threads;
	RtPool *p;
	if (np > 1 && n >= RT_PAR_MIN) {
		size_t most = n / (RT_PAR_MIN / 2);
		if ((size_t)np > most)
			np = (int)most;
	}
	if (np <= 1 || n < RT_PAR_MIN || !(p = pool_start(rt, np))) {
		memcpy(dst, src, n);
		return;
	}
	unsigned g = ++p->gen & 0xffffff;
	p->job[g & 1].dst = dst;
	p->job[g & 1].src = src;
	p->job[g & 1].n = n;
	atomic_store_explicit(&p->done[g & 1], 0, memory_order_relaxed);
	/* seq_cst, with the load below: a worker about to sleep either sees
	 * the job or is seen as a sleeper */
	atomic_store(&p->ticket, (unsigned long long)g << 40 | (unsigned long long)np << 32);
	if (atomic_load(&p->sleepers)) {
		pthread_mutex_lock(&p->m);
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->m);
	}
	take_parts(p);
	while (atomic_load_explicit(&p->done[g & 1], memory_order_acquire) < np)
		cpu_relax();
}

/* ------------------------------------------------------------ the ring */

static size_t env_size(const char *name, size_t dflt)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return dflt;
	char *end;
	double v = strtod(s, &end);
	if (end == s || v <= 0)
		return dflt;
	if (*end == 'k' || *end == 'K')
		v *= 1024;
	else if (*end == 'm' || *end == 'M')
		v *= 1024 * 1024;
	return (size_t)v;
}

static size_t clamp_chunk(size_t c)
{
	size_t lo = (size_t)64 << 10, hi = (size_t)64 << 20;
	c = c < lo ? lo : c > hi ? hi : c;
	return (c + 4095) & ~(size_t)4095;
}

void rt_xfer_init(Rt *rt)
{
	pthread_mutex_init(&rt->xfer_lock, NULL);
	const char *mode = getenv("PTXJIT_TRANSFER");
	rt->xfer_mode = !mode ? RT_XFER_STAGED : strcmp(mode, "driver") == 0 ? RT_XFER_DRIVER
	              : strcmp(mode, "register") == 0 ? RT_XFER_REGISTER : RT_XFER_STAGED;
	rt->chunk = clamp_chunk(env_size("PTXJIT_STAGE_CHUNK", (size_t)1 << 20));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int threads = ncpu >= 16 ? 4 : ncpu >= 8 ? 3 : ncpu >= 4 ? 2 : 1;
	const char *t = getenv("PTXJIT_COPY_THREADS");
	if (t && *t)
		threads = atoi(t);
	rt->copy_threads = threads < 1 ? 1 : threads > RT_MAXCOPY ? RT_MAXCOPY : threads;
}

static void free_ring_locked(Rt *rt)
{
	for (int i = 0; i < rt->nring; i++) {
		RtSlot *sl = &rt->ring[i];
		if (sl->busy && rt->state == RT_READY && !rt->sticky)
			rt->d.cuEventSynchronize(sl->done);
		if (sl->done)
			rt->d.cuEventDestroy_v2(sl->done);
		if (sl->p)
			rt->d.cuMemFreeHost(sl->p);
		memset(sl, 0, sizeof *sl);
	}
	rt->nring = 0;
	rt->ring_next = 0;
}

void rt_free_ring(Rt *rt)
{
	pthread_mutex_lock(&rt->xfer_lock);
	if (!rt->sim)
		free_ring_locked(rt);
	pthread_mutex_unlock(&rt->xfer_lock);
}

int rt_set_transfer(Rt *rt, int mode, long chunk, int threads, RtErr *e)
{
	if (mode > RT_XFER_REGISTER || (chunk >= 0 && chunk < 1) || threads == 0 || threads > RT_MAXCOPY)
		return rt_fail_rt(e, RT_E_ARG, "bad setting",
		                  "transfer settings: mode 'staged', 'register' or 'driver', chunk >= 1 byte, "
		                  "1 to %d threads",
		                  RT_MAXCOPY);
	pthread_mutex_lock(&rt->xfer_lock);
	if (mode >= 0)
		rt->xfer_mode = mode;
	if (threads > 0)
		rt->copy_threads = threads;
	if (chunk > 0 && clamp_chunk((size_t)chunk) != rt->chunk) {
		if (!rt->sim)
			free_ring_locked(rt);
		rt->chunk = clamp_chunk((size_t)chunk);
	}
	pthread_mutex_unlock(&rt->xfer_lock);
	return 0;
}

/* Makes the ring's slots; 0 when they are there. */
static int ring_ready(Rt *rt)
{
	while (rt->nring < RT_RING) {
		RtSlot *sl = &rt->ring[rt->nring];
		memset(sl, 0, sizeof *sl);
		if (rt->d.cuEventCreate(&sl->done, CU_EVENT_DISABLE_TIMING_) != CUDA_SUCCESS) {
			sl->done = NULL;
			return -1;
		}
		void *p = NULL;
		if (rt->d.cuMemHostAlloc(&p, rt->chunk, CU_MEMHOSTALLOC_PORTABLE_) != CUDA_SUCCESS) {
			rt->d.cuEventDestroy_v2(sl->done);
			sl->done = NULL;
			return -1;
		}
		sl->p = p;
		rt->nring++;
	}
	return 0;
}

/* The next slot, once the DMA that last used it is over. */
static int take_slot(Rt *rt, RtSlot **out, RtErr *e)
{
	RtSlot *sl = &rt->ring[rt->ring_next];
	rt->ring_next = (rt->ring_next + 1) % RT_RING;
	if (sl->busy) {
		CHECK(rt->d.cuEventSynchronize(sl->done), "cuEventSynchronize (a staging buffer of kernel arguments)");
		sl->busy = 0;
	}
	*out = sl;
	return 0;
}

static int close_slot(Rt *rt, RtSlot *sl, CUstream s, RtErr *e)
{
	CHECK(rt->d.cuEventRecord(sl->done, s), "cuEventRecord (a staging buffer of kernel arguments)");
	sl->busy = 1;
	return 0;
}

/* What slot number k of a call holds. */
static size_t slot_cap(Rt *rt, int k)
{
	size_t c = k < 20 ? RT_RAMP << k : rt->chunk;
	return c < rt->chunk ? c : rt->chunk;
}

/* Whether this call goes through the ring (it is made if need be; when
 * pinned memory cannot be had, this call's copies go to the driver). */
static int use_ring(Rt *rt)
{
	return rt->xfer_mode != RT_XFER_DRIVER && ring_ready(rt) == 0;
}

/* Whether x can go to the DMA as it is: pinned memory, or (register
 * mode) a big array that could be page-locked now (x->reg = which). */
static int direct(Rt *rt, RtXfer *x, int which)
{
	if (x->reg || rt_is_pinned(rt, x->host, x->n))
		return 1;
	if (rt->xfer_mode != RT_XFER_REGISTER || x->n < RT_REG_MIN)
		return 0;
	if (rt->d.cuMemHostRegister_v2(x->host, x->n, CU_MEMHOSTALLOC_PORTABLE_) != CUDA_SUCCESS)
		return 0;       /* a page shared with a registered neighbour, say: staged */
	x->reg = which;
	return 1;
}

void rt_unregister_xfers(Rt *rt, RtXfer *x, int n, int which)
{
	for (int i = 0; i < n; i++)
		if (x[i].reg == which) {
			x[i].reg = 0;
			if (!rt->sim && rt->state == RT_READY)
				rt->d.cuMemHostUnregister(x[i].host);
		}
}

static int put_locked(Rt *rt, RtXfer *x, int n, CUstream s, RtErr *e)
{
	int staged = n > 0 && use_ring(rt), nslots = 0;
	RtSlot *sl = NULL;
	size_t pos = 0, cap = 0;
	for (int i = 0; i < n; i++) {
		const unsigned char *src = x[i].host;
		size_t len = x[i].n;
		if (!len)
			continue;
		rt->xfer_bytes[0] += len;
		if (!staged || direct(rt, &x[i], 1)) {
			rt->xfer_dmas++;
			CHECK(rt->d.cuMemcpyHtoDAsync_v2(x[i].dev, src, len, s),
			      "cuMemcpyHtoDAsync(%zu bytes of a NumPy kernel argument)", len);
			continue;
		}
		for (size_t off = 0; off < len;) {
			if (!sl) {
				if (take_slot(rt, &sl, e))
					return -1;
				pos = 0;
				cap = slot_cap(rt, nslots++);
			}
			size_t m = len - off < cap - pos ? len - off : cap - pos;
			pcopy(rt, sl->p + pos, src + off, m);
			rt->xfer_dmas++;
			CHECK(rt->d.cuMemcpyHtoDAsync_v2(x[i].dev + off, sl->p + pos, m, s),
			      "cuMemcpyHtoDAsync(%zu bytes of a NumPy kernel argument, staged)", m);
			pos += m;
			off += m;
			if (pos == cap) {
				RtSlot *full = sl;
				sl = NULL;
				if (close_slot(rt, full, s, e))
					return -1;
			}
		}
	}
	if (sl && close_slot(rt, sl, s, e))
		return -1;
	return 0;
}

/* After a failed call: a slot may have a DMA queued and no event yet;
 * waiting for the stream makes every slot free again. */
static void settle(Rt *rt, CUstream s)
{
	rt->d.cuStreamSynchronize(s);
}

int rt_put(Rt *rt, RtXfer *x, int n, CUstream s, RtErr *e)
{
	if (rt->sim) {
		for (int i = 0; i < n; i++)
			if (x[i].n)
				memmove((void *)(uintptr_t)x[i].dev, x[i].host, x[i].n);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	pthread_mutex_lock(&rt->xfer_lock);
	int rc = put_locked(rt, x, n, s, e);
	if (rc)
		settle(rt, s);
	pthread_mutex_unlock(&rt->xfer_lock);
	return rc;
}

/* A slot on its way back: the copies out of it. */
typedef struct Flight {
	RtSlot *sl;
	int np;
	struct { unsigned char *host; size_t at, n; } pc[RT_PIECES];
} Flight;

/* Waits for the oldest slot in flight and copies it out. */
static int land(Rt *rt, Flight *f, RtErr *e)
{
	CHECK(rt->d.cuEventSynchronize(f->sl->done), "cuEventSynchronize (the copy back of a NumPy kernel argument)");
	f->sl->busy = 0;
	for (int j = 0; j < f->np; j++)
		pcopy(rt, f->pc[j].host, f->sl->p + f->pc[j].at, f->pc[j].n);
	return 0;
}

static int get_locked(Rt *rt, RtXfer *x, int n, CUstream s, RtErr *e)
{
	Flight fl[RT_RING];
	int staged = n > 0 && use_ring(rt), head = 0, count = 0, cur = -1, nslots = 0;
	size_t pos = 0, cap = 0;
	for (int i = 0; i < n; i++) {
		unsigned char *dst = x[i].host;
		size_t len = x[i].n;
		if (!len)
			continue;
		rt->xfer_bytes[1] += len;
		if (!staged || direct(rt, &x[i], 2)) {
			rt->xfer_dmas++;
			CHECK(rt->d.cuMemcpyDtoHAsync_v2(dst, x[i].dev, len, s),
			      "cuMemcpyDtoHAsync(%zu bytes: the copy back of a NumPy kernel argument)", len);
			continue;
		}
		for (size_t off = 0; off < len;) {
			if (cur < 0) {
				if (count == RT_RING) {
					if (land(rt, &fl[head], e))
						return -1;
					head = (head + 1) % RT_RING;
					count--;
				}
				cur = (head + count) % RT_RING;
				count++;
				fl[cur].np = 0;
				if (take_slot(rt, &fl[cur].sl, e))
					return -1;
				pos = 0;
				cap = slot_cap(rt, nslots++);
			}
			Flight *f = &fl[cur];
			size_t m = len - off < cap - pos ? len - off : cap - pos;
			rt->xfer_dmas++;
			CHECK(rt->d.cuMemcpyDtoHAsync_v2(f->sl->p + pos, x[i].dev + off, m, s),
			      "cuMemcpyDtoHAsync(%zu bytes: the copy back of a NumPy kernel argument, staged)", m);
			f->pc[f->np].host = dst + off;
			f->pc[f->np].at = pos;
			f->pc[f->np].n = m;
			f->np++;
			pos += m;
			off += m;
			if (pos == cap || f->np == RT_PIECES) {
				cur = -1;
				if (close_slot(rt, f->sl, s, e))
					return -1;
			}
		}
	}
	if (cur >= 0 && close_slot(rt, fl[cur].sl, s, e))
		return -1;
	for (; count > 0; count--, head = (head + 1) % RT_RING)
		if (land(rt, &fl[head], e))
			return -1;
	CHECK(rt->d.cuStreamSynchronize(s), "cuStreamSynchronize (after the copy back of NumPy kernel arguments)");
	return 0;
}

int rt_get(Rt *rt, RtXfer *x, int n, CUstream s, RtErr *e)
{
	if (rt->sim) {
		for (int i = 0; i < n; i++)
			if (x[i].n)
				memmove(x[i].host, (const void *)(uintptr_t)x[i].dev, x[i].n);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	pthread_mutex_lock(&rt->xfer_lock);
	int rc = get_locked(rt, x, n, s, e);
	if (rc)
		settle(rt, s);
	pthread_mutex_unlock(&rt->xfer_lock);
	return rc;
}

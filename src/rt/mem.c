/*
 * mem.c - device memory through a caching allocator, copies, and pinned
 * host memory.
 *
 * Allocation sizes are rounded up to a size class: 512 bytes at least,
 * then four classes per power of two (so at most 25% is wasted).  A
 * released block goes onto its class's list and the next allocation of
 * that class takes it back without calling the driver; the lists are
 * emptied by rt_trim (cuda.close()) and when the driver runs out of
 * memory, after which the allocation is tried once more.  Blocks above
 * RT_HUGE are not cached: they are allocated at their size (rounded to
 * 2 MiB) and returned to the driver when released.
 *
 * A block knows its class only through the size the caller asked for,
 * which the caller keeps (DeviceArray does) and hands back to
 * rt_release.  Blocks of an older context generation (before rt_close)
 * are gone with their context and are dropped.
 *
 * In the simulator the same allocator hands out host memory, each block
 * its own anonymous mapping (page-aligned, zeroed when new), so the
 * caching is exercised without a GPU, and a block can be moved onto a
 * memfd in place for another process to map (rt_sim_share, IPC handles)
 * without touching any other memory.
 *
 * Pinned host memory is ordinary aligned host memory registered with the
 * driver (cuMemHostRegister): when the context goes away the memory stays
 * valid, merely unpinned, so NumPy arrays built on it never dangle.
 * Mapped host memory (cuda.mapped_array) is registered the same way with
 * DEVICEMAP, and kernels reach it at the address
 * cuMemHostGetDevicePointer gives (the host address in the simulator).
 *
 * An asynchronous copy from pageable host memory (to_device(a, stream=s))
 * goes through a pinned staging buffer: the data is copied there, the DMA
 * is queued on the stream, an event marks when the buffer is free again,
 * and the call returns.  (The driver would otherwise copy synchronously.)
 * A copy to pageable memory on a stream (copy_to_host(stream=s)) goes the
 * other way: the DMA fills a staging buffer, and a host function that
 * the driver runs when the stream reaches it (cuLaunchHostFunc) copies
 * the bytes out; the call returns at once.  Without a stream, copies to
 * pageable memory are synchronous.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* memfd_create, whatever CFLAGS a build passes */
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt.h"

#define RT_PAGE ((size_t)4096)

#define RT_HUGE ((size_t)1 << 30)
#define RT_MAX_ALLOC ((size_t)1 << 46)

size_t rt_size_class(size_t n, int *bin)
{
	if (n <= 512) {
		*bin = 0;
		return 512;
	}
	if (n > RT_HUGE) {
		*bin = -1;
		size_t g = (size_t)2 << 20;
		return (n + g - 1) / g * g;
	}
	int ex = 63 - __builtin_clzll((unsigned long long)(n - 1));
	size_t base = (size_t)1 << ex, step = base >> 2;
	size_t k = (n - base + step - 1) / step;
	*bin = 1 + (ex - 9) * 4 + (int)(k - 1);
	return base + k * step;
}

/* The index of the first simulated block at or above address a. */
static int sim_find(const Rt *rt, uintptr_t a)
{
	int lo = 0, hi = rt->nsim;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (rt->simblk[mid].lo < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int sim_note(Rt *rt, uintptr_t a, size_t len)
{
	pthread_mutex_lock(&rt->sim_lock);
	if (rt->nsim == rt->capsim) {
		int cap = rt->capsim ? rt->capsim * 2 : 64;
		struct RtSimBlock *b = realloc(rt->simblk, (size_t)cap * sizeof *b);
		if (!b) {
			pthread_mutex_unlock(&rt->sim_lock);
			return -1;
		}
		rt->simblk = b;
		rt->capsim = cap;
	}
	int k = sim_find(rt, a);
	memmove(rt->simblk + k + 1, rt->simblk + k, (size_t)(rt->nsim - k) * sizeof *rt->simblk);
	rt->simblk[k] = (struct RtSimBlock){a, len, len, -1};
	rt->nsim++;
	pthread_mutex_unlock(&rt->sim_lock);
	return 0;
}

/* Drops block a from the list; its length (0 if unknown), and the memfd
 * it was shared through closed. */
static size_t sim_forget(Rt *rt, uintptr_t a)
{
	size_t len = 0;
	pthread_mutex_lock(&rt->sim_lock);
	int k = sim_find(rt, a);
	if (k < rt->nsim && rt->simblk[k].lo == a) {
		len = rt->simblk[k].len;
		if (rt->simblk[k].fd >= 0)
			close(rt->simblk[k].fd);
		memmove(rt->simblk + k, rt->simblk + k + 1, (size_t)(rt->nsim - k - 1) * sizeof *rt->simblk);
		rt->nsim--;
	}
	if (rt->nsim == 0) {   /* the last block gone (rt_trim, close): the list too */
		free(rt->simblk);
		rt->simblk = NULL;
		rt->capsim = 0;
	}
	pthread_mutex_unlock(&rt->sim_lock);
	return len;
}

static size_t page_round(size_t n)
{
	return (n + RT_PAGE - 1) / RT_PAGE * RT_PAGE;
}

int rt_sim_share(Rt *rt, uint64_t lo, uint64_t len, int *fd, uint64_t *base, size_t *size, RtErr *e)
{
	*fd = -1;
	if (!rt->sim)
		return rt_fail_rt(e, RT_E_ARG, "not simulated", "only the simulator shares its memory through a memfd");
	pthread_mutex_lock(&rt->sim_lock);
	int k = sim_find(rt, (uintptr_t)lo + 1) - 1;
	if (k < 0 || lo < rt->simblk[k].lo || lo + len > rt->simblk[k].lo + rt->simblk[k].len) {
		pthread_mutex_unlock(&rt->sim_lock);
		return rt_fail_rt(e, RT_E_ARG, "not ours", "the array's memory was not allocated by ptxjit's simulator "
		                  "(another library's, or a NumPy array's): only device arrays from cuda.to_device, "
		                  "cuda.device_array and the like can be shared");
	}
	void *p = (void *)rt->simblk[k].lo;
	*base = rt->simblk[k].lo;
	*size = page_round(rt->simblk[k].len);
	if (rt->simblk[k].fd < 0) {
		int f = memfd_create("ptxjit-ipc", MFD_CLOEXEC);
		int ok = f >= 0 && ftruncate(f, (off_t)*size) == 0 && pwrite(f, p, *size, 0) == (ssize_t)*size &&
		         mmap(p, *size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, f, 0) == p;
		if (!ok) {
			if (f >= 0)
				close(f);
			pthread_mutex_unlock(&rt->sim_lock);
			return rt_fail_rt(e, RT_E_HOSTMEM, "cannot share",
			                  "cannot share %zu bytes of the simulator's device memory through a memfd", *size);
		}
		rt->simblk[k].fd = f;
	}
	*fd = rt->simblk[k].fd;
	pthread_mutex_unlock(&rt->sim_lock);
	return 0;
}

int rt_sim_holds(Rt *rt, uint64_t lo, uint64_t len)
{
	if (!rt->sim || lo + len < lo)
		return 0;
	pthread_mutex_lock(&rt->sim_lock);
	int k = sim_find(rt, (uintptr_t)lo + 1) - 1;   /* the last block starting at or below lo */
	int ok = k >= 0 && lo >= rt->simblk[k].lo && lo + len <= rt->simblk[k].lo + rt->simblk[k].len;
	pthread_mutex_unlock(&rt->sim_lock);
	return ok;
}

int rt_sim_block(Rt *rt, uint64_t a, uint64_t *lo, uint64_t *len)
{
	if (!rt->sim)
		return 0;
	pthread_mutex_lock(&rt->sim_lock);
	int k = sim_find(rt, (uintptr_t)a + 1) - 1;   /* the last block starting at or below a */
	int ok = k >= 0 && a >= rt->simblk[k].lo && a <= rt->simblk[k].lo + rt->simblk[k].used;
	if (ok) {
		*lo = rt->simblk[k].lo;
		*len = rt->simblk[k].used;
	}
	pthread_mutex_unlock(&rt->sim_lock);
	return ok;
}

/* SIM: block p now holds an array of n bytes (rt_sim_block's bounds). */
static void sim_used(Rt *rt, CUdeviceptr p, size_t n)
{
	pthread_mutex_lock(&rt->sim_lock);
	int k = sim_find(rt, (uintptr_t)p);
	if (k < rt->nsim && rt->simblk[k].lo == (uintptr_t)p)
		rt->simblk[k].used = n;
	pthread_mutex_unlock(&rt->sim_lock);
}

static int raw_alloc(Rt *rt, size_t size, CUdeviceptr *p, CUresult *r)
{
	if (rt->sim) {
		void *q = mmap(NULL, page_round(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q == MAP_FAILED)
			return -1;
		if (sim_note(rt, (uintptr_t)q, size)) {
			munmap(q, page_round(size));
			return -1;
		}
		*p = (CUdeviceptr)(uintptr_t)q;
		return 0;
	}
	*r = rt->d.cuMemAlloc_v2(p, size);
	return *r == CUDA_SUCCESS ? 0 : -1;
}

static void raw_free(Rt *rt, CUdeviceptr p)
{
	RtErr ignored;
	if (rt->sim) {
		size_t len = sim_forget(rt, (uintptr_t)p);
		if (len)
			munmap((void *)(uintptr_t)p, page_round(len));
	} else if (rt->state == RT_READY && !rt->sticky && rt_enter(rt, &ignored) == 0)
		rt->d.cuMemFree_v2(p);
}

int rt_alloc(Rt *rt, size_t n, CUdeviceptr *p, RtErr *e)
{
	*p = 0;
	if (n == 0)
		return 0;
	if (n > RT_MAX_ALLOC)
		return rt_fail_rt(e, RT_E_ARG, "too large", "cannot allocate %zu bytes of device memory", n);
	if (rt_enter(rt, e))
		return -1;
	int bin;
	size_t size = rt_size_class(n, &bin);
	if (bin >= 0) {
		pthread_mutex_lock(&rt->lock);
		RtBlock *b = rt->cache.bin[bin];
		if (b) {
			rt->cache.bin[bin] = b->next;
			b->next = rt->cache.spare;
			rt->cache.spare = b;
			*p = b->ptr;
			rt->cache.cached_bytes -= size;
			rt->cache.live_bytes += size;
			rt->cache.hits++;
		}
		pthread_mutex_unlock(&rt->lock);
		if (*p) {
			if (rt->sim)
				sim_used(rt, *p, n);
			return 0;
		}
	}
	CUresult r = CUDA_SUCCESS;
	if (raw_alloc(rt, size, p, &r)) {
		rt_trim(rt);
		if (raw_alloc(rt, size, p, &r)) {
			if (rt->sim)
				return rt_fail_rt(e, RT_E_HOSTMEM, "out of memory",
				                  "out of host memory allocating %zu bytes for a simulated device array", n);
			return rt_fail(rt, e, r, "cuMemAlloc(%zu bytes)", size);
		}
	}
	pthread_mutex_lock(&rt->lock);
	rt->cache.live_bytes += size;
	rt->cache.driver_allocs++;
	pthread_mutex_unlock(&rt->lock);
	if (rt->sim)
		sim_used(rt, *p, n);
	return 0;
}

void rt_release(Rt *rt, CUdeviceptr p, size_t n, unsigned gen)
{
	if (!p || n == 0)
		return;
	int bin;
	size_t size = rt_size_class(n, &bin);
	pthread_mutex_lock(&rt->lock);
	if (!rt->sim && gen != rt->gen) {
		pthread_mutex_unlock(&rt->lock);
		return;
	}
	rt->cache.live_bytes -= size;
	if (bin < 0) {
		pthread_mutex_unlock(&rt->lock);
		raw_free(rt, p);
		return;
	}
	RtBlock *b = rt->cache.spare;
	if (b)
		rt->cache.spare = b->next;
	else
		b = malloc(sizeof *b);
	if (!b) {
		pthread_mutex_unlock(&rt->lock);
		raw_free(rt, p);
		return;
	}
	b->ptr = p;
	b->next = rt->cache.bin[bin];
	rt->cache.bin[bin] = b;
	rt->cache.cached_bytes += size;
	pthread_mutex_unlock(&rt->lock);
}

/* The blocks are taken out of the cache under the lock and freed after:
 * cuMemFree waits for the device, and a stream callback may be what it
 * waits for, holding the GIL while it wants the lock (an array it
 * releases). */
void rt_trim(Rt *rt)
{
	RtBlock *all = NULL;
	pthread_mutex_lock(&rt->lock);
	for (int i = 0; i < RT_NBINS; i++) {
		RtBlock *b = rt->cache.bin[i], *next;
		for (; b; b = next) {
			next = b->next;
			b->next = all;
			all = b;
		}
		rt->cache.bin[i] = NULL;
	}
	for (RtBlock *b = rt->cache.spare, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	rt->cache.spare = NULL;
	rt->cache.cached_bytes = 0;
	pthread_mutex_unlock(&rt->lock);
	for (RtBlock *b = all, *next; b; b = next) {
		next = b->next;
		raw_free(rt, b->ptr);
		free(b);
	}
}

void rt_mem_stats(Rt *rt, RtMemStats *s)
{
	pthread_mutex_lock(&rt->lock);
	s->cached_bytes = rt->cache.cached_bytes;
	s->live_bytes = rt->cache.live_bytes;
	s->driver_allocs = rt->cache.driver_allocs;
	s->hits = rt->cache.hits;
	s->cached_blocks = 0;
	for (int i = 0; i < RT_NBINS; i++)
		for (const RtBlock *b = rt->cache.bin[i]; b; b = b->next)
			s->cached_blocks++;
	pthread_mutex_unlock(&rt->lock);
}

#define CHECK(call, ...) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) return rt_fail(rt, e, r_, __VA_ARGS__); } while (0)

#define RT_STAGE_MIN ((size_t)64 << 10)
#define RT_STAGE_MAX ((size_t)64 << 20)

/* A staging buffer of at least n bytes that no queued copy reads, or NULL
 * (then the copy goes without one).  rt->lock is held: a smaller buffer
 * it replaces goes to *old, for the caller to free (cuMemFreeHost) once
 * the lock is let go, since that call waits for the device. */
static RtStage *free_stage(Rt *rt, size_t n, void **old)
{
	RtStage *best = NULL, *spare = NULL;
	for (int i = 0; i < rt->nstage; i++) {
		RtStage *st = &rt->stage[i];
		if (rt->d.cuEventQuery(st->done) != CUDA_SUCCESS)
			continue;
		if (st->cap >= n && (!best || st->cap < best->cap))
			best = st;
		else if (st->cap < n)
			spare = st;
	}
	if (best)
		return best;
	RtStage *st = NULL;
	if (rt->nstage < RT_NSTAGE) {
		st = &rt->stage[rt->nstage];
		memset(st, 0, sizeof *st);
		if (rt->d.cuEventCreate(&st->done, 2 /* CU_EVENT_DISABLE_TIMING */) != CUDA_SUCCESS)
			return NULL;
		rt->nstage++;
	} else if (spare) {
		st = spare;
		*old = st->p;
		st->p = NULL;
		st->cap = 0;
	} else {
		return NULL;
	}
	size_t cap = (n + ((size_t)1 << 20) - 1) & ~(((size_t)1 << 20) - 1);
	if (rt->d.cuMemHostAlloc(&st->p, cap, 1 /* CU_MEMHOSTALLOC_PORTABLE */) != CUDA_SUCCESS) {
		st->p = NULL;
		return NULL;
	}
	st->cap = cap;
	return st;
}

void rt_free_stages(Rt *rt)
{
	RtStage stage[RT_NSTAGE];
	pthread_mutex_lock(&rt->lock);
	int n = rt->nstage;
	memcpy(stage, rt->stage, (size_t)n * sizeof *stage);
	rt->nstage = 0;
	pthread_mutex_unlock(&rt->lock);
	for (int i = 0; i < n; i++) {
		if (stage[i].done)
			rt->d.cuEventDestroy_v2(stage[i].done);
		if (stage[i].p)
			rt->d.cuMemFreeHost(stage[i].p);
	}
}

int rt_htod(Rt *rt, CUdeviceptr dst, const void *src, size_t n, CUstream s, int async, RtErr *e)
{
	if (n == 0)
		return 0;
	if (rt->sim) {
		memmove((void *)(uintptr_t)dst, src, n);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	if (async == 1 && n >= RT_STAGE_MIN && n <= RT_STAGE_MAX && !rt_is_pinned(rt, src, n)) {
		void *old = NULL;
		pthread_mutex_lock(&rt->lock);
		RtStage *st = free_stage(rt, n, &old);
		CUresult r = CUDA_SUCCESS;
		if (st) {
			memcpy(st->p, src, n);
			r = rt->d.cuMemcpyHtoDAsync_v2(dst, st->p, n, s);
			if (r == CUDA_SUCCESS)
				r = rt->d.cuEventRecord(st->done, s);
			rt->staged_copies++;
		}
		pthread_mutex_unlock(&rt->lock);
		if (old)
			rt->d.cuMemFreeHost(old);
		if (st) {
			if (r != CUDA_SUCCESS)
				return rt_fail(rt, e, r, "cuMemcpyHtoDAsync(%zu bytes to a device array, staged)", n);
			return 0;
		}
	}
	if (async)
		CHECK(rt->d.cuMemcpyHtoDAsync_v2(dst, src, n, s), "cuMemcpyHtoDAsync(%zu bytes to a device array)", n);
	else
		CHECK(rt->d.cuMemcpyHtoD_v2(dst, src, n), "cuMemcpyHtoD(%zu bytes to a device array)", n);
	return 0;
}

int rt_dtoh(Rt *rt, void *dst, CUdeviceptr src, size_t n, CUstream s, int async, RtErr *e)
{
	if (n == 0)
		return 0;
	if (rt->sim) {
		memmove(dst, (const void *)(uintptr_t)src, n);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	if (async)
		CHECK(rt->d.cuMemcpyDtoHAsync_v2(dst, src, n, s), "cuMemcpyDtoHAsync(%zu bytes from a device array)", n);
	else
		CHECK(rt->d.cuMemcpyDtoH_v2(dst, src, n), "cuMemcpyDtoH(%zu bytes from a device array)", n);
	return 0;
}

/* Runs on a driver thread: no driver calls here. */
static void host_copy(void *arg)
{
	RtHostCopy *j = arg;
	memcpy(j->dst, j->src, j->n);
	atomic_store_explicit(&j->done, 1, memory_order_release);
}

int rt_dtoh_async(Rt *rt, void *dst, CUdeviceptr src, size_t n, CUstream s, RtHostCopy **job, RtErr *e)
{
	*job = NULL;
	if (n == 0)
		return 0;
	if (rt->sim) {
		memmove(dst, (const void *)(uintptr_t)src, n);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	RtHostCopy *j;
	if (n >= RT_STAGE_MIN && n <= RT_STAGE_MAX && !rt_is_pinned(rt, dst, n) && (j = malloc(sizeof *j))) {
		CUresult r = CUDA_SUCCESS;
		int queued = 0;
		void *old = NULL;
		pthread_mutex_lock(&rt->lock);
		RtStage *st = free_stage(rt, n, &old);
		if (st) {
			j->dst = dst;
			j->src = st->p;
			j->n = n;
			atomic_init(&j->done, 0);
			r = rt->d.cuMemcpyDtoHAsync_v2(st->p, src, n, s);
			if (r == CUDA_SUCCESS && (r = rt->d.cuLaunchHostFunc(s, host_copy, j)) == CUDA_SUCCESS)
				queued = 1;
			if (queued)
				r = rt->d.cuEventRecord(st->done, s);
			rt->staged_copies++;
		}
		pthread_mutex_unlock(&rt->lock);
		if (old)
			rt->d.cuMemFreeHost(old);
		if (queued)
			*job = j;      /* the host function will touch j: the caller keeps it */
		else
			free(j);
		if (st) {
			if (r != CUDA_SUCCESS)
				return rt_fail(rt, e, r, "cuMemcpyDtoHAsync(%zu bytes from a device array, staged)", n);
			return 0;
		}
	}
	CHECK(rt->d.cuMemcpyDtoHAsync_v2(dst, src, n, s), "cuMemcpyDtoHAsync(%zu bytes from a device array)", n);
	return 0;
}

int rt_dtod(Rt *rt, CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s, int async, RtErr *e)
{
	if (n == 0)
		return 0;
	if (rt->sim) {
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	if (async)
		CHECK(rt->d.cuMemcpyDtoDAsync_v2(dst, src, n, s), "cuMemcpyDtoDAsync(%zu bytes between device arrays)", n);
	else
		CHECK(rt->d.cuMemcpyDtoD_v2(dst, src, n), "cuMemcpyDtoD(%zu bytes between device arrays)", n);
	return 0;
}

int rt_memset(Rt *rt, CUdeviceptr dst, int byte, size_t n, RtErr *e)
{
	if (n == 0)
		return 0;
	if (rt->sim) {
		memset((void *)(uintptr_t)dst, byte, n);
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuMemsetD8_v2(dst, (unsigned char)byte, n), "cuMemsetD8(%zu bytes of a device array)", n);
	return 0;
}

static int add_pinned(Rt *rt, void *p, size_t n)
{
	pthread_mutex_lock(&rt->lock);
	if (rt->npinned == rt->cappinned) {
		int cap = rt->cappinned ? rt->cappinned * 2 : 16;
		RtPinned *q = realloc(rt->pinned, (size_t)cap * sizeof *q);
		if (!q) {
			pthread_mutex_unlock(&rt->lock);
			return -1;
		}
		rt->pinned = q;
		rt->cappinned = cap;
	}
	rt->pinned[rt->npinned++] = (RtPinned){p, n};
	pthread_mutex_unlock(&rt->lock);
	return 0;
}

/* Removes p from the pinned list; 1 if it was there. */
static int drop_pinned(Rt *rt, void *p)
{
	int found = 0;
	pthread_mutex_lock(&rt->lock);
	for (int i = 0; i < rt->npinned; i++)
		if (rt->pinned[i].p == p) {
			rt->pinned[i] = rt->pinned[--rt->npinned];
			found = 1;
			break;
		}
	pthread_mutex_unlock(&rt->lock);
	return found;
}

int rt_is_pinned(Rt *rt, const void *p, size_t n)
{
	int yes = 0;
	const char *c = p;
	pthread_mutex_lock(&rt->lock);
	for (int i = 0; i < rt->npinned && !yes; i++) {
		const char *b = rt->pinned[i].p;
		yes = c >= b && c + n <= b + rt->pinned[i].n;
	}
	pthread_mutex_unlock(&rt->lock);
	return yes;
}

static int pin(Rt *rt, void *p, size_t n, unsigned flags, RtErr *e)
{
	if (!rt->sim) {
		if (rt_enter(rt, e))
			return -1;
		CHECK(rt->d.cuMemHostRegister_v2(p, n, flags), "cuMemHostRegister(%zu bytes: %s host memory)", n,
		      flags & RT_HOSTREG_DEVICEMAP ? "mapping" : "pinning");
	}
	if (add_pinned(rt, p, n)) {
		if (!rt->sim)
			rt->d.cuMemHostUnregister(p);
		return rt_fail_rt(e, RT_E_HOSTMEM, "out of memory", "out of host memory");
	}
	return 0;
}

int rt_host_register(Rt *rt, void *p, size_t n, RtErr *e)
{
	return n == 0 ? 0 : pin(rt, p, n, RT_HOSTREG_PORTABLE, e);
}

int rt_host_map(Rt *rt, void *p, size_t n, CUdeviceptr *dev, RtErr *e)
{
	*dev = (CUdeviceptr)(uintptr_t)p;
	if (n == 0 || pin(rt, p, n, RT_HOSTREG_PORTABLE | RT_HOSTREG_DEVICEMAP, e))
		return n == 0 ? 0 : -1;
	if (rt->sim)
		return 0;
	CUresult (*get)(CUdeviceptr *, void *, unsigned) = NULL;
	void *sym = rt_driver_sym(rt, "cuMemHostGetDevicePointer_v2", e);
	memcpy(&get, &sym, sizeof get);
	CUresult r = get ? get(dev, p, 0) : CUDA_SUCCESS;
	if (get && r == CUDA_SUCCESS)
		return 0;
	RtErr ignored;
	rt_host_unregister(rt, p, &ignored);
	if (!get)
		return -1;
	return rt_fail(rt, e, r, "cuMemHostGetDevicePointer (the device address of mapped host memory)");
}

int rt_host_unregister(Rt *rt, void *p, RtErr *e)
{
	if (!drop_pinned(rt, p) || rt->sim)
		return 0;
	if (rt_enter(rt, e))
		return -1;
	CHECK(rt->d.cuMemHostUnregister(p), "cuMemHostUnregister (unpinning host memory)");
	return 0;
}

int rt_host_alloc(Rt *rt, size_t n, void **p, CUdeviceptr *dev, RtErr *e)
{
	size_t page = 4096, size = (n + page - 1) / page * page;
	if (size == 0)
		size = page;
	if (posix_memalign(p, page, size) != 0)
		return rt_fail_rt(e, RT_E_HOSTMEM, "out of memory",
		                  "out of host memory allocating %zu bytes of %s memory", n,
		                  dev ? "mapped" : "pinned");
	if (dev ? rt_host_map(rt, *p, size, dev, e) : rt_host_register(rt, *p, size, e)) {
		free(*p);
		*p = NULL;
		return -1;
	}
	return 0;
}

void rt_host_free(Rt *rt, void *p)
{
	if (!p)
		return;
	RtErr ignored;
	rt_host_unregister(rt, p, &ignored);
	free(p);
}

/*
 * guard.c - the simulator's memory guard: every load, store and atomic
 * (and print's read of its argument buffer) checks that the bytes it
 * touches lie inside memory the kernel may touch, so that an address the
 * compiler got wrong stops the launch with an internal error instead of
 * taking the process down or writing into memory the user did not pass.
 *
 * The bounds checks that lowering inserts (index against extent) catch
 * the user's mistakes first; an access that passes them and still falls
 * outside every region is a compiler bug, and the report says so: "ptxjit
 * internal error: the simulator caught a load from address 0x... outside
 * every array of kernel 'k' at file:line; please report".
 *
 * The regions of a launch:
 *   arguments      each array argument from its data pointer over the
 *                  bytes its extents (and, for layout A, its byte strides,
 *                  of either sign) span; a record argument over the
 *                  record's size.  The element size comes from the
 *                  argument types (sim_prepare_args, at preparation); a
 *                  program made from IR text has none, and gets 8 bytes
 *                  per element, or everything above a pointer that has
 *                  no extents;
 *   device arrays  global device arrays the kernel uses by their address
 *                  (Fn.devmem), over the bytes they span;
 *   constants      constant arrays (cuda.const.array_like, module-level
 *                  arrays frozen as constants): the program's copies;
 *   shared memory  the block's buffer, static and dynamic arrays;
 *   local memory   the running thread's own local arrays (call.c saves
 *                  and restores a function's part of them in place);
 *   CPU functions  the out buffer for the return value, and every block
 *                  ALLOC got from the caller's allocator (np.empty etc.).
 *
 * Cost: the launch sorts its regions once (merging the ones that overlap:
 * one array passed twice, views of one buffer) into a small table.  Each
 * memory instruction has an entry in a cache (SIns.g, numbered by
 * prepare.c) made from the region its last access fell in; interp.c
 * makes one subtraction and one comparison with that entry inline (about
 * ten machine instructions per access), and only a miss calls
 * sim_guard_miss, which looks at the thread's local memory, then
 * binary-searches the table and the allocations.  A local hit is cached
 * only when the launch runs every thread in one frame, since each frame
 * has local memory of its own.  The allocations of a CPU function are
 * sorted runs of doubling sizes (a binary counter), so a function that
 * allocates n blocks in a loop pays O(log n) for each, and a lookup
 * O(log^2 n).
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

enum { GN_ARG, GN_CONST, GN_SHARED, GN_RET, GN_DEVMEM };

typedef struct GuardNamed {
	uint64_t lo, len;
	int kind;
	const char *name;
} GuardNamed;

/* ALLOC's blocks: fewer than RUN0 in buf, sorted; the rest in sorted
 * runs, run k empty or holding RUN0 << k blocks (a binary counter: a
 * full buf is merged into the runs as a carry ripples through bits). */
#define RUN0 32
#define NRUNS 40
typedef struct GuardAllocs {
	SimRegion buf[RUN0];
	int nbuf;
	SimRegion *run[NRUNS];
} GuardAllocs;

/* ------------------------------------------------------- preparation */

typedef struct Desc {
	const char *name;
	int64_t esize;
	int ndim;            /* -1: a record */
	int strided;
} Desc;

/* The arguments that point to memory, in the order lowering gives them
 * their data pointers (lower.c's lower_param_value): tuples flattened. */
static void walk(const Type *t, const char *name, Desc *out, int *n, int cap)
{
	if (!t)
		return;
	switch (t->kind) {
	case TY_TUPLE:
		for (int i = 0; i < t->n; i++)
			walk(t->elts[i], name, out, n, cap);
		break;
	case TY_ARRAY:
		if (*n < cap)
			out[*n] = (Desc){name, ty_elem_size(t->elem), t->ndim, t->layout == LAYOUT_A};
		(*n)++;
		break;
	case TY_RECORD:
		if (*n < cap)
			out[*n] = (Desc){name, t->size > 0 ? t->size : 1, -1, 0};
		(*n)++;
		break;
	default:
		break;
	}
}

static int kind_bytes(int sk)
{
	switch (sk) {
	case SK_I8: case SK_U8: case SK_BOOL: return 1;
	case SK_I16: case SK_U16: case SK_F16: case SK_BF16: return 2;
	case SK_I32: case SK_U32: case SK_F32: return 4;
	default: return 8;
	}
}

int sim_prepare_args(Ctx *c, SimProgram *p, Fn *f)
{
	p->ret_param = -1;
	int ndata = 0, nptr = 0;
	for (int i = 0; i < f->nparam; i++) {
		KParam *kp = &f->param[i];
		if (kp->off < 0 || kp->off + kind_bytes(kp->ty) > f->param_bytes)
			continue;
		if (kp->role == KP_DATA && kind_bytes(kp->ty) == 8)
			ndata++;
		else if (kp->role == KP_PBASE && kind_bytes(kp->ty) == 8)
			nptr++;
		else if (kp->role == KP_RET && kind_bytes(kp->ty) == 8)
			p->ret_param = kp->off;
	}
	if (!ndata && !nptr)
		return 0;
	p->args = calloc((size_t)(ndata + nptr), sizeof *p->args);
	int *argno = calloc((size_t)ndata + 1, sizeof *argno);
	Desc *d = NULL;
	int nd = 0;
	Spec *k = c ? c->kernel : NULL;
	if (k && k->argtypes && k->def) {
		d = calloc((size_t)ndata + 1, sizeof *d);
		for (int i = 0; d && i < k->nargs && i < k->def->nparams; i++)
			walk(k->argtypes[i], k->def->params[i].name, d, &nd, ndata);
	}
	if (!p->args || !argno || (k && k->argtypes && k->def && !d)) {
		free(argno);
		free(d);
		return -1;
	}
	int typed = d && nd == ndata, n = 0;
	for (int i = 0; i < f->nparam; i++) {
		KParam *kp = &f->param[i];
		if (kp->off < 0 || kp->off + kind_bytes(kp->ty) > f->param_bytes)
			continue;
		if (kp->role == KP_DATA && kind_bytes(kp->ty) == 8) {
			SimArg *a = &p->args[n];
			a->data = kp->off;
			for (int j = 0; j < 8; j++)
				a->shape[j] = a->stride[j] = -1;
			if (typed) {
				a->name = d[n].name;
				a->esize = d[n].esize;
				a->strided = d[n].strided;
			}
			argno[n++] = kp->arg;
		} else if ((kp->role == KP_SHAPE || kp->role == KP_STRIDE) && kp->dim >= 0 && kp->dim < 8) {
			int j = n - 1;
			while (j >= 0 && argno[j] != kp->arg)
				j--;
			if (j < 0)
				continue;
			SimArg *a = &p->args[j];
			if (kp->role == KP_SHAPE) {
				a->shape[kp->dim] = kp->off;
				a->shape_ty[kp->dim] = kp->ty;
				if (kp->dim >= a->ndim)
					a->ndim = kp->dim + 1;
			} else {
				a->stride[kp->dim] = kp->off;
				a->stride_ty[kp->dim] = kp->ty;
			}
		}
	}
	/* the types must describe what the parameters say, or say nothing */
	for (int j = 0; typed && j < n; j++) {
		SimArg *a = &p->args[j];
		int want = d[j].ndim < 0 ? 0 : d[j].ndim;
		if (a->ndim != want)
			a->esize = 0;
	}
	/* a pointer's allocation (lower.c's pointer_bounds): its first byte,
	 * then its length in bytes in the parameter just after */
	for (int i = 0; i + 1 < f->nparam; i++) {
		KParam *kp = &f->param[i], *kb = &f->param[i + 1];
		if (kp->role != KP_PBASE || kb->role != KP_PBYTES || kp->off < 0 ||
		    kp->off + 8 > f->param_bytes || kb->off < 0 || kb->off + 8 > f->param_bytes)
			continue;
		SimArg *a = &p->args[n++];
		for (int j = 0; j < 8; j++)
			a->shape[j] = a->stride[j] = -1;
		a->data = kp->off;
		a->esize = 1;
		a->ndim = 1;
		a->shape[0] = kb->off;
		a->shape_ty[0] = SK_I64;
	}
	p->nargs = n;
	free(argno);
	free(d);
	return 0;
}

/* ---------------------------------------------------------- regions */

static int64_t param_int(const uint8_t *params, int32_t off, int ty)
{
	switch (ty) {
	case SK_I32: { int32_t v; memcpy(&v, params + off, 4); return v; }
	case SK_U32: { uint32_t v; memcpy(&v, params + off, 4); return v; }
	case SK_I16: { int16_t v; memcpy(&v, params + off, 2); return v; }
	case SK_U16: { uint16_t v; memcpy(&v, params + off, 2); return v; }
	case SK_I8: return (int8_t)params[off];
	case SK_U8: return params[off];
	default: { int64_t v; memcpy(&v, params + off, 8); return v; }
	}
}

static SimRegion above(uint64_t lo)
{
	return (SimRegion){lo, UINT64_MAX - lo};
}

/* [lo - below, lo + above_), clamped to the address space. */
static SimRegion span(uint64_t lo, uint64_t below, uint64_t above_)
{
	uint64_t start = below > lo ? 0 : lo - below;
	uint64_t room = UINT64_MAX - start, len = lo - start;
	len = above_ > room - len ? room : len + above_;
	return (SimRegion){start, len};
}

static SimRegion arg_region(const SimArg *a, const uint8_t *params)
{
	uint64_t data;
	memcpy(&data, params + a->data, 8);
	int64_t es = a->esize;
	if (!es) {
		if (a->ndim == 0)
			return above(data);    /* IR text: a pointer without extents */
		es = 8;
	}
	uint64_t below = 0, up = 0, count = 1;
	int overflow = 0;
	for (int k = 0; k < a->ndim; k++) {
		if (a->shape[k] < 0)
			return above(data);
		int64_t n = param_int(params, a->shape[k], a->shape_ty[k]);
		if (n <= 0)
			return (SimRegion){data, 0};
		if (a->strided) {
			if (a->stride[k] < 0)
				return above(data);
			int64_t s = param_int(params, a->stride[k], a->stride_ty[k]), m;
			if (__builtin_mul_overflow(n - 1, s, &m))
				overflow = 1;
			else if (m < 0)
				overflow |= __builtin_add_overflow(below, (uint64_t)0 - (uint64_t)m, &below);
			else
				overflow |= __builtin_add_overflow(up, (uint64_t)m, &up);
		} else {
			overflow |= __builtin_mul_overflow(count, (uint64_t)n, &count);
		}
	}
	if (!a->strided)
		overflow |= __builtin_mul_overflow(count, (uint64_t)es, &up);
	else
		overflow |= __builtin_add_overflow(up, (uint64_t)es, &up);
	if (overflow)
		return above(data);
	return span(data, below, up);
}

static int by_lo(const void *x, const void *y)
{
	const SimRegion *a = x, *b = y;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sorts regions and merges those that overlap or touch; returns the count. */
static int merge(SimRegion *r, int n)
{
	if (n > 16) {
		qsort(r, (size_t)n, sizeof *r, by_lo);
	} else {
		for (int i = 1; i < n; i++) {
			SimRegion x = r[i];
			int j = i;
			for (; j > 0 && r[j - 1].lo > x.lo; j--)
				r[j] = r[j - 1];
			r[j] = x;
		}
	}
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (!r[i].len)
			continue;
		if (m && r[i].lo - r[m - 1].lo <= r[m - 1].len) {
			uint64_t end = r[i].lo + r[i].len, prev = r[m - 1].lo + r[m - 1].len;
			if (end > prev)
				r[m - 1].len = end - r[m - 1].lo;
		} else {
			r[m++] = r[i];
		}
	}
	return m;
}

int sim_guard_init(Launch *L, int nframes, int64_t ret_bytes, void *scratch, size_t nscratch)
{
	const SimProgram *p = L->p;
	Guard *g = &L->guard;      /* zero, as the whole Launch is at first */
	int n = p->nargs + p->ndevmem + 2;
	for (int i = 0; i < p->narrays; i++)
		n += p->arrays[i].space == SP_CONST;
	size_t ncache = (size_t)(p->nguards ? p->nguards : 1);
	size_t bytes = ncache * sizeof(SimHit) + (size_t)n * (sizeof(SimRegion) + sizeof(GuardNamed));
	void *mem = scratch;
	if (bytes > nscratch) {
		mem = g->heap = malloc(bytes);
		if (!mem)
			return -1;
	}
	memset(mem, 0, ncache * sizeof(SimHit));   /* empty entries: every address misses */
	g->cache = mem;
	g->reg = (SimRegion *)(g->cache + ncache);
	g->named = (GuardNamed *)(g->reg + n);
	g->cache_local = nframes == 1;

	GuardNamed *nm = g->named;
	int k = 0;
	for (int i = 0; i < p->nargs; i++) {
		SimRegion r = arg_region(&p->args[i], L->params);
		nm[k++] = (GuardNamed){r.lo, r.len, GN_ARG, p->args[i].name};
	}
	for (int i = 0; i < p->narrays; i++) {
		const SimArray *a = &p->arrays[i];
		if (a->space == SP_CONST && a->data)
			nm[k++] = (GuardNamed){(uint64_t)(uintptr_t)a->data, (uint64_t)a->size, GN_CONST, a->name};
	}
	for (int i = 0; i < p->ndevmem; i++)
		nm[k++] = (GuardNamed){p->devmem[i].lo, p->devmem[i].len, GN_DEVMEM, p->devmem[i].name};
	if (L->smem && L->smem_size > 0)
		nm[k++] = (GuardNamed){(uint64_t)(uintptr_t)L->smem, (uint64_t)L->smem_size, GN_SHARED, NULL};
	if (p->ret_param >= 0 && ret_bytes > 0) {
		uint64_t out;
		memcpy(&out, L->params + p->ret_param, 8);
		nm[k++] = (GuardNamed){out, (uint64_t)ret_bytes, GN_RET, NULL};
	}
	g->nnamed = k;
	for (int i = 0; i < k; i++)
		g->reg[i] = (SimRegion){nm[i].lo, nm[i].len};
	g->nreg = merge(g->reg, k);
	return 0;
}

void sim_guard_free(Launch *L)
{
	Guard *g = &L->guard;
	if (g->allocs) {
		for (int k = 0; k < NRUNS; k++)
			free(g->allocs->run[k]);
		free(g->allocs);
	}
	free(g->heap);
	memset(g, 0, sizeof *g);
}

/* ------------------------------------------------------ allocations */

/* The region of a sorted array that holds addr, or NULL. */
static const SimRegion *find(const SimRegion *r, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;   /* the first region whose lo is above addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - r[lo - 1].lo >= r[lo - 1].len)
		return NULL;
	return &r[lo - 1];
}

/* The sorted merge of a (na blocks) and b (nb), in a new array. */
static SimRegion *merge_runs(const SimRegion *a, size_t na, const SimRegion *b, size_t nb)
{
	SimRegion *m = malloc(sizeof *m * (na + nb));
	if (!m)
		return NULL;
	size_t i = 0, j = 0, w = 0;
	while (i < na && j < nb)
		m[w++] = a[i].lo <= b[j].lo ? a[i++] : b[j++];
	while (i < na)
		m[w++] = a[i++];
	while (j < nb)
		m[w++] = b[j++];
	return m;
}

int sim_guard_alloc(Launch *L, uint64_t addr, uint64_t size)
{
	Guard *g = &L->guard;
	if (!size)
		return 0;
	GuardAllocs *A = g->allocs;
	if (!A && !(A = g->allocs = calloc(1, sizeof *A)))
		return -1;
	int i = A->nbuf;
	while (i > 0 && A->buf[i - 1].lo > addr) {
		A->buf[i] = A->buf[i - 1];
		i--;
	}
	A->buf[i] = (SimRegion){addr, size};
	if (++A->nbuf < RUN0)
		return 0;
	SimRegion *carry = merge_runs(A->buf, RUN0, NULL, 0);
	size_t n = RUN0;
	for (int k = 0; carry && k < NRUNS; k++, n *= 2) {
		if (!A->run[k]) {
			A->run[k] = carry;
			A->nbuf = 0;
			return 0;
		}
		SimRegion *m = merge_runs(A->run[k], n, carry, n);
		free(carry);
		if (!m) {
			A->nbuf = RUN0 - 1;   /* out of memory: the function stops (MemoryError) */
			return -1;
		}
		free(A->run[k]);
		A->run[k] = NULL;
		carry = m;
	}
	free(carry);
	A->nbuf = RUN0 - 1;
	return -1;
}

static const SimRegion *find_alloc(const GuardAllocs *A, uint64_t addr)
{
	if (!A)
		return NULL;
	const SimRegion *r = find(A->buf, (size_t)A->nbuf, addr);
	for (int k = 0; !r && k < NRUNS; k++)
		if (A->run[k])
			r = find(A->run[k], (size_t)RUN0 << k, addr);
	return r;
}

/* ----------------------------------------------------------- reports */

static const SimLoc *loc_of(const Launch *L, const SIns *ip)
{
	const SimProgram *p = L->p;
	int32_t pc = (int32_t)(ip - p->code);
	int32_t l = pc >= 0 && pc < p->ncode ? p->code_loc[pc] : -1;
	return l >= 0 && l < p->nlocs ? &p->locs[l] : NULL;
}

static void describe(char *buf, size_t n, const GuardNamed *r, int index)
{
	switch (r->kind) {
	case GN_ARG:
		if (r->name)
			snprintf(buf, n, "argument '%s'", r->name);
		else
			snprintf(buf, n, "argument %d", index);
		break;
	case GN_CONST: snprintf(buf, n, "constant array '%s'", r->name ? r->name : "?"); break;
	case GN_SHARED: snprintf(buf, n, "the block's shared memory"); break;
	case GN_RET: snprintf(buf, n, "the function's return buffer"); break;
	case GN_DEVMEM: snprintf(buf, n, "global device array '%s'", r->name ? r->name : "?"); break;
	default: snprintf(buf, n, "%s", r->name ? r->name : "?"); break;
	}
}

/* How far addr lies from r: 0 inside, else the bytes to its nearest end. */
static uint64_t distance(const GuardNamed *r, uint64_t addr)
{
	if (addr < r->lo)
		return r->lo - addr;
	uint64_t off = addr - r->lo;
	return off < r->len ? 0 : off - r->len + 1;
}

static void consider(const GuardNamed *r, uint64_t addr, const GuardNamed **best, uint64_t *bestd)
{
	if (!r->len)
		return;
	uint64_t d = distance(r, addr);
	if (!*best || d < *bestd) {
		*best = r;
		*bestd = d;
	}
}

static int report(Launch *L, Frame *fr, const SIns *ip, uint64_t addr, uint64_t size, int what)
{
	static const char *const whats[] = {"load", "store", "atomic operation", "read of print()'s arguments"};
	const SimProgram *p = L->p;
	const Guard *g = &L->guard;
	const SimLoc *loc = loc_of(L, ip);
	char at[300], near[400] = "", thread[200];
	if (loc)
		snprintf(at, sizeof at, "at %s:%d", loc->file, loc->line);
	else
		snprintf(at, sizeof at, "at an unknown line");

	/* the nearest region, for the compiler's developers */
	const GuardNamed *best = NULL;
	uint64_t bestd = 0;
	int besti = 0;
	GuardNamed local = {(uint64_t)(uintptr_t)fr->local, (uint64_t)p->local_size, -1, "the thread's local memory"};
	GuardNamed blk = {0, 0, -1, "a block the function allocated"};
	for (int i = 0; i < g->nnamed; i++) {
		const GuardNamed *was = best;
		consider(&g->named[i], addr, &best, &bestd);
		if (best != was)
			besti = i;
	}
	if (fr->local)
		consider(&local, addr, &best, &bestd);
	for (int k = -1; g->allocs && k < NRUNS; k++) {
		const GuardAllocs *A = g->allocs;
		const SimRegion *run = k < 0 ? A->buf : A->run[k];
		size_t n = k < 0 ? (size_t)A->nbuf : run ? (size_t)RUN0 << k : 0;
		for (size_t i = 0; i < n; i++) {
			GuardNamed c = {run[i].lo, run[i].len, -1, NULL};
			if (!best || distance(&c, addr) < bestd) {
				blk.lo = run[i].lo;
				blk.len = run[i].len;
				bestd = distance(&c, addr);
				best = &blk;
			}
		}
	}
	if (best) {
		char name[300];
		describe(name, sizeof name, best, best->kind == GN_ARG ? besti : 0);
		uint64_t end = best->lo + best->len;
		if (addr < best->lo)
			snprintf(near, sizeof near, ", %llu bytes before %s", (unsigned long long)(best->lo - addr), name);
		else if (addr < end)
			snprintf(near, sizeof near, " from byte %llu of %s, running past its end",
			         (unsigned long long)(addr - best->lo), name);
		else if (addr == end)
			snprintf(near, sizeof near, " right after the end of %s", name);
		else
			snprintf(near, sizeof near, ", %llu bytes past the end of %s", (unsigned long long)(addr - end), name);
		size_t k = strlen(near);
		snprintf(near + k, sizeof near - k, " (%llu bytes at 0x%llx)", (unsigned long long)best->len,
		         (unsigned long long)best->lo);
	}
	if (L->cpu)
		snprintf(thread, sizeof thread, "in function '%s'", p->name);
	else
		snprintf(thread, sizeof thread, "in kernel '%s', thread (%u, %u, %u) of block (%u, %u, %u)", p->name,
		         fr->tid[0], fr->tid[1], fr->tid[2], L->ctaid[0], L->ctaid[1], L->ctaid[2]);

	PjError *e = L->err;
	snprintf(e->msg, sizeof e->msg,
	         "ptxjit internal error: the simulator caught a %s from address 0x%llx outside every array of "
	         "%s '%s' %s; please report\n"
	         "  (%llu bytes%s)\n"
	         "  %s: the bounds checks passed, so the compiler computed a wrong address",
	         whats[what >= 0 && what < 4 ? what : 0], (unsigned long long)addr, L->cpu ? "function" : "kernel",
	         p->name, at, (unsigned long long)size, near, thread);
	e->kind = PJ_ERR_INTERNAL;
	snprintf(e->file, sizeof e->file, "%s", loc ? loc->file : "");
	e->line = loc ? loc->line : 0;
	e->col = loc ? loc->col : 0;
	L->code = PJ_SIM_BAD;
	return RUN_ERR;
}

/* ------------------------------------------------------------ checks */

/* The region holding [addr, addr + size), or NULL; *local: it is the
 * thread's local memory. */
static const SimRegion *lookup(Launch *L, Frame *fr, uint64_t addr, uint64_t size, SimRegion *tmp, int *local)
{
	const SimProgram *p = L->p;
	uint64_t lo = (uint64_t)(uintptr_t)fr->local;
	const SimRegion *r;
	*local = 0;
	if (p->local_size && fr->local && addr - lo < (uint64_t)p->local_size) {
		*tmp = (SimRegion){lo, (uint64_t)p->local_size};
		*local = 1;
		r = tmp;
	} else {
		r = find(L->guard.reg, (size_t)L->guard.nreg, addr);
		if (!r)
			r = find_alloc(L->guard.allocs, addr);
	}
	return r && r->len - (addr - r->lo) >= size ? r : NULL;
}

int sim_guard_miss(Launch *L, Frame *fr, const SIns *ip, uint64_t addr, uint64_t size, int what)
{
	SimRegion tmp;
	int local;
	const SimRegion *r = lookup(L, fr, addr, size, &tmp, &local);
	if (!r)
		return report(L, fr, ip, addr, size, what);
	if ((!local || L->guard.cache_local) && ip->g != SIM_GUARD_SHARED)
		L->guard.cache[ip->g] = (SimHit){r->lo, r->len - size + 1};
	return 0;
}

int sim_guard_range(Launch *L, Frame *fr, const SIns *ip, uint64_t addr, uint64_t size, int what)
{
	SimRegion tmp;
	int local;
	if (!size || lookup(L, fr, addr, size, &tmp, &local))
		return 0;
	return report(L, fr, ip, addr, size, what);
}

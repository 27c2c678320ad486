/*
 * warp.c - the simulator's meeting points of several threads: the warp
 * operations (shfl, vote, match, syncwarp, activemask) and the reducing
 * block barriers (syncthreads_count, _and, _or).
 *
 * Threads run one at a time (launch.c).  A thread that reaches a WARP
 * instruction stops on it with RUN_WARP; when no thread of the block can
 * run any more, sim_warp_meet looks at each warp (lanes 32w .. 32w+31 in
 * linear thread order, as on the GPU):
 *
 *   - A lane waiting at shfl, vote, match or syncwarp with member mask M
 *     meets with the lanes of M that have not returned ("live"; lanes past
 *     the end of the block count as returned, as exited threads do on the
 *     GPU).  When every one of them waits at a warp operation, they must
 *     all wait at the same operation (kind, mode, clamp) with the same
 *     mask, which is what PTX requires of shfl.sync and friends; they may
 *     be at different instructions (sm_70 and later allow that).  The
 *     operation is then done for all of them at once, each lane's result
 *     goes into its register, and they run on.  A lane whose mask leaves
 *     itself out, or lanes of one mask at different operations, are
 *     errors: undefined behaviour on the GPU.
 *   - Only when no such group can meet in a warp do the lanes waiting at
 *     activemask() resume, each getting the mask of the lanes stopped at
 *     the same activemask instruction: the lanes that arrived together.
 *     Waiting until everything else in the warp has stopped is what makes
 *     the lanes of a divergent branch see each other and no one else.
 *   - When threads wait at warp operations and no warp can make progress,
 *     the kernel has deadlocked (some lane of a mask waits at a block
 *     barrier, say); the report names the operation and the lanes missing.
 *
 * Values a shuffle reads follow PTX's shfl.sync: the source lane j comes
 * from the mode, the lane/delta operand (its low 5 bits) and the c
 * operand (clamp and segment mask); when j is out of range the lane gets
 * its own value.  A source lane that is in range but does not take part
 * (returned, or outside the mask) gives an undefined value on the GPU;
 * here the reading lane gets its own value then, too.  Votes and matches
 * count only the lanes taking part; match_all's mask is theirs.
 *
 * bar.red: when the block's barrier opens (every live thread waits at a
 * barrier), sim_bar_release combines the predicates of all threads for a
 * barrier whose aux is nonzero and writes the count, or 1/0 for and/or,
 * into each thread's result.  Threads at a reducing barrier and threads
 * at a barrier of another kind in the same epoch are an error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"

typedef struct Warp {
	Launch *L;
	Frame *fr;          /* fr[0] is lane 0 */
	uint32_t w;         /* warp index in the block */
	uint32_t live;      /* lanes that exist and have not returned */
	uint32_t sync;      /* lanes at shfl, vote, match or syncwarp */
	uint32_t active;    /* lanes at activemask */
} Warp;

static int popc32(uint32_t x)
{
	int n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

static int lowest(uint32_t x)
{
	int n = 0;
	while (!(x >> n & 1))
		n++;
	return n;
}

static const SIns *ins_of(const Warp *W, int lane)
{
	return W->L->p->code + W->fr[lane].pc;
}

static Reg reg(const Warp *W, int lane, int32_t slot)
{
	return W->fr[lane].r[slot];
}

static const char *op_name(int aux)
{
	static const char *const shfl[4] = {"shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"};
	static const char *const vote[4] = {"all_sync", "any_sync", "eq_sync", "ballot_sync"};
	int mode = aux >> 4 & 15;
	switch (aux & 15) {
	case WK_SHFL: return shfl[mode & 3];
	case WK_VOTE: return vote[mode & 3];
	case WK_MATCH: return mode & 1 ? "match_all_sync" : "match_any_sync";
	case WK_SYNC: return "syncwarp";
	default: return "activemask";
	}
}

static const char *bar_name(int aux)
{
	static const char *const name[5] = {"syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or",
	                                    "cg.this_grid().sync"};
	return name[aux >= 0 && aux <= SIM_BAR_GRID ? aux : 0];
}

/* ------------------------------------------------------------ reports */

static const SimLoc *loc_of(const Launch *L, int32_t pc)
{
	const SimProgram *p = L->p;
	int32_t l = pc >= 0 && pc < p->ncode ? p->code_loc[pc] : -1;
	return l >= 0 && l < p->nlocs ? &p->locs[l] : NULL;
}

/* " at kernel.py:12" */
static const char *at(const Launch *L, int32_t pc, char *buf, size_t n)
{
	const SimLoc *loc = loc_of(L, pc);
	if (loc)
		snprintf(buf, n, " at %s:%d", loc->file, loc->line);
	else
		buf[0] = 0;
	return buf;
}

/* "lane 5", "lanes 16 to 31", "lanes 0, 3 and 7 to 9" */
static const char *lanes(uint32_t m, char *buf, size_t n)
{
	int k = 0, runs = 0, parts = 0;
	for (uint32_t x = m; x;) {
		int lo = lowest(x), hi = lo;
		while (hi < 31 && (x >> (hi + 1) & 1))
			hi++;
		parts++;
		x &= hi == 31 ? 0 : ~0u << (hi + 1);
	}
	k += snprintf(buf + k, n - (size_t)k, popc32(m) == 1 ? "lane " : "lanes ");
	for (uint32_t x = m; x && k < (int)n - 16;) {
		int lo = lowest(x), hi = lo;
		while (hi < 31 && (x >> (hi + 1) & 1))
			hi++;
		runs++;
		const char *sep = runs == 1 ? "" : runs == parts ? " and " : ", ";
		if (hi == lo)
			k += snprintf(buf + k, n - (size_t)k, "%s%d", sep, lo);
		else
			k += snprintf(buf + k, n - (size_t)k, "%s%d to %d", sep, lo, hi);
		x &= hi == 31 ? 0 : ~0u << (hi + 1);
	}
	return buf;
}

static int fail(Launch *L, int32_t pc, const Frame *fr, const char *fmt, ...)
{
	PjError *e = L->err;
	const SimLoc *loc = loc_of(L, pc);
	char msg[1500];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(e->msg, sizeof e->msg, "%s\n  in kernel '%s', thread (%u, %u, %u) of block (%u, %u, %u)", msg,
	         L->p->name, fr->tid[0], fr->tid[1], fr->tid[2], L->ctaid[0], L->ctaid[1], L->ctaid[2]);
	e->kind = PJ_ERR_USER;
	snprintf(e->file, sizeof e->file, "%s", loc ? loc->file : "");
	e->line = loc ? loc->line : 0;
	e->col = loc ? loc->col : 0;
	L->code = PJ_SIM_DEADLOCK;
	return -1;
}

/* --------------------------------------------------------- operations */

static void shuffle(Warp *W, uint32_t group, int aux, uint32_t *res)
{
	int mode = aux >> 4 & 3, c = aux >> 8, clamp = c & 31, seg = c >> 8 & 31;
	for (uint32_t x = group; x; x &= x - 1) {
		int m = lowest(x);
		const SIns *ip = ins_of(W, m);
		int b = (int)(reg(W, m, ip->b).w & 31);
		int max = (m & seg) | (clamp & ~seg), min = m & seg, j, ok;
		switch (mode) {
		case 0: j = min | (b & ~seg); ok = j <= max; break;
		case 1: j = m - b; ok = j >= max; break;
		case 2: j = m + b; ok = j <= max; break;
		default: j = m ^ b; ok = j <= max; break;
		}
		if (!ok || j < 0 || j > 31 || !(group >> j & 1))
			j = m;
		res[m] = reg(W, j, ins_of(W, j)->a).w;
	}
}

static void vote(Warp *W, uint32_t group, int aux, uint32_t *res)
{
	uint32_t ballot = 0;
	for (uint32_t x = group; x; x &= x - 1) {
		int m = lowest(x);
		if (reg(W, m, ins_of(W, m)->a).u)
			ballot |= 1u << m;
	}
	uint32_t r;
	switch (aux >> 4 & 3) {
	case 0: r = ballot == group; break;
	case 1: r = ballot != 0; break;
	case 2: r = ballot == 0 || ballot == group; break;
	default: r = ballot; break;
	}
	for (uint32_t x = group; x; x &= x - 1)
		res[lowest(x)] = r;
}

static void match(Warp *W, uint32_t group, int aux, uint32_t *res)
{
	int all = aux >> 4 & 1, wide = aux >> 6 & 1;
	uint64_t v[32];
	for (uint32_t x = group; x; x &= x - 1) {
		int m = lowest(x);
		Reg r = reg(W, m, ins_of(W, m)->a);
		v[m] = wide ? r.u : r.w;
	}
	uint32_t same_all = group;
	for (uint32_t x = group; x; x &= x - 1) {
		int m = lowest(x);
		uint32_t same = 0;
		for (uint32_t y = group; y; y &= y - 1) {
			int k = lowest(y);
			if (v[k] == v[m])
				same |= 1u << k;
		}
		res[m] = same;
		if (same != group)
			same_all = 0;
	}
	if (all)
		for (uint32_t x = group; x; x &= x - 1)
			res[lowest(x)] = same_all;
}

static int release(Warp *W, uint32_t group, const uint32_t *res)
{
	for (uint32_t x = group; x; x &= x - 1) {
		int m = lowest(x);
		Frame *fr = &W->fr[m];
		const SIns *ip = ins_of(W, m);
		if (ip->d >= 0 && res)
			fr->r[ip->d].u = res[m];
		fr->pc++;
		fr->state = -1;
	}
	return popc32(group);
}

/* A syncwarp orders the shared-memory accesses of its lanes: the race
 * check (launch.c) forgets what they did since the last block barrier, so
 * that their later accesses do not count as racing with the earlier ones.
 * (Accesses of other warps to those bytes in the same epoch then go
 * unreported.)  The race check keeps one writer and one reader per byte,
 * so this walks the block's shared memory once per syncwarp. */
static void order_shared(Warp *W, uint32_t group)
{
	Launch *L = W->L;
	if (!L->shadow || !(L->check & PJ_SIM_RACE))
		return;
	uint32_t base = 32 * W->w;
	for (int64_t i = 0; i < L->smem_size; i++) {
		Shadow *sh = &L->shadow[i];
		uint32_t wt = sh->w_tid, rt = sh->r_tid;
		if (sh->w_epoch == L->epoch && wt - base < 32 && (group >> (wt - base) & 1))
			sh->w_epoch = L->epoch - 1;
		if (sh->r_epoch == L->epoch && rt != 0xFFFF && rt - base < 32 && (group >> (rt - base) & 1))
			sh->r_epoch = L->epoch - 1;
	}
}

/* The group of the waiting lane l: released (the number of lanes), not
 * ready yet (0), or an error (-1).  The lanes looked at leave *todo. */
static int meet(Warp *W, int l, uint32_t *todo)
{
	Launch *L = W->L;
	const SIns *ip = ins_of(W, l);
	int32_t pc = W->fr[l].pc;
	uint32_t mask = reg(W, l, ip->c).w;
	char a1[300], a2[300];
	*todo &= ~(1u << l);
	if (!(mask >> l & 1))
		return fail(L, pc, &W->fr[l],
		            "cuda.%s()%s is called by lane %d of warp %u with the mask 0x%08x, which leaves that "
		            "lane out: the mask must include the calling lane (on a GPU this is undefined behaviour)",
		            op_name(ip->aux), at(L, pc, a1, sizeof a1), l, W->w, mask);
	uint32_t group = mask & W->live;
	*todo &= ~group;
	if (group & ~W->sync)
		return 0;
	for (uint32_t x = group; x; x &= x - 1) {
		int m = lowest(x);
		const SIns *im = ins_of(W, m);
		uint32_t mm = reg(W, m, im->c).w;
		if (im->aux != ip->aux || mm != mask)
			return fail(L, pc, &W->fr[l],
			            "lanes of warp %u meet at different warp operations: lane %d at cuda.%s()%s with "
			            "mask 0x%08x, lane %d at cuda.%s()%s with mask 0x%08x; every lane of the mask must "
			            "call the same operation with the same mask (on a GPU this is undefined behaviour)",
			            W->w, l, op_name(ip->aux), at(L, pc, a1, sizeof a1), mask, m, op_name(im->aux),
			            at(L, W->fr[m].pc, a2, sizeof a2), mm);
	}
	uint32_t res[32];
	switch (ip->aux & 15) {
	case WK_SHFL: shuffle(W, group, ip->aux, res); break;
	case WK_VOTE: vote(W, group, ip->aux, res); break;
	case WK_MATCH: match(W, group, ip->aux, res); break;
	default:
		order_shared(W, group);
		return release(W, group, NULL);
	}
	return release(W, group, res);
}

/* The lanes at activemask(), grouped by instruction. */
static int release_active(Warp *W)
{
	int n = 0;
	uint32_t left = W->active;
	while (left) {
		int32_t pc = W->fr[lowest(left)].pc;
		uint32_t group = 0, res[32];
		for (uint32_t x = left; x; x &= x - 1)
			if (W->fr[lowest(x)].pc == pc)
				group |= 1u << lowest(x);
		for (uint32_t x = group; x; x &= x - 1)
			res[lowest(x)] = group;
		left &= ~group;
		n += release(W, group, res);
	}
	return n;
}

static void scan(Warp *W, Launch *L, Frame *fr, uint32_t n, uint32_t w)
{
	memset(W, 0, sizeof *W);
	W->L = L;
	W->fr = fr + 32 * w;
	W->w = w;
	uint32_t cnt = n - 32 * w < 32 ? n - 32 * w : 32;
	for (uint32_t m = 0; m < cnt; m++) {
		const Frame *f = &W->fr[m];
		if (f->state != RUN_RET)
			W->live |= 1u << m;
		if (f->state == RUN_WARP) {
			if ((L->p->code[f->pc].aux & 15) == WK_ACTIVE)
				W->active |= 1u << m;
			else
				W->sync |= 1u << m;
		}
	}
}

/* No warp can move: explain why the first stuck lane waits. */
static int deadlock(Launch *L, Frame *fr, uint32_t n)
{
	for (uint32_t w = 0; 32 * w < n; w++) {
		Warp W;
		scan(&W, L, fr, n, w);
		if (!W.sync)
			continue;
		int l = lowest(W.sync);
		const SIns *ip = ins_of(&W, l);
		uint32_t mask = reg(&W, l, ip->c).w, missing = mask & W.live & ~W.sync;
		char a1[300], a2[300], ls[200], why[400] = "";
		if (missing) {
			const Frame *f = &W.fr[lowest(missing)];
			if (f->state == RUN_BAR)
				snprintf(why, sizeof why, ", which wait at the cuda.%s()%s",
				         bar_name(L->p->code[f->pc - 1].aux), at(L, f->pc - 1, a2, sizeof a2));
		}
		return fail(L, W.fr[l].pc, &W.fr[l],
		            "cuda.%s()%s in warp %u waits for %s of its mask 0x%08x%s: every lane of the mask "
		            "must reach the warp operation or return (on a GPU this is undefined behaviour, "
		            "often a hang)",
		            op_name(ip->aux), at(L, W.fr[l].pc, a1, sizeof a1), w,
		            lanes(missing ? missing : mask, ls, sizeof ls), mask, why);
	}
	return fail(L, -1, fr, "internal error in the simulator: threads wait at warp operations that cannot meet");
}

int sim_warp_meet(Launch *L, Frame *fr, uint32_t n)
{
	int released = 0, waiting = 0;
	for (uint32_t w = 0; 32 * w < n; w++) {
		Warp W;
		scan(&W, L, fr, n, w);
		if (!W.sync && !W.active)
			continue;
		waiting = 1;
		int got = 0;
		for (uint32_t todo = W.sync; todo;) {
			int k = meet(&W, lowest(todo), &todo);
			if (k < 0)
				return -1;
			got += k;
		}
		if (!got && W.active)
			got = release_active(&W);
		released += got;
	}
	if (waiting && !released)
		return deadlock(L, fr, n);
	return released;
}

/* ------------------------------------------------------------ bar.red */

int sim_bar_release(Launch *L, Frame *fr, uint32_t n)
{
	const SIns *code = L->p->code;
	int kind = -1;
	uint32_t first = 0, nbar = 0, count = 0;
	char a1[300], a2[300];
	for (uint32_t t = 0; t < n; t++) {
		if (fr[t].state != RUN_BAR)
			continue;
		const SIns *ip = code + fr[t].pc - 1;
		if (kind < 0) {
			kind = ip->aux;
			first = t;
		} else if (ip->aux != kind) {
			return fail(L, fr[t].pc - 1, &fr[t],
			            "the threads of a block meet at barriers of different kinds: cuda.%s()%s and "
			            "cuda.%s()%s (on a GPU this is undefined behaviour)",
			            bar_name(kind), at(L, fr[first].pc - 1, a1, sizeof a1), bar_name(ip->aux),
			            at(L, fr[t].pc - 1, a2, sizeof a2));
		}
		nbar++;
		if (fr[t].r[ip->a].u)
			count++;
	}
	if (kind <= 0 || kind == SIM_BAR_GRID)
		return 0;
	uint32_t r = kind == 1 ? count : kind == 2 ? count == nbar : count != 0;
	for (uint32_t t = 0; t < n; t++)
		if (fr[t].state == RUN_BAR)
			fr[t].r[code[fr[t].pc - 1].d].u = r;
	return 0;
}

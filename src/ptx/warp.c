/*
 * warp.c - the IR's bit operations and thread-meeting operations in PTX:
 * popc, clz, brev, shfl, vote, match, barred (bar.red), syncwarp,
 * activemask and nanosleep.
 *
 * PTX's popc and clz define a .u32 count also for .b64 operands; the IR
 * gives the count the operand's class, so a 64-bit count is widened.
 * bar.red.and/or define a predicate; the IR's barred defines 1 or 0 in a
 * .b32 register.  Member masks that are constants are written in hex.
 * match and nanosleep need sm_70 (lowering refuses them for older
 * targets); the others exist on every target ptxjit writes.
 *
 * bar.grid, the grid's barrier (cuda.cg grid_group.sync()), needs no
 * device runtime: it counts arrivals in the module's word __pj_gbar.
 * After its block's barrier, thread (0, 0, 0) of each block adds to the
 * word, block (0, 0, 0) adding 0x80000000 - (blocks - 1) and every other
 * block 1, so that once all have arrived the sum is 0x80000000: the top
 * bit has flipped and the low bits are what they were.  Each thread 0
 * spins until it sees the flip, then the block's barrier releases its
 * threads.  The word needs no reset between barriers or launches (a
 * launch of the kernel after another sees the bits the last one left,
 * which is why the runtime lets no two launches of it overlap).  The
 * fences (membar.gl) before the add and after the spin make the writes
 * of every block before the barrier visible to every block after it,
 * cumulatively through bar.sync, as the CUDA memory model orders them.
 * A cooperative launch keeps every block resident, so the spin ends.
 */
#include "ptx.h"

static const char *bty(int k) { return k == KL ? "b64" : "b32"; }

static _Noreturn void bad(Emit *e, const Ins *i)
{
	ICE(e->c, "%s of class %s (aux %d)", ptx_opname(i->op), cls_name[i->cls < NK ? i->cls : 0], i->aux);
}

/* A 32-bit operand; constants in hex. */
static const char *w32(Emit *e, Ref r)
{
	int64_t v;
	if (ptx_cls(e, r) != KW)
		ICE(e->c, "warp operand of class %s", cls_name[ptx_cls(e, r)]);
	if (ptx_is_con(e, r, &v))
		return arena_printf(e->c->arena, "0x%08X", (unsigned)(uint32_t)v);
	return ptx_opnd(e, r);
}

static void bits(Emit *e, const Ins *i)
{
	static const char *const name[] = {[O_POPC] = "popc", [O_CLZ] = "clz", [O_BREV] = "brev"};
	int k = i->cls;
	if ((k != KW && k != KL) || (int)ptx_cls(e, i->arg[0]) != k)
		bad(e, i);
	const char *a = ptx_reg(e, i->arg[0]), *d = ptx_def(e, i);
	if (k == KW || i->op == O_BREV) {
		ptx_line(e, "%s.%s %s, %s;", name[i->op], bty(k), d, a);
		return;
	}
	const char *t = ptx_tmp(e, KW);
	ptx_line(e, "%s.b64 %s, %s;", name[i->op], t, a);
	ptx_line(e, "cvt.u64.u32 %s, %s;", d, t);
}

static void shfl(Emit *e, const Ins *i)
{
	static const char *const mode[4] = {"idx", "up", "down", "bfly"};
	int m = i->aux & 255, c = i->aux >> 8;
	if (i->cls != KW || m > 3)
		bad(e, i);
	const char *a = ptx_reg(e, i->arg[0]), *b = ptx_opnd(e, i->arg[1]), *mask = w32(e, i->arg[2]);
	ptx_line(e, "shfl.sync.%s.b32 %s, %s, %s, 0x%X, %s;", mode[m], ptx_def(e, i), a, b, c, mask);
}

static void vote(Emit *e, const Ins *i)
{
	static const char *const mode[4] = {"all", "any", "uni", "ballot"};
	if (i->aux < 0 || i->aux > 3 || i->cls != (i->aux == 3 ? KW : KB))
		bad(e, i);
	const char *p = ptx_pred(e, i->arg[0]), *mask = w32(e, i->arg[1]);
	ptx_line(e, "vote.sync.%s.%s %s, %s, %s;", mode[i->aux], i->aux == 3 ? "b32" : "pred", ptx_def(e, i), p,
	         mask);
}

static void match(Emit *e, const Ins *i)
{
	Cls k = ptx_cls(e, i->arg[0]);
	if (i->cls != KW || i->aux < 0 || i->aux > 1 || (k != KW && k != KL))
		bad(e, i);
	const char *a = ptx_reg(e, i->arg[0]), *mask = w32(e, i->arg[1]);
	ptx_line(e, "match.%s.sync.%s %s, %s, %s;", i->aux ? "all" : "any", bty(k), ptx_def(e, i), a, mask);
}

static void barred(Emit *e, const Ins *i)
{
	if (i->cls != KW || i->aux < 0 || i->aux > 2)
		bad(e, i);
	const char *p = ptx_pred(e, i->arg[0]), *d = ptx_def(e, i);
	if (i->aux == 0) {
		ptx_line(e, "bar.red.popc.u32 %s, 0, %s;", d, p);
		return;
	}
	const char *q = ptx_tmp(e, KB);
	ptx_line(e, "bar.red.%s.pred %s, 0, %s;", i->aux == 1 ? "and" : "or", q, p);
	ptx_line(e, "selp.u32 %s, 1, 0, %s;", d, q);
}

void ptx_warp(Emit *e, const Ins *i)
{
	switch (i->op) {
	case O_POPC: case O_CLZ: case O_BREV:
		bits(e, i);
		return;
	case O_SHFL:
		shfl(e, i);
		return;
	case O_VOTE:
		vote(e, i);
		return;
	case O_MATCH:
		match(e, i);
		return;
	case O_BARRED:
		barred(e, i);
		return;
	case O_SYNCWARP:
		ptx_line(e, "bar.warp.sync %s;", w32(e, i->arg[0]));
		return;
	case O_ACTIVEMASK:
		if (i->cls != KW)
			bad(e, i);
		ptx_line(e, "activemask.b32 %s;", ptx_def(e, i));
		return;
	case O_NANOSLEEP:
		ptx_line(e, "nanosleep.u32 %s;", ptx_opnd(e, i->arg[0]));
		return;
	default:
		bad(e, i);
	}
}

/* dst = reg.x OP reg.y OP reg.z (tmp: a scratch register) */
static void combine_xyz(Emit *e, const char *dst, const char *tmp, const char *reg, const char *op)
{
	ptx_line(e, "mov.u32 %s, %%%s.x;", dst, reg);
	ptx_line(e, "mov.u32 %s, %%%s.y;", tmp, reg);
	ptx_line(e, "%s %s, %s, %s;", op, dst, dst, tmp);
	ptx_line(e, "mov.u32 %s, %%%s.z;", tmp, reg);
	ptx_line(e, "%s %s, %s, %s;", op, dst, dst, tmp);
}

void ptx_grid_sync(Emit *e)
{
	const char *notfirst = ptx_tmp(e, KB), *b0 = ptx_tmp(e, KB), *seen = ptx_tmp(e, KB);
	const char *t = ptx_tmp(e, KW), *u = ptx_tmp(e, KW), *n = ptx_tmp(e, KW);
	const char *old = ptx_tmp(e, KW), *cur = ptx_tmp(e, KW);
	const char *spin = ptx_new_label(e), *done = ptx_new_label(e);
	ptx_line(e, "bar.sync 0;");
	combine_xyz(e, t, u, "tid", "or.b32");
	ptx_line(e, "setp.ne.u32 %s, %s, 0;", notfirst, t);
	ptx_line(e, "@%s bra %s;", notfirst, done);
	combine_xyz(e, t, u, "ctaid", "or.b32");
	ptx_line(e, "setp.eq.u32 %s, %s, 0;", b0, t);
	combine_xyz(e, n, u, "nctaid", "mul.lo.u32");
	ptx_line(e, "sub.u32 %s, 0x80000001, %s;", n, n);
	ptx_line(e, "selp.u32 %s, %s, 1, %s;", n, n, b0);
	ptx_line(e, "membar.gl;");
	ptx_line(e, "atom.global.add.u32 %s, [__pj_gbar], %s;", old, n);
	ptx_label_line(e, spin);
	ptx_line(e, "ld.volatile.global.u32 %s, [__pj_gbar];", cur);
	ptx_line(e, "xor.b32 %s, %s, %s;", cur, cur, old);
	ptx_line(e, "setp.lt.s32 %s, %s, 0;", seen, cur);
	ptx_line(e, "@!%s bra %s;", seen, spin);
	ptx_line(e, "membar.gl;");
	ptx_label_line(e, done);
	ptx_line(e, "bar.sync 0;");
}

/*
 * verify.c - the IR verifier, run after lowering and after every pass in
 * debug builds (compile.c).
 *
 * It checks the control-flow graph (blk[i]->id == i, every block ends in
 * a jump to existing blocks, Blk.pred holds exactly the jumps into the
 * block, the entry has no predecessors), the SSA property (each value is
 * defined once by an instruction or phi of its class, Val.blk names that
 * block, every use is dominated by its definition, a phi argument is
 * available at the end of its predecessor), and each instruction against
 * op_info and the opcode semantics in core.h (operand count, operand and
 * result classes, aux in range).  Blocks that cannot be reached from the
 * entry are allowed (a pass may leave them for DCE); uses inside them are
 * not checked for dominance.
 *
 * A violation is an internal error "IR verification failed after <pass>"
 * naming the block and the instruction.
 */
#include <string.h>

#include "irtext.h"

typedef struct V {
	Fn *f;
	const char *after;
	int *defblk;      /* block defining each value, -1 none */
	int *defpos;      /* -1 for a phi, else the instruction's index */
	int *rpo;         /* block -> position in reverse post-order, -1 unreachable */
	int *idom;        /* block -> immediate dominator (entry: itself) */
} V;

static _Noreturn void bad(V *v, int blk, int ins, const char *fmt, ...)
{
	char what[600], where[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (blk < 0)
		snprintf(where, sizeof where, "function %s", v->f->name ? v->f->name : "?");
	else if (ins == -2)
		snprintf(where, sizeof where, "@b%d, jump", blk);
	else if (ins < 0)
		snprintf(where, sizeof where, "@b%d, phi", blk);
	else {
		const Ins *i = &v->f->blk[blk]->ins[ins];
		if (i->to >= 0)
			snprintf(where, sizeof where, "@b%d, instruction %d (%%%d = %s)", blk, ins, i->to,
			         irt_opname(i->op));
		else
			snprintf(where, sizeof where, "@b%d, instruction %d (%s)", blk, ins, irt_opname(i->op));
	}
	ICE(v->f->ctx, "IR verification failed after %s: %s: %s", v->after ? v->after : "?", where, what);
}

static int valid_ref(Fn *f, Ref r)
{
	if (r.kind == R_VAL)
		return (int)r.idx < f->nval;
	if (r.kind == R_CON)
		return (int)r.idx < f->ncon;
	return r.kind == R_NONE;
}

static void check_cfg(V *v)
{
	Fn *f = v->f;
	Arena *a = f->ctx->arena;
	if (f->nblk < 1)
		bad(v, -1, 0, "no blocks");
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = f->blk[i];
		if (!b || b->id != i)
			bad(v, -1, 0, "block %d has id %d", i, b ? b->id : -1);
	}
	int *count = arena_alloc(a, sizeof *count * (size_t)f->nblk);
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = f->blk[i];
		switch (b->jmp) {
		case J_RET:
			break;
		case J_JNZ:
			if (b->s2 < 0 || b->s2 >= f->nblk)
				bad(v, i, -2, "jnz to nonexistent block %d", b->s2);
			if (!valid_ref(f, b->cond) || b->cond.kind == R_NONE)
				bad(v, i, -2, "jnz without a valid condition");
			if (ir_cls_of(f, b->cond) != KB)
				bad(v, i, -2, "jnz condition of class %s, not b", cls_name[ir_cls_of(f, b->cond)]);
			/* fall through */
		case J_JMP:
			if (b->s1 < 0 || b->s1 >= f->nblk)
				bad(v, i, -2, "jump to nonexistent block %d", b->s1);
			break;
		default:
			bad(v, i, -2, "block does not end with a jump");
		}
	}
	/* preds: the same multiset as the jumps into the block */
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = f->blk[i];
		if (b->npred < 0)
			bad(v, i, -2, "negative predecessor count");
		memset(count, 0, sizeof *count * (size_t)f->nblk);
		for (int j = 0; j < b->npred; j++) {
			int p = b->pred[j];
			if (p < 0 || p >= f->nblk)
				bad(v, i, -1, "predecessor %d does not exist", p);
			count[p]++;
		}
		for (int j = 0; j < f->nblk; j++) {
			Blk *q = f->blk[j];
			int n = 0;
			if ((q->jmp == J_JMP || q->jmp == J_JNZ) && q->s1 == i)
				n++;
			if (q->jmp == J_JNZ && q->s2 == i)
				n++;
			if (n != count[j])
				bad(v, i, -1, "Blk.pred lists @b%d %d times but it jumps here %d times",
				    j, count[j], n);
		}
	}
	if (f->blk[0]->npred)
		bad(v, 0, -1, "the entry block has predecessors");
}

static int succ(Blk *b, Blk **blk, Blk **s)
{
	int n = 0;
	if (b->jmp == J_JMP || b->jmp == J_JNZ)
		s[n++] = blk[b->s1];
	if (b->jmp == J_JNZ)
		s[n++] = blk[b->s2];
	return n;
}

/* Reverse post-order and immediate dominators (Cooper, Harvey, Kennedy). */
static void fill_dom(V *v)
{
	Fn *f = v->f;
	Arena *a = f->ctx->arena;
	int n = f->nblk;
	v->rpo = arena_alloc(a, sizeof(int) * (size_t)n);
	v->idom = arena_alloc(a, sizeof(int) * (size_t)n);
	int *order = arena_alloc(a, sizeof(int) * (size_t)n);
	int *stack = arena_alloc(a, sizeof(int) * (size_t)n);
	int *next = arena_alloc(a, sizeof(int) * (size_t)n);
	char *seen = arena_alloc(a, (size_t)n);
	int npost = 0, sp = 0;
	stack[sp++] = 0;
	seen[0] = 1;
	while (sp) {
		Blk *b = f->blk[stack[sp - 1]], *s[2];
		int ns = succ(b, f->blk, s);
		int *k = &next[b->id];
		while (*k < ns && seen[s[*k]->id])
			(*k)++;
		if (*k < ns) {
			Blk *c = s[(*k)++];
			seen[c->id] = 1;
			stack[sp++] = c->id;
		} else {
			order[npost++] = b->id;
			sp--;
		}
	}
	for (int i = 0; i < n; i++) {
		v->rpo[i] = -1;
		v->idom[i] = -1;
	}
	for (int i = 0; i < npost; i++)
		v->rpo[order[npost - 1 - i]] = i;
	v->idom[0] = 0;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = npost - 2; i >= 0; i--) {
			Blk *b = f->blk[order[i]];
			int nd = -1;
			for (int j = 0; j < b->npred; j++) {
				int p = b->pred[j];
				if (v->idom[p] < 0)
					continue;
				if (nd < 0) {
					nd = p;
					continue;
				}
				int x = p, y = nd;
				while (x != y) {
					while (v->rpo[x] > v->rpo[y])
						x = v->idom[x];
					while (v->rpo[y] > v->rpo[x])
						y = v->idom[y];
				}
				nd = x;
			}
			if (nd >= 0 && v->idom[b->id] != nd) {
				v->idom[b->id] = nd;
				changed = 1;
			}
		}
	}
}

static int dominates(V *v, int a, int b)
{
	for (;;) {
		if (a == b)
			return 1;
		if (b == 0 || v->idom[b] < 0 || v->idom[b] == b)
			return 0;
		b = v->idom[b];
	}
}

static void define(V *v, int blk, int pos, int to, int cls)
{
	Fn *f = v->f;
	if (to < 0 || to >= f->nval)
		bad(v, blk, pos, "defines nonexistent value %%%d", to);
	if (v->defblk[to] >= 0)
		bad(v, blk, pos, "value %%%d is defined twice (also in @b%d)", to, v->defblk[to]);
	v->defblk[to] = blk;
	v->defpos[to] = pos;
	if (f->val[to].cls != cls)
		bad(v, blk, pos, "defines %%%d of class %s but the value has class %s", to,
		    cls < NK ? cls_name[cls] : "?", f->val[to].cls < NK ? cls_name[f->val[to].cls] : "?");
	if (cls == KX || cls >= NK)
		bad(v, blk, pos, "defines %%%d without a class", to);
	if (f->val[to].blk != blk)
		bad(v, blk, pos, "Val.blk of %%%d is %d", to, f->val[to].blk);
}

/* r is used in block blk at instruction pos (-1: at the block's start
 * for a phi of this block's successor, i.e. at the end of blk; -2 jump) */
static void use(V *v, int blk, int pos, Ref r, int at_end, int ublk, int upos)
{
	Fn *f = v->f;
	if (!valid_ref(f, r))
		bad(v, ublk, upos, "operand refers to nonexistent %s %u",
		    r.kind == R_VAL ? "value" : r.kind == R_CON ? "constant" : "thing", (unsigned)r.idx);
	if (r.kind != R_VAL)
		return;
	int d = v->defblk[r.idx];
	if (d < 0)
		bad(v, ublk, upos, "uses %%%u, which is never defined", (unsigned)r.idx);
	if (v->rpo[blk] < 0)
		return;
	if (d == blk) {
		if (at_end || v->defpos[r.idx] < pos)
			return;
		bad(v, ublk, upos, "uses %%%u before its definition", (unsigned)r.idx);
	}
	if (!dominates(v, d, blk))
		bad(v, ublk, upos, "uses %%%u, defined in @b%d, which does not dominate @b%d",
		    (unsigned)r.idx, d, blk);
}

static int is_int(Cls k) { return k == KW || k == KL; }
static int is_flt(Cls k) { return k == KS || k == KD; }

static void check_ins(V *v, int bi, int ii)
{
	Fn *f = v->f;
	Ins *i = &f->blk[bi]->ins[ii];
	if (i->op >= NOPS)
		bad(v, bi, ii, "unknown opcode %d", i->op);
	const OpInfo *o = &op_info[i->op];
	int n = ir_nargs(i);
	for (int k = 0; k < 3; k++) {
		if (k < n && i->arg[k].kind == R_NONE)
			bad(v, bi, ii, "operand %d is missing (%s takes %d)", k, irt_opname(i->op), n);
		if (k >= n && i->arg[k].kind != R_NONE)
			bad(v, bi, ii, "operand %d is extra (%s takes %d)", k, irt_opname(i->op), n);
	}
	Cls k = (Cls)i->cls;
	if (!o->def && i->to >= 0)
		bad(v, bi, ii, "%s defines no value but Ins.to is %d", irt_opname(i->op), i->to);
	if (o->def && i->to < 0)
		bad(v, bi, ii, "%s defines a value but Ins.to is -1", irt_opname(i->op));
	int sk_ok = i->ty < NSK;
	Cls tyk = sk_ok ? ir_cls_of_sk((ScalarKind)i->ty) : KX;
	const char *why = NULL;
	switch (i->op) {
	case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_MIN: case O_MAX: case O_ABS: case O_NEG:
		if (!is_int(k) && !is_flt(k))
			why = "needs class w, l, s or d";
		break;
	case O_REM:
		if (!is_int(k))
			why = "needs class w or l";
		break;
	case O_NOT: case O_AND: case O_OR: case O_XOR:
		if (!is_int(k) && k != KB)
			why = "needs class b, w or l";
		break;
	case O_SHL: case O_SHR:
		if (!is_int(k))
			why = "needs class w or l";
		break;
	case O_FMA: case O_SQRT: case O_FLOOR: case O_CEIL: case O_TRUNC: case O_RINT:
		if (!is_flt(k))
			why = "needs class s or d";
		else if (i->op == O_FMA && i->aux && (k != KS || i->ty == SK_F16 || (i->aux & ~FMA_MODES)))
			why = "takes modes (.rm, .sat) for float32 only";
		break;
	case O_CMP:
		if (k != KB)
			why = "defines class b";
		else if (tyk == KX)
			why = "compares an unknown kind (Ins.ty)";
		else if (i->aux < 0 || i->aux >= NCC)
			why = "has an unknown condition code";
		break;
	case O_SEL: case O_COPY:
		if (k == KX || k >= NK)
			why = "needs a class";
		break;
	case O_CVT:
		if (tyk == KX || i->aux < 0 || i->aux >= NSK || ir_cls_of_sk((ScalarKind)i->aux) == KX)
			why = "converts between unknown kinds";
		else if (k != ir_cls_of_sk((ScalarKind)i->aux))
			why = "class differs from the class of its target kind (aux)";
		break;
	case O_BITS:
		if (k == KX || k == KB || k >= NK)
			why = "needs class w, l, s or d";
		break;
	case O_PARAM: case O_LOAD: case O_STORE: case O_ATOM:
		if (tyk == KX)
			why = "has an unknown memory kind (Ins.ty)";
		else if (k != tyk)
			why = "class differs from the class of its kind (Ins.ty)";
		else if (i->op == O_LOAD || i->op == O_STORE) {
			int sp = ir_mem_space(i), co = ir_cache_op(i);
			if (i->aux < 0 || sp > 6 || !irt_space[sp])
				why = "has an unknown space";
			else if (co && (co >= NCO || !ir_cache_op_ok(co, i->op == O_STORE)))
				why = "has a cache operator its kind of access cannot have";
			else if (co && sp != SP_GLOBAL)
				why = "has a cache operator outside the global space";
		} else if (i->op == O_ATOM) {
			int sp = i->aux >> 8;
			if ((i->aux & 255) >= NAT || sp < 0 || sp > 6 || !irt_space[sp])
				why = "has an unknown operation or space";
		} else if (i->aux < 0 || i->aux + 1 > (f->param_bytes ? f->param_bytes : 1 << 30))
			why = "reads outside the parameter buffer";
		break;
	case O_SREG:
		if (k != KW)
			why = "defines class w";
		else if (i->aux < 0 || i->aux >= NSR)
			why = "names an unknown special register";
		break;
	case O_ADDR:
		if (k != KL)
			why = "defines class l";
		else if (i->aux < 0 || i->aux >= f->narrays)
			why = "names a nonexistent array";
		break;
	case O_CHECK: case O_TRAP:
		if (i->aux < 0 || i->aux >= f->nchecks)
			why = "names a nonexistent check (Fn.checks)";
		break;
	case O_MEMBAR:
		if (i->aux < 0 || i->aux > 2)
			why = "has an unknown level";
		break;
	case O_BAR:
		if (i->aux < 0 || i->aux > 1)
			why = "is neither the block's barrier nor the grid's";
		break;
	case O_POPC: case O_CLZ: case O_BREV:
		if (!is_int(k))
			why = "needs class w or l";
		break;
	case O_SHFL:
		if (k != KW)
			why = "defines class w";
		else if ((i->aux & 255) > 3 || (i->aux >> 8) > 0x1fff)
			why = "has an unknown mode or clamp";
		break;
	case O_VOTE:
		if (i->aux < 0 || i->aux > 3)
			why = "has an unknown mode";
		else if (k != (i->aux == 3 ? KW : KB))
			why = "defines class b (all, any, uni) or w (ballot)";
		break;
	case O_MATCH:
		if (k != KW)
			why = "defines class w";
		else if (i->aux < 0 || i->aux > 1)
			why = "has an unknown mode";
		else if (tyk != KW && tyk != KL)
			why = "compares a kind of class w or l (Ins.ty)";
		break;
	case O_BARRED:
		if (k != KW)
			why = "defines class w";
		else if (i->aux < 0 || i->aux > 2)
			why = "has an unknown operation";
		break;
	case O_ACTIVEMASK:
		if (k != KW)
			why = "defines class w";
		break;
	case O_FARG: case O_CRES:
		if (tyk == KX || k != tyk)
			why = "class differs from the class of its kind (Ins.ty)";
		else if (i->op == O_FARG && (!f->is_func || i->aux < 0 || i->aux >= f->nfargs))
			why = "names no argument of a device function";
		break;
	case O_CALLF:
		if (!f->mod || i->aux < 0 || i->aux >= f->mod->nfuncs)
			why = "calls a nonexistent function (Fn.mod->funcs)";
		break;
	case O_RETV:
		if (!f->is_func || i->aux < 0 || i->aux >= f->nfrets)
			why = "names no result of a device function";
		break;
	case O_PRINT:
		if (k != KL || i->aux < 0 || i->aux >= f->nfmts)
			why = "needs class l and a format of Fn.fmts";
		break;
	case O_APPROX:
		if (k != KS || i->aux < 0 || i->aux >= NAP)
			why = "needs class s and a function AP_*";
		break;
	default:
		break;
	}
	if (why)
		bad(v, bi, ii, "%s %s", irt_opname(i->op), why);
	for (int a = 0; a < n; a++) {
		Ref r = i->arg[a];
		if (!valid_ref(f, r))
			bad(v, bi, ii, "operand %d refers to a nonexistent %s", a, r.kind == R_VAL ? "value" : "constant");
		Cls have = ir_cls_of(f, r), want = ir_arg_cls(i, a);
		if ((i->op == O_SHL || i->op == O_SHR) && a == 1 && is_int(have))
			continue;
		if (i->op == O_BITS) {
			int wide = have == KL || have == KD, kw = k == KL || k == KD;
			if (have != KB && have != KX && wide == kw)
				continue;
			bad(v, bi, ii, "bits from class %s to %s changes the width", cls_name[have], cls_name[k]);
		}
		if (have != want)
			bad(v, bi, ii, "operand %d has class %s, expected %s", a,
			    have < NK ? cls_name[have] : "?", want < NK ? cls_name[want] : "?");
	}
	if (i->loc < -1 || i->loc >= f->nlocs)
		bad(v, bi, ii, "loc %d does not exist", i->loc);
}

void ir_verify(Fn *f, const char *after_pass)
{
	Arena *a = f->ctx->arena;
	V v = {.f = f, .after = after_pass};
	check_cfg(&v);
	fill_dom(&v);
	v.defblk = arena_alloc(a, sizeof(int) * (size_t)(f->nval + 1));
	v.defpos = arena_alloc(a, sizeof(int) * (size_t)(f->nval + 1));
	for (int i = 0; i < f->nval; i++)
		v.defblk[i] = -1;
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		for (int k = 0; k < b->nphi; k++) {
			Phi *p = &b->phi[k];
			define(&v, bi, -1, p->to, p->cls);
			if (p->n != b->npred)
				bad(&v, bi, -1, "phi %%%d has %d arguments for %d predecessors", p->to, p->n, b->npred);
		}
		for (int k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			if (i->op < NOPS && op_info[i->op].def && i->to >= 0)
				define(&v, bi, k, i->to, i->cls);
		}
	}
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		for (int k = 0; k < b->nphi; k++) {
			Phi *p = &b->phi[k];
			for (int j = 0; j < p->n; j++) {
				Ref r = p->arg[j];
				if (r.kind == R_NONE)
					bad(&v, bi, -1, "phi %%%d has no argument for @b%d", p->to, b->pred[j]);
				use(&v, b->pred[j], 0, r, 1, bi, -1);
				if (ir_cls_of(f, r) != p->cls)
					bad(&v, bi, -1, "phi %%%d of class %s has an argument of class %s", p->to,
					    cls_name[p->cls], cls_name[ir_cls_of(f, r)]);
			}
		}
		for (int k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			int n = ir_nargs(i);
			for (int j = 0; j < n; j++)
				use(&v, bi, k, i->arg[j], 0, bi, k);
			check_ins(&v, bi, k);
			if (i->op == O_CHECK) {
				CheckInfo *ck = &f->checks[i->aux];
				for (int d = 0; d < ck->ndim && d < 8; d++)
					if (ck->ext[d].kind != R_NONE)
						use(&v, bi, k, ck->ext[d], 0, bi, k);
			}
		}
		if (b->jmp == J_JNZ)
			use(&v, bi, 0, b->cond, 1, bi, -2);
	}
	for (int i = 0; i < f->nchecks; i++) {
		CheckInfo *ck = &f->checks[i];
		if (ck->ndim < 0 || ck->ndim > 8)
			bad(&v, -1, 0, "check %d has ndim %d", i, ck->ndim);
		if (ck->loc < -1 || ck->loc >= f->nlocs)
			bad(&v, -1, 0, "check %d has loc %d, which does not exist", i, ck->loc);
	}
}

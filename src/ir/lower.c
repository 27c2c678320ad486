/*
 * lower.c - typed AST of a kernel to SSA IR: the entry point, the kernel
 * parameters, and the SSA construction every other lower_*.c file uses.
 *
 * lower_kernel makes the entry block, turns each kernel argument into
 * parameters of the kernel ABI (DESIGN.md: scalars by value, complex as
 * two parts, arrays as data pointer + extents [+ byte strides unless the
 * layout is C], tuples flattened) with an O_PARAM each, binds the
 * arguments' variables, lowers the body (lower_stmt.c), and finishes the
 * function: trivial phis removed, the remaining phis written into their
 * blocks, every operand rewritten through the replacements, predecessors
 * and reverse post-order recomputed (ir_fill_preds, ir_fill_rpo).
 *
 * SSA construction (Braun et al. 2013): each block records the current
 * definition of each slot (LBlk.def).  Reading a slot that a block does
 * not define asks its predecessors: through a single predecessor
 * directly, at a join through a phi, and in a block that is not sealed
 * yet (a loop header whose back edges are still to come) through an
 * incomplete phi that gets its arguments when the block is sealed.  A phi
 * whose arguments are all one value (or itself) is trivial and replaced
 * by that value; replacements are kept in Lower.repl and applied once at
 * the end, and a last fixed-point round removes the phis that became
 * trivial through others.  A slot read before any definition reads zero
 * (sema refuses reads of unbound names; what is left is dead code).
 */
#include <string.h>

#include "lower.h"

/* ---------------------------------------------------------- blocks, edges */

static void grow_lb(Lower *L)
{
	if (L->nlb >= L->f->nblk)
		return;
	int n = L->f->nblk + 16;
	LBlk *nb = arena_alloc(L->c->arena, sizeof *nb * (size_t)n);
	if (L->nlb)
		memcpy(nb, L->lb, sizeof *nb * (size_t)L->nlb);
	L->lb = nb;
	L->nlb = n;
}

Blk *lower_new_blk(Lower *L)
{
	Blk *b = ir_new_blk(L->f);
	grow_lb(L);
	return b;
}

void lower_enter(Lower *L, Blk *b)
{
	L->cur = b;
}

static void add_edge(Lower *L, Blk *from, Blk *to)
{
	if (L->lb[to->id].sealed)
		ICE(L->c, "edge @b%d -> @b%d into a sealed block", from->id, to->id);
	ir_add_pred(L->f, to, from->id);
}

void lower_jump(Lower *L, Blk *to)
{
	Blk *b = L->cur;
	if (!b)
		return;
	ir_jmp(b, to->id);
	add_edge(L, b, to);
	L->cur = NULL;
}

void lower_branch(Lower *L, Ref cond, Blk *t, Blk *f)
{
	Blk *b = L->cur;
	if (!b)
		return;
	if (t == f) {
		lower_jump(L, t);
		return;
	}
	ir_jnz(b, cond, t->id, f->id);
	add_edge(L, b, t);
	add_edge(L, b, f);
	L->cur = NULL;
}

Blk *lower_dead_blk(Lower *L)
{
	Blk *b = lower_new_blk(L);
	lower_seal(L, b);
	lower_enter(L, b);
	return b;
}

/* ------------------------------------------------------------------ slots */

int lower_ncomp(const Type *t)
{
	if (!t)
		return 0;
	switch (t->kind) {
	case TY_SCALAR:
		return scalar_info[t->sk].is_complex ? 2 : 1;
	case TY_ARRAY:
		return 1 + t->ndim + (t->layout == LAYOUT_A ? t->ndim : 0);
	case TY_RECORD:
		return 1;
	case TY_POINTER:
		return 3;
	case TY_TUPLE: {
		int n = 0;
		for (int i = 0; i < t->n; i++)
			n += lower_ncomp(t->elts[i]);
		return n;
	}
	default:
		return 0;
	}
}

static void comp_cls(const Type *t, Cls *out, int *n)
{
	switch (t->kind) {
	case TY_SCALAR:
		out[(*n)++] = lower_cls(t->sk);
		if (scalar_info[t->sk].is_complex)
			out[(*n)++] = lower_cls(t->sk);
		break;
	case TY_ARRAY: case TY_RECORD: case TY_POINTER:
		for (int i = 0; i < lower_ncomp(t); i++)
			out[(*n)++] = KL;
		break;
	case TY_TUPLE:
		for (int i = 0; i < t->n; i++)
			comp_cls(t->elts[i], out, n);
		break;
	default:
		break;
	}
}

static void flatten(Lower *L, Value *v, Ref *out, int *n)
{
	Type *t = v->ty;
	switch (t->kind) {
	case TY_SCALAR:
		out[(*n)++] = v->r;
		if (scalar_info[t->sk].is_complex)
			out[(*n)++] = v->im;
		break;
	case TY_ARRAY:
		out[(*n)++] = v->data;
		for (int i = 0; i < t->ndim; i++)
			out[(*n)++] = v->shape[i];
		if (t->layout == LAYOUT_A)
			for (int i = 0; i < t->ndim; i++)
				out[(*n)++] = v->stride ? v->stride[i] : REF_NONE;
		break;
	case TY_RECORD:
		out[(*n)++] = v->data;
		break;
	case TY_POINTER:
		out[(*n)++] = v->data;
		out[(*n)++] = v->base;
		out[(*n)++] = v->room;
		break;
	case TY_TUPLE:
		if (v->n != t->n)
			ICE(L->c, "tuple value of %d elements for %s", v->n, ty_str_of(L->c, t));
		for (int i = 0; i < t->n; i++)
			flatten(L, &v->elts[i], out, n);
		break;
	default:
		break;
	}
}

static Value unflatten(Lower *L, Type *t, Ref *in, int *n)
{
	Value v = {.ty = t};
	Arena *a = L->c->arena;
	switch (t->kind) {
	case TY_SCALAR:
		v.r = in[(*n)++];
		if (scalar_info[t->sk].is_complex)
			v.im = in[(*n)++];
		break;
	case TY_ARRAY:
		v.data = in[(*n)++];
		v.shape = arena_alloc(a, sizeof(Ref) * (size_t)(t->ndim + 1));
		for (int i = 0; i < t->ndim; i++)
			v.shape[i] = in[(*n)++];
		if (t->layout == LAYOUT_A) {
			v.stride = arena_alloc(a, sizeof(Ref) * (size_t)(t->ndim + 1));
			for (int i = 0; i < t->ndim; i++)
				v.stride[i] = in[(*n)++];
		}
		break;
	case TY_RECORD:
		v.data = in[(*n)++];
		break;
	case TY_POINTER:
		v.data = in[(*n)++];
		v.base = in[(*n)++];
		v.room = in[(*n)++];
		break;
	case TY_TUPLE:
		v.n = t->n;
		v.elts = arena_alloc(a, sizeof(Value) * (size_t)(t->n + 1));
		for (int i = 0; i < t->n; i++)
			v.elts[i] = unflatten(L, t->elts[i], in, n);
		break;
	default:
		break;
	}
	return v;
}

/* A value's scalar operands in slot order, and back (lower_call.c). */
int lower_flatten(Lower *L, Value v, Ref *out)
{
	int n = 0;
	flatten(L, &v, out, &n);
	return n;
}

Value lower_unflatten(Lower *L, Type *t, Ref *in)
{
	int n = 0;
	return unflatten(L, t, in, &n);
}

int lower_new_slots(Lower *L, Type *t, const char *name)
{
	int n = lower_ncomp(t);
	int base = L->nslot;
	if (!n)
		return base;
	Cls *k = arena_alloc(L->c->arena, sizeof *k * (size_t)n);
	int m = 0;
	comp_cls(t, k, &m);
	for (int i = 0; i < n; i++) {
		LSlot s = {k[i], name};
		VEC_PUSH(L->c, L->slot, L->nslot, L->capslot, s);
	}
	return base;
}

/* ------------------------------------------------------- SSA construction */

static void grow_valmap(Lower *L)
{
	int need = L->f->nval;
	if (need <= L->nvalmap)
		return;
	int n = need * 2 + 64;
	Ref *rp = arena_alloc(L->c->arena, sizeof *rp * (size_t)n);
	if (L->nvalmap)
		memcpy(rp, L->repl, sizeof *rp * (size_t)L->nvalmap);
	L->repl = rp;
	L->nvalmap = n;
}

Ref lower_resolve(Lower *L, Ref r)
{
	Ref start = r;
	while (r.kind == R_VAL && (int)r.idx < L->nvalmap && L->repl[r.idx].kind != R_NONE)
		r = L->repl[r.idx];
	/* path compression */
	while (start.kind == R_VAL && (int)start.idx < L->nvalmap && L->repl[start.idx].kind != R_NONE) {
		Ref next = L->repl[start.idx];
		L->repl[start.idx] = r;
		start = next;
	}
	return r;
}

static Ref get_def(Lower *L, Blk *b, int slot)
{
	LBlk *lb = &L->lb[b->id];
	return slot < lb->ndef ? lb->def[slot] : REF_NONE;
}

static void set_def(Lower *L, Blk *b, int slot, Ref r)
{
	LBlk *lb = &L->lb[b->id];
	if (slot >= lb->ndef) {
		/* at least double, or a block that defines one new slot after
		 * another copies its table each time */
		int n = L->nslot > slot + 1 ? L->nslot + 8 : slot + 9;
		if (n < 2 * lb->ndef)
			n = 2 * lb->ndef;
		Ref *d = arena_alloc(L->c->arena, sizeof *d * (size_t)n);
		if (lb->ndef)
			memcpy(d, lb->def, sizeof *d * (size_t)lb->ndef);
		lb->def = d;
		lb->ndef = n;
	}
	lb->def[slot] = r;
}

static int new_phi(Lower *L, Blk *b, int slot)
{
	Cls k = L->slot[slot].cls;
	int v = ir_new_val(L->f, k, L->slot[slot].name);
	L->f->val[v].blk = b->id;
	LPhi p = {.val = v, .blk = b->id, .slot = slot, .cls = k};
	VEC_PUSH(L->c, L->phi, L->nphi, L->capphi, p);
	grow_valmap(L);
	return L->nphi - 1;
}

/* The value of a trivial phi (all arguments one value or the phi
 * itself), or REF_NONE when it is not trivial. */
static Ref trivial_value(Lower *L, int p)
{
	Ref self = REF_VAL(L->phi[p].val), same = REF_NONE;
	for (int i = 0; i < L->phi[p].n; i++) {
		Ref a = lower_resolve(L, L->phi[p].arg[i]);
		if (ref_eq(a, self) || (same.kind != R_NONE && ref_eq(a, same)))
			continue;
		if (same.kind != R_NONE)
			return REF_NONE;
		same = a;
	}
	if (same.kind == R_NONE)
		same = lower_zero(L, L->phi[p].cls);
	return same;
}

static Ref try_remove_trivial(Lower *L, int p)
{
	Ref same = trivial_value(L, p);
	if (same.kind == R_NONE)
		return REF_VAL(L->phi[p].val);
	L->phi[p].dead = 1;
	L->repl[L->phi[p].val] = same;
	return lower_resolve(L, same);
}

static Ref read_slot(Lower *L, int slot, Blk *b);

static Ref add_phi_operands(Lower *L, int p)
{
	Blk *b = L->f->blk[L->phi[p].blk];
	int n = b->npred;
	Ref *arg = arena_alloc(L->c->arena, sizeof *arg * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		arg[i] = read_slot(L, L->phi[p].slot, L->f->blk[b->pred[i]]);
	L->phi[p].arg = arg;
	L->phi[p].n = n;
	return try_remove_trivial(L, p);
}

/* The definition of slot reaching the start of the top block of a chain
 * of single-predecessor blocks: a phi, a predecessor's value, or zero. */
static Ref read_at_join(Lower *L, int slot, Blk *b)
{
	LBlk *lb = &L->lb[b->id];
	Ref v;
	if (!lb->sealed) {
		int p = new_phi(L, b, slot);
		VEC_PUSH(L->c, lb->inc, lb->ninc, lb->capinc, p);
		v = REF_VAL(L->phi[p].val);
	} else if (b->npred == 0) {
		v = lower_zero(L, L->slot[slot].cls);
	} else {
		int p = new_phi(L, b, slot);
		set_def(L, b, slot, REF_VAL(L->phi[p].val));
		v = add_phi_operands(L, p);
	}
	set_def(L, b, slot, v);
	return v;
}

static Ref read_slot(Lower *L, int slot, Blk *b)
{
	Ref r = get_def(L, b, slot);
	if (r.kind != R_NONE)
		return lower_resolve(L, r);
	/* walk up single-predecessor chains without recursion */
	Blk *top = b;
	while (L->lb[top->id].sealed && top->npred == 1) {
		top = L->f->blk[top->pred[0]];
		r = get_def(L, top, slot);
		if (r.kind != R_NONE)
			break;
	}
	if (r.kind == R_NONE)
		r = read_at_join(L, slot, top);
	r = lower_resolve(L, r);
	for (Blk *x = b; x != top; x = L->f->blk[x->pred[0]])
		set_def(L, x, slot, r);
	return r;
}

void lower_seal(Lower *L, Blk *b)
{
	LBlk *lb = &L->lb[b->id];
	if (lb->sealed)
		return;
	lb->sealed = 1;
	for (int i = 0; i < lb->ninc; i++)
		add_phi_operands(L, L->lb[b->id].inc[i]);
	L->lb[b->id].ninc = 0;
}

void lower_write(Lower *L, int slot, Type *t, Value v)
{
	int n = lower_ncomp(t);
	if (!n)
		return;
	if (!L->cur)
		ICE(L->c, "write to a slot in dead code");
	Ref *r = arena_alloc(L->c->arena, sizeof *r * (size_t)n);
	int m = 0;
	v.ty = t;
	flatten(L, &v, r, &m);
	if (m != n)
		ICE(L->c, "value of %d operands for %s", m, ty_str_of(L->c, t));
	for (int i = 0; i < n; i++) {
		if (r[i].kind == R_NONE)
			ICE(L->c, "undefined operand written to slot %d", slot + i);
		set_def(L, L->cur, slot + i, r[i]);
	}
}

Value lower_read(Lower *L, int slot, Type *t)
{
	int n = lower_ncomp(t);
	Ref *r = arena_alloc(L->c->arena, sizeof *r * (size_t)(n + 1));
	if (n && !L->cur)
		ICE(L->c, "read of a slot in dead code");
	for (int i = 0; i < n; i++)
		r[i] = read_slot(L, slot + i, L->cur);
	int m = 0;
	return unflatten(L, t, r, &m);
}

int lower_var_slot(Lower *L, Var *v)
{
	Frame *fr = L->fr;
	if (!v || v->index < 0 || v->index >= fr->nvars || fr->spec->vars[v->index] != v)
		ICE(L->c, "variable %s does not belong to the function being lowered",
		    v && v->name ? v->name : "?");
	if (fr->slot[v->index] < 0)
		fr->slot[v->index] = lower_new_slots(L, v->ty, v->name);
	return fr->slot[v->index];
}

void lower_write_var(Lower *L, Var *v, Value val)
{
	int s = lower_var_slot(L, v);
	lower_write(L, s, v->ty, lower_convert(L, val, v->ty, v->span));
}

Value lower_read_var(Lower *L, Var *v)
{
	return lower_read(L, lower_var_slot(L, v), v->ty);
}

/* ------------------------------------------------------- kernel parameters */

static int add_param(Lower *L, ScalarKind sk, int arg, int role, int dim)
{
	Fn *f = L->f;
	int size = scalar_info[sk].size;
	int off = f->param_bytes;
	off = (off + size - 1) / size * size;
	KParam p = {.ty = (uint8_t)sk, .off = off, .arg = arg, .role = role, .dim = dim};
	VEC_PUSH(L->c, f->param, f->nparam, f->capparam, p);
	f->param_bytes = off + size;
	return off;
}

static Ref load_param(Lower *L, ScalarKind sk, int arg, int role, int dim)
{
	int off = add_param(L, sk, arg, role, dim);
	return lower_emit(L, O_PARAM, ir_cls_of_sk(sk), sk, REF_NONE, REF_NONE, REF_NONE, off);
}

/* The arguments (KParam.arg) a value of type t takes: a tuple one per
 * leaf, None none. */
int lower_param_leaves(const Type *t)
{
	switch (t->kind) {
	case TY_TUPLE: {
		int n = 0;
		for (int i = 0; i < t->n; i++)
			n += lower_param_leaves(t->elts[i]);
		return n;
	}
	case TY_SCALAR: case TY_ARRAY: case TY_RECORD: case TY_POINTER:
		return 1;
	default:
		return 0;
	}
}

Value lower_param_value(Lower *L, Type *t, int arg)
{
	Value v = {.ty = t};
	Arena *a = L->c->arena;
	switch (t->kind) {
	case TY_SCALAR:
		if (scalar_info[t->sk].is_complex) {
			ScalarKind p = lower_part_sk(t->sk);
			v.r = load_param(L, p, arg, KP_REAL, 0);
			v.im = load_param(L, p, arg, KP_IMAG, 0);
		} else {
			v.r = load_param(L, t->sk, arg, KP_SCALAR, 0);
		}
		break;
	case TY_ARRAY:
		v.data = load_param(L, SK_U64, arg, KP_DATA, 0);
		v.shape = arena_alloc(a, sizeof(Ref) * (size_t)(t->ndim + 1));
		for (int i = 0; i < t->ndim; i++)
			v.shape[i] = load_param(L, SK_I64, arg, KP_SHAPE, i);
		if (t->layout == LAYOUT_A) {
			v.stride = arena_alloc(a, sizeof(Ref) * (size_t)(t->ndim + 1));
			for (int i = 0; i < t->ndim; i++)
				v.stride[i] = load_param(L, SK_I64, arg, KP_STRIDE, i);
		} else if (t->layout != LAYOUT_C) {
			/* F: the strides are part of the ABI but follow from the extents */
			for (int i = 0; i < t->ndim; i++)
				add_param(L, SK_I64, arg, KP_STRIDE, i);
		}
		break;
	case TY_RECORD:
		v.data = load_param(L, SK_U64, arg, KP_DATA, 0);
		break;
	case TY_POINTER:
		/* an address (an int at the launch); the simulator's program adds
		 * the bounds of the allocation it points into after every other
		 * parameter (pointer_bounds), so that both programs share the
		 * layout of the parameters the launch packs first */
		v.data = load_param(L, SK_U64, arg, KP_SCALAR, 0);
		v.base = v.room = REF_NONE;
		break;
	case TY_TUPLE:
		/* flattened: each leaf is an argument of its own (the glue's numbering) */
		v.n = t->n;
		v.elts = arena_alloc(a, sizeof(Value) * (size_t)(t->n + 1));
		for (int i = 0; i < t->n; i++) {
			v.elts[i] = lower_param_value(L, t->elts[i], arg);
			arg += lower_param_leaves(t->elts[i]);
		}
		break;
	default:
		break;
	}
	return v;
}

/* A pointer parameter's bounds (lower_pointer.c), which the simulator's
 * program takes after all other parameters; a pointer inside a tuple
 * argument has none there. */
static void pointer_bounds(Lower *L, Value *v, int arg, Span sp)
{
	Type *t = v->ty;
	if (t->kind == TY_TUPLE) {
		for (int i = 0; i < t->n; i++) {
			if (t->elts[i]->kind == TY_POINTER)
				err_at(L->c, sp, "pass the pointer as an argument of its own",
				       "a pointer inside a tuple argument is not supported");
			pointer_bounds(L, &v->elts[i], arg, sp);
			arg += lower_param_leaves(t->elts[i]);
		}
		return;
	}
	if (t->kind != TY_POINTER)
		return;
	Ref base = REF_NONE, bytes = REF_NONE;
	if (L->c->for_sim) {
		base = load_param(L, SK_U64, arg, KP_PBASE, 0);
		bytes = load_param(L, SK_I64, arg, KP_PBYTES, 0);
	}
	*v = lower_pointer_value(L, t, v->data, base, bytes);
}

/* "<name>_<8 hex digits of a hash of the argument types>", in [A-Za-z0-9_]. */
static const char *entry_name(Lower *L, Spec *k)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < k->nargs; i++) {
		const char *s = ty_str_of(L->c, k->argtypes[i]);
		for (; *s; s++)
			h = (h ^ (unsigned char)*s) * 16777619u;
		h = (h ^ ',') * 16777619u;
	}
	const char *name = k->def && k->def->name ? k->def->name : "kernel";
	char *n = arena_printf(L->c->arena, "%s_%08x", name, h);
	for (char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			*p = '_';
	return n;
}

/* ------------------------------------------------------------------ finish */

static void rewrite(Lower *L, Ref *r)
{
	*r = lower_resolve(L, *r);
}

static void finish(Lower *L)
{
	Fn *f = L->f;
	for (int i = 0; i < f->nblk; i++)
		if (!L->lb[i].sealed)
			ICE(L->c, "block @b%d never sealed", i);
	/* phis that became trivial through others */
	for (int changed = 1; changed;) {
		changed = 0;
		for (int p = 0; p < L->nphi; p++) {
			if (L->phi[p].dead)
				continue;
			Ref same = trivial_value(L, p);
			if (same.kind != R_NONE) {
				L->phi[p].dead = 1;
				L->repl[L->phi[p].val] = same;
				changed = 1;
			}
		}
	}
	for (int p = 0; p < L->nphi; p++) {
		LPhi *lp = &L->phi[p];
		if (lp->dead)
			continue;
		Blk *b = f->blk[lp->blk];
		if (lp->n != b->npred)
			ICE(L->c, "phi %%%d has %d arguments, block @b%d %d predecessors", lp->val, lp->n,
			    b->id, b->npred);
		Phi ph = {.to = lp->val, .cls = (uint8_t)lp->cls, .n = lp->n, .arg = lp->arg};
		VEC_PUSH(L->c, b->phi, b->nphi, b->capphi, ph);
	}
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = f->blk[i];
		for (int j = 0; j < b->nphi; j++)
			for (int k = 0; k < b->phi[j].n; k++)
				rewrite(L, &b->phi[j].arg[k]);
		for (int j = 0; j < b->nins; j++)
			for (int k = 0; k < 3; k++)
				rewrite(L, &b->ins[j].arg[k]);
		if (b->jmp == J_JNZ)
			rewrite(L, &b->cond);
		if (b->jmp == J_NONE) {
			if (b->npred || i == 0)
				ICE(L->c, "block @b%d has no jump", i);
			ir_ret(b);      /* unreachable; ir_fill_rpo drops it */
		}
	}
	for (int i = 0; i < f->nchecks; i++)
		for (int d = 0; d < 8; d++)
			rewrite(L, &f->checks[i].ext[d]);
	ir_fill_preds(f);
	ir_fill_rpo(f);
}

void lower_finish(Lower *L)
{
	finish(L);
}

/* -------------------------------------------------------------- the entry */

Fn *lower_kernel(Ctx *c, Spec *kernel, int checked)
{
	if (!kernel || !kernel->def)
		ICE(c, "lower_kernel without a typed kernel");
	Lower lw;
	memset(&lw, 0, sizeof lw);
	Lower *L = &lw;
	L->c = c;
	L->debug = checked && c->opt && c->opt->debug;
	L->zerodiv = L->debug;
	L->f = ir_new_fn(c, entry_name(L, kernel));
	L->f->checked = checked;

	Frame fr;
	memset(&fr, 0, sizeof fr);
	fr.spec = kernel;
	fr.nvars = kernel->nvars;
	fr.slot = arena_alloc(c->arena, sizeof(int) * (size_t)(fr.nvars + 1));
	for (int i = 0; i < fr.nvars; i++)
		fr.slot[i] = -1;
	fr.retty = ty_none();
	L->fr = &fr;

	Blk *entry = lower_new_blk(L);
	lower_seal(L, entry);
	lower_enter(L, entry);
	L->f->cur_loc = L->f->def_loc = ir_add_loc(L->f, kernel->def->span);

	FuncDef *def = kernel->def;
	Value *vals = arena_alloc(c->arena, sizeof(Value) * (size_t)(def->nparams + 1));
	int *leaves = arena_alloc(c->arena, sizeof(int) * (size_t)(def->nparams + 1));
	for (int i = 0, leaf = 0; i < def->nparams; i++) {
		Param *p = &def->params[i];
		if (i < kernel->nargs) {
			leaves[i] = leaf;
			vals[i] = lower_param_value(L, kernel->argtypes[i], leaf);
			leaf += lower_param_leaves(kernel->argtypes[i]);
		}
		else if (p->defval && p->defval->cval && p->var)
			vals[i] = lower_const(L, p->defval->cval, p->var->ty, p->span);
		else
			ICE(c, "kernel %s: parameter %s has no argument type and no constant default",
			    def->name, p->name);
	}
	for (int i = 0; i < def->nparams && i < kernel->nargs; i++)
		pointer_bounds(L, &vals[i], leaves[i], def->params[i].span);
	for (int i = 0; i < def->nparams; i++)
		if (def->params[i].var)
			lower_write_var(L, def->params[i].var, vals[i]);
	/* the driver wants the exact size: the end of the last parameter */

	lower_block(L, &def->body);
	if (L->cur && !fr.ret) {
		ir_ret(L->cur);
		L->cur = NULL;
	}
	if (L->cur)
		lower_jump(L, fr.ret);
	if (fr.ret) {
		lower_seal(L, fr.ret);
		lower_enter(L, fr.ret);
		ir_ret(fr.ret);
		L->cur = NULL;
	}
	finish(L);
	lower_call_pending(L);   /* the functions it calls for real (lower_call.c) */
	return L->f;
}

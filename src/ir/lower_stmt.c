/*
 * lower_stmt.c - statements: assignment (names, subscripts, unpacking),
 * augmented assignment, if/elif/else, while and for loops with else
 * clauses, break/continue/return, assert/raise, and the inlining of
 * device functions.
 *
 * Control flow is built as structured Python gives it: each compound
 * statement makes its blocks, lowers its bodies, and seals each block as
 * soon as its last predecessor is known (a loop header after the body and
 * every `continue`, a loop exit after every `break`).  A block that
 * nothing would jump to is not made (the join of an if whose branches
 * both return, the exit of `while True:` without break), and statements
 * after a jump (return, break, continue, raise) are dead and skipped.
 *
 *   for i in range(a, b, s)   a hidden counter runs from a; the test is
 *                             counter < b for s > 0 and counter > b for
 *                             s < 0 (chosen statically for a constant s;
 *                             a step known only at run time is tested
 *                             first, in every build: zero raises
 *                             ValueError, where it would loop forever);
 *                             the target gets the counter at the top of
 *                             each iteration, so assigning to it in the
 *                             body does not change the iteration.
 *   for x in array (1-D)      an index loop over the extent.
 *   for x in tuple            unrolled, one copy of the body per element.
 *
 * assert and raise: in a debug build (Fn.checked and PjOptions.debug) a
 * failing assert and every raise execute O_TRAP with the message
 * ("AssertionError: msg"); otherwise assert is not evaluated at all and
 * raise ends the thread, as Numba's kernels return on an exception (in a
 * function called for real, through a trap without message).
 *
 * Device functions are inlined, except the recursive ones, which are
 * called (lower_call.c): the arguments are evaluated in the
 * caller, converted to the callee's specialised parameter types and bound
 * to its variables (slots of a new Frame); `return v` writes the return
 * value's slots and jumps to a continuation block, where reading them
 * makes the phis.
 */
#include <string.h>

#include "lower.h"

static void lower_stmt(Lower *L, Stmt *s);

void lower_block(Lower *L, StmtList *b)
{
	for (int i = 0; i < b->n; i++) {
		if (!L->cur)
			return;
		lower_stmt(L, b->s[i]);
	}
}

static Blk *loop_brk(Lower *L, Loop *lp)
{
	if (!lp->brk)
		lp->brk = lower_new_blk(L);
	return lp->brk;
}

/* After a loop: the else clause (reached when the loop test fails) and
 * the exit block (reached from the else clause and every break).  An else
 * clause of a loop without a break runs into the statements after the
 * loop in its own block, as those of the loop without it would: the same
 * IR as a function rebuilt from bytecode that cannot tell them apart. */
static void finish_loop(Lower *L, Loop *lp, Blk *els, StmtList *orelse)
{
	if (els) {
		lower_seal(L, els);
		lower_enter(L, els);
		lower_block(L, orelse);
		if (!lp->brk)
			return;
		if (L->cur)
			lower_jump(L, lp->brk);
	}
	L->cur = NULL;
	if (lp->brk) {
		lower_seal(L, lp->brk);
		lower_enter(L, lp->brk);
	}
}

/* ------------------------------------------------------------ assignment */

static void unpack(Lower *L, Expr *target, Value v, Span sp)
{
	int n = target->tuple.n;
	if (v.ty->kind == TY_TUPLE) {
		if (v.n != n)
			err_at(L->c, target->span, NULL, "cannot unpack %d values into %d targets", v.n, n);
		for (int i = 0; i < n; i++)
			lower_assign(L, target->tuple.elts[i], v.elts[i], sp);
		return;
	}
	if (v.ty->kind == TY_ARRAY) {
		if (v.ty->ndim != 1)
			lower_unsupported(L, target->span, "unpacking an array that is not 1-D");
		Value *items = arena_alloc(L->c->arena, sizeof(Value) * (size_t)(n + 1));
		for (int i = 0; i < n; i++)
			items[i] = lower_array_item(L, v, ir_con_int(L->f, KL, i), "value", sp);
		for (int i = 0; i < n; i++)
			lower_assign(L, target->tuple.elts[i], items[i], sp);
		return;
	}
	err_at(L->c, target->span, "unpack a tuple or a 1-D array", "cannot unpack %s",
	       ty_str_of(L->c, v.ty));
}

void lower_assign(Lower *L, Expr *target, Value v, Span sp)
{
	switch (target->kind) {
	case E_NAME:
		if (!target->name.var)
			err_at(L->c, target->span, NULL, "cannot assign to %s", target->name.id);
		lower_write_var(L, target->name.var, v);
		return;
	case E_SUBSCRIPT:
		lower_store_subscript(L, target, v);
		return;
	case E_TUPLE:
		unpack(L, target, v, sp);
		return;
	case E_ATTR:
		if (target->attr.obj->ty && target->attr.obj->ty->kind == TY_RECORD) {
			lower_record_store(L, target, v);
			return;
		}
		err_at(L->c, target->span, "assign to variables or array elements",
		       "attributes cannot be assigned in kernels");
	default:
		err_at(L->c, target->span, "assign to variables or array elements",
		       "cannot assign to this expression");
	}
}

static void lower_augassign(Lower *L, Stmt *s)
{
	Expr *t = s->aug.target, *value = s->aug.value;
	AstOp op = s->aug.op;
	if (t->kind == E_SUBSCRIPT) {
		lower_aug_subscript(L, t, op, value);
		return;
	}
	if (t->kind == E_ATTR && t->attr.obj->ty && t->attr.obj->ty->kind == TY_RECORD) {
		lower_record_aug(L, t, op, value);
		return;
	}
	if (t->kind != E_NAME || !t->name.var)
		err_at(L->c, t->span, "update variables or array elements",
		       "cannot update this expression in place");
	Var *var = t->name.var;
	Value cur = lower_read_var(L, var);
	lower_write_var(L, var, lower_aug_value(L, op, cur, var->ty, value, s->span));
}

/* --------------------------------------------------------- control flow */

/* The truth of condition e when it is a constant (const_truth), else -1. */
static int known_truth(const Expr *e)
{
	int truth;
	return const_truth(e->cval, &truth) ? truth : -1;
}

static void lower_if(Lower *L, Stmt *s)
{
	int ct = known_truth(s->cond.cond);
	if (ct >= 0) {
		lower_block(L, ct ? &s->cond.body : &s->cond.orelse);
		return;
	}
	Blk *t = lower_new_blk(L), *e = s->cond.orelse.n ? lower_new_blk(L) : NULL, *join = NULL;
	if (!e)
		join = lower_new_blk(L);
	lower_cond(L, s->cond.cond, t, e ? e : join);
	lower_seal(L, t);
	if (e)
		lower_seal(L, e);
	lower_enter(L, t);
	lower_block(L, &s->cond.body);
	if (L->cur) {
		if (!join)
			join = lower_new_blk(L);
		lower_jump(L, join);
	}
	if (e) {
		lower_enter(L, e);
		lower_block(L, &s->cond.orelse);
		if (L->cur) {
			if (!join)
				join = lower_new_blk(L);
			lower_jump(L, join);
		}
	}
	L->cur = NULL;
	if (join) {
		lower_seal(L, join);
		lower_enter(L, join);
	}
}

static void lower_while(Lower *L, Stmt *s)
{
	Frame *fr = L->fr;
	int ct = known_truth(s->cond.cond);
	if (ct == 0) {
		lower_block(L, &s->cond.orelse);
		return;
	}
	Loop lp = {.up = fr->loop};
	Blk *head = lower_new_blk(L), *body = head, *els = NULL;
	lower_jump(L, head);
	lower_enter(L, head);
	if (ct < 0) {
		body = lower_new_blk(L);
		if (s->cond.orelse.n)
			els = lower_new_blk(L);
		lower_cond(L, s->cond.cond, body, els ? els : loop_brk(L, &lp));
		lower_seal(L, body);
	}
	lp.cont = head;
	fr->loop = &lp;
	lower_enter(L, body);
	lower_block(L, &s->cond.body);
	if (L->cur)
		lower_jump(L, head);
	fr->loop = lp.up;
	lower_seal(L, head);
	finish_loop(L, &lp, els, &s->cond.orelse);
}

static Expr *range_arg(Expr *it, int i)
{
	return i < it->call.nargs ? it->call.args[i] : NULL;
}

static void for_range(Lower *L, Stmt *s, Expr *it)
{
	Frame *fr = L->fr;
	int na = it->call.nargs;
	if (na < 1 || na > 3 || it->call.nkw)
		err_at(L->c, it->span, "range(stop), range(start, stop) or range(start, stop, step)",
		       "range() takes 1 to 3 positional arguments");
	Type *ty = it->ty && it->ty->kind == TY_RANGE && it->ty->elem ? it->ty->elem : NULL;
	if (!ty || ty->kind != TY_SCALAR || !lower_is_intsk(ty->sk))
		ty = ty_scalar(SK_I64);
	ScalarKind sk = ty->sk;
	Cls k = lower_cls(sk);
	Expr *se = na > 1 ? range_arg(it, 0) : NULL, *ee = na > 1 ? range_arg(it, 1) : range_arg(it, 0);
	Expr *te = na > 2 ? range_arg(it, 2) : NULL;
	Value start = se ? lower_convert(L, lower_expr(L, se), ty, se->span)
	                 : lower_scalar(ty, lower_con_int(L, sk, 0));
	Value stop = lower_convert(L, lower_expr(L, ee), ty, ee->span);
	Value step = te ? lower_convert(L, lower_expr(L, te), ty, te->span)
	                : lower_scalar(ty, lower_con_int(L, sk, 1));
	int64_t sc = 1;
	int sconst = !te || lower_const_int(te, &sc);
	if (sconst && sc == 0)
		err_at(L->c, te->span, NULL, "range() step must not be zero");
	int ivs = lower_new_slots(L, ty, "range");
	lower_write(L, ivs, ty, start);
	Blk *head = lower_new_blk(L);
	if (!sconst) {
		/* always (a zero step would loop forever where start > stop); the
		 * test branches straight to the head, so that once folded (a step
		 * the optimiser proves non-zero, such as cuda.gridsize(1)) it
		 * leaves the blocks of a constant step */
		Blk *bad = lower_new_blk(L);
		lower_branch(L, lower_cmp(L, CC_NE, sk, step.r, lower_con_int(L, sk, 0)), head, bad);
		lower_seal(L, bad);
		lower_enter(L, bad);
		lower_trap(L, "ValueError: range() arg 3 must not be zero");
		ir_ret(L->cur);
		L->cur = NULL;
	} else
		lower_jump(L, head);
	lower_enter(L, head);
	Ref iv = lower_read(L, ivs, ty).r;
	Ref c;
	if (sconst)
		c = lower_cmp(L, sc > 0 ? CC_LT : CC_GT, sk, iv, stop.r);
	else {
		Ref zero = lower_con_int(L, sk, 0);
		Ref pos = lower_cmp(L, CC_GT, sk, step.r, zero);
		Ref lt = lower_cmp(L, CC_LT, sk, iv, stop.r), gt = lower_cmp(L, CC_GT, sk, iv, stop.r);
		Ref up = lower_emit(L, O_AND, KB, SK_BOOL, pos, lt, REF_NONE, 0);
		Ref down = lower_emit(L, O_AND, KB, SK_BOOL, lower_not(L, pos), gt, REF_NONE, 0);
		c = lower_emit(L, O_OR, KB, SK_BOOL, up, down, REF_NONE, 0);
	}
	Loop lp = {.up = fr->loop};
	Blk *body = lower_new_blk(L), *els = s->loop.orelse.n ? lower_new_blk(L) : NULL;
	lower_branch(L, c, body, els ? els : loop_brk(L, &lp));
	lower_seal(L, body);
	lower_enter(L, body);
	lower_assign(L, s->loop.target, lower_scalar(ty, iv), s->loop.target->span);
	Blk *latch = lower_new_blk(L);
	lp.cont = latch;
	fr->loop = &lp;
	int loc = L->f->cur_loc;
	lower_block(L, &s->loop.body);
	if (L->cur)
		lower_jump(L, latch);
	fr->loop = lp.up;
	lower_seal(L, latch);
	if (latch->npred) {
		lower_enter(L, latch);
		L->f->cur_loc = loc;
		Ref cur = lower_read(L, ivs, ty).r;
		Ref next = lower_emit(L, O_ADD, k, sk, cur, step.r, REF_NONE, 0);
		lower_write(L, ivs, ty, lower_scalar(ty, lower_norm(L, next, sk)));
		lower_jump(L, head);
	}
	lower_seal(L, head);
	finish_loop(L, &lp, els, &s->loop.orelse);
}

static void for_array(Lower *L, Stmt *s, Expr *it)
{
	Frame *fr = L->fr;
	Value arr = lower_expr(L, it);
	if (arr.ty->ndim != 1)
		lower_unsupported(L, it->span, "iterating over an array that is not 1-D");
	const char *name = lower_span_text(L, it->span);
	Type *i64 = ty_scalar(SK_I64);
	int ks = lower_new_slots(L, i64, "iter");
	lower_write(L, ks, i64, lower_scalar(i64, ir_con_int(L->f, KL, 0)));
	Blk *head = lower_new_blk(L);
	lower_jump(L, head);
	lower_enter(L, head);
	Ref k = lower_read(L, ks, i64).r;
	Loop lp = {.up = fr->loop};
	Blk *body = lower_new_blk(L), *els = s->loop.orelse.n ? lower_new_blk(L) : NULL;
	Blk *done = els ? els : loop_brk(L, &lp);
	lower_branch(L, lower_cmp(L, CC_LT, SK_I64, k, arr.shape[0]), body, done);
	lower_seal(L, body);
	lower_enter(L, body);
	lower_assign(L, s->loop.target, lower_array_item(L, arr, k, name, it->span), s->loop.target->span);
	Blk *latch = lower_new_blk(L);
	lp.cont = latch;
	fr->loop = &lp;
	int loc = L->f->cur_loc;
	lower_block(L, &s->loop.body);
	if (L->cur)
		lower_jump(L, latch);
	fr->loop = lp.up;
	lower_seal(L, latch);
	if (latch->npred) {
		lower_enter(L, latch);
		L->f->cur_loc = loc;
		Ref cur = lower_read(L, ks, i64).r;
		Ref next = lower_emit(L, O_ADD, KL, SK_I64, cur, ir_con_int(L->f, KL, 1), REF_NONE, 0);
		lower_write(L, ks, i64, lower_scalar(i64, next));
		lower_jump(L, head);
	}
	lower_seal(L, head);
	finish_loop(L, &lp, els, &s->loop.orelse);
}

static void for_tuple(Lower *L, Stmt *s, Expr *it)
{
	Frame *fr = L->fr;
	Value t = lower_expr(L, it);
	Loop lp = {.up = fr->loop};
	for (int i = 0; i < t.n && L->cur; i++) {
		Blk *next = lower_new_blk(L);
		lp.cont = next;
		fr->loop = &lp;
		Expr *target = s->loop.nunroll > 0 ? s->loop.utargets[i] : s->loop.target;
		lower_assign(L, target, t.elts[i], target->span);
		lower_block(L, s->loop.nunroll > 0 ? &s->loop.ubodies[i] : &s->loop.body);
		fr->loop = lp.up;
		if (L->cur)
			lower_jump(L, next);
		lower_seal(L, next);
		if (next->npred)
			lower_enter(L, next);
	}
	fr->loop = lp.up;
	if (L->cur)
		lower_block(L, &s->loop.orelse);
	if (L->cur && lp.brk)
		lower_jump(L, lp.brk);
	if (lp.brk) {
		lower_seal(L, lp.brk);
		lower_enter(L, lp.brk);
	}
}

static void lower_for(Lower *L, Stmt *s)
{
	Expr *it = s->loop.iter;
	if (it->kind == E_CALL && (it->call.intrin == IN_RANGE ||
	                           (it->ty && it->ty->kind == TY_RANGE && !it->call.spec))) {
		for_range(L, s, it);
		return;
	}
	if (it->ty && it->ty->kind == TY_ARRAY) {
		for_array(L, s, it);
		return;
	}
	if (it->ty && it->ty->kind == TY_TUPLE) {
		for_tuple(L, s, it);
		return;
	}
	lower_unsupported(L, it->span, "iterating over this value (use range(), a 1-D array or a tuple)");
}

/* ---------------------------------------------------- return, assert, raise */

static void lower_return(Lower *L, Stmt *s)
{
	Frame *fr = L->fr;
	Expr *ve = s->ret.value;
	if (!fr->up) {
		if (ve && !(ve->ty && ve->ty->kind == TY_NONE))
			err_type_at(L->c, ve->span, "store results into an array argument",
			            "a kernel cannot return a value (a CUDA kernel must have void return type)");
		if (ve)
			lower_expr(L, ve);
	} else {
		Value v = ve ? lower_expr(L, ve) : lower_none(ty_none());
		lower_write(L, fr->retslot, fr->retty, lower_convert(L, v, fr->retty, ve ? ve->span : s->span));
	}
	if (!fr->ret)
		fr->ret = lower_new_blk(L);
	lower_jump(L, fr->ret);
}

void lower_trap(Lower *L, const char *msg)
{
	Fn *f = L->f;
	CheckInfo ci;
	memset(&ci, 0, sizeof ci);
	ci.loc = f->cur_loc;
	ci.msg = msg;
	ci.axis = -1;
	VEC_PUSH(L->c, f->checks, f->nchecks, f->capchecks, ci);
	lower_emit(L, O_TRAP, KX, SK_I32, REF_NONE, REF_NONE, REF_NONE, f->nchecks - 1);
}

void lower_guard(Lower *L, Ref ok, const char *msg)
{
	Blk *good = lower_new_blk(L), *bad = lower_new_blk(L);
	lower_branch(L, ok, good, bad);
	lower_seal(L, good);
	lower_seal(L, bad);
	lower_enter(L, bad);
	lower_trap(L, msg);
	ir_ret(L->cur);
	L->cur = NULL;
	lower_enter(L, good);
}

static const char *str_of(Lower *L, Expr *e)
{
	if (!e)
		return NULL;
	if (e->cval && e->cval->kind == PJ_V_STR)
		return e->cval->s;
	if (e->kind == E_STR && e->str.s)
		return arena_strndup(L->c->arena, e->str.s, (size_t)e->str.len);
	return NULL;
}

static void lower_assert(Lower *L, Stmt *s)
{
	if (!L->debug)
		return;
	const char *m = str_of(L, s->assert_.msg);
	const char *msg = m ? arena_printf(L->c->arena, "AssertionError: %s", m) : "AssertionError";
	Blk *ok = lower_new_blk(L), *fail = lower_new_blk(L);
	lower_cond(L, s->assert_.cond, ok, fail);
	lower_seal(L, ok);
	lower_seal(L, fail);
	lower_enter(L, fail);
	lower_trap(L, msg);
	ir_ret(fail);
	lower_enter(L, ok);
}

static void lower_raise(Lower *L, Stmt *s)
{
	if (L->debug) {
		Expr *v = s->ret.value;
		const char *name = "Exception", *m = NULL;
		if (v && v->kind == E_CALL) {
			if (v->call.fn->ty && v->call.fn->ty->kind == TY_EXC && v->call.fn->ty->name)
				name = v->call.fn->ty->name;
			if (v->call.nargs > 0)
				m = str_of(L, v->call.args[0]);
		} else if (v && v->ty && v->ty->kind == TY_EXC && v->ty->name)
			name = v->ty->name;
		lower_trap(L, m ? arena_printf(L->c->arena, "%s: %s", name, m) : name);
	} else if (L->f->is_func) {
		lower_trap(L, NULL);   /* a called function's raise ends the thread too, silently */
	}
	ir_ret(L->cur);
	L->cur = NULL;
}

/* ------------------------------------------------------------ statements */

static void lower_stmt(Lower *L, Stmt *s)
{
	Fn *f = L->f;
	f->cur_loc = ir_add_loc(f, s->span);
	switch (s->kind) {
	case S_EXPR:
		lower_expr(L, s->expr);
		return;
	case S_ASSIGN: {
		Value v = lower_expr(L, s->assign.value);
		for (int i = 0; i < s->assign.ntargets; i++)
			lower_assign(L, s->assign.targets[i], v, s->span);
		return;
	}
	case S_ANNASSIGN:
		if (s->assign.value && s->assign.ntargets > 0)
			lower_assign(L, s->assign.targets[0], lower_expr(L, s->assign.value), s->span);
		return;
	case S_AUGASSIGN:
		lower_augassign(L, s);
		return;
	case S_IF:
		lower_if(L, s);
		return;
	case S_WHILE:
		lower_while(L, s);
		return;
	case S_FOR:
		lower_for(L, s);
		return;
	case S_BREAK:
		if (!L->fr->loop)
			err_at(L->c, s->span, NULL, "'break' outside a loop");
		lower_jump(L, loop_brk(L, L->fr->loop));
		return;
	case S_CONTINUE:
		if (!L->fr->loop)
			err_at(L->c, s->span, NULL, "'continue' outside a loop");
		lower_jump(L, L->fr->loop->cont);
		return;
	case S_PASS:
		return;
	case S_RETURN:
		lower_return(L, s);
		return;
	case S_ASSERT:
		lower_assert(L, s);
		return;
	case S_RAISE:
		lower_raise(L, s);
		return;
	case S_DEF:
		if (s->nested.fn)
			return;   /* a closure is a constant (sema_closure.c) */
		lower_unsupported(L, s->span, "a nested function");
	default:
		lower_unsupported(L, s->span, s->unsupported.what ? s->unsupported.what : "this statement");
	}
}

/* --------------------------------------------------------------- inlining */

static int param_index(FuncDef *def, const char *name)
{
	for (int i = 0; i < def->nparams; i++)
		if (def->params[i].name && strcmp(def->params[i].name, name) == 0)
			return i;
	return -1;
}

Value lower_inline_call(Lower *L, Expr *e)
{
	Spec *sp = e->call.spec;
	FuncDef *def = sp->def;
	Fn *f = L->f;
	if (sp->recursive)
		return lower_call_func(L, e);   /* a real call (lower_call.c) */
	if (sp->recursive || L->depth >= 32)
		err_at(L->c, e->span, "rewrite the recursion as a loop",
		       "recursive device functions are not supported (%s calls itself)", def->name);
	int np = def->nparams;
	if (e->call.nargs > np)
		err_at(L->c, e->span, NULL, "%s() takes %d arguments but %d were given", def->name, np,
		       e->call.nargs);
	Value *av = arena_alloc(L->c->arena, sizeof(Value) * (size_t)(np + 1));
	char *have = arena_alloc(L->c->arena, (size_t)(np + 1));
	for (int i = 0; i < e->call.nargs; i++) {
		av[i] = lower_expr(L, e->call.args[i]);
		have[i] = 1;
	}
	for (int k = 0; k < e->call.nkw; k++) {
		int i = param_index(def, e->call.kwnames[k]);
		if (i < 0 || have[i])
			err_at(L->c, e->call.kwargs[k]->span, NULL, "%s() got %s keyword argument '%s'",
			       def->name, i < 0 ? "an unexpected" : "a repeated", e->call.kwnames[k]);
		av[i] = lower_expr(L, e->call.kwargs[k]);
		have[i] = 1;
	}
	for (int i = 0; i < np; i++) {
		if (have[i])
			continue;
		if (!def->params[i].defval)
			err_at(L->c, e->span, NULL, "%s() is missing the argument '%s'", def->name,
			       def->params[i].name);
		av[i] = lower_expr(L, def->params[i].defval);
	}

	Frame fr;
	memset(&fr, 0, sizeof fr);
	fr.up = L->fr;
	fr.spec = sp;
	fr.nvars = sp->nvars;
	fr.slot = arena_alloc(L->c->arena, sizeof(int) * (size_t)(fr.nvars + 1));
	for (int i = 0; i < fr.nvars; i++)
		fr.slot[i] = -1;
	fr.retty = sp->ret ? sp->ret : ty_none();
	fr.retslot = lower_new_slots(L, fr.retty, def->name);
	L->fr = &fr;
	L->depth++;
	int loc = f->cur_loc;
	for (int i = 0; i < np; i++) {
		Var *v = def->params[i].var;
		Type *at = i < sp->nargs && sp->argtypes ? sp->argtypes[i] : NULL;
		Value x = at ? lower_convert(L, av[i], at, e->span) : av[i];
		if (v)
			lower_write_var(L, v, x);
	}
	lower_block(L, &def->body);
	if (L->cur) {
		if (!fr.ret)
			fr.ret = lower_new_blk(L);
		lower_jump(L, fr.ret);
	}
	L->fr = fr.up;
	L->depth--;
	f->cur_loc = loc;
	if (!fr.ret)
		lower_dead_blk(L);
	else {
		lower_seal(L, fr.ret);
		lower_enter(L, fr.ret);
	}
	return lower_read(L, fr.retslot, fr.retty);
}

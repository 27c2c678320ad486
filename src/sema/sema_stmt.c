/*
 * sema_stmt.c - statements: assignments give variables their types,
 * conditions and loops are checked, and what kernels cannot do is
 * refused with a message that says what they can do instead.
 *
 * What lowering can rely on:
 *   - An if/while whose condition has a cval has only its taken branch
 *     lowered; the other is dead.  Only its taken branch is typed too
 *     when Numba would prune on the condition (sema_prunes); otherwise
 *     both are typed, so that variables take the types Numba gives them.
 *     An ifexp likewise (see sema_expr.c).
 *   - Statements after one that always leaves (return, break, continue,
 *     raise, an if whose live branches all leave, `while True` without
 *     break) are unreachable and left untyped.
 *   - An assignment's targets have ty set: a name target has name.var
 *     and the variable's (unified) type, a subscript target the array's
 *     element type (the value converts to it) or the type of a 1d view
 *     (a[i, j] = (r, g, b): each element of a tuple, 1d array or a
 *     scalar converts to the element type).  A tuple target receives the
 *     elements of a tuple, or of a 1d array, one by one.
 *   - An augmented assignment `t op= v` computes sema_binop_type(op,
 *     t->ty, v->ty) and converts the result to t->ty.
 *   - for loops iterate over range(...): the target is a name whose
 *     variable holds the range's element type (int64, or uint64); or over
 *     a tuple (unrolled): the target gets each element, converted to the
 *     unification of their types; an empty tuple's body is not typed.
 *   - Assignments of compile-time-only values (modules, functions,
 *     dtypes, cuda.threadIdx, ...; see ty_is_static) have no run-time
 *     effect.
 *   - raise and assert are typed but only matter under debug.
 */
#include <string.h>

#include "sema.h"

static const char *tstr(Scope *sc, const Type *t)
{
	return ty_str_of(sc->c, t);
}

static int convertible_to_var(const Type *t)
{
	return t->kind != TY_RANGE && t->kind != TY_UNKNOWN;
}

static void assign_target(Scope *sc, Expr *target, Type *vt, Const *vc, Expr *value);

/* target is r.x of a record r (or of an expression not typed yet) */
static int attr_of_record(Scope *sc, Expr *target)
{
	Type *ot = type_expr(sc, target->attr.obj);
	return !ot || ot->kind == TY_RECORD;
}

static void assign_name(Scope *sc, Expr *target, Type *vt, Const *vc, Expr *value)
{
	Var *v = target->name.var ? target->name.var : scope_find_var(sc, target->name.id);
	if (!v)
		ICE(sc->c, "assigned name '%s' was not collected", target->name.id);
	target->name.var = v;
	if (sc->final)
		sc->seen[v->index] = 1;
	if (!vt) {
		target->ty = v->ty;
		return;
	}
	if (!convertible_to_var(vt))
		err_at(sc->c, value ? value->span : target->span, "use range() directly in a for loop: for i in range(n)",
		       "a %s cannot be stored in a variable", tstr(sc, vt));
	scope_assign_var(sc, v, vt, value ? value->span : target->span);
	if (vc && sc->nassign[v->index] == 1 && !sc->vconst[v->index]) {
		sc->vconst[v->index] = vc;
		sc->vearly[v->index] = value && sema_known_early(value);
		sc->changed = 1;
	}
	target->ty = v->ty;
	target->cval = NULL;
}

static void assign_subscript(Scope *sc, Expr *target, Type *vt, Expr *value)
{
	Ctx *c = sc->c;
	Type *ot = type_expr(sc, target->sub.obj);
	Expr *index = target->sub.index;
	target->ty = NULL;
	target->cval = NULL;
	if (!ot)
		return;
	if (ot->kind == TY_TUPLE)
		err_at(c, target->span, "use cuda.local.array(n, dtype) for values that change",
		       "tuples cannot be changed: a tuple element cannot be assigned");
	if (ot->kind == TY_RECORD) {
		sema_record_store(sc, target, vt, value);
		return;
	}
	if (ot->kind == TY_POINTER) {
		sema_pointer_store(sc, target, ot, vt, value);
		return;
	}
	if (ot->kind != TY_ARRAY)
		err_at(c, target->span, "assign to elements of arrays", "a value of type %s does not support item assignment",
		       tstr(sc, ot));
	Type *t = subscript_array(sc, target, ot, index, value ? NULL : "an augmented assignment");
	if (!t)
		return;
	if (ot->readonly)
		err_at(c, target->span, "write into an array argument that is not read-only",
		       "cannot assign to an element of a read-only array");
	target->ty = t;
	if (!vt)
		return;
	if (t->kind == TY_RECORD) {
		sema_record_copy(sc, t, value);
		return;
	}
	if (t->kind == TY_SCALAR) {
		/* vt, not value's type: a, b[i] = f() stores one element of f's tuple */
		storable_type(sc, t, vt, value ? value->span : target->span,
		              arena_printf(c->arena, "an element of %s", tstr(sc, ot)));
		return;
	}
	/* a view: a[i, j] = (r, g, b), a[i, :] = x, a[i] = b[j] */
	const char *what = arena_printf(c->arena, "the elements of %s", tstr(sc, t));
	if (t->ndim != 1 && vt->kind != TY_SCALAR)
		err_at(c, target->span, "assign a number to every element (a[:] = 0), or to a 1d part of the array, one row "
		                        "at a time",
		       "assigning %s to a %dd part of an array is not supported yet", tstr(sc, vt), t->ndim);
	if (vt->kind == TY_TUPLE) {
		for (int i = 0; i < vt->n; i++) {
			Type *e = vt->elts[i];
			if (!ty_is_number(e) || (ty_is_complex(e) && !ty_is_complex(t->elem)))
				err_at(c, value->span, "assign a tuple of numbers", "cannot store a %s value into %s",
				       tstr(sc, e), what);
		}
		return;
	}
	if (vt->kind == TY_ARRAY) {
		if (vt->ndim != 1 || (ty_is_complex(vt->elem) && !ty_is_complex(t->elem)))
			err_at(c, value->span, "assign a 1d array of numbers", "cannot store %s into %s", tstr(sc, vt),
			       what);
		return;
	}
	storable(sc, t->elem, value, what);
}

static void assign_tuple(Scope *sc, Expr *target, Type *vt, Const *vc, Expr *value)
{
	Ctx *c = sc->c;
	int n = target->tuple.n;
	target->cval = NULL;
	target->ty = vt;
	if (!vt) {
		for (int i = 0; i < n; i++)
			assign_target(sc, target->tuple.elts[i], NULL, NULL, NULL);
		return;
	}
	Span sp = value ? value->span : target->span;
	if (vt->kind == TY_ARRAY) {
		if (vt->ndim != 1)
			err_at(c, sp, "index the elements instead: a, b = arr[0], arr[1]",
			       "only 1d arrays can be unpacked, not %s", tstr(sc, vt));
		/* each target takes one element; the length is checked at run time */
		for (int i = 0; i < n; i++)
			assign_target(sc, target->tuple.elts[i], vt->elem, NULL, NULL);
		return;
	}
	if (vt->kind != TY_TUPLE)
		err_at(c, sp, "unpack tuples, such as the result of cuda.grid(2)", "cannot unpack a %s", tstr(sc, vt));
	if (vt->n != n)
		err_at(c, sp, "give one target per element of the tuple",
		       "cannot unpack a tuple of %d value%s into %d target%s", vt->n, vt->n == 1 ? "" : "s",
		       n, n == 1 ? "" : "s");
	for (int i = 0; i < n; i++) {
		Expr *ev = value && value->kind == E_TUPLE && value->tuple.n == n ? value->tuple.elts[i] : value;
		Const *ec = vc && vc->kind == PJ_V_TUPLE ? &vc->elts[i] : ev != value ? ev->cval : NULL;
		assign_target(sc, target->tuple.elts[i], vt->elts[i], ec, ev);
	}
}

static void assign_target(Scope *sc, Expr *target, Type *vt, Const *vc, Expr *value)
{
	switch (target->kind) {
	case E_NAME:
		assign_name(sc, target, vt, vc, value);
		return;
	case E_SUBSCRIPT:
		assign_subscript(sc, target, vt, value);
		return;
	case E_TUPLE:
		assign_tuple(sc, target, vt, vc, value);
		return;
	case E_ATTR:
		if (attr_of_record(sc, target)) {
			sema_record_store(sc, target, vt, value);
			return;
		}
		err_at(sc->c, target->span, "write results into array elements",
		       "attributes cannot be assigned in kernels");
	default:
		err_at(sc->c, target->span, "assign to variables, array elements and tuples of them",
		       "cannot assign to this expression");
	}
}

static void type_assign(Scope *sc, Stmt *s)
{
	Expr *value = s->assign.value;
	Expr *t0 = s->assign.ntargets == 1 ? s->assign.targets[0] : NULL;
	if (value->kind == E_STR && value->str.bytes && t0 && (t0->kind == E_SUBSCRIPT || t0->kind == E_ATTR))
		value->str.bytes = 2;     /* a[i] = b'abc': sema_record_copy checks the target */
	Type *vt = type_expr(sc, value);
	for (int i = 0; i < s->assign.ntargets; i++)
		assign_target(sc, s->assign.targets[i], vt, value->cval, value);
}

static void type_augassign(Scope *sc, Stmt *s)
{
	Ctx *c = sc->c;
	Expr *target = s->aug.target, *value = s->aug.value;
	AstOp op = s->aug.op;
	if (target->kind == E_ATTR && !attr_of_record(sc, target))
		err_at(c, target->span, "write results into array elements", "attributes cannot be assigned in kernels");
	Type *vt = type_expr(sc, value);
	Type *tt;
	if (target->kind == E_ATTR) {
		sema_record_store(sc, target, NULL, NULL);
		tt = target->ty;
	} else if (target->kind == E_SUBSCRIPT) {
		assign_subscript(sc, target, NULL, NULL);
		tt = target->ty;
	} else {
		tt = type_expr(sc, target);
		target->cval = NULL;
	}
	if (!vt || !tt)
		return;
	Type *rt = sema_binop_type(c, op, tt, vt, NULL);
	if (!rt) {
		if (tt->kind == TY_TUPLE)
			err_at(c, s->span, "use cuda.local.array for values that change",
			       "unsupported operand types for %s=: %s and %s", ast_op_name[op], tstr(sc, tt), tstr(sc, vt));
		err_at(c, s->span, "arithmetic works on numbers (bool, integers, floats, complex)",
		       "unsupported operand types for %s=: %s and %s", ast_op_name[op], tstr(sc, tt), tstr(sc, vt));
	}
	if (target->kind == E_NAME) {
		Var *v = target->name.var;
		scope_assign_var(sc, v, rt, s->span);
		target->ty = v->ty;
	} else if (ty_is_complex(rt) && !ty_is_complex(tt)) {
		err_at(c, s->span, "store the real part (x.real) or use a complex array",
		       "cannot store a %s value into an array of %s", tstr(sc, rt), tstr(sc, tt));
	}
}

/* for x in tuple: unrolled by lowering; x holds the unification of the
 * elements' types (each converts to it), so the body is typed once. */
static void type_for_tuple(Scope *sc, Stmt *s, Type *it)
{
	Ctx *c = sc->c;
	Type *t = NULL;
	for (int i = 0; i < it->n; i++) {
		Type *u = t ? ty_unify(c, t, it->elts[i]) : it->elts[i];
		if (!u || ty_is_static(u) || u->kind == TY_RANGE || u->kind == TY_STR)
			err_at(c, s->loop.iter->span, "loop over tuples whose elements have one kind (numbers, arrays of one "
			                              "type, tuples of one shape); unpack other tuples into variables",
			       "cannot iterate over %s: its elements have no common type", tstr(sc, it));
		t = u;
	}
	if (t) {
		assign_target(sc, s->loop.target, t, NULL, NULL);
		sc->loop_depth++;
		type_body(sc, &s->loop.body);
		sc->loop_depth--;
	}
	type_body(sc, &s->loop.orelse);
}

/* for x in literal_unroll(t) (sema_unroll.c): copy i of the body typed
 * with its own variable bound to element i */
static void type_for_unrolled(Scope *sc, Stmt *s, Type *it)
{
	if (!it)
		return;
	if (it->kind != TY_TUPLE || it->n != s->loop.nunroll)
		ICE(sc->c, "literal_unroll() of a %s, copied %d times", tstr(sc, it), s->loop.nunroll);
	for (int i = 0; i < it->n; i++) {
		assign_target(sc, s->loop.utargets[i], it->elts[i], NULL, NULL);
		sc->loop_depth++;
		type_body(sc, &s->loop.ubodies[i]);
		sc->loop_depth--;
	}
	type_body(sc, &s->loop.orelse);
}

static void type_for(Scope *sc, Stmt *s)
{
	Ctx *c = sc->c;
	Expr *iter = s->loop.iter, *target = s->loop.target;
	Type *it = type_expr(sc, iter);
	if (s->loop.nunroll > 0) {
		type_for_unrolled(sc, s, it);
		return;
	}
	if (it && it->kind == TY_TUPLE) {
		type_for_tuple(sc, s, it);
		return;
	}
	if (it && it->kind == TY_ARRAY && it->ndim == 1 && it->elem->kind == TY_SCALAR) {
		/* for x in a: the elements of a 1-D array (lower_stmt.c, for_array) */
		assign_target(sc, target, it->elem, NULL, NULL);
		sc->loop_depth++;
		type_body(sc, &s->loop.body);
		sc->loop_depth--;
		type_body(sc, &s->loop.orelse);
		return;
	}
	if (it && it->kind != TY_RANGE) {
		if (it->kind == TY_ARRAY)
			err_at(c, iter->span, "loop over the indices: for i in range(a.shape[0]): ... a[i]",
			       "iterating over an array that is not 1-D is not supported yet");
		err_at(c, iter->span, "loop with range(stop), range(start, stop) or range(start, stop, step)",
		       "for loops in kernels iterate over range(...), not over a %s", tstr(sc, it));
	}
	if (target->kind != E_NAME)
		err_at(c, target->span, "use one loop variable: for i in range(n)",
		       "a for loop over range() has one variable");
	assign_name(sc, target, it ? it->elem : NULL, NULL, iter);
	sc->loop_depth++;
	type_body(sc, &s->loop.body);
	sc->loop_depth--;
	type_body(sc, &s->loop.orelse);
}

static void type_return(Scope *sc, Stmt *s)
{
	Ctx *c = sc->c;
	Expr *v = s->ret.value;
	if (sc->spec->is_kernel) {
		if (v && v->kind != E_NONE)
			err_type_at(c, s->span, "write results into an array argument instead",
			            "a kernel cannot return a value (a CUDA kernel must have void return type)");
		if (v)
			type_expr(sc, v);
		return;
	}
	Type *t = v ? type_expr(sc, v) : ty_none();
	if (!t)
		return;
	if (ty_is_static(t) || t->kind == TY_RANGE || t->kind == TY_STR)
		err_at(c, v->span, "device functions return numbers, arrays, tuples or None",
		       "a device function cannot return a %s", tstr(sc, t));
	if (sc->declared_ret) {
		Type *d = sc->declared_ret;
		int ok = ty_equal(t, d) || (ty_is_number(t) && ty_is_number(d) && (!ty_is_complex(t) || ty_is_complex(d)));
		if (!ok)
			err_at(c, v ? v->span : s->span, "return a value of the type in the function's signature",
			       "the signature declares the return type %s, but this returns %s", tstr(sc, d), tstr(sc, t));
		return;
	}
	Type *u = sc->ret ? ty_unify(c, sc->ret, t) : t;
	if (!u)
		err_at(c, v ? v->span : s->span, "return values of one kind from a device function",
		       "this returns %s, but the function also returns %s, which has no common type with it",
		       tstr(sc, t), tstr(sc, sc->ret));
	sc->ret = u;
	sc->nreturns++;
	/* what a recursive call returns: widened across passes (sema.c) */
	Type *r = sc->rec_ret ? ty_unify(c, sc->rec_ret, u) : u;
	if (r && (!sc->rec_ret || !ty_equal(r, sc->rec_ret))) {
		sc->rec_ret = r;
		if (sc->spec->recursive)
			sc->changed = 1;
	}
}

static const char *unsupported_hint(const char *what)
{
	static const struct {
		const char *what, *hint;
	} hints[] = {
		{"with", "kernels run straight-line code, ifs and loops"},
		{"try", "kernels cannot catch exceptions; test the condition with an if instead"},
		{"class", "define classes outside the kernel; kernels use numbers, arrays and tuples"},
		{"global", "kernels cannot change global variables; write results into an array argument"},
		{"nonlocal", "kernels cannot change outer variables; write results into an array argument"},
		{"import", "import at module level; kernels can use the modules math, numpy and cuda"},
		{"from", "import at module level; kernels can use the modules math, numpy and cuda"},
		{"del", "let the variable go out of use instead"},
		{"yield", "kernels cannot be generators; write results into an array argument"},
		{"async", "kernels are not coroutines"},
		{"match", "use if/elif/else"},
	};
	for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
		if (what && strcmp(hints[i].what, what) == 0)
			return hints[i].hint;
	return "kernels support assignments, if, for over range(), while, break, continue, return, assert and raise";
}

/* Definite assignment (Scope.defd): a variable assigned once with a
 * constant is that constant only where the assignment reached on every
 * path (type_name); elsewhere it is read as a variable, which holds zero
 * where nothing was assigned (lower.c), as in Numba.  An if meets what
 * its branches that go on assigned; a loop's body and else may not run,
 * so after the loop only what was assigned before it counts. */
static size_t defd_size(const Scope *sc)
{
	return (size_t)(sc->spec->nvars ? sc->spec->nvars : 1);
}

static unsigned char *defd_save(Scope *sc)
{
	unsigned char *copy = arena_alloc(sc->c->arena, defd_size(sc));
	memcpy(copy, sc->defd, defd_size(sc));
	return copy;
}

static void defd_restore(Scope *sc, const unsigned char *d)
{
	memcpy(sc->defd, d, defd_size(sc));
}

static void defd_meet(Scope *sc, const unsigned char *d)
{
	for (int i = 0; i < sc->spec->nvars; i++)
		sc->defd[i] &= d[i];
}

/* A break in b that leaves the loop whose body b is. */
static int has_break(StmtList *b)
{
	for (int i = 0; i < b->n; i++) {
		Stmt *s = b->s[i];
		if (s->kind == S_BREAK)
			return 1;
		if (s->kind == S_IF && (has_break(&s->cond.body) || has_break(&s->cond.orelse)))
			return 1;
		if ((s->kind == S_WHILE || s->kind == S_FOR) &&
		    has_break(s->kind == S_WHILE ? &s->cond.orelse : &s->loop.orelse))
			return 1;
	}
	return 0;
}

/* Types s; returns 1 if control never goes on to the next statement. */
static int type_stmt(Scope *sc, Stmt *s)
{
	Ctx *c = sc->c;
	int truth;
	switch (s->kind) {
	case S_EXPR:
		type_expr(sc, s->expr);
		return 0;
	case S_ASSIGN:
	case S_ANNASSIGN:
		type_assign(sc, s);
		return 0;
	case S_AUGASSIGN:
		type_augassign(sc, s);
		return 0;
	case S_IF: {
		/* a known condition Numba does not prune on (sema_prunes) still
		 * types both branches; lowering takes the live one alone */
		int known = type_truth(sc, s->cond.cond) && const_truth(s->cond.cond->cval, &truth);
		if (known && sema_prunes(s->cond.cond))
			return type_body(sc, truth ? &s->cond.body : &s->cond.orelse);
		unsigned char *before = defd_save(sc);
		int a = type_body(sc, &s->cond.body);
		unsigned char *then = defd_save(sc);
		defd_restore(sc, before);
		int b = type_body(sc, &s->cond.orelse);
		/* what is assigned after the if: what each branch that goes on assigned */
		if (known ? truth : b)
			defd_restore(sc, then);
		else if (!known && !a)
			defd_meet(sc, then);
		return known ? (truth ? a : b) : a && b;
	}
	case S_WHILE: {
		unsigned char *before = defd_save(sc);   /* the body may not run, or stop early */
		if (type_truth(sc, s->cond.cond) && const_truth(s->cond.cond->cval, &truth)) {
			if (!truth)
				return type_body(sc, &s->cond.orelse);
			sc->loop_depth++;
			type_body(sc, &s->cond.body);
			sc->loop_depth--;
			defd_restore(sc, before);
			return !has_break(&s->cond.body);   /* while True without break never ends */
		}
		sc->loop_depth++;
		type_body(sc, &s->cond.body);
		sc->loop_depth--;
		type_body(sc, &s->cond.orelse);
		defd_restore(sc, before);
		return 0;
	}
	case S_FOR: {
		unsigned char *before = defd_save(sc);
		type_for(sc, s);
		defd_restore(sc, before);
		return 0;
	}
	case S_BREAK:
	case S_CONTINUE:
		if (sc->loop_depth == 0)
			err_at(c, s->span, "use break and continue inside for and while loops", "'%s' outside loop",
			       s->kind == S_BREAK ? "break" : "continue");
		return 1;
	case S_PASS:
		return 0;
	case S_RETURN:
		type_return(sc, s);
		return 1;
	case S_ASSERT:
		type_truth(sc, s->assert_.cond);
		if (s->assert_.msg)
			type_expr(sc, s->assert_.msg);
		return 0;
	case S_RAISE: {
		Expr *v = s->ret.value;
		if (!v)
			err_at(c, s->span, "raise an exception class, e.g. raise ValueError(\"...\")",
			       "a bare 'raise' is not supported in kernels");
		Type *t = type_expr(sc, v);
		if (t && t->kind != TY_EXC)
			err_at(c, v->span, "raise an exception class, e.g. raise ValueError(\"...\")",
			       "exceptions must be exception classes or instances, not %s", tstr(sc, t));
		return 1;
	}
	case S_DEF:
		if (s->nested.fn) {
			sema_nested_def(sc, s);
			return 0;
		}
		err_at(c, s->span, "drop the decorator: a def inside a kernel is compiled with it, or define the "
		       "function at module level with @cuda.jit(device=True)",
		       "a decorated function inside a kernel is not supported");
	case S_UNSUPPORTED:
	default:
		err_at(c, s->span, unsupported_hint(s->unsupported.what), "'%s' statements are not supported in kernels",
		       s->unsupported.what ? s->unsupported.what : "this");
	}
}

int type_body(Scope *sc, StmtList *body)
{
	for (int i = 0; i < body->n; i++)
		if (type_stmt(sc, body->s[i]))
			return 1;
	return 0;
}

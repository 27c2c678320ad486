/*
 * lower_cpu.c - lowering for the CPU target (PjOptions.target_cpu, the
 * C back end in src/cgen): CPU functions that return values, allocate
 * arrays and call themselves.
 *
 * A CPU function is lowered like a kernel whose body is the body of an
 * inlined device function: its top frame has a return slot, and the
 * exit block stores the returned value into the out buffer, whose
 * address is the last parameter (role KP_RET).  The out buffer holds the
 * flattened value, each leaf at an 8-byte aligned offset (lower_cpu_rets,
 * the same walk for lowering and for PjKernel.rets): a scalar (complex:
 * real then imaginary part), an array as its data pointer, its extents
 * and its byte strides (always all of them, so the reader needs no
 * layout rules).
 *
 * Arrays made inside (np.empty and friends, copies) are O_ALLOC of their
 * byte size, zeroed or not, C-contiguous; the memory belongs to the call
 * from Python (src/py/cpu.c frees what is not returned).  A negative
 * extent is a ValueError trap, as in NumPy.  Fills and copies are plain
 * counted loops built here with the SSA slots of lower.c.
 *
 * Recursion is lower_call.c's, as for kernels: a recursive callee is its
 * own Fn in f->funcs, called with carg/callf/cres; the C back end makes
 * it a C function taking and returning its components by value.
 *
 * Traps always report (asserts, raise, negative extents): the CPU target
 * has no reason to drop them.  There is no fma contraction (Lower.cpu),
 * which matches what plain Python and Numba's CPU target compute.
 */
#include <string.h>

#include "lower.h"

static Type *i64(void)
{
	return ty_scalar(SK_I64);
}

static Ref op64(Lower *L, Opcode op, Ref a, Ref b)
{
	return lower_emit(L, op, KL, SK_I64, a, b, REF_NONE, 0);
}

/* ----------------------------------------------------------- the out buffer */

static int count_nodes(Ctx *c, Type *t, Span sp)
{
	switch (t->kind) {
	case TY_NONE:
	case TY_SCALAR:
	case TY_ARRAY:
		return 1;
	case TY_TUPLE: {
		int n = 1;
		for (int i = 0; i < t->n; i++)
			n += count_nodes(c, t->elts[i], sp);
		return n;
	}
	default:
		err_at(c, sp, "return numbers, arrays, tuples of them, or None",
		       "an @njit function cannot return %s", ty_str_of(c, t));
	}
}

static void layout(Ctx *c, Type *t, PjRet *r, int *nr, int *off, Span sp)
{
	PjRet *x = &r[(*nr)++];
	memset(x, 0, sizeof *x);
	switch (t->kind) {
	case TY_SCALAR:
		x->kind = PJ_RET_SCALAR;
		x->ty = t->sk;
		x->off = *off;
		*off += scalar_info[t->sk].is_complex ? 16 : 8;
		break;
	case TY_ARRAY:
		if (t->elem->kind != TY_SCALAR)
			err_at(c, sp, "return an array of numbers, or the record array's fields one by one",
			       "an @njit function cannot return an array of records");
		x->kind = PJ_RET_ARRAY;
		x->ty = t->elem->sk;
		x->ndim = t->ndim;
		x->off = *off;
		*off += 8 * (1 + 2 * t->ndim);
		break;
	case TY_TUPLE:
		x->kind = PJ_RET_TUPLE;
		x->n = t->n;
		for (int i = 0; i < t->n; i++)
			layout(c, t->elts[i], r, nr, off, sp);
		break;
	default:
		x->kind = PJ_RET_NONE;
		break;
	}
}

int lower_cpu_rets(Ctx *c, Type *ret, PjRet **out, int *bytes)
{
	Type *t = ret ? ret : ty_none();
	Span none = {0};
	if (c->kernel && c->kernel->def)
		none = c->kernel->def->span;
	int n = count_nodes(c, t, none);
	PjRet *r = arena_alloc(c->arena, sizeof *r * (size_t)n);
	int nr = 0, off = 0;
	layout(c, t, r, &nr, &off, none);
	*out = r;
	*bytes = off;
	return nr;
}

static void store_leaf(Lower *L, Value v, Ref base, const PjRet **rp, Span sp)
{
	const PjRet *r = (*rp)++;
	Type *t = v.ty;
	switch (r->kind) {
	case PJ_RET_SCALAR:
		lower_store(L, t, op64(L, O_ADD, base, con64(L, r->off)), SP_GLOBAL, v, sp);
		break;
	case PJ_RET_ARRAY: {
		Ref a = op64(L, O_ADD, base, con64(L, r->off));
		lower_emit(L, O_STORE, KL, SK_U64, a, v.data, REF_NONE, SP_GLOBAL);
		for (int d = 0; d < t->ndim; d++) {
			a = op64(L, O_ADD, base, con64(L, r->off + 8 * (1 + d)));
			lower_emit(L, O_STORE, KL, SK_I64, a, v.shape[d], REF_NONE, SP_GLOBAL);
		}
		for (int d = 0; d < t->ndim; d++) {
			a = op64(L, O_ADD, base, con64(L, r->off + 8 * (1 + t->ndim + d)));
			lower_emit(L, O_STORE, KL, SK_I64, a, lower_byte_stride(L, v, d), REF_NONE, SP_GLOBAL);
		}
		break;
	}
	case PJ_RET_TUPLE:
		for (int i = 0; i < t->n; i++)
			store_leaf(L, v.elts[i], base, rp, sp);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------- helpers */

typedef void (*LoopBody)(Lower *L, Ref k, void *data);

/* for k in range(n): body(k) */
static void count_loop(Lower *L, Ref n, LoopBody body, void *data)
{
	int slot = lower_new_slots(L, i64(), "k");
	lower_write(L, slot, i64(), lower_scalar(i64(), con64(L, 0)));
	Blk *head = lower_new_blk(L), *bb = lower_new_blk(L), *done = lower_new_blk(L);
	lower_jump(L, head);
	lower_enter(L, head);
	Ref k = lower_read(L, slot, i64()).r;
	lower_branch(L, lower_cmp(L, CC_LT, SK_I64, k, n), bb, done);
	lower_seal(L, bb);
	lower_enter(L, bb);
	body(L, k, data);
	lower_write(L, slot, i64(), lower_scalar(i64(), op64(L, O_ADD, k, con64(L, 1))));
	lower_jump(L, head);
	lower_seal(L, head);
	lower_seal(L, done);
	lower_enter(L, done);
}

static Ref size_of(Lower *L, Value a)
{
	Ref n = con64(L, 1);
	for (int d = 0; d < a.ty->ndim; d++)
		n = op64(L, O_MUL, n, a.shape[d]);
	return n;
}

/* A new C-contiguous array of type t with the given extents. */
static Value new_array(Lower *L, Type *t, Ref *shape, int zero)
{
	Value v = {.ty = t};
	v.shape = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(t->ndim + 1));
	Ref n = con64(L, 1);
	for (int d = 0; d < t->ndim; d++) {
		v.shape[d] = shape[d];
		if (shape[d].kind != R_CON)
			lower_guard(L, lower_cmp(L, CC_GE, SK_I64, shape[d], con64(L, 0)),
			      "ValueError: negative dimensions are not allowed");
		else if (L->f->con[shape[d].idx].i < 0)
			lower_guard(L, ir_con_bool(L->f, 0), "ValueError: negative dimensions are not allowed");
		n = op64(L, O_MUL, n, shape[d]);
	}
	Ref bytes = op64(L, O_MUL, n, con64(L, ty_elem_size(t->elem)));
	v.data = lower_emit(L, O_ALLOC, KL, SK_U64, bytes, REF_NONE, REF_NONE, zero);
	return v;
}

static Ref *shape_of(Lower *L, Value s, Span sp)
{
	int n = s.ty->kind == TY_TUPLE ? s.n : 1;
	Ref *r = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(n + 1));
	if (s.ty->kind == TY_TUPLE)
		for (int i = 0; i < n; i++)
			r[i] = lower_convert(L, s.elts[i], i64(), sp).r;
	else
		r[0] = lower_convert(L, s, i64(), sp).r;
	return r;
}

typedef struct Fill {
	Value dst;
	Value val;
	Span sp;
} Fill;

static void fill_body(Lower *L, Ref k, void *data)
{
	Fill *fl = data;
	Type *e = fl->dst.ty->elem;
	Ref a = op64(L, O_ADD, fl->dst.data, op64(L, O_MUL, k, con64(L, ty_elem_size(e))));
	lower_store(L, e, a, SP_GLOBAL, fl->val, fl->sp);
}

static void fill(Lower *L, Value dst, Value val, Span sp)
{
	Fill fl = {dst, lower_convert(L, val, dst.ty->elem, sp), sp};
	count_loop(L, size_of(L, dst), fill_body, &fl);
}

typedef struct Copy {
	Value dst, src;
} Copy;

/* Moves one element of `size` bytes as integers (any dtype, no conversion). */
static void move_elem(Lower *L, Ref to, Ref from, int size)
{
	if (size == 16) {
		move_elem(L, to, from, 8);
		Ref to_hi = op64(L, O_ADD, to, con64(L, 8));
		Ref from_hi = op64(L, O_ADD, from, con64(L, 8));
		move_elem(L, to_hi, from_hi, 8);
		return;
	}
	ScalarKind sk = size == 1 ? SK_U8 : size == 2 ? SK_U16 : size == 4 ? SK_U32 : SK_U64;
	Cls k = size == 8 ? KL : KW;
	Ref v = lower_emit(L, O_LOAD, k, sk, from, REF_NONE, REF_NONE, SP_GLOBAL);
	lower_emit(L, O_STORE, k, sk, to, v, REF_NONE, SP_GLOBAL);
}

static void copy_body(Lower *L, Ref k, void *data)
{
	Copy *cp = data;
	Value s = cp->src;
	int es = ty_elem_size(s.ty->elem);
	Ref to = op64(L, O_ADD, cp->dst.data, op64(L, O_MUL, k, con64(L, es)));
	Ref from;
	if (s.ty->layout == LAYOUT_C) {
		from = op64(L, O_ADD, s.data, op64(L, O_MUL, k, con64(L, es)));
	} else {
		/* unravel k in C order over the source's extents */
		Ref rem = k;
		from = s.data;
		for (int d = s.ty->ndim - 1; d >= 0; d--) {
			Ref idx = d ? op64(L, O_REM, rem, s.shape[d]) : rem;
			if (d)
				rem = op64(L, O_DIV, rem, s.shape[d]);
			from = op64(L, O_ADD, from, op64(L, O_MUL, idx, lower_byte_stride(L, s, d)));
		}
	}
	move_elem(L, to, from, es);
}

/* np.arange(start, stop, step): the length and the elements */
typedef struct Range {
	Value dst;
	Value start, step;   /* int64 or float64 */
	Span sp;
} Range;

static void range_body(Lower *L, Ref k, void *data)
{
	Range *r = data;
	Type *e = r->dst.ty->elem;
	Value x;
	if (r->start.ty->sk == SK_I64) {
		x = lower_scalar(i64(), op64(L, O_ADD, r->start.r, op64(L, O_MUL, k, r->step.r)));
	} else {
		Ref kf = lower_cvt(L, k, SK_I64, SK_F64);
		Ref m = lower_emit(L, O_MUL, KD, SK_F64, kf, r->step.r, REF_NONE, 0);
		x = lower_scalar(ty_scalar(SK_F64), lower_emit(L, O_ADD, KD, SK_F64, r->start.r, m, REF_NONE, 0));
	}
	Ref a = op64(L, O_ADD, r->dst.data, op64(L, O_MUL, k, con64(L, ty_elem_size(e))));
	lower_store(L, e, a, SP_GLOBAL, x, r->sp);
}

static Value arange(Lower *L, Expr *e)
{
	Expr **av = e->call.args;
	int nb = e->call.nargs > 3 ? 3 : e->call.nargs;
	while (nb > 1 && (!av[nb - 1] || (av[nb - 1]->ty && av[nb - 1]->ty->kind == TY_NONE)))
		nb--;
	int allint = 1;
	for (int i = 0; i < nb; i++)
		if (!ty_is_int(av[i]->ty) && av[i]->ty->sk != SK_BOOL)
			allint = 0;
	Type *ct = allint ? i64() : ty_scalar(SK_F64);
	Value start, stop, step;
	if (nb == 1) {
		start = lower_convert(L, lower_scalar(i64(), con64(L, 0)), ct, e->span);
		stop = lower_convert(L, lower_expr(L, av[0]), ct, av[0]->span);
	} else {
		start = lower_convert(L, lower_expr(L, av[0]), ct, av[0]->span);
		stop = lower_convert(L, lower_expr(L, av[1]), ct, av[1]->span);
	}
	if (nb == 3)
		step = lower_convert(L, lower_expr(L, av[2]), ct, av[2]->span);
	else
		step = lower_convert(L, lower_scalar(i64(), con64(L, 1)), ct, e->span);
	Ref n;
	if (allint) {
		lower_guard(L, lower_cmp(L, CC_NE, SK_I64, step.r, con64(L, 0)), "ZeroDivisionError: division by zero");
		Ref pos = lower_cmp(L, CC_GT, SK_I64, step.r, con64(L, 0));
		Ref up = op64(L, O_SUB, stop.r, start.r);
		Ref down = op64(L, O_SUB, start.r, stop.r);
		Ref num = lower_sel(L, KL, pos, up, down);
		Ref den = lower_sel(L, KL, pos, step.r, op64(L, O_SUB, con64(L, 0), step.r));
		Ref q = op64(L, O_DIV, op64(L, O_SUB, op64(L, O_ADD, num, den), con64(L, 1)), den);
		n = lower_sel(L, KL, lower_cmp(L, CC_GT, SK_I64, num, con64(L, 0)), q, con64(L, 0));
	} else {
		lower_guard(L, lower_cmp(L, CC_NE, SK_F64, step.r, ir_con_f64(L->f, 0.0)), "ZeroDivisionError: division by zero");
		Ref d = lower_emit(L, O_SUB, KD, SK_F64, stop.r, start.r, REF_NONE, 0);
		Ref q = lower_emit(L, O_CEIL, KD, SK_F64, lower_emit(L, O_DIV, KD, SK_F64, d, step.r, REF_NONE, 0),
		                   REF_NONE, REF_NONE, 0);
		Ref qi = lower_cvt(L, q, SK_F64, SK_I64);
		n = lower_sel(L, KL, lower_cmp(L, CC_GT, SK_I64, qi, con64(L, 0)), qi, con64(L, 0));
	}
	Value dst = new_array(L, e->ty, &n, 0);
	Range r = {dst, start, step, e->span};
	count_loop(L, n, range_body, &r);
	return dst;
}

Value lower_cpu_intrin(Lower *L, Expr *e, int in)
{
	Type *t = e->ty;
	Expr **av = e->call.args;
	switch (in) {
	case IN_NP_EMPTY:
	case IN_NP_ZEROS:
	case IN_NP_ONES: {
		Value s = lower_expr(L, av[0]);
		Value a = new_array(L, t, shape_of(L, s, av[0]->span), in == IN_NP_ZEROS);
		if (in == IN_NP_ONES)
			fill(L, a, lower_scalar(i64(), con64(L, 1)), e->span);
		return a;
	}
	case IN_NP_EMPTY_LIKE:
	case IN_NP_ZEROS_LIKE:
	case IN_NP_ONES_LIKE: {
		Value src = lower_expr(L, av[0]);
		Value a = new_array(L, t, src.shape, in == IN_NP_ZEROS_LIKE);
		if (in == IN_NP_ONES_LIKE)
			fill(L, a, lower_scalar(i64(), con64(L, 1)), e->span);
		return a;
	}
	case IN_NP_COPY:
	case IN_ARRAY_COPY: {
		Expr *ae = in == IN_NP_COPY ? av[0] : e->call.fn->attr.obj;
		Value src = lower_expr(L, ae);
		Value a = new_array(L, t, src.shape, 0);
		Copy cp = {a, src};
		count_loop(L, size_of(L, src), copy_body, &cp);
		return a;
	}
	case IN_NP_ARANGE:
		return arange(L, e);
	default:
		ICE(L->c, "lower_cpu_intrin of %s", intrin_name[in]);
	}
}

/* ---------------------------------------------------------- the entry */

static const char *fn_name(Ctx *c, Spec *sp)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < sp->nargs; i++) {
		for (const char *s = ty_str_of(c, sp->argtypes[i]); *s; s++)
			h = (h ^ (unsigned char)*s) * 16777619u;
		h = (h ^ ',') * 16777619u;
	}
	const char *name = sp->def && sp->def->name ? sp->def->name : "function";
	char *n = arena_printf(c->arena, "pj_cpu_%s_%08x", name, h);
	for (char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
	return n;
}

Fn *lower_cpu(Ctx *c, Spec *sp, int checked)
{
	if (!sp || !sp->def)
		ICE(c, "lower_cpu without a typed function");
	Lower lw;
	memset(&lw, 0, sizeof lw);
	Lower *L = &lw;
	L->c = c;
	L->debug = 1;
	L->cpu = 1;
	L->zerodiv = !(c->opt && c->opt->error_model_numpy);
	L->f = ir_new_fn(c, fn_name(c, sp));
	L->f->checked = checked;

	Frame outer, fr;
	memset(&outer, 0, sizeof outer);
	memset(&fr, 0, sizeof fr);
	fr.up = &outer;     /* returns write the return slot, as in a device function */
	fr.spec = sp;
	fr.nvars = sp->nvars;
	fr.slot = arena_alloc(c->arena, sizeof(int) * (size_t)(fr.nvars + 1));
	for (int i = 0; i < fr.nvars; i++)
		fr.slot[i] = -1;
	fr.retty = sp->ret ? sp->ret : ty_none();
	L->fr = &fr;

	Blk *entry = lower_new_blk(L);
	lower_seal(L, entry);
	lower_enter(L, entry);
	fr.retslot = lower_new_slots(L, fr.retty, "return");
	FuncDef *def = sp->def;
	L->f->cur_loc = ir_add_loc(L->f, def->span);
	for (int i = 0; i < def->nparams; i++) {
		Param *p = &def->params[i];
		Value v;
		if (i < sp->nargs && lower_has_pointer(sp->argtypes[i]))
			err_at(c, p->span, "pass an array: the CPU target takes NumPy arrays and numbers",
			       "a pointer argument (%s) is not supported by the CPU target", ty_str_of(c, sp->argtypes[i]));
		if (i < sp->nargs)
			v = lower_param_value(L, sp->argtypes[i], i);
		else if (p->defval && p->defval->cval && p->var)
			v = lower_const(L, p->defval->cval, p->var->ty, p->span);
		else
			ICE(c, "%s: parameter %s has no argument type and no constant default", def->name, p->name);
		if (p->var)
			lower_write_var(L, p->var, v);
	}
	/* the out buffer's address ends the parameter buffer */
	Fn *f = L->f;
	int off = (f->param_bytes + 7) / 8 * 8;
	KParam kp = {.ty = SK_U64, .off = off, .arg = sp->nargs, .role = KP_RET, .dim = 0};
	VEC_PUSH(c, f->param, f->nparam, f->capparam, kp);
	f->param_bytes = off + 8;

	lower_block(L, &def->body);
	if (L->cur) {
		if (!fr.ret)
			fr.ret = lower_new_blk(L);
		lower_jump(L, fr.ret);
	}
	if (fr.ret) {
		lower_seal(L, fr.ret);
		lower_enter(L, fr.ret);
		f->cur_loc = ir_add_loc(f, def->span);
		Value v = lower_read(L, fr.retslot, fr.retty);
		PjRet *rets;
		int bytes;
		lower_cpu_rets(c, fr.retty, &rets, &bytes);
		if (bytes) {
			Ref out = lower_emit(L, O_PARAM, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, off);
			const PjRet *rp = rets;
			store_leaf(L, v, out, &rp, def->span);
		}
		ir_ret(L->cur);
		L->cur = NULL;
	}
	lower_finish(L);
	lower_call_pending(L);   /* recursive callees, called for real (lower_call.c) */
	return L->f;
}

/*
 * lower_call.c - device functions that are called, not inlined: the
 * specialisations sema marked recursive (a cycle of calls, direct or
 * mutual).  Each becomes its own Fn in the kernel's module (Fn.mod->funcs,
 * made on first call and lowered after the kernel), and each call of it
 *
 *     carg x0, carg x1, ..., callf F, r0 = cres, r1 = cres, ...
 *
 * passes the flattened argument values (lower_flatten: a scalar, the two
 * parts of a complex, an array's data pointer, extents and strides, the
 * leaves of a tuple) and gets the flattened result back.  The function
 * reads its arguments with farg and sets its results with retv before its
 * one ret.  The PTX back end makes .func definitions with .param
 * arguments and results (ptx/call.c); the simulator a call stack
 * (sim/call.c).
 *
 * A function's body is lowered like an inlined one: its frame has a
 * return slot whose reads at the exit block make the phis; arguments
 * arrive in the specialised parameter types (spec->argtypes) and convert
 * to the parameters' variables.  A component's kind is the canonical kind
 * of its class (bool, int32, int64, float32, float64): int8/int16 travel
 * extended in 32 bits, like everywhere in the IR.
 *
 * External functions (cuda.declare_device) are called the same way: a
 * bodiless Fn with Fn.external, one per symbol, whose components are the
 * declared parameters and result (numbers, sema checked).  ptx/call.c
 * declares it .extern and passes its arguments in the declared ABI; the
 * simulator and the CPU target cannot run code from outside, and the
 * call is refused at its line there.
 */
#include <string.h>

#include "lower.h"

typedef struct CallMod {
	Spec **spec;          /* per function of the module */
	int n, cap;
	int done;             /* functions lowered */
} CallMod;

static ScalarKind sk_of_cls(Cls k)
{
	switch (k) {
	case KB: return SK_BOOL;
	case KW: return SK_I32;
	case KS: return SK_F32;
	case KD: return SK_F64;
	default: return SK_I64;
	}
}

static CallMod *callmod(Lower *L)
{
	if (!L->callmod)
		L->callmod = arena_alloc(L->c->arena, sizeof(CallMod));
	return L->callmod;
}

/* The classes of the flattened components of t, appended to *cls. */
static void comp_classes(Lower *L, Type *t, uint8_t **cls, int *n)
{
	int m = lower_ncomp(t);
	if (!m)
		return;
	/* a value made of fresh references gives the classes through the slots */
	int base = lower_new_slots(L, t, NULL);
	uint8_t *c = arena_alloc(L->c->arena, (size_t)(*n + m + 1));
	if (*n)
		memcpy(c, *cls, (size_t)*n);
	for (int i = 0; i < m; i++)
		c[*n + i] = (uint8_t)L->slot[base + i].cls;
	*cls = c;
	*n += m;
}

/* The type a value of type t has in the ABI of a visible or external
 * function: a pointer is its address alone (a .b64), without the
 * simulator's bounds. */
static Type *abi_type(Type *t)
{
	return t->kind == TY_POINTER ? ty_scalar(SK_U64) : t;
}

/* A pointer's address as an ABI component, and back: a pointer from
 * outside has no bounds (lower_pointer.c). */
static Value from_abi(Lower *L, Type *t, Ref *in)
{
	if (t->kind != TY_POINTER)
		return lower_unflatten(L, t, in);
	return lower_pointer_value(L, t, in[0], ir_con_int(L->f, KL, 0), ir_con_int(L->f, KL, INT64_MAX));
}

/* Argument t's components appended to f's classes, and, for the ABI
 * of a visible or external function, their scalar kinds. */
static void abi_arg(Lower *L, Fn *f, Type *t)
{
	t = abi_type(t);
	int n0 = f->nfargs;
	comp_classes(L, t, &f->fargcls, &f->nfargs);
	uint8_t *sk = arena_alloc(L->c->arena, (size_t)f->nfargs + 1);
	if (n0)
		memcpy(sk, f->fargsk, (size_t)n0);
	for (int i = n0; i < f->nfargs; i++)
		sk[i] = t->kind == TY_SCALAR && f->nfargs - n0 == 1 ? (uint8_t)t->sk : (uint8_t)NSK;
	f->fargsk = sk;
}

/* A PTX identifier for the function: "<name>_f<index>". */
static const char *func_name(Lower *L, Spec *sp, int idx)
{
	const char *name = sp->def && sp->def->name ? sp->def->name : "func";
	char *n = arena_printf(L->c->arena, "%s_f%d", name, idx);
	for (char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
	return n;
}

static int func_index(Lower *L, Spec *sp)
{
	CallMod *m = callmod(L);
	for (int i = 0; i < m->n; i++)
		if (m->spec[i] == sp)
			return i;
	Fn *mod = L->f->mod;
	Fn *f = ir_new_fn(L->c, func_name(L, sp, m->n));
	f->mod = mod;
	f->is_func = 1;
	f->checked = mod->checked;
	for (int i = 0; i < sp->def->nparams; i++)
		comp_classes(L, sp->argtypes[i], &f->fargcls, &f->nfargs);
	comp_classes(L, sp->ret ? sp->ret : ty_none(), &f->fretcls, &f->nfrets);
	VEC_PUSH(L->c, m->spec, m->n, m->cap, sp);
	VEC_PUSH(L->c, mod->funcs, mod->nfuncs, mod->capfuncs, f);
	return m->n - 1;
}

Value lower_call_func(Lower *L, Expr *e)
{
	Spec *sp = e->call.spec;
	FuncDef *def = sp->def;
	int np = def->nparams;
	if (e->call.nargs != np || e->call.nkw)
		ICE(L->c, "call of %s() with its arguments not in place", def->name);
	int total = 0;
	for (int i = 0; i < np; i++)
		total += lower_ncomp(sp->argtypes[i]);
	Ref *args = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(total + 1));
	int n = 0;
	for (int i = 0; i < np; i++) {
		Expr *a = e->call.args[i];
		Value v = lower_convert(L, lower_expr(L, a), sp->argtypes[i], a->span);
		n += lower_flatten(L, v, args + n);
	}
	int idx = func_index(L, sp);
	Fn *callee = L->f->mod->funcs[idx];
	if (n != callee->nfargs)
		ICE(L->c, "call of %s() with %d argument components for %d", def->name, n, callee->nfargs);
	for (int k = 0; k < n; k++) {
		Cls c = ir_cls_of(L->f, args[k]);
		lower_emit(L, O_CARG, c, sk_of_cls(c), args[k], REF_NONE, REF_NONE, k);
	}
	lower_emit(L, O_CALLF, KX, SK_I32, REF_NONE, REF_NONE, REF_NONE, idx);
	Type *rt = sp->ret ? sp->ret : ty_none();
	Ref *res = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(callee->nfrets + 1));
	for (int k = 0; k < callee->nfrets; k++) {
		Cls c = (Cls)callee->fretcls[k];
		res[k] = lower_emit(L, O_CRES, c, sk_of_cls(c), REF_NONE, REF_NONE, REF_NONE, k);
	}
	return lower_convert(L, lower_unflatten(L, rt, res), e->ty, e->span);
}

static int extern_index(Lower *L, Spec *sp)
{
	Fn *mod = L->f->mod;
	const PjFunc *pf = sp->func;
	for (int i = 0; i < mod->nfuncs; i++)
		if (mod->funcs[i]->external && strcmp(mod->funcs[i]->name, pf->external) == 0)
			return i;
	Fn *f = ir_new_fn(L->c, pf->external);
	f->mod = mod;
	f->is_func = 1;
	f->external = 1;
	f->abi_c = pf->abi_c;
	f->this_grid = pf->cooperative;   /* use_cooperative=True: the kernel launches cooperatively */
	Type *rt = abi_type(sp->ret);
	f->ext_retsk = rt->kind == TY_SCALAR ? (int)rt->sk : SK_I32;
	for (int i = 0; i < sp->nargs; i++)
		abi_arg(L, f, sp->argtypes[i]);
	comp_classes(L, rt, &f->fretcls, &f->nfrets);
	/* the index space is the called device functions': CallMod keeps a
	 * NULL for it, which lower_call_pending skips */
	CallMod *m = callmod(L);
	VEC_PUSH(L->c, m->spec, m->n, m->cap, NULL);
	VEC_PUSH(L->c, mod->funcs, mod->nfuncs, mod->capfuncs, f);
	return mod->nfuncs - 1;
}

Value lower_call_extern(Lower *L, Expr *e)
{
	Spec *sp = e->call.spec;
	const char *name = sp->func->external;
	if (L->c->for_sim)
		err_at(L->c, e->span, "run the kernel on the GPU (unset PTXJIT_SIM / NUMBA_ENABLE_CUDASIM)",
		       "'%s' is an external function (cuda.declare_device, linked PTX or CUDA C); the simulator "
		       "cannot run code from outside Python", name);
	if (L->cpu)
		err_at(L->c, e->span, "call it from a @cuda.jit kernel",
		       "'%s' is an external CUDA function (cuda.declare_device); CPU functions cannot call it", name);
	Ref *args = arena_alloc(L->c->arena, sizeof(Ref) * (size_t)(sp->nargs + 1));
	int n = 0;
	for (int i = 0; i < sp->nargs; i++) {
		Expr *a = e->call.args[i];
		Value v = lower_convert(L, lower_expr(L, a), sp->argtypes[i], a->span);
		if (v.ty->kind == TY_POINTER)
			args[n++] = v.data;
		else
			n += lower_flatten(L, v, args + n);
	}
	int idx = extern_index(L, sp);
	Fn *callee = L->f->mod->funcs[idx];
	if (n != callee->nfargs)
		ICE(L->c, "call of %s() with %d argument components for %d", name, n, callee->nfargs);
	for (int k = 0; k < n; k++) {
		Cls c = ir_cls_of(L->f, args[k]);
		lower_emit(L, O_CARG, c, sk_of_cls(c), args[k], REF_NONE, REF_NONE, k);
	}
	lower_emit(L, O_CALLF, KX, SK_I32, REF_NONE, REF_NONE, REF_NONE, idx);
	Ref res[1];
	for (int k = 0; k < callee->nfrets; k++) {
		Cls c = (Cls)callee->fretcls[k];
		res[k] = lower_emit(L, O_CRES, c, sk_of_cls(c), REF_NONE, REF_NONE, REF_NONE, k);
	}
	return lower_convert(L, from_abi(L, sp->ret, res), e->ty, e->span);
}

/* The body of function idx of the module. */
static void lower_body(Lower *K, CallMod *m, Spec *sp, Fn *f)
{
	Ctx *c = K->c;
	FuncDef *def = sp->def;
	Lower lw;
	memset(&lw, 0, sizeof lw);
	Lower *L = &lw;
	L->c = c;
	L->debug = K->debug;
	L->cpu = K->cpu;
	L->zerodiv = K->zerodiv;
	L->f = f;
	L->callmod = m;

	Frame outer, fr;
	memset(&outer, 0, sizeof outer);
	memset(&fr, 0, sizeof fr);
	fr.up = &outer;       /* returns write the return slot */
	fr.spec = sp;
	fr.nvars = sp->nvars;
	fr.slot = arena_alloc(c->arena, sizeof(int) * (size_t)(fr.nvars + 1));
	for (int i = 0; i < fr.nvars; i++)
		fr.slot[i] = -1;
	fr.retty = sp->ret ? sp->ret : ty_none();
	L->fr = &fr;

	const Src *saved = c->src;
	c->src = def->src;
	Blk *entry = lower_new_blk(L);
	lower_seal(L, entry);
	lower_enter(L, entry);
	f->cur_loc = f->def_loc = ir_add_loc(f, def->span);
	fr.retslot = lower_new_slots(L, fr.retty, "return");
	int k = 0;
	for (int i = 0; i < def->nparams; i++) {
		Type *at = sp->argtypes[i];
		int n = f->visible_abi ? lower_ncomp(abi_type(at)) : lower_ncomp(at);
		Ref *in = arena_alloc(c->arena, sizeof(Ref) * (size_t)(n + 1));
		for (int j = 0; j < n; j++, k++) {
			Cls cl = (Cls)f->fargcls[k];
			in[j] = lower_emit(L, O_FARG, cl, sk_of_cls(cl), REF_NONE, REF_NONE, REF_NONE, k);
		}
		Var *v = def->params[i].var;
		if (v)
			lower_write_var(L, v, f->visible_abi ? from_abi(L, at, in) : lower_unflatten(L, at, in));
	}
	lower_block(L, &def->body);
	if (L->cur) {
		if (!fr.ret)
			fr.ret = lower_new_blk(L);
		lower_jump(L, fr.ret);
	}
	if (fr.ret) {
		lower_seal(L, fr.ret);
		lower_enter(L, fr.ret);
		Value v = lower_read(L, fr.retslot, fr.retty);
		Ref *out = arena_alloc(c->arena, sizeof(Ref) * (size_t)(lower_ncomp(fr.retty) + 1));
		int n = lower_flatten(L, v, out);
		if (f->visible_abi && v.ty->kind == TY_POINTER)
			n = 1;      /* the address alone */
		for (int j = 0; j < n; j++)
			lower_emit(L, O_RETV, ir_cls_of(f, out[j]), sk_of_cls(ir_cls_of(f, out[j])), out[j], REF_NONE,
			           REF_NONE, j);
		ir_ret(L->cur);
		L->cur = NULL;
	}
	for (int k = 0; k < f->narrays; k++)
		if (f->arrays[k].space == SP_SHARED)
			err_at(c, def->span, "allocate the shared array in the kernel and pass it to the function",
			       "'%s' calls itself and allocates a shared array (cuda.shared.array); a recursive "
			       "device function cannot", def->name);
	lower_finish(L);
	c->src = saved;
}

static void lower_func(Lower *K, CallMod *m, int idx)
{
	lower_body(K, m, m->spec[idx], K->f->mod->funcs[idx]);
}

Fn *lower_device(Ctx *c, Spec *sp, int checked, const char *name, int abi)
{
	Lower lw;
	memset(&lw, 0, sizeof lw);
	Lower *L = &lw;
	L->c = c;
	L->debug = checked && c->opt && c->opt->debug;
	L->zerodiv = L->debug;
	Fn *f = L->f = ir_new_fn(c, name);
	f->mod = f;
	f->is_func = 1;
	f->visible_abi = abi;
	f->checked = checked;
	FuncDef *def = sp->def;
	for (int i = 0; i < def->nparams; i++) {
		Type *t = sp->argtypes[i];
		if ((t->kind != TY_SCALAR || ty_is_complex(t)) && t->kind != TY_POINTER)
			err_at(c, def->params[i].span, "compile a kernel that calls the function, or give it numbers",
			       "compile_ptx(device=True): parameter '%s' is a %s; a device function compiled on its own "
			       "takes integers, floats and bools", def->params[i].name, ty_str_of(c, t));
		abi_arg(L, f, t);
	}
	Type *rt = sp->ret ? sp->ret : ty_none();
	if (rt->kind != TY_NONE && (rt->kind != TY_SCALAR || ty_is_complex(rt)) && rt->kind != TY_POINTER)
		err_at(c, def->span, "return a number, or compile a kernel that calls the function",
		       "compile_ptx(device=True): '%s' returns %s; a device function compiled on its own returns an "
		       "integer, a float, a bool, a pointer or nothing", def->name, ty_str_of(c, rt));
	rt = abi_type(rt);
	comp_classes(L, rt, &f->fretcls, &f->nfrets);
	f->ext_retsk = rt->kind == TY_SCALAR ? (int)rt->sk : SK_I32;
	CallMod *m = callmod(L);
	lower_body(L, m, sp, f);
	lower_call_pending(L);
	return f;
}

void lower_call_pending(Lower *L)
{
	CallMod *m = L->callmod;
	while (m && m->done < m->n) {
		int idx = m->done++;
		if (m->spec[idx])
			lower_func(L, m, idx);
	}
}

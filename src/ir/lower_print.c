/*
 * lower_print.c - print() in a kernel, formatted as Numba formats it.
 *
 * The format string is made at compile time, one conversion per run-time
 * value: signed integers %lld (as int64), unsigned ones %llu (as
 * uint64), floats %f (as float64), bools %s (True/False), complex
 * numbers (%f%+fj), cuda.threadIdx and friends (x, y, z); string
 * constants and None are written into the
 * format itself (with % doubled), tuples as "(a, b)" recursively, the
 * items separated by spaces and the line ended by a newline.  The values
 * are stored, 8 bytes each, into a local array of the function (one per
 * function, as large as its largest print), and O_PRINT hands the format
 * (Fn.fmts) and the array to the back ends: vprintf on the GPU, printf
 * into the process's stdout in the simulator.  A bool is stored as 0 or 1;
 * the back ends turn it into the string.
 */
#include <string.h>

#include "lower.h"

typedef struct PrintArgs {
	char *fmt;
	int len, cap;
	Ref *val;
	ScalarKind *sk;
	int n, capv, capk;
} PrintArgs;

static void put(Lower *L, PrintArgs *p, const char *s, int escape)
{
	for (; *s; s++) {
		int twice = escape && *s == '%';
		for (int k = 0; k <= twice; k++)
			VEC_PUSH(L->c, p->fmt, p->len, p->cap, *s);
	}
}

static void value(Lower *L, PrintArgs *p, Ref r, ScalarKind sk)
{
	VEC_PUSH(L->c, p->val, p->n, p->capv, r);
	p->n--;
	VEC_PUSH(L->c, p->sk, p->n, p->capk, sk);
}

static void item(Lower *L, PrintArgs *p, Type *t, Value v, const Const *cv, Span sp)
{
	switch (t->kind) {
	case TY_STR:
		put(L, p, cv && cv->kind == PJ_V_STR && cv->s ? cv->s : "", 1);
		return;
	case TY_NONE:
		put(L, p, "None", 0);
		return;
	case TY_TUPLE:
		put(L, p, "(", 0);
		for (int i = 0; i < t->n; i++) {
			if (i)
				put(L, p, ", ", 0);
			const Const *ec = cv && cv->kind == PJ_V_TUPLE && i < cv->n ? &cv->elts[i] : NULL;
			item(L, p, t->elts[i], v.elts[i], ec, sp);
		}
		put(L, p, t->n == 1 ? ",)" : ")", 0);   /* (1,) as Python prints it */
		return;
	case TY_DIM3: {
		/* cuda.threadIdx and friends: (x, y, z) */
		static const int base[] = {[IN_THREADIDX] = SR_TID_X, [IN_BLOCKIDX] = SR_CTAID_X,
		                           [IN_BLOCKDIM] = SR_NTID_X, [IN_GRIDDIM] = SR_NCTAID_X};
		if (t->intrin < IN_THREADIDX || t->intrin > IN_GRIDDIM)
			ICE(L->c, "print of dim3 object %d", t->intrin);
		put(L, p, "(%lld, %lld, %lld)", 0);
		for (int k = 0; k < 3; k++)
			value(L, p, lower_cvt(L, lower_sreg(L, (SReg)(base[t->intrin] + k)).r, SK_I32, SK_I64), SK_I64);
		return;
	}
	case TY_SCALAR:
		break;
	default:
		err_at(L->c, sp, "print() in kernels prints numbers, strings and tuples of them",
		       "print() of a %s is not supported in kernels", ty_str_of(L->c, t));
	}
	ScalarKind sk = t->sk;
	if (sk == SK_BOOL) {
		put(L, p, "%s", 0);
		value(L, p, lower_cvt(L, v.r, SK_BOOL, SK_I64), SK_I64);
	} else if (scalar_info[sk].is_complex) {
		ScalarKind q = lower_part_sk(sk);
		put(L, p, "(%f%+fj)", 0);
		value(L, p, lower_cvt(L, v.r, q, SK_F64), SK_F64);
		value(L, p, lower_cvt(L, v.im, q, SK_F64), SK_F64);
	} else if (lower_is_floatsk(sk)) {
		put(L, p, "%f", 0);
		value(L, p, lower_cvt(L, v.r, sk, SK_F64), SK_F64);
	} else if (lower_is_signed(sk)) {
		put(L, p, "%lld", 0);
		value(L, p, lower_cvt(L, v.r, sk, SK_I64), SK_I64);
	} else {
		put(L, p, "%llu", 0);
		value(L, p, lower_cvt(L, v.r, sk, SK_U64), SK_U64);
	}
}

Value lower_print(Lower *L, Expr *e)
{
	Fn *f = L->f;
	PrintArgs p;
	memset(&p, 0, sizeof p);
	for (int i = 0; i < e->call.nargs; i++) {
		Expr *a = e->call.args[i];
		if (i)
			put(L, &p, " ", 0);
		Value v = lower_expr(L, a);
		item(L, &p, a->ty, v, a->cval, a->span);
	}
	put(L, &p, "\n", 0);
	if (p.n > 64)
		err_at(L->c, e->span, "print at most 64 numbers at a time (a tuple counts its elements)",
		       "print() of %d numbers; vprintf takes at most 64", p.n);
	VEC_PUSH(L->c, p.fmt, p.len, p.cap, 0);
	VEC_PUSH(L->c, f->fmts, f->nfmts, f->capfmts, p.fmt);
	Ref buf = ir_con_int(f, KL, 0);
	if (p.n) {
		int64_t size = 8 * (int64_t)p.n;
		if (!L->printbuf) {
			SArray sa;
			memset(&sa, 0, sizeof sa);
			sa.space = SP_LOCAL;
			sa.align = 8;
			sa.name = "print";
			VEC_PUSH(L->c, f->arrays, f->narrays, f->caparrays, sa);
			L->printbuf = f->narrays;
		}
		SArray *sa = &f->arrays[L->printbuf - 1];
		if (sa->size < size)
			sa->size = size;
		buf = lower_emit(L, O_ADDR, KL, SK_U64, REF_NONE, REF_NONE, REF_NONE, L->printbuf - 1);
		for (int k = 0; k < p.n; k++) {
			Ref at = k ? lower_emit(L, O_ADD, KL, SK_I64, buf, ir_con_int(f, KL, 8 * k), REF_NONE, 0) : buf;
			lower_emit(L, O_STORE, ir_cls_of_sk(p.sk[k]), p.sk[k], at, p.val[k], REF_NONE, SP_LOCAL);
		}
	}
	lower_emit(L, O_PRINT, KL, SK_I64, buf, REF_NONE, REF_NONE, f->nfmts - 1);
	return lower_none(e->ty);
}

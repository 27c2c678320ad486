/*
 * overload.c - which of a function's declared signatures a call uses, as
 * Numba's typing chooses.
 *
 * An argument type converts to a parameter type exactly, by promotion
 * (int32 -> int64, float32 -> float64), safely (int64 -> float64, a
 * C-contiguous array to an any-layout one) or unsafely (float64 -> int64),
 * or not at all (complex -> float, another dtype of array).  The number
 * table is Numba's casting rules closed over paths (convtab.h, written by
 * tools/gen_conv_table.py).  A signature every argument converts to is
 * rated by its counts of unsafe, safe and promoting conversions, compared
 * in that order; the lowest rating wins.  Of equal ratings, a call in
 * compiled code takes the first declared (Numba's call typing); the launch
 * of a kernel with declared signatures refuses the tie, as Numba's
 * dispatcher does, so sema_pick_signature returns every best one.
 */
#include <string.h>

#include "sema.h"

#include "convtab.h"

Conv ty_conversion(const Type *from, const Type *to)
{
	if (ty_equal(from, to))
		return CONV_EXACT;
	if (from->kind == TY_SCALAR && to->kind == TY_SCALAR) {
		if (SK_IS_FP8(from->sk) || SK_IS_FP8(to->sk))   /* only explicit conversions */
			return CONV_NONE;
		if (from->sk == SK_BF16 || to->sk == SK_BF16)   /* not one of Numba's number types */
			return from->sk == SK_BF16 && (to->sk == SK_F32 || to->sk == SK_F64) ? CONV_SAFE : CONV_UNSAFE;
		return (Conv)conv_table[from->sk][to->sk];
	}
	if (from->kind == TY_ARRAY && to->kind == TY_ARRAY) {
		if (!ty_equal(from->elem, to->elem) || from->ndim != to->ndim || (from->readonly && !to->readonly))
			return CONV_NONE;
		if (from->layout == to->layout && from->readonly == to->readonly)
			return CONV_EXACT;    /* in another memory space: the same type to a callee */
		return to->layout == LAYOUT_A || to->layout == from->layout ? CONV_SAFE : CONV_NONE;
	}
	if (to->kind == TY_POINTER && from->kind == TY_SCALAR && scalar_info[from->sk].is_int)
		return CONV_UNSAFE;   /* an address given as an int at a launch, as Numba takes it */
	if (from->kind == TY_TUPLE && to->kind == TY_TUPLE && from->n == to->n) {
		Conv worst = from->n ? CONV_EXACT : CONV_SAFE;
		for (int i = 0; i < from->n; i++) {
			Conv k = ty_conversion(from->elts[i], to->elts[i]);
			if (k > worst)
				worst = k;
		}
		return worst;
	}
	return CONV_NONE;
}

/* The rating of params for args: {unsafe, safe, promote} counts; 0 when
 * some argument does not convert. */
static int rate(int nparams, Type **params, int nargs, Type **args, int r[3])
{
	r[0] = r[1] = r[2] = 0;
	if (nparams != nargs)
		return 0;
	for (int i = 0; i < nargs; i++) {
		Conv k = ty_conversion(args[i], params[i]);
		if (k == CONV_NONE)
			return 0;
		if (k != CONV_EXACT)
			r[CONV_UNSAFE - k]++;
	}
	return 1;
}

static int compare(const int a[3], const int b[3])
{
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

int sema_pick_signature(int nsigs, const int *nparams, Type ***params, int nargs, Type **args, int *best)
{
	int nbest = 0, top[3] = {0, 0, 0}, r[3];
	for (int i = 0; i < nsigs; i++) {
		if (!rate(nparams[i], params[i], nargs, args, r))
			continue;
		int cmp = nbest ? compare(r, top) : -1;
		if (cmp < 0) {
			memcpy(top, r, sizeof top);
			nbest = 0;
		}
		if (cmp <= 0)
			best[nbest++] = i;
	}
	return nbest;
}

/*
 * argpack.c - the parameter buffer of a launch, built in place from the
 * classified arguments (launch.h) following PjKernel.params: for each
 * parameter its role (data pointer, extent, byte stride, scalar, real or
 * imaginary part), the argument (or tuple leaf) it comes from, the axis,
 * its kind and its offset in the buffer (the kernel ABI, DESIGN.md).
 *
 * Scalars are converted to the parameter's kind as Numba converts them
 * at a launch: integers exactly when the parameter is an integer (wrapped
 * to its width), floats to integers by truncation with saturation (NaN
 * becomes 0), anything to float16 with round-to-nearest-even; a complex
 * parameter is two floats.
 *
 * pack_check runs once per compiled signature, when the kernel is filed:
 * every parameter must refer to an argument that exists, of the right
 * class, and fit in the buffer.  After that, the same key always gives
 * the same kernel, so pack_params trusts the layout.
 */
#include "launch.h"

#include <string.h>

static int64_t f2i(double f)
{
	if (f != f)
		return 0;
	if (f >= 9223372036854775807.0)
		return INT64_MAX;
	if (f <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)f;
}

static uint64_t f2u(double f)
{
	if (f != f)
		return 0;
	if (f < 0)
		return (uint64_t)f2i(f);
	if (f >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)f;
}

static int is_int_kind(int k) { return k >= K_BOOL && k <= K_U64; }

static void put_int(unsigned char *dst, int ty, int64_t v)
{
	switch (ty) {
	case K_BOOL: *dst = v != 0; break;
	case K_I8: case K_U8: { uint8_t x = (uint8_t)v; memcpy(dst, &x, 1); break; }
	case K_I16: case K_U16: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
	case K_I32: case K_U32: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
	case K_F16: { uint16_t x = pj_half_from_double((double)v); memcpy(dst, &x, 2); break; }
	case K_F32: { float x = (float)v; memcpy(dst, &x, 4); break; }
	case K_F64: { double x = (double)v; memcpy(dst, &x, 8); break; }
	default: memcpy(dst, &v, 8); break;
	}
}

/* Writes scalar argument a converted to kind ty; part 1 asks for the
 * imaginary part (a complex parameter passed as two floats). */
static void put_scalar(unsigned char *dst, int ty, const ArgInfo *a, int part)
{
	int k = a->kind, isint = is_int_kind(k);
	double re = 0, im = 0;
	if (k == K_C64 || k == K_C128) {
		re = a->v.c[0];
		im = a->v.c[1];
	} else if (isint) {
		re = k == K_U64 ? (double)a->v.u : (double)a->v.i;
	} else {
		re = a->v.f;
	}
	double x = part ? im : re;
	int exact = isint && !part;
	if (exact && ty == k && (k == K_I64 || k == K_U64)) {   /* an int for an int64 parameter */
		memcpy(dst, &a->v.i, 8);
		return;
	}
	switch (ty) {
	case K_BOOL:
		*dst = exact ? a->v.i != 0 : x != 0;
		break;
	case K_F16: {
		uint16_t h = pj_half_from_double(x);
		memcpy(dst, &h, 2);
		break;
	}
	case K_F32: {
		float f = (float)x;
		memcpy(dst, &f, 4);
		break;
	}
	case K_F64:
		memcpy(dst, &x, 8);
		break;
	case K_C64: {
		float c[2] = {(float)re, (float)im};
		memcpy(dst, c, 8);
		break;
	}
	case K_C128: {
		double c[2] = {re, im};
		memcpy(dst, c, 16);
		break;
	}
	case K_U64: {
		uint64_t u = exact ? (k == K_U64 ? a->v.u : (uint64_t)a->v.i) : f2u(x);
		memcpy(dst, &u, 8);
		break;
	}
	default:
		put_int(dst, ty, exact ? (k == K_U64 ? (int64_t)a->v.u : a->v.i) : f2i(x));
		break;
	}
}

/* The simulator's bounds of a pointer argument (roles 7 and 8, core.h's
 * KP_PBASE and KP_PBYTES): the device allocation its address points into. */
static int pointer_bounds(DispatcherObject *d, Rt *rt, const PjParam *p, const ArgInfo *x, unsigned char *dst)
{
	uint64_t addr = x->kind == K_U64 ? x->v.u : (uint64_t)x->v.i, lo, len;
	if (!is_int_kind(x->kind) || !rt || !rt_sim_block(rt, addr, &lo, &len)) {
		PyErr_Format(PyExc_ValueError,
		             "kernel '%s', argument %d (%s): on the simulator a pointer argument must be the address "
		             "of a device array's memory (a.__cuda_array_interface__['data'][0]), and 0x%llx lies in "
		             "none", d->name, p->arg + 1, arg_name(d, p->arg), (unsigned long long)addr);
		return -1;
	}
	if (p->role == 7)
		memcpy(dst, &lo, 8);
	else
		memcpy(dst, &len, 8);
	return 0;
}

int pack_params(DispatcherObject *d, Rt *rt, const PjKernel *pk, const ArgInfo *a, unsigned char *buf)
{
	memset(buf, 0, (size_t)pk->param_bytes);
	const PjParam *p = pk->params, *end = p + pk->nparams;
	for (; p < end; p++) {
		const ArgInfo *x = &a[p->arg];
		unsigned char *dst = buf + p->off;
		switch (p->role) {
		case 0: memcpy(dst, &x->ptr, 8); break;
		case 1:
			if (p->ty == K_I64)
				memcpy(dst, &x->shape[p->dim], 8);
			else
				put_int(dst, p->ty, (int64_t)x->shape[p->dim]);
			break;
		case 2:
			if (p->ty == K_I64)
				memcpy(dst, &x->strides[p->dim], 8);
			else
				put_int(dst, p->ty, (int64_t)x->strides[p->dim]);
			break;
		case 3: put_scalar(dst, p->ty, x, 0); break;
		case 4: put_scalar(dst, p->ty, x, 0); break;
		case 5: put_scalar(dst, p->ty, x, 1); break;
		case 7: case 8:
			if (pointer_bounds(d, rt, p, x, dst))
				return -1;
			break;
		}
	}
	return 0;
}

int pack_check(DispatcherObject *d, KernelObject *k, const ArgInfo *a, int n)
{
	const PjKernel *pk = k->pk;
	if (pk->param_bytes < 0 || pk->param_bytes > 32764)
		goto bad;
	for (int i = 0; i < pk->nparams; i++) {
		const PjParam *p = &pk->params[i];
		if (p->arg < 0 || p->arg >= n || p->ty < 0 || p->ty >= K_NKINDS || p->off < 0 ||
		    p->off + kind_size[p->ty] > pk->param_bytes)
			goto bad;
		int arr = a[p->arg].cls != A_SCALAR;
		switch (p->role) {
		case 0:
			if (!arr || kind_size[p->ty] != 8)
				goto bad;
			break;
		case 1: case 2:
			if (!arr || p->dim < 0 || p->dim >= a[p->arg].ndim)
				goto bad;
			break;
		case 3: case 4: case 5: case 7: case 8:
			if (arr)
				goto bad;
			break;
		default:
			goto bad;
		}
	}
	return 0;
bad:
	PyErr_Format(d->st->InternalCompilerError,
	             "internal compiler error: the parameter layout of kernel '%s' does not match its "
	             "arguments; please report this with the kernel's source", d->name);
	return -1;
}

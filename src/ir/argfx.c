/*
 * argfx.c - which array arguments a kernel reads and which it writes.
 *
 * The runtime copies a NumPy array argument to the device before a launch
 * and back after it.  Copying back only the arrays the kernel can write
 * (and copying nothing for an array it never touches) saves most of the
 * transfer time of a typical kernel, whose inputs outnumber its outputs.
 *
 * The answer comes from the final IR.  Every load, store and atomic in
 * global (or generic) memory has an address; its provenance is found by
 * walking back through the operations an address is built with (add,
 * sub, copy, select, phi) to the kernel parameters it starts from.  A
 * parameter whose role is KP_DATA names the argument.  Integer operands
 * of those operations (offsets) lead to other parameters, special
 * registers, multiplies, ... which are simply not data pointers.  An
 * access whose address reaches no data pointer at all is a case this
 * walk does not understand: it counts as touching every array argument,
 * so the answer errs only on the side of copying more.
 *
 * Atomics read and write.  A pointer handed to a called (not inlined)
 * function (carg) may be read and written there.  An instruction with a
 * side effect that this file does not know (an opcode added later) counts
 * as reading and writing every array argument.  Bit i of the masks
 * stands for argument i; an argument at index 63 or above shares bit 63
 * (the runtime treats those as read and written).
 */
#include <string.h>

#include "../core.h"

typedef struct Walk {
	Fn *f;
	Ins **ins;            /* per value: its defining instruction, or NULL */
	Phi **phi;            /* per value: its defining phi, or NULL */
	unsigned char *seen;  /* per value: visited in this walk */
	uint64_t found;       /* data-pointer arguments reached */
	int any;              /* reached a data pointer or a static array */
} Walk;

static uint64_t arg_bit(int arg)
{
	return (uint64_t)1 << (arg < 63 ? arg : 63);
}

static void walk(Walk *w, Ref r)
{
	if (r.kind != R_VAL || (int)r.idx >= w->f->nval || w->seen[r.idx])
		return;
	w->seen[r.idx] = 1;
	Phi *p = w->phi[r.idx];
	if (p) {
		for (int j = 0; j < p->n; j++)
			walk(w, p->arg[j]);
		return;
	}
	Ins *i = w->ins[r.idx];
	if (!i)
		return;
	switch (i->op) {
	case O_ADD:
	case O_SUB:
	case O_COPY:
		walk(w, i->arg[0]);
		if (i->op != O_COPY)
			walk(w, i->arg[1]);
		break;
	case O_SEL:
		walk(w, i->arg[1]);
		walk(w, i->arg[2]);
		break;
	case O_PARAM:
		for (int j = 0; j < w->f->nparam; j++) {
			KParam *kp = &w->f->param[j];
			if (kp->off == i->aux && kp->role == KP_DATA) {
				w->found |= arg_bit(kp->arg);
				w->any = 1;
			}
		}
		break;
	case O_ADDR:
		w->any = 1;
		break;
	default:
		break;
	}
}

/* The arguments the address r may point into; all array arguments when
 * the walk finds no pointer. */
static uint64_t targets(Walk *w, Ref r, uint64_t all)
{
	memset(w->seen, 0, (size_t)w->f->nval);
	w->found = 0;
	w->any = 0;
	walk(w, r);
	return w->any ? w->found : all;
}

static int global_space(int sp)
{
	return sp == SP_GLOBAL || sp == SP_GENERIC;
}

void ir_arg_effects(Fn *f, uint64_t *read, uint64_t *written)
{
	Ctx *c = f->ctx;
	uint64_t all = 0;
	*read = *written = 0;
	for (int j = 0; j < f->nparam; j++)
		if (f->param[j].role == KP_DATA)
			all |= arg_bit(f->param[j].arg);
	if (!all || f->nval <= 0)
		return;
	Walk w = {f, NULL, NULL, NULL, 0, 0};
	w.ins = arena_alloc(c->arena, (size_t)f->nval * sizeof *w.ins);
	w.phi = arena_alloc(c->arena, (size_t)f->nval * sizeof *w.phi);
	w.seen = arena_alloc(c->arena, (size_t)f->nval);
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int j = 0; j < bk->nphi; j++)
			if (bk->phi[j].to >= 0 && bk->phi[j].to < f->nval)
				w.phi[bk->phi[j].to] = &bk->phi[j];
		for (int j = 0; j < bk->nins; j++)
			if (bk->ins[j].to >= 0 && bk->ins[j].to < f->nval)
				w.ins[bk->ins[j].to] = &bk->ins[j];
	}
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int j = 0; j < bk->nins; j++) {
			Ins *i = &bk->ins[j];
			switch (i->op) {
			case O_LOAD:
				if (global_space(ir_mem_space(i)))
					*read |= targets(&w, i->arg[0], all);
				break;
			case O_STORE:
				if (global_space(ir_mem_space(i)))
					*written |= targets(&w, i->arg[0], all);
				break;
			case O_ATOM:
				if (global_space(i->aux >> 8)) {
					uint64_t t = targets(&w, i->arg[0], all);
					*read |= t;
					*written |= t;
				}
				break;
			case O_CARG: {
				/* an argument of a called function: a pointer, or not */
				memset(w.seen, 0, (size_t)f->nval);
				w.found = 0;
				w.any = 0;
				walk(&w, i->arg[0]);
				*read |= w.found;
				*written |= w.found;
				break;
			}
			case O_BAR: case O_MEMBAR: case O_CHECK: case O_TRAP: case O_SHFL: case O_VOTE:
			case O_MATCH: case O_BARRED: case O_SYNCWARP: case O_ACTIVEMASK: case O_NANOSLEEP:
			case O_CALLF: case O_CRES: case O_RETV: case O_PRINT: case O_ALLOC:
				break;      /* effects, none on argument memory */
			default:
				if (op_info[i->op].effect) {
					*read |= all;
					*written |= all;
				}
				break;
			}
		}
	}
}

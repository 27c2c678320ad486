/*
 * prepare.c - turns a kernel's IR (Fn) into the simulator's compact
 * program (SimProgram, see sim.h).
 *
 * Slots of the register file, in order: the Fn's SSA values, its
 * constants, the special registers (NSR of them), one slot that stays
 * zero (for missing operands).  A special register's value is given the
 * special register's slot, so reading threadIdx.x costs nothing; a
 * kernel parameter or the address of a static array becomes a SimInit
 * that the launch writes into every frame once.
 *
 * Blocks are laid out in Fn order.  A jump to a block with phis gets the
 * phi moves of that edge, as a sequence of MOVs that implements the
 * parallel copy (a cycle goes through one scratch slot, the last one);
 * a conditional jump's edge with moves goes to a stub after the code
 * (the moves, then a JMP).  A jump to the next block is left out.
 *
 * A kernel that calls device functions (recursion, Fn.funcs) is first
 * merged with them into one Fn (sim_merge, call.c): their blocks follow
 * the kernel's, a callf becomes S_CALL with the slots of its arguments
 * and results, and a function's ret becomes S_RETF.
 *
 * The program owns all of its memory: file names, array names and
 * messages are copied (interned) into it, and constant arrays' bytes too.
 * Nothing points into the compile arena once sim_prepare returns.
 * Shapes of the IR that cannot be run are internal errors (ICE).
 *
 * Each load, store and atomic gets an entry of the memory guard's cache
 * (SIns.g, guard.c).  For testing the guard, PTXJIT_SIM_FAULT moves the
 * address of one access (read_fault below).
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

typedef struct Prep {
	Ctx *c;
	Fn *f;
	SimProgram *p;
	int32_t *slot;        /* slot of each SSA value */
	int con0, zero, tmp;  /* first constant slot, the zero slot, the scratch slot */
	int ncode, capcode;
	int32_t *start;       /* pc of each block */
	struct Fix { int pc, field, blk, from; } *fix;
	int nfix, capfix;
	int ninits, capinits;
	SimMerge mg;          /* the device functions appended (call.c) */
	int nkblk;            /* blocks of the kernel; the functions' follow */
	/* PTXJIT_SIM_FAULT: the access whose address is moved (see fault) */
	int fault_kind, fault_n, seen[3];
	int64_t fault_delta;
	int32_t fault_slot, fault_addr;
} Prep;

/* Frees what the preparation owns, before an internal error unwinds. */
static void drop(Prep *s)
{
	sim_free_program(s->p);
	s->p = NULL;
	free(s->start);
	free(s->fix);
	free(s->slot);
	s->start = NULL;
	s->fix = NULL;
	s->slot = NULL;
}

static void *xrealloc(Prep *s, void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		drop(s);
		ICE(s->c, "out of host memory preparing the simulator program");
	}
	return q;
}

static void *xcalloc(Prep *s, size_t n, size_t size)
{
	void *q = calloc(n ? n : 1, size);
	if (!q) {
		drop(s);
		ICE(s->c, "out of host memory preparing the simulator program");
	}
	return q;
}

static _Noreturn void bad(Prep *s, const char *what, int op)
{
	drop(s);
	ICE(s->c, "simulator: %s (opcode %s)", what, op >= 0 && op < NOPS ? op_info[op].name : "?");
}

static const char *intern(Prep *s, const char *str)
{
	SimProgram *p = s->p;
	if (!str)
		return NULL;
	for (int i = 0; i < p->nstrs; i++)
		if (strcmp(p->strs[i], str) == 0)
			return p->strs[i];
	size_t n = strlen(str);
	char *q = xcalloc(s, n + 1, 1);
	memcpy(q, str, n);
	p->strs = xrealloc(s, p->strs, sizeof *p->strs * (size_t)(p->nstrs + 1));
	p->strs[p->nstrs++] = q;
	return q;
}

static int is_signed(int sk)
{
	return sk >= 0 && sk < NSK && scalar_info[sk].is_int && scalar_info[sk].is_signed;
}

static int sk_size(int sk)
{
	return sk >= 0 && sk < NSK ? scalar_info[sk].size : 0;
}

static int32_t slot_of(Prep *s, Ref r)
{
	if (r.kind == R_VAL && (int)r.idx < s->f->nval)
		return s->slot[r.idx];
	if (r.kind == R_CON && (int)r.idx < s->f->ncon)
		return s->con0 + (int32_t)r.idx;
	return s->zero;
}

static int emit(Prep *s, int op, int32_t d, int32_t a, int32_t b, int32_t c, int32_t aux, int32_t loc)
{
	SimProgram *p = s->p;
	if (s->ncode == s->capcode) {
		s->capcode = s->capcode ? 2 * s->capcode : 64;
		p->code = xrealloc(s, p->code, sizeof *p->code * (size_t)s->capcode);
		p->code_loc = xrealloc(s, p->code_loc, sizeof *p->code_loc * (size_t)s->capcode);
	}
	p->code[s->ncode] = (SIns){.op = (uint16_t)op, .d = d, .a = a, .b = b, .c = c, .aux = aux};
	p->code_loc[s->ncode] = loc;
	return s->ncode++;
}

/* PTXJIT_SIM_FAULT=KINDN:DELTA (KIND load, store or atom; N counts the
 * accesses of that kind in program order from 0; DELTA in bytes, decimal
 * or 0x hex, may be negative) adds DELTA to that one access's address, as
 * a miscompiled address would: the test of the memory guard (guard.c)
 * from Python, tests/test_simguard.py.  Read when a program is prepared. */
static void read_fault(Prep *s)
{
	static const char *const kinds[3] = {"load", "store", "atom"};
	const char *e = getenv("PTXJIT_SIM_FAULT");
	s->fault_kind = -1;
	if (!e || !*e)
		return;
	for (int k = 0; k < 3; k++) {
		size_t n = strlen(kinds[k]);
		char *end;
		if (strncmp(e, kinds[k], n) != 0)
			continue;
		long idx = strtol(e + n, &end, 10);
		if (end == e + n || *end != ':' || idx < 0)
			return;
		const char *d = end + 1;
		long long delta = strtoll(d, &end, 0);
		if (end == d || *end)
			return;
		s->fault_kind = k;
		s->fault_n = (int)idx;
		s->fault_delta = delta;
	}
}

/* The address slot an access of kind k uses: a, or a + DELTA for the
 * access PTXJIT_SIM_FAULT names. */
static int32_t fault(Prep *s, int k, int32_t a, int32_t loc)
{
	if (s->fault_kind != k || s->seen[k]++ != s->fault_n)
		return a;
	emit(s, S_ADDL, s->fault_addr, a, s->fault_slot, s->zero, 0, loc);
	return s->fault_addr;
}

/* Gives the memory access at pc its entry in the guard's cache; past
 * 65535 accesses the rest share the last entry (SIM_GUARD_SHARED). */
static void guard_slot(Prep *s, int pc)
{
	SimProgram *p = s->p;
	p->code[pc].g = (uint16_t)(p->nguards < SIM_GUARD_SHARED ? p->nguards : SIM_GUARD_SHARED);
	if (p->nguards < 65536)
		p->nguards++;
}

static void add_init(Prep *s, int32_t slot, int kind, int32_t off, int ty)
{
	SimProgram *p = s->p;
	if (p->ninits == s->capinits) {
		s->capinits = s->capinits ? 2 * s->capinits : 16;
		p->inits = xrealloc(s, p->inits, sizeof *p->inits * (size_t)s->capinits);
	}
	p->inits[p->ninits++] = (SimInit){slot, kind, off, (uint8_t)ty};
}

/* ------------------------------------------------------------ data */

static void copy_locs(Prep *s)
{
	Fn *f = s->f;
	SimProgram *p = s->p;
	p->locs = xcalloc(s, (size_t)f->nlocs, sizeof *p->locs);
	for (int i = 0; i < f->nlocs; i++) {
		p->locs[i].file = intern(s, f->locs[i].file ? f->locs[i].file : "<unknown>");
		p->locs[i].line = f->locs[i].line;
		p->locs[i].col = f->locs[i].col;
	}
	p->nlocs = f->nlocs;
}

static void copy_checks(Prep *s)
{
	Fn *f = s->f;
	SimProgram *p = s->p;
	p->checks = xcalloc(s, (size_t)f->nchecks, sizeof *p->checks);
	for (int i = 0; i < f->nchecks; i++) {
		CheckInfo *ci = &f->checks[i];
		SimCheck *sc = &p->checks[i];
		sc->array = intern(s, ci->array);
		sc->axis = ci->axis;
		sc->ptr_size = ci->ptr_size;
		sc->ndim = ci->ndim < 0 ? 0 : ci->ndim > 8 ? 8 : ci->ndim;
		for (int k = 0; k < 8; k++)
			sc->ext[k] = -1;
		for (int k = 0; k < sc->ndim; k++)
			if (ci->ext[k].kind != R_NONE)
				sc->ext[k] = slot_of(s, ci->ext[k]);
		sc->loc = ci->loc >= 0 && ci->loc < f->nlocs ? ci->loc : -1;
		sc->msg = intern(s, ci->msg);
	}
	p->nchecks = f->nchecks;
}

static int64_t align_up(int64_t x, int64_t a)
{
	if (a <= 1)
		return x;
	return (x + a - 1) / a * a;
}

/* Shared arrays in declaration order, the dynamic one after all static
 * ones; local arrays likewise in the thread's local memory. */
static void layout_arrays(Prep *s)
{
	Fn *f = s->f;
	SimProgram *p = s->p;
	p->arrays = xcalloc(s, (size_t)f->narrays, sizeof *p->arrays);
	p->narrays = f->narrays;
	int64_t sh = 0, lo = 0;
	for (int i = 0; i < f->narrays; i++) {
		SArray *a = &f->arrays[i];
		SimArray *sa = &p->arrays[i];
		int64_t al = a->align > 0 ? a->align : 16;
		sa->space = a->space;
		sa->size = a->size < 0 ? 0 : a->size;
		sa->dynamic = a->dynamic;
		sa->name = intern(s, a->name);
		if (a->space == SP_SHARED && !a->dynamic) {
			sh = align_up(sh, al);
			sa->off = sh;
			sh += sa->size;
		} else if (a->space == SP_LOCAL) {
			lo = align_up(lo, al);
			sa->off = lo;
			lo += sa->size;
		} else if (a->space == SP_CONST) {
			sa->data = xcalloc(s, (size_t)sa->size + 16, 1);
			if (a->init && sa->size)
				memcpy(sa->data, a->init, (size_t)sa->size);
		} else if (a->space != SP_SHARED) {
			bad(s, "static array in an unknown address space", O_ADDR);
		}
	}
	p->smem_static = align_up(sh, 16);
	for (int i = 0; i < f->narrays; i++)
		if (p->arrays[i].space == SP_SHARED && p->arrays[i].dynamic)
			p->arrays[i].off = p->smem_static;
	p->local_size = align_up(lo, 16);
	p->has_shared = 0;
	for (int i = 0; i < f->narrays; i++)
		if (f->arrays[i].space == SP_SHARED)
			p->has_shared = 1;
}

/* ---------------------------------------------------------- values */

/* Special registers and launch constants get their slots before any
 * instruction is translated, so every operand can be resolved. */
static void assign_slots(Prep *s)
{
	Fn *f = s->f;
	SimProgram *p = s->p;
	s->slot = xcalloc(s, (size_t)f->nval, sizeof *s->slot);
	for (int i = 0; i < f->nval; i++)
		s->slot[i] = i;
	s->con0 = f->nval;
	p->sreg_slot = f->nval + f->ncon;
	s->zero = p->sreg_slot + NSR;
	s->tmp = s->zero + 1;
	p->nslots = s->tmp + 1;
	if (s->fault_kind >= 0) {
		s->fault_slot = p->nslots++;
		s->fault_addr = p->nslots++;
	}
	for (int b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		for (int j = 0; j < bk->nins; j++) {
			Ins *i = &bk->ins[j];
			if (i->op == O_SREG && i->to >= 0 && i->to < f->nval) {
				if (i->aux < 0 || i->aux >= NSR)
					bad(s, "unknown special register", i->op);
				s->slot[i->to] = p->sreg_slot + i->aux;
			}
		}
	}
}

static void fill_template(Prep *s)
{
	Fn *f = s->f;
	SimProgram *p = s->p;
	p->init = xcalloc(s, (size_t)p->nslots, sizeof *p->init);
	if (s->fault_kind >= 0)
		p->init[s->fault_slot].i = s->fault_delta;
	for (int i = 0; i < f->ncon; i++) {
		Con *k = &f->con[i];
		Reg *r = &p->init[s->con0 + i];
		switch (k->cls) {
		case KB: r->u = k->i != 0; break;
		case KW: r->u = (uint32_t)k->i; break;
		case KS: r->s = k->s; break;
		case KD: r->d = k->d; break;
		default: r->i = k->i; break;
		}
	}
}

/* ----------------------------------------------------- instructions */

/* Like the PTX back end: an integer result of kind int8/int16/uint8/
 * uint16 is re-extended from its width, and a float result of kind
 * float16 is rounded to float16, after the operations that can leave
 * that range. */
static void narrow(Prep *s, Ins *i, int32_t d, int32_t loc)
{
	switch (i->op) {
	case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_REM: case O_NEG: case O_NOT:
	case O_SHL: case O_ABS: case O_SQRT: case O_FMA:
		break;
	default:
		return;
	}
	int ty = i->ty;
	if (i->cls == KW && (ty == SK_I8 || ty == SK_U8 || ty == SK_I16 || ty == SK_U16))
		emit(s, S_CVT, d, d, s->zero, s->zero, SK_I32 | ty << 8, loc);
	else if (i->cls == KS && ty == SK_F16 && i->op != O_NEG && i->op != O_ABS && i->op != O_FMA)   /* S_FMAH rounds */
		emit(s, S_CVT, d, d, s->zero, s->zero, SK_F32 | SK_F16 << 8, loc);
}

static void ins_arith(Prep *s, Ins *i, int32_t d, int32_t a, int32_t b, int32_t loc)
{
	static const int ops[][4] = {
		[O_ADD] = {S_ADDW, S_ADDL, S_ADDS, S_ADDD},
		[O_SUB] = {S_SUBW, S_SUBL, S_SUBS, S_SUBD},
		[O_MUL] = {S_MULW, S_MULL, S_MULS, S_MULD},
		[O_NEG] = {S_NEGW, S_NEGL, S_NEGS, S_NEGD},
		[O_ABS] = {S_ABSW, S_ABSL, S_ABSS, S_ABSD},
		[O_FMA] = {S_FMAW, S_FMAL, S_FMAS, S_FMAD},
		[O_SQRT] = {-1, -1, S_SQRTS, S_SQRTD},
		[O_FLOOR] = {S_MOV, S_MOV, S_FLOORS, S_FLOORD},
		[O_CEIL] = {S_MOV, S_MOV, S_CEILS, S_CEILD},
		[O_TRUNC] = {S_MOV, S_MOV, S_TRUNCS, S_TRUNCD},
		[O_RINT] = {S_MOV, S_MOV, S_RINTS, S_RINTD},
	};
	int k;
	switch (i->cls) {
	case KW: k = 0; break;
	case KL: case KB: k = 1; break;
	case KS: k = 2; break;
	case KD: k = 3; break;
	default: bad(s, "operation on a value without class", i->op);
	}
	int op = ops[i->op][k];
	if (op < 0)
		bad(s, "operation not defined for integers", i->op);
	if (i->op == O_ABS && (i->cls == KB || (i->cls != KS && i->cls != KD && !is_signed(i->ty))))
		op = S_MOV;
	int32_t c = i->op == O_FMA ? slot_of(s, i->arg[2]) : s->zero;
	if (op == S_FMAS && i->aux)
		op = S_FMASM;
	else if (op == S_FMAS && i->ty == SK_F16)
		op = S_FMAH;
	emit(s, op, d, a, b, c, i->aux, loc);
	narrow(s, i, d, loc);
}

/* ints: [W signed, W unsigned, L signed, L unsigned]; floats: [S, D] */
static void ins_intfloat(Prep *s, Ins *i, int32_t d, int32_t a, int32_t b, int32_t loc,
                         const int iop[4], const int fop[2])
{
	int sg = !is_signed(i->ty);
	int op;
	switch (i->cls) {
	case KW: op = iop[sg]; break;
	case KL: case KB: op = iop[2 + sg]; break;
	case KS: op = fop[0]; break;
	case KD: op = fop[1]; break;
	default: bad(s, "operation on a value without class", i->op);
	}
	if (op < 0)
		bad(s, "operation not defined for this class", i->op);
	emit(s, op, d, a, b, s->zero, 0, loc);
	narrow(s, i, d, loc);
}

static void ins_bitwise(Prep *s, Ins *i, int32_t d, int32_t a, int32_t b, int32_t loc)
{
	int w = i->cls == KW;
	if (i->cls != KW && i->cls != KL && i->cls != KB)
		bad(s, "bitwise operation on floats", i->op);
	int op;
	switch (i->op) {
	case O_AND: op = w ? S_ANDW : S_ANDL; break;
	case O_OR: op = w ? S_ORW : S_ORL; break;
	case O_XOR: op = w ? S_XORW : S_XORL; break;
	default: op = i->cls == KB ? S_NOTB : w ? S_NOTW : S_NOTL; break;
	}
	emit(s, op, d, a, b, s->zero, 0, loc);
	narrow(s, i, d, loc);
}

static void ins_cmp(Prep *s, Ins *i, int32_t d, int32_t a, int32_t b, int32_t loc)
{
	/* per class: EQ NE LT LE LTU LEU */
	static const int tab[4][6] = {
		{S_EQW, S_NEW, S_LTWS, S_LEWS, S_LTWU, S_LEWU},
		{S_EQL, S_NEL, S_LTLS, S_LELS, S_LTLU, S_LELU},
		{S_EQS, S_NES, S_LTS, S_LES, S_LTUS, S_LEUS},
		{S_EQD, S_NED, S_LTD, S_LED, S_LTUD, S_LEUD},
	};
	int k;
	Cls ka = ir_cls_of(s->f, i->arg[0]);
	switch (ka != KX ? ka : ir_cls_of_sk((ScalarKind)i->ty)) {
	case KW: k = 0; break;
	case KL: case KB: k = 1; break;
	case KS: k = 2; break;
	case KD: k = 3; break;
	default: bad(s, "comparison of values without class", i->op);
	}
	int isint = k < 2, uns = isint && !is_signed(i->ty);
	int swap = 0, col;
	switch (i->aux) {
	case CC_EQ: col = 0; break;
	case CC_NE: col = 1; break;
	case CC_LT: col = 2; break;
	case CC_LE: col = 3; break;
	case CC_GT: col = 2; swap = 1; break;
	case CC_GE: col = 3; swap = 1; break;
	case CC_LTU: col = 4; break;
	case CC_LEU: col = 5; break;
	case CC_GTU: col = 4; swap = 1; break;
	case CC_GEU: col = 5; swap = 1; break;
	default: bad(s, "unknown condition code", i->op);
	}
	if (uns && (col == 2 || col == 3))
		col += 2;     /* ints: the LTU/LEU columns are the unsigned LT/LE */
	emit(s, tab[k][col], d, swap ? b : a, swap ? a : b, s->zero, 0, loc);
}

static void ins_cvt(Prep *s, Ins *i, int32_t d, int32_t a, int32_t loc)
{
	int from = i->ty, to = i->aux;
	if (from < 0 || from >= NSK || to < 0 || to >= NSK || from == SK_C64 || from == SK_C128 ||
	    to == SK_C64 || to == SK_C128)
		bad(s, "conversion between unsupported kinds", i->op);
	int op = S_CVT;
	if (from == to)
		op = S_MOV;
	else if ((from == SK_I32 || from == SK_U32) && (to == SK_I32 || to == SK_U32))
		op = S_MOV;
	else if ((from == SK_I64 || from == SK_U64) && (to == SK_I64 || to == SK_U64))
		op = S_MOV;
	else if (ir_cls_of_sk(from) == KW && (to == SK_I64 || to == SK_U64))
		op = is_signed(from) ? S_SEXT : S_ZEXT;
	else if ((from == SK_I64 || from == SK_U64) && (to == SK_I32 || to == SK_U32))
		op = S_TRUNCW;
	emit(s, op, d, a, s->zero, s->zero, from | to << 8, loc);
}

static void ins_load(Prep *s, Ins *i, int32_t d, int32_t a, int32_t loc)
{
	int op;
	switch (i->ty) {
	case SK_BOOL: op = S_LDB; break;
	case SK_I8: op = S_LDI8; break;
	case SK_U8: op = S_LDU8; break;
	case SK_I16: op = S_LDI16; break;
	case SK_U16: op = S_LDU16; break;
	case SK_I32: case SK_U32: case SK_F32: op = S_LD32; break;
	case SK_I64: case SK_U64: case SK_F64: op = S_LD64; break;
	case SK_F16: op = S_LDF16; break;
	default: bad(s, "load of an unsupported kind", i->op);
	}
	a = fault(s, HOOK_READ, a, loc);
	int sp = ir_mem_space(i);   /* a cache operator changes nothing here */
	if (s->p->has_shared && (sp == SP_SHARED || sp == SP_GENERIC))
		emit(s, S_SHOOK, -1, a, sk_size(i->ty), sp == SP_SHARED, HOOK_READ, loc);
	guard_slot(s, emit(s, op, d, a, s->zero, s->zero, 0, loc));
}

static void ins_store(Prep *s, Ins *i, int32_t a, int32_t b, int32_t loc)
{
	int op;
	switch (i->ty) {
	case SK_BOOL: case SK_I8: case SK_U8: op = S_ST8; break;
	case SK_I16: case SK_U16: op = S_ST16; break;
	case SK_I32: case SK_U32: case SK_F32: op = S_ST32; break;
	case SK_I64: case SK_U64: case SK_F64: op = S_ST64; break;
	case SK_F16: op = S_STF16; break;
	default: bad(s, "store of an unsupported kind", i->op);
	}
	a = fault(s, HOOK_WRITE, a, loc);
	int sp = ir_mem_space(i);
	if (s->p->has_shared && (sp == SP_SHARED || sp == SP_GENERIC))
		emit(s, S_SHOOK, -1, a, sk_size(i->ty), sp == SP_SHARED, HOOK_WRITE, loc);
	guard_slot(s, emit(s, op, -1, a, b, s->zero, 0, loc));
}

static void ins_atom(Prep *s, Ins *i, int32_t d, int32_t loc)
{
	int at = i->aux & 255, space = i->aux >> 8;
	if (at >= NAT)
		bad(s, "unknown atomic operation", i->op);
	switch (i->ty) {
	case SK_I32: case SK_U32: case SK_I64: case SK_U64: case SK_F32: case SK_F64:
		break;
	default:
		bad(s, "atomic operation on an unsupported kind", i->op);
	}
	int32_t a = slot_of(s, i->arg[0]), b = slot_of(s, i->arg[1]);
	int32_t c = at == AT_CAS ? slot_of(s, i->arg[2]) : s->zero;
	a = fault(s, HOOK_ATOM, a, loc);
	if (s->p->has_shared && (space == SP_SHARED || space == SP_GENERIC))
		emit(s, S_SHOOK, -1, a, sk_size(i->ty), space == SP_SHARED, HOOK_ATOM, loc);
	guard_slot(s, emit(s, S_ATOM, d < 0 ? s->tmp : d, a, b, c, at | i->ty << 8, loc));
}

/* Bit operations, and the meeting points of threads (warp.c). */
static void ins_warp(Prep *s, Ins *i, int32_t d, int32_t a, int32_t b, int32_t loc)
{
	int w = i->cls == KW, z = s->zero;
	switch (i->op) {
	case O_POPC: emit(s, w ? S_POPCW : S_POPCL, d, a, z, z, 0, loc); return;
	case O_CLZ: emit(s, w ? S_CLZW : S_CLZL, d, a, z, z, 0, loc); return;
	case O_BREV: emit(s, w ? S_BREVW : S_BREVL, d, a, z, z, 0, loc); return;
	case O_NANOSLEEP: return;
	case O_SHFL:
		emit(s, S_WARP, d, a, b, slot_of(s, i->arg[2]), WK_SHFL | (i->aux & 255) << 4 | (i->aux >> 8) << 8, loc);
		break;
	case O_VOTE: emit(s, S_WARP, d, a, z, b, WK_VOTE | i->aux << 4, loc); break;
	case O_MATCH:
		emit(s, S_WARP, d, a, z, b, WK_MATCH | (i->aux | (ir_cls_of(s->f, i->arg[0]) == KL) << 2) << 4, loc);
		break;
	case O_SYNCWARP: emit(s, S_WARP, -1, z, z, a, WK_SYNC, loc); break;
	case O_ACTIVEMASK: emit(s, S_WARP, d, z, z, z, WK_ACTIVE, loc); break;
	case O_BARRED:
		s->p->has_bar = 1;
		emit(s, S_BAR, d, a, z, z, 1 + i->aux, loc);
		break;
	default:
		bad(s, "not a warp operation", i->op);
	}
	s->p->has_warp = 1;
}

/* A callf with the cargs before it and the cres after it (call.c). */
static void ins_call(Prep *s, Ins *i, int32_t loc)
{
	int fn = i->aux;
	if (fn < 0 || fn >= s->mg.nfuncs)
		bad(s, "call of an unknown function", i->op);
	int na = s->mg.nargs[fn], nr = s->mg.nrets[fn];
	int32_t *a = xcalloc(s, (size_t)na + (size_t)nr + 1, sizeof *a), *r = a + na;
	for (int k = 0; k < na; k++) {
		Ins *x = i - na + k;
		if (x->op != O_CARG || x->aux != k)
			bad(s, "call without its arguments", i->op);
		a[k] = slot_of(s, x->arg[0]);
	}
	for (int k = 0; k < nr; k++) {
		Ins *x = i + 1 + k;
		if (x->op != O_CRES || x->aux != k || x->to < 0 || x->to >= s->f->nval)
			bad(s, "call without its results", i->op);
		r[k] = s->slot[x->to];
	}
	int cs = sim_prep_call(s->c, s->p, fn, na, a, nr, r);
	free(a);
	emit(s, S_CALL, -1, s->zero, s->zero, s->zero, cs, loc);
}

/* The function (index in mg) whose block bi is, or -1 for the kernel's. */
static int func_of_blk(Prep *s, int bi)
{
	for (int j = 0; j < s->mg.nfuncs; j++)
		if (bi >= s->mg.blk0[j] && bi < s->mg.blk0[j] + s->mg.nblk[j])
			return j;
	return -1;
}

static void ins_one(Prep *s, Ins *i)
{
	Fn *f = s->f;
	int32_t d = i->to >= 0 && i->to < f->nval ? s->slot[i->to] : -1;
	int32_t a = slot_of(s, i->arg[0]), b = slot_of(s, i->arg[1]);
	int32_t loc = i->loc >= 0 && i->loc < f->nlocs ? i->loc : -1;
	static const int div_i[4] = {S_DIVWS, S_DIVWU, S_DIVLS, S_DIVLU}, div_f[2] = {S_DIVS, S_DIVD};
	static const int rem_i[4] = {S_REMWS, S_REMWU, S_REMLS, S_REMLU}, rem_f[2] = {-1, -1};
	static const int shl_i[4] = {S_SHLW, S_SHLW, S_SHLL, S_SHLL}, sh_f[2] = {-1, -1};
	static const int shr_i[4] = {S_SHRWS, S_SHRWU, S_SHRLS, S_SHRLU};
	static const int min_i[4] = {S_MINWS, S_MINWU, S_MINLS, S_MINLU}, min_f[2] = {S_MINS, S_MIND};
	static const int max_i[4] = {S_MAXWS, S_MAXWU, S_MAXLS, S_MAXLU}, max_f[2] = {S_MAXS, S_MAXD};

	if (op_info[i->op < NOPS ? i->op : 0].def && d < 0 && i->op != O_ATOM)
		bad(s, "instruction without a result value", i->op);
	switch (i->op) {
	case O_NOP_:
	case O_MEMBAR:
		break;
	case O_ADD: case O_SUB: case O_MUL: case O_NEG: case O_ABS: case O_FMA:
	case O_SQRT: case O_FLOOR: case O_CEIL: case O_TRUNC: case O_RINT:
		ins_arith(s, i, d, a, b, loc);
		break;
	case O_DIV: ins_intfloat(s, i, d, a, b, loc, div_i, div_f); break;
	case O_REM: ins_intfloat(s, i, d, a, b, loc, rem_i, rem_f); break;
	case O_SHL: case O_SHR:
		if (i->cls == KW && ir_cls_of(f, i->arg[1]) == KL) {
			/* a 64-bit count of a 32-bit shift saturates to 32 bits */
			emit(s, S_SATW, s->tmp, b, s->zero, s->zero, 0, loc);
			b = s->tmp;
		}
		ins_intfloat(s, i, d, a, b, loc, i->op == O_SHL ? shl_i : shr_i, sh_f);
		break;
	case O_MIN: ins_intfloat(s, i, d, a, b, loc, min_i, min_f); break;
	case O_MAX: ins_intfloat(s, i, d, a, b, loc, max_i, max_f); break;
	case O_AND: case O_OR: case O_XOR: case O_NOT:
		ins_bitwise(s, i, d, a, b, loc);
		break;
	case O_CMP: ins_cmp(s, i, d, a, b, loc); break;
	case O_SEL: emit(s, S_SEL, d, a, b, slot_of(s, i->arg[2]), 0, loc); break;
	case O_CVT: ins_cvt(s, i, d, a, loc); break;
	case O_BITS: case O_COPY:   /* a KW register keeps its upper half zero */
		emit(s, i->cls == KW ? S_ZEXT : S_MOV, d, a, s->zero, s->zero, 0, loc);
		break;
	case O_PARAM:
		if (i->aux < 0 || i->aux + sk_size(i->ty) > f->param_bytes || !sk_size(i->ty) || i->ty >= SK_C64)
			bad(s, "parameter outside the parameter buffer", i->op);
		add_init(s, d, LI_PARAM, i->aux, i->ty);
		break;
	case O_SREG: break;   /* its value lives in the special register's slot */
	case O_ADDR: {
		if (i->aux < 0 || i->aux >= f->narrays)
			bad(s, "address of an unknown array", i->op);
		SimArray *sa = &s->p->arrays[i->aux];
		if (sa->space == SP_CONST)
			s->p->init[d].u = (uint64_t)(uintptr_t)sa->data;
		else
			add_init(s, d, sa->space == SP_SHARED ? LI_SHARED : LI_LOCAL, (int32_t)sa->off, 0);
		break;
	}
	case O_LOAD: ins_load(s, i, d, a, loc); break;
	case O_STORE: ins_store(s, i, a, b, loc); break;
	case O_ATOM: ins_atom(s, i, d, loc); break;
	case O_BAR:
		s->p->has_bar = 1;
		s->p->has_gbar |= i->aux == 1;
		emit(s, S_BAR, -1, s->zero, s->zero, s->zero, i->aux == 1 ? SIM_BAR_GRID : 0, loc);
		break;
	case O_CHECK:
		if (i->aux < 0 || i->aux >= f->nchecks)
			bad(s, "bounds check without its description", i->op);
		emit(s, S_CHECK, -1, a, b, s->zero, i->aux, loc);
		break;
	case O_TRAP:
		if (i->aux < 0 || i->aux >= f->nchecks)
			bad(s, "trap without its description", i->op);
		if (!f->checks[i->aux].msg)   /* without message: the thread just ends */
			emit(s, S_RET, -1, s->zero, s->zero, s->zero, 0, loc);
		else
			emit(s, S_TRAP, -1, s->zero, s->zero, s->zero, i->aux, loc);
		break;
	case O_POPC: case O_CLZ: case O_BREV: case O_SHFL: case O_VOTE: case O_MATCH:
	case O_BARRED: case O_SYNCWARP: case O_ACTIVEMASK: case O_NANOSLEEP:
		ins_warp(s, i, d, a, b, loc);
		break;
	case O_FARG: case O_CARG: case O_CRES:
		break;        /* written by the call and the return (call.c) */
	case O_CALLF:
		ins_call(s, i, loc);
		break;
	case O_RETV:
		emit(s, S_RETV, -1, a, s->zero, s->zero, i->aux, loc);
		break;
	case O_PRINT:
		if (i->aux < 0 || i->aux >= f->nfmts)
			bad(s, "print of an unknown format", i->op);
		emit(s, S_PRINT, -1, a, s->zero, s->zero, i->aux, loc);
		break;
	case O_ALLOC:     /* CPU functions: the caller's allocator (cpu.c) */
		emit(s, S_ALLOC, d, a, s->zero, s->zero, i->aux, loc);
		break;
	case O_APPROX:
		if (i->aux < 0 || i->aux >= NAP || i->cls != KS)
			bad(s, "approximation of an unknown function", i->op);
		emit(s, S_APPROX, d, a, s->zero, s->zero, i->aux, loc);
		break;
	default:
		bad(s, "unknown opcode", i->op);
	}
}

/* ------------------------------------------------------------ edges */

/* Appends the moves of the phis of block `to` for the edge from block
 * `from`, sequentialising the parallel copy. */
static void edge_moves(Prep *s, int from, int to)
{
	Fn *f = s->f;
	Blk *b = f->blk[to];
	if (!b->nphi)
		return;
	int k = -1;
	for (int j = 0; j < b->npred; j++)
		if (b->pred[j] == from) {
			k = j;
			break;
		}
	if (k < 0)
		return;
	int n = 0;
	int32_t *dst = xcalloc(s, (size_t)b->nphi, sizeof *dst);
	int32_t *src = xcalloc(s, (size_t)b->nphi, sizeof *src);
	for (int j = 0; j < b->nphi; j++) {
		Phi *ph = &b->phi[j];
		if (ph->to < 0 || ph->to >= f->nval || k >= ph->n)
			continue;
		int32_t d = s->slot[ph->to], a = slot_of(s, ph->arg[k]);
		if (d != a) {
			dst[n] = d;
			src[n] = a;
			n++;
		}
	}
	while (n > 0) {
		int pick = -1;
		for (int j = 0; j < n && pick < 0; j++) {
			int used = 0;
			for (int m = 0; m < n; m++)
				if (m != j && src[m] == dst[j])
					used = 1;
			if (!used)
				pick = j;
		}
		if (pick < 0) {
			/* every destination is still read: save one to the scratch slot */
			int32_t d = dst[0];
			emit(s, S_MOV, s->tmp, d, s->zero, s->zero, 0, -1);
			for (int m = 0; m < n; m++)
				if (src[m] == d)
					src[m] = s->tmp;
			pick = 0;
		}
		emit(s, S_MOV, dst[pick], src[pick], s->zero, s->zero, 0, -1);
		dst[pick] = dst[n - 1];
		src[pick] = src[n - 1];
		n--;
	}
	free(dst);
	free(src);
}

static int has_moves(Prep *s, int from, int to)
{
	Blk *b = s->f->blk[to];
	if (!b->nphi)
		return 0;
	for (int j = 0; j < b->npred; j++)
		if (b->pred[j] == from) {
			for (int m = 0; m < b->nphi; m++) {
				Phi *ph = &b->phi[m];
				if (j < ph->n && ph->to >= 0 && ph->to < s->f->nval &&
				    s->slot[ph->to] != slot_of(s, ph->arg[j]))
					return 1;
			}
			return 0;
		}
	return 0;
}

static void add_fix(Prep *s, int pc, int field, int blk, int from)
{
	if (s->nfix == s->capfix) {
		s->capfix = s->capfix ? 2 * s->capfix : 16;
		s->fix = xrealloc(s, s->fix, sizeof *s->fix * (size_t)s->capfix);
	}
	s->fix[s->nfix++] = (struct Fix){pc, field, blk, from};
}

static void check_target(Prep *s, int t)
{
	if (t < 0 || t >= s->f->nblk)
		bad(s, "jump to a block that does not exist", NOPS);
}

static void emit_block(Prep *s, int bi)
{
	Fn *f = s->f;
	Blk *b = f->blk[bi];
	int32_t loc = -1;     /* a jump reports the block's last source line */
	s->start[bi] = s->ncode;
	for (int j = 0; j < b->nins; j++) {
		ins_one(s, &b->ins[j]);
		if (b->ins[j].loc >= 0 && b->ins[j].loc < f->nlocs)
			loc = b->ins[j].loc;
	}
	switch (b->jmp) {
	case J_RET:
		if (bi >= s->nkblk)
			emit(s, S_RETF, -1, s->zero, s->zero, s->zero, func_of_blk(s, bi), loc);
		else
			emit(s, S_RET, -1, s->zero, s->zero, s->zero, 0, loc);
		break;
	case J_JMP:
		check_target(s, b->s1);
		edge_moves(s, bi, b->s1);
		if (b->s1 != bi + 1)
			add_fix(s, emit(s, S_JMP, -1, 0, s->zero, s->zero, 0, loc), 'a', b->s1, -1);
		break;
	case J_JNZ: {
		check_target(s, b->s1);
		check_target(s, b->s2);
		int pc = emit(s, S_JNZ, -1, slot_of(s, b->cond), 0, 0, 0, loc);
		add_fix(s, pc, 'b', b->s1, has_moves(s, bi, b->s1) ? bi : -1);
		add_fix(s, pc, 'c', b->s2, has_moves(s, bi, b->s2) ? bi : -1);
		break;
	}
	default:
		bad(s, "block without a jump", NOPS);
	}
}

/* Resolves jump targets; an edge with moves gets a stub at the end. */
static void resolve_jumps(Prep *s)
{
	int nfix = s->nfix;
	for (int i = 0; i < nfix; i++) {
		struct Fix x = s->fix[i];
		int32_t target = s->start[x.blk];
		if (x.from >= 0) {
			int stub = s->ncode;
			edge_moves(s, x.from, x.blk);
			emit(s, S_JMP, -1, target, s->zero, s->zero, 0, s->p->code_loc[x.pc]);
			target = stub;
		}
		SIns *ins = &s->p->code[x.pc];
		if (x.field == 'a')
			ins->a = target;
		else if (x.field == 'b')
			ins->b = target;
		else
			ins->c = target;
	}
	/* stubs jump back too: loops are counted at every backward jump */
	for (int pc = 0; pc < s->ncode; pc++) {
		SIns *ins = &s->p->code[pc];
		if (ins->op == S_JMP && ins->a <= pc)
			ins->op = S_JMPB;
		else if (ins->op == S_JNZ && (ins->b <= pc || ins->c <= pc))
			ins->op = S_JNZB;
	}
}

static const char *kernel_name(Ctx *c, Fn *f)
{
	if (c && c->kernel && c->kernel->def && c->kernel->def->name)
		return c->kernel->def->name;
	return f->name ? f->name : "kernel";
}

SimProgram *sim_prepare(Ctx *c, Fn *f)
{
	Prep st = {.c = c, .f = f, .nkblk = f->nblk, .fault_kind = -1};
	Prep *s = &st;
	const Fn *kf = f;
	if (f->nfuncs)
		s->f = f = sim_merge(c, f, &s->mg);   /* the functions it calls, appended (call.c) */
	s->p = calloc(1, sizeof *s->p);
	if (!s->p)
		ICE(c, "out of host memory preparing the simulator program");
	if (f->nblk <= 0)
		bad(s, "kernel without blocks", NOPS);
	SimProgram *p = s->p;
	read_fault(s);
	p->name = intern(s, kernel_name(c, f));
	p->param_bytes = f->param_bytes;
	copy_locs(s);
	layout_arrays(s);
	p->devmem = xcalloc(s, (size_t)kf->ndevmem + 1, sizeof *p->devmem);
	p->ndevmem = kf->ndevmem;
	for (int i = 0; i < kf->ndevmem; i++)
		p->devmem[i] = (DevMem){kf->devmem[i].lo, kf->devmem[i].len, intern(s, kf->devmem[i].name)};
	assign_slots(s);
	fill_template(s);
	copy_checks(s);
	if (sim_prepare_args(c, p, f) < 0) {   /* guard.c */
		drop(s);
		ICE(c, "out of host memory preparing the simulator program");
	}
	for (int i = 0; i < p->nargs; i++)
		p->args[i].name = intern(s, p->args[i].name);
	s->start = xcalloc(s, (size_t)f->nblk, sizeof *s->start);
	p->fmts = xcalloc(s, (size_t)f->nfmts, sizeof *p->fmts);
	for (int k = 0; k < f->nfmts; k++)
		p->fmts[k] = intern(s, f->fmts[k]);
	p->nfmts = f->nfmts;
	for (int b = 0; b < f->nblk; b++)
		emit_block(s, b);
	resolve_jumps(s);
	p->ncode = s->ncode;
	if (s->mg.nfuncs)
		sim_prep_funcs(c, p, f, &s->mg, s->start);
	free(s->start);
	free(s->fix);
	free(s->slot);
	return p;
}

void sim_free_program(SimProgram *p)
{
	if (!p)
		return;
	free(p->code);
	free(p->code_loc);
	free(p->init);
	free(p->inits);
	free(p->locs);
	free(p->checks);
	if (p->arrays)
		for (int i = 0; i < p->narrays; i++)
			free(p->arrays[i].data);
	free(p->arrays);
	free(p->devmem);
	for (int i = 0; i < p->nstrs; i++)
		free(p->strs[i]);
	free(p->strs);
	for (int i = 0; p->funcs && i < p->nfuncs; i++)
		free(p->funcs[i].args);
	free(p->funcs);
	for (int i = 0; i < p->ncalls; i++) {
		free(p->calls[i].args);
		free(p->calls[i].rets);
	}
	free(p->calls);
	free(p->fmts);
	free(p->args);
	free(p);
}

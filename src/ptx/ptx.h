/*
 * ptx.h - the PTX back end's private interface, shared by emit.c (module,
 * parameters, registers, blocks, phis, jumps), ops.c (one instruction of
 * the IR at a time) and atom.c (atomics and their compare-and-swap loops).
 *
 * Registers: every SSA value owns one virtual register of its class
 * (%p .pred, %r .b32, %rd .b64, %f .f32, %fd .f64); temporaries come from
 * the same pools and .b16 temporaries (%h) carry float16 bits to and from
 * memory.  The body is written into a buffer first and the declarations,
 * whose counts are known only at the end, are put before it.
 */
#ifndef PTXJIT_PTX_H
#define PTXJIT_PTX_H

#include "../core.h"

/* Register kinds: the value classes (KB..KD) and the .b16 kind. */
enum { RK_H = NK, NRK };

typedef struct PtxBuf {
	char *p;
	int n, cap;
} PtxBuf;

typedef struct Emit {
	Ctx *c;
	Fn *f;
	int arch;
	int fast;            /* fastmath: approximate f32 div/sqrt, .ftz on f32 */
	PtxBuf body;
	int *reg;            /* SSA value -> register number in its kind */
	int nreg[NRK];       /* registers used per kind (values, then temporaries) */
	int nlabel;          /* labels made inside a block (CAS loops) */
	const char **pname;  /* name of each kernel parameter */
	int lineinfo;        /* write .file/.loc */
	int debuginfo;       /* debug=True: DWARF sections, and labels at each function's start and end (dwarf.c) */
	const char **files;  /* source files named by .file, 1-based in the text */
	int nfiles, capfiles;
	int last_file, last_line;
	const Ins **def;     /* defining instruction of each value, NULL for phis */
	uint8_t *folded;     /* folded[v]: v = q + imm, written only inside the
	                        [q+imm] operands of the loads and stores using it */
	int *defblk;         /* block of each value's defining instruction, -1 if none */
	int cur;             /* the block being written */
	uint8_t *twin;       /* twin[v]: v is read by a 64-bit add of another block */
	const char **twin_reg; /* the copy of such a product those adds read (ops.c) */
	uint8_t *nounroll;   /* nounroll[b]: block b starts with .pragma "nounroll" */
	const char **half;   /* half[v]: the .b16 register float16 value v was loaded through, or NULL */
} Emit;

/* emit.c */
void ptx_bprintf(Emit *e, PtxBuf *b, const char *fmt, ...);
void ptx_line(Emit *e, const char *fmt, ...);     /* "\t<text>\n" into the body */
void ptx_label_line(Emit *e, const char *label); /* "<label>:\n" */
const char *ptx_new_label(Emit *e);              /* a fresh "$L_x<n>" */
const char *ptx_tmp(Emit *e, int rk);            /* a fresh register of kind rk */
const char *ptx_def(Emit *e, const Ins *i);      /* the register i defines */
const char *ptx_vreg(Emit *e, int val);          /* the register of value val */
/* An operand as PTX text: the register, or an immediate written in the
 * form of class k (which must be the operand's class or compatible with
 * it): decimal or hex integers, 0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX.  KB
 * constants become a predicate register set just here. */
const char *ptx_opnd(Emit *e, Ref r);
const char *ptx_reg(Emit *e, Ref r);             /* always a register (constants moved) */
const char *ptx_pred(Emit *e, Ref r);            /* a KB operand as a predicate register */
int ptx_is_con(Emit *e, Ref r, int64_t *v);      /* integer/bool constant and its value */
Cls ptx_cls(Emit *e, Ref r);
const char *ptx_movty(int k);
const char *ptx_opname(int op);                  /* "ADD" */
const char *ptx_array_sym(Emit *e, int idx);     /* symbol of Fn.arrays[idx] */
int ptx_param_index(Emit *e, int off);           /* Fn.param entry at byte offset off */                    /* "pred" "b32" "b64" "f32" "f64" "b16" */

/* Scalar kinds as PTX sees them. */
int ptx_sk_signed(int sk);       /* signed integer kind (and anything not unsigned) */
int ptx_sk_small(int sk);        /* int8/int16/uint8/uint16: live extended in .b32 */
const char *ptx_sk_mem(int sk);  /* type of ld/st/param: "s8" "u16" "f32" "b16" (f16) ... */
const char *ptx_space(Emit *e, int sp);  /* ".global" ".shared" "" (generic) ... */
/* Re-extends register d (a .b32 holding a kind-sk value) from sk's width. */
void ptx_narrow(Emit *e, const char *d, int sk);

/* ops.c */
void ptx_ins(Emit *e, const Ins *i);
/* The address operand "[reg]" or "[reg+imm]" of a load or store. */
const char *ptx_addr(Emit *e, Ref r);
/* Is r = q + imm (q a value, imm a 32-bit constant)?  Sets q and imm. */
int ptx_base_disp(Emit *e, Ref r, Ref *q, int64_t *imm);
/* Converts operand a of kind from to kind to into register d. */
void ptx_convert(Emit *e, const char *d, int to, Ref a, int from);

/* idiv.c: 64-bit div/rem (rem != 0) of register a into d, signed or not,
 * without the call ptxas would make: by a constant v (not 0, nor -1 when
 * signed), or by a register b (not 0, nor -1 when signed) */
void ptx_idiv64_con(Emit *e, const char *d, const char *a, int64_t v, int sgn, int rem);
void ptx_idiv64(Emit *e, const char *d, const char *a, const char *b, int sgn, int rem);

/* atom.c */
void ptx_atom(Emit *e, const Ins *i);

/* emit.c: the body of e->f ("{ declarations, code }") into out */
void ptx_fn_text(Emit *e, PtxBuf *out);
void ptx_decl_array(Emit *e, PtxBuf *b, int idx, const char *indent);

/* call.c: device functions (.func, call), print (vprintf) and the error
 * word of debug traps */
void ptx_funcs(Emit *e, PtxBuf *out);          /* the definitions of Fn.funcs */
void ptx_visible_prototype(Emit *e, PtxBuf *out); /* the module's own .visible .func (Fn.visible_abi) */
void ptx_module_decls(Emit *e, PtxBuf *out);   /* what the module declares for them */
void ptx_call(Emit *e, const Ins *i);          /* farg carg callf cres retv print trap */
/* call.c: stores the code of check idx into __pj_err (the first thread
 * with its threadIdx, blockIdx and, when index is not NULL, the index and
 * extent of a bounds check), then ends the thread; all under predicate p
 * when p is not NULL. */
void ptx_trap_word(Emit *e, const char *p, int idx, const char *index, const char *extent);

/* warp.c: popc clz brev shfl vote match barred syncwarp activemask nanosleep */
void ptx_warp(Emit *e, const Ins *i);
/* warp.c: bar.grid, the barrier of a cooperative launch's whole grid */
void ptx_grid_sync(Emit *e);

/* dwarf.c: the .debug_abbrev and .debug_info sections of a debug=True module */
void ptx_debug_sections(Emit *e, PtxBuf *out);
int ptx_file_index(Emit *e, const char *file);    /* emit.c: a source file's .file number */

/* approx.c: O_APPROX, the fastmath hardware approximations */
void ptx_approx(Emit *e, const Ins *i);

#endif

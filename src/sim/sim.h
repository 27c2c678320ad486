/*
 * sim.h - the simulator's private header: the compact program that
 * sim_prepare (prepare.c) makes from the IR, the per-launch state that
 * pj_sim_launch (launch.c) builds, and the interpreter's entry point
 * (interp.c).
 *
 * The compact program is one flat array of fixed-size instructions whose
 * operands are slot numbers in a per-thread register file.  Every SSA
 * value, every constant and every special register has a slot, so an
 * operand is always "regs[slot]" with no test of its kind.  Phis have
 * become plain moves on the edges that reach them, jumps name instruction
 * indices, and the opcode says the value class and signedness, so the
 * interpreter never looks at a type at run time.
 *
 * Values that are the same for every thread of a launch (kernel
 * parameters, addresses of shared, local and constant arrays, blockDim,
 * gridDim) are written into each frame's slots once per launch, blockIdx
 * once per block and threadIdx once per thread: the instructions that
 * read them in the IR do not appear in the compact program at all.
 *
 * Register contents by class: KW values are kept zero-extended in the
 * 64-bit slot (read as .w), KL as .u/.i, KS as .s (upper half undefined),
 * KD as .d, KB as 0 or 1 in .u.
 */
#ifndef PTXJIT_SIM_H
#define PTXJIT_SIM_H

#include "../core.h"

typedef union Reg {
	uint64_t u;
	int64_t i;
	uint32_t w;
	int32_t sw;
	float s;
	double d;
} Reg;

/* The compact opcodes.  Suffixes: W 32-bit int, L 64-bit int, S float32,
 * D float64, B bool; a trailing S/U on an integer op is its signedness.
 * Comparisons exist only as EQ NE LT LE (and LTU LEU for floats,
 * "unordered or less"); prepare swaps the operands for GT GE. */
#define SIM_OPS(X) \
	X(NOP) X(MOV) X(RET) X(JMP) X(JNZ) X(JMPB) X(JNZB) X(BAR) X(CHECK) X(TRAP) \
	X(ADDW) X(ADDL) X(ADDS) X(ADDD) X(SUBW) X(SUBL) X(SUBS) X(SUBD) \
	X(MULW) X(MULL) X(MULS) X(MULD) \
	X(DIVWS) X(DIVWU) X(DIVLS) X(DIVLU) X(DIVS) X(DIVD) \
	X(REMWS) X(REMWU) X(REMLS) X(REMLU) \
	X(NEGW) X(NEGL) X(NEGS) X(NEGD) X(NOTW) X(NOTL) X(NOTB) \
	X(ANDW) X(ANDL) X(ORW) X(ORL) X(XORW) X(XORL) \
	X(SHLW) X(SHLL) X(SHRWS) X(SHRWU) X(SHRLS) X(SHRLU) \
	X(MINWS) X(MINWU) X(MINLS) X(MINLU) X(MINS) X(MIND) \
	X(MAXWS) X(MAXWU) X(MAXLS) X(MAXLU) X(MAXS) X(MAXD) \
	X(ABSW) X(ABSL) X(ABSS) X(ABSD) \
	X(FMAW) X(FMAL) X(FMAS) X(FMASM) X(FMAH) X(FMAD) \
	X(SQRTS) X(SQRTD) X(FLOORS) X(FLOORD) X(CEILS) X(CEILD) \
	X(TRUNCS) X(TRUNCD) X(RINTS) X(RINTD) \
	X(EQW) X(NEW) X(LTWS) X(LEWS) X(LTWU) X(LEWU) \
	X(EQL) X(NEL) X(LTLS) X(LELS) X(LTLU) X(LELU) \
	X(EQS) X(NES) X(LTS) X(LES) X(LTUS) X(LEUS) \
	X(EQD) X(NED) X(LTD) X(LED) X(LTUD) X(LEUD) \
	X(SEL) X(SEXT) X(ZEXT) X(TRUNCW) X(SATW) X(CVT) \
	X(LDI8) X(LDU8) X(LDI16) X(LDU16) X(LD32) X(LD64) X(LDF16) X(LDB) \
	X(ST8) X(ST16) X(ST32) X(ST64) X(STF16) \
	X(ATOM) X(SHOOK) \
	X(POPCW) X(POPCL) X(CLZW) X(CLZL) X(BREVW) X(BREVL) X(WARP) \
	X(CALL) X(RETV) X(RETF) X(PRINT) \
	X(APPROX) X(ALLOC)

typedef enum {
#define X(name) S_##name,
	SIM_OPS(X)
#undef X
	NSOPS
} SimOp;

/* One instruction: d is the slot defined, a b c the operand slots.
 *   JMP      a = target pc
 *   JNZ      a = condition slot, b = target if true, c = target if false
 *   JMPB     JNZB: the same with a target at or before the jump itself (a
 *            loop's way back); they count against the thread's budget
 *   CHECK    a = index, b = extent, aux = index in SimProgram.checks
 *   TRAP     aux = index in SimProgram.checks
 *   CVT      aux = from kind | to kind << 8
 *   ATOM     aux = AtomOp | kind << 8; a address, b operand, c compare
 *   BAR      d, a, aux: for bar.red, aux = 1 + operation (popc, and, or),
 *            a the predicate slot, d the result slot; plain bar.sync: aux 0
 *   WARP     aux = WK_* | mode << 4 | c << 8 (shfl's clamp operand); a is
 *            the value (or predicate), b shfl's lane, c the member mask
 *   CALL     aux = index in SimProgram.calls (call.c)
 *   RETV     a = slot of result component aux of the running function
 *   RETF     return from function aux (SimProgram.funcs)
 *   PRINT    a = slot of the argument buffer's address, aux = format
 *   ALLOC    d = address of a new block of a's value bytes, from the
 *            caller's allocator (CPU functions only, cpu.c); aux 1: zeroed
 *   SHOOK    a = address slot, b = bytes, aux = HOOK_*, c = 1 when the
 *            space is shared (not generic): before a load, store or atomic
 *            in shared or generic space, the checks that are on, and
 *            always that a shared access lies inside the block's shared
 *            memory (the dynamic array's extent is not known to the IR)
 */
typedef struct SIns {
	uint16_t op;
	uint16_t g;       /* loads, stores, atomics: entry in the guard's cache (guard.c) */
	int32_t d, a, b, c;
	int32_t aux;
} SIns;

enum { HOOK_READ, HOOK_WRITE, HOOK_ATOM };
/* WARP kinds; match's mode has bit 2 set for 64-bit values. */
enum { WK_SHFL, WK_VOTE, WK_MATCH, WK_SYNC, WK_ACTIVE };

/* A value written into every frame before the first block runs. */
typedef struct SimInit {
	int32_t slot;
	int kind;         /* LI_PARAM, LI_SHARED, LI_LOCAL */
	int32_t off;      /* parameter byte offset, or byte offset of the array */
	uint8_t ty;       /* LI_PARAM: the scalar kind loaded */
} SimInit;
enum { LI_PARAM, LI_SHARED, LI_LOCAL };

typedef struct SimLoc {
	const char *file;
	int line, col;
} SimLoc;

typedef struct SimCheck {
	const char *array;
	int axis, ndim;
	int ptr_size;     /* a pointer's check: the element size (CheckInfo.ptr_size) */
	int32_t ext[8];   /* slots of the extents, -1 when not computed */
	int32_t loc;
	const char *msg;
} SimCheck;

/* An argument that points to memory: an array's data or a record.  The
 * byte offsets of its parameters in the buffer (-1 where absent) and what
 * the argument types say of it; esize 0 when they say nothing (a program
 * made from IR text), and then the guard (guard.c) allows 8 bytes per
 * element, or everything above the pointer when there are no extents. */
typedef struct SimArg {
	const char *name;    /* the Python parameter, for messages */
	int32_t data;
	int ndim;            /* extents given */
	int32_t shape[8], stride[8];
	uint8_t shape_ty[8], stride_ty[8];
	int64_t esize;       /* bytes of an element, or of the record */
	int strided;         /* layout A: the strides give the span */
} SimArg;

typedef struct SimArray {
	int space;
	int64_t size, off;   /* bytes; off: in the block's shared memory or the thread's local memory */
	int dynamic;
	const char *name;
	void *data;          /* SP_CONST: the program's copy of the bytes */
} SimArray;

/* A device function called for real (recursion, call.c).  Its code
 * starts at entry; slots [lo, hi) and bytes [loff, loff + lsize) of the
 * thread's local memory are its own: a call saves them and the return
 * restores them, so each activation has fresh ones. */
typedef struct SimFunc {
	int32_t entry;
	int32_t lo, hi;
	int64_t loff, lsize;
	int nargs;
	int32_t *args;       /* slot of each argument component, -1 if unused */
} SimFunc;

/* A call site: the callee, the slots of the argument values, and the
 * slots the results go to. */
typedef struct SimCall {
	int func;
	int nargs, nrets;
	int32_t *args, *rets;
} SimCall;

/* What sim_merge (call.c) records of each function it appends to the
 * kernel's Fn: its first block, values and static arrays there. */
typedef struct SimMerge {
	int nfuncs;
	int *blk0, *nblk, *val0, *nval, *arr0, *narr, *nargs, *nrets;
} SimMerge;

struct SimProgram {
	const char *name;    /* the kernel's Python name, for messages */
	SIns *code;
	int32_t *code_loc;   /* per instruction: index in locs, or -1 */
	int ncode;
	int nslots;
	Reg *init;           /* register file template: constants */
	int32_t sreg_slot;   /* slot of special register 0; NSR in a row */
	SimInit *inits;
	int ninits;
	SimLoc *locs;
	int nlocs;
	SimCheck *checks;
	int nchecks;
	SimArray *arrays;
	int narrays;
	int64_t smem_static; /* bytes of static shared arrays, dynamic array after them */
	int64_t local_size;  /* bytes of local arrays per thread */
	int has_bar;         /* some thread may wait at a barrier */
	int has_gbar;        /* ... at the grid's barrier: all blocks run at once (launch.c) */
	int has_warp;        /* warp operations or reducing barriers: warp.c's hooks run */
	int has_shared;      /* shared arrays exist: loads and stores have hooks */
	int param_bytes;
	char **strs;         /* interned strings, owned */
	int nstrs;
	SimFunc *funcs;      /* device functions called for real (call.c) */
	int nfuncs;
	SimCall *calls;
	int ncalls;
	int maxrets;         /* most result components of a function */
	const char **fmts;   /* print formats (interned) */
	int nfmts;
	DevMem *devmem;      /* global device arrays the kernel uses by address (guard.c), owned;
	                        names interned */
	int ndevmem;
	SimArg *args;        /* arguments that point to memory (guard.c) */
	int nargs;
	int32_t ret_param;   /* CPU functions: offset of the out buffer's address, else -1 */
	int nguards;         /* entries of the guard's cache (SIns.g) */
};

enum { RUN_RET, RUN_BAR, RUN_ERR, RUN_WARP, RUN_GBAR };
/* BAR's aux for the grid's barrier (bar.grid): a block whose threads all
 * wait there stops (RUN_GBAR) until every block of the grid does. */
enum { SIM_BAR_GRID = 4 };

/* One thread: its register file and where it stopped. */
typedef struct Frame {
	Reg *r;
	uint8_t *local;
	int32_t pc;
	int state;          /* RUN_RET, RUN_BAR, RUN_WARP, or -1 while runnable */
	uint32_t t;         /* linear thread index in the block */
	uint32_t tid[3];
	struct SimStack *stack;   /* calls of device functions (call.c), made on first use */
} Frame;

/* Shadow state of one byte of shared memory for the checks. */
typedef struct Shadow {
	uint32_t written;   /* block generation of the last write (PJ_SIM_UNINIT) */
	uint32_t w_epoch, r_epoch;  /* barrier epoch of the last write / read */
	uint16_t w_tid, r_tid;      /* who; r_tid 0xFFFF: several readers */
	int32_t w_pc, r_pc;
} Shadow;

struct PjCpuCtx;

/* Bytes [lo, lo + len) that a kernel may touch. */
typedef struct SimRegion {
	uint64_t lo, len;
} SimRegion;

/* An entry of the guard's cache: an access of its instruction may start
 * at lo + 0 ... lo + n - 1 (n is the region's length less the access's
 * size plus one; 0 in an empty entry, which every address misses). */
typedef struct SimHit {
	uint64_t lo, n;
} SimHit;

/* The memory guard of a launch (guard.c).  Every load, store and atomic
 * first compares its address with cache[SIns.g], from the region the
 * last access there fell in; a miss looks the address up
 * (sim_guard_miss) and stops the launch with an internal error when it
 * lies outside every region.  Entry SIM_GUARD_SHARED, which the accesses
 * past the first 65535 share, is never filled (their sizes differ). */
#define SIM_GUARD_SHARED 65535
typedef struct Guard {
	SimHit *cache;
	SimRegion *reg;          /* sorted by lo, overlapping ones merged */
	int nreg;
	struct GuardNamed *named;   /* the regions one by one, for messages */
	int nnamed;
	int cache_local;         /* one frame: a local hit may be cached */
	struct GuardAllocs *allocs; /* CPU functions: ALLOC's blocks */
	void *heap;              /* what sim_guard_init allocated */
} Guard;

typedef struct Launch {
	const SimProgram *p;
	const uint8_t *params;
	unsigned grid[3], block[3];
	unsigned ctaid[3];
	uint32_t nthreads;
	int check;
	uint8_t *smem;
	int64_t smem_size;
	Shadow *shadow;
	uint32_t gen, epoch;
	PjError *err;
	int code;           /* the PJ_SIM_* of a failure */
	uint64_t loop_budget;
	struct PjCpuCtx *cpu;   /* a CPU function's call (cpu.c), NULL for a kernel launch */
	Guard guard;
} Launch;

/* interp.c: runs fr until it returns, reaches a barrier or fails. */
int sim_exec(Launch *L, Frame *fr);

/* launch.c: failure reports and the shared-memory checks; each returns
 * RUN_ERR after filling L->err (the hook returns 0 when all is well). */
int sim_fail_check(Launch *L, Frame *fr, const SIns *ip, int64_t index);
int sim_fail_trap(Launch *L, Frame *fr, const SIns *ip);
int sim_shared_hook(Launch *L, Frame *fr, const SIns *ip, uint64_t addr);
int sim_fail_internal(Launch *L, Frame *fr, const SIns *ip);
int sim_fail_endless(Launch *L, Frame *fr, const SIns *ip);

/* warp.c: the meeting points of several threads.  A thread stops at a
 * WARP instruction (RUN_WARP, pc on it) until sim_warp_meet lets the lanes
 * of its warp meet; a BAR whose aux is nonzero (bar.red) gets its result
 * from sim_bar_release when the block's barrier opens.  Both return -1
 * after filling L->err; sim_warp_meet returns the number of threads it
 * released, 0 when none waits at a warp operation. */
int sim_warp_meet(Launch *L, Frame *fr, uint32_t n);
int sim_bar_release(Launch *L, Frame *fr, uint32_t n);

/* call.c: device functions and print.  sim_merge appends the functions
 * a kernel calls (Fn.funcs) to a copy of its Fn, so that the program is
 * one code and one register file; the sim_prep_* fill the program's
 * tables.  At run time sim_call returns the callee's pc (-1 after filling
 * L->err: the stack is too deep), sim_return the caller's. */
Fn *sim_merge(Ctx *c, Fn *k, SimMerge *m);
int sim_prep_call(Ctx *c, SimProgram *p, int func, int nargs, const int32_t *args, int nrets,
                  const int32_t *rets);
void sim_prep_funcs(Ctx *c, SimProgram *p, Fn *f, const SimMerge *m, const int32_t *blkstart);
int32_t sim_call(Launch *L, Frame *fr, const SIns *ip);
void sim_retv(Frame *fr, const SIns *ip);
int32_t sim_return(Launch *L, Frame *fr, const SIns *ip);
int sim_print(Launch *L, Frame *fr, const SIns *ip);   /* RUN_ERR: its buffer is outside memory */
void sim_free_stack(Frame *fr);
void sim_reset_stack(Frame *fr);

/* cpu.c: a CPU function (@njit without a C compiler) run as one thread.
 * ALLOC asks cpu->alloc (MemoryError at the line when it gives nothing). */
int sim_alloc(Launch *L, Frame *fr, const SIns *ip);
/* launch.c: a frame's register file from the program's template and the
 * launch's parameters (cpu.c runs one frame of its own). */
void sim_init_frame(Launch *L, Frame *fr, Reg *regs, uint8_t *local);

/* guard.c: the memory guard.  sim_prepare_args fills the program's
 * SimArg table from the kernel's parameters and argument types; its
 * names point into the compile's memory until prepare.c interns them (it
 * returns -1 when out of memory).  sim_guard_init builds a launch's
 * regions (L->guard is zero before) from the parameter buffer, with
 * ret_bytes the CPU function's out buffer, in scratch when it is large
 * enough; it returns -1 when out of memory.  sim_guard_miss checks an
 * access that missed the cache (returns 0, or RUN_ERR after filling
 * L->err); sim_guard_range checks one without the cache (print);
 * sim_guard_alloc adds a CPU function's new block (-1: out of memory).
 * `what` is HOOK_READ, HOOK_WRITE, HOOK_ATOM or GUARD_PRINT. */
int sim_prepare_args(Ctx *c, SimProgram *p, Fn *f);
int sim_guard_init(Launch *L, int nframes, int64_t ret_bytes, void *scratch, size_t nscratch);
void sim_guard_free(Launch *L);
int sim_guard_miss(Launch *L, Frame *fr, const SIns *ip, uint64_t addr, uint64_t size, int what);
int sim_guard_range(Launch *L, Frame *fr, const SIns *ip, uint64_t addr, uint64_t size, int what);
int sim_guard_alloc(Launch *L, uint64_t addr, uint64_t size);
enum { GUARD_PRINT = HOOK_ATOM + 1 };

/* Jumps back a thread may take between two barriers (a CPU function: in
 * one call) before the run stops it as an endless loop (about a minute
 * of interpretation); the environment variable PTXJIT_SIM_LOOP_LIMIT
 * sets another number.  sim_loop_budget (launch.c) says which. */
#define SIM_LOOP_BUDGET ((uint64_t)1 << 34)
uint64_t sim_loop_budget(void);

/* Stopping from outside (pj_sim_stop): the interpreter looks at the flag
 * every SIM_POLL_MASK + 1 jumps back and calls, the launch before each
 * block; sim_fail_stopped (launch.c) reports it as PJ_SIM_STOPPED. */
#define SIM_POLL_MASK (((uint64_t)1 << 12) - 1)
int sim_stop_requested(void);
int sim_fail_stopped(Launch *L, Frame *fr, const SIns *ip);

#endif

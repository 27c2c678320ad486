/*
 * lower.h - the private interface of the lowering (typed AST -> SSA IR),
 * shared by lower.c (entry, kernel parameters, SSA construction),
 * lower_val.c (values, conversions, constants), lower_expr.c
 * (expressions), lower_intrin.c (builtins, math, cuda.*), lower_array.c
 * (indexing, shared/local arrays, atomics), lower_record.c (record
 * fields, constant arrays) and lower_stmt.c (statements, loops, inlining
 * of device functions).
 *
 * A Value is what an expression lowers to: the IR operands of a scalar
 * (two for a complex), of an array (data pointer, extents, byte strides
 * for layout A), or of a tuple (its elements), together with its type.
 * Compile-time objects (modules, dtypes, functions, None, strings) are a
 * Value with a type and no operands.
 *
 * SSA construction follows Braun et al., "Simple and Efficient
 * Construction of SSA Form" (CC 2013).  Every variable of the source is
 * split into "slots", one per scalar operand of its type (lower_ncomp):
 * an array variable is its data pointer, extents and strides, a tuple one
 * slot per element.  Temporaries that must meet at a join (the value of
 * `a and b`, of `x if c else y`, a device function's return value, a loop
 * counter) are slots too, so one mechanism makes every phi.  Phis live in
 * a side table (LPhi) while the function is built; trivial ones are
 * replaced (Lower.repl) and the rest are written into the blocks at the
 * end (finish in lower.c).
 *
 * Edges are added with lower_jump/lower_branch only, which keep Blk.pred
 * in the order phi arguments follow.  A block is sealed when all of its
 * predecessors are known; adding an edge to a sealed block is a bug.
 */
#ifndef PTXJIT_LOWER_H
#define PTXJIT_LOWER_H

#include "../core.h"

typedef struct Value Value;
struct Value {
	Type *ty;
	Ref r, im;            /* scalar; complex: real and imaginary parts */
	Ref data;             /* array: address of element 0; record: its address */
	Ref *shape;           /* array: ndim extents (KL) */
	Ref *stride;          /* array of layout A: ndim byte strides (KL); NULL otherwise */
	int n;                /* tuple */
	Value *elts;
	/* pointer (TY_POINTER): data is the address; base and room bound it in
	 * the simulator's program (lower_pointer.c), constant 0 elsewhere */
	Ref base, room;
};

typedef struct Loop Loop;
struct Loop {
	Loop *up;
	Blk *cont;            /* target of `continue` */
	Blk *brk;             /* target of `break`, made on first use */
};

/* One function being lowered: the kernel, or an inlined device function. */
typedef struct Frame Frame;
struct Frame {
	Frame *up;
	Spec *spec;
	int *slot;            /* per Var.index: its first slot, -1 until used */
	int nvars;
	Loop *loop;
	Blk *ret;             /* kernel: the exit block; device: the continuation (made on first use) */
	int retslot;          /* device: first slot of the return value */
	Type *retty;
};

typedef struct LPhi {
	int val;              /* the value it defines */
	int blk;
	int slot;
	int n;                /* arguments, in Blk.pred order (0 while incomplete) */
	Ref *arg;
	int dead;             /* replaced by Lower.repl[val] */
	Cls cls;
} LPhi;

typedef struct LSlot {
	Cls cls;
	const char *name;     /* the variable's name, for dumps */
} LSlot;

typedef struct LBlk {
	int sealed;
	Ref *def;             /* per slot: its current definition, or REF_NONE */
	int ndef;
	int *inc;             /* incomplete phis (LPhi indices) until sealed */
	int ninc, capinc;
} LBlk;

typedef struct Lower {
	Ctx *c;
	Fn *f;
	Blk *cur;             /* block being filled; NULL after a jump (dead code follows) */
	Frame *fr;
	int depth;            /* inlining depth */
	int debug;            /* asserts and raise become traps */
	int cpu;              /* the CPU target (lower_cpu.c): no fma contraction */
	int zerodiv;          /* Python's error model: /, //, % and divmod by zero raise
	                       * ZeroDivisionError (the CPU target, debug kernels) */
	void *callmod;        /* lower_call.c: the module's functions called for real */
	int printbuf;         /* lower_print.c: Fn.arrays index of the print buffer + 1, 0 if none */
	/* slots */
	LSlot *slot;
	int nslot, capslot;
	/* per block, indexed by Blk.id */
	LBlk *lb;
	int nlb;
	/* phis under construction */
	LPhi *phi;
	int nphi, capphi;
	Ref *repl;            /* per value: what replaced it (trivial phis), or REF_NONE */
	int nvalmap;
} Lower;

/* lower.c: blocks, edges and SSA slots */
Blk *lower_new_blk(Lower *L);
void lower_enter(Lower *L, Blk *b);
void lower_seal(Lower *L, Blk *b);
void lower_jump(Lower *L, Blk *to);
void lower_branch(Lower *L, Ref cond, Blk *t, Blk *f);
Blk *lower_dead_blk(Lower *L);          /* a sealed block without predecessors, entered */
int lower_ncomp(const Type *t);
int lower_new_slots(Lower *L, Type *t, const char *name);
void lower_write(Lower *L, int slot, Type *t, Value v);
Value lower_read(Lower *L, int slot, Type *t);
int lower_var_slot(Lower *L, Var *v);
void lower_write_var(Lower *L, Var *v, Value val);
Value lower_read_var(Lower *L, Var *v);
Ref lower_resolve(Lower *L, Ref r);
Value lower_param_value(Lower *L, Type *t, int arg);   /* a kernel argument's parameters */
int lower_param_leaves(const Type *t);   /* arguments it takes: tuples are flattened, None takes none */

/* lower_val.c: values, constants, conversions, emission */
Ref lower_emit(Lower *L, Opcode op, Cls k, ScalarKind ty, Ref a0, Ref a1, Ref a2, int32_t aux);

/* 64-bit integer constants and arithmetic, the index and address math of
 * every lowering file */
static inline Ref con64(Lower *L, int64_t v)
{
	return ir_con_int(L->f, KL, v);
}

static inline Ref add64(Lower *L, Ref a, Ref b)
{
	return lower_emit(L, O_ADD, KL, SK_I64, a, b, REF_NONE, 0);
}

static inline Ref sub64(Lower *L, Ref a, Ref b)
{
	return lower_emit(L, O_SUB, KL, SK_I64, a, b, REF_NONE, 0);
}

static inline Ref mul64(Lower *L, Ref a, Ref b)
{
	return lower_emit(L, O_MUL, KL, SK_I64, a, b, REF_NONE, 0);
}
Value lower_scalar(Type *t, Ref r);
Value lower_none(Type *t);
Cls lower_cls(ScalarKind sk);           /* the class of a scalar kind (complex: of a part) */
ScalarKind lower_part_sk(ScalarKind sk);/* complex64 -> float32, complex128 -> float64, else sk */
Ref lower_con_int(Lower *L, ScalarKind sk, int64_t v);
Ref lower_con_float(Lower *L, ScalarKind sk, double d);
Ref lower_zero(Lower *L, Cls k);
Value lower_const(Lower *L, const Const *cv, Type *t, Span sp);
Ref lower_cvt(Lower *L, Ref r, ScalarKind from, ScalarKind to);
Value lower_convert(Lower *L, Value v, Type *to, Span sp);
Ref lower_byte_stride(Lower *L, Value arr, int axis);   /* of layout C, F or A */
Ref lower_truth(Lower *L, Value v, Span sp);
Ref lower_cmp(Lower *L, CondCode cc, ScalarKind sk, Ref a, Ref b);
Ref lower_sel(Lower *L, Cls k, Ref c, Ref a, Ref b);
Ref lower_not(Lower *L, Ref b);
Ref lower_norm(Lower *L, Ref r, ScalarKind sk); /* re-extend an int8/int16 result computed in 32 bits */
int lower_is_signed(ScalarKind sk);
int lower_is_intsk(ScalarKind sk);
int lower_is_floatsk(ScalarKind sk);
const char *lower_span_text(Lower *L, Span sp);
int lower_const_int(const Expr *e, int64_t *out);   /* e is an integer (or bool) constant */
_Noreturn void lower_unsupported(Lower *L, Span sp, const char *what);

/* lower_expr.c */
Value lower_expr(Lower *L, Expr *e);
void lower_cond(Lower *L, Expr *e, Blk *t, Blk *f);
Type *lower_arith_type(AstOp op, Type *a, Type *b);
/* a op b in type ty (the operands are converted to ty first); /, // and %
 * by zero raise as Python's under Lower.zerodiv */
Value lower_binop(Lower *L, AstOp op, Value a, Value b, Type *ty, Span sp);
/* Under Lower.zerodiv: ZeroDivisionError "[integer ]<what> by zero" where
 * divisor b of kind sk is zero (nothing for a non-zero constant). */
void lower_zerodiv(Lower *L, ScalarKind sk, Ref b, const char *what);
/* z + x*y (sub: z - x*y) as one fma when `mul` is a contractible
 * multiply of type ty; returns 0 (and emits nothing) otherwise. */
int lower_try_fma_aug(Lower *L, AstOp op, Value z, Expr *mul, Type *ty, Value *out);
Value lower_aug_value(Lower *L, AstOp op, Value cur, Type *target, Expr *value, Span sp);
Value lower_pow(Lower *L, Value a, Expr *be, Value b, Type *ty, Span sp);
Ref lower_compare(Lower *L, AstOp op, Value a, Value b, Span sp);

/* lower_intrin.c */
Value lower_call_intrin(Lower *L, Expr *e);
Value lower_attr(Lower *L, Expr *e);
Value lower_sreg(Lower *L, SReg r);

/* lower_warp.c: the cuda intrinsics IN_SYNCTHREADS_COUNT .. IN_NANOSLEEP */
Value lower_warp_intrin(Lower *L, Expr *e, int in);

/* lower_fp16.c: cuda.fp16, IN_FP16_HADD .. IN_FP16_HMIN */
Value lower_fp16_intrin(Lower *L, Expr *e, int in);
Value lower_bf16_intrin(Lower *L, Expr *e, int in);     /* lower_bf16.c */
/* lower_fp8.c: a conversion from or to an fp8 kind (lower_cvt's), and the
 * cvt_* functions of numba.cuda._internal.cuda_fp8 */
Ref lower_fp8_cvt(Lower *L, Ref r, ScalarKind from, ScalarKind to);
Value lower_fp8_intrin(Lower *L, Expr *e, int in);

/* lower_math.c: the math library's intrinsics IN_MATH_ACOS .. IN_NP_LCM */
Value lower_math_intrin(Lower *L, Expr *e, int in);
/* a ufunc on scalars av (any kinds) in loop lp, its value of type res */
Value lower_ufunc_scalar(Lower *L, Expr *e, int in, Value *av, const UfuncLoop *lp, Type *res);

/* lower_elementwise.c: loops over every element of an array */
typedef void (*NdBody)(Lower *L, Ref *idx, void *ctx);
void lower_nd_loop(Lower *L, int nd, Ref *shape, NdBody body, void *ctx);   /* C order */
Ref lower_elem_addr(Lower *L, Value arr, const Ref *idx, int nd);   /* broadcast to nd indices */
void lower_check_broadcast(Lower *L, Value arr, const Ref *shape, int nd, const char *msg);
Value lower_ufunc_out(Lower *L, Expr *e, int in, Value *av);   /* np.f(x, out) */

/* lower_arrayview.c: a.T, a.real, a.imag (of the array a), a.view(),
 * a.reshape(), a.transpose() */
Value lower_array_view_attr(Lower *L, Expr *e, Value a);
Value lower_array_method(Lower *L, Expr *e, int in);
Value lower_reduce(Lower *L, Expr *e, int in);   /* lower_reduce.c: np.sum(a), a.sum(), ... */
/* lower_libdevice.c */
Value lower_libdevice(Lower *L, Expr *e, int in);
Ref lower_math_pow(Lower *L, ScalarKind sk, Ref x, Ref y);   /* x ** y of floats */

/* lower_array.c */
Value lower_subscript(Lower *L, Expr *e);
void lower_store_subscript(Lower *L, Expr *target, Value v);
void lower_aug_subscript(Lower *L, Expr *target, AstOp op, Expr *value);
Value lower_static_array(Lower *L, Expr *e, int space);
Value lower_atomic(Lower *L, Expr *e, int intrin);
Value lower_cache_hint(Lower *L, Expr *e, int intrin);   /* cuda.ldca .. cuda.stwt */
Value lower_array_item(Lower *L, Value arr, Ref k, const char *name, Span sp);   /* arr[k] of a 1-D array, checked */
Ref lower_array_size(Lower *L, Value arr);
/* an element of type elem at addr: a scalar loaded, or a record referenced; stores convert */
Value lower_load(Lower *L, Type *elem, Ref addr, int space, Span sp);
void lower_store(Lower *L, Type *elem, Ref addr, int space, Value v, Span sp);

/* lower_pointer.c: p[i], carray/farray, ffi.from_buffer; a pointer of
 * type t at addr bounded by [base, base + bytes) in the simulator */
int lower_has_pointer(const Type *t);   /* t is or holds a pointer */
Value lower_pointer_value(Lower *L, Type *t, Ref addr, Ref base, Ref bytes);
Value lower_pointer_load(Lower *L, Expr *e);
/* The address of p[index] (not wrapped, checked in the simulator), the
 * pointer's value in *p; at locates the access. */
Ref lower_pointer_element(Lower *L, Expr *p, Expr *index, Span at, Value *pv);
void lower_pointer_store(Lower *L, Expr *target, Value v);
void lower_pointer_aug(Lower *L, Expr *target, AstOp op, Expr *value);
Value lower_pointer_call(Lower *L, Expr *e, int in);

/* lower_record.c: record fields, whole-record copies, constant arrays */
Value lower_record_attr(Lower *L, Expr *e);          /* r.x */
Value lower_record_load(Lower *L, Expr *e);          /* r['x'] */
void lower_record_store(Lower *L, Expr *target, Value v);   /* r.x = v, r['x'] = v */
void lower_record_aug(Lower *L, Expr *target, AstOp op, Expr *value);
void lower_record_copy(Lower *L, Type *dst, Ref addr, Value src, Span sp);
Value lower_const_array(Lower *L, const Const *cv, Span sp);
Value lower_device_array(Lower *L, const Const *cv, Type *t);   /* a PJ_V_DEVARRAY: its address */

/* lower_cpu.c: array creation (np.empty, ...) */
Value lower_cpu_intrin(Lower *L, Expr *e, int in);
/* lower.c */
void lower_finish(Lower *L);     /* phis into blocks, operands rewritten, preds and RPO */

/* lower_stmt.c */
void lower_block(Lower *L, StmtList *b);
/* The thread (function) stops here with msg ("ValueError: text"; NULL:
 * silently), an O_TRAP with its CheckInfo; lower_guard: continues where
 * `ok` holds, elsewhere stops with msg. */
void lower_trap(Lower *L, const char *msg);
void lower_guard(Lower *L, Ref ok, const char *msg);
void lower_assign(Lower *L, Expr *target, Value v, Span sp);
Value lower_inline_call(Lower *L, Expr *e);

/* lower_pymath.c: Python's float and complex arithmetic, exactly */
Ref lower_fmod(Lower *L, ScalarKind sk, Ref a, Ref b);            /* C's fmod, exact */
void lower_float_divmod(Lower *L, ScalarKind sk, Ref a, Ref b, Ref *q, Ref *r);  /* // and % (either may be NULL) */
Value lower_round_ndigits(Lower *L, Value x, Value n, Expr *ne, Type *ty, Span sp);
Ref lower_hypot(Lower *L, ScalarKind sk, Ref a, Ref b);
Value lower_complex_div(Lower *L, Value a, Value b, Type *ty);   /* operands of type ty */
Value lower_complex_powi(Lower *L, Value a, int64_t n, Type *ty);
/* lower_cpow.c: z ** w of complex values of type ty known at run time (Python's rules) */
Value lower_complex_pow(Lower *L, Value z, Value w, Type *ty);

/* lower_call.c: device functions called for real (recursion) */
int lower_flatten(Lower *L, Value v, Ref *out);   /* in lower.c; out has lower_ncomp(v.ty) room */
Value lower_unflatten(Lower *L, Type *t, Ref *in);
Value lower_call_func(Lower *L, Expr *e);
Value lower_call_extern(Lower *L, Expr *e);   /* a cuda.declare_device function */
void lower_call_pending(Lower *L);   /* lowers the functions the module calls, after its kernel */

/* lower_print.c */
Value lower_print(Lower *L, Expr *e);

#endif

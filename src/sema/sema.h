/*
 * sema.h - what the files of semantic analysis share among themselves
 * (sema.c, sema_stmt.c, sema_expr.c, sema_call.c, resolve.c).  The rest of
 * the compiler sees only the sema section of core.h.
 *
 * A Scope is one specialisation being typed.  Typing walks the body
 * again and again until no variable's type changes; during those passes
 * an expression whose operands are not known yet gets the type NULL
 * ("unknown") and no error.  The last pass (final = 1) sees every type
 * and is the one that reports errors about unknown values and records
 * which specialisations are called.
 */
#ifndef PTXJIT_SEMA_H
#define PTXJIT_SEMA_H

#include "../core.h"

typedef struct Sema Sema;
typedef struct Scope Scope;

typedef struct GlobalEnt {
	const char *name;
	Const *cv;
} GlobalEnt;

struct Scope {
	Ctx *c;
	Sema *S;
	Spec *spec;
	const PjFunc *func;
	Scope *caller;          /* the scope whose call made this one, for recursion */
	int final;              /* last pass: unknown types are errors */
	int changed;            /* a variable's type or constant changed in this pass */
	int in_default;         /* typing a parameter default: only globals are visible */
	int *nassign;           /* per variable: number of assignment sites */
	Const **vconst;         /* per variable: its value when assigned once, with a constant */
	unsigned char *vearly;  /* per variable: that value is one Numba knows before typing (sema_known_early) */
	char *seen;             /* final pass, per variable: an assignment was typed before here */
	unsigned char *defd;    /* per variable: assigned on every path to here (sema_stmt.c) */
	GlobalEnt *globals;
	int nglobals, capglobals;
	Spec **callees;         /* specialisations called (final pass) */
	int ncallees, capcallees;
	Type *ret;              /* unification of the returned values' types */
	int nreturns;           /* return statements with a value */
	Type *declared_ret;     /* from PjFunc.sig, or NULL */
	int loop_depth;
	/* recursion (sema.c): a recursive call's type is the unification of the
	 * returns typed so far (rec_ret, kept across passes); a function that
	 * used such a tentative type of a function further up (open_dep, the
	 * outermost one) is typed again once that one is final */
	Type *rec_ret;
	Scope *open_dep;
	int nest;               /* callers above this scope */
	Span call_at;           /* the call that made this specialisation (a device function's) */
};

typedef struct Template {
	const PjFunc *func;
	FuncDef *def;           /* parsed once, for the parameters of calls */
} Template;

/* A closure (sema_closure.c): the constants its captured names hold. */
typedef struct Closure {
	const PjFunc *func;
	int n;
	const char **names;
	Const **vals;
} Closure;

struct Sema {
	Ctx *c;
	Spec **all;             /* every specialisation made, transient ones included */
	Scope **scopes;         /* indexed like all */
	int nall, capall, capscopes;
	Template *tmpl;
	int ntmpl, captmpl;
	Closure *closures;
	int nclosures, capclosures;
};

/* sema.c */
Var *scope_find_var(Scope *sc, const char *name);
void scope_assign_var(Scope *sc, Var *v, Type *t, Span at);
Spec *sema_specialise(Scope *caller, const PjFunc *f, int nargs, Type **argtypes, Const **argconsts, Span at);
FuncDef *sema_template(Sema *S, const PjFunc *f);
Src *sema_src(Ctx *c, const PjFunc *f);   /* the function's text, its lines indexed */
int same_pjfunc(const PjFunc *a, const PjFunc *b);
Const *sema_default(Scope *sc, const PjFunc *f, Param *p);
Const *scope_global(Scope *sc, const char *name, Span at);
int ty_is_static(const Type *t);   /* module, intrinsic, dtype, function, exception, dim3 */

/* sema_iter.c: for loops over enumerate() and zip() become loops over
 * indices (before the variables are collected) */
void sema_rewrite_loops(Scope *sc);
/* sema_unroll.c: for loops over literal_unroll(t), one body per element
 * (after sema_rewrite_loops, before the variables are collected) */
void sema_rewrite_unroll(Scope *sc);
const char *sema_user_name(Ctx *c, const char *name);   /* "x" of a copy's "x__pj_u3_1" */

/* sema_star.c: f(*t), a tuple unpacked into a call's arguments: hoisted
 * into a variable before typing, spread into t[0], t[1], ... once t's type
 * is known (0 while it is not) */
void sema_rewrite_stars(Scope *sc);
int sema_spread_stars(Scope *sc, Expr *e);

/* sema_closure.c: a def inside a function, a device function whose
 * captured local names are constants (sema_captured: NULL if not one) */
void sema_nested_def(Scope *sc, Stmt *s);
Const *sema_captured(Scope *sc, const char *name);

/* sema_webs.c: a variable whose assignments' values never meet is one
 * Var per group of those that do (name.var set before typing) */
void sema_fill_webs(Scope *sc);

/* sema_stmt.c */
int type_body(Scope *sc, StmtList *body);   /* 1 if the list always leaves (return, break, ...) */

/* sema_expr.c */
Type *type_expr(Scope *sc, Expr *e);
Type *type_truth(Scope *sc, Expr *e);
Type *unknown_or_error(Scope *sc, Expr *e);
Const *new_const(Ctx *c, int kind, Type *ty);
Const *const_of_type(Ctx *c, const Const *v, Type *to);
int const_int_value(const Expr *e, int64_t *out);
Type *storable(Scope *sc, Type *elem, Expr *value, const char *what);
Type *storable_type(Scope *sc, Type *elem, Type *vt, Span sp, const char *what);
Type *subscript_array(Scope *sc, Expr *at, Type *arr, Expr *index, const char *elem_for);

/* sema_call.c */
Type *type_call(Scope *sc, Expr *e);
int sema_type_args(Scope *sc, Expr *e);
int sema_literal_arg(const Expr *a);
Type *sema_device_call(Scope *sc, Expr *e, const PjFunc *f);

/* sema_ext.c */
Type *sema_overload_call(Scope *sc, Expr *e, const PjFunc *f);
int sema_method_overload(Scope *sc, Expr *e, Type *ot);
int sema_attr_overload(Scope *sc, Expr *e, Type *ot);
Type *type_attr(Scope *sc, Expr *e);

/* sema_record.c */
Type *sema_record_attr(Scope *sc, Expr *e, Type *rt);
/* The field `name` of record type rt: an error at sp when there is none,
 * or when it does not lie at a multiple of its size (the GPU could not
 * load it). */
const RecField *sema_record_field(Scope *sc, Type *rt, const char *name, Span sp);
Type *sema_record_index(Scope *sc, Expr *e, Type *rt);
void sema_record_store(Scope *sc, Expr *target, Type *vt, Expr *value);
void sema_record_copy(Scope *sc, Type *rt, Expr *value);
Type *sema_const_array_type(Ctx *c, Const *cv);
int64_t sema_const_array_bytes(const Const *cv);
Type *sema_const_array_like(Scope *sc, Expr *e);

/* sema_cachehint.c: cuda.ldca .. cuda.stwt, IN_LDCA .. IN_STWT */
Type *type_cache_hint(Scope *sc, Expr *e, int in);

/* sema_warp.c: the cuda intrinsics IN_SYNCTHREADS_COUNT .. IN_NANOSLEEP */
Type *type_warp_intrin(Scope *sc, Expr *e, int in);
Type *type_bit_count(Scope *sc, Expr *e);   /* x.bit_count() of an integer: cuda.popc(x) */

/* sema_fp16.c: cuda.fp16, IN_FP16_HADD .. IN_FP16_HMIN_NAN; the check of a
 * cuda.fp16 or cuda.bf16 call's n arguments (real numbers, converted to
 * the half type named) */
Type *type_fp16_intrin(Scope *sc, Expr *e, int in);
void sema_check_half_args(Scope *sc, Expr *e, int in, int n, const char *type);
/* sema_bf16.c: cuda.bf16's functions; a user error unless the target
 * has bfloat16 (a GPU of compute capability 8.0 or newer). */
Type *type_bf16_intrin(Scope *sc, Expr *e, int in);
/* sema_fp8.c: the cvt_* functions of numba.cuda._internal.cuda_fp8, and
 * a conversion (call of intrinsic `in`: a dtype, int, float or bool)
 * from or to an fp8 type: the type it makes, or a user error */
Type *type_fp8_intrin(Scope *sc, Expr *e, int in);
Type *type_fp8_conversion(Scope *sc, Expr *e, int in);
void sema_check_bf16_target(Scope *sc, Span sp);

/* sema_math.c: the math library's intrinsics IN_MATH_ACOS .. IN_NP_LCM,
 * and every NumPy ufunc called on scalars (numpy.sqrt, abs, floor, ceil
 * and those) by the loop Numba picks (ufunc.c) */
Type *type_math_intrin(Scope *sc, Expr *e, int in);
/* sema_vector.c */
Type *type_vector_ctor(Scope *sc, Expr *e, int in);
Type *type_vector_attr(Scope *sc, Expr *e, Type *vt);
/* sema_libdevice.c */
Type *type_libdevice(Scope *sc, Expr *e, int in);
Type *type_ufunc(Scope *sc, Expr *e, int in);
/* sema_arrayview.c: a.strides, a.nbytes, a.T, a.real, a.imag and the
 * methods a.view(dtype), a.reshape(shape), a.transpose() */
Type *sema_array_attr(Scope *sc, Expr *e, Type *at, Span nsp);
/* sema_reduce.c: np.sum(a), a.sum(), ... (IN_NP_SUM .. IN_NP_MEAN) */
Type *sema_reduce(Scope *sc, Expr *e, int in);
int sema_reduce_method(const char *name);   /* "sum" -> IN_NP_SUM; 0 if none */
/* resolve.c: a member of a namespace global (an Enum class; a TY_MODULE
 * named "@NAME"): NAME.attr, or NAME[key] with key a constant string */
Const *sema_namespace_member(Ctx *c, const PjFunc *f, const char *ns, const char *attr, const char *key,
                             Span sp);
Type *sema_array_method(Scope *sc, Expr *e, int in);
/* sema_pointer.c: p[i] read and written, carray/farray and ffi.from_buffer */
Type *sema_pointer_index(Scope *sc, Expr *e, Type *pt);
void sema_pointer_store(Scope *sc, Expr *target, Type *pt, Type *vt, Expr *value);
Type *sema_pointer_call(Scope *sc, Expr *e, int in);

/* sema_cpu.c: array creation and the refusal of cuda.* in CPU functions */
Type *type_cpu_call(Scope *sc, Expr *e, int in);
void sema_cpu_refuse(Scope *sc, Expr *e, int in);

/* resolve.c */
Const *resolve_builtin(Ctx *c, const char *name);
Const *resolve_member(Ctx *c, const char *module, const char *attr);
const char *unusable_message(Ctx *c, const char *name, const Const *v, const char **hint);

#endif

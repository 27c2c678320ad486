/*
 * core.h - the one header of ptxjit's compiler: context, source spans,
 * the AST, the types, the IR, and a prototype section per .c file.
 *
 * The pipeline (see src/base/compile.c, which spells it out):
 *
 *   source --lex/parse--> AST --sema--> typed AST --lower--> IR (SSA)
 *     --opt passes--> IR --ptx--> PTX text
 *                      \--------> simulator program (src/sim)
 *
 * Memory: every object of one compile request lives in the request's
 * arena (Ctx.arena) and is freed whole at the end.  Errors unwind with
 * longjmp to the public entry point (Ctx.jmp); nothing calls exit().
 * All state hangs off Ctx; process globals are immutable tables only.
 */
#ifndef PTXJIT_CORE_H
#define PTXJIT_CORE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptxjit.h"
#include "sema/libdevice_tab.h"

typedef struct Arena Arena;
typedef struct Ctx Ctx;
typedef struct Src Src;
typedef struct Span Span;
typedef struct Expr Expr;
typedef struct Stmt Stmt;
typedef struct FuncDef FuncDef;
typedef struct Type Type;
typedef struct Var Var;
typedef struct Spec Spec;
typedef struct Fn Fn;
typedef struct Blk Blk;
typedef struct Ins Ins;
typedef struct Phi Phi;

/* ---------------------------------------------------------------- base */

/* A source text: one Python file (or the dedented text of one function).
 * `first_line` is the line number, in the user's file, of text[0]'s line;
 * `col_shift` columns were removed by dedenting and are added back in
 * messages, so every position printed is the real one.  `bol` (from
 * src_index) lists the offsets where lines begin, so that span_loc finds
 * a line by bisection; without it span_loc counts from the start.
 * `rebuilt`: the text was written from the function's bytecode (it has no
 * source file), at the user's lines; messages name the line and column
 * but do not show the text. */
struct Src {
	const char *file;
	const char *text;
	int len;
	int first_line;
	int col_shift;
	const int32_t *bol;
	int nbol;
	int rebuilt;
};

/* A range of source bytes. */
struct Span {
	const Src *src;
	int32_t off, len;
};

/* The error of a failed request.  kind is PJ_ERR_USER for errors caused
 * by the user's code (with a position) and PJ_ERR_INTERNAL for compiler
 * bugs (position is the C file and line). */
typedef struct Diag {
	int kind;
	int py_exc;      /* a user error's PJ_EXC_* (err_type_at, err_value_at) */
	char msg[2048];  /* full text: "file:line:col: error: ...\n<line>\n   ^\n<hint>" */
	const char *file;
	int line, col;
} Diag;

/* A resolved compile-time location, for the IR and the simulator. */
typedef struct Loc {
	const char *file;
	int line, col;
} Loc;

struct Ctx {
	Arena *arena;
	jmp_buf *jmp;          /* the entry point's setjmp target */
	Diag diag;
	const PjOptions *opt;
	const Src *src;        /* source of the function being worked on */
	/* the kernel being compiled and its specialisations (sema) */
	Spec *kernel;
	Spec **specs;
	int nspec, capspec;
	/* dumps requested (PjOptions.dump parsed): bit per stage */
	unsigned dump;
	FILE *dumpf;
	int depth;             /* nesting depth guard for recursive stages */
	int for_sim;           /* lowering the simulator's program (compile.c): no external calls */
};

enum { DUMP_AST = 1, DUMP_TYPES = 2, DUMP_IR = 4, DUMP_OPT = 8, DUMP_PTX = 16 };

/* arena.c */
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n);          /* zeroed, 16-aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...);
void *arena_grow(Arena *a, void *p, int n, int *cap, size_t elem);  /* for vectors: returns p with room for n+1 */
#define VEC_PUSH(ctx, vec, n, cap, val) \
	((vec) = arena_grow((ctx)->arena, (vec), (n), &(cap), sizeof *(vec)), (vec)[(n)++] = (val))

/* names.c: a hash table from names (the caller's strings) to ints; a
 * zeroed NameMap is empty.  names_get gives -1 for a name not there;
 * names_put adds or replaces. */
typedef struct NameMap {
	const char **keys;
	int *vals;
	int cap, n;
} NameMap;
int names_get(const NameMap *m, const char *name);
void names_put(Ctx *c, NameMap *m, const char *name, int val);

/* err.c */
/* A user error at span: formats "file:line:col: error: <msg>", the source
 * line, a caret under the column; `hint` (may be NULL) says what is
 * supported instead.  Does not return. */
_Noreturn void err_at(Ctx *c, Span sp, const char *hint, const char *fmt, ...);
/* err_at for an error Numba raises as TypeError (a kernel returning a
 * value): Python gets KernelTypeError, a TypingError and a TypeError */
_Noreturn void err_type_at(Ctx *c, Span sp, const char *hint, const char *fmt, ...);
/* err_at for an error Numba raises as ValueError (an alignment that is no
 * power of two): Python gets KernelValueError, a TypingError and a ValueError */
_Noreturn void err_value_at(Ctx *c, Span sp, const char *hint, const char *fmt, ...);
/* An internal compiler error: "internal compiler error at file.c:line: ...". */
_Noreturn void ice_at(Ctx *c, const char *cfile, int cline, const char *fmt, ...);
#define ICE(c, ...) ice_at((c), __FILE__, __LINE__, __VA_ARGS__)
Loc span_loc(Span sp);                 /* file, real line and column (characters) */
/* span_loc with the column in bytes, as CPython's code objects and DWARF
 * count it: the IR's locations (the PTX's .loc, the simulator's errors),
 * which a function rebuilt from its code object must give alike */
Loc span_code_loc(Span sp);
void src_index(Ctx *c, Src *s);        /* fills s->bol from s->text */
int span_line_text(Span sp, const char **start, int *len);  /* the source line */

/* compile.c: the pipeline; public entry points are in ptxjit.h */

/* ----------------------------------------------------------------- AST */

typedef enum {
	/* binary */
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_MATMUL,
	OP_LSHIFT, OP_RSHIFT, OP_BITAND, OP_BITOR, OP_BITXOR,
	/* unary */
	OP_NEG, OP_POS, OP_INVERT, OP_NOT,
	/* comparison */
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_IS, OP_ISNOT, OP_IN, OP_NOTIN,
	/* boolean */
	OP_AND, OP_OR,
	NOP
} AstOp;
extern const char *const ast_op_name[NOP];   /* "+", "//", "not", "is not", ... */

typedef enum {
	E_INT,      /* ival (literal up to 2^64-1: big set when > INT64_MAX) */
	E_FLOAT,    /* fval */
	E_IMAG,     /* fval is the imaginary part: 2j */
	E_BOOL,     /* ival 0/1 */
	E_NONE,
	E_STR,      /* str, slen (escapes decoded); str.bytes: a bytes literal (b'...'), 2
	               once sema has seen it is the value of a string store */
	E_NAME,     /* name.id; sema fills name.var or name.cval */
	E_UNARY,    /* op, a */
	E_BINARY,   /* op, a, b */
	E_COMPARE,  /* cmp.n operators, cmp.n+1 operands: a < b <= c */
	E_BOOLOP,   /* boolop.op (OP_AND/OP_OR), n operands */
	E_IFEXP,    /* ifexp: a if cond else b */
	E_CALL,     /* call */
	E_ATTR,     /* attr.obj . attr.name */
	E_SUBSCRIPT,/* sub.obj [ sub.index ]  (a tuple index is an E_TUPLE) */
	E_SLICE,    /* slice.lo : slice.hi : slice.step (each may be NULL) */
	E_TUPLE,    /* tuple.n elements */
	E_LAMBDA,   /* parsed so it can be refused with a good message */
	E_STARRED,  /* *bin.a, a call's argument unpacked: sema spreads it into the elements */
	E_UNSUPPORTED /* any other expression form: span says where, str what */
} ExprKind;

/* A compile-time constant value (literals, folded expressions, globals). */
typedef struct Const {
	int kind;          /* PJ_V_*: INT FLOAT BOOL COMPLEX NONE STR TUPLE ... */
	int64_t i;         /* INT, BOOL */
	double f, im;      /* FLOAT, COMPLEX */
	int n;             /* TUPLE */
	struct Const *elts;
	const char *s;     /* STR; for MODULE/INTRINSIC the qualified name */
	Type *ty;          /* the value's type once known */
	const void *data;  /* ARRAY: the bytes (C order; the extents are elts[0..n-1]) */
} Const;

struct Expr {
	ExprKind kind;
	Span span;
	Type *ty;          /* sema: the expression's type */
	Const *cval;       /* sema: set when the value is a compile-time constant */
	int big;           /* E_INT literal above INT64_MAX (as uint64) */
	union {
		int64_t ival;
		double fval;
		struct { const char *s; int len; int bytes; } str;
		struct { const char *id; Var *var; int early; } name;   /* early: see sema_known_early */
		struct { AstOp op; Expr *a, *b; } bin;         /* unary uses a */
		struct { int n; AstOp *ops; Expr **args; } cmp;
		struct { AstOp op; int n; Expr **args; } boolop;
		struct { Expr *cond, *a, *b; } ifexp;
		struct {
			Expr *fn;
			int nargs; Expr **args;
			int nkw; const char **kwnames; Expr **kwargs;
			Spec *spec;        /* sema: the device function called */
			int intrin;        /* sema: the intrinsic called (IN_*), or 0 */
			int star_packed;   /* sema: the arguments for a *args parameter are one tuple now */
			/* sema, a call of an overloaded function: the arguments as written
			 * (typing goes back to them each pass, since the implementation
			 * chosen may change with their types; shaped is set once saved) */
			int shaped, src_nargs, src_nkw;
			Expr **src_args, **src_kwargs;
			const char **src_kwnames;
		} call;
		struct { Expr *obj; const char *name; Span name_span; } attr;
		struct { Expr *obj; Expr *index; } sub;
		struct { Expr *lo, *hi, *step; } slice;
		struct { int n; Expr **elts; } tuple;
	};
};

typedef enum {
	S_EXPR,       /* expr */
	S_ASSIGN,     /* targets[ntargets] = value   (a = b = v has 2 targets) */
	S_AUGASSIGN,  /* target op= value */
	S_ANNASSIGN,  /* target: annotation = value (annotation ignored) */
	S_IF,         /* cond, body, orelse (elif is an S_IF alone in orelse) */
	S_WHILE,      /* cond, body, orelse */
	S_FOR,        /* target in iter: body else: orelse */
	S_BREAK, S_CONTINUE, S_PASS,
	S_RETURN,     /* value may be NULL */
	S_ASSERT,     /* cond, msg may be NULL */
	S_RAISE,      /* value may be NULL */
	S_DEF,        /* a nested def, nested.fn: a closure (sema_closure.c) */
	S_UNSUPPORTED /* with/try/class/global/...: refused by sema; str names it */
} StmtKind;

typedef struct Block_ {
	int n;
	Stmt **s;
} StmtList;

struct Stmt {
	StmtKind kind;
	Span span;
	union {
		Expr *expr;
		struct { int ntargets; Expr **targets; Expr *value; } assign;
		struct { AstOp op; Expr *target; Expr *value; } aug;
		struct { Expr *cond; StmtList body, orelse; } cond;    /* if, while */
		/* for: nunroll > 0 for `for x in literal_unroll(t)` (sema_unroll.c):
		 * copy i of the body, ubodies[i], runs with utargets[i] bound to
		 * t[i]; target and body are copy 0 */
		struct {
			Expr *target; Expr *iter; StmtList body, orelse;
			int nunroll; Expr **utargets; StmtList *ubodies;
		} loop;
		struct { Expr *value; } ret;                            /* return, raise */
		struct { Expr *cond; Expr *msg; } assert_;
		struct { const char *what; } unsupported;
		/* S_DEF: what as for unsupported; fn the function (NULL: a decorated def, refused) */
		struct { const char *what; FuncDef *fn; } nested;
	};
};

typedef struct Param {
	const char *name;
	Span span;
	Expr *defval;      /* default value, or NULL */
	Var *var;          /* sema */
} Param;

struct FuncDef {
	const char *name;
	Span span;         /* the `def` line */
	const Src *src;
	int nparams;
	Param *params;
	StmtList body;
	int has_varargs;   /* **kwargs, keyword-only parameters, or *args before others: refused by sema */
	int star;          /* a last *args parameter: its index + 1 (params[star - 1]), else 0 */
};

/* lex.c */
typedef enum {
	T_EOF, T_NEWLINE, T_INDENT, T_DEDENT,
	T_NAME, T_INT, T_FLOAT, T_IMAG, T_STRING,
	T_OP,      /* punctuation and operators: text in tok.op */
	T_KEYWORD  /* Python keyword: text in tok.op */
} TokKind;

typedef struct Token {
	TokKind kind;
	Span span;
	const char *op;   /* interned spelling for T_OP/T_KEYWORD ("+=", "def") */
	const char *s;    /* T_NAME text; T_STRING decoded text */
	int slen;
	uint64_t ival;    /* T_INT; big set when it does not fit int64 */
	int big;
	double fval;      /* T_FLOAT, T_IMAG */
} Token;

/* Tokenises the whole source (indentation to INDENT/DEDENT, implicit line
 * joining in brackets, backslash continuation, comments). */
Token *lex_source(Ctx *c, const Src *src, int *ntok);
/* Tokenises one expression starting at byte `off` as if inside brackets
 * (no NEWLINE/INDENT); stops before a closing bracket opened earlier.
 * For T_STRING, tok.ival holds flags: 1 bytes, 2 f-string, 4 raw, 8 \N{...}. */
Token *lex_expr(Ctx *c, const Src *src, int off, int *ntok);

/* parse.c */
/* Parses the source and returns the first top-level `def` whose name is
 * `name` (NULL: the first def).  Decorators are skipped.  When the source
 * has no def and name is NULL or "<lambda>", its first lambda is read. */
FuncDef *parse_function(Ctx *c, const Src *src, const char *name);
/* module.c: parses a whole module file (for the CLI): its defs and its
 * module-level simple assignments `NAME = expr` and imports; other
 * statements, and any that do not parse, are skipped. */
typedef struct ModuleItem {
	int kind;             /* MI_DEF, MI_ASSIGN, MI_IMPORT */
	FuncDef *def;         /* NULL for a def that does not parse (name is kept) */
	int is_device;        /* def decorated with @cuda.jit(device=True) */
	const char *sig;      /* def: the signature string of its @cuda.jit("..."), or NULL */
	const char **sigs;    /* def: the signatures of its @cuda.jit(["...", ...]) (nsigs) */
	int nsigs;
	unsigned jit;         /* def: the JIT_* options its @cuda.jit(...) gives */
	const char *name;     /* assigned name, or bound import name */
	Expr *value;          /* assigned expression */
	const char *module;   /* import: the qualified module ("numpy", "numba.cuda") */
	const char *attr;     /* from-import: the imported attribute, or NULL */
	Span span;
} ModuleItem;
enum { MI_DEF, MI_ASSIGN, MI_IMPORT };
/* fastmath=True, debug=True, lineinfo=True, opt=False */
enum { JIT_FASTMATH = 1, JIT_DEBUG = 2, JIT_LINEINFO = 4, JIT_NOOPT = 8 };
ModuleItem *parse_module(Ctx *c, const Src *src, int *nitems);
/* Parses a one-expression lambda found at `off` in src ("lambda a, b: a + b")
 * into a FuncDef named `name` whose body returns the expression. */
FuncDef *parse_lambda(Ctx *c, const Src *src, int off, const char *name);

/* astdump.c */
void ast_dump(FILE *f, const FuncDef *fn);          /* S-expression form, stable for golden files */
FuncDef *ast_clone(Ctx *c, const FuncDef *fn);      /* deep copy, sema fields cleared */
Expr *ast_clone_expr(Ctx *c, const Expr *e);
StmtList ast_clone_body(Ctx *c, StmtList l);

/* --------------------------------------------------------------- types */

/* Scalar kinds: the value classes of NumPy dtypes we support.  Order
 * matters: ty_scalar_info() is indexed by it. */
typedef enum {
	SK_BOOL, SK_I8, SK_I16, SK_I32, SK_I64, SK_U8, SK_U16, SK_U32, SK_U64,
	SK_F16, SK_F32, SK_F64, SK_C64, SK_C128,
	SK_BF16,      /* bfloat16: a float32 register holding a value bfloat16
	                 represents exactly; scalars only (no arrays yet) */
	SK_E5M2, SK_E4M3, SK_E8M0,
	              /* CUDA's fp8 types (cuda_fp8.h): the 8-bit encoding in a
	                 32-bit register, zero-extended.  Not numbers: they only
	                 convert (lower_fp8.c), and never reach the IR, whose
	                 instructions carry SK_U8 for them; scalars only */
	NSK
} ScalarKind;
#define SK_IS_FP8(sk) ((sk) == SK_E5M2 || (sk) == SK_E4M3 || (sk) == SK_E8M0)

typedef struct ScalarInfo {
	const char *name;     /* "float32" */
	const char *numpy;    /* NumPy typestr without byte order: "f4" */
	int size;             /* bytes */
	int is_int, is_signed, is_float, is_complex;
} ScalarInfo;
extern const ScalarInfo scalar_info[NSK];
/* The unsigned kind of a signed integer kind's width; any other kind itself. */
ScalarKind sk_unsigned(ScalarKind sk);

typedef enum {
	TY_SCALAR,    /* sk */
	TY_ARRAY,     /* elem (a scalar type), ndim, layout, space, readonly */
	TY_TUPLE,     /* n, elts (heterogeneous; UniTuple is a tuple of equal elts) */
	TY_NONE,      /* None, also the return type of a function with no return value */
	TY_STR,       /* string literal (print, messages) */
	TY_MODULE,    /* name: "math", "numpy", "cuda", "cuda.atomic", "cuda.shared", ... */
	TY_INTRIN,    /* intrin: an intrinsic function or constructor (IN_*) */
	TY_DTYPE,     /* dtype: a scalar type used as a value (np.float32 as dtype argument) */
	TY_DIM3,      /* cuda.threadIdx and friends: intrin is the IN_* of the object */
	TY_RANGE,     /* range(...) iterator, elem is its integer type */
	TY_FUNC,      /* a Python function (device function), func is its source */
	TY_EXC,       /* an exception class (raise ValueError("...")): name */
	TY_UNKNOWN,   /* inference placeholder, never survives sema */
	TY_RECORD,    /* a NumPy structured dtype: fields; as a value, a reference to
	                 one record in memory space `space` (readonly as arrays) */
	TY_POINTER    /* Numba's CPointer(elem), spelled "int32*": the address of
	                 values of the scalar type elem in global memory; p[i]
	                 reads and writes them (no wraparound, as C) */
} TypeKind;

enum { LAYOUT_C = 'C', LAYOUT_F = 'F', LAYOUT_A = 'A' };
/* Address spaces, with PTX's state-space numbering. */
enum { SP_GENERIC = 0, SP_GLOBAL = 1, SP_SHARED = 3, SP_CONST = 4, SP_LOCAL = 5, SP_PARAM = 6 };

struct Type {
	TypeKind kind;
	ScalarKind sk;           /* TY_SCALAR; TY_DTYPE: the dtype's kind */
	/* TY_ARRAY */
	Type *elem;
	int ndim;
	char layout;
	char space;              /* SP_GLOBAL (arguments), SP_SHARED, SP_LOCAL, SP_CONST */
	char readonly;
	/* TY_TUPLE */
	int n;
	Type **elts;
	/* TY_MODULE, TY_EXC: qualified name; TY_INTRIN/TY_DIM3: IN_*;
	 * TY_TUPLE: a vector type's name ("float32x3", elements .x .y .z .w),
	 * NULL for a tuple */
	const char *name;
	/* TY_SCALAR of an Enum member (ty_enum_member): the Enum's class name;
	 * TY_TUPLE of a collections.namedtuple: its class's name and one name
	 * per element (Numba's NamedTuple / NamedUniTuple); NULL otherwise */
	const char *cls;
	const char **names;
	int intrin;
	/* TY_FUNC */
	const PjFunc *func;
	/* TY_RECORD (also TY_DTYPE of a record: elem is the record) */
	int nfields;
	struct RecField *fields;
	NameMap *field_index;    /* a field's name to its index in fields (ty_record) */
	int size, align;         /* bytes of one record; alignment of its widest field */
	/* TY_RECORD without fields that is a fixed-length string, NumPy's
	 * |S<n> (charseq 1: n bytes, Numba's CharSeq) or <U<n> (charseq 4:
	 * n UTF-32 code points, UnicodeCharSeq); 0 for a record */
	int charseq;
};

/* A field of a record: its type at a byte offset.  The type is a scalar,
 * a record (a nested struct), or a C array of a scalar or record (a
 * sub-array field: Numba's NestedArray) whose ty->ndim extents are dims. */
typedef struct RecField {
	const char *name;
	Type *ty;
	int off;
	const int64_t *dims;
} RecField;

/* types.c */
Type *ty_scalar(ScalarKind sk);           /* static immutable instances */
Type *ty_none(void);
Type *ty_str(void);
Type *ty_array(Ctx *c, ScalarKind elem, int ndim, char layout, int space, int readonly);
Type *ty_tuple(Ctx *c, int n, Type **elts);
/* A member of an Enum that is not an IntEnum, of class cls: an int64
 * scalar whose cls is set (Numba's EnumMember(cls, int64)); no number */
Type *ty_enum_member(Ctx *c, const char *cls);
Type *ty_named_tuple(Ctx *c, const Type *of, const char *cls, const char **names);   /* of's elements */
int ty_field_index(const Type *t, const char *name);   /* a namedtuple's field, or -1 */
Type *ty_unituple(Ctx *c, Type *elt, int n);
Type *ty_module(Ctx *c, const char *name);
Type *ty_intrin(Ctx *c, int intrin);
Type *ty_dtype(Ctx *c, ScalarKind sk);
Type *ty_dim3(Ctx *c, int intrin);
Type *ty_range(Ctx *c, Type *elem);
Type *ty_func(Ctx *c, const PjFunc *f);
Type *ty_exc(Ctx *c, const char *name);
Type *ty_pointer(Ctx *c, Type *elem);     /* CPointer(elem), elem a scalar type */
int ty_equal(const Type *a, const Type *b);
int ty_is_int(const Type *t);             /* scalar integer (not bool) */
int ty_is_float(const Type *t);
int ty_is_complex(const Type *t);
int ty_is_number(const Type *t);          /* bool, int, float or complex scalar (not fp8) */
/* CUDA's __nv_bfloat16_raw of cuda_fp8.h's conversions: a namedtuple
 * bfloat16_raw whose one field x holds the bits (uint16) */
Type *ty_bf16raw(Ctx *c);
/* Numba/NumPy promotion for arithmetic between a and b (int32+int32 ->
 * int64, uint64+int64 -> float64, float32+int64 -> float64, ...). */
Type *ty_promote(const Type *a, const Type *b);
/* The type a variable gets from unifying two assignments, or NULL. */
Type *ty_unify(Ctx *c, Type *a, Type *b);
/* Does NumPy cast scalar kind `from` to `to` under casting='safe'? */
int ty_can_cast(ScalarKind from, ScalarKind to);

/* ufunc.c: NumPy's loop that Numba picks for a ufunc (IN_NP_ADD, ...)
 * called on scalars: the kinds its arguments convert to and its results. */
typedef struct {
	int nin, nout;
	ScalarKind in[2], out[2];
} UfuncLoop;
/* NumPy's loops of the ufunc ("bb->b BB->B ..."), or NULL for an
 * intrinsic that is no ufunc. */
const char *ufunc_loops(int intrin);
int ufunc_nin(int intrin);
/* Fills loop for arguments of kinds args[0..nargs-1]; 0 if no loop fits. */
int ufunc_loop(int intrin, int nargs, const ScalarKind *args, UfuncLoop *loop);
/* The same with explicit output arrays of element kinds outs[0..nouts-1]:
 * the loop's results must cast to them "same_kind" (Numba's rule). */
int ufunc_loop_out(int intrin, int nargs, const ScalarKind *args, int nouts, const ScalarKind *outs,
                   UfuncLoop *loop);
int ufunc_nout(int intrin);
/* sema_reduce.c: the array that np.sum(a) or a.sum() (IN_NP_SUM ..) reduces */
Expr *sema_reduced_array(Expr *e);
/* "real numbers", "bool or integers": what argument i of the ufunc takes. */
const char *ufunc_takes(int intrin, int i);
/* "float32", "array(float32, 2d, C)", "UniTuple(int64 x 2)", ... */
const char *ty_str_of(Ctx *c, const Type *t);
/* overload.c: how an argument type converts to a parameter type, in
 * Numba's ranks (exact < promote < safe < unsafe; CONV_NONE: it does not),
 * and which declared signatures suit a call best: their indices into best
 * (room for nsigs), the first declared first; returns how many (0: none). */
typedef enum { CONV_EXACT, CONV_PROMOTE, CONV_SAFE, CONV_UNSAFE, CONV_NONE } Conv;
Conv ty_conversion(const Type *from, const Type *to);
int sema_pick_signature(int nsigs, const int *nparams, Type ***params, int nargs, Type **args, int *best);
/* sig.c: Numba signature strings: "void(float32[::1], int64)", "f4[:, :]",
 * "(int32, float64[:])".  Returns the return type (NULL if absent) and fills
 * args.  Errors are user errors pointing into the string. */
Type *ty_parse_sig(Ctx *c, const char *sig, int *nargs, Type ***args);
Type *ty_parse_one(Ctx *c, const char *s);
ScalarKind ty_sk_from_name(const char *name);   /* "float32", "f4", "int_", ...; -1 if unknown */
/* record.c: records (structured dtypes) and arrays of any element type */
Type *ty_record(Ctx *c, int nfields, const RecField *fields, int size);
Type *ty_record_in(Ctx *c, Type *rec, int space, int readonly);  /* the same record, referenced in space */
Type *ty_charseq(Ctx *c, int width, int n);   /* a string of n characters of width 1 (|S) or 4 (<U) bytes */
const RecField *ty_field(const Type *rec, const char *name);     /* NULL if it has no such field */
Type *ty_array_of(Ctx *c, Type *elem, int ndim, char layout, int space, int readonly);
int ty_elem_size(const Type *elem);       /* bytes of an array element: scalar or record */
int ty_elem_align(const Type *elem);
Type *ty_dtype_record(Ctx *c, Type *rec); /* a record dtype used as a value */
int64_t ty_field_size(const RecField *f);  /* bytes of a field (a sub-array: all its elements) */
/* The type of field f read through rec: a nested record or sub-array
 * lies in rec's memory space and is read-only when rec is */
Type *ty_field_in(Ctx *c, const Type *rec, const RecField *f);
int ty_record_same(const Type *a, const Type *b);   /* same fields, offsets and size (any space) */
/* Numba's spelling, which ty_parse_one reads back:
 * "Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)";
 * a string: "[char x 12]", "[unichr x 12]" */
const char *ty_record_str(Ctx *c, const Type *rec);

/* ---------------------------------------------------------- intrinsics */

/* intrin.c: every function, constructor, attribute object and module
 * member that kernels may use, with its qualified Python name.  Sema
 * types calls to them; lowering implements them. */
#define LD_INTRIN(X, name, ret, args) X(IN_LD_##name, "cuda.libdevice." #name)
/* Numba's CUDA vector types, cuda.<base>x<n>: the 10 bases (the order of
 * vector_sk in sema_vector.c) with 1 to 4 elements .x .y .z .w */
#define VECTOR_BASES(V, X, n) V(X, int8, n) V(X, int16, n) V(X, int32, n) V(X, int64, n) \
	V(X, uint8, n) V(X, uint16, n) V(X, uint32, n) V(X, uint64, n) V(X, float32, n) V(X, float64, n)
#define VECTOR_TYPES(V, X) VECTOR_BASES(V, X, 1) VECTOR_BASES(V, X, 2) VECTOR_BASES(V, X, 3) \
	VECTOR_BASES(V, X, 4)
#define VEC_INTRIN(X, base, n) X(IN_VEC_##base##x##n, "cuda." #base "x" #n)
/* cuda.bf16, Numba's bfloat16 functions (sema_bf16.c, lower_bf16.c):
 * name, form (BF_*), a (an Opcode, CondCode or ScalarKind), b (a
 * rounding mode RM_*, or for compares whether NaN makes them true). */
enum { BF_BIN, BF_SAT, BF_FMA, BF_NEG, BF_ABS, BF_CMP, BF_MAX, BF_MIN, BF_ISNAN, BF_ISINF, BF_MATH,
       BF_TO, BF_FROM, BF_AS, BF_FROM_BITS };
enum { RM_N, RM_Z, RM_D, RM_U, RM_SAT, RM_RELU, RM_NAN };
#include "sema/bf16_tab.h"
#define BF16_INTRIN(X, name, form, a, b) X(IN_BF16_##name, "cuda.bf16." #name)
/* The functions of Python's operator module, each typed as the operator
 * it names (sema_call.c, type_operator): name, form (OPF_*), AstOp. */
enum { OPF_BINARY, OPF_UNARY, OPF_COMPARE, OPF_CONTAINS, OPF_ABS, OPF_TRUTH, OPF_GETITEM };
#define OPERATOR_FUNCS(O, X) \
	O(X, add, OPF_BINARY, OP_ADD) O(X, sub, OPF_BINARY, OP_SUB) O(X, mul, OPF_BINARY, OP_MUL) \
	O(X, truediv, OPF_BINARY, OP_DIV) O(X, floordiv, OPF_BINARY, OP_FLOORDIV) \
	O(X, mod, OPF_BINARY, OP_MOD) O(X, pow, OPF_BINARY, OP_POW) O(X, matmul, OPF_BINARY, OP_MATMUL) \
	O(X, lshift, OPF_BINARY, OP_LSHIFT) O(X, rshift, OPF_BINARY, OP_RSHIFT) \
	O(X, and_, OPF_BINARY, OP_BITAND) O(X, or_, OPF_BINARY, OP_BITOR) O(X, xor, OPF_BINARY, OP_BITXOR) \
	O(X, iadd, OPF_BINARY, OP_ADD) O(X, isub, OPF_BINARY, OP_SUB) O(X, imul, OPF_BINARY, OP_MUL) \
	O(X, itruediv, OPF_BINARY, OP_DIV) O(X, ifloordiv, OPF_BINARY, OP_FLOORDIV) \
	O(X, imod, OPF_BINARY, OP_MOD) O(X, ipow, OPF_BINARY, OP_POW) O(X, imatmul, OPF_BINARY, OP_MATMUL) \
	O(X, ilshift, OPF_BINARY, OP_LSHIFT) O(X, irshift, OPF_BINARY, OP_RSHIFT) \
	O(X, iand, OPF_BINARY, OP_BITAND) O(X, ior, OPF_BINARY, OP_BITOR) O(X, ixor, OPF_BINARY, OP_BITXOR) \
	O(X, neg, OPF_UNARY, OP_NEG) O(X, pos, OPF_UNARY, OP_POS) O(X, invert, OPF_UNARY, OP_INVERT) \
	O(X, inv, OPF_UNARY, OP_INVERT) O(X, not_, OPF_UNARY, OP_NOT) \
	O(X, lt, OPF_COMPARE, OP_LT) O(X, le, OPF_COMPARE, OP_LE) O(X, gt, OPF_COMPARE, OP_GT) \
	O(X, ge, OPF_COMPARE, OP_GE) O(X, eq, OPF_COMPARE, OP_EQ) O(X, ne, OPF_COMPARE, OP_NE) \
	O(X, is_, OPF_COMPARE, OP_IS) O(X, is_not, OPF_COMPARE, OP_ISNOT) \
	O(X, contains, OPF_CONTAINS, OP_IN) O(X, abs, OPF_ABS, NOP) O(X, truth, OPF_TRUTH, NOP) \
	O(X, getitem, OPF_GETITEM, NOP)
#define OPF_INTRIN(X, name, form, op) X(IN_OPF_##name, "operator." #name)
#define INTRINSICS(X) \
	X(IN_NONE, "") \
	/* builtins */ \
	X(IN_RANGE, "range") X(IN_LEN, "len") X(IN_MIN, "min") X(IN_MAX, "max") \
	X(IN_ABS, "abs") X(IN_INT, "int") X(IN_FLOAT, "float") X(IN_BOOL, "bool") \
	X(IN_COMPLEX, "complex") X(IN_ROUND, "round") X(IN_PRINT, "print") \
	X(IN_DIVMOD, "divmod") X(IN_POW, "pow") X(IN_ISINSTANCE, "isinstance") \
	X(IN_TUPLE, "tuple") \
	/* cuda thread objects (TY_DIM3) and scalars */ \
	X(IN_THREADIDX, "cuda.threadIdx") X(IN_BLOCKIDX, "cuda.blockIdx") \
	X(IN_BLOCKDIM, "cuda.blockDim") X(IN_GRIDDIM, "cuda.gridDim") \
	X(IN_LANEID, "cuda.laneid") X(IN_WARPSIZE, "cuda.warpsize") \
	X(IN_GRID, "cuda.grid") X(IN_GRIDSIZE, "cuda.gridsize") \
	X(IN_SYNCTHREADS, "cuda.syncthreads") \
	X(IN_SHARED_ARRAY, "cuda.shared.array") X(IN_LOCAL_ARRAY, "cuda.local.array") \
	X(IN_CONST_ARRAY_LIKE, "cuda.const.array_like") \
	X(IN_ATOMIC_ADD, "cuda.atomic.add") X(IN_ATOMIC_SUB, "cuda.atomic.sub") \
	X(IN_ATOMIC_MAX, "cuda.atomic.max") X(IN_ATOMIC_MIN, "cuda.atomic.min") \
	X(IN_ATOMIC_AND, "cuda.atomic.and_") X(IN_ATOMIC_OR, "cuda.atomic.or_") \
	X(IN_ATOMIC_XOR, "cuda.atomic.xor") X(IN_ATOMIC_EXCH, "cuda.atomic.exch") \
	X(IN_ATOMIC_INC, "cuda.atomic.inc") X(IN_ATOMIC_DEC, "cuda.atomic.dec") \
	X(IN_ATOMIC_CAS, "cuda.atomic.cas") X(IN_ATOMIC_CAS2, "cuda.atomic.compare_and_swap") \
	X(IN_ATOMIC_NANMAX, "cuda.atomic.nanmax") X(IN_ATOMIC_NANMIN, "cuda.atomic.nanmin") \
	/* math */ \
	X(IN_MATH_SQRT, "math.sqrt") X(IN_MATH_FABS, "math.fabs") \
	X(IN_MATH_FLOOR, "math.floor") X(IN_MATH_CEIL, "math.ceil") \
	X(IN_MATH_TRUNC, "math.trunc") X(IN_MATH_PI, "math.pi") X(IN_MATH_E, "math.e") \
	X(IN_MATH_INF, "math.inf") X(IN_MATH_NAN, "math.nan") \
	/* numpy scalar constructors (also dtypes when used as values) */ \
	X(IN_NP_BOOL, "numpy.bool_") X(IN_NP_INT8, "numpy.int8") X(IN_NP_INT16, "numpy.int16") \
	X(IN_NP_INT32, "numpy.int32") X(IN_NP_INT64, "numpy.int64") \
	X(IN_NP_UINT8, "numpy.uint8") X(IN_NP_UINT16, "numpy.uint16") \
	X(IN_NP_UINT32, "numpy.uint32") X(IN_NP_UINT64, "numpy.uint64") \
	X(IN_NP_FLOAT16, "numpy.float16") X(IN_NP_FLOAT32, "numpy.float32") \
	X(IN_NP_FLOAT64, "numpy.float64") X(IN_NP_COMPLEX64, "numpy.complex64") \
	X(IN_NP_COMPLEX128, "numpy.complex128") \
	X(IN_NP_SQRT, "numpy.sqrt") X(IN_NP_ABS, "numpy.abs") X(IN_NP_FLOOR, "numpy.floor") \
	X(IN_NP_CEIL, "numpy.ceil") X(IN_NP_PI, "numpy.pi") X(IN_NP_E, "numpy.e") \
	X(IN_NP_INF, "numpy.inf") X(IN_NP_NAN, "numpy.nan") \
	/* array attributes/methods are resolved by sema directly (shape, size, ndim) */ \
	/* array creation: the CPU target only (sema_cpu.c, lower_cpu.c) */ \
	X(IN_NP_EMPTY, "numpy.empty") X(IN_NP_ZEROS, "numpy.zeros") X(IN_NP_ONES, "numpy.ones") \
	X(IN_NP_EMPTY_LIKE, "numpy.empty_like") X(IN_NP_ZEROS_LIKE, "numpy.zeros_like") \
	X(IN_NP_ONES_LIKE, "numpy.ones_like") X(IN_NP_COPY, "numpy.copy") X(IN_NP_ARANGE, "numpy.arange") \
	X(IN_ARRAY_COPY, "array.copy") \
	/* cooperative groups: cuda.cg.this_grid() is a TY_DIM3 object of kind \
	 * IN_CG_GRID whose .sync() is the grid-wide barrier (a BAR of aux 1) */ \
	X(IN_CG_THIS_GRID, "cuda.cg.this_grid") X(IN_CG_GRID, "cuda.cg.grid_group") \
	X(IN_CG_GRID_SYNC, "cuda.cg.grid_group.sync") \
	/* array methods that make views (sema_arrayview.c, lower_arrayview.c) */ \
	X(IN_ARRAY_VIEW, "array.view") X(IN_ARRAY_RESHAPE, "array.reshape") \
	X(IN_ARRAY_TRANSPOSE, "array.transpose") \
	/* pointers (sema_pointer.c, lower_pointer.c): an array over a pointer, \
	 * a pointer to an array's data */ \
	X(IN_CARRAY, "cuda.carray") X(IN_FARRAY, "cuda.farray") \
	X(IN_FFI_FROM_BUFFER, "cffi.ffi.from_buffer") \
	/* reductions of a whole array to a scalar (sema_reduce.c, lower_reduce.c) */ \
	X(IN_NP_SUM, "numpy.sum") X(IN_NP_PROD, "numpy.prod") X(IN_NP_AMIN, "numpy.min") \
	X(IN_NP_AMAX, "numpy.max") X(IN_NP_ALL, "numpy.all") X(IN_NP_ANY, "numpy.any") \
	X(IN_NP_MEAN, "numpy.mean") X(IN_NP_NANSUM, "numpy.nansum") X(IN_NP_NANPROD, "numpy.nanprod") \
	X(IN_NP_NANMIN, "numpy.nanmin") X(IN_NP_NANMAX, "numpy.nanmax") X(IN_NP_NANMEAN, "numpy.nanmean") \
	X(IN_NP_VAR, "numpy.var") X(IN_NP_STD, "numpy.std") X(IN_NP_COUNT_NONZERO, "numpy.count_nonzero") \
	/* cuda: reducing barriers, fences, warp operations, bit and float \
	 * intrinsics (sema_warp.c, lower_warp.c) */ \
	X(IN_SYNCTHREADS_COUNT, "cuda.syncthreads_count") X(IN_SYNCTHREADS_AND, "cuda.syncthreads_and") \
	X(IN_SYNCTHREADS_OR, "cuda.syncthreads_or") X(IN_SYNCWARP, "cuda.syncwarp") \
	X(IN_THREADFENCE, "cuda.threadfence") X(IN_THREADFENCE_BLOCK, "cuda.threadfence_block") \
	X(IN_THREADFENCE_SYSTEM, "cuda.threadfence_system") \
	X(IN_SHFL_SYNC, "cuda.shfl_sync") X(IN_SHFL_UP_SYNC, "cuda.shfl_up_sync") \
	X(IN_SHFL_DOWN_SYNC, "cuda.shfl_down_sync") X(IN_SHFL_XOR_SYNC, "cuda.shfl_xor_sync") \
	X(IN_ALL_SYNC, "cuda.all_sync") X(IN_ANY_SYNC, "cuda.any_sync") X(IN_EQ_SYNC, "cuda.eq_sync") \
	X(IN_BALLOT_SYNC, "cuda.ballot_sync") X(IN_MATCH_ANY_SYNC, "cuda.match_any_sync") \
	X(IN_MATCH_ALL_SYNC, "cuda.match_all_sync") X(IN_ACTIVEMASK, "cuda.activemask") \
	X(IN_LANEMASK_LT, "cuda.lanemask_lt") X(IN_POPC, "cuda.popc") X(IN_BREV, "cuda.brev") \
	X(IN_CLZ, "cuda.clz") X(IN_FFS, "cuda.ffs") X(IN_FMA, "cuda.fma") X(IN_CBRT, "cuda.cbrt") \
	X(IN_SELP, "cuda.selp") X(IN_NANOSLEEP, "cuda.nanosleep") \
	X(IN_LITERAL_UNROLL, "cuda.literal_unroll") /* only as a for loop's iterable (sema_unroll.c) */ \
	/* loads and stores with a cache operator (sema_cachehint.c, lower_array.c) */ \
	X(IN_LDCA, "cuda.ldca") X(IN_LDCG, "cuda.ldcg") X(IN_LDCS, "cuda.ldcs") X(IN_LDLU, "cuda.ldlu") \
	X(IN_LDCV, "cuda.ldcv") X(IN_STCG, "cuda.stcg") X(IN_STCS, "cuda.stcs") X(IN_STWB, "cuda.stwb") \
	X(IN_STWT, "cuda.stwt") \
	/* cuda.fp16: half-precision arithmetic, math and comparisons \
	 * (sema_fp16.c, lower_fp16.c) */ \
	X(IN_FP16_HADD, "cuda.fp16.hadd") X(IN_FP16_HSUB, "cuda.fp16.hsub") \
	X(IN_FP16_HMUL, "cuda.fp16.hmul") X(IN_FP16_HDIV, "cuda.fp16.hdiv") \
	X(IN_FP16_HFMA, "cuda.fp16.hfma") X(IN_FP16_HNEG, "cuda.fp16.hneg") \
	X(IN_FP16_HABS, "cuda.fp16.habs") X(IN_FP16_HSIN, "cuda.fp16.hsin") \
	X(IN_FP16_HCOS, "cuda.fp16.hcos") X(IN_FP16_HLOG, "cuda.fp16.hlog") \
	X(IN_FP16_HLOG10, "cuda.fp16.hlog10") X(IN_FP16_HLOG2, "cuda.fp16.hlog2") \
	X(IN_FP16_HEXP, "cuda.fp16.hexp") X(IN_FP16_HEXP10, "cuda.fp16.hexp10") \
	X(IN_FP16_HEXP2, "cuda.fp16.hexp2") X(IN_FP16_HFLOOR, "cuda.fp16.hfloor") \
	X(IN_FP16_HCEIL, "cuda.fp16.hceil") X(IN_FP16_HSQRT, "cuda.fp16.hsqrt") \
	X(IN_FP16_HRSQRT, "cuda.fp16.hrsqrt") X(IN_FP16_HRCP, "cuda.fp16.hrcp") \
	X(IN_FP16_HRINT, "cuda.fp16.hrint") X(IN_FP16_HTRUNC, "cuda.fp16.htrunc") \
	X(IN_FP16_HTANH, "cuda.fp16.htanh") \
	X(IN_FP16_HEQ, "cuda.fp16.heq") X(IN_FP16_HNE, "cuda.fp16.hne") \
	X(IN_FP16_HGT, "cuda.fp16.hgt") X(IN_FP16_HGE, "cuda.fp16.hge") \
	X(IN_FP16_HLT, "cuda.fp16.hlt") X(IN_FP16_HLE, "cuda.fp16.hle") \
	X(IN_FP16_HEQU, "cuda.fp16.__hequ") X(IN_FP16_HNEU, "cuda.fp16.__hneu") \
	X(IN_FP16_HGTU, "cuda.fp16.__hgtu") X(IN_FP16_HGEU, "cuda.fp16.__hgeu") \
	X(IN_FP16_HLTU, "cuda.fp16.__hltu") X(IN_FP16_HLEU, "cuda.fp16.__hleu") \
	X(IN_FP16_HISNAN, "cuda.fp16.__hisnan") X(IN_FP16_HISINF, "cuda.fp16.__hisinf") \
	X(IN_FP16_HMAX, "cuda.fp16.hmax") X(IN_FP16_HMIN, "cuda.fp16.hmin") \
	X(IN_FP16_HMAX_NAN, "cuda.fp16.__hmax_nan") X(IN_FP16_HMIN_NAN, "cuda.fp16.__hmin_nan") \
	/* the math library (sema_math.c, lower_math.c, src/math/): math, cmath \
	 * and NumPy's ufuncs on scalars */ \
	X(IN_MATH_ACOS, "math.acos") X(IN_MATH_ASIN, "math.asin") X(IN_MATH_ATAN, "math.atan") \
	X(IN_MATH_ACOSH, "math.acosh") X(IN_MATH_ASINH, "math.asinh") X(IN_MATH_ATANH, "math.atanh") \
	X(IN_MATH_SIN, "math.sin") X(IN_MATH_COS, "math.cos") X(IN_MATH_TAN, "math.tan") \
	X(IN_MATH_SINH, "math.sinh") X(IN_MATH_COSH, "math.cosh") X(IN_MATH_TANH, "math.tanh") \
	X(IN_MATH_ATAN2, "math.atan2") X(IN_MATH_HYPOT, "math.hypot") X(IN_MATH_EXP, "math.exp") \
	X(IN_MATH_EXP2, "math.exp2") X(IN_MATH_EXPM1, "math.expm1") X(IN_MATH_LOG, "math.log") \
	X(IN_MATH_LOG2, "math.log2") X(IN_MATH_LOG10, "math.log10") X(IN_MATH_LOG1P, "math.log1p") \
	X(IN_MATH_ERF, "math.erf") X(IN_MATH_ERFC, "math.erfc") X(IN_MATH_GAMMA, "math.gamma") \
	X(IN_MATH_LGAMMA, "math.lgamma") X(IN_MATH_COPYSIGN, "math.copysign") X(IN_MATH_FMOD, "math.fmod") \
	X(IN_MATH_REMAINDER, "math.remainder") X(IN_MATH_NEXTAFTER, "math.nextafter") \
	X(IN_MATH_POW, "math.pow") X(IN_MATH_FREXP, "math.frexp") X(IN_MATH_LDEXP, "math.ldexp") \
	X(IN_MATH_MODF, "math.modf") X(IN_MATH_ISNAN, "math.isnan") X(IN_MATH_ISINF, "math.isinf") \
	X(IN_MATH_ISFINITE, "math.isfinite") X(IN_MATH_RADIANS, "math.radians") \
	X(IN_MATH_DEGREES, "math.degrees") X(IN_MATH_CBRT, "math.cbrt") \
	X(IN_CMATH_ACOS, "cmath.acos") X(IN_CMATH_ACOSH, "cmath.acosh") X(IN_CMATH_ASIN, "cmath.asin") \
	X(IN_CMATH_ASINH, "cmath.asinh") X(IN_CMATH_ATAN, "cmath.atan") X(IN_CMATH_ATANH, "cmath.atanh") \
	X(IN_CMATH_COS, "cmath.cos") X(IN_CMATH_COSH, "cmath.cosh") X(IN_CMATH_EXP, "cmath.exp") \
	X(IN_CMATH_ISFINITE, "cmath.isfinite") X(IN_CMATH_ISINF, "cmath.isinf") \
	X(IN_CMATH_ISNAN, "cmath.isnan") X(IN_CMATH_LOG, "cmath.log") X(IN_CMATH_LOG10, "cmath.log10") \
	X(IN_CMATH_PHASE, "cmath.phase") X(IN_CMATH_POLAR, "cmath.polar") X(IN_CMATH_RECT, "cmath.rect") \
	X(IN_CMATH_SIN, "cmath.sin") X(IN_CMATH_SINH, "cmath.sinh") X(IN_CMATH_SQRT, "cmath.sqrt") \
	X(IN_CMATH_TAN, "cmath.tan") X(IN_CMATH_TANH, "cmath.tanh") \
	X(IN_NP_SIN, "numpy.sin") X(IN_NP_COS, "numpy.cos") X(IN_NP_TAN, "numpy.tan") \
	X(IN_NP_ARCSIN, "numpy.arcsin") X(IN_NP_ARCCOS, "numpy.arccos") X(IN_NP_ARCTAN, "numpy.arctan") \
	X(IN_NP_ARCTAN2, "numpy.arctan2") X(IN_NP_HYPOT, "numpy.hypot") X(IN_NP_SINH, "numpy.sinh") \
	X(IN_NP_COSH, "numpy.cosh") X(IN_NP_TANH, "numpy.tanh") X(IN_NP_ARCSINH, "numpy.arcsinh") \
	X(IN_NP_ARCCOSH, "numpy.arccosh") X(IN_NP_ARCTANH, "numpy.arctanh") \
	X(IN_NP_DEG2RAD, "numpy.deg2rad") X(IN_NP_RADIANS, "numpy.radians") \
	X(IN_NP_RAD2DEG, "numpy.rad2deg") X(IN_NP_DEGREES, "numpy.degrees") X(IN_NP_LOG, "numpy.log") \
	X(IN_NP_LOG2, "numpy.log2") X(IN_NP_LOG10, "numpy.log10") X(IN_NP_EXP, "numpy.exp") \
	X(IN_NP_EXP2, "numpy.exp2") X(IN_NP_EXPM1, "numpy.expm1") X(IN_NP_LOG1P, "numpy.log1p") \
	X(IN_NP_CBRT, "numpy.cbrt") X(IN_NP_SQUARE, "numpy.square") X(IN_NP_RECIPROCAL, "numpy.reciprocal") \
	X(IN_NP_FABS, "numpy.fabs") X(IN_NP_NEGATIVE, "numpy.negative") X(IN_NP_POSITIVE, "numpy.positive") \
	X(IN_NP_SIGN, "numpy.sign") X(IN_NP_SIGNBIT, "numpy.signbit") X(IN_NP_COPYSIGN, "numpy.copysign") \
	X(IN_NP_NEXTAFTER, "numpy.nextafter") X(IN_NP_SPACING, "numpy.spacing") \
	X(IN_NP_LDEXP, "numpy.ldexp") X(IN_NP_FREXP, "numpy.frexp") X(IN_NP_MODF, "numpy.modf") \
	X(IN_NP_FMOD, "numpy.fmod") X(IN_NP_REMAINDER, "numpy.remainder") X(IN_NP_POWER, "numpy.power") \
	X(IN_NP_FLOAT_POWER, "numpy.float_power") X(IN_NP_LOGADDEXP, "numpy.logaddexp") \
	X(IN_NP_LOGADDEXP2, "numpy.logaddexp2") X(IN_NP_TRUNC, "numpy.trunc") X(IN_NP_RINT, "numpy.rint") \
	X(IN_NP_ISNAN, "numpy.isnan") X(IN_NP_ISINF, "numpy.isinf") X(IN_NP_ISFINITE, "numpy.isfinite") \
	X(IN_NP_MAXIMUM, "numpy.maximum") X(IN_NP_MINIMUM, "numpy.minimum") X(IN_NP_FMAX, "numpy.fmax") \
	X(IN_NP_FMIN, "numpy.fmin") X(IN_NP_GREATER, "numpy.greater") \
	X(IN_NP_GREATER_EQUAL, "numpy.greater_equal") X(IN_NP_LESS, "numpy.less") \
	X(IN_NP_LESS_EQUAL, "numpy.less_equal") X(IN_NP_NOT_EQUAL, "numpy.not_equal") \
	X(IN_NP_EQUAL, "numpy.equal") X(IN_NP_LOGICAL_AND, "numpy.logical_and") \
	X(IN_NP_LOGICAL_OR, "numpy.logical_or") X(IN_NP_LOGICAL_XOR, "numpy.logical_xor") \
	X(IN_NP_LOGICAL_NOT, "numpy.logical_not") X(IN_NP_BITWISE_AND, "numpy.bitwise_and") \
	X(IN_NP_BITWISE_OR, "numpy.bitwise_or") X(IN_NP_BITWISE_XOR, "numpy.bitwise_xor") \
	X(IN_NP_INVERT, "numpy.invert") X(IN_NP_LEFT_SHIFT, "numpy.left_shift") \
	X(IN_NP_RIGHT_SHIFT, "numpy.right_shift") X(IN_NP_ADD, "numpy.add") \
	X(IN_NP_SUBTRACT, "numpy.subtract") X(IN_NP_MULTIPLY, "numpy.multiply") \
	X(IN_NP_DIVIDE, "numpy.divide") X(IN_NP_FLOOR_DIVIDE, "numpy.floor_divide") \
	X(IN_NP_DIVMOD, "numpy.divmod") X(IN_NP_CONJUGATE, "numpy.conjugate") X(IN_NP_GCD, "numpy.gcd") \
	X(IN_NP_LCM, "numpy.lcm") \
	/* numba.cuda.libdevice (sema/libdevice_tab.h, sema_libdevice.c, \
	 * lower_libdevice.c) */ \
	X(IN_LD_BEGIN, "") LIBDEVICE(LD_INTRIN, X) X(IN_LD_END, "") \
	/* vector types' constructors (sema_vector.c) */ \
	X(IN_VEC_BEGIN, "") VECTOR_TYPES(VEC_INTRIN, X) X(IN_VEC_END, "") \
	/* the operator module (sema_call.c) */ \
	X(IN_OPF_BEGIN, "") OPERATOR_FUNCS(OPF_INTRIN, X) X(IN_OPF_END, "") \
	/* cuda.bf16: the bfloat16 constructor (a dtype's), then its functions */ \
	X(IN_BF16_CTOR, "cuda.bf16.bfloat16") \
	X(IN_BF16_BEGIN, "") BF16_FUNCS(BF16_INTRIN, X) X(IN_BF16_END, "") \
	/* numba.cuda._internal.cuda_fp8: the fp8 types' constructors, then the \
	 * conversions of storage bits (sema_fp8.c, lower_fp8.c) */ \
	X(IN_FP8_E5M2, "cuda.fp8.fp8_e5m2") X(IN_FP8_E4M3, "cuda.fp8.fp8_e4m3") \
	X(IN_FP8_E8M0, "cuda.fp8.fp8_e8m0") \
	X(IN_FP8_BEGIN, "") \
	X(IN_FP8_FLOAT_TO_FP8, "cuda.fp8.cvt_float_to_fp8") \
	X(IN_FP8_DOUBLE_TO_FP8, "cuda.fp8.cvt_double_to_fp8") \
	X(IN_FP8_BF16RAW_TO_FP8, "cuda.fp8.cvt_bfloat16raw_to_fp8") \
	X(IN_FP8_FLOAT_TO_E8M0, "cuda.fp8.cvt_float_to_e8m0") \
	X(IN_FP8_DOUBLE_TO_E8M0, "cuda.fp8.cvt_double_to_e8m0") \
	X(IN_FP8_BF16RAW_TO_E8M0, "cuda.fp8.cvt_bfloat16raw_to_e8m0") \
	X(IN_FP8_E8M0_TO_BF16RAW, "cuda.fp8.cvt_e8m0_to_bf16raw") \
	X(IN_FP8_END, "") \
	X(IN_LAST, "")

typedef enum {
#define X(id, name) id,
	INTRINSICS(X)
#undef X
	NINTRIN
} Intrinsic;
extern const char *const intrin_name[NINTRIN];
/* Looks up a qualified name ("numpy.float32"; aliases such as "np.",
 * "numba.cuda.", "numba.float32" are normalised by the caller). Returns
 * IN_NONE if unknown. */
int intrin_lookup(const char *qualname);
/* The scalar kind of a NumPy scalar constructor/dtype intrinsic, or -1. */
int intrin_dtype(int intrin);
/* cuda.bf16's function `in` (IN_BF16_*): its form (BF_*) and the table's
 * a and b columns (sema_bf16.c). */
int intrin_bf16_form(int in, int *a, int *b);
/* Vector types (sema_vector.c): the type of constructor `in`
 * (IN_VEC_*), and of a vector of n elements of kind sk. */
Type *ty_vector_of(Ctx *c, int in);
Type *ty_vector(Ctx *c, ScalarKind sk, int n);
/* libdevice's functions (sema_libdevice.c): the declared type of
 * argument i, the result type (a tuple for two results), and the
 * argument types in words. */
Type *libdevice_arg(int in, int i);
Type *libdevice_result(Ctx *c, int in);
const char *libdevice_params(Ctx *c, int in);
/* Is it one of cuda.fp16's comparisons (heq .. hle), which give a bool? */
int intrin_fp16_compare(int intrin);
/* Does a call of the intrinsic depend on its arguments' values alone (the
 * builtins min, max, abs, int, float, bool, complex, round, pow, math.*,
 * numpy.* but the array makers), not on the thread, memory or other
 * threads? */
int intrin_pure(int intrin);

/* ---------------------------------------------------------------- sema */

/* A local variable or argument of one specialisation. */
struct Var {
	const char *name;
	Span span;        /* first definition */
	Type *ty;         /* unified type */
	int is_param;
	int index;        /* position among the specialisation's vars */
};

/* One typed instance of a function: the kernel, or a device function
 * specialised for the argument types of its calls.  Each Spec owns its
 * own copy of the AST (ast_clone), so types hang directly off the nodes. */
struct Spec {
	FuncDef *def;
	const PjFunc *func;  /* where it came from: source, resolver, options */
	int nargs;           /* arguments given; a kernel's parameters past them take their defaults */
	Type **argtypes;     /* one per parameter (defaults' types after nargs); a parameter's Var may be wider */
	Const **argconsts;   /* NULL, or one per parameter: the constant it is specialised for (NULL: none) */
	Type *ret;           /* TY_NONE for kernels and for functions without return value */
	Var **vars;
	int nvars;
	NameMap var_index;   /* a variable's name to its index in vars */
	int is_kernel;
	int id;              /* index in Ctx.specs */
	int recursive;       /* calls itself (directly or mutually) */
	int state;           /* sema bookkeeping */
};

/* sema.c: resolves names and infers the types of the kernel and of every
 * device function it reaches.  Fills Expr.ty/cval, Var, call.spec/intrin. */
Spec *sema_kernel(Ctx *c, const PjFunc *kernel, int nargs, Type **argtypes);
/* resolve.c: turns a global name of a function into a Const via its
 * resolver (PjFunc.resolve), normalising module aliases. */
Const *sema_resolve_global(Ctx *c, const PjFunc *f, const char *name, Span sp);
const PjFunc *sema_resolve_member_overload(Ctx *c, const PjFunc *f, char kind, const char *name);
/* typesdump.c: the source of every specialisation with the type of each
 * variable, for dumps and inspect_types(). */
void sema_dump(FILE *out, Ctx *c);
/* sema_expr.c: Numba's type of `a op b` for a binary or comparison
 * operator (NULL if unsupported); *opty (may be NULL) gets the type both
 * operands convert to first (for ** with a float base and an integer
 * exponent, the base's; the exponent stays an integer).  Comparisons
 * give bool and compare in NumPy's common type (int64 vs uint64 in
 * float64); an augmented assignment computes in this type too. */
Type *sema_binop_type(Ctx *c, AstOp op, Type *a, Type *b, Type **opty);
/* sema_expr.c: what operand i of a typed `and`/`or` chain e is to its
 * value: BOOL_DROPPED, an operand of known truth that lets the chain go
 * on (a true constant before `and`, a false one before `or`: CPython
 * leaves it out of the bytecode, so Numba never types it; or a chain
 * such as (x or 3), true whatever x is, which still runs) or an operand
 * after one that ends the chain; BOOL_MAYBE, one that may be the value;
 * BOOL_LAST, the last one that may be: the chain's last operand or one
 * of known truth that ends it.  The chain's type is the common type of
 * those that may be. */
enum { BOOL_DROPPED, BOOL_MAYBE, BOOL_LAST };
int sema_boolop_operand(const Expr *e, int i);
/* sema_expr.c: does Numba decide typed condition cond before typing, and
 * so type only the branch it takes?  Yes for what it knows early: a
 * literal (or literals CPython folds), a name bound to a constant, an
 * array's ndim, a tuple's len(), comparisons of those, `not`, and/or of
 * such conditions.  No for any other, even one whose value is known
 * here (abs(-1) > 0, np.float32(1)): Numba types both branches. */
int sema_prunes(const Expr *cond);
int sema_known_early(const Expr *e);
/* sema_expr.c: is v a value (a number, None, str or tuple), not a module,
 * function or intrinsic?  const_truth: 1 with *truth set when v (may be
 * NULL) is a value whose truth Python knows, else 0. */
int const_is_value(const Const *v);
int const_truth(const Const *v, int *truth);
/* x rounded to the float kind sk (float16, float32; float64 unchanged). */
double sema_round_float(ScalarKind sk, double x);
/* sema_ret.c: the return type of a device function typed on its own for
 * argument types (pj_infer_return; the array-function layer). */
Type *sema_return_type(Ctx *c, const PjFunc *f, int nargs, Type **argtypes);
/* sema_ret.c: the specialisation of device function f for the argument
 * types (compile_ptx(device=True)); its declared signatures apply */
Spec *sema_device(Ctx *c, const PjFunc *f, int nargs, Type **argtypes);

/* ------------------------------------------------------------------ IR */

/* Value classes: what register a value lives in.  int8/int16 values live
 * in KW registers, sign- or zero-extended from their width; bools in KB. */
typedef enum { KX, KB, KW, KL, KS, KD, NK } Cls;
extern const char *const cls_name[NK];   /* "x", "b", "w", "l", "s", "d" */

/* Operand: kind + index. */
typedef enum { R_NONE, R_VAL, R_CON } RefKind;
typedef struct Ref {
	uint32_t kind : 2;
	uint32_t idx : 30;
} Ref;
#define REF_NONE ((Ref){R_NONE, 0})
#define REF_VAL(i) ((Ref){R_VAL, (uint32_t)(i)})
#define REF_CON(i) ((Ref){R_CON, (uint32_t)(i)})
static inline int ref_eq(Ref a, Ref b) { return a.kind == b.kind && a.idx == b.idx; }

/* Condition codes of OP_CMP (in Ins.aux). Float compares are ordered
 * except CC_NE, which is true when unordered (Python's !=). */
typedef enum { CC_EQ, CC_NE, CC_LT, CC_LE, CC_GT, CC_GE, CC_LTU, CC_LEU, CC_GTU, CC_GEU, NCC } CondCode;

/* Atomic operations (low byte of Ins.aux for OP_ATOM; the space is aux>>8). */
typedef enum {
	AT_ADD, AT_SUB, AT_AND, AT_OR, AT_XOR, AT_EXCH, AT_MIN, AT_MAX,
	AT_INC, AT_DEC, AT_CAS, AT_NANMIN, AT_NANMAX, NAT
} AtomOp;

/* Special registers (Ins.aux of OP_SREG). */
typedef enum {
	SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
	SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
	SR_LANEID, SR_WARPSIZE,
	SR_DYNSMEM,       /* %dynamic_smem_size: bytes of dynamic shared memory of the launch */
	NSR
} SReg;

/* Hardware approximations of O_APPROX (Ins.aux), float32: sin(x), cos(x),
 * 2^x, log2(x), 1/sqrt(x), 1/x, tanh(x), all flushing subnormals to zero;
 * and 2^x keeping subnormal arguments and results (AP_EX2S, CUDA's exp2f). */
typedef enum { AP_SIN, AP_COS, AP_EX2, AP_LG2, AP_RSQRT, AP_RCP, AP_TANH, AP_EX2S, NAP } ApproxFn;

/* Modes of a float32 O_FMA (Ins.aux, bits; 0 is round to nearest):
 * FMA_RM rounds toward minus infinity, FMA_SAT clamps the rounded result
 * to [0, 1] (NaN to +0), as PTX's fma.rm.f32 and fma.rn.sat.f32. */
enum { FMA_SAT = 1, FMA_RM = 2, FMA_MODES = 3 };
/* The value of a float32 fma with modes (FMA_*); the simulator and the
 * folder share it. */
float ir_fmaf_mode(float x, float y, float z, int mode);
/* The value of cvt from a float of kind `from` to integer kind sk:
 * truncated toward zero, saturated to sk's range, a NaN as
 * ir_float_nan_to_int says.  The 8-bit kinds saturate to
 * the 16-bit range and keep the low byte, as Numba's code does
 * (cvt.rzi.s16 or .u16, then a byte): 300.0 is 44 as uint8, 70000.0 is
 * 255.  Returned as an int64_t (a uint64 as its bits). */
int64_t ir_float_to_int(double v, ScalarKind from, ScalarKind sk);
/* What the GPU's cvt.rzi gives a NaN (measured on an H200): 2^63 for the
 * 64-bit kinds; from a float64 also 2^(bits - 1) for the 16- and 32-bit
 * kinds (0x8000, 0x80000000; the 8-bit kinds, through 16 bits, keep the
 * low byte: 0); 0 otherwise.  As ir_float_to_int returns it. */
int64_t ir_float_nan_to_int(ScalarKind from, ScalarKind sk);
/* The range ir_float_to_int saturates to, for the kinds below 64 bits. */
void ir_float_to_int_range(ScalarKind sk, double *lo, double *hi);
/* float16: its bits as a float, a double rounded (to nearest even, once) to
 * its bits, and a double rounded to the float16 it becomes. */
float ir_f16_to_f32(uint16_t h);
uint16_t ir_f64_to_f16(double x);
float ir_round_f16(double x);
/* bfloat16 likewise: a double rounded to nearest even, once (NaN to the
 * canonical NaN 0x7fff, as the GPU's cvt), the float it becomes, and an integer's
 * bits (signed or not) rounded once to the bfloat16 it becomes. */
uint16_t ir_f64_to_bf16(double x);
float ir_round_bf16(double x);
float ir_int_to_bf16(uint64_t bits, int is_signed);

/*
 * The opcode table.  Columns: name, number of operands, whether it defines
 * a value, whether it has an effect (kept by DCE, not moved), and whether
 * it can be folded when all operands are constants.
 *
 * Semantics (cls is the result class unless said otherwise; "ty" is
 * Ins.ty, a ScalarKind):
 *   add sub mul      integer (wrapping) or IEEE round-to-nearest by cls; the
 *                    results of add sub mul div rem neg not shl abs on 8/16-bit
 *                    kinds (ty) are re-extended from that width, and float16
 *                    results are rounded to float16
 *   div              float: IEEE division (div.rn); ints: truncating, signed
 *                    or unsigned by ty, division by zero gives 0 (defined so
 *                    the simulator and GPU agree; Python semantics are built
 *                    on top by lowering)
 *   rem              ints: truncated remainder (C %), signed/unsigned by ty,
 *                    x rem 0 = x
 *   neg not          neg: arithmetic negation; not: bitwise complement (KB: logical)
 *   and or xor       bitwise (KB: logical)
 *   shl shr          shift left; shr: arithmetic if ty signed, else logical;
 *                    shift counts >= width give 0 (or -1 for negative shr)
 *   min max          ints by ty's signedness; floats: IEEE minNum/maxNum
 *                    (NaN only if both are NaN)
 *   abs              ints: wrapping absolute value; floats: clear sign bit
 *   fma              a*b+c rounded once (floats only); float32 takes modes
 *                    in aux (FMA_RM, FMA_SAT; 0 for none)
 *   sqrt             IEEE square root (sqrt.rn); floor ceil trunc rint: rounding
 *   cmp              compare operands of class Ins.ty's class; result KB;
 *                    condition in aux (CC_*); ty gives int signedness
 *   sel              arg0 (KB) ? arg1 : arg2
 *   cvt              convert arg0 of scalar kind ty to the scalar kind in aux:
 *                    float->int truncates toward zero and saturates (PTX
 *                    cvt.rzi semantics, NaN as ir_float_nan_to_int; the 8-bit kinds through
 *                    16 bits, ir_float_to_int); int->int truncates/extends;
 *                    ->bool is != 0
 *   bits             reinterpret arg0's bits as class cls (same width)
 *   copy             arg0
 *   param            load kernel parameter: aux = byte offset, ty = scalar kind
 *                    (pointers are SK_U64)
 *   sreg             special register aux (SR_*), KW
 *   load             from address arg0 in space aux & 255 (SP_*), memory
 *                    kind ty; aux >> 8 is a cache operator (CO_*, global
 *                    space only: ld.global.cs ...), 0 for none
 *   store            arg1 (of kind ty) to address arg0 in space aux & 255,
 *                    with cache operator aux >> 8 as for load
 *   atom             atomic aux&255 (AT_*) at address arg0 in space aux>>8,
 *                    operand arg1 (and compare value arg2 for AT_CAS), of
 *                    kind ty; defines the old value
 *   addr             address of a static array: aux = index in Fn.arrays
 *   bar              bar.sync 0 (syncthreads); aux 1 (bar.grid): the barrier
 *                    of the whole grid of a cooperative launch (cuda.cg
 *                    grid_group.sync()), which implies membar.gl
 *   membar           aux: 0 cta, 1 gl, 2 sys
 *   check            bounds check (simulator and debug builds): arg0 index
 *                    (KL), arg1 extent (KL); fails unless 0 <= arg0 < arg1;
 *                    aux = index in Fn.checks
 *   trap             stop the kernel (failed assert/raise in debug): aux =
 *                    index in Fn.checks for the message
 *   popc clz brev    integers of class w or l: number of one bits, leading
 *                    zeros (clz 0 = the width), bits reversed; the result
 *                    has the operand's class
 *   shfl             warp shuffle (shfl.sync) of arg0 (w) among the lanes
 *                    of mask arg2 (w): aux = mode (0 idx, 1 up, 2 down,
 *                    3 bfly) | c << 8, c being PTX's clamp and segment
 *                    operand; arg1 (w) is the lane, delta or xor mask
 *   vote             vote.sync of predicate arg0 (b) over mask arg1 (w):
 *                    aux 0 all, 1 any, 2 uni (result b), 3 ballot (w)
 *   match            match.sync of arg0 (class of ty: w or l) over mask
 *                    arg1 (w): aux 0 any (the lanes holding this lane's
 *                    value), 1 all (the mask if every lane agrees, else 0)
 *   barred           bar.red over the block (barrier 0) of predicate arg0
 *                    (b): aux 0 popc (number of true), 1 and, 2 or (1/0); w
 *   syncwarp         bar.warp.sync with mask arg0 (w)
 *   activemask       the lanes of the warp executing it together (w)
 *   nanosleep        suspend the thread for about arg0 (w) nanoseconds
 *   shfl, vote, match, barred, syncwarp and activemask are meeting points
 *   of several threads: they have an effect, so they are never removed,
 *   moved or merged.
 *   farg             argument component aux (0, 1, ...) of the device
 *                    function being defined (Fn.is_func), of kind ty
 *   carg             arg0 is argument component aux of the callf after it
 *   callf            call device function aux (index in Fn.mod->funcs);
 *                    one carg per argument component comes right before it
 *                    and one cres per result component right after it, in
 *                    order and in the same block (lower_call.c)
 *   cres             result component aux of the callf just before, kind ty
 *   retv             arg0 is result component aux of the function; the
 *                    retvs come just before its ret
 *   print            printf of format aux (Fn.fmts) with the arguments in
 *                    the local-space buffer at arg0 (KL): 8 bytes for each
 *                    conversion, %lld %llu %f, and %s for a bool stored as
 *                    0/1 that prints True or False (vprintf on the GPU)
 *   approx           fastmath only: the GPU's approximation (aux AP_*) of
 *                    the float32 function of arg0, with subnormals flushed
 *                    (sin.approx.ftz.f32 ...); the simulator and the CPU
 *                    target compute the function itself, so they agree
 *                    with the GPU only to the approximation's error
 */
#define OPCODES(X) \
	X(NOP_,   0, 0, 0, 0) \
	X(ADD,    2, 1, 0, 1) X(SUB, 2, 1, 0, 1) X(MUL, 2, 1, 0, 1) \
	X(DIV,    2, 1, 0, 1) X(REM, 2, 1, 0, 1) \
	X(NEG,    1, 1, 0, 1) X(NOT, 1, 1, 0, 1) \
	X(AND,    2, 1, 0, 1) X(OR,  2, 1, 0, 1) X(XOR, 2, 1, 0, 1) \
	X(SHL,    2, 1, 0, 1) X(SHR, 2, 1, 0, 1) \
	X(MIN,    2, 1, 0, 1) X(MAX, 2, 1, 0, 1) X(ABS, 1, 1, 0, 1) \
	X(FMA,    3, 1, 0, 1) X(SQRT, 1, 1, 0, 1) \
	X(FLOOR,  1, 1, 0, 1) X(CEIL, 1, 1, 0, 1) X(TRUNC, 1, 1, 0, 1) X(RINT, 1, 1, 0, 1) \
	X(CMP,    2, 1, 0, 1) X(SEL, 3, 1, 0, 1) X(CVT, 1, 1, 0, 1) X(BITS, 1, 1, 0, 1) \
	X(COPY,   1, 1, 0, 1) \
	X(PARAM,  0, 1, 0, 0) X(SREG, 0, 1, 0, 0) \
	X(LOAD,   1, 1, 0, 0) X(STORE, 2, 0, 1, 0) X(ATOM, 3, 1, 1, 0) \
	X(ADDR,   0, 1, 0, 0) \
	X(BAR,    0, 0, 1, 0) X(MEMBAR, 0, 0, 1, 0) \
	X(CHECK,  2, 0, 1, 0) X(TRAP, 0, 0, 1, 0) \
	/* CPU target only (src/cgen): alloc: heap memory of arg0 bytes (KL), \
	 * owned by the call from Python, aux 1 = zeroed */ \
	X(ALLOC,  1, 1, 1, 0) \
	X(POPC,   1, 1, 0, 1) X(CLZ, 1, 1, 0, 1) X(BREV, 1, 1, 0, 1) \
	X(SHFL,   3, 1, 1, 0) X(VOTE, 2, 1, 1, 0) X(MATCH, 2, 1, 1, 0) \
	X(BARRED, 1, 1, 1, 0) X(SYNCWARP, 1, 0, 1, 0) X(ACTIVEMASK, 0, 1, 1, 0) \
	X(NANOSLEEP, 1, 0, 1, 0) \
	X(FARG,   0, 1, 0, 0) X(CARG, 1, 0, 1, 0) X(CALLF, 0, 0, 1, 0) X(CRES, 0, 1, 1, 0) \
	X(RETV,   1, 0, 1, 0) X(PRINT, 1, 0, 1, 0) \
	X(APPROX, 1, 1, 0, 0)

typedef enum {
#define X(name, nargs, def, eff, fold) O_##name,
	OPCODES(X)
#undef X
	NOPS
} Opcode;

typedef struct OpInfo {
	const char *name;
	int nargs, def, effect, fold;
} OpInfo;
extern const OpInfo op_info[NOPS];

struct Ins {
	uint16_t op;      /* Opcode */
	uint8_t cls;      /* class of the defined value; for store/check: of arg1 */
	uint8_t ty;       /* ScalarKind: memory kind, source kind, signedness */
	int32_t to;       /* value defined, or -1 */
	Ref arg[3];
	int32_t aux;
	int32_t loc;      /* index in Fn.locs, or -1 */
};

struct Phi {
	int32_t to;
	uint8_t cls;
	int n;            /* one argument per predecessor, in Blk.pred order */
	Ref *arg;
};

typedef enum { J_NONE, J_RET, J_JMP, J_JNZ } JumpKind;

struct Blk {
	int id;           /* index in Fn.blk */
	Phi *phi;
	int nphi, capphi;
	Ins *ins;
	int nins, capins;
	JumpKind jmp;
	Ref cond;         /* J_JNZ: KB value */
	int s1, s2;       /* J_JMP: s1; J_JNZ: s1 if cond else s2 */
	int *pred;
	int npred, cappred;
	int loop_depth;   /* filled by analyses */
	int unrolled;     /* the header of a loop the run-time unroller made or left behind
	                     (its four-body loop, or the loop for the rest): not unrolled again;
	                     2 (UNROLL_AGAIN, unroll.c): left behind an eight-body loop, by four once */
};

typedef struct Con {
	uint8_t cls;
	union { int64_t i; double d; float s; };
} Con;

typedef struct Val {
	uint8_t cls;
	int32_t blk;      /* defining block (or -1 for none) */
	const char *name; /* source variable name for dumps, may be NULL */
} Val;

/* One flattened kernel parameter (see the kernel ABI in DESIGN.md). */
typedef struct KParam {
	uint8_t ty;       /* scalar kind (SK_U64 for pointers) */
	int32_t off;      /* byte offset in the parameter buffer */
	int arg;          /* which argument it comes from (tuples flattened: lower_param_leaves) */
	int role;         /* KP_DATA, KP_SHAPE, KP_STRIDE, KP_SCALAR, KP_REAL, KP_IMAG */
	int dim;          /* KP_SHAPE/KP_STRIDE: the axis */
} KParam;
enum { KP_DATA, KP_SHAPE, KP_STRIDE, KP_SCALAR, KP_REAL, KP_IMAG };

/* A static array: shared, local or constant memory. */
typedef struct SArray {
	int space;        /* SP_SHARED, SP_LOCAL, SP_CONST */
	int64_t size;     /* bytes; 0 with dynamic = the dynamic shared array */
	int align;
	int dynamic;
	const void *init; /* SP_CONST: the bytes */
	const char *name;
	int global;       /* SP_CONST: in the GPU's global memory instead (a
	                   * table read at thread-dependent indices, which the
	                   * constant cache would serialise); its loads are
	                   * SP_GLOBAL */
} SArray;

/* A global device array's memory: lo is the address of its lowest byte. */
typedef struct DevMem {
	uint64_t lo, len;
	const char *name;
} DevMem;

/* What a bounds check (or trap) reports when it fails. */
typedef struct CheckInfo {
	const char *array;   /* the array's name in the source */
	int ptr_size;        /* a pointer's check (lower_pointer.c): the element size; the check's
	                        index is a byte offset into the allocation, its extent the number
	                        of byte offsets at which an element starts inside it */
	int axis, ndim;
	Ref ext[8];          /* the array's extents, to print its shape */
	int32_t loc;
	const char *msg;     /* trap: "AssertionError: ..." */
} CheckInfo;

struct Fn {
	const char *name;    /* PTX entry name */
	int this_grid;       /* calls cuda.cg.this_grid(): launched cooperatively, as Numba does */
	Ctx *ctx;
	Blk **blk;           /* blk[0] is the entry */
	int nblk, capblk;
	Val *val;
	int nval, capval;
	Con *con;
	int ncon, capcon;
	KParam *param;
	int nparam, capparam;
	int param_bytes;     /* size of the parameter buffer */
	SArray *arrays;
	int narrays, caparrays;
	CheckInfo *checks;
	int nchecks, capchecks;
	Loc *locs;
	int nlocs, caplocs;
	int cur_loc;         /* builder: loc given to new instructions */
	int def_loc;         /* the loc of the function's def line (-1: none): lineinfo's .loc at its start */
	int checked;         /* built with bounds checks (simulator / debug) */
	/* device functions called, not inlined (recursion; lower_call.c): the
	 * kernel's Fn (every Fn's mod) lists them in funcs; a function's Fn
	 * has is_func and the classes of its argument and result components */
	struct Fn *mod;
	struct Fn **funcs;
	int nfuncs, capfuncs;
	int is_func;
	/* an external function (cuda.declare_device): no body; name is its
	 * symbol, abi_c its ABI (PjFunc.abi_c); ptx/call.c declares it .extern */
	int external, abi_c;
	int ext_retsk;       /* external: the scalar kind of the declared result */
	int visible_abi;     /* compile_ptx(device=True): the module is this function, a
	                        .visible .func in ABI PJ_ABI_NUMBA or PJ_ABI_C (ptx/call.c) */
	int nfargs, nfrets;
	uint8_t *fargcls, *fretcls;
	uint8_t *fargsk;     /* visible and external: each argument component's scalar kind
	                        (NSK: not a scalar), for the ABI's float16 (.b16) */
	const char **fmts;   /* print formats (O_PRINT) */
	int nfmts, capfmts;
	/* global device arrays used by their address (the kernel's Fn; the
	 * simulator's guard admits their bytes, and no disk cache keeps them) */
	DevMem *devmem;
	int ndevmem, capdevmem;
	/* nc[v] set: the global load defining value v reads memory nothing
	 * writes while the kernel runs (ld.global.nc; opt/nc.c, among the last passes) */
	uint8_t *nc;
	int nnc;
};
/* Is i a global load through the non-coherent (read-only) cache? */
static inline int ir_load_nc(const Fn *f, const Ins *i)
{
	return i->op == O_LOAD && i->aux == SP_GLOBAL && f->nc && i->to >= 0 && i->to < f->nnc && f->nc[i->to];
}
/* The cache operators of a global load or store (cuda.ldcs, cuda.stwt ...),
 * PTX's names: CO_CA..CO_CV for loads, CO_CG, CO_CS, CO_WB, CO_WT for
 * stores.  A load or store keeps its operator through the passes (none
 * makes a register of it: promote.c and nc.c take only aux == space);
 * the simulator and the C back end ignore it. */
enum { CO_NONE, CO_CA, CO_CG, CO_CS, CO_LU, CO_CV, CO_WB, CO_WT, NCO };
extern const char *const ir_cache_op_name[NCO];   /* NULL, "ca", "cg", ... */
static inline int ir_mem_space(const Ins *i) { return i->aux & 255; }
static inline int ir_cache_op(const Ins *i) { return i->aux >> 8; }
/* Is cache operator co one a load (is_store 0) or a store can have? */
static inline int ir_cache_op_ok(int co, int is_store)
{
	return is_store ? co == CO_CG || co == CO_CS || co == CO_WB || co == CO_WT : co >= CO_CA && co <= CO_CV;
}

/* ir.c: building and querying */
/* The conversions of a print format (O_PRINT's f->fmts; "%%" is none):
 * their number, and is_s[k] (k < max; is_s may be NULL) whether the k-th
 * is %s. */
int ir_fmt_conversions(const char *fmt, int *is_s, int max);
/* Does f, or a function it calls for real (Fn.funcs), wait at the grid's
 * barrier (bar.grid), or, when or_this_grid, call cuda.cg.this_grid()?
 * A kernel that does either has a cooperative launch. */
int ir_grid_sync(const Fn *f, int or_this_grid);
Fn *ir_new_fn(Ctx *c, const char *name);
Blk *ir_new_blk(Fn *f);
int ir_new_val(Fn *f, Cls k, const char *name);
Ref ir_con_int(Fn *f, Cls k, int64_t v);
Ref ir_con_f32(Fn *f, float v);
Ref ir_con_f64(Fn *f, double v);
Ref ir_con_bool(Fn *f, int v);
Cls ir_cls_of(Fn *f, Ref r);
Cls ir_cls_of_sk(ScalarKind sk);   /* SK_F32 -> KS, SK_I64 -> KL, SK_I8 -> KW, SK_BOOL -> KB */
/* Appends an instruction to b; returns the defined value (REF_NONE if none). */
Ref ir_ins(Fn *f, Blk *b, Opcode op, Cls k, ScalarKind ty, Ref a0, Ref a1, Ref a2, int32_t aux);
Phi *ir_add_phi(Fn *f, Blk *b, Cls k, int nargs);
void ir_add_pred(Fn *f, Blk *b, int pred);
void ir_jmp(Blk *b, int s);
void ir_jnz(Blk *b, Ref cond, int s1, int s2);
void ir_ret(Blk *b);
int ir_add_loc(Fn *f, Span sp);
void ir_fill_preds(Fn *f);        /* recomputes Blk.pred from the jumps */
void ir_fill_rpo(Fn *f);          /* renumbers blocks in reverse post-order, drops unreachable ones */
/* Operand queries shared by the printer, parser, verifier and passes. */
int ir_nargs(const Ins *i);       /* operands in use (op_info's count; atom: 3 only for AT_CAS) */
Cls ir_arg_cls(const Ins *i, int n); /* the class operand n has (shift counts may also be KW), KX if none */

/* print.c */
void ir_print(FILE *out, const Fn *f);
/* irparse.c: the text form back into an Fn (for tests of the back ends) */
Fn *ir_parse(Ctx *c, const char *text);

/* verify.c: checks SSA form, classes, operand counts, CFG consistency;
 * an ICE on violation.  Runs after every pass in debug builds. */
void ir_verify(Fn *f, const char *after_pass);

/* lower.c: typed AST of the kernel (and inlined device functions) to IR */
Fn *lower_kernel(Ctx *c, Spec *kernel, int checked);
/* lower_call.c: a device function as the module itself (Fn.visible_abi) */
Fn *lower_device(Ctx *c, Spec *fn, int checked, const char *name, int abi);
/* lower_cpu.c: the CPU target (PjOptions.target_cpu).  The function's
 * parameter buffer ends with the address of its out buffer (a KParam of
 * role KP_RET), where its return value is stored as PjRet says
 * (lower_cpu_rets); recursive callees are Fn.funcs, as for kernels. */
enum { KP_RET = KP_IMAG + 1 };
/* The simulator's program only: a pointer argument's address is a
 * KP_SCALAR (SK_U64) followed by the first byte (KP_PBASE, SK_U64) and
 * the length in bytes (KP_PBYTES, SK_I64) of the device allocation it
 * points into, which the launch finds; its accesses are checked against
 * them (lower_pointer.c) and the guard admits those bytes. */
enum { KP_PBASE = KP_RET + 1, KP_PBYTES = KP_RET + 2 };
Fn *lower_cpu(Ctx *c, Spec *fn, int checked);
/* The return layout of a CPU function's type (PjKernel.rets). */
int lower_cpu_rets(Ctx *c, Type *ret, PjRet **out, int *bytes);

/* Passes, one file each in src/opt/.  The pipeline order lives in compile.c. */
void opt_fold(Fn *f);      /* fold.c: constant folding and algebraic identities */
void opt_copy(Fn *f);      /* copy.c: copy propagation (copies, trivial phis) */
void opt_dce(Fn *f);       /* dce.c: dead instructions and phis, unreachable blocks */
void opt_split_edges(Fn *f); /* edges.c: split critical edges (before phi resolution) */
void opt_cse(Fn *f);       /* cse.c: common subexpressions within dominance (not loads) */
void opt_reload(Fn *f);    /* reload.c: loads of what the thread already read or wrote, reused */
void opt_range(Fn *f);     /* range.c: value ranges decide comparisons, drop index wraps */
void opt_narrow(Fn *f);    /* range.c: loop counters proven to fit held in 32 bits */
void opt_unroll(Fn *f);    /* unroll.c: loops of a constant trip count, unrolled */
void opt_unroll_stride(Fn *f);   /* unroll.c: loops stepped by other than 1 (after narrow) */
void opt_promote(Fn *f);   /* promote.c: memory a loop owns held in registers (after licm) */
void opt_licm(Fn *f);      /* licm.c: loop-invariant code to the preheader */
void opt_sr(Fn *f);        /* sr.c: strength reduction of affine index arithmetic */
void opt_nc(Fn *f);        /* nc.c: loads of arrays the kernel never writes marked ld.global.nc */
void opt_sched(Fn *f);     /* sched.c: special registers, then loads, first in each block */
void opt_addr(Fn *f);      /* addr.c: constant displacements out of addresses, 32-bit offsets */
void opt_merge_cond(Fn *f); /* cond.c: `a and b` / `a or b` branches as one predicate */
/* ir/argfx.c: bit i set when the kernel may read (write) array argument i
 * in global memory (atomics do both); arguments from 63 on share bit 63. */
void ir_arg_effects(Fn *f, uint64_t *read, uint64_t *written);
/* ir/regs.c: the 32-bit registers a thread needs, estimated from the
 * largest set of values live at once (the kernel or a callee), in [1, 255] */
int ir_reg_estimate(Fn *f);

/* ----------------------------------------------------------- back ends */

/* ptx/emit.c: PTX text for the kernel; returns the text (arena). */
char *ptx_emit(Ctx *c, Fn *f, int arch, int ptx_version);
/* ptx/call.c: bytes of .const data in f's module (constant arrays, print's strings) */
int64_t ptx_const_bytes(const Fn *f);
/* ptx/version.c: the .version for a driver version and arch */
int ptx_version_for(int driver_version, int arch, int variant);
/* cgen/emit_c.c: C99 text of a CPU function and the functions it calls
 * (f->funcs): the exported entry is
 * `int <f->name>(const unsigned char *params, PjCpuCtx *ctx)`. */
char *cgen_emit(Ctx *c, Fn *f);

/* sim/: the IR interpreter.  sim_prepare turns an Fn into a compact
 * program that owns its memory (heap, freed by sim_free_program). */
typedef struct SimProgram SimProgram;
SimProgram *sim_prepare(Ctx *c, Fn *f);
void sim_free_program(SimProgram *p);

#endif

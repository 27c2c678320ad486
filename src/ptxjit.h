/*
 * ptxjit.h - the public C API of the ptxjit compiler library.
 *
 * A caller (the CPython glue in src/py, or the ptxjitc command in src/cli)
 * hands over the source of a kernel written in Numba's CUDA dialect, a
 * resolver for the names the source uses but does not define (globals,
 * closure variables, other device functions), and the argument types as a
 * Numba signature string.  It gets back PTX text, the layout of the kernel's
 * parameter buffer, and (for the simulator) an interpretable program.
 *
 * Nothing here needs Python, the CUDA toolkit or NumPy.
 */
#ifndef PTXJIT_H
#define PTXJIT_H

#include <stddef.h>
#include <stdint.h>

#define PJ_VERSION "0.1.0"

typedef struct PjArena PjArena;   /* the compile request's arena */
typedef struct PjFunc PjFunc;
typedef struct SimProgram SimProgram;

/* Kinds of compile-time values a resolver can return. */
enum {
	PJ_V_UNKNOWN,   /* exists but cannot be used in a kernel: s says its Python type */
	PJ_V_NONE, PJ_V_INT, PJ_V_FLOAT, PJ_V_BOOL, PJ_V_COMPLEX, PJ_V_STR,
	PJ_V_TUPLE,     /* n, elts */
	PJ_V_MODULE,    /* s: "math", "numpy", "cuda", "numba", "cmath" */
	PJ_V_INTRIN,    /* s: qualified name, "math.sqrt", "numpy.float32", "cuda.grid";
	                   func: an overload of it (PjFunc.choose), or NULL */
	PJ_V_DTYPE,     /* s: dtype name, "float32" (np.dtype objects, numba types) */
	PJ_V_FUNC,      /* func: another jitted (device) function, or an overloaded one */
	PJ_V_EXC,       /* s: exception class name, "ValueError" */
	PJ_V_ARRAY,     /* a constant host array: data, sk (dtype name in s), ndim, shape */
	PJ_V_DEVARRAY,  /* a device array, captured by address: i the address, s the dtype name,
	                   ndim, shape, strides (bytes), readonly */
	PJ_V_NAMESPACE  /* an object whose members kernels read as constants (an Enum class):
	                   s its name; the resolver answers "s.attr" and "s[key]" */
};

typedef struct PjValue {
	int kind;
	int64_t i;
	double f, im;
	const char *s;
	int n;
	struct PjValue *elts;
	const PjFunc *func;
	const void *data;
	int ndim;
	int64_t shape[8];
	int64_t strides[8];     /* DEVARRAY */
	int readonly;           /* DEVARRAY */
} PjValue;

/* A function's source and how to resolve its free names.  The resolver
 * returns 1 and fills *out when the name is defined in the function's
 * globals or closure, 0 when it is not; it allocates what it returns
 * (strings, tuple elements, PjFuncs) with pj_alloc(arena, n).  The
 * compiler also asks it for ".m.NAME" and ".a.NAME" (names no Python
 * code can spell): the overloaded function that implements method or
 * attribute NAME of a value, called with the value first, and for
 * ".q.MODULE.NAME": an overload of a module's function that kernels do
 * not have ("numpy.clip"); 0: none.  A PJ_V_INTRIN value may carry such
 * an overload in func, used when the compiler does not know the
 * intrinsic. */
struct PjFunc {
	const char *name;
	const char *source;     /* the function's text, dedented */
	const char *file;       /* the file it came from, for messages */
	int first_line;         /* line number of source's first line in file */
	int col_shift;          /* columns removed by dedenting; PJ_REBUILT: the text was
	                           rebuilt from the function's bytecode (no source file) */
	int (*resolve)(void *data, const char *name, PjValue *out, PjArena *arena);
	void *data;
	const char *const *sigs;  /* the declared signatures of a device function, in the
	                             order given (nsigs of them; none: typed by its arguments) */
	int nsigs;
	int inline_always;
	int is_device;
	/* An overloaded function (numba.cuda.extending's @overload, and the
	 * methods and attributes it adds to types): source is NULL, and
	 * choose returns the implementation, a device function, for a call
	 * with these argument types, in Numba's spelling ("int64, array(float32,
	 * 1d, C), z=float64": positional, then keyword=type), or NULL with
	 * *why saying why none fits. */
	const PjFunc *(*choose)(const PjFunc *self, const char *args, PjArena *arena, const char **why);
	/* cuda.declare_device: a function defined outside (linked PTX or
	 * CUDA C), called by this symbol; source is NULL and sigs[0] its one
	 * signature.  abi_c: the C ABI (the result returned), else Numba's
	 * (an int status returned, the result stored through a pointer first
	 * argument).  cooperative: declared with use_cooperative=True, so a
	 * kernel that calls it is launched cooperatively (as one that calls
	 * cuda.cg.this_grid()). */
	const char *external;
	int abi_c;
	int cooperative;
};

enum { PJ_REBUILT = -1 };

void *pj_alloc(PjArena *a, size_t n);

typedef struct PjOptions {
	int arch;               /* compute capability as 75, 80, 86, 89, 90, 100, 120 */
	int arch_variant;       /* 'a' (.target sm_90a: the architecture's own features), 'f' (sm_100f: its
	                           family's), 0 the plain target */
	int driver_version;     /* cuDriverGetVersion() form: 12080 for 12.8 (0: newest known) */
	int fastmath;
	int debug;              /* checks and traps on the GPU as well */
	int lineinfo;
	int sim;                /* also build the simulator program, with bounds checks */
	int opt_level;          /* 0: no IR passes; 1 (default) */
	/* What the launch found out about the arguments (a variant of the
	 * kernel for them; 0 claims nothing): small_extents, every extent of
	 * every array argument is below 2^31 and every array argument spans
	 * fewer than 2^31 - 2^20 bytes; noalias, no two array arguments
	 * share memory (a read-only one may be read through the non-coherent
	 * cache, ld.global.nc).  small_grid: in each dimension the launch's
	 * gridDim times blockDim is below 2^31, so ctaid * ntid + tid (and
	 * nctaid * ntid) of a dimension lies in [0, 2^31). */
	int small_extents;
	int noalias;
	int small_grid;
	const char *dump;       /* "ast,types,ir,opt,ptx" or NULL (also PTXJIT_DUMP) */
	/* The CPU target (@njit, src/cgen): the function may return a value
	 * and allocate arrays; PjKernel.csrc is its C text.  boundscheck:
	 * lower with index checks (IndexError at the Python line). */
	int target_cpu;
	int boundscheck;
	/* The CPU target: error_model='numpy', division by zero gives NumPy's
	 * values (inf, nan, 0) instead of raising ZeroDivisionError. */
	int error_model_numpy;
	/* launch_bounds=(maxntid, minnctapersm, maxclusterrank): PTX's
	 * .maxntid, .minnctapersm and .maxclusterrank of the entry (0: none) */
	int maxntid, minnctapersm, maxclusterrank;
	/* compile_ptx(device=True): the function becomes a .visible .func in
	 * Numba's ABI (PJ_ABI_NUMBA: (.param .b32 func_retval0) NAME(.param
	 * .b64 result pointer, arguments...), the result stored through the
	 * pointer and 0 returned) or the C ABI (PJ_ABI_C: the result in
	 * func_retval0), named abi_name (NULL: the function's name); numbers
	 * in and out only.  0: a kernel. */
	int device_abi;
	const char *abi_name;
} PjOptions;

enum { PJ_ABI_KERNEL = 0, PJ_ABI_NUMBA = 1, PJ_ABI_C = 2 };

enum { PJ_OK = 0, PJ_ERR_USER = 1, PJ_ERR_INTERNAL = 2 };
/* The Python exception of a PJ_ERR_USER: TypingError, or one that is also
 * the TypeError or ValueError Numba raises there (KernelTypeError,
 * KernelValueError) */
enum { PJ_EXC_TYPING = 0, PJ_EXC_TYPE = 1, PJ_EXC_VALUE = 2 };

typedef struct PjError {
	int kind;               /* PJ_ERR_USER or PJ_ERR_INTERNAL */
	int py_exc;             /* PJ_ERR_USER: PJ_EXC_* */
	char msg[2048];         /* the whole message, with source line and caret */
	char file[256];
	int line, col;
} PjError;

/* One entry of the parameter buffer: how to fill it from the arguments. */
typedef struct PjParam {
	int ty;                 /* scalar kind (see core.h ScalarKind) */
	int off;                /* byte offset in the buffer */
	int arg;                /* the argument: Python arguments in order, a tuple counting one per
	                           number or array it holds (nested ones too), None none */
	int role;               /* 0 data pointer, 1 extent, 2 byte stride, 3 scalar, 4 real part, 5 imaginary part,
	                           6 (CPU functions) the address of the out buffer */
	int dim;                /* the axis for extents and strides */
} PjParam;

typedef struct PjKernel {
	char *ptx;              /* NUL-terminated PTX text (NULL if not built) */
	size_t ptx_len;
	char entry[256];        /* the .entry name */
	int nparams;
	PjParam *params;
	int param_bytes;
	int64_t static_smem;    /* bytes of static shared memory */
	/* What the simulator answers for the driver's function attributes
	 * (docs/simulator.md): bytes of .const data (constant arrays and
	 * print's strings), bytes of .local arrays a thread (the kernel's and
	 * its callees'), an estimate of the 32-bit registers a thread needs
	 * (ir/regs.c), and the most threads a block may have (launch_bounds'
	 * maxntid, else the device limit of 1024). */
	int64_t const_bytes;
	int64_t local_bytes;
	int regs_estimate;
	int max_threads;
	int dynamic_smem;       /* uses cuda.shared.array(0, ...) */
	int cooperative;        /* waits at the grid's barrier (cuda.cg grid_group.sync()):
	                           launched cooperatively, every block resident at once */
	int devmem;             /* uses global device arrays by their address (no disk cache) */
	uint64_t read_args;     /* bit i: the kernel may load from array argument i */
	uint64_t written_args;  /* bit i: it may store or do atomics into it (or a view);
	                           arguments from 63 on share bit 63 */
	char *types;            /* the typed source listing (inspect_types) */
	char *ir;               /* the optimised IR text */
	SimProgram *sim;        /* simulator program, when PjOptions.sim */
	double compile_us;      /* time spent in pj_compile */
	/* CPU target only (PjOptions.target_cpu): */
	char *csrc;             /* C99 text defining `int <entry>(const unsigned char *params, PjCpuCtx *ctx)` */
	int nrets;              /* the return value, pre-order (a tuple entry precedes its elements) */
	struct PjRet *rets;
	int ret_bytes;          /* size of the out buffer, whose address is the KP_RET parameter */
	/* A trap with a message (under debug=True a failing assert or a raise;
	 * in every build a range() whose step is zero at run time) stores its
	 * code (1..ntraps) and the thread's threadIdx and blockIdx in the
	 * module's __pj_err word (PJ_TRAP_WORDS x u32) and ends the thread; traps[code - 1]
	 * says what to raise.  0 when the kernel has none: the launch then
	 * needs no wait. */
	int ntraps;
	struct PjTrap *traps;
	/* the external functions (PjFunc.external) the kernel calls, by symbol:
	 * the glue links their code in before loading it */
	int nexterns;
	char **externs;
} PjKernel;

/* A trap of a debug kernel.  msg: "ValueError: text", "AssertionError"
 * (exception class, then its message); NULL for a code that is no trap. */
typedef struct PjTrap {
	char *msg;
	char *file;
	int line;
	int axis;               /* a bounds check of debug=True: 1 + the axis, msg "IndexError: ARRAY";
	                           words 8-9 and 10-11 hold the index and the extent (0: a trap) */
} PjTrap;
/* The error word: code, threadIdx, blockIdx, pad, index (u64), extent (u64). */
#define PJ_TRAP_WORDS 12

/* One node of a CPU function's return type.  kind: PJ_RET_NONE,
 * PJ_RET_SCALAR (ty at off; complex: real then imaginary part),
 * PJ_RET_ARRAY (data pointer at off, then ndim extents, then ndim byte
 * strides, 8 bytes each), PJ_RET_TUPLE (n elements follow). */
enum { PJ_RET_NONE, PJ_RET_SCALAR, PJ_RET_ARRAY, PJ_RET_TUPLE };
typedef struct PjRet {
	int kind;
	int ty;                 /* scalar kind (element kind of an array) */
	int ndim;
	int n;
	int off;
} PjRet;

/* Compiles `kernel` for the argument types in `argsig` ("float32[::1],
 * int64" or a full "void(...)" signature).  Returns 0 and *out on success,
 * or a PjError kind with *err filled.  Thread-safe: no shared state. */
int pj_compile(const PjFunc *kernel, const char *argsig, const PjOptions *opt,
               PjKernel **out, PjError *err);
void pj_kernel_free(PjKernel *k);

/* Types the device function `f` for the argument types in `argsig` and
 * writes its return type into out: a scalar type name ("float32"), a
 * tuple of them as "(float32, int64)", "none" without a return value, or
 * another type in the words of inspect_types().  Returns 0, or a PjError
 * kind with *err filled (an error in f names its line). */
int pj_infer_return(const PjFunc *f, const char *argsig, char *out, size_t outsz, PjError *err);

/* The NFKC normal form of the code points in[0..n-1], as Python's tokenizer
 * makes an identifier's (src/front/nfkc.c), into out, which has room for
 * PJ_NFKC_GROWTH * n code points (in and out may not overlap); returns how
 * many it wrote.  pj_nfkc_unicode_version() names the Unicode version of
 * its tables ("14.0.0"). */
enum { PJ_NFKC_GROWTH = 18 };
int pj_nfkc(const uint32_t *in, int n, uint32_t *out);
const char *pj_nfkc_unicode_version(void);

/* Which of the declared signatures sigs[0..nsigs-1] suit arguments of the
 * types in argsig best, in Numba's ranking (src/sema/overload.c): their
 * indices in best (room for nsigs), the first declared first, and their
 * number in *nbest (0: none takes these arguments; several: a tie).
 * Returns 0, or a PjError kind (a signature that does not parse). */
int pj_pick_signature(const char *argsig, const char *const *sigs, int nsigs, int *best, int *nbest,
                      PjError *err);

/* The simulator: runs the kernel's program on the CPU.  `params` is the
 * parameter buffer laid out as k->params says, with host pointers for the
 * arrays.  check: bit 1 uninitialised shared reads, bit 2 shared races. */
enum { PJ_SIM_UNINIT = 1, PJ_SIM_RACE = 2 };
enum { PJ_SIM_OK = 0, PJ_SIM_INDEX = 1, PJ_SIM_DEADLOCK = 2, PJ_SIM_TRAP = 3,
       PJ_SIM_UNINIT_READ = 4, PJ_SIM_RACE_FOUND = 5, PJ_SIM_BAD = 6, PJ_SIM_STOPPED = 7 };
/* Stopping runs from outside (Ctrl-C): while pj_sim_stop(1) holds, every
 * pj_sim_launch and pj_sim_cpu_call in every thread, running or starting,
 * returns PJ_SIM_STOPPED within a few thousand loop turns; pj_sim_stop(0)
 * lifts it.  Async-signal-safe: a SIGINT handler may call it. */
void pj_sim_stop(int on);
/* 1 when gridDim * blockDim is below 2^31 in every dimension: a launch
 * of that configuration may run the PjOptions.small_grid variant. */
int pj_grid_small(const unsigned grid[3], const unsigned block[3]);
/* float16: the bits of the float16 nearest a double (rounded once, to
 * even on a tie), and the value of float16 bits. */
uint16_t pj_half_from_double(double x);
double pj_half_to_double(uint16_t h);
int pj_sim_launch(const PjKernel *k, const unsigned grid[3], const unsigned block[3],
                  unsigned dyn_smem, const void *params, int check, PjError *err);

#endif

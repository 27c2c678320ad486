/*
 * ptxjitc.c - the command-line compiler: a kernel in a .py file to PTX.
 *
 *   ptxjitc FILE.py --kernel NAME --sig "void(float32[::1], float32)"
 *           [--arch sm_90] [--driver 12080] [--dump ast,types,ir,opt,ptx]
 *           [--sim] [--debug] [--fastmath] [--lineinfo] [-O0] [-o out.ptx]
 *           [--small-extents] [--noalias] [--small-grid] [--time N]
 *
 * No Python runs: the file is parsed (parse_module) and the names the
 * kernel uses but does not define are answered from the file itself.
 * Imports give modules and their members, module-level assignments give
 * the constants consts.c can evaluate, and the other defs of the file give
 * device functions.  Names the file does not bind are left to sema, which
 * knows the builtins.
 *
 * The kernel's PjFunc holds the whole file text, so every position in a
 * message is the real line and column of the file.  The resolver and the
 * evaluation of module-level names are in consts.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum { EXIT_USER = 1, EXIT_INTERNAL = 2, EXIT_USAGE = 3 };

static const char usage[] =
	"usage: ptxjitc FILE.py --kernel NAME --sig SIGNATURE [options]\n"
	"\n"
	"Compiles the @cuda.jit kernel NAME of FILE.py for the argument types of\n"
	"SIGNATURE (Numba's spelling: \"void(float32[::1], float32[::1], int64)\") and\n"
	"prints its PTX.  Python is not needed: imports, module-level constants and\n"
	"the other functions of the file are read from the file itself.\n"
	"\n"
	"options:\n"
	"  -k, --kernel NAME   the function to compile (default: the only def of the file)\n"
	"  -s, --sig SIG       the argument types, \"void(...)\" or a bare list \"float32[:], int64\"\n"
	"                      (default: the signature string of the kernel's @cuda.jit(\"...\"))\n"
	"  (the kernel's @cuda.jit(fastmath=True, debug=True, lineinfo=True, opt=False) turns on\n"
	"  --fastmath, --debug, --lineinfo and -O0 as well)\n"
	"  --arch sm_XY        target compute capability (default sm_90): sm_75, 80, 86, 89, 90, 100, 120\n"
	"  --driver N          CUDA driver version as cuDriverGetVersion() reports it (12080 for\n"
	"                      12.8); chooses the PTX .version (default: the newest known)\n"
	"  --dump STAGES       print what stages produce, to stderr: a comma list of\n"
	"                      ast, types, ir, opt, ptx\n"
	"  --sim               also build the simulator program (bounds-checked IR)\n"
	"  --debug             bounds checks and assertion traps in the PTX too\n"
	"  --fastmath          allow approximate math (like Numba's fastmath=True)\n"
	"  --lineinfo          emit line information for profilers\n"
	"  -O0                 run no IR optimisation passes\n"
	"  --small-extents     the launch variant for arrays whose extents are below 2^31\n"
	"                      and whose bytes span fewer than 2^31 - 2^20 (32-bit offsets)\n"
	"  --noalias           the launch variant for arrays that share no memory (read-only\n"
	"                      arrays through the non-coherent cache)\n"
	"  --small-grid        the launch variant for grids where gridDim * blockDim is\n"
	"                      below 2^31 in every dimension (32-bit cuda.grid indices)\n"
	"  -o FILE             write the PTX to FILE instead of stdout\n"
	"  --parse-only        only parse: print the AST of the kernel (or, without\n"
	"                      --kernel, of every top-level def) and stop\n"
	"  --time N            compile N times and print the median microseconds per\n"
	"                      compile (\"median_us 123.4\"); the PTX is written only with -o\n"
	"  -h, --help          this text\n"
	"  --version           the version\n"
	"\n"
	"exit status:\n"
	"  0  the kernel compiled\n"
	"  1  an error in the kernel's code or in the signature (the message names\n"
	"     file:line:col and shows the line)\n"
	"  2  an internal compiler error (a bug in ptxjit; please report it)\n"
	"  3  a usage error: bad option, unreadable file, unknown kernel\n";

/* Prints a usage error; returns its exit status. */
static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ptxjitc: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'ptxjitc --help'.\n");
	return EXIT_USAGE;
}

static char *read_file(const char *path, int *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		if (got == 0)
			break;
		n += got;
	}
	fclose(f);
	buf[n] = 0;
	if (n > (size_t)INT32_MAX / 2) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	*len = (int)n;
	return buf;
}

/* Parses the module's text and binds its names; returns 0, or the exit
 * status after printing the error. */
static int load_module(Module *m, int len)
{
	Src src = {.file = m->file, .text = m->text, .len = len, .first_line = 1};
	jmp_buf jb;
	Ctx ctx = {.arena = m->arena, .jmp = &jb};
	src_index(&ctx, &src);
	if (setjmp(jb)) {
		fputs(ctx.diag.msg, stderr);
		return ctx.diag.kind == PJ_ERR_USER ? EXIT_USER : EXIT_INTERNAL;
	}
	m->items = parse_module(&ctx, &src, &m->nitems);
	cli_bind(m);
	return 0;
}

/* Parses the def `name` of the module alone and prints its AST, or its
 * error; returns the exit status. */
static int dump_def(Module *m, const char *name, int len)
{
	Src src = {.file = m->file, .text = m->text, .len = len, .first_line = 1};
	jmp_buf jb;
	Ctx ctx = {.arena = m->arena, .jmp = &jb};
	if (setjmp(jb)) {
		fflush(stdout);
		fputs(ctx.diag.msg, stderr);
		return ctx.diag.kind == PJ_ERR_USER ? EXIT_USER : EXIT_INTERNAL;
	}
	ast_dump(stdout, parse_function(&ctx, &src, name));
	return 0;
}

/* --parse-only: the AST of each def (or of `only`). */
static int dump_defs(Module *m, const char *only, int len)
{
	int found = 0;
	for (int i = 0; i < m->nitems; i++) {
		ModuleItem *it = &m->items[i];
		if (it->kind != MI_DEF || (only && strcmp(it->name, only)))
			continue;
		found = 1;
		if (it->def) {
			ast_dump(stdout, it->def);
			continue;
		}
		int status = dump_def(m, it->name, len);   /* a def that did not parse: its error */
		if (status)
			return status;
	}
	if (only && !found) {
		fprintf(stderr, "ptxjitc: %s has no top-level function named '%s'\n", m->file, only);
		return EXIT_USAGE;
	}
	return 0;
}

/* --------------------------------------------------------------- main */

/* The compute capability of "sm_90", "compute_90", "90" or "90a"; 0 when bad. */
static int parse_arch(const char *s)
{
	if (!strncmp(s, "sm_", 3) || !strncmp(s, "compute_", 8))
		s = strchr(s, '_') + 1;
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || (*end && *end != 'a') || v < 30 || v > 1300)
		return 0;
	return (int)v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Compiles the def `kernel` of m (the only def when NULL) for `sig` (the
 * decorator's signature when NULL) and writes its PTX to outpath or
 * stdout; with times > 0, compiles it that often and prints the median
 * time.  Returns the exit status. */
static int compile_kernel(Module *m, const char *kernel, const char *sig, PjOptions *opt, int times,
                          const char *outpath)
{
	int ndefs = 0, k = -1;
	for (int i = 0; i < m->nitems; i++)
		if (m->items[i].kind == MI_DEF) {
			ndefs++;
			if (kernel ? !strcmp(m->items[i].name, kernel) : k < 0)
				k = i;
		}
	if (!kernel && ndefs != 1) {
		fprintf(stderr, "ptxjitc: %s has %d functions; choose one with --kernel:", m->file, ndefs);
		for (int i = 0; i < m->nitems; i++)
			if (m->items[i].kind == MI_DEF)
				fprintf(stderr, " %s", m->items[i].name);
		fputc('\n', stderr);
		return EXIT_USAGE;
	}
	if (k < 0 || m->items[k].kind != MI_DEF) {
		fprintf(stderr, "ptxjitc: %s has no top-level function named '%s'\n", m->file, kernel);
		return EXIT_USAGE;
	}
	if (!sig)
		sig = m->items[k].sig;   /* @cuda.jit("void(...)") */
	unsigned jit = m->items[k].jit;   /* @cuda.jit(fastmath=True, ...) */
	opt->fastmath |= (jit & JIT_FASTMATH) != 0;
	opt->debug |= (jit & JIT_DEBUG) != 0;
	opt->lineinfo |= (jit & JIT_LINEINFO) != 0;
	if (jit & JIT_NOOPT)
		opt->opt_level = 0;
	if (!sig)
		return usage_error("%s", "no signature: give the argument types with --sig \"void(float32[::1], int64)\"");
	PjFunc *fn = &m->funcs[k];
	fn->is_device = 0;

	int status = 0;
	PjKernel *out = NULL;
	PjError err;
	int rc;
	if (times > 0) {
		double *us = malloc(sizeof *us * (size_t)times);
		for (int i = 0; i < times; i++) {
			double t0 = now_us();
			rc = pj_compile(fn, sig, opt, &out, &err);
			us[i] = now_us() - t0;
			if (rc != PJ_OK)
				break;
			if (i + 1 < times) {
				pj_kernel_free(out);
				out = NULL;
			}
		}
		if (rc == PJ_OK) {
			qsort(us, (size_t)times, sizeof *us, cmp_double);
			double med = times % 2 ? us[times / 2] : (us[times / 2 - 1] + us[times / 2]) / 2;
			printf("median_us %.1f\n", med);
		}
		free(us);
	} else {
		rc = pj_compile(fn, sig, opt, &out, &err);
	}
	if (rc != PJ_OK) {
		fputs(err.msg, stderr);
		if (err.msg[0] && err.msg[strlen(err.msg) - 1] != '\n')
			fputc('\n', stderr);
		return rc == PJ_ERR_USER ? EXIT_USER : EXIT_INTERNAL;
	}

	if (outpath) {
		FILE *f = fopen(outpath, "wb");
		if (!f || fwrite(out->ptx, 1, out->ptx_len, f) != out->ptx_len) {
			fprintf(stderr, "ptxjitc: cannot write %s: %s\n", outpath, strerror(errno));
			status = EXIT_USAGE;
		}
		if (f && fclose(f) != 0 && !status) {
			fprintf(stderr, "ptxjitc: cannot write %s: %s\n", outpath, strerror(errno));
			status = EXIT_USAGE;
		}
	} else if (times == 0 && out->ptx) {
		fwrite(out->ptx, 1, out->ptx_len, stdout);
	}
	pj_kernel_free(out);
	return status;
}

int cli_main(int argc, char **argv)
{
	const char *path = NULL, *kernel = NULL, *sig = NULL, *outpath = NULL;
	PjOptions opt = {.arch = 90, .opt_level = 1};
	int times = 0, parse_only = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		char name[64];
		int takes = !strcmp(a, "--kernel") || !strcmp(a, "-k") || !strcmp(a, "--sig") || !strcmp(a, "-s") ||
		            !strcmp(a, "--arch") || !strcmp(a, "--driver") || !strcmp(a, "--dump") ||
		            !strcmp(a, "-o") || !strcmp(a, "--time");
		if (takes) {
			if (i + 1 >= argc)
				return usage_error("option %s needs a value", a);
			val = argv[++i];
		} else if (!strncmp(a, "--", 2) && strchr(a, '=')) {
			/* --opt=value */
			size_t n = (size_t)(strchr(a, '=') - a);
			if (n >= sizeof name)
				return usage_error("unknown option %s", a);
			memcpy(name, a, n);
			name[n] = 0;
			val = a + n + 1;
			a = name;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("ptxjitc %s\n", PJ_VERSION);
			return 0;
		} else if (!strcmp(a, "--kernel") || !strcmp(a, "-k")) {
			kernel = val;
		} else if (!strcmp(a, "--sig") || !strcmp(a, "-s")) {
			sig = val;
		} else if (!strcmp(a, "--arch")) {
			opt.arch = parse_arch(val);
			if (!opt.arch)
				return usage_error("bad --arch '%s' (expected sm_XY, like sm_90)", val);
		} else if (!strcmp(a, "--driver")) {
			char *end;
			long v = strtol(val, &end, 10);
			if (*end || v < 0 || v > 1000000)
				return usage_error("bad --driver '%s' (expected a number like 12080)", val);
			opt.driver_version = (int)v;
		} else if (!strcmp(a, "--dump")) {
			opt.dump = val;
		} else if (!strcmp(a, "-o")) {
			outpath = val;
		} else if (!strcmp(a, "--time")) {
			char *end;
			long v = strtol(val, &end, 10);
			if (*end || v < 1 || v > 10000000)
				return usage_error("bad --time '%s' (expected a count of compiles)", val);
			times = (int)v;
		} else if (!strcmp(a, "--parse-only")) {
			parse_only = 1;
		} else if (!strcmp(a, "--sim")) {
			opt.sim = 1;
		} else if (!strcmp(a, "--debug")) {
			opt.debug = 1;
		} else if (!strcmp(a, "--fastmath")) {
			opt.fastmath = 1;
		} else if (!strcmp(a, "--lineinfo")) {
			opt.lineinfo = 1;
		} else if (!strcmp(a, "--small-extents")) {
			opt.small_extents = 1;
		} else if (!strcmp(a, "--noalias")) {
			opt.noalias = 1;
		} else if (!strcmp(a, "--small-grid")) {
			opt.small_grid = 1;
		} else if (!strcmp(a, "-O0")) {
			opt.opt_level = 0;
		} else if (!strcmp(a, "-O1")) {
			opt.opt_level = 1;
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option %s", a);
		} else if (!path) {
			path = a;
		} else {
			return usage_error("more than one input file (%s)", a);
		}
	}
	if (!path)
		return usage_error("%s", "no input file");

	int len = 0;
	char *text = read_file(path, &len);
	if (!text) {
		fprintf(stderr, "ptxjitc: cannot read %s: %s\n", path, strerror(errno));
		return EXIT_USAGE;
	}

	Module M = {.file = path, .text = text, .arena = arena_new()}, *m = &M;
	int status = load_module(m, len);
	if (status) {
		arena_free(m->arena);
		free(text);
		return status;
	}

	status = parse_only ? dump_defs(m, kernel, len) : compile_kernel(m, kernel, sig, &opt, times, outpath);
	arena_free(m->arena);
	free(text);
	return status;
}

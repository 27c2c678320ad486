/*
 * fuzz_front.c - libFuzzer target for the front end and the type checker.
 *
 * The input is a kernel file.  It is parsed as a module (parse_module),
 * its names are bound as ptxjitc binds them (src/cli/consts.c, compiled
 * into this target), and every def is compiled with a few fixed
 * signatures, with the simulator program built too.  The input is also
 * parsed as a single function (parse_function) and, when it holds the
 * word `lambda`, as a lambda (parse_lambda); the ASTs are printed and
 * cloned.  Every kernel that compiles is also run on the simulator, with
 * bounds checks on, over small arrays of 8 (or 8 x 8) elements.  Errors
 * are expected and ignored: the target checks that no input crashes,
 * leaks, or trips the sanitizers.
 *
 *   make fuzz FUZZ_SECONDS=600
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cli/consts.c"

static const char *const sigs[] = {
	"void(float32[::1], float32[::1], int64)",
	"void(int32[:, :], float64)",
	"void(float64[:], float64[:], float64[:])",
	"void(int64)",
};

static void dump_and_clone(Ctx *c, FuncDef *fn)
{
	static char buf[1 << 16];
	FILE *m = fmemopen(buf, sizeof buf, "w");
	if (!m)
		return;
	ast_dump(m, fn);
	ast_dump(m, ast_clone(c, fn));
	fclose(m);
}

/* Runs a compiled kernel on the simulator: every array argument gets an
 * 8-element extent per axis over a zeroed buffer large enough for any
 * dtype and layout; scalars are zero.  Endless loops are cut short by
 * PTXJIT_SIM_LOOP_LIMIT (set in LLVMFuzzerInitialize). */
static void run_sim(const PjKernel *k)
{
	static _Alignas(16) unsigned char arrays[4][8 * 8 * 16];
	_Alignas(16) unsigned char params[512] = {0};
	if (!k->sim || k->param_bytes > (int)sizeof params)
		return;
	memset(arrays, 0, sizeof arrays);
	for (int i = 0; i < k->nparams; i++) {
		const PjParam *p = &k->params[i];
		int64_t v = 0;
		if (p->role == KP_DATA)
			v = (int64_t)(uintptr_t)arrays[p->arg & 3];
		else if (p->role == KP_SHAPE)
			v = 8;
		else if (p->role == KP_STRIDE)
			v = p->dim == 0 ? 8 * 16 : 16;
		else
			continue;
		memcpy(params + p->off, &v, sizeof v);
	}
	unsigned grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
	PjError err;
	pj_sim_launch(k, grid, block, 0, params, PJ_SIM_UNINIT | PJ_SIM_RACE, &err);
}

/* Parses text as a module, binds its names and compiles each def. */
static void compile_module(const char *text, int len)
{
	Module M = {.file = "fuzz.py", .text = text, .arena = arena_new()}, *m = &M;
	Src src = {"fuzz.py", text, len, 1, 0};
	jmp_buf jb;
	Ctx c = {.arena = m->arena, .jmp = &jb};
	if (setjmp(jb)) {
		arena_free(m->arena);
		return;
	}
	m->items = parse_module(&c, &src, &m->nitems);
	cli_bind(m);
	int ndefs = 0;
	for (int i = 0; i < m->nitems && ndefs < 4; i++) {
		if (m->items[i].kind != MI_DEF || !m->items[i].def)
			continue;
		ndefs++;
		dump_and_clone(&c, m->items[i].def);
		for (size_t s = 0; s < sizeof sigs / sizeof sigs[0]; s++) {
			PjOptions opt = {.arch = 90, .opt_level = 1, .sim = 1, .dump = ""};
			PjKernel *k = NULL;
			PjError err;
			if (pj_compile(&m->funcs[i], sigs[s], &opt, &k, &err) == PJ_OK) {
				run_sim(k);
				pj_kernel_free(k);
			}
		}
	}
	arena_free(m->arena);
}

/* Parses text as one function and, if it mentions one, as a lambda. */
static void parse_alone(const char *text, int len)
{
	Arena *a = arena_new();
	Src src = {"fuzz.py", text, len, 1, 0};
	jmp_buf jb;
	Ctx c = {.arena = a, .jmp = &jb};
	if (!setjmp(jb))
		dump_and_clone(&c, parse_function(&c, &src, NULL));
	const char *lam = strstr(text, "lambda");
	if (lam && !setjmp(jb)) {
		c.depth = 0;
		dump_and_clone(&c, parse_lambda(&c, &src, (int)(lam - text), "f"));
	}
	arena_free(a);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	setenv("PTXJIT_SIM_LOOP_LIMIT", "100000", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	int len = (int)strlen(text);   /* the glue and the CLI hand over C strings */
	parse_alone(text, (int)size);
	compile_module(text, len);
	free(text);
	return 0;
}

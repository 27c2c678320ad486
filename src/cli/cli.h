/*
 * cli.h - what the ptxjitc command's files share: a Python file read
 * without Python, as the module items parse_module found, and the values
 * of the names it binds at module level.
 */
#ifndef PTXJIT_CLI_H
#define PTXJIT_CLI_H

#include "../core.h"

/* One module file.  vals[i]/ok[i] is the value item i binds (an import's
 * module or member, a def's function, an assignment's constant), known
 * when ok[i] is set; `why` says why an assignment has no value. */
typedef struct Module {
	const char *file;
	const char *text;
	Arena *arena;          /* lives as long as the module: items, values, PjFuncs */
	ModuleItem *items;
	int nitems;
	PjValue *vals;
	int *ok;
	const char **why;
	PjFunc *funcs;         /* per item: the PjFunc of a def, or of NAME = cuda.jit(...)(lambda ...) */
	const char *star_from; /* "from math import *": the module, or NULL */
} Module;

/* consts.c: evaluates a module-level expression as Python would at
 * import time, for ints, floats, bools, strings, tuples, modules and their
 * members; names refer to the items before `upto`.  Returns 1 and *out,
 * or 0 when the value is not a compile-time constant. */
int cli_eval(Module *m, int upto, const Expr *e, PjValue *out);
/* The value of an import item (module, dtype or member). */
PjValue cli_import_value(Module *m, const ModuleItem *it);
/* Fills vals/ok/why/funcs for every item of m, in file order. */
void cli_bind(Module *m);
/* The PjFunc resolver of the module's functions (data is the Module):
 * the last binding of the name in the file, or the members of a
 * `from math import *`.  Names the file does not bind give 0. */
int cli_resolve(void *data, const char *name, PjValue *out, PjArena *arena);

/* ptxjitc.c: the ptxjitc command on argv (argv[0] is not read); prints
 * to stdout and stderr and returns the exit status, never exits. */
int cli_main(int argc, char **argv);

#endif

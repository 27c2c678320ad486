/*
 * typesdump.c - the typed listing of a compile request, for
 * PTXJIT_DUMP=types and inspect_types(): for each specialisation (the
 * kernel first), its signature, the type of each variable, and its
 * source with line numbers.
 *
 *   add (array(float32, 1d, C), array(float32, 1d, C), int64) -> none
 *     a: array(float32, 1d, C)
 *     ...
 *     i: int64
 *     12 | @cuda.jit
 *     13 | def add(a, b, n):
 *   ...
 */
#include "sema.h"

static void dump_source(FILE *out, const Src *src)
{
	const char *t = src->text;
	int line = src->first_line;
	int i = 0;
	while (i < src->len) {
		int j = i;
		while (j < src->len && t[j] != '\n')
			j++;
		int end = j;
		while (end > i && (t[end - 1] == '\r' || t[end - 1] == ' ' || t[end - 1] == '\t'))
			end--;
		fprintf(out, "  %5d | %*s%.*s\n", line, end > i ? src->col_shift : 0, "", end - i, t + i);
		line++;
		i = j + 1;
	}
}

void sema_dump(FILE *out, Ctx *c)
{
	for (int s = 0; s < c->nspec; s++) {
		Spec *sp = c->specs[s];
		FuncDef *def = sp->def;
		fprintf(out, "%s%s (", s ? "\n" : "", def->name);
		for (int i = 0; i < def->nparams; i++)
			fprintf(out, "%s%s", i ? ", " : "", ty_str_of(c, sp->argtypes ? sp->argtypes[i] : NULL));
		fprintf(out, ") -> %s\n", ty_str_of(c, sp->ret));
		for (int i = 0; i < sp->nvars; i++)
			fprintf(out, "    %s: %s\n", sp->vars[i]->name, ty_str_of(c, sp->vars[i]->ty));
		if (def->src)
			dump_source(out, def->src);
	}
}

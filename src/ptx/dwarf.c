/*
 * dwarf.c - the DWARF sections of a debug=True module: what a debugger
 * needs to name the module's functions and find their source, in the
 * form NVVM writes for Numba (DWARF version 2, 64-bit addresses).
 *
 *   .debug_abbrev   two abbreviations: 1, the compile unit (producer,
 *                   language, name, the line table's offset, directory,
 *                   low_pc 0), with children; 2, a subprogram (low_pc,
 *                   high_pc, frame base, name, decl_file, decl_line,
 *                   external), without
 *   .debug_info     one unit: the compile unit of the kernel's file, and
 *                   a subprogram for the kernel (or the visible function)
 *                   and for each function it calls for real, between the
 *                   labels ptx_fn_text writes at its start and end
 *
 * ptxas makes .debug_line from the .file and .loc directives (lineinfo is
 * on under debug), and the unit's DW_AT_stmt_list refers to it.  The
 * language is C++ (DW_LANG_C_plus_plus), as NVVM's output for Numba says,
 * which cuda-gdb knows; the frame base is DW_OP_call_frame_cfa.  Names
 * are written as PTX strings allow (ptx_dwarf_string).
 */
#include <string.h>

#include "ptx.h"

enum {
	DW_TAG_compile_unit = 0x11, DW_TAG_subprogram = 0x2e,
	DW_AT_name = 0x03, DW_AT_stmt_list = 0x10, DW_AT_low_pc = 0x11, DW_AT_high_pc = 0x12,
	DW_AT_language = 0x13, DW_AT_comp_dir = 0x1b, DW_AT_producer = 0x25, DW_AT_decl_file = 0x3a,
	DW_AT_decl_line = 0x3b, DW_AT_external = 0x3f, DW_AT_frame_base = 0x40,
	DW_FORM_addr = 0x01, DW_FORM_data2 = 0x05, DW_FORM_data4 = 0x06, DW_FORM_string = 0x08,
	DW_FORM_block1 = 0x0a, DW_FORM_flag = 0x0c,
	DW_LANG_C_plus_plus = 0x0004, DW_OP_call_frame_cfa = 0x9c,
};

/* The section body being written, and its size in bytes. */
typedef struct Sec {
	Emit *e;
	PtxBuf b;
	int bytes;
} Sec;

static void byte(Sec *s, int v)
{
	ptx_bprintf(s->e, &s->b, ".b8 %d\n", v & 0xff);
	s->bytes++;
}

static void half(Sec *s, int v)
{
	byte(s, v);
	byte(s, v >> 8);
}

static void word(Sec *s, const char *v)
{
	ptx_bprintf(s->e, &s->b, ".b32 %s\n", v);
	s->bytes += 4;
}

static void word_int(Sec *s, long v)
{
	ptx_bprintf(s->e, &s->b, ".b32 %ld\n", v);
	s->bytes += 4;
}

static void addr(Sec *s, const char *v)
{
	ptx_bprintf(s->e, &s->b, ".b64 %s\n", v);
	s->bytes += 8;
}

/* A NUL-terminated string, as bytes; characters PTX's .file refuses (see
 * decl_files) are '_' here too, so the two names agree. */
static void string(Sec *s, const char *p)
{
	for (; *p; p++) {
		unsigned char ch = (unsigned char)*p;
		byte(s, ch == '"' || ch == '\\' || ch < 32 || ch >= 127 ? '_' : ch);
	}
	byte(s, 0);
}

static void abbrevs(Sec *s)
{
	static const int cu[] = {DW_AT_producer, DW_FORM_string, DW_AT_language, DW_FORM_data2,
	                         DW_AT_name, DW_FORM_string, DW_AT_stmt_list, DW_FORM_data4,
	                         DW_AT_comp_dir, DW_FORM_string, DW_AT_low_pc, DW_FORM_addr};
	static const int sub[] = {DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc, DW_FORM_addr,
	                          DW_AT_frame_base, DW_FORM_block1, DW_AT_name, DW_FORM_string,
	                          DW_AT_decl_file, DW_FORM_data4, DW_AT_decl_line, DW_FORM_data4,
	                          DW_AT_external, DW_FORM_flag};
	byte(s, 1), byte(s, DW_TAG_compile_unit), byte(s, 1);
	for (size_t k = 0; k < sizeof cu / sizeof cu[0]; k++)
		byte(s, cu[k]);
	byte(s, 0), byte(s, 0);
	byte(s, 2), byte(s, DW_TAG_subprogram), byte(s, 0);
	for (size_t k = 0; k < sizeof sub / sizeof sub[0]; k++)
		byte(s, sub[k]);
	byte(s, 0), byte(s, 0);
	byte(s, 0);
}

static const Loc *def_loc(const Fn *f)
{
	return f->def_loc >= 0 && f->def_loc < f->nlocs && f->locs[f->def_loc].file ? &f->locs[f->def_loc] : NULL;
}

static void subprogram(Sec *s, Emit *e, const Fn *f)
{
	const Loc *l = def_loc(f);
	byte(s, 2);
	addr(s, arena_printf(e->c->arena, "$L__begin_%s", f->name));
	addr(s, arena_printf(e->c->arena, "$L__end_%s", f->name));
	byte(s, 1), byte(s, DW_OP_call_frame_cfa);
	string(s, f->name);
	word_int(s, l ? ptx_file_index(e, l->file) : 0);
	word_int(s, l ? l->line : 0);
	byte(s, 1);
}

void ptx_debug_sections(Emit *e, PtxBuf *out)
{
	Fn *m = e->f;
	const Loc *l = def_loc(m);
	const char *path = l ? l->file : "<unknown>";
	const char *slash = strrchr(path, '/');
	char *dir = slash ? arena_strdup(e->c->arena, path) : ".";
	if (slash)
		dir[slash - path > 0 ? slash - path : 1] = 0;

	Sec ab = {.e = e}, info = {.e = e};
	abbrevs(&ab);
	half(&info, 2);                      /* version */
	word(&info, ".debug_abbrev");
	byte(&info, 8);                      /* address size */
	byte(&info, 1);
	string(&info, "ptxjit " PJ_VERSION);
	half(&info, DW_LANG_C_plus_plus);
	string(&info, slash ? slash + 1 : path);
	word(&info, ".debug_line");
	string(&info, dir);
	addr(&info, "0");
	subprogram(&info, e, m);
	for (int i = 0; i < m->nfuncs; i++)
		if (!m->funcs[i]->external)
			subprogram(&info, e, m->funcs[i]);
	byte(&info, 0);                      /* the end of the unit's children */

	ptx_bprintf(e, out, "\n.section .debug_abbrev\n{\n%s}\n", ab.b.p);
	ptx_bprintf(e, out, ".section .debug_info\n{\n.b32 %d\n%s}\n", info.bytes, info.b.p);
}

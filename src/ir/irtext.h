/*
 * irtext.h - the names of the IR's text form, shared by the printer
 * (print.c, which defines them) and the parser (irparse.c).  The grammar
 * is in docs/ir.md.
 */
#ifndef PTXJIT_IRTEXT_H
#define PTXJIT_IRTEXT_H

#include "../core.h"

extern const char *const irt_sk[NSK];      /* "bool", "i8", ..., "f64", "c64", "c128" */
extern const char *const irt_cc[NCC];      /* "eq", "ne", "lt", ..., "geu" */
extern const char *const irt_atom[NAT];    /* "add", "sub", ..., "nanmax" */
extern const char *const irt_sreg[NSR];    /* "tid.x", ..., "warpsize" */
extern const char *const irt_space[7];     /* indexed by SP_*: "generic", "global", NULL, "shared", ... */
extern const char *const irt_membar[3];    /* "cta", "gl", "sys" */
extern const char *const irt_shfl[4];      /* shfl modes: "idx", "up", "down", "bfly" */
extern const char *const irt_vote[4];      /* vote modes: "all", "any", "uni", "ballot" */
extern const char *const irt_match[2];     /* match modes: "any", "all" */
extern const char *const irt_barred[3];    /* barred operations: "popc", "and", "or" */
extern const char *const irt_approx[NAP];   /* "sin" "cos" "ex2" ... (O_APPROX) */
extern const char *const irt_role[9];      /* indexed by KP_*: "data", "shape", ..., "ret", "pbase", "pbytes" */
const char *irt_opname(int op);            /* lower-case opcode name: "add", "nop" */

#endif

/*
 * parse.h - the parser's state and token helpers, shared by the files of
 * the front end (parse.c reads functions, module.c whole files; lex.c
 * shares the string flags).
 */
#ifndef PTXJIT_PARSE_H
#define PTXJIT_PARSE_H

#include <string.h>

#include "../core.h"

/* Token.ival of a T_STRING: what its prefix said, and whether it holds a
 * \N{name} escape (kept as written, refused by the parser). */
enum { STR_BYTES = 1, STR_FSTRING = 2, STR_RAW = 4, STR_NAMED = 8 };

typedef struct Parser {
	Ctx *c;
	const Src *src;
	Token *tok;         /* the current token; never past T_EOF */
	Token *toks;
	int ntok;
} Parser;

static inline int is_op(const Token *t, const char *s)
{
	return t->kind == T_OP && t->op[0] == s[0] && !strcmp(t->op, s);
}

static inline int is_kw(const Token *t, const char *s)
{
	return t->kind == T_KEYWORD && t->op[0] == s[0] && !strcmp(t->op, s);
}

/* The current token is the operator or keyword s. */
static inline int equal(Parser *p, const char *s)
{
	return (p->tok->kind == T_OP || p->tok->kind == T_KEYWORD) && p->tok->op[0] == s[0] &&
	       !strcmp(p->tok->op, s);
}

static inline Token *advance(Parser *p)
{
	Token *t = p->tok;
	if (t->kind != T_EOF)
		p->tok++;
	return t;
}

static inline int consume(Parser *p, const char *s)
{
	if (!equal(p, s))
		return 0;
	advance(p);
	return 1;
}

/* From the start of a to the end of b. */
static inline Span span_join(Span a, Span b)
{
	Span s = a;
	int end = b.off + b.len;
	s.len = end > a.off ? end - a.off : a.len;
	return s;
}

/* parse.c */
void parse_init(Parser *p, Ctx *c, const Src *src, Token *toks, int ntok);
_Noreturn void parse_unexpected(Parser *p, const char *hint);
Token *parse_skip(Parser *p, const char *s, const char *hint);
void parse_skip_statement(Parser *p);        /* the rest of the line and its block */
Expr *parse_expression(Parser *p);           /* expression */
Expr *parse_named_expression(Parser *p);     /* named_expression */
Expr *parse_star_expressions(Parser *p);     /* star_expressions */
FuncDef *parse_function_def(Parser *p);      /* function_def, at 'def' */

#endif

/*
 * irparse.c - reads the IR's text form (docs/ir.md) back into an Fn.
 *
 * The back ends' tests write IR by hand with it, and the printer's test
 * checks print(parse(print(f))) == print(f).  The parser is strict about
 * syntax and lenient about meaning: a value defined twice, a wrong class
 * or a block without a jump parse fine, so that the verifier can be shown
 * broken IR.  Any syntax error is an internal error naming the text's
 * line; nothing in the text can make the parser read out of bounds.
 *
 * Values are written %N (N is the value's index), %N.name (with a source
 * name), or %name (a fresh index after the largest %N of the text).
 * Blocks are numbered in the order their labels appear.  Phi arguments
 * name their predecessor block and are put into Blk.pred order once all
 * jumps are known.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "irtext.h"

enum { MAXVAL = 1 << 22 };

typedef struct Name {
	const char *s;
	int len, id;
} Name;

typedef struct PhiFrom {
	int blk, phi;
	int *from;           /* predecessor label of each argument */
} PhiFrom;

typedef struct P {
	Ctx *c;
	Fn *f;
	const char *p;       /* cursor in the current line */
	const char *eol;
	int line;
	Name *labels;
	int nlabels, caplabels;
	Name *vnames;
	int nvnames, capvnames;
	int nextval;         /* index given to the next %name */
	PhiFrom *pf;
	int npf, cappf;
} P;

static _Noreturn void fail(P *p, const char *what)
{
	int n = (int)(p->eol - p->p);
	ICE(p->c, "IR text, line %d: %s at \"%.*s\"", p->line, what, n > 40 ? 40 : n, p->p);
}

static void skip_ws(P *p)
{
	while (p->p < p->eol && (*p->p == ' ' || *p->p == '\t' || *p->p == '\r'))
		p->p++;
}

static int at_end(P *p)
{
	skip_ws(p);
	return p->p >= p->eol;
}

static int accept(P *p, char ch)
{
	skip_ws(p);
	if (p->p < p->eol && *p->p == ch) {
		p->p++;
		return 1;
	}
	return 0;
}

static void expect(P *p, char ch)
{
	if (!accept(p, ch)) {
		char msg[32];
		snprintf(msg, sizeof msg, "expected '%c'", ch);
		fail(p, msg);
	}
}

static int is_wordch(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '-' || ch == '+';
}

/* word: [A-Za-z0-9_.+-]+ ; returns its length, *s its start */
static int word(P *p, const char **s)
{
	skip_ws(p);
	*s = p->p;
	while (p->p < p->eol && is_wordch(*p->p))
		p->p++;
	if (p->p == *s)
		fail(p, "expected a word");
	return (int)(p->p - *s);
}

static int word_is(const char *s, int n, const char *w)
{
	return (int)strlen(w) == n && memcmp(s, w, (size_t)n) == 0;
}

static int accept_word(P *p, const char *w)
{
	skip_ws(p);
	const char *save = p->p;
	if (p->p < p->eol && is_wordch(*p->p)) {
		const char *s;
		int n = word(p, &s);
		if (word_is(s, n, w))
			return 1;
	}
	p->p = save;
	return 0;
}

static int64_t integer(P *p)
{
	const char *s;
	int n = word(p, &s);
	char buf[64];
	if (n >= (int)sizeof buf)
		fail(p, "number too long");
	memcpy(buf, s, (size_t)n);
	buf[n] = 0;
	char *end;
	int neg = buf[0] == '-';
	int hex = buf[neg] == '0' && (buf[neg + 1] == 'x' || buf[neg + 1] == 'X');
	uint64_t u = strtoull(buf + neg, &end, hex ? 16 : 10);
	if (*end || end == buf + neg || buf[neg] == '-' || buf[neg] == '+') {
		p->p = s;
		fail(p, "expected an integer");
	}
	return neg ? (int64_t)(0 - u) : (int64_t)u;
}

static int small_int(P *p, int lo, int hi)
{
	const char *s = p->p;
	int64_t v = integer(p);
	if (v < lo || v > hi) {
		p->p = s;
		fail(p, "number out of range");
	}
	return (int)v;
}

/* an index into a name table, or a number */
static int table_word(P *p, const char *const *tab, int n, const char *s, int len)
{
	for (int i = 0; i < n; i++)
		if (tab[i] && word_is(s, len, tab[i]))
			return i;
	if (len > 0 && len < 12 && (isdigit((unsigned char)s[0]))) {
		char buf[16];
		memcpy(buf, s, (size_t)len);
		buf[len] = 0;
		char *end;
		long v = strtol(buf, &end, 10);
		if (!*end && v >= 0 && v < 1 << 20)
			return (int)v;
	}
	p->p = s;
	fail(p, "unknown name");
}

static int sk_word(P *p)
{
	const char *s;
	int n = word(p, &s);
	return table_word(p, irt_sk, NSK, s, n);
}

static const char *string(P *p)
{
	skip_ws(p);
	if (p->p >= p->eol || *p->p != '"')
		fail(p, "expected a string");
	p->p++;
	char *buf = arena_alloc(p->c->arena, (size_t)(p->eol - p->p) + 1);
	int n = 0;
	for (;;) {
		if (p->p >= p->eol)
			fail(p, "unterminated string");
		char ch = *p->p++;
		if (ch == '"')
			break;
		if (ch != '\\') {
			buf[n++] = ch;
			continue;
		}
		if (p->p >= p->eol)
			fail(p, "unterminated string");
		ch = *p->p++;
		if (ch == 'n')
			buf[n++] = '\n';
		else if (ch == 't')
			buf[n++] = '\t';
		else if (ch == 'x') {
			int v = 0;
			for (int k = 0; k < 2; k++) {
				if (p->p >= p->eol || !isxdigit((unsigned char)*p->p))
					fail(p, "bad \\x escape");
				char d = *p->p++;
				v = v * 16 + (isdigit((unsigned char)d) ? d - '0' : (tolower((unsigned char)d) - 'a' + 10));
			}
			buf[n++] = (char)v;
		} else
			buf[n++] = ch;
	}
	buf[n] = 0;
	return buf;
}

static int label_id(P *p, const char *s, int n)
{
	for (int i = 0; i < p->nlabels; i++)
		if (p->labels[i].len == n && memcmp(p->labels[i].s, s, (size_t)n) == 0)
			return p->labels[i].id;
	return -1;
}

/* label: '@' word */
static int label(P *p)
{
	expect(p, '@');
	const char *s;
	int n = word(p, &s);
	int id = label_id(p, s, n);
	if (id < 0) {
		p->p = s;
		fail(p, "unknown block label");
	}
	return id;
}

static void need_val(P *p, int id)
{
	Fn *f = p->f;
	while (f->nval <= id)
		ir_new_val(f, KX, NULL);
}

/* value: '%' digits ['.' name] | '%' name ; *name gets the name if any */
static int value(P *p, const char **name)
{
	expect(p, '%');
	const char *s = p->p;
	*name = NULL;
	if (p->p < p->eol && isdigit((unsigned char)*p->p)) {
		int64_t v = 0;
		while (p->p < p->eol && isdigit((unsigned char)*p->p)) {
			v = v * 10 + (*p->p++ - '0');
			if (v >= MAXVAL) {
				p->p = s;
				fail(p, "value number too large");
			}
		}
		if (p->p < p->eol && *p->p == '.') {
			const char *t = ++p->p;
			while (p->p < p->eol && (isalnum((unsigned char)*p->p) || *p->p == '_'))
				p->p++;
			if (p->p == t)
				fail(p, "expected a name after '.'");
			*name = arena_strndup(p->c->arena, t, (size_t)(p->p - t));
		}
		need_val(p, (int)v);
		return (int)v;
	}
	while (p->p < p->eol && (isalnum((unsigned char)*p->p) || *p->p == '_'))
		p->p++;
	int n = (int)(p->p - s);
	if (!n)
		fail(p, "expected a value");
	*name = arena_strndup(p->c->arena, s, (size_t)n);
	for (int i = 0; i < p->nvnames; i++)
		if (p->vnames[i].len == n && memcmp(p->vnames[i].s, s, (size_t)n) == 0)
			return p->vnames[i].id;
	if (p->nextval >= MAXVAL)
		fail(p, "too many values");
	Name nm = {s, n, p->nextval++};
	VEC_PUSH(p->c, p->vnames, p->nvnames, p->capvnames, nm);
	need_val(p, nm.id);
	return nm.id;
}

static Cls cls_letter(P *p, const char *s, int n)
{
	for (int k = 0; k < NK; k++)
		if (word_is(s, n, cls_name[k]))
			return (Cls)k;
	p->p = s;
	fail(p, "expected a class letter (b w l s d)");
}

static Ref constant(P *p, const char *s, int n, Cls k)
{
	char buf[80];
	if (n >= (int)sizeof buf)
		fail(p, "constant too long");
	memcpy(buf, s, (size_t)n);
	buf[n] = 0;
	Fn *f = p->f;
	if (k == KS || k == KD) {
		int neg = buf[0] == '-';
		const char *t = buf + neg;
		if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && !strpbrk(t, "pP.")) {
			char *end;
			uint64_t u = strtoull(t, &end, 16);
			if (*end || neg)
				fail(p, "bad float bits");
			if (k == KS) {
				uint32_t w = (uint32_t)u;
				float v;
				memcpy(&v, &w, sizeof v);
				return ir_con_f32(f, v);
			}
			double v;
			memcpy(&v, &u, sizeof v);
			return ir_con_f64(f, v);
		}
		char *end;
		if (k == KS) {
			float v = strtof(buf, &end);
			if (*end || end == buf)
				fail(p, "bad float constant");
			return ir_con_f32(f, v);
		}
		double v = strtod(buf, &end);
		if (*end || end == buf)
			fail(p, "bad float constant");
		return ir_con_f64(f, v);
	}
	P q = *p;
	q.p = buf;
	q.eol = buf + n;
	int64_t v = integer(&q);
	if (!at_end(&q))
		fail(p, "bad integer constant");
	return ir_con_int(f, k, v);
}

/* ref: value | '_' | [cls '_'] literal ; `want` is the class of a bare literal */
static Ref ref(P *p, Cls want)
{
	skip_ws(p);
	if (p->p < p->eol && *p->p == '%') {
		const char *name;
		return REF_VAL(value(p, &name));
	}
	const char *s;
	int n = word(p, &s);
	if (word_is(s, n, "_"))
		return REF_NONE;
	if (n >= 2 && s[1] == '_' && strchr("xbwlsd", s[0])) {
		Cls k = cls_letter(p, s, 1);
		return constant(p, s + 2, n - 2, k);
	}
	if (want == KX) {
		p->p = s;
		fail(p, "a constant here needs its class: w_1, l_1, s_1.0, d_1.0");
	}
	return constant(p, s, n, want);
}

/* mnemonic parts: "atom.add.global" -> {"atom", "add", "global"} */
typedef struct Parts {
	const char *s[4];
	int n[4];
	int count;
} Parts;

static Parts mnemonic(P *p)
{
	Parts m = {0};
	const char *s;
	int n = word(p, &s);
	const char *end = s + n;
	while (s < end && m.count < 4) {
		const char *d = memchr(s, '.', (size_t)(end - s));
		if (!d)
			d = end;
		m.s[m.count] = s;
		m.n[m.count++] = (int)(d - s);
		s = d + 1;
	}
	if (s < end) {
		p->p = m.s[0];
		fail(p, "too many parts in mnemonic");
	}
	return m;
}

static void expect_parts(P *p, Parts m, int count)
{
	if (m.count != count) {
		p->p = m.s[0];
		fail(p, "wrong number of '.' parts for this opcode");
	}
}

static void operands(P *p, Ins *i)
{
	int n = ir_nargs(i);
	for (int k = 0; k < n; k++) {
		if (k)
			expect(p, ',');
		i->arg[k] = ref(p, ir_arg_cls(i, k));
	}
}

/* ins: [value '=' cls] mnemonic [ty] [aux] operands ['!' loc] */
static void instruction(P *p, Blk *b)
{
	Fn *f = p->f;
	Ins i = {.to = -1, .loc = -1};
	const char *name = NULL;
	int def = 0, nc = 0;
	Cls k = KX;
	skip_ws(p);
	if (p->p < p->eol && *p->p == '%') {
		i.to = value(p, &name);
		expect(p, '=');
		const char *s;
		int n = word(p, &s);
		k = cls_letter(p, s, n);
		def = 1;
	}
	const char *at = p->p;
	Parts m = mnemonic(p);
	int op = -1;
	for (int o = 0; o < NOPS; o++)
		if (word_is(m.s[0], m.n[0], irt_opname(o)))
			op = o;
	if (op < 0) {
		p->p = at;
		fail(p, "unknown opcode");
	}
	if (op_info[op].def != def) {
		p->p = at;
		fail(p, def ? "this opcode defines no value" : "this opcode defines a value");
	}
	i.op = (uint16_t)op;
	i.cls = (uint8_t)k;
	switch (op) {
	case O_CMP:
		expect_parts(p, m, 2);
		i.aux = table_word(p, irt_cc, NCC, m.s[1], m.n[1]);
		i.ty = (uint8_t)sk_word(p);
		break;
	case O_CVT:
		expect_parts(p, m, 2);
		i.aux = table_word(p, irt_sk, NSK, m.s[1], m.n[1]);
		i.ty = (uint8_t)sk_word(p);
		break;
	case O_PARAM:
		expect_parts(p, m, 1);
		i.aux = small_int(p, 0, 1 << 30);
		i.ty = (uint8_t)sk_word(p);
		break;
	case O_SREG: {
		expect_parts(p, m, 1);
		const char *s;
		int n = word(p, &s);
		i.aux = table_word(p, irt_sreg, NSR, s, n);
		break;
	}
	case O_LOAD:
	case O_STORE: {
		/* load.global.nc, load.global.cs, store.global.wt */
		int co = 0;
		nc = op == O_LOAD && m.count == 3 && word_is(m.s[2], m.n[2], "nc");
		if (m.count == 3 && !nc) {
			co = table_word(p, ir_cache_op_name, NCO, m.s[2], m.n[2]);
			if (!co || !ir_cache_op_ok(co, op == O_STORE)) {
				p->p = m.s[2];
				fail(p, op == O_STORE ? "a store's cache operator is cg, cs, wb or wt"
				                      : "a load's cache operator is ca, cg, cs, lu or cv (or nc)");
			}
		}
		expect_parts(p, m, m.count == 3 ? 3 : 2);
		i.aux = table_word(p, irt_space, 7, m.s[1], m.n[1]) | co << 8;
		i.ty = (uint8_t)sk_word(p);
		if (op == O_STORE)
			i.cls = (uint8_t)ir_cls_of_sk((ScalarKind)i.ty);
		break;
	}
	case O_ATOM:
		expect_parts(p, m, 3);
		i.aux = table_word(p, irt_atom, NAT, m.s[1], m.n[1]);
		i.aux |= table_word(p, irt_space, 7, m.s[2], m.n[2]) << 8;
		i.ty = (uint8_t)sk_word(p);
		break;
	case O_ADDR:
	case O_CHECK:
	case O_TRAP:
		expect_parts(p, m, 1);
		i.aux = small_int(p, 0, 1 << 30);
		if (op == O_CHECK)
			i.cls = KL;
		break;
	case O_MEMBAR:
		expect_parts(p, m, 2);
		i.aux = table_word(p, irt_membar, 3, m.s[1], m.n[1]);
		break;
	case O_SHFL:
		expect_parts(p, m, 2);
		i.aux = table_word(p, irt_shfl, 4, m.s[1], m.n[1]);
		i.aux |= small_int(p, 0, 0x1fff) << 8;
		i.ty = (uint8_t)sk_word(p);
		break;
	case O_VOTE:
	case O_MATCH:
	case O_BARRED:
		expect_parts(p, m, 2);
		if (op == O_VOTE)
			i.aux = table_word(p, irt_vote, 4, m.s[1], m.n[1]);
		else if (op == O_MATCH)
			i.aux = table_word(p, irt_match, 2, m.s[1], m.n[1]);
		else
			i.aux = table_word(p, irt_barred, 3, m.s[1], m.n[1]);
		i.ty = (uint8_t)sk_word(p);
		break;
	case O_APPROX:
		expect_parts(p, m, 2);
		i.aux = table_word(p, irt_approx, NAP, m.s[1], m.n[1]);
		i.ty = (uint8_t)sk_word(p);
		break;
	case O_FMA:
		/* fma[.rm][.sat] */
		for (int q = 1; q < m.count; q++) {
			int mode = word_is(m.s[q], m.n[q], "rm") ? FMA_RM : word_is(m.s[q], m.n[q], "sat") ? FMA_SAT : 0;
			if (!mode || (i.aux & mode) || (mode == FMA_RM && i.aux)) {
				p->p = at;
				fail(p, "fma takes the modes .rm and .sat, in that order");
			}
			i.aux |= mode;
		}
		i.ty = (uint8_t)sk_word(p);
		break;
	case O_BAR:
		if (m.count == 2 && word_is(m.s[1], m.n[1], "grid")) {
			i.aux = 1;
			break;
		}
		expect_parts(p, m, 1);
		break;
	case O_NOP_:
		expect_parts(p, m, 1);
		break;
	default:
		expect_parts(p, m, 1);
		i.ty = (uint8_t)sk_word(p);
	}
	operands(p, &i);
	if (accept(p, '!'))
		i.loc = small_int(p, -1, 1 << 30);
	if (!at_end(p))
		fail(p, "unexpected text after the instruction");
	if (def) {
		f->val[i.to].cls = (uint8_t)k;
		if (name)
			f->val[i.to].name = name;
	}
	if (nc && i.to >= 0) {
		/* load.global.nc: Fn.nc, grown to cover the value */
		if (i.to >= f->nnc) {
			int n = i.to + 64;
			uint8_t *t = arena_alloc(p->c->arena, (size_t)n);
			if (f->nc)
				memcpy(t, f->nc, (size_t)f->nnc);
			f->nc = t;
			f->nnc = n;
		}
		f->nc[i.to] = 1;
	}
	VEC_PUSH(p->c, b->ins, b->nins, b->capins, i);
}

/* phi: value '=' cls 'phi' label ref {',' label ref} */
static void phi(P *p, Blk *b, int to, const char *name, Cls k)
{
	Fn *f = p->f;
	Ref *args = NULL;
	int *from = NULL;
	int n = 0, cap = 0, capf = 0, nf = 0;
	if (!at_end(p))
		do {
			int l = label(p);
			Ref r = ref(p, k);
			VEC_PUSH(p->c, args, n, cap, r);
			VEC_PUSH(p->c, from, nf, capf, l);
		} while (accept(p, ','));
	if (!at_end(p))
		fail(p, "unexpected text after the phi");
	Phi ph = {.to = to, .cls = (uint8_t)k, .n = n, .arg = args ? args : arena_alloc(p->c->arena, sizeof(Ref))};
	f->val[to].cls = (uint8_t)k;
	if (name)
		f->val[to].name = name;
	VEC_PUSH(p->c, b->phi, b->nphi, b->capphi, ph);
	PhiFrom pf = {b->id, b->nphi - 1, from};
	VEC_PUSH(p->c, p->pf, p->npf, p->cappf, pf);
}

/* block line: phi | ins | 'ret' | 'jmp' label | 'jnz' ref [','] label [','] label */
static void block_line(P *p, Blk *b)
{
	if (b->jmp != J_NONE)
		fail(p, "text after the block's jump");
	skip_ws(p);
	if (accept_word(p, "ret")) {
		ir_ret(b);
	} else if (accept_word(p, "jmp")) {
		ir_jmp(b, label(p));
	} else if (accept_word(p, "jnz")) {
		Ref c = ref(p, KB);
		accept(p, ',');
		int s1 = label(p);
		accept(p, ',');
		int s2 = label(p);
		ir_jnz(b, c, s1, s2);
	} else {
		const char *save = p->p;
		if (p->p < p->eol && *p->p == '%') {
			const char *name;
			int to = value(p, &name);
			if (accept(p, '=')) {
				const char *s;
				int n = word(p, &s);
				Cls k = cls_letter(p, s, n);
				if (accept_word(p, "phi")) {
					if (b->nins)
						fail(p, "phi after an instruction");
					phi(p, b, to, name, k);
					return;
				}
			}
		}
		p->p = save;
		instruction(p, b);
		return;
	}
	if (!at_end(p))
		fail(p, "unexpected text after the jump");
}

static void header_line(P *p)
{
	Fn *f = p->f;
	Arena *a = p->c->arena;
	const char *s;
	int n = word(p, &s);
	if (word_is(s, n, "kernel")) {
		n = word(p, &s);
		f->name = arena_strndup(a, s, (size_t)n);
	} else if (word_is(s, n, "checked")) {
		f->checked = 1;
	} else if (word_is(s, n, "parambytes")) {
		f->param_bytes = small_int(p, 0, 1 << 30);
	} else if (word_is(s, n, "param")) {
		KParam k = {0};
		k.off = small_int(p, 0, 1 << 30);
		k.ty = (uint8_t)sk_word(p);
		n = word(p, &s);
		if (n < 4 || memcmp(s, "arg", 3) != 0) {
			p->p = s;
			fail(p, "expected argN");
		}
		P q = *p;
		q.p = s + 3;
		q.eol = s + n;
		k.arg = small_int(&q, 0, 1 << 20);
		n = word(p, &s);
		k.role = table_word(p, irt_role, 9, s, n);
		if (k.role == KP_SHAPE || k.role == KP_STRIDE)
			k.dim = small_int(p, 0, 64);
		VEC_PUSH(p->c, f->param, f->nparam, f->capparam, k);
	} else if (word_is(s, n, "array")) {
		SArray r = {0};
		if (small_int(p, 0, 1 << 20) != f->narrays)
			fail(p, "arrays must be numbered in order");
		n = word(p, &s);
		r.space = table_word(p, irt_space, 7, s, n);
		r.size = integer(p);
		if (r.size < 0 || r.size > (1LL << 32))
			fail(p, "bad array size");
		if (!accept_word(p, "align"))
			fail(p, "expected align");
		r.align = small_int(p, 0, 1 << 16);
		if (accept_word(p, "dynamic"))
			r.dynamic = 1;
		if (accept_word(p, "global")) {
			if (r.space != SP_CONST)
				fail(p, "only constant arrays can be global");
			r.global = 1;
		}
		if (accept_word(p, "name"))
			r.name = string(p);
		if (accept_word(p, "init")) {
			n = word(p, &s);
			if (n != 2 * r.size)
				fail(p, "init must give every byte of the array");
			unsigned char *init = arena_alloc(a, (size_t)r.size + 1);
			for (int64_t k = 0; k < r.size; k++) {
				char h[3] = {s[2 * k], s[2 * k + 1], 0};
				char *end;
				init[k] = (unsigned char)strtoul(h, &end, 16);
				if (*end || !isxdigit((unsigned char)h[0]))
					fail(p, "bad hex in init");
			}
			r.init = init;
		}
		VEC_PUSH(p->c, f->arrays, f->narrays, f->caparrays, r);
	} else if (word_is(s, n, "loc")) {
		Loc l;
		if (small_int(p, 0, 1 << 30) != f->nlocs)
			fail(p, "locs must be numbered in order");
		l.file = string(p);
		l.line = small_int(p, -1, 1 << 30);
		l.col = small_int(p, -1, 1 << 30);
		VEC_PUSH(p->c, f->locs, f->nlocs, f->caplocs, l);
	} else if (word_is(s, n, "check")) {
		CheckInfo k = {0};
		k.loc = -1;
		if (small_int(p, 0, 1 << 30) != f->nchecks)
			fail(p, "checks must be numbered in order");
		if (accept_word(p, "array"))
			k.array = string(p);
		if (accept_word(p, "axis"))
			k.axis = small_int(p, -1, 64);
		if (accept_word(p, "ndim"))
			k.ndim = small_int(p, 0, 64);
		if (accept_word(p, "ext")) {
			if (k.ndim < 1 || k.ndim > 8)
				fail(p, "ext needs 1 <= ndim <= 8");
			for (int d = 0; d < k.ndim; d++) {
				if (d)
					expect(p, ',');
				k.ext[d] = ref(p, KL);
			}
		}
		if (accept_word(p, "ptr"))
			k.ptr_size = small_int(p, 1, 1 << 20);
		if (accept_word(p, "loc"))
			k.loc = small_int(p, -1, 1 << 30);
		if (accept_word(p, "msg"))
			k.msg = string(p);
		VEC_PUSH(p->c, f->checks, f->nchecks, f->capchecks, k);
	} else {
		p->p = s;
		fail(p, "unknown header line");
	}
	if (!at_end(p))
		fail(p, "unexpected text at the end of the line");
}

/* Puts each phi's arguments into the order of its block's preds. */
static void order_phis(P *p)
{
	Fn *f = p->f;
	for (int i = 0; i < p->npf; i++) {
		PhiFrom *pf = &p->pf[i];
		Blk *b = f->blk[pf->blk];
		Phi *ph = &b->phi[pf->phi];
		if (ph->n != b->npred)
			continue;   /* left as written, for the verifier to see */
		Ref *arg = arena_alloc(p->c->arena, sizeof *arg * (size_t)(ph->n + 1));
		char *used = arena_alloc(p->c->arena, (size_t)ph->n + 1);
		for (int j = 0; j < b->npred; j++) {
			int k = 0;
			while (k < ph->n && (used[k] || pf->from[k] != b->pred[j]))
				k++;
			if (k == ph->n)
				ICE(p->c, "IR text: phi %%%d in @b%d has no argument from @b%d, a predecessor",
				    ph->to, b->id, b->pred[j]);
			used[k] = 1;
			arg[j] = ph->arg[k];
		}
		ph->arg = arg;
	}
}

static const char *line_end(const char *s)
{
	const char *e = s;
	while (*e && *e != '\n')
		e++;
	return e;
}

/* the end of the line's content: before a '#' comment outside strings */
static const char *content_end(const char *s, const char *e)
{
	int instr = 0;
	for (const char *q = s; q < e; q++) {
		if (*q == '\\' && instr && q + 1 < e)
			q++;
		else if (*q == '"')
			instr = !instr;
		else if (*q == '#' && !instr)
			return q;
	}
	return e;
}

Fn *ir_parse(Ctx *c, const char *text)
{
	P p = {.c = c};
	Fn *f = ir_new_fn(c, "kernel");
	p.f = f;

	/* first look: the labels and the largest %N */
	int maxval = -1, line = 0;
	for (const char *s = text; *s; line++) {
		const char *e = line_end(s);
		const char *ce = content_end(s, e);
		const char *q = s;
		while (q < ce && (*q == ' ' || *q == '\t'))
			q++;
		if (q < ce && *q == '@') {
			const char *t = ++q;
			while (q < ce && is_wordch(*q))
				q++;
			p.p = t;
			p.eol = ce;
			p.line = line + 1;
			if (q == t)
				fail(&p, "empty label");
			if (label_id(&p, t, (int)(q - t)) >= 0)
				fail(&p, "label defined twice");
			Name nm = {t, (int)(q - t), p.nlabels};
			VEC_PUSH(c, p.labels, p.nlabels, p.caplabels, nm);
		}
		for (q = s; q < ce; q++)
			if (*q == '%' && q + 1 < ce && isdigit((unsigned char)q[1])) {
				long v = 0;
				for (q++; q < ce && isdigit((unsigned char)*q) && v < MAXVAL; q++)
					v = v * 10 + (*q - '0');
				if (v > maxval && v < MAXVAL)
					maxval = (int)v;
			}
		s = *e ? e + 1 : e;
	}
	p.nextval = maxval + 1;
	for (int i = 0; i < p.nlabels; i++)
		ir_new_blk(f);

	Blk *cur = NULL;
	int nblk = 0;
	line = 0;
	for (const char *s = text; *s; line++) {
		const char *e = line_end(s);
		p.p = s;
		p.eol = content_end(s, e);
		p.line = line + 1;
		if (!at_end(&p)) {
			if (*p.p == '@') {
				cur = f->blk[nblk++];
				label(&p);
				if (!at_end(&p))
					fail(&p, "text after a label");
			} else if (cur)
				block_line(&p, cur);
			else
				header_line(&p);
		}
		s = *e ? e + 1 : e;
	}
	if (f->nblk == 0)
		ICE(c, "IR text: no blocks");
	ir_fill_preds(f);
	order_phis(&p);
	for (int i = 0; i < f->nval; i++)
		f->val[i].blk = -1;
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = f->blk[i];
		for (int j = 0; j < b->nphi; j++)
			f->val[b->phi[j].to].blk = i;
		for (int j = 0; j < b->nins; j++)
			if (b->ins[j].to >= 0)
				f->val[b->ins[j].to].blk = i;
	}
	return f;
}

/*
 * nfkc.c - the NFKC normal form of an identifier's code points.
 *
 * Python's tokenizer normalises every identifier to NFKC (PEP 3131), so
 * `ﬁ` (U+FB01) and `fi` name one variable, and `ｇrid` is `grid`.  The
 * lexer calls pj_nfkc for names with a non-ASCII character (ASCII is its
 * own normal form) and keeps the source span, so carets point at what
 * was written.  The three steps of Unicode's algorithm (UAX #15):
 *
 *   decompose   each code point to its full compatibility decomposition
 *               (nfkc_tab.h; Hangul syllables by arithmetic);
 *   reorder     runs of combining marks by canonical combining class,
 *               stably;
 *   compose     each mark or starter with the last starter when nothing
 *               between blocks it and the pair is a primary composite.
 *
 * The tables hold the code points an identifier may contain and come
 * from Python's unicodedata (tools/gen_nfkc_tables.py), the version
 * named by NFKC_UNICODE_VERSION.
 */
#include "../ptxjit.h"

#include "nfkc_tab.h"

enum {
	S_BASE = 0xAC00, L_BASE = 0x1100, V_BASE = 0x1161, T_BASE = 0x11A7,
	L_COUNT = 19, V_COUNT = 21, T_COUNT = 28, N_COUNT = V_COUNT * T_COUNT, S_COUNT = L_COUNT * N_COUNT,
};

/* The index of cp in the sorted list a[0..n-1], or -1. */
static int find(const uint32_t *a, int n, uint32_t cp)
{
	int lo = 0, hi = n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (a[mid] == cp)
			return mid;
		if (a[mid] < cp)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int ccc(uint32_t cp)
{
	int lo = 0, hi = NFKC_NCCC - 1;
	if (cp < 0x300)
		return 0;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (cp < nfkc_ccc[mid][0])
			hi = mid - 1;
		else if (cp > nfkc_ccc[mid][1])
			lo = mid + 1;
		else
			return (int)nfkc_ccc[mid][2];
	}
	return 0;
}

static int decompose(uint32_t cp, uint32_t *out)
{
	if (cp >= S_BASE && cp < S_BASE + S_COUNT) {
		uint32_t s = cp - S_BASE, t = s % T_COUNT;
		out[0] = L_BASE + s / N_COUNT;
		out[1] = V_BASE + s % N_COUNT / T_COUNT;
		if (!t)
			return 2;
		out[2] = T_BASE + t;
		return 3;
	}
	int i = cp < 0xA0 ? -1 : find(nfkc_dec_cp, NFKC_NDEC, cp);
	if (i < 0) {
		out[0] = cp;
		return 1;
	}
	int n = nfkc_dec_off[i + 1] - nfkc_dec_off[i];
	for (int k = 0; k < n; k++)
		out[k] = nfkc_dec_pool[nfkc_dec_off[i] + k];
	return n;
}

/* The primary composite of a and b, or 0. */
static uint32_t compose(uint32_t a, uint32_t b)
{
	if (a >= L_BASE && a < L_BASE + L_COUNT && b >= V_BASE && b < V_BASE + V_COUNT)
		return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT;
	if (a >= S_BASE && a < S_BASE + S_COUNT && (a - S_BASE) % T_COUNT == 0 && b > T_BASE && b < T_BASE + T_COUNT)
		return a + (b - T_BASE);
	int lo = 0, hi = NFKC_NCOMP - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const uint32_t *r = nfkc_comp[mid];
		if (r[0] == a && r[1] == b)
			return r[2];
		if (r[0] < a || (r[0] == a && r[1] < b))
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

int pj_nfkc(const uint32_t *in, int n, uint32_t *out)
{
	int m = 0;
	for (int i = 0; i < n; i++)
		m += decompose(in[i], out + m);
	for (int i = 1; i < m; i++) {
		int c = ccc(out[i]);
		for (int j = i; c && j > 0 && ccc(out[j - 1]) > c; j--) {
			uint32_t t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	}
	int k = 0, starter = -1, last = 0;
	for (int i = 0; i < m; i++) {
		uint32_t cp = out[i], comp;
		int c = ccc(cp);
		int blocked = starter >= 0 && k - 1 > starter && (last == 0 || last >= c);
		if (starter >= 0 && !blocked && (comp = compose(out[starter], cp))) {
			out[starter] = comp;
			continue;
		}
		if (c == 0)
			starter = k;
		last = c;
		out[k++] = cp;
	}
	return k;
}

const char *pj_nfkc_unicode_version(void)
{
	return NFKC_UNICODE_VERSION;
}

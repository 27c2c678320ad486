/*
 * check.h - the C unit tests' tiny framework.
 *
 *   TEST(name) { CHECK(cond); CHECK_EQ_INT(a, b); CHECK_STR_CONTAINS(s, sub); }
 *   int main(void) { RUN(name); ...; return check_summary("front"); }
 *
 * Each failed check prints file:line and the expression; the summary line
 * is "N passed, N failed" and the exit status is 1 if anything failed.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed_now, check_npass, check_nfail;

#define TEST(name) static void name(void)
#define RUN(name) do { \
	check_failed_now = 0; name(); \
	if (check_failed_now) { check_nfail++; printf("FAIL %s\n", #name); } \
	else check_npass++; \
} while (0)
#define CHECK(cond) do { if (!(cond)) { \
	printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); check_failed_now = 1; } } while (0)
#define CHECK_EQ_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); if (a_ != b_) { \
	printf("%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, a_, #b, b_); \
	check_failed_now = 1; } } while (0)
#define CHECK_STR_CONTAINS(s, sub) do { const char *s_ = (s); if (!s_ || !strstr(s_, (sub))) { \
	printf("%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, s_ ? s_ : "(null)", (sub)); \
	check_failed_now = 1; } } while (0)

static int check_summary(const char *suite)
{
	printf("%s: %d passed, %d failed\n", suite, check_npass, check_nfail);
	return check_nfail != 0;
}

#endif

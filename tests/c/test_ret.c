/*
 * test_ret.c - pj_infer_return, which the array-function layer asks for
 * the return type of a user's scalar function before it allocates the
 * outputs, and "<lambda@N>", which picks one lambda of several on a line.
 * The answers follow the typing of kernels (int32 + int32 is int64, a
 * float32 with a float64 literal is float64, tuples give several values);
 * errors in the function name its line.
 */
#include <string.h>

#include "check.h"
#include "core.h"

static int resolve(void *data, const char *name, PjValue *out, PjArena *arena)
{
	(void)data;
	(void)arena;
	if (!strcmp(name, "math")) {
		*out = (PjValue){.kind = PJ_V_MODULE, .s = "math"};
		return 1;
	}
	return 0;
}

static int ret_of(const char *src, const char *name, const char *sig, char *out, PjError *e)
{
	PjFunc f = {name, src, "user.py", 10, 0, resolve, NULL, NULL, 0, 0, 1, NULL, NULL, 0, 0};
	return pj_infer_return(&f, sig, out, 256, e);
}

static const char *ADD = "def add(x, y):\n    return x + y\n";

TEST(scalar_returns)
{
	char out[256];
	PjError e;
	CHECK_EQ_INT(ret_of(ADD, "add", "float32, float32", out, &e), PJ_OK);
	CHECK(!strcmp(out, "float32"));
	CHECK_EQ_INT(ret_of(ADD, "add", "int32, int32", out, &e), PJ_OK);
	CHECK(!strcmp(out, "int64"));
	CHECK_EQ_INT(ret_of(ADD, "add", "float32, int64", out, &e), PJ_OK);
	CHECK(!strcmp(out, "float64"));
	CHECK_EQ_INT(ret_of("def gt(a, b):\n    return a > b\n", "gt", "float64, float64", out, &e), PJ_OK);
	CHECK(!strcmp(out, "bool"));
}

TEST(unified_returns_and_tuples)
{
	char out[256];
	PjError e;
	const char *src = "def f(x):\n    if x > 0:\n        return 1\n    return x * 0.5\n";
	CHECK_EQ_INT(ret_of(src, "f", "float32", out, &e), PJ_OK);
	CHECK(!strcmp(out, "float64"));
	const char *two = "def g(x, y):\n    s = x + y\n    return s, y * 2\n";
	CHECK_EQ_INT(ret_of(two, "g", "float32, int32", out, &e), PJ_OK);
	CHECK(!strcmp(out, "(float64, int64)"));
	CHECK_EQ_INT(ret_of("def h(x):\n    x = x + 1\n", "h", "int64", out, &e), PJ_OK);
	CHECK(!strcmp(out, "none"));
	CHECK_EQ_INT(ret_of("def m(x):\n    return math.sqrt(x)\n", "m", "float32", out, &e), PJ_OK);
	CHECK(!strcmp(out, "float32"));
}

TEST(errors_name_the_line)
{
	char out[256];
	PjError e;
	CHECK_EQ_INT(ret_of("def bad(x):\n    return x[0]\n", "bad", "float32", out, &e), PJ_ERR_USER);
	CHECK_STR_CONTAINS(e.msg, "user.py:11:");
	CHECK_STR_CONTAINS(e.msg, "return x[0]");
	CHECK_EQ_INT(ret_of(ADD, "add", "float32", out, &e), PJ_ERR_USER);
	CHECK_STR_CONTAINS(e.msg, "takes 2 arguments");
	CHECK_EQ_INT(ret_of("def u(x):\n    return y\n", "u", "float32", out, &e), PJ_ERR_USER);
	CHECK_STR_CONTAINS(e.msg, "'y'");
}

TEST(lambda_at_offset)
{
	char out[256];
	PjError e;
	const char *src = "f, g = (lambda a, b: a + b), (lambda a, b: a > b)\n";
	int second = (int)(strstr(src + 10, "lambda") - src);
	char name[32];
	CHECK_EQ_INT(ret_of(src, "<lambda>", "int32, int32", out, &e), PJ_OK);
	CHECK(!strcmp(out, "int64"));
	snprintf(name, sizeof name, "<lambda@%d>", second);
	CHECK_EQ_INT(ret_of(src, name, "int32, int32", out, &e), PJ_OK);
	CHECK(!strcmp(out, "bool"));
	snprintf(name, sizeof name, "<lambda@%d>", 8);
	CHECK_EQ_INT(ret_of(src, name, "float32, float32", out, &e), PJ_OK);
	CHECK(!strcmp(out, "float32"));
	/* a lambda whose line goes on after it */
	const char *more = "r = reduce(lambda a, b: a * b, init=1)\nx = 3\n";
	snprintf(name, sizeof name, "<lambda@%d>", (int)(strstr(more, "lambda") - more));
	CHECK_EQ_INT(ret_of(more, name, "float64, float64", out, &e), PJ_OK);
	CHECK(!strcmp(out, "float64"));
}

int main(void)
{
	RUN(scalar_returns);
	RUN(unified_returns_and_tuples);
	RUN(errors_name_the_line);
	RUN(lambda_at_offset);
	return check_summary("ret");
}

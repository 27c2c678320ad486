/*
 * fib.c - seed 002's cpu_fibonacci written by hand in C: the same
 * doubly recursive function on int64.  bench/bench_cpu.py builds it with
 * cc -O2 and runs
 *
 *     fib N REPS         -> prints the median seconds of fib(N), and fib(N)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int64_t fib(int64_t n)
{
	if (n <= 1)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	/* the argument comes from the command line, so nothing is folded */
	int64_t n = argc > 1 ? atol(argv[1]) : 30;
	int reps = argc > 2 ? atoi(argv[2]) : 10;
	double *t = malloc(sizeof *t * (size_t)reps);
	int64_t r = 0;
	for (int i = 0; i < reps; i++) {
		double t0 = now();
		r = fib(n);
		t[i] = now() - t0;
	}
	qsort(t, (size_t)reps, sizeof *t, cmp);
	printf("%.9f %lld\n", t[reps / 2], (long long)r);
	return 0;
}

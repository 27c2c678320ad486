/*
 * matmul.c - seed 002's cpu_matrix_mult written by hand in C: the same
 * three loops over row-major float64 matrices, C = zeros, C[i,j] +=
 * A[i,k] * B[k,j].  bench/bench_cpu.py builds it with cc -O2 and runs
 *
 *     matmul N REPS      -> prints the median seconds of one product
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void matmul(const double *A, const double *B, double *C, long n, long m, long p)
{
	memset(C, 0, sizeof *C * (size_t)(n * p));
	for (long i = 0; i < n; i++)
		for (long j = 0; j < p; j++)
			for (long k = 0; k < m; k++)
				C[i * p + j] += A[i * m + k] * B[k * p + j];
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
	long n = argc > 1 ? atol(argv[1]) : 256;
	int reps = argc > 2 ? atoi(argv[2]) : 10;
	double *A = malloc(sizeof *A * (size_t)(n * n)), *B = malloc(sizeof *B * (size_t)(n * n));
	double *C = malloc(sizeof *C * (size_t)(n * n)), *t = malloc(sizeof *t * (size_t)reps);
	for (long i = 0; i < n * n; i++) {
		A[i] = (double)rand() / RAND_MAX;
		B[i] = (double)rand() / RAND_MAX;
	}
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		matmul(A, B, C, n, n, n);
		t[r] = now() - t0;
	}
	qsort(t, (size_t)reps, sizeof *t, cmp);
	printf("%.9f %.6f\n", t[reps / 2], C[n + 1]);
	return 0;
}
